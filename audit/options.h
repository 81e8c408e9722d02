/* SPDX-License-Identifier: ISC */
/*
 * options.h: what tame-audit was asked (options.c reads the command
 * line), and the state of its runs (runs.h).
 */
#ifndef AUDIT_OPTIONS_H
#define AUDIT_OPTIONS_H

#include "report.h"
#include "tree.h"
#include "view.h"

#define EXIT_USAGE	2
#define EXIT_VIOLATION	3
#define EXIT_UNNEEDED	4
#define EXIT_UNTAMEABLE	5

struct options {
	struct report_ctx	 ctx;
	const char		*output;	/* -o */
	const char		*keep_log;
	const char		*flags;		/* --check -f */
	char			**logs;		/* --from-log, --merge */
	int			 nlogs;
	int			 where;
	int			 timeout;
	int			 verify;
	int			 once;		/* --once: one run only */
	int			 cut_short;	/* --timeout ended the audited
						   run: its report covers what
						   it did until then */
	int			 report_fd;	/* --report-fd, or -1 */
	const char		*profile;	/* --profile */
	char			**argv;		/* the command */
	struct tree		 tree;		/* its programs (tree.h) */
	struct tree		 warmed[3];	/* and with the name service
						   warmed (tree_warm.h) */
	struct view		 view;		/* each run's (view.h), */
	int			 hermetic;	/* when this is 1 (runs.h) */
	char			 noview[512];	/* why one run only, or "" */
	char			*unreached;	/* why the command, set-ID or
					   with file capabilities, left
					   no marker; or NULL */
};

/* The command line into o; usage (exit 2) on anything wrong. */
void	parse_options(int argc, char *argv[], struct options *o);

#endif /* AUDIT_OPTIONS_H */
