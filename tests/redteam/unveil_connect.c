/* SPDX-License-Identifier: ISC */
/*
 * unveil_connect.c: connect() to a unix socket by a path unveil() hides,
 * and to an abstract socket of another process (issue 46, unveil's
 * unmediated calls).
 *
 * Landlock (to ABI 7) does not mediate connecting to a named unix
 * socket; on OpenBSD a socket path outside every unveiled one does not
 * exist.  Abstract sockets have no path at all: Landlock's scoping (ABI
 * 6) keeps a domain from those of processes outside it, where the layer
 * asks for it; on a kernel without that scoping the abstract socket is
 * n/a.  The parent listens on hidden/sock and on an abstract name; the
 * child, with only visible/ unveiled, connects to each.  Tried with
 * unveil alone and under pledge("stdio unix").
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int			 tamed;
	const char		*promises;
	struct sockaddr_un	 path, abstract;
	socklen_t		 abstract_len;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	int s;

	if (a->tamed)
		rt_hide(a->promises);
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) != -1)
		connect(s, (const struct sockaddr *)&a->path, sizeof(a->path));
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) != -1)
		connect(s, (const struct sockaddr *)&a->abstract,
		    a->abstract_len);
	return 0;
}

static int
listener(const struct sockaddr_un *sa, socklen_t len)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);

	if (s == -1 || bind(s, (const struct sockaddr *)sa, len) == -1 ||
	    listen(s, 8) == -1)
		rt_fatal("a unix listener");
	return s;
}

static int
accepted(int s)
{
	int fd, n = 0;

	while ((fd = accept4(s, NULL, NULL, SOCK_CLOEXEC)) != -1) {
		close(fd);
		n++;
	}
	return n;
}

/* 1: by path, 2: abstract */
static int
try(struct attempt *a, int lp, int la)
{
	struct rt_kid k;

	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	return (accepted(lp) ? 1 : 0) | (accepted(la) ? 2 : 0);
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL, "stdio unix" };
	static struct attempt a;
	int lp, la, r, abi, mask = 3;
	size_t i;

	rt_init(argc, argv);
	if ((abi = rt_need_landlock()) == 0)
		return rt_finish();
	if (abi < 6) {
		rt_na("abstract unix sockets: Landlock ABI %d has no scoping "
		    "of them (ABI 6)", abi);
		mask = 1;
	}
	rt_two_dirs();
	a.path.sun_family = AF_UNIX;
	snprintf(a.path.sun_path, sizeof(a.path.sun_path), "%s",
	    rt_path("hidden/sock"));
	a.abstract.sun_family = AF_UNIX;
	snprintf(a.abstract.sun_path + 1, sizeof(a.abstract.sun_path) - 1,
	    "redteam-%d-%ld", (int)getpid(), random());
	a.abstract_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
	    1 + strlen(a.abstract.sun_path + 1));
	lp = listener(&a.path, sizeof(a.path));
	la = listener(&a.abstract, a.abstract_len);
	if (try(&a, lp, la) != 3) {
		rt_na("untamed, the connections failed");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		if ((r = try(&a, lp, la) & mask) != 0)
			rt_escaped("%s: connected to %s%s%s",
			    rt_hide_label(a.promises),
			    r & 1 ? "hidden/sock" : "", r == 3 ? " and " : "",
			    r & 2 ? "another process's abstract socket" : "");
		else
			rt_held("%s: no connection", rt_hide_label(a.promises));
	}
	return rt_finish();
}
