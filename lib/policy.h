/* SPDX-License-Identifier: ISC */
/*
 * policy.h: the one table that is the policy, and what reads it.
 *
 * Each row says: this system call, when one of these flags is held (and
 * all of those), and when its arguments match these masked compares, gets
 * this action.  For one call, the first row that applies decides; a call
 * no row allows is a violation.  The filter compiler, the violation
 * reporter, tame-audit, the man page and the tests all read this table.
 */
#ifndef TAME_POLICY_H
#define TAME_POLICY_H

#include <fcntl.h>
#include <stdint.h>

#include "tame.h"

/*
 * The table's keys are atoms, one bit each in 64: the 13 flags of 2015
 * are named unions of them (tame_flagnames), and so are pledge's
 * promises.  A set of atoms held is what one filter enforces.
 */
typedef uint64_t tame_atoms;

/*
 * Atoms beyond the 13 flags' own bits (TAME_MALLOC .. TAME_PROC, which
 * are atoms too).  Each is one of pledge's promises, or the part of one
 * a 2015 flag also holds, so that a row keyed by it has OpenBSD's
 * meaning under pledge() and, through the flag that holds it
 * (tame_flagnames' atoms), the 2015 meaning under tame().  Under
 * pledge(), TAME_DNSPATH's bit is the promise dns, TAME_IOCTL's tty and
 * TAME_CMSG's sendfd.  An atom no flag holds is granted by pledge() only.
 */
#define TAME__FLOCK	((tame_atoms)1 << 13)	/* locks (RW's) */
#define TAME__FATTR	((tame_atoms)1 << 14)	/* modes, times (WPATH's) */
#define TAME__CHOWN	((tame_atoms)1 << 15)	/* owners (WPATH's) */
#define TAME__DPATH	((tame_atoms)1 << 16)	/* FIFOs (CPATH's) */
#define TAME__RECVFD	((tame_atoms)1 << 17)	/* receive descriptors (CMSG's) */
#define TAME__ID	((tame_atoms)1 << 18)	/* set ids, limits (PROC's) */
#define TAME__REAP	((tame_atoms)1 << 19)	/* wait for children (PROC's;
						   pledge's stdio) */
#define TAME__SETTIME	((tame_atoms)1 << 20)	/* set the clock */
#define TAME__PROT_EXEC	((tame_atoms)1 << 21)	/* executable mappings */
#define TAME__EXEC	((tame_atoms)1 << 22)	/* execve */
#define TAME__UNVEIL	((tame_atoms)1 << 23)	/* unveil() may be called */
#define TAME__TAPE	((tame_atoms)1 << 24)	/* magnetic tape ioctls */
#define TAME__PS	((tame_atoms)1 << 25)	/* other processes' /proc */
#define TAME__VMINFO	((tame_atoms)1 << 26)	/* memory statistics */
#define TAME__MCAST	((tame_atoms)1 << 27)
#define TAME__ROUTE	((tame_atoms)1 << 28)
#define TAME__WROUTE	((tame_atoms)1 << 29)
#define TAME__PF	((tame_atoms)1 << 30)
#define TAME__AUDIO	((tame_atoms)1 << 31)
#define TAME__VIDEO	((tame_atoms)1 << 32)
#define TAME__BPF	((tame_atoms)1 << 33)
#define TAME__DISKLABEL	((tame_atoms)1 << 34)
#define TAME__DRM	((tame_atoms)1 << 35)
#define TAME__VMM	((tame_atoms)1 << 36)
/*
 * error: a violation fails with ENOSYS, after its line, instead of
 * killing.  A mode the filter's fallback reads, not a row's key.
 */
#define TAME__ERROR	((tame_atoms)1 << 37)
/*
 * Pseudo-terminals: pledge's tty opens a pair (OpenBSD's PTMGET, with
 * rpath and wpath) and makes a controlling terminal (forkpty(3)); the
 * 2015 IOCTL flag did neither, and does not hold it.
 */
#define TAME__PTY	((tame_atoms)1 << 38)
/*
 * What OpenBSD's stdio gives beyond the 2015 stdio (kern_pledge.c 1.333):
 * kill(0, sig) to its own process group (pledge_kill), a socket's own
 * and peer's names, SO_RCVBUF and SO_ERROR (pledge_sockopt's "too common
 * to reject").  pledge()'s stdio holds it; under tame() PROC and the
 * socket flags allow those calls in their own rows.
 */
#define TAME__STDIO_OBSD	((tame_atoms)1 << 39)
/*
 * Not a promise: what the filter grants an image exec'd under
 * execpromises before any code of its own runs (its loader's calls;
 * images.c adds it to the execpromises' atoms).
 */
#define TAME__LOADER	((tame_atoms)1 << 40)
/* Every atom: what a process holds before its first tame() or pledge(). */
#define TAME__ATOMS	(((tame_atoms)1 << 40) - 1)

/*
 * Internal bits beside the public flags.  ALWAYS rows apply even under
 * tame(0); BASE rows apply under any nonzero set.  NOUNIX is state, not a
 * flag: the process held no AF_UNIX socket at its first tame() and has
 * made none since, so no descriptor can pass and the message calls need
 * no check.  tame() sets it only at the first call; it is cleared, never
 * set again, when the process creates an AF_UNIX socket (cmsg.c).
 */
#define TAME__NOUNIX	((tame_atoms)1 << 60)
#define TAME__BASE	((tame_atoms)1 << 61)
#define TAME__ALWAYS	((tame_atoms)1 << 62)
/*
 * THREADED is state too: the first tame() found other threads, whose
 * signal masks are their own and may block SIGSYS, so a trapped mask
 * call there would kill without the handler: the mask calls are not
 * trapped in such a process (policy.c, "SIGSYS is never blocked").
 * Set at the first call only, kept by later ones.
 */
#define TAME__THREADED	((tame_atoms)1 << 59)
/*
 * EXECSET is state as well: pledge's execpromises were given (not NULL)
 * while exec is held, and an exec of a set-ID program fails with EACCES
 * and a line, as on OpenBSD: exec traps, and the handler looks first.
 */
#define TAME__EXECSET	((tame_atoms)1 << 58)
/*
 * UNVEILED is state as well: unveil() was locked with paths unveiled.
 * The path calls Landlock does not judge (a stat, a chmod, readlink,
 * O_PATH, a unix connect by path) trap under it: the supervisor checks
 * the path against the rules before it makes the call (policy.c, the
 * UNVEILED rows; sup_unveil.c).  Set by the lock, never cleared.
 */
#define TAME__UNVEILED	((tame_atoms)1 << 57)
/*
 * FREE is not pledged at all: pledge(NULL, execpromises) before any
 * promise (this image), NULL execpromises (the images exec'd), unveil()
 * locked without pledge().  Under it only the rows keyed UNVEILED and
 * the supervisor's apply (tame_rule_applies); any other call is allowed,
 * also those no atom allows (personality, mount...): the kernel and its
 * permissions alone judge them, as if no pledge() ran.
 */
#define TAME__FREE	((tame_atoms)1 << 56)
#define TAME__STATE	(TAME__NOUNIX | TAME__THREADED | TAME__EXECSET | \
			 TAME__UNVEILED)
#define TAME__INTERNAL	(TAME__STATE | TAME__BASE | TAME__ALWAYS)

/* What a matching row does. */
enum tame_action {
	TA_ALLOW,		/* the call proceeds */
	TA_ERRNO,		/* soft denial: fails with .errnum */
	TA_EMULATE,		/* trap; the SIGSYS handler reads what the
				   filter cannot see (a path, a message) and
				   makes the call as the process may make it
				   (a marked call, a descriptor call), has
				   the supervisor make it, or reports a
				   violation */
	TA_LANDLOCK,		/* allow, confined by a Landlock layer;
				   EACCES where no layer confines paths */
	TA_DENY,		/* a violation that stays, whatever the
				   flags: the row only gives the reason
				   (the last row of its call, so the
				   filter is as without it) */
};

/* Argument compares: (arg & mask) is one of the values. */
enum tame_op {
	TC_END,			/* no more conditions */
	TC_IN,
	TC_NULL,		/* a pointer argument, all 64 bits zero */
	TC_NOTNULL,		/* a pointer argument that is not NULL */
	TC_WITHIN,		/* the low 32 bits name no atom the filter's
				   target lacks: of its held atoms, the half
				   val[0] (0: bits 0-31, 1: bits 32-63).  The
				   supervisor's claims (TAME_ASK_NR) */
	TC_SELF,		/* the argument's low 32 bits are the pid of
				   the process the filter is for */
	TC_OWNUID,		/* the low 32 bits are -1 or the process's
				   effective uid (struct tame_ids) */
	TC_OWNGID,		/* -1, its effective gid or one of its
				   supplementary groups */
	TC_UVID,		/* the low 32 bits are the number the
				   supervisor gave the process's unveil
				   rules (struct tame_origin) */
};

#define TAME_MAXVAL	12		/* values one compare may list */
#define TAME_MAXCOND	3
#define TAME_MAXNAME	24		/* a syscall name and its NUL */

/*
 * No pointers anywhere in the tables: a pointer in static data is a
 * relocation in every position-independent program that links libtame,
 * and the dynamic loader writes, so copies, every page holding one
 * before main() runs.  Without them the tables stay read-only, shared
 * with every other process, and cost a fresh process nothing until
 * tame() reads them; strings and value lists are stored inline.
 */
struct tame_cond {
	uint8_t		 op;
	uint8_t		 arg;		/* 0 to 5 */
	uint8_t		 nval;
	uint32_t	 mask;
	uint32_t	 val[TAME_MAXVAL];
};

/* What tame() reads comes first: one cache line a row. */
struct tame_rule {
	int		 nr;		/* native syscall number */
	tame_atoms	 any;		/* one of these atoms must be held */
	tame_atoms	 all;		/* and all of these */
	uint8_t		 action;
	uint8_t		 ncond;
	int16_t		 errnum;	/* for TA_ERRNO */
	struct tame_cond cond[TAME_MAXCOND];
	char		 name[TAME_MAXNAME];
	char		 why[64];	/* one line, for the man page and reports */
};

extern const struct tame_rule	tame_rules[];
extern const int		tame_nrules;

/*
 * The paths each path-gated flag may touch, and how.  A Landlock layer
 * confines the process to them; the SIGSYS handler checks a trapped
 * call's path against them first, so that any other path is a violation
 * rather than EACCES.
 */
enum tame_lpath_right {			/* each holds those before it */
	TL_READ = 1,			/* read files, list directories */
	TL_RW = 2,			/* and write, truncate files there */
	TL_FULL = 3,			/* and create, remove */
};

struct tame_lpath {
	tame_atoms	 flag;		/* TAME__BASE, TAME_GETPW, ... */
	int		 rights;
	char		 path[40];
	int		 loader;	/* 1: the dynamic loader's files, which
					   a name service's flags grant only so
					   that a module loaded late fails
					   gently: reading them is no sign that
					   the name service was used (ar's
					   plugins: tame-audit's
					   decide_name_services) */
};

extern const struct tame_lpath	tame_lpaths[];
extern const int		tame_nlpaths;

/*
 * Public flag names, in table order, what each one implies, and the
 * atoms it is the union of (with those of what it implies).
 */
struct tame_flagname {
	char		 name[8];
	int		 flag;
	int		 implies;
	tame_atoms	 atoms;
	char		 what[48];
};

extern const struct tame_flagname tame_flagnames[];
extern const int		tame_nflagnames;

/*
 * pledge()'s promises, as OpenBSD's pledge(2) lists them, each the
 * union of its atoms; here says what it grants on Linux where that differs
 * from OpenBSD (pledge(3) prints it).
 */
struct tame_promise {
	char		 name[12];
	tame_atoms	 atoms;
	char		 what[56];
	char		 here[96];
};

extern const struct tame_promise tame_promises[];
extern const int		tame_npromises;

/* Every atom a promise names: the state before the first pledge(). */
tame_atoms	tame_promise_atoms_all(void);

/*
 * The open flags that decide what an open may do: the access mode,
 * creating, truncating, the kernel's tmpfile bit alone (glibc's O_TMPFILE
 * also holds O_DIRECTORY, and masking with it would refuse opendir()),
 * and O_PATH, so that a path-only open is a lookup whatever access mode
 * it names.  O_CLOEXEC, O_NONBLOCK, O_DIRECTORY, O_NOFOLLOW, O_APPEND,
 * O_EXCL and O_LARGEFILE change nothing here and pass.
 */
#define TAME_TMPFILE_BIT	020000000
#define TAME_OPEN_BITS	(O_ACCMODE | O_CREAT | O_TRUNC | \
			 TAME_TMPFILE_BIT | O_PATH)

/* Data codes in SECCOMP_RET_DATA of a trap, read back by the handler. */
#define TAME_TRAP_REPORT	0
#define TAME_TRAP_EMULATE	1

/*
 * The marker of the calls libtame makes for a trapped call, in an
 * argument register the call does not use: the rows that let a marked
 * call through (policy.c, MARKED) do so because the kernel still judges
 * it (a Landlock layer), or because it harms no one but the caller (a
 * signal mask that blocks SIGSYS only ends the next violation without
 * its line).  Any code in the process can set it; no row may count on
 * it for anything more.
 */
#define TAME_MARK	0x74616d65u		/* "tame" */

/*
 * The supervisor's system call: a number no kernel gives a call (libtame
 * allows it to any nonzero set, the supervisor's filter sends it to the
 * supervisor, SECCOMP_RET_USER_NOTIF; without a supervisor the kernel
 * answers ENOSYS).  Its arguments: the request, and the atoms the caller
 * claims to hold in two halves, which every filter of the process checks
 * against what it holds (TC_WITHIN): the supervisor never grants more
 * than the filters say the caller holds (supervisor.h).
 */
#define TAME_ASK_NR		1000

/* Flags plus everything they imply, plus BASE/ALWAYS, as atoms. */
tame_atoms	tame_expand(int flags);

/*
 * The ids TC_OWNUID and TC_OWNGID rows compare with: pledge's fattr may
 * give a file to its own user and groups (OpenBSD's pledge_chown()).  A
 * process in more groups than fit is refused the rest (EPERM), never
 * granted a group it is not in.
 */
#define TAME_MAXGIDS	32

struct tame_ids {
	uint32_t	 uid;		/* effective */
	int		 ngid;
	uint32_t	 gid[TAME_MAXGIDS];	/* effective, then groups */
};

/* This process's ids, read through libtame's gate (async-signal-safe). */
void	tame__own_ids(struct tame_ids *);

/*
 * What the rows that ask about the process compare with: pid its own pid
 * (TC_SELF rows; 0: they never match), ids its ids (TC_OWNUID/TC_OWNGID
 * rows; NULL: they never match).  No row asks where a call comes from:
 * any code of the process can make any call from anywhere.
 */
struct tame_origin {
	int			 pid;
	const struct tame_ids	*ids;
	tame_atoms		 held;	/* TC_WITHIN: set by the matcher */
	uint32_t		 uvid;	/* TC_UVID: its unveil rules */
};

/* A call of process pid (with its ids). */
#define TAME_ORIGIN(pid)	(&(struct tame_origin){ (pid), NULL, 0, 0 })
#define TAME_ORIGIN_IDS(pid, ids) \
	(&(struct tame_origin){ (pid), (ids), 0, 0 })

/*
 * Decide one call as the compiled filter would: the first applicable row
 * whose conditions hold.  args are the raw 64-bit registers.  Returns the
 * row index, or -1 for a violation.
 */
int	tame_policy_match(tame_atoms held, int nr, const uint64_t args[6],
	    const struct tame_origin *);

/* The same, passing over rows with action except (a trap refused). */
int	tame_policy_match_except(tame_atoms held, int nr, const uint64_t args[6],
	    const struct tame_origin *, int except);

/* Does one row's argument test hold? */
int	tame_rule_args_match(const struct tame_rule *,
	    const uint64_t args[6], const struct tame_origin *);

/* Does a TC_OWNUID or TC_OWNGID compare hold for the value v? */
static inline int
tame_owns_id(int op, const struct tame_ids *ids, uint32_t v)
{
	int i;

	if (ids == NULL)
		return 0;
	if (v == (uint32_t)-1)
		return 1;		/* "leave it as it is" */
	if (op == TC_OWNUID)
		return v == ids->uid;
	for (i = 0; i < ids->ngid; i++)
		if (v == ids->gid[i])
			return 1;
	return 0;
}

/*
 * Does the row let through only libtame's own marked calls (MARKED in
 * policy.c: an argument compared with TAME_MARK alone)?  A program's
 * call never carries the marker, so such a row decides nothing a
 * program does: the man page and the auditor pass over it.
 */
static inline int
tame_rule_marked(const struct tame_rule *r)
{
	int k;

	for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++)
		if (r->cond[k].op == TC_IN && r->cond[k].nval == 1 &&
		    r->cond[k].mask == 0xffffffffu &&
		    r->cond[k].val[0] == TAME_MARK)
			return 1;
	return 0;
}

/* Set-ID and sticky bits of a mode, which pledge clears (setid.c). */
#define TAME_SETID_BITS		07000u

/*
 * Is the row one of those that trap a mode with them (policy.c, the
 * set-ID rows)?  They decide no call: its bits go, and the rows after
 * decide.  The violation line and tame-audit pass over them.
 */
static inline int
tame_rule_setid(const struct tame_rule *r)
{
	int k;

	for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++)
		if (r->cond[k].op == TC_IN &&
		    r->cond[k].mask == TAME_SETID_BITS)
			return 1;
	return 0;
}

/*
 * Is the row applicable under held (expanded) flags?  Not pledged
 * (FREE), only unveil's rows and the supervisor's request apply.
 */
static inline int
tame_rule_applies(const struct tame_rule *r, tame_atoms held)
{
	if (held & TAME__FREE)		/* every atom, in effect */
		return (r->nr == TAME_ASK_NR || (r->all & TAME__UNVEILED)) &&
		    (held & r->all & TAME__UNVEILED) ==
		    (r->all & TAME__UNVEILED);
	return (held & r->any) != 0 && (held & r->all) == r->all;
}

/*
 * Can some set of tame()'s flags reach the row: hold its atoms, and no
 * earlier row of its call without argument tests takes its calls first?
 * (fattr's chown to itself stands behind chown's row, and wpath holds
 * both.)  The rows it cannot reach are pledge()'s alone: tame(3) leaves
 * them out, pledge(3) lists them.
 */
int	tame_rule_tame_reaches(const struct tame_rule *);

/* The name of a native syscall number, or NULL. */
const char	*tame_syscall_name(int nr);
int		 tame_syscall_number(const char *name);
int		 tame_syscall_max(void);

#endif /* TAME_POLICY_H */
