/* SPDX-License-Identifier: ISC */
/*
 * tame_exec_env.c: the caller's environment widens tame-exec (issue 46,
 * the environment).
 *
 * tame-exec hands its options to the preloaded shim in TAME_EXEC_*
 * variables.  One the caller set beforehand must not count:
 *  - TAME_EXEC_PLEDGE beside -f stdio replaced -f: the command wrote a
 *    file and read the secret;
 *  - TAME_EXEC_TREE=1 (tame-audit's tree mode) made -v drop its paths:
 *    a file outside the unveiled directory was read.
 * The commands are touch and cat; the parent checks the file and the
 * bytes cat printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

extern char **environ;

static const char *
bin(const char *name)
{
	static char b[4][64];
	static int next;
	char *p = b[next++ % 4];

	snprintf(p, 64, "/usr/bin/%s", name);
	if (access(p, X_OK) == -1)
		snprintf(p, 64, "/bin/%s", name);
	return p;
}

/* environ with one more variable (NULL: as it is) */
static char **
with(const char *var)
{
	static char *env[512];
	int i, n = 0;

	for (i = 0; environ[i] != NULL && n < 510; i++)
		if (strncmp(environ[i], "TAME_", 5) != 0)
			env[n++] = environ[i];
	if (var != NULL)
		env[n++] = (char *)var;
	env[n] = NULL;
	return env;
}

int
main(int argc, char **argv)
{
	struct rt_secret s;
	const char *X, *made;
	char out[8192], visible[PATH_MAX + 8];
	char *touch[] = { NULL, "-f", "stdio", "--", (char *)bin("touch"),
	    NULL, NULL };
	char *cat[] = { NULL, "-f", "stdio", "--", (char *)bin("cat"), NULL,
	    NULL };
	char *tree[] = { NULL, "-p", "stdio rpath", "-v", visible, "--",
	    (char *)bin("cat"), NULL, NULL };
	char *tree_f[] = { NULL, "-f", "stdio,rpath", "-v", visible, "--",
	    (char *)bin("cat"), NULL, NULL };
	char **trees[] = { tree, tree_f };
	int i;
	const char *pledge_var = "TAME_EXEC_PLEDGE=stdio rpath wpath cpath";

	rt_init(argc, argv);
	X = rt_build("tame-exec");
	if (access(X, X_OK) == -1) {
		rt_na("%s is not built", X);
		return rt_finish();
	}
	rt_two_dirs();
	rt_secret(&s, rt_path("hidden/secret"));
	if (rt_is_root())
		rt_secret(&s, NULL);	/* /etc/shadow, for -f */
	made = rt_path("made");
	touch[0] = cat[0] = tree[0] = (char *)X;
	touch[5] = (char *)made;
	cat[5] = s.path;
	/* the controls: without the variable each is refused */
	rt_cmd(touch, with(NULL), NULL, 0);
	rt_cmd(cat, with(NULL), out, sizeof(out));
	if (rt_exists(made) || rt_secret_in(&s, out, strlen(out))) {
		rt_escaped("tame-exec -f stdio let touch or cat through");
		return rt_finish();
	}
	rt_cmd(touch, with(pledge_var), NULL, 0);
	rt_cmd(cat, with(pledge_var), out, sizeof(out));
	if (rt_exists(made) || rt_secret_in(&s, out, strlen(out)))
		rt_escaped("TAME_EXEC_PLEDGE=\"stdio rpath wpath cpath\" in the "
		    "caller's environment replaced tame-exec -f stdio:%s%s%s",
		    rt_exists(made) ? " touch created a file" : "",
		    rt_exists(made) && rt_secret_in(&s, out, strlen(out)) ?
		    "," : "", rt_secret_in(&s, out, strlen(out)) ? " cat "
		    "read the secret" : "");
	else
		rt_held("TAME_EXEC_PLEDGE in the environment did not widen "
		    "-f stdio");

	if (!rt_need_landlock())
		return rt_finish();
	rt_secret(&s, rt_path("hidden/secret"));
	snprintf(visible, sizeof(visible), "r:%s", rt_path("visible"));
	for (i = 0; i < 2; i++) {
		trees[i][0] = (char *)X;
		trees[i][7] = s.path;
		rt_cmd(trees[i], with(NULL), out, sizeof(out));
		if (rt_secret_in(&s, out, strlen(out))) {
			rt_escaped("tame-exec %s \"%s\" -v r:DIR/visible let "
			    "cat read DIR/hidden/secret", trees[i][1],
			    trees[i][2]);
			continue;
		}
		rt_cmd(trees[i], with("TAME_EXEC_TREE=1"), out, sizeof(out));
		if (rt_secret_in(&s, out, strlen(out)))
			rt_escaped("TAME_EXEC_TREE=1 in the caller's "
			    "environment made tame-exec %s \"%s\" -v "
			    "r:DIR/visible drop its paths: cat read "
			    "DIR/hidden/secret", trees[i][1], trees[i][2]);
		else
			rt_held("TAME_EXEC_TREE=1 in the environment: "
			    "tame-exec %s \"%s\" -v held", trees[i][1],
			    trees[i][2]);
	}
	return rt_finish();
}
