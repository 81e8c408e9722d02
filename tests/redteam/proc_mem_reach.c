/* SPDX-License-Identifier: ISC */
/*
 * proc_mem_reach.c: the memory of every process around a pledged one
 * (issue 46, point 7: /proc/PID/mem into a supervisor's reach).
 *
 * Whatever runs on a pledged process's behalf outside its sandbox (a
 * supervisor answering its calls, after the redesign) must be out of
 * its reach, as its parent and siblings are.  The child, under
 * pledge("stdio rpath wpath") or tame(STDIO|RPATH|WPATH), single-
 * threaded, opens /proc/PID/mem for writing of its parent, its
 * parent's other children, and its own children it did not make (a
 * supervisor would be one of these); where it can, it writes the
 * parent's and the sibling's canary, and writes an unknown process's
 * bytes back as they were (naming it).  Then process_vm_writev to the
 * parent.  The parent checks both canaries.
 */
#include <sys/prctl.h>
#include <sys/uio.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define CANARY	0x63616e617279ULL
#define WRITTEN	0x777269747465ULL

static volatile uint64_t canary = CANARY;

struct attempt {
	int		 how;		/* 0 untamed, 1 pledge, 2 tame */
	pid_t		 sibling;
};

static int
ppid_of(pid_t pid)
{
	char p[64], line[128];
	FILE *f;
	int ppid = -1;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)pid);
	if ((f = fopen(p, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "PPid: %d", &ppid) == 1)
			break;
	fclose(f);
	return ppid;
}

/* Write an unknown process's first writable word back as it was. */
static int
touch_unknown(pid_t pid, int fd)
{
	char p[64], line[256];
	unsigned long lo, hi;
	char perm[8];
	uint64_t v;
	FILE *f;
	int r = 0;

	snprintf(p, sizeof(p), "/proc/%d/maps", (int)pid);
	if ((f = fopen(p, "re")) == NULL)
		return 0;
	while (!r && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3 &&
		    perm[0] == 'r' && perm[1] == 'w')
			r = pread(fd, &v, sizeof(v), (off_t)lo) == sizeof(v) &&
			    pwrite(fd, &v, sizeof(v), (off_t)lo) == sizeof(v);
	fclose(f);
	return r;
}

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	pid_t me = getpid(), parent = getppid(), pid;
	uint64_t v = WRITTEN;
	struct iovec l = { &v, sizeof(v) }, r = { (void *)&canary, sizeof(v) };
	struct dirent *e;
	char path[64];
	DIR *d;
	int fd, pp;

	if (a->how == 1)
		rt_pledge("stdio rpath wpath", NULL);
	else if (a->how == 2)
		rt_tame(TAME_STDIO | TAME_RPATH | TAME_WPATH);
	if ((d = opendir("/proc")) == NULL)
		return RT_SETUP;
	while ((e = readdir(d)) != NULL) {
		if ((pid = (pid_t)atoi(e->d_name)) <= 0 || pid == me)
			continue;
		pp = ppid_of(pid);
		if (pid != parent && pp != parent && pp != me)
			continue;	/* not around us */
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
		if ((fd = open(path, O_RDWR)) == -1)
			continue;
		if (pid == parent || pid == a->sibling)
			pwrite(fd, &v, sizeof(v), (off_t)(uintptr_t)&canary);
		else if (touch_unknown(pid, fd))
			snprintf(rt_sh->note, sizeof(rt_sh->note),
			    "process %d (child of %s)", (int)pid,
			    pp == me ? "the pledged one" : "its parent");
		close(fd);
	}
	closedir(d);
	process_vm_writev(parent, &l, 1, &r, 1, 0);
	return 0;
}

static void
hold(void)
{
	for (;;)
		pause();
}

static int
sibling_run(void *arg)
{
	(void)arg;
	/* reachable as Yama would let any process of ours reach it */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	rt_ready();
	hold();
	return 0;
}

/* What was written: "" for nothing. */
static const char *
try(struct attempt *a)
{
	static char what[384];
	struct rt_kid s, k;
	uint64_t v = 0;
	struct iovec l = { &v, sizeof(v) }, r = { (void *)&canary, sizeof(v) };

	canary = CANARY;
	rt_spawn(&s, sibling_run, NULL);
	if (rt_heard(&s) == -1)
		rt_fatal("the sibling did not start");
	a->sibling = s.pid;
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	process_vm_readv(a->sibling, &l, 1, &r, 1, 0);
	rt_kill(&s);
	snprintf(what, sizeof(what), "%s%s%s%s%s",
	    canary == WRITTEN ? "its parent's memory" : "",
	    canary == WRITTEN && v == WRITTEN ? ", " : "",
	    v == WRITTEN ? "its sibling's memory" : "",
	    rt_sh->note[0] && (canary == WRITTEN || v == WRITTEN) ? ", " : "",
	    rt_sh->note);
	canary = CANARY;
	return what;
}

int
main(int argc, char **argv)
{
	static const char *const label[] = { "untamed",
	    "pledge(\"stdio rpath wpath\")",
	    "tame(TAME_STDIO | TAME_RPATH | TAME_WPATH)" };
	struct attempt a = { 0 };
	const char *what;

	rt_init(argc, argv);
	if (strstr(try(&a), "sibling") == NULL) {
		rt_na("untamed, /proc/PID/mem of a sibling was not writable "
		    "(ptrace rules of this kernel)");
		return rt_finish();
	}
	for (a.how = 1; a.how <= 2; a.how++)
		if (*(what = try(&a)) != '\0')
			rt_escaped("%s: wrote %s", label[a.how], what);
		else
			rt_held("%s: no other process's memory in reach",
			    label[a.how]);
	return rt_finish();
}
