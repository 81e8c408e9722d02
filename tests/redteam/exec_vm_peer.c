/* SPDX-License-Identifier: ISC */
/*
 * exec_vm_peer.c: an exec that fails, in a process that shares its
 * memory, and the supervisor takes it for one that went through (issue
 * 46, the supervisor's record of each process's image).
 *
 * Where a process shares its memory with its parent (vfork, or clone
 * with CLONE_VM, which proc allows), the supervisor notes the parent as
 * its "vm peer" at an exec and later decides "the exec went through"
 * when kcmp(KCMP_VM) says the two no longer share memory (sup_procs.c,
 * settle()): any answer but 0, an error included.  The child execs a
 * path that does not exist (the exec fails), then its parent exits:
 * kcmp fails, and the child, still running the pledged image's code, is
 * judged by execpromises from its next call on.  pledge("stdio proc
 * exec", "stdio inet proc exec"): it connects to 127.0.0.1.
 */
#include <sys/socket.h>
#include <sys/syscall.h>

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

static struct sockaddr_in where;
static volatile int stage;
static volatile int parent;
static char stack[1 << 16];
static int do_exec = 1;		/* 0: the control, no failed exec */

/* raw calls only: this thread shares the pledged process's memory */
static int
child(void *arg)
{
	char *av[] = { "/nonexistent/program", NULL };
	long s;

	(void)arg;
	if (do_exec)
		syscall(SYS_execve, av[0], av, NULL);	/* fails */
	stage = 1;
	while (syscall(SYS_getppid) == parent)
		;
	s = syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
	if (s >= 0)
		syscall(SYS_connect, s, &where, sizeof(where));
	syscall(SYS_exit, 0);
	return 0;
}

static int
attack(void *arg)
{
	int tamed = *(int *)arg;

	if (tamed)
		rt_pledge("stdio proc exec", "stdio inet proc exec");
	parent = getpid();
	if (clone(child, stack + sizeof(stack), CLONE_VM | SIGCHLD,
	    NULL) == -1)
		return RT_SETUP;
	while (!stage)
		;
	syscall(SYS_exit_group, 0);
	return 0;
}

int
main(int argc, char **argv)
{
	struct rt_listener l;
	struct rt_kid k;
	int tamed;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	for (tamed = 0; tamed < 3; tamed++) {
		do_exec = tamed != 1;	/* 1: tamed, no failed exec first */
		rt_listen_inet(&l);
		where = l.addr;
		rt_spawn(&k, attack, &tamed);
		rt_reap(&k);
		rt_check(k.status);
		usleep(500000);
		if (!rt_connected(&l)) {
			if (!tamed) {
				rt_na("untamed, the CLONE_VM child did not "
				    "connect");
				return rt_finish();
			}
			rt_held("pledge(\"stdio proc exec\", \"stdio inet proc "
			    "exec\"): the CLONE_VM child%s did not connect",
			    do_exec ? " whose exec failed" : ", no exec made");
		} else if (tamed)
			rt_escaped("pledge(\"stdio proc exec\", \"stdio inet "
			    "proc exec\"): a CLONE_VM child whose exec failed, "
			    "once its parent left, connected to 127.0.0.1 "
			    "(execpromises' inet, the pledged image's code)");
		close(l.fd);
	}
	return rt_finish();
}
