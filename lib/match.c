/* SPDX-License-Identifier: ISC */
/*
 * match.c: decide one system call against the table, in C.
 *
 * The compiled filter is the fast path; this is the same decision for
 * those who cannot run BPF: the violation reporter (which must say what
 * flag was missing), tame-audit, and the tests.  It allocates nothing and
 * calls nothing, so the SIGSYS handler may use it.
 */
#include <stdint.h>

#include "policy.h"

tame_atoms
tame_expand(int flags)
{
	tame_atoms atoms = 0;
	int i, f = flags;

	for (i = 0; i < tame_nflagnames; i++)
		if (f & tame_flagnames[i].flag)
			f |= tame_flagnames[i].implies;
	/* Implications are one level deep except CMSG -> UNIX -> RW. */
	for (i = 0; i < tame_nflagnames; i++)
		if (f & tame_flagnames[i].flag)
			f |= tame_flagnames[i].implies;
	/* stdio's atoms are malloc's and rw's: a whole flag adds its own */
	for (i = 0; i < tame_nflagnames; i++)
		if ((f & tame_flagnames[i].flag) == tame_flagnames[i].flag)
			atoms |= tame_flagnames[i].atoms;
	if (atoms != 0)
		atoms |= TAME__BASE;
	return atoms | TAME__ALWAYS;
}

tame_atoms
tame_promise_atoms_all(void)
{
	tame_atoms atoms = 0;
	int i;

	for (i = 0; i < tame_npromises; i++)
		atoms |= tame_promises[i].atoms;
	return atoms | TAME__BASE | TAME__ALWAYS;
}

int
tame_rule_args_match(const struct tame_rule *r, const uint64_t args[6],
    const struct tame_origin *o)
{
	const struct tame_cond *c;
	uint32_t v;
	int i, j, hit;

	for (i = 0; i < TAME_MAXCOND; i++) {
		c = &r->cond[i];
		switch (c->op) {
		case TC_NULL:
			if (args[c->arg] != 0)
				return 0;
			continue;
		case TC_NOTNULL:
			if (args[c->arg] == 0)
				return 0;
			continue;
		case TC_WITHIN:
			/* no atom the filter's target does not hold */
			if (!(o->held & TAME__FREE) &&
			    ((uint32_t)args[c->arg] & ~(uint32_t)((o->held |
			    TAME__STATE) >> (c->val[0] ? 32 : 0))) != 0)
				return 0;
			continue;
		case TC_SELF:
			if (o->pid <= 0 || (uint32_t)args[c->arg] !=
			    (uint32_t)o->pid)
				return 0;
			continue;
		case TC_UVID:
			if ((uint32_t)args[c->arg] != o->uvid)
				return 0;
			continue;
		case TC_OWNUID:
		case TC_OWNGID:
			if (!tame_owns_id(c->op, o->ids,
			    (uint32_t)args[c->arg]))
				return 0;
			continue;
		case TC_END:
			return 1;
		}
		/* int arguments are compared on their low 32 bits */
		v = (uint32_t)args[c->arg] & c->mask;
		for (hit = 0, j = 0; j < c->nval; j++)
			if (v == c->val[j])
				hit = 1;
		if (!hit)
			return 0;
	}
	return 1;
}

/* Does an earlier row of r's call, without argument tests, take r's? */
static int
behind_whole_row(const struct tame_rule *r, tame_atoms held)
{
	const struct tame_rule *e;

	for (e = tame_rules; e < r; e++)
		if (e->nr == r->nr && e->cond[0].op == TC_END &&
		    tame_rule_applies(e, held))
			return 1;
	return 0;
}

int
tame_rule_tame_reaches(const struct tame_rule *r)
{
	tame_atoms reach = tame_expand(TAME_ALL) | TAME__STATE, held;
	const struct tame_rule *e;
	int f, state;

	if ((r->any & reach) == 0 || (r->all & ~reach) != 0)
		return 0;
	/* all flags and state hold it: only a whole row before may not */
	for (e = tame_rules; e < r && (e->nr != r->nr ||
	    e->cond[0].op != TC_END); e++)
		;
	if (e == r)
		return 1;
	for (f = 0; f <= TAME_ALL; f++)
		for (state = 0; state < 2; state++) {
			held = tame_expand(f) | (state ? TAME__STATE : 0);
			if (tame_rule_applies(r, held) &&
			    !behind_whole_row(r, held))
				return 1;
		}
	return 0;
}

int
tame_policy_match(tame_atoms held, int nr, const uint64_t args[6],
    const struct tame_origin *o)
{
	return tame_policy_match_except(held, nr, args, o, -1);
}

int
tame_policy_match_except(tame_atoms held, int nr, const uint64_t args[6],
    const struct tame_origin *o, int except)
{
	const struct tame_rule *r;
	struct tame_origin with = *o;
	int i;

	with.held = held;	/* what TC_WITHIN compares a claim with */
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr == nr && r->action != except &&
		    tame_rule_applies(r, held) &&
		    tame_rule_args_match(r, args, &with))
			return i;
	}
	return -1;
}
