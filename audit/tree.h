/* SPDX-License-Identifier: ISC */
/*
 * tree.h: a process tree's programs, each audited on its own.
 *
 * A run of a pipeline, a script or a build starts many programs.  Under
 * TAME_EXEC_TREE the shim is in every image and marks it ("tame-exe:"
 * with its real path, then tame()'s own marker), so the calls of each
 * image after its marker go to the audit of its program (its real
 * executable path), over every process and every run that ran it.  A
 * program that execs is a launcher: it runs untamed, and the programs it
 * starts are judged on their own.  An image that ran without a marker
 * (static, set-ID, its parent cleared the environment) was not reached.
 */
#ifndef AUDIT_TREE_H
#define AUDIT_TREE_H

#include <stdio.h>

#include "audit.h"

struct program {
	char		*exe;		/* its real executable path */
	struct audit	*a;		/* its calls, from its marker on */
	int		 processes;	/* images that ran it: forks, execs */
	int		 starter;	/* the program that first started it,
					   or -1: the command itself */
	int		 unreached;	/* images that ran it unmarked */
	int		 killed;	/* images killed before their marker,
					   while the loader still worked:
					   nothing of the program ran */
	char		*killed_by;	/* the first one's signal */
	char		*why;		/* why those were not reached */
	struct findings	 f;		/* tree_judge()'s verdict */
	int		 judged;
	int		 warmed;	/* the name services its tame() warms */
	int		 cold;		/* and those it would, not warmed */
	const struct tree *runs_of;	/* the tree whose logs a holds the
					   runs of, when not this one: a
					   warmed tree's (tree_warm.h) */
	char		*load;		/* the modules it loads before tame(),
					   ',' between them, where a run
					   under a profile loading them
					   decided its code blockers
					   (tree_warm.h); or NULL */
};

struct tree {
	struct program	*p;
	int		 n, cap;
	char		**logs;		/* each run's log, for the audits */
	int		 nruns;
	int		 keep_before;	/* the programs' calls before their
					   markers too (a warmed tree's) */
};

/* How many processes ran the program: marked, unreached, killed. */
#define tree_processes(pr) \
	((pr)->processes + (pr)->unreached + (pr)->killed)

/* The program of a real path: found, or added (started by starter). */
int	tree_program(struct tree *, const char *exe, int starter);
/* The program of a real path, or -1. */
int	tree_program_find(const struct tree *, const char *exe);
/* One more image (a process) ran program i. */
void	tree_process(struct tree *, int i);
/* An image of exe ran without the shim's marker, for why. */
void	tree_unreached(struct tree *, const char *exe, int starter);

/*
 * An image of exe was killed by signal before its marker: nothing of it
 * ran, so it is no unreached program (a test suite starts sleep and
 * kills it at once).
 */
void	tree_killed(struct tree *, const char *exe, int starter,
	    const char *signal);

/*
 * Why a set-ID program, or one with file capabilities, gets no shim
 * (the loader's secure mode), or NULL for any other.
 */
char	*tree_raised_why(const char *exe);

/*
 * log.c: read one strace log made under TAME_EXEC_TREE into t, as one
 * more run.  Returns 0, or -1 with a message in err.
 */
int	tree_read_log(struct tree *, const char *path, char *err,
	    size_t errlen);

/*
 * Which of three trees (options.h: warmed[]) holds the runs made with
 * warm's name services warmed: getpw, dnspath, both.
 */
int	tree_warm_index(int warm);

/* Program i's audit told the names of the logs its runs came from. */
void	tree_name_runs(struct tree *, int i);
/*
 * Each program's findings: its flags, its blockers, launcher or not;
 * with warmed and cold as findings_make() takes them.
 */
void	tree_judge(struct tree *);
/*
 * The programs i started first, separated by ", ", or "programs" if it
 * started none of those seen; returns how many.
 */
int	tree_print_starts(FILE *, const struct tree *, int i);
/*
 * Why program i was not judged (every image of it killed before its
 * start), or NULL: it has its findings.
 */
const char *tree_not_judged(const struct tree *, int i);
/* Program i starts other programs (an exec after its marker). */
int	tree_is_launcher(const struct tree *, int i);

void	tree_free(struct tree *);

#endif /* AUDIT_TREE_H */
