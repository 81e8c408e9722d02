/* SPDX-License-Identifier: ISC */
/*
 * tree_warm.c: a tree's programs judged with the name service warmed, as
 * a single program is (tree_warm.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "tame.h"
#include "tree_warm.h"

/* The sets of name services a run warms, in o->warmed[]'s order. */
static const int warm_sets[3] = { TAME_GETPW, TAME_DNSPATH,
    TAME_GETPW | TAME_DNSPATH };

/* Are the programs' own answers shown: a profile, or more than one? */
static int
answers_shown(const struct options *o)
{
	const struct tree *t = &o->tree;

	return o->profile != NULL || t->n > 1 ||
	    (t->n == 1 && tree_is_launcher(t, 0));
}

/*
 * The name services program i used after its marker, where its answer
 * can come from a warmed run: not a launcher (it runs untamed), not a
 * program some image of which the shim did not reach.
 */
static int
services_used(const struct tree *t, int i)
{
	if (tree_is_launcher(t, i) || t->p[i].unreached > 0)
		return 0;
	return decide_name_services(t->p[i].a);
}

/*
 * Program i's best answer from the warmed trees whose services it used
 * (ns), or none: its warmed calls take the place of its cold ones.
 */
static void
choose(struct options *o, int i, int ns)
{
	struct program *pr = &o->tree.p[i], *wp;
	struct tree *wt;
	struct findings fw, best = { 0 };
	struct audit *cold;
	int k, j, w, chosen = -1;

	/* a cold answer never holds a flag that warms what it used */
	pr->cold = ns;
	findings_free(&pr->f);
	verdict_findings(pr->a, &pr->f, 0, ns);
	for (k = 0; k < 3; k++) {
		w = warm_sets[k];
		wt = &o->warmed[k];
		if ((w & ~ns) != 0 || (j = tree_program_find(wt, pr->exe)) < 0)
			continue;
		wp = &wt->p[j];
		tree_name_runs(wt, j);
		verdict_findings(wp->a, &fw, w, ns & ~w);
		if (fw.tameable && decide_same_way(pr->a, wp->a, fw.flags) < 0 &&
		    decide_better(&fw, chosen >= 0 ? &best : &pr->f)) {
			if (chosen >= 0)
				findings_free(&best);
			best = fw;
			chosen = k;
		} else
			findings_free(&fw);
	}
	if (chosen < 0)
		return;
	findings_free(&best);
	wt = &o->warmed[chosen];
	wp = &wt->p[tree_program_find(wt, pr->exe)];
	cold = pr->a;		/* the warmed tree frees it */
	pr->a = wp->a;
	wp->a = cold;
	pr->warmed = warm_sets[chosen];
	pr->cold = ns & ~pr->warmed;
	pr->runs_of = wt;
	o->ctx.log_is_temporary = 1;
}

void
tree_warm(struct options *o, struct findings *f, const struct run_out *first,
    int from_exec)
{
	struct tree *t = &o->tree;
	char names[64], used[1024];
	int i, k, ns, need = 0, len = 0;

	if (o->ctx.checking || from_exec || o->cut_short || t->nruns == 0)
		return;
	tree_judge(t);
	if (!answers_shown(o))
		return;
	used[0] = '\0';
	for (i = 0; i < t->n; i++) {
		if ((ns = services_used(t, i)) == 0)
			continue;
		/*
		 * One run for each set of services some program used,
		 * warmed whole (a single program's audit also tries each
		 * part alone: a tree's runs cost a whole suite each).
		 */
		need |= 1 << tree_warm_index(ns);
		if (len < (int)sizeof(used))
			len += snprintf(used + len, sizeof(used) - len, "%s%s",
			    len ? ", " : "", t->p[i].exe);
	}
	if (need == 0)
		return;
	if (!o->hermetic) {
		findings_warn(f, "the programs of the tree that used the name "
		    "service (%s) were judged as one run saw them, with "
		    "nothing warmed as a real tame() of getpw or dnspath "
		    "warms it: %s, and their flags may ask for more than they "
		    "need", used, o->noview[0] != '\0' ? o->noview :
		    "--once makes one run only");
		return;
	}
	for (k = 0; k < 3; k++) {
		if (!(need & (1 << k)) || runs_tree_warm(o, warm_sets[k],
		    &o->warmed[k], first->status))
			continue;
		flags_text(warm_sets[k], names, sizeof(names), 0);
		findings_warn(f, "the tree's run with the name service warmed "
		    "for %s ended otherwise than the first: its programs are "
		    "judged without it", names);
	}
	for (i = 0; i < t->n; i++)
		if ((ns = services_used(t, i)) != 0)
			choose(o, i, ns);
}

void
tree_warm_free(struct options *o)
{
	int k;

	for (k = 0; k < 3; k++)
		tree_free(&o->warmed[k]);
}
