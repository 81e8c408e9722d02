/* SPDX-License-Identifier: ISC */
/*
 * xalloc.c: memory for tame-audit, or the end of it.  An audit that
 * runs out of memory has nothing sensible to report: every stage
 * allocates through these, which say so and exit with status 1.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n == 0 ? 1 : n, size);

	if (p == NULL)
		err(1, NULL);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n == 0 ? 1 : n)) == NULL)
		err(1, NULL);
	return p;
}

char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL)
		err(1, NULL);
	return d;
}
