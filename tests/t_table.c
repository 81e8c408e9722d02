/* SPDX-License-Identifier: ISC */
/*
 * t_table.c: invariants of the policy table, the one source of truth.
 * No filter is installed here.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>

#include "compile.h"
#include "harness.h"
#include "policy.h"

/*
 * Every row's number is the one libseccomp knows by that name, but the
 * supervisor's: a number above every real one that no kernel, and so no
 * name, gives a call (policy.h, TAME_ASK_NR).
 */
START_TEST(test_names_resolve_through_libseccomp)
{
	const struct tame_rule *r;
	int i, ask = 0;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr == TAME_ASK_NR) {
			ck_assert_str_eq(r->name, "tame_ask");
			ck_assert_int_eq(seccomp_syscall_resolve_name(r->name),
			    __NR_SCMP_ERROR);
			ck_assert_ptr_null(seccomp_syscall_resolve_num_arch(
			    SCMP_ARCH_NATIVE, r->nr));
			ck_assert_ptr_null(tame_syscall_name(r->nr));
			ask++;
			continue;
		}
		ck_assert_msg(seccomp_syscall_resolve_name(r->name) == r->nr,
		    "%s: table says %d, libseccomp %d", r->name, r->nr,
		    seccomp_syscall_resolve_name(r->name));
		ck_assert_str_eq(tame_syscall_name(r->nr), r->name);
	}
	ck_assert_int_gt(ask, 0);
	ck_assert_int_gt(TAME_ASK_NR, tame_syscall_max());
}
END_TEST

/* The inline strings of the flag and Landlock path tables end in time. */
START_TEST(test_other_tables_are_well_formed)
{
	const struct tame_flagname *f;
	int i;

	for (i = 0; i < tame_nflagnames; i++) {
		f = &tame_flagnames[i];
		ck_assert_msg(memchr(f->name, '\0', sizeof(f->name)) != NULL &&
		    memchr(f->what, '\0', sizeof(f->what)) != NULL,
		    "flag %d: name or text too long for its array", i);
	}
	/* landlock.c keeps which entries a layer grants in 32 bits */
	ck_assert_int_le(tame_nlpaths, 32);
	/* every promise's name and texts fit, and only promises' atoms */
	for (i = 0; i < tame_npromises; i++)
		ck_assert_msg(memchr(tame_promises[i].name, '\0',
		    sizeof(tame_promises[i].name)) != NULL &&
		    memchr(tame_promises[i].what, '\0',
		    sizeof(tame_promises[i].what)) != NULL &&
		    memchr(tame_promises[i].here, '\0',
		    sizeof(tame_promises[i].here)) != NULL &&
		    (tame_promises[i].atoms & ~TAME__ATOMS) == 0,
		    "promise %d: text too long, or an atom beyond them", i);
	for (i = 0; i < tame_nlpaths; i++)
		ck_assert_msg(memchr(tame_lpaths[i].path, '\0',
		    sizeof(tame_lpaths[i].path)) != NULL &&
		    tame_lpaths[i].path[0] == '/',
		    "Landlock path %d: too long, or not absolute", i);
}
END_TEST

START_TEST(test_rows_are_well_formed)
{
	const struct tame_rule *r;
	const struct tame_cond *c;
	int i, k;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		/* strings are inline: one as long as its array has no NUL */
		ck_assert_msg(memchr(r->name, '\0', sizeof(r->name)) != NULL &&
		    memchr(r->why, '\0', sizeof(r->why)) != NULL,
		    "row %d: name or reason too long for its array", i);
		ck_assert_msg(r->any != 0, "%s: no flag allows row %d", r->name, i);
		ck_assert_msg(r->why[0] != '\0',
		    "%s: row %d has no reason", r->name, i);
		ck_assert_msg((r->action == TA_ERRNO) == (r->errnum != 0),
		    "%s: errno only on soft denials", r->name);
		for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++) {
			c = &r->cond[k];
			ck_assert_int_lt(c->arg, 6);
			if (c->op == TC_IN) {
				ck_assert_int_gt(c->nval, 0);
				ck_assert_int_le(c->nval, TAME_MAXVAL);
				ck_assert_uint_ne(c->mask, 0);
			}
			/* a claim's half of the held atoms: the supervisor's */
			if (c->op == TC_WITHIN)
				ck_assert_msg(r->nr == TAME_ASK_NR &&
				    c->nval == 1 && c->val[0] <= 1,
				    "%s: row %d: TC_WITHIN names half %u, or "
				    "is not tame_ask's", r->name, i, c->val[0]);
		}
	}
}
END_TEST

/*
 * A marked row (policy.h, TAME_MARK) lets libtame's own call through:
 * an allowance, plain or confined by Landlock.  Its marker rides in an
 * argument the call does not use, so no row of the call compares that
 * argument with anything but the marker.
 */
START_TEST(test_marked_rows)
{
	const struct tame_rule *r, *q;
	const struct tame_cond *c, *d;
	int i, j, k, l, n = 0;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (!tame_rule_marked(r))
			continue;
		n++;
		ck_assert_msg(r->action == TA_ALLOW || r->action == TA_LANDLOCK,
		    "%s: marked row %d is no allowance (%d)", r->name, i,
		    r->action);
		for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++) {
			c = &r->cond[k];
			if (c->op != TC_IN || c->nval != 1 ||
			    c->mask != 0xffffffffu || c->val[0] != TAME_MARK)
				continue;
			for (j = 0; j < tame_nrules; j++) {
				q = &tame_rules[j];
				for (l = 0; q->nr == r->nr && l < TAME_MAXCOND &&
				    q->cond[l].op != TC_END; l++) {
					d = &q->cond[l];
					ck_assert_msg(d->arg != c->arg ||
					    (d->op == TC_IN && d->nval == 1 &&
					    d->mask == 0xffffffffu &&
					    d->val[0] == TAME_MARK),
					    "%s: row %d compares argument %d, "
					    "which row %d's marker rides in",
					    q->name, j, d->arg, i);
				}
			}
		}
	}
	ck_assert_int_gt(n, 0);
}
END_TEST

/*
 * The supervisor's rows: a claim of atoms is let through where every
 * one is held, in each half, whatever the high words of the registers
 * hold, and refused with EPERM where one is not; under tame(0), which
 * holds no BASE, it is a violation.
 */
START_TEST(test_claims)
{
	const int flags[] = { TAME_STDIO, TAME_STDIO | TAME_RPATH,
	    TAME_INET | TAME_PROC, TAME_ALL };
	uint64_t a[6] = { 2, 0, 0, 0, 0, 0 };	/* TAME_ASK_CALL */
	tame_atoms held;
	unsigned f;
	int b, row;

	for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
		held = tame_expand(flags[f]);
		a[1] = (uint32_t)held;
		a[2] = (uint32_t)(held >> 32);
		row = tame_policy_match(held, TAME_ASK_NR, a, TAME_ORIGIN(1));
		ck_assert_int_ge(row, 0);
		ck_assert_int_eq(tame_rules[row].action, TA_ALLOW);
		a[1] |= 0xffffffff00000000ULL;
		a[2] |= 0x8000000000000000ULL;
		ck_assert_int_eq(tame_policy_match(held, TAME_ASK_NR, a,
		    TAME_ORIGIN(1)), row);
		for (b = 0; b < 64; b++) {
			/* states are no one's to claim: unchecked (ask.c) */
			if ((held | TAME__STATE) & (tame_atoms)1 << b)
				continue;
			a[1] = (uint32_t)(held | (tame_atoms)1 << b);
			a[2] = (uint32_t)((held | (tame_atoms)1 << b) >> 32);
			row = tame_policy_match(held, TAME_ASK_NR, a,
			    TAME_ORIGIN(1));
			ck_assert_msg(row >= 0 &&
			    tame_rules[row].action == TA_ERRNO &&
			    tame_rules[row].errnum == EPERM, "flags %#x: a "
			    "claim of atom %d, not held, is let through",
			    flags[f], b);
		}
	}
	a[1] = a[2] = 0;
	ck_assert_int_eq(tame_policy_match(tame_expand(0), TAME_ASK_NR, a,
	    TAME_ORIGIN(1)), -1);
}
END_TEST

/* Can no call match both rows (one argument, disjoint values)? */
static int
disjoint(const struct tame_rule *a, const struct tame_rule *b)
{
	const struct tame_cond *x, *y;
	int i, j, k, l, hit;

	for (i = 0; i < TAME_MAXCOND && a->cond[i].op != TC_END; i++)
		for (j = 0; j < TAME_MAXCOND && b->cond[j].op != TC_END; j++) {
			x = &a->cond[i];
			y = &b->cond[j];
			if (x->arg == y->arg && ((x->op == TC_NULL &&
			    y->op == TC_NOTNULL) || (x->op == TC_NOTNULL &&
			    y->op == TC_NULL)))
				return 1;
			if (x->op != TC_IN || y->op != TC_IN ||
			    x->arg != y->arg || x->mask != y->mask)
				continue;
			for (hit = 0, k = 0; k < x->nval; k++)
				for (l = 0; l < y->nval; l++)
					hit |= x->val[k] == y->val[l];
			if (!hit)
				return 1;
		}
	return 0;
}

/*
 * Does row r apply under every set of flags (and state) q applies under?
 * With state, only where one of those state bits holds.
 */
static int
applies_wherever(const struct tame_rule *r, const struct tame_rule *q,
    tame_atoms state)
{
	tame_atoms held, bit;
	int f, b;

	for (f = 0; f <= TAME_ALL; f++) {
		held = tame_expand(f);
		if (state == 0) {
			if (tame_rule_applies(q, held) &&
			    !tame_rule_applies(r, held))
				return 0;
			held |= TAME__NOUNIX;
			if (tame_rule_applies(q, held) &&
			    !tame_rule_applies(r, held))
				return 0;
			continue;
		}
		for (b = 0; b < 64; b++) {
			bit = (tame_atoms)1 << b;
			if ((state & bit) && tame_rule_applies(q, held | bit) &&
			    !tame_rule_applies(r, held | bit))
				return 0;
		}
	}
	return 1;
}

/*
 * First match decides, so within one call a soft denial, a trap or a
 * Landlock-confined row must never come before a plain allowance: it
 * would shadow what a larger set of flags grants.  (A DENY row comes
 * last in its call: see below.  A row that applies wherever the
 * allowance does may come first: an exception no flag lifts, such as a
 * new action for SIGSYS.  A row keyed by a state alone is the state's
 * own exception: while the state holds, no flag lifts it (NOUNIX's
 * socketpair(AF_UNIX), trapped before rw's allowance: the handler turns
 * the message checks on before it makes the first pair, cmsg.c),
 * so it must apply wherever the allowance does under that state; so
 * must a row that needs a state besides its flags: unveil's checks,
 * under UNVEILED, of every call its flags allow.)
 */
START_TEST(test_allowances_come_first)
{
	const struct tame_rule *r, *q;
	tame_atoms state;
	int i, j, states = 0;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->action == TA_ALLOW || r->action == TA_DENY)
			continue;
		/* keyed by a state, alone or beside flags (UNVEILED's) */
		state = (r->any & ~TAME__STATE) == 0 ? r->any :
		    r->all & TAME__STATE;
		/*
		 * A row that also needs an atom no flag holds, or is keyed
		 * by such atoms alone, narrows a call where pledge() holds
		 * them, on purpose: it is pledge's, tame() never meets it,
		 * and it comes first.
		 */
		if (state == 0 && ((r->all & ~(tame_expand(TAME_ALL) |
		    TAME__STATE)) || !(r->any & tame_expand(TAME_ALL))))
			continue;
		for (j = i + 1; j < tame_nrules; j++) {
			q = &tame_rules[j];
			ck_assert_msg(q->nr != r->nr || q->action != TA_ALLOW ||
			    disjoint(r, q) || applies_wherever(r, q, state),
			    "%s: row %d (%d) shadows allow row %d", r->name, i,
			    r->action, j);
			states += state != 0 && q->nr == r->nr &&
			    q->action == TA_ALLOW;
		}
	}
	/* NOUNIX's socketpair trap before rw's allowance was checked */
	ck_assert_int_gt(states, 0);
}
END_TEST

/*
 * A refused call's row only gives the reason a violation stays (tame-audit
 * quotes it, the man page lists it): it is the last row of its call, so
 * it answers nothing a row before it would, and stops no allowance, soft
 * denial or trap, under any flags.  What it takes is what no row would
 * take without it: a violation either way.
 */
START_TEST(test_refusals_come_last)
{
	const struct tame_rule *r;
	int i, j;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->action != TA_DENY)
			continue;
		ck_assert_msg(r->all == 0 && (r->any & TAME__BASE),
		    "%s: refused row %d applies only under some flags",
		    r->name, i);
		for (j = i + 1; j < tame_nrules; j++)
			ck_assert_msg(tame_rules[j].nr != r->nr ||
			    tame_rules[j].action == TA_DENY,
			    "%s: refused row %d comes before row %d",
			    r->name, i, j);
	}
}
END_TEST

START_TEST(test_every_flag_has_rows)
{
	int i, j, n;

	for (i = 0; i < tame_nflagnames; i++) {
		int f = tame_flagnames[i].flag;

		if (f == TAME_STDIO || f == TAME_CMSG)
			continue;	/* a composite; implies UNIX only */
		for (n = 0, j = 0; j < tame_nrules; j++)
			if (tame_rules[j].any & f)
				n++;
		ck_assert_msg(n > 0, "%s allows nothing", tame_flagnames[i].name);
	}
}
END_TEST

/* Every set of flags compiles, for a first filter and as a delta. */
START_TEST(test_every_flag_set_compiles)
{
	static struct tame_prog p;
	struct tame_target t = { .pid = 4242 },
	    all = { tame_expand(TAME_ALL), 1, 4242 };
	int f, ll;

	for (f = 0; f <= TAME_ALL; f++) {
		for (ll = 0; ll <= 1; ll++) {
			t.held = tame_expand(f);
			t.landlock_ok = ll;
			ck_assert_int_eq(tame_compile(&t, NULL, &p), 0);
			ck_assert_int_lt(p.len, TAME_MAXINSN);
			ck_assert_int_eq(tame_compile(&t, &all, &p), 0);
		}
	}
}
END_TEST

START_TEST(test_names_round_trip)
{
	char buf[256];
	int f, back;

	for (f = 0; f <= TAME_ALL; f++) {
		ck_assert_int_ge(tame_flags_name(f, buf, sizeof(buf)), 0);
		ck_assert_int_eq(tame_flags_parse(buf, &back, NULL), 0);
		ck_assert_int_eq(back, f);
	}
}
END_TEST

static Suite *
table_suite(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("table");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_names_resolve_through_libseccomp);
	tcase_add_test(tc, test_rows_are_well_formed);
	tcase_add_test(tc, test_marked_rows);
	tcase_add_test(tc, test_claims);
	tcase_add_test(tc, test_other_tables_are_well_formed);
	tcase_add_test(tc, test_allowances_come_first);
	tcase_add_test(tc, test_refusals_come_last);
	tcase_add_test(tc, test_every_flag_has_rows);
	tcase_add_test(tc, test_every_flag_set_compiles);
	tcase_add_test(tc, test_names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

TAME_TEST_MAIN(table_suite)
