/* SPDX-License-Identifier: ISC */
/*
 * t_cache.c: the kernel's constant-action cache, replayed on the
 * programs tame_compile() makes.  No filter is installed here.
 *
 * Since Linux 5.11, attaching a filter runs seccomp_cache_prepare(): for
 * every syscall number of the native architecture (and of the compat
 * one), with arch and nr fixed and nothing else known, it walks the
 * program once in seccomp_is_const_allow().  The walk keeps one
 * accumulator and understands only
 *
 *	BPF_LD|BPF_W|BPF_ABS	of seccomp_data.nr or .arch (any other
 *				offset: the answer is not constant)
 *	BPF_JMP|BPF_JA		pc += k
 *	BPF_JMP|JEQ/JGT/JGE/JSET|BPF_K
 *				taken on the known accumulator
 *	BPF_ALU|BPF_AND|BPF_K	accumulator &= k
 *	BPF_RET|BPF_K		the answer: cached iff k is exactly
 *				SECCOMP_RET_ALLOW
 *
 * Any other instruction, or running off the end, means "not constant".
 * A filter's bitmap starts as a copy of the previous filter's (all set
 * for the first) and a number is walked only while its bit is still set,
 * so a bit survives only if every filter in the stack allows the number
 * constantly; only the newest bitmap is consulted at syscall entry.  A
 * cached number skips every filter: that is the whole fast path.
 *
 * What the table promises, and this test checks for every flag set: a
 * number whose answer is ALLOW whatever its arguments (every applicable
 * row up to the first one without conditions answers ALLOW, that one
 * included) is cached, and, the other way round, no number whose answer
 * could be anything else is cached.
 *
 * The kernel walks only the numbers below its NR_syscalls.  The
 * supervisor's number (TAME_ASK_NR, the tame_ask rows) lies above every
 * real one on purpose: its answer hangs on its arguments, and it is
 * never cached, whatever the program says.  The programs must not
 * allow it, or any number between the last real one and it, constantly
 * either (check_beyond), so that a kernel with more numbers would not
 * cache them.
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compile.h"
#include "harness.h"
#include "oracle.h"
#include "policy.h"
#include "replay.h"

/* The pid every filter here is compiled for: the rows for signals to self. */
#define TEST_PID	4242
#define MAXNR		1024

static struct tame_prog	 prog[3];

static int
const_allow(const struct sock_filter *f, int len, uint32_t arch, int nr)
{
	return replay_const_allow(f, len, arch, nr, NULL);
}

/* seccomp_cache_prepare_bitmap(): prev NULL for the first filter. */
static void
cache_prepare(const struct sock_filter *f, int len, uint32_t arch,
    const unsigned char *prev, unsigned char *bits, int nbits)
{
	int nr;

	for (nr = 0; nr < nbits; nr++) {
		bits[nr] = prev ? prev[nr] : 1;
		if (bits[nr] && !const_allow(f, len, arch, nr))
			bits[nr] = 0;
	}
}

/*
 * Is nr ALLOW whatever its arguments, under t?  The first row without
 * conditions ends the search; a conditional row with another answer
 * makes the answer depend on the arguments.
 */
static int
table_const_allow(const struct tame_target *t, int nr)
{
	const struct tame_rule *r;
	int i, allow;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr != nr || !tame_rule_applies(r, t->held))
			continue;
		allow = r->action == TA_ALLOW ||
		    (r->action == TA_LANDLOCK && t->landlock_ok == 1);
		if (r->cond[0].op == TC_END || !allow)
			return allow;
	}
	return 0;			/* a violation */
}

static int
nbits(void)
{
	return tame_syscall_max() + 1;	/* the kernel's NR_syscalls */
}

/*
 * Above the kernel's numbers: the one past the last, the supervisor's
 * and those around it, and up to MAXNR.  The table allows none of them
 * constantly (tame_ask compares its claim), and no program may.
 */
static void
check_beyond(const struct sock_filter *f, int len, const char *what,
    tame_atoms held, char *why, size_t whylen)
{
	const int beyond[] = { nbits(), nbits() + 1, TAME_ASK_NR - 1,
	    TAME_ASK_NR, TAME_ASK_NR + 1, TAME_ASK_NR + 2, MAXNR - 1 };
	struct tame_target t = { .held = held, .landlock_ok = 1 };
	unsigned i;

	ck_assert_int_lt(tame_syscall_max(), TAME_ASK_NR);
	ck_assert_int_lt(TAME_ASK_NR + 2, MAXNR);
	for (i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++) {
		ck_assert(!table_const_allow(&t, beyond[i]));
		if (why[0] == '\0' && const_allow(f, len, tame_audit_arch(),
		    beyond[i]))
			snprintf(why, whylen, "%s for held %#llx: %d, above the "
			    "kernel's numbers, is allowed constantly", what,
			    (unsigned long long)held, beyond[i]);
	}
}

/* ---- the replay itself, on programs with known answers ---- */

START_TEST(test_replay_knows_the_kernel_rules)
{
	const uint32_t nr_off = offsetof(struct seccomp_data, nr);
	const uint32_t arch_off = offsetof(struct seccomp_data, arch);
	const uint32_t arg_off = offsetof(struct seccomp_data, args);
	struct sock_filter eq[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arch_off),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc000003e, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, nr_off),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x80, 0, 3),
		BPF_STMT(BPF_JMP | BPF_JA, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_LOG),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg_off),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter offend[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, nr_off),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	int n = sizeof(eq) / sizeof(eq[0]);

	ck_assert(const_allow(eq, n, 0xc000003e, 39));
	ck_assert(const_allow(eq, n, 0xc000003e, 39 + 256));	/* AND */
	ck_assert(const_allow(eq, n, 0xc000003e, 0x80));	/* JSET, JA */
	ck_assert(!const_allow(eq, n, 0xc000003e, 1));		/* arg load */
	ck_assert(!const_allow(eq, n, 0x40000003, 39));		/* arch */
	ck_assert(!const_allow(offend, 4, 0, 1));		/* TAX */
	ck_assert(!const_allow(offend, 3, 0, 0));		/* off the end */
}
END_TEST

/* ---- first filters ---- */

static void
check_first(const struct tame_target *t, unsigned char *bits,
    char *why, size_t whylen)
{
	int nr, n = nbits(), exp;

	ck_assert_int_eq(tame_compile(t, NULL, &prog[0]), 0);
	cache_prepare(prog[0].insn, prog[0].len, tame_audit_arch(), NULL,
	    bits, n);
	check_beyond(prog[0].insn, prog[0].len, "first filter", t->held, why,
	    whylen);
	if (why[0] != '\0')
		return;
	for (nr = 0; nr < n; nr++) {
		exp = table_const_allow(t, nr);
		if (exp == bits[nr])
			continue;
		snprintf(why, whylen, "held %#llx landlock %d: %s (%d) is %s",
		    (unsigned long long)t->held, t->landlock_ok, tame_syscall_name(nr) ?
		    tame_syscall_name(nr) : "?", nr, exp ?
		    "always allowed but not cached" :
		    "cached but not always allowed");
		return;
	}
}

/*
 * The loop runs each test twice: with classic BPF's full jump reach, and
 * with the compiler told to plan for jumps of 80, so that the programs
 * also take the paths (several chunks, JA) a larger table would.  (Not
 * 64 any more: the longest region, openat's under rw, wpath, cpath and
 * tmppath, is some 67 instructions, and a region never spans chunks.)
 */
static const int reach[] = { 255, 80 };

START_TEST(test_first_filters)
{
	static tame_atoms helds[2 * (TAME_ALL + 1)];
	static unsigned char bits[MAXNR], compat[MAXNR];
	struct tame_target t = { .pid = TEST_PID };
	char why[256] = "";
	int nh, h, ll, nr, cached = 0, sets = 0;

	tame__compile_jump_reach(reach[_i]);
	nh = tame_oracle_distinct_helds(helds);
	for (h = 0; h < nh && why[0] == '\0'; h++) {
		for (ll = 0; ll < 2 && why[0] == '\0'; ll++) {
			t.held = helds[h];
			t.landlock_ok = ll;
			check_first(&t, bits, why, sizeof(why));
			sets++;
			for (nr = 0; nr < nbits(); nr++)
				cached += bits[nr];
			/* the compat entry points (i386, AArch32) die:
			 * nothing cached there */
			cache_prepare(prog[0].insn, prog[0].len,
			    REPLAY_COMPAT_ARCH, NULL, compat, nbits());
			for (nr = 0; nr < nbits() && why[0] == '\0'; nr++)
				if (compat[nr])
					snprintf(why, sizeof(why), "held %#llx: "
					    "compat %d cached", (unsigned long long)t.held, nr);
		}
	}
	printf("cache, first filters, jumps of %d: %d targets, %d cached "
	    "numbers in all (%.1f per target)\n", reach[_i], sets, cached,
	    (double)cached / sets);
	fflush(stdout);
	ck_assert_msg(why[0] == '\0', "%s", why);
}
END_TEST

/*
 * libseccomp's program for the same targets is cacheable on the same
 * numbers: a check on the replay as much as on the compiler.
 */
START_TEST(test_oracle_agrees)
{
	static struct sock_filter f[TAME_MAXINSN];
	static tame_atoms helds[2 * (TAME_ALL + 1)];
	struct tame_target t = { .pid = TEST_PID };
	char why[256] = "";
	int nh, h, n, nr;

	tame_oracle_set_pid(TEST_PID);
	nh = tame_oracle_distinct_helds(helds);
	for (h = 0; h < nh; h += 7) {
		t.held = helds[h];
		t.landlock_ok = h % 2;
		ck_assert_int_eq(tame_compile(&t, NULL, &prog[0]), 0);
		n = tame_oracle_bpf(t.held, t.landlock_ok, f, TAME_MAXINSN);
		ck_assert_int_gt(n, 0);
		for (nr = 0; nr < nbits(); nr++)
			ck_assert_msg(const_allow(f, n, tame_audit_arch(), nr) ==
			    const_allow(prog[0].insn, prog[0].len,
			    tame_audit_arch(), nr),
			    "held %#llx: %s (%d) cached by one program only",
			    (unsigned long long)t.held, tame_syscall_name(nr), nr);
		check_beyond(f, n, "libseccomp's program", t.held, why,
		    sizeof(why));
		ck_assert_msg(why[0] == '\0', "%s", why);
	}
}
END_TEST

/* ---- delta filters ---- */

static uint64_t rng_state = 0xcac4e5eedULL;

static uint32_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

/*
 * A chain of tame() calls: a full first filter, then deltas.  After each
 * call, a number always allowed under the new flags and under every
 * earlier set in the chain must stay cached (the older filters still
 * run, and a number one of them could refuse can never be cached), and
 * nothing else may be.
 */
START_TEST(test_delta_filters)
{
	static unsigned char bits[3][MAXNR];
	struct tame_target t[3] = { { .pid = TEST_PID }, { .pid = TEST_PID },
	    { .pid = TEST_PID } };
	char why[256] = "";
	int i, j, k, nr, n = nbits(), exp, f, lost = 0, chains = 0;

	tame__compile_jump_reach(reach[_i]);
	for (i = 0; i < 1500 && why[0] == '\0'; i++) {
		f = i < 13 ? TAME_ALL : (int)(rng() & TAME_ALL);
		t[0].held = tame_expand(f);
		if (i % 2)
			t[0].held = tame_oracle_nounix(t[0].held);
		t[0].landlock_ok = i < 13 ? 1 : (int)(rng() % 2);
		for (j = 1; j < 3; j++) {
			f = i < 13 && j == 1 ? TAME_ALL & ~(1 << i) :
			    f & (int)rng() & (int)rng();
			/* NOUNIX is kept, or dropped by the handler */
			t[j].held = tame_expand(f) | (rng() % 4 ?
			    t[j - 1].held & TAME__NOUNIX : 0);
			t[j].landlock_ok = t[j - 1].landlock_ok &&
			    (rng() % 4 != 0);
		}
		chains++;
		for (j = 0; j < 3 && why[0] == '\0'; j++) {
			ck_assert_int_eq(tame_compile(&t[j], j ? &t[j - 1] :
			    NULL, &prog[j]), 0);
			cache_prepare(prog[j].insn, prog[j].len,
			    tame_audit_arch(), j ? bits[j - 1] : NULL,
			    bits[j], n);
			for (nr = 0; nr < n; nr++) {
				for (exp = 1, k = 0; k <= j; k++)
					exp &= table_const_allow(&t[k], nr);
				if (!exp && table_const_allow(&t[j], nr))
					lost++;	/* an older filter checks it */
				if (exp == bits[j][nr])
					continue;
				snprintf(why, sizeof(why), "call %d of chain "
				    "%#llx/%d %#llx/%d %#llx/%d: %s (%d) is %s", j + 1,
				    (unsigned long long)t[0].held, t[0].landlock_ok, (unsigned long long)t[1].held,
				    t[1].landlock_ok, (unsigned long long)t[2].held,
				    t[2].landlock_ok, tame_syscall_name(nr), nr,
				    exp ? "always allowed but not cached" :
				    "cached but not always allowed");
				break;
			}
		}
	}
	printf("cache, deltas, jumps of %d: %d chains of 3 tame() calls; %d "
	    "times a number "
	    "always allowed by the newest flags stayed uncached because an "
	    "older filter checks its arguments\n", reach[_i], chains, lost);
	fflush(stdout);
	ck_assert_msg(why[0] == '\0', "%s", why);
}
END_TEST

static Suite *
cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("cache");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_replay_knows_the_kernel_rules);
	tcase_add_loop_test(tc, test_first_filters, 0, 2);
	tcase_add_test(tc, test_oracle_agrees);
	tcase_add_loop_test(tc, test_delta_filters, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

TAME_TEST_MAIN(cache_suite)
