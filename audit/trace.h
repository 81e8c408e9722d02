/* SPDX-License-Identifier: ISC */
/*
 * trace.h: tame-audit's first stage, the command run under strace.
 */
#ifndef AUDIT_TRACE_H
#define AUDIT_TRACE_H

#include <sys/types.h>

#include <signal.h>
#include <stddef.h>

struct view;

struct trace_opts {
	const char	*strace;	/* its path; NULL: run without it */
	const char	*tame_exec;	/* run CMD through it, or NULL */
	const char	*flags;		/* tame-exec -f */
	const char	*load;		/* tame-exec -l each, ':' between,
					   or NULL */
	const char	*profile;	/* tame-exec --profile, in place of
					   -f flags; or NULL */
	const char	*view_file;	/* a file written in the view before
					   the command runs, with text
					   view_text (a profile tame-exec
					   reads: nothing of it outside the
					   view, whatever ends the audit);
					   or NULL */
	const char	*view_text;
	int		 flags_all;	/* flags is every flag: an audit */
	int		 cold;		/* the program's own tame() warms no
					   name service (--check's second run) */
	int		 tree;		/* every program the command starts
					   gets the shim and marks its image
					   (tame-exec --tree: tree.h) */
	char *const	*argv;		/* CMD ARG..., NULL-terminated */
	int		 log_fd;	/* strace's log goes here */
	int		 stack;		/* strace -k */
	int		 timeout;	/* seconds; 0: none */
	int		 in_fd;		/* the command's stdin, or -1: ours */
	void		(*started)(void);	/* called once the run is
					   under way (in its view), or NULL */
	int		 out_fd, err_fd;	/* the command's stdout and
					   stderr, or -1: ours */
	const struct view *view;	/* run in a fresh view (view.h),
					   or NULL: in the real tree */
};

struct trace_result {
	int	 status;	/* strace's wait status (the command's) */
	int	 stopped;	/* not made: a stop was asked for first */
	int	 timed_out;	/* killed at the timeout */
	int	 layers;	/* the run's layers (view.h), or -1 */
	char	 view_error[512];	/* why the run could not enter its
					   view, before it ran; or "" */
};

/*
 * The run under way, for a signal handler that ends it (trace_end);
 * 0 when none.  It dies with us (PR_SET_PDEATHSIG); a run in a view
 * is a PID namespace of its own, which its end ends whole.
 */
extern volatile pid_t	trace_running;

/*
 * A stop asked for (its signal), set by the caller's handler: no run
 * begins after it (trace_run returns with stopped).  Those signals are
 * held off while a run is forked, so none falls between.
 */
extern volatile sig_atomic_t	trace_stop;

/* End the run under way, from a signal handler too. */
void	trace_end(void);

/*
 * The signals that ask for a stop: ^C, SIGQUIT, SIGTERM, SIGHUP; as a
 * set, or each given handler (SIG_DFL in a run's child).
 */
void	trace_stop_signals(sigset_t *set);
void	trace_on_stops(void (*handler)(int));

/* Returns 0, or -1 with errno (fork, exec of strace). */
int	trace_run(const struct trace_opts *, struct trace_result *);

/* An executable by name, as execvp finds it: 0, or -1 with errno. */
int	trace_find(const char *name, char *out, size_t len);

/*
 * Whether this strace can print stacks (-k, for --where): 1, 0 (built
 * without libunwind or libdw, as Debian's arm64 strace), -1 with errno.
 */
int	trace_has_stacks(const char *strace);

/*
 * A program installed beside tame-audit: 0, or -1.  trace_find_self()
 * reads where we are; call it before any mount namespace of ours.
 */
int	trace_beside_self(const char *name, char *out, size_t len);
void	trace_find_self(void);

#endif /* AUDIT_TRACE_H */
