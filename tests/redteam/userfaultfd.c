/* SPDX-License-Identifier: ISC */
/*
 * userfaultfd.c: a userfaultfd made under pledge (issue 46, point 7:
 * classes the review did not try).
 *
 * A userfaultfd lets a thread of the process answer its own page
 * faults: a read of a registered page by anyone (the kernel on a system
 * call's behalf, a supervisor reading the arguments) waits until the
 * attacker supplies the page, as long as it likes and with what it
 * likes.  That stalls whoever reads, and widens every window between a
 * check and a use.  No promise grants it.  Tried under pledge("stdio")
 * directly and through every "syscall; ret" of the process, and under
 * pledge("stdio rpath wpath") through /dev/userfaultfd's ioctl (Linux
 * 6.1; root only where the device is 0600).  The parent looks for the
 * descriptor among the child's while it waits.
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/userfaultfd.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY	1
#endif
#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW	_IO(0xAA, 0x00)
#endif

struct attempt {
	const char	*promises;	/* NULL: the control */
	int		 device;	/* through /dev/userfaultfd */
	uint64_t	 gadget;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct rt_regs r = { SYS_userfaultfd, { O_CLOEXEC |
	    UFFD_USER_MODE_ONLY } };
	int fd;

	if (a->promises != NULL)
		rt_pledge(a->promises, NULL);
	if (a->device) {
		if ((fd = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC)) != -1)
			ioctl(fd, USERFAULTFD_IOC_NEW, O_CLOEXEC |
			    UFFD_USER_MODE_ONLY);
	} else if (a->gadget)
		rt_jump(a->gadget, &r);
	else
		syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	rt_ready();
	rt_await_go();
	return 0;
}

static int
holds_uffd(pid_t pid)
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
			r = strstr(link, "[userfaultfd]") != NULL;
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
		r = holds_uffd(k.pid);
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
	if (!try(&a))
		rt_na("userfaultfd (CONFIG_USERFAULTFD, or "
		    "vm.unprivileged_userfaultfd and Linux 5.11)");
	else {
		a.promises = "stdio";
		if (try(&a))
			rt_escaped("pledge(\"stdio\"): userfaultfd() made one");
		else {
			n = rt_gadgets(g, RT_MAXGADGETS);
			for (i = 0; i < n; i++) {
				a.gadget = g[i].addr;
				if (try(&a))
					break;
			}
			if (i < n)
				rt_escaped("pledge(\"stdio\"): userfaultfd "
				    "through the \"syscall; ret\" at %s made "
				    "one", g[i].where);
			else
				rt_held("pledge(\"stdio\"): userfaultfd "
				    "refused, directly and through %d "
				    "\"syscall; ret\"", n);
		}
	}
	a = (struct attempt){ NULL, 1, 0 };
	if (!try(&a)) {
		rt_na("/dev/userfaultfd (Linux 6.1, and access to it)");
		return rt_finish();
	}
	a.promises = "stdio rpath wpath";
	if (try(&a))
		rt_escaped("pledge(\"stdio rpath wpath\"): /dev/userfaultfd's "
		    "ioctl made one");
	else
		rt_held("pledge(\"stdio rpath wpath\"): /dev/userfaultfd "
		    "refused");
	return rt_finish();
}
