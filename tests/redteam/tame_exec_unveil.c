/* SPDX-License-Identifier: ISC */
/*
 * tame_exec_unveil.c: tame-exec -v with unmodified programs: chmod,
 * chown and touch on a file outside the unveiled directory (issue 46,
 * unveil's unmediated calls).
 *
 * tame-exec -p PROMISES -v rwc:DIR/visible -- CMD unveils only visible/
 * for CMD; Landlock does not mediate chmod, chown or utimensat, so each
 * changes hidden/file.  As another user than root, chown to itself
 * clears the file's set-user-ID bit, which is the effect there is.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

static const char *file;

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

static void
reset(void)
{
	struct timespec now[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };

	if (chown(file, getuid(), getgid()) == -1 ||
	    chmod(file, 04755) == -1 ||
	    utimensat(AT_FDCWD, file, now, 0) == -1)
		rt_fatal("%s", file);
}

/* Run cmd (under tame-exec when tamed); did it change the file? */
static int
changed(int tamed, const char *what, char *const cmd[])
{
	char *argv[16], visible[PATH_MAX + 8], uid[32];
	struct stat st;
	int i, n = 0;

	reset();
	if (tamed) {
		snprintf(visible, sizeof(visible), "rwc:%s",
		    rt_path("visible"));
		argv[n++] = (char *)rt_build("tame-exec");
		argv[n++] = "-p";
		argv[n++] = "stdio rpath wpath cpath fattr chown";
		argv[n++] = "-v";
		argv[n++] = visible;
		argv[n++] = "--";
	}
	for (i = 0; cmd[i] != NULL; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	rt_cmd(argv, NULL, NULL, 0);
	if (stat(file, &st) == -1)
		rt_fatal("%s", file);
	snprintf(uid, sizeof(uid), "%d", (int)getuid());
	if (strcmp(what, "chmod") == 0)
		return (st.st_mode & 07777) != 04755;
	if (strcmp(what, "chown") == 0)
		return rt_is_root() ? st.st_uid == 4242 :
		    !(st.st_mode & S_ISUID);
	return st.st_mtime == 12345;
}

int
main(int argc, char **argv)
{
	char owner[32];
	char *chmod_cmd[] = { (char *)bin("chmod"), "4777", NULL, NULL };
	char *chown_cmd[] = { (char *)bin("chown"), owner, NULL, NULL };
	char *touch_cmd[] = { (char *)bin("touch"), "-d", "@12345", NULL,
	    NULL };
	struct { const char *what; char **cmd; } c[] = {
		{ "chmod", chmod_cmd }, { "chown", chown_cmd },
		{ "touch", touch_cmd },
	};
	size_t i;
	int fd;

	rt_init(argc, argv);
	rt_two_dirs();
	file = rt_path("hidden/file");
	if ((fd = open(file, O_WRONLY | O_CREAT, 0755)) == -1)
		rt_fatal("%s", file);
	close(fd);
	if (access(rt_build("tame-exec"), X_OK) == -1) {
		rt_na("%s is not built", rt_build("tame-exec"));
		return rt_finish();
	}
	if (!rt_need_landlock())
		return rt_finish();
	/* "+": numeric, no name service (getpw is not among the promises) */
	snprintf(owner, sizeof(owner), "+%d:+%d", rt_is_root() ? 4242 :
	    (int)getuid(), rt_is_root() ? 4242 : (int)getgid());
	chmod_cmd[2] = chown_cmd[2] = touch_cmd[3] = (char *)file;
	for (i = 0; i < 3; i++) {
		if (!changed(0, c[i].what, c[i].cmd))
			rt_na("untamed, %s did not change the file", c[i].what);
		else if (changed(1, c[i].what, c[i].cmd))
			rt_escaped("tame-exec -p \"... fattr chown\" -v "
			    "rwc:DIR/visible -- %s: changed DIR/hidden/file",
			    c[i].what);
		else
			rt_held("tame-exec -v: %s left hidden/file alone",
			    c[i].what);
	}
	return rt_finish();
}
