/* SPDX-License-Identifier: ISC */
/*
 * rerun.h: running the command again, after the audited run: the run
 * with the name service warmed, and --verify's run under the suggestion.
 */
#ifndef AUDIT_RERUN_H
#define AUDIT_RERUN_H

#include <stddef.h>

#include "trace.h"

/*
 * Can standard input be read again, the same?  A file (rewound to where
 * the first run began), /dev/null or a closed descriptor: yes; a pipe or
 * a terminal: no.  Call once, before the first run.
 */
int	rerun_stdin_repeatable(void);

/*
 * A pipe: 1, and the first run reads it through a pump that keeps a
 * copy; after that run, rerun_stdin_recorded() makes the copy standard
 * input, for the later runs.  Anything else: 0.
 */
int	rerun_stdin_record(void);
void	rerun_stdin_recorded(void);
void	rerun_stdin_rewind(void);

/* An unnamed file in TMPDIR to hold a run's output. */
int	rerun_capture(void);

/* Copy a captured output to where it was going. */
void	rerun_replay(int from, int to);

/*
 * Run t (untraced: t->strace NULL) with standard input rewound, its
 * output captured, and compare its wait status, standard output and
 * error with status, out and err.  Returns 1 when the same; 0 with the
 * first difference in diff.  Its own wait status in got.
 */
int	rerun_same(struct trace_opts *t, int status, int out, int errfd,
	    char *diff, size_t len, int *got);

/*
 * Did two runs end alike: wait status, standard output and error, each
 * captured?  Returns 1; or 0 with the first difference in diff.
 */
int	rerun_alike(int status_a, int out_a, int err_a, int status_b,
	    int out_b, int err_b, char *diff, size_t len);

#endif /* AUDIT_RERUN_H */
