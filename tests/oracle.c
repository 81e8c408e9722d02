/* SPDX-License-Identifier: ISC */
/*
 * oracle.c: the policy table built through libseccomp's rule API, so the
 * tests can hold lib/compile.c's program against an independent compiler
 * on every (arch, nr, args, ip) they try.  Not part of libtame.
 *
 * The table is read row by row, exactly as compile.c and match.c read it;
 * nothing of the policy is copied here.  What does need work is that
 * libseccomp 2.5.4 does not mean what the table means when rules overlap.
 * Found by experiment (rules on one syscall, exported BPF decoded and run
 * through tame_bpf_run_raw):
 *
 *  - A rule without conditions beats every conditional rule of the same
 *    syscall, whatever the order they were added in, silently.
 *  - A rule whose comparisons are a prefix of another's (A0 == 1 against
 *    A0 == 1 && A1 == 2) beats the longer one if added first, silently;
 *    added second, seccomp_rule_add() fails with EEXIST.  Identical
 *    comparisons with a different action also fail with EEXIST.
 *  - Rules whose first comparisons differ but overlap (A0 & 0xf0 == 0x10
 *    against A0 & 0x0f == 0x01) are tried in libseccomp's own sibling
 *    order, not the order added: 0x11 got ALLOW both ways round.
 *  - A rule that fails deeper down does fall back to the next sibling
 *    (the generated code backtracks), so the rules of one syscall act as
 *    a union, and where two match, libseccomp's order picks one.
 *  - Two comparisons on one argument in one rule: EINVAL.
 *  - A rule whose action is the default action: EACCES.
 *  - SCMP_ACT_TRAP with data (our emulation trap): EINVAL.
 *
 * So the oracle never lets two rules with different actions overlap.
 * The table's first-match meaning is rewritten into disjoint regions:
 * row i keeps only the tuples no earlier row with a different action
 * claims, and the fallback (the first unconditional row, or the
 * violation) gets the complement of every row with another action.  A
 * tuple in row i's region really is decided by a row with row i's
 * action: the first row it matches has that action or it would have been
 * subtracted.  Overlap between rules of one action is harmless under
 * union semantics and is left alone.
 *
 * Regions are unions of cubes; a cube holds, for each argument, one
 * block: (arg & m) == v on all 64 bits (m == 0: any value), or arg != 0.
 * Every condition of the table is a union of blocks: TC_IN with mask m
 * is one block per value with m's high word zero, which is how "the low
 * 32 bits only" is said to libseccomp: SCMP_CMP_MASKED_EQ with the mask
 * widened to 64 bits and its high half clear.  libseccomp 2.5.4 emits
 * "ld hi; and 0; jeq 0" for that half, which holds for any high word
 * (checked in its exported code; SCMP_A0_32(SCMP_CMP_EQ, ...) instead
 * compares the high word with 0 and refuses a sign-extended int, as
 * semantics.md warns).  TC_NULL is (arg & ~0) == 0, TC_NOTNULL is
 * arg != 0 (SCMP_CMP_NE, all 64 bits).  Two conditions on one argument
 * (clone: thread flags all set, namespace flags all clear) become one
 * block by intersection: (m1 | m2, v1 | v2) when v1 and v2 agree where
 * the masks overlap.  The complement of a block is a union of disjoint
 * blocks, one per mask bit: agree with v above that bit, differ at it.
 * Subtracting cube D from cube C walks the arguments in order and keeps,
 * per argument, the part of C that leaves D there while agreeing with D
 * on the arguments before: disjoint pieces, each one cube.  The only
 * intersection that is not one block, arg != 0 with (arg & m) == 0, is
 * split by the highest set bit into at most 64 blocks.
 *
 * The supervisor's claims.  TC_WITHIN (the request's atoms, one half
 * each, all held) is (arg & ~held-half) == 0 on the low 32 bits: one
 * block, with the mask's high word clear as for TC_IN.
 *
 * libtame's marker.  A marked row (policy.h, TAME_MARK) compares a whole
 * low word with one value, and every later row of its call with another
 * action must leave that value out: 32 blocks, one per bit, which
 * multiply with the blocks that row leaves out on other arguments.
 * rt_sigaction's trap (SIGSYS's row left out on argument 0, the marker
 * on argument 4) became 1024 rules; one context came to some 1500 rules
 * and 5000 instructions, past BPF_MAXINSNS, 0.3 s a target to build
 * against 3 ms without the marked rows: the sweeps would have taken
 * most of an hour.  No cover by cubes does better (a word one bit off
 * the value at bit i needs a block testing bit i, so a cube holds one
 * such word per argument).  So tame_oracle_bpf() builds two contexts,
 * as the gate's two sides once were: one where every marked row fails,
 * and one, for the calls whose answer a marked row can change, where
 * their marker compares hold; and joins them behind a few instructions
 * of its own that send a call of those to the second exactly when the
 * low word of its marked argument is the marker.  Each context is exact
 * on the calls sent to it, so the joined program is exact on all.
 * tame_oracle_ctx() stays the one exact context, for those that load it.
 *
 * The prologue.  Bad architecture: SCMP_FLTATR_ACT_BADARCH is
 * KILL_PROCESS, as in compile.c.  x32: libseccomp adds its own check to
 * an x86-64 filter, "nr >= 0x40000000 and nr != -1: bad arch", so nr -1
 * alone reaches the default action where compile.c kills; see
 * tame_oracle_excluded().
 */
#include <sys/mman.h>
#include <sys/types.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <seccomp.h>

#include "compile.h"
#include "oracle.h"
#include "policy.h"

#define NARGS		6
#define MAXSPLIT	64	/* blocks one intersection or complement makes */
#define MAXROWS		64	/* applicable rows of one syscall */

/* One argument's values: (arg & m) == v, or arg != 0. */
struct blk {
	uint64_t	 m, v;
	int		 nz;
};

struct cube {
	struct blk	 a[NARGS];
};

struct region {
	struct cube	*c;
	int		 n, cap;
	int		 nomem;
};

struct row {
	struct region	 r;
	uint32_t	 act;
};

static int	oracle_nrules;

static int
blk_any(const struct blk *b)
{
	return !b->nz && b->m == 0;
}

static struct blk
blk_eq(uint64_t m, uint64_t v)
{
	struct blk b = { m, v & m, 0 };

	return b;
}

/* a and b, as disjoint blocks in out; returns how many. */
static int
blk_and(const struct blk *a, const struct blk *b, struct blk *out)
{
	const struct blk *nz, *o;
	int bit, n = 0;

	if (a->nz && b->nz) {
		out[0] = *a;
		return 1;
	}
	if (a->nz || b->nz) {
		nz = a->nz ? a : b;
		o = a->nz ? b : a;
		if (o->m == 0) {
			out[0] = *nz;
			return 1;
		}
		if (o->v != 0) {	/* already excludes 0 */
			out[0] = *o;
			return 1;
		}
		/* arg != 0 and (arg & m) == 0: by highest set bit */
		for (bit = 63; bit >= 0; bit--) {
			uint64_t b1 = (uint64_t)1 << bit;

			if (o->m & b1)
				continue;
			out[n++] = blk_eq(~(b1 - 1) | o->m, b1);
		}
		return n;
	}
	if ((a->v ^ b->v) & a->m & b->m)
		return 0;
	out[0] = blk_eq(a->m | b->m, a->v | b->v);
	return 1;
}

/* Everything b is not, as disjoint blocks. */
static int
blk_not(const struct blk *b, struct blk *out)
{
	uint64_t above = 0, b1;
	int bit, n = 0;

	if (b->nz) {
		out[0] = blk_eq(~(uint64_t)0, 0);
		return 1;
	}
	for (bit = 63; bit >= 0; bit--) {
		b1 = (uint64_t)1 << bit;
		if (!(b->m & b1))
			continue;
		/* agrees with v above this bit, differs at it */
		out[n++] = blk_eq(above | b1, (b->v & above) | (~b->v & b1));
		above |= b1;
	}
	return n;
}

static void
region_add(struct region *r, const struct cube *c)
{
	struct cube *nc;
	int cap;

	if (r->n == r->cap) {
		cap = r->cap ? 2 * r->cap : 16;
		if ((nc = realloc(r->c, cap * sizeof(*nc))) == NULL) {
			r->nomem = 1;
			return;
		}
		r->c = nc;
		r->cap = cap;
	}
	r->c[r->n++] = *c;
}

static void
region_free(struct region *r)
{
	free(r->c);
	memset(r, 0, sizeof(*r));
}

static int
cube_meets(const struct cube *c, const struct cube *d)
{
	struct blk tmp[MAXSPLIT];
	int k;

	for (k = 0; k < NARGS; k++)
		if (blk_and(&c->a[k], &d->a[k], tmp) == 0)
			return 0;
	return 1;
}

/* Add to out the pieces of c, from argument k on, that d does not hold. */
static void
cube_sub_from(const struct cube *c, const struct cube *d, int k,
    struct region *out)
{
	struct blk nd[MAXSPLIT], in[MAXSPLIT], piece[MAXSPLIT];
	struct cube c2;
	int i, j, nn, ni, np;

	for (; k < NARGS && blk_any(&d->a[k]); k++)
		;
	if (k == NARGS)
		return;			/* the rest lies inside d */
	nn = blk_not(&d->a[k], nd);
	for (i = 0; i < nn; i++) {
		np = blk_and(&c->a[k], &nd[i], piece);
		for (j = 0; j < np; j++) {
			c2 = *c;
			c2.a[k] = piece[j];
			region_add(out, &c2);
		}
	}
	ni = blk_and(&c->a[k], &d->a[k], in);
	for (i = 0; i < ni; i++) {
		c2 = *c;
		c2.a[k] = in[i];
		cube_sub_from(&c2, d, k + 1, out);
	}
}

/* r minus every cube of s. */
static void
region_sub(struct region *r, const struct region *s)
{
	struct region out;
	int i, j;

	for (j = 0; j < s->n && r->n > 0; j++) {
		memset(&out, 0, sizeof(out));
		for (i = 0; i < r->n; i++) {
			if (cube_meets(&r->c[i], &s->c[j]))
				cube_sub_from(&r->c[i], &s->c[j], 0, &out);
			else
				region_add(&out, &r->c[i]);
		}
		out.nomem |= r->nomem;
		region_free(r);
		*r = out;
	}
}

/* r restricted to argument k in one of the blocks b[0..nb-1]. */
static void
region_and(struct region *r, int k, const struct blk *b, int nb)
{
	struct region out;
	struct blk piece[MAXSPLIT];
	struct cube c2;
	int i, j, l, np;

	memset(&out, 0, sizeof(out));
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < nb; j++) {
			np = blk_and(&r->c[i].a[k], &b[j], piece);
			for (l = 0; l < np; l++) {
				c2 = r->c[i];
				c2.a[k] = piece[l];
				region_add(&out, &c2);
			}
		}
	}
	out.nomem |= r->nomem;
	region_free(r);
	*r = out;
}

static void
region_all(struct region *r)
{
	struct cube any;

	memset(r, 0, sizeof(*r));
	memset(&any, 0, sizeof(any));
	region_add(r, &any);
}

/* The pid TC_SELF rows compare with (tame_target.pid); 0: never. */
static int oracle_pid;

void
tame_oracle_set_pid(int pid)
{
	oracle_pid = pid;
}

/* The ids TC_OWNUID and TC_OWNGID rows compare with; NULL: never. */
static const struct tame_ids *oracle_ids;

void
tame_oracle_set_ids(const struct tame_ids *ids)
{
	oracle_ids = ids;
}

/* Is c a marker compare (policy.h, tame_rule_marked)? */
static int
is_marker(const struct tame_cond *c)
{
	return c->op == TC_IN && c->nval == 1 && c->mask == 0xffffffffu &&
	    c->val[0] == TAME_MARK;
}

/*
 * Which calls a context decides as the table does: every call (SIDE_ALL),
 * those whose marked argument is not the marker (SIDE_UNMARKED: marker
 * compares fail), or those whose marked argument is (SIDE_MARKED: they
 * hold).
 */
#define SIDE_ALL	-1
#define SIDE_UNMARKED	0
#define SIDE_MARKED	1

/*
 * The tuples one row's conditions hold for, under held, on one side of
 * the marker.  Values with bits outside the mask never match and are
 * left out.
 */
static void
row_region(const struct tame_rule *rule, tame_atoms held, int side,
    struct region *r)
{
	const struct tame_cond *c;
	struct blk b[TAME_MAXVAL + TAME_MAXGIDS + 1];
	int i, j, nb;

	region_all(r);
	for (i = 0; i < TAME_MAXCOND && rule->cond[i].op != TC_END; i++) {
		c = &rule->cond[i];
		nb = 0;
		switch (c->op) {
		case TC_IN:
			if (side == SIDE_MARKED && is_marker(c))
				continue;	/* holds */
			if (side == SIDE_UNMARKED && is_marker(c))
				break;		/* nb == 0: never */
			for (j = 0; j < c->nval; j++)
				if ((c->val[j] & ~c->mask) == 0)
					b[nb++] = blk_eq(c->mask, c->val[j]);
			break;
		case TC_NULL:
			b[nb++] = blk_eq(~(uint64_t)0, 0);
			break;
		case TC_NOTNULL:
			b[nb].m = b[nb].v = 0;
			b[nb++].nz = 1;
			break;
		case TC_WITHIN:		/* nothing but held atoms claimed */
			b[nb++] = blk_eq(~(uint32_t)(held >> (c->val[0] ?
			    32 : 0)), 0);
			break;
		case TC_SELF:		/* the low half, as an int */
			if (oracle_pid > 0)
				b[nb++] = blk_eq(0xffffffffu,
				    (uint32_t)oracle_pid);
			break;
		case TC_OWNUID:		/* the low half: -1 or the uid */
			if (oracle_ids == NULL)
				break;
			b[nb++] = blk_eq(0xffffffffu, 0xffffffffu);
			b[nb++] = blk_eq(0xffffffffu, oracle_ids->uid);
			break;
		case TC_OWNGID:		/* -1 or one of the gids */
			if (oracle_ids == NULL)
				break;
			b[nb++] = blk_eq(0xffffffffu, 0xffffffffu);
			for (j = 0; j < oracle_ids->ngid; j++)
				b[nb++] = blk_eq(0xffffffffu,
				    oracle_ids->gid[j]);
			break;
		}
		region_and(r, c->arg, b, nb);
	}
}

static int
region_is_all(const struct region *r)
{
	int k;

	if (r->n != 1)
		return 0;
	for (k = 0; k < NARGS; k++)
		if (!blk_any(&r->c[0].a[k]))
			return 0;
	return 1;
}

/* The libseccomp action for a seccomp return value. */
static uint32_t
scmp_action(uint32_t ret)
{
	if (ret == (SECCOMP_RET_TRAP | TAME_TRAP_EMULATE))
		return TAME_ORACLE_EMULATE;
	return ret;		/* SCMP_ACT_* are the kernel's values */
}

/* One libseccomp rule per cube. */
static int
emit_region(scmp_filter_ctx ctx, int nr, const struct region *r,
    uint32_t act)
{
	struct scmp_arg_cmp cmp[NARGS];
	const struct blk *b;
	int i, k, n, rc;

	if (r->nomem)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		for (n = 0, k = 0; k < NARGS; k++) {
			b = &r->c[i].a[k];
			if (b->nz)
				cmp[n++] = SCMP_CMP(k, SCMP_CMP_NE, 0);
			else if (b->m == ~(uint64_t)0)
				cmp[n++] = SCMP_CMP(k, SCMP_CMP_EQ, b->v);
			else if (b->m != 0)
				cmp[n++] = SCMP_CMP(k, SCMP_CMP_MASKED_EQ,
				    b->m, b->v);
		}
		rc = seccomp_rule_add_exact_array(ctx, scmp_action(act), nr,
		    n, cmp);
		if (rc != 0)
			return rc;
		oracle_nrules++;
	}
	return 0;
}

/*
 * All rules for one syscall.  Rows are read as compile.c and match.c
 * read them: applicable rows in table order, up to the first one without
 * conditions, whose action is the fallback.
 */
static int
add_syscall(scmp_filter_ctx ctx, int nr, tame_atoms held, int landlock_ok,
    int side)
{
	struct row rows[MAXROWS];
	const struct tame_rule *t;
	struct region fb;
	uint32_t dflt = tame_violation_ret(held), fallback = dflt;
	int i, j, n = 0, rc = 0;

	for (i = 0; i < tame_nrules; i++) {
		t = &tame_rules[i];
		if (t->nr != nr || !tame_rule_applies(t, held))
			continue;
		if (n == MAXROWS) {
			rc = -E2BIG;	/* never with this table */
			break;
		}
		row_region(t, held, side, &rows[n].r);
		rows[n].act = tame_rule_ret(t, held, landlock_ok);
		if (region_is_all(&rows[n].r)) {
			fallback = rows[n].act;
			region_free(&rows[n].r);
			break;
		}
		n++;
	}

	/* Row i: what no earlier row with another action claims. */
	for (i = 0; i < n && rc == 0; i++) {
		struct region eff;

		if (rows[i].act == dflt)
			continue;
		memset(&eff, 0, sizeof(eff));
		for (j = 0; j < rows[i].r.n; j++)
			region_add(&eff, &rows[i].r.c[j]);
		for (j = 0; j < i; j++)
			if (rows[j].act != rows[i].act)
				region_sub(&eff, &rows[j].r);
		rc = emit_region(ctx, nr, &eff, rows[i].act);
		region_free(&eff);
	}

	/* The fallback: whatever no row with another action holds. */
	if (rc == 0 && fallback != dflt) {
		region_all(&fb);
		for (j = 0; j < n; j++)
			if (rows[j].act != fallback)
				region_sub(&fb, &rows[j].r);
		rc = emit_region(ctx, nr, &fb, fallback);
		region_free(&fb);
	}
	for (i = 0; i < n; i++)
		region_free(&rows[i].r);
	return rc;
}

static int
first_row_of(int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (tame_rules[j].nr == tame_rules[i].nr)
			return 0;
	return 1;
}

/*
 * The argument the marked rows of call nr compare with the marker; -1
 * when it has none, -2 when they name two (never with this table: the
 * join would have to look at both).
 */
static int
marked_arg(int nr)
{
	const struct tame_cond *c;
	int i, k, arg = -1;

	for (i = 0; i < tame_nrules; i++) {
		if (tame_rules[i].nr != nr)
			continue;
		for (k = 0; k < TAME_MAXCOND; k++) {
			c = &tame_rules[i].cond[k];
			if (c->op == TC_END || !is_marker(c))
				continue;
			if (arg != -1 && arg != c->arg)
				return -2;
			arg = c->arg;
		}
	}
	return arg;
}

/*
 * Can the marker change call nr's answer under held?  Some marked row
 * applies, and the rows up to the first one without conditions, and the
 * violation after them if there is none, do not all answer alike.  A
 * call they all answer alike is one constant on both sides: sending it
 * by its argument would only hide from the kernel's cache analysis (and
 * t_cache's replay of it) that it is.
 */
static int
marker_matters(int nr, tame_atoms held, int landlock_ok)
{
	const struct tame_rule *t;
	uint32_t ret, first = 0;
	int i, n = 0, marked = 0, alike = 1;

	for (i = 0; i < tame_nrules; i++) {
		t = &tame_rules[i];
		if (t->nr != nr || !tame_rule_applies(t, held))
			continue;
		ret = tame_rule_ret(t, held, landlock_ok);
		if (n++ == 0)
			first = ret;
		else if (ret != first)
			alike = 0;
		marked |= tame_rule_marked(t);
		if (t->cond[0].op == TC_END)
			return marked && !alike;
	}
	return marked && (!alike || first != tame_violation_ret(held));
}

static scmp_filter_ctx
oracle_ctx(tame_atoms held, int landlock_ok, int side)
{
	scmp_filter_ctx ctx;
	int i, nr;

	oracle_nrules = 0;
	/*
	 * The oracle exports programs and loads none.  Where libseccomp
	 * cannot see the kernel's seccomp (qemu's user mode refuses it:
	 * make check-oracle-arm64), it would refuse the actions tame()'s
	 * programs use; API level 3 (KILL_PROCESS) is what they need.
	 */
	if (seccomp_api_get() < 3 && seccomp_api_set(3) != 0)
		return NULL;
	if ((ctx = seccomp_init(tame_violation_ret(held))) == NULL)
		return NULL;
	/* What tame() asks of the kernel: whole process, foreign arch dies. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS) != 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 1) != 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) != 0)
		goto fail;
	/*
	 * A balanced tree on nr, like compile.c, halves the tests' time;
	 * libseccomp's default linear layout was run through the same
	 * comparison once and gave the same answers.
	 */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2) != 0)
		goto fail;
	for (i = 0; i < tame_nrules; i++) {
		if (!first_row_of(i))
			continue;
		nr = tame_rules[i].nr;
		if (side == SIDE_MARKED && !marker_matters(nr, held, landlock_ok))
			continue;		/* never sent there */
		if (add_syscall(ctx, nr, held, landlock_ok, side) != 0)
			goto fail;
	}
	return ctx;
fail:
	seccomp_release(ctx);
	return NULL;
}

scmp_filter_ctx
tame_oracle_ctx(tame_atoms held, int landlock_ok)
{
	return oracle_ctx(held, landlock_ok, SIDE_ALL);
}

/* seccomp_export_bpf() only writes to a descriptor: a memfd, read back. */
static int
export(scmp_filter_ctx ctx, struct sock_filter *buf, int max)
{
	off_t len;
	ssize_t got;
	int fd, i, n;

	if ((fd = memfd_create("tame-oracle", MFD_CLOEXEC)) == -1)
		return -1;
	if (seccomp_export_bpf(ctx, fd) != 0 ||
	    (len = lseek(fd, 0, SEEK_CUR)) == -1 ||
	    len % sizeof(*buf) != 0 || len / sizeof(*buf) > (size_t)max) {
		close(fd);
		return -1;
	}
	got = pread(fd, buf, len, 0);
	close(fd);
	if (got != len)
		return -1;
	n = len / sizeof(*buf);
	for (i = 0; i < n; i++)
		if (buf[i].code == (BPF_RET | BPF_K) &&
		    buf[i].k == TAME_ORACLE_EMULATE)
			buf[i].k = SECCOMP_RET_TRAP | TAME_TRAP_EMULATE;
	return n;
}

/* One side's context, exported into buf; the count, or -1. */
static int
export_side(tame_atoms held, int landlock_ok, int side,
    struct sock_filter *buf, int max)
{
	scmp_filter_ctx ctx;
	int n;

	if ((ctx = oracle_ctx(held, landlock_ok, side)) == NULL)
		return -1;
	n = export(ctx, buf, max);
	seccomp_release(ctx);
	return n;
}

#define MAXJOIN		32	/* calls the marker can change the answer of */

/*
 * The two sides joined (see the top of this file):
 *
 *	ld arch; jeq native, 0, unmarked
 *	ld nr
 *	for each call the marker can change:
 *		jeq nr, 0, 2; ld its marked argument's low word;
 *		jeq TAME_MARK, marked, unmarked
 *	ja unmarked
 * marked:
 *	ja (over the unmarked side)
 * unmarked:
 *	the unmarked side's program, then the marked side's
 *
 * Both end every path in a RET, and their jumps are relative: each runs
 * as it was exported.
 */
int
tame_oracle_bpf(tame_atoms held, int landlock_ok, struct sock_filter *buf,
    int max)
{
	const uint32_t off_nr = offsetof(struct seccomp_data, nr);
	const uint32_t off_arch = offsetof(struct seccomp_data, arch);
	int nr[MAXJOIN], arg[MAXJOIN], n = 0, i, pre, n0, n1, nrules;

	for (i = 0; i < tame_nrules; i++) {
		if (!first_row_of(i) || !marker_matters(tame_rules[i].nr, held,
		    landlock_ok))
			continue;
		if (n == MAXJOIN || (arg[n] = marked_arg(tame_rules[i].nr)) < 0)
			return -1;	/* never with this table */
		nr[n++] = tame_rules[i].nr;
	}
	pre = n > 0 ? 5 + 3 * n : 0;
	if (pre > max || (n0 = export_side(held, landlock_ok,
	    n > 0 ? SIDE_UNMARKED : SIDE_ALL, buf + pre, max - pre)) < 0)
		return -1;
	if (n == 0)
		return n0;
	nrules = oracle_nrules;
	if ((n1 = export_side(held, landlock_ok, SIDE_MARKED, buf + pre + n0,
	    max - pre - n0)) < 0)
		return -1;
	oracle_nrules += nrules;
	buf[0] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    off_arch);
	buf[1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    tame_audit_arch(), 0, pre - 2);
	buf[2] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, off_nr);
	for (i = 0; i < n; i++) {
		buf[3 + 3 * i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
		    BPF_K, (uint32_t)nr[i], 0, 2);
		/* the low word: seccomp_data is little-endian (compile.c) */
		buf[4 + 3 * i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W |
		    BPF_ABS, offsetof(struct seccomp_data, args) + 8 * arg[i]);
		buf[5 + 3 * i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
		    BPF_K, TAME_MARK, (pre - 1) - (5 + 3 * i) - 1,
		    pre - (5 + 3 * i) - 1);
	}
	buf[pre - 2] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, 1);
	buf[pre - 1] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, n0);
	return pre + n0 + n1;
}

int
tame_oracle_excluded(uint32_t arch, int nr)
{
#ifdef __x86_64__
	return arch == AUDIT_ARCH_X86_64 && nr == -1;
#else
	(void)arch;
	(void)nr;
	return 0;
#endif
}

int
tame_oracle_nrules(void)
{
	return oracle_nrules;
}

tame_atoms
tame_oracle_nounix(tame_atoms held)
{
	if ((held & TAME_RW) && !(held & TAME_CMSG))
		return held | TAME__NOUNIX;
	return held;
}

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

int
tame_oracle_distinct_helds(tame_atoms *out)
{
	tame_atoms p;
	int f, i, n = 0;

	for (f = 0; f <= TAME_ALL; f++) {
		n = add_held(out, n, tame_expand(f));
		n = add_held(out, n, tame_oracle_nounix(tame_expand(f)));
	}
	/*
	 * A process with threads at its first tame(): its state changes
	 * the mask calls' rows alone, so a spread of sets does (every one
	 * would add a minute to make check).
	 */
	for (f = 0; f <= TAME_ALL; f += 7)
		n = add_held(out, n, tame_expand(f) | TAME__THREADED);
	/*
	 * pledge()'s sets: each promise alone and beside stdio, every
	 * promise, and every one but each in turn, so that the rows of
	 * atoms no flag holds (settime, prot_exec, exec, ...) are compared
	 * too.
	 */
	for (i = 0; i < tame_npromises; i++) {
		p = tame_promises[i].atoms | TAME__BASE | TAME__ALWAYS;
		n = add_held(out, n, p);
		n = add_held(out, n, p | tame_promises[0].atoms);
		n = add_held(out, n, (tame_promise_atoms_all() &
		    ~tame_promises[i].atoms) | TAME__BASE | TAME__ALWAYS);
		n = add_held(out, n, tame_oracle_nounix(p |
		    tame_promises[0].atoms));
	}
	n = add_held(out, n, tame_promise_atoms_all());
	return n;
}
