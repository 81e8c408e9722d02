/* SPDX-License-Identifier: ISC */
/*
 * guard.c: input copied up against a PROT_NONE page (see guard.h).
 */
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"

static void
grow(struct guard *g, size_t len)
{
	size_t room = (len + GUARD_PAGE - 1) / GUARD_PAGE * GUARD_PAGE;

	if (room == 0)
		room = GUARD_PAGE;
	if (g->base != NULL && g->room >= room)
		return;
	if (g->base != NULL)
		munmap(g->base, g->room + GUARD_PAGE);
	g->base = mmap(NULL, room + GUARD_PAGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->base == MAP_FAILED ||
	    mprotect(g->base + room, GUARD_PAGE, PROT_NONE) == -1) {
		perror("guard: mmap");
		abort();
	}
	g->room = room;
}

void *
guard_put(struct guard *g, const void *data, size_t len)
{
	unsigned char *p;

	grow(g, len);
	p = g->base + g->room - len;
	if (data != NULL && len > 0)
		memcpy(p, data, len);
	else if (len > 0)
		memset(p, 0, len);
	return p;
}

char *
guard_str(struct guard *g, const void *data, size_t len)
{
	char *p;

	grow(g, len + 1);
	p = (char *)g->base + g->room - len - 1;
	if (len > 0)
		memcpy(p, data, len);
	p[len] = '\0';
	return p;
}

const void *
guard_end(const struct guard *g)
{
	return g->base + g->room;
}
