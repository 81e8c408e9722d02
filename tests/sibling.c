/* SPDX-License-Identifier: ISC */
/*
 * sibling.c: the untamed process the tamed ones must not reach
 * (sibling.h).
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sibling.h"

static void
sibling_main(int ready, const char *file)
{
	int fd = -1;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGTERM, SIG_DFL);
	setpgid(0, 0);
	if (file != NULL)
		fd = open(file, O_RDWR | O_CREAT, 0600);
	if (write(ready, &fd, sizeof(fd)) != sizeof(fd))
		_exit(1);
	for (;;)
		pause();
}

pid_t
sibling_start(const char *file, int *fdp)
{
	sigset_t set, old;
	int p[2], fd = -1;
	pid_t pid;

	/* blocked before the fork, so no signal can arrive unblocked */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGURG);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (pipe(p) == -1)
		ck_abort_msg("pipe: %s", strerror(errno));
	if ((pid = fork()) == -1)
		ck_abort_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		close(p[0]);
		sibling_main(p[1], file);
	}
	setpgid(pid, pid);	/* either side may run first */
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	if (read(p[0], &fd, sizeof(fd)) != sizeof(fd))
		ck_abort_msg("sibling did not start");
	close(p[0]);
	if (file != NULL && fd == -1)
		ck_abort_msg("sibling could not open %s", file);
	if (fdp != NULL)
		*fdp = fd;
	return pid;
}

uint64_t
sibling_pending(pid_t pid)
{
	char path[64], line[256];
	unsigned long long v;
	uint64_t set = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		ck_abort_msg("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "SigPnd: %llx", &v) == 1 ||
		    sscanf(line, "ShdPnd: %llx", &v) == 1)
			set |= v;
	fclose(f);
	return set;
}

int
sibling_got(pid_t pid, int sig)
{
	return (sibling_pending(pid) >> (sig - 1)) & 1;
}

int
sibling_end(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	if (waitpid(pid, &st, 0) == -1)
		ck_abort_msg("waitpid: %s", strerror(errno));
	return WIFSIGNALED(st) ? WTERMSIG(st) : -1;
}
