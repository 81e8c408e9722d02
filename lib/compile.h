/* SPDX-License-Identifier: ISC */
/*
 * compile.h: the policy table compiled to a classic-BPF seccomp program.
 */
#ifndef TAME_COMPILE_H
#define TAME_COMPILE_H

#include <linux/filter.h>
#include <stdint.h>

#include "policy.h"

#define TAME_MAXINSN	4096		/* BPF_MAXINSNS */

/*
 * Where a program holds the values of the process it was compiled for:
 * the pid (TC_SELF rows).  They are only the constants of compares,
 * never a jump, so a program compiled for another process (at build
 * time: tame__precompiled) becomes this one's by rewriting them.
 */
enum tame_reloc_kind {
	TAME_RELOC_PID,
};

struct tame_reloc {
	uint16_t	 at;		/* instruction index */
	uint16_t	 kind;		/* enum tame_reloc_kind */
};

#define TAME_MAXRELOC	128		/* 1 per TC_SELF row */

struct tame_prog {
	int			 len;		/* first: in the page of insn[0] */
	int			 changed;	/* numbers a delta answers anew */
	int			 nreloc;
	struct tame_reloc	 reloc[TAME_MAXRELOC];
	struct sock_filter	 insn[TAME_MAXINSN];
};

/*
 * A filter compiled at build time (tools/precompile.c): a first filter,
 * or a delta over the first filter of prev_held (the same process, both
 * with Landlock available).
 */
#define TAME_PRE_FIRST	((tame_atoms)-1)		/* prev_held of a first filter */

struct tame_precompiled {
	tame_atoms	 prev_held;
	tame_atoms	 held;		/* tame_target's */
	int		 landlock_ok;
	int		 changed;	/* tame_prog's */
	uint16_t	 len, nreloc;
	uint32_t	 insn_at;	/* in tame__precompiled_insn */
	uint32_t	 reloc_at;	/* in tame__precompiled_reloc */
};

/*
 * Offsets, not pointers: a table of pointers would be relocated, and so
 * written and copied, by the dynamic loader in every process that links
 * libtame (tests/cli/relocs.sh).
 */
extern const struct tame_precompiled	tame__precompiled[];
extern const int			tame__nprecompiled;
extern const struct sock_filter		tame__precompiled_insn[];
extern const struct tame_reloc		tame__precompiled_reloc[];

/* Everything that decides what one compiled filter does. */
struct tame_target {
	tame_atoms	 held;		/* expanded flags (tame_expand) */
	int		 landlock_ok;	/* 1: a Landlock layer judges the
					   marked opens (TA_LANDLOCK rows);
					   0: none does, the supervisor
					   opens granted paths; 2: none,
					   after a filter that relied on one */
	int		 pid;		/* the process it is for (TC_SELF
					   rows); 0: those rows never match */
	const struct tame_ids *ids;	/* its ids (TC_OWNUID/TC_OWNGID
					   rows); NULL: those never match.
					   Constants never relocated: tame's
					   sets never reach those rows, and
					   pledge's are never precompiled */
	/*
	 * pledge's exec held: the process's filters go with it into every
	 * image it execs, which execpromises judge (exec_held; every atom
	 * for NULL).  A filter then answers a call for both kinds of image
	 * alike where their sets agree, and sends it to the supervisor
	 * where they do not (split TAME_SPLIT_FIRST: the supervisor's own
	 * filter, which alone may); a later one (TAME_SPLIT_LATER) lets
	 * such a call through to it, and where the first filter told them
	 * apart no more, answers as the narrower of the two (compile.c).
	 * pid is 0 then: "itself" is the caller, whom only the supervisor
	 * knows.
	 */
	int		 split;
	tame_atoms	 exec_held;
	tame_atoms	 split_held;	/* LATER: the first split's two sets */
	tame_atoms	 split_exec;
	uint32_t	 uvid;		/* TC_UVID: the supervisor's number of
					   its unveil rules (UNVEILED held) */
};

/*
 * The atoms of an image not pledged at all (policy.h, TAME__FREE): this
 * one after pledge(NULL, execpromises), the images exec'd under NULL
 * execpromises.  UNVEILED may go with it (unveil() locked unpledged).
 */
#define TAME_UNRESTRICTED	(TAME__FREE | TAME__BASE | TAME__ALWAYS)

static inline int
tame_unrestricted(tame_atoms held)
{
	return (held & TAME__FREE) != 0;
}

enum {
	TAME_SPLIT_NONE,
	TAME_SPLIT_FIRST,
	TAME_SPLIT_LATER,
};

/*
 * Compile the filter for next.  With prev not NULL, the filter is a delta
 * that narrows what the filter compiled for prev already decides: calls
 * both decide alike are allowed at once, since the older filter still
 * runs; out->changed counts the numbers whose answer the delta changes
 * (0: nothing to install).  Returns 0, or -1 with errno E2BIG when the
 * program would not fit.
 */
int	tame_compile(const struct tame_target *next,
	    const struct tame_target *prev, struct tame_prog *out);

/* Rewrite p's process values for this pid. */
void	tame_prog_relocate(struct tame_prog *p, int pid);

/*
 * As tame_compile(), but where the build precompiled the program for
 * next (and prev), it is copied and relocated instead (lib/prebuilt.c):
 * the same program.
 */
int	tame_compile_fast(const struct tame_target *next,
	    const struct tame_target *prev, struct tame_prog *out);

/* The precompiled program for next over prev (NULL: first), or NULL. */
const struct tame_precompiled *tame_precompiled_find(
	    const struct tame_target *next, const struct tame_target *prev);

struct tame_rule;

/*
 * What a row means as a seccomp return value, and what a call no row
 * allows gets: the one mapping the compiler, the oracle and the tests use.
 */
uint32_t tame_rule_ret(const struct tame_rule *, tame_atoms held,
	    int landlock_ok);
uint32_t tame_violation_ret(tame_atoms held);

/* The action a compiled program returns for one call (a BPF run). */
uint32_t tame_bpf_run(const struct tame_prog *, uint32_t arch, int nr,
	    const uint64_t args[6], uint64_t ip);

uint32_t tame_bpf_run_raw(const struct sock_filter *, int len, uint32_t arch,
	    int nr, const uint64_t args[6], uint64_t ip);

/* For tests only: plan with jumps of at most n (32 to 255) instructions. */
void	tame__compile_jump_reach(int n);

/* The audit architecture this library filters for. */
uint32_t tame_audit_arch(void);

#endif /* TAME_COMPILE_H */
