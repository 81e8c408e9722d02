/* SPDX-License-Identifier: ISC */
/*
 * prctl_set_mm.c: prctl(PR_SET_MM) under pledge (issue 46, point 7:
 * classes the review did not try).
 *
 * PR_SET_MM rewrites what the kernel reports of a process's memory
 * layout: the command line, the environment, the auxiliary vector, the
 * code and data bounds.  Whatever tells images apart or names a process
 * from outside (a supervisor reading /proc/PID/...) must not believe a
 * pledged process that rewrote them; pledge allows none of it.  The
 * child, under pledge("stdio"), points its command line at "forged" and
 * its auxiliary vector at a buffer of its own; the parent reads
 * /proc/PID/cmdline and /proc/PID/auxv while the child waits.  Needs
 * CAP_SYS_RESOURCE (root).
 */
#include <sys/prctl.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

static char forged[] = "forged";
static unsigned long auxv[4] = { 0x55, 0x1234, 0, 0 };	/* AT_NULL last */

static int
attack(void *arg)
{
	if (*(int *)arg)
		rt_pledge("stdio", NULL);
	prctl(PR_SET_MM, PR_SET_MM_ARG_START, (unsigned long)forged, 0, 0);
	prctl(PR_SET_MM, PR_SET_MM_ARG_END,
	    (unsigned long)forged + sizeof(forged), 0, 0);
	prctl(PR_SET_MM, PR_SET_MM_AUXV, (unsigned long)auxv, sizeof(auxv),
	    0);
	rt_ready();
	rt_await_go();
	return 0;
}

static size_t
slurp(pid_t pid, const char *what, void *buf, size_t n)
{
	char p[64];
	ssize_t r;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/%s", (int)pid, what);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	r = read(fd, buf, n);
	close(fd);
	return r > 0 ? (size_t)r : 0;
}

/* 1: the command line, 2: the auxiliary vector */
static int
try(int tamed)
{
	char cmd[64] = "";
	unsigned long av[4] = { 0 };
	struct rt_kid k;
	int r = 0;

	rt_spawn(&k, attack, &tamed);
	if (rt_heard(&k) == 0) {
		if (slurp(k.pid, "cmdline", cmd, sizeof(cmd) - 1) > 0 &&
		    strcmp(cmd, forged) == 0)
			r |= 1;
		if (slurp(k.pid, "auxv", av, sizeof(av)) >= 2 * sizeof(long) &&
		    av[0] == auxv[0] && av[1] == auxv[1])
			r |= 2;
	}
	rt_go(&k);
	rt_reap(&k);
	rt_check(k.status);
	return r;
}

int
main(int argc, char **argv)
{
	int r;

	rt_init(argc, argv);
	if (try(0) == 0) {
		rt_na("untamed, PR_SET_MM changed nothing (it needs "
		    "CAP_SYS_RESOURCE)");
		return rt_finish();
	}
	if ((r = try(1)) != 0)
		rt_escaped("pledge(\"stdio\"): PR_SET_MM rewrote %s%s%s",
		    r & 1 ? "its command line" : "", r == 3 ? " and " : "",
		    r & 2 ? "its auxiliary vector" : "");
	else
		rt_held("pledge(\"stdio\"): PR_SET_MM refused");
	return rt_finish();
}
