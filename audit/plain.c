/* SPDX-License-Identifier: ISC */
/*
 * plain.c: the user's run (plain.h).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "plain.h"
#include "rerun.h"
#include "runs.h"
#include "trace.h"

/* One of the user's output descriptors, as the run gets it. */
struct stream {
	int		 fd;		/* 1 or 2 */
	enum { LIVE, FILED, PIPED, JOINED } how;
	off_t		 start;		/* FILED: where the run began */
	int		 copy;		/* PIPED: what the relay passed on */
	int		 to;		/* PIPED: the command's end */
	pid_t		 relay;
	int		 cut;		/* PIPED: its reader went away */
	int		 part;		/* PIPED: the copy is a first part */
};

/*
 * The relay: everything from the command to the user's pipe, and a copy
 * of its first RERUN_KEEP bytes (exit 4 when there was more).  It ends
 * when the command and all it started have closed their end, or when
 * the reader is gone (exit 3): then its end closes, and the command's
 * next write meets a closed pipe, as it would have.
 */
static void
relay(int from, int to, int copy)
{
	char buf[65536];
	off_t kept = 0;
	ssize_t n, k;
	int cut = 0;

	/* nothing else of ours: another relay's pipe would never end */
	rerun_close_others(from, copy);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (write(to, buf, (size_t)n) != n)
			_exit(errno == EPIPE ? 3 : 1);
		k = kept + n > RERUN_KEEP ? RERUN_KEEP - kept : n;
		cut |= k < n;
		if (k > 0)
			(void)write(copy, buf, (size_t)k);
		kept += k;
	}
	_exit(cut ? 4 : 0);
}

static void
open_stream(struct stream *s, int fd)
{
	struct stat st;
	int p[2];

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->how = LIVE;
	s->copy = s->to = s->relay = -1;
	if (fd == 2 && runs_outputs_joined()) {
		s->how = JOINED;
		return;
	}
	if (fstat(fd, &st) == -1)
		return;
	if (S_ISREG(st.st_mode)) {
		if ((s->start = lseek(fd, 0, SEEK_CUR)) != -1)
			s->how = FILED;
		return;
	}
	if (!S_ISFIFO(st.st_mode))
		return;		/* a terminal, a socket: the command's own */
	s->copy = rerun_capture();
	if (pipe2(p, O_CLOEXEC) == -1 || (s->relay = fork()) == -1)
		err(1, "a relay for descriptor %d", fd);
	if (s->relay == 0) {
		close(p[1]);
		relay(p[0], fd, s->copy);
	}
	close(p[0]);
	s->to = p[1];
	s->how = PIPED;
}

/* Our copy of the command's end: the relay sees the end of its output. */
static void
drop_end(struct stream *s)
{
	if (s->to >= 0)
		close(s->to);
	s->to = -1;
}

/* The relay done: has the reader gone? */
static void
close_stream(struct stream *s)
{
	int status;

	drop_end(s);
	if (s->relay <= 0)
		return;
	while (waitpid(s->relay, &status, 0) == -1 && errno == EINTR)
		;
	s->cut = WIFEXITED(status) && WEXITSTATUS(status) == 3;
	s->part = s->cut || (WIFEXITED(status) && WEXITSTATUS(status) == 4);
	s->relay = -1;
}

static volatile sig_atomic_t	got_sig;
static volatile pid_t		command;
static volatile sig_atomic_t	timed_out;

/* ^C and SIGQUIT came to the command too; SIGTERM and SIGHUP pass on. */
static void
on_signal(int sig)
{
	got_sig = sig;
	if ((sig == SIGTERM || sig == SIGHUP) && command > 0)
		kill(command, sig);
}

static void
on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
	if (command > 0)
		kill(command, SIGKILL);
}

/*
 * Did stream s get what the audited run's capture from holds?  Where
 * either kept only a first part (cut), as far as both go.
 */
static int
same_stream(const struct stream *s, int from, int cut, int *compared,
    char *diff, size_t len)
{
	const char *what = s->fd == 1 ? "standard output" : "standard error";
	char path[64];
	struct stat sa, sb;
	off_t end;
	int x, same;

	if (from < 0)
		return 1;
	if (s->how == PIPED) {
		*compared = 1;
		cut |= s->part;
		if (!cut || fstat(s->copy, &sa) == -1 || fstat(from, &sb) == -1)
			return rerun_same_range(s->copy, 0, -1, from, what, 0,
			    diff, len);
		return sa.st_size <= sb.st_size ? rerun_same_range(s->copy, 0,
		    -1, from, what, 1, diff, len) : rerun_same_range(from, 0,
		    -1, s->copy, what, 1, diff, len);
	}
	if (s->how != FILED)
		return 1;
	/* the file, reopened to read it: what the run wrote from start */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", s->fd);
	if ((end = lseek(s->fd, 0, SEEK_CUR)) == -1 ||
	    (x = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 1;
	*compared = 1;
	same = rerun_same_range(x, s->start, end, from, what, 0, diff, len);
	close(x);
	return same;
}

/* Compare the user's run with the audited run, into p. */
static void
compare(struct plain *p, const struct run_out *first, struct stream *s)
{
	char was[64], now[64];
	int cut = s[0].cut || s[1].cut;

	p->compared = 1;
	if (WIFSIGNALED(p->status) && WTERMSIG(p->status) == SIGPIPE && cut)
		;	/* its reader left: its end is not the command's doing */
	else if (WIFSIGNALED(first->status) &&
	    WTERMSIG(first->status) == SIGPIPE && first->cut)
		;	/* the audited run's drainer had had enough */
	else if (p->status != first->status) {
		rerun_status_text(first->status, was, sizeof(was));
		rerun_status_text(p->status, now, sizeof(now));
		snprintf(p->diff, sizeof(p->diff), "the audited run ended "
		    "with %s, yours with %s", was, now);
		return;
	}
	if (!same_stream(&s[0], first->out, first->cut & 1, &p->compared,
	    p->diff, sizeof(p->diff)) || !same_stream(&s[1], first->err,
	    first->cut & 2, &p->compared, p->diff, sizeof(p->diff)))
		return;
	p->same = 1;
	if (s[0].how == LIVE || s[1].how == LIVE)
		snprintf(p->diff, sizeof(p->diff), "its %s went to a "
		    "terminal or a socket, and was not compared",
		    s[0].how == LIVE && s[1].how == LIVE ? "output" :
		    s[0].how == LIVE ? "standard output" : "standard error");
}

void
plain_run(const struct options *o, const struct run_out *first,
    struct plain *p)
{
	struct stream s[2];
	const char *name;
	sigset_t stops, mask;
	int in, status;
	pid_t pid;

	memset(p, 0, sizeof(*p));
	got_sig = timed_out = 0;
	/* from here a stop is for the user's run; one before it, ours */
	trace_stop_signals(&stops);
	sigprocmask(SIG_BLOCK, &stops, &mask);
	runs_stop_if_asked();	/* nothing of the user's ran */
	trace_on_stops(on_signal);
	open_stream(&s[0], 1);
	open_stream(&s[1], 2);
	in = rerun_stdin_next();
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		trace_on_stops(SIG_DFL);
		sigprocmask(SIG_SETMASK, &mask, NULL);
		if ((in >= 0 && dup2(in, 0) == -1) ||
		    (s[0].how == PIPED && dup2(s[0].to, 1) == -1) ||
		    (s[1].how == PIPED && dup2(s[1].to, 2) == -1) ||
		    (s[1].how == JOINED && s[0].how == PIPED &&
		    dup2(s[0].to, 2) == -1))
			_exit(127);
		rerun_close_std();
		execvp(o->argv[0], o->argv);
		fprintf(stderr, "tame-audit: %s: %s\n", o->argv[0],
		    strerror(errno));
		_exit(127);
	}
	command = pid;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	drop_end(&s[0]);
	drop_end(&s[1]);
	rerun_stdin_start();
	if (o->timeout > 0) {
		signal(SIGALRM, on_alarm);
		alarm((unsigned)o->timeout);
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			err(1, "waitpid");
	alarm(0);
	command = 0;
	rerun_stdin_done(in);
	close_stream(&s[0]);
	close_stream(&s[1]);
	p->status = status;
	if ((p->interrupted = got_sig) != 0) {
		name = sigabbrev_np(got_sig);
		snprintf(p->diff, sizeof(p->diff), "your run was interrupted "
		    "(SIG%s): the files are as it left them", name != NULL ?
		    name : "?");
	} else if (timed_out) {
		snprintf(p->diff, sizeof(p->diff), "your run did not finish "
		    "within %d s, and was killed", o->timeout);
		p->compared = 1;
		p->same = o->cut_short;		/* as the audited run */
	} else
		compare(p, first, s);
	if (s[0].copy >= 0)
		close(s[0].copy);
	if (s[1].copy >= 0)
		close(s[1].copy);
}
