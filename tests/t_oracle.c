/* SPDX-License-Identifier: ISC */
/*
 * t_oracle.c: the compiled filter against libseccomp's program for the
 * same table (tests/oracle.c) and against tame_policy_match(), run through
 * tame_bpf_run_raw on the same (arch, nr, args) tuples.  No filter is
 * installed here: everything is compiled and interpreted.
 *
 *	every flag set	all 2^13 flag sets, Landlock usable or not, on a
 *			fixed tuple set built from the table's constants,
 *			and on claims made from each set's own atoms
 *			(the supervisor's tame_ask rows); a spread of them
 *			under unveil's lock (UNVEILED, with the number of
 *			the process's unveil rules), and not pledged at
 *			all (FREE); every fourth also planned for short
 *			jumps, against its normal program
 *	exec splits	a pledge with exec: the process's set and the
 *			exec'd images' in one filter (compile.h), FREE on
 *			either side, the first split and later ones
 *	random		TAME_ORACLE_TUPLES random tuples (default 10^5,
 *			10^7 in make check-long), seed TAME_ORACLE_SEED,
 *			aimed at the table's rows, the claims and every
 *			audit architecture
 *	stacking	delta filters after a first filter against the full
 *			filter for the narrower set
 *	narrowing	every flag set less each of its flags, and a random
 *			chain from it down to 0: every 64th set, or all
 *			with TAME_ORACLE_NARROWING=1 (make check-long)
 *
 * No row asks where a call comes from, so a tuple has no instruction
 * pointer: every program runs with one, and every program compiled here
 * is checked never to load seccomp_data.instruction_pointer, so that no
 * answer can hang on it (libseccomp's cannot load it at all).
 *
 * Flag sets are compared through tame_expand(): compile and oracle only
 * ever see expanded flags, so two flag sets with one expansion are the
 * same test, and running each distinct expansion once covers all 8192.
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compile.h"
#include "expect.h"
#include "harness.h"
#include "oracle.h"
#include "policy.h"

/* The instruction pointer every tuple runs with: no program reads it. */
#define IP		0x00007f3a5c0012e5ULL
#define NARGS		6
#define MAXREPORT	8	/* disagreements spelled out per test */
#define ARCH_NATIVE	tame_audit_arch()
#define X32_BIT		0x40000000
/*
 * The pid every filter here is for (tame_target.pid), so that the rows
 * for signals to self (TC_SELF) are compiled, built by libseccomp and
 * matched; the fork chains of test_stacked_deltas add a child's.
 */
#define SELF_PID	4242

/* And its ids (tame_target.ids), for pledge's chown to itself. */
static const struct tame_ids test_ids = { 1000, 3, { 1000, 24, 27 } };

/*
 * The numbers of the process's unveil rules (tame_target.uvid) that the
 * filters here are for, in turn: the supervisor's request under
 * UNVEILED must name them (TC_UVID).  Every tuple set probes both.
 */
#define UVID_A		7
#define UVID_B		1

static uint32_t		 cur_uvid = UVID_A;

/* The uvid of the targets compiled, built and matched from now on. */
static void
use_uvid(uint32_t uvid)
{
	cur_uvid = uvid;
	expect_uvid = uvid;
	tame_oracle_set_uvid(uvid);
}

struct tuple {
	uint64_t	 a[NARGS];
	uint32_t	 arch;
	int		 nr;
};

struct tuples {
	struct tuple	*t;
	int		 n, cap;
};

/* A small set of distinct 64-bit values. */
struct vals {
	uint64_t	 v[1024];
	int		 n;
};

/*
 * What the tuples reached of the rows no program of the process makes
 * by chance (see reach_count): libtame's marked calls, hit and missed
 * narrowly, and the supervisor's claims, within the held atoms, beyond
 * them in either half, and with the high word of a claim's register set.
 */
enum reach {
	R_MARKED,		/* decided by a marked row */
	R_MARKED_NEAR,		/* a marked row's call, all else matching,
				   the marker missed */
	R_CLAIM_WITHIN,		/* tame_ask claiming only held atoms */
	R_CLAIM_BEYOND_LO,	/* an atom beyond held in bits 0-31 */
	R_CLAIM_BEYOND_HI,	/* an atom beyond held in bits 32-63 */
	R_CLAIM_HIGH_WORD,	/* a claim register's bits 32-63 set */
	R_UVID_HIT,		/* under UNVEILED, a request naming the
				   process's unveil rules, granted */
	R_UVID_MISS,		/* claims within, another rules' number */
	R_UVID_HIGH,		/* the number in the low word, the high
				   word set */
	NREACH
};

/* the kinds only targets under UNVEILED reach */
#define R_UVID_FIRST	R_UVID_HIT

struct tally {
	struct timespec	 start;
	long		 by_action[8];	/* what the compiled filter said */
	long		 compared;
	long		 excluded;
	long		 bad;
	long		 reached[NREACH];
	int		 must_reach;	/* tally_check: every kind, or fail */
	int		 must_uvid;	/* and the UVID kinds too */
	char		 msg[4096];
	size_t		 len;
};

static struct tame_prog	 prog_a;
static struct sock_filter obuf[TAME_MAXINSN];

/* ---- what the table says (tests/expect.c) ---- */

static uint32_t
match_ret(tame_atoms held, int landlock_ok, const struct tuple *t)
{
	return expect_ret(held, landlock_ok, t->arch, t->nr, t->a);
}

static uint32_t
run(const struct sock_filter *f, int len, const struct tuple *t)
{
	return tame_bpf_run_raw(f, len, t->arch, t->nr, t->a, IP);
}

/*
 * Might the instruction read instruction_pointer?  Classic BPF reads
 * seccomp_data only by absolute loads of 32-bit words (the kernel's
 * checker refuses every other load of it); anything else that loads
 * from the data counts as reading it.
 */
static int
reads_ip(const struct sock_filter *f)
{
	const uint32_t ip = offsetof(struct seccomp_data, instruction_pointer);

	if (BPF_CLASS(f->code) != BPF_LD && BPF_CLASS(f->code) != BPF_LDX)
		return 0;
	if (BPF_MODE(f->code) == BPF_IMM || BPF_MODE(f->code) == BPF_MEM)
		return 0;		/* a constant, the scratch memory */
	return f->code != (BPF_LD | BPF_W | BPF_ABS) ||
	    (f->k + 4 > ip && f->k < ip + 8);
}

/*
 * The program reads nothing but nr, arch and the arguments: no answer
 * hangs on where a call comes from, and the one IP the tuples run with
 * stands for every ip.
 */
static void
check_no_ip(const struct tame_prog *p, const char *what, tame_atoms held)
{
	int i;

	for (i = 0; i < p->len; i++)
		ck_assert_msg(!reads_ip(&p->insn[i]), "%s for held %#llx: "
		    "instruction %d (code %#x k %#x) reads where the call "
		    "comes from", what, (unsigned long long)held, i,
		    p->insn[i].code, p->insn[i].k);
}

/* ---- reporting ---- */

static void
tally_bad(struct tally *ty, const char *what, tame_atoms held, int landlock_ok,
    const struct tuple *t, uint32_t x, uint32_t y, uint32_t z)
{
	static int every = -1;
	int n;

	/* TAME_ORACLE_EVERY_BAD=1: each one on stdout, past MAXREPORT too */
	if (every == -1)
		every = getenv("TAME_ORACLE_EVERY_BAD") != NULL;
	if (every)
		printf("disagreement: %s: held %#llx landlock %d arch %#x nr "
		    "%d args %#llx %#llx %#llx %#llx %#llx %#llx: %#x %#x "
		    "%#x\n", what, (unsigned long long)held, landlock_ok,
		    t->arch, t->nr, (unsigned long long)t->a[0],
		    (unsigned long long)t->a[1], (unsigned long long)t->a[2],
		    (unsigned long long)t->a[3], (unsigned long long)t->a[4],
		    (unsigned long long)t->a[5], x, y, z);
	if (ty->bad++ >= MAXREPORT || ty->len >= sizeof(ty->msg) - 1)
		return;
	n = snprintf(ty->msg + ty->len, sizeof(ty->msg) - ty->len,
	    "\n  %s: held %#llx landlock %d arch %#x nr %d (%s) args "
	    "%#llx %#llx %#llx %#llx %#llx %#llx: %#x %#x %#x",
	    what, (unsigned long long)held, landlock_ok, t->arch, t->nr,
	    t->arch == ARCH_NATIVE && tame_syscall_name(t->nr) ?
	    tame_syscall_name(t->nr) : "?",
	    (unsigned long long)t->a[0], (unsigned long long)t->a[1],
	    (unsigned long long)t->a[2], (unsigned long long)t->a[3],
	    (unsigned long long)t->a[4], (unsigned long long)t->a[5],
	    x, y, z);
	if (n > 0)
		ty->len += n;
	if (ty->len >= sizeof(ty->msg))
		ty->len = sizeof(ty->msg) - 1;
}

static void
tally_init(struct tally *ty)
{
	memset(ty, 0, sizeof(*ty));
	clock_gettime(CLOCK_MONOTONIC, &ty->start);
}

/* Which kind of answer: coverage for the summary line. */
static void
tally_count(struct tally *ty, uint32_t ret)
{
	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		ty->by_action[0]++;
		break;
	case SECCOMP_RET_ERRNO:
		ty->by_action[1]++;
		break;
	case SECCOMP_RET_TRAP:
		ty->by_action[(ret & SECCOMP_RET_DATA) ==
		    TAME_TRAP_EMULATE ? 2 : 3]++;
		break;
	case SECCOMP_RET_KILL_PROCESS:
		ty->by_action[4]++;
		break;
	case SECCOMP_RET_USER_NOTIF:	/* an exec split's supervisor */
		ty->by_action[5]++;
		break;
	default:
		ty->by_action[6]++;
	}
}

/*
 * The rows a program's own calls never meet by chance: the marked ones
 * (libtame's own calls, policy.h: TAME_MARK), each with its row less
 * the marker, and the supervisor's that compare a claim.
 */
#define MAXMARKED	32		/* marked rows; tame_ask's too */

static struct tame_rule	 marked_bare[MAXMARKED];
static int		 marked_row[MAXMARKED];
static int		 nmarked = -1;
static int		 ask_row[MAXMARKED];
static int		 nask;
static int		 uvid_row = -1;	/* tame_ask's naming rules */

static int
is_marker(const struct tame_cond *c)
{
	return c->op == TC_IN && c->nval == 1 && c->mask == 0xffffffffu &&
	    c->val[0] == TAME_MARK;
}

static void
reach_init(void)
{
	const struct tame_rule *r;
	struct tame_rule *b;
	int i, k, n;

	if (nmarked >= 0)
		return;
	nmarked = 0;
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		for (k = 0; r->nr == TAME_ASK_NR && k < TAME_MAXCOND; k++)
			if (r->cond[k].op == TC_UVID) {
				ck_assert_int_eq(uvid_row, -1);
				uvid_row = i;
			}
		for (k = 0; r->nr == TAME_ASK_NR && k < TAME_MAXCOND; k++)
			if (r->cond[k].op == TC_WITHIN) {
				ck_assert_int_lt(nask, MAXMARKED);
				ask_row[nask++] = i;
				break;
			}
		if (!tame_rule_marked(r))
			continue;
		ck_assert_int_lt(nmarked, MAXMARKED);
		marked_row[nmarked] = i;
		b = &marked_bare[nmarked++];
		*b = *r;
		memset(b->cond, 0, sizeof(b->cond));
		for (n = k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END;
		    k++)
			if (!is_marker(&r->cond[k]))
				b->cond[n++] = r->cond[k];
	}
	ck_assert_msg(nmarked > 0 && nask > 0, "no marked rows (%d) or no "
	    "tame_ask row that compares a claim", nmarked);
	ck_assert_msg(uvid_row >= 0, "no tame_ask row names the unveil rules");
}

/*
 * Under UNVEILED, the request naming the rules: granted (the number and
 * every claim right), refused for the number alone, or granted with the
 * high word of its register set (no compare may read it).
 */
static void
reach_uvid(struct tally *ty, tame_atoms held, const struct tuple *t)
{
	const struct tame_origin o = { expect_pid, expect_ids, held,
	    expect_uvid };
	const struct tame_rule *r = &tame_rules[uvid_row];
	struct tuple named = *t;
	int k;

	if (!tame_rule_applies(r, held))
		return;
	for (k = 0; k < TAME_MAXCOND; k++)
		if (r->cond[k].op == TC_UVID)
			named.a[r->cond[k].arg] = expect_uvid;
	if (!tame_rule_args_match(r, named.a, &o))
		return;			/* a claim refused first */
	if (tame_policy_match(held, t->nr, t->a, &o) == uvid_row) {
		ty->reached[R_UVID_HIT]++;
		for (k = 0; k < TAME_MAXCOND; k++)
			if (r->cond[k].op == TC_UVID &&
			    (t->a[r->cond[k].arg] >> 32) != 0)
				ty->reached[R_UVID_HIGH]++;
	} else
		ty->reached[R_UVID_MISS]++;
}

/* Count what one native call under held reaches (enum reach). */
static void
reach_count(struct tally *ty, tame_atoms held, const struct tuple *t)
{
	const struct tame_origin o = { expect_pid, expect_ids, held,
	    expect_uvid };
	uint32_t lo = (uint32_t)held, hi = (uint32_t)(held >> 32);
	const struct tame_rule *r;
	int m;

	if (t->arch != ARCH_NATIVE || (uint32_t)t->nr >= X32_BIT)
		return;
	if (t->nr == TAME_ASK_NR) {
		reach_uvid(ty, held, t);
		for (m = 0; m < nask; m++)
			if (tame_rule_applies(&tame_rules[ask_row[m]], held))
				break;
		if (m == nask)
			return;		/* no claim is compared */
		if (((uint32_t)t->a[1] & ~lo) == 0 &&
		    ((uint32_t)t->a[2] & ~hi) == 0)
			ty->reached[R_CLAIM_WITHIN]++;
		if ((uint32_t)t->a[1] & ~lo)
			ty->reached[R_CLAIM_BEYOND_LO]++;
		if ((uint32_t)t->a[2] & ~hi)
			ty->reached[R_CLAIM_BEYOND_HI]++;
		if ((t->a[1] | t->a[2]) >> 32)
			ty->reached[R_CLAIM_HIGH_WORD]++;
		return;
	}
	for (m = 0; m < nmarked; m++) {
		r = &tame_rules[marked_row[m]];
		if (r->nr != t->nr || !tame_rule_applies(r, held))
			continue;
		if (tame_rule_args_match(r, t->a, &o)) {
			if (tame_policy_match(held, t->nr, t->a, &o) ==
			    marked_row[m])
				ty->reached[R_MARKED]++;
		} else if (tame_rule_args_match(&marked_bare[m], t->a, &o))
			ty->reached[R_MARKED_NEAR]++;
	}
}

static void
tally_check(struct tally *ty, const char *name)
{
	struct timespec now;
	int k;

	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("%s: %ld tuples compared, %ld excluded (nr -1), "
	    "%ld disagreements; allow %ld, errno %ld, emulate %ld, "
	    "violation trap %ld, kill %ld, supervisor %ld, other %ld; "
	    "%.1f s\n", name,
	    ty->compared, ty->excluded, ty->bad, ty->by_action[0],
	    ty->by_action[1], ty->by_action[2], ty->by_action[3],
	    ty->by_action[4], ty->by_action[5], ty->by_action[6],
	    (now.tv_sec - ty->start.tv_sec) +
	    (now.tv_nsec - ty->start.tv_nsec) / 1e9);
	printf("%s: marked rows hit %ld, narrowly missed %ld; claims within "
	    "held %ld, beyond it in bits 0-31 %ld, in bits 32-63 %ld, with "
	    "a register's high word set %ld; unveil rules named %ld, "
	    "others' %ld, with the high word set %ld\n", name,
	    ty->reached[R_MARKED], ty->reached[R_MARKED_NEAR],
	    ty->reached[R_CLAIM_WITHIN], ty->reached[R_CLAIM_BEYOND_LO],
	    ty->reached[R_CLAIM_BEYOND_HI], ty->reached[R_CLAIM_HIGH_WORD],
	    ty->reached[R_UVID_HIT], ty->reached[R_UVID_MISS],
	    ty->reached[R_UVID_HIGH]);
	fflush(stdout);
	ck_assert_msg(ty->bad == 0, "%s: %ld disagreements "
	    "(compiled, libseccomp, tame_policy_match):%s", name, ty->bad,
	    ty->msg);
	for (k = 0; k < NREACH && ty->must_reach; k++)
		ck_assert_msg(ty->reached[k] > 0 || (k >= R_UVID_FIRST &&
		    !ty->must_uvid), "%s: no tuple of kind %d (enum reach): "
		    "the marked or tame_ask rows went untested", name, k);
}

/*
 * One tuple under one target: compiled program, libseccomp's program
 * and tame_policy_match must agree; and the program planned for short
 * jumps, sp, if any, with the compiled one.
 */
static void
compare_short(struct tally *ty, tame_atoms held, int landlock_ok,
    const struct tame_prog *p, const struct tame_prog *sp,
    const struct sock_filter *ob, int olen, const struct tuple *t)
{
	uint32_t x, y, z;

	if (tame_oracle_excluded(t->arch, t->nr)) {
		ty->excluded++;
		/* compile.c's prologue still has to kill it */
		x = run(p->insn, p->len, t);
		if (x != SECCOMP_RET_KILL_PROCESS)
			tally_bad(ty, "nr -1 survives", held, landlock_ok, t,
			    x, 0, 0);
		return;
	}
	ty->compared++;
	x = run(p->insn, p->len, t);
	y = run(ob, olen, t);
	z = match_ret(held, landlock_ok, t);
	tally_count(ty, x);
	reach_count(ty, held, t);
	if (x != y || x != z)
		tally_bad(ty, "first filter", held, landlock_ok, t, x, y, z);
	if (sp != NULL && (y = run(sp->insn, sp->len, t)) != x)
		tally_bad(ty, "short jumps", held, landlock_ok, t, x, y, z);
}

static void
compare(struct tally *ty, tame_atoms held, int landlock_ok,
    const struct tame_prog *p, const struct sock_filter *ob, int olen,
    const struct tuple *t)
{
	compare_short(ty, held, landlock_ok, p, NULL, ob, olen, t);
}

/* ---- building blocks ---- */

static void
vals_add(struct vals *s, uint64_t v)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return;
	if (s->n < (int)(sizeof(s->v) / sizeof(s->v[0])))
		s->v[s->n++] = v;
}

static void
tuples_add(struct tuples *ts, const struct tuple *t)
{
	if (ts->n == ts->cap) {
		ts->cap = ts->cap ? 2 * ts->cap : 4096;
		ts->t = realloc(ts->t, ts->cap * sizeof(*ts->t));
		ck_assert_ptr_nonnull(ts->t);
	}
	ts->t[ts->n++] = *t;
}

/* Every constant of every TC_IN condition in the table, and the masks. */
static void
table_constants(struct vals *pool)
{
	const struct tame_cond *c;
	int i, j, k;

	for (i = 0; i < tame_nrules; i++) {
		for (k = 0; k < TAME_MAXCOND; k++) {
			c = &tame_rules[i].cond[k];
			if (c->op != TC_IN)
				continue;
			vals_add(pool, c->mask);
			for (j = 0; j < c->nval; j++)
				vals_add(pool, c->val[j]);
		}
	}
}

/* One half of a set of atoms, as a claim of tame_ask carries it. */
static uint32_t
half(tame_atoms a, int h)
{
	return (uint32_t)(a >> (h ? 32 : 0));
}

/*
 * Values that probe one condition: the constants, their neighbours,
 * bits outside the mask set, the high word set (int arguments are
 * compared on their low 32 bits only) and sign extension.
 */
static void
cond_probes(const struct tame_cond *c, struct vals *core, struct vals *all)
{
	uint32_t v, m = c->mask, low = c->mask & -c->mask;
	int j;

	if (c->op == TC_WITHIN) {
		/*
		 * A claim of atoms, the same for every target (each sweep
		 * adds claims made from its own: claim_tuples): none, all,
		 * each atom alone, the sets that flags and promises hold,
		 * and the high word set, which no compare may read.
		 */
		vals_add(core, 0);
		vals_add(core, 0xffffffffULL);
		for (j = 0; j < 32; j++)
			vals_add(all, (uint64_t)1 << j);
		v = c->val[0];
		vals_add(all, half(tame_expand(TAME_ALL), v));
		vals_add(all, half(tame_expand(TAME_STDIO), v));
		vals_add(all, half(tame_promise_atoms_all(), v));
		vals_add(all, half(TAME__BASE | TAME__ALWAYS, v));
		vals_add(all, 0xffffffff00000000ULL);
		vals_add(all, 0x100000000ULL | half(tame_expand(TAME_ALL), v));
		vals_add(all, (uint64_t)(int64_t)(int32_t)0x80000000u);
		return;
	}

	if (c->op == TC_UVID) {
		/*
		 * The number of the process's unveil rules: each target's
		 * (both, whichever it has), 0, their neighbours, and in the
		 * low word with the high word set, or only in the high word.
		 */
		vals_add(core, UVID_A);
		vals_add(core, UVID_B);
		vals_add(core, 0);
		vals_add(all, UVID_A + 1);
		vals_add(all, UVID_A - 1);
		vals_add(all, UVID_B + 1);
		vals_add(all, 0xffffffffULL);
		vals_add(all, 0x100000000ULL | UVID_A);
		vals_add(all, 0xffffffff00000000ULL | UVID_B);
		vals_add(all, (uint64_t)UVID_A << 32);
		vals_add(all, (uint64_t)(int64_t)(int32_t)(0x80000000u |
		    UVID_B));
		return;
	}
	if (c->op == TC_SELF) {		/* a pid: ours, a neighbour's */
		vals_add(core, SELF_PID);
		vals_add(core, SELF_PID + 1);
		vals_add(all, SELF_PID - 1);
		vals_add(all, 0);
		vals_add(all, 0xffffffffULL);
		vals_add(all, 0x100000000ULL | SELF_PID);
		vals_add(all, 0xffffffff00000000ULL | SELF_PID);
		return;
	}
	if (c->op == TC_OWNUID || c->op == TC_OWNGID) {
		/* -1, the ids, their neighbours, root, the high word */
		vals_add(core, 0xffffffffULL);
		vals_add(core, test_ids.uid);
		vals_add(core, test_ids.gid[2]);
		vals_add(all, 0);
		vals_add(all, test_ids.uid + 1);
		vals_add(all, test_ids.gid[1]);
		vals_add(all, test_ids.gid[1] + 1);
		vals_add(all, ~0ULL);
		vals_add(all, 0x100000000ULL | test_ids.uid);
		vals_add(all, 0xffffffff00000000ULL | test_ids.gid[2]);
		return;
	}
	if (c->op == TC_NULL || c->op == TC_NOTNULL) {
		vals_add(core, 0);
		vals_add(core, 0x7ffc12345678ULL);
		vals_add(all, 0);
		vals_add(all, 1);
		vals_add(all, 0x100000000ULL);
		vals_add(all, 0x8000000000000000ULL);
		vals_add(all, ~0ULL);
		vals_add(all, 0x7ffc12345678ULL);
		return;
	}
	if (is_marker(c)) {
		/*
		 * libtame's marker, or not (two core values: every other
		 * tested argument's probes meet both); it with the high
		 * word set, and its near misses: one unit or one bit off,
		 * in the high word only, in the other byte order.
		 */
		v = TAME_MARK;
		vals_add(core, v);
		vals_add(core, 0);
		vals_add(all, 0xffffffffULL);
		vals_add(all, (uint32_t)(v + 1));
		vals_add(all, (uint32_t)(v - 1));
		vals_add(all, v ^ 1);
		vals_add(all, v ^ 0x80000000u);
		vals_add(all, 0xffffffff00000000ULL | v);
		vals_add(all, 0x100000000ULL | v);
		vals_add(all, (uint64_t)v << 32);
		vals_add(all, __builtin_bswap32(v));
		return;
	}
	vals_add(core, 0);
	vals_add(core, 0xffffffffULL);
	vals_add(all, m);
	vals_add(all, ~m & 0xffffffffu);
	for (j = 0; j < c->nval; j++) {
		v = c->val[j];
		vals_add(core, v);
		vals_add(all, v);
		vals_add(all, (uint32_t)(v + 1));
		vals_add(all, (uint32_t)(v - 1));
		vals_add(all, v | ~m);
		vals_add(all, v ^ low);
		vals_add(all, 0xffffffff00000000ULL | v);
		vals_add(all, (uint64_t)(int64_t)(int32_t)v);
		vals_add(all, 0x100000000ULL | v);
		vals_add(all, 0x8000000000000000ULL | (v | ~m));
	}
}

/* Three argument vectors every call number gets. */
static const uint64_t base_args[3][NARGS] = {
	{ 0, 0, 0, 0, 0, 0 },
	{ ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL },
	{ 3, 0x7ffc00001000ULL, 0x1000, 0x22, 0xffffffffffffff9cULL, 1 },
};

/*
 * The tuples for one native call number: the base vectors; then, for the
 * arguments the table tests on this call, every combination of their
 * core values (the constants, 0, ~0), and each probe value of one
 * argument against every core combination of the others.  The table's
 * other constants probe each argument too, but for one that only
 * carries libtame's marker, which is compared with nothing else: its
 * own near misses are the probes there.
 */
static void
nr_tuples(struct tuples *ts, int nr, const struct vals *pool)
{
	static struct vals core[NARGS], all[NARGS];
	const struct tame_cond *c;
	struct tuple t;
	int tested[NARGS], ntested = 0, idx[NARGS], plain[NARGS];
	int i, j, k, vary, l;

	memset(&t, 0, sizeof(t));
	t.arch = ARCH_NATIVE;
	t.nr = nr;
	for (i = 0; i < 3; i++) {
		memcpy(t.a, base_args[i], sizeof(t.a));
		tuples_add(ts, &t);
	}
	for (k = 0; k < NARGS; k++) {
		core[k].n = all[k].n = 0;
		plain[k] = 0;
	}
	for (i = 0; i < tame_nrules; i++) {
		if (tame_rules[i].nr != nr)
			continue;
		for (j = 0; j < TAME_MAXCOND; j++) {
			c = &tame_rules[i].cond[j];
			if (c->op == TC_END)
				continue;
			cond_probes(c, &core[c->arg], &all[c->arg]);
			plain[c->arg] |= !is_marker(c);
		}
	}
	for (k = 0; k < NARGS; k++) {
		if (core[k].n == 0)
			continue;
		tested[ntested++] = k;
		for (i = 0; i < pool->n && plain[k]; i++)
			vals_add(&all[k], pool->v[i]);
	}
	if (ntested == 0)
		return;
	/* vary == -1: the core product; else argument tested[vary] probes */
	for (vary = -1; vary < ntested; vary++) {
		memset(idx, 0, sizeof(idx));
		for (;;) {
			memcpy(t.a, base_args[2], sizeof(t.a));
			for (l = 0; l < ntested; l++) {
				k = tested[l];
				t.a[k] = l == vary ? all[k].v[idx[l]] :
				    core[k].v[idx[l]];
			}
			tuples_add(ts, &t);
			for (l = 0; l < ntested; l++) {
				k = tested[l];
				if (++idx[l] < (l == vary ? all[k].n :
				    core[k].n))
					break;
				idx[l] = 0;
			}
			if (l == ntested)
				break;
		}
	}
}

/*
 * The fixed tuple set: every number, the supervisor's (tame_ask) and
 * those around it, foreign entry points, x32.
 */
static void
fixed_tuples(struct tuples *ts)
{
	static const int odd[] = { -1, 0x3fffffff, 0x7fffffff,
	    (int)0x80000000, 0x1000, 0xffff, 511, 512, 1023, 1024 };
	static const int ask[] = { TAME_ASK_NR - 1, TAME_ASK_NR,
	    TAME_ASK_NR + 1, TAME_ASK_NR + 2 };
	struct vals pool = { .n = 0 };
	struct tuple t;
	int nr, i, max = tame_syscall_max() + 16;
	int nask = sizeof(ask) / sizeof(ask[0]);

	table_constants(&pool);
	for (nr = 0; nr <= max; nr++)
		nr_tuples(ts, nr, &pool);
	for (i = 0; i < nask; i++)
		nr_tuples(ts, ask[i], &pool);
	memset(&t, 0, sizeof(t));
	memcpy(t.a, base_args[2], sizeof(t.a));
	for (i = 0; i <= max + nask; i++) {
		nr = i <= max ? i : ask[i - max - 1];
		t.nr = nr;
		t.arch = AUDIT_ARCH_I386;	/* int 0x80: i386 numbers */
		tuples_add(ts, &t);
		t.arch = ARCH_NATIVE;
		t.nr = nr | X32_BIT;		/* the x32 entry */
		tuples_add(ts, &t);
	}
	t.arch = ARCH_NATIVE;
	for (i = 0; i < (int)(sizeof(odd) / sizeof(odd[0])); i++) {
		t.nr = odd[i];
		tuples_add(ts, &t);
	}
	t.nr = 0;
	t.arch = AUDIT_ARCH_AARCH64;
	tuples_add(ts, &t);
}

/*
 * Claims made from one target's own atoms: the tame_ask rows compare a
 * claim with what the target holds, so the fixed set cannot give each
 * target its within and its just beyond.  For each half: the atoms held,
 * none, one of them, all but one, the held ones with each atom the
 * target lacks added, the whole register, and the held ones with the
 * high word set (no compare may read it); the other half as held, or,
 * for a third of the pairs, another of its own values.  The request
 * names the target's unveil rules (cur_uvid: TC_UVID, under UNVEILED),
 * or, each claim once more, a number next to it, 0, or it with the high
 * word set.
 */
#define MAXCLAIM	48

/* The argument of tame_ask that names the unveil rules (TC_UVID). */
static int
uvid_arg(void)
{
	int i, k;

	for (i = 0; i < tame_nrules; i++)
		for (k = 0; k < TAME_MAXCOND; k++)
			if (tame_rules[i].cond[k].op == TC_UVID)
				return tame_rules[i].cond[k].arg;
	ck_abort_msg("no row compares the unveil rules' number");
	return 0;
}

static void
claim_tuples(struct tuples *ts, tame_atoms held)
{
	uint64_t v[2][MAXCLAIM];
	uint32_t h;
	struct tuple t;
	int n[2], k, b, i, ua = uvid_arg();

	for (k = 0; k < 2; k++) {
		h = half(held, k);
		n[k] = 0;
		v[k][n[k]++] = h;
		v[k][n[k]++] = 0;
		v[k][n[k]++] = h & -h;
		v[k][n[k]++] = h & (h - 1);
		v[k][n[k]++] = 0xffffffffULL;
		v[k][n[k]++] = 0xffffffff00000000ULL | h;
		v[k][n[k]++] = (uint64_t)(int64_t)(int32_t)h;
		v[k][n[k]++] = (uint64_t)~h << 32 | h;	/* lacked, above */
		for (b = 0; b < 32; b++)
			if (!(h & (1u << b)))
				v[k][n[k]++] = h | 1u << b;
	}
	memset(&t, 0, sizeof(t));
	t.arch = ARCH_NATIVE;
	t.nr = TAME_ASK_NR;
	memcpy(t.a, base_args[2], sizeof(t.a));
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n[k]; i++) {
			t.a[0] = i % 4;		/* the request: no row reads it */
			t.a[1 + k] = v[k][i];
			t.a[2 - k] = i % 3 ? v[1 - k][0] :
			    v[1 - k][(i / 3) % n[1 - k]];
			t.a[ua] = cur_uvid;
			tuples_add(ts, &t);
			switch (i % 4) {
			case 0:
				t.a[ua] = cur_uvid + 1;
				break;
			case 1:
				t.a[ua] = cur_uvid - 1;
				break;
			case 2:
				t.a[ua] = 0;
				break;
			default:
				t.a[ua] = (uint64_t)(i + 1) << 32 | cur_uvid;
			}
			tuples_add(ts, &t);
		}
	}
}

static void
build_first(tame_atoms held, int landlock_ok, struct tame_prog *p,
    struct sock_filter *ob, int *olen)
{
	struct tame_target t = { held, landlock_ok, SELF_PID, &test_ids,
	    .uvid = cur_uvid };

	ck_assert_msg(tame_compile(&t, NULL, p) == 0,
	    "tame_compile(%#llx): %s", (unsigned long long)held, strerror(errno));
	check_no_ip(p, "first filter", held);
	if (ob == NULL)
		return;
	*olen = tame_oracle_bpf(held, landlock_ok, ob, TAME_MAXINSN);
	ck_assert_msg(*olen > 0, "oracle(%#llx, %d) failed",
	    (unsigned long long)held, landlock_ok);
}

/* ---- every flag set on the fixed tuples ---- */

static struct tuples	 fixed;
static tame_atoms	 helds[0x4000];
static int		 nhelds;
static int		 nflag_helds;	/* tame()'s and pledge()'s own */

static int
add_held(tame_atoms *out, int n, tame_atoms h)
{
	int i;

	for (i = 0; i < n && out[i] != h; i++)
		;
	if (i == n)
		out[n++] = h;
	return n;
}

/*
 * Not pledged at all (policy.h, TAME__FREE: pledge(NULL, execpromises),
 * unveil locked unpledged): alone, under unveil's lock, and beside the
 * other states and atoms, which change nothing there.
 */
static const tame_atoms free_helds[] = {
	TAME_UNRESTRICTED,
	TAME_UNRESTRICTED | TAME__UNVEILED,
	TAME_UNRESTRICTED | TAME__UNVEILED | TAME__NOUNIX,
	TAME_UNRESTRICTED | TAME__THREADED | TAME__EXECSET,
	TAME_UNRESTRICTED | TAME__STATE,
	TAME_UNRESTRICTED | TAME__ATOMS | TAME__UNVEILED,
};

#define NFREE	(int)(sizeof(free_helds) / sizeof(free_helds[0]))

/*
 * The targets of the sweeps: tame()'s and pledge()'s sets
 * (tame_oracle_distinct_helds); every 16th of them, and pledge's
 * widest, under unveil's lock (UNVEILED: its rows, and the request that
 * names the unveil rules); and the sets not pledged at all.
 */
static void
setup_tuples(void)
{
	int i;

	if (fixed.n != 0)
		return;
	fixed_tuples(&fixed);
	nhelds = nflag_helds = tame_oracle_distinct_helds(helds);
	for (i = 0; i < nflag_helds; i += 16)
		nhelds = add_held(helds, nhelds, helds[i] | TAME__UNVEILED);
	nhelds = add_held(helds, nhelds, tame_promise_atoms_all() |
	    TAME__UNVEILED);
	nhelds = add_held(helds, nhelds, tame_oracle_nounix(
	    tame_expand(TAME_ALL)) | TAME__UNVEILED);
	for (i = 0; i < NFREE; i++)
		nhelds = add_held(helds, nhelds, free_helds[i]);
	reach_init();
}

static long env_long(const char *, long);

/*
 * TAME_ORACLE_SETS=N: the sweeps take every Nth distinct flag set, not
 * all.  make check SANITIZE=1 sets 8: the sanitizers look for memory
 * errors in the compiler and the oracle, which every eighth set runs
 * through as well as all (make check, without them, sweeps them all),
 * and the sweeps were 400 of that run's seconds.
 */
static long
sets_stride(void)
{
	return env_long("TAME_ORACLE_SETS", 1);
}

/*
 * Today's programs mostly fit in one chunk of 8-bit jumps.  Planned for
 * jumps of SHORT_REACH, the same policy becomes trees of chunks with JAs
 * over long left subtrees, as a larger table would: the decisions must
 * not change.  Every fourth target of the sweeps is compiled so as well,
 * and its short-jump program must answer every tuple as its normal
 * program, which the sweep holds to libseccomp's and the matcher's.
 * (64 was the reach until the longest region, openat's under rw, wpath,
 * cpath and tmppath with the set-ID rows, grew to some 67 instructions
 * with its answers: a region never spans chunks, so the compiler
 * refuses it at 64.)
 */
#define SHORT_REACH	80
#define NORMAL_REACH	255		/* compile.c's own */

static struct tame_prog	 prog_short;

static void
build_short(tame_atoms held, int landlock_ok, long *ja)
{
	struct tame_target t = { held, landlock_ok, SELF_PID, &test_ids,
	    .uvid = cur_uvid };
	int i;

	tame__compile_jump_reach(SHORT_REACH);
	ck_assert_msg(tame_compile(&t, NULL, &prog_short) == 0,
	    "tame_compile(%#llx) with jumps of %d: %s",
	    (unsigned long long)held, SHORT_REACH, strerror(errno));
	tame__compile_jump_reach(NORMAL_REACH);
	check_no_ip(&prog_short, "short-jump filter", held);
	for (i = 0; i < prog_short.len; i++)
		*ja += prog_short.insn[i].code == (BPF_JMP | BPF_JA);
}

/*
 * The fixed tuples, and each target's own claims, under every target;
 * the targets alternate between the two uvids.
 */
static void
sweep(int part, int nparts, const struct tuples *ts, const char *name)
{
	static struct tuples claims;
	struct tally ty;
	const struct tame_prog *sp;
	long ja = 0, nshort = 0, unveiled = 0, unpledged = 0;
	int olen = 0, h, ll, i;

	tally_init(&ty);
	ty.must_reach = 1;
	for (h = part; h < nhelds; h += nparts) {
		/* the stride thins tame()'s and pledge()'s sets only */
		if (h < nflag_helds && (h / nparts) % sets_stride() != 0)
			continue;
		use_uvid((h / nparts) % 2 ? UVID_A : UVID_B);
		unveiled += (helds[h] & TAME__UNVEILED) != 0;
		unpledged += (helds[h] & TAME__FREE) != 0;
		claims.n = 0;
		claim_tuples(&claims, helds[h]);
		for (ll = 0; ll < 2; ll++) {
			build_first(helds[h], ll, &prog_a, obuf, &olen);
			sp = NULL;
			if ((h / nparts) % 4 == 0) {
				build_short(helds[h], ll, &ja);
				sp = &prog_short;
				nshort++;
			}
			for (i = 0; i < ts->n; i++)
				compare_short(&ty, helds[h], ll, &prog_a, sp,
				    obuf, olen, &ts->t[i]);
			for (i = 0; i < claims.n; i++)
				compare_short(&ty, helds[h], ll, &prog_a, sp,
				    obuf, olen, &claims.t[i]);
		}
	}
	ty.must_uvid = unveiled > 0;
	printf("%s: %ld targets under unveil's lock, %ld not pledged; %ld "
	    "programs with jumps of %d (%ld JA instructions) answered as "
	    "their normal ones\n", name, unveiled, unpledged, nshort,
	    SHORT_REACH, ja);
	use_uvid(UVID_A);
	tally_check(&ty, name);
	ck_assert_msg(unveiled > 0 && unpledged > 0, "%s: no target under "
	    "unveil's lock (%ld) or not pledged (%ld)", name, unveiled,
	    unpledged);
	ck_assert_msg(nshort == 0 || ja > 0, "%s: no JA: the long-jump path "
	    "went untested", name);
}

#define NPARTS	4

START_TEST(test_every_flag_set)
{
	char name[64];

	setup_tuples();
	if (_i == 0)
		printf("%d flag sets expand to %d distinct sets, %d more "
		    "with unveil's lock or not pledged; %d tuples each, and "
		    "claims made from its own atoms\n", TAME_ALL + 1,
		    nflag_helds, nhelds - nflag_helds, fixed.n);
	if (_i == 0 && sets_stride() > 1)
		printf("TAME_ORACLE_SETS=%ld: the sweeps take every %ldth "
		    "distinct set\n", sets_stride(), sets_stride());
	snprintf(name, sizeof(name), "every flag set, part %d/%d", _i + 1,
	    NPARTS);
	sweep(_i, NPARTS, &fixed, name);
}
END_TEST

/*
 * The filters the build compiled ahead (lib/precompiled.sets) are the
 * compiler's own: each, relocated to this test's pid, is
 * instruction for instruction what tame_compile() makes for its targets,
 * so everything this file proves of compiled programs holds for them.
 * And they are only taken where they apply: not for a delta over another
 * process's filter, nor over a filter made without Landlock.
 */
START_TEST(test_precompiled_programs)
{
	static struct tame_prog want, got;
	const struct tame_precompiled *pc;
	struct tame_target next = { 0 }, prev = { 0 }, *pp;
	int i, nounix = 0, deltas = 0;

	ck_assert_msg(tame__nprecompiled > 0, "the build precompiled nothing");
	for (i = 0; i < tame__nprecompiled; i++) {
		pc = &tame__precompiled[i];
		next = (struct tame_target){ pc->held, pc->landlock_ok,
		    SELF_PID, &test_ids };
		prev = (struct tame_target){ pc->prev_held, 1, SELF_PID, &test_ids };
		pp = pc->prev_held == TAME_PRE_FIRST ? NULL : &prev;
		nounix += (pc->held & TAME__NOUNIX) != 0;
		deltas += pp != NULL;
		ck_assert(tame_precompiled_find(&next, pp) == pc);
		ck_assert(tame_compile(&next, pp, &want) == 0);
		memset(&got, 0xa5, sizeof(got));
		ck_assert(tame_compile_fast(&next, pp, &got) == 0);
		ck_assert_msg(got.len == want.len && memcmp(got.insn, want.insn,
		    want.len * sizeof(want.insn[0])) == 0 &&
		    got.changed == want.changed, "precompiled program %d "
		    "(held %#llx over %#llx) differs from the compiler's", i,
		    (unsigned long long)pc->held,
		    (unsigned long long)pc->prev_held);
		if (pp == NULL)
			continue;
		prev.pid = SELF_PID + 1;	/* a parent's filter */
		ck_assert(tame_precompiled_find(&next, pp) == NULL);
		prev.pid = SELF_PID;
		prev.landlock_ok = 0;
		ck_assert(tame_precompiled_find(&next, pp) == NULL);
	}
	ck_assert_msg(nounix > 0, "no variant without AF_UNIX was built");
	ck_assert_msg(deltas > 0, "no delta was built");
	printf("%d precompiled filters (%d deltas) equal the compiler's\n",
	    tame__nprecompiled, deltas);
}
END_TEST

/* Two programs for the same targets but another process's values. */
static void
check_relocation(const struct tame_target *t1, const struct tame_target *p1)
{
	static struct tame_prog a, b;
	const int pid2 = SELF_PID ^ 0x7fffffff;
	struct tame_target t2 = *t1, p2 = { 0 };
	int i, r;

	t2.pid = pid2;
	if (p1 != NULL) {
		p2 = *p1;
		p2.pid = pid2;
	}
	ck_assert(tame_compile(t1, p1, &a) == 0);
	ck_assert(tame_compile(&t2, p1 != NULL ? &p2 : NULL, &b) == 0);
	ck_assert_int_eq(a.len, b.len);
	ck_assert_int_eq(a.nreloc, b.nreloc);
	/* the pid is the one value a program holds of its process */
	for (r = 0; r < a.nreloc; r++)
		ck_assert_msg(a.reloc[r].kind == TAME_RELOC_PID &&
		    a.insn[a.reloc[r].at].k == SELF_PID, "held %#llx: "
		    "relocation %d (kind %d) is not a compare with the pid",
		    (unsigned long long)t1->held, r, a.reloc[r].kind);
	for (i = 0; i < a.len; i++) {
		if (memcmp(&a.insn[i], &b.insn[i], sizeof(a.insn[i])) == 0)
			continue;
		for (r = 0; r < a.nreloc && a.reloc[r].at != i; r++)
			;
		ck_assert_msg(r < a.nreloc, "held %#llx landlock %d: "
		    "instruction %d depends on the process but has no "
		    "relocation", (unsigned long long)t1->held, t1->landlock_ok,
		    i);
	}
	tame_prog_relocate(&a, pid2);
	ck_assert_msg(memcmp(a.insn, b.insn, a.len * sizeof(a.insn[0])) == 0,
	    "held %#llx landlock %d: relocated program differs",
	    (unsigned long long)t1->held,
	    t1->landlock_ok);
}

/*
 * Relocation is complete: compiled for two processes whose pids differ
 * in every bit, two programs differ only where the relocations
 * say, and the first rewritten for the second's values is the second.
 * Every distinct flag set as a first filter in each Landlock state, and
 * as a delta to the set without its lowest flag.
 */
START_TEST(test_relocation)
{
	struct tame_target t = { 0 }, p = { 0 };
	int h, ll, low;

	setup_tuples();
	for (h = 0; h < nhelds; h++) {
		for (ll = 0; ll < 3; ll++) {
			t = (struct tame_target){ helds[h], ll, SELF_PID, &test_ids };
			check_relocation(&t, NULL);
		}
		low = helds[h] & TAME_ALL & -(helds[h] & TAME_ALL);
		p = (struct tame_target){ helds[h], 1, SELF_PID, &test_ids };
		t = (struct tame_target){ tame_expand(helds[h] & TAME_ALL &
		    ~low) | (helds[h] & TAME__NOUNIX), 1, SELF_PID, &test_ids };
		if ((t.held & ~helds[h]) == 0)
			check_relocation(&t, &p);
	}
	/*
	 * Planned for short jumps, the tree gets JAs inserted behind what
	 * was emitted (arm64's longer programs do so at the usual reach):
	 * the relocations must move with their instructions.
	 */
	tame__compile_jump_reach(SHORT_REACH);
	for (h = 0; h < nhelds; h += 4) {
		t = (struct tame_target){ helds[h], 1, SELF_PID, &test_ids };
		check_relocation(&t, NULL);
	}
}
END_TEST

/* ---- random tuples ---- */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static long
env_long(const char *name, long dflt)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return dflt;
	v = strtol(s, &end, 0);
	return *end == '\0' && v > 0 ? v : dflt;
}

static uint64_t
random_arg(const struct vals *pool)
{
	uint64_t r = rng(), v = pool->v[rng() % pool->n];

	switch (r % 10) {
	case 0: case 1: case 2: case 3:
		return v;
	case 4:
		return v ^ ((uint64_t)1 << (rng() % 64));
	case 5:
		return (uint64_t)(int64_t)(int32_t)v;
	case 6:
		return v | (rng() << 32);
	case 7:
		return rng() % 64;
	case 8:
		return (uint32_t)rng();
	default:
		return rng();
	}
}

/*
 * The audit architectures of every port Linux has had: a call claiming
 * any of them but the native one must die in the prologue.
 */
static const uint32_t audit_arches[] = {
	AUDIT_ARCH_AARCH64, AUDIT_ARCH_ALPHA, AUDIT_ARCH_ARCOMPACT,
	AUDIT_ARCH_ARCOMPACTBE, AUDIT_ARCH_ARCV2, AUDIT_ARCH_ARCV2BE,
	AUDIT_ARCH_ARM, AUDIT_ARCH_ARMEB, AUDIT_ARCH_C6X, AUDIT_ARCH_C6XBE,
	AUDIT_ARCH_CRIS, AUDIT_ARCH_CSKY, AUDIT_ARCH_FRV, AUDIT_ARCH_H8300,
	AUDIT_ARCH_HEXAGON, AUDIT_ARCH_I386, AUDIT_ARCH_IA64,
	AUDIT_ARCH_M32R, AUDIT_ARCH_M68K, AUDIT_ARCH_MICROBLAZE,
	AUDIT_ARCH_MIPS, AUDIT_ARCH_MIPSEL, AUDIT_ARCH_MIPS64,
	AUDIT_ARCH_MIPS64N32, AUDIT_ARCH_MIPSEL64, AUDIT_ARCH_MIPSEL64N32,
	AUDIT_ARCH_NDS32, AUDIT_ARCH_NDS32BE, AUDIT_ARCH_NIOS2,
	AUDIT_ARCH_OPENRISC, AUDIT_ARCH_PARISC, AUDIT_ARCH_PARISC64,
	AUDIT_ARCH_PPC, AUDIT_ARCH_PPC64, AUDIT_ARCH_PPC64LE,
	AUDIT_ARCH_RISCV32, AUDIT_ARCH_RISCV64, AUDIT_ARCH_S390,
	AUDIT_ARCH_S390X, AUDIT_ARCH_SH, AUDIT_ARCH_SHEL, AUDIT_ARCH_SH64,
	AUDIT_ARCH_SHEL64, AUDIT_ARCH_SPARC, AUDIT_ARCH_SPARC64,
	AUDIT_ARCH_TILEGX, AUDIT_ARCH_TILEGX32, AUDIT_ARCH_TILEPRO,
	AUDIT_ARCH_UNICORE, AUDIT_ARCH_X86_64, AUDIT_ARCH_XTENSA,
#ifdef AUDIT_ARCH_LOONGARCH64
	AUDIT_ARCH_LOONGARCH32, AUDIT_ARCH_LOONGARCH64,
#endif
};

static uint32_t
random_arch(void)
{
	uint64_t r = rng();

	switch (r % 20) {
	case 0: case 1:
		return audit_arches[rng() % (sizeof(audit_arches) /
		    sizeof(audit_arches[0]))];
	case 2:		/* the native machine, one bit off */
		return ARCH_NATIVE ^ (1u << (rng() % 32));
	case 3:
		return (uint32_t)rng();
	default:
		return ARCH_NATIVE;
	}
}

/*
 * A value that one condition of a row tests: its constants as they are,
 * with bits outside the mask set, with the high word set or the low word
 * sign-extended (the filter compares int arguments on their low 32 bits
 * only), one bit or one unit off; for pointers, NULL and what is NULL
 * in one word only; for a claim, the atoms held, fewer, or one more.
 */
static uint64_t
cond_arg(const struct tame_cond *c, tame_atoms held)
{
	uint32_t m = c->mask, v = c->nval > 0 ? c->val[rng() % c->nval] : 0;
	uint32_t other = (uint32_t)rng() & ~m, h, x;
	uint64_t r = rng();

	if (c->op == TC_WITHIN) {
		/* a claim: what the target holds, less, one atom more */
		h = half(held, c->val[0]);
		x = (uint32_t)rng() & ~h;
		switch (r % 8) {
		case 0: case 1:
			return h;
		case 2:
			return h & (uint32_t)rng();
		case 3:
			return h | 1u << (rng() % 32);
		case 4:
			return h | (x & -x);	/* one it lacks, if any */
		case 5:
			return (h & (uint32_t)rng()) | rng() << 32;
		case 6:
			return (uint64_t)(int64_t)(int32_t)h;
		default:
			return rng();
		}
	}
	if (c->op == TC_NULL || c->op == TC_NOTNULL) {
		switch (r % 5) {
		case 0:
			return 0;
		case 1:
			return 1ULL << (rng() % 64);
		case 2:
			return rng() & 0xffffffff00000000ULL;
		case 3:
			return 0x7ffc00000000ULL | (uint32_t)rng();
		default:
			return rng();
		}
	}
	if (c->op == TC_UVID) {
		/* the target's rules, a neighbour's, none, the high word */
		switch (r % 6) {
		case 0: case 1: case 2:
			return cur_uvid;
		case 3:
			return cur_uvid + (rng() % 2 ? 1 : -1);
		case 4:
			return rng() << 32 | cur_uvid;
		default:
			return rng() % 2 ? 0 : (uint32_t)rng();
		}
	}
	if (c->op != TC_IN)		/* TC_SELF: a pid, or none */
		return r % 2 ? (uint32_t)(rng() % 0x400000) :
		    (uint64_t)(int64_t)(int32_t)rng();
	switch (r % 9) {
	case 0: case 1:
		return v;
	case 2:
		return v | other;
	case 3:
		return (uint64_t)(v | (r % 4 ? other : 0)) | (rng() << 32);
	case 4:
		return (uint64_t)(int64_t)(int32_t)(v | other);
	case 5:
		return v ^ (1u << (rng() % 32));
	case 6:
		return (uint32_t)(v + (uint32_t)(rng() % 3) - 1);
	case 7:
		return r % 2 ? m : ~m;
	default:
		return (uint32_t)rng();
	}
}

/*
 * A random call under held: most often a row's call number with
 * arguments aimed at that row's conditions (so that every row gets both
 * its hits and its near misses; a claim is aimed at held), else any
 * number up to past the last the kernel names, the supervisor's and
 * those up to it, unknown and negative numbers, the x32 bit on any of
 * those, and every audit architecture.
 */
static void
random_tuple(struct tuple *t, const struct vals *pool, int maxnr,
    tame_atoms held)
{
	const struct tame_rule *row = NULL;
	uint64_t r = rng();
	int j, k;

	t->arch = random_arch();
	if (r % 20 < 12) {
		row = &tame_rules[rng() % tame_nrules];
		/* under unveil's lock, its request too, more often */
		if ((held & TAME__UNVEILED) && uvid_row >= 0 && rng() % 8 == 0)
			row = &tame_rules[uvid_row];
		t->nr = row->nr;
	} else if (r % 20 < 16)
		t->nr = rng() % (maxnr + 20);
	else if (r % 20 < 17)
		t->nr = rng() % 2 ? TAME_ASK_NR - 2 + (int)(rng() % 5) :
		    maxnr + (int)(rng() % (TAME_ASK_NR - maxnr));
	else if (r % 20 < 19)
		t->nr = (int)(uint32_t)rng();
	else
		t->nr = -(int)(rng() % 4096) - 1;
	if (rng() % 25 == 0)
		t->nr |= X32_BIT;
	for (k = 0; k < NARGS; k++)
		t->a[k] = random_arg(pool);
	for (j = 0; row != NULL && j < TAME_MAXCOND; j++) {
		if (row->cond[j].op == TC_END)
			break;
		if (rng() % 10 == 0)
			continue;	/* leave one to chance */
		t->a[row->cond[j].arg] = cond_arg(&row->cond[j], held);
	}
}

START_TEST(test_random_tuples)
{
	struct vals pool = { .n = 0 };
	struct tally ty;
	struct tuple t;
	long n = env_long("TAME_ORACLE_TUPLES", 100000), done = 0, batch;
	uint64_t seed = env_long("TAME_ORACLE_SEED", 0x7a3e5eed);
	int olen, ll, i, maxnr = tame_syscall_max();
	tame_atoms held;

	rng_state = seed;
	reach_init();
	tally_init(&ty);
	ty.must_reach = n >= 100000;	/* fewer may miss a kind */
	table_constants(&pool);
	vals_add(&pool, 0);
	/* about 10^4 targets at most: building the oracle is the cost */
	batch = n / 10000 > 200 ? n / 10000 : 200;
	printf("random: %ld tuples, seed %#llx, %ld a target\n", n,
	    (unsigned long long)seed, batch);
	while (done < n) {
		/*
		 * One target for a batch: a quarter under unveil's lock,
		 * one in sixteen not pledged at all; the unveil rules'
		 * number one of the two, or any.
		 */
		held = tame_expand(rng() % (TAME_ALL + 1));
		if (rng() % 2)
			held = tame_oracle_nounix(held);
		if (rng() % 4 == 0)
			held |= TAME__UNVEILED;
		if (rng() % 16 == 0)
			held = free_helds[rng() % NFREE];
		use_uvid(rng() % 4 == 0 ? (uint32_t)rng() : rng() % 2 ?
		    UVID_A : UVID_B);
		ll = rng() % 2;
		build_first(held, ll, &prog_a, obuf, &olen);
		for (i = 0; i < batch && done < n; i++, done++) {
			random_tuple(&t, &pool, maxnr, held);
			compare(&ty, held, ll, &prog_a, obuf, olen, &t);
		}
	}
	use_uvid(UVID_A);
	ty.must_uvid = ty.must_reach;
	tally_check(&ty, "random");
}
END_TEST

/* ---- stacking: delta filters ---- */

/*
 * old, then new (a subset), then possibly newer: the first filter in
 * full, deltas after it.  Checks, per tuple (the given ones, and claims
 * made from each target's atoms, so that a claim one filter of the
 * stack holds and another does not is made):
 *  - the stack with deltas decides as the stack of full filters would
 *    (what the delta must preserve),
 *  - and as the single full filter for the narrowest set (flags only
 *    narrow, so the older filters must not change the answer; but an
 *    older filter's trap where the newest soft-denies is the handler's
 *    to answer, with the errno: expect_handler_decides),
 *  - and libseccomp's programs for the same targets, stacked, agree.
 */
struct chain {
	struct tame_target	 t[3];
	int			 n;
};

/*
 * Does a later filter of the n drop NOUNIX?  tame() keeps it (tame.c,
 * with_state): under it a process's first AF_UNIX socketpair traps, for
 * the handler to turn the message checks on (policy.c; libtame's own
 * pair, marked, passes), so a filter without it is wider, and the stack
 * need not answer as its newest filter alone.  The chains still draw
 * such drops, for the deltas: those are held to the full stack and
 * libseccomp's.
 */
static int
drops_nounix(const struct tame_target *t, int n)
{
	int j;

	for (j = 1; j < n; j++)
		if ((t[j - 1].held & ~t[j].held) & TAME__NOUNIX)
			return 1;
	return 0;
}

static void
chain_check(struct tally *ty, const struct chain *ch, const struct tuples *ts)
{
	static struct tame_prog full[3], delta[3];
	static struct sock_filter ofull[3][TAME_MAXINSN];
	static struct tuples claims;
	static int olen[3];
	uint32_t rd[3], rf[3], ro[3], a, b, c, o;
	const struct tuple *tp;
	int i, j, wider = drops_nounix(ch->t, ch->n);

	claims.n = 0;
	for (j = 0; j < ch->n; j++) {
		ck_assert_int_eq(tame_compile(&ch->t[j], NULL, &full[j]), 0);
		ck_assert_int_eq(tame_compile(&ch->t[j], j ? &ch->t[j - 1] :
		    NULL, &delta[j]), 0);
		check_no_ip(&delta[j], "delta", ch->t[j].held);
		tame_oracle_set_pid(ch->t[j].pid);
		olen[j] = tame_oracle_bpf(ch->t[j].held, ch->t[j].landlock_ok,
		    ofull[j], TAME_MAXINSN);
		ck_assert_int_gt(olen[j], 0);
		claim_tuples(&claims, ch->t[j].held);
	}
	for (i = 0; i < ts->n + claims.n; i++) {
		tp = i < ts->n ? &ts->t[i] : &claims.t[i - ts->n];
		if (tame_oracle_excluded(tp->arch, tp->nr)) {
			ty->excluded++;
			continue;
		}
		for (j = 0; j < ch->n; j++) {
			rd[j] = run(delta[j].insn, delta[j].len, tp);
			rf[j] = run(full[j].insn, full[j].len, tp);
			ro[j] = run(ofull[j], olen[j], tp);
		}
		a = expect_stack(rd, ch->n);
		b = expect_stack(rf, ch->n);
		c = rf[ch->n - 1];
		o = expect_stack(ro, ch->n);
		ty->compared++;
		tally_count(ty, a);
		reach_count(ty, ch->t[ch->n - 1].held, tp);
		if (a != b || a != o ||
		    (a != c && !expect_handler_decides(a, c) && !wider)) {
			struct tuple show = *tp;

			tally_bad(ty, "stack", ch->t[ch->n - 1].held,
			    ch->t[ch->n - 1].landlock_ok, &show, a, b,
			    c != a ? c : o);
			if (ty->bad <= MAXREPORT) {
				int n = snprintf(ty->msg + ty->len,
				    sizeof(ty->msg) - ty->len,
				    " [deltas, full stack, %s; chain",
				    c != a ? "full alone" : "libseccomp stack");
				if (n > 0 && ty->len + n < sizeof(ty->msg))
					ty->len += n;
				for (j = 0; j < ch->n; j++) {
					n = snprintf(ty->msg + ty->len,
					    sizeof(ty->msg) - ty->len,
					    " %#llx/%d",
					    (unsigned long long)ch->t[j].held,
					    ch->t[j].landlock_ok);
					if (n > 0 && ty->len + n <
					    sizeof(ty->msg))
						ty->len += n;
				}
				if (ty->len + 1 < sizeof(ty->msg))
					ty->msg[ty->len++] = ']';
				ty->msg[ty->len] = '\0';
			}
		}
	}
}

/* A random subset of f: flags only narrow. */
static int
narrower(int f)
{
	return f & (int)rng() & (int)rng();
}

/*
 * Landlock: a later filter may lose Landlock (the layer could not be
 * built) but never regain it, since EACCES from the older filter stays.
 */
static int
narrower_ll(int ll)
{
	/* Landlock lost after a filter relied on it: 2, never 0 */
	return ll == 1 ? (rng() % 2 ? 1 : 2) : ll;
}

/*
 * Later tame() calls keep NOUNIX; a quarter of the draws drop it all the
 * same, as a stress of the deltas (drops_nounix).
 */
static tame_atoms
kept_nounix(tame_atoms held)
{
	return rng() % 4 ? held & TAME__NOUNIX : 0;
}

START_TEST(test_stacked_deltas)
{
	struct tuples few = { NULL, 0, 0 };
	struct tally ty;
	struct chain ch;
	int i, f, pairs = 0, triples = 0, unveiled = 0;

	setup_tuples();
	/* every third tuple; chain_check adds the chain's claims */
	for (i = 0; i < fixed.n; i += 3)
		tuples_add(&few, &fixed.t[i]);
	tally_init(&ty);
	ty.must_reach = 1;
	rng_state = 0xde17a5eedULL;
	/* every single flag dropped from everything, and from stdio */
	for (f = 0; f < 13; f++) {
		ch.n = 2;
		ch.t[0] = (struct tame_target){ tame_expand(TAME_ALL), 1,
		    SELF_PID, &test_ids };
		ch.t[1] = (struct tame_target){ tame_expand(TAME_ALL &
		    ~(1 << f)), 1, SELF_PID, &test_ids };
		chain_check(&ty, &ch, &few);
		ch.t[0] = (struct tame_target){ tame_expand(1 << f), 1,
		    SELF_PID, &test_ids };
		ch.t[1] = (struct tame_target){ tame_expand(0), 1, SELF_PID, &test_ids };
		chain_check(&ty, &ch, &few);
		/*
		 * Across a fork: a filter made under PROC for the parent,
		 * then the child's own, without PROC and one flag less.
		 */
		ch.t[0] = (struct tame_target){ tame_expand(TAME_ALL), 1,
		    SELF_PID, &test_ids };
		ch.t[1] = (struct tame_target){ tame_expand(TAME_ALL &
		    ~TAME_PROC & ~(1 << f)), 1, SELF_PID + 1 };
		chain_check(&ty, &ch, &few);
		pairs += 3;
	}
	/*
	 * Random pairs and triples, old always a superset; NOUNIX, where
	 * the first set has it, kept, or dropped (drops_nounix).
	 */
	for (i = 0; i < 240; i++) {
		f = rng() % (TAME_ALL + 1);
		ch.t[0] = (struct tame_target){ tame_expand(f), rng() % 2,
		    SELF_PID, &test_ids };
		if (i % 2)
			ch.t[0].held = tame_oracle_nounix(ch.t[0].held);
		f = narrower(f);
		ch.t[1] = (struct tame_target){ tame_expand(f) |
		    kept_nounix(ch.t[0].held), narrower_ll(ch.t[0].landlock_ok),
		    SELF_PID, &test_ids };
		ch.n = 2;
		if (i % 3 == 0) {
			f = narrower(f);
			ch.t[2] = (struct tame_target){ tame_expand(f) |
			    kept_nounix(ch.t[1].held),
			    narrower_ll(ch.t[1].landlock_ok), SELF_PID, &test_ids };
			ch.n = 3;
			triples++;
		} else
			pairs++;
		chain_check(&ty, &ch, &few);
	}
	/*
	 * Under unveil's lock, which a later filter may add (the lock
	 * narrows, where unveil() was allowed) and none drops: locked at
	 * the first filter or at the second, the flags narrowed as above.
	 * And not pledged first (FREE), then locked unpledged, then
	 * pledged, locked or not.
	 */
	for (i = 0; i < 48; i++) {
		use_uvid(i % 2 ? UVID_A : UVID_B);
		f = rng() % (TAME_ALL + 1);
		if (i % 4 == 3) {
			ch.t[0] = (struct tame_target){ free_helds[i % 2],
			    rng() % 2, SELF_PID, &test_ids, .uvid = cur_uvid };
			ch.t[1] = (struct tame_target){ free_helds[1],
			    ch.t[0].landlock_ok, SELF_PID, &test_ids,
			    .uvid = cur_uvid };
			if (i % 8 == 7)
				ch.t[1].held = tame_expand(f) |
				    (ch.t[0].held & TAME__UNVEILED);
		} else {
			ch.t[0] = (struct tame_target){ tame_expand(f),
			    rng() % 2, SELF_PID, &test_ids, .uvid = cur_uvid };
			if (i % 2)
				ch.t[0].held = tame_oracle_nounix(
				    ch.t[0].held);
			if (i % 3 == 0)
				ch.t[0].held |= TAME__UNVEILED;
			else if (i % 3 == 2)
				/* pledge's unveil */
				ch.t[0].held |= TAME__UNVEIL;
			f = narrower(f);
			/* locked now where unveil() was allowed, or before */
			ch.t[1] = (struct tame_target){ tame_expand(f) |
			    kept_nounix(ch.t[0].held) | (ch.t[0].held &
			    (TAME__UNVEIL | TAME__UNVEILED) ? TAME__UNVEILED :
			    0), narrower_ll(ch.t[0].landlock_ok), SELF_PID,
			    &test_ids, .uvid = cur_uvid };
		}
		ch.n = 2;
		if (i % 3 == 1) {
			f = narrower(f);
			ch.t[2] = (struct tame_target){ tame_expand(f) |
			    kept_nounix(ch.t[1].held) | (ch.t[1].held &
			    TAME__UNVEILED), narrower_ll(ch.t[1].landlock_ok),
			    SELF_PID, &test_ids, .uvid = cur_uvid };
			ch.n = 3;
			triples++;
		} else
			pairs++;
		unveiled++;
		chain_check(&ty, &ch, &few);
	}
	use_uvid(UVID_A);
	ty.must_uvid = 1;
	printf("stacking: %d pairs, %d triples (%d under unveil's lock or "
	    "not pledged), %d tuples each\n", pairs, triples, unveiled,
	    few.n);
	tally_check(&ty, "stacked deltas");
	free(few.t);
}
END_TEST

/* ---- every narrowing: make check-long ---- */

/*
 * For every flag set S (all 2^13, as held after tame_expand), the stack
 * S -> S minus f for each flag f that S names, each once with Landlock
 * and NOUNIX kept and once with them as a random later tame() leaves
 * them; and random chains S -> S' -> ... -> 0 of up to 14 filters.
 * Each stack of the first full filter and deltas after it must decide
 * as the stack of full filters, as the full filter for the last set
 * alone (where the handler does not decide, and no NOUNIX was dropped:
 * drops_nounix), as libseccomp's programs stacked, and, where a delta
 * changes nothing and tame() installs none, as the stack without it.  The tuples: every fourth of the fixed set,
 * one that each table row decides, and a claim of each atom alone (the
 * same for every target: it is within the older filter's set and beyond
 * the newer one's where the narrowing drops that atom).
 *
 * TAME_ORACLE_NARROWING=1 visits every S, TAME_ORACLE_CHAINS=3 draws
 * three chains from each (make check-long); the default is one from
 * every 64th S, which make check can afford.  A full filter's and
 * libseccomp's answers depend on one target alone, so each target's are
 * computed once and kept; only the deltas run per chain.
 */

#define NAR_MAXLINKS	16
#define NAR_SLOTS	16384		/* targets: 2 * 3216 distinct */
#define NAR_PAIRSLOTS	(1 << 18)
#define NAR_PID		SELF_PID	/* whom the filters are for */

struct nar_answers {
	tame_atoms	 held;
	int		 ll, used;
	uint32_t	*full, *orac;		/* one per tuple */
};

struct nar_chain {
	struct tame_target	 t[NAR_MAXLINKS];
	int			 n;
};

struct nar_pair {
	tame_atoms	 h0, h1;
	uint8_t		 l0, l1, used;
};

static struct nar_answers	*nar_tab;
static struct nar_pair		*nar_pairs;
static uint32_t			*nar_delta[NAR_MAXLINKS];
static int			 nar_shadowed;	/* rows only the handler
						   reaches */

static struct tame_target
nar_target(tame_atoms held, int ll)
{
	return (struct tame_target){ .held = held, .landlock_ok = ll,
	    .pid = NAR_PID, .ids = &test_ids };
}

/* What the target's full filter and libseccomp's program answer. */
static const struct nar_answers *
nar_answers(const struct tame_target *tg, const struct tuples *ts)
{
	static struct sock_filter ob[TAME_MAXINSN];
	struct nar_answers *a;
	unsigned h = ((unsigned)tg->held * 2654435761u) ^ tg->landlock_ok;
	int olen, i;

	for (h %= NAR_SLOTS; nar_tab[h].used; h = (h + 1) % NAR_SLOTS)
		if (nar_tab[h].held == tg->held &&
		    nar_tab[h].ll == tg->landlock_ok)
			return &nar_tab[h];
	a = &nar_tab[h];
	a->used = 1;
	a->held = tg->held;
	a->ll = tg->landlock_ok;
	a->full = malloc(ts->n * sizeof(*a->full));
	a->orac = malloc(ts->n * sizeof(*a->orac));
	ck_assert_ptr_nonnull(a->full);
	ck_assert_ptr_nonnull(a->orac);
	ck_assert_msg(tame_compile(tg, NULL, &prog_a) == 0,
	    "tame_compile(%#llx): %s", (unsigned long long)tg->held, strerror(errno));
	tame_oracle_set_pid(tg->pid);
	olen = tame_oracle_bpf(tg->held, tg->landlock_ok, ob, TAME_MAXINSN);
	ck_assert_msg(olen > 0, "oracle(%#llx, %d) failed",
	    (unsigned long long)tg->held, tg->landlock_ok);
	for (i = 0; i < ts->n; i++) {
		a->full[i] = run(prog_a.insn, prog_a.len, &ts->t[i]);
		a->orac[i] = run(ob, olen, &ts->t[i]);
	}
	return a;
}

/* Has this two-filter stack been checked already?  Marks it. */
static int
nar_pair_seen(const struct nar_chain *ch)
{
	struct nar_pair *p;
	unsigned h = ((unsigned)ch->t[0].held * 2654435761u) ^
	    ((unsigned)ch->t[1].held * 40503u) ^
	    (ch->t[0].landlock_ok << 1) ^ ch->t[1].landlock_ok;

	for (h %= NAR_PAIRSLOTS; nar_pairs[h].used;
	    h = (h + 1) % NAR_PAIRSLOTS) {
		p = &nar_pairs[h];
		if (p->h0 == ch->t[0].held && p->h1 == ch->t[1].held &&
		    p->l0 == ch->t[0].landlock_ok &&
		    p->l1 == ch->t[1].landlock_ok)
			return 1;
	}
	nar_pairs[h] = (struct nar_pair){ ch->t[0].held, ch->t[1].held,
	    ch->t[0].landlock_ok, ch->t[1].landlock_ok, 1 };
	return 0;
}

static void
nar_note_chain(struct tally *ty, const struct nar_chain *ch)
{
	int j, n;

	if (ty->bad > MAXREPORT)
		return;
	for (j = 0; j < ch->n; j++) {
		n = snprintf(ty->msg + ty->len, sizeof(ty->msg) - ty->len,
		    "%s%#llx/%d", j ? " -> " : " [chain ",
		    (unsigned long long)ch->t[j].held,
		    ch->t[j].landlock_ok);
		if (n < 0 || ty->len + n >= sizeof(ty->msg) - 2)
			return;
		ty->len += n;
	}
	ty->msg[ty->len++] = ']';
	ty->msg[ty->len] = '\0';
}

static void
nar_check(struct tally *ty, const struct nar_chain *ch,
    const struct tuples *ts)
{
	static struct tame_prog d;
	const struct nar_answers *an[NAR_MAXLINKS];
	uint32_t rd[NAR_MAXLINKS], rf[NAR_MAXLINKS], ro[NAR_MAXLINKS];
	uint32_t ri[NAR_MAXLINKS], a, b, c, o, in;
	int installed[NAR_MAXLINKS], i, j, m;
	int wider = drops_nounix(ch->t, ch->n);

	for (j = 0; j < ch->n; j++) {
		an[j] = nar_answers(&ch->t[j], ts);
		installed[j] = 1;
		if (j == 0)
			continue;
		ck_assert_msg(tame_compile(&ch->t[j], &ch->t[j - 1], &d) == 0,
		    "delta %#llx after %#llx: %s",
		    (unsigned long long)ch->t[j].held, (unsigned long long)ch->t[j - 1].held, strerror(errno));
		check_no_ip(&d, "delta", ch->t[j].held);
		installed[j] = d.changed != 0;	/* as tame() decides */
		for (i = 0; i < ts->n; i++)
			nar_delta[j][i] = run(d.insn, d.len, &ts->t[i]);
	}
	for (i = 0; i < ts->n; i++) {
		for (j = m = 0; j < ch->n; j++) {
			rd[j] = j ? nar_delta[j][i] : an[0]->full[i];
			rf[j] = an[j]->full[i];
			ro[j] = an[j]->orac[i];
			if (installed[j])
				ri[m++] = rd[j];
		}
		a = expect_stack(rd, ch->n);
		b = expect_stack(rf, ch->n);
		o = expect_stack(ro, ch->n);
		in = expect_stack(ri, m);
		c = rf[ch->n - 1];
		ty->compared++;
		tally_count(ty, a);
		reach_count(ty, ch->t[ch->n - 1].held, &ts->t[i]);
		if (a == b && a == o && a == in &&
		    (a == c || expect_handler_decides(a, c) || wider))
			continue;
		tally_bad(ty, a != b ? "deltas vs full stack" :
		    a != o ? "deltas vs libseccomp stack" :
		    a != in ? "a delta not installed changed the answer" :
		    "stack vs last filter alone", ch->t[ch->n - 1].held,
		    ch->t[ch->n - 1].landlock_ok, &ts->t[i], a,
		    a != b ? b : a != o ? o : a != in ? in : c, rf[ch->n - 1]);
		nar_note_chain(ty, ch);
	}
}

/* The row the table picks for a call by NAR_PID under held. */
static int
nar_row(tame_atoms held, const struct tuple *t)
{
	return tame_policy_match(held, t->nr, t->a,
	    &(struct tame_origin){ NAR_PID, &test_ids, 0 });
}

/* Does every call row r's conditions pass also pass row e's? */
static int
nar_implies(const struct tame_rule *r, const struct tame_rule *e)
{
	const struct tame_cond *ce, *cr;
	int i, k, j, l, found;

	for (i = 0; i < TAME_MAXCOND && e->cond[i].op != TC_END; i++) {
		ce = &e->cond[i];
		for (found = 0, k = 0; !found && k < TAME_MAXCOND &&
		    r->cond[k].op != TC_END; k++) {
			cr = &r->cond[k];
			if (cr->op != ce->op || cr->arg != ce->arg)
				continue;
			if (ce->op == TC_WITHIN) {	/* the same half */
				found = cr->val[0] == ce->val[0];
				continue;
			}
			if (ce->op != TC_IN) {
				found = 1;
				continue;
			}
			if (cr->mask != ce->mask)
				continue;
			for (found = 1, j = 0; found && j < cr->nval; j++)
				for (found = 0, l = 0; l < ce->nval; l++)
					if (cr->val[j] == ce->val[l])
						found = 1;
		}
		if (!found)
			return 0;
	}
	return 1;
}

/*
 * Is the row decided by earlier ones wherever it applies, so that only
 * the handler's second look (tame_policy_match_except, after a trap it
 * refuses) ever reaches it?
 */
static int
nar_row_shadowed(int row)
{
	const struct tame_rule *r = &tame_rules[row];
	int f, v, e, covered;
	tame_atoms held;

	for (f = 0; f <= TAME_ALL; f++) {
		for (v = 0; v < 2; v++) {
			held = v ? tame_oracle_nounix(tame_expand(f)) :
			    tame_expand(f);
			if (!tame_rule_applies(r, held))
				continue;
			for (covered = 0, e = 0; !covered && e < row; e++)
				covered = tame_rules[e].nr == r->nr &&
				    tame_rule_applies(&tame_rules[e], held) &&
				    nar_implies(r, &tame_rules[e]);
			if (!covered)
				return 0;
		}
	}
	return 1;
}

/*
 * A call the row decides, made from its conditions' first values, under
 * one of the flag sets it applies to; 0, or -1 if earlier rows decide
 * every such call.
 */
static int
nar_row_tuple(int row, struct tuple *t)
{
	const struct tame_rule *r = &tame_rules[row];
	const struct tame_cond *c;
	int f, k;
	tame_atoms held;

	memset(t, 0, sizeof(*t));
	t->arch = ARCH_NATIVE;
	t->nr = r->nr;
	memcpy(t->a, base_args[2], sizeof(t->a));
	for (k = 0; k < TAME_MAXCOND; k++) {
		c = &r->cond[k];
		if (c->op == TC_WITHIN)
			t->a[c->arg] = 0;	/* no atom: held by any */
		else if (c->op == TC_IN)
			t->a[c->arg] = c->val[0];
		else if (c->op == TC_NULL)
			t->a[c->arg] = 0;
		else if (c->op == TC_NOTNULL)
			t->a[c->arg] = 0x7ffc12345678ULL;
		else if (c->op == TC_SELF)
			t->a[c->arg] = NAR_PID;
		else if (c->op == TC_OWNUID)
			t->a[c->arg] = test_ids.uid;
		else if (c->op == TC_OWNGID)
			t->a[c->arg] = test_ids.gid[2];
	}
	for (f = 0; f <= TAME_ALL; f++) {
		held = tame_expand(f);
		if (nar_row(held, t) == row ||
		    nar_row(tame_oracle_nounix(held), t) == row)
			return 0;
	}
	return -1;
}

/*
 * The tuples: every fourth fixed one, for each table row the first
 * fixed tuple that row decides under some target that holds it (each
 * single flag, everything, nothing, NOUNIX or not), and claims of one
 * atom each.  Returns how many rows no tuple reaches.
 */
static int
nar_tuples(struct tuples *ts)
{
	char *hit = calloc(tame_nrules, 1);
	tame_atoms helds[2 * 16];
	int nh = 0, f, i, k, row, left = 0;
	const struct tuple *t;
	const char *what;
	struct tuple one;

	ck_assert_ptr_nonnull(hit);
	for (f = -2; f < 13; f++) {
		helds[nh] = tame_expand(f == -2 ? TAME_ALL : f == -1 ? 0 :
		    1 << f);
		helds[nh + 1] = tame_oracle_nounix(helds[nh]);
		nh += 2;
	}
	for (i = 0; i < fixed.n; i++) {
		t = &fixed.t[i];
		if (tame_oracle_excluded(t->arch, t->nr))
			continue;
		if (i % 4 == 0) {
			tuples_add(ts, t);
			continue;
		}
		if (t->arch != ARCH_NATIVE)
			continue;
		for (k = 0; k < nh; k++) {
			row = nar_row(helds[k], t);
			if (row >= 0 && !hit[row]) {
				hit[row] = 1;
				tuples_add(ts, t);
				break;
			}
		}
	}
	/*
	 * Claims of one atom each, and of none: a delta must hold a claim
	 * against its own set, never leave it to the older filter's wider
	 * one.  Each also with the other register's high word set.
	 */
	memset(&one, 0, sizeof(one));
	one.arch = ARCH_NATIVE;
	one.nr = TAME_ASK_NR;
	for (k = -1; k < 64; k++) {
		for (f = 0; f < 2; f++) {
			one.a[1] = k >= 0 && k < 32 ? (uint64_t)1 << k : 0;
			one.a[2] = k >= 32 ? (uint64_t)1 << (k - 32) : 0;
			if (f)
				one.a[k < 32 ? 2 : 1] |= 0xffffffff00000000ULL;
			tuples_add(ts, &one);
		}
	}
	/*
	 * A row the fixed set misses (the fixed set knows no pid): a tuple
	 * made from its conditions, and for each argument that must be the
	 * pid, the pid with the high word set and the pid next to it.
	 */
	for (row = 0; row < tame_nrules; row++) {
		if (hit[row] || nar_row_tuple(row, &one) == -1)
			continue;
		hit[row] = 1;
		tuples_add(ts, &one);
		for (k = 0; k < TAME_MAXCOND; k++) {
			if (tame_rules[row].cond[k].op != TC_SELF)
				continue;
			one.a[tame_rules[row].cond[k].arg] |=
			    0xffffffff00000000ULL;
			tuples_add(ts, &one);
			one.a[tame_rules[row].cond[k].arg] = NAR_PID + 1;
			tuples_add(ts, &one);
		}
	}
	/* rows the every-fourth part decides, for the count */
	for (i = 0; i < ts->n; i++) {
		t = &ts->t[i];
		if (t->arch != ARCH_NATIVE)
			continue;
		for (k = 0; k < nh; k++) {
			if ((row = nar_row(helds[k], t)) >= 0)
				hit[row] = 1;
		}
	}
	for (row = 0; row < tame_nrules; row++) {
		if (hit[row])
			continue;
		if (nar_row_shadowed(row)) {
			nar_shadowed++;
			what = "earlier rows decide first: the handler's only";
		} else {
			what = "NOT REACHED";
			left++;
		}
		printf("narrowing: row %d (%s: %s): %s\n", row,
		    tame_rules[row].name, tame_rules[row].why, what);
	}
	free(hit);
	return left;
}

/* The flag set after a later tame(): NOUNIX kept or lost, Landlock too. */
static struct tame_target
nar_next(const struct tame_target *prev, int flags)
{
	return nar_target(tame_expand(flags) | kept_nounix(prev->held),
	    narrower_ll(prev->landlock_ok));
}

/*
 * S, then S without flag f: variant 0 keeps Landlock and has no NOUNIX;
 * variant 1 draws both as a first and a later tame() may leave them.
 */
static void
nar_single(struct nar_chain *ch, int s, int f, int variant)
{
	ch->n = 2;
	ch->t[0] = nar_target(tame_expand(s), 1);
	ch->t[1] = nar_target(tame_expand(s & ~(1 << f)), 1);
	if (variant == 0)
		return;
	ch->t[0].landlock_ok = rng() % 2;
	if (rng() % 2)
		ch->t[0].held = tame_oracle_nounix(ch->t[0].held);
	ch->t[1] = nar_next(&ch->t[0], s & ~(1 << f));
}

/* S, then one flag or more fewer at each step, down to 0. */
static void
nar_down(struct nar_chain *ch, int s)
{
	int cur, drop;

	ch->n = 1;
	ch->t[0] = nar_target(tame_expand(s), rng() % 2);
	if (rng() % 2)
		ch->t[0].held = tame_oracle_nounix(ch->t[0].held);
	for (cur = s; cur != 0 && ch->n < NAR_MAXLINKS; ch->n++) {
		do
			drop = cur & (1 << (rng() % 13));
		while (drop == 0);
		if (rng() % 3 == 0)
			drop |= cur & (int)rng() & (int)rng();
		cur &= ~drop;
		ch->t[ch->n] = nar_next(&ch->t[ch->n - 1], cur);
	}
}

START_TEST(test_every_narrowing)
{
	struct tuples ts = { NULL, 0, 0 };
	struct tally ty;
	struct nar_chain ch;
	long stride = env_long("TAME_ORACLE_NARROWING", 64);
	long per_set = env_long("TAME_ORACLE_CHAINS", 1);
	long sets = 0, pairs = 0, distinct = 0, chains = 0, links = 0, k;
	int s, f, v, j, unreached;

	setup_tuples();
	unreached = nar_tuples(&ts);
	nar_tab = calloc(NAR_SLOTS, sizeof(*nar_tab));
	nar_pairs = calloc(NAR_PAIRSLOTS, sizeof(*nar_pairs));
	ck_assert_ptr_nonnull(nar_tab);
	ck_assert_ptr_nonnull(nar_pairs);
	for (j = 1; j < NAR_MAXLINKS; j++) {
		nar_delta[j] = malloc(ts.n * sizeof(*nar_delta[j]));
		ck_assert_ptr_nonnull(nar_delta[j]);
	}
	tally_init(&ty);
	ty.must_reach = 1;
	rng_state = 0x5eed0fa11ULL;
	for (s = 0; s <= TAME_ALL; s += stride) {
		sets++;
		/* S minus one flag: plain, then Landlock and NOUNIX varied */
		for (f = 0; f < 13; f++) {
			if (!(s & (1 << f)))
				continue;
			for (v = 0; v < 2; v++) {
				nar_single(&ch, s, f, v);
				pairs++;
				if (nar_pair_seen(&ch))
					continue;
				distinct++;
				nar_check(&ty, &ch, &ts);
			}
		}
		/* and random ways down to nothing, a few flags a step */
		for (k = 0; s != 0 && k < per_set; k++) {
			nar_down(&ch, s);
			chains++;
			links += ch.n;
			nar_check(&ty, &ch, &ts);
		}
	}
	printf("narrowing: %ld flag sets (every %ld), %ld single-flag stacks "
	    "(%ld distinct after tame_expand), %ld chains down to 0 (%ld "
	    "filters), %d tuples each; %d of %d rows reached, %d only the "
	    "handler reaches\n", sets, stride, pairs, distinct, chains, links,
	    ts.n, tame_nrules - unreached - nar_shadowed, tame_nrules,
	    nar_shadowed);
	tally_check(&ty, "every narrowing");
	free(ts.t);
	ck_assert_msg(unreached == 0, "%d table rows no tuple reaches",
	    unreached);
}
END_TEST

/* ---- exec splits ---- */

/*
 * pledge's exec (compile.h, tame_target.split): one filter answers for
 * the process's set (held) and its exec'd images' (exec_held), either of
 * which may be not pledged at all (TAME__FREE: pledge(NULL, E), NULL
 * execpromises), the first such filter (the supervisor's) and later
 * ones (split_held, split_exec: the first's sets).  Each target's
 * program against libseccomp's (tame_oracle_target_bpf: the two sets'
 * regions met, oracle.c) and against the matcher: each set's first
 * applicable row that matches (tame_rule_applies, tame_rule_args_match,
 * claims compared with either set's atoms), the two answers made one as
 * tame_oracle_split_answer() says, a later split's pair of rows routed
 * as tame_oracle_split_pair_routed() says; and first and later stacked,
 * where each call a later split lets through for its routing must be
 * one its first filter really sends the supervisor.  pid is
 * 0 ("itself" is the caller, whom only the supervisor knows); the
 * filters name the unveil rules UVID_A.
 */

/* pledge()'s atoms for a list of promises, as narrow_locked() has them */
static tame_atoms
promises(const char *list)
{
	char buf[256], *p, *save = NULL;
	tame_atoms a = TAME__BASE | TAME__ALWAYS;
	int i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (p = strtok_r(buf, " ", &save); p != NULL;
	    p = strtok_r(NULL, " ", &save)) {
		for (i = 0; i < tame_npromises &&
		    strcmp(tame_promises[i].name, p) != 0; i++)
			;
		ck_assert_msg(i < tame_npromises, "no promise %s", p);
		a |= tame_promises[i].atoms;
	}
	return a;
}

/* A set's first row that matches, claims compared with within. */
static int
split_side_row(tame_atoms held, tame_atoms within,
    const struct tame_target *tg, const struct tuple *t)
{
	const struct tame_origin o = { tg->pid, tg->ids, within, tg->uvid };
	const struct tame_rule *r;
	int i;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr == t->nr && tame_rule_applies(r, held) &&
		    tame_rule_args_match(r, t->a, &o))
			return i;
	}
	return -1;
}

/* A later split's routing of the pair of rows (ra, re) for nr. */
static int
routed_of(const struct tame_target *tg, int nr, int ra, int re)
{
	int r = tame_oracle_split_pair_routed(tg, nr, ra, re);

	ck_assert_msg(r >= 0, "split_pair_routed(%d, %d, %d): %s", nr, ra, re,
	    strerror(-r));
	return r;
}

/*
 * What the table says a split answers; *unrouted, where not NULL, what
 * it answers were the pair not routed.
 */
static uint32_t
split_expect(const struct tame_target *tg, const struct tuple *t,
    uint32_t *unrouted)
{
	tame_atoms within = tame_oracle_split_within(tg);
	uint32_t a, e, dummy;
	int ra, re;

	if (unrouted == NULL)
		unrouted = &dummy;
	*unrouted = SECCOMP_RET_KILL_PROCESS;
	if (t->arch != ARCH_NATIVE)
		return SECCOMP_RET_KILL_PROCESS;
#ifdef __x86_64__
	if ((uint32_t)t->nr >= X32_BIT)
		return SECCOMP_RET_KILL_PROCESS;
#endif
	ra = split_side_row(tg->held, within, tg, t);
	re = split_side_row(tg->exec_held, within, tg, t);
	a = tame_oracle_rule_ret(ra, tg->held, tg->landlock_ok);
	e = tame_oracle_rule_ret(re, tg->exec_held, tg->landlock_ok);
	*unrouted = tame_oracle_split_answer(tg, t->nr, ra, a, e, 0);
	return tame_oracle_split_answer(tg, t->nr, ra, a, e,
	    tg->split == TAME_SPLIT_LATER && routed_of(tg, t->nr, ra, re));
}

static void
split_note(struct tally *ty, const struct tame_target *tg)
{
	int n;

	if (ty->bad > MAXREPORT)
		return;
	n = snprintf(ty->msg + ty->len, sizeof(ty->msg) - ty->len,
	    " [split %d: held %#llx exec %#llx; first's %#llx %#llx]",
	    tg->split, (unsigned long long)tg->held,
	    (unsigned long long)tg->exec_held,
	    (unsigned long long)tg->split_held,
	    (unsigned long long)tg->split_exec);
	if (n > 0 && ty->len + n < sizeof(ty->msg))
		ty->len += n;
}

/* Tuples whose later split's answer its routing changed, and calls. */
static long	 split_let_through;
static int	 split_let_nrs[TAME_ASK_NR + 2];

/*
 * One split target, or a first split and a later one stacked (n 2): the
 * compiled programs, libseccomp's and the table's answers, per tuple.
 */
static void
split_check(struct tally *ty, const struct tame_target *tg, int n,
    const struct tuples *ts)
{
	static struct tame_prog sp[2];
	/* libseccomp's may be longer than a kernel takes: it only runs here */
	static struct sock_filter ob[2][4 * TAME_MAXINSN];
	static struct tuples claims;
	uint32_t rc[2], ro[2], rt[2], ur[2], c, o, x;
	const struct tuple *tp;
	int olen[2], i, j;

	claims.n = 0;
	for (j = 0; j < n; j++) {
		ck_assert_msg(tame_compile(&tg[j], NULL, &sp[j]) == 0,
		    "tame_compile(split %d, %#llx, %#llx): %s", tg[j].split,
		    (unsigned long long)tg[j].held,
		    (unsigned long long)tg[j].exec_held, strerror(errno));
		check_no_ip(&sp[j], "split filter", tg[j].held);
		olen[j] = tame_oracle_target_bpf(&tg[j], ob[j],
		    4 * TAME_MAXINSN);
		ck_assert_msg(olen[j] > 0, "oracle(split %d, %#llx, %#llx) "
		    "failed", tg[j].split, (unsigned long long)tg[j].held,
		    (unsigned long long)tg[j].exec_held);
		claim_tuples(&claims, tg[j].held);
		claim_tuples(&claims, tg[j].exec_held);
	}
	for (i = 0; i < ts->n + claims.n; i++) {
		tp = i < ts->n ? &ts->t[i] : &claims.t[i - ts->n];
		if (tame_oracle_excluded(tp->arch, tp->nr)) {
			ty->excluded++;
			continue;
		}
		for (j = 0; j < n; j++) {
			rc[j] = run(sp[j].insn, sp[j].len, tp);
			ro[j] = run(ob[j], olen[j], tp);
			rt[j] = split_expect(&tg[j], tp, &ur[j]);
		}
		/*
		 * The routing itself: where it changed the later split's
		 * answer (to allowed: the supervisor judges), the first
		 * filter must really send the call there.  Reported as the
		 * first's answer, the later's and the later's unrouted.
		 */
		if (n > 1 && rt[1] != ur[1]) {
			split_let_through++;
			if (tp->nr >= 0 && tp->nr < TAME_ASK_NR + 2)
				split_let_nrs[tp->nr] = 1;
		}
		if (n > 1 && rt[1] != ur[1] &&
		    rc[0] != SECCOMP_RET_USER_NOTIF) {
			tally_bad(ty, "split routed, the first filter not "
			    "the supervisor's", tg[1].held, tg[1].landlock_ok,
			    tp, rc[0], rc[1], ur[1]);
			for (j = 0; j < n; j++)
				split_note(ty, &tg[j]);
		}
		x = expect_stack(rc, n);
		o = expect_stack(ro, n);
		c = expect_stack(rt, n);
		ty->compared++;
		tally_count(ty, x);
		if (x == o && x == c)
			continue;
		tally_bad(ty, n > 1 ? "split stack" : "split", tg[n - 1].held,
		    tg[n - 1].landlock_ok, tp, x, o, c);
		for (j = 0; j < n; j++)
			split_note(ty, &tg[j]);
	}
}

START_TEST(test_exec_splits)
{
	struct tuples half = { NULL, 0, 0 };
	struct tally ty;
	struct tame_target tg[2];
	tame_atoms hs[8], es[5], pl[4][2];
	int nh = 0, ne = 0, h, e, ll, i, firsts = 0, laters = 0;

	setup_tuples();
	for (i = 0; i < fixed.n; i += 2)
		tuples_add(&half, &fixed.t[i]);
	/* the process's sets: not pledged, under unveil's lock, pledged */
	hs[nh++] = TAME_UNRESTRICTED;
	hs[nh++] = TAME_UNRESTRICTED | TAME__UNVEILED;
	hs[nh++] = promises("stdio rpath proc exec");
	hs[nh++] = tame_oracle_nounix(promises("stdio exec"));
	hs[nh++] = promises("stdio rpath wpath cpath fattr exec unveil") |
	    TAME__UNVEILED;
	hs[nh++] = tame_promise_atoms_all() | TAME__UNVEILED;
	hs[nh++] = promises("stdio rpath inet dns proc exec") |
	    TAME__UNVEILED | TAME__THREADED;
	/* the exec'd images': NULL execpromises, or some, with the loader */
	es[ne++] = TAME_UNRESTRICTED;
	es[ne++] = promises("stdio") | TAME__LOADER;
	es[ne++] = promises("stdio rpath proc exec") | TAME__LOADER;
	es[ne++] = tame_promise_atoms_all() | TAME__LOADER;
	es[ne++] = promises("stdio rpath wpath cpath tmppath") | TAME__LOADER;
	tally_init(&ty);
	use_uvid(UVID_A);
	tame_oracle_set_pid(0);
	expect_pid = 0;
	for (h = 0; h < nh; h++)
		for (e = 0; e < ne; e++)
			for (ll = 0; ll < 2; ll++) {
				tg[0] = (struct tame_target){ hs[h], ll, 0,
				    &test_ids, TAME_SPLIT_FIRST, es[e], 0, 0,
				    UVID_A };
				split_check(&ty, tg, 1, &half);
				firsts++;
			}
	/*
	 * Later splits after a first: pledge(NULL, NULL) or
	 * pledge(NULL, E) first, then a pledge of this image (with unveil's
	 * lock, or not), the exec'd images' narrowed too; a pledged first
	 * narrowed.  Each alone and stacked on its first.
	 */
	pl[0][0] = TAME_UNRESTRICTED;
	pl[0][1] = TAME_UNRESTRICTED;
	pl[1][0] = TAME_UNRESTRICTED | TAME__UNVEILED;
	pl[1][1] = promises("stdio rpath proc exec") | TAME__LOADER;
	pl[2][0] = tame_promise_atoms_all() | TAME__UNVEILED;
	pl[2][1] = tame_promise_atoms_all() | TAME__LOADER;
	pl[3][0] = promises("stdio rpath proc exec");
	pl[3][1] = TAME_UNRESTRICTED;
	for (i = 0; i < 4; i++)
		for (h = 0; h < nh; h++)
			for (e = 0; e < ne; e++) {
				ll = (h + e) % 2;
				tg[0] = (struct tame_target){ pl[i][0], ll, 0,
				    &test_ids, TAME_SPLIT_FIRST, pl[i][1], 0, 0,
				    UVID_A };
				tg[1] = (struct tame_target){ hs[h], ll, 0,
				    &test_ids, TAME_SPLIT_LATER, es[e],
				    pl[i][0], pl[i][1], UVID_A };
				if ((h * ne + e) % 3 != i % 3)
					continue;	/* a third of them */
				split_check(&ty, tg, 2, &half);
				laters++;
			}
	tame_oracle_set_pid(SELF_PID);
	expect_pid = SELF_PID;
	for (i = 0, h = 0; i < TAME_ASK_NR + 2; i++)
		h += split_let_nrs[i];
	printf("exec splits: %d first splits, %d later ones stacked on "
	    "theirs, %d tuples each and claims of their sets; %ld tuples "
	    "(of %d calls) a later split lets through to the supervisor "
	    "for its routing\n", firsts, laters, half.n, split_let_through,
	    h);
	/* or the routing went untried */
	ck_assert_int_gt(split_let_through, 0);
	tally_check(&ty, "exec splits");
	free(half.t);
}
END_TEST

/* ---- the oracle itself ---- */

/*
 * The masked compare really ignores the high word in libseccomp's code:
 * an ioctl request sign-extended by the caller is still the request.
 */
START_TEST(test_oracle_ignores_high_word)
{
	static struct sock_filter f[TAME_MAXINSN];
	struct tuple t = { .arch = 0, .nr = 0 };
	tame_atoms held = tame_expand(TAME_STDIO | TAME_IOCTL);
	int n, i;
	uint32_t lo, hi;

	n = tame_oracle_bpf(held, 1, f, TAME_MAXINSN);
	ck_assert_int_gt(n, 0);
	t.arch = ARCH_NATIVE;
	t.nr = tame_syscall_number("ioctl");
	for (i = 0; i < tame_nrules; i++) {
		if (tame_rules[i].nr != t.nr ||
		    tame_rules[i].cond[0].op != TC_IN)
			continue;
		t.a[1] = tame_rules[i].cond[0].val[0];
		lo = run(f, n, &t);
		t.a[1] |= 0xffffffff00000000ULL;
		hi = run(f, n, &t);
		ck_assert_msg(lo == hi, "ioctl %#x: %#x, sign-extended %#x",
		    tame_rules[i].cond[0].val[0], lo, hi);
	}
}
END_TEST

/* The oracle's context is a real, loadable-looking libseccomp context. */
START_TEST(test_oracle_context)
{
	scmp_filter_ctx ctx;
	uint32_t v;

	ctx = tame_oracle_ctx(tame_expand(TAME_STDIO), 1);
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(seccomp_attr_get(ctx, SCMP_FLTATR_ACT_DEFAULT, &v), 0);
	ck_assert_uint_eq(v, SECCOMP_RET_TRAP);
	ck_assert_int_eq(seccomp_attr_get(ctx, SCMP_FLTATR_ACT_BADARCH, &v), 0);
	ck_assert_uint_eq(v, SECCOMP_RET_KILL_PROCESS);
	ck_assert_int_eq(seccomp_attr_get(ctx, SCMP_FLTATR_CTL_TSYNC, &v), 0);
	ck_assert_uint_eq(v, 1);
	printf("oracle: %d libseccomp rules for stdio\n", tame_oracle_nrules());
	seccomp_release(ctx);
	ctx = tame_oracle_ctx(tame_expand(0), 1);
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(seccomp_attr_get(ctx, SCMP_FLTATR_ACT_DEFAULT, &v), 0);
	ck_assert_uint_eq(v, SECCOMP_RET_KILL_PROCESS);
	seccomp_release(ctx);
}
END_TEST

static Suite *
oracle_suite(void)
{
	Suite *s = suite_create("oracle");
	TCase *tc = tcase_create("oracle");

	tame_oracle_set_pid(SELF_PID);
	tame_oracle_set_ids(&test_ids);
	expect_pid = SELF_PID;
	expect_ids = &test_ids;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_oracle_context);
	tcase_add_test(tc, test_oracle_ignores_high_word);
	tcase_add_loop_test(tc, test_every_flag_set, 0, NPARTS);
	tcase_add_test(tc, test_random_tuples);
	tcase_add_test(tc, test_stacked_deltas);
	tcase_add_test(tc, test_exec_splits);
	tcase_add_test(tc, test_every_narrowing);
	suite_add_tcase(s, tc);
	/*
	 * A case of its own, so that another architecture's build can run
	 * it alone, quickly (CK_RUN_CASE=precompiled): its programs are the
	 * build's own.
	 */
	tc = tcase_create("precompiled");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_precompiled_programs);
	tcase_add_test(tc, test_relocation);
	suite_add_tcase(s, tc);
	return s;
}

TAME_TEST_MAIN(oracle_suite)
