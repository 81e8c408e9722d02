/* SPDX-License-Identifier: ISC */
/*
 * unveil_ldso_race.c: the loader run as a program past the supervisor's
 * look at the exec (issue 46, unveil_ldso's way, with a race).
 *
 * The supervisor refuses an exec of a shared object as a program under
 * unveil: it reads the path and looks at the file.  The kernel reads the
 * path again when the exec goes on, so a second thread flips the path
 * between an unveiled program ("rx") and the loader.  When the kernel
 * reads the loader, the image must still not run /usr/bin/id (unveiled
 * "r"): the supervisor ends it at its first call, the loader's stat of
 * the program, before any code of it runs.  The parent reads id's
 * output ("uid=").
 */
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "redteam.h"

#define TRIES	200

static char		 path[PATH_MAX];
static const char	*loader, *loader_dir, *benign = "/usr/bin/true";

static void *
flip(void *arg)
{
	size_t a = strlen(loader) + 1, b = strlen(benign) + 1;

	(void)arg;
	/* each path whole for a while: the kernel reads one of the two */
	for (;;) {
		memcpy(path, loader, a);
		for (volatile int i = 0; i < 2000; i++)
			;
		memcpy(path, benign, b);
		for (volatile int i = 0; i < 2000; i++)
			;
	}
	return NULL;
}

static int
attack(void *arg)
{
	char *via[] = { (char *)loader, "/usr/bin/id", NULL };
	pthread_t t;

	(void)arg;
	rt_stdout_up();
	rt_unveil(loader_dir, "rx");	/* the loader, libc */
	rt_unveil("/usr/bin", "r");
	rt_unveil(benign, "rx");
	rt_unveil("/etc", "r");
	rt_unveil(NULL, NULL);
	snprintf(path, sizeof(path), "%s", benign);
	if (pthread_create(&t, NULL, flip, NULL) != 0)
		return 126;
	execv(path, via);
	return 127;
}

int
main(int argc, char **argv)
{
	struct rt_kid k;
	char real[PATH_MAX], out[256];
	int i, ran = 0, refused = 0, after = 0;

	rt_init(argc, argv);
	if ((loader = rt_loader()) == NULL || realpath(loader, real) == NULL ||
	    access("/usr/bin/id", X_OK) == -1 || access(benign, X_OK) == -1) {
		rt_na("no loader (PT_INTERP), /usr/bin/id or %s here", benign);
		return rt_finish();
	}
	if (!rt_need_landlock())
		return rt_finish();
	loader_dir = dirname(real);
	for (i = 0; i < TRIES && !ran; i++) {
		memset(out, 0, sizeof(out));
		rt_spawn(&k, attack, NULL);
		rt_listen(&k, out, sizeof(out) - 1);
		rt_reap(&k);
		ran = strncmp(out, "uid=", 4) == 0;
		refused += !rt_exited(k.status, 0);
		/* SIGKILL: ended at its first call, past the exec's look */
		after += WIFSIGNALED(k.status) && WTERMSIG(k.status) == SIGKILL;
	}
	if (ran)
		rt_escaped("a path flipped to %s after the supervisor's look: "
		    "it ran /usr/bin/id, unveiled without x (try %d)", loader,
		    i);
	else
		rt_held("%d execs of a flipping path: id never ran (%d ended "
		    "by the supervisor, %d of them past the exec)", TRIES,
		    refused, after);
	return rt_finish();
}
