/* SPDX-License-Identifier: ISC */
/*
 * compile.c: the policy table straight to classic BPF, at tame() time.
 *
 * Shape of the program:
 *
 *	arch check		foreign architectures die (i386 via int 0x80)
 *	search tree		on the syscall number, over regions: runs of
 *				numbers with one answer, in which a single
 *				number that answers otherwise is one JEQ;
 *				balanced by the numbers each side covers; x32
 *				numbers (bit 30 set) are the last, and die
 *	leaves			the call's rows in table order, each a few
 *				argument compares; one copy per distinct code
 *	RETs			one per distinct answer, after each subtree
 *				short enough for 8-bit jumps (a chunk): the
 *				tree and the compares all jump there
 *
 * Every path to a constant RET ALLOW uses only loads of nr and arch and
 * constant jumps, so the kernel's constant-action cache (Linux 5.11+)
 * serves every unconditionally allowed call without running BPF at all;
 * tests/t_cache.c replays the kernel's cache analysis to prove it.
 * No allocation: everything lives in static or caller storage, so tame()
 * can narrow again after MALLOC is gone.
 */
#include <sys/types.h>
#include <asm/unistd.h>		/* the kernel's numbers, as policy.c */
#include <linux/sched.h>
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

#define MAXNR		(TAME_ASK_NR + 2)	/* the table's numbers */
#define MAXRULES	512		/* rows in the table */

#define OFF_NR		offsetof(struct seccomp_data, nr)
#define OFF_ARCH	offsetof(struct seccomp_data, arch)
#define OFF_ARG(i)	(offsetof(struct seccomp_data, args) + 8 * (i))

/*
 * One syscall number's answer: a constant (nrows 0), or rows to test in
 * order, kept in the pool.
 */
struct leaf {
	uint32_t	 fallback;	/* RET when no row matches */
	uint16_t	 first;		/* into the pool */
	uint16_t	 nrows;
};

struct pool_row {
	uint32_t	 ret;
	uint16_t	 row;		/* into tame_rules */
	uint16_t	 row2;		/* and, in an exec split's pair, the
					   other set's row (NO_ROW: none) */
};

#define NO_ROW		0xffff

/*
 * The compares a pool entry makes, in order: its row's, then its pair's
 * (an exec split: exec.c below).  All must hold for its answer.
 */
struct conds {
	const struct tame_cond	*c[2 * TAME_MAXCOND];
	int			 n;
};

/* A run of syscall numbers with one answer. */
struct range {
	uint32_t	 lo;		/* first number */
	uint16_t	 width;		/* numbers the kernel walks for it */
	struct leaf	 leaf;
};

/*
 * A leaf of the search tree: the ranges [first, first + n).  With n > 1
 * the first range is a constant, the region's default, and every other
 * range is that constant again or a single number tested with one JEQ:
 * an allowed call among refused ones costs one instruction, not the two
 * range bounds a pure range tree gives it.
 */
struct region {
	uint32_t	 lo;
	uint16_t	 first;
	uint16_t	 n;
	uint16_t	 below;		/* numbers in the regions before */
};

/*
 * The compiler's working memory.  Nothing is allocated (tame() must work
 * after MALLOC is gone), and in the fresh process tame() usually runs in
 * every page first touched is a page fault, about 5 µs on a VM, several
 * times what compiling costs.  So the arrays are carved one after the
 * other out of one page-aligned block, each as long as this compile needs:
 * the rows sorted by number, the pool, the ranges, the regions.  Together
 * they usually fit in one page.
 */
#define SPLIT_POOL	(MAXRULES * 12)	/* an exec split's pairs */
#define ARENA		(MAXRULES * 2 + \
			 SPLIT_POOL * sizeof(struct pool_row) + \
			 (MAXNR + 2) * sizeof(struct range) + \
			 (MAXNR + 3) * sizeof(struct region) + 64)

struct workspace {
	uint16_t	*by_nr;		/* rows sorted by number */
	int		 nby_nr;
	int		 pool_max;	/* rows with compares, and one call's */
	struct pool_row	*pool;
	struct range	*rg;
	struct region	*reg;
	int		 npool, nrg, nreg;
};

static struct {
	struct workspace w;		/* first, so it shares the page */
	unsigned char	 bytes[ARENA];
} arena __attribute__((aligned(4096)));

static struct workspace *const w = &arena.w;

/*
 * Per call number (index_rows): where its rows start in by_nr (they end
 * where the next number's start), and every flag their any and all name.
 */
static uint16_t	 rows_at[MAXNR + 1];
static tame_atoms named_by_rows[MAXNR];

struct emitter {
	struct tame_prog *p;
	int		 pid;		/* what TC_SELF compares with */
	tame_atoms	 held;		/* what TC_WITHIN compares with */
	uint32_t	 uvid;		/* what TC_UVID compares with */
	int		 overflow;
};

/* What TC_OWNUID and TC_OWNGID compare with in the program being made. */
static const struct tame_ids *emit_ids;


static void *
carve(void *from, size_t len)
{
	uintptr_t p = ((uintptr_t)from + 7) & ~(uintptr_t)7;

	return p + len <= (uintptr_t)arena.bytes + ARENA ? (void *)p : NULL;
}

/* Sort the rows by number (a counting sort, in table order within one). */
static void
index_rows(void)
{
	uint16_t count[MAXNR + 1] = { 0 }, first[MAXNR + 1];
	int i, nr, withconds = 0, most = 0;

	if (w->by_nr != NULL)
		return;
	w->by_nr = (uint16_t *)(void *)arena.bytes;
	for (i = 0; i < tame_nrules; i++) {
		if ((nr = tame_rules[i].nr) < 0 || nr >= MAXNR)
			continue;
		if (++count[nr] > most)
			most = count[nr];
		named_by_rows[nr] |= tame_rules[i].any | tame_rules[i].all;
		withconds += tame_rules[i].cond[0].op != TC_END;
	}
	for (first[0] = 0, nr = 1; nr <= MAXNR; nr++)
		first[nr] = first[nr - 1] + count[nr - 1];
	memcpy(rows_at, first, sizeof(rows_at));
	for (i = 0; i < tame_nrules; i++)
		if ((nr = tame_rules[i].nr) >= 0 && nr < MAXNR)
			w->by_nr[first[nr]++] = (uint16_t)i;
	w->nby_nr = first[MAXNR];
	/* a leaf's rows all have compares, and one call's old leaf */
	w->pool_max = withconds + most;
}

uint32_t
tame_violation_ret(tame_atoms held)
{
	/*
	 * With no flags there is no stderr to report on: die at once;
	 * unless pledge's error asks for ENOSYS, after the line.
	 */
	if ((held & ~(TAME__ALWAYS | TAME__STATE)) == 0)
		return SECCOMP_RET_KILL_PROCESS;
	return SECCOMP_RET_TRAP | TAME_TRAP_REPORT;
}

uint32_t
tame_rule_ret(const struct tame_rule *r, tame_atoms held, int landlock_ok)
{
	switch (r->action) {
	case TA_ERRNO:
		return SECCOMP_RET_ERRNO | (uint32_t)r->errnum;
	case TA_EMULATE:
		return SECCOMP_RET_TRAP | TAME_TRAP_EMULATE;
	case TA_LANDLOCK:
		if (landlock_ok != 1)
			return SECCOMP_RET_ERRNO | EACCES;
		return SECCOMP_RET_ALLOW;
	case TA_DENY:
		return tame_violation_ret(held);
	default:
		return SECCOMP_RET_ALLOW;
	}
}

/* Do the values of compare a include all of b's? */
static int
cond_covers(const struct tame_cond *a, const struct tame_cond *b)
{
	int i, j;

	if (a->op != b->op || a->arg != b->arg || a->mask != b->mask)
		return 0;
	for (j = 0; j < b->nval; j++) {
		for (i = 0; i < a->nval && a->val[i] != b->val[j]; i++)
			;
		if (i == a->nval)
			return 0;
	}
	return 1;
}

/*
 * Does every call row b matches match row a as well?  Then b, coming
 * after a, is never reached: open's "read" row under RPATH makes the
 * Landlock-confined read row behind it dead code.
 */
static int
row_covers(const struct tame_rule *a, const struct tame_rule *b)
{
	int i, j;

	for (i = 0; i < TAME_MAXCOND && a->cond[i].op; i++) {
		for (j = 0; j < TAME_MAXCOND && b->cond[j].op &&
		    !cond_covers(&a->cond[i], &b->cond[j]); j++)
			;
		if (j == TAME_MAXCOND || b->cond[j].op == TC_END)
			return 0;
	}
	return 1;
}

/* Does the row compare an argument with the process's pid, or ids? */
static int
row_asks(const struct tame_rule *r, int ids)
{
	int i, op;

	for (i = 0; i < TAME_MAXCOND && (op = r->cond[i].op); i++)
		if (ids ? op == TC_OWNUID || op == TC_OWNGID : op == TC_SELF)
			return 1;
	return 0;
}

static void
entry_conds(const struct pool_row *e, struct conds *out)
{
	const struct tame_rule *r;
	int k, which;

	out->n = 0;
	for (which = 0; which < 2; which++) {
		if ((which ? e->row2 : e->row) == NO_ROW)
			continue;
		r = &tame_rules[which ? e->row2 : e->row];
		for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++)
			out->c[out->n++] = &r->cond[k];
	}
}

/* Does the row compare with the process's unveil rules' number? */
static int
row_asks_uvid(const struct tame_rule *r)
{
	int i;

	for (i = 0; i < TAME_MAXCOND && r->cond[i].op != TC_END; i++)
		if (r->cond[i].op == TC_UVID)
			return 1;
	return 0;
}

/* Does any row of the leaf ask for the process's values? */
static int
leaf_asks_self(const struct leaf *l)
{
	const struct pool_row *e;
	int i;

	for (i = 0; i < l->nrows; i++) {
		e = &w->pool[l->first + i];
		if (row_asks_uvid(&tame_rules[e->row]) || (e->row2 != NO_ROW &&
		    row_asks_uvid(&tame_rules[e->row2])))
			return 1;
		if (row_asks(&tame_rules[e->row], 0) ||
		    row_asks(&tame_rules[e->row], 1) || (e->row2 != NO_ROW &&
		    (row_asks(&tame_rules[e->row2], 0) ||
		    row_asks(&tame_rules[e->row2], 1))))
			return 1;
	}
	return 0;
}

/* Were both compiled with the same pid and ids? */
static int
same_process(const struct tame_target *a, const struct tame_target *b)
{
	if (a->pid != b->pid || a->uvid != b->uvid)
		return 0;
	if (a->ids == NULL || b->ids == NULL)
		return a->ids == b->ids;
	return a->ids->uid == b->ids->uid && a->ids->ngid == b->ids->ngid &&
	    memcmp(a->ids->gid, b->ids->gid, (size_t)a->ids->ngid *
	    sizeof(a->ids->gid[0])) == 0;
}

/* A violation's answer for t. */
static uint32_t
violation_ret(const struct tame_target *t)
{
	if (tame_unrestricted(t->held))
		return SECCOMP_RET_ALLOW;	/* not pledged: no violation */
	return tame_violation_ret(t->held);
}

static uint32_t
row_ret(const struct tame_rule *r, const struct tame_target *t)
{
	if (r->action == TA_DENY)
		return violation_ret(t);
	return tame_rule_ret(r, t->held, t->landlock_ok);
}

/*
 * Does the row test nothing under held?  No argument test at all, or,
 * not pledged (FREE), only claims, which every claim meets there.
 */
static int
row_unconditional(const struct tame_rule *r, tame_atoms held)
{
	int k;

	if (r->cond[0].op == TC_END)
		return 1;
	if (!tame_unrestricted(held))
		return 0;
	for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++)
		if (r->cond[k].op != TC_WITHIN)
			return 0;
	return 1;
}

/*
 * The applicable rows of one call (by_nr[lo, hi)) up to the first that
 * needs no argument test, which becomes the fallback; appended to the
 * pool.  Trailing rows whose answer equals the fallback change nothing
 * and go.
 */
static void
leaf_build(struct leaf *l, int lo, int hi, const struct tame_target *t)
{
	const struct tame_rule *r;
	int i, j;

	l->fallback = violation_ret(t);
	l->first = (uint16_t)w->npool;
	l->nrows = 0;
	for (i = lo; i < hi; i++) {
		r = &tame_rules[w->by_nr[i]];
		if (!tame_rule_applies(r, t->held) ||
		    (t->pid <= 0 && row_asks(r, 0)) ||
		    (t->ids == NULL && row_asks(r, 1)))
			continue;
		if (row_unconditional(r, t->held)) {
			l->fallback = row_ret(r, t);
			break;
		}
		for (j = l->first; j < w->npool &&
		    !row_covers(&tame_rules[w->pool[j].row], r); j++)
			;
		if (j < w->npool)
			continue;	/* an earlier row takes all its calls */
		w->pool[w->npool].row = w->by_nr[i];
		w->pool[w->npool].row2 = NO_ROW;
		w->pool[w->npool++].ret = row_ret(r, t);
		l->nrows++;
	}
	while (l->nrows > 0 &&
	    w->pool[l->first + l->nrows - 1].ret == l->fallback) {
		l->nrows--;
		w->npool--;
	}
}

/*
 * An exec split (tame_target.split): one leaf for two sets of atoms, the
 * process's (held) and its exec'd images' (exec_held).  For a call, each
 * set's answer is its first applicable row that matches, else its
 * fallback; the leaf's rows are the pairs (row of held, row of
 * exec_held), each set's rows in table order and its fallback as a last
 * row matching anything, in that order of pairs: the first pair whose
 * compares all hold is the pair of first matches.  Pairs whose compares
 * cannot hold together (an open flag both ways) are left out.
 */
#define SPLIT_ROWS	64		/* one call's rows under one set */

/* Could no call match both rows (one argument, disjoint values)? */
static int
exclusive(const struct tame_rule *a, const struct tame_rule *b)
{
	const struct tame_cond *x, *y;
	int i, j, k, l, hit;

	for (i = 0; i < TAME_MAXCOND && a->cond[i].op != TC_END; i++)
		for (j = 0; j < TAME_MAXCOND && b->cond[j].op != TC_END; j++) {
			x = &a->cond[i];
			y = &b->cond[j];
			if (x->arg != y->arg)
				continue;
			if ((x->op == TC_NULL && y->op == TC_NOTNULL) ||
			    (x->op == TC_NOTNULL && y->op == TC_NULL))
				return 1;
			if (x->op != TC_IN || y->op != TC_IN ||
			    x->mask != y->mask)
				continue;
			for (hit = 0, k = 0; k < x->nval && !hit; k++)
				for (l = 0; l < y->nval && !hit; l++)
					hit = x->val[k] == y->val[l];
			if (!hit)
				return 1;
		}
	return 0;
}

/* One set's rows of a call, as leaf_build() takes them. */
static int
split_rows(int lo, int hi, const struct tame_target *t, tame_atoms held,
    uint16_t *rows, uint32_t *rets, uint32_t *fallback)
{
	struct tame_target one = *t;
	const struct tame_rule *r;
	int i, n = 0;

	one.held = held;
	*fallback = violation_ret(&one);
	for (i = lo; i < hi; i++) {
		r = &tame_rules[w->by_nr[i]];
		if (!tame_rule_applies(r, held) ||
		    (t->pid <= 0 && row_asks(r, 0)) ||
		    (t->ids == NULL && row_asks(r, 1)))
			continue;
		if (row_unconditional(r, held)) {
			*fallback = row_ret(r, &one);
			break;
		}
		if (n == SPLIT_ROWS)
			return -1;
		rows[n] = w->by_nr[i];
		rets[n++] = row_ret(r, &one);
	}
	return n;
}

/*
 * What an image does with an answer when no handler of libtame's may be
 * there to take a trap: signal masks are set as asked (SIGSYS blocked
 * there only ends a violation without its line); every other trap, and
 * a violation, the supervisor takes, for either kind of image (first
 * filter); a later filter keeps them for the process's handler.
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

/* The narrower of two answers: the kernel's order of precedence. */
static uint32_t
narrower(uint32_t a, uint32_t b)
{
	return (int32_t)(b & SECCOMP_RET_ACTION_FULL) <
	    (int32_t)(a & SECCOMP_RET_ACTION_FULL) ? b : a;
}

/*
 * Calls the supervisor must see whatever the sets say, where they allow
 * them: every exec (the image after it is judged by execpromises), and
 * every new process (it inherits the image it was forked from); not a
 * thread (the same process).  And its own number.
 */
static int
always_supervised(int nr, const struct tame_rule *a)
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
		/* pthread_create's row: a thread, not a process */
		return a == NULL || a->cond[0].op != TC_IN ||
		    a->cond[0].arg != 0 || !(a->cond[0].val[0] & CLONE_THREAD);
	}
	return 0;
}

/* The first split's leaf for a call, as a later one reads it. */
#define FIRST_ROWS	64

struct first_leaf {
	struct pool_row	 e[FIRST_ROWS];
	int		 n;
	uint32_t	 fallback;
};

static int split_first_leaf(struct first_leaf *, int nr, int lo, int hi,
	    const struct tame_target *t);
static int pair_routed(const struct first_leaf *, const struct tame_rule *a,
	    const struct tame_rule *e, const uint16_t *arow, int i,
	    const uint16_t *erow, int j);

/*
 * The answer for a pair: the two sets' answers, row a of held (NULL: its
 * fallback), for a call of nr.
 */
static uint32_t
split_merge(const struct tame_target *t, int nr, const struct tame_rule *a,
    uint32_t ra, uint32_t re, int routed)
{
	uint32_t ma = split_map(ra, nr, t->split);
	uint32_t me = split_map(re, nr, t->split);

	if (t->split == TAME_SPLIT_FIRST) {
		if (ma != me)
			return SECCOMP_RET_USER_NOTIF;
		if (ma == SECCOMP_RET_ALLOW && always_supervised(nr, a))
			return SECCOMP_RET_USER_NOTIF;
		return ma;
	}
	/* later: what the first filter sends the supervisor, it judges */
	if (routed)
		return ma == me && ma != (SECCOMP_RET_TRAP |
		    TAME_TRAP_EMULATE) && ma != (SECCOMP_RET_TRAP |
		    TAME_TRAP_REPORT) ? ma : SECCOMP_RET_ALLOW;
	return narrower(ma, me);
}

/* Is row among the first n of rows? */
static int
seen_before(const uint16_t *rows, int n, uint16_t row)
{
	int k;

	for (k = 0; k < n; k++)
		if (rows[k] == row)
			return 1;
	return 0;
}

static void
split_leaf_build(struct leaf *l, int nr, int lo, int hi,
    const struct tame_target *t)
{
	uint16_t arow[SPLIT_ROWS], erow[SPLIT_ROWS];
	uint32_t aret[SPLIT_ROWS], eret[SPLIT_ROWS], afb, efb, ra, re, ret;
	const struct tame_rule *a, *e;
	struct pool_row *p;
	struct first_leaf first = { .n = 0, .fallback = 0 };
	int m, n, i, j, routed = 0;

	l->first = (uint16_t)w->npool;
	l->nrows = 0;
	l->fallback = SECCOMP_RET_KILL_PROCESS;
	/* not pledged (FREE): only unveil's rows, else allowed */
	m = split_rows(lo, hi, t, t->held, arow, aret, &afb);
	n = split_rows(lo, hi, t, t->exec_held, erow, eret, &efb);
	if (m < 0 || n < 0) {
		w->npool = SPLIT_POOL + 1;	/* too many: E2BIG */
		return;
	}
	if (t->split == TAME_SPLIT_LATER)
		routed = split_first_leaf(&first, nr, lo, hi, t);
	for (i = 0; i <= m; i++)
		for (j = 0; j <= n; j++) {
			a = i < m ? &tame_rules[arow[i]] : NULL;
			e = j < n ? &tame_rules[erow[j]] : NULL;
			if (a != NULL && e != NULL && exclusive(a, e))
				continue;
			/*
			 * A row both sets test, met by one of them earlier,
			 * could not have been passed over by the other:
			 * the pair is empty.  Equal lists keep their
			 * diagonal only.
			 */
			if ((e != NULL && seen_before(arow, i, erow[j])) ||
			    (a != NULL && seen_before(erow, j, arow[i])))
				continue;
			ra = i < m ? aret[i] : afb;
			re = j < n ? eret[j] : efb;
			ret = split_merge(t, nr, a, ra, re, routed &&
			    pair_routed(&first, a, e, arow, i, erow, j));
			if (a == NULL && e == NULL) {
				l->fallback = ret;
				goto done;
			}
			if (w->npool >= SPLIT_POOL) {
				w->npool = SPLIT_POOL + 1;
				return;
			}
			p = &w->pool[w->npool++];
			p->row = a != NULL ? arow[i] : erow[j];
			p->row2 = a != NULL && e != NULL && a != e ? erow[j] :
			    NO_ROW;
			p->ret = ret;
			l->nrows++;
		}
done:
	while (l->nrows > 0 &&
	    w->pool[l->first + l->nrows - 1].ret == l->fallback) {
		l->nrows--;
		w->npool--;
	}
}

static int
split_first_leaf(struct first_leaf *f, int nr, int lo, int hi,
    const struct tame_target *t)
{
	struct tame_target first = *t;
	struct leaf l;
	int mark = w->npool, i;

	first.split = TAME_SPLIT_FIRST;
	first.held = t->split_held;
	first.exec_held = t->split_exec;
	split_leaf_build(&l, nr, lo, hi, &first);
	f->n = 0;
	f->fallback = l.fallback;
	for (i = 0; i < l.nrows && i < FIRST_ROWS; i++) {
		f->e[i] = w->pool[l.first + i];
		f->n++;
	}
	w->npool = mark;
	/* too many to keep: no pair counts as routed (the narrower) */
	return l.nrows <= FIRST_ROWS;
}

/* Does the row compare an argument with a value of the process's? */
static int
asks_process(const struct tame_rule *r)
{
	int k, op;

	for (k = 0; k < TAME_MAXCOND && (op = r->cond[k].op) != TC_END; k++)
		if (op == TC_SELF || op == TC_OWNUID || op == TC_OWNGID ||
		    op == TC_UVID || op == TC_WITHIN)
			return 1;
	return 0;
}

/*
 * Did the first filter send every call a later pair matches to the
 * supervisor?  The pair is (a, e), the later sets' rows arow[i] and
 * erow[j] (NULL: past their last), so its calls matched none of
 * arow[0..i) and erow[0..j): a first entry with such a row, or one a
 * compare of a's or e's excludes, meets none of them.  Every other
 * entry, and the fallback, must answer USER_NOTIF.  Unsure: not
 * routed, and the later filter answers the narrower.
 */
static int
pair_routed(const struct first_leaf *f, const struct tame_rule *a,
    const struct tame_rule *e, const uint16_t *arow, int i,
    const uint16_t *erow, int j)
{
	const struct tame_rule *x;
	uint16_t row;
	int n, k, missed;

	for (n = 0; n < f->n; n++) {
		for (missed = 0, k = 0; k < 2 && !missed; k++) {
			if ((row = k ? f->e[n].row2 : f->e[n].row) == NO_ROW)
				continue;
			x = &tame_rules[row];
			/*
			 * A row that compares the process's own values (ids,
			 * pid, claims, unveil rules) may have met in the first
			 * filter, made with other values, what it missed here.
			 */
			missed = (!asks_process(x) &&
			    (seen_before(arow, i, row) ||
			    seen_before(erow, j, row))) ||
			    (a != NULL && exclusive(x, a)) ||
			    (e != NULL && exclusive(x, e));
		}
		if (missed)
			continue;	/* no call of the pair meets it */
		if (f->e[n].ret != SECCOMP_RET_USER_NOTIF)
			return 0;
	}
	return f->fallback == SECCOMP_RET_USER_NOTIF;
}

static int
leaf_equal(const struct leaf *a, const struct leaf *b)
{
	int i;

	if (a->fallback != b->fallback || a->nrows != b->nrows)
		return 0;
	for (i = 0; i < a->nrows; i++)
		if (w->pool[a->first + i].row != w->pool[b->first + i].row ||
		    w->pool[a->first + i].row2 != w->pool[b->first + i].row2 ||
		    w->pool[a->first + i].ret != w->pool[b->first + i].ret)
			return 0;
	return 1;
}

static int
is_constant(const struct leaf *l)
{
	return l->nrows == 0;
}

/* Two numbers may share a range when both are the same constant. */
static int
same_constant(const struct leaf *a, const struct leaf *b)
{
	return is_constant(a) && is_constant(b) && a->fallback == b->fallback;
}

/* The next instruction holds a process value (compile.h). */
static void
reloc(struct emitter *e, enum tame_reloc_kind kind)
{
	struct tame_prog *p = e->p;

	if (p->nreloc >= TAME_MAXRELOC) {
		e->overflow = 1;	/* raise TAME_MAXRELOC */
		return;
	}
	p->reloc[p->nreloc].at = (uint16_t)p->len;
	p->reloc[p->nreloc].kind = (uint16_t)kind;
	p->nreloc++;
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

/*
 * A compare's values as runs of consecutive numbers, ascending: fcntl's
 * F_DUPFD to F_SETFL, or TCGETS to TCSETSF, are one range test each
 * rather than one JEQ per value.  Returns the number of runs.
 */
struct run {
	uint32_t	 lo, hi;
};

static int
value_runs(const struct tame_cond *c, struct run *r)
{
	uint32_t v[TAME_MAXVAL], t;
	int i, j, n = 0;

	for (i = 0; i < c->nval; i++) {		/* insertion sort */
		for (t = c->val[i], j = i; j > 0 && v[j - 1] > t; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	for (i = 0; i < c->nval; i++) {
		if (n > 0 && v[i] <= r[n - 1].hi + 1) {
			r[n - 1].hi = v[i];	/* the run goes on */
			continue;
		}
		r[n].lo = r[n].hi = v[i];
		n++;
	}
	return n;
}

/*
 * A single value is one JEQ, a run from 0 one JGT, any other run a JGE
 * and a JGT (a run of two is two JEQs: as short, and cheaper to run).
 */
static int
run_len(const struct run *r)
{
	return r->lo == r->hi || r->lo == 0 ? 1 : 2;
}

/*
 * Does a masked compare list every nonzero value under its mask (the
 * set-ID rows: any of S_ISUID, S_ISGID, S_ISVTX; or one flag, O_CREAT
 * under the mask O_CREAT)?  Then it is one JSET of the mask on the
 * argument, with no AND.
 */
static int
any_bit(const struct tame_cond *c)
{
	uint32_t m;
	int i, j, bits = 0;

	if (c->op != TC_IN || c->mask == 0xffffffffu ||
	    (c->nval & (c->nval + 1)) != 0)
		return 0;		/* nval is not 2^bits - 1 */
	for (m = c->mask; m != 0 && bits <= 4; m &= m - 1)
		bits++;
	if (c->nval != (1 << bits) - 1)
		return 0;
	for (i = 0; i < c->nval; i++) {
		if (c->val[i] == 0 || (c->val[i] & ~c->mask) != 0)
			return 0;
		for (j = 0; j < i; j++)
			if (c->val[j] == c->val[i])
				return 0;
	}
	return 1;	/* all 2^bits - 1 nonzero values under the mask */
}

static int
cond_len(const struct tame_cond *c, int loaded)
{
	struct run r[TAME_MAXVAL];
	int i, n, len;

	switch (c->op) {
	case TC_NULL:
	case TC_NOTNULL:
		return 4;		/* two halves, load and compare each */
	case TC_WITHIN:
		return 2;		/* load, and a JSET of what is not held */
	case TC_SELF:
	case TC_UVID:
		return 2;		/* the low half only, as the kernel */
	case TC_OWNUID:			/* load, then -1 and each id */
		return 3;
	case TC_OWNGID:
		return 2 + emit_ids->ngid;
	}
	if (any_bit(c))
		return loaded ? 1 : 2;
	len = loaded ? 0 : 1 + (c->mask != 0xffffffffu);
	for (n = value_runs(c, r), i = 0; i < n; i++)
		len += run_len(&r[i]);
	return len;
}

/*
 * Does the accumulator already hold what row r's first compare loads?
 * It does when the row before had one compare, of the same argument and
 * mask: every way into r is that compare failing.  A JSET's row left
 * the argument unmasked.
 */
static int
reuses_load(const struct conds *before, const struct conds *r)
{
	const struct tame_cond *a, *b = r->c[0];

	if (before == NULL || before->n != 1)
		return 0;
	a = before->c[0];
	return a->op == TC_IN && b->op == TC_IN && a->arg == b->arg &&
	    a->mask == b->mask && !any_bit(a);
}

/* Instructions of a row: its compares; its RET is the chunk's. */
static int
row_len(const struct conds *before, const struct conds *r)
{
	int k, len = 0;

	for (k = 0; k < r->n; k++)
		len += cond_len(r->c[k], k == 0 && reuses_load(before, r));
	return len;
}

/* The compares of a leaf's row i (i >= 0). */
static void
leaf_conds(const struct leaf *l, int i, struct conds *out)
{
	entry_conds(&w->pool[l->first + i], out);
}

static int
leaf_len(const struct leaf *l)
{
	struct conds a, b;
	int i, len = 0;

	for (i = 0; i < l->nrows; i++) {
		leaf_conds(l, i, i % 2 ? &b : &a);
		len += row_len(i == 0 ? NULL : i % 2 ? &a : &b,
		    i % 2 ? &b : &a);
	}
	return len;
}

/*
 * A chunk is a subtree short enough for 8-bit jumps, in three parts: the
 * dispatch on the number (JGEs and the regions' JEQs), then each distinct
 * leaf once (kill and tgkill, say, test the same thing), then one RET
 * per distinct answer.  Every jump goes forward into a later part, so
 * constant answers take no instruction of their own and two calls with
 * the same argument test share it.
 */
#define CHUNK_MAXRET	32
#define CHUNK_MAXLEAF	64

struct chunk {
	uint32_t	 ret[CHUNK_MAXRET];	/* in order of first use */
	int		 nret;
	int		 rets_at;	/* where the first of them goes */
	const struct leaf *leaf[CHUNK_MAXLEAF];	/* distinct, in order */
	int		 leaf_at[CHUNK_MAXLEAF];
	int		 nleaf;
};

/* Offset of a jump at "at" to target; a jump too far stops the build. */
static uint8_t
offset(struct emitter *e, int at, int target)
{
	int off = target - at - 1;

	if (off < 0 || off > 255) {
		e->overflow = 1;
		return 0;
	}
	return (uint8_t)off;
}

/* Where the chunk's RET of an answer is; every answer was collected. */
static int
ret_at(struct emitter *e, const struct chunk *c, uint32_t ret)
{
	int i;

	for (i = 0; i < c->nret && c->ret[i] != ret; i++)
		;
	if (i == c->nret)
		e->overflow = 1;	/* cannot happen: refuse, never guess */
	return c->rets_at + i;
}

/*
 * One condition at the current position: on a match go on to ok, else
 * to fail (both absolute).  With loaded set, the accumulator holds the
 * masked argument already.
 */
static void
emit_cond(struct emitter *e, const struct tame_cond *c, int loaded, int ok,
    int fail)
{
	struct tame_prog *p = e->p;
	struct run r[TAME_MAXVAL];
	uint32_t off;
	int j, n, at, next;

	switch (c->op) {
	case TC_NULL:
		off = OFF_ARG(c->arg);
		emit_load(e, off);
		at = p->len;
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, offset(e, at, fail));
		emit_load(e, off + 4);
		at = p->len;
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, offset(e, at, ok),
		    offset(e, at, fail));
		return;
	case TC_WITHIN:
		/*
		 * A claimed atom the target lacks fails the compare; not
		 * pledged (FREE), it holds them all.
		 */
		emit_load(e, OFF_ARG(c->arg));
		at = p->len;
		emit(e, BPF_JMP | BPF_JSET | BPF_K, tame_unrestricted(e->held) ?
		    0 : ~(uint32_t)((e->held | TAME__STATE) >>
		    (c->val[0] ? 32 : 0)), offset(e, at, fail),
		    offset(e, at, ok));
		return;
	case TC_SELF:
		emit_load(e, OFF_ARG(c->arg));
		at = p->len;
		reloc(e, TAME_RELOC_PID);
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)e->pid,
		    offset(e, at, ok), offset(e, at, fail));
		return;
	case TC_UVID:
		emit_load(e, OFF_ARG(c->arg));
		at = p->len;
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, e->uvid, offset(e, at, ok),
		    offset(e, at, fail));
		return;
	case TC_OWNUID:
	case TC_OWNGID:
		emit_load(e, OFF_ARG(c->arg));
		n = c->op == TC_OWNUID ? 1 : emit_ids->ngid;
		for (j = -1; j < n; j++) {
			at = p->len;
			emit(e, BPF_JMP | BPF_JEQ | BPF_K, j < 0 ? 0xffffffffu :
			    c->op == TC_OWNUID ? emit_ids->uid :
			    emit_ids->gid[j], offset(e, at, ok),
			    j == n - 1 ? offset(e, at, fail) : 0);
		}
		return;
	case TC_NOTNULL:
		/* either half nonzero matches */
		emit_load(e, OFF_ARG(c->arg));
		at = p->len;
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, offset(e, at, ok));
		emit_load(e, OFF_ARG(c->arg) + 4);
		at = p->len;
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, offset(e, at, fail),
		    offset(e, at, ok));
		return;
	}
	/* int arguments: the low 32 bits only, as the kernel reads them */
	if (any_bit(c)) {
		if (!loaded)
			emit_load(e, OFF_ARG(c->arg));
		at = p->len;
		emit(e, BPF_JMP | BPF_JSET | BPF_K, c->mask, offset(e, at, ok),
		    offset(e, at, fail));
		return;
	}
	if (!loaded) {
		emit_load(e, OFF_ARG(c->arg));
		if (c->mask != 0xffffffffu)
			emit(e, BPF_ALU | BPF_AND | BPF_K, c->mask, 0, 0);
	}
	for (n = value_runs(c, r), j = 0; j < n; j++) {
		/* where a value outside this run goes on */
		next = j == n - 1 ? fail : p->len + run_len(&r[j]);
		at = p->len;
		if (r[j].lo == r[j].hi) {
			emit(e, BPF_JMP | BPF_JEQ | BPF_K, r[j].lo,
			    offset(e, at, ok), offset(e, at, next));
		} else if (r[j].lo == 0) {
			emit(e, BPF_JMP | BPF_JGT | BPF_K, r[j].hi,
			    offset(e, at, next), offset(e, at, ok));
		} else if (r[j].hi - r[j].lo == 1) {
			emit(e, BPF_JMP | BPF_JEQ | BPF_K, r[j].lo,
			    offset(e, at, ok), 0);
			emit(e, BPF_JMP | BPF_JEQ | BPF_K, r[j].hi,
			    offset(e, at + 1, ok), offset(e, at + 1, next));
		} else {
			emit(e, BPF_JMP | BPF_JGE | BPF_K, r[j].lo, 0,
			    offset(e, at, next));
			emit(e, BPF_JMP | BPF_JGT | BPF_K, r[j].hi,
			    offset(e, at + 1, next), offset(e, at + 1, ok));
		}
	}
}

/* A leaf: its rows in order, each falling to the next, the last to the
 * fallback. */
static void
emit_leaf(struct emitter *e, const struct chunk *c, const struct leaf *l)
{
	struct conds rows[2], *r, *before;
	int i, k, start, next, ok, loaded;

	for (i = 0; i < l->nrows && !e->overflow; i++) {
		before = i == 0 ? NULL : &rows[(i - 1) % 2];
		r = &rows[i % 2];
		leaf_conds(l, i, r);
		start = e->p->len;
		next = i == l->nrows - 1 ? ret_at(e, c, l->fallback) :
		    start + row_len(before, r);
		for (k = 0; k < r->n; k++) {
			loaded = k == 0 && reuses_load(before, r);
			if (k + 1 == r->n)
				ok = ret_at(e, c, w->pool[l->first + i].ret);
			else
				ok = e->p->len + cond_len(r->c[k], loaded);
			emit_cond(e, r->c[k], loaded, ok, next);
		}
	}
}

/*
 * Ranges into regions.  A constant range followed by single numbers and
 * then the same constant again becomes one region, as long as its code
 * stays short; everything else is a region of one range.  The last range
 * below x32 reaches up to it, so it is never taken for a single number.
 */
#define REGION_MAXEXC	16		/* JEQs in one region */
#define REGION_MAXLEN	128		/* its instructions */

/*
 * Every number of a region walks its JEQs in the kernel's cache analysis
 * (3 ns a step here), while an instruction costs about 0.3 µs to attach:
 * a region stops growing once its numbers times its JEQs pass this.
 */
#define REGION_MAXWALK	400

/*
 * How far the planning lets a conditional jump reach: classic BPF's 8
 * bits.  The tests lower it, so that programs that fit in one chunk
 * today also take the paths a larger table would (a JGE tree over
 * several chunks, JA over a long left subtree).
 */
static int	 jump_reach = 255;

void
tame__compile_jump_reach(int n)
{
	jump_reach = n < 32 ? 32 : n > 255 ? 255 : n;
}

static int
single(int k)
{
	return k + 1 < w->nrg && w->rg[k + 1].lo - w->rg[k].lo == 1;
}

static void
build_regions(void)
{
	struct region *g;
	int i, j, k, nexc, len, width, below = 0;

	w->nreg = 0;
	for (i = 0; i < w->nrg; i = j) {
		g = &w->reg[w->nreg++];
		g->lo = w->rg[i].lo;
		g->first = (uint16_t)i;
		g->below = (uint16_t)below;
		j = i + 1;
		nexc = len = 0;
		width = w->rg[i].width;
		while (is_constant(&w->rg[i].leaf)) {
			int n = nexc, l = len, wd = width;

			for (k = j; k < w->nrg && single(k) && !same_constant(
			    &w->rg[k].leaf, &w->rg[i].leaf); k++) {
				n++;
				wd++;
				l += 1 + (is_constant(&w->rg[k].leaf) ? 0 :
				    leaf_len(&w->rg[k].leaf));
			}
			if (k == j || k >= w->nrg || n > REGION_MAXEXC ||
			    l > REGION_MAXLEN || l > jump_reach / 2 ||
			    !same_constant(&w->rg[k].leaf, &w->rg[i].leaf) ||
			    (wd + w->rg[k].width) * n > REGION_MAXWALK)
				break;
			nexc = n;
			len = l;
			width = wd + w->rg[k].width;
			j = k + 1;
		}
		g->n = (uint16_t)(j - i);
		for (k = i; k < j; k++)
			below += w->rg[k].width;
	}
	w->reg[w->nreg].below = (uint16_t)below;	/* for split() */
}

/* The ranges of a region other than its default, in the order tested. */
static int
exception(const struct region *g, int k)
{
	return k > 0 && !same_constant(&w->rg[g->first + k].leaf,
	    &w->rg[g->first].leaf);
}

/* A region's dispatch: a JEQ per exception (its leaves are shared). */
static int
region_len(const struct region *g)
{
	int k, len = 0;

	for (k = 1; k < g->n; k++)
		len += exception(g, k);
	return len;
}

/*
 * Where to split the regions [a, b]: where half the syscall numbers they
 * cover lie on each side, not half the regions.  At attach time the
 * kernel walks the program once per syscall number (its cache analysis),
 * so a wide run of refused numbers belongs near the root.
 */
static int
split(int a, int b)
{
	int lo = a + 1, hi = b, mid, half;

	half = (w->reg[a].below + w->reg[b + 1].below + 1) / 2;
	while (lo < hi) {		/* first mid with below >= half */
		mid = (lo + hi) / 2;
		if (w->reg[mid].below < half)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the boundary just below may balance better */
	if (lo > a + 1 &&
	    half - w->reg[lo - 1].below < w->reg[lo].below - half)
		lo--;
	return lo;
}

static int
chunk_len(int a, int b)
{
	int mid;

	if (a == b)
		return region_len(&w->reg[a]);
	mid = split(a, b);
	return 1 + chunk_len(a, mid - 1) + chunk_len(mid, b);
}

/* Add an answer to the chunk's RETs; 0 when there are too many. */
static int
chunk_add(struct chunk *c, uint32_t ret)
{
	int i;

	for (i = 0; i < c->nret && c->ret[i] != ret; i++)
		;
	if (i == c->nret) {
		if (c->nret == CHUNK_MAXRET)
			return 0;
		c->ret[c->nret++] = ret;
	}
	return 1;
}

/* Would two leaves compile to the same instructions? */
static int
leaf_same_code(const struct leaf *a, const struct leaf *b)
{
	const struct tame_cond *x, *y;
	struct conds ca, cb;
	int i, k;

	if (a->fallback != b->fallback || a->nrows != b->nrows)
		return 0;
	for (i = 0; i < a->nrows; i++) {
		if (w->pool[a->first + i].ret != w->pool[b->first + i].ret)
			return 0;
		leaf_conds(a, i, &ca);
		leaf_conds(b, i, &cb);
		if (ca.n != cb.n)
			return 0;
		for (k = 0; k < ca.n; k++) {
			x = ca.c[k];
			y = cb.c[k];
			if (x->op != y->op || x->arg != y->arg ||
			    x->mask != y->mask || x->nval != y->nval ||
			    memcmp(x->val, y->val, x->nval * sizeof(x->val[0])))
				return 0;
		}
	}
	return 1;
}

/* The chunk's copy of a leaf's code, or -1. */
static int
leaf_index(const struct chunk *c, const struct leaf *l)
{
	int i;

	for (i = 0; i < c->nleaf; i++)
		if (leaf_same_code(c->leaf[i], l))
			return i;
	return -1;
}

/* A leaf's answers and its code; 0 when the chunk has too many. */
static int
leaf_collect(struct chunk *c, const struct leaf *l)
{
	int i;

	for (i = 0; i < l->nrows; i++)
		if (!chunk_add(c, w->pool[l->first + i].ret))
			return 0;
	if (!chunk_add(c, l->fallback))
		return 0;
	if (is_constant(l) || leaf_index(c, l) != -1)
		return 1;
	if (c->nleaf == CHUNK_MAXLEAF)
		return 0;
	c->leaf[c->nleaf++] = l;
	return 1;
}

/* Every answer and leaf the regions [a, b] jump to. */
static int
chunk_collect(struct chunk *c, int a, int b)
{
	const struct region *g;
	int i, k;

	c->nret = c->nleaf = 0;
	for (i = a; i <= b; i++) {
		g = &w->reg[i];
		for (k = 0; k < g->n; k++)
			if ((k == 0 || exception(g, k)) &&
			    !leaf_collect(c, &w->rg[g->first + k].leaf))
				return 0;
	}
	return 1;
}

/* Where a jump to a region's answer (RET or shared leaf) goes. */
static int
target_of(struct emitter *e, const struct chunk *c, const struct leaf *l)
{
	int i;

	if (is_constant(l))
		return ret_at(e, c, l->fallback);
	if ((i = leaf_index(c, l)) == -1) {
		e->overflow = 1;	/* cannot happen: refuse, never guess */
		return 0;
	}
	return c->leaf_at[i];
}

/*
 * A region of several ranges: a JEQ per exception, arg-checked calls
 * first (they run at every call; the constants run only at attach time),
 * the last falling through to the default.
 */
static void
emit_region(struct emitter *e, const struct chunk *c, const struct region *g)
{
	struct tame_prog *p = e->p;
	const struct leaf *l;
	int pass, k, at, last = -1;

	for (pass = 0; pass < 2; pass++) {
		for (k = 1; k < g->n; k++) {
			l = &w->rg[g->first + k].leaf;
			if (!exception(g, k) || is_constant(l) != pass)
				continue;
			at = p->len;
			emit(e, BPF_JMP | BPF_JEQ | BPF_K,
			    w->rg[g->first + k].lo, 0, 0);
			if (e->overflow)
				return;
			p->insn[at].jt = offset(e, at, target_of(e, c, l));
			last = at;
		}
	}
	p->insn[last].jf = offset(e, last,
	    ret_at(e, c, w->rg[g->first].leaf.fallback));
}

/* A region that is one range needs no dispatch: jumps go to its answer. */
static int
region_direct(const struct region *g)
{
	return g->n == 1;
}

static void
chunk_node(struct emitter *e, const struct chunk *c, int a, int b)
{
	struct tame_prog *p = e->p;
	const struct region *left, *right;
	int mid, at;

	if (a == b) {
		if (!region_direct(&w->reg[a]))
			emit_region(e, c, &w->reg[a]);
		return;
	}
	mid = split(a, b);
	left = &w->reg[a];
	right = &w->reg[mid];
	at = p->len;
	emit(e, BPF_JMP | BPF_JGE | BPF_K, right->lo, 0, 0);
	if (e->overflow)
		return;
	if (a == mid - 1 && region_direct(left))
		p->insn[at].jf = offset(e, at,
		    target_of(e, c, &w->rg[left->first].leaf));
	else
		chunk_node(e, c, a, mid - 1);
	if (e->overflow)
		return;
	if (mid == b && region_direct(right)) {
		p->insn[at].jt = offset(e, at,
		    target_of(e, c, &w->rg[right->first].leaf));
	} else {
		p->insn[at].jt = (uint8_t)(p->len - at - 1);
		chunk_node(e, c, mid, b);
	}
}

/* The chunk over [a, b], or 0 when it would not fit in 8-bit jumps. */
static int
emit_chunk(struct emitter *e, int a, int b)
{
	struct chunk c;
	int i, at = e->p->len + chunk_len(a, b);

	if (!chunk_collect(&c, a, b))
		return 0;
	for (i = 0; i < c.nleaf; i++) {
		c.leaf_at[i] = at;
		at += leaf_len(c.leaf[i]);
	}
	c.rets_at = at;
	if (at + c.nret - e->p->len > jump_reach)
		return 0;
	chunk_node(e, &c, a, b);
	for (i = 0; i < c.nleaf && !e->overflow; i++) {
		if (e->p->len != c.leaf_at[i])
			e->overflow = 1;	/* the plan was wrong: refuse */
		emit_leaf(e, &c, c.leaf[i]);
	}
	for (i = 0; i < c.nret; i++)
		emit_ret(e, c.ret[i]);
	return 1;
}

/*
 * Emit the search over regions [a, b]: a chunk when it is short enough,
 * else a JGE whose right subtree follows the left one; when the left is
 * too long for an 8-bit jump, a JA (32-bit offset) hops over it, which
 * the kernel's cache analysis follows as well.
 */
static void
emit_tree(struct emitter *e, int a, int b)
{
	struct tame_prog *p = e->p;
	int at, left, mid, i;

	if (e->overflow || emit_chunk(e, a, b))
		return;
	if (a == b) {
		e->overflow = 1;	/* one region longer than a chunk */
		return;
	}
	mid = split(a, b);
	at = p->len;
	emit(e, BPF_JMP | BPF_JGE | BPF_K, w->reg[mid].lo, 0, 0);
	emit_tree(e, a, mid - 1);
	if (e->overflow)
		return;
	left = p->len - at - 1;
	if (left <= jump_reach) {
		p->insn[at].jt = (uint8_t)left;
	} else {
		if (p->len >= TAME_MAXINSN) {
			e->overflow = 1;
			return;
		}
		memmove(&p->insn[at + 2], &p->insn[at + 1],
		    left * sizeof(p->insn[0]));
		p->len++;
		for (i = 0; i < p->nreloc; i++)	/* they moved too */
			if (p->reloc[i].at > at)
				p->reloc[i].at++;
		p->insn[at].jt = 0;
		p->insn[at].jf = 1;
		p->insn[at + 1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
		    (uint32_t)left, 0, 0);
	}
	emit_tree(e, mid, b);
}

uint32_t
tame_audit_arch(void)
{
	return AUDIT_ARCH_NATIVE;
}

/*
 * Does any row of call nr (by_nr[lo, hi)) apply under one of two held
 * sets and not the other?  If none does, and nothing else a leaf hangs
 * on differs (same_context in tame_compile), the call's leaf is the same
 * for both, and building the two to compare them can be skipped.  Only
 * a row that names a flag held in one set alone can differ.
 */
static int
rows_differ(int nr, int lo, int hi, tame_atoms a, tame_atoms b)
{
	const struct tame_rule *r;

	if ((named_by_rows[nr] & (a ^ b)) == 0)
		return 0;
	for (; lo < hi; lo++) {
		r = &tame_rules[w->by_nr[lo]];
		if (tame_rule_applies(r, a) != tame_rule_applies(r, b))
			return 1;
	}
	return 0;
}

/* One number's answer, as a new range or a wider last one. */
static int
add_number(int nr, const struct leaf *l)
{
	struct range *last = w->nrg > 0 ? &w->rg[w->nrg - 1] : NULL;

	if (last != NULL && same_constant(l, &last->leaf)) {
		last->width++;
		return 0;
	}
	if (carve(&w->rg[w->nrg + 1], 0) == NULL)
		return -1;
	last = &w->rg[w->nrg++];
	last->lo = (uint32_t)nr;
	last->width = 1;
	last->leaf = *l;
	return 0;
}

/* A call's leaf for t, split or not. */
static void
any_leaf_build(struct leaf *l, int nr, int lo, int hi,
    const struct tame_target *t)
{
	if (t->split != TAME_SPLIT_NONE)
		split_leaf_build(l, nr, lo, hi, t);
	else
		leaf_build(l, lo, hi, t);
}

/*
 * Does call nr's answer hang on the held atoms themselves, beyond which
 * rows apply?  The supervisor's (TC_WITHIN compares a claim with them):
 * a delta must check it against its own held set, never leave it to an
 * older filter's wider one.
 */
static int
held_dependent(int nr)
{
	int i, k;

	for (i = rows_at[nr]; i < rows_at[nr + 1]; i++)
		for (k = 0; k < TAME_MAXCOND; k++)
			if (tame_rules[w->by_nr[i]].cond[k].op == TC_WITHIN)
				return 1;
	return 0;
}

/*
 * The leaf of call nr for next, as a delta over prev where prev is not
 * NULL: a call both answer alike is allowed at once (the older filter
 * answers it).  Adds it to the ranges; -1 when the arena is full.
 */
static int
number_leaf(int nr, const struct tame_target *next,
    const struct tame_target *prev, int same_context, struct tame_prog *out)
{
	struct leaf l, old;
	int lo = rows_at[nr], hi = rows_at[nr + 1], mark;
	int dependent = prev != NULL && prev->held != next->held &&
	    held_dependent(nr);

	if (same_context && !dependent && !rows_differ(nr, lo, hi,
	    next->held, prev->held)) {
		/* the older filter already answers this call */
		l.first = (uint16_t)w->npool;
		l.nrows = 0;
		l.fallback = SECCOMP_RET_ALLOW;
		return add_number(nr, &l);
	}
	any_leaf_build(&l, nr, lo, hi, next);
	if (prev != NULL) {
		mark = w->npool;
		any_leaf_build(&old, nr, lo, hi, prev);
		w->npool = mark;
		/*
		 * Alike only for the same process: the older filter may be
		 * a parent's, made for its pid.
		 */
		if (!dependent && leaf_equal(&l, &old) && (same_process(prev,
		    next) || !leaf_asks_self(&l))) {
			/* the older filter already answers this call */
			w->npool = l.first;
			l.nrows = 0;
			l.fallback = SECCOMP_RET_ALLOW;
		} else
			out->changed++;
	}
	if (w->npool > SPLIT_POOL)
		return -1;		/* an exec split too large */
	return add_number(nr, &l);
}

int
tame_compile(const struct tame_target *next, const struct tame_target *prev,
    struct tame_prog *out)
{
	/* a split's claims may name either set's atoms (supervisor.h) */
	struct emitter e = { out, next->pid, next->held |
	    (next->split != TAME_SPLIT_NONE ? next->exec_held &
	    ~TAME__INTERNAL : 0), next->uvid, 0 };
	struct leaf l;
	int nr;
	/* numbers at and above this one share the last range before x32 */
	int limit = tame_syscall_max() + 2;
	/*
	 * A delta whose leaves hang on the held flags alone: the same
	 * process, the same Landlock state, the same violation answer.
	 */
	int same_context = prev != NULL && same_process(prev, next) &&
	    prev->pid > 0 && prev->landlock_ok == next->landlock_ok &&
	    !tame_unrestricted(prev->held) && !tame_unrestricted(next->held) &&
	    tame_violation_ret(prev->held) == tame_violation_ret(next->held);

	if (limit >= TAME_ASK_NR || tame_nrules > MAXRULES) {
		errno = E2BIG;		/* raise MAXNR or MAXRULES */
		return -1;
	}
	/*
	 * Write before reading: a read first maps the zero page, and the
	 * write after it faults a second time.
	 */
	w->npool = w->nrg = 0;
	emit_ids = next->ids;
	out->changed = prev == NULL;
	index_rows();
	w->pool = carve(w->by_nr + w->nby_nr, 0);
	w->rg = carve(w->pool + (next->split != TAME_SPLIT_NONE ||
	    (prev != NULL && prev->split != TAME_SPLIT_NONE) ? SPLIT_POOL :
	    w->pool_max), 0);
	for (nr = 0; nr < limit; nr++)
		if (number_leaf(nr, next, prev, same_context, out) == -1)
			goto toobig;
	/*
	 * The supervisor's number, and the refused ones after it, as ranges
	 * of no width the kernel walks: its cache covers the real calls.
	 */
	for (nr = TAME_ASK_NR; nr <= TAME_ASK_NR + 1; nr++) {
		if (number_leaf(nr, next, prev, same_context, out) == -1)
			goto toobig;
		if (w->rg[w->nrg - 1].lo >= TAME_ASK_NR)
			w->rg[w->nrg - 1].width = 0;
	}
#ifdef X32_SYSCALL_BIT
	/*
	 * x32 numbers (bit 30 set) die.  As the tree's last range, of no
	 * width the kernel walks, the check costs attach time nothing.
	 */
	l.fallback = SECCOMP_RET_KILL_PROCESS;
	l.nrows = 0;
	if (add_number(X32_SYSCALL_BIT, &l) == -1)
		goto toobig;
	w->rg[w->nrg - 1].width = 0;
#endif
	w->reg = carve(w->rg + w->nrg, (w->nrg + 1) * sizeof(struct region));
	if (w->reg == NULL)
		goto toobig;
	build_regions();

	out->len = out->nreloc = 0;
	emit_load(&e, OFF_ARCH);
	emit(&e, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0);
	emit_ret(&e, SECCOMP_RET_KILL_PROCESS);
	emit_load(&e, OFF_NR);
	emit_tree(&e, 0, w->nreg - 1);
	if (!e.overflow)
		return 0;
toobig:
	errno = E2BIG;
	return -1;
}

void
tame_prog_relocate(struct tame_prog *p, int pid)
{
	int i;

	for (i = 0; i < p->nreloc; i++)
		if (p->reloc[i].kind == TAME_RELOC_PID)
			p->insn[p->reloc[i].at].k = (uint32_t)pid;
}
