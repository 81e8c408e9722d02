/* SPDX-License-Identifier: ISC */
/*
 * parse.h: tame-audit's second stage, strace 6.1 logs to events.
 *
 * The log is what `strace -f -yy -X verbose -o LOG` writes (see
 * shared/reference/auditor.md, section 2): one line per event, each
 * prefixed with the pid.  A call that blocks is split into an
 * "<unfinished ...>" line and a "<... NAME resumed>" line, possibly with
 * other pids' lines between; the parser joins them, so every event it
 * hands out is complete.  Lines of any length are accepted; a line that
 * fits no form is an error with a message, never a crash.
 */
#ifndef AUDIT_PARSE_H
#define AUDIT_PARSE_H

#include <stddef.h>

enum st_kind {
	ST_CALL,		/* a system call and its result */
	ST_SIGNAL,		/* "--- SIGxxx {siginfo} ---" */
	ST_EXITED,		/* "+++ exited with N +++" */
	ST_KILLED,		/* "+++ killed by SIGxxx [(core dumped)] +++" */
	ST_SUPERSEDED,		/* a thread's execve took over this pid */
	ST_FRAME,		/* " > lib(sym+off) [addr]" of -k, for the
				   event before it */
};

struct st_event {
	enum st_kind	 kind;
	int		 pid;		/* 0 where the log has no pid prefix */
	char		 name[32];	/* the call, or the signal */
	const char	*args;		/* call: the arguments, joined across
					   unfinished/resumed; signal: the
					   siginfo; frame: the frame text */
	size_t		 args_len;
	int		 nargs;		/* call: how many of the first six
					   arguments argv[] holds */
	const char	*argv[6];	/* each argument, as st_arg() finds */
	size_t		 argl[6];
	int		 returned;	/* call: it has a result ("= ?": 0) */
	long long	 ret;		/* the result (-1 with err) */
	char		 err[32];	/* "ENOENT", "ERESTARTSYS", or "" */
	int		 status;	/* exited: the code; superseded: the
					   pid whose execve took over */
	int		 core;		/* killed: core dumped */
	long		 lineno;	/* the line that completed it */
	long		 begun;		/* the line where it began (an
					   unfinished call's), or lineno */
};

struct st_parser;

struct st_parser *st_new(void);
void		 st_free(struct st_parser *);

/*
 * Feed one line, without its newline.  Returns 1 with *ev filled when an
 * event is complete, 0 when the line completes nothing (an unfinished
 * call, a blank line), or -1 when it is malformed (st_error() says how).
 * ev->args points into the parser and is valid until the next call.
 */
int		 st_line(struct st_parser *, const char *line, size_t len,
		    struct st_event *ev);
const char	*st_error(const struct st_parser *);

/* Calls still unfinished (at the end of a log: interrupted by its end). */
int		 st_pending(const struct st_parser *);

/*
 * The pid a line begins with ("PID  body", "[pid N] body"), or 0 where
 * it has none; where its body starts in *body.
 */
int		 st_pid(const char *line, size_t len, size_t *body);

/* A line not fed to st_line (a first pass's): counted all the same. */
void		 st_skip_line(struct st_parser *);

/*
 * Argument helpers.  st_arg() finds the i-th top-level argument of an
 * argument text (strings, comments, nested brackets and fd decorations
 * respected); returns 0 and its span, or -1.
 */
int		 st_arg(const char *args, size_t len, int i, const char **arg,
		    size_t *arg_len);

/* The first max arguments at once: how many there are (at most max). */
int		 st_split(const char *args, size_t len, const char **arg,
		    size_t *arg_len, int max);

/*
 * A quoted C string argument, decoded (octal, hex and letter escapes)
 * into out, NUL-terminated.  Returns its length, or -1 when the argument
 * is no string or out is too small; *truncated says strace cut it ("...").
 */
long		 st_string(const char *arg, size_t len, char *out,
		    size_t outlen, int *truncated);

/*
 * The number an argument stands for, as -X verbose and raw print it:
 * "3", "-1", "0x41", "0x2 /" "* AF_INET *" "/", an OR of those, and an
 * fd with its decoration ("3</etc/passwd>", "AT_FDCWD</tmp>" is -100).
 * Returns 0 and the value, or -1.
 */
int		 st_number(const char *arg, size_t len, long long *v);

/*
 * The decoration of an fd argument (-y, -yy): "3</etc/passwd>" gives
 * "/etc/passwd", octal escapes decoded.  Returns its length, or -1.
 */
long		 st_decoration(const char *arg, size_t len, char *out,
		    size_t outlen);

/*
 * The number after "key=" in a structure or in named arguments, as in
 * clone(child_stack=NULL, flags=0x11 /" "* SIGCHLD *" "/): 0 and *v, or
 * -1 when the key is absent or its value no number.
 */
int		 st_field(const char *text, size_t len, const char *key,
		    long long *v);

#endif /* AUDIT_PARSE_H */
