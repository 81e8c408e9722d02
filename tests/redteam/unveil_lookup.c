/* SPDX-License-Identifier: ISC */
/*
 * unveil_lookup.c: lookups of paths unveil() hides: access, stat,
 * O_PATH, chdir, readlink (issue 46, unveil's unmediated calls).
 *
 * Landlock mediates opening files and listing directories, not looking
 * names up: whether a hidden path exists, what a hidden symbolic link
 * says, a working directory in a hidden place.  OpenBSD's unveil makes
 * such paths not exist (ENOENT).  After the child has locked, the
 * parent makes in hidden/ directories k0..k7, each there or not by one
 * bit of a byte it chose, and a symbolic link to a name it chose; the
 * child tells what each call saw, and a call that reads the byte back
 * (or the link) has looked into hidden/.  Tried with unveil alone and
 * under rpath.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

enum { ACCESS, STAT, OPATH, CHDIR, NCALLS };
static const char *const call[NCALLS] = { "access", "stat", "O_PATH",
    "chdir" };

struct attempt {
	int		 tamed;
	const char	*promises;
};

struct seen {
	unsigned char	 bits[NCALLS];
	char		 link[64];
};

static int
found(int c, const char *p)
{
	struct stat st;
	int fd;

	switch (c) {
	case ACCESS:
		return access(p, F_OK) == 0;
	case STAT:
		return stat(p, &st) == 0;
	case OPATH:
		if ((fd = open(p, O_PATH)) == -1)
			return 0;
		close(fd);
		return 1;
	default:
		return chdir(p) == 0 && chdir("/") == 0;
	}
}

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct seen s;
	int c, i;

	memset(&s, 0, sizeof(s));
	if (a->tamed)
		rt_hide(a->promises);
	rt_ready();
	rt_await_go();
	for (c = 0; c < NCALLS; c++)
		for (i = 0; i < 8; i++)
			if (found(c, rt_path("hidden/k%d", i)))
				s.bits[c] |= (unsigned char)(1u << i);
	if (readlink(rt_path("hidden/link"), s.link, sizeof(s.link) - 1) < 0)
		s.link[0] = '\0';
	rt_tell(&s, sizeof(s));
	return 0;
}

/* What looked into hidden/, as words ("" for nothing). */
static const char *
try(struct attempt *a)
{
	static char what[256];
	struct rt_kid k;
	struct seen s;
	char target[32];
	unsigned char byte = (unsigned char)(1 + random() % 254);
	int i, c;

	what[0] = '\0';
	for (i = 0; i < 8; i++)
		rmdir(rt_path("hidden/k%d", i));
	unlink(rt_path("hidden/link"));
	rt_spawn(&k, attack, a);
	if (rt_heard(&k) == 0) {
		for (i = 0; i < 8; i++)
			if (byte & (1u << i) &&
			    mkdir(rt_path("hidden/k%d", i), 0755) == -1)
				rt_fatal("mkdir");
		snprintf(target, sizeof(target), "t%ld", random());
		if (symlink(target, rt_path("hidden/link")) == -1)
			rt_fatal("symlink");
		rt_go(&k);
		if (rt_listen(&k, &s, sizeof(s)) == sizeof(s)) {
			for (c = 0; c < NCALLS; c++)
				if (s.bits[c] == byte)
					snprintf(what + strlen(what),
					    sizeof(what) - strlen(what),
					    "%s%s", what[0] ? ", " : "",
					    call[c]);
			if (strcmp(s.link, target) == 0)
				snprintf(what + strlen(what), sizeof(what) -
				    strlen(what), "%sreadlink", what[0] ?
				    ", " : "");
		}
	}
	rt_reap(&k);
	rt_check(k.status);
	return what;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL, "stdio rpath" };
	struct attempt a = { 0 };
	const char *what;
	size_t i;

	rt_init(argc, argv);
	rt_two_dirs();
	if (strcmp(what = try(&a), "access, stat, O_PATH, chdir, readlink")) {
		rt_na("untamed, the lookups saw only: %s", what);
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		if (*(what = try(&a)) != '\0')
			rt_escaped("%s: %s looked into hidden/",
			    rt_hide_label(a.promises), what);
		else
			rt_held("%s: no lookup saw into hidden/",
			    rt_hide_label(a.promises));
	}
	return rt_finish();
}
