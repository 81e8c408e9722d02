/* SPDX-License-Identifier: ISC */
/*
 * tree_load.c: a tree's programs that load code on demand, decided by a
 * run under a profile that loads their modules first (tree_load.h).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tree_load.h"

/*
 * Program i's modules, ',' between them, where its only blockers are
 * code mapped from files a profile line can name; else NULL.
 */
static char *
modules_only(const struct tree *t, int i)
{
	const struct program *pr = &t->p[i];

	if (pr->f.tameable || tree_is_launcher(t, i) || pr->unreached > 0 ||
	    pr->processes == 0)
		return NULL;
	return verdict_modules(pr->a, &pr->f, ',', 1);
}

/* The profile to run under: every tameable program's line, and theirs. */
static char *
candidate(const struct tree *t)
{
	struct profile_entry e;
	char *text = NULL;
	size_t n = 0;
	FILE *f;
	int i;

	if ((f = open_memstream(&text, &n)) == NULL)
		err(1, NULL);
	for (i = 0; i < t->n; i++) {
		if ((!t->p[i].f.tameable && t->p[i].load == NULL) ||
		    !profile_path_ok(t->p[i].exe))
			continue;
		e = (struct profile_entry){ .path = t->p[i].exe,
		    .flags = t->p[i].f.flags, .load = t->p[i].load };
		if (profile_write_entry(f, &e, NULL) == -1)
			err(1, NULL);
	}
	if (fclose(f) == EOF)
		err(1, NULL);
	return text;
}

void
tree_load(struct options *o, struct findings *f)
{
	struct tree *t = &o->tree;
	char diff[512], names[1024], *text;
	int i, n = 0, len = 0, same;

	if (o->ctx.checking || o->cut_short || t->nruns == 0 ||
	    (o->profile == NULL && t->n < 2))
		return;
	tree_judge(t);
	names[0] = '\0';
	for (i = 0; i < t->n; i++) {
		if ((t->p[i].load = modules_only(t, i)) == NULL)
			continue;
		n++;
		if (len < (int)sizeof(names))
			len += snprintf(names + len, sizeof(names) - len,
			    "%s%s", len ? ", " : "", t->p[i].exe);
	}
	if (n == 0)
		return;
	/* the command is the one program: its own runs decided it */
	if (t->n == 1 && f->tameable && f->load != NULL) {
		free(t->p[0].load);
		t->p[0].load = xstrdup(f->load);
		for (i = 0; t->p[0].load[i] != '\0'; i++)
			if (t->p[0].load[i] == ':')
				t->p[0].load[i] = ',';
		return;
	}
	if (!o->hermetic) {
		findings_warn(f, "the programs of the tree that load code on "
		    "demand (%s) could be tamed with it loaded first, but a "
		    "run must decide that: %s", names, o->noview[0] != '\0' ?
		    o->noview : "--once makes one run only");
		same = 0;
	} else {
		text = candidate(t);
		same = runs_profiled(o, text, diff, sizeof(diff));
		free(text);
		if (!same)
			findings_warn(f, "the programs of the tree that load "
			    "code on demand (%s) were run under a profile "
			    "that loads it first, and the command went another "
			    "way (%s): they are left out", names, diff);
	}
	for (i = 0; !same && i < t->n; i++) {
		free(t->p[i].load);
		t->p[i].load = NULL;
	}
}
