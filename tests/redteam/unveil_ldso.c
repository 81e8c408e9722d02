/* SPDX-License-Identifier: ISC */
/*
 * unveil_ldso.c: a program run through the loader from a directory
 * unveiled without x (issue 46, unveil's unmediated calls).
 *
 * Landlock's execute right is checked at execve: of the loader, here,
 * whose directory is unveiled "rx" so that programs can run at all.
 * "ld.so PROGRAM" maps PROGRAM itself, with mmap, which needs only
 * read access to it: /usr/bin is unveiled "r" (no x), yet id runs.
 * The parent reads id's output ("uid=...").  A direct execve of
 * /usr/bin/id is the check that x was withheld.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	int		 direct;	/* execve /usr/bin/id itself */
	const char	*loader, *loader_dir;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	char *direct[] = { "/usr/bin/id", NULL };
	char *via[] = { (char *)a->loader, "/usr/bin/id", NULL };

	rt_stdout_up();
	if (a->tamed) {
		rt_unveil(a->loader_dir, "rx");	/* the loader, libc */
		rt_unveil("/usr/bin", "r");
		rt_unveil("/etc", "r");		/* ld.so.cache, passwd */
		rt_unveil(NULL, NULL);
	}
	if (a->direct)
		execv(direct[0], direct);
	else
		execv(via[0], via);
	return 127;
}

static int
ran(struct attempt *a)
{
	struct rt_kid k;
	char out[256] = "";

	rt_run(&k, attack, a, out, sizeof(out) - 1);
	return strncmp(out, "uid=", 4) == 0;
}

int
main(int argc, char **argv)
{
	struct attempt a = { 0 };
	char real[PATH_MAX];

	rt_init(argc, argv);
	if ((a.loader = rt_loader()) == NULL ||
	    realpath(a.loader, real) == NULL ||
	    access("/usr/bin/id", X_OK) == -1) {
		rt_na("no loader (PT_INTERP) or no /usr/bin/id here");
		return rt_finish();
	}
	a.loader_dir = dirname(real);
	if (!ran(&a)) {
		rt_na("untamed, %s /usr/bin/id did not run", a.loader);
		return rt_finish();
	}
	a.tamed = 1;
	a.direct = 1;
	if (ran(&a)) {
		rt_escaped("unveil(\"/usr/bin\", \"r\"): /usr/bin/id ran "
		    "without x");
		return rt_finish();
	}
	a.direct = 0;
	if (ran(&a))
		rt_escaped("unveil(\"/usr/bin\", \"r\"), x on the loader's "
		    "directory: %s /usr/bin/id ran id", a.loader);
	else
		rt_held("unveil without x on /usr/bin: id did not run, "
		    "directly or through the loader");
	return rt_finish();
}
