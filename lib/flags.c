/* SPDX-License-Identifier: ISC */
/*
 * flags.c: flag names, both ways, from the table in policy.c.
 *
 * These take what users type (tame-exec -f, tame-audit -f) and what
 * callers pass, so they check what they are given: a NULL where the
 * result goes, or a NULL buffer with room claimed, is EINVAL, never a
 * crash.  The parser reads the string up to its NUL and not a byte
 * further (tests/t_badinput.c puts it against an unmapped page).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "policy.h"
#include "tame.h"
#include "tame_int.h"

#define SEPARATORS	", \t\n|"
#define STR(x)		#x
#define VERSION(a, b, c) STR(a) "." STR(b) "." STR(c)

/* The name of a flag value that has one: a single flag, or stdio. */
TAME_EXPORT const char *
tame_flag_name(int flag)
{
	int i;

	for (i = 0; i < tame_nflagnames; i++)
		if (tame_flagnames[i].flag == flag)
			return tame_flagnames[i].name;
	return NULL;
}

static int
lookup(const char *word, size_t len)
{
	int i;

	if (len > 5 && strncasecmp(word, "TAME_", 5) == 0) {
		word += 5;
		len -= 5;
	}
	for (i = 0; i < tame_nflagnames; i++)
		if (strlen(tame_flagnames[i].name) == len &&
		    strncasecmp(tame_flagnames[i].name, word, len) == 0)
			return tame_flagnames[i].flag;
	return -1;
}

TAME_EXPORT int
tame_flags_parse(const char *s, int *flags, const char **bad)
{
	size_t len;
	int f, acc = 0;

	if (s == NULL || flags == NULL) {
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		s += strspn(s, SEPARATORS);
		if (*s == '\0')
			break;
		len = strcspn(s, SEPARATORS);
		if ((f = lookup(s, len)) == -1) {
			if (bad != NULL)
				*bad = s;
			errno = EINVAL;
			return -1;
		}
		acc |= f;
		s += len;
	}
	*flags = acc;
	return 0;
}

TAME_EXPORT int
tame_flags_name(int flags, char *buf, size_t len)
{
	const char *sep = "";
	size_t n = 0;
	int i, f, left = flags;

	/* as snprintf: buf may be NULL only where there is no room */
	if ((flags & ~TAME_ALL) != 0 || (buf == NULL && len > 0)) {
		errno = EINVAL;
		return -1;
	}
	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < tame_nflagnames; i++) {
		f = tame_flagnames[i].flag;
		if ((left & f) != f)
			continue;
		/* stdio stands for malloc+rw; print the composite alone */
		if (f == TAME_MALLOC || f == TAME_RW)
			if ((left & TAME_STDIO) == TAME_STDIO)
				continue;
		left &= ~f;
		/* no pointer past buf, and none at all into a NULL buf */
		n += snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0,
		    "%s%s", sep, tame_flagnames[i].name);
		sep = ",";
	}
	return (int)n;
}

TAME_EXPORT const char *
tame_version(void)
{
	return VERSION(TAME_VERSION_MAJOR, TAME_VERSION_MINOR,
	    TAME_VERSION_PATCH);
}
