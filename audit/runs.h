/* SPDX-License-Identifier: ISC */
/*
 * runs.h: the runs of an audit, each with its view and what it is for
 * (tame-audit(1), HERMETIC RUNS).
 *
 * An audit runs the command several times, and only one of those runs
 * is the user's:
 *
 *	the audited run		traced, under every flag (or the program's
 *				own tame()), in a view: the suggestion is
 *				made from it
 *	warmed runs		traced, the name service loaded before the
 *				marker as tame() loads it, each in a view
 *	--check's cold run	traced, the program's tame() warming
 *				nothing, in a view
 *	deciding runs		untraced, plainly and under the suggestion,
 *				each in a view, compared (decide.h)
 *	--verify's run		untraced, under the suggestion, in a view,
 *				compared with the audited run
 *	the user's run		untraced, plainly, in the real tree, its
 *				output live: the one run whose effects on
 *				files are real (plain.h)
 *
 * Nothing of a view reaches the real tree.  Where the audit makes one
 * run only (--once, --merge with a command, no view here, standard input
 * a terminal), the audited run is the user's: traced, in the real tree,
 * its output live.
 *
 * A stop asked for while a run in a view is under way (^C, SIGTERM,
 * SIGHUP, SIGQUIT) ends it, and tame-audit exits 130 with the files
 * untouched; during the user's run, plain.h says what happens.
 */
#ifndef AUDIT_RUNS_H
#define AUDIT_RUNS_H

#include "audit.h"
#include "options.h"

/*
 * Whether this audit makes its runs in views, or one run only (one line
 * says why, where the user did not ask for that with --once).  Call
 * once, before any run.
 */
void	runs_open(struct options *o);

/* What a run left: its wait status, its captured output, its layers. */
struct run_out {
	int	status;
	int	out, err;	/* what it wrote (memfds), or -1: live */
	int	to_out, to_err;	/* where it writes, when not out and err:
				   a pipe to a drainer (rerun.h) */
	pid_t	drainer[2];
	int	cut;		/* 1 out, 2 err: only a first part kept */
	int	closed;		/* 1 out, 2 err: and the pipe closed there */
	int	layers;		/* view.h, or -1 */
	int	timed_out;
};

/* No run yet: nothing captured, no layers. */
#define RUN_OUT_NONE	{ 0, -1, -1, -1, -1, { -1, -1 }, 0, 0, -1, 0 }

/*
 * The output of a run in a view, captured as the user's is made: a
 * regular file or /dev/null into a memfd; a pipe, a terminal or a socket
 * through a pipe to a drainer that keeps the first 64 MiB (and, for a
 * pipe, then closes it: an endless producer meets a reader that has had
 * enough); one capture when the user's standard
 * output and error are one file (2>&1: runs_outputs_joined), so that
 * it compares with what the user's run writes there.
 */
void	runs_capture(struct run_out *ro);
int	runs_outputs_joined(void);

/*
 * Did runs a and b end alike: wait status, output (where either kept
 * only a first part, as far as both go)?  Returns 1; or 0 with the
 * first difference in diff (flags: b's, for the message, or NULL).
 */
int	runs_alike(const struct run_out *a, const struct run_out *b,
	    const char *flags, char *diff, size_t len);

/* Its captures and layers let go. */
void	runs_forget(struct run_out *ro);

enum traced {
	TRACED_FIRST,	/* the audited run */
	TRACED_WARM,	/* name services warmed: warm says which */
	TRACED_COLD,	/* --check: the program's tame() warms nothing */
	TRACED_WARM_TREE, /* every program of the tree warmed (tree_warm.h) */
};

/*
 * A traced run, read into a (a new audit when a is NULL, else one more
 * run of it).  ro->out and ro->err: where its output goes (-1: ours).
 * Its wait status and layers into ro; from_exec: the program is static.
 */
struct audit	*runs_traced(struct options *o, struct audit *a,
		    enum traced kind, int warm, struct run_out *ro,
		    int *from_exec);

/*
 * The command plainly, untraced, in a view: its status, output and
 * layers into ro.  Returns 0; or -1 when it did not finish within the
 * timeout.
 */
int	runs_plainly(struct options *o, struct run_out *ro);

/*
 * The command untraced under tame-exec -f flags (-l each module of load,
 * ':' between them, or NULL), in a view, compared
 * with the run ref: status, output and files.  Returns 1 when the same;
 * else 0 with the first difference in diff.
 */
int	runs_tamed(struct options *o, int flags, const char *load,
	    const struct run_out *ref, char *diff, size_t len);

/*
 * The command untraced plainly, then under tame-exec --profile with a
 * profile of text, each in a view (the profile is a file of each view
 * only, so that nothing of it is left outside whatever ends the audit),
 * compared as runs_tamed() compares.  Returns 1 when the same; else 0
 * with the first difference in diff.
 */
int	runs_profiled(struct options *o, const char *text, char *diff,
	    size_t len);

/* A stop was asked for: say so and exit 130 (the files untouched). */
void	runs_stop_if_asked(void);

/*
 * The end of the audit's runs: what the views changed or did not hold
 * back, into f's warnings; the view let go.
 */
void	runs_close(struct options *o, const struct audit *a,
	    struct findings *f);

/* A log into the tree of programs, and into --profile's record of runs. */
void	runs_tree_add_log(struct options *o, const char *log);

/*
 * The command traced again as a tree, the shim's tame() in every image
 * warming warm's name services (tame_warm_names): where it ended with
 * status, its programs go into into and --profile's record of runs, and
 * 1 is returned; else 0, and nothing of it is kept.
 */
int	runs_tree_warm(struct options *o, int warm, struct tree *into,
	    int status);

/* Output that nothing compares (a warmed run's): to /dev/null. */
void	runs_discard(struct run_out *ro);

/* Why the command gets no shim, when it is set-ID or has capabilities. */
char	*command_raised(const struct options *o);

#endif /* AUDIT_RUNS_H */
