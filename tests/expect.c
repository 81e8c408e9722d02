/* SPDX-License-Identifier: ISC */
/*
 * expect.c: the answer the table gives, as a seccomp return value (see
 * expect.h).  Shared by t_oracle.c and the compiler's fuzz target.
 */
#include <linux/audit.h>
#include <linux/seccomp.h>

#include <stdint.h>

#include "compile.h"
#include "expect.h"
#include "policy.h"

#define X32_BIT		0x40000000

int expect_pid;
const struct tame_ids *expect_ids;
uint32_t expect_uvid;

/*
 * Not pledged (policy.h, TAME__FREE), no call is a violation: the
 * kernel alone judges what no row decides.  A TA_DENY row only names a
 * violation's reason, and answers as the violation.
 */
uint32_t
expect_row_ret(int row, tame_atoms held, int landlock_ok)
{
	if (row < 0 || tame_rules[row].action == TA_DENY)
		return (held & TAME__FREE) ? SECCOMP_RET_ALLOW :
		    tame_violation_ret(held);
	return tame_rule_ret(&tame_rules[row], held, landlock_ok);
}

uint32_t
expect_ret(tame_atoms held, int landlock_ok, uint32_t arch, int nr,
    const uint64_t args[6])
{
	if (arch != tame_audit_arch())
		return SECCOMP_RET_KILL_PROCESS;
#ifdef __x86_64__
	if ((uint32_t)nr >= X32_BIT)
		return SECCOMP_RET_KILL_PROCESS;
#endif
	return expect_row_ret(tame_policy_match(held, nr, args,
	    &(struct tame_origin){ expect_pid, expect_ids, 0, expect_uvid }),
	    held, landlock_ok);
}

/* Severity is the action compared as a signed number (seccomp(2)). */
uint32_t
expect_stack(const uint32_t *rets, int n)
{
	uint32_t ret = SECCOMP_RET_ALLOW;
	int i;

	for (i = n - 1; i >= 0; i--)
		if ((int32_t)(rets[i] & SECCOMP_RET_ACTION_FULL) <
		    (int32_t)(ret & SECCOMP_RET_ACTION_FULL))
			ret = rets[i];
	return ret;
}

/* See handler.c: current_answer. */
int
expect_handler_decides(uint32_t stacked, uint32_t newest)
{
	return stacked == (SECCOMP_RET_TRAP | TAME_TRAP_EMULATE) &&
	    (newest & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO;
}
