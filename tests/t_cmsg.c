/* SPDX-License-Identifier: ISC */
/*
 * t_cmsg.c: descriptors pass over AF_UNIX sockets only with TAME_CMSG.
 *
 * Without CMSG, sending SCM_RIGHTS is a violation naming sendmsg and
 * cmsg, and a descriptor sent to the process is closed on arrival while
 * the data still comes through with MSG_CTRUNC; with CMSG both work.
 * Each case is run three ways, since the checks turn on three ways: the
 * socket was open before tame() (the first tame() finds it), a
 * socketpair() made after tame(), a socket() made after tame() under
 * UNIX (the first AF_UNIX socket stacks the checks).
 *
 * What a tamed grandchild sent is read by the untamed test process;
 * what it received is proven closed by the kernel itself: the only write
 * end of a pipe travels in the message, so once the handler has closed
 * it, the read end sees end-of-file.
 */
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <linux/seccomp.h>
#include <netinet/in.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "harness.h"
#include "policy.h"
#include "tame.h"
#include "tame_int.h"

#define REACHED		99	/* a call that should have killed returned */

/* How the tamed process comes by its AF_UNIX socket. */
enum how {
	BEFORE,			/* inherited, open at tame() */
	PAIR_AFTER,		/* socketpair() after tame() */
	SOCKET_AFTER,		/* socket() + connect() after tame(), UNIX */
};

struct cx {
	int		 how;
	int		 flags;
	int		 sv[2];		/* the test process's pair, or -1 */
	int		 lsock;		/* listening socket for SOCKET_AFTER */
	char		 path[108];
	int		 pipe[2];	/* the descriptor that travels */
	int		 sync;		/* pipe end the grandchild writes to */
};

/* For receiving, PAIR_AFTER is a pair made while CMSG was held. */
static const char *const how_name[] = { "before", "pair-after",
    "socket-after" };

union ctl {
	struct cmsghdr	 hdr;
	char		 buf[CMSG_SPACE(2 * sizeof(int))];
};

static ssize_t
send_with_fd(int s, const char *data, int fd)
{
	union ctl u;
	struct msghdr m;
	struct cmsghdr *cm;
	struct iovec iov = { (void *)data, strlen(data) };

	memset(&m, 0, sizeof(m));
	memset(&u, 0, sizeof(u));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = CMSG_SPACE(sizeof(int));
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(s, &m, 0);
}

/* Receive: the data into buf, a descriptor (or -1), the msg flags. */
static ssize_t
recv_with_fd(int s, char *buf, size_t len, int *fd, int *flags)
{
	union ctl u;
	struct msghdr m;
	struct cmsghdr *cm;
	struct iovec iov = { buf, len };
	ssize_t n;

	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	*fd = -1;
	if ((n = recvmsg(s, &m, 0)) < 0)
		return n;
	*flags = m.msg_flags;
	for (cm = CMSG_FIRSTHDR(&m); cm != NULL; cm = CMSG_NXTHDR(&m, cm))
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return n;
}

/* The test process's side, before the grandchild exists. */
static void
cx_init(struct cx *c, int how, int flags)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	memset(c, 0, sizeof(*c));
	c->how = how;
	c->flags = flags | (how == SOCKET_AFTER ? TAME_UNIX : 0);
	c->sv[0] = c->sv[1] = c->lsock = -1;
	ck_assert_int_eq(pipe(c->pipe), 0);
	if (how == BEFORE)
		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, c->sv), 0);
	if (how == SOCKET_AFTER) {
		snprintf(c->path, sizeof(c->path), "/var/tmp/t_cmsg.%d",
		    (int)getpid());
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", c->path);
		unlink(c->path);
		ck_assert_int_ge(c->lsock = socket(AF_UNIX, SOCK_STREAM, 0), 0);
		ck_assert_int_eq(bind(c->lsock, (struct sockaddr *)&sun,
		    sizeof(sun)), 0);
		ck_assert_int_eq(listen(c->lsock, 1), 0);
	}
}

static void
cx_done(struct cx *c)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (c->sv[i] != -1)
			close(c->sv[i]);
		if (c->pipe[i] != -1)
			close(c->pipe[i]);
	}
	if (c->lsock != -1)
		close(c->lsock);
	if (c->path[0] != '\0')
		unlink(c->path);
}

/*
 * In the tamed grandchild: an AF_UNIX socket and its peer.  For
 * SOCKET_AFTER the peer is the listening socket's accepted end, which
 * the grandchild accepts itself when it inherited the listener.
 */
static int
get_socket(struct cx *c, int *mine, int *peer)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int sv[2];

	switch (c->how) {
	case BEFORE:
		*mine = c->sv[0];
		*peer = c->sv[1];
		return 0;
	case PAIR_AFTER:
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
			return -1;
		*mine = sv[0];
		*peer = sv[1];
		return 0;
	}
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", c->path);
	if ((*mine = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(*mine, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		return -1;
	/* the listener is ours unless a helper accepts */
	if (c->lsock != -1 && (*peer = accept(c->lsock, NULL, NULL)) == -1)
		return -1;
	return 0;
}

/* Has the pipe no writer left?  Then the travelling end was closed. */
static int
writers_gone(int rfd)
{
	struct pollfd p = { rfd, POLLIN, 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP);
}

/*
 * Sending.  The grandchild sends the pipe's write end over its socket;
 * for the test process to look at it afterwards, the BEFORE pair's far
 * end stays with the test process.
 */
static int
body_send(void *arg)
{
	struct cx *c = arg;
	char buf[8];
	int mine, peer, fd = -1, flags = 0;

	if (get_socket(c, &mine, &peer) == -1)
		return 1;
	if (send_with_fd(mine, "fd!", c->pipe[1]) != 3)
		return REACHED + 1;
	if (c->how == BEFORE)
		return REACHED;
	/* with CMSG the descriptor arrives at the far end */
	if (recv_with_fd(peer, buf, sizeof(buf), &fd, &flags) != 3 ||
	    fd == -1 || write(fd, "x", 1) != 1)
		return 2;
	return REACHED;
}

START_TEST(test_send_without_cmsg_kills)
{
	struct outcome o;
	struct cx c;
	char buf[8];
	int fd, flags;

	cx_init(&c, _i, TAME_STDIO);
	o = h_run(c.flags, NULL, body_send, &c);
	ck_assert_violation(o, "sendmsg", "cmsg");
	ck_assert_msg(strstr(o.err, "sendmsg SCM_RIGHTS needs cmsg\n") != NULL,
	    "%s: %s", how_name[_i], o.err);
	if (_i == BEFORE) {
		/* nothing went out: no message waits at the far end */
		fcntl(c.sv[1], F_SETFL, O_NONBLOCK);
		errno = 0;
		ck_assert_int_eq(recv_with_fd(c.sv[1], buf, sizeof(buf), &fd,
		    &flags), -1);
		ck_assert_int_eq(errno, EAGAIN);
	}
	cx_done(&c);
}
END_TEST

START_TEST(test_send_with_cmsg_works)
{
	struct outcome o;
	struct cx c;
	char buf[8];
	int fd = -1, flags = 0;

	cx_init(&c, _i, TAME_CMSG);
	o = h_run(c.flags, NULL, body_send, &c);
	ck_assert_exit(o, REACHED);
	if (_i == BEFORE) {
		ck_assert_int_eq(recv_with_fd(c.sv[1], buf, sizeof(buf), &fd,
		    &flags), 3);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, "x", 1), 1);
		close(fd);
	} else
		ck_assert_int_eq(read(c.pipe[0], buf, 1), 1);
	cx_done(&c);
}
END_TEST

/*
 * Receiving.  The pipe's only write end travels in a message sent by an
 * untamed process, or by one that still holds CMSG; the grandchild
 * receives it.  The data must arrive either way; without CMSG no
 * SCM_RIGHTS message comes back, MSG_CTRUNC is set, and the pipe has no
 * writer left, so the descriptor was really closed, not just hidden.
 */
static int
check_received(int s, int rfd, int cmsg)
{
	char buf[8] = "";
	int fd, flags = 0;

	if (recv_with_fd(s, buf, sizeof(buf), &fd, &flags) != 3 ||
	    memcmp(buf, "hi!", 3) != 0)
		return 10;			/* the data always arrives */
	/* the sender is done (and gone) once the stream ends */
	while (read(s, buf, sizeof(buf)) > 0)
		;
	if (cmsg)
		return fd >= 0 && !writers_gone(rfd) &&
		    !(flags & MSG_CTRUNC) ? 0 : 11;
	if (fd != -1)
		return 12;			/* an SCM_RIGHTS message */
	if (!(flags & MSG_CTRUNC))
		return 13;
	if (flags & MSG_CMSG_CLOEXEC)
		return 15;			/* the handler's, not ours */
	if (!writers_gone(rfd))
		return 14;			/* the descriptor was kept */
	return 0;
}

/* BEFORE: queued by the test process before the grandchild exists. */
static int
body_recv_before(void *arg)
{
	struct cx *c = arg;

	return check_received(c->sv[0], c->pipe[0], c->flags & TAME_CMSG);
}

/* SOCKET_AFTER: from an untamed helper, over a connection made tamed. */
static int
body_recv_connect(void *arg)
{
	struct cx *c = arg;
	int mine, peer = -1;

	if (get_socket(c, &mine, &peer) == -1)
		return 1;
	return check_received(mine, c->pipe[0], c->flags & TAME_CMSG);
}

/*
 * A socketpair made while CMSG was held, a child that keeps CMSG
 * sending, and the receiver dropping CMSG (or not) before it reads.
 */
static int
body_recv_dropped(void *arg)
{
	struct cx *c = arg;
	int sv[2], p[2];
	pid_t pid;

	if (tame(TAME_STDIO | TAME_CMSG | TAME_PROC) == -1 ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1 || pipe(p) == -1)
		return 1;
	if ((pid = fork()) == -1)
		return 2;
	if (pid == 0) {
		close(sv[1]);
		send_with_fd(sv[0], "hi!", p[1]);
		close(p[1]);		/* before the stream ends: see above */
		close(sv[0]);
		_exit(0);
	}
	close(p[1]);
	close(sv[0]);
	if (tame(c->flags | TAME_PROC) == -1)
		return 3;
	return check_received(sv[1], p[0], c->flags & TAME_CMSG);
}

static void
recv_case(int how, int flags)
{
	struct outcome o;
	struct cx c;
	pid_t helper = -1;
	int conn;

	cx_init(&c, how, flags);
	switch (how) {
	case BEFORE:
		ck_assert_int_eq(send_with_fd(c.sv[1], "hi!", c.pipe[1]), 3);
		close(c.sv[1]);
		c.sv[1] = -1;
		break;
	case SOCKET_AFTER:
		ck_assert_int_ge(helper = fork(), 0);
		if (helper == 0) {
			if ((conn = accept(c.lsock, NULL, NULL)) == -1 ||
			    send_with_fd(conn, "hi!", c.pipe[1]) != 3)
				_exit(1);
			/* the pipe's end first: its close is done on return */
			close(c.pipe[1]);
			close(conn);
			_exit(0);
		}
		close(c.lsock);
		c.lsock = -1;
		break;
	}
	close(c.pipe[1]);
	c.pipe[1] = -1;
	if (how == PAIR_AFTER)
		o = h_run(H_NO_TAME, NULL, body_recv_dropped, &c);
	else
		o = h_run(c.flags, NULL, how == BEFORE ? body_recv_before :
		    body_recv_connect, &c);
	ck_assert_msg(o.exited && o.status == 0, "%s, %s: %s %d; %s",
	    how_name[how], flags & TAME_CMSG ? "cmsg" : "no cmsg",
	    o.exited ? "exit" : "signal", o.exited ? o.status : o.sig, o.err);
	if (helper > 0)
		waitpid(helper, NULL, 0);
	cx_done(&c);
}

START_TEST(test_recv_without_cmsg_closes_descriptors)
{
	recv_case(_i, TAME_STDIO);
}
END_TEST

START_TEST(test_recv_with_cmsg_keeps_descriptors)
{
	recv_case(_i, TAME_CMSG);
}
END_TEST

/* Other ancillary data still goes both ways without CMSG. */
static int
body_credentials(void *arg)
{
	union {
		struct cmsghdr	 hdr;
		char		 buf[CMSG_SPACE(sizeof(struct ucred))];
	} u;
	struct ucred cred = { getpid(), getuid(), getgid() }, got;
	struct msghdr m;
	struct cmsghdr *cm;
	struct iovec iov = { "c", 1 };
	char c;
	int sv[2], on = 1;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == -1 ||
	    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) == -1)
		return 1;
	memset(&m, 0, sizeof(m));
	memset(&u, 0, sizeof(u));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	cm->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(cm), &cred, sizeof(cred));
	if (sendmsg(sv[0], &m, 0) != 1)
		return 2;
	iov.iov_base = &c;
	memset(&u, 0, sizeof(u));
	m.msg_controllen = sizeof(u.buf);
	if (recvmsg(sv[1], &m, 0) != 1 || (m.msg_flags & MSG_CTRUNC) ||
	    (cm = CMSG_FIRSTHDR(&m)) == NULL ||
	    cm->cmsg_type != SCM_CREDENTIALS)
		return 3;
	memcpy(&got, CMSG_DATA(cm), sizeof(got));
	return got.pid == cred.pid ? 0 : 4;
}

START_TEST(test_credentials_pass_without_cmsg)
{
	struct outcome o = h_run(TAME_STDIO | TAME_UNIX, NULL,
	    body_credentials, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/* sendmmsg and recvmmsg go through the same checks. */
static int
body_mmsg(void *arg)
{
	union ctl u;
	struct mmsghdr v[2];
	struct cmsghdr *cm;
	struct iovec iov[2] = { { "ab", 2 }, { "cd", 2 } };
	int sv[2], *fd = arg;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == -1)
		return 1;
	memset(v, 0, sizeof(v));
	v[0].msg_hdr.msg_iov = &iov[0];
	v[0].msg_hdr.msg_iovlen = 1;
	v[1].msg_hdr.msg_iov = &iov[1];
	v[1].msg_hdr.msg_iovlen = 1;
	if (sendmmsg(sv[0], v, 2, 0) != 2 || v[0].msg_len != 2 ||
	    v[1].msg_len != 2)
		return 2;
	char b0[4], b1[4];
	struct iovec in[2] = { { b0, 4 }, { b1, 4 } };

	memset(v, 0, sizeof(v));
	v[0].msg_hdr.msg_iov = &in[0];
	v[0].msg_hdr.msg_iovlen = 1;
	v[1].msg_hdr.msg_iov = &in[1];
	v[1].msg_hdr.msg_iovlen = 1;
	if (recvmmsg(sv[1], v, 2, MSG_WAITFORONE, NULL) != 2 ||
	    memcmp(b0, "ab", 2) != 0 || memcmp(b1, "cd", 2) != 0)
		return 3;
	/* the second message carries a descriptor: a violation */
	memset(v, 0, sizeof(v));
	memset(&u, 0, sizeof(u));
	v[0].msg_hdr.msg_iov = &iov[0];
	v[0].msg_hdr.msg_iovlen = 1;
	v[1].msg_hdr.msg_iov = &iov[1];
	v[1].msg_hdr.msg_iovlen = 1;
	v[1].msg_hdr.msg_control = u.buf;
	v[1].msg_hdr.msg_controllen = CMSG_SPACE(sizeof(int));
	cm = CMSG_FIRSTHDR(&v[1].msg_hdr);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), fd, sizeof(int));
	sendmmsg(sv[0], v, 2, 0);
	return REACHED;
}

START_TEST(test_mmsg_checked_without_cmsg)
{
	struct outcome o;
	int fd = 0;

	o = h_run(TAME_STDIO, NULL, body_mmsg, &fd);
	ck_assert_violation(o, "sendmmsg", "cmsg");
}
END_TEST

/*
 * A process that holds no AF_UNIX socket pays nothing: its messages
 * (UDP here) go straight through, and it can still make a socketpair
 * later, at which point the checks turn on.
 */
static int
body_udp_then_pair(void *arg)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	char buf[8];
	int s, sv[2], fd = -1, flags = 0;

	(void)arg;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((s = socket(AF_INET, SOCK_DGRAM, 0)) == -1 ||
	    bind(s, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    getsockname(s, (struct sockaddr *)&sin, &len) == -1 ||
	    connect(s, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		return 1;
	/* UDP ignores SCM_RIGHTS: the kernel's own answer, not ours */
	if (send_with_fd(s, "u", 0) != 1 ||
	    recv_with_fd(s, buf, sizeof(buf), &fd, &flags) != 1 || fd != -1)
		return 2;
	if (send(s, "udp", 3, 0) != 3 ||
	    recv_with_fd(s, buf, sizeof(buf), &fd, &flags) != 3)
		return 3;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		return 4;
	send_with_fd(sv[0], "fd!", 0);
	return REACHED;
}

START_TEST(test_no_unix_socket_no_checks_until_one_exists)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_INET, NULL, body_udp_then_pair, NULL);
	ck_assert_violation(o, "sendmsg", "cmsg");
}
END_TEST

/*
 * The bookkeeping behind the last test: the first tame() of a process
 * with no AF_UNIX socket notes NOUNIX, under which the filter allows the
 * message calls outright (no trap); a socketpair turns the checks on in
 * this process (NOUNIX goes); a process that had such a socket never
 * gets NOUNIX.
 */
static int
body_state(void *arg)
{
	int had_socket = *(int *)arg, sv[2];

	if (tame(TAME_STDIO | TAME_INET) == -1)
		return 1;
	if (had_socket)
		return tame__state.held & TAME__NOUNIX ? 2 : 0;
	if (!(tame__state.held & TAME__NOUNIX))
		return 3;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		return 4;
	return tame__state.held & TAME__NOUNIX ? 5 : 0;
}

START_TEST(test_nounix_state)
{
	struct outcome o;
	int sv[2], had = 0;

	o = h_run(H_NO_TAME, NULL, body_state, &had);
	ck_assert_exit(o, 0);
	had = 1;
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	o = h_run(H_NO_TAME, NULL, body_state, &had);
	ck_assert_exit(o, 0);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/* Under NOUNIX the message calls are a constant ALLOW; else a trap. */
START_TEST(test_nounix_filter_allows_messages_outright)
{
	static struct tame_prog p;
	struct tame_target t = { tame_expand(TAME_STDIO | TAME_INET), 1 };
	const int calls[] = { SYS_sendmsg, SYS_recvmsg, SYS_sendmmsg,
	    SYS_recvmmsg };
	uint64_t a[6] = { 3, 0x1000, 0, 0, 0, 0 };
	unsigned i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		t.held = tame_expand(TAME_STDIO | TAME_INET) | TAME__NOUNIX;
		ck_assert_int_eq(tame_compile(&t, NULL, &p), 0);
		ck_assert_uint_eq(tame_bpf_run(&p, tame_audit_arch(), calls[i],
		    a, 0x2000), SECCOMP_RET_ALLOW);
		t.held &= ~TAME__NOUNIX;
		ck_assert_int_eq(tame_compile(&t, NULL, &p), 0);
		ck_assert_uint_eq(tame_bpf_run(&p, tame_audit_arch(), calls[i],
		    a, 0x2000), SECCOMP_RET_TRAP | TAME_TRAP_EMULATE);
	}
}
END_TEST

/*
 * A bad message header is EFAULT, as without tame(), never a crash in
 * the handler: NULL, unmapped, and read-only for a receive.
 */
static int
body_bad_headers(void *arg)
{
	struct msghdr *ro;
	char c;
	struct iovec iov = { &c, 1 };
	int sv[2];

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == -1)
		return 1;
	if (sendmsg(sv[0], NULL, 0) != -1 || errno != EFAULT)
		return 2;
	if (recvmsg(sv[1], (struct msghdr *)8, MSG_DONTWAIT) != -1 ||
	    errno != EFAULT)
		return 3;
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED)
		return 4;
	ro->msg_iov = &iov;
	ro->msg_iovlen = 1;
	if (send(sv[0], "x", 1, 0) != 1 || mprotect(ro, 4096, PROT_READ))
		return 5;
	if (recvmsg(sv[1], ro, 0) != -1 || errno != EFAULT)
		return 6;
	/* and the message is still there for a good header */
	return recv(sv[1], &c, 1, 0) == 1 && c == 'x' ? 0 : 7;
}

START_TEST(test_bad_message_headers_are_efault)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_bad_headers, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/* SCM_PIDFD brings a descriptor too (Linux 6.5): closed without CMSG. */
#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD	76
#endif
#ifndef SCM_PIDFD
#define SCM_PIDFD	0x04
#endif

static int
body_pidfd(void *arg)
{
	union ctl u;
	struct msghdr m;
	struct cmsghdr *cm;
	char c;
	struct iovec iov = { &c, 1 };
	int sv[2], on = 1, cmsg = *(int *)arg, got = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		return 1;
	if (setsockopt(sv[1], SOL_SOCKET, SO_PASSPIDFD, &on, sizeof(on)) == -1)
		return errno == ENOPROTOOPT ? 0 : 2;	/* before 6.5 */
	if (send(sv[0], "p", 1, 0) != 1)
		return 3;
	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	if (recvmsg(sv[1], &m, 0) != 1)
		return 4;
	for (cm = CMSG_FIRSTHDR(&m); cm != NULL; cm = CMSG_NXTHDR(&m, cm))
		got |= cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_PIDFD;
	if (cmsg)
		return got ? 0 : 5;
	return !got && (m.msg_flags & MSG_CTRUNC) ? 0 : 6;
}

START_TEST(test_pidfd_messages_need_cmsg)
{
	struct outcome o;
	int cmsg = 0;

	o = h_run(TAME_STDIO | TAME_UNIX, NULL, body_pidfd, &cmsg);
	ck_assert_exit(o, 0);
	cmsg = 1;
	o = h_run(TAME_STDIO | TAME_CMSG, NULL, body_pidfd, &cmsg);
	ck_assert_exit(o, 0);
}
END_TEST

static Suite *
cmsg_suite(void)
{
	Suite *s = suite_create("cmsg");
	TCase *tc = h_tcase(s, "cmsg", 30, NULL, NULL);

	tcase_add_loop_test(tc, test_send_without_cmsg_kills, BEFORE,
	    SOCKET_AFTER + 1);
	tcase_add_loop_test(tc, test_send_with_cmsg_works, BEFORE,
	    SOCKET_AFTER + 1);
	tcase_add_loop_test(tc, test_recv_without_cmsg_closes_descriptors,
	    BEFORE, SOCKET_AFTER + 1);
	tcase_add_loop_test(tc, test_recv_with_cmsg_keeps_descriptors,
	    BEFORE, SOCKET_AFTER + 1);
	tcase_add_test(tc, test_credentials_pass_without_cmsg);
	tcase_add_test(tc, test_mmsg_checked_without_cmsg);
	tcase_add_test(tc, test_no_unix_socket_no_checks_until_one_exists);
	tcase_add_test(tc, test_nounix_state);
	tcase_add_test(tc, test_bad_message_headers_are_efault);
	tcase_add_test(tc, test_pidfd_messages_need_cmsg);
	tcase_add_test(tc, test_nounix_filter_allows_messages_outright);
	return s;
}

TAME_TEST_MAIN(cmsg_suite)
