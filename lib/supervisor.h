/* SPDX-License-Identifier: ISC */
/*
 * supervisor.h: the supervisor, a process outside every filter that
 * makes the calls neither a filter nor a Landlock layer can decide.
 *
 * A seccomp filter sees registers; a Landlock layer judges opens, not a
 * stat, a chmod or an attribute's name; code inside the process can
 * forge any register and rewrite any of its memory between a look and
 * a call.  So what needs a look at memory is made by another process:
 * the supervisor, forked at the first narrowing that needs one, before
 * any filter, and so outside all of them.  The filter sends it calls by
 * SECCOMP_RET_USER_NOTIF: the process's own requests (TAME_ASK_NR, from
 * the SIGSYS handler, for a trapped call) and, where pledge's exec is
 * held, the calls the promises and execpromises answer differently,
 * every exec and every fork.  It reads what a call points at once, into
 * its own memory, decides by the same table, and makes the call from
 * its copy, in the caller's place (its working directory, root,
 * descriptors and ids): an open's descriptor is handed in with
 * SECCOMP_IOCTL_NOTIF_ADDFD.  It serves every process of the tree (a
 * fork keeps the filter), ends with the last of them, and if it dies
 * every call it would have answered fails (ENOSYS).
 *
 * A request claims the atoms its caller holds; every filter of the
 * caller checks the claim against its own (policy.c, tame_ask), so the
 * supervisor grants nothing beyond what the filters say is held.
 */
#ifndef TAME_SUPERVISOR_H
#define TAME_SUPERVISOR_H

#include <stdint.h>

#include "policy.h"

/* What a request asks (TAME_ASK_NR's first argument). */
enum tame_ask_op {
	TAME_ASK_HELLO = 1,	/* is a supervisor there?  Its version */
	TAME_ASK_CALL,		/* make this trapped call, as held allows */
	TAME_ASK_NARROW,	/* the caller now holds less (pledge, tame) */
	TAME_ASK_UNVEIL,	/* keep these unveil rules: their number */
};

#define TAME_ASK_VERSION	1

/*
 * A verdict beside TAME_VERDICT_* (tame_int.h): the call would have
 * waited (a full socket the caller blocks on); the supervisor never
 * waits for a caller, so the handler waits itself, then asks again.
 */
#define TAME_ASK_AGAIN		16

/* A request, in the caller's memory; the supervisor copies it once. */
struct tame_ask {
	int32_t		 nr;		/* CALL: the call */
	int32_t		 verdict;	/* written back: TAME_VERDICT_* */
	uint64_t	 a[6];		/* CALL: its arguments */
	uint64_t	 exec_held;	/* NARROW: execpromises' atoms */
	int32_t		 exec_null;	/* NARROW: execpromises NULL */
	int32_t		 reserved;
	uint64_t	 need;		/* VIOLATION: the atoms that would do */
	char		 detail[48];	/* VIOLATION: what it saw, or "" */
};

/*
 * Ask the supervisor; q->verdict says how it answered.  Returns the
 * call's result or -errno; -ENOSYS where no supervisor serves.
 */
long	tame__ask(int op, struct tame_ask *q);

/*
 * Tell the supervisor the process now holds held (and, exec_null 0,
 * these execpromises): where it tracks images (an exec tree), it judges
 * this process by them from now on.  Only ever narrows.
 */
long	tame__ask_narrow(tame_atoms held, int exec_null, tame_atoms exec_held);

/*
 * Give the supervisor the rules unveil() is about to lock; their number
 * (TC_UVID), which the caller's next filter names, or -errno.
 */
struct tame_unveil_rules;
long	tame__ask_unveil(const struct tame_unveil_rules *);

/* Does a supervisor serve this process? */
int	tame__supervised(void);

/*
 * Start the supervisor (sup_start.c), at the first narrowing that needs
 * one: fork it before the process enters a Landlock domain (it must stay
 * outside, beyond the reach of what it serves), then, after
 * no_new_privs and right before the policy's filter, put its filter in
 * and hand it the listener.  Each 0, or -1 with errno; on failure, or
 * abort, no supervisor runs, and the filter that may have gone in lets
 * every call through.
 */
int	tame__supervisor_fork(void);
struct tame_prog;
/* policy NULL: a filter of its own; else policy is the listening filter */
int	tame__supervisor_handoff(const struct tame_prog *policy);
void	tame__supervisor_abort(void);

/* What the supervisor serves, set before tame__supervisor_fork(). */
struct tame_sup_config {
	int		 split;		/* an exec tree: images tracked */
	tame_atoms	 held;		/* the pledger's atoms */
	tame_atoms	 exec_held;	/* its execpromises' */
	int		 exec_null;
	uint32_t	 uvid;		/* 1: the lock of the rules it was
					   forked with is under way */
};

/* The number the rules a supervisor was forked with get (uvid). */
#define TAME_UVID_FIRST		1
extern struct tame_sup_config tame__sup_config;

/* The supervisor's loop (sup_loop.c), in the forked child: no return. */
void	tame__supervise(int listener, int pledger)
	    __attribute__((noreturn));

#endif /* TAME_SUPERVISOR_H */
