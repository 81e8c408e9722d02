/* SPDX-License-Identifier: ISC */
/*
 * exec_setid_open.c: a call with set-ID mode bits, in an exec tree, is
 * made by the supervisor from its own place (issue 46, the supervisor).
 *
 * Where pledge's exec is held, the filter sends the supervisor the set-ID
 * rows' calls (an open with O_CREAT, mkdir, mknod, with 04000-07000 in
 * the mode); sup_direct() strips the bits and, where the row left is an
 * allowance (TA_ALLOW) or a marked open (TA_LANDLOCK), has
 * sup_make_stripped() make the call: sup_open_at() from the caller's
 * directory, outside every Landlock domain, with no unveil check and no
 * check of a granted path.  unveil("visible", "rwc") hides hidden/; an
 * open of hidden/secret O_RDWR|O_CREAT, mode 04600, reads and rewrites
 * it, and mkdir of hidden/made, mode 01755, makes it.  Under
 * pledge("stdio tmppath exec") the marked open (argument 4 TAME_MARK,
 * which any code may set) makes a file outside /tmp.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define MARK	0x74616d65L	/* TAME_MARK (policy.h) */

struct attempt {
	int		 tamed;
	int		 tmppath;	/* pledge("stdio tmppath exec") */
	struct rt_secret *secret;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	char buf[4096];
	long fd, n;

	if (a->tamed && a->tmppath)
		rt_pledge("stdio tmppath exec", NULL);
	else if (a->tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		rt_pledge("stdio rpath wpath cpath exec", NULL);
	}
	if (a->tmppath) {
		fd = syscall(SYS_openat, AT_FDCWD, rt_path("made"), O_WRONLY |
		    O_CREAT, 04644, MARK);
		return fd >= 0 ? 0 : 1;
	}
	if ((fd = open(a->secret->path, O_RDWR | O_CREAT, 04600)) >= 0) {
		if ((n = read((int)fd, buf, sizeof(buf))) > 0)
			rt_tell(buf, (size_t)n);
		pwrite((int)fd, "overwritten", 11, 0);
	}
	mkdir(rt_path("hidden/made"), 01755);
	return 0;
}

/* 1: read, 2: rewritten, 4: made */
static int
try(struct attempt *a)
{
	struct rt_kid k;
	char got[4096], now[16] = "";
	size_t n;
	int fd, r = 0;

	rmdir(rt_path("hidden/made"));
	unlink(rt_path("made"));
	if ((fd = open(a->secret->path, O_WRONLY | O_TRUNC)) == -1 ||
	    write(fd, a->secret->data, a->secret->len) != (ssize_t)a->secret->len)
		rt_fatal("%s", a->secret->path);
	close(fd);
	n = rt_run(&k, attack, a, got, sizeof(got));
	if (a->tmppath)
		return rt_exists(rt_path("made")) ? 4 : 0;
	if (rt_secret_in(a->secret, got, n))
		r |= 1;
	if ((fd = open(a->secret->path, O_RDONLY)) != -1) {
		if (read(fd, now, 11) == 11 && memcmp(now, "overwritten", 11) == 0)
			r |= 2;
		close(fd);
	}
	if (rt_exists(rt_path("hidden/made")))
		r |= 4;
	return r;
}

int
main(int argc, char **argv)
{
	struct rt_secret s;
	struct attempt a = { 0 };
	int r;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	rt_secret(&s, rt_path("hidden/secret"));
	a.secret = &s;
	if (try(&a) != 7) {
		rt_na("untamed, the open and mkdir did not work");
		return rt_finish();
	}
	a.tamed = 1;
	if ((r = try(&a)) != 0)
		rt_escaped("unveil(\"visible\", \"rwc\"), pledge(\"stdio rpath "
		    "wpath cpath exec\"): with mode bits 04600/01755%s%s%s",
		    r & 1 ? ", hidden/secret read" : "", r & 2 ?
		    ", hidden/secret rewritten" : "", r & 4 ?
		    ", hidden/made made" : "");
	else
		rt_held("unveil + pledge(\"stdio rpath wpath cpath exec\"): "
		    "hidden/ untouched");
	a.tmppath = 1;
	if (try(&a) != 0)
		rt_escaped("pledge(\"stdio tmppath exec\"): a marked open with "
		    "mode 04644 made %s, outside /tmp", rt_path("made"));
	else
		rt_held("pledge(\"stdio tmppath exec\"): nothing made outside "
		    "/tmp");
	return rt_finish();
}
