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

#include "compile.h"
#include "policy.h"
#include "tame.h"
#include "tame_int.h"

TAME_EXPORT int
pledge(const char *promises, const char *execpromises)
{
	struct tame_request rq = { 0, 0, 1, tame__state.exec_null,
	    tame__state.exec_held, 0 };
	tame_atoms want = 0, exec_want = 0;

	if ((promises != NULL &&
	    tame__promises_parse(promises, &want, NULL) == -1) ||
	    (execpromises != NULL &&
	    tame__promises_parse(execpromises, &exec_want, NULL) == -1))
		return -1;
	if (execpromises != NULL) {
		exec_want = (exec_want != 0 ? exec_want | TAME__BASE : 0) |
		    TAME__ALWAYS;
		if (exec_want & ~tame__state.exec_held) {
			errno = EPERM;	/* execpromises only narrow too */
			return -1;
		}
		rq.exec_changed = tame__state.exec_null ||
		    exec_want != tame__state.exec_held;
		rq.exec_null = 0;
		rq.exec_held = exec_want;
	}
	if (promises == NULL)
		want = tame__state.held & ~TAME__STATE;
	else {
		/* error: more is not refused, only not given (pledge(2)) */
		if (tame__state.held & TAME__ERROR)
			want &= tame__state.held;
		/* the base set goes with any promise; "" keeps _exit only */
		want = (want != 0 ? want | TAME__BASE : 0) | TAME__ALWAYS;
	}
	/*
	 * Before any promise, execpromises alone leave this image as it is
	 * (not pledged) and confine the images it execs (pledge(2)): a
	 * filter for both kinds of image, of which this one is refused
	 * nothing.
	 */
	if (promises == NULL && !tame__state.tamed && execpromises != NULL) {
		rq.want = TAME_UNRESTRICTED;
		return tame__narrow(&rq);
	}
	/* execpromises without exec: kept, for nothing can exec */
	if (promises == NULL && (!tame__state.tamed ||
	    !(tame__state.held & TAME__EXEC))) {
		tame__state.exec_null = rq.exec_null;
		tame__state.exec_held = rq.exec_held;
		return 0;
	}
	if (promises == NULL && !rq.exec_changed)
		return 0;
	rq.want = want;
	return tame__narrow(&rq);
}
