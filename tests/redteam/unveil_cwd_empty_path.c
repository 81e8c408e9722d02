/* SPDX-License-Identifier: ISC */
/*
 * unveil_cwd_empty_path.c: "" with AT_EMPTY_PATH relative to AT_FDCWD,
 * in a hidden working directory (issue 46, unveil's unmediated calls).
 *
 * The supervisor passes over unveil's check where the path is empty
 * (sup_unveil.c, find_file(): "a descriptor's own file, as OpenBSD's f*
 * calls"), AT_FDCWD included: then the file is the caller's working
 * directory.  utimensat(AT_FDCWD, "", t, AT_EMPTY_PATH) and fchownat()
 * so change the directory, stat(".") of which unveil refuses.
 *
 *	cwd		the program was started in hidden/ (its working
 *			directory at the lock)
 *	chdir race	an exec tree: chdir is checked, then let go on
 *			(SECCOMP_USER_NOTIF_FLAG_CONTINUE); a thread
 *			flips the path between the check and the kernel's
 *			read, and the process stands in hid2/, never
 *			unveiled, and changes it
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define STAMP	1000000

struct attempt {
	int		 tamed;
	int		 race;
	const char	*promises;	/* NULL: unveil alone */
};

static char flip_path[PATH_MAX];
static size_t flip_at;
static volatile int flip_stop;

static void *
flip(void *arg)
{
	(void)arg;
	volatile char *c = flip_path + flip_at;

	while (!flip_stop) {	/* volatile: neither store may go */
		c[0] = 'h'; c[1] = 'i'; c[2] = 'd';
		c[0] = 'v'; c[1] = 'i'; c[2] = 's';
	}
	return NULL;
}

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct timespec ts[2] = { { STAMP, 0 }, { STAMP, 0 } };
	struct stat st, h;
	pthread_t t;
	int i;

	if (stat(rt_path("hid2"), &h) == -1)
		return RT_SETUP;
	if (!a->race && chdir(rt_path("hidden")) == -1)
		return RT_SETUP;
	if (a->tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		rt_unveil(rt_path("vis2"), "r");
		if (a->promises != NULL)
			rt_pledge(a->promises, NULL);
		else
			rt_unveil(NULL, NULL);
	}
	if (a->race) {
		snprintf(flip_path, sizeof(flip_path), "%s", rt_path("vis2"));
		flip_at = strlen(flip_path) - 4;
		if (!a->tamed) {
			memcpy(flip_path + flip_at, "hid2", 4);
			if (chdir(flip_path) == -1)
				return RT_SETUP;
		} else {
			pthread_create(&t, NULL, flip, NULL);
			for (i = 0; i < 100000; i++)
				if (chdir(flip_path) == 0 && fstatat(AT_FDCWD, "",
				    &st, AT_EMPTY_PATH) == 0 &&
				    st.st_ino == h.st_ino)
					break;
			flip_stop = 1;
			pthread_join(t, NULL);
			rt_sh->ret = i;
		}
	}
	i = utimensat(AT_FDCWD, "", ts, AT_EMPTY_PATH);
	rt_debug("race %d tamed %d: utimensat %d (%s), tries %ld", a->race, a->tamed, i, strerror(errno), rt_sh->ret);
	return 0;
}

static int
try(struct attempt *a)
{
	struct rt_kid k;
	struct stat st;
	const char *d = rt_path(a->race ? "hid2" : "hidden");

	utimensat(AT_FDCWD, d, NULL, 0);
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	return stat(d, &st) == 0 && st.st_mtime == STAMP;
}

int
main(int argc, char **argv)
{
	struct attempt a = { 0 };
	static const char *const promises[] = { NULL, "stdio rpath fattr" };
	size_t i;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	if (mkdir(rt_path("hid2"), 0755) == -1 || mkdir(rt_path("vis2"),
	    0755) == -1)
		rt_fatal("mkdir");
	if (!try(&a)) {
		rt_na("untamed, utimensat(AT_FDCWD, \"\") did not take");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		if (try(&a))
			rt_escaped("%s, started in hidden/: utimensat(AT_FDCWD, "
			    "\"\", AT_EMPTY_PATH) set hidden/'s times",
			    rt_hide_label(a.promises));
		else
			rt_held("%s, started in hidden/: its times stayed",
			    rt_hide_label(a.promises));
	}
	a.race = 1;
	a.tamed = 0;
	if (!try(&a)) {
		rt_na("untamed, chdir and utimensat of hid2/ did not take");
		return rt_finish();
	}
	a.tamed = 1;
	a.promises = "stdio rpath fattr exec";
	if (try(&a))
		rt_escaped("exec tree, pledge(\"%s\"): a chdir flipped to hid2/ "
		    "after the check (try %ld) and utimensat(AT_FDCWD, \"\") "
		    "set its times", a.promises, rt_sh->ret);
	else
		rt_held("exec tree: no chdir reached hid2/ in %ld tries",
		    rt_sh->ret);
	return rt_finish();
}
