/* SPDX-License-Identifier: ISC */
/*
 * unveil_memfd_exec.c: a program the attacker writes into a memfd, run
 * under unveil without any x (issue 46, unveil's unmediated calls).
 *
 * unveil's x is Landlock's execute right, which judges a file by the
 * path it has; a memfd is on no path a rule covers, and Landlock lets
 * it run.  The supervisor sees every exec of the tree, but looks only
 * for a loader (sup_exec.c, exec_call()), and "/proc/self/fd/N" it does
 * not resolve at all (no magic link): the exec goes on.  The program
 * (a static image of its own, rt_img) is written to visible/ too, where
 * an execve of it fails: x is withheld.  Both execveat(memfd, "",
 * AT_EMPTY_PATH) and execve("/proc/self/fd/N") are tried.
 */
#include <sys/syscall.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define LINE	"crafted image ran\n"

struct attempt {
	int		 tamed;
	int		 how;		/* 0 file, 1 execveat, 2 /proc/self/fd */
	const char	*promises;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct rt_image im;
	char *av[] = { "image", NULL }, proc[32];
	uint64_t line;
	int fd;

	rt_stdout_up();
	if (a->tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		if (a->promises != NULL)
			rt_pledge(a->promises, NULL);
		else
			rt_unveil(NULL, NULL);
	}
	rt_img_init(&im, 0x10000000);
	line = rt_img_data(&im, LINE, sizeof(LINE) - 1);
	rt_img_call(&im, SYS_write, 3, 1ULL, line, (uint64_t)sizeof(LINE) - 1);
	rt_img_call(&im, SYS_exit_group, 1, 0ULL);
	if (a->how == 0) {
		if ((fd = rt_img_write(&im, rt_path("visible/image"))) == -1)
			return RT_SETUP;
		close(fd);		/* else ETXTBSY */
		execv(rt_path("visible/image"), av);
		return 127;
	}
	if ((fd = rt_img_write(&im, NULL)) == -1)
		return RT_SETUP;
	if (a->how == 1)
		syscall(SYS_execveat, fd, "", av, NULL, AT_EMPTY_PATH);
	else {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		execv(proc, av);
	}
	return 127;
}

static int
ran(struct attempt *a)
{
	struct rt_kid k;
	char out[256] = "";

	rt_run(&k, attack, a, out, sizeof(out) - 1);
	return strstr(out, LINE) != NULL;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL,
	    "stdio rpath wpath cpath proc exec" };
	static const char *const how[] = { "execve of visible/image",
	    "execveat(memfd, \"\", AT_EMPTY_PATH)",
	    "execve(\"/proc/self/fd/N\") of a memfd" };
	struct attempt a = { 0 };
	size_t i;
	int h;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	for (h = 0; h < 3; h++) {
		a.how = h;
		a.tamed = 0;
		if (!ran(&a)) {
			rt_na("untamed, %s did not run it", how[h]);
			continue;
		}
		a.tamed = 1;
		for (i = 0; i < 2; i++) {
			a.promises = promises[i];
			if (!ran(&a))
				rt_held("%s: %s did not run", rt_hide_label(
				    a.promises), how[h]);
			else if (h == 0)
				rt_broken("%s: visible/ was unveiled without "
				    "x, yet its image ran", rt_hide_label(
				    a.promises));
			else
				rt_escaped("%s: %s ran an image of the "
				    "attacker's, with no x unveiled anywhere",
				    rt_hide_label(a.promises), how[h]);
		}
	}
	return rt_finish();
}
