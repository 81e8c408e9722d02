/* SPDX-License-Identifier: ISC */
/*
 * launch: start a program by one route of the C library, with an empty
 * environment, as a launcher that clears it would (tests/cli/
 * tame-exec-profile.sh: the shim must pass its variables on anyway).
 *
 *	launch ROUTE program [arg ...]
 *
 * Routes: execve, execv, execl, execle, execvp, execvpe, execlp, fexecve,
 * execveat, vfork (vfork, then execve in the child), posix_spawn,
 * posix_spawnp, system, popen; and syscall, execve made without the C
 * library, which no preloaded library sees.  The exec routes replace
 * launch; the others wait and exit as a shell would: the status, or
 * 128 + signal.
 * The routes without an environment of their own run after clearenv().
 * An exec that fails: its error on stderr, 126 (127 when not found).
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *empty[] = { NULL };

static int
status(int st)
{
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static void __attribute__((noreturn))
failed(const char *route, const char *what)
{
	warn("%s %s", route, what);
	exit(errno == ENOENT ? 127 : 126);
}

/* argv as one command line for sh -c (the tests' words hold no blanks) */
static char *
line(char *argv[])
{
	static char buf[4096];
	size_t n = 0;
	int i;

	for (i = 0; argv[i] != NULL; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    i ? " " : "", argv[i]);
	if (n >= sizeof(buf))
		errx(2, "command too long");
	return buf;
}

int
main(int argc, char *argv[])
{
	const char *r;
	char **av, c;
	FILE *f;
	pid_t pid;
	int st, e, fd;

	if (argc < 3) {
		fprintf(stderr, "usage: launch route program [arg ...]\n");
		return 2;
	}
	r = argv[1];
	av = argv + 2;
	if (strcmp(r, "execve") == 0)
		execve(av[0], av, empty);
	else if (strcmp(r, "syscall") == 0)
		syscall(SYS_execve, av[0], av, empty);
	else if (strcmp(r, "execle") == 0)
		execle(av[0], av[0], av[1], (char *)NULL, empty);
	else if (strcmp(r, "execvpe") == 0)
		execvpe(av[0], av, empty);
	else if (strcmp(r, "fexecve") == 0) {
		if ((fd = open(av[0], O_RDONLY | O_CLOEXEC)) == -1)
			failed(r, av[0]);
		fexecve(fd, av, empty);
	} else if (strcmp(r, "execveat") == 0)
		execveat(AT_FDCWD, av[0], av, empty, 0);
	else if (strcmp(r, "vfork") == 0) {
		if ((pid = vfork()) == 0) {
			execve(av[0], av, empty);
			_exit(errno == ENOENT ? 127 : 126);
		}
		if (pid == -1 || waitpid(pid, &st, 0) == -1)
			err(1, "vfork");
		return status(st);
	} else if (strcmp(r, "posix_spawn") == 0 ||
	    strcmp(r, "posix_spawnp") == 0) {
		e = (r[11] == 'p' ? posix_spawnp : posix_spawn)(&pid, av[0],
		    NULL, NULL, av, empty);
		if (e != 0) {
			errno = e;
			failed(r, av[0]);
		}
		if (waitpid(pid, &st, 0) == -1)
			err(1, "waitpid");
		return status(st);
	} else {
		clearenv();
		if (strcmp(r, "execv") == 0)
			execv(av[0], av);
		else if (strcmp(r, "execl") == 0)
			execl(av[0], av[0], av[1], (char *)NULL);
		else if (strcmp(r, "execvp") == 0)
			execvp(av[0], av);
		else if (strcmp(r, "execlp") == 0)
			execlp(av[0], av[0], av[1], (char *)NULL);
		else if (strcmp(r, "system") == 0) {
			if ((st = system(line(av))) == -1)
				err(1, "system");
			return status(st);
		} else if (strcmp(r, "popen") == 0) {
			if ((f = popen(line(av), "r")) == NULL)
				err(1, "popen");
			while (fread(&c, 1, 1, f) == 1)
				putchar(c);
			if ((st = pclose(f)) == -1)
				err(1, "pclose");
			return status(st);
		} else
			errx(2, "unknown route %s", r);
	}
	failed(r, av[0]);
}
