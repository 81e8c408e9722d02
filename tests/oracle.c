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
 * block, with the mask's high word clear as for TC_IN.  Under FREE (not
 * pledged: every atom) it is no block at all.  TC_UVID (the unveil
 * rules' number, tame_oracle_set_uvid) is (arg & 0xffffffff) == uvid.
 *
 * Not pledged (TAME__FREE): only the rows tame_rule_applies() lets
 * apply are read, and a call none decides is allowed: the context's
 * default action is SCMP_ACT_ALLOW, not the violation.
 *
 * Exec splits (compile.h: one filter for the process's set and its
 * exec'd images').  Each set's rows become pieces as above (partition:
 * a piece per row, the tuples no earlier row with another answer
 * claims, and the fallback's), pieces of the two sets are met cube by
 * cube, and each meeting gets the answer split_answer() makes of the
 * pair: written from compile.h's and supervisor.h's words (what an
 * image does with a trap, the calls the supervisor always sees), not
 * read from compile.c's leaves.  A later split's routing (the pairs of
 * rows whose calls the first split sends the supervisor, which the
 * later one lets through to it) is the one part that must be
 * compile.c's own rule, reread from the rows' words exactly as
 * conservatively (split_routing()): a more precise one would answer
 * otherwise, not more rightly.  t_oracle.c checks the rule itself
 * against the first split's compiled program.  Meetings of different
 * pairs are disjoint, so union semantics cannot mix them.  USER_NOTIF
 * has a stand-in, as the emulation trap has.
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
 * on the calls sent to it, so the joined program is exact on all.  The
 * supervisor's request is joined the same way on its HELLO compare (a
 * whole low word, one value: struct gate), whose 32 blocks multiplied
 * with the claims' complement on two arguments (some 60 blocks) came
 * to 1800 rules, the program past BPF_MAXINSNS.
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
#include <asm/unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
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

/* The number TC_UVID rows compare with (tame_target.uvid). */
static uint32_t oracle_uvid;

void
tame_oracle_set_uvid(uint32_t uvid)
{
	oracle_uvid = uvid;
}

/*
 * A call no row decides: a violation, unless the target is not pledged
 * (policy.h, TAME__FREE), where the kernel alone judges it.  A TA_DENY
 * row only names the violation's reason: its answer is the same.
 */
static uint32_t
oracle_violation(tame_atoms held)
{
	return (held & TAME__FREE) ? SECCOMP_RET_ALLOW :
	    tame_violation_ret(held);
}

static uint32_t
oracle_rule_ret(const struct tame_rule *t, tame_atoms held, int landlock_ok)
{
	if (t->action == TA_DENY)
		return oracle_violation(held);
	return tame_rule_ret(t, held, landlock_ok);
}

/* Is c a whole low word compared with one value? */
static int
one_word(const struct tame_cond *c)
{
	return c->op == TC_IN && c->nval == 1 && c->mask == 0xffffffffu;
}

/* Is c a marker compare (policy.h, tame_rule_marked)? */
static int
is_marker(const struct tame_cond *c)
{
	return one_word(c) && c->val[0] == TAME_MARK;
}

/*
 * A call's gate (see the top of this file): the argument and value by
 * which the join sends its calls to one context or the other.  The
 * marker, where a row of the call is marked; else, for a call whose
 * rows compare claims (TC_WITHIN) and whose rows also compare a whole
 * low word with one value (the supervisor's HELLO), that compare: the
 * claims' complement, some 60 blocks, multiplied with the 32 blocks of
 * that word's came to 1800 rules, past BPF_MAXINSNS with the rest.
 * arg -1: no gate; -2: markers on two arguments (never with this
 * table: the join would have to look at both).
 */
struct gate {
	int		 arg;
	uint32_t	 val;
};

static struct gate
call_gate(int nr)
{
	const struct tame_cond *c;
	struct gate g = { -1, 0 }, word = { -1, 0 };
	int i, k, claims = 0;

	for (i = 0; i < tame_nrules; i++) {
		if (tame_rules[i].nr != nr)
			continue;
		for (k = 0; k < TAME_MAXCOND; k++) {
			c = &tame_rules[i].cond[k];
			if (c->op == TC_END)
				break;
			claims |= c->op == TC_WITHIN;
			if (one_word(c) && word.arg == -1) {
				word.arg = c->arg;
				word.val = c->val[0];
			}
			if (!is_marker(c))
				continue;
			if (g.arg != -1 && g.arg != c->arg)
				g.arg = -2;
			else if (g.arg != -2) {
				g.arg = c->arg;
				g.val = TAME_MARK;
			}
		}
	}
	if (g.arg == -1 && claims)
		return word;
	return g;
}

/* The gate of each row's call, found once. */
static struct gate *row_gates;

static const struct gate *
gate_of(const struct tame_rule *r)
{
	int i, j;

	if (row_gates == NULL) {
		if ((row_gates = calloc(tame_nrules, sizeof(*row_gates))) ==
		    NULL)
			abort();
		for (i = 0; i < tame_nrules; i++) {
			for (j = 0; j < i &&
			    tame_rules[j].nr != tame_rules[i].nr; j++)
				;
			row_gates[i] = j < i ? row_gates[j] :
			    call_gate(tame_rules[i].nr);
		}
	}
	return &row_gates[r - tame_rules];
}

/* Is c, a compare of row r, its call's gate? */
static int
is_gate(const struct tame_rule *r, const struct tame_cond *c)
{
	const struct gate *g = gate_of(r);

	return one_word(c) && c->arg == g->arg && c->val[0] == g->val;
}

/* Does row r compare its call's gate? */
static int
row_gated(const struct tame_rule *r)
{
	int k;

	for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++)
		if (is_gate(r, &r->cond[k]))
			return 1;
	return 0;
}

/*
 * Which calls a context decides as the table does: every call (SIDE_ALL),
 * those whose marked argument is not the marker (SIDE_UNMARKED: marker
 * compares fail), or those whose marked argument is (SIDE_MARKED: they
 * hold).  "Marker" here is the call's gate (struct gate): the marker,
 * or the supervisor's HELLO.
 */
#define SIDE_ALL	-1
#define SIDE_UNMARKED	0
#define SIDE_MARKED	1

/*
 * The tuples one row's conditions hold for, on one side of the marker,
 * a claim compared with the atoms within (the target's held; an exec
 * split's, both sets: compile.h).  Values with bits outside the mask
 * never match and are left out.
 */
static void
row_region(const struct tame_rule *rule, tame_atoms within, int side,
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
			if (side == SIDE_MARKED && is_gate(rule, c))
				continue;	/* holds */
			if (side == SIDE_UNMARKED && is_gate(rule, c))
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
			if (within & TAME__FREE)
				continue;	/* not pledged: every atom */
			/* the states are no one's to claim: unchecked */
			b[nb++] = blk_eq(~(uint32_t)((within | TAME__STATE) >>
			    (c->val[0] ? 32 : 0)), 0);
			break;
		case TC_UVID:		/* the low half: the rules' */
			b[nb++] = blk_eq(0xffffffffu, oracle_uvid);
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

/*
 * libseccomp 2.5.4 takes SCMP_ACT_NOTIFY only at API level 5, where the
 * kernel it runs on has it; the oracle loads nothing, and an exec
 * split's programs (compile.h) answer SECCOMP_RET_USER_NOTIF: another
 * stand-in, turned back after export like TAME_ORACLE_EMULATE.
 */
#define ORACLE_NOTIF	SCMP_ACT_TRACE(0x7e32)

/* The libseccomp action for a seccomp return value. */
static uint32_t
scmp_action(uint32_t ret)
{
	if (ret == (SECCOMP_RET_TRAP | TAME_TRAP_EMULATE))
		return TAME_ORACLE_EMULATE;
	if (ret == SECCOMP_RET_USER_NOTIF)
		return ORACLE_NOTIF;
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
 * What one oracle program is for: the fields of struct tame_target that
 * decide a call, less the process's values (oracle_pid, oracle_ids,
 * oracle_uvid).
 */
struct otarget {
	tame_atoms	 held;
	int		 landlock_ok;
	int		 split;		/* TAME_SPLIT_* */
	tame_atoms	 exec_held;
	tame_atoms	 split_held;	/* LATER: the first split's */
	tame_atoms	 split_exec;
};

/*
 * The tuples of a call that one answer of one set of atoms takes: a
 * region, the answer, and (an exec split's held set) whether the row is
 * clone's for a thread, which the supervisor need not see.
 */
struct piece {
	struct region	 r;
	uint32_t	 act;
	int		 thread;
	int		 row;		/* the row; the fallback's: the row
					   it was taken from, or -1 */
	int		 tag;		/* a later split's routing class */
};

#define NO_SKIP		0xffffffffu	/* no act: all pieces built */

/* Is the row clone's for a thread (a thread is not a new process)? */
static int
thread_row(const struct tame_rule *t)
{
	return t != NULL && t->nr == __NR_clone && t->cond[0].op == TC_IN &&
	    t->cond[0].arg == 0 && (t->cond[0].val[0] & CLONE_THREAD);
}

static int
same_answer(const struct piece *a, const struct piece *b)
{
	return a->act == b->act && a->thread == b->thread && a->tag == b->tag;
}

/*
 * All of call nr under held, on one side of the marker, as pieces (the
 * table's first-match meaning, rewritten into regions libseccomp means
 * alike in any order).  Rows are read as compile.c and match.c read
 * them: applicable rows in table order, up to the first one without
 * conditions, whose answer is the fallback.  Row i keeps only the
 * tuples no earlier row with another answer claims; the fallback gets
 * the complement of every row with another answer.  A tuple in row i's
 * piece really is answered as row i: the first row it matches has that
 * answer or it would have been subtracted.  Pieces of one answer may
 * overlap, harmless under union semantics; of two, never.  Where tagged,
 * clone's thread row is an answer of its own; with rowtag, each row's
 * tag (rowtag[row + 1], a later split's routing class) is part of its
 * answer too.  Pieces whose act is skip
 * are left empty: the caller only needs them subtracted.  p needs room
 * for MAXROWS + 1.  Returns the count, the fallback's last, or -errno.
 */
static int
partition(int nr, tame_atoms held, tame_atoms within, int landlock_ok,
    int side, int tagged, const int *rowtag, uint32_t skip, struct piece *p)
{
	static struct region rows[MAXROWS];
	const struct tame_rule *t;
	struct piece fb = { .act = oracle_violation(held), .row = -1,
	    .tag = rowtag != NULL ? rowtag[0] : 0 };
	int i, j, n = 0;

	for (i = 0; i < tame_nrules; i++) {
		t = &tame_rules[i];
		if (t->nr != nr || !tame_rule_applies(t, held))
			continue;
		if (n == MAXROWS) {	/* never with this table */
			for (j = 0; j < n; j++)
				region_free(&rows[j]);
			return -E2BIG;
		}
		row_region(t, within, side, &rows[n]);
		p[n].act = oracle_rule_ret(t, held, landlock_ok);
		p[n].thread = tagged && thread_row(t);
		p[n].row = i;
		p[n].tag = rowtag != NULL ? rowtag[i + 1] : 0;
		if (region_is_all(&rows[n])) {
			fb = p[n];
			region_free(&rows[n]);
			break;
		}
		n++;
	}
	p[n] = fb;
	for (i = 0; i <= n; i++) {
		memset(&p[i].r, 0, sizeof(p[i].r));
		if (p[i].act == skip)
			continue;
		if (i < n)
			for (j = 0; j < rows[i].n; j++)
				region_add(&p[i].r, &rows[i].c[j]);
		else
			region_all(&p[i].r);
		for (j = 0; j < i && j < n; j++)
			if (!same_answer(&p[j], &p[i]))
				region_sub(&p[i].r, &rows[j]);
	}
	for (i = 0; i < n; i++)
		region_free(&rows[i]);
	return n + 1;
}

/* All rules for one syscall, under one set. */
static int
add_syscall(scmp_filter_ctx ctx, int nr, tame_atoms held, int landlock_ok,
    int side)
{
	static struct piece p[MAXROWS + 1];
	uint32_t dflt = oracle_violation(held);
	int i, n, rc = 0;

	if ((n = partition(nr, held, held, landlock_ok, side, 0, NULL, dflt,
	    p)) < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (rc == 0 && p[i].act != dflt)
			rc = emit_region(ctx, nr, &p[i].r, p[i].act);
		region_free(&p[i].r);
	}
	return rc;
}

/*
 * An exec split (compile.h, tame_target.split): each call answered by
 * the held set and by the exec'd images' set, and the two answers made
 * one.  What that one is, is the split's specification, written here
 * from compile.h's and supervisor.h's words rather than read from
 * compile.c's leaves: the sets' answers, what an image does with an
 * answer where no handler of libtame's may be there, and the calls the
 * supervisor sees whatever the sets say.
 *
 * An answer, where no handler may take a trap: a signal mask call is
 * made as asked; the first split sends every other trap, and a
 * violation, to the supervisor; a later one keeps them.
 */
static uint32_t
split_map(uint32_t ret, int nr, int split)
{
	if (ret == (SECCOMP_RET_TRAP | TAME_TRAP_EMULATE)) {
		if (nr == __NR_rt_sigprocmask || nr == __NR_rt_sigaction)
			return SECCOMP_RET_ALLOW;
		return split == TAME_SPLIT_FIRST ? SECCOMP_RET_USER_NOTIF : ret;
	}
	if (ret == (SECCOMP_RET_TRAP | TAME_TRAP_REPORT) &&
	    split == TAME_SPLIT_FIRST)
		return SECCOMP_RET_USER_NOTIF;
	return ret;
}

/* Every exec, every new process (not a thread) and its own request. */
static int
supervised(int nr, int thread)
{
	switch (nr) {
	case __NR_execve:
	case __NR_execveat:
#ifdef __NR_fork
	case __NR_fork:
	case __NR_vfork:
#endif
	case TAME_ASK_NR:
		return 1;
	case __NR_clone:
		return !thread;
	}
	return 0;
}

/* The kernel's precedence: the lower action, as a signed number. */
static uint32_t
more_severe(uint32_t a, uint32_t b)
{
	return (int32_t)(b & SECCOMP_RET_ACTION_FULL) <
	    (int32_t)(a & SECCOMP_RET_ACTION_FULL) ? b : a;
}

/*
 * The split's answer from the held set's (ra; thread: clone's thread
 * row decided it) and the exec set's (re).  The first split: both alike
 * and not the supervisor's by nature, that answer; else the supervisor.
 * A later one, for a call the first sends the supervisor whatever its
 * arguments (routed): both alike and no trap, that answer, else the
 * supervisor judges it (allowed here); any other call: the narrower.
 */
static uint32_t
split_answer(int split, int nr, uint32_t ra, int thread, uint32_t re,
    int routed)
{
	uint32_t ma = split_map(ra, nr, split), me = split_map(re, nr, split);

	if (split == TAME_SPLIT_FIRST) {
		if (ma != me || (ma == SECCOMP_RET_ALLOW &&
		    supervised(nr, thread)))
			return SECCOMP_RET_USER_NOTIF;
		return ma;
	}
	if (routed)
		return ma == me && (ma & SECCOMP_RET_ACTION_FULL) !=
		    SECCOMP_RET_TRAP ? ma : SECCOMP_RET_ALLOW;
	return more_severe(ma, me);
}

/* r's tuples that s holds too, added to out. */
static void
region_meet(const struct region *r, const struct region *s,
    struct region *out)
{
	struct region one;
	int i, j, k;

	out->nomem |= r->nomem | s->nomem;
	for (i = 0; i < r->n; i++)
		for (j = 0; j < s->n; j++) {
			if (!cube_meets(&r->c[i], &s->c[j]))
				continue;
			memset(&one, 0, sizeof(one));
			region_add(&one, &r->c[i]);
			for (k = 0; k < NARGS; k++)
				if (!blk_any(&s->c[j].a[k]))
					region_and(&one, k, &s->c[j].a[k], 1);
			for (k = 0; k < one.n; k++)
				region_add(out, &one.c[k]);
			out->nomem |= one.nomem;
			region_free(&one);
		}
}

/* What a split's claims are compared with: either set's atoms. */
static tame_atoms
split_within(tame_atoms held, tame_atoms exec_held)
{
	return held | (exec_held & ~TAME__INTERNAL);
}

/*
 * A later split's routing (compile.h): which of its calls the first
 * split sends the supervisor whatever they are, so that the later one
 * may let them through to it.  Decided per pair of rows, the later held
 * set's row a and its exec set's row e (each a row, or past the last:
 * the fallback), as compile.c's words decide it, conservatively on
 * purpose: a call of the pair matched neither set's rows before a and
 * e; so it meets no entry of the first split's leaf for the call that
 * names one of those rows, and none with a row that compares an
 * argument of a or e with values disjoint from theirs (exclusive()).
 * Every other entry, and the first leaf's fallback, must answer the
 * supervisor; a first leaf of more than FIRST_ROWS entries routes
 * nothing.  The first leaf's entries are its pairs of rows as a split's
 * leaf lists them: each set's rows in table order and its fallback
 * last, pairs of rows that could not hold together (exclusive, or a row
 * one set already passed over) left out, and trailing entries that
 * answer as its fallback dropped.  All of it is read from the rows'
 * words, not from what the rows match: the oracle must be exactly as
 * conservative as the compiler, no more precise.
 */
#define FIRST_ROWS	64

/* One set's rows of a call, as a split's leaf lists them. */
struct setrows {
	int		 row[MAXROWS];	/* table indices, in order */
	uint32_t	 ret[MAXROWS];
	int		 thread[MAXROWS];
	int		 n;
	int		 end;		/* the row taken as the fallback; -1 */
	uint32_t	 fb;		/* the answer past the last row */
};

/* Can the row never match for this process (no pid, no ids)? */
static int
never_named(const struct tame_rule *t)
{
	int k;

	for (k = 0; k < TAME_MAXCOND && t->cond[k].op != TC_END; k++)
		switch (t->cond[k].op) {
		case TC_SELF:
			if (oracle_pid <= 0)
				return 1;
			break;
		case TC_OWNUID:
		case TC_OWNGID:
			if (oracle_ids == NULL)
				return 1;
			break;
		}
	return 0;
}

/* Does the row test nothing under held (not pledged: claims hold)? */
static int
tests_nothing(const struct tame_rule *t, tame_atoms held)
{
	int k;

	for (k = 0; k < TAME_MAXCOND && t->cond[k].op != TC_END; k++)
		if (!(held & TAME__FREE) || t->cond[k].op != TC_WITHIN)
			return 0;
	return 1;
}

static int
set_rows(int nr, tame_atoms held, int landlock_ok, struct setrows *s)
{
	const struct tame_rule *t;
	int i;

	s->n = 0;
	s->end = -1;
	s->fb = oracle_violation(held);
	for (i = 0; i < tame_nrules; i++) {
		t = &tame_rules[i];
		if (t->nr != nr || !tame_rule_applies(t, held) ||
		    never_named(t))
			continue;
		if (tests_nothing(t, held)) {
			s->end = i;
			s->fb = oracle_rule_ret(t, held, landlock_ok);
			break;
		}
		if (s->n == MAXROWS)
			return -E2BIG;	/* never with this table */
		s->row[s->n] = i;
		s->thread[s->n] = thread_row(t);
		s->ret[s->n++] = oracle_rule_ret(t, held, landlock_ok);
	}
	return 0;
}

/*
 * Does row r compare an argument with a value of the process's (ids,
 * pid, claims, unveil rules), which a first filter made with other
 * values may have met where a later one missed?
 */
static int
asks_process(int r)
{
	int k, op;

	for (k = 0; k < TAME_MAXCOND &&
	    (op = tame_rules[r].cond[k].op) != TC_END; k++)
		if (op == TC_SELF || op == TC_OWNUID || op == TC_OWNGID ||
		    op == TC_UVID || op == TC_WITHIN)
			return 1;
	return 0;
}

/* Is row among the first upto rows of s? */
static int
passed_over(const struct setrows *s, int upto, int row)
{
	int k;

	for (k = 0; k < upto; k++)
		if (s->row[k] == row)
			return 1;
	return 0;
}

/*
 * Do rows x and y compare one argument with values that rule each
 * other out: NULL against NOTNULL, or values, under one mask, none of
 * which the other names?  (Compares of two masks are not weighed.)
 */
static int
rows_exclusive(int x, int y)
{
	const struct tame_cond *c, *d;
	int i, j, k, l, common;

	for (i = 0; i < TAME_MAXCOND; i++) {
		c = &tame_rules[x].cond[i];
		if (c->op == TC_END)
			break;
		for (j = 0; j < TAME_MAXCOND; j++) {
			d = &tame_rules[y].cond[j];
			if (d->op == TC_END)
				break;
			if (c->arg != d->arg)
				continue;
			if ((c->op == TC_NULL && d->op == TC_NOTNULL) ||
			    (c->op == TC_NOTNULL && d->op == TC_NULL))
				return 1;
			if (c->op != TC_IN || d->op != TC_IN ||
			    c->mask != d->mask)
				continue;
			common = 0;
			for (k = 0; k < c->nval; k++)
				for (l = 0; l < d->nval; l++)
					common |= c->val[k] == d->val[l];
			if (!common)
				return 1;
		}
	}
	return 0;
}

/* The rows of the pair (i, j) of two sets' lists, -1 past the last. */
#define ROW_AT(s, i)	((i) < (s)->n ? (s)->row[i] : -1)

/* Could pair (i, j) of a and e hold together (compile.c leaves it in)? */
static int
pair_possible(const struct setrows *a, int i, const struct setrows *e,
    int j)
{
	int x = ROW_AT(a, i), y = ROW_AT(e, j);

	if (x >= 0 && y >= 0 && rows_exclusive(x, y))
		return 0;
	return !(y >= 0 && passed_over(a, i, y)) &&
	    !(x >= 0 && passed_over(e, j, x));
}

struct entry {
	int		 row[2];	/* -1: none */
	uint32_t	 ret;
};

/* The first split's leaf for a call. */
struct first_leaf {
	struct entry	 e[(MAXROWS + 1) * (MAXROWS + 1)];
	int		 n;
	int		 ok;		/* 0: too many rows, nothing routed */
	uint32_t	 fb;
};

static void
first_leaf(const struct otarget *t, int nr, struct first_leaf *f)
{
	static struct setrows a, e;
	uint32_t ret;
	int i, j;

	f->n = 0;
	f->ok = 0;
	f->fb = 0;
	if (set_rows(nr, t->split_held, t->landlock_ok, &a) != 0 ||
	    set_rows(nr, t->split_exec, t->landlock_ok, &e) != 0)
		return;
	for (i = 0; i <= a.n; i++)
		for (j = 0; j <= e.n; j++) {
			if (!pair_possible(&a, i, &e, j))
				continue;
			ret = split_answer(TAME_SPLIT_FIRST, nr,
			    i < a.n ? a.ret[i] : a.fb, i < a.n && a.thread[i],
			    j < e.n ? e.ret[j] : e.fb, 0);
			if (i == a.n && j == e.n) {
				f->fb = ret;
				break;
			}
			f->e[f->n].row[0] = ROW_AT(&a, i);
			f->e[f->n].row[1] = ROW_AT(&e, j);
			f->e[f->n++].ret = ret;
		}
	while (f->n > 0 && f->e[f->n - 1].ret == f->fb)
		f->n--;
	f->ok = f->n <= FIRST_ROWS;
}

/* Does the first leaf send every call of pair (i, j) the supervisor? */
static int
pair_routed(const struct first_leaf *f, const struct setrows *a, int i,
    const struct setrows *e, int j)
{
	int x = ROW_AT(a, i), y = ROW_AT(e, j), n, k, r, met;

	if (!f->ok || f->fb != SECCOMP_RET_USER_NOTIF)
		return 0;
	for (n = 0; n < f->n; n++) {
		if (f->e[n].ret == SECCOMP_RET_USER_NOTIF)
			continue;
		for (met = 1, k = 0; k < 2 && met; k++) {
			if ((r = f->e[n].row[k]) < 0)
				continue;
			/* compile.c: a row of the process's values */
			met = ((asks_process(r) || (!passed_over(a, i, r) &&
			    !passed_over(e, j, r)))) &&
			    !(x >= 0 && rows_exclusive(r, x)) &&
			    !(y >= 0 && rows_exclusive(r, y));
		}
		if (met)
			return 0;
	}
	return 1;
}

/*
 * A split's routing of call nr: its two sets' rows, and for each pair
 * (i, j), i up to a.n and j up to e.n (the fallbacks), whether it is
 * routed.  Not a later split: none is.
 */
struct routing {
	struct setrows	 a, e;
	unsigned char	 routed[MAXROWS + 1][MAXROWS + 1];
};

static int
split_routing(const struct otarget *t, int nr, struct routing *r)
{
	static struct first_leaf f;
	int i, j, rc;

	if ((rc = set_rows(nr, t->held, t->landlock_ok, &r->a)) != 0 ||
	    (rc = set_rows(nr, t->exec_held, t->landlock_ok, &r->e)) != 0)
		return rc;
	if (t->split == TAME_SPLIT_LATER)
		first_leaf(t, nr, &f);
	for (i = 0; i <= r->a.n; i++)
		for (j = 0; j <= r->e.n; j++)
			r->routed[i][j] = t->split == TAME_SPLIT_LATER &&
			    pair_routed(&f, &r->a, i, &r->e, j);
	return 0;
}

/*
 * Where a row (the first that matches; -1: none) stands in its set's
 * list: its place, n for the fallback, or -1 for a row no call of this
 * process matches.
 */
static int
place_of(const struct setrows *s, int row)
{
	int k;

	if (row < 0 || row == s->end)
		return s->n;
	for (k = 0; k < s->n; k++)
		if (s->row[k] == row)
			return k;
	return -1;
}

/*
 * A class per place of one set's list: places whose pairs are routed
 * alike with every place of the other set's share one (the first such
 * place), so that pieces of one class may overlap and their meetings
 * still get one answer.  A row no call matches: -1.  rowtag[row + 1]
 * for each row of call nr, rowtag[0] for none.
 */
static void
routing_tags(const struct routing *r, int nr, int held_side, int *rowtag)
{
	const struct setrows *s = held_side ? &r->a : &r->e;
	const struct setrows *o = held_side ? &r->e : &r->a;
	int cls[MAXROWS + 1], i, k, j, place;

	for (i = 0; i <= s->n; i++)
		for (cls[i] = i, k = 0; k < i && cls[i] == i; k++) {
			for (j = 0; j <= o->n &&
			    (held_side ? r->routed[i][j] == r->routed[k][j] :
			    r->routed[j][i] == r->routed[j][k]); j++)
				;
			if (j > o->n)
				cls[i] = cls[k];
		}
	rowtag[0] = cls[s->n];
	for (i = 0; i < tame_nrules; i++)
		if (tame_rules[i].nr == nr)
			rowtag[i + 1] = (place = place_of(s, i)) >= 0 ?
			    cls[place] : -1;
}

/* Is the meeting of pieces a and e routed? */
static int
pieces_routed(const struct routing *r, const struct piece *a,
    const struct piece *e)
{
	int i = place_of(&r->a, a->row), j = place_of(&r->e, e->row);

	return i >= 0 && j >= 0 && r->routed[i][j];
}

/*
 * Call nr under a split, as rules: the pieces of the held set's answers
 * met with those of the exec set's, each meeting answered as the two
 * make one.  Pieces of different pairs of answers (and, in a later
 * split, of routing classes) are disjoint, so are their meetings.
 */
static int
add_split_syscall(scmp_filter_ctx ctx, int nr, const struct otarget *t,
    int side, uint32_t dflt)
{
	static struct piece a[MAXROWS + 1], e[MAXROWS + 1];
	static struct routing r;
	static int *atag, *etag;
	tame_atoms within = split_within(t->held, t->exec_held);
	struct region m;
	uint32_t act;
	int na, ne, i, j, rc;

	if (atag == NULL && ((atag = calloc(tame_nrules + 1,
	    sizeof(*atag))) == NULL || (etag = calloc(tame_nrules + 1,
	    sizeof(*etag))) == NULL))
		return -ENOMEM;
	if ((rc = split_routing(t, nr, &r)) != 0)
		return rc;
	routing_tags(&r, nr, 1, atag);
	routing_tags(&r, nr, 0, etag);
	if ((na = partition(nr, t->held, within, t->landlock_ok, side, 1,
	    atag, NO_SKIP, a)) < 0)
		return na;
	if ((ne = partition(nr, t->exec_held, within, t->landlock_ok, side,
	    0, etag, NO_SKIP, e)) < 0) {
		for (i = 0; i < na; i++)
			region_free(&a[i].r);
		return ne;
	}
	for (i = 0; i < na; i++)
		for (j = 0; j < ne && rc == 0; j++) {
			act = split_answer(t->split, nr, a[i].act, a[i].thread,
			    e[j].act, pieces_routed(&r, &a[i], &e[j]));
			if (act == dflt)
				continue;
			memset(&m, 0, sizeof(m));
			region_meet(&a[i].r, &e[j].r, &m);
			rc = m.nomem ? -ENOMEM : emit_region(ctx, nr, &m, act);
			region_free(&m);
		}
	for (i = 0; i < na; i++)
		region_free(&a[i].r);
	for (j = 0; j < ne; j++)
		region_free(&e[j].r);
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
 * Can the marker (the call's gate) change call nr's answer under held?
 * Some marked (gated) row applies, and the rows up to the first one without conditions, and the
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
		ret = oracle_rule_ret(t, held, landlock_ok);
		if (n++ == 0)
			first = ret;
		else if (ret != first)
			alike = 0;
		marked |= row_gated(t);
		if (t->cond[0].op == TC_END)
			return marked && !alike;
	}
	return marked && (!alike || first != oracle_violation(held));
}

/* The same for a target; a split's where either set's may change it. */
static int
target_marker_matters(int nr, const struct otarget *t)
{
	if (t->split == TAME_SPLIT_NONE)
		return marker_matters(nr, t->held, t->landlock_ok);
	return marker_matters(nr, t->held, t->landlock_ok) ||
	    marker_matters(nr, t->exec_held, t->landlock_ok);
}

static scmp_filter_ctx
oracle_ctx(const struct otarget *t, int side)
{
	scmp_filter_ctx ctx;
	uint32_t dflt;
	static struct routing none;
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
	/*
	 * A number no row names: a split's answer has no row, and no nr;
	 * a later split's pair of fallbacks routed as its first's is.
	 */
	if (t->split == TAME_SPLIT_NONE)
		dflt = oracle_violation(t->held);
	else if (split_routing(t, -1, &none) != 0)
		return NULL;
	else
		dflt = split_answer(t->split, -1, none.a.fb, 0, none.e.fb,
		    none.routed[0][0]);
	if ((ctx = seccomp_init(scmp_action(dflt))) == NULL)
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
	if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE,
	    TAME_ORACLE_OPTIMIZE) != 0)
		goto fail;
	for (i = 0; i < tame_nrules; i++) {
		if (!first_row_of(i))
			continue;
		nr = tame_rules[i].nr;
		if (side == SIDE_MARKED && !target_marker_matters(nr, t))
			continue;		/* never sent there */
		if (t->split == TAME_SPLIT_NONE) {
			if (add_syscall(ctx, nr, t->held, t->landlock_ok,
			    side) != 0)
				goto fail;
			continue;
		}
		if (add_split_syscall(ctx, nr, t, side, dflt) != 0)
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
	struct otarget t = { held, landlock_ok, TAME_SPLIT_NONE, 0, 0, 0 };

	return oracle_ctx(&t, SIDE_ALL);
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
	for (i = 0; i < n; i++) {
		if (buf[i].code != (BPF_RET | BPF_K))
			continue;
		if (buf[i].k == TAME_ORACLE_EMULATE)
			buf[i].k = SECCOMP_RET_TRAP | TAME_TRAP_EMULATE;
		else if (buf[i].k == ORACLE_NOTIF)
			buf[i].k = SECCOMP_RET_USER_NOTIF;
	}
	return n;
}

/* One side's context, exported into buf; the count, or -1. */
static int
export_side(const struct otarget *t, int side, struct sock_filter *buf,
    int max)
{
	scmp_filter_ctx ctx;
	int n;

	if ((ctx = oracle_ctx(t, side)) == NULL)
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
 *	for each call the marker (its gate) can change:
 *		jeq nr, 0, 2; ld its gate argument's low word;
 *		jeq the gate's value, marked, unmarked
 *	ja unmarked
 * marked:
 *	ja (over the unmarked side)
 * unmarked:
 *	the unmarked side's program, then the marked side's
 *
 * Both end every path in a RET, and their jumps are relative: each runs
 * as it was exported.
 */
static int
oracle_bpf(const struct otarget *t, struct sock_filter *buf, int max)
{
	const uint32_t off_nr = offsetof(struct seccomp_data, nr);
	const uint32_t off_arch = offsetof(struct seccomp_data, arch);
	const struct gate *g[MAXJOIN];
	int nr[MAXJOIN], n = 0, i, pre, n0, n1, nrules;

	for (i = 0; i < tame_nrules; i++) {
		if (!first_row_of(i) ||
		    !target_marker_matters(tame_rules[i].nr, t))
			continue;
		if (n == MAXJOIN || (g[n] = gate_of(&tame_rules[i]))->arg < 0)
			return -1;	/* never with this table */
		nr[n++] = tame_rules[i].nr;
	}
	pre = n > 0 ? 5 + 3 * n : 0;
	if (pre > max || (n0 = export_side(t, n > 0 ? SIDE_UNMARKED :
	    SIDE_ALL, buf + pre, max - pre)) < 0)
		return -1;
	if (n == 0)
		return n0;
	nrules = oracle_nrules;
	if ((n1 = export_side(t, SIDE_MARKED, buf + pre + n0,
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
		    BPF_ABS, offsetof(struct seccomp_data, args) +
		    8 * g[i]->arg);
		buf[5 + 3 * i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
		    BPF_K, g[i]->val, (pre - 1) - (5 + 3 * i) - 1,
		    pre - (5 + 3 * i) - 1);
	}
	buf[pre - 2] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, 1);
	buf[pre - 1] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, n0);
	return pre + n0 + n1;
}

int
tame_oracle_bpf(tame_atoms held, int landlock_ok, struct sock_filter *buf,
    int max)
{
	struct otarget t = { held, landlock_ok, TAME_SPLIT_NONE, 0, 0, 0 };

	return oracle_bpf(&t, buf, max);
}

/* The process's values of a target, for the time of one call. */
struct saved {
	int			 pid;
	const struct tame_ids	*ids;
	uint32_t		 uvid;
};

static struct saved
use_target(const struct tame_target *tg, struct otarget *t)
{
	struct saved s = { oracle_pid, oracle_ids, oracle_uvid };

	*t = (struct otarget){ tg->held, tg->landlock_ok, tg->split,
	    tg->exec_held, tg->split_held, tg->split_exec };
	oracle_pid = tg->pid;
	oracle_ids = tg->ids;
	oracle_uvid = tg->uvid;
	return s;
}

static void
restore(const struct saved *s)
{
	oracle_pid = s->pid;
	oracle_ids = s->ids;
	oracle_uvid = s->uvid;
}

int
tame_oracle_target_bpf(const struct tame_target *tg, struct sock_filter *buf,
    int max)
{
	struct otarget t;
	struct saved s = use_target(tg, &t);
	int n = oracle_bpf(&t, buf, max);

	restore(&s);
	return n;
}

/* The routing of each call for one target, kept while it is asked. */
static struct {
	struct otarget	 t;
	struct saved	 s;
	int		 valid;
	int		 n;		/* numbers below it kept */
	struct routing	**nr;
} rcache;

static int
same_target(const struct otarget *a, const struct otarget *b)
{
	return a->held == b->held && a->landlock_ok == b->landlock_ok &&
	    a->split == b->split && a->exec_held == b->exec_held &&
	    a->split_held == b->split_held && a->split_exec == b->split_exec;
}

static const struct routing *
routing_of(const struct otarget *t, int nr, int *rc)
{
	static struct routing scratch;
	struct routing *r;
	int i;

	if (!rcache.valid || !same_target(&rcache.t, t) ||
	    rcache.s.pid != oracle_pid || rcache.s.ids != oracle_ids ||
	    rcache.s.uvid != oracle_uvid) {
		if (rcache.nr == NULL) {
			for (i = 0; i < tame_nrules; i++)
				if (tame_rules[i].nr >= rcache.n)
					rcache.n = tame_rules[i].nr + 1;
			if ((rcache.nr = calloc(rcache.n,
			    sizeof(*rcache.nr))) == NULL) {
				*rc = -ENOMEM;
				return NULL;
			}
		}
		for (i = 0; i < rcache.n; i++) {
			free(rcache.nr[i]);
			rcache.nr[i] = NULL;
		}
		rcache.t = *t;
		rcache.s = (struct saved){ oracle_pid, oracle_ids, oracle_uvid };
		rcache.valid = 1;
	}
	if (nr >= 0 && nr < rcache.n && rcache.nr[nr] != NULL)
		return rcache.nr[nr];
	r = &scratch;
	if (nr >= 0 && nr < rcache.n &&
	    (r = rcache.nr[nr] = malloc(sizeof(*r))) == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	if ((*rc = split_routing(t, nr, r)) != 0) {
		if (r != &scratch) {
			free(r);
			rcache.nr[nr] = NULL;
		}
		return NULL;
	}
	return r;
}

int
tame_oracle_split_pair_routed(const struct tame_target *tg, int nr,
    int row_a, int row_e)
{
	const struct routing *r;
	struct otarget t;
	struct saved s = use_target(tg, &t);
	int rc = 0, i, j;

	if ((r = routing_of(&t, nr, &rc)) != NULL) {
		i = place_of(&r->a, row_a);
		j = place_of(&r->e, row_e);
		rc = i >= 0 && j >= 0 ? r->routed[i][j] : -EINVAL;
	}
	restore(&s);
	return rc;
}

uint32_t
tame_oracle_split_answer(const struct tame_target *tg, int nr, int row_a,
    uint32_t ra, uint32_t re, int routed)
{
	return split_answer(tg->split, nr, ra, row_a >= 0 &&
	    thread_row(&tame_rules[row_a]), re, routed);
}

uint32_t
tame_oracle_violation(tame_atoms held)
{
	return oracle_violation(held);
}

uint32_t
tame_oracle_rule_ret(int row, tame_atoms held, int landlock_ok)
{
	return row < 0 ? oracle_violation(held) :
	    oracle_rule_ret(&tame_rules[row], held, landlock_ok);
}

tame_atoms
tame_oracle_split_within(const struct tame_target *tg)
{
	return split_within(tg->held, tg->exec_held);
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
