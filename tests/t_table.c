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

/* Every row's number is the one libseccomp knows by that name. */
START_TEST(test_names_resolve_through_libseccomp)
{
	const struct tame_rule *r;
	int i;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		ck_assert_msg(seccomp_syscall_resolve_name(r->name) == r->nr,
		    "%s: table says %d, libseccomp %d", r->name, r->nr,
		    seccomp_syscall_resolve_name(r->name));
		ck_assert_str_eq(tame_syscall_name(r->nr), r->name);
	}
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
		}
	}
}
END_TEST

/* Does row r apply under every set of flags (and state) q applies under? */
static int
applies_wherever(const struct tame_rule *r, const struct tame_rule *q)
{
	int f;
	tame_atoms held;

	for (f = 0; f <= TAME_ALL; f++) {
		held = tame_expand(f);
		if (tame_rule_applies(q, held) && !tame_rule_applies(r, held))
			return 0;
		held |= TAME__NOUNIX;
		if (tame_rule_applies(q, held) && !tame_rule_applies(r, held))
			return 0;
	}
	return 1;
}

/*
 * First match decides, so within one call a soft denial, a trap or a
 * Landlock-confined row must never come before a plain allowance: it
 * would shadow what a larger set of flags grants.  (A DENY row comes
 * last in its call: see below.  A row that applies wherever the
 * allowance does may come first: an exception no flag lifts, such as a
 * new action for SIGSYS.)
 */
START_TEST(test_allowances_come_first)
{
	const struct tame_rule *r, *q;
	int i, j;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->action == TA_ALLOW || r->action == TA_DENY)
			continue;
		/*
		 * A row that also needs an atom no flag holds, or is keyed
		 * by such atoms alone, narrows a call where pledge() holds
		 * them, on purpose (mremap while exec is held, or in an
		 * image exec'd under execpromises: policy.c): it is
		 * pledge's, tame() never meets it, and it comes first.
		 */
		if ((r->all & ~(tame_expand(TAME_ALL) | TAME__STATE)) ||
		    !(r->any & tame_expand(TAME_ALL)))
			continue;
		for (j = i + 1; j < tame_nrules; j++) {
			q = &tame_rules[j];
			ck_assert_msg(q->nr != r->nr || q->action != TA_ALLOW ||
			    applies_wherever(r, q),
			    "%s: row %d (%d) shadows allow row %d", r->name, i,
			    r->action, j);
		}
	}
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
			ck_assert_int_eq(tame_compile(&t, NULL, 0x1000, &p), 0);
			ck_assert_int_lt(p.len, TAME_MAXINSN);
			ck_assert_int_eq(tame_compile(&t, &all, 0x1000, &p), 0);
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
