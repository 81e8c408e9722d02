/* SPDX-License-Identifier: ISC */
/*
 * tame_exec_exec_unveil.c: tame-exec -p with exec and -v must run the
 * command (issue 46, all or nothing).
 *
 * The shim unveils first, then pledges; a pledge holding exec reads
 * /proc/self/maps, which the unveiled layer hides, and fails: the
 * command never runs.  Not a way out, but the other side of
 * pledge_half_applied: what fails must fail before it changes anything,
 * and what OpenBSD allows must work.  "broken" if true does not run,
 * with / unveiled (where /proc stays readable) or /usr alone.
 */
#include <stdio.h>
#include <unistd.h>

#include "redteam.h"

int
main(int argc, char **argv)
{
	static const char *const unveiled[] = { "r:/", "r:/usr" };
	char *av[] = { NULL, "-p", "stdio rpath exec", "-v", NULL, "--",
	    "/bin/true", NULL };
	size_t i;
	int st;

	rt_init(argc, argv);
	av[0] = (char *)rt_build("tame-exec");
	if (access(av[0], X_OK) == -1) {
		rt_na("%s is not built", av[0]);
		return rt_finish();
	}
	if (!rt_need_landlock())
		return rt_finish();
	for (i = 0; i < 2; i++) {
		av[4] = (char *)unveiled[i];
		if (rt_exited(st = rt_cmd(av, NULL, NULL, 0), 0))
			rt_held("tame-exec -p \"stdio rpath exec\" -v %s -- "
			    "true ran", unveiled[i]);
		else
			rt_broken("tame-exec -p \"stdio rpath exec\" -v %s -- "
			    "true did not run (%s)", unveiled[i], rt_how(st));
	}
	return rt_finish();
}
