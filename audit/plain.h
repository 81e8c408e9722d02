/* SPDX-License-Identifier: ISC */
/*
 * plain.h: the user's run (runs.h): after every run of the audit's own,
 * the command once more, plainly, untraced, in the real tree, with the
 * user's standard input, output and error.  Its effects on files are the
 * only real ones, and its output is what the user sees.  Its exit status
 * and output are compared with the audited run's: where they differ,
 * the verdict came from a run that the user's did not repeat.
 *
 * A terminal or a regular file is the command's as it is (a file is read
 * back afterwards, from where the run began); a pipe goes through a
 * relay that passes everything on and keeps a copy, a process of its
 * own that a kill of tame-audit does not end; when the reader is gone,
 * the relay stops and the command meets the closed pipe as it would
 * have.  ^C and SIGQUIT reach the command from the terminal (it is in
 * our process group); SIGTERM and SIGHUP sent to tame-audit are passed
 * on to it.  Either way, the audit was whole before the run began: its
 * report follows, and tame-audit exits 130.
 */
#ifndef AUDIT_PLAIN_H
#define AUDIT_PLAIN_H

#include "options.h"
#include "runs.h"

struct plain {
	int	status;		/* its wait status */
	int	compared;	/* 1: its status, and what of its output
				   could be read, were compared */
	int	same;		/* 1: it ended as the audited run did */
	int	interrupted;	/* the signal that stopped it, or 0 */
	char	diff[512];	/* how not; or what was not compared */
};

/* The user's run, compared with the audited run first. */
void	plain_run(const struct options *o, const struct run_out *first,
	    struct plain *p);

#endif /* AUDIT_PLAIN_H */
