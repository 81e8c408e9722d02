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
 * The same decisions as a program in buf (at most max instructions),
 * with the emulation stand-in replaced: libseccomp's programs for calls
 * with and without libtame's marker, behind a few instructions that send
 * each call to its side (oracle.c).  Returns the instruction count, or
 * -1.
 */
int	tame_oracle_bpf(tame_atoms held, int landlock_ok,
	    struct sock_filter *buf, int max);

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
