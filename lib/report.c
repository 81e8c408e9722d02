/* SPDX-License-Identifier: ISC */
/*
 * report.c: the violation line, and what would have allowed the call.
 *
 *	cat[123]: tame: openat "/etc/hostname" O_RDONLY needs rpath
 *	prog[45]: tame: sendmsg SCM_RIGHTS needs cmsg
 *	prog[45]: tame: ioctl TIOCSTI is not allowed after tame()
 *
 * One line on stderr where the process may write (RW), then the process
 * dies of SIGSYS; the kernel's audit log records the death either way
 * (handler.c).  Async-signal-safe throughout.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "sys.h"
#include "policy.h"
#include "tame_int.h"

/*
 * The words a line speaks in: tame's flags (word i is the flag 1 << i,
 * with every atom it implies) or, once the process pledged, pledge's
 * promises (word i is tame_promises[i]).  Sets of words are bit sets.
 */
static int
nwords(int pledged)
{
	return pledged ? tame_npromises : 13;
}

static tame_atoms
word_atoms(int pledged, int i)
{
	if (pledged)
		return tame_promises[i].atoms;
	return tame_expand(1 << i) & ~TAME__INTERNAL;
}

static const char *
word_name(int pledged, int i)
{
	return pledged ? tame_promises[i].name : tame_flag_name(1 << i);
}

/* The first word holding each atom of need: "what a row also needs". */
static uint64_t
words_for(int pledged, tame_atoms need)
{
	uint64_t set = 0;
	int i, b;

	for (b = 0; b < 64; b++) {
		if (!(need & ((tame_atoms)1 << b)))
			continue;
		for (i = 0; i < nwords(pledged); i++)
			if (word_atoms(pledged, i) & ((tame_atoms)1 << b)) {
				set |= (uint64_t)1 << i;
				break;
			}
	}
	return set;
}

static tame_atoms
words_atoms(int pledged, uint64_t set)
{
	tame_atoms atoms = 0;
	int i;

	for (i = 0; i < nwords(pledged); i++)
		if (set & ((uint64_t)1 << i))
			atoms |= word_atoms(pledged, i);
	return atoms;
}

/* "rpath+wpath" for the words in set, in table order. */
static void
put_words(struct tame_line *l, int pledged, uint64_t set)
{
	const char *sep = "";
	int i;

	for (i = 0; i < nwords(pledged); i++) {
		if (!(set & ((uint64_t)1 << i)))
			continue;
		tame__put(l, sep);
		tame__put(l, word_name(pledged, i));
		sep = "+";
	}
}

static int
add_alt(uint64_t *alts, int n, int max, uint64_t alt)
{
	int j;

	if (alt == 0)
		return n;
	for (j = 0; j < n && alts[j] != alt; j++)
		;
	if (j == n && n < max)
		alts[n++] = alt;
	return n;
}

/*
 * Each way held could be widened to allow the call: one entry per
 * single word (plus the companions its row needs).  A soft denial counts:
 * with its word the call fails gently and the program goes on.  For a
 * call the handler checks by path, the words whose paths hold this one
 * count, so a read of /etc/passwd "needs rpath or getpw" and a write in
 * /tmp "needs wpath or tmppath", but a write elsewhere only wpath.
 */
int
tame__missing(tame_atoms held, int pledged, int nr, const uint64_t args[6],
    const char *path, uint64_t *alts, int max)
{
	const struct tame_rule *r;
	tame_atoms grantors, wider, wa;
	uint64_t need;
	int i, w, n = 0, rights;
	int pid = (int)tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);
	struct tame_ids ids;

	tame__own_ids(&ids);
	rights = tame__path_rights(nr, args, path);
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr != nr || r->action == TA_DENY ||
		    !tame_rule_args_match(r, args, TAME_ORIGIN_IDS(pid, &ids)))
			continue;
		if (r->all & ~held & TAME__INTERNAL)
			continue;	/* state no word can bring back */
		if (r->action == TA_EMULATE && rights != 0) {
			grantors = tame__path_grantors(path, rights) & ~held;
			for (w = 0; w < nwords(pledged); w++) {
				wa = word_atoms(pledged, w);
				wider = held | wa | TAME__BASE;
				if ((grantors & wa) && tame_rule_applies(r, wider))
					n = add_alt(alts, n, max, words_for(
					    pledged, r->all & ~wider) |
					    (uint64_t)1 << w);
			}
			continue;
		}
		if (r->any & (TAME__BASE | TAME__ALWAYS))
			continue;	/* held already, or tame(0) */
		need = words_for(pledged, r->all & ~held);
		for (w = 0; w < nwords(pledged); w++)
			if (r->any & word_atoms(pledged, w))
				n = add_alt(alts, n, max, need |
				    ((held & r->any) ? 0 : (uint64_t)1 << w));
	}
	return n;
}

/*
 * Drop an alternative that holds another one: "unix" says all that
 * "cmsg" (which implies unix) would.
 */
static int
minimal(int pledged, uint64_t *alts, int n)
{
	tame_atoms a, b;
	int i, j, k = 0, covered;

	for (i = 0; i < n; i++) {
		a = words_atoms(pledged, alts[i]);
		for (covered = 0, j = 0; j < n && !covered; j++) {
			b = words_atoms(pledged, alts[j]);
			covered = j != i && (b & ~a) == 0 && (b != a || j < i);
		}
		if (!covered)
			alts[k++] = alts[i];
	}
	return k;
}

void
tame__violation_line(struct tame_line *l, const struct tame_call *c,
    const char *prog, long pid, tame_atoms held, int pledged)
{
	uint64_t alts[8];
	int i, n;

	if (c->detail != NULL) {
		alts[0] = words_for(pledged, c->need);
		n = alts[0] != 0;
	} else
		n = minimal(pledged, alts, tame__missing(held, pledged, c->nr,
		    c->a, c->path, alts, 8));
	tame__put(l, prog);
	tame__put(l, "[");
	tame__put_num(l, pid);
	tame__put(l, pledged ? "]: pledge: " : "]: tame: ");
	tame__describe(l, c);
	if (n == 0 && (held & TAME__FREE))	/* not pledged: unveil's */
		tame__put(l, " is not allowed under unveil()");
	else if (n == 0)
		tame__put(l, pledged ? " is not allowed after pledge()" :
		    " is not allowed after tame()");
	else
		tame__put(l, pledged ? " needs promise " : " needs ");
	for (i = 0; i < n; i++) {
		if (i > 0)
			tame__put(l, " or ");
		put_words(l, pledged, alts[i]);
	}
	if (held & TAME__ERROR)
		tame__put(l, ": ENOSYS (error)");
	tame__put(l, "\n");
}

void
tame__violation(const struct tame_call *c)
{
	struct tame_line l = { .len = 0 };

	tame__violation_line(&l, c, tame__state.progname,
	    tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0), tame__state.held,
	    tame__state.pledged);
	tame__say(&l);
}

/*
 * A line on stderr changes nothing else: the process dies of SIGSYS, or
 * under pledge's error goes on, as it would have with stderr open.  A
 * write to a pipe nobody reads raises SIGPIPE, whose default action
 * would end the process before the call is repeated (death by SIGPIPE,
 * which a shell's pipeline takes for a normal end); so SIGPIPE is
 * blocked around the write, and one the write itself raised is taken
 * back before the mask is.  One already pending is the program's: left.
 */
void
tame__say(const struct tame_line *l)
{
	const uint64_t pipe = (uint64_t)1 << (SIGPIPE - 1);
	uint64_t old, pending = 0;
	struct timespec no_wait = { 0, 0 };

	/* write(2) is RW's: without it the line would be a violation too */
	if (tame__state.tamed && !(tame__state.held & TAME_RW))
		return;
	tame__sys(SYS_rt_sigprocmask, SIG_BLOCK, (long)&pipe, (long)&old,
	    sizeof(pipe), TAME_MARK, 0);
	tame__sys(SYS_rt_sigpending, (long)&pending, sizeof(pending), 0, 0,
	    0, 0);
	if (tame__sys(SYS_write, 2, (long)l->buf, (long)l->len, 0, 0, 0) ==
	    -EPIPE && !(pending & pipe))
		tame__sys(SYS_rt_sigtimedwait, (long)&pipe, 0, (long)&no_wait,
		    sizeof(pipe), 0, 0);
	tame__sys(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0,
	    sizeof(old), TAME_MARK, 0);
}
