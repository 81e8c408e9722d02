/*
 * compile.c: the policy table straight to classic BPF, at tame() time.
 *
 * Shape of the program:
 *
 *	arch check		foreign architectures die (i386 via int 0x80)
 *	search tree		on the syscall number, over ranges of numbers
 *				that get the same answer, balanced by the
 *				numbers each side covers; x32 numbers (bit 30
 *				set) are its last range, and die
 *	leaves			a constant RET, or the call's rows in table
 *				order, each a few argument compares and a RET
 *
 * Every path to a constant RET ALLOW uses only loads of nr and arch and
 * constant jumps, so the kernel's constant-action cache (Linux 5.11+)
 * serves every unconditionally allowed call without running BPF at all;
 * tests/t_cache.c replays the kernel's cache analysis to prove it.
 * No allocation: everything lives in static or caller storage, so tame()
 * can narrow again after MALLOC is gone.
 */
#include <sys/types.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "compile.h"
#include "policy.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "argument loads assume a little-endian seccomp_data"
#endif

#if defined(__x86_64__)
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_X86_64
#define X32_SYSCALL_BIT		0x40000000
#elif defined(__aarch64__)
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_AARCH64
#else
#error "libtame knows x86-64 and aarch64"
#endif

#define MAXNR		512		/* above every native syscall */
#define MAXRULES	512		/* rows in the table */

#define OFF_NR		offsetof(struct seccomp_data, nr)
#define OFF_ARCH	offsetof(struct seccomp_data, arch)
#define OFF_IP		offsetof(struct seccomp_data, instruction_pointer)
#define OFF_ARG(i)	(offsetof(struct seccomp_data, args) + 8 * (i))

/*
 * One syscall number's answer: a constant (nrows 0), or rows to test in
 * order, kept in a pool shared by all numbers.  Small on purpose: tame()
 * runs in fresh processes, where every page touched is a page fault.
 */
struct leaf {
	uint32_t	 fallback;	/* RET when no row matches */
	uint16_t	 first;		/* into the pool */
	uint16_t	 nrows;
};

struct pool {
	uint16_t	 row[MAXRULES];
	uint32_t	 ret[MAXRULES];
	int		 len;
};

struct emitter {
	struct tame_prog *p;
	const struct pool *pool;
	uint64_t	 gate;
	int		 overflow;
};

static struct leaf	 next_leaves[MAXNR + 1], prev_leaves[MAXNR];
static struct pool	 next_pool, prev_pool;

/* The table's rows grouped by number, in table order within a number. */
static uint16_t		 by_nr[MAXRULES];
static uint16_t		 nr_first[MAXNR + 1];

static int		 nr_limit;	/* ranges end here; above, one more */

static void
index_rows(void)
{
	static int done;
	uint16_t count[MAXNR + 1] = { 0 };
	int i, nr;

	if (done)
		return;
	for (i = 0; i < tame_nrules && i < MAXRULES; i++)
		if ((nr = tame_rules[i].nr) >= 0 && nr < MAXNR)
			count[nr + 1]++;
	for (nr = 0; nr < MAXNR; nr++)
		nr_first[nr + 1] = nr_first[nr] + count[nr + 1];
	for (nr = 0; nr <= MAXNR; nr++)
		count[nr] = nr_first[nr];
	for (i = 0; i < tame_nrules && i < MAXRULES; i++)
		if ((nr = tame_rules[i].nr) >= 0 && nr < MAXNR)
			by_nr[count[nr]++] = (uint16_t)i;
	nr_limit = tame_syscall_max() + 2;
	done = 1;
}

uint32_t
tame_violation_ret(int held)
{
	/* With no flags there is no stderr to report on: die at once. */
	if ((held & ~TAME__ALWAYS) == 0)
		return SECCOMP_RET_KILL_PROCESS;
	return SECCOMP_RET_TRAP | TAME_TRAP_REPORT;
}

uint32_t
tame_rule_ret(const struct tame_rule *r, int held, int landlock_ok)
{
	switch (r->action) {
	case TA_ERRNO:
		return SECCOMP_RET_ERRNO | (uint32_t)r->errnum;
	case TA_EMULATE:
		return SECCOMP_RET_TRAP | TAME_TRAP_EMULATE;
	case TA_LANDLOCK:
		if (!landlock_ok)
			return SECCOMP_RET_ERRNO | EACCES;
		return SECCOMP_RET_ALLOW;
	case TA_DENY:
		return tame_violation_ret(held);
	default:
		return SECCOMP_RET_ALLOW;
	}
}

/*
 * The applicable rows of one call up to the first that needs no argument
 * test, which becomes the fallback.  Trailing rows whose answer equals the
 * fallback change nothing and go.
 */
static void
leaf_build(struct leaf *l, struct pool *pl, int nr,
    const struct tame_target *t)
{
	const struct tame_rule *r;
	int i;

	l->fallback = tame_violation_ret(t->held);
	l->first = (uint16_t)pl->len;
	l->nrows = 0;
	for (i = nr_first[nr]; i < nr_first[nr + 1]; i++) {
		r = &tame_rules[by_nr[i]];
		if (!tame_rule_applies(r, t->held))
			continue;
		if (r->cond[0].op == TC_END) {
			l->fallback = tame_rule_ret(r, t->held, t->landlock_ok);
			break;
		}
		pl->row[pl->len] = by_nr[i];
		pl->ret[pl->len++] = tame_rule_ret(r, t->held,
		    t->landlock_ok);
		l->nrows++;
	}
	while (l->nrows > 0 && pl->ret[l->first + l->nrows - 1] == l->fallback) {
		l->nrows--;
		pl->len--;
	}
}

static int
leaf_equal(const struct leaf *a, const struct pool *pa, const struct leaf *b,
    const struct pool *pb)
{
	int i;

	if (a->fallback != b->fallback || a->nrows != b->nrows)
		return 0;
	for (i = 0; i < a->nrows; i++)
		if (pa->row[a->first + i] != pb->row[b->first + i] ||
		    pa->ret[a->first + i] != pb->ret[b->first + i])
			return 0;
	return 1;
}

/* Two numbers may share a range when both are the same constant. */
static int
leaf_same_constant(const struct leaf *a, const struct leaf *b)
{
	return a->nrows == 0 && b->nrows == 0 && a->fallback == b->fallback;
}

static void
emit(struct emitter *e, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	struct tame_prog *p = e->p;

	if (p->len >= TAME_MAXINSN) {
		e->overflow = 1;
		return;
	}
	p->insn[p->len].code = code;
	p->insn[p->len].jt = jt;
	p->insn[p->len].jf = jf;
	p->insn[p->len].k = k;
	p->len++;
}

static void
emit_load(struct emitter *e, uint32_t off)
{
	emit(e, BPF_LD | BPF_W | BPF_ABS, off, 0, 0);
}

static void
emit_ret(struct emitter *e, uint32_t ret)
{
	emit(e, BPF_RET | BPF_K, ret, 0, 0);
}

static int
cond_len(const struct tame_cond *c)
{
	switch (c->op) {
	case TC_NULL:
	case TC_NOTNULL:
	case TC_GATE:
		return 4;		/* two halves, load and compare each */
	default:
		return 1 + (c->mask != 0xffffffffu) + c->nval;
	}
}

/*
 * One condition; fail is the distance from the instruction after this
 * condition to where a mismatch goes.
 */
static void
emit_cond(struct emitter *e, const struct tame_cond *c, int fail)
{
	uint32_t lo, hi, off;
	int j, n = c->nval;

	switch (c->op) {
	case TC_NULL:
	case TC_GATE:
		off = c->op == TC_NULL ? OFF_ARG(c->arg) : OFF_IP;
		lo = c->op == TC_NULL ? 0 : (uint32_t)e->gate;
		hi = c->op == TC_NULL ? 0 : (uint32_t)(e->gate >> 32);
		emit_load(e, off);
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, lo, 0, fail + 2);
		emit_load(e, off + 4);
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, hi, 0, fail);
		return;
	case TC_NOTNULL:
		/* either half nonzero matches */
		emit_load(e, OFF_ARG(c->arg));
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2);
		emit_load(e, OFF_ARG(c->arg) + 4);
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, fail, 0);
		return;
	}
	/* int arguments: the low 32 bits only, as the kernel reads them */
	emit_load(e, OFF_ARG(c->arg));
	if (c->mask != 0xffffffffu)
		emit(e, BPF_ALU | BPF_AND | BPF_K, c->mask, 0, 0);
	for (j = 0; j < n; j++) {
		int left = n - 1 - j;	/* compares after this one */

		emit(e, BPF_JMP | BPF_JEQ | BPF_K, c->val[j], left,
		    j == n - 1 ? fail : 0);
	}
}

static void
emit_leaf(struct emitter *e, const struct leaf *l)
{
	const struct tame_rule *r;
	int i, k, len, rest;

	for (i = l->first; i < l->first + l->nrows; i++) {
		r = &tame_rules[e->pool->row[i]];
		for (len = 1, k = 0; k < TAME_MAXCOND && r->cond[k].op; k++)
			len += cond_len(&r->cond[k]);
		if (len > 255) {
			e->overflow = 1;
			return;
		}
		rest = len - 1;		/* instructions before the RET */
		for (k = 0; k < TAME_MAXCOND && r->cond[k].op; k++) {
			rest -= cond_len(&r->cond[k]);
			emit_cond(e, &r->cond[k], rest + 1);
		}
		emit_ret(e, e->pool->ret[i]);
	}
	emit_ret(e, l->fallback);
}

struct range {
	uint32_t lo;		/* first number */
	uint16_t leaf;		/* its answer: an index into the leaves */
	uint16_t width;		/* syscall numbers the kernel walks for it */
};

/*
 * Where to split the ranges [a, b]: where half the syscall numbers they
 * cover lie on each side, not half the ranges.  At attach time the
 * kernel walks the program once per syscall number (its cache analysis),
 * so a wide range of refused numbers belongs near the root: 9% fewer
 * steps.  (Measured, most of the attach time is converting and JITing
 * the branches, which this does not change.)  weight[i] is how many
 * numbers ranges 0..i-1 cover.
 */
static uint16_t		 weight[MAXNR + 1];

static int
split(int a, int b)
{
	int lo = a + 1, hi = b, mid, half;

	half = (weight[a] + weight[b + 1] + 1) / 2;
	while (lo < hi) {		/* first mid with weight[mid] >= half */
		mid = (lo + hi) / 2;
		if (weight[mid] < half)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the boundary just below may balance better */
	if (lo > a + 1 && half - weight[lo - 1] < weight[lo] - half)
		lo--;
	return lo;
}

/*
 * Inside a chunk (a subtree short enough for 8-bit jumps), a constant
 * leaf takes no instruction of its own: the JGE that reaches it jumps to
 * one RET per distinct constant, placed after the chunk.  That saves
 * about a third of the program, and attach time with it.
 */

struct patch {
	int		 at;		/* the JGE */
	int		 jt;		/* its jt (else its jf) */
	uint32_t	 ret;
};

static struct patch	 patches[MAXNR];
static int		 npatches;

static int
is_constant(const struct leaf *l)
{
	return l->nrows == 0;
}

static int
leaf_len(const struct emitter *e, const struct leaf *l)
{
	const struct tame_rule *r;
	int i, k, len = 1;

	for (i = l->first; i < l->first + l->nrows; i++) {
		r = &tame_rules[e->pool->row[i]];
		for (len++, k = 0; k < TAME_MAXCOND && r->cond[k].op; k++)
			len += cond_len(&r->cond[k]);
	}
	return len;
}

/* Instructions of the subtree [a, b] inside a chunk. */
static int
chunk_len(const struct emitter *e, const struct range *rg, int a, int b,
    const struct leaf *leaves)
{
	int mid;

	if (a == b)
		return is_constant(&leaves[rg[a].leaf]) ? 0 :
		    leaf_len(e, &leaves[rg[a].leaf]);
	mid = split(a, b);
	return 1 + chunk_len(e, rg, a, mid - 1, leaves) +
	    chunk_len(e, rg, mid, b, leaves);
}

/*
 * The RETs a chunk over [a, b] appends: one per distinct constant.  More
 * than a handful never happens; if it did, the answer is "too many" and
 * the subtree is split instead.
 */
static int
chunk_rets(const struct range *rg, int a, int b, const struct leaf *leaves)
{
	uint32_t seen[16];
	int i, j, n = 0;

	for (i = a; i <= b; i++) {
		if (!is_constant(&leaves[rg[i].leaf]))
			continue;
		for (j = 0; j < n && seen[j] != leaves[rg[i].leaf].fallback; j++)
			;
		if (j < n)
			continue;
		if (n == 16)
			return 256;
		seen[n++] = leaves[rg[i].leaf].fallback;
	}
	return n;
}

static void
chunk_child(struct emitter *e, const struct range *rg, int a, int b,
    const struct leaf *leaves, int at, int jt)
{
	const struct leaf *l = &leaves[rg[a].leaf];

	if (a == b && is_constant(l)) {
		patches[npatches].at = at;
		patches[npatches].jt = jt;
		patches[npatches++].ret = l->fallback;
		return;
	}
	if (jt)
		e->p->insn[at].jt = (uint8_t)(e->p->len - at - 1);
	if (a == b) {
		emit_leaf(e, l);
		return;
	}
	{
		int mid = split(a, b), node = e->p->len;

		emit(e, BPF_JMP | BPF_JGE | BPF_K, (uint32_t)rg[mid].lo, 0, 0);
		chunk_child(e, rg, a, mid - 1, leaves, node, 0);
		chunk_child(e, rg, mid, b, leaves, node, 1);
	}
}

static void
emit_chunk(struct emitter *e, const struct range *rg, int a, int b,
    const struct leaf *leaves)
{
	struct tame_prog *p = e->p;
	int i, j, off, pos;

	npatches = 0;
	chunk_child(e, rg, a, b, leaves, -1, 0);	/* a < b: a JGE first */
	for (i = 0; i < npatches && !e->overflow; i++) {
		if (patches[i].at < 0)
			continue;	/* its RET is placed already */
		pos = p->len;
		emit_ret(e, patches[i].ret);
		for (j = i; j < npatches; j++) {
			if (patches[j].at < 0 || patches[j].ret != patches[i].ret)
				continue;
			off = pos - patches[j].at - 1;
			if (off > 255) {
				e->overflow = 1;
				return;
			}
			if (patches[j].jt)
				p->insn[patches[j].at].jt = (uint8_t)off;
			else
				p->insn[patches[j].at].jf = (uint8_t)off;
			patches[j].at = -1;
		}
	}
}

/*
 * Emit the search over ranges [a, b]: a chunk when it is short enough,
 * else a JGE whose right subtree follows the left one; when the left is
 * too long for an 8-bit jump, a JA (32-bit offset) hops over it, which
 * the kernel's cache analysis follows as well.
 */
static void
emit_tree(struct emitter *e, const struct range *rg, int a, int b,
    const struct leaf *leaves)
{
	struct tame_prog *p = e->p;
	int at, left, mid;

	if (e->overflow)
		return;
	if (a == b) {
		emit_leaf(e, &leaves[rg[a].leaf]);
		return;
	}
	if (chunk_len(e, rg, a, b, leaves) + chunk_rets(rg, a, b, leaves) <=
	    255) {
		emit_chunk(e, rg, a, b, leaves);
		return;
	}
	mid = split(a, b);
	at = p->len;
	emit(e, BPF_JMP | BPF_JGE | BPF_K, (uint32_t)rg[mid].lo, 0, 0);
	emit_tree(e, rg, a, mid - 1, leaves);
	if (e->overflow)
		return;
	left = p->len - at - 1;
	if (left <= 255) {
		p->insn[at].jt = (uint8_t)left;
	} else {
		if (p->len >= TAME_MAXINSN) {
			e->overflow = 1;
			return;
		}
		memmove(&p->insn[at + 2], &p->insn[at + 1],
		    left * sizeof(p->insn[0]));
		p->len++;
		p->insn[at].jt = 0;
		p->insn[at].jf = 1;
		p->insn[at + 1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
		    (uint32_t)left, 0, 0);
	}
	emit_tree(e, rg, mid, b, leaves);
}

uint32_t
tame_audit_arch(void)
{
	return AUDIT_ARCH_NATIVE;
}

int
tame_compile(const struct tame_target *next, const struct tame_target *prev,
    uint64_t gate, struct tame_prog *out)
{
	static struct range rg[MAXNR + 1];
	struct emitter e = { out, &next_pool, gate, 0 };
	int i, nr, n, nranges = 0;

	index_rows();
	n = nr_limit;		/* the last range: every higher number */
	if (n >= MAXNR || tame_nrules > MAXRULES) {
		errno = E2BIG;		/* raise MAXNR or MAXRULES */
		return -1;
	}
	next_pool.len = prev_pool.len = 0;
	for (nr = 0; nr < n; nr++) {
		leaf_build(&next_leaves[nr], &next_pool, nr, next);
		if (prev == NULL)
			continue;
		leaf_build(&prev_leaves[nr], &prev_pool, nr, prev);
		if (leaf_equal(&next_leaves[nr], &next_pool, &prev_leaves[nr],
		    &prev_pool)) {
			/* the older filter already answers this call */
			next_leaves[nr].nrows = 0;
			next_leaves[nr].fallback = SECCOMP_RET_ALLOW;
		}
	}
	for (nr = 0; nr < n; nr++) {
		if (nranges > 0 && leaf_same_constant(&next_leaves[nr],
		    &next_leaves[rg[nranges - 1].leaf])) {
			rg[nranges - 1].width++;
			continue;
		}
		rg[nranges].lo = (uint32_t)nr;
		rg[nranges].leaf = (uint16_t)nr;
		rg[nranges++].width = 1;
	}
#ifdef X32_SYSCALL_BIT
	/*
	 * x32 numbers (bit 30 set) die.  As the tree's last range, of no
	 * width the kernel walks, the check costs attach time nothing.
	 */
	next_leaves[n].fallback = SECCOMP_RET_KILL_PROCESS;
	next_leaves[n].nrows = 0;
	rg[nranges].lo = X32_SYSCALL_BIT;
	rg[nranges].leaf = (uint16_t)n;
	rg[nranges++].width = 0;
#endif
	for (weight[0] = 0, i = 0; i < nranges; i++)
		weight[i + 1] = weight[i] + rg[i].width;

	out->len = 0;
	emit_load(&e, OFF_ARCH);
	emit(&e, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0);
	emit_ret(&e, SECCOMP_RET_KILL_PROCESS);
	emit_load(&e, OFF_NR);
	emit_tree(&e, rg, 0, nranges - 1, next_leaves);
	if (e.overflow) {
		errno = E2BIG;
		return -1;
	}
	return 0;
}
