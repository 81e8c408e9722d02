/* SPDX-License-Identifier: ISC */
/*
 * exec_clone_parent.c: a child made with CLONE_PARENT, in an exec tree
 * (issue 46, the supervisor's record of each process's image).
 *
 * The supervisor records a fork's child when it shows up in the forking
 * thread's list of children (sup_procs.c, sup_proc_fork()), and places a
 * process it does not know by its parent (sup_proc_of(): "its parent's
 * image, which it was forked in").  clone(CLONE_PARENT) is allowed with
 * proc (CLONE_NEVER lacks it): the child is its forker's parent's, so it
 * is placed as that process, whatever the forker held.
 *
 *	unveil	the worker locks unveil("visible", "rwc"); its parent never
 *		unveiled: the CLONE_PARENT child is judged by no rules at
 *		all, and chmod's hidden/file
 *	inet	pledge("stdio rpath inet proc exec", "stdio rpath proc exec
 *		prot_exec"): the image exec'd from a child has no inet;
 *		its CLONE_PARENT child is placed as the pledger, and
 *		connects
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

static struct rt_listener lis;
static struct sockaddr_in where;
static char stack[1 << 16];
static int plain;		/* the control: fork(), not CLONE_PARENT */

static int
unveiled_child(void *arg)
{
	(void)arg;
	_exit(chmod(rt_path("hidden/file"), 0606) == 0 ? 0 : 1);
}

static int
inet_child(void *arg)
{
	int s;

	(void)arg;
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		_exit(1);
	_exit(connect(s, (struct sockaddr *)&where, sizeof(where)) == 0 ? 0 : 1);
}

static void
spawn(int (*fn)(void *))
{
	if (plain) {
		if (fork() == 0)
			fn(NULL);
	} else if (clone(fn, stack + sizeof(stack), CLONE_PARENT | SIGCHLD,
	    NULL) == -1)
		_exit(RT_SETUP);
	sleep(1);
}

static int
attack_unveil(void *arg)
{
	int tamed = *(int *)arg;

	if (tamed)
		rt_pledge("stdio rpath fattr proc exec unveil", NULL);
	if (fork() == 0) {	/* the worker */
		if (tamed) {
			rt_unveil(rt_path("visible"), "rwc");
			rt_pledge("stdio rpath fattr proc exec", NULL);
		}
		spawn(unveiled_child);
		_exit(0);
	}
	sleep(2);
	return 0;
}

static int
attack_inet(void *arg)
{
	char port[16], *av[5];
	int tamed = *(int *)arg;

	if (tamed)
		rt_pledge("stdio rpath inet proc exec",
		    "stdio rpath proc exec prot_exec");
	if (fork() == 0) {
		snprintf(port, sizeof(port), "%d", ntohs(where.sin_port));
		av[0] = "exec_clone_parent";
		av[1] = "image";
		av[2] = port;
		av[3] = plain ? "plain" : NULL;
		av[4] = NULL;
		execv("/proc/self/exe", av);
		_exit(RT_SETUP);
	}
	sleep(3);
	return 0;
}

int
main(int argc, char **argv)
{
	struct rt_kid k;
	struct stat st;
	int tamed, r, fd;

	if (argc > 2 && strcmp(argv[1], "image") == 0) {
		/* the exec'd image: no inet of its own */
		where.sin_family = AF_INET;
		where.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		where.sin_port = htons((uint16_t)atoi(argv[2]));
		plain = argc > 3;
		spawn(inet_child);
		return 0;
	}
	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	for (plain = 1; plain >= 0; plain--)
		for (tamed = 0; tamed < 2; tamed++) {
			unlink(rt_path("hidden/file"));
			if ((fd = open(rt_path("hidden/file"), O_WRONLY | O_CREAT,
			    0644)) == -1)
				rt_fatal("hidden/file");
			close(fd);
			chmod(rt_path("hidden/file"), 0644);
			rt_spawn(&k, attack_unveil, &tamed);
			rt_reap(&k);
			rt_check(k.status);
			r = stat(rt_path("hidden/file"), &st) == 0 &&
			    (st.st_mode & 07777) == 0606;
			if (!tamed && !r) {
				rt_na("untamed, chmod of hidden/file did not take");
				break;
			}
			if (!tamed)
				continue;
			if (r)
				rt_escaped("%s child of a worker that locked unveil("
				    "\"visible\", \"rwc\"): chmod'ed hidden/file",
				    plain ? "a fork()" : "a CLONE_PARENT");
			else
				rt_held("%s child of the unveiled worker: hidden/"
				    "file kept its mode", plain ? "a fork()" :
				    "a CLONE_PARENT");
		}
	for (plain = 1; plain >= 0; plain--)
		for (tamed = 0; tamed < 2; tamed++) {
			rt_listen_inet(&lis);
			where = lis.addr;
			rt_spawn(&k, attack_inet, &tamed);
			rt_reap(&k);
			rt_check(k.status);
			r = rt_connected(&lis);
			close(lis.fd);
			if (!tamed && !r) {
				rt_na("untamed, the exec'd image's child did not "
				    "connect");
				break;
			}
			if (!tamed)
				continue;
			if (r)
				rt_escaped("%s child of an image exec'd under "
				    "execpromises without inet connected to "
				    "127.0.0.1", plain ? "a fork()" :
				    "a CLONE_PARENT");
			else
				rt_held("%s child of the image exec'd without "
				    "inet: no connection", plain ? "a fork()" :
				    "a CLONE_PARENT");
		}
	return rt_finish();
}
