/* SPDX-License-Identifier: ISC */
/*
 * setid_bits.c: set-user-ID, set-group-ID and sticky bits made under
 * pledge (issue 46, point 6).
 *
 * OpenBSD strips S_ISUID, S_ISGID and S_ISTXT from chmod's and the
 * creation calls' modes under pledge: a pledged process cannot leave a
 * set-ID program behind (as root, one anyone may run as root).  Here,
 * under fattr, chmod to 06755 and 01755; under cpath, open(O_CREAT)
 * and mkdir with those bits (umask 0).  The parent reads the modes.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	int fd;

	umask(0);
	if (a->tamed)
		rt_pledge("stdio rpath wpath cpath fattr", NULL);
	chmod(rt_path("chmod-setid"), 06755);
	chmod(rt_path("chmod-sticky"), 01755);
	if ((fd = open(rt_path("created"), O_WRONLY | O_CREAT, 06755)) != -1)
		close(fd);
	mkdir(rt_path("made-dir"), 07755);
	return 0;
}

/* The special bits each file ended with, as words. */
static const char *
try(struct attempt *a)
{
	static const char *const name[] = { "chmod-setid", "chmod-sticky",
	    "created", "made-dir" };
	static const char *const how[] = { "chmod 06755", "chmod 01755",
	    "open(O_CREAT, 06755)", "mkdir(07755)" };
	static char what[256];
	struct rt_kid k;
	struct stat st;
	size_t i;
	int fd;

	for (i = 0; i < 4; i++) {
		unlink(rt_path("%s", name[i]));
		rmdir(rt_path("%s", name[i]));
	}
	for (i = 0; i < 2; i++) {
		if ((fd = open(rt_path("%s", name[i]), O_WRONLY | O_CREAT,
		    0755)) == -1)
			rt_fatal("%s", name[i]);
		close(fd);
	}
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	what[0] = '\0';
	for (i = 0; i < 4; i++)
		if (stat(rt_path("%s", name[i]), &st) == 0 &&
		    (st.st_mode & 07000) != 0)
			snprintf(what + strlen(what), sizeof(what) -
			    strlen(what), "%s%s left %04o", what[0] ? ", " :
			    "", how[i], (unsigned)(st.st_mode & 07777));
	return what;
}

int
main(int argc, char **argv)
{
	struct attempt a = { 0 };
	const char *what;

	rt_init(argc, argv);
	if (*try(&a) == '\0') {
		rt_na("untamed, no special mode bit could be set here");
		return rt_finish();
	}
	a.tamed = 1;
	if (*(what = try(&a)) != '\0')
		rt_escaped("pledge(\"stdio rpath wpath cpath fattr\"): %s",
		    what);
	else
		rt_held("pledge(\"stdio rpath wpath cpath fattr\"): no set-ID "
		    "or sticky bit made");
	return rt_finish();
}
