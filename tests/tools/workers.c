/* SPDX-License-Identifier: ISC */
/*
 * workers: a program that forks workers of its own image, for the tree
 * corpus (tests/trees/corpus.py).  "workers N FILE": N children each
 * count FILE's lines and hand the count back through a pipe; the parent
 * prints them in order.  No exec: one program, several processes.
 */
#include <sys/wait.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int
count_lines(const char *path)
{
	FILE *f;
	int c, n = 0;

	if ((f = fopen(path, "r")) == NULL)
		err(1, "%s", path);
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

int
main(int argc, char *argv[])
{
	int p[2], i, n, got, status, fail = 0;
	pid_t pid;

	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > 16)
		errx(2, "usage: workers N FILE (N from 1 to 16)");
	for (i = 0; i < n; i++) {
		if (pipe(p) == -1 || (pid = fork()) == -1)
			err(1, "worker %d", i);
		if (pid == 0) {
			close(p[0]);
			got = count_lines(argv[2]);
			_exit(write(p[1], &got, sizeof(got)) == sizeof(got) ?
			    0 : 1);
		}
		close(p[1]);
		if (read(p[0], &got, sizeof(got)) != sizeof(got))
			got = -1;
		close(p[0]);
		if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0 || got < 0) {
			warnx("worker %d failed", i);
			fail = 1;
			continue;
		}
		printf("worker %d: %d lines\n", i, got);
	}
	return fail;
}
