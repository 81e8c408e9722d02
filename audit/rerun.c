/* SPDX-License-Identifier: ISC */
/*
 * rerun.c: running the command again.
 *
 * A second run must see what the first saw: the same standard input
 * from where the first began, nothing of ours on its output.  Its
 * output is captured, and compared with another run's.
 */
#include <sys/mman.h>
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

/* What standard input is, and what the runs read of it. */
static enum stdin_kind	kind = -1;
static off_t	stdin_start = -1;	/* a file: where the first run began */
static int	copy = -1;	/* a pipe: what the first run read */
static pid_t	helper = -1;	/* the pump or feeder of the run */
static int	recorded;	/* the first run is over */

enum stdin_kind
rerun_stdin_kind(void)
{
	struct stat st;

	if (kind != (enum stdin_kind)-1)
		return kind;
	if (fstat(0, &st) == -1)
		kind = STDIN_NULL;	/* closed: so for every run */
	else if (S_ISREG(st.st_mode))
		kind = (stdin_start = lseek(0, 0, SEEK_CUR)) != -1 ?
		    STDIN_FILE : STDIN_OTHER;
	else if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
	    minor(st.st_rdev) == 3)
		kind = STDIN_NULL;
	else if (S_ISFIFO(st.st_mode))
		kind = STDIN_PIPE;
	else
		kind = isatty(0) ? STDIN_TERMINAL : STDIN_OTHER;
	return kind;
}

/*
 * A pipe is read once: the first run reads it through a pump that keeps
 * a copy.  The pump writes the copy first, so the copy holds all the
 * first run read; what the pump read ahead of it, a later run may read
 * too, as the first would have.
 */
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

/* Every later run reads a pipe of its own, fed from the copy. */
static void
feed_stdin(int to)
{
	char buf[65536];
	ssize_t n;
	off_t at = 0;

	signal(SIGPIPE, SIG_IGN);
	while ((n = pread(copy, buf, sizeof(buf), at)) > 0) {
		if (write(to, buf, (size_t)n) != n)
			break;
		at += n;
	}
	_exit(0);
}

static int	feed_to = -1;	/* the next run's pipe, until started */

int
rerun_stdin_next(void)
{
	int p[2];

	if (rerun_stdin_kind() == STDIN_FILE) {
		if (lseek(0, stdin_start, SEEK_SET) == -1)
			err(1, "standard input");
		return -1;
	}
	if (kind != STDIN_PIPE)
		return -1;
	if (copy == -1)
		copy = rerun_capture();
	if (pipe2(p, O_CLOEXEC) == -1)
		err(1, "standard input");
	feed_to = p[1];
	return p[0];
}

void
rerun_stdin_start(void)
{
	if (feed_to == -1)
		return;
	if ((helper = fork()) == -1)
		err(1, "standard input");
	if (helper == 0) {
		if (recorded)
			feed_stdin(feed_to);
		pump_stdin(feed_to);
	}
	close(feed_to);
	feed_to = -1;
}

void
rerun_stdin_done(int fd)
{
	int status;

	if (fd >= 0)
		close(fd);
	if (feed_to != -1) {	/* the run never began: nothing was read */
		close(feed_to);
		feed_to = -1;
	}
	if (helper == -1)
		return;
	/* the run is over: what it did not read, no run reads */
	kill(helper, SIGKILL);
	while (waitpid(helper, &status, 0) == -1 && errno == EINTR)
		;
	helper = -1;
	recorded = 1;
}

/* Nothing on disk: an output or a log is gone with us, whatever ends us. */
int
rerun_capture(void)
{
	int fd;

	if ((fd = memfd_create("tame-audit", MFD_CLOEXEC)) == -1)
		err(1, "memfd_create");
	return fd;
}

int
rerun_same_range(int x, off_t from, off_t to, int y, const char *what,
    int prefix, char *diff, size_t len)
{
	char bx[8192], by[8192];
	ssize_t nx, ny;
	off_t at = 0;
	long line = 1;
	size_t want;
	int i;

	for (;;) {
		want = sizeof(bx);
		if (to >= 0 && (off_t)want > to - from - at)
			want = (size_t)(to - from - at);
		nx = want > 0 ? pread(x, bx, want, from + at) : 0;
		ny = pread(y, by, nx > 0 ? (size_t)nx : sizeof(by), at);
		if (nx == -1 || ny == -1)
			err(1, "read");
		for (i = 0; i < nx && i < ny && bx[i] == by[i]; i++)
			line += bx[i] == '\n';
		if (i < nx || (i < ny && !prefix)) {
			snprintf(diff, len, "%s differs at byte %lld "
			    "(line %ld)", what, (long long)(at + i), line);
			return 0;
		}
		if (nx == 0)
			return 1;
		at += nx;
	}
}

/* Are two files the same?  On the first difference, say where. */
static int
same_output(int x, int y, const char *what, char *diff, size_t len)
{
	return rerun_same_range(x, 0, -1, y, what, 0, diff, len);
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

void
rerun_status_text(int status, char *buf, size_t len)
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
    size_t len, int *got, int *layers)
{
	struct trace_result r;
	char was[64], now[64], tail[200];
	int same;

	t->strace = NULL;
	t->in_fd = rerun_stdin_next();
	t->started = rerun_stdin_start;
	if (trace_run(t, &r) == -1)
		err(1, "cannot run %s", t->tame_exec);
	rerun_stdin_done(t->in_fd);
	*layers = r.layers;
	*got = r.status;
	if (r.view_error[0] != '\0')
		errx(1, "a later run could not enter its view: %s",
		    r.view_error);
	if (r.timed_out)
		snprintf(diff, len, "did not finish within %d s", t->timeout);
	else if (r.status != status) {
		rerun_status_text(status, was, sizeof(was));
		rerun_status_text(r.status, now, sizeof(now));
		last_line(t->err_fd, tail, sizeof(tail));
		snprintf(diff, len, "%s, then %s under -f %s%s%s", was, now,
		    t->flags, tail[0] != '\0' ? ": " : "", tail);
	}
	same = !r.timed_out && r.status == status && rerun_alike(status, out,
	    errfd, r.status, t->out_fd, t->err_fd, diff, len);
	return same;
}

int
rerun_alike(int status_a, int out_a, int err_a, int status_b, int out_b,
    int err_b, char *diff, size_t len)
{
	char was[64], now[64];

	if (status_a != status_b) {
		rerun_status_text(status_a, was, sizeof(was));
		rerun_status_text(status_b, now, sizeof(now));
		snprintf(diff, len, "%s, then %s", was, now);
		return 0;
	}
	return same_output(out_a, out_b, "standard output", diff, len) &&
	    same_output(err_a, err_b, "standard error", diff, len);
}
