/* SPDX-License-Identifier: ISC */
/*
 * gate_stat.c: stat and O_PATH of a path no promise grants, through a
 * "syscall; ret" found in the process (issue 46, the gate, with a
 * layer).
 *
 * Under pledge("stdio"), without rpath, path lookups trap and the
 * handler makes the few the base set grants itself, through the one
 * instruction the filter trusts.  Landlock, behind it, does not mediate
 * stat() or an O_PATH open: a jump to that instruction looks up any
 * path.  The parent makes the file only after the child has pledged,
 * with a size of its choosing, so that only a lookup made under the
 * pledge can report its inode and size.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	uint64_t	 gadget;
	const char	*path;
};

/* what the child saw: by newfstatat, and by fstat of an O_PATH open */
struct seen {
	struct stat	 st, opath;
	int		 st_ok, opath_ok;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct seen s;
	struct rt_regs st = { SYS_newfstatat, { AT_FDCWD, (long)a->path,
	    (long)&s.st, 0 } };
	struct rt_regs op = { SYS_openat, { AT_FDCWD, (long)a->path,
	    O_PATH } };
	long fd;

	memset(&s, 0, sizeof(s));
	if (a->tamed)
		rt_pledge("stdio", NULL);
	rt_ready();
	rt_await_go();
	s.st_ok = rt_jump(a->gadget, &st) == 0;
	if ((fd = rt_jump(a->gadget, &op)) >= 0)
		s.opath_ok = fstat((int)fd, &s.opath) == 0;
	rt_tell(&s, sizeof(s));
	return 0;
}

static int
same(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	    a->st_size == b->st_size;
}

/* 1: newfstatat saw it, 2: the O_PATH open did, 3: both */
static int
try(struct attempt *a)
{
	struct rt_kid k;
	struct stat want;
	struct seen s;
	int fd, r = 0;

	memset(&s, 0, sizeof(s));
	unlink(a->path);
	rt_spawn(&k, attack, a);
	if (rt_heard(&k) == 0) {
		/* made now: a size nobody knew before the pledge */
		if ((fd = open(a->path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) ==
		    -1 || ftruncate(fd, 4096 + random() % 65536) == -1 ||
		    fstat(fd, &want) == -1)
			rt_fatal("%s", a->path);
		close(fd);
		rt_go(&k);
		if (rt_listen(&k, &s, sizeof(s)) == sizeof(s)) {
			r |= s.st_ok && same(&s.st, &want);
			r |= (s.opath_ok && same(&s.opath, &want)) << 1;
		}
	}
	rt_reap(&k);
	rt_check(k.status);
	return r;
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct attempt a = { 0 };
	int n, i, r;

	rt_init(argc, argv);
	a.path = rt_path("looked-up");
	if ((n = rt_gadgets(g, RT_MAXGADGETS)) == 0) {
		rt_na("no \"syscall; ret\" in this process's code");
		return rt_finish();
	}
	a.gadget = g[0].addr;
	if (try(&a) != 3) {
		rt_na("untamed, newfstatat and O_PATH through a \"syscall; "
		    "ret\" saw nothing");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < n; i++) {
		a.gadget = g[i].addr;
		if ((r = try(&a)) != 0) {
			rt_escaped("pledge(\"stdio\"): through the \"syscall; "
			    "ret\" at %s, %s%s%s saw a file made after the "
			    "pledge (its inode and size)", g[i].where,
			    r & 1 ? "newfstatat" : "", r == 3 ? " and " : "",
			    r & 2 ? "an O_PATH open" : "");
			return rt_finish();
		}
	}
	rt_held("pledge(\"stdio\"): none of %d \"syscall; ret\" looked up "
	    "the file", n);
	return rt_finish();
}
