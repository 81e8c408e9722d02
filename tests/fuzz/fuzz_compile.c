/* SPDX-License-Identifier: ISC */
/*
 * fuzz_compile.c: the policy compiler (lib/compile.c) against the table.
 *
 * From the input: a flag set, Landlock usable or not, NOUNIX, unveil's
 * lock (UNVEILED) or not, or not pledged at all (FREE), the number of
 * the process's unveil rules (tame_target.uvid), then a stack of up to
 * three filters as later tame() calls narrow it (each a subset of the
 * one before; Landlock and NOUNIX can be lost, never gained; unveil's
 * lock gained where unveil() was allowed (TAME__UNVEIL, or not
 * pledged), never lost; FREE kept, or left for a pledge, never
 * regained), and system call tuples (arch, number, arguments; for the
 * supervisor's number, claims aimed at the atoms a filter holds and the
 * unveil rules' number aimed at the stack's).  No
 * row asks where a call comes from: every tuple runs with one
 * instruction pointer.  The first filter is compiled in full, each later
 * one as the delta tame() installs; every program runs in the BPF
 * interpreter (tame_bpf_run).  For every tuple:
 *
 *	- each full program answers what the table says for its flags
 *	  (tests/expect.c: tame_policy_match, tame_rule_ret,
 *	  tame_violation_ret, after the arch and x32 prologue),
 *	- the stack of deltas answers as the kernel would answer the stack
 *	  of the table's answers: the most severe action wins (seccomp(2)),
 *	- and, as t_oracle.c requires, the stack answers as the newest
 *	  flags alone, except where the handler decides (expect.h) or a
 *	  later filter dropped NOUNIX (drops_nounix).
 *
 * Any disagreement aborts with the targets and the tuple spelled out.
 */
#include <linux/audit.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "expect.h"
#include "input.h"
#include "policy.h"

#define IP		0x00007f3a5c0012e5ULL	/* as in t_oracle.c */
#define MAXSTACK	3
#define MAXTUPLES	64

struct tuple {
	uint32_t	 arch;
	int		 nr;
	uint64_t	 a[6];
};

static struct tame_target	 tg[MAXSTACK];
static int			 ntg;
static uint32_t			 uvid;		/* the stack's */

/* Every mask and value the table compares an argument with. */
static uint32_t	 pool[4096];
static int	 npool;

static void
pool_init(void)
{
	const struct tame_cond *c;
	int i, k, j;

	pool[npool++] = 0;
	for (i = 0; i < tame_nrules; i++)
		for (k = 0; k < TAME_MAXCOND; k++) {
			c = &tame_rules[i].cond[k];
			if (c->op != TC_IN)
				continue;
			if (npool < (int)(sizeof(pool) / sizeof(pool[0])))
				pool[npool++] = c->mask;
			for (j = 0; j < c->nval && npool <
			    (int)(sizeof(pool) / sizeof(pool[0])); j++)
				pool[npool++] = c->val[j];
		}
}

static void
fail(const char *what, const struct tuple *t, const uint32_t *got,
    const uint32_t *want, int n)
{
	int j;

	fprintf(stderr, "fuzz_compile: %s\n  uvid %u; stack:", what, uvid);
	for (j = 0; j < ntg; j++)
		fprintf(stderr, " held %#llx landlock %d;",
		    (unsigned long long)tg[j].held,
		    tg[j].landlock_ok);
	if (t != NULL) {
		fprintf(stderr, "\n  arch %#x nr %d (%s) args", t->arch, t->nr,
		    tame_syscall_name(t->nr) ? tame_syscall_name(t->nr) : "?");
		for (j = 0; j < 6; j++)
			fprintf(stderr, " %#llx", (unsigned long long)t->a[j]);
	}
	for (j = 0; j < n; j++)
		fprintf(stderr, "\n  filter %d: compiled %#x, table %#x", j,
		    got[j], want[j]);
	fprintf(stderr, "\n");
	abort();
}

/*
 * The stack of targets: each narrows the one before.  The first: bits
 * 0-12 its flags, 13 Landlock, 14 NOUNIX, 15 unveil's lock, 16-19 the
 * stack's depth, 20 not pledged (FREE), 21 pledge's unveil (TAME__UNVEIL),
 * 22-23 unused, 24-31 the unveil rules' number (below 128: one of 1 to
 * 8, else the byte).  Each later one: bits 0-12 the flags it keeps, 13
 * NOUNIX kept, 14 Landlock kept, 15 unveil locked now (where it was
 * allowed), 16 still not pledged (after FREE), 17 unveil still allowed
 * (not locked now).
 */
static void
targets(struct input *in)
{
	uint64_t r = take(in, 4);
	int f = (int)(r & TAME_ALL), j, keep;

	memset(tg, 0, sizeof(tg));
	ntg = 1 + (int)(((r >> 16) & 0xf) % MAXSTACK);
	uvid = (r >> 24) < 128 ? 1 + (uint32_t)((r >> 24) % 8) :
	    (uint32_t)(r >> 24);
	tg[0].held = tame_expand(f);
	tg[0].landlock_ok = (r >> 13) & 1;
	/* tame.c: no AF_UNIX socket at the first call, and no CMSG */
	if (((r >> 14) & 1) && (tg[0].held & TAME_RW) &&
	    !(tg[0].held & TAME_CMSG))
		tg[0].held |= TAME__NOUNIX;
	if ((r >> 21) & 1)
		tg[0].held |= TAME__UNVEIL;
	if ((r >> 20) & 1)
		tg[0].held = TAME_UNRESTRICTED;	/* pledge(NULL, E) */
	if ((r >> 15) & 1)
		tg[0].held |= TAME__UNVEILED;
	for (j = 1; j < ntg; j++) {
		r = take(in, 3);
		f &= (int)r;
		keep = (r >> 13) & 1;
		/* FREE narrows to any set: every atom was held */
		if ((tg[j - 1].held & TAME__FREE) && ((r >> 16) & 1))
			tg[j].held = TAME_UNRESTRICTED;
		else
			tg[j].held = tame_expand(f) |
			    (keep ? tg[j - 1].held & TAME__NOUNIX : 0);
		tg[j].held |= tg[j - 1].held & TAME__UNVEILED;
		/* a narrowing locks unveil where unveil() was allowed */
		if (((r >> 15) & 1) &&
		    (tg[j - 1].held & (TAME__UNVEIL | TAME__FREE)))
			tg[j].held |= TAME__UNVEILED;
		else if ((r >> 17) & 1)
			tg[j].held |= tg[j - 1].held & TAME__UNVEIL;
		tg[j].landlock_ok = tg[j - 1].landlock_ok != 1 ?
		    tg[j - 1].landlock_ok : ((r >> 14) & 1) ? 1 : 2;
	}
	for (j = 0; j < ntg; j++)
		tg[j].uvid = uvid;
	expect_uvid = uvid;
}

/*
 * Does a later filter drop NOUNIX?  tame() keeps it: under it the first
 * AF_UNIX socketpair traps, for the handler to turn the message checks
 * on (policy.c), so a filter without it is wider and the stack need not
 * answer as its newest filter alone (t_oracle.c, drops_nounix).  The
 * deltas are held to the table's stack all the same.
 */
static int
drops_nounix(void)
{
	int j;

	for (j = 1; j < ntg; j++)
		if ((tg[j - 1].held & ~tg[j].held) & TAME__NOUNIX)
			return 1;
	return 0;
}

/*
 * A claim of atoms, half h, for the supervisor's number: aimed at what
 * one filter of the stack holds (within, fewer, one more, one it lacks),
 * the high word of the register set or not.
 */
static uint64_t
claim(struct input *in, int h)
{
	uint64_t r = take(in, 1);
	uint32_t held = (uint32_t)(tg[r % ntg].held >> (h ? 32 : 0));
	uint32_t lacked = ~held & (uint32_t)take(in, 4);
	uint64_t v;

	switch ((r >> 2) % 8) {
	case 0: case 1:
		v = held;
		break;
	case 2:
		v = held & (uint32_t)take(in, 4);
		break;
	case 3:
		v = held | 1u << (take(in, 1) % 32);
		break;
	case 4:
		v = held | (lacked & -lacked);
		break;
	case 5:
		v = (uint64_t)(int64_t)(int32_t)held;
		break;
	default:
		v = take(in, 4);
	}
	return (r >> 5) & 1 ? v | take(in, 4) << 32 : v;
}

static uint64_t
argument(struct input *in)
{
	uint64_t r = take(in, 1), v = pool[take(in, 2) % npool];

	switch (r % 8) {
	case 0: case 1: case 2:
		return v;
	case 3:
		return v ^ ((uint64_t)1 << (r >> 3) % 64);
	case 4:
		return (uint64_t)(int64_t)(int32_t)v;
	case 5:
		return v | take(in, 4) << 32;
	case 6:
		return (r >> 3) % 32;
	default:
		return take(in, 8);
	}
}

/* The unveil rules' number a request names: the stack's, or near it. */
static uint64_t
rules(struct input *in)
{
	uint64_t r = take(in, 1);

	switch (r % 8) {
	case 0: case 1: case 2:
		return uvid;
	case 3:
		return (uint32_t)(uvid + 1);
	case 4:
		return (uint32_t)(uvid - 1);
	case 5:
		return take(in, 4) << 32 | uvid;
	case 6:
		return 0;
	default:
		return take(in, 4);
	}
}

static void
tuple(struct input *in, struct tuple *t)
{
	uint64_t r = take(in, 2);
	int k;

	t->arch = r % 16 == 0 ? AUDIT_ARCH_I386 : r % 16 == 1 ?
	    (uint32_t)take(in, 4) : tame_audit_arch();
	r >>= 4;
	switch (r % 8) {
	case 0: case 1: case 2:
		t->nr = tame_rules[take(in, 2) % tame_nrules].nr;
		break;
	case 3:			/* the supervisor's, and its neighbours */
		t->nr = TAME_ASK_NR - 1 + (int)(take(in, 1) % 3);
		break;
	case 4: case 5:
		t->nr = (int)(take(in, 2) % (TAME_ASK_NR + 24));
		break;
	default:
		t->nr = (int)(uint32_t)take(in, 4);
	}
	for (k = 0; k < 6; k++)
		t->a[k] = argument(in);
	if (t->nr == TAME_ASK_NR && !((r >> 3) & 1)) {
		t->a[1] = claim(in, 0);
		t->a[2] = claim(in, 1);
		t->a[5] = rules(in);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tame_prog full[MAXSTACK], delta[MAXSTACK];
	struct input in = { data, size };
	struct tuple t;
	uint32_t rf[MAXSTACK], rd[MAXSTACK], want[MAXSTACK], a, b;
	int i, j, wider;

	if (npool == 0)
		pool_init();
	targets(&in);
	wider = drops_nounix();
	for (j = 0; j < ntg; j++) {
		if (tame_compile(&tg[j], NULL, &full[j]) != 0)
			fail(strerror(errno), NULL, NULL, NULL, 0);
		if (tame_compile(&tg[j], j > 0 ? &tg[j - 1] : NULL,
		    &delta[j]) != 0)
			fail(strerror(errno), NULL, NULL, NULL, 0);
	}
	for (i = 0; i < MAXTUPLES && (i == 0 || in.n > 0); i++) {
		tuple(&in, &t);
		for (j = 0; j < ntg; j++) {
			want[j] = expect_ret(tg[j].held, tg[j].landlock_ok,
			    t.arch, t.nr, t.a);
			rf[j] = tame_bpf_run(&full[j], t.arch, t.nr, t.a, IP);
			rd[j] = tame_bpf_run(&delta[j], t.arch, t.nr, t.a, IP);
		}
		for (j = 0; j < ntg; j++)
			if (rf[j] != want[j])
				fail("a full program disagrees with the table",
				    &t, rf, want, ntg);
		a = expect_stack(rd, ntg);
		b = expect_stack(want, ntg);
		if (a != b)
			fail("the stack of deltas disagrees with the table's "
			    "stack (compiled: deltas)", &t, rd, want, ntg);
		if (b != want[ntg - 1] && !wider &&
		    !expect_handler_decides(b, want[ntg - 1]))
			fail("the table's stack answers otherwise than its "
			    "newest flags alone", &t, rd, want, ntg);
	}
	return 0;
}
