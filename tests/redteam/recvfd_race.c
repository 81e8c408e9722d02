/* SPDX-License-Identifier: ISC */
/*
 * recvfd_race.c: a descriptor received without recvfd, kept by a second
 * thread before it is closed (issue 46, nothing inherited widens).
 *
 * Without recvfd (tame: without TAME_CMSG) descriptors must not arrive.
 * libtame's handler makes the recvmsg and closes what came: between the
 * two the descriptor sits in the table, and another thread duplicating
 * that number keeps it.  A descriptor withheld must never be installed
 * (receive with no room for rights: the kernel drops them).  The parent
 * sends the secret's descriptor again and again for at most a second; the
 * child's second thread duplicates the number a received descriptor
 * would get, reads through what it caught and tells the parent, which
 * compares with the secret's bytes.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "redteam.h"

#define SECONDS	1		/* each try */
#define CONTROL	3		/* the control, slower under emulation */

struct attempt {
	int		 how;		/* 0 untamed, 1 pledge, 2 tame */
	int		 sock;
	int		 peer;		/* the parent's end, closed here */
};

static volatile int stop;
static int target;

/* The second thread: catch what lands at target. */
static void *
catcher(void *arg)
{
	char buf[4096];
	ssize_t n;
	int fd;

	(void)arg;
	while (!stop) {
		if ((fd = fcntl(target, F_DUPFD_CLOEXEC, 100)) == -1)
			continue;
		if ((n = pread(fd, buf, sizeof(buf), 0)) > 0) {
			rt_tell(buf, (size_t)n);
			stop = 1;
		}
		close(fd);
	}
	return NULL;
}

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	char cbuf[CMSG_SPACE(sizeof(int))], b[8];
	struct iovec iov = { b, sizeof(b) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	pthread_t t;
	int fd;

	close(a->peer);
	if (a->how == 1)
		rt_pledge("stdio unix", NULL);
	else if (a->how == 2)
		rt_tame(TAME_STDIO | TAME_UNIX);
	/* the number the next descriptor gets */
	if ((target = dup(0)) == -1)
		return RT_SETUP;
	close(target);
	if (pthread_create(&t, NULL, catcher, NULL) != 0)
		return RT_SETUP;
	while (!stop) {
		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		if (recvmsg(a->sock, &m, 0) <= 0)
			break;
		/* untamed (the control), what arrives is ours anyway */
		for (c = CMSG_FIRSTHDR(&m); a->how == 0 && c != NULL;
		    c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_type == SCM_RIGHTS) {
				memcpy(&fd, CMSG_DATA(c), sizeof(fd));
				close(fd);
			}
	}
	stop = 1;
	pthread_join(t, NULL);
	return 0;
}

static long
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	    (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Send the secret's descriptor until the child tells, or time is up. */
static int
try(int how, const struct rt_secret *s, long *sent)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, buf[4096];
	struct iovec iov = { "x", 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	struct attempt a = { how, -1, -1 };
	struct pollfd p[2];
	struct timespec t0;
	struct rt_kid k;
	int sp[2], fd;
	size_t n;

	if ((fd = open(s->path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == -1)
		rt_fatal("%s", s->path);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	a.sock = sp[1];
	a.peer = sp[0];
	rt_spawn(&k, attack, &a);
	close(sp[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	*sent = 0;
	p[0] = (struct pollfd){ k.up, POLLIN, 0 };
	p[1] = (struct pollfd){ sp[0], POLLOUT, 0 };
	while (ms_since(&t0) < (how ? SECONDS : CONTROL) * 1000) {
		if (poll(p, 2, 100) == -1 && errno != EINTR)
			break;
		if (p[0].revents)
			break;		/* it told, or it is gone */
		if ((p[1].revents & POLLOUT) &&
		    sendmsg(sp[0], &m, MSG_DONTWAIT) == 1)
			(*sent)++;
		if (p[1].revents & (POLLERR | POLLHUP))
			break;
	}
	/* a packet socket's close ends the child's recvmsg */
	close(sp[0]);
	close(fd);
	n = rt_listen(&k, buf, sizeof(buf));
	rt_reap(&k);
	rt_check(k.status);
	return rt_secret_in(s, buf, n);
}

int
main(int argc, char **argv)
{
	static const char *const label[] = { "untamed",
	    "pledge(\"stdio unix\")", "tame(TAME_STDIO | TAME_UNIX)" };
	struct rt_secret s;
	long sent;
	int how;

	rt_init(argc, argv);
	rt_secret(&s, NULL);
	if (!try(0, &s, &sent)) {
		rt_na("untamed, the second thread caught no descriptor in "
		    "%d s (%ld sent)", CONTROL, sent);
		return rt_finish();
	}
	for (how = 1; how <= 2; how++) {
		if (try(how, &s, &sent))
			rt_escaped("%s: a second thread kept a descriptor "
			    "received without recvfd and read %s (%ld sent)",
			    label[how], s.label, sent);
		else
			rt_held("%s: no descriptor kept in %d s (%ld sent)",
			    label[how], SECONDS, sent);
	}
	return rt_finish();
}
