/* SPDX-License-Identifier: ISC */
/*
 * unveil_chmod.c: chmod of a path unveil() hides (issue 46, unveil's
 * unmediated calls).
 *
 * unveil() is a Landlock layer, and Landlock does not mediate chmod: a
 * path outside every unveiled one changes mode as if nothing were
 * hidden.  OpenBSD's unveil hides it (ENOENT).  Only visible/ is
 * unveiled; the file is in hidden/.  Tried with unveil alone and under
 * the promises chmod needs.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	const char	*promises;
	const char	*file;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;

	if (a->tamed)
		rt_hide(a->promises);
	return chmod(a->file, 04777) == 0 ? 0 : 1;
}

/* The file's mode after the attempt (then back to 0644). */
static mode_t
try(struct attempt *a)
{
	struct rt_kid k;
	struct stat st;

	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	if (stat(a->file, &st) == -1 || chmod(a->file, 0644) == -1)
		rt_fatal("%s", a->file);
	return st.st_mode & 07777;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL,
	    "stdio rpath wpath fattr" };
	struct attempt a = { 0 };
	mode_t m;
	int fd;
	size_t i;

	rt_init(argc, argv);
	rt_two_dirs();
	a.file = rt_path("hidden/file");
	if ((fd = open(a.file, O_WRONLY | O_CREAT, 0644)) == -1)
		rt_fatal("%s", a.file);
	close(fd);
	if (try(&a) != 04777) {
		rt_na("untamed, chmod 04777 did not take");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		if ((m = try(&a)) != 0644)
			rt_escaped("%s: chmod 04777 of hidden/file made it "
			    "%04o", rt_hide_label(a.promises), (unsigned)m);
		else
			rt_held("%s: hidden/file kept its mode",
			    rt_hide_label(a.promises));
	}
	return rt_finish();
}
