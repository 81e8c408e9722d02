/* SPDX-License-Identifier: ISC */
/*
 * audit.h: what tame-audit's stages share.
 *
 *	trace.c		runs the command under strace, into a log
 *	parse.c		the log's lines to events (parse.h)
 *	log.c		events to observations: which process, after which
 *			tame() marker, needing what
 *	classify.c	one call to a need, by asking libtame's own decision
 *			(tame__verdict): no second copy of the policy
 *	cover.c		the smallest flag set meeting every need
 *	verdict.c	whether the suggestion will run as audited: the
 *			blockers (exec, code loaded, a call no flag allows,
 *			an answer that may change the program's course)
 *	where.c		-k stacks to source lines (addr2line)
 *	imports.c	an ELF file's imports, for coverage warnings
 *	report.c	text and JSON
 */
#ifndef AUDIT_AUDIT_H
#define AUDIT_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"

#define AUDIT_MAXALTS	16
#define AUDIT_MAXRUNS	64

/* Where a call was seen. */
struct evidence {
	int	 run;		/* which log */
	int	 pid;
	long	 line;		/* in that log */
	char	*call;		/* the call as strace wrote it, shortened */
	char	*frames;	/* its -k frames, one per line, or NULL */
};

/*
 * A distinct requirement: tame() lets the call through when one of the
 * alternatives (each a set of public flags) is held.  "exact" are the
 * sets under which the call also gets the answer it got in the trace:
 * a soft denial (ENOTTY for a terminal query, say) lets the program go
 * on, but differently when the call had succeeded.
 */
struct need {
	int		 alts[AUDIT_MAXALTS];
	int		 nalts;		/* 0: no flag allows it */
	int		 exact[AUDIT_MAXALTS];
	int		 nexact;
	int		 denied[AUDIT_MAXALTS];	/* sets under which a soft
					   denial answers it differently:
					   the program takes its fallback,
					   and calls on the descriptor it
					   made never happen */
	int		 ndenied;
	/*
	 * The same in pledge's promises (bit i: tame_promises[i]): the
	 * smallest sets under which it is not a violation; npalts -1 when
	 * too many promises bear on it to try every set.  pexact: those
	 * that answer as traced (fattr's chown to another owner fails).
	 */
	uint64_t	 palts[AUDIT_MAXALTS];
	int		 npalts;
	uint64_t	 pexact[AUDIT_MAXALTS];
	int		 npexact;
	char		*what;		/* "openat \"/etc/passwd\" O_RDONLY" */
	char		*reason;	/* nalts 0: what to do instead */
	char		*module;	/* code: the file mapped, or NULL */
	int		 code;		/* asks for executable memory */
	int		 failed;	/* the traced call failed */
	int		 makes_fd;	/* it made a descriptor whose later
					   calls log.c follows (fd_track) */
	int		 err;		/* the errno it failed with, or 0 */
	int		 soft_err;	/* a soft denial's errno for it, or 0 */
	int		 fd_used;	/* a later call on the descriptor it
					   made succeeded (not close) */
	long		 count;
	uint64_t	 runs;		/* bit r: seen in run r */
	long		 first_obs;	/* the index of its first observation */
	struct evidence	 first, last;
};

/* One classified call, in trace order. */
struct obs {
	int	 need;
	int	 decl;		/* the tame() marker in force */
	int	 run;
	int	 pid;
	long	 line;
};

/*
 * One marker: the flags a process declared with tame(), or the promises
 * it declared with pledge() (pledged: bit i is tame_promises[i]).
 */
struct decl {
	int	 flags;
	int	 pledged;
	uint64_t promises;
	int	 prev;		/* the marker this one narrows, or -1 */
	int	 run;
	int	 pid;
	long	 line;
};

/* How one run ended. */
struct run {
	char	*name;		/* the log */
	int	 pid;		/* its first process */
	int	 exited;	/* 1: exit status, 2: killed by signal */
	int	 status;	/* the status, or the signal number */
	char	 signame[32];
	long	 lines, calls;	/* read, and classified after a marker */
	int	 markers;
	int	 cut;		/* ended inside a call (a cut-off log) */
	long	 malformed;	/* lines that fit no form */
	char	 first_bad[160];
	char	*exe;		/* the image the marker was declared in */
};

struct audit {
	struct need	*needs;
	int		 nneeds, needs_cap;
	struct obs	*obs;
	long		 nobs, obs_cap;
	struct decl	*decls;
	int		 ndecls, decls_cap;
	struct run	 runs[AUDIT_MAXRUNS];
	int		 nruns;
	int		 keep_frames;	/* -k: keep each need's frames */
#define AUDIT_MAX_REPEATS 8
	char		*repeats[AUDIT_MAX_REPEATS];	/* what no view
					   holds back (repeats.c) */
	int		 nrepeats, more_repeats;
#define AUDIT_MAX_LISTENS 4
	char		*listens[AUDIT_MAX_LISTENS];	/* sockets bound
					   to a path (repeats.c) */
	int		 nlistens;
#define AUDIT_MAX_REFUSED 4
	char		*refused[AUDIT_MAX_REFUSED];	/* calls that failed
					   as a view may make them fail
					   (repeats.c) */
	int		 nrefused;
	int		 served;	/* it listened for connections */
	int		 keep_before;	/* classify the calls before the
					   marker too, into before */
	struct audit	*before;	/* those calls' needs (no evidence,
					   no observations): what a run's
					   tame() did before its filter */
	void		*cache;		/* classify.c's */
};

/* xalloc.c: allocations that exit with a message when memory is out. */
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
char	*xstrdup(const char *);

struct audit	*audit_new(void);

/* classify.c: the atoms of a set of promises (bit i: tame_promises[i]). */
tame_atoms	 promises_atoms(uint64_t set);

/*
 * repeats.c: a call after the marker that its view does not hold back
 * (a device opened for writing, a connection to a server, a socket
 * bound) or may have made fail (EROFS, EXDEV, EOVERFLOW), noted in a;
 * and freeing those notes.
 */
struct st_event;
void		 repeats_note(struct audit *, const struct st_event *);
void		 repeats_free(struct audit *);
void		 audit_free(struct audit *);
void		 classify_free(struct audit *);

/* classify.c: the need of one traced call, added (or found) in a. */
struct call_text {
	const char	*name;		/* "openat" */
	const char	*args;		/* the argument text */
	size_t		 len;
	int		 nargs;		/* > 0: the parser split them */
	const char	*const *argv;
	const size_t	*argl;
	long long	 ret;
	const char	*err;		/* "ENOENT", or "" */
	int		 returned;
	int		 tgid;		/* the calling process */
	int		 creator;	/* the need of the call that made
					   the descriptor in argument 0, if
					   a soft denial could have refused
					   it; or -1 */
	int		 udp_probe;	/* a UDP connect taken for the
					   resolver's sorting (log.c): it
					   names no peer */
};
int	classify(struct audit *, const struct call_text *);

/*
 * log.c: read one strace log as a new run.  from_exec: no markers will
 * come (a static program); count from the first image on.  Returns 0,
 * or -1 with a message in err.
 */
int	audit_read_log(struct audit *, const char *path, int from_exec,
	    char *err, size_t errlen);

/* cover.c: the smallest set holding floor that meets needs[0..n). */
int	cover_meets(const struct need *, int flags, int exact);
/* Do the promises (bit i: tame_promises[i]) allow the need's call? */
int	promises_meet(const struct need *, uint64_t promises);
/* Does the marker's declaration allow it? */
int	decl_meets(const struct need *, const struct decl *);
int	cover_solve(const struct need *const *needs, int n, int floor,
	    int never, int exact, int *ties, int *nties, int maxties);
int	cover_flag_count(int flags);
long	cover_cost(int flags);

/* findings.c: what the report says, from the observations. */
struct step {
	long	 after;		/* the observation it comes after, or -1 */
	int	 flags;		/* enough from there on */
};

/*
 * Why a run cannot be tamed as it ran.  Each names its call (the need)
 * where it has one.
 */
enum blocker_kind {
	BLOCK_EXEC,		/* a program started after tame() */
	BLOCK_CODE,		/* code loaded after tame() */
	BLOCK_CALL,		/* a call no flag allows */
	BLOCK_SOFT,		/* a soft denial the run did not get: the
				   program may take another way */
	BLOCK_VERIFY,		/* --verify: the run under the suggestion
				   ended otherwise */
	BLOCK_STATIC,		/* a static program: tame-exec cannot
				   preload into it */
	BLOCK_LOG,		/* lines of the log not understood: their
				   calls are not counted */
	BLOCK_UNREACHED,	/* a program of a tree that ran without the
				   shim (set-ID, file capabilities, a
				   cleared environment) */
	BLOCK_TIMEOUT,		/* --timeout ended the run: what it would
				   have done next is not known */
};

struct blocker {
	enum blocker_kind kind;
	int		 need;		/* or -1 (verify) */
	char		*detail;	/* the path, module, errno, difference */
	char		*todo;		/* what to do about it */
};

struct finding {		/* a violation, or a flag not needed */
	int	 decl;
	int	 need;		/* violation: the need; else -1 */
	int	 flag;		/* not needed: the flag; else 0 */
	uint64_t promise;	/* not needed, of a pledge: the promise */
};

struct findings {
	int		 floor;		/* always suggested: stdio */
	int		 flags;		/* the suggestion */
	uint64_t	 promises;	/* the same as pledge's promises (bit i:
					   tame_promises[i]); 0: unknown */
	int		 exact;		/* every call answered as in the trace */
	int		 ties[8], nties;
	int		 why[16];	/* per flag bit: the need only it
					   meets in the suggestion, or -1 */
	int		 floor_why;
	int		 runs_needing[16];	/* per flag bit */
	struct step	*steps;
	int		 nsteps;
	int		*unexpressible, nunexpressible;
	int		*soft, nsoft;	/* met under flags, answered otherwise */
	struct finding	*violations, *unneeded;
	int		 nviolations, nunneeded;
	char		**warnings;
	int		 nwarnings;
	struct blocker	*blockers;
	int		 nblockers;
	int		 tameable;	/* no blocker */
	int		 warmed;	/* the name service the suggestion's
					   tame() warms, as the run was made */
	int		 cold;		/* flags that would warm what this run
					   did not: never suggested */
	int		 verified;	/* 1: --verify ran it the same */
	char		*load;		/* the modules the suggestion loads
					   before tame() (tame-exec -l), ':'
					   between them; or NULL (decide.h) */
	int		 decided;	/* the blocker kinds a run decided,
					   1 << enum blocker_kind each, no
					   --verify asked (decide.h) */
};

/*
 * The run was made with warmed's name services loaded before the marker
 * (tame-exec -f warmed under TAME_AUDIT=permissive), and cold's not:
 * every set suggested holds warmed and none of cold.
 */
void	findings_make(const struct audit *, struct findings *, int checking,
	    int warmed, int cold);
void	findings_warn(struct findings *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	findings_free(struct findings *);

/*
 * verdict.c: audit_sharpen() makes each soft denial that would change
 * what the program saw (a terminal query that succeeded) a need for the
 * flags that answer it as traced, before findings_make(); verdict_make()
 * then lists the blockers.
 */
void		 audit_sharpen(struct audit *);
void		 verdict_findings(struct audit *, struct findings *,
		    int warmed, int cold);	/* the three, in order */
void		 verdict_make(const struct audit *, struct findings *);
/*
 * The modules of f's code blockers, files the program mapped executable
 * after its marker (iconv's gconv converters, ar's plugins), each once,
 * sep between them: what tame-exec -l or a profile's load= loads before
 * tame().  NULL for none, and where only and some blocker is anything
 * else (code made in memory, a JIT's, has no module to stand in for it).
 */
char		*verdict_modules(const struct audit *, const struct findings *,
		    char sep, int only);
/* A run under the suggestion ended the same: the blockers gone. */
void		 verdict_lift(const struct audit *, struct findings *);
void		 verdict_add(struct findings *, enum blocker_kind, int need,
		    char *detail, char *todo);
const char	*blocker_kind_name(enum blocker_kind);
int		 need_benign(const struct need *);

/*
 * coverage.c: the flags beyond flags that the imports could need, their
 * names into list; and the imported functions that exec.
 */
struct elf_imports;
int	coverage_unexercised(const struct elf_imports *, int flags,
	    char *list, size_t len);
int	coverage_execs(const struct elf_imports *, char *list, size_t len);

/* where.c: "cat.c:87 in cat_file, from main at cat.c:120", or NULL. */
char	*where_resolve(const char *exe, const char *frames);

/* Flag sets as text: "stdio,rpath" and "TAME_STDIO | TAME_RPATH". */
void	flags_text(int flags, char *buf, size_t len, int c_style);

#endif /* AUDIT_AUDIT_H */
