/* SPDX-License-Identifier: ISC */
/*
 * unveil_connect_helpers.c: processes the supervisor makes, without a
 * bound, for one pledged thread (issue 46, the supervisor's resources).
 *
 * Under unveil's lock a unix connect() by path traps, and the supervisor
 * makes it; one that would wait (a blocking socket, a listener whose
 * backlog is full) is made by a helper process it forks, which answers
 * when connect() returns (sup_unveil.c, connect_call()).  A signal
 * (SA_RESTART) ends the caller's wait and the call comes again: a new
 * helper, while the old one still waits.  A timer does that every 2 ms
 * to one thread of pledge("stdio unix").  The parent counts the
 * supervisor's children after a second; it stops at 200 (pid_max is
 * system-wide).  The helpers live as long as the listener does.
 */
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define ENOUGH	200

static struct sockaddr_un sun = { AF_UNIX, "" };

static void
nothing(int sig)
{
	(void)sig;
}

static int
attack(void *arg)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	int tamed = *(int *)arg, s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nothing;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	if (tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		rt_pledge("stdio unix", NULL);
	}
	rt_ready();
	setitimer(ITIMER_REAL, &it, NULL);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(s, (struct sockaddr *)&sun, sizeof(sun));
	return 0;
}

/* the children of process pid's main thread */
static int
children(pid_t pid, pid_t *first)
{
	char path[64];
	FILE *f;
	long c;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fscanf(f, "%ld", &c) == 1) {
		if (n++ == 0 && first != NULL)
			*first = (pid_t)c;
	}
	fclose(f);
	return n;
}

int
main(int argc, char **argv)
{
	struct rt_kid k;
	pid_t sup = 0;
	int l, i, c, tamed = 1, n = 0;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s",
	    rt_path("visible/sock"));
	if ((l = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 || bind(l,
	    (struct sockaddr *)&sun, sizeof(sun)) == -1 || listen(l, 0) == -1)
		rt_fatal("listen");
	for (i = 0; i < 4; i++) {	/* the backlog, full */
		c = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(c, (struct sockaddr *)&sun, sizeof(sun));
	}
	rt_spawn(&k, attack, &tamed);
	if (rt_heard(&k) == 0) {
		usleep(200000);
		children(k.pid, &sup);
		for (i = 0; i < 10 && (n = sup ? children(sup, NULL) : 0) <
		    ENOUGH; i++)
			usleep(100000);
	}
	rt_kill(&k);
	close(l);		/* the helpers' connects fail: they end */
	rt_check(k.status);
	if (n >= ENOUGH)
		rt_escaped("unveil(\"visible\", \"rwc\"), pledge(\"stdio unix\"): "
		    "one thread had the supervisor fork %d helper processes "
		    "(outside the sandbox) within %d ms, and more kept coming",
		    n, 200 + 100 * i);
	else
		rt_held("the supervisor's helpers: %d after a second", n);
	return rt_finish();
}
