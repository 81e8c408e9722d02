/* SPDX-License-Identifier: ISC */
/*
 * report.c: the violation line, and what would have allowed the call.
 *
 *	cat[123]: tame: openat "/etc/hostname" O_RDONLY needs rpath
 *	prog[45]: tame: sendmsg SCM_RIGHTS needs cmsg
 *	prog[45]: tame: ioctl TIOCSTI is not allowed after tame()
 *
 * One line on stderr, written through libtame's own syscall instruction
 * (the only place a process without RW may write to descriptor 2), then
 * the process dies of SIGSYS.  Async-signal-safe throughout.
 */
#include <sys/syscall.h>

#include <signal.h>
#include <stdint.h>

#include "gate.h"
#include "policy.h"
#include "tame_int.h"

/* "rpath+wpath" for the flags in set, in man page order. */
static void
put_flags(struct tame_line *l, int set)
{
	const char *sep = "";
	int i;

	for (i = 0; i < tame_nflagnames; i++) {
		if ((tame_flagnames[i].flag & set) == 0 ||
		    tame_flagnames[i].flag == TAME_STDIO)
			continue;
		tame__put(l, sep);
		tame__put(l, tame_flagnames[i].name);
		sep = "+";
	}
}

static int
add_alt(int *alts, int n, int max, int alt)
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
 * single flag (plus the companions its row needs).  A soft denial counts:
 * with its flag the call fails gently and the program goes on.  For a
 * call the handler checks by path, the flags whose paths hold this one
 * count, so a read of /etc/passwd "needs rpath or getpw" and a write in
 * /tmp "needs wpath or tmppath", but a write elsewhere only wpath.
 */
int
tame__missing(int held, int nr, const uint64_t args[6], const char *path,
    int *alts, int max)
{
	const struct tame_rule *r;
	int i, n = 0, need, bit, rights, grantors, wider;
	int pid = (int)tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0);

	rights = tame__path_rights(nr, args, path);
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr != nr || r->action == TA_DENY ||
		    !tame_rule_args_match(r, args, TAME_ORIGIN(pid)))
			continue;
		if (r->all & ~held & TAME__INTERNAL)
			continue;	/* state no flag can bring back */
		need = r->all & ~held;
		if (r->action == TA_EMULATE && rights != 0) {
			grantors = tame__path_grantors(path, rights) & ~held;
			for (bit = 1; bit <= TAME_PROC; bit <<= 1) {
				wider = held | tame_expand(bit);
				if ((grantors & bit) && tame_rule_applies(r, wider))
					n = add_alt(alts, n, max,
					    (r->all & ~wider) | bit);
			}
			continue;
		}
		if (r->any & (TAME__BASE | TAME__ALWAYS))
			continue;	/* held already, or tame(0) */
		for (bit = 1; bit <= TAME_PROC; bit <<= 1)
			if (r->any & bit)
				n = add_alt(alts, n, max,
				    need | ((held & r->any) ? 0 : bit));
	}
	return n;
}

/*
 * Drop an alternative that holds another one: "unix" says all that
 * "cmsg" (which implies unix) would.
 */
static int
minimal(int *alts, int n)
{
	int i, j, k = 0, a, b, covered;

	for (i = 0; i < n; i++) {
		a = tame_expand(alts[i]) & TAME_ALL;
		for (covered = 0, j = 0; j < n && !covered; j++) {
			b = tame_expand(alts[j]) & TAME_ALL;
			covered = j != i && (b & ~a) == 0 && (b != a || j < i);
		}
		if (!covered)
			alts[k++] = alts[i];
	}
	return k;
}

void
tame__violation(const struct tame_call *c)
{
	struct tame_line l = { .len = 0 };
	int alts[8], i, n;

	if (c->detail != NULL) {
		alts[0] = c->need;
		n = c->need != 0;
	} else
		n = minimal(alts, tame__missing(tame__state.held, c->nr, c->a,
		    c->path, alts, 8));
	tame__put(&l, tame__state.progname);
	tame__put(&l, "[");
	tame__put_num(&l, tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0));
	tame__put(&l, "]: tame: ");
	tame__describe(&l, c);
	tame__put(&l, n == 0 ? " is not allowed after tame()" : " needs ");
	for (i = 0; i < n; i++) {
		if (i > 0)
			tame__put(&l, " or ");
		put_flags(&l, alts[i]);
	}
	tame__put(&l, "\n");
	tame__gate(SYS_write, 2, (long)l.buf, (long)l.len, 0, 0, 0);
}
