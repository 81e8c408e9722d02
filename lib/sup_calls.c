/* SPDX-License-Identifier: ISC */
/*
 * sup_calls.c: the trapped calls the supervisor makes for a caller
 * (supervisor.h).  Each reads what the call points at once, from the
 * caller's memory, decides with the table's own rule (verdict.c:
 * tame__trap_allows) for the atoms the caller holds, and makes the call
 * from its copy, in the caller's place:
 *
 *	a granted path	opened with openat2's resolve flags from what the
 *			granted entry led to at tame() (no symbolic link,
 *			nothing out of a granted directory): where no
 *			Landlock layer confines the process, or for what
 *			Landlock does not judge (O_PATH, lstat); the
 *			descriptor handed in (SECCOMP_IOCTL_NOTIF_ADDFD)
 *	a name in /tmp	made or removed relative to its parent, opened so
 *	an attribute	set from the copy of its name and value, on what
 *			the caller's path or descriptor leads to
 *	a message	whose ancillary data sendto() cannot carry: sent
 *			from the copy, on the caller's own socket
 *
 * The supervisor acts with the ids it was forked with; a caller that
 * changed its own since is refused (EPERM), never served with others.
 * Its umask, which creating names obeys, is the caller's.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <linux/openat2.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sup_int.h"
#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"


static char	path_buf[PATH_MAX];	/* the caller's path, copied once */

/* A refusal, as the handler would have judged the trapped call. */
static long
refuse(struct sup_req *r, struct tame_ask *q, const char *detail,
    tame_atoms need)
{
	int err = tame__errno_after_trap(r->held, q->nr, q->a);

	if (detail == NULL && err != 0) {
		q->verdict = TAME_VERDICT_ERRNO;
		return -err;
	}
	q->verdict = TAME_VERDICT_VIOLATION;
	if (detail != NULL) {
		strncpy(q->detail, detail, sizeof(q->detail) - 1);
		q->need = need;
	}
	return -ENOSYS;
}

/* fd, unless it is the supervisor's own /proc (sup_proc_guard()). */
static long
guarded(long fd)
{
	if (fd >= 0 && sup_proc_guard(fd) != 0) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return -EACCES;
	}
	return fd;
}

/* The caller's /proc/self in path_buf spelled with its numbers. */
static void
callers_path(struct sup_req *r)
{
	static char buf[PATH_MAX];

	if (sup_callers_proc(r, path_buf, buf, sizeof(buf)) == buf)
		memcpy(path_buf, buf, strlen(buf) + 1);
}

/*
 * A granted path, opened as no symbolic link or ".." can lead out of
 * what its entry granted (the entry as tame() resolved it).  The
 * descriptor, or -errno: a way out is EACCES, as Landlock answers it.
 */
static long
resolved_open(tame_atoms held, const char *path, int rights, int flags,
    long mode)
{
	struct open_how how = { 0 };
	const char *root;
	long dfd, fd;
	int i;

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
		fd = tame__sys(SYS_openat2, AT_FDCWD, (long)root, (long)&how,
		    sizeof(how), 0, 0);
		if ((fd == -ELOOP && !(flags & O_NOFOLLOW)) || fd == -ENOSYS)
			fd = -EACCES;	/* a symlink since; no openat2 */
		return guarded(fd);
	}
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	dfd = tame__sys(SYS_openat2, AT_FDCWD, (long)root, (long)&(struct
	    open_how){ .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS },
	    sizeof(how), 0, 0);
	if (dfd < 0)
		return dfd == -ELOOP || dfd == -ENOSYS ? -EACCES : dfd;
	fd = tame__sys(SYS_openat2, dfd, (long)(path + 1), (long)&how,
	    sizeof(how), 0, 0);
	tame__sys(SYS_close, dfd, 0, 0, 0, 0, 0);
	return fd == -EXDEV ? -EACCES : guarded(fd);
}

/*
 * The caller's umask, for a call that creates a name; -1 where its
 * status does not say (before Linux 4.7).
 */
static long
caller_umask(struct sup_req *r)
{
	return sup_status_field(r->tid, "\nUmask:", 8);
}

/* Make nr with the caller's umask in force. */
static long
with_umask(struct sup_req *r, long nr, long a0, long a1, long a2, long a3)
{
	long mask = caller_umask(r), old = 0, ret;

	if (mask >= 0)
		old = tame__sys(SYS_umask, mask, 0, 0, 0, 0, 0);
	ret = tame__sys(nr, a0, a1, a2, a3, 0, 0);
	if (mask >= 0)
		tame__sys(SYS_umask, old, 0, 0, 0, 0, 0);
	return ret;
}

/* What unveil asks of an open's file (OpenBSD's: creating needs c). */
static uint32_t
open_perms(int flags)
{
	uint32_t p = (flags & O_ACCMODE) == O_WRONLY ? TAME_UV_W :
	    (flags & O_ACCMODE) == O_RDWR ? TAME_UV_R | TAME_UV_W : TAME_UV_R;

	return p | ((flags & O_CREAT) ? TAME_UV_C : 0);
}

/* open, openat, creat of a granted path. */
static long
open_call(struct sup_req *r, struct tame_ask *q)
{
	int at = q->nr == SYS_openat, flags;
	long mode, n, fd, ret;

#ifdef SYS_creat
	if (q->nr == SYS_creat) {
		flags = O_CREAT | O_WRONLY | O_TRUNC;
		mode = (long)q->a[1];
	} else
#endif
	{
		flags = (int)q->a[at + 1];
		mode = (long)q->a[at + 2];
	}
	if ((n = sup_read_str(r, path_buf, sizeof(path_buf), q->a[at])) < 0)
		return n;
	if (!tame__trap_allows(r->held, q->nr, q->a, &(struct tame_seen){
	    .path = path_buf }))
		return refuse(r, q, NULL, 0);
	if (!sup_same_creds(r))
		return -EPERM;
	callers_path(r);
	/*
	 * The kernel hands in no O_PATH descriptor (ADDFD takes none): a
	 * granted path is opened for reading instead, which it may be.
	 */
	if (flags & O_PATH)
		flags = (flags & (O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW)) |
		    O_RDONLY | O_NONBLOCK | O_NOCTTY;
	if (flags & O_CREAT) {
		long mask = caller_umask(r), old = 0;

		if (mask >= 0)
			old = tame__sys(SYS_umask, mask, 0, 0, 0, 0, 0);
		fd = resolved_open(r->held, path_buf, tame__path_rights(q->nr,
		    q->a, path_buf), flags | O_CLOEXEC, mode);
		if (mask >= 0)
			tame__sys(SYS_umask, old, 0, 0, 0, 0, 0);
	} else
		fd = resolved_open(r->held, path_buf, tame__path_rights(q->nr,
		    q->a, path_buf), flags | O_CLOEXEC, mode);
	if (fd >= 0 && !sup_unveil_allows(r, (int)fd, open_perms(flags))) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return -EACCES;
	}
	if (fd < 0)
		return fd;
	ret = sup_addfd(r, (int)fd, flags & O_CLOEXEC);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return ret;
}

/*
 * unlink, rmdir, mkdir and their *at forms, beneath /tmp: relative to the
 * parent, opened as resolved_open() confines it; the last name only is
 * left to the call, and it is never ".", ".." or empty.
 */
static long
name_call(struct sup_req *r, struct tame_ask *q)
{
	int at = q->nr == SYS_unlinkat || q->nr == SYS_mkdirat;
	int nr = q->nr, flags = 0;
	long mode = 0, n, dfd, ret;
	char *last;

	if ((n = sup_read_str(r, path_buf, sizeof(path_buf), q->a[at])) < 0)
		return n;
	if (!tame__trap_allows(r->held, q->nr, q->a, &(struct tame_seen){
	    .path = path_buf }))
		return refuse(r, q, NULL, 0);
	if (!sup_same_creds(r))
		return -EPERM;
	switch (nr) {
	case SYS_unlinkat:
		flags = (int)q->a[2];
		break;
	case SYS_mkdirat:
		mode = (long)q->a[2];
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
		mode = (long)q->a[1];
		break;
#endif
	}
	while (n > 1 && path_buf[n - 1] == '/')
		path_buf[--n] = '\0';	/* mkdir("/tmp/d/") */
	if ((last = strrchr(path_buf, '/')) == NULL || last == path_buf)
		return -EACCES;		/* "/" or a name in it */
	*last++ = '\0';
	if (*last == '\0' || strcmp(last, ".") == 0 || strcmp(last, "..") == 0)
		return -EACCES;
	dfd = resolved_open(r->held, path_buf, TL_FULL, O_PATH | O_DIRECTORY |
	    O_CLOEXEC, 0);
	if (dfd >= 0 && !sup_unveil_allows(r, (int)dfd, TAME_UV_C)) {
		tame__sys(SYS_close, dfd, 0, 0, 0, 0, 0);
		return -EACCES;
	}
	if (dfd < 0)
		return dfd;
	if (nr == SYS_unlinkat)
		ret = tame__sys(SYS_unlinkat, dfd, (long)last, flags, 0, 0, 0);
	else
		ret = with_umask(r, SYS_mkdirat, dfd, (long)last, mode, 0);
	tame__sys(SYS_close, dfd, 0, 0, 0, 0, 0);
	return ret;
}

/*
 * newfstatat of a granted path (lstat, or what a handler could not
 * open): the stat of what resolved_open() finds, written where the
 * caller asked.
 */
static long
stat_call(struct sup_req *r, struct tame_ask *q)
{
	int flags = (int)q->a[3];
	struct stat st;
	long n, fd, ret;

	if ((flags & AT_EMPTY_PATH) && q->a[1] == 0)
		path_buf[0] = '\0';	/* Linux 6.11+: NULL means "" */
	else if ((n = sup_read_str(r, path_buf, sizeof(path_buf),
	    q->a[1])) < 0)
		return n;
	if ((flags & AT_EMPTY_PATH) && path_buf[0] == '\0') {
		/* fstat() in glibc's spelling: the caller's descriptor */
		if (!tame__trap_allows(r->held, q->nr, q->a,
		    &(struct tame_seen){ .path = path_buf }))
			return refuse(r, q, NULL, 0);
		if ((fd = sup_caller_file(r, (int)q->a[0])) < 0)
			return fd;
		ret = tame__sys(SYS_fstat, fd, (long)&st, 0, 0, 0, 0);
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		if (ret == 0 && sup_write(r, q->a[2], &st, sizeof(st)) != 0)
			ret = -EFAULT;
		return ret;
	}
	if (!tame__trap_allows(r->held, q->nr, q->a, &(struct tame_seen){
	    .path = path_buf }))
		return refuse(r, q, NULL, 0);
	if (!sup_same_creds(r))
		return -EPERM;
	callers_path(r);
	fd = resolved_open(r->held, path_buf, TL_READ, O_PATH | O_CLOEXEC |
	    ((flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0), 0);
	if (fd >= 0 && !sup_unveil_allows(r, (int)fd, TAME_UV_R)) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return -EACCES;
	}
	if (fd < 0)
		return fd;
	ret = tame__sys(SYS_newfstatat, fd, (long)"", (long)&st,
	    AT_EMPTY_PATH, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (ret == 0 && sup_write(r, q->a[2], &st, sizeof(st)) != 0)
		ret = -EFAULT;
	return ret;
}

/*
 * set/remove xattr, by path, link or descriptor: the name is read once
 * and checked (user.* and POSIX ACLs), the value copied, and the call
 * made on what the caller's path or descriptor leads to.
 */
static long
xattr_call(struct sup_req *r, struct tame_ask *q)
{
	static char value[65536];	/* XATTR_SIZE_MAX */
	char name[256];
	struct tame_line proc;
	int nr = q->nr, set, by_fd, nofollow;
	size_t size = 0;
	struct stat st;
	long n, fd, ret;

	set = nr == SYS_setxattr || nr == SYS_lsetxattr || nr == SYS_fsetxattr;
	by_fd = nr == SYS_fsetxattr || nr == SYS_fremovexattr;
	nofollow = nr == SYS_lsetxattr || nr == SYS_lremovexattr;
	if ((n = sup_read_str(r, name, sizeof(name), q->a[1])) < 0)
		return n == -ENAMETOOLONG ? -ERANGE : n;
	if (!tame__trap_allows(r->held, nr, q->a, &(struct tame_seen){
	    .name = name }))
		return refuse(r, q, NULL, 0);
	if (name[0] == '\0')
		return -ERANGE;		/* the kernel's answer */
	if (set) {
		size = (size_t)q->a[3];
		if (size > sizeof(value))
			return -E2BIG;
		if (sup_read(r, value, q->a[2], size) != 0)
			return -EFAULT;
	}
	if (!sup_same_creds(r))
		return -EPERM;
	if (by_fd)
		fd = sup_caller_fd(r, (int)q->a[0]);
	else {
		if ((n = sup_read_str(r, path_buf, sizeof(path_buf),
		    q->a[0])) < 0)
			return n;
		fd = sup_open_at(r, AT_FDCWD, path_buf, O_PATH |
		    (nofollow ? O_NOFOLLOW : 0), 0);
		if (fd >= 0 && !sup_unveil_allows(r, (int)fd, TAME_UV_W)) {
			tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
			return -EACCES;
		}
	}
	if (fd < 0)
		return fd;
	/* a symbolic link itself holds no user.* attribute: the kernel's */
	if (tame__sys(SYS_newfstatat, fd, (long)"", (long)&st, AT_EMPTY_PATH,
	    0, 0) == 0 && S_ISLNK(st.st_mode))
		ret = -EPERM;
	else if (set)
		ret = tame__sys(SYS_setxattr, (long)tame__self_fd(&proc, fd),
		    (long)name, (long)value, (long)size, (long)q->a[4], 0);
	else
		ret = tame__sys(SYS_removexattr, (long)tame__self_fd(&proc, fd),
		    (long)name, 0, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return ret;
}

long
sup_caller_file(struct sup_req *r, int fd)
{
	char path[64] = "/proc/", buf[1024], *p;
	char digits[12];
	long s, n, pidfd, tgid = 0, got;
	int i = 6, d = 0;
	unsigned v = (unsigned)r->tid;

	do
		digits[d++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (d > 0)
		path[i++] = digits[--d];
	memcpy(path + i, "/status", 8);
	s = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC,
	    0, 0, 0);
	if (s < 0)
		return s;
	n = tame__sys(SYS_read, s, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	tame__sys(SYS_close, s, 0, 0, 0, 0, 0);
	if (n <= 0)
		return -ESRCH;
	buf[n] = '\0';
	if ((p = strstr(buf, "\nTgid:")) == NULL)
		return -ESRCH;
	for (p += 6; *p == '\t' || *p == ' '; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++)
		tgid = tgid * 10 + (*p - '0');
	if ((pidfd = tame__sys(SYS_pidfd_open, tgid, 0, 0, 0, 0, 0)) < 0)
		return pidfd;
	got = tame__sys(SYS_pidfd_getfd, pidfd, fd, 0, 0, 0, 0);
	tame__sys(SYS_close, pidfd, 0, 0, 0, 0, 0);
	if (got >= 0 && !sup_valid(r)) {
		tame__sys(SYS_close, got, 0, 0, 0, 0, 0);
		return -ESRCH;
	}
	return got;
}

#ifndef SCM_MAX_FD
#define SCM_MAX_FD	253
#endif

/*
 * The caller's descriptors an SCM_RIGHTS message names, each replaced
 * in ctl by this process's copy of the same open file (pidfd_getfd),
 * into fds to close after the send: by number alone they would name
 * this process's own.  0, or -errno (EBADF: not the caller's).
 */
static long
rights_here(struct sup_req *r, char *ctl, size_t len, int *fds, int *n)
{
	struct msghdr m = { .msg_control = ctl, .msg_controllen = len };
	struct cmsghdr *c;
	int *fd, i, count;
	long got;

	for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		fd = (int *)(void *)CMSG_DATA(c);
		count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		for (i = 0; i < count; i++) {
			if (*n == SCM_MAX_FD)
				return -ETOOMANYREFS;
			if ((got = sup_caller_file(r, fd[i])) < 0)
				return got == -ESRCH ? -ESRCH : -EBADF;
			fds[(*n)++] = (int)got;
			fd[i] = (int)got;
		}
	}
	return 0;
}

/*
 * One message with ancillary data that sendto() cannot carry (the
 * handler sends the rest itself): copied whole, refused if it carries
 * descriptors, sent from the copy without waiting.  A full socket the
 * caller would wait on is answered EAGAIN with TAME_ASK_AGAIN: the
 * handler waits and asks again.
 */
static long
send_one(struct sup_req *r, struct tame_ask *q, int sock, uint64_t umsg,
    int flags)
{
	static char data[1 << 20];
	static struct iovec iov[UIO_MAXIOV];
	char name[128], ctl[4096];
	struct msghdr m;
	struct iovec one;
	size_t total = 0, i, len;
	long ret, fl, file = -1;
	int k, mine[SCM_MAX_FD], nmine = 0;

	if (sup_read(r, &m, umsg, sizeof(m)) != 0)
		return -EFAULT;
	if (m.msg_namelen > sizeof(name) || m.msg_controllen > sizeof(ctl) ||
	    m.msg_iovlen > UIO_MAXIOV)
		return m.msg_iovlen > UIO_MAXIOV ? -EMSGSIZE : -ENOBUFS;
	if (m.msg_name != NULL && sup_read(r, name, (uintptr_t)m.msg_name,
	    m.msg_namelen) != 0)
		return -EFAULT;

	if (m.msg_control != NULL && sup_read(r, ctl, (uintptr_t)m.msg_control,
	    m.msg_controllen) != 0)
		return -EFAULT;
	if (m.msg_control != NULL && (k = tame__cmsg_rights(ctl,
	    m.msg_controllen)) != 0) {
		if (k < 0)
			return k;
		if (!tame__trap_allows(r->held, SYS_sendmsg, q->a,
		    &(struct tame_seen){ .rights = 1 }))
			return refuse(r, q, "SCM_RIGHTS", TAME_CMSG);
		/* the caller's descriptors, never this process's own */
		if ((ret = rights_here(r, ctl, m.msg_controllen, mine,
		    &nmine)) < 0)
			goto out;
	}
	for (i = 0; i < m.msg_iovlen && total < sizeof(data); i++) {
		if (sup_read(r, &one, (uintptr_t)&m.msg_iov[i],
		    sizeof(one)) != 0) {
			ret = -EFAULT;
			goto out;
		}
		len = one.iov_len < sizeof(data) - total ? one.iov_len :
		    sizeof(data) - total;
		if (sup_read(r, data + total, (uintptr_t)one.iov_base,
		    len) != 0) {
			ret = -EFAULT;
			goto out;
		}
		total += len;
	}
	iov[0].iov_base = data;
	iov[0].iov_len = total;
	m.msg_iov = iov;
	m.msg_iovlen = 1;
	m.msg_name = m.msg_name != NULL ? name : NULL;
	m.msg_control = m.msg_control != NULL ? ctl : NULL;
	if (m.msg_name != NULL) {
		size_t nlen = m.msg_namelen;

		/* a unix path as the caller finds it, unveiled w */
		if ((ret = sup_unix_address(r, name, &nlen, &file)) < 0)
			goto out;
		m.msg_namelen = (socklen_t)nlen;
	}
	ret = tame__sys(SYS_sendmsg, sock, (long)&m, flags | MSG_DONTWAIT |
	    MSG_NOSIGNAL, 0, 0, 0);
	if (file >= 0)
		tame__sys(SYS_close, file, 0, 0, 0, 0, 0);
out:
	while (nmine > 0)
		tame__sys(SYS_close, mine[--nmine], 0, 0, 0, 0, 0);
	if (ret == -EAGAIN && !(flags & MSG_DONTWAIT) &&
	    (fl = tame__sys(SYS_fcntl, sock, F_GETFL, 0, 0, 0, 0)) >= 0 &&
	    !(fl & O_NONBLOCK))
		q->verdict = TAME_ASK_AGAIN;
	return ret;
}

static long
send_call(struct sup_req *r, struct tame_ask *q)
{
	struct mmsghdr *v = (struct mmsghdr *)(uintptr_t)q->a[1];
	unsigned int i, vlen = (unsigned int)q->a[2], len;
	long sock, ret = 0;

	if ((sock = sup_caller_file(r, (int)q->a[0])) < 0)
		return sock;
	if (q->nr == SYS_sendmsg)
		ret = send_one(r, q, (int)sock, q->a[1], (int)q->a[2]);
	else {
		if (vlen > UIO_MAXIOV)
			vlen = UIO_MAXIOV;
		for (i = 0; i < vlen; i++) {
			ret = send_one(r, q, (int)sock,
			    (uintptr_t)&v[i].msg_hdr, (int)q->a[3]);
			if (ret < 0 || q->verdict != TAME_VERDICT_ALLOW)
				break;
			len = (unsigned int)ret;
			if (sup_write(r, (uintptr_t)&v[i].msg_len, &len,
			    sizeof(len)) != 0) {
				ret = -EFAULT;
				break;
			}
		}
		if (i > 0 && q->verdict != TAME_VERDICT_VIOLATION) {
			q->verdict = TAME_VERDICT_ALLOW;
			ret = (long)i;
		}
	}
	tame__sys(SYS_close, sock, 0, 0, 0, 0, 0);
	return ret;
}

/* statx: ENOSYS where a granted path or a descriptor is asked about. */
static long
statx_call(struct sup_req *r, struct tame_ask *q)
{
	long n;

	if (((int)q->a[2] & AT_EMPTY_PATH) && q->a[1] == 0)
		return -ENOSYS;
	if ((n = sup_read_str(r, path_buf, sizeof(path_buf), q->a[1])) < 0)
		return n;
	if (!tame__trap_allows(r->held, q->nr, q->a, &(struct tame_seen){
	    .path = path_buf }))
		return refuse(r, q, NULL, 0);
	return -ENOSYS;
}

/* tkill: a thread of the caller's own process only (tgkill). */
static long
tkill_call(struct sup_req *r, struct tame_ask *q)
{
	if (r->tgid <= 0)
		return -ESRCH;
	return tame__sys(SYS_tgkill, r->tgid, (long)(int)q->a[0],
	    (long)(int)q->a[1], 0, 0, 0);
}

/*
 * One receive into the caller's msghdr: the data, its sender's address,
 * the ancillary data but descriptors, which stay here and are closed
 * (MSG_CTRUNC says so): never installed in the caller.
 */
static long
recv_one(struct sup_req *r, struct tame_ask *q, int sock, uint64_t umsg,
    int flags)
{
	static char data[1 << 20];
	char name[128], ctl[4096], out[4096];
	struct iovec one, iov;
	struct msghdr m, mine;
	struct cmsghdr h;
	size_t total = 0, i, len, off, in, outlen = 0;
	long ret, fl, n;
	int dropped = 0, fd;

	if (sup_read(r, &m, umsg, sizeof(m)) != 0)
		return -EFAULT;
	if (m.msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	for (i = 0; i < m.msg_iovlen; i++) {
		if (sup_read(r, &one, (uintptr_t)&m.msg_iov[i],
		    sizeof(one)) != 0)
			return -EFAULT;
		total += one.iov_len;
	}
	if (total > sizeof(data))
		total = sizeof(data);
	memset(&mine, 0, sizeof(mine));
	iov.iov_base = data;
	iov.iov_len = total;
	mine.msg_iov = &iov;
	mine.msg_iovlen = 1;
	if (m.msg_name != NULL) {
		mine.msg_name = name;
		mine.msg_namelen = m.msg_namelen < sizeof(name) ?
		    m.msg_namelen : sizeof(name);
	}
	if (m.msg_control != NULL && m.msg_controllen > 0) {
		mine.msg_control = ctl;
		mine.msg_controllen = sizeof(ctl);
	}
	ret = tame__sys(SYS_recvmsg, sock, (long)&mine, (flags &
	    ~MSG_CMSG_CLOEXEC) | MSG_DONTWAIT | MSG_CMSG_CLOEXEC, 0, 0, 0);
	if (ret == -EAGAIN && !(flags & MSG_DONTWAIT) &&
	    (fl = tame__sys(SYS_fcntl, sock, F_GETFL, 0, 0, 0, 0)) >= 0 &&
	    !(fl & O_NONBLOCK))
		q->verdict = TAME_ASK_AGAIN;
	if (ret < 0)
		return ret;
	/* descriptors that came stay here: closed, their messages dropped */
	for (in = 0; mine.msg_control != NULL && in + sizeof(h) <=
	    mine.msg_controllen; in += CMSG_ALIGN(h.cmsg_len)) {
		memcpy(&h, ctl + in, sizeof(h));
		if (h.cmsg_len < sizeof(h) || h.cmsg_len > mine.msg_controllen -
		    in)
			break;
		if (h.cmsg_level == SOL_SOCKET && (h.cmsg_type == SCM_RIGHTS ||
		    h.cmsg_type == 0x04 /* SCM_PIDFD */)) {
			for (off = CMSG_LEN(0); off + sizeof(int) <= h.cmsg_len;
			    off += sizeof(int)) {
				memcpy(&fd, ctl + in + off, sizeof(int));
				tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
			}
			dropped = 1;
			continue;
		}
		len = CMSG_ALIGN(h.cmsg_len);
		if (len > mine.msg_controllen - in)
			len = mine.msg_controllen - in;
		if (outlen + len <= m.msg_controllen && outlen + len <=
		    sizeof(out)) {
			memcpy(out + outlen, ctl + in, len);
			outlen += len;
		} else
			dropped = 1;
	}
	if (dropped)
		mine.msg_flags |= MSG_CTRUNC;
	if (!(flags & MSG_CMSG_CLOEXEC))
		mine.msg_flags &= ~MSG_CMSG_CLOEXEC;
	/* what came, spread over the caller's pieces */
	for (i = 0, off = 0; i < m.msg_iovlen && off < (size_t)ret &&
	    off < total; i++) {
		if (sup_read(r, &one, (uintptr_t)&m.msg_iov[i],
		    sizeof(one)) != 0)
			return -EFAULT;
		n = (long)(one.iov_len < (size_t)ret - off ? one.iov_len :
		    (size_t)ret - off);
		if (sup_write(r, (uintptr_t)one.iov_base, data + off,
		    (size_t)n) != 0)
			return -EFAULT;
		off += (size_t)n;
	}
	if (m.msg_name != NULL && (sup_write(r, (uintptr_t)m.msg_name, name,
	    mine.msg_namelen < m.msg_namelen ? mine.msg_namelen :
	    m.msg_namelen) != 0 || sup_write(r, umsg + offsetof(struct msghdr,
	    msg_namelen), &mine.msg_namelen, sizeof(mine.msg_namelen)) != 0))
		return -EFAULT;
	if (m.msg_control != NULL && outlen > 0 && sup_write(r,
	    (uintptr_t)m.msg_control, out, outlen) != 0)
		return -EFAULT;
	m.msg_controllen = outlen;
	if (sup_write(r, umsg + offsetof(struct msghdr, msg_controllen),
	    &m.msg_controllen, sizeof(m.msg_controllen)) != 0 ||
	    sup_write(r, umsg + offsetof(struct msghdr, msg_flags),
	    &mine.msg_flags, sizeof(mine.msg_flags)) != 0)
		return -EFAULT;
	return ret;
}

static long
recv_call(struct sup_req *r, struct tame_ask *q)
{
	struct mmsghdr *v = (struct mmsghdr *)(uintptr_t)q->a[1];
	unsigned int i, vlen = (unsigned int)q->a[2], len;
	long sock, ret = 0;
	int flags = (int)q->a[q->nr == SYS_recvmsg ? 2 : 3];

	if ((sock = sup_caller_file(r, (int)q->a[0])) < 0)
		return sock;
	if (q->nr == SYS_recvmsg)
		ret = recv_one(r, q, (int)sock, q->a[1], flags);
	else {
		if (vlen > UIO_MAXIOV)
			vlen = UIO_MAXIOV;
		for (i = 0; i < vlen; i++) {
			ret = recv_one(r, q, (int)sock,
			    (uintptr_t)&v[i].msg_hdr, i == 0 ? flags & ~MSG_WAITFORONE :
			    flags | MSG_DONTWAIT);
			if (ret < 0)
				break;
			len = (unsigned int)ret;
			if (sup_write(r, (uintptr_t)&v[i].msg_len, &len,
			    sizeof(len)) != 0) {
				ret = -EFAULT;
				break;
			}
		}
		if (i > 0) {
			q->verdict = TAME_VERDICT_ALLOW;
			ret = (long)i;
		}
	}
	tame__sys(SYS_close, sock, 0, 0, 0, 0, 0);
	return ret;
}

/*
 * The parent of path, as the caller finds it, into *dir; its last name
 * into last (never ".", ".." or empty: EINVAL, as mkdirat of them).
 */
static long
parent_of(struct sup_req *r, int dirfd, const char *path, char *last,
    size_t len)
{
	static char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n;

	if (slash == NULL) {
		strcpy(dir, ".");
		slash = path - 1;
	} else {
		n = (size_t)(slash - path);
		memcpy(dir, path, n == 0 ? 1 : n);
		dir[n == 0 ? 1 : n] = '\0';
	}
	if (strlen(slash + 1) >= len || slash[1] == '\0' ||
	    strcmp(slash + 1, ".") == 0 || strcmp(slash + 1, "..") == 0)
		return -EINVAL;
	strcpy(last, slash + 1);
	return sup_open_at(r, dirfd, dir, O_PATH | O_DIRECTORY, 0);
}

/*
 * An open the supervisor makes outside the caller's Landlock layers
 * (a set-ID mode's, cleared): what unveil's layer would ask of it, the
 * file's permissions if it is there, c of its directory if not.  0 or
 * -EACCES (path_buf holds the path).
 */
static long
unveiled_open(struct sup_req *r, int dirfd, int flags)
{
	char last[256];
	long fd;
	int ok;

	if (r->uvid == 0)
		return 0;
	fd = sup_open_at(r, dirfd, path_buf, O_PATH | ((flags & O_NOFOLLOW) ?
	    O_NOFOLLOW : 0), 0);
	if (fd >= 0) {
		ok = sup_unveil_allows(r, (int)fd, open_perms(flags & ~O_CREAT));
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return ok ? 0 : -EACCES;
	}
	if (fd != -ENOENT || !(flags & O_CREAT))
		return fd;
	if ((fd = parent_of(r, dirfd, path_buf, last, sizeof(last))) < 0)
		return fd;
	ok = sup_unveil_allows(r, (int)fd, TAME_UV_C);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return ok ? 0 : -EACCES;
}

long
sup_make_stripped(struct sup_req *r, int nr, const uint64_t a[6])
{
	char last[256];
	struct tame_line proc;
	int at = nr == SYS_fchmodat || nr == SYS_openat || nr == SYS_mkdirat ||
	    nr == SYS_mknodat;
	int dirfd = at ? (int)a[0] : AT_FDCWD, flags;
	long n, fd, ret, mask, mode, old = 0;

	if (!sup_same_creds(r))
		return -EPERM;
	if (nr == SYS_fchmod) {
		if ((fd = sup_caller_fd(r, (int)a[0])) < 0)
			return fd;
		ret = tame__sys(SYS_fchmodat, AT_FDCWD, (long)tame__self_fd(&proc, fd),
		    (long)a[1], 0, 0, 0);
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return ret;
	}
	if ((n = sup_read_str(r, path_buf, sizeof(path_buf), a[at])) < 0)
		return n;
	if ((mask = caller_umask(r)) >= 0)
		old = tame__sys(SYS_umask, mask, 0, 0, 0, 0, 0);
	switch (nr) {
	case SYS_fchmodat:
#ifdef SYS_chmod
	case SYS_chmod:
#endif
		if ((fd = sup_open_at(r, dirfd, path_buf, O_PATH, 0)) < 0) {
			ret = fd;
			break;
		}
		ret = tame__sys(SYS_fchmodat, AT_FDCWD, (long)tame__self_fd(&proc, fd),
		    (long)a[at + 1], 0, 0, 0);
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		break;
	case SYS_openat:
#ifdef SYS_open
	case SYS_open:
	case SYS_creat:
#endif
		flags = (int)a[at + 1];
		mode = (long)a[at + 2];
#ifdef SYS_creat
		if (nr == SYS_creat) {
			flags = O_CREAT | O_WRONLY | O_TRUNC;
			mode = (long)a[at + 1];
		}
#endif
		if ((ret = unveiled_open(r, dirfd, flags)) < 0)
			break;
		/* never waiting here on a FIFO: the caller's flags after */
		fd = sup_open_at(r, dirfd, path_buf, flags | O_NONBLOCK, mode);
		if (fd >= 0 && !(flags & O_NONBLOCK))
			tame__sys(SYS_fcntl, fd, F_SETFL, (long)(flags &
			    ~O_NONBLOCK & ~O_ACCMODE), 0, 0, 0);
		ret = fd < 0 ? fd : sup_addfd(r, (int)fd, flags & O_CLOEXEC);
		if (fd >= 0)
			tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		break;
	default:		/* mkdir, mknod and their *at forms */
		if ((fd = parent_of(r, dirfd, path_buf, last,
		    sizeof(last))) < 0) {
			ret = fd;
			break;
		}
		/* a name made here must be one unveil lets it make */
		if (!sup_unveil_allows(r, (int)fd, TAME_UV_C)) {
			tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
			ret = -EACCES;
			break;
		}
		if (nr == SYS_mkdirat
#ifdef SYS_mkdir
		    || nr == SYS_mkdir
#endif
		    )
			ret = tame__sys(SYS_mkdirat, fd, (long)last,
			    (long)a[at + 1], 0, 0, 0);
		else
			ret = tame__sys(SYS_mknodat, fd, (long)last,
			    (long)a[at + 1], (long)a[at + 2], 0, 0);
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	}
	if (mask >= 0)
		tame__sys(SYS_umask, old, 0, 0, 0, 0, 0);
	return ret;
}

long
sup_call(struct sup_req *r, struct tame_ask *q)
{
	switch (q->nr) {
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
		break;			/* xattr_call() checks unveil's rules */
	default:
		if (sup_unveil_routed(r, q->nr, q->a))
			return sup_unveil_call(r, q);
	}
	switch (q->nr) {
	case SYS_openat:
#ifdef SYS_open
	case SYS_open:
	case SYS_creat:
#endif
		return open_call(r, q);
	case SYS_unlinkat:
	case SYS_mkdirat:
#ifdef SYS_unlink
	case SYS_unlink:
	case SYS_rmdir:
	case SYS_mkdir:
#endif
		return name_call(r, q);
	case SYS_newfstatat:
		return stat_call(r, q);
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_fsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
	case SYS_fremovexattr:
		return xattr_call(r, q);
	case SYS_sendmsg:
	case SYS_sendmmsg:
		return send_call(r, q);
	case SYS_recvmsg:
	case SYS_recvmmsg:
		return recv_call(r, q);
	case SYS_statx:
		return statx_call(r, q);
	case SYS_tkill:
		return tkill_call(r, q);
	}
	return -ENOSYS;
}
