/* SPDX-License-Identifier: ISC */
/*
 * decide.c: the runs after the audited one, and what they decide
 * (decide.h).  Each is made in a view (runs.h) that starts from the
 * files the audited run started from; where the audit makes one run
 * only, the report says what such a run would have decided.
 */
#include <err.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "decide.h"
#include "options.h"
#include "policy.h"
#include "runs.h"
#include "tame.h"
#include "tame_int.h"

/* Why no run after the first is made. */
static const char *
no_second_run(const struct options *o)
{
	return o->noview[0] != '\0' ? o->noview : "--once makes one run only";
}

/*
 * --check: a declared getpw or dnspath that nothing after the marker
 * needed may still have been needed by the marker itself: tame() of it
 * loaded the name service (the nscd probe's AF_UNIX socket, the modules)
 * before its filter went in, and without it that loading comes later,
 * under the filter (wget: socket AF_UNIX needs unix or dnspath or getpw).
 * So the command runs again with its tame() warming nothing, and such a
 * flag stays "not needed" only where that run needed it no more.  The
 * second run's violations are not the program's: a real tame() warms.
 */
void
decide_check(struct options *o, struct audit *a, struct findings *f,
    int from_exec)
{
	struct run_out ro = RUN_OUT_NONE;
	struct findings fc;
	struct audit *c;
	int i, j, k, keep, fe = 0;

	findings_make(a, f, 1, 0, 0);
	if (o->argv == NULL || o->nlogs > 0 || from_exec)
		return;
	for (i = k = 0; i < f->nunneeded; i++)
		if (f->unneeded[i].flag & (TAME_GETPW | TAME_DNSPATH))
			k++;
	if (k == 0)
		return;
	if (!o->hermetic) {
		findings_warn(f, "%s: getpw and dnspath were judged as the "
		    "run was made, with the name service loaded by tame(); "
		    "without them it loads later, and may need them",
		    no_second_run(o));
		return;
	}
	runs_discard(&ro);
	c = runs_traced(o, NULL, TRACED_COLD, 0, &ro, &fe);
	runs_forget(&ro);
	findings_make(c, &fc, 1, 0, 0);
	for (i = k = 0; i < f->nunneeded; i++) {
		const struct finding *u = &f->unneeded[i];

		keep = !(u->flag & (TAME_GETPW | TAME_DNSPATH));
		for (j = 0; j < fc.nunneeded && !keep; j++)
			keep = fc.unneeded[j].flag == u->flag &&
			    fc.unneeded[j].decl == u->decl;
		if (keep)
			f->unneeded[k++] = *u;
	}
	f->nunneeded = k;
	findings_free(&fc);
	audit_free(c);
}

/*
 * The name services a cold run used after the marker: a real tame() of
 * getpw or dnspath loads them before its filter goes in (tame(3)), so a
 * run under those flags does not make the calls loading them made here.
 * A flag counts when it answers some call as traced and the other does
 * not (the passwd files; the resolver's); calls both answer
 * (nsswitch.conf) count for both when nothing else tells them apart.
 * A soft denial under them (an O_PATH lookup's EACCES) is no use, except
 * to a call the program survives failing (verdict.c: need_benign), which
 * the suggestion is judged by too: glibc's nscd probe, whose connect
 * failed anyway, is no reason to warm the resolver for ls -l.
 */
/*
 * Is nd a call on a path that is none of the name services' own files
 * (passwd, nsswitch.conf, resolv.conf, ...: the table's entries for
 * getpw and dnspath)?  Such a call tells nothing of the name service
 * even where getpw or dnspath answers it as traced: the dynamic loader's
 * files, which they grant only so that a module loaded late fails gently
 * (ar's dlopen() of its plugins), or a lookup in the working directory
 * that fails alike under them (cp's O_PATH open of its target).
 */
static int
not_name_service_files(const struct need *nd)
{
	const char *q = strchr(nd->what, '"'), *e;
	char path[PATH_MAX];
	int i;

	if (q == NULL || (e = strchr(q + 1, '"')) == NULL ||
	    (size_t)(e - q - 1) >= sizeof(path))
		return 0;	/* no path: a socket, the nscd's connect */
	memcpy(path, q + 1, (size_t)(e - q - 1));
	path[e - q - 1] = '\0';
	i = tame__path_entry(TAME_GETPW | TAME_DNSPATH, path, TL_READ);
	return i < 0 || tame_lpaths[i].loader;
}

int
decide_name_services(const struct audit *a)
{
	const struct need *nd;
	const int *alts;
	int i, k, n, any, g, d, only = 0, shared = 0;

	for (i = 0; i < a->nneeds; i++) {
		nd = &a->needs[i];
		if (not_name_service_files(nd))
			continue;
		alts = need_benign(nd) ? nd->alts : nd->exact;
		n = need_benign(nd) ? nd->nalts : nd->nexact;
		for (g = d = 0, k = 0; k < n; k++) {
			g |= alts[k] & TAME_GETPW;
			d |= alts[k] & TAME_DNSPATH;
		}
		any = g | d;
		if (g && d)
			shared |= any;
		else
			only |= any;
	}
	return only != 0 ? only : shared;
}

/*
 * Would the warm run's suggestion have done for the first run too?  A
 * run changes what the next one finds, where it runs outside a view (cp
 * opens the copy the first run made without O_CREAT, and needs no
 * cpath), so a second run may go another way and need less than the
 * program does.  Warming moves the name service's calls before the
 * filter, nothing else: every need of the first run must be met by the
 * warm run's flags, or be a call the warm run made before its marker.
 * Returns the first need neither does, or -1.
 */
int
decide_same_way(const struct audit *first, const struct audit *warm,
    int flags)
{
	const struct audit *b = warm->before;
	const struct need *nd;
	int i, j;

	for (i = 0; i < first->nneeds; i++) {
		nd = &first->needs[i];
		if (nd->count == 0 || (nd->nalts > 0 &&
		    cover_meets(nd, flags, 0)))
			continue;
		for (j = 0; b != NULL && j < b->nneeds; j++)
			if (strcmp(b->needs[j].what, nd->what) == 0 &&
			    (nd->module == NULL || (b->needs[j].module != NULL &&
			    strcmp(b->needs[j].module, nd->module) == 0)))
				break;
		if (b == NULL || j == b->nneeds)
			return i;
	}
	return -1;
}

/* Is a better than b: tameable first, then fewer flags granting less. */
int
decide_better(const struct findings *a, const struct findings *b)
{
	if (a->tameable != b->tameable)
		return a->tameable;
	if (!a->tameable)
		return a->nblockers < b->nblockers;
	return cover_cost(a->flags) < cover_cost(b->flags);
}

/*
 * A run per name service a real tame() would warm: each nonempty subset
 * of ns, at most three runs.  One that ended otherwise than the first,
 * or went another way (decide_same_way), is not used, and no further one is
 * made.  The best of them, if better than the first run's, takes its
 * place in *a and f.
 */
static void
warm_runs(struct options *o, struct audit **a, struct findings *f,
    const struct run_out *first, int ns)
{
	struct audit *warm[3] = { NULL };
	struct findings fw[3];
	struct run_out ro;
	char names[64];
	const char *more;
	int i, k, w, best = -1, fe = 0;

	for (k = 0, w = ns & -ns; w != 0 && k < 3; w = (w - ns) & ns, k++) {
		ro = (struct run_out)RUN_OUT_NONE;
		runs_discard(&ro);
		warm[k] = runs_traced(o, NULL, TRACED_WARM, w, &ro, &fe);
		runs_forget(&ro);
		verdict_findings(warm[k], &fw[k], w, ns & ~w);
		flags_text(w, names, sizeof(names), 0);
		more = k < 2 && ((w - ns) & ns) != 0 ?
		    ", nor another warmed run made" : "";
		if (ro.status != first->status)
			findings_warn(f, "the run with the name service "
			    "warmed for %s ended otherwise than the first: not "
			    "used%s", names, more);
		else if (fw[k].tameable && (i = decide_same_way(*a, warm[k],
		    fw[k].flags)) >= 0)
			findings_warn(f, "the run with the name service "
			    "warmed for %s went another way than the first: "
			    "its flags do not allow %s, which the first "
			    "needed: not used%s", names, (*a)->needs[i].what,
			    more);
		else {
			if (decide_better(&fw[k], best < 0 ? f : &fw[best]))
				best = k;
			continue;
		}
		k++;
		break;
	}
	if (best >= 0) {
		o->ctx.log_is_temporary = 1;
		findings_free(f);
		*f = fw[best];
		audit_free(*a);
		*a = warm[best];
		warm[best] = NULL;
	}
	for (i = 0; i < k; i++)
		if (warm[i] != NULL) {
			findings_free(&fw[i]);
			audit_free(warm[i]);
		}
}

/*
 * A run under the suggestion ended the same: the blockers (code, soft)
 * are lifted, noted in f->decided when no --verify asked for the run,
 * and the verdict is made again.
 */
static void
lift_blockers(const struct audit *a, struct findings *f, int by_default)
{
	int i;

	for (i = 0; by_default && i < f->nblockers; i++)
		f->decided |= 1 << f->blockers[i].kind;
	verdict_lift(a, f);
}

/* The run under the suggestion went otherwise than ref: a blocker. */
static void
went_otherwise(struct findings *f, const char *diff)
{
	verdict_add(f, BLOCK_VERIFY, -1, xstrdup(diff), xstrdup("under the "
	    "suggestion the program went another way: audit it with other "
	    "input, or tame it by hand where its --check is clean"));
}

/*
 * Did the command end under the suggestion as ref did?  First with the
 * modules it loaded after its marker loaded before tame() (tame-exec -l:
 * the program runs as audited), then without them (a module that fails
 * to load may be one the program does without): the first way that ends
 * the same is the suggestion's, its modules into f->load.  Else 0, with
 * the difference (of the first way tried) in diff.
 */
static int
tamed_same(struct options *o, const struct audit *a, struct findings *f,
    const struct run_out *ref, char *diff, size_t len)
{
	char *load = verdict_modules(a, f, ':', 0), other[512];

	if (load != NULL && runs_tamed(o, f->flags, load, ref, diff, len)) {
		free(f->load);
		f->load = load;
		return 1;
	}
	if (runs_tamed(o, f->flags, NULL, ref, load != NULL ? other : diff,
	    load != NULL ? sizeof(other) : len)) {
		free(load);
		return 1;
	}
	free(load);
	return 0;
}

/*
 * Blockers that only a run decides (code, soft; only_survivable) are
 * decided by one: the command runs plainly, then under the suggestion,
 * each in a view, and is tameable when the two end the same, with the
 * same output and files.
 */
static void
decide(struct options *o, const struct audit *a, struct findings *f)
{
	struct run_out plain = RUN_OUT_NONE;
	char diff[512];

	if (runs_plainly(o, &plain) == -1)
		findings_warn(f, "a run under the suggestion would decide "
		    "this, but the command, run plainly in a view to compare "
		    "with, did not finish within %d s", o->timeout);
	else if (tamed_same(o, a, f, &plain, diff, sizeof(diff)))
		lift_blockers(a, f, 1);
	else
		went_otherwise(f, diff);
	runs_forget(&plain);
}

/*
 * Are all blockers (if any) answers the program may go on from: a soft
 * denial, a module that failed to load (Python falls back to its own
 * json)?  Then a run under the suggestion can decide; an exec or a call
 * no flag allows would only kill it.
 */
static int
only_survivable(const struct findings *f)
{
	int i;

	for (i = 0; i < f->nblockers; i++)
		if (f->blockers[i].kind != BLOCK_SOFT &&
		    f->blockers[i].kind != BLOCK_CODE)
			return 0;
	return 1;
}

void
decide_suggestion(struct options *o, struct audit **a, struct findings *f,
    const struct run_out *first, int from_exec)
{
	char diff[512], *what;
	int ns = 0, audited = o->argv != NULL && o->nlogs == 0;

	if (o->cut_short) {
		/* every later run would be cut as well: nothing to decide */
		verdict_findings(*a, f, 0, 0);
		if (asprintf(&what, "%s did not finish within %d s and was "
		    "killed", o->argv[0], o->timeout) == -1)
			err(1, NULL);
		verdict_add(f, BLOCK_TIMEOUT, -1, what, xstrdup("this report "
		    "covers what it did until then, and the rest of its run "
		    "may need more: give --timeout more seconds, or a smaller "
		    "input, for a suggestion"));
		return;
	}
	if (audited && !from_exec)
		ns = decide_name_services(*a);
	if (ns != 0 && !o->hermetic)
		ns = -1;
	verdict_findings(*a, f, 0, ns > 0 ? ns : 0);
	if (ns > 0)
		warm_runs(o, a, f, first, ns);
	if (ns < 0)
		findings_warn(f, "%s: the run with the name service "
		    "warmed, as a real tame() of getpw or dnspath warms "
		    "it, was not made, and the suggestion may ask for "
		    "more than it needs", no_second_run(o));
	if (o->verify && only_survivable(f)) {
		if (tamed_same(o, *a, f, first, diff, sizeof(diff)))
			lift_blockers(*a, f, 0);
		else
			went_otherwise(f, diff);
	} else if (!o->verify && !f->tameable && only_survivable(f) &&
	    !from_exec && audited) {
		if (o->hermetic)
			decide(o, *a, f);
		else if (o->noview[0] == '\0')
			findings_warn(f, "a run under the suggestion would "
			    "decide this: audit without --once");
		else
			findings_warn(f, "a run under the suggestion would "
			    "decide this, but here the audit makes one run "
			    "only: %s", o->noview);
	}
}
