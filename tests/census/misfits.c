/* SPDX-License-Identifier: ISC */
/*
 * The census test's badly behaved programs, one per name (copies of this
 * one binary; what it does depends on the name it was run under):
 *
 *	never		never exits
 *	rmcwd		removes its own working directory
 *	tty		opens /dev/tty (the census gives it no terminal)
 *	linger		forks a child that leaves the session and outlives it
 *	killself	dies of SIGTERM
 *	pid		prints its pid: never the same twice
 *	seccomp		prints its seccomp mode (2 when tamed, 0 under audit)
 *	execs		executes another program (no flag allows it)
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 :
	    argv[0];
	char cwd[PATH_MAX];
	int fd;

	(void)argc;
	if (strcmp(name, "never") == 0) {
		for (;;)
			pause();
	} else if (strcmp(name, "rmcwd") == 0) {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			return 1;
		puts(rmdir(cwd) == 0 ? "removed" : "not removed");
	} else if (strcmp(name, "tty") == 0) {
		fd = open("/dev/tty", O_RDWR);
		puts(fd == -1 ? "no terminal" : "a terminal");
	} else if (strcmp(name, "linger") == 0) {
		if (fork() == 0) {
			setsid();
			sleep(600);
			_exit(0);
		}
		puts("parent done");
	} else if (strcmp(name, "killself") == 0) {
		puts("dying");
		fflush(stdout);
		kill(getpid(), SIGTERM);
	} else if (strcmp(name, "pid") == 0) {
		printf("%d\n", (int)getpid());
	} else if (strcmp(name, "seccomp") == 0) {
		char line[256];
		FILE *f = fopen("/proc/self/status", "r");

		while (f != NULL && fgets(line, sizeof(line), f) != NULL)
			if (strncmp(line, "Seccomp:", 8) == 0)
				fputs(line, stdout);
	} else if (strcmp(name, "execs") == 0) {
		execl("/bin/true", "true", (char *)NULL);
		return 127;
	}
	return 0;
}
