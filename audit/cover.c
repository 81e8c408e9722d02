/* SPDX-License-Identifier: ISC */
/*
 * cover.c: the smallest set of flags that meets every need.
 *
 * Needs are disjunctions ("rpath or getpw"), so the smallest set is a
 * set-cover problem; with 13 flags it is solved exactly, by trying
 * every set that holds the floor.  Of the sets with the fewest flags the
 * one that grants least wins: the fewest of the table's rows apply under
 * it, then the fewest of its granted paths (getpw over rpath to read
 * /etc/passwd alone).  Needs that share their alternatives are tried
 * once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "policy.h"

int
cover_flag_count(int flags)
{
	return __builtin_popcount(flags & TAME_ALL);
}

/* tame_expand() of every public set, once: the solver asks often. */
static int
expanded(int flags)
{
	static int known[TAME_ALL + 1];

	flags &= TAME_ALL;
	if (known[flags] == 0)
		known[flags] = (tame_expand(flags) & TAME_ALL) | 0x10000;
	return known[flags] & TAME_ALL;
}

static int
meets(const int *alts, int n, int have)
{
	int i;

	for (i = 0; i < n; i++)
		if ((expanded(alts[i]) & ~have) == 0)
			return 1;
	return 0;
}

int
cover_meets(const struct need *nd, int flags, int exact)
{
	int have = expanded(flags);

	if (exact)
		return meets(nd->exact, nd->nexact, have);
	return meets(nd->alts, nd->nalts, have);
}

int
promises_meet(const struct need *nd, uint64_t promises)
{
	int i;

	if (nd->npalts < 0)
		return 1;	/* too many promises bear on it: not judged */
	for (i = 0; i < nd->npalts; i++)
		if ((nd->palts[i] & ~promises) == 0)
			return 1;
	return 0;
}

int
decl_meets(const struct need *nd, const struct decl *d)
{
	if (d->pledged)
		return promises_meet(nd, d->promises);
	return nd->nalts == 0 || cover_meets(nd, d->flags, 0);
}

/* How much a set grants: rows that apply, then granted paths. */
static long
reach(int flags)
{
	static long known[TAME_ALL + 1];
	tame_atoms held = tame_expand(flags);
	int i;
	long n = 0;

	if (known[flags] != 0)
		return known[flags];
	for (i = 0; i < tame_nrules; i++)
		if (tame_rule_applies(&tame_rules[i], held))
			n += 1000;
	for (i = 0; i < tame_nlpaths; i++)
		if (held & tame_lpaths[i].flag)
			n++;
	return known[flags] = n + 1;
}

static int
same_alts(const struct need *x, const struct need *y, int exact)
{
	if (exact)
		return x->nexact == y->nexact && memcmp(x->exact, y->exact,
		    (size_t)x->nexact * sizeof(int)) == 0;
	return x->nalts == y->nalts && memcmp(x->alts, y->alts,
	    (size_t)x->nalts * sizeof(int)) == 0;
}

/*
 * The best set holding floor, and none of never, that meets every need
 * in needs[0..n) that any such set can meet; the other sets as small
 * (but granting more) go to ties.  Returns the set.
 */
int
cover_solve(const struct need *const *needs, int n, int floor, int never,
    int exact, int *ties, int *nties, int maxties)
{
	const struct need **d;
	int nd = 0, i, j, free_bits = TAME_ALL & ~floor & ~never, sub, set;
	int have;
	int best = TAME_ALL, best_count = 99, c, pass;
	long best_reach = 0;

	d = xcalloc((size_t)n + 1, sizeof(*d));
	for (i = 0; i < n; i++) {
		if ((exact ? needs[i]->nexact : needs[i]->nalts) == 0)
			continue;	/* no set meets it: reported apart */
		for (j = 0; j < nd && !same_alts(d[j], needs[i], exact); j++)
			;
		if (j == nd)
			d[nd++] = needs[i];
	}
	if (nties != NULL)
		*nties = 0;
	for (pass = 0; pass < 2; pass++) {
		sub = 0;
		do {
			set = floor | sub;
			sub = (sub - free_bits) & free_bits;
			if ((c = cover_flag_count(set)) > best_count ||
			    (pass == 1 && (c != best_count || set == best)))
				continue;
			have = expanded(set);
			for (i = 0; i < nd; i++)
				if (!(exact ? meets(d[i]->exact, d[i]->nexact,
				    have) : meets(d[i]->alts, d[i]->nalts,
				    have)))
					break;
			if (i < nd)
				continue;
			if (pass == 1) {
				if (nties != NULL && *nties < maxties)
					ties[(*nties)++] = set;
			} else if (c < best_count || reach(set) < best_reach) {
				best = set;
				best_count = c;
				best_reach = reach(set);
			}
		} while (sub != 0);
	}
	free(d);
	return best;
}

/* Fewer flags first, then the set that grants less. */
long
cover_cost(int flags)
{
	return cover_flag_count(flags) * 1000000L + reach(flags);
}

/*
 * "stdio,rpath" (or "TAME_STDIO | TAME_RPATH"): malloc and rw together
 * are stdio; a flag another one in the set implies is left out.
 */
void
flags_text(int flags, char *buf, size_t len, int c_style)
{
	const struct tame_flagname *f;
	const char *sep = "";
	int i, k, implied = 0, n = 0;

	buf[0] = '\0';
	for (i = 0; i < tame_nflagnames; i++)
		if (flags & tame_flagnames[i].flag)
			implied |= tame_flagnames[i].implies &
			    ~tame_flagnames[i].flag;
	if ((flags & TAME_STDIO) == TAME_STDIO)
		implied |= TAME_STDIO;	/* said once, as stdio */
	for (i = 0; i < tame_nflagnames && (size_t)n < len; i++) {
		f = &tame_flagnames[i];
		if (f->flag == TAME_STDIO) {
			if ((flags & TAME_STDIO) != TAME_STDIO)
				continue;
		} else if (__builtin_popcount(f->flag) != 1 ||
		    !(flags & f->flag) || (implied & f->flag))
			continue;
		n += snprintf(buf + n, len - (size_t)n, "%s", sep);
		if (c_style) {
			n += snprintf(buf + n, len - (size_t)n, "TAME_");
			for (k = 0; f->name[k] != '\0' && (size_t)n + 1 < len;
			    k++)
				buf[n++] = (char)(f->name[k] - 'a' + 'A');
			buf[n] = '\0';
		} else
			n += snprintf(buf + n, len - (size_t)n, "%s", f->name);
		sep = c_style ? " | " : ",";
	}
	if (buf[0] == '\0')
		snprintf(buf, len, "%s", c_style ? "0" : "none");
}
