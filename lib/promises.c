/* SPDX-License-Identifier: ISC */
/*
 * promises.c: pledge's promise words to the table's atoms (policy.c,
 * tame_promises).  Apart from pledge.c so that tame-exec -p, which is
 * static and carries only the table, checks a list as pledge() will.
 */
#include <errno.h>
#include <string.h>

#include "policy.h"
#include "tame_int.h"

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
 * does not know, with *bad at it when bad is not NULL.  Case matters,
 * as on OpenBSD.  tame-exec -p checks its list with it.
 */
int
tame__promises_parse(const char *s, tame_atoms *out, const char **bad)
{
	tame_atoms atoms = 0, a;
	size_t len;

	for (;;) {
		s += strspn(s, SEPARATORS);
		if (*s == '\0')
			break;
		len = strcspn(s, SEPARATORS);
		if ((a = promise_atoms(s, len)) == 0) {
			if (bad != NULL)
				*bad = s;
			errno = EINVAL;
			return -1;
		}
		atoms |= a;
		s += len;
	}
	*out = atoms;
	return 0;
}
