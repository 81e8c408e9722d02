/* SPDX-License-Identifier: ISC */
/*
 * options.h: what tame-audit was asked (options.c reads the command
 * line), and the state of its runs that main.c and hermetic.c share.
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
	int			 report_fd;	/* --report-fd, or -1 */
	const char		*profile;	/* --profile */
	char			**argv;		/* the command */
	struct tree		 tree;		/* its programs (tree.h) */
	struct view		 view;		/* each run's (view.h), */
	int			 hermetic;	/* when this is 1 */
	int			 nextrun;	/* its number in the view */
	int			 first_outside;	/* the first run was made
					   again outside any view (its
					   changes are real); the later
					   runs' views start from them */
	int			 outside;	/* 1 while a run is made
					   outside any view, views or not */
	int			 outside_runs;	/* how many were */
	char			 noview[512];	/* why none, or "" */
	char			 foreign_id[32];	/* audit.h */
	char			**layered;	/* audit.h; NULL as root */
	char			*unreached;	/* why the command, set-ID or
					   with file capabilities, left
					   no marker; or NULL */
};

/* The command line into o; usage (exit 2) on anything wrong. */
void	parse_options(int argc, char *argv[], struct options *o);

#endif /* AUDIT_OPTIONS_H */
