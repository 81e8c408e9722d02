/* SPDX-License-Identifier: ISC */
/*
 * pledge_half_applied.c: a pledge() that fails after unveil() leaves a
 * Landlock layer in place and no filter (issue 46, all or nothing).
 *
 * A pledge() without the unveil promise locks unveil: the layer goes in
 * first.  If the filter then cannot be made (here: pledge with exec,
 * which reads /proc/self/maps, a path the layer now hides), pledge()
 * fails having changed the process.  A failed pledge must leave the
 * process exactly as it was; a successful one must hold.  The child
 * unveils x/ read-only, pledges "stdio rpath exec", then tries
 * socket(AF_INET) (a connection to the parent) and reads a file outside
 * x/.  The parent looks at the connection and at the child's Seccomp
 * state (/proc/PID/status).
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	const struct rt_listener *l;
	const char		*x, *outside;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	int s, fd;

	rt_unveil(a->x, "r");
	rt_sh->ret = pledge("stdio rpath exec", NULL);
	rt_sh->err = rt_sh->ret == -1 ? errno : 0;
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) != -1)
		connect(s, (const struct sockaddr *)&a->l->addr,
		    sizeof(a->l->addr));
	/* where is the layer?  outside x/ is hidden only under it */
	fd = open(a->outside, O_RDONLY);
	rt_sh->where = fd == -1 ? (uint64_t)errno : 0;
	rt_ready();
	rt_await_go();
	return 0;
}

/* The Seccomp line of /proc/PID/status: 0 none, 2 a filter. */
static int
seccomp_of(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	int mode = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode;
}

int
main(int argc, char **argv)
{
	struct rt_listener l;
	struct attempt a;
	struct rt_kid k;
	int fd, mode = -1, conn;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_listen_inet(&l);
	a.l = &l;
	a.x = rt_path("x");
	a.outside = rt_path("outside");
	if (mkdir(a.x, 0755) == -1 ||
	    (fd = open(a.outside, O_WRONLY | O_CREAT, 0644)) == -1)
		rt_fatal("%s", a.outside);
	close(fd);
	rt_spawn(&k, attack, &a);
	if (rt_heard(&k) == 0)
		mode = seccomp_of(k.pid);
	rt_go(&k);
	rt_reap(&k);
	rt_check(k.status);
	conn = rt_connected(&l);
	if (rt_sh->ret == 0 && conn)
		rt_escaped("unveil(\"x\", \"r\"), pledge(\"stdio rpath exec\") "
		    "succeeded, yet socket(AF_INET) connected");
	else if (rt_sh->ret == 0)
		rt_held("unveil, pledge(\"stdio rpath exec\"): pledged");
	else if (rt_sh->where == EACCES || mode != 0)
		rt_escaped("unveil(\"x\", \"r\"), pledge(\"stdio rpath exec\") "
		    "failed (%s) yet changed the process: %s%s%s", strerror(
		    rt_sh->err), rt_sh->where == EACCES ? "its Landlock layer "
		    "is in" : "a filter is in", mode == 0 ? " and no filter" :
		    "", conn ? "; socket(AF_INET) connected" : "");
	else
		rt_held("unveil, pledge(\"stdio rpath exec\") failed (%s) and "
		    "left the process as it was", strerror(rt_sh->err));
	return rt_finish();
}
