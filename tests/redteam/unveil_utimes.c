/* SPDX-License-Identifier: ISC */
/*
 * unveil_utimes.c: utimensat on a path unveil() hides (issue 46,
 * unveil's unmediated calls).
 *
 * Landlock does not mediate changing a file's times.  Only visible/ is
 * unveiled; the file is in hidden/, and the attacker sets its
 * modification time to 12345 (1970).  Tried with unveil alone and under
 * the promises utimensat needs.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "redteam.h"

#define WHEN	12345

struct attempt {
	int		 tamed;
	const char	*promises;
	const char	*file;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct timespec t[2] = { { WHEN, 0 }, { WHEN, 0 } };

	if (a->tamed)
		rt_hide(a->promises);
	return utimensat(AT_FDCWD, a->file, t, 0) == 0 ? 0 : 1;
}

static int
try(struct attempt *a)
{
	struct rt_kid k;
	struct stat st;

	if (utimensat(AT_FDCWD, a->file, NULL, 0) == -1)
		rt_fatal("%s", a->file);
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	if (stat(a->file, &st) == -1)
		rt_fatal("%s", a->file);
	return st.st_mtime == WHEN;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL,
	    "stdio rpath wpath fattr" };
	struct attempt a = { 0 };
	int fd;
	size_t i;

	rt_init(argc, argv);
	rt_two_dirs();
	a.file = rt_path("hidden/file");
	if ((fd = open(a.file, O_WRONLY | O_CREAT, 0644)) == -1)
		rt_fatal("%s", a.file);
	close(fd);
	if (!try(&a)) {
		rt_na("untamed, utimensat did not set the time");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		if (try(&a))
			rt_escaped("%s: utimensat set hidden/file's time",
			    rt_hide_label(a.promises));
		else
			rt_held("%s: hidden/file's time stayed",
			    rt_hide_label(a.promises));
	}
	return rt_finish();
}
