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

/*
 * OpenBSD separates promises with spaces; tabs and newlines are taken
 * as spaces too, as a shell-quoted list may carry them.
 */
#define SEPARATORS	" \t\n"

static tame_atoms
promise_atoms(const char *word, size_t len)
{
	int i;

	for (i = 0; i < tame_npromises; i++)
		if (strlen(tame_promises[i].name) == len &&
		    memcmp(tame_promises[i].name, word, len) == 0)
			return tame_promises[i].atoms;
	return 0;
}

/*
 * The atoms of a promise list, or -1 (EINVAL) for a word pledge(2)
 * does not know.  Case matters, as on OpenBSD.
 */
static int
parse(const char *s, tame_atoms *out)
{
	tame_atoms atoms = 0, a;
	size_t len;

	for (;;) {
		s += strspn(s, SEPARATORS);
		if (*s == '\0')
			break;
		len = strcspn(s, SEPARATORS);
		if ((a = promise_atoms(s, len)) == 0) {
			errno = EINVAL;
			return -1;
		}
		atoms |= a;
		s += len;
	}
	*out = atoms;
	return 0;
}

TAME_EXPORT int
pledge(const char *promises, const char *execpromises)
{
	struct tame_request rq = { 0, 0, 1 };
	tame_atoms want = 0, exec_want = 0;

	if ((promises != NULL && parse(promises, &want) == -1) ||
	    (execpromises != NULL && parse(execpromises, &exec_want) == -1))
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
