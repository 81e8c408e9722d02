/* SPDX-License-Identifier: ISC */
/*
 * emulate.c: the trapped calls the SIGSYS handler may make itself.
 *
 * The filter traps a call (TA_EMULATE) when its registers cannot tell
 * whether it is allowed: a path, a signal's target, an attribute name, a
 * message's ancillary data.  Here the handler reads what the filter
 * could not, once, into its own memory; decides (verdict.c:
 * tame__trap_allows); and makes the call from libtame's own syscall
 * instruction, with that copy, so that what was checked is what runs.
 * A call it will not make goes back to the table's later rows (a soft
 * denial) or is a violation.
 *
 * Each function returns 0 with the call's result (or -errno) in *ret, or
 * -1 when the handler refuses the call.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <linux/openat2.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "gate.h"
#include "policy.h"
#include "tame_int.h"

/*
 * Copy argument i, a path, into the call's buffer.  Returns 0, or the
 * error the kernel would give (EFAULT, ENAMETOOLONG) as the result.
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

#ifndef SYS_openat2
#define SYS_openat2	437
#endif

/*
 * Where no Landlock layer confines the granted paths, the handler does
 * (Linux 5.6+), by how it opens them: the granted entry's own path as
 * tame() resolved it, with no symlink and no magic link on the way
 * (RESOLVE_NO_SYMLINKS), and beneath a granted directory, relative to
 * it, where nothing may lead out (RESOLVE_BENEATH: no "..", no absolute
 * symlink, no symlink that leaves it).  Without openat2 nothing granted
 * opens.  Returns the descriptor, or -errno: a way out is EACCES, as
 * Landlock answers it.
 */
static int
resolving(void)
{
	return tame__state.landlock_ok == 0 && tame__openat2_ok();
}

static long
resolved_open(tame_atoms held, const char *path, int rights, int flags, long mode)
{
	struct open_how how = { 0 };
	const char *root;
	long dfd, fd;
	int i;

	if (!resolving())
		return -EACCES;
	if ((i = tame__path_entry(held, path, rights)) < 0)
		return -EACCES;
	if ((root = tame__path_resolved(i)) == NULL)
		return -ENOENT;		/* nothing there at tame() time */
	path += strlen(tame_lpaths[i].path);
	how.flags = (uint64_t)(unsigned)flags;
	if (flags & (O_CREAT | TAME_TMPFILE_BIT))
		how.mode = (uint64_t)mode & 07777;
	if (*path == '\0') {
		if (flags & O_NOFOLLOW)		/* lstat: the name itself */
			root = tame_lpaths[i].path;
		how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
		fd = tame__gate(SYS_openat2, AT_FDCWD, (long)root, (long)&how,
		    sizeof(how), 0, 0);
		if (fd == -ELOOP && !(flags & O_NOFOLLOW))
			fd = -EACCES;	/* a symlink since tame() */
		return fd;
	}
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	dfd = tame__gate(SYS_openat2, AT_FDCWD, (long)root, (long)&(struct
	    open_how){ .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS },
	    sizeof(how), 0, 0);
	if (dfd < 0)
		return dfd == -ELOOP ? -EACCES : dfd;
	fd = tame__gate(SYS_openat2, dfd, (long)(path + 1), (long)&how,
	    sizeof(how), 0, 0);
	tame__gate(SYS_close, dfd, 0, 0, 0, 0, 0);
	return fd == -EXDEV ? -EACCES : fd;
}

/* A granted path call goes through only where Landlock confines it. */
static long
confined(long nr, long a0, long a1, long a2, long a3)
{
	if (tame__state.landlock_ok != 1)
		return -EACCES;
	return tame__gate(nr, a0, a1, a2, a3, 0, 0);
}

/*
 * Landlock mediates opens, not stat or O_PATH, so a symlink in a granted
 * directory (/usr/lib/ssl/private -> /etc/ssl/private) would lead a
 * granted-looking stat elsewhere.  Before such a call the handler opens
 * the path for reading, as Landlock judges the file it resolves to (and
 * before any driver sees the open): the descriptor it gets, or -errno.
 * A socket cannot be opened; it is taken as found.
 */
static long
landlock_read_check(const char *path)
{
	long fd;

	if (tame__state.landlock_ok != 1)
		return -EACCES;
	fd = tame__gate(SYS_openat, AT_FDCWD, (long)path, O_RDONLY |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0, 0, 0);
	return fd == -ENXIO ? -ENXIO : fd;
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
	if (resolving()) {
		*ret = resolved_open(held, c->path, tame__path_rights(c->nr,
		    c->a, c->path), flags, mode);
		return 0;
	}
	if ((flags & O_PATH) && !(flags & O_NOFOLLOW)) {
		/* where the path leads must be readable too */
		long fd = landlock_read_check(c->path);

		if (fd < 0 && fd != -ENXIO) {
			*ret = fd;
			return 0;
		}
		if (fd >= 0)
			tame__gate(SYS_close, fd, 0, 0, 0, 0, 0);
	}
	*ret = confined(SYS_openat, AT_FDCWD, (long)c->path, flags, mode);
	return 0;
}

/*
 * Without Landlock, a name beneath /tmp is made or removed relative to
 * its parent, opened as resolved_open() confines it: the last name only
 * is left to the call, and it is never ".", ".." or empty.
 */
static long
resolved_name(tame_atoms held, struct tame_call *c)
{
	char *path = c->buf, *last;
	size_t n = strlen(path);
	long dfd, r;
	int nr = c->nr, flags = 0;
	long mode = 0;

	switch (nr) {
	case SYS_unlinkat:
		flags = (int)c->a[2];
		break;
	case SYS_mkdirat:
		mode = (long)c->a[2];
		break;
#ifdef SYS_unlink
	case SYS_unlink:
		nr = SYS_unlinkat;
		break;
	case SYS_rmdir:
		nr = SYS_unlinkat;
		flags = AT_REMOVEDIR;
		break;
	case SYS_mkdir:
		nr = SYS_mkdirat;
		mode = (long)c->a[1];
		break;
#endif
	}
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';	/* mkdir("/tmp/d/") */
	if ((last = strrchr(path, '/')) == NULL || last == path)
		return -EACCES;		/* "/" or a name in it */
	*last++ = '\0';
	if (*last == '\0' || strcmp(last, ".") == 0 || strcmp(last, "..") == 0)
		return -EACCES;
	dfd = resolved_open(held, path, TL_FULL, O_PATH | O_DIRECTORY |
	    O_CLOEXEC, 0);
	if (dfd < 0)
		return dfd;
	if (nr == SYS_unlinkat)
		r = tame__gate(SYS_unlinkat, dfd, (long)last, flags, 0, 0, 0);
	else
		r = tame__gate(SYS_mkdirat, dfd, (long)last, mode, 0, 0, 0);
	tame__gate(SYS_close, dfd, 0, 0, 0, 0, 0);
	return r;
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
	if (resolving()) {
		*ret = resolved_name(held, c);
		return 0;
	}
	switch (c->nr) {
	case SYS_unlinkat:
		*ret = confined(SYS_unlinkat, AT_FDCWD, (long)c->path,
		    (long)c->a[2], 0);
		return 0;
	case SYS_mkdirat:
		*ret = confined(SYS_mkdirat, AT_FDCWD, (long)c->path,
		    (long)c->a[2], 0);
		return 0;
#ifdef SYS_unlink
	case SYS_unlink:
		*ret = confined(SYS_unlinkat, AT_FDCWD, (long)c->path, 0, 0);
		return 0;
	case SYS_rmdir:
		*ret = confined(SYS_unlinkat, AT_FDCWD, (long)c->path,
		    AT_REMOVEDIR, 0);
		return 0;
	case SYS_mkdir:
		*ret = confined(SYS_mkdirat, AT_FDCWD, (long)c->path,
		    (long)c->a[1], 0);
		return 0;
#endif
	}
	return -1;
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
		*ret = tame__gate(SYS_fstat, (long)c->a[0], (long)c->a[2], 0,
		    0, 0, 0);
		return 0;
	}
	if (resolving()) {
		/* a path-only open, confined: no driver sees it */
		long fd = resolved_open(held, c->path, TL_READ, O_PATH |
		    O_CLOEXEC | ((flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW :
		    0), 0);

		if (fd < 0) {
			*ret = fd;
			return 0;
		}
		*ret = tame__gate(SYS_newfstatat, fd, (long)"", (long)c->a[2],
		    AT_EMPTY_PATH, 0, 0);
		tame__gate(SYS_close, fd, 0, 0, 0, 0, 0);
		return 0;
	}
	if (!(flags & AT_SYMLINK_NOFOLLOW)) {
		/* the stat of what Landlock let the handler open */
		long fd = landlock_read_check(c->path);

		if (fd >= 0) {
			*ret = tame__gate(SYS_newfstatat, fd, (long)"",
			    (long)c->a[2], AT_EMPTY_PATH, 0, 0);
			tame__gate(SYS_close, fd, 0, 0, 0, 0, 0);
			return 0;
		}
		if (fd != -ENXIO) {
			*ret = fd;
			return 0;
		}
	}
	/* lstat: the granted name itself, or a socket */
	*ret = tame__gate(SYS_newfstatat, AT_FDCWD, (long)c->path,
	    (long)c->a[2], flags, 0, 0);
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
 * which the filter allows from anywhere (TC_SELF) and the kernel refuses
 * with ESRCH for a thread of any other; no signal needs the gate.
 */
static int
signal_call(struct tame_call *c, long *ret)
{
	long pid = tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0);

	*ret = syscall(SYS_tgkill, pid, (long)c->a[0], (long)c->a[1]);
	if (*ret == -1)
		*ret = -errno;
	return 0;
}

/*
 * mremap with pledge's exec held: memory that holds none of the pledged
 * image's code may move, as under MALLOC alone (realloc's big blocks);
 * code may not, or calls made from where it went would pass for an
 * exec'd image's (images.c).  Made from the gate, which a row allows.
 */
static int
mremap_call(struct tame_call *c, long *ret)
{
	if (tame__images_meet(&tame__images, c->a[0], c->a[1])) {
		c->detail = "moving the pledged image's code";
		c->need = 0;
		return -1;
	}
	*ret = tame__gate(SYS_mremap, (long)c->a[0], (long)c->a[1],
	    (long)c->a[2], (long)c->a[3], (long)c->a[4], 0);
	return 0;
}

/*
 * execve and execveat where pledge's execpromises were given: a set-ID
 * program fails with EACCES after the line, as on OpenBSD; another is
 * run from the gate, by the path that was looked at.  (Swapping the
 * file in between gains nothing: no_new_privs ignores set-ID bits; only
 * which error comes back could differ.)  The argument and environment
 * vectors go as they came.
 */
static int
exec_call(struct tame_call *c, long *ret)
{
	struct stat st;
	long dirfd = AT_FDCWD, flags = 0, r;
	int at = c->nr == SYS_execveat;

	if (at) {
		dirfd = (long)(int)c->a[0];
		flags = (long)c->a[4] & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	}
	if (fetch_path(c, at, ret) == -1)
		return 0;
	r = tame__gate(SYS_newfstatat, dirfd, (long)c->buf, (long)&st, flags,
	    0, 0);
	if (r == 0 && S_ISREG(st.st_mode) &&
	    (st.st_mode & (S_ISUID | S_ISGID))) {
		c->detail = "of a set-ID program under execpromises";
		c->need = 0;
		tame__violation(c);
		c->detail = NULL;
		*ret = -EACCES;
		return 0;
	}
	if (at)
		*ret = tame__gate(SYS_execveat, dirfd, (long)c->buf,
		    (long)c->a[2], (long)c->a[3], (long)c->a[4], 0);
	else
		*ret = tame__gate(SYS_execve, (long)c->buf, (long)c->a[1],
		    (long)c->a[2], 0, 0, 0);
	return 0;
}

/* set/remove xattr, by path, link or descriptor: the name is checked. */
static int
xattr_call(struct tame_call *c, long *ret)
{
	char name[256];
	long n, target = (long)c->a[0];
	int by_path = c->nr != SYS_fsetxattr && c->nr != SYS_fremovexattr;

	if ((n = tame__copy_str(name, sizeof(name), c->a[1])) < 0) {
		*ret = n == -ENAMETOOLONG ? -ERANGE : n;
		return 0;
	}
	if (by_path) {
		if (fetch_path(c, 0, ret) == -1)
			return 0;
		target = (long)c->path;
	}
	if (!tame__trap_allows(tame__state.held, c->nr, c->a,
	    &(struct tame_seen){ .name = name }))
		return -1;
	if (name[0] == '\0') {
		*ret = -ERANGE;		/* the kernel's answer */
		return 0;
	}
	*ret = tame__gate(c->nr, target, (long)name, (long)c->a[2],
	    (long)c->a[3], (long)c->a[4], 0);
	return 0;
}

/*
 * rt_sigprocmask that may block: the kernel sets the mask (it checks
 * how, the sizes and the pointers, and copies), from the handler's
 * mask, which is the trapped thread's plus SIGSYS; the old mask it
 * writes loses that SIGSYS again.  The new mask, less SIGSYS, is the
 * one the thread gets back when the handler returns.
 */
static int
mask_call(struct tame_call *c, long *ret)
{
	uint64_t now;

	*ret = tame__gate(SYS_rt_sigprocmask, (long)c->a[0], (long)c->a[1],
	    (long)c->a[2], (long)c->a[3], 0, 0);
	if (*ret != 0)
		return 0;
	if (c->a[2] != 0)
		*(volatile uint64_t *)(uintptr_t)c->a[2] &= ~TAME_SIGSYS_BIT;
	if (tame__gate(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&now,
	    sizeof(now), 0, 0) == 0)
		*c->mask = now & ~TAME_SIGSYS_BIT;
	return 0;
}

/*
 * rt_sigaction with a new action: the same action with SIGSYS out of
 * the mask its handler runs under.
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
	*ret = tame__gate(SYS_rt_sigaction, (long)c->a[0], newact,
	    (long)c->a[2], (long)c->a[3], 0, 0);
	return 0;
}

int
tame__emulate(tame_atoms held, struct tame_call *c, long *ret)
{
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
	case SYS_mremap:
		return mremap_call(c, ret);
	case SYS_execve:
	case SYS_execveat:
		return exec_call(c, ret);
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
	case SYS_socket:
		return tame__cmsg_emulate(held, c, ret);
	}
	return -1;
}
