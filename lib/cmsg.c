/* SPDX-License-Identifier: ISC */
/*
 * cmsg.c: descriptors pass over AF_UNIX sockets only with TAME_CMSG.
 *
 * Seccomp cannot read a msghdr, so the message calls are the handler's
 * to check, but only where a check can matter.  A descriptor can only
 * travel over an AF_UNIX socket, and a process that holds none pays
 * nothing: its first tame() looks through its descriptors, and if none
 * is an AF_UNIX socket it keeps the internal state bit NOUNIX, under
 * which the filter lets the message calls straight through and refuses
 * it a new AF_UNIX socket (policy.c).  Otherwise, without CMSG, the
 * message calls trap, and the handler makes them in forms that cannot
 * carry descriptors at all, which any code of the process may make:
 *
 *	sendmsg, sendmmsg	the handler copies the header and the
 *				ancillary data once; SCM_RIGHTS is a
 *				violation; a message without ancillary
 *				data is sent by sendto() (one per message,
 *				its pieces gathered first), which carries
 *				none
 *	recvmsg, recvmmsg	received by recvfrom(), which offers the
 *				kernel no room for ancillary data: the
 *				kernel drops a descriptor that came, and
 *				never installs it in the process; where the
 *				program offered room, MSG_CTRUNC says that
 *				nothing was delivered there
 *
 * Other ancillary data (credentials, a UDP segment size) cannot ride on
 * sendto(): the supervisor sends such a message, where one runs
 * (supervisor.h); without one it fails with EOPNOTSUPP.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "policy.h"
#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"

/* Pieces of one message the handler gathers on its stack. */
#define GATHER_STACK	2048
/* A message longer than this, in pieces, is sent up to this length. */
#define GATHER_MAX	(1u << 20)

/*
 * Walk ancillary data as the kernel does (CMSG_OK, then the next header
 * if a whole one fits).  Returns 1 when it carries SCM_RIGHTS, 0 when
 * not, -EINVAL when the kernel would refuse it as malformed.
 */
static int
carries_rights(const unsigned char *ctl, size_t len)
{
	struct cmsghdr h;
	size_t off = 0;

	while (off <= len && len - off >= sizeof(h)) {
		memcpy(&h, ctl + off, sizeof(h));
		if (h.cmsg_len < sizeof(h) || h.cmsg_len > len - off)
			return -EINVAL;
		if (h.cmsg_level == SOL_SOCKET && h.cmsg_type == SCM_RIGHTS)
			return 1;
		off += CMSG_ALIGN(h.cmsg_len);
	}
	return 0;
}

/*
 * carries_rights() for the tests alone (tests/fuzz/fuzz_decode.c walks
 * hostile ancillary data through it): the same walk, nothing else.
 */
int
tame__cmsg_rights(const void *ctl, size_t len)
{
	return carries_rights(ctl, len);
}

/*
 * The message's pieces in one buffer: sendto() takes one.  A single
 * piece is sent from where it is; more are copied, on the stack when
 * short, else into memory of their own (MALLOC's, which every process
 * that may hold a socket holds in practice; without it, EMSGSIZE).
 * Returns the length, with *buf set (*map to what to unmap, or NULL).
 */
static long
gather(const struct msghdr *m, char *stack, void **buf, void **map,
    size_t *maplen)
{
	struct iovec iov;
	size_t total = 0, off = 0, i;
	long p;

	*map = NULL;
	if (m->msg_iovlen == 0) {
		*buf = stack;
		return 0;
	}
	if (m->msg_iovlen == 1) {
		if (tame__copy_in(&iov, (uintptr_t)m->msg_iov,
		    sizeof(iov)) < 0)
			return -EFAULT;
		*buf = iov.iov_base;
		return (long)iov.iov_len;
	}
	if (m->msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	for (i = 0; i < m->msg_iovlen; i++) {
		if (tame__copy_in(&iov, (uintptr_t)&m->msg_iov[i],
		    sizeof(iov)) < 0)
			return -EFAULT;
		total += iov.iov_len;
	}
	if (total > GATHER_MAX)
		total = GATHER_MAX;
	if (total <= GATHER_STACK)
		*buf = stack;
	else if (!(tame__state.held & TAME_MALLOC))
		return -EMSGSIZE;
	else {
		p = tame__sys(SYS_mmap, 0, (long)total, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p < 0 && p > -4096)
			return p;
		*buf = *map = (void *)p;
		*maplen = total;
	}
	for (i = 0; i < m->msg_iovlen && off < total; i++) {
		if (tame__copy_in(&iov, (uintptr_t)&m->msg_iov[i],
		    sizeof(iov)) < 0)
			return -EFAULT;
		if (iov.iov_len > total - off)
			iov.iov_len = total - off;
		if (iov.iov_len > 0 && tame__copy_in((char *)*buf + off,
		    (uintptr_t)iov.iov_base, iov.iov_len) < 0)
			return -EFAULT;
		off += iov.iov_len;
	}
	return (long)total;
}

/*
 * One checked send of the msghdr at umsg.  Returns the result, or
 * LONG_MIN when it carries descriptors (c->detail set), or
 * LONG_MIN + 1 when the supervisor should send it.
 */
static long
send_one(struct tame_call *c, int fd, uint64_t umsg, int flags)
{
	unsigned char *ctl = (unsigned char *)c->buf;
	char stack[GATHER_STACK];
	struct msghdr m;
	void *buf, *map;
	size_t maplen = 0;
	long len, r;
	int k;

	if (tame__copy_in(&m, umsg, sizeof(m)) < 0)
		return -EFAULT;
	if (m.msg_control != NULL && m.msg_controllen > 0) {
		if (m.msg_controllen > sizeof(c->buf))
			return -ENOBUFS;
		if (tame__copy_in(ctl, (uintptr_t)m.msg_control,
		    m.msg_controllen) < 0)
			return -EFAULT;
		if ((k = carries_rights(ctl, m.msg_controllen)) < 0)
			return k;
		if (!tame__trap_allows(tame__state.held, SYS_sendmsg, c->a,
		    &(struct tame_seen){ .rights = k == 1 })) {
			c->detail = "SCM_RIGHTS";
			c->need = TAME_CMSG;
			return LONG_MIN;
		}
		if (k == 0 && m.msg_controllen >= sizeof(struct cmsghdr))
			return LONG_MIN + 1;	/* other ancillary data */
		/* descriptors, trapped for unveil's sake: sent exactly */
		if (k == 1)
			return LONG_MIN + 1;
	}
	/* an address needs the flags sendto() with one needs */
	/* or a path unveil's lock checks (sup_unveil.c) */
	if (m.msg_name != NULL && m.msg_namelen > 0 &&
	    (!(tame__state.held & (TAME_INET | TAME_UNIX | TAME_DNSPATH)) ||
	    (tame__state.held & TAME__UNVEILED)))
		return LONG_MIN + 1;
	if ((len = gather(&m, stack, &buf, &map, &maplen)) < 0)
		return len;
	r = tame__sys(SYS_sendto, fd, (long)buf, len, flags,
	    m.msg_namelen > 0 ? (long)m.msg_name : 0,
	    m.msg_namelen > 0 ? (long)m.msg_namelen : 0);
	if (map != NULL)
		tame__sys(SYS_munmap, (long)map, (long)maplen, 0, 0, 0, 0);
	return r;
}

/*
 * One receive into the msghdr at umsg, by recvfrom(): no room for
 * ancillary data, so the kernel installs no descriptor.  The data goes
 * where the program's pieces are (one at a time, for a stream; a
 * datagram in pieces is received whole and spread).
 */
static long
recv_one(int fd, uint64_t umsg, int flags)
{
	struct msghdr m, *um = (struct msghdr *)(uintptr_t)umsg;
	struct iovec iov;
	char stack[GATHER_STACK];
	void *buf = stack, *map = NULL;
	size_t total = 0, off = 0, i, n;
	socklen_t namelen;
	long r, p;

	if (tame__copy_in(&m, umsg, sizeof(m)) < 0)
		return -EFAULT;
	if (!tame__writable((uintptr_t)&um->msg_flags, 4) ||
	    (m.msg_name != NULL && !tame__writable((uintptr_t)&um->msg_namelen,
	    4)))
		return -EFAULT;
	namelen = m.msg_name != NULL ? m.msg_namelen : 0;
	if (m.msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	if (m.msg_iovlen == 1) {
		if (tame__copy_in(&iov, (uintptr_t)m.msg_iov, sizeof(iov)) < 0)
			return -EFAULT;
		buf = iov.iov_base;
		total = iov.iov_len;
	} else {
		for (i = 0; i < m.msg_iovlen; i++) {
			if (tame__copy_in(&iov, (uintptr_t)&m.msg_iov[i],
			    sizeof(iov)) < 0)
				return -EFAULT;
			total += iov.iov_len;
		}
		if (total > GATHER_MAX)
			total = GATHER_MAX;
		if (total > GATHER_STACK) {
			if (!(tame__state.held & TAME_MALLOC))
				return -EMSGSIZE;
			p = tame__sys(SYS_mmap, 0, (long)total, PROT_READ |
			    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p < 0 && p > -4096)
				return p;
			buf = map = (void *)p;
		}
	}
	r = tame__sys(SYS_recvfrom, fd, (long)buf, (long)total, flags &
	    ~MSG_CMSG_CLOEXEC, (long)(namelen > 0 ? m.msg_name : NULL),
	    namelen > 0 ? (long)&namelen : 0);
	if (r >= 0 && m.msg_iovlen > 1) {
		/* spread what came over the pieces, as the kernel would */
		for (i = 0; i < m.msg_iovlen && off < (size_t)r; i++) {
			if (tame__copy_in(&iov, (uintptr_t)&m.msg_iov[i],
			    sizeof(iov)) < 0)
				break;
			n = iov.iov_len < (size_t)r - off ? iov.iov_len :
			    (size_t)r - off;
			/* a bad piece: the kernel's EFAULT would come after
			   the data was taken, so the data stops there too */
			if (n >= 4 && !tame__writable((uintptr_t)iov.iov_base,
			    n))
				break;
			memcpy(iov.iov_base, (char *)buf + off, n);
			off += n;
		}
	}
	if (map != NULL)
		tame__sys(SYS_munmap, (long)map, (long)total, 0, 0, 0, 0);
	if (r < 0)
		return r;
	if (m.msg_name != NULL)
		um->msg_namelen = namelen;
	/* room offered, nothing delivered there: what was dropped is said */
	if (m.msg_control != NULL && m.msg_controllen > 0) {
		if (!tame__writable((uintptr_t)&um->msg_controllen,
		    sizeof(um->msg_controllen)))
			return -EFAULT;
		um->msg_controllen = 0;
		um->msg_flags = MSG_CTRUNC;
	} else
		um->msg_flags = 0;
	return r;
}

/*
 * sendmmsg and recvmmsg, as loops over the single calls: the count
 * done, or the first error when nothing was.  recvmmsg's timeout is
 * approximated as "do not wait after the first message", which is when
 * the kernel looks at it too.
 */
static long
mmsg(struct tame_call *c, int send, int *refused)
{
	unsigned int i, vlen = (unsigned int)c->a[2];
	int fd = (int)c->a[0], flags = (int)c->a[3], f;
	struct mmsghdr *v = (struct mmsghdr *)(uintptr_t)c->a[1];
	long r;

	if (vlen > UIO_MAXIOV)
		vlen = UIO_MAXIOV;
	for (i = 0; i < vlen; i++) {
		if (send)
			r = send_one(c, fd, (uintptr_t)&v[i].msg_hdr, flags);
		else {
			f = flags & ~MSG_WAITFORONE;
			if (i > 0 && ((flags & MSG_WAITFORONE) || c->a[4]))
				f |= MSG_DONTWAIT;
			r = recv_one(fd, (uintptr_t)&v[i].msg_hdr, f);
		}
		if (r == LONG_MIN) {
			*refused = 1;	/* descriptors: a violation */
			return -1;
		}
		if (r == LONG_MIN + 1) {
			if (i > 0)
				return (long)i;	/* the rest on the next call */
			*refused = 2;
			return -1;
		}
		if (r >= 0 && !tame__writable((uintptr_t)&v[i].msg_len, 4))
			r = -EFAULT;	/* sent or taken: the kernel says so too */
		if (r < 0)
			return i == 0 ? r : (long)i;
		v[i].msg_len = (unsigned int)r;
	}
	return (long)i;
}

/*
 * The supervisor sends a message sendto() cannot carry (else EOPNOTSUPP),
 * or receives one whose ancillary data recvfrom() would lose: exactly,
 * keeping descriptors back.  It never waits for a process; the handler
 * waits for the socket and asks again.
 */
static int
send_by_supervisor(struct tame_call *c, long *ret)
{
	struct tame_ask q;
	short events = c->nr == SYS_recvmsg || c->nr == SYS_recvmmsg ?
	    POLLIN : POLLOUT;

	if (!tame__supervised()) {
		*ret = -EOPNOTSUPP;
		return 0;
	}
	for (;;) {
		memset(&q, 0, sizeof(q));
		q.nr = c->nr;
		memcpy(q.a, c->a, sizeof(q.a));
		*ret = tame__ask(TAME_ASK_CALL, &q);
		if (q.verdict != TAME_ASK_AGAIN)
			break;
		/* a socket the program waits on: wait here, not there */
		tame__sys(SYS_ppoll, (long)&(struct pollfd){ (int)c->a[0],
		    events, 0 }, 1, 0, 0, 8, 0);
	}
	if (q.verdict == TAME_VERDICT_VIOLATION) {
		c->detail = "SCM_RIGHTS";
		c->need = TAME_CMSG;
		return -1;
	}
	return 0;
}

/* Does the (first) msghdr of a receive offer room for ancillary data? */
static int
offers_control(const struct tame_call *c)
{
	struct msghdr m;

	return tame__copy_in(&m, c->a[1], sizeof(m)) == 0 &&
	    m.msg_control != NULL && m.msg_controllen > 0;
}

int
tame__cmsg_emulate(tame_atoms held, struct tame_call *c, long *ret)
{
	int refused = 0;

	(void)held;
	switch (c->nr) {
	case SYS_sendmsg:
		*ret = send_one(c, (int)c->a[0], c->a[1], (int)c->a[2]);
		if (*ret == LONG_MIN)
			return -1;
		if (*ret == LONG_MIN + 1)
			return send_by_supervisor(c, ret);
		return 0;
	case SYS_sendmmsg:
		*ret = mmsg(c, 1, &refused);
		if (refused == 1)
			return -1;
		if (refused == 2)
			return send_by_supervisor(c, ret);
		return 0;
	case SYS_socketpair:
		/* an AF_UNIX pair: the message checks go on first */
		if ((*ret = tame__unix_checks_on()) < 0)
			return 0;
		*ret = tame__sys(SYS_socketpair, (long)c->a[0], (long)c->a[1],
		    (long)c->a[2], (long)c->a[3], TAME_MARK, 0);
		return 0;
	case SYS_recvmsg:
	case SYS_recvmmsg:
		/* room for ancillary data, and one to keep it exact */
		if (tame__supervised() && offers_control(c))
			return send_by_supervisor(c, ret);
		if (c->nr == SYS_recvmsg)
			*ret = recv_one((int)c->a[0], c->a[1], (int)c->a[2]);
		else
			*ret = mmsg(c, 0, &refused);
		return 0;
	}
	return -1;
}

/* Is fd an AF_UNIX socket? */
static int
is_unix(int fd)
{
	socklen_t len = sizeof(int);
	int domain;

	return tame__sys(SYS_getsockopt, fd, SOL_SOCKET, SO_DOMAIN,
	    (long)&domain, (long)&len, 0) == 0 && domain == AF_UNIX;
}

/* The same question through /proc/self/fd: slow, but for any fd. */
static int
proc_scan(void)
{
	char buf[2048];
	struct dirent64 *d;
	long n, off, dir;
	int fd, found = 0;
	const char *p;

	dir = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self/fd",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (dir < 0)
		return 1;
	while (!found && (n = tame__sys(SYS_getdents64, dir, (long)buf,
	    sizeof(buf), 0, 0, 0)) > 0) {
		for (off = 0; off < n && !found; off += d->d_reclen) {
			d = (struct dirent64 *)(buf + off);
			for (fd = 0, p = d->d_name; *p >= '0' && *p <= '9'; p++)
				fd = fd * 10 + (*p - '0');
			if (*p == '\0' && p != d->d_name && fd != dir)
				found = is_unix(fd);
		}
	}
	if (n < 0)
		found = 1;
	tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
	return found;
}

/*
 * Does the process hold an AF_UNIX socket?  Asked at the first tame(),
 * before any filter; any doubt answers yes.  poll() on every possible
 * descriptor number at once says which are open (the rest are POLLNVAL),
 * and only those are asked their domain: a few microseconds, where a
 * walk of /proc/self/fd costs a fresh process some fifty.  That walk is
 * left for processes allowed more than SCAN_MAX descriptors.
 */
#define SCAN_CHUNK	128
#define SCAN_MAX	4096

int
tame__holds_unix_socket(void)
{
	struct pollfd p[SCAN_CHUNK];
	struct timespec zero = { 0, 0 };
	struct rlimit rl;
	int base, i, n, limit;

	if (tame__sys(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, (long)&rl, 0,
	    0) != 0 || rl.rlim_cur > SCAN_MAX)
		return proc_scan();
	limit = (int)rl.rlim_cur;
	for (base = 0; base < limit; base += SCAN_CHUNK) {
		n = limit - base < SCAN_CHUNK ? limit - base : SCAN_CHUNK;
		for (i = 0; i < n; i++) {
			p[i].fd = base + i;
			p[i].events = 0;
			p[i].revents = 0;
		}
		if (tame__sys(SYS_ppoll, (long)p, n, (long)&zero, 0, 8, 0) < 0)
			return proc_scan();
		for (i = 0; i < n; i++)
			if (!(p[i].revents & POLLNVAL) && is_unix(base + i))
				return 1;
	}
	return 0;
}
