/* SPDX-License-Identifier: ISC */
/*
 * tame_exec_profile.c: a program a --profile lists, run untamed (issue
 * 46, the environment).
 *
 * tame-exec --profile tames each listed program as it starts, through
 * the preloaded shim, which a pledged shell's children inherit.  A
 * listed program must be tamed or not run, never run untamed; here
 * touch is listed with stdio alone (it must not create a file) and the
 * shell with pledge:stdio,rpath,proc,exec.  The ways tried:
 *  - the shell runs it with LD_PRELOAD= cleared;
 *  - the shell runs it as "ld.so /usr/bin/touch" (the loader is not
 *    listed; touch is mapped by it, not exec'd);
 *  - the command itself is "ld.so /usr/bin/touch".
 * The parent looks for the files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

int
main(int argc, char **argv)
{
	char touch[PATH_MAX], sh[PATH_MAX], script[3 * PATH_MAX], out[64];
	const char *X, *loader, *prof, *made;
	char *argv_sh[] = { NULL, "--profile", NULL, "--", "/bin/sh", "-c",
	    script, NULL };
	char *argv_ld[] = { NULL, "--profile", NULL, "--", NULL, touch, NULL,
	    NULL };
	FILE *f;

	rt_init(argc, argv);
	X = rt_build("tame-exec");
	if (access(X, X_OK) == -1 || (loader = rt_loader()) == NULL ||
	    realpath("/usr/bin/touch", touch) == NULL ||
	    realpath("/bin/sh", sh) == NULL) {
		rt_na("tame-exec, the loader, touch or sh is missing");
		return rt_finish();
	}
	prof = rt_path("profile");
	if ((f = fopen(prof, "w")) == NULL)
		rt_fatal("%s", prof);
	fprintf(f, "# touch may not create files\n%s stdio\n"
	    "%s pledge:stdio,rpath,proc,exec\n", touch, sh);
	fclose(f);
	argv_sh[0] = argv_ld[0] = (char *)X;
	argv_sh[2] = argv_ld[2] = (char *)prof;

	/* the controls: untamed touch creates; the listed shell runs */
	made = rt_path("made-untamed");
	snprintf(script, sizeof(script), "%s %s", touch, made);
	rt_cmd(argv_sh + 4, NULL, NULL, 0);
	snprintf(script, sizeof(script), "echo ran");
	rt_cmd(argv_sh, NULL, out, sizeof(out));
	if (!rt_exists(made) || strcmp(out, "ran\n") != 0) {
		rt_na("untamed touch created nothing, or the listed shell did "
		    "not run (\"%s\")", out);
		return rt_finish();
	}
	/* listed, touch is tamed and creates nothing */
	made = rt_path("made-plain");
	snprintf(script, sizeof(script), "%s %s", touch, made);
	rt_cmd(argv_sh, NULL, NULL, 0);
	if (rt_exists(made)) {
		rt_escaped("--profile: a listed touch (stdio) run by the "
		    "listed shell created a file");
		return rt_finish();
	}

	made = rt_path("made-cleared");
	snprintf(script, sizeof(script), "LD_PRELOAD= %s %s", touch, made);
	rt_cmd(argv_sh, NULL, NULL, 0);
	if (rt_exists(made))
		rt_escaped("--profile: the pledged shell ran the listed touch "
		    "(stdio) with LD_PRELOAD= cleared: it created a file");
	else
		rt_held("--profile: LD_PRELOAD= cleared, touch still tamed or "
		    "not run");

	made = rt_path("made-loader-sh");
	snprintf(script, sizeof(script), "%s %s %s", loader, touch, made);
	rt_cmd(argv_sh, NULL, NULL, 0);
	if (rt_exists(made))
		rt_escaped("--profile: the pledged shell ran \"ld.so %s\" "
		    "(listed with stdio): it created a file", touch);
	else
		rt_held("--profile: ld.so touch from the shell, tamed or not "
		    "run");

	made = rt_path("made-loader");
	argv_ld[4] = (char *)loader;
	argv_ld[6] = (char *)made;
	rt_cmd(argv_ld, NULL, NULL, 0);
	if (rt_exists(made))
		rt_escaped("--profile -- ld.so %s: the listed touch ran "
		    "untamed and created a file", touch);
	else
		rt_held("--profile -- ld.so touch: tamed or not run");
	return rt_finish();
}
