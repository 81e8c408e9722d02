/* SPDX-License-Identifier: ISC */
/*
 * rerun.c: running the command again.
 *
 * A second run must see what the first saw: the same standard input
 * from where the first began, nothing of ours on its output.  Its
 * output is captured, and compared with the first's when --verify asks.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rerun.h"

static off_t	stdin_start = -1;

int
rerun_stdin_repeatable(void)
{
	struct stat st;

	if (fstat(0, &st) == -1)
		return 1;
	if (S_ISREG(st.st_mode))
		return (stdin_start = lseek(0, 0, SEEK_CUR)) != -1;
	return S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
	    minor(st.st_rdev) == 3;
}

/*
 * A pipe is read once: the first run reads it through a pump that keeps
 * a copy, and the later runs read the copy (rerun_stdin_recorded).  The
 * pump writes the copy first, so the copy holds all the first run read;
 * what the pump read ahead of it, a later run may read too, as the first
 * would have.
 */
static pid_t	pump = -1;
static int	copy = -1;

static void
pump_stdin(int to)
{
	char buf[65536];
	ssize_t n;

	signal(SIGPIPE, SIG_IGN);
	while ((n = read(0, buf, sizeof(buf))) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (write(copy, buf, (size_t)n) != n ||
		    write(to, buf, (size_t)n) != n)
			break;
	}
	_exit(0);
}

int
rerun_stdin_record(void)
{
	struct stat st;
	int p[2];

	if (fstat(0, &st) == -1 || !S_ISFIFO(st.st_mode))
		return 0;
	copy = rerun_capture();
	if (pipe(p) == -1 || (pump = fork()) == -1)
		err(1, "standard input");
	if (pump == 0) {
		close(p[0]);
		pump_stdin(p[1]);
	}
	close(p[1]);
	if (dup2(p[0], 0) == -1)
		err(1, "standard input");
	close(p[0]);
	stdin_start = 0;
	return 1;
}

void
rerun_stdin_recorded(void)
{
	int status;

	if (pump == -1)
		return;
	/* the first run is over: what it did not read, no run reads */
	kill(pump, SIGKILL);
	while (waitpid(pump, &status, 0) == -1 && errno == EINTR)
		;
	pump = -1;
	if (dup2(copy, 0) == -1)
		err(1, "standard input");
	close(copy);
	rerun_stdin_rewind();
}

void
rerun_stdin_rewind(void)
{
	if (stdin_start >= 0 && lseek(0, stdin_start, SEEK_SET) == -1)
		err(1, "standard input");
}

/*
 * O_TMPFILE first: nothing to remove, whatever happens.  Not every file
 * system has it (an overlay before Linux 6.6, as in containers): then a
 * named file, removed at once.
 */
int
rerun_capture(void)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) != -1)
		return fd;
	snprintf(path, sizeof(path), "%s/tame-audit.XXXXXX", dir);
	if ((fd = mkostemp(path, O_CLOEXEC)) == -1)
		err(1, "%s", dir);
	unlink(path);
	return fd;
}

void
rerun_replay(int from, int to)
{
	char buf[8192];
	ssize_t n;

	if (lseek(from, 0, SEEK_SET) == -1)
		err(1, "lseek");
	while ((n = read(from, buf, sizeof(buf))) > 0)
		if (write(to, buf, (size_t)n) != n)
			break;
}

/* Are two files the same?  On the first difference, say where. */
static int
same_output(int x, int y, const char *what, char *diff, size_t len)
{
	char bx[8192], by[8192];
	ssize_t nx, ny;
	off_t at = 0;
	long line = 1;
	int i;

	if (lseek(x, 0, SEEK_SET) == -1 || lseek(y, 0, SEEK_SET) == -1)
		err(1, "lseek");
	for (;;) {
		nx = read(x, bx, sizeof(bx));
		ny = read(y, by, sizeof(by));
		if (nx == -1 || ny == -1)
			err(1, "read");
		for (i = 0; i < nx && i < ny && bx[i] == by[i]; i++)
			line += bx[i] == '\n';
		if (i < nx || i < ny) {
			snprintf(diff, len, "%s differs at byte %lld "
			    "(line %ld)", what, (long long)(at + i), line);
			return 0;
		}
		if (nx == 0)
			return 1;
		at += nx;
	}
}

/* The last line a file ends with, for a message. */
static void
last_line(int fd, char *buf, size_t len)
{
	off_t end = lseek(fd, 0, SEEK_END), from;
	ssize_t n;
	char *p;

	buf[0] = '\0';
	from = end > (off_t)len - 1 ? end - (off_t)len + 1 : 0;
	if (end <= 0 || (n = pread(fd, buf, len - 1, from)) <= 0)
		return;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	if ((p = strrchr(buf, '\n')) != NULL)
		memmove(buf, p + 1, strlen(p + 1) + 1);
}

static void
status_text(int status, char *buf, size_t len)
{
	const char *sig;

	if (WIFSIGNALED(status)) {
		sig = sigabbrev_np(WTERMSIG(status));
		snprintf(buf, len, "killed by SIG%s", sig != NULL ? sig : "?");
	} else
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
}

int
rerun_same(struct trace_opts *t, int status, int out, int errfd, char *diff,
    size_t len, int *got)
{
	struct trace_result r;
	char was[64], now[64], tail[200];
	int same;

	t->strace = NULL;
	t->out_fd = rerun_capture();
	t->err_fd = rerun_capture();
	rerun_stdin_rewind();
	if (trace_run(t, &r) == -1)
		err(1, "cannot run %s", t->tame_exec);
	*got = r.status;
	if (r.view_error[0] != '\0')
		errx(1, "run %d could not enter its view: %s", t->run,
		    r.view_error);
	if (r.timed_out)
		snprintf(diff, len, "did not finish within %d s", t->timeout);
	else if (r.status != status) {
		status_text(status, was, sizeof(was));
		status_text(r.status, now, sizeof(now));
		last_line(t->err_fd, tail, sizeof(tail));
		snprintf(diff, len, "%s, then %s under -f %s%s%s", was, now,
		    t->flags, tail[0] != '\0' ? ": " : "", tail);
	}
	same = !r.timed_out && r.status == status && rerun_alike(status, out,
	    errfd, r.status, t->out_fd, t->err_fd, diff, len);
	close(t->out_fd);
	close(t->err_fd);
	return same;
}

int
rerun_alike(int status_a, int out_a, int err_a, int status_b, int out_b,
    int err_b, char *diff, size_t len)
{
	char was[64], now[64];

	if (status_a != status_b) {
		status_text(status_a, was, sizeof(was));
		status_text(status_b, now, sizeof(now));
		snprintf(diff, len, "%s, then %s", was, now);
		return 0;
	}
	return same_output(out_a, out_b, "standard output", diff, len) &&
	    same_output(err_a, err_b, "standard error", diff, len);
}
