/* SPDX-License-Identifier: ISC */
/*
 * cmsg.c: descriptors pass over AF_UNIX sockets only with TAME_CMSG.
 *
 * Seccomp cannot read a msghdr, so the message calls are the handler's
 * to check, but only where a check can matter.  A descriptor can only
 * travel over an AF_UNIX socket, and a process that holds none pays
 * nothing: its first tame() looks through its descriptors, and if none
 * is an AF_UNIX socket it keeps the internal state bit NOUNIX, under
 * which the filter lets the message calls straight through (policy.c).
 * Creating an AF_UNIX socket (socketpair, or socket under UNIX) traps;
 * the first one stacks a small filter that turns the checks on, and from
 * then on, without CMSG:
 *
 *	sendmsg, sendmmsg	the handler copies the header and the
 *				ancillary data once; SCM_RIGHTS is a
 *				violation, anything else is sent from the
 *				copy, so what was checked is what is sent
 *	recvmsg, recvmmsg	the handler receives into its own buffer,
 *				closes every descriptor that arrived, drops
 *				those messages, sets MSG_CTRUNC, and hands
 *				back the data and the other messages
 */
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

#include "gate.h"
#include "policy.h"
#include "tame_int.h"

#ifndef SCM_PIDFD
#define SCM_PIDFD	0x04		/* Linux 6.5: a pidfd of the sender */
#endif

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

/* Does this message bring descriptors with it? */
static int
brings_fds(const struct cmsghdr *h)
{
	return h->cmsg_level == SOL_SOCKET && (h->cmsg_type == SCM_RIGHTS ||
	    h->cmsg_type == SCM_PIDFD);
}

/*
 * Close the descriptors SCM_RIGHTS (and SCM_PIDFD) brought and drop
 * those messages, keeping the others in order.  Returns the new length;
 * *dropped is set when anything went.
 */
static size_t
scrub(unsigned char *ctl, size_t len, int *dropped)
{
	struct cmsghdr h;
	size_t in = 0, out = 0, step, i, n;
	int fd;

	while (in <= len && len - in >= sizeof(h)) {
		memcpy(&h, ctl + in, sizeof(h));
		if (h.cmsg_len < sizeof(h) || h.cmsg_len > len - in)
			break;
		step = CMSG_ALIGN(h.cmsg_len);
		if (step > len - in)
			step = len - in;
		if (brings_fds(&h)) {
			n = (h.cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (i = 0; i < n; i++) {
				memcpy(&fd, ctl + in + CMSG_LEN(0) +
				    i * sizeof(int), sizeof(int));
				tame__gate(SYS_close, fd, 0, 0, 0, 0, 0);
			}
			*dropped = 1;
		} else {
			memmove(ctl + out, ctl + in, step);
			out += step;
		}
		in += step;
	}
	return out;
}

/*
 * One checked send of the msghdr at umsg.  Returns the result, or -1
 * with c->detail set when it carries descriptors.
 */
static long
send_one(struct tame_call *c, int fd, uint64_t umsg, int flags,
    int *refused)
{
	unsigned char *ctl = (unsigned char *)c->buf;
	struct msghdr m;
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
			*refused = 1;
			return -1;
		}
		m.msg_control = ctl;
	}
	return tame__gate(SYS_sendmsg, fd, (long)&m, flags, 0, 0, 0);
}

/*
 * One receive into the msghdr at umsg, descriptors closed.  Everything
 * the handler will write back is probed first, so that a bad msghdr is
 * EFAULT before a message is taken, as without tame().
 */
static long
recv_one(struct tame_call *c, int fd, uint64_t umsg, int flags)
{
	unsigned char *ctl = (unsigned char *)c->buf;
	struct msghdr m, *um = (struct msghdr *)(uintptr_t)umsg;
	void *uctl;
	size_t ulen, n;
	long r;
	int dropped = 0, namelen, mflags;

	if (tame__copy_in(&m, umsg, sizeof(m)) < 0)
		return -EFAULT;
	namelen = (int)m.msg_namelen;
	mflags = m.msg_flags;
	uctl = m.msg_control;
	ulen = uctl != NULL ? m.msg_controllen : 0;
	if (ulen > sizeof(c->buf))
		ulen = sizeof(c->buf);
	/* the fields written back, and the room for ancillary data */
	if (!tame__writable((uintptr_t)&um->msg_namelen, 4))
		return -EFAULT;
	if (!tame__writable((uintptr_t)&um->msg_flags, 4)) {
		um->msg_namelen = (socklen_t)namelen;
		return -EFAULT;
	}
	if ((ulen >= 4 && !tame__writable((uintptr_t)uctl, ulen)) ||
	    (ulen > 0 && ulen < 4 && tame__copy_in(&n, (uintptr_t)uctl, 1) <
	    0)) {
		r = -EFAULT;
		goto restore;
	}
	if (ulen > 0) {
		m.msg_control = ctl;
		m.msg_controllen = ulen;
	}
	r = tame__gate(SYS_recvmsg, fd, (long)&m, flags | MSG_CMSG_CLOEXEC, 0,
	    0, 0);
	if (r < 0)
		goto restore;
	if (ulen > 0) {
		n = scrub(ctl, m.msg_controllen, &dropped);
		memcpy(uctl, ctl, n);
		m.msg_controllen = n;
		if (dropped)
			m.msg_flags |= MSG_CTRUNC;
	}
	/* the close-on-exec the handler asked for is not the program's */
	if (!(flags & MSG_CMSG_CLOEXEC))
		m.msg_flags &= ~MSG_CMSG_CLOEXEC;
	um->msg_namelen = m.msg_namelen;
	um->msg_controllen = m.msg_controllen;
	um->msg_flags = m.msg_flags;
	return r;
restore:
	/* the probes wrote there: put back what the program had */
	um->msg_namelen = (socklen_t)namelen;
	um->msg_flags = mflags;
	return r;
}

/*
 * sendmmsg and recvmmsg, as loops over the single calls: the count
 * done, or the first error when nothing was.  recvmmsg's timeout is
 * approximated as "do not wait after the first message", which is when
 * the kernel looks at it too.
 */
static long
mmsg(struct tame_call *c, int send)
{
	unsigned int i, vlen = (unsigned int)c->a[2];
	int fd = (int)c->a[0], flags = (int)c->a[3], f, refused = 0;
	struct mmsghdr *v = (struct mmsghdr *)(uintptr_t)c->a[1];
	long r;

	if (vlen > UIO_MAXIOV)
		vlen = UIO_MAXIOV;
	for (i = 0; i < vlen; i++) {
		if (send)
			r = send_one(c, fd, (uintptr_t)&v[i].msg_hdr, flags,
			    &refused);
		else {
			f = flags & ~MSG_WAITFORONE;
			if (i > 0 && ((flags & MSG_WAITFORONE) || c->a[4]))
				f |= MSG_DONTWAIT;
			r = recv_one(c, fd, (uintptr_t)&v[i].msg_hdr, f);
		}
		if (refused)
			return -1;
		if (r >= 0 && !tame__writable((uintptr_t)&v[i].msg_len, 4))
			r = -EFAULT;	/* sent or taken: the kernel says so too */
		if (r < 0)
			return i == 0 ? r : (long)i;
		v[i].msg_len = (unsigned int)r;
	}
	return (long)i;
}

int
tame__cmsg_emulate(tame_atoms held, struct tame_call *c, long *ret)
{
	int refused = 0;

	(void)held;
	switch (c->nr) {
	case SYS_sendmsg:
		*ret = send_one(c, (int)c->a[0], c->a[1], (int)c->a[2],
		    &refused);
		return refused ? -1 : 0;
	case SYS_sendmmsg:
		*ret = mmsg(c, 1);
		return c->detail != NULL ? -1 : 0;
	case SYS_recvmsg:
		*ret = recv_one(c, (int)c->a[0], c->a[1], (int)c->a[2]);
		return 0;
	case SYS_recvmmsg:
		*ret = mmsg(c, 0);
		return 0;
	case SYS_socketpair:
	case SYS_socket:
		/* an AF_UNIX socket: the message checks go on first */
		if ((*ret = tame__unix_checks_on()) < 0)
			return 0;
		*ret = tame__gate(c->nr, (long)c->a[0], (long)c->a[1],
		    (long)c->a[2], (long)c->a[3], 0, 0);
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

	return tame__gate(SYS_getsockopt, fd, SOL_SOCKET, SO_DOMAIN,
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

	dir = tame__gate(SYS_openat, AT_FDCWD, (long)"/proc/self/fd",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (dir < 0)
		return 1;
	while (!found && (n = tame__gate(SYS_getdents64, dir, (long)buf,
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
	tame__gate(SYS_close, dir, 0, 0, 0, 0, 0);
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

	if (tame__gate(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, (long)&rl, 0,
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
		if (tame__gate(SYS_ppoll, (long)p, n, (long)&zero, 0, 8, 0) < 0)
			return proc_scan();
		for (i = 0; i < n; i++)
			if (!(p[i].revents & POLLNVAL) && is_unix(base + i))
				return 1;
	}
	return 0;
}
