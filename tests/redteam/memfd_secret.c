/* SPDX-License-Identifier: ISC */
/*
 * memfd_secret.c: memory no other process can read, made under pledge
 * (issue 46, point 7: classes the review did not try).
 *
 * memfd_secret(2) maps pages that leave the kernel's direct map: not
 * even /proc/PID/mem or process_vm_readv of a privileged process reads
 * them.  A supervisor that reads a pledged process's arguments (a path,
 * a message) from its memory would read nothing there; no promise
 * grants it, and a pledged process must not have it.  Tried directly
 * and through every "syscall; ret" of the process, under
 * pledge("stdio"); the parent looks for the secretmem descriptor among
 * the child's while it waits.
 */
#include <sys/syscall.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#ifndef SYS_memfd_secret
#define SYS_memfd_secret	447
#endif

struct attempt {
	int		 tamed;
	uint64_t	 gadget;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct rt_regs r = { SYS_memfd_secret, { 0 } };

	if (a->tamed)
		rt_pledge("stdio", NULL);
	rt_sh->ret = a->gadget ? rt_jump(a->gadget, &r) :
	    syscall(SYS_memfd_secret, 0);
	rt_ready();
	rt_await_go();
	return 0;
}

/* Does pid hold a descriptor whose link names what? */
static int
holds(pid_t pid, const char *what)
{
	char dir[64], p[PATH_MAX], link[PATH_MAX];
	struct dirent *e;
	ssize_t n;
	DIR *d;
	int r = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	if ((d = opendir(dir)) == NULL)
		return 0;
	while (!r && (e = readdir(d)) != NULL) {
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if ((n = readlink(p, link, sizeof(link) - 1)) > 0) {
			link[n] = '\0';
			r = strstr(link, what) != NULL;
		}
	}
	closedir(d);
	return r;
}

static int
try(struct attempt *a)
{
	struct rt_kid k;
	int r = 0;

	rt_spawn(&k, attack, a);
	if (rt_heard(&k) == 0)
		r = holds(k.pid, "secretmem");
	rt_go(&k);
	rt_reap(&k);
	rt_check(k.status);
	return r;
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct attempt a = { 0 };
	int n, i;

	rt_init(argc, argv);
	if (!try(&a)) {
		rt_na("memfd_secret (Linux 5.14 with secretmem.enable)");
		return rt_finish();
	}
	a.tamed = 1;
	if (try(&a)) {
		rt_escaped("pledge(\"stdio\"): memfd_secret gave memory no "
		    "other process can read");
		return rt_finish();
	}
	n = rt_gadgets(g, RT_MAXGADGETS);
	for (i = 0; i < n; i++) {
		a.gadget = g[i].addr;
		if (try(&a)) {
			rt_escaped("pledge(\"stdio\"): memfd_secret through the "
			    "\"syscall; ret\" at %s gave memory no other "
			    "process can read", g[i].where);
			return rt_finish();
		}
	}
	rt_held("pledge(\"stdio\"): memfd_secret refused, directly and "
	    "through %d \"syscall; ret\"", n);
	return rt_finish();
}
