/* SPDX-License-Identifier: ISC */
/*
 * findings.c: from observations to what the report says.
 *
 *	the suggestion	the smallest flag set meeting every need, stdio
 *			always in it (memory and descriptor needs depend
 *			on the input), and each flag's evidence: the first
 *			call that no other flag of the set would allow
 *	the staircase	in the first run, the smallest set each suffix of
 *			the run needs: where tame() could narrow
 *	check		each marker's flags against what came after it:
 *			calls they do not allow (violations), and flags
 *			nothing after it needed
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "policy.h"

void
findings_warn(struct findings *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		err(1, NULL);
	va_end(ap);
	f->warnings = xrealloc(f->warnings, ((size_t)f->nwarnings + 1) *
	    sizeof(*f->warnings));
	f->warnings[f->nwarnings++] = s;
}

static int
bit_index(int bit)
{
	return __builtin_ctz((unsigned)bit);
}

/* The needs seen in run (or every run, run -1). */
static int
needs_of(const struct audit *a, int run, const struct need **out)
{
	int i, n = 0;

	for (i = 0; i < a->nneeds; i++)
		if (run < 0 || (a->needs[i].runs & (1ULL << run)))
			out[n++] = &a->needs[i];
	return n;
}

/* The flags whose name services tame() warms. */
#define NAME_SERVICES	(TAME_GETPW | TAME_DNSPATH)

/* Per flag of the suggestion, the first need nothing else meets. */
static void
evidence(const struct audit *a, struct findings *f)
{
	int bit, i, best, without, pass;

	for (bit = 1; bit <= TAME_PROC; bit <<= 1) {
		f->why[bit_index(bit)] = -1;
		/* a warmed flag has its evidence too: what used the service */
		if (!(f->flags & bit) || (bit & TAME_STDIO))
			continue;
		without = f->flags & ~bit;
		for (best = -1, i = 0; i < a->nneeds; i++)
			if (a->needs[i].nalts > 0 &&
			    !cover_meets(&a->needs[i], without, 0) &&
			    (best < 0 || a->needs[i].first_obs <
			    a->needs[best].first_obs))
				best = i;
		/*
		 * A warmed flag other flags of the set stand in for (ls -l:
		 * rpath reads /etc/passwd too) is there for what tame()
		 * loads before its filter: its evidence is the first call
		 * of the name service it grants.
		 */
		for (pass = 0; pass < 2; pass++)	/* its own first */
			for (i = 0; best < 0 && (f->warmed & bit) &&
			    i < a->nneeds; i++)
				if (a->needs[i].nalts > 0 &&
				    cover_meets(&a->needs[i], TAME_STDIO | bit,
				    0) && !cover_meets(&a->needs[i], TAME_STDIO |
				    (pass == 0 ? (NAME_SERVICES & ~bit) : 0), 0))
					best = i;
		f->why[bit_index(bit)] = best;
	}
	for (f->floor_why = -1, i = 0; i < a->nneeds; i++)
		if (a->needs[i].nalts > 0 &&
		    (!cover_meets(&a->needs[i], f->flags & ~TAME_MALLOC, 0) ||
		    !cover_meets(&a->needs[i], f->flags & ~TAME_RW, 0)) &&
		    (f->floor_why < 0 || a->needs[i].first_obs <
		    a->needs[f->floor_why].first_obs))
			f->floor_why = i;
}

/*
 * tame() only narrows, so each step of the staircase must be a subset of
 * the one before.  The best set of a suffix may not be (id: rpath reads
 * /etc/passwd early, getpw is the smaller set for the rest): where it
 * is not, the step is the best subset of the step before that meets the
 * rest of the run, which that step itself does.  suffix[i] is the best
 * set for observations idx[i..n) of run 0; it becomes the narrowing one.
 */
static void
narrow_only(const struct audit *a, struct findings *f, const long *idx,
    int *suffix, long n)
{
	const struct need **rest;
	unsigned char *ends;	/* ends[i]: some need's last call is i */
	long i, *last;
	int j, nrest, best, narrower;

	last = xcalloc((size_t)a->nneeds, sizeof(*last));
	rest = xcalloc((size_t)a->nneeds, sizeof(*rest));
	ends = xcalloc((size_t)n + 1, 1);
	for (j = 0; j < a->nneeds; j++)
		last[j] = -1;
	for (i = 0; i < n; i++)
		last[a->obs[idx[i]].need] = i;
	for (j = 0; j < a->nneeds; j++)
		if (last[j] >= 0)
			ends[last[j]] = 1;
	best = suffix[0];
	for (i = 1; i <= n; i++) {
		/* the rest's needs change only after a need's last call */
		if (ends[i - 1] && (suffix[i] & ~best) == 0)
			best = suffix[i];
		else if (ends[i - 1]) {
			for (nrest = 0, j = 0; j < a->nneeds; j++)
				if (last[j] >= i)
					rest[nrest++] = &a->needs[j];
			narrower = cover_solve(rest, nrest, f->floor & best,
			    f->cold | (TAME_ALL & ~best), 0, NULL, NULL, 0);
			if ((narrower & ~best) == 0)
				best = narrower;
		}
		suffix[i] = best;
	}
	free(last);
	free(rest);
	free(ends);
}

/* Suffix covers of run 0, and where they change. */
static void
staircase(const struct audit *a, struct findings *f)
{
	const struct need **present;
	unsigned char *seen;
	int *suffix, np = 0, cur;
	long i, n = 0, *idx;

	for (i = 0; i < a->nobs; i++)
		if (a->obs[i].run == 0)
			n++;
	if (n == 0)
		return;
	idx = xcalloc((size_t)n, sizeof(*idx));
	suffix = xcalloc((size_t)n + 1, sizeof(*suffix));
	present = xcalloc((size_t)a->nneeds, sizeof(*present));
	seen = xcalloc((size_t)a->nneeds, 1);
	for (n = 0, i = 0; i < a->nobs; i++)
		if (a->obs[i].run == 0)
			idx[n++] = i;
	cur = f->floor;
	suffix[n] = cur;
	for (i = n - 1; i >= 0; i--) {
		int need = a->obs[idx[i]].need;

		if (!seen[need]) {
			seen[need] = 1;
			present[np++] = &a->needs[need];
			/*
			 * A need the best set meets leaves it the best: fewer
			 * sets qualify, and it is still among them.
			 */
			if (!cover_meets(&a->needs[need], cur, 0))
				cur = cover_solve(present, np, f->floor,
				    f->cold, 0, NULL, NULL, 0);
		}
		suffix[i] = cur;
	}
	narrow_only(a, f, idx, suffix, n);
	f->steps = xcalloc((size_t)n + 1, sizeof(*f->steps));
	f->steps[f->nsteps++] = (struct step){ .after = -1,
	    .flags = suffix[0] };
	for (i = 1; i <= n; i++)
		if (suffix[i] != suffix[i - 1])
			f->steps[f->nsteps++] = (struct step){
			    .after = idx[i - 1], .flags = suffix[i] };
	free(idx);
	free(suffix);
	free(present);
	free(seen);
}

/* Is e d, or a marker that narrows d (directly or not)? */
static int
descends(const struct audit *a, int e, int d)
{
	for (; e >= 0; e = a->decls[e].prev)
		if (e == d)
			return 1;
	return 0;
}

/*
 * The promises of pledge marker d that nothing after it needed: every
 * call under d (or a narrower marker after it) is met without it.
 */
static void
unneeded_promises(const struct audit *a, struct findings *f, int d)
{
	uint64_t declared = a->decls[d].promises, p;
	long i;
	int k, ok;

	for (k = 1; k < tame_npromises; k++) {	/* [0] is stdio: kept */
		p = (uint64_t)1 << k;
		if (!(declared & p))
			continue;
		for (ok = 1, i = 0; i < a->nobs && ok; i++) {
			const struct obs *o = &a->obs[i];
			const struct decl *held = &a->decls[o->decl];

			if (!descends(a, o->decl, d) || !held->pledged ||
			    !decl_meets(&a->needs[o->need], held))
				continue;
			ok = promises_meet(&a->needs[o->need],
			    held->promises & ~p);
		}
		if (ok)
			f->unneeded[f->nunneeded++] = (struct finding){
			    .decl = d, .need = -1, .promise = p };
	}
}

static void
check(const struct audit *a, struct findings *f)
{
	unsigned char *hit;
	int d, bit, ok, implied, k;
	long i;

	f->violations = xcalloc((size_t)a->nneeds * (size_t)a->ndecls + 1,
	    sizeof(*f->violations));
	f->unneeded = xcalloc((size_t)a->ndecls * 64 + 1,
	    sizeof(*f->unneeded));
	hit = xcalloc((size_t)a->nneeds * (size_t)a->ndecls + 1, 1);
	for (i = 0; i < a->nobs; i++) {
		const struct obs *o = &a->obs[i];

		if (decl_meets(&a->needs[o->need], &a->decls[o->decl]) ||
		    hit[(size_t)o->need * (size_t)a->ndecls + (size_t)o->decl]++)
			continue;
		f->violations[f->nviolations++] = (struct finding){
		    .decl = o->decl, .need = o->need, .flag = 0 };
	}
	for (d = 0; d < a->ndecls; d++) {
		int declared = a->decls[d].flags;

		if (a->decls[d].pledged) {
			unneeded_promises(a, f, d);
			continue;
		}
		for (implied = 0, k = 0; k < tame_nflagnames; k++)
			if (__builtin_popcount(tame_flagnames[k].flag) == 1 &&
			    (declared & tame_flagnames[k].flag))
				implied |= tame_flagnames[k].implies;
		for (bit = 1; bit <= TAME_PROC; bit <<= 1) {
			if (!(declared & bit) || (bit & TAME_STDIO) ||
			    (implied & bit))
				continue;
			for (ok = 1, i = 0; i < a->nobs && ok; i++) {
				const struct obs *o = &a->obs[i];
				const struct need *nd = &a->needs[o->need];
				int held = a->decls[o->decl].flags;

				/* a narrower marker after d drops bit too */
				if (!descends(a, o->decl, d) || nd->nalts == 0 ||
				    a->decls[o->decl].pledged ||
				    !cover_meets(nd, held, 0))
					continue;
				/*
				 * A call the declared flags answer as it was
				 * answered must keep that answer: stty's
				 * TIOCGWINSZ without ioctl "works" (ENOTTY),
				 * and stty fails.
				 */
				ok = cover_meets(nd, held & ~bit,
				    cover_meets(nd, held, 1));
			}
			if (ok)
				f->unneeded[f->nunneeded++] = (struct finding){
				    .decl = d, .need = -1, .flag = bit };
		}
	}
	free(hit);
}

/*
 * pledge's promises for the run: stdio, as the floor of the flags, and
 * for each call the first of its promise sets that the suggested flags
 * also allow (its first at all where none is).  0 when some call bears
 * on too many promises to know.
 */
static uint64_t
promises_of(const struct need **all, int n, int flags, int floor)
{
	/* tame_promises[0] is stdio, in every pledge line */
	tame_atoms within = tame_expand(flags) | tame_promises[0].atoms;
	uint64_t p = 1, pick;
	int i, k;

	/*
	 * The floor's flags (the name service pledge() warms, as tame()
	 * does: getpw, dns) by the promise that holds each flag's own atom
	 */
	for (i = 0; i < tame_npromises; i++)
		if (tame_promises[i].atoms & (tame_atoms)(floor & ~TAME_STDIO))
			p |= (uint64_t)1 << i;

	for (i = 0; i < n; i++) {
		/*
		 * A call no promise allows is a blocker, said as such; one
		 * no flag allows but a promise does (exec, a pseudo-
		 * terminal) is pledge's: the promises say what it needs.
		 */
		if (all[i]->npalts == 0)
			continue;
		if (all[i]->npalts < 0)
			return 0;
		pick = all[i]->palts[0];
		for (k = 0; k < all[i]->npalts; k++)
			if ((promises_atoms(all[i]->palts[k]) & ~within) == 0) {
				pick = all[i]->palts[k];
				break;
			}
		p |= pick;
	}
	return p;
}

void
findings_make(const struct audit *a, struct findings *f, int checking,
    int warmed, int cold)
{
	const struct need **all;
	int n, i, r, set, bit;

	memset(f, 0, sizeof(*f));
	f->floor = TAME_STDIO | warmed;
	f->warmed = warmed;
	f->cold = cold;
	all = xcalloc((size_t)a->nneeds, sizeof(*all));
	n = needs_of(a, -1, all);
	f->flags = cover_solve(all, n, f->floor, cold, 0, f->ties, &f->nties,
	    8);
	f->exact = cover_solve(all, n, f->floor, cold, 1, NULL, NULL, 0);
	f->promises = promises_of(all, n, f->flags, f->floor);
	evidence(a, f);
	for (r = 0; r < a->nruns; r++) {
		n = needs_of(a, r, all);
		set = cover_solve(all, n, f->floor, cold, 0, NULL, NULL, 0);
		for (bit = 1; bit <= TAME_PROC; bit <<= 1)
			if (set & bit)
				f->runs_needing[bit_index(bit)]++;
	}
	f->unexpressible = xcalloc((size_t)a->nneeds, sizeof(int));
	f->soft = xcalloc((size_t)a->nneeds, sizeof(int));
	for (i = 0; i < a->nneeds; i++) {
		if (a->needs[i].nalts == 0)
			f->unexpressible[f->nunexpressible++] = i;
		else if (!a->needs[i].code &&
		    !cover_meets(&a->needs[i], f->flags, 1))
			f->soft[f->nsoft++] = i;
	}
	staircase(a, f);
	if (checking)
		check(a, f);
	free(all);
}

void
findings_free(struct findings *f)
{
	int i;

	for (i = 0; i < f->nwarnings; i++)
		free(f->warnings[i]);
	free(f->warnings);
	free(f->load);
	free(f->steps);
	free(f->unexpressible);
	free(f->soft);
	free(f->violations);
	free(f->unneeded);
	for (i = 0; i < f->nblockers; i++) {
		free(f->blockers[i].detail);
		free(f->blockers[i].todo);
	}
	free(f->blockers);
	memset(f, 0, sizeof(*f));
}
