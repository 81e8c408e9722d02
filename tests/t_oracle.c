/*
 * t_oracle.c: the compiled filter against libseccomp's program for the
 * same table (lib/oracle.c) and against tame_policy_match(), run through
 * tame_bpf_run_raw on the same (arch, nr, args, ip) tuples.  No filter is
 * installed here: everything is compiled and interpreted.
 *
 *	every flag set	all 2^13 flag sets, Landlock usable or not, on a
 *			fixed tuple set built from the table's constants
 *	the gate	the same with ip == gate, where libtame's own rows
 *			apply
 *	random		TAME_ORACLE_TUPLES random tuples (default 10^5),
 *			seed TAME_ORACLE_SEED
 *	stacking	delta filters after a first filter against the full
 *			filter for the narrower set
 *
 * Flag sets are compared through tame_expand(): compile and oracle only
 * ever see expanded flags, so two flag sets with one expansion are the
 * same test, and running each distinct expansion once covers all 8192.
 */
#include <linux/audit.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compile.h"
#include "harness.h"
#include "oracle.h"
#include "policy.h"

#define GATE		0x00007f3a5c0012e5ULL	/* a made-up gate address */
#define NARGS		6
#define MAXREPORT	8	/* disagreements spelled out per test */
#define ARCH_NATIVE	tame_audit_arch()
#define X32_BIT		0x40000000

struct tuple {
	uint64_t	 a[NARGS];
	uint64_t	 ip;
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

struct tally {
	struct timespec	 start;
	long		 by_action[8];	/* what the compiled filter said */
	long		 compared;
	long		 excluded;
	long		 bad;
	char		 msg[4096];
	size_t		 len;
};

static struct tame_prog	 prog_a;
static struct sock_filter obuf[2][TAME_MAXINSN];

/* ---- what the table says, mapped to a seccomp return value ---- */

static uint32_t
row_ret(int row, int held, int landlock_ok)
{
	if (row < 0)
		return tame_violation_ret(held);
	return tame_rule_ret(&tame_rules[row], held, landlock_ok);
}

/* The third opinion: the prologue as specified, then first match. */
static uint32_t
match_ret(int held, int landlock_ok, const struct tuple *t)
{
	if (t->arch != ARCH_NATIVE)
		return SECCOMP_RET_KILL_PROCESS;
#ifdef __x86_64__
	if ((uint32_t)t->nr >= X32_BIT)
		return SECCOMP_RET_KILL_PROCESS;
#endif
	return row_ret(tame_policy_match(held, t->nr, t->a, t->ip, GATE),
	    held, landlock_ok);
}

static uint32_t
run(const struct sock_filter *f, int len, const struct tuple *t)
{
	return tame_bpf_run_raw(f, len, t->arch, t->nr, t->a, t->ip);
}

/*
 * Several filters as the kernel runs them (seccomp_run_filters): newest
 * first, a result replaces the one so far only when its action is
 * strictly more severe, so on equal actions the newest filter's data
 * stays.  Severity is the action compared as a signed number.
 */
static uint32_t
stack(const uint32_t *rets, int n)
{
	uint32_t ret = SECCOMP_RET_ALLOW;
	int i;

	for (i = n - 1; i >= 0; i--)
		if ((int32_t)(rets[i] & SECCOMP_RET_ACTION_FULL) <
		    (int32_t)(ret & SECCOMP_RET_ACTION_FULL))
			ret = rets[i];
	return ret;
}

/* ---- reporting ---- */

static void
tally_bad(struct tally *ty, const char *what, int held, int landlock_ok,
    const struct tuple *t, uint32_t x, uint32_t y, uint32_t z)
{
	int n;

	if (ty->bad++ >= MAXREPORT || ty->len >= sizeof(ty->msg) - 1)
		return;
	n = snprintf(ty->msg + ty->len, sizeof(ty->msg) - ty->len,
	    "\n  %s: held %#x landlock %d arch %#x nr %d (%s) args "
	    "%#llx %#llx %#llx %#llx %#llx %#llx ip %#llx: %#x %#x %#x",
	    what, held, landlock_ok, t->arch, t->nr,
	    t->arch == ARCH_NATIVE && tame_syscall_name(t->nr) ?
	    tame_syscall_name(t->nr) : "?",
	    (unsigned long long)t->a[0], (unsigned long long)t->a[1],
	    (unsigned long long)t->a[2], (unsigned long long)t->a[3],
	    (unsigned long long)t->a[4], (unsigned long long)t->a[5],
	    (unsigned long long)t->ip, x, y, z);
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
	default:
		ty->by_action[5]++;
	}
}

static void
tally_check(struct tally *ty, const char *name)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("%s: %ld tuples compared, %ld excluded (nr -1), "
	    "%ld disagreements; allow %ld, errno %ld, emulate %ld, "
	    "violation trap %ld, kill %ld, other %ld; %.1f s\n", name,
	    ty->compared, ty->excluded, ty->bad, ty->by_action[0],
	    ty->by_action[1], ty->by_action[2], ty->by_action[3],
	    ty->by_action[4], ty->by_action[5],
	    (now.tv_sec - ty->start.tv_sec) +
	    (now.tv_nsec - ty->start.tv_nsec) / 1e9);
	fflush(stdout);
	ck_assert_msg(ty->bad == 0, "%s: %ld disagreements "
	    "(compiled, libseccomp, tame_policy_match):%s", name, ty->bad,
	    ty->msg);
}

/*
 * One tuple under one target: compiled program, libseccomp's program
 * for the tuple's side of the gate, and tame_policy_match must agree.
 */
static void
compare(struct tally *ty, int held, int landlock_ok,
    const struct tame_prog *p, struct sock_filter *const ob[2],
    const int olen[2], const struct tuple *t)
{
	uint32_t x, y, z;
	int side = t->ip == GATE;

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
	y = run(ob[side], olen[side], t);
	z = match_ret(held, landlock_ok, t);
	tally_count(ty, x);
	if (x != y || x != z)
		tally_bad(ty, "first filter", held, landlock_ok, t, x, y, z);
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

/* Off-gate instruction pointers: near it, and equal in one half only. */
static uint64_t
off_gate_ip(int i)
{
	static const uint64_t ips[] = {
		GATE + 2, GATE ^ (1ULL << 40), GATE & 0xffffffffULL,
		0x55d0c0ffee00ULL,
	};

	return ips[i % 4];
}

/*
 * The tuples for one native call number: the base vectors; then, for the
 * arguments the table tests on this call, every combination of their
 * core values (the constants, 0, ~0), and each probe value of one
 * argument against every core combination of the others.
 */
static void
nr_tuples(struct tuples *ts, int nr, const struct vals *pool)
{
	static struct vals core[NARGS], all[NARGS];
	const struct tame_cond *c;
	struct tuple t;
	int tested[NARGS], ntested = 0, idx[NARGS];
	int i, j, k, vary, l;

	memset(&t, 0, sizeof(t));
	t.arch = ARCH_NATIVE;
	t.nr = nr;
	for (i = 0; i < 3; i++) {
		memcpy(t.a, base_args[i], sizeof(t.a));
		t.ip = off_gate_ip(nr + i);
		tuples_add(ts, &t);
	}
	for (k = 0; k < NARGS; k++)
		core[k].n = all[k].n = 0;
	for (i = 0; i < tame_nrules; i++) {
		if (tame_rules[i].nr != nr)
			continue;
		for (j = 0; j < TAME_MAXCOND; j++) {
			c = &tame_rules[i].cond[j];
			if (c->op == TC_END || c->op == TC_GATE)
				continue;
			cond_probes(c, &core[c->arg], &all[c->arg]);
		}
	}
	for (k = 0; k < NARGS; k++) {
		if (core[k].n == 0)
			continue;
		tested[ntested++] = k;
		for (i = 0; i < pool->n; i++)
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
			t.ip = off_gate_ip(ts->n);
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

/* The fixed tuple set: every number, foreign entry points, x32. */
static void
fixed_tuples(struct tuples *ts)
{
	static const int odd[] = { -1, 0x3fffffff, 0x7fffffff,
	    (int)0x80000000, 0x1000, 0xffff };
	struct vals pool = { .n = 0 };
	struct tuple t;
	int nr, i, max = tame_syscall_max() + 16;

	table_constants(&pool);
	for (nr = 0; nr <= max; nr++)
		nr_tuples(ts, nr, &pool);
	memset(&t, 0, sizeof(t));
	memcpy(t.a, base_args[2], sizeof(t.a));
	t.ip = off_gate_ip(0);
	for (nr = 0; nr <= max; nr++) {
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

static int
has_gate_row(int nr)
{
	int i, k;

	for (i = 0; i < tame_nrules; i++)
		for (k = 0; k < TAME_MAXCOND; k++)
			if (tame_rules[i].nr == nr &&
			    tame_rules[i].cond[k].op == TC_GATE)
				return 1;
	return 0;
}

/*
 * Tuples with ip at the gate, where libtame's own rows apply: all of
 * those for calls that have such a row, the first of each other call's.
 */
static void
gate_tuples(struct tuples *ts, const struct tuples *from)
{
	struct tuple t;
	int i, last = -2;

	for (i = 0; i < from->n; i++) {
		t = from->t[i];
		if (!has_gate_row(t.nr) && t.nr == last)
			continue;
		last = t.nr;
		t.ip = GATE;
		tuples_add(ts, &t);
	}
}

static void
build_first(int held, int landlock_ok, struct tame_prog *p,
    struct sock_filter *const ob[2], int olen[2])
{
	struct tame_target t = { held, landlock_ok };
	int side;

	ck_assert_msg(tame_compile(&t, NULL, GATE, p) == 0,
	    "tame_compile(%#x): %s", held, strerror(errno));
	for (side = 0; side < 2; side++) {
		if (ob[side] == NULL)
			continue;
		olen[side] = tame_oracle_bpf_side(held, landlock_ok, side,
		    ob[side], TAME_MAXINSN);
		ck_assert_msg(olen[side] > 0, "oracle(%#x, %d, side %d) failed",
		    held, landlock_ok, side);
	}
}

/* ---- every flag set on the fixed tuples ---- */

static struct tuples	 fixed, gated;
static int		 helds[0x4000], nhelds;

static void
setup_tuples(void)
{
	if (fixed.n == 0) {
		fixed_tuples(&fixed);
		gate_tuples(&gated, &fixed);
		nhelds = tame_oracle_distinct_helds(helds);
	}
}

static void
sweep(int part, int nparts, const struct tuples *ts, int side,
    const char *name)
{
	struct sock_filter *ob[2] = { NULL, NULL };
	struct tally ty;
	int olen[2] = { 0, 0 };
	int h, ll, i;

	tally_init(&ty);
	ob[side] = obuf[side];
	for (h = part; h < nhelds; h += nparts) {
		for (ll = 0; ll < 2; ll++) {
			build_first(helds[h], ll, &prog_a, ob, olen);
			for (i = 0; i < ts->n; i++)
				compare(&ty, helds[h], ll, &prog_a, ob, olen,
				    &ts->t[i]);
		}
	}
	tally_check(&ty, name);
}

#define NPARTS	4

START_TEST(test_every_flag_set)
{
	char name[64];

	setup_tuples();
	if (_i == 0)
		printf("%d flag sets expand to %d distinct sets; %d tuples "
		    "each off the gate, %d at it\n", TAME_ALL + 1, nhelds,
		    fixed.n, gated.n);
	snprintf(name, sizeof(name), "every flag set, part %d/%d", _i + 1,
	    NPARTS);
	sweep(_i, NPARTS, &fixed, 0, name);
}
END_TEST

/*
 * Today's programs mostly fit in one chunk of 8-bit jumps.  Planned for
 * jumps of 64, the same policy becomes trees of chunks with JAs over
 * long left subtrees, as a larger table would: the decisions must not
 * change.  Every fourth distinct flag set, both Landlock cases.
 */
START_TEST(test_short_jumps)
{
	int h, i, ja = 0;

	setup_tuples();
	tame__compile_jump_reach(64);
	sweep(0, 4, &fixed, 0, "every fourth flag set, jumps of 64");
	for (h = 0; h < nhelds; h += 4) {
		build_first(helds[h], 1, &prog_a, (struct sock_filter *[2]){
		    NULL, NULL }, (int[2]){ 0, 0 });
		for (i = 0; i < prog_a.len; i++)
			ja += prog_a.insn[i].code == (BPF_JMP | BPF_JA);
	}
	printf("jumps of 64: %d JA instructions in the programs compared\n",
	    ja);
	ck_assert_msg(ja > 0, "no JA: the long-jump path went untested");
}
END_TEST

/*
 * At the gate: libtame's own write, close, openat, kill and tgkill.
 * libseccomp gets the context built for calls from the gate.
 */
START_TEST(test_at_the_gate)
{
	setup_tuples();
	sweep(0, 1, &gated, 1, "at the gate");
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

static void
random_tuple(struct tuple *t, const struct vals *pool, int maxnr)
{
	uint64_t r = rng();
	int k;

	t->arch = ARCH_NATIVE;
	if (r % 20 == 0)
		t->arch = AUDIT_ARCH_I386;
	else if (r % 20 == 1)
		t->arch = (uint32_t)rng();
	r = rng();
	if (r % 10 < 7)
		t->nr = tame_rules[rng() % tame_nrules].nr;
	else if (r % 10 < 9)
		t->nr = rng() % (maxnr + 20);
	else
		t->nr = (int)(uint32_t)rng();
	if (rng() % 50 == 0)
		t->nr |= X32_BIT;
	for (k = 0; k < NARGS; k++)
		t->a[k] = random_arg(pool);
	r = rng();
	t->ip = r % 4 == 0 ? GATE : r % 4 == 1 ? (GATE ^ (rng() % 64)) :
	    rng();
}

START_TEST(test_random_tuples)
{
	struct sock_filter *ob[2] = { obuf[0], obuf[1] };
	struct vals pool = { .n = 0 };
	struct tally ty;
	struct tuple t;
	long n = env_long("TAME_ORACLE_TUPLES", 100000), done = 0;
	uint64_t seed = env_long("TAME_ORACLE_SEED", 0x7a3e5eed);
	int olen[2], held, ll, i, maxnr = tame_syscall_max();

	rng_state = seed;
	tally_init(&ty);
	table_constants(&pool);
	vals_add(&pool, 0);
	printf("random: %ld tuples, seed %#llx\n", n,
	    (unsigned long long)seed);
	while (done < n) {
		/* one target for a batch: building the oracle is the cost */
		held = tame_expand(rng() % (TAME_ALL + 1));
		if (rng() % 2)
			held = tame_oracle_nounix(held);
		ll = rng() % 2;
		build_first(held, ll, &prog_a, ob, olen);
		for (i = 0; i < 200 && done < n; i++, done++) {
			random_tuple(&t, &pool, maxnr);
			compare(&ty, held, ll, &prog_a, ob, olen, &t);
		}
	}
	tally_check(&ty, "random");
}
END_TEST

/* ---- stacking: delta filters ---- */

/*
 * old, then new (a subset), then possibly newer: the first filter in
 * full, deltas after it.  Checks, per tuple (both sides of the gate):
 *  - the stack with deltas decides as the stack of full filters would
 *    (what the delta must preserve),
 *  - and as the single full filter for the narrowest set (flags only
 *    narrow, so the older filters must not change the answer),
 *  - and libseccomp's programs for the same targets, stacked, agree.
 */
struct chain {
	struct tame_target	 t[3];
	int			 n;
};

/*
 * A trap from an older filter where the newest alone soft-denies: the
 * kernel lets the trap win, and the handler answers it by the current
 * flags (handler.c: current_answer), so the process sees the errno.
 */
static int
handler_decides(uint32_t stacked, uint32_t newest)
{
	return stacked == (SECCOMP_RET_TRAP | TAME_TRAP_EMULATE) &&
	    (newest & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO;
}

static void
chain_check(struct tally *ty, const struct chain *ch, const struct tuples *ts)
{
	static struct tame_prog full[3], delta[3];
	static struct sock_filter ofull[3][2][TAME_MAXINSN];
	static int olen[3][2];
	uint32_t rd[3], rf[3], ro[3], a, b, c, o;
	const struct tuple *tp;
	int i, j, side;

	for (j = 0; j < ch->n; j++) {
		ck_assert_int_eq(tame_compile(&ch->t[j], NULL, GATE,
		    &full[j]), 0);
		ck_assert_int_eq(tame_compile(&ch->t[j], j ? &ch->t[j - 1] :
		    NULL, GATE, &delta[j]), 0);
		for (side = 0; side < 2; side++) {
			olen[j][side] = tame_oracle_bpf_side(ch->t[j].held,
			    ch->t[j].landlock_ok, side, ofull[j][side],
			    TAME_MAXINSN);
			ck_assert_int_gt(olen[j][side], 0);
		}
	}
	for (i = 0; i < ts->n; i++) {
		tp = &ts->t[i];
		if (tame_oracle_excluded(tp->arch, tp->nr)) {
			ty->excluded++;
			continue;
		}
		side = tp->ip == GATE;
		for (j = 0; j < ch->n; j++) {
			rd[j] = run(delta[j].insn, delta[j].len, tp);
			rf[j] = run(full[j].insn, full[j].len, tp);
			ro[j] = run(ofull[j][side], olen[j][side], tp);
		}
		a = stack(rd, ch->n);
		b = stack(rf, ch->n);
		c = rf[ch->n - 1];
		o = stack(ro, ch->n);
		ty->compared++;
		tally_count(ty, a);
		if (a != b || a != o || (a != c && !handler_decides(a, c))) {
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
					    " %#x/%d", ch->t[j].held,
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
	return ll ? (int)(rng() % 2) : 0;
}

/* Later tame() calls keep NOUNIX; creating an AF_UNIX socket drops it. */
static int
kept_nounix(int held)
{
	return rng() % 4 ? held & TAME__NOUNIX : 0;
}

START_TEST(test_stacked_deltas)
{
	struct tuples few = { NULL, 0, 0 };
	struct tally ty;
	struct chain ch;
	int i, f, pairs = 0, triples = 0;

	setup_tuples();
	/* every third tuple off the gate, every third at it */
	for (i = 0; i < fixed.n; i += 3)
		tuples_add(&few, &fixed.t[i]);
	for (i = 0; i < gated.n; i += 3)
		tuples_add(&few, &gated.t[i]);
	tally_init(&ty);
	rng_state = 0xde17a5eedULL;
	/* every single flag dropped from everything, and from stdio */
	for (f = 0; f < 13; f++) {
		ch.n = 2;
		ch.t[0] = (struct tame_target){ tame_expand(TAME_ALL), 1 };
		ch.t[1] = (struct tame_target){ tame_expand(TAME_ALL &
		    ~(1 << f)), 1 };
		chain_check(&ty, &ch, &few);
		ch.t[0] = (struct tame_target){ tame_expand(1 << f), 1 };
		ch.t[1] = (struct tame_target){ tame_expand(0), 1 };
		chain_check(&ty, &ch, &few);
		pairs += 2;
	}
	/*
	 * Random pairs and triples, old always a superset; NOUNIX, where
	 * the first set has it, kept or (as the handler does) dropped.
	 */
	for (i = 0; i < 240; i++) {
		f = rng() % (TAME_ALL + 1);
		ch.t[0] = (struct tame_target){ tame_expand(f), rng() % 2 };
		if (i % 2)
			ch.t[0].held = tame_oracle_nounix(ch.t[0].held);
		f = narrower(f);
		ch.t[1] = (struct tame_target){ tame_expand(f) |
		    kept_nounix(ch.t[0].held), narrower_ll(ch.t[0].landlock_ok) };
		ch.n = 2;
		if (i % 3 == 0) {
			f = narrower(f);
			ch.t[2] = (struct tame_target){ tame_expand(f) |
			    kept_nounix(ch.t[1].held),
			    narrower_ll(ch.t[1].landlock_ok) };
			ch.n = 3;
			triples++;
		} else
			pairs++;
		chain_check(&ty, &ch, &few);
	}
	printf("stacking: %d pairs, %d triples, %d tuples each\n", pairs,
	    triples, few.n);
	tally_check(&ty, "stacked deltas");
	free(few.t);
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
	int held = tame_expand(TAME_STDIO | TAME_IOCTL), n, i;
	uint32_t lo, hi;

	n = tame_oracle_bpf(held, 1, GATE, f, TAME_MAXINSN);
	ck_assert_int_gt(n, 0);
	t.arch = ARCH_NATIVE;
	t.nr = tame_syscall_number("ioctl");
	t.ip = GATE + 2;
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

	ctx = tame_oracle_ctx(tame_expand(TAME_STDIO), 1, GATE);
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(seccomp_attr_get(ctx, SCMP_FLTATR_ACT_DEFAULT, &v), 0);
	ck_assert_uint_eq(v, SECCOMP_RET_TRAP);
	ck_assert_int_eq(seccomp_attr_get(ctx, SCMP_FLTATR_ACT_BADARCH, &v), 0);
	ck_assert_uint_eq(v, SECCOMP_RET_KILL_PROCESS);
	ck_assert_int_eq(seccomp_attr_get(ctx, SCMP_FLTATR_CTL_TSYNC, &v), 0);
	ck_assert_uint_eq(v, 1);
	printf("oracle: %d libseccomp rules for stdio\n", tame_oracle_nrules());
	seccomp_release(ctx);
	ctx = tame_oracle_ctx(tame_expand(0), 1, GATE);
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

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_oracle_context);
	tcase_add_test(tc, test_oracle_ignores_high_word);
	tcase_add_loop_test(tc, test_every_flag_set, 0, NPARTS);
	tcase_add_test(tc, test_short_jumps);
	tcase_add_test(tc, test_at_the_gate);
	tcase_add_test(tc, test_random_tuples);
	tcase_add_test(tc, test_stacked_deltas);
	suite_add_tcase(s, tc);
	return s;
}

TAME_TEST_MAIN(oracle_suite)
