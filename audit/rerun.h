/* SPDX-License-Identifier: ISC */
/*
 * rerun.h: what each run of the command reads and prints: standard
 * input given to every run alike, each run's output captured and
 * compared with another's.
 */
#ifndef AUDIT_RERUN_H
#define AUDIT_RERUN_H

#include <sys/types.h>

#include <stddef.h>

#include "trace.h"

enum stdin_kind {
	STDIN_FILE,	/* rewound to where the first run began */
	STDIN_NULL,	/* /dev/null, or closed */
	STDIN_PIPE,	/* recorded in the first run, given to the others */
	STDIN_TERMINAL,	/* read once: one run only */
	STDIN_OTHER,	/* a socket, a device: one run only */
};

/* What standard input is. */
enum stdin_kind	rerun_stdin_kind(void);

/*
 * Standard input for the next run: -1 for ours (a file, rewound; /dev/null)
 * or a descriptor: a pipe the first run reads ours through, keeping a
 * copy, and each later run a pipe fed from the copy, once the run is
 * under way (rerun_stdin_start: a run that could not enter its view
 * consumed nothing).
 */
int	rerun_stdin_next(void);
void	rerun_stdin_start(void);

/* That run is over: its descriptor closed, its pump or feeder gone. */
void	rerun_stdin_done(int fd);

/* A memfd to hold a run's output or a log: nothing on disk. */
int	rerun_capture(void);

/*
 * Is what file x holds from offset from to to (-1: its end) what file y
 * holds?  prefix: x was cut short, and need only begin y.  Returns 1;
 * or 0 with the first difference, named what, in diff.
 */
int	rerun_same_range(int x, off_t from, off_t to, int y,
	    const char *what, int prefix, char *diff, size_t len);

/*
 * Run t (untraced: t->strace NULL) with standard input as the others
 * had it, its output captured in t->out_fd and t->err_fd, and compare its wait status, standard
 * output and error with status, out and err.  Returns 1 when the same;
 * 0 with the first difference in diff.  Its own wait status in got,
 * its layers (view.h) in layers, or -1.
 */
int	rerun_same(struct trace_opts *t, int status, int out, int errfd,
	    char *diff, size_t len, int *got, int *layers);

/*
 * Did two runs end alike: wait status, standard output and error, each
 * captured?  Returns 1; or 0 with the first difference in diff.
 */
int	rerun_alike(int status_a, int out_a, int err_a, int status_b,
	    int out_b, int err_b, char *diff, size_t len);

/* A wait status in words: "exit status 1", "killed by SIGPIPE". */
void	rerun_status_text(int status, char *buf, size_t len);

#endif /* AUDIT_RERUN_H */
