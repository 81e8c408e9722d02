/* SPDX-License-Identifier: ISC */
/*
 * tame_int.h: state and helpers shared inside libtame, never exported.
 */
#ifndef TAME_INT_H
#define TAME_INT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "tame.h"

#define TAME_EXPORT	__attribute__((visibility("default")))

struct tame_state {
	tame_atoms held;	/* expanded flags (tame_expand), NOUNIX */
	int	tamed;		/* a filter is in place (or permissive) */
	int	pledged;	/* the last narrowing was pledge(): the
				   violation line speaks in promises */
	int	exec_null;	/* pledge's execpromises: not given (1), */
	tame_atoms exec_held;	/* or these, with BASE and ALWAYS */
	int	permissive;	/* TAME_AUDIT under a tracer: 1 permissive,
				   2 permissive-cold (no warming) */
	int	landlock_ok;	/* what the newest filter was compiled with */
	int	supervised;	/* a supervisor serves this process */
	int	split;		/* pledge's exec: the newest filter answers
				   for the images it execs too (compile.h) */
	tame_atoms split_held;	/* the first such filter's two sets */
	tame_atoms split_exec;
	uint32_t uvid;		/* the supervisor's number of the rules
				   unveil() locked (UNVEILED), or 0 */
	char	progname[64];
};

extern struct tame_state tame__state;

/* One narrowing, by tame() (flags) or pledge() (pledged, atoms only). */
struct tame_request {
	tame_atoms	 want;		/* expanded: BASE and ALWAYS in */
	int		 flags;		/* tame()'s, for its marker */
	int		 pledged;
	/* pledge's execpromises after the call, and whether they change */
	int		 exec_null;
	tame_atoms	 exec_held;
	int		 exec_changed;
	int		 unveil_lock;	/* unveil(NULL, NULL) */
};

/*
 * Narrow the process to rq->want (only ever narrowing: EPERM), under
 * the lock tame() and the handler share.  0, or -1 with errno.
 */
int	tame__narrow(const struct tame_request *rq);

/* Put unveil()'s layer in and refuse more unveil() (unveil.c); 0 or -1. */
int	tame__unveil_lock(int threads, tame_atoms pass);
/*
 * The paths of pass's atoms (tame_lpaths) added to the rules waiting for
 * the lock, once: pledge's own paths pass unveil, as on OpenBSD.
 */
int	tame__unveil_pass(tame_atoms pass);

/*
 * unveil()'s rules as the supervisor checks them (sup_unveil.c): each
 * unveiled file or directory by device and inode, with its permissions.
 * OpenBSD keeps 128 of each kind; more is E2BIG.
 */
#define TAME_UV_R	1
#define TAME_UV_W	2
#define TAME_UV_X	4
#define TAME_UV_C	8
#define TAME_UNVEIL_MAX	256

struct tame_unveil_rule {
	uint64_t	 dev;
	uint64_t	 ino;
	uint32_t	 perms;		/* TAME_UV_* */
	uint32_t	 dir;
};

struct tame_unveil_rules {
	int		 n;
	struct tame_unveil_rule r[TAME_UNVEIL_MAX];
};

/* The rules so far; n is 0 when nothing was unveiled. */
const struct tame_unveil_rules *tame__unveil_rules(void);

/* Are rules waiting for the lock (unveil() called, not locked)? */
int	tame__unveil_pending(void);

/* pledge's promise list to atoms; -1 (EINVAL, *bad at the word) if unknown. */
int	tame__promises_parse(const char *s, tame_atoms *out, const char **bad);

/*
 * Whether the first tame() of want looks for an AF_UNIX socket, to leave
 * the message calls unchecked (state NOUNIX) when there is none: where
 * messages on other sockets are likely (a UDP server, the resolver), and
 * where the process could not make one later anyway (UNIX not held; a
 * socketpair() under NOUNIX is refused, policy.c).  tools/precompile.c
 * builds both variants of such sets.
 */
static inline int
tame__nounix_considered(tame_atoms want)
{
	return (want & TAME_RW) && !(want & (TAME_CMSG | TAME__RECVFD |
	    TAME_UNIX)) && (want & (TAME_INET | TAME_DNSPATH));
}

/* One trapped call, as the handler sees it. */
struct tame_call {
	int		 nr;
	uint64_t	 a[6];
	int		 path_arg;	/* the argument path holds, or -1 */
	const char	*path;		/* that argument, copied once */
	const char	*detail;	/* what the handler saw, for the report
					   ("SCM_RIGHTS"), or NULL */
	char		 detail_buf[48];	/* the supervisor's detail */
	tame_atoms	 need;		/* with detail: the atoms it needs */
	uint64_t	*mask;		/* the trapping thread's signal mask,
					   set again when the handler returns */
	_Alignas(8) char buf[PATH_MAX];	/* the path, or ancillary data */
};

/* A line built without allocation (async-signal-safe). */
struct tame_line {
	char	buf[1024];
	size_t	len;
};

void	tame__put(struct tame_line *, const char *);
void	tame__put_num(struct tame_line *, long);
void	tame__put_hex(struct tame_line *, uint64_t);
void	tame__put_quoted(struct tame_line *, const char *, size_t max);
/* "/proc/self/fd/N" in l (from its start): descriptor fd as a path. */
const char *tame__self_fd(struct tame_line *l, long fd);

/* "openat "/etc/hostname" O_RDONLY": the call as the report names it. */
void	tame__describe(struct tame_line *, const struct tame_call *);

/* The argument of nr that is a path, or -1. */
int	tame__path_arg(int nr);

/*
 * What the table decides a program's call nr by: the union of the masks
 * its rows compare each argument with, into mask; returns the arguments
 * whose NULL-ness a row tests (bit i).
 */
int	tame__decided(int nr, uint32_t mask[6]);

/* Bit i set: argument i of nr is a string (a path, an attribute name). */
int	tame__string_args(int nr);

/* Copies from the program's memory; -EFAULT on a bad pointer. */
long	tame__copy_str(char *dst, size_t len, uint64_t src);
int	tame__copy_in(void *dst, uint64_t src, size_t len);
int	tame__writable(uint64_t dst, size_t len);	/* len >= 4 */

/* The Landlock rights an entry of tame_lpaths grants (TL_READ ...). */
uint64_t tame__lpath_access(int rights);

/* Paths the flags grant (paths.c): held flags, TL_READ, TL_RW or TL_FULL. */
tame_atoms tame__path_grantors(const char *path, int rights);
int	tame__path_granted(tame_atoms held, const char *path, int rights);
/*
 * All at once: the flags granting reading, in *rw writing, in *full
 * everything.
 */
tame_atoms tame__path_grantors_each(const char *path, tame_atoms *rw,
	    tame_atoms *full);
/* The longest entry of tame_lpaths granting path to held, or -1. */
int	tame__path_entry(tame_atoms held, const char *path, int rights);
/*
 * Resolve the entries of held to the files they lead to, once (tame(),
 * before any filter), and what entry i led to then: NULL for nothing.
 */
void	tame__paths_resolve(tame_atoms held);
const char *tame__path_resolved(int i);
/* Does this kernel have openat2(2) (Linux 5.6)?  Asked once. */
int	tame__openat2_ok(void);

/*
 * What the handler read of a trapped call beyond its registers: the
 * path argument, an attribute's name, whether a message carries
 * SCM_RIGHTS; and the pid of the process that made it, which the rows
 * for signals to self compare with, and its ids, which the rows for a
 * chown to itself do.
 */
struct tame_seen {
	const char	*path;
	const char	*name;
	int		 pid;
	int		 rights;
	const struct tame_ids *ids;	/* its ids, for pledge's fattr */
};

/* Would the handler make the trapped call (1), or refuse it (0)? */
int	tame__trap_allows(tame_atoms held, int nr, const uint64_t a[6],
	    const struct tame_seen *);

/*
 * The whole decision on one call, as the filter and the handler make it
 * together: TAME_VERDICT_ALLOW, TAME_VERDICT_ERRNO with the errno in
 * *err, or TAME_VERDICT_VIOLATION.  Makes no call and reads no memory
 * but *seen; tame-audit asks it of traced calls.
 */
enum { TAME_VERDICT_ALLOW, TAME_VERDICT_ERRNO, TAME_VERDICT_VIOLATION };
int	tame__verdict(tame_atoms held, int nr, const uint64_t a[6],
	    const struct tame_seen *seen, int *err);

/*
 * Clear the set-ID and sticky bits of nr's mode in a (a chmod, or a call
 * that creates a name): 1 if it held some, 0 if the call has none.
 */
int	tame__strip_setid(int nr, uint64_t a[6]);

/* Once the handler refuses a trapped call: its errno, or 0 to die. */
int	tame__errno_after_trap(tame_atoms held, int nr, const uint64_t a[6]);

/* The rights a trapped call's path needs (0: not a path check). */
int	tame__path_rights(int nr, const uint64_t a[6], const char *path);

/*
 * Make a trapped call if it is allowed: 0 with the result in *ret, or -1
 * (and, for a refusal the table cannot explain, c->detail and c->need).
 */
int	tame__emulate(tame_atoms held, struct tame_call *c, long *ret);
int	tame__cmsg_emulate(tame_atoms held, struct tame_call *c, long *ret);

/*
 * The process makes its first AF_UNIX socket under NOUNIX: stack the
 * filter that checks the message calls, and drop NOUNIX.  0 or -errno.
 */
long	tame__unix_checks_on(void);
/* Does control data ctl of len bytes carry SCM_RIGHTS (1, 0, -EINVAL)? */
int	tame__cmsg_rights(const void *ctl, size_t len);

/* Write the violation line for c. */
void	tame__violation(const struct tame_call *c);
/* The line for c made by process prog[pid] holding held (pledge's words). */
void	tame__violation_line(struct tame_line *, const struct tame_call *c,
	    const char *prog, long pid, tame_atoms held, int pledged);
/* Write a line of libtame's on stderr, raising no SIGPIPE. */
void	tame__say(const struct tame_line *);

/* SIGSYS's bit in the kernel's signal set (8 bytes on both arches). */
#define TAME_SIGSYS_BIT	((uint64_t)1 << (SIGSYS - 1))	/* with <signal.h> */

/* The kernel's struct sigaction, the same on x86-64 and arm64. */
struct tame_ksigaction {
	uint64_t	 handler, flags, restorer, mask;
};

struct sigaction;
int	tame__install_handler(struct sigaction *);
void	tame__restore_handler(const struct sigaction *);

/*
 * Before the first filter of a single-threaded process: actions set
 * before tame() may block SIGSYS while their handler runs
 * (sigfillset(&sa.sa_mask)), and a trap there, a mask call or
 * siglongjmp() as much as a violation, would kill without the handler:
 * each caught signal's action is set again with SIGSYS out of its mask.
 * All 64 are asked (rt_sigaction: 14 us on the reference VM, against 18
 * to 26 for reading SigCgt from /proc/self/status).  Not with other
 * threads: one could set an action between the read and the write.
 */
void	tame__spare_sigsys(void);
/*
 * A thread that blocks SIGSYS, named on stderr (THREADED processes): it
 * dies of a violation without a line, or (refused) tame() fails EBUSY.
 */
void	tame__warn_blocked_sigsys(int refused);

/*
 * The ways held could be widened to allow one call (path: its path,
 * copied, or NULL): each entry is a set of words that together would
 * do, tame's flags (bit i: the flag 1 << i) or, pledged, pledge's
 * promises (bit i: tame_promises[i]).  Returns how many were stored.
 */
int	tame__missing(tame_atoms held, int pledged, int nr,
	    const uint64_t args[6], const char *path, uint64_t *alts, int max);

/* Load NSS modules the flags will use, while that is still allowed. */
void	tame__warm(tame_atoms held);

/* Descriptor passing (cmsg.c, tame.c). */
int	tame__holds_unix_socket(void);

/* Landlock (landlock.c). */
int	tame__landlock_needed(tame_atoms held);
int	tame__landlock_is_current(tame_atoms held);
int	tame__landlock_prepare(tame_atoms held, int *ruleset_fd);
/* Under a filter, the layer's paths are opened marked (policy.c). */
void	tame__landlock_opens_marked(int on);
int	tame__landlock_domain(tame_atoms held, int *ruleset_fd);
/* The kind of layer tame__landlock_domain() makes, by Landlock ABI. */
enum {
	TAME_DOMAIN_NONE,		/* none: no Landlock, or CPATH on ABI 1 */
	TAME_DOMAIN_SIGNALS,		/* scopes signals */
	TAME_DOMAIN_ABSTRACT_UNIX,	/* scopes abstract AF_UNIX sockets */
	TAME_DOMAIN_TCP,		/* handles TCP bind and connect */
	TAME_DOMAIN_FILES,		/* handles making block devices */
	TAME_DOMAIN_BLOCK,		/* that alone, never REFER: exec held */
};
int	tame__domain_kind(tame_atoms held, int abi);

/* Refuse or undo what acts around the filter (acquired.c). */
int	tame__acquired_check(int single_threaded);
/* The layer last prepared is in force (landlock.c's record of it). */
void	tame__landlock_enforced(void);
/* Enforce a layer on this thread, and (threaded) every other; closes it. */
int	tame__landlock_enforce(int ruleset_fd, int threaded);

/*
 * Every thread but this one enters the layer (threads.c): each sent
 * SIGSYS, whose handler enforces it while a broadcast is active.  0, or
 * -1 with EBUSY (a thread blocks SIGSYS, or did not answer).
 */
int	tame__landlock_enforce_all(int ruleset_fd);
int	tame__broadcast_active(void);
void	tame__broadcast_answer(void);
/* Does the thread of this status file block SIGSYS? */
int	tame__blocks_sigsys(const char *status);

#endif /* TAME_INT_H */
