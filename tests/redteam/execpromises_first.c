/* SPDX-License-Identifier: ISC */
/*
 * execpromises_first.c: pledge(NULL, execpromises) before any promises,
 * then exec (issue 46, unrestricted states; point 6).
 *
 * OpenBSD's pledge(NULL, "stdio rpath") in a process with no promises
 * yet leaves the process as it is and pledges what it execs.  libtame
 * keeps the execpromises for a later pledge() that holds exec and
 * installs nothing: the exec'd program runs unrestricted.  Here it is a
 * small static image (no library) that creates a file, which "stdio
 * rpath" does not allow.
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	const char	*image;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	char *argv[] = { "creator", NULL }, *envp[] = { NULL };

	if (a->tamed)
		rt_pledge(NULL, "stdio rpath");
	execve(a->image, argv, envp);
	return 127;
}

int
main(int argc, char **argv)
{
	struct attempt a = { 0 };
	struct rt_image im;
	struct rt_kid k;
	const char *made;
	int fd;

	rt_init(argc, argv);
	made = rt_path("made");
	rt_img_init(&im, 0x10000000);
	rt_img_call(&im, SYS_openat, 4, (uint64_t)AT_FDCWD,
	    rt_img_str(&im, made), (uint64_t)(O_WRONLY | O_CREAT), 0600ULL);
	rt_img_exit(&im);
	a.image = rt_path("creator");
	if ((fd = rt_img_write(&im, a.image)) == -1)
		rt_fatal("%s", a.image);
	close(fd);
	rt_spawn(&k, attack, &a);
	rt_reap(&k);
	if (!rt_exists(made)) {
		rt_na("untamed, the image made no file (%s)", rt_how(k.status));
		return rt_finish();
	}
	unlink(made);
	a.tamed = 1;
	rt_spawn(&k, attack, &a);
	rt_reap(&k);
	rt_check(k.status);
	if (rt_exists(made))
		rt_escaped("pledge(NULL, \"stdio rpath\") before any promises: "
		    "the exec'd program created a file (%s)",
		    rt_how(k.status));
	else
		rt_held("pledge(NULL, \"stdio rpath\") before any promises: "
		    "the exec'd program made no file (%s)", rt_how(k.status));
	return rt_finish();
}
