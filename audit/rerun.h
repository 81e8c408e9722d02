/* SPDX-License-Identifier: ISC */
/*
 * rerun.h: what each run of the command reads and prints: standard
 * input given to every run alike, each run's output captured and
 * compared with another's.
 */
#ifndef AUDIT_RERUN_H
#define AUDIT_RERUN_H

#include <sys/stat.h>
#include <sys/types.h>

#include <stddef.h>


/*
 * Call first: a standard descriptor the user closed is held by /dev/null
 * in tame-audit, and closed again in each run's child
 * (rerun_close_std); rerun_std_closed(fd) says whether it was.
 */
void	rerun_guard_std(void);
void	rerun_close_std(void);
int	rerun_std_closed(int fd);

/* Is st the null device (/dev/null, 1:3)? */
int	rerun_is_null(const struct stat *st);

/*
 * In a child of ours that does not exec: close every descriptor above 2
 * but a and b (-1: none), or a pipe's other end held there would never
 * let its reader see the end.
 */
void	rerun_close_others(int a, int b);

/*
 * The same in a run's child, which must keep what the user's command
 * inherits: only our own descriptors (all close-on-exec) go.
 */
void	rerun_close_ours(int a, int b);

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
 * A run's output through a pipe (*to, for the run) into a memfd (the
 * return), by a drainer (*pid) that keeps RERUN_KEEP bytes, then, with
 * stop, closes the pipe (the run meets a reader that has gone, as an
 * endless producer in `cmd | head` does), else drains the rest unkept.
 * rerun_drained() waits for it once the run's end is closed: 0, all
 * kept; 1, only the first RERUN_KEEP bytes; 2, those, and the pipe was
 * closed there.
 */
#define RERUN_KEEP	((off_t)64 << 20)
int	rerun_drain(int stop, int *to, pid_t *pid);
int	rerun_drained(pid_t pid);

/*
 * Is what file x holds from offset from to to (-1: its end) what file y
 * holds?  prefix: x was cut short, and need only begin y.  Returns 1;
 * or 0 with the first difference, named what, in diff.
 */
int	rerun_same_range(int x, off_t from, off_t to, int y,
	    const char *what, int prefix, char *diff, size_t len);

/* The last line a file ends with, for a message. */
void	rerun_last_line(int fd, char *buf, size_t len);

/* A wait status in words: "exit status 1", "killed by SIGPIPE". */
void	rerun_status_text(int status, char *buf, size_t len);

#endif /* AUDIT_RERUN_H */
