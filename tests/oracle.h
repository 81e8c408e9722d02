/* SPDX-License-Identifier: ISC */
/*
 * oracle.h: the policy table built through libseccomp, as a second
 * opinion on lib/compile.c.  Not part of libtame: only the tests link it,
 * with libseccomp (pkg-config libseccomp, 2.5.4 or later).
 */
#ifndef TAME_ORACLE_H
#define TAME_ORACLE_H

#include <linux/filter.h>
#include <stdint.h>

#include "policy.h"

#include <seccomp.h>

/*
 * libseccomp 2.5.4 refuses SCMP_ACT_TRAP with data, and the emulation
 * trap is SECCOMP_RET_TRAP | TAME_TRAP_EMULATE.  Contexts carry this
 * stand-in (an action nothing else in the table uses) where the table
 * says TA_EMULATE; tame_oracle_bpf() turns each RET of it back into the
 * real trap after export.  Only the returned value changes, never a
 * jump: the decision is libseccomp's.
 */
#define TAME_ORACLE_EMULATE	SCMP_ACT_TRACE(0x7e31)

/* The layout asked of libseccomp (SCMP_FLTATR_CTL_OPTIMIZE): a tree. */
#define TAME_ORACLE_OPTIMIZE	2

/*
 * A filter context for the expanded flags held, deciding every call as
 * the first filter tame_compile() makes for them.  Returns NULL on
 * failure.  Release with seccomp_release().  One context is large where
 * libtame's marked rows apply (oracle.c): tame_oracle_bpf() is the one
 * to run many times.
 */
scmp_filter_ctx	tame_oracle_ctx(tame_atoms held, int landlock_ok);

/*
 * The pid that rows comparing with the process's own pid (TC_SELF) name
 * in the contexts made from now on, as tame_target.pid does for
 * tame_compile(); 0 (the default): those rows never match.
 */
void	tame_oracle_set_pid(int pid);

/*
 * The ids that rows for a chown to the caller's own user and groups
 * (TC_OWNUID, TC_OWNGID) name, as tame_target.ids does; NULL (the
 * default): those rows never match.
 */
void	tame_oracle_set_ids(const struct tame_ids *ids);

/*
 * The number that rows for the supervisor's request naming the
 * process's unveil rules (TC_UVID) compare with, as tame_target.uvid
 * does; 0 by default.
 */
void	tame_oracle_set_uvid(uint32_t uvid);

/*
 * The same decisions as a program in buf (at most max instructions),
 * with the emulation stand-in replaced: libseccomp's programs for calls
 * with and without libtame's marker, behind a few instructions that send
 * each call to its side (oracle.c).  Returns the instruction count, or
 * -1.
 */
int	tame_oracle_bpf(tame_atoms held, int landlock_ok,
	    struct sock_filter *buf, int max);

struct tame_target;

/*
 * The same for any target of the compiler (compile.h), with its pid, ids
 * and uvid rather than those set above: an exec split's too, whose
 * answer is made of its two sets' answers as tame_oracle_split_answer()
 * says.  The count, or -1.
 */
int	tame_oracle_target_bpf(const struct tame_target *,
	    struct sock_filter *buf, int max);

/*
 * An exec split's answer for a call of nr (compile.h): the held set's
 * first applicable row that matches row_a (-1: none) answering ra, the
 * exec set's answering re, claims compared with tame_oracle_split_within
 * (either set's atoms); routed as tame_oracle_split_pair_routed() says
 * for a later split.
 */
uint32_t tame_oracle_split_answer(const struct tame_target *, int nr,
	    int row_a, uint32_t ra, uint32_t re, int routed);
tame_atoms tame_oracle_split_within(const struct tame_target *);

/*
 * A later split: are the calls of nr whose first matching rows are
 * row_a of the held set and row_e of the exec set (-1: none) routed,
 * that is, does the first split (split_held, split_exec) send each of
 * them to the supervisor, as compile.c decides it from the rows' words
 * (oracle.c: exactly as conservative)?  1, 0, or -errno (-EINVAL: a row
 * no call of the target matches).  0 for any other target.
 */
int	tame_oracle_split_pair_routed(const struct tame_target *, int nr,
	    int row_a, int row_e);

/*
 * What a row answers (row -1: none does) under held: as tame_rule_ret(),
 * except that under TAME__FREE no call is a violation, and a TA_DENY
 * row answers the violation.
 */
uint32_t tame_oracle_rule_ret(int row, tame_atoms held, int landlock_ok);
uint32_t tame_oracle_violation(tame_atoms held);

/*
 * Is this call one on which libseccomp's program is known to differ from
 * the compiled one by design, not by policy?  The only such call is
 * nr == -1 on the native x86-64 architecture: libseccomp's own x32 check
 * lets it through to the default action, tame_compile() kills it with the
 * rest of the x32 range.  Comparisons skip these tuples and count them.
 */
int	tame_oracle_excluded(uint32_t arch, int nr);

/* How many libseccomp rules the last context built took (for reports). */
int	tame_oracle_nrules(void);

/*
 * Each distinct tame_expand() of the flag sets 0..TAME_ALL once, in flag
 * order, each also with the NOUNIX state where a first tame() could set
 * it: the compiler only ever sees these.  out needs room for
 * 2 * (TAME_ALL + 1).  Returns how many.
 */
int	tame_oracle_distinct_helds(tame_atoms *out);

/* held with NOUNIX added where a first tame() may add it. */
tame_atoms tame_oracle_nounix(tame_atoms held);

#endif /* TAME_ORACLE_H */
