/* SPDX-License-Identifier: ISC */
/*
 * unveil_chown.c: chown of a path unveil() hides (issue 46, unveil's
 * unmediated calls).
 *
 * Landlock does not mediate chown.  As root the file is given away
 * (4242:4242); as another user, a chown to itself is the effect there
 * is: it clears the file's set-user-ID bit.  Only visible/ is unveiled;
 * the file is in hidden/.  Tried with unveil alone and under the
 * promises chown needs.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <unistd.h>

#include "redteam.h"

#define OWNER	4242

struct attempt {
	int		 tamed;
	const char	*promises;
	const char	*file;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	uid_t u = rt_is_root() ? OWNER : getuid();
	gid_t g = rt_is_root() ? OWNER : getgid();

	if (a->tamed)
		rt_hide(a->promises);
	return chown(a->file, u, g) == 0 ? 0 : 1;
}

/* Did the attempt change the file?  (Then it is put back.) */
static int
try(struct attempt *a)
{
	struct rt_kid k;
	struct stat st;
	int changed;

	if (chown(a->file, getuid(), getgid()) == -1 ||
	    chmod(a->file, 04755) == -1)
		rt_fatal("%s", a->file);
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	if (stat(a->file, &st) == -1)
		rt_fatal("%s", a->file);
	changed = rt_is_root() ? st.st_uid == OWNER :
	    !(st.st_mode & S_ISUID);
	return changed;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL,
	    "stdio rpath wpath fattr chown" };
	const char *what = rt_is_root() ? "gave hidden/file to 4242" :
	    "cleared hidden/file's set-user-ID bit (a chown to itself)";
	struct attempt a = { 0 };
	int fd;
	size_t i;

	rt_init(argc, argv);
	rt_two_dirs();
	a.file = rt_path("hidden/file");
	if ((fd = open(a.file, O_WRONLY | O_CREAT, 0755)) == -1)
		rt_fatal("%s", a.file);
	close(fd);
	if (!try(&a)) {
		rt_na("untamed, chown had no effect to see");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		if (try(&a))
			rt_escaped("%s: chown %s", rt_hide_label(a.promises),
			    what);
		else
			rt_held("%s: chown changed nothing",
			    rt_hide_label(a.promises));
	}
	return rt_finish();
}
