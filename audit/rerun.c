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

#include <dirent.h>
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

/*
 * Standard descriptors the user closed: /dev/null holds their place in
 * tame-audit (else a capture or a log would take it), and each run's
 * child closes them again, so that every run has them closed.
 */
static int	std_closed;	/* bit fd, for 0, 1, 2 */

void
rerun_guard_std(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
			if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) !=
			    fd)
				err(1, "/dev/null");
			std_closed |= 1 << fd;
		}
}

void
rerun_close_std(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (std_closed & (1 << fd))
			close(fd);
}

int
rerun_std_closed(int fd)
{
	return (std_closed >> fd) & 1;
}

void
rerun_close_others(int a, int b)
{
	unsigned lo = a < b ? (unsigned)a : (unsigned)b;
	unsigned hi = a < b ? (unsigned)b : (unsigned)a;

	/* the gaps around a and b (-1: none) above 2 */
	if ((int)hi < 3) {
		(void)close_range(3, ~0U, 0);
		return;
	}
	if ((int)lo < 3)
		lo = hi;
	if (lo > 3)
		(void)close_range(3, lo - 1, 0);
	if (hi > lo + 1)
		(void)close_range(lo + 1, hi - 1, 0);
	(void)close_range(hi + 1, ~0U, 0);
}

void
rerun_close_ours(int a, int b)
{
	struct dirent *e;
	DIR *d;
	int fd, flags;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		fd = atoi(e->d_name);
		if (fd > 2 && fd != a && fd != b && fd != dirfd(d) &&
		    (flags = fcntl(fd, F_GETFD)) != -1 && (flags & FD_CLOEXEC))
			(void)close(fd);
	}
	closedir(d);
}

/* What standard input is, and what the runs read of it. */
static enum stdin_kind	kind = -1;
static off_t	stdin_start = -1;	/* a file: where the first run began */
static int	copy = -1;	/* a pipe: what the first run read */
static pid_t	helper = -1;	/* the pump or feeder of the run */
static int	recorded;	/* the first run is over */

int
rerun_is_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	    minor(st->st_rdev) == 3;
}

enum stdin_kind
rerun_stdin_kind(void)
{
	struct stat st;

	if (kind != (enum stdin_kind)-1)
		return kind;
	if (rerun_std_closed(0) || fstat(0, &st) == -1)
		kind = STDIN_NULL;	/* closed: so for every run */
	else if (S_ISREG(st.st_mode))
		kind = (stdin_start = lseek(0, 0, SEEK_CUR)) != -1 ?
		    STDIN_FILE : STDIN_OTHER;
	else if (rerun_is_null(&st))
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

	rerun_close_others(copy, to);
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

	rerun_close_others(copy, to);
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

/*
 * The drainer of a capture: what comes through the pipe from, into copy,
 * up to RERUN_KEEP bytes; then it stops (exit 3), closing the pipe, or
 * drains the rest unkept (exit 4).  Nothing else of ours is open in it:
 * another run's pipe would never end.
 */
static void
drain(int from, int copy, int stop)
{
	char buf[65536];
	off_t kept = 0;
	ssize_t n;
	int cut = 0;

	rerun_close_others(from, copy);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (kept + n > RERUN_KEEP) {
			n = RERUN_KEEP - kept;
			cut = 1;
		}
		if (n > 0 && write(copy, buf, (size_t)n) != n)
			_exit(1);
		kept += n;
		if (cut && stop)
			_exit(3);
	}
	_exit(cut ? 4 : 0);
}

int
rerun_drain(int stop, int *to, pid_t *pid)
{
	int copy = rerun_capture(), p[2];

	if (pipe2(p, O_CLOEXEC) == -1 || (*pid = fork()) == -1)
		err(1, "a pipe for a run's output");
	if (*pid == 0) {
		close(p[1]);
		drain(p[0], copy, stop);
	}
	close(p[0]);
	*to = p[1];
	return copy;
}

int
rerun_drained(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return 0;
	if (!WIFEXITED(status))
		return 0;
	return WEXITSTATUS(status) == 3 ? 2 : WEXITSTATUS(status) == 4;
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

/* The last line a file ends with, for a message. */
void
rerun_last_line(int fd, char *buf, size_t len)
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

