/* SPDX-License-Identifier: ISC */
/*
 * pledge.c: OpenBSD's pledge(2) over the same table and state as tame().
 *
 * A promise is a named union of the table's atoms (policy.c,
 * tame_promises), so pledge() and tame() narrow one set in one process
 * and every decision the table records holds for both.  OpenBSD's rules:
 * NULL leaves a set as it is, "" leaves only _exit, a word not held is
 * EPERM, an unknown word EINVAL; once "error" is held, a request for
 * more is narrowed to what is held instead of refused.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "policy.h"
#include "tame.h"
#include "tame_int.h"

/* What a process may still promise across exec (pledge's execpromises). */
static tame_atoms exec_held = TAME__ATOMS;

TAME_EXPORT int
pledge(const char *promises, const char *execpromises)
{
	struct tame_request rq = { 0, 0, 1 };
	tame_atoms want = 0, exec_want = 0;

	if ((promises != NULL &&
	    tame__promises_parse(promises, &want, NULL) == -1) ||
	    (execpromises != NULL &&
	    tame__promises_parse(execpromises, &exec_want, NULL) == -1))
		return -1;
	if (execpromises != NULL) {
		if (exec_want & ~exec_held) {
			errno = EPERM;
			return -1;
		}
	}
	if (promises != NULL) {
		/* error: more is not refused, only not given (pledge(2)) */
		if (tame__state.held & TAME__ERROR)
			want &= tame__state.held;
		/* the base set goes with any promise; "" keeps _exit only */
		rq.want = (want != 0 ? want | TAME__BASE : 0) | TAME__ALWAYS;
		if (tame__narrow(&rq) == -1)
			return -1;
	}
	if (execpromises != NULL)
		exec_held = exec_want;
	return 0;
}
