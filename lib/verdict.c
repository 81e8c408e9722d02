/* SPDX-License-Identifier: ISC */
/*
 * verdict.c: what tame() does to one call, decided without making it.
 *
 * The filter decides most calls from the table (tame_policy_match); a
 * call it traps for emulation is decided by the handler on what it reads
 * from memory (tame__trap_allows), and a call the handler refuses falls
 * to the table's later rows, where a soft denial may answer it.  The
 * handler makes these steps as it goes; tame-audit needs the answer for
 * calls it only saw in a trace, and gets it here, from the same pieces.
 */
#include <stdint.h>

#include "policy.h"
#include "tame_int.h"

int
tame__errno_after_trap(int held, int nr, const uint64_t a[6])
{
	int row = tame_policy_match_except(held, nr, a, TAME_ORIGIN(0),
	    TA_EMULATE);

	if (row < 0 || tame_rules[row].action != TA_ERRNO)
		return 0;
	return tame_rules[row].errnum;
}

int
tame__verdict(int held, int nr, const uint64_t a[6],
    const struct tame_seen *seen, int *err)
{
	/* a program's own call: never from libtame's syscall instruction */
	int row = tame_policy_match(held, nr, a, TAME_ORIGIN(seen->pid));

	if (row < 0)
		return TAME_VERDICT_VIOLATION;
	switch (tame_rules[row].action) {
	case TA_ALLOW:
	case TA_LANDLOCK:
	case TA_NOLANDLOCK:
		return TAME_VERDICT_ALLOW;
	case TA_ERRNO:
		*err = tame_rules[row].errnum;
		return TAME_VERDICT_ERRNO;
	case TA_EMULATE:
		if (tame__trap_allows(held, nr, a, seen))
			return TAME_VERDICT_ALLOW;
		if (seen->rights)
			return TAME_VERDICT_VIOLATION;
		if ((*err = tame__errno_after_trap(held, nr, a)) != 0)
			return TAME_VERDICT_ERRNO;
		return TAME_VERDICT_VIOLATION;
	}
	return TAME_VERDICT_VIOLATION;
}
