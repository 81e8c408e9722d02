/* SPDX-License-Identifier: ISC */
/*
 * sup_unveil.c: unveil() over the path calls Landlock does not judge,
 * made by the supervisor (supervisor.h).
 *
 * Once unveil is locked, a stat, access, readlink, chdir, an O_PATH
 * open, a chmod, chown, utimes, truncate, an attribute, or a unix
 * socket's connect or send by path traps (policy.c, the UNVEILED rows)
 * and comes here.  The supervisor finds what the caller's path leads to
 * (its working directory and root, no magic link), as its own O_PATH
 * descriptor; the permissions the rules give it are those of every rule
 * on it and on each directory above it, the union Landlock makes of its
 * layer's rules too; and the call is made on that descriptor, from the
 * copies of its arguments: what was checked is what is changed, whatever
 * the caller rewrites meanwhile.
 *
 *	r	stat, statx, access, readlink, chdir, an O_PATH open,
 *		getxattr, listxattr
 *	w	chmod, chown, utimes, truncate, setxattr, removexattr, a
 *		unix socket's connect and send (and access with W_OK)
 *
 * A hidden path fails with EACCES, as an open Landlock refuses.  An
 * abstract unix socket has no path to unveil: refused under the lock
 * (Landlock's scope refuses those made outside it, for the calls the
 * kernel makes itself).  Each process names its rules by the number the
 * supervisor gave them (TC_UVID: every filter of the process compares
 * it), so that one process's rules are never another's.
 */
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "sup_int.h"
#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"

#ifndef AT_EACCESS
#define AT_EACCESS	0x200
#endif

#define MAXTABLES	64		/* rule sets a tree may lock */

static struct tame_unveil_rules *tables;	/* mapped at the first */
static int ntables;

static char path_buf[PATH_MAX];		/* the caller's path, copied once */

static long
keep(const struct tame_unveil_rules *from_self, struct sup_req *r,
    uint64_t at)
{
	struct tame_unveil_rules *t;
	long m;

	if (tables == NULL) {
		m = tame__sys(SYS_mmap, 0, MAXTABLES * sizeof(*tables),
		    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m < 0)
			return m;
		tables = (struct tame_unveil_rules *)(uintptr_t)m;
	}
	if (ntables == MAXTABLES)
		return -ENOSPC;
	t = &tables[ntables];
	if (from_self != NULL)
		memcpy(t, from_self, sizeof(*t));
	else if (sup_read(r, t, at, sizeof(*t)) != 0)
		return -EFAULT;
	if (t->n < 0 || t->n > TAME_UNVEIL_MAX)
		return -EINVAL;
	return ++ntables;		/* numbers from 1: 0 is none */
}

long
sup_unveil_keep(struct sup_req *r, uint64_t rules, uint64_t len)
{
	if (len != sizeof(struct tame_unveil_rules))
		return -EINVAL;
	return keep(NULL, r, rules);
}

long
sup_unveil_keep_own(void)
{
	return keep(tame__unveil_rules(), NULL, 0);
}

static const struct tame_unveil_rules *
table(uint32_t uvid)
{
	return uvid >= 1 && (int)uvid <= ntables ? &tables[uvid - 1] : NULL;
}

/* The permissions of the rules on one file or directory. */
static uint32_t
perms_on(const struct tame_unveil_rules *t, const struct stat *st)
{
	uint32_t p = 0;
	int i;

	for (i = 0; i < t->n; i++)
		if (t->r[i].dev == (uint64_t)st->st_dev &&
		    t->r[i].ino == (uint64_t)st->st_ino)
			p |= t->r[i].perms;
	return p;
}

static int
fstat_fd(long fd, struct stat *st)
{
	return tame__sys(SYS_newfstatat, fd, (long)"", (long)st,
	    AT_EMPTY_PATH, 0, 0) == 0 ? 0 : -1;
}

/* "/proc/self/fd/N". */
static const char *
self_fd(char *buf, long fd)
{
	char digits[12];
	int n = 0, i = 14;
	unsigned long v = (unsigned long)fd;

	memcpy(buf, "/proc/self/fd/", 14);
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		buf[i++] = digits[--n];
	buf[i] = '\0';
	return buf;
}

/*
 * The directory holding a file that is no directory, where the path it
 * was found by put it: the name this process's descriptor shows, its
 * last name looked up again to be the same file (a rename meanwhile
 * refuses).  An O_PATH descriptor, or -1.
 */
static long
parent_dir(long fd, const struct stat *st)
{
	static char where[PATH_MAX];
	char proc[32];
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	struct stat again;
	char *slash;
	long n, dir;

	n = tame__sys(SYS_readlinkat, AT_FDCWD, (long)self_fd(proc, fd),
	    (long)where, sizeof(where) - 1, 0, 0);
	if (n <= 0 || where[0] != '/')
		return -1;		/* no name: a pipe, a socket's */
	where[n] = '\0';
	if ((slash = strrchr(where, '/')) == NULL || slash[1] == '\0')
		return -1;
	*slash = '\0';
	dir = tame__sys(SYS_openat2, AT_FDCWD, (long)(slash == where ? "/" :
	    where), (long)&how, sizeof(how), 0, 0);
	if (dir < 0)
		return -1;		/* gone, or " (deleted)" */
	if (tame__sys(SYS_newfstatat, dir, (long)(slash + 1), (long)&again,
	    AT_SYMLINK_NOFOLLOW, 0, 0) != 0 || again.st_dev != st->st_dev ||
	    again.st_ino != st->st_ino) {
		tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
		return -1;
	}
	return dir;
}

int
sup_unveil_allows(struct sup_req *r, int fd, uint32_t need)
{
	return sup_unveil_allows_uvid(r->uvid, fd, need);
}

int
sup_unveil_allows_uvid(uint32_t uvid, int fd, uint32_t need)
{
	const struct tame_unveil_rules *t;
	struct stat st, up;
	uint32_t have;
	long cur, next;

	if (uvid == 0)
		return 1;		/* nothing unveiled: nothing hidden */
	if ((t = table(uvid)) == NULL || fstat_fd(fd, &st) != 0)
		return 0;
	have = perms_on(t, &st);
	if ((have & need) == need)
		return 1;
	/* each directory above, up to this process's root */
	if (S_ISDIR(st.st_mode))
		cur = tame__sys(SYS_openat, fd, (long)".", O_PATH |
		    O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	else
		cur = parent_dir(fd, &st);
	while (cur >= 0) {
		if (fstat_fd(cur, &st) != 0)
			break;
		have |= perms_on(t, &st);
		if ((have & need) == need)
			break;
		next = tame__sys(SYS_openat, cur, (long)"..", O_PATH |
		    O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
		if (next >= 0 && (fstat_fd(next, &up) != 0 ||
		    (up.st_dev == st.st_dev && up.st_ino == st.st_ino))) {
			tame__sys(SYS_close, next, 0, 0, 0, 0, 0);
			next = -1;		/* "/": nothing above */
		}
		tame__sys(SYS_close, cur, 0, 0, 0, 0, 0);
		cur = next;
	}
	if (cur >= 0)
		tame__sys(SYS_close, cur, 0, 0, 0, 0, 0);
	return (have & need) == need;
}

/* How one call names its file: which arguments, following links or not. */
struct uv_call {
	int		 dirfd;		/* AT_FDCWD where the call has none */
	int		 path;		/* the argument index of the path */
	int		 nofollow;
	int		 empty;		/* AT_EMPTY_PATH */
	uint32_t	 need;		/* TAME_UV_* */
};

/* The call's file, for nr with arguments a: 0, or -1 for no such call. */
static int
describe(int nr, const uint64_t a[6], struct uv_call *u)
{
	memset(u, 0, sizeof(*u));
	u->dirfd = AT_FDCWD;
	u->need = TAME_UV_R;
	switch (nr) {
	case SYS_newfstatat:
		u->nofollow = ((int)a[3] & AT_SYMLINK_NOFOLLOW) != 0;
		u->empty = ((int)a[3] & AT_EMPTY_PATH) != 0;
		goto at;
	case SYS_statx:
		u->nofollow = ((int)a[2] & AT_SYMLINK_NOFOLLOW) != 0;
		u->empty = ((int)a[2] & AT_EMPTY_PATH) != 0;
		goto at;
	case SYS_faccessat2:
		u->nofollow = ((int)a[3] & AT_SYMLINK_NOFOLLOW) != 0;
		u->empty = ((int)a[3] & AT_EMPTY_PATH) != 0;
		/* FALLTHROUGH */
	case SYS_faccessat:
		if ((int)a[2] & W_OK)
			u->need |= TAME_UV_W;
		goto at;
	case SYS_readlinkat:
		u->nofollow = 1;
		u->empty = 1;		/* "": the link the descriptor is */
		goto at;
	case SYS_openat:
		u->nofollow = ((int)a[2] & O_NOFOLLOW) != 0;
		goto at;
	case SYS_fchmodat:
		u->need = TAME_UV_W;
		goto at;
	case SYS_fchownat:
		u->need = TAME_UV_W;
		u->nofollow = ((int)a[4] & AT_SYMLINK_NOFOLLOW) != 0;
		u->empty = ((int)a[4] & AT_EMPTY_PATH) != 0;
		goto at;
	case SYS_utimensat:
		u->need = TAME_UV_W;
		u->nofollow = ((int)a[3] & AT_SYMLINK_NOFOLLOW) != 0;
		u->empty = ((int)a[3] & AT_EMPTY_PATH) != 0;
		goto at;
	case SYS_chdir:
	case SYS_statfs:
		return 0;
	case SYS_truncate:
		u->need = TAME_UV_W;
		return 0;
	case SYS_getxattr:
	case SYS_listxattr:
		return 0;
	case SYS_lgetxattr:
	case SYS_llistxattr:
		u->nofollow = 1;
		return 0;
	case SYS_setxattr:
	case SYS_removexattr:
		u->need = TAME_UV_W;
		return 0;
	case SYS_lsetxattr:
	case SYS_lremovexattr:
		u->need = TAME_UV_W;
		u->nofollow = 1;
		return 0;
#ifdef SYS_stat
	case SYS_stat:
		return 0;
	case SYS_lstat:
	case SYS_readlink:
		u->nofollow = 1;
		return 0;
	case SYS_access:
		if ((int)a[1] & W_OK)
			u->need |= TAME_UV_W;
		return 0;
	case SYS_open:
		u->nofollow = ((int)a[1] & O_NOFOLLOW) != 0;
		return 0;
	case SYS_chmod:
	case SYS_chown:
	case SYS_utime:
	case SYS_utimes:
		u->need = TAME_UV_W;
		return 0;
	case SYS_lchown:
		u->need = TAME_UV_W;
		u->nofollow = 1;
		return 0;
	case SYS_futimesat:
		u->need = TAME_UV_W;
		goto at;
#endif
	}
	return -1;
at:
	u->dirfd = (int)a[0];
	u->path = 1;
	return 0;
}

/*
 * The caller's file of call nr, as this process's O_PATH descriptor,
 * once its path is copied and the rules give it u->need; or -errno.
 */
static long
find_file(struct sup_req *r, int nr, const uint64_t a[6], struct uv_call *u)
{
	long n, fd;

	if (describe(nr, a, u) != 0)
		return -ENOSYS;
	if (a[u->path] == 0 && u->empty && (nr == SYS_newfstatat ||
	    nr == SYS_statx))
		path_buf[0] = '\0';	/* Linux 6.11+: NULL means "" */
	else if ((n = sup_read_str(r, path_buf, sizeof(path_buf),
	    a[u->path])) < 0)
		return n;
	if (path_buf[0] == '\0' && !u->empty)
		return -ENOENT;
	if (!sup_same_creds(r))
		return -EPERM;
	fd = sup_open_at(r, u->dirfd, path_buf, O_PATH | (u->nofollow ?
	    O_NOFOLLOW : 0), 0);
	if (fd < 0)
		return fd;
	/*
	 * No path: a descriptor's own file, as OpenBSD's f* calls; but
	 * the working directory is no descriptor the caller opened.
	 */
	if ((path_buf[0] != '\0' || u->dirfd == AT_FDCWD) &&
	    !sup_unveil_allows(r, (int)fd, u->need)) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return -EACCES;
	}
	return fd;
}

/*
 * A unix socket's address, as the caller gave it (name, len): under
 * unveil, the socket's file must be unveiled w, and an abstract name is
 * refused.  A path is found as the caller finds it (its working
 * directory and root) and given back as "/proc/self/fd/N" of this
 * process's descriptor of it, *file, for the kernel to follow: the
 * socket checked is the one reached.  0 (the address unchanged where it
 * is no path), or -errno.
 */
long
sup_unix_address(struct sup_req *r, void *name, size_t *len, long *file)
{
	struct sockaddr_un *sun = name;
	size_t off = offsetof(struct sockaddr_un, sun_path), n;
	char proc[32];
	long fd;

	*file = -1;
	if (*len <= off || sun->sun_family != AF_UNIX)
		return 0;		/* unnamed: the kernel's answer */
	if (sun->sun_path[0] == '\0')
		return r->uvid != 0 ? -EACCES : 0;	/* abstract */
	n = *len - off < sizeof(sun->sun_path) ? *len - off :
	    sizeof(sun->sun_path);
	memcpy(path_buf, sun->sun_path, n);
	path_buf[n] = '\0';
	if (!sup_same_creds(r))
		return -EPERM;
	if ((fd = sup_open_at(r, AT_FDCWD, path_buf, O_PATH, 0)) < 0)
		return fd == -ENOENT ? -ENOENT : fd;
	if (!sup_unveil_allows(r, (int)fd, TAME_UV_W)) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return -EACCES;
	}
	self_fd(proc, fd);
	memset(sun->sun_path, 0, sizeof(sun->sun_path));
	memcpy(sun->sun_path, proc, strlen(proc));
	*len = off + strlen(proc) + 1;
	*file = fd;
	return 0;
}

/* The caller's socket's domain: AF_INET and AF_INET6 need inet or dns. */
static long
domain_allowed(struct sup_req *r, long sock)
{
	socklen_t len = sizeof(int);
	int domain = -1;

	if (tame__sys(SYS_getsockopt, sock, SOL_SOCKET, SO_DOMAIN,
	    (long)&domain, (long)&len, 0) != 0)
		return -ENOTSOCK;
	if ((domain == AF_INET || domain == AF_INET6) &&
	    !(r->held & (TAME_INET | TAME_DNSPATH)) &&
	    !tame_unrestricted(r->held))
		return -EACCES;		/* Landlock's TCP rules refuse it */
	return domain;
}

/*
 * The helpers that wait for a connection, a few at a time: one more
 * while these wait is answered EAGAIN.  Each is a pidfd, readable once
 * the helper is gone (it is reaped unwaited for: SIGCHLD ignored).
 */
#define MAXHELPERS	8

static int	helpers[MAXHELPERS];
static int	nhelpers;

static int
helpers_busy(void)
{
	struct pollfd p;
	struct timespec zero = { 0, 0 };
	int i;

	for (i = nhelpers - 1; i >= 0; i--) {
		p.fd = helpers[i];
		p.events = POLLIN;
		p.revents = 0;
		if (tame__sys(SYS_ppoll, (long)&p, 1, (long)&zero, 0, 8, 0) ==
		    0)
			continue;	/* still waiting */
		tame__sys(SYS_close, helpers[i], 0, 0, 0, 0, 0);
		helpers[i] = helpers[--nhelpers];
	}
	return nhelpers == MAXHELPERS;
}

static void
helper_started(long pid)
{
	long fd = tame__sys(SYS_pidfd_open, pid, 0, 0, 0, 0, 0);

	if (fd >= 0 && nhelpers < MAXHELPERS)
		helpers[nhelpers++] = (int)fd;
	else if (fd >= 0)
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
}

/*
 * connect() on the caller's socket (the same open file), to the checked
 * address.  One that would wait is made by a helper process of the
 * supervisor's, which answers the caller when it returns: the
 * supervisor never waits for a connection.
 */
static long
connect_call(struct sup_req *r, const uint64_t a[6])
{
	struct sockaddr_storage addr;
	size_t len = (size_t)a[2];
	long sock, file = -1, ret, fl, pid;

	if (len > sizeof(addr))
		return -EINVAL;
	if (sup_read(r, &addr, a[1], len) != 0)
		return -EFAULT;
	if ((sock = sup_caller_file(r, (int)a[0])) < 0)
		return sock;
	if ((ret = domain_allowed(r, sock)) >= 0)
		ret = ret == AF_UNIX ? sup_unix_address(r, &addr, &len,
		    &file) : 0;
	if (ret < 0)
		goto out;
	fl = tame__sys(SYS_fcntl, sock, F_GETFL, 0, 0, 0, 0);
	if (fl >= 0 && !(fl & O_NONBLOCK)) {
		if (helpers_busy()) {
			ret = -EAGAIN;	/* as a full queue answers */
			goto out;
		}
		pid = tame__sys(SYS_clone, SIGCHLD, 0, 0, 0, 0, 0);
		if (pid == 0) {
			sup_answer(r, tame__sys(SYS_connect, sock, (long)&addr,
			    (long)len, 0, 0, 0));
			tame__sys(SYS_exit_group, 0, 0, 0, 0, 0, 0);
		}
		if (pid > 0) {
			helper_started(pid);
			r->answered = 1;	/* the helper will */
			ret = 0;
			goto out;
		}
	}
	ret = tame__sys(SYS_connect, sock, (long)&addr, (long)len, 0, 0, 0);
out:
	if (file >= 0)
		tame__sys(SYS_close, file, 0, 0, 0, 0, 0);
	tame__sys(SYS_close, sock, 0, 0, 0, 0, 0);
	return ret;
}

/* sendto() with an address, from copies; a full socket: ask again. */
static long
sendto_call(struct sup_req *r, struct tame_ask *q, const uint64_t a[6])
{
	static char data[1 << 20];
	struct sockaddr_storage addr;
	size_t len = (size_t)a[5], size = (size_t)a[2];
	long sock, file = -1, ret, fl;

	if (len > sizeof(addr))
		return -EINVAL;
	if (size > sizeof(data))
		return -EMSGSIZE;
	if (sup_read(r, &addr, a[4], len) != 0 ||
	    sup_read(r, data, a[1], size) != 0)
		return -EFAULT;
	if ((sock = sup_caller_file(r, (int)a[0])) < 0)
		return sock;
	if ((ret = domain_allowed(r, sock)) >= 0)
		ret = ret == AF_UNIX ? sup_unix_address(r, &addr, &len,
		    &file) : 0;
	if (ret >= 0) {
		ret = tame__sys(SYS_sendto, sock, (long)data, (long)size,
		    (long)((int)a[3] | MSG_DONTWAIT | MSG_NOSIGNAL),
		    (long)&addr, (long)len);
		if (ret == -EAGAIN && !((int)a[3] & MSG_DONTWAIT) &&
		    (fl = tame__sys(SYS_fcntl, sock, F_GETFL, 0, 0, 0, 0)) >= 0
		    && !(fl & O_NONBLOCK))
			q->verdict = TAME_ASK_AGAIN;
	}
	if (file >= 0)
		tame__sys(SYS_close, file, 0, 0, 0, 0, 0);
	tame__sys(SYS_close, sock, 0, 0, 0, 0, 0);
	return ret;
}

/* Two struct timeval (or a utimbuf's seconds) as struct timespec. */
static int
times_in(struct sup_req *r, int nr, uint64_t at, struct timespec ts[2])
{
	long v[4];
	int i;

	if (nr == SYS_utimensat)
		return sup_read(r, ts, at, 2 * sizeof(ts[0]));
#ifdef SYS_utime
	if (nr == SYS_utime) {
		if (sup_read(r, v, at, 2 * sizeof(long)) != 0)
			return -EFAULT;
		for (i = 0; i < 2; i++) {
			ts[i].tv_sec = v[i];
			ts[i].tv_nsec = 0;
		}
		return 0;
	}
#endif
	if (sup_read(r, v, at, 4 * sizeof(long)) != 0)
		return -EFAULT;
	for (i = 0; i < 2; i++) {
		if (v[2 * i + 1] < 0 || v[2 * i + 1] >= 1000000)
			return -EINVAL;
		ts[i].tv_sec = v[2 * i];
		ts[i].tv_nsec = v[2 * i + 1] * 1000;
	}
	return 0;
}

/*
 * readlink of /proc/self or /proc/thread-self, which this process would
 * answer with its own numbers: the caller's, into buf (which holds the
 * path).  The length, or 0 for any other path.
 */
static long
proc_self_link(struct sup_req *r, char *buf, size_t len)
{
	long tgid;
	int n;

	if (strcmp(buf, "/proc/self") != 0 &&
	    strcmp(buf, "/proc/thread-self") != 0)
		return 0;
	if ((tgid = r->tgid > 0 ? r->tgid : sup_status_num(r->tid,
	    "\nTgid:")) <= 0)
		return 0;
	n = strcmp(buf, "/proc/self") == 0 ?
	    snprintf(buf, len, "%ld", tgid) :
	    snprintf(buf, len, "%ld/task/%d", tgid, r->tid);
	return n;
}

/* get/list xattr, on the file found, into a copy, then the caller's. */
static long
xattr_read(struct sup_req *r, int nr, const uint64_t a[6], long fd,
    int nofollow)
{
	static char value[65536];	/* XATTR_SIZE_MAX */
	char name[256], proc[32];
	int list = nr == SYS_listxattr || nr == SYS_llistxattr;
	uint64_t buf = list ? a[1] : a[2];
	size_t size = (size_t)(list ? a[2] : a[3]);
	struct stat st;
	long n, ret;

	if (!list && (n = sup_read_str(r, name, sizeof(name), a[1])) < 0)
		return n == -ENAMETOOLONG ? -ERANGE : n;
	if (size > sizeof(value))
		size = sizeof(value);
	/* a symbolic link's own: through its directory, not followed */
	if (nofollow && fstat_fd(fd, &st) == 0 && S_ISLNK(st.st_mode))
		return list ? 0 : -ENODATA;
	self_fd(proc, fd);
	ret = list ? tame__sys(SYS_listxattr, (long)proc, (long)value,
	    (long)size, 0, 0, 0) : tame__sys(SYS_getxattr, (long)proc,
	    (long)name, (long)value, (long)size, 0, 0);
	if (ret > 0 && size > 0 && sup_write(r, buf, value, (size_t)ret) != 0)
		ret = -EFAULT;
	return ret;
}

int
sup_unveil_routed(struct sup_req *r, int nr, const uint64_t a[6])
{
	int row;

	if (r->uvid == 0)
		return 0;
	row = tame_policy_match(r->held | TAME__UNVEILED, nr, a,
	    TAME_ORIGIN(0));
	return row >= 0 && (tame_rules[row].all & TAME__UNVEILED) &&
	    tame_rules[row].action == TA_EMULATE;
}

/*
 * Is the call, without unveil's rows, one the table allows (1), fails
 * softly (0 with *err) or refuses (-1)?
 */
static int
underlying(struct sup_req *r, int nr, const uint64_t a[6], long *err)
{
	struct tame_ids ids;
	tame_atoms held = r->held & ~TAME__UNVEILED;
	int row;

	tame__own_ids(&ids);		/* the caller's: sup_same_creds() */
	row = tame_policy_match(held, nr, a, TAME_ORIGIN_IDS(r->tgid, &ids));
	if (row < 0)
		return tame_unrestricted(held) ? 1 : -1;
	switch (tame_rules[row].action) {
	case TA_ALLOW:
		return 1;
	case TA_ERRNO:
		*err = -tame_rules[row].errnum;
		return 0;
	case TA_EMULATE:		/* set/remove xattr: xattr_call() */
		return 1;
	}
	return -1;
}

long
sup_unveil_call(struct sup_req *r, struct tame_ask *q)
{
	struct uv_call u;
	struct timespec ts[2];
	struct stat st;
	char proc[32];
	uint64_t a[6];
	long fd, ret, err = 0, dir;
	int nr = q->nr;

	memcpy(a, q->a, sizeof(a));
	tame__strip_setid(nr, a);	/* a chmod's bits, as the handler's */
	switch (underlying(r, nr, a, &err)) {
	case 0:
		return err;
	case -1:
		q->verdict = TAME_VERDICT_VIOLATION;
		return -ENOSYS;
	}
	switch (nr) {
	case SYS_connect:
		return connect_call(r, a);
	case SYS_sendto:
		return sendto_call(r, q, a);
	}
	if ((fd = find_file(r, nr, a, &u)) < 0)
		return fd;
	self_fd(proc, fd);
	switch (nr) {
	case SYS_newfstatat:
#ifdef SYS_stat
	case SYS_stat:
	case SYS_lstat:
#endif
		ret = fstat_fd(fd, &st) == 0 ? 0 : -EIO;
		if (ret == 0 && sup_write(r, a[nr == SYS_newfstatat ? 2 : 1],
		    &st, sizeof(st)) != 0)
			ret = -EFAULT;
		break;
	case SYS_statfs: {
		struct statfs fs;

		ret = tame__sys(SYS_fstatfs, fd, (long)&fs, 0, 0, 0, 0);
		if (ret == 0 && sup_write(r, a[1], &fs, sizeof(fs)) != 0)
			ret = -EFAULT;
		break;
	}
	case SYS_statx: {
		static char stx[256];	/* struct statx, and room */

		ret = tame__sys(SYS_statx, fd, (long)"", AT_EMPTY_PATH |
		    ((int)a[2] & AT_STATX_SYNC_TYPE), (long)(unsigned)a[3],
		    (long)stx, 0);
		if (ret == 0 && sup_write(r, a[4], stx, 256) != 0)
			ret = -EFAULT;
		break;
	}
	case SYS_faccessat:
	case SYS_faccessat2:
#ifdef SYS_access
	case SYS_access:
#endif
		ret = tame__sys(SYS_faccessat2, fd, (long)"", (long)(int)a[
		    u.path + 1], AT_EMPTY_PATH | (nr == SYS_faccessat2 ?
		    ((int)a[3] & AT_EACCESS) : 0), 0, 0);
		break;
	case SYS_readlinkat:
#ifdef SYS_readlink
	case SYS_readlink:
#endif
	{
		int at = nr == SYS_readlinkat;
		size_t size = (size_t)a[at + 2];

		if ((int)a[at + 2] <= 0) {
			ret = -EINVAL;
			break;
		}
		if (size > sizeof(path_buf))
			size = sizeof(path_buf);
		if ((ret = proc_self_link(r, path_buf, sizeof(path_buf))) == 0)
			ret = tame__sys(SYS_readlinkat, fd, (long)"",
			    (long)path_buf, (long)size, 0, 0);
		else if (ret > (long)size)
			ret = (long)size;
		if (ret > 0 && sup_write(r, a[at + 1], path_buf,
		    (size_t)ret) != 0)
			ret = -EFAULT;
		break;
	}
	case SYS_chdir:
		/*
		 * No call moves another process: a chdir the first filter
		 * sent (an exec tree's) goes on once checked.  A thread that
		 * rewrites the path in between can enter a hidden directory,
		 * and learns it is there: every call made from it is still
		 * judged by where it leads (Landlock, and here).
		 */
		if (r->nr != TAME_ASK_NR) {
			r->cont = 1;
			ret = 0;
			break;
		}
		/*
		 * A directory the handler moves to (fchdir), handed in as a
		 * descriptor: ADDFD hands in none made by O_PATH.
		 */
		dir = tame__sys(SYS_openat, AT_FDCWD, (long)proc, O_RDONLY |
		    O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
		ret = dir < 0 ? dir : sup_addfd(r, (int)dir, 1);
		if (dir >= 0)
			tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
		break;
	case SYS_openat:
#ifdef SYS_open
	case SYS_open:
#endif
	{
		/* O_PATH: the file opened for reading (ADDFD's limit) */
		int flags = (int)a[nr == SYS_openat ? 2 : 1];
		long f = tame__sys(SYS_openat, AT_FDCWD, (long)proc, O_RDONLY |
		    O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (flags & O_DIRECTORY),
		    0, 0, 0);

		ret = f < 0 ? f : sup_addfd(r, (int)f, flags & O_CLOEXEC);
		if (f >= 0)
			tame__sys(SYS_close, f, 0, 0, 0, 0, 0);
		break;
	}
	case SYS_truncate:
		ret = tame__sys(SYS_truncate, (long)proc, (long)a[1], 0, 0, 0,
		    0);
		break;
	case SYS_fchmodat:
#ifdef SYS_chmod
	case SYS_chmod:
#endif
		ret = tame__sys(SYS_fchmodat, AT_FDCWD, (long)proc,
		    (long)(unsigned)a[nr == SYS_fchmodat ? 2 : 1], 0, 0, 0);
		break;
	case SYS_fchownat:
#ifdef SYS_chown
	case SYS_chown:
	case SYS_lchown:
#endif
	{
		int at = nr == SYS_fchownat;

		ret = tame__sys(SYS_fchownat, fd, (long)"", (long)(int)a[at +
		    1], (long)(int)a[at + 2], AT_EMPTY_PATH, 0);
		break;
	}
	case SYS_utimensat:
#ifdef SYS_utime
	case SYS_utime:
	case SYS_utimes:
	case SYS_futimesat:
#endif
	{
		uint64_t times = a[u.path + 1];	/* after the path */

		if (times != 0 && (ret = times_in(r, nr, times, ts)) != 0)
			break;
		ret = tame__sys(SYS_utimensat, fd, (long)"", times != 0 ?
		    (long)ts : 0, AT_EMPTY_PATH, 0, 0);
		break;
	}
	case SYS_getxattr:
	case SYS_lgetxattr:
	case SYS_listxattr:
	case SYS_llistxattr:
		ret = xattr_read(r, nr, a, fd, u.nofollow);
		break;
	default:
		ret = -ENOSYS;
	}
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return ret;
}
