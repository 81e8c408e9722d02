/* SPDX-License-Identifier: ISC */
/*
 * unveil_statfs.c: statfs() of a hidden path says whether it exists
 * (issue 46, unveil's unmediated calls).
 *
 * rpath allows statfs outright (policy.c, "path lookups leak names"),
 * and no UNVEILED row routes it; Landlock does not judge it.  OpenBSD's
 * unveil hides the path (ENOENT whether or not it exists).  The child,
 * under unveil("visible", "rwc") and pledge("stdio rpath"), is told 16
 * names in hidden/, of which the parent made a random half after the
 * lock; it answers which exist.
 */
#include <sys/statfs.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define N	16

static int
attack(void *arg)
{
	int tamed = *(int *)arg, i;
	struct statfs sf;
	char seen[N];

	if (tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		rt_pledge("stdio rpath", NULL);
	}
	rt_ready();
	rt_await_go();
	for (i = 0; i < N; i++)
		seen[i] = statfs(rt_path("hidden/n%d", i), &sf) == 0;
	rt_tell(seen, sizeof(seen));
	return 0;
}

static int
try(int tamed)
{
	struct rt_kid k;
	char made[N], seen[N];
	int i, fd, right = 0;

	for (i = 0; i < N; i++)
		unlink(rt_path("hidden/n%d", i));
	rt_spawn(&k, attack, &tamed);
	if (rt_heard(&k) == 0) {
		for (i = 0; i < N; i++)
			if ((made[i] = random() & 1) &&
			    (fd = open(rt_path("hidden/n%d", i), O_WRONLY |
			    O_CREAT, 0600)) != -1)
				close(fd);
		rt_go(&k);
		if (rt_listen(&k, seen, sizeof(seen)) == sizeof(seen))
			for (i = 0; i < N; i++)
				right += seen[i] == made[i];
	}
	rt_reap(&k);
	rt_check(k.status);
	return right == N;
}

int
main(int argc, char **argv)
{
	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	if (!try(0)) {
		rt_na("untamed, statfs did not tell the names apart");
		return rt_finish();
	}
	if (try(1))
		rt_escaped("unveil(\"visible\", \"rwc\"), pledge(\"stdio rpath\"): "
		    "statfs told which of %d names in hidden/ exist", N);
	else
		rt_held("pledge(\"stdio rpath\"): statfs told nothing of hidden/");
	return rt_finish();
}
