/* SPDX-License-Identifier: ISC */
/*
 * owner: look at the owner of root's /etc/passwd, as ls -l does, with a
 * SIGSYS handler set first (under tame() that call is denied softly, a
 * blocker only a run decides).  With an argument it prints the owner's
 * uid, which a user namespace shows as the overflow id; without one it
 * prints "hello" whoever the owner seemed to be.
 *
 *	owner [print]
 */
#include <sys/stat.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>

static void
on_sigsys(int sig)
{
	(void)sig;
}

int
main(int argc, char *argv[])
{
	struct sigaction sa;
	struct stat st;

	(void)argv;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigsys;
	(void)sigaction(SIGSYS, &sa, NULL);	/* EINVAL when tamed */
	if (stat("/etc/passwd", &st) == -1)
		return 1;
	if (argc > 1)
		printf("owner %u\n", (unsigned)st.st_uid);
	else
		printf("hello\n");
	return 0;
}
