/* SPDX-License-Identifier: ISC */
/*
 * emulate.c: the trapped calls the SIGSYS handler answers itself.
 *
 * The filter traps a call (TA_EMULATE) when its registers cannot tell
 * whether it is allowed: a path, a signal's target, an attribute name, a
 * message's ancillary data.  Here the handler reads what the filter
 * could not, once, into its own memory, and decides (verdict.c:
 * tame__trap_allows).  What it then does is only what any code of the
 * process could do: the handler has no standing the filter knows of.
 *
 *	a granted path	opened again with the marker (policy.h), where a
 *			Landlock layer judges it as it judges every marked
 *			open; without a layer, or for what Landlock does not
 *			judge (O_PATH, a symbolic link itself), the
 *			supervisor makes it (supervisor.h), or it fails with
 *			EACCES where there is none
 *	a signal mask	set in the context the handler returns to: no call
 *	an action	set again with SIGSYS out of its mask, marked
 *	tkill		made as tgkill of this process
 *	an attribute	set by the supervisor, which reads the name once
 *
 * A call it will not make goes back to the table's later rows (a soft
 * denial) or is a violation.  Each function returns 0 with the call's
 * result (or -errno) in *ret, or -1 when the handler refuses the call.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"

/*
 * Copy argument i, a path, into the call's buffer.  Returns 0, or -1
 * with the error the kernel would give (EFAULT, ENAMETOOLONG) as the
 * result.
 */
static int
fetch_path(struct tame_call *c, int i, long *ret)
{
	long n = tame__copy_str(c->buf, sizeof(c->buf), c->a[i]);

	if (n < 0) {
		*ret = n;
		return -1;
	}
	c->path_arg = i;
	c->path = c->buf;
	return 0;
}

/* Does a Landlock layer judge the marked calls (policy.c, TA_LANDLOCK)? */
static int
layered(void)
{
	return tame__state.landlock_ok == 1;
}

/*
 * The supervisor makes the trapped call c as the caller's atoms allow;
 * without one, EACCES, as for a path nothing can confine.  Returns 0
 * with the result in *ret, or -1 when the supervisor found a violation.
 */
static int
by_supervisor(struct tame_call *c, long *ret)
{
	struct tame_ask q;

	memset(&q, 0, sizeof(q));
	q.nr = c->nr;
	memcpy(q.a, c->a, sizeof(q.a));
	*ret = tame__ask(TAME_ASK_CALL, &q);
	if (*ret == -ENOSYS && !tame__supervised()) {
		*ret = -EACCES;
		return 0;
	}
	if (q.verdict == TAME_VERDICT_VIOLATION) {
		memcpy(c->detail_buf, q.detail, sizeof(q.detail));
		c->detail_buf[sizeof(c->detail_buf) - 1] = '\0';
		c->detail = c->detail_buf[0] != '\0' ? c->detail_buf : NULL;
		c->need = q.need;
		return -1;
	}
	return 0;
}

/* open, openat, creat: a read of a granted file, or a change in /tmp. */
static int
open_call(tame_atoms held, struct tame_call *c, long *ret)
{
	int at = c->nr == SYS_openat, flags;
	long mode;

#ifdef SYS_creat
	if (c->nr == SYS_creat) {
		flags = O_CREAT | O_WRONLY | O_TRUNC;
		mode = (long)c->a[1];
	} else
#endif
	{
		flags = (int)c->a[at + 1];
		mode = (long)c->a[at + 2];
	}
	if (fetch_path(c, at, ret) == -1)
		return 0;
	if (!tame__trap_allows(held, c->nr, c->a, &(struct tame_seen){
	    .path = c->path }))
		return -1;
	if ((flags & O_PATH) || !layered())
		return by_supervisor(c, ret);
	*ret = tame__sys(SYS_openat, AT_FDCWD, (long)c->path, flags, mode,
	    TAME_MARK, 0);
	return 0;
}

/* unlink, rmdir, mkdir and their *at forms: beneath /tmp only. */
static int
name_call(tame_atoms held, struct tame_call *c, long *ret)
{
	int at = c->nr == SYS_unlinkat || c->nr == SYS_mkdirat;

	if (fetch_path(c, at, ret) == -1)
		return 0;
	if (!tame__trap_allows(held, c->nr, c->a, &(struct tame_seen){
	    .path = c->path }))
		return -1;
	if (!layered())
		return by_supervisor(c, ret);
	switch (c->nr) {
	case SYS_unlinkat:
		*ret = tame__sys(SYS_unlinkat, AT_FDCWD, (long)c->path,
		    (long)c->a[2], TAME_MARK, 0, 0);
		return 0;
	case SYS_mkdirat:
		*ret = tame__sys(SYS_mkdirat, AT_FDCWD, (long)c->path,
		    (long)c->a[2], TAME_MARK, 0, 0);
		return 0;
#ifdef SYS_unlink
	case SYS_unlink:
		*ret = tame__sys(SYS_unlinkat, AT_FDCWD, (long)c->path, 0,
		    TAME_MARK, 0, 0);
		return 0;
	case SYS_rmdir:
		*ret = tame__sys(SYS_unlinkat, AT_FDCWD, (long)c->path,
		    AT_REMOVEDIR, TAME_MARK, 0, 0);
		return 0;
	case SYS_mkdir:
		*ret = tame__sys(SYS_mkdirat, AT_FDCWD, (long)c->path,
		    (long)c->a[1], TAME_MARK, 0, 0);
		return 0;
#endif
	}
	return -1;
}

/*
 * A stat of a granted path, as Landlock judges it: the handler opens it
 * for reading, marked, which the layer allows only for a granted file
 * wherever symbolic links lead, and stats the descriptor.  A socket
 * cannot be opened, and lstat() asks about the name itself, which no
 * open shows: both are the supervisor's.
 */
static long
stat_granted(struct tame_call *c, int flags, uint64_t buf)
{
	long fd, r;

	if ((flags & AT_SYMLINK_NOFOLLOW) || !layered())
		return LONG_MIN;
	fd = tame__sys(SYS_openat, AT_FDCWD, (long)c->path, O_RDONLY |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0, TAME_MARK, 0);
	if (fd == -ENXIO)
		return LONG_MIN;
	if (fd < 0)
		return fd;
	r = tame__sys(SYS_fstat, fd, (long)buf, TAME_MARK, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return r;
}

/*
 * newfstatat: fstat() in glibc's spelling under RW, or a stat of a
 * granted file (glibc's tzset() on every localtime()).
 */
static int
stat_call(tame_atoms held, struct tame_call *c, long *ret)
{
	int flags = (int)c->a[3];

	if ((flags & AT_EMPTY_PATH) && c->a[1] == 0) {
		c->buf[0] = '\0';	/* Linux 6.11+: NULL means "" */
		c->path = c->buf;
		c->path_arg = 1;
	} else if (fetch_path(c, 1, ret) == -1)
		return 0;
	if (!tame__trap_allows(held, c->nr, c->a, &(struct tame_seen){
	    .path = c->path }))
		return -1;
	if ((flags & AT_EMPTY_PATH) && c->path[0] == '\0') {
		*ret = tame__sys(SYS_fstat, (long)c->a[0], (long)c->a[2],
		    TAME_MARK, 0, 0, 0);
		return 0;
	}
	if ((*ret = stat_granted(c, flags, c->a[2])) == LONG_MIN)
		return by_supervisor(c, ret);
	return 0;
}

/*
 * statx: callers fall back to fstat and stat on ENOSYS, which the
 * handler then checks; a path nothing grants is a violation here.
 */
static int
statx_call(tame_atoms held, struct tame_call *c, long *ret)
{
	int flags = (int)c->a[2];

	if ((flags & AT_EMPTY_PATH) && c->a[1] == 0) {
		*ret = -ENOSYS;
		return 0;
	}
	if (fetch_path(c, 1, ret) == -1)
		return 0;
	if (!tame__trap_allows(held, c->nr, c->a, &(struct tame_seen){
	    .path = c->path }))
		return -1;
	*ret = -ENOSYS;
	return 0;
}

/*
 * tkill: a thread of this process only.  Made as tgkill of this process,
 * which the filter allows (TC_SELF) and the kernel refuses with ESRCH
 * for a thread of any other.
 */
static int
signal_call(struct tame_call *c, long *ret)
{
	long pid = tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);

	*ret = tame__sys(SYS_tgkill, pid, (long)c->a[0], (long)c->a[1], 0, 0,
	    0);
	return 0;
}

/*
 * set/remove xattr: the name decides (user.* and POSIX ACLs), and a name
 * is memory another thread can rewrite between a look and the call: the
 * supervisor reads it once and makes the call from its copy.  The
 * handler's look is for the report only.
 */
static int
xattr_call(struct tame_call *c, long *ret)
{
	char name[256];
	long n;

	if ((n = tame__copy_str(name, sizeof(name), c->a[1])) < 0) {
		*ret = n == -ENAMETOOLONG ? -ERANGE : n;
		return 0;
	}
	if (!tame__trap_allows(tame__state.held, c->nr, c->a,
	    &(struct tame_seen){ .name = name }))
		return -1;
	return by_supervisor(c, ret);
}

/*
 * rt_sigprocmask that may block: the new mask, less SIGSYS, is the one
 * the thread gets back when the handler returns (its context's mask):
 * no call is made.  As the kernel, it reads the set before it writes
 * the old one, and SIGKILL and SIGSTOP are never blocked.
 */
static int
mask_call(struct tame_call *c, long *ret)
{
	uint64_t set, old = *c->mask, now;
	uint64_t never = ((uint64_t)1 << (SIGKILL - 1)) |
	    ((uint64_t)1 << (SIGSTOP - 1));

	if (c->a[3] != sizeof(set)) {
		*ret = -EINVAL;
		return 0;
	}
	if ((*ret = tame__copy_in(&set, c->a[1], sizeof(set))) != 0)
		return 0;
	now = (int)c->a[0] == SIG_BLOCK ? old | set : set;
	if (c->a[2] != 0) {
		if (!tame__writable(c->a[2], sizeof(old))) {
			*ret = -EFAULT;
			return 0;
		}
		*(volatile uint64_t *)(uintptr_t)c->a[2] = old;
	}
	*c->mask = now & ~never & ~TAME_SIGSYS_BIT;
	*ret = 0;
	return 0;
}

/*
 * rt_sigaction with a new action: the same action with SIGSYS out of
 * the mask its handler runs under, set by a marked call.
 */
static int
action_call(struct tame_call *c, long *ret)
{
	struct tame_ksigaction act;
	long newact = (long)c->a[1];

	if (c->a[3] == sizeof(act.mask)) {	/* else the kernel's EINVAL */
		if ((*ret = tame__copy_in(&act, c->a[1], sizeof(act))) != 0)
			return 0;
		act.mask &= ~TAME_SIGSYS_BIT;
		newact = (long)&act;
	}
	*ret = tame__sys(SYS_rt_sigaction, (long)c->a[0], newact,
	    (long)c->a[2], (long)c->a[3], TAME_MARK, 0);
	return 0;
}

/*
 * A call unveil's lock traps (policy.c, the UNVEILED rows): the
 * supervisor checks the path against the rules and makes it
 * (sup_unveil.c).  fstat's spelling names no path and is made here; a
 * chdir comes back as a descriptor of the directory to move to.
 */
static int
unveiled_call(struct tame_call *c, long *ret)
{
	long fd;

	if (c->nr == SYS_newfstatat && ((int)c->a[3] & AT_EMPTY_PATH) &&
	    (int)c->a[0] != AT_FDCWD) {
		if (c->a[1] == 0)
			c->buf[0] = '\0';
		else if (fetch_path(c, 1, ret) == -1)
			return 0;
		if (c->buf[0] == '\0') {
			*ret = tame__sys(SYS_fstat, (long)c->a[0],
			    (long)c->a[2], TAME_MARK, 0, 0, 0);
			return 0;
		}
	}
	if (by_supervisor(c, ret) == -1)
		return -1;
	if (c->nr == SYS_chdir && *ret >= 0) {
		fd = *ret;
		*ret = tame__sys(SYS_fchdir, fd, 0, 0, 0, 0, 0);
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	}
	return 0;
}

/* Is the call's first row one of unveil's? */
static int
unveil_row(tame_atoms held, const struct tame_call *c)
{
	int row;

	if (!(held & TAME__UNVEILED))
		return 0;
	row = tame_policy_match(held, c->nr, c->a, TAME_ORIGIN(0));
	return row >= 0 && (tame_rules[row].all & TAME__UNVEILED) &&
	    tame_rules[row].action == TA_EMULATE;
}

int
tame__emulate(tame_atoms held, struct tame_call *c, long *ret)
{
	if (unveil_row(held, c))
		return unveiled_call(c, ret);
	switch (c->nr) {
	case SYS_rt_sigprocmask:
		return mask_call(c, ret);
	case SYS_rt_sigaction:
		return action_call(c, ret);
	case SYS_openat:
#ifdef SYS_open
	case SYS_open:
	case SYS_creat:
#endif
		return open_call(held, c, ret);
	case SYS_unlinkat:
	case SYS_mkdirat:
#ifdef SYS_unlink
	case SYS_unlink:
	case SYS_rmdir:
	case SYS_mkdir:
#endif
		return name_call(held, c, ret);
	case SYS_newfstatat:
		return stat_call(held, c, ret);
	case SYS_statx:
		return statx_call(held, c, ret);
	case SYS_tkill:
		return signal_call(c, ret);
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_fsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
	case SYS_fremovexattr:
		return xattr_call(c, ret);
	case SYS_sendmsg:
	case SYS_sendmmsg:
	case SYS_recvmsg:
	case SYS_recvmmsg:
	case SYS_socketpair:
		return tame__cmsg_emulate(held, c, ret);
	}
	return -1;
}
