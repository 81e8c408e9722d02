/* SPDX-License-Identifier: ISC */
/*
 * fuzz_compile.c: the policy compiler (lib/compile.c) against the table.
 *
 * From the input: a flag set, Landlock usable or not, NOUNIX, then a
 * stack of up to three filters as later tame() calls narrow it (each a
 * subset of the one before; Landlock and NOUNIX can be lost, never
 * gained), the gate address, and system call tuples (arch, number,
 * arguments, instruction pointer, at the gate or not).  The first
 * filter is compiled in full, each later one as the delta tame()
 * installs; every program runs in the BPF interpreter (tame_bpf_run).
 * For every tuple:
 *
 *	- each full program answers what the table says for its flags
 *	  (tests/expect.c: tame_policy_match, tame_rule_ret,
 *	  tame_violation_ret, after the arch and x32 prologue),
 *	- the stack of deltas answers as the kernel would answer the stack
 *	  of the table's answers: the most severe action wins (seccomp(2)),
 *	- and, as t_oracle.c requires, the stack answers as the newest
 *	  flags alone, except where the handler decides (expect.h).
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

#define GATE		0x00007f3a5c0012e5ULL	/* as in t_oracle.c */
#define MAXSTACK	3
#define MAXTUPLES	64

struct tuple {
	uint32_t	 arch;
	int		 nr;
	uint64_t	 a[6];
	uint64_t	 ip;
};

static struct tame_target	 tg[MAXSTACK];
static int			 ntg;
static uint64_t			 gate;

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

	fprintf(stderr, "fuzz_compile: %s\n  gate %#llx; stack:", what,
	    (unsigned long long)gate);
	for (j = 0; j < ntg; j++)
		fprintf(stderr, " held %#llx landlock %d;",
		    (unsigned long long)tg[j].held,
		    tg[j].landlock_ok);
	if (t != NULL) {
		fprintf(stderr, "\n  arch %#x nr %d (%s) args", t->arch, t->nr,
		    tame_syscall_name(t->nr) ? tame_syscall_name(t->nr) : "?");
		for (j = 0; j < 6; j++)
			fprintf(stderr, " %#llx", (unsigned long long)t->a[j]);
		fprintf(stderr, " ip %#llx", (unsigned long long)t->ip);
	}
	for (j = 0; j < n; j++)
		fprintf(stderr, "\n  filter %d: compiled %#x, table %#x", j,
		    got[j], want[j]);
	fprintf(stderr, "\n");
	abort();
}

/* The stack of targets: each narrows the one before. */
static void
targets(struct input *in)
{
	uint64_t r = take(in, 3);
	int f = (int)(r & TAME_ALL), j, keep;

	ntg = 1 + (int)((r >> 16) % MAXSTACK);
	tg[0].held = tame_expand(f);
	tg[0].landlock_ok = (r >> 13) & 1;
	/* tame.c: no AF_UNIX socket at the first call, and no CMSG */
	if (((r >> 14) & 1) && (tg[0].held & TAME_RW) &&
	    !(tg[0].held & TAME_CMSG))
		tg[0].held |= TAME__NOUNIX;
	for (j = 1; j < ntg; j++) {
		r = take(in, 2);
		f &= (int)r;
		keep = (r >> 13) & 1;
		tg[j].held = tame_expand(f) |
		    (keep ? tg[j - 1].held & TAME__NOUNIX : 0);
		tg[j].landlock_ok = tg[j - 1].landlock_ok != 1 ?
		    tg[j - 1].landlock_ok : ((r >> 14) & 1) ? 1 : 2;
	}
	gate = take(in, 1) & 1 ? take(in, 8) : GATE;
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

static void
tuple(struct input *in, struct tuple *t)
{
	uint64_t r = take(in, 2);
	int k;

	t->arch = r % 16 == 0 ? AUDIT_ARCH_I386 : r % 16 == 1 ?
	    (uint32_t)take(in, 4) : tame_audit_arch();
	r >>= 4;
	switch (r % 4) {
	case 0: case 1:
		t->nr = tame_rules[take(in, 2) % tame_nrules].nr;
		break;
	case 2:
		t->nr = (int)(take(in, 2) % 600);
		break;
	default:
		t->nr = (int)(uint32_t)take(in, 4);
	}
	for (k = 0; k < 6; k++)
		t->a[k] = argument(in);
	r >>= 2;
	t->ip = r % 4 == 0 ? gate : r % 4 == 1 ? gate ^ take(in, 1) :
	    r % 4 == 2 ? GATE : take(in, 8);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tame_prog full[MAXSTACK], delta[MAXSTACK];
	struct input in = { data, size };
	struct tuple t;
	uint32_t rf[MAXSTACK], rd[MAXSTACK], want[MAXSTACK], a, b;
	int i, j;

	if (npool == 0)
		pool_init();
	targets(&in);
	for (j = 0; j < ntg; j++) {
		if (tame_compile(&tg[j], NULL, gate, &full[j]) != 0)
			fail(strerror(errno), NULL, NULL, NULL, 0);
		if (tame_compile(&tg[j], j > 0 ? &tg[j - 1] : NULL, gate,
		    &delta[j]) != 0)
			fail(strerror(errno), NULL, NULL, NULL, 0);
	}
	for (i = 0; i < MAXTUPLES && (i == 0 || in.n > 0); i++) {
		tuple(&in, &t);
		for (j = 0; j < ntg; j++) {
			want[j] = expect_ret(tg[j].held, tg[j].landlock_ok,
			    t.arch, t.nr, t.a, t.ip, gate);
			rf[j] = tame_bpf_run(&full[j], t.arch, t.nr, t.a, t.ip);
			rd[j] = tame_bpf_run(&delta[j], t.arch, t.nr, t.a,
			    t.ip);
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
		if (b != want[ntg - 1] &&
		    !expect_handler_decides(b, want[ntg - 1]))
			fail("the table's stack answers otherwise than its "
			    "newest flags alone", &t, rd, want, ntg);
	}
	return 0;
}
