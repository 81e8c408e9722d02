/* SPDX-License-Identifier: ISC */
/*
 * expect.h: what the policy table says a filter must answer, as a
 * seccomp return value.  t_oracle.c compares the compiled program and
 * libseccomp's against it; tests/fuzz/fuzz_compile.c compares the
 * compiled program for random flag sets, stacks and tuples.  One copy,
 * so that the two can never disagree on what "right" is.
 */
#ifndef TESTS_EXPECT_H
#define TESTS_EXPECT_H

#include <stdint.h>

/*
 * A row's answer under (held, landlock_ok); row -1 is a violation, which
 * under TAME__FREE (not pledged) is allowed.
 */
uint32_t expect_row_ret(int row, tame_atoms held, int landlock_ok);

/*
 * The pid the filters under test were compiled for (tame_target.pid),
 * which rows for signals to self compare with; 0 (the default): those
 * rows never match.
 */
extern int expect_pid;
extern const struct tame_ids *expect_ids;	/* TC_OWNUID/GID's; NULL */
extern uint32_t expect_uvid;			/* TC_UVID's; 0 */

/*
 * One filter for (held, landlock_ok): the prologue as specified (foreign
 * architectures and, on x86-64, x32 numbers die), then the first row of
 * the table that matches.
 */
uint32_t expect_ret(tame_atoms held, int landlock_ok, uint32_t arch, int nr,
	    const uint64_t args[6]);

/*
 * Several filters as the kernel runs them (rets[0] the oldest): the most
 * severe action wins; on equal actions the newest filter's data stays.
 */
uint32_t expect_stack(const uint32_t *rets, int n);

/*
 * Where a stack may rightly answer otherwise than its newest filter
 * alone: a trap from an older filter where the newest soft-denies is
 * answered by the handler from the current flags, with the errno.
 */
int	expect_handler_decides(uint32_t stacked, uint32_t newest);

#endif /* TESTS_EXPECT_H */
