/* SPDX-License-Identifier: ISC */
/*
 * clone3_set_tid.c: a process with a pid of the attacker's choosing
 * (issue 46, point 7: classes the review did not try).
 *
 * clone3 with set_tid picks the new process's pid (checkpoint/restore;
 * CAP_SYS_ADMIN).  Whatever knows processes by pid (a filter's "self",
 * a supervisor's table of who exec'd what) would take a process made
 * so for the one that had that pid.  Under pledge("stdio proc") clone3
 * is soft-denied (ENOSYS: the C library falls back to clone); tried
 * directly and through every "syscall; ret" of the process.  The parent
 * looks for a child of the pledged process at the chosen pid.
 */
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	uint64_t	 gadget;	/* 0: the C library's syscall() */
	pid_t		 want;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	pid_t tid = a->want;
	struct clone_args ca;
	struct rt_regs r;
	long got;

	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	ca.set_tid = (uint64_t)(uintptr_t)&tid;
	ca.set_tid_size = 1;
	r = (struct rt_regs){ SYS_clone3, { (long)&ca, sizeof(ca) } };
	if (a->tamed)
		rt_pledge("stdio proc", NULL);
	got = a->gadget ? rt_jump(a->gadget, &r) :
	    syscall(SYS_clone3, &ca, sizeof(ca));
	if (got == 0)
		_exit(0);		/* the new process */
	rt_sh->ret = got;
	rt_ready();
	rt_await_go();
	return 0;
}

/* A free pid, some way past the last one given. */
static pid_t
free_pid(void)
{
	static int next;
	char p[64];
	long last = 1000, max = 32768;
	FILE *f;
	pid_t pid;

	if ((f = fopen("/proc/sys/kernel/ns_last_pid", "re")) != NULL) {
		if (fscanf(f, "%ld", &last) != 1)
			last = 1000;
		fclose(f);
	}
	if ((f = fopen("/proc/sys/kernel/pid_max", "re")) != NULL) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 32768;
		fclose(f);
	}
	do {
		pid = (pid_t)(300 + (last + 3000 + 7 * next++) % (max - 300));
		snprintf(p, sizeof(p), "/proc/%d", (int)pid);
	} while (rt_exists(p));
	return pid;
}

/* Is there a process at pid whose parent is the child? */
static int
try(struct attempt *a)
{
	char p[64], line[128];
	struct rt_kid k;
	FILE *f;
	int ppid = -1;
	pid_t pid;

	a->want = free_pid();
	rt_spawn(&k, attack, a);
	pid = k.pid;
	if (rt_heard(&k) == 0) {
		snprintf(p, sizeof(p), "/proc/%d/status", (int)a->want);
		if ((f = fopen(p, "re")) != NULL) {
			while (fgets(line, sizeof(line), f) != NULL)
				if (sscanf(line, "PPid: %d", &ppid) == 1)
					break;
			fclose(f);
		}
	}
	rt_go(&k);
	rt_reap(&k);
	rt_check(k.status);
	rt_debug("clone3: %ld, pid %d's parent %d", rt_sh->ret, (int)a->want,
	    ppid);
	return ppid > 0 && ppid == pid;
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct attempt a = { 0 };
	int n, i;

	rt_init(argc, argv);
	if (!try(&a)) {
		rt_na("untamed, clone3 with set_tid made no process at the "
		    "chosen pid (it needs CAP_SYS_ADMIN, Linux 5.5)");
		return rt_finish();
	}
	a.tamed = 1;
	if (try(&a)) {
		rt_escaped("pledge(\"stdio proc\"): clone3 made a process at "
		    "the pid it chose");
		return rt_finish();
	}
	n = rt_gadgets(g, RT_MAXGADGETS);
	for (i = 0; i < n; i++) {
		a.gadget = g[i].addr;
		if (try(&a)) {
			rt_escaped("pledge(\"stdio proc\"): clone3 through the "
			    "\"syscall; ret\" at %s made a process at the pid "
			    "it chose", g[i].where);
			return rt_finish();
		}
	}
	rt_held("pledge(\"stdio proc\"): clone3 with set_tid refused, "
	    "directly and through %d \"syscall; ret\"", n);
	return rt_finish();
}
