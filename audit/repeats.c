/* SPDX-License-Identifier: ISC */
/*
 * repeats.c: what a run did that its view (tame-audit(1), HERMETIC RUNS)
 * does not hold back, so that every run of the command did it again: a
 * device opened for writing, a connection to a server; a socket it
 * bound, out of reach outside the view; and a call that failed as only
 * a view may have made it fail.
 *
 * Read from the trace's text: the first quoted string of an open is
 * its path; a connect or sendto names its peer as strace prints it,
 * inet_addr("10.0.0.1") or inet_pton(AF_INET6, "::1") with htons(port).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "parse.h"

/* Devices whose writes change nothing outside the run. */
static const char *const harmless[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/pts/",
	"/dev/shm/", "/dev/stdout", "/dev/stderr", "/dev/fd/", "/dev/ptmx",
	"/dev/urandom", "/dev/random", NULL,
};

static void
add(struct audit *a, const char *what)
{
	int i;

	for (i = 0; i < a->nrepeats; i++)
		if (strcmp(a->repeats[i], what) == 0)
			return;
	if (a->nrepeats == AUDIT_MAX_REPEATS) {
		a->more_repeats = 1;
		return;
	}
	a->repeats[a->nrepeats++] = xstrdup(what);
}

/* The quoted text after key in the call's arguments, into out. */
static int
quoted_after(const struct st_event *ev, const char *key, char *out,
    size_t len)
{
	const char *p, *end = ev->args + ev->args_len, *q;

	if ((p = memmem(ev->args, ev->args_len, key, strlen(key))) == NULL)
		return 0;
	p += strlen(key);
	if ((q = memchr(p, '"', (size_t)(end - p))) == NULL ||
	    (size_t)(q - p) >= len)
		return 0;
	snprintf(out, len, "%.*s", (int)(q - p), p);
	return 1;
}

/* An open for writing: O_WRONLY or O_RDWR in its flags. */
static int
open_writes(const struct st_event *ev)
{
	return memmem(ev->args, ev->args_len, "O_WRONLY", 8) != NULL ||
	    memmem(ev->args, ev->args_len, "O_RDWR", 6) != NULL;
}

static void
open_for_writing(struct audit *a, const struct st_event *ev)
{
	char path[256], what[300];
	int i;

	if (!open_writes(ev))
		return;
	if (!quoted_after(ev, "\"", path, sizeof(path)) ||
	    strncmp(path, "/dev/", 5) != 0)
		return;
	for (i = 0; harmless[i] != NULL; i++)
		if (strncmp(path, harmless[i], strlen(harmless[i])) == 0)
			return;
	snprintf(what, sizeof(what), "writes to %s", path);
	add(a, what);
}

static void
peer(struct audit *a, const struct st_event *ev)
{
	const char *p, *end = ev->args + ev->args_len;
	char addr[64], port[16], what[128];
	size_t n = 0;

	if (!quoted_after(ev, "inet_addr(\"", addr, sizeof(addr)) &&
	    !quoted_after(ev, "inet_pton(AF_INET6, \"", addr, sizeof(addr)))
		return;
	if ((p = memmem(ev->args, ev->args_len, "htons(", 6)) == NULL)
		return;
	for (p += 6; p < end && *p >= '0' && *p <= '9' &&
	    n < sizeof(port) - 1; p++)
		port[n++] = *p;
	port[n] = '\0';
	if (n == 0)
		return;
	snprintf(what, sizeof(what), "a connection to %s port %s", addr,
	    port);
	add(a, what);
}

/*
 * The errors a view may give where the real tree would not: EROFS where
 * it holds a file system read-only, EXDEV for a directory renamed in a
 * user namespace's overlay, EOVERFLOW for a file whose owner or group
 * it does not map (a stat's EOVERFLOW is a struct too small, a copy's
 * EXDEV is across file systems: those are not the view's).  The first
 * few such calls, as the trace shows them.
 */
static void
refused(struct audit *a, const struct st_event *ev)
{
	char what[200];
	int i;

	if (!ev->returned || ev->ret >= 0)
		return;
	if (strcmp(ev->err, "EXDEV") == 0 ? strncmp(ev->name, "rename", 6) !=
	    0 && strncmp(ev->name, "link", 4) != 0 :
	    strcmp(ev->err, "EOVERFLOW") == 0 ? strstr(ev->name, "stat") !=
	    NULL || strcmp(ev->name, "lseek") == 0 :
	    strcmp(ev->err, "EROFS") != 0)
		return;
	snprintf(what, sizeof(what), "%s for %s(%.*s%s)", ev->err, ev->name,
	    ev->args_len > 80 ? 80 : (int)ev->args_len, ev->args,
	    ev->args_len > 80 ? "..." : "");
	for (i = 0; i < a->nrefused; i++)
		if (strcmp(a->refused[i], what) == 0)
			return;
	if (a->nrefused < AUDIT_MAX_REFUSED)
		a->refused[a->nrefused++] = xstrdup(what);
}

/* A socket bound to a path: in a view, no process outside can reach it. */
static void
bound(struct audit *a, const struct st_event *ev)
{
	char path[128];
	int i;

	if (!quoted_after(ev, "sun_path=\"", path, sizeof(path)))
		return;
	for (i = 0; i < a->nlistens; i++)
		if (strcmp(a->listens[i], path) == 0)
			return;
	if (a->nlistens < AUDIT_MAX_LISTENS)
		a->listens[a->nlistens++] = xstrdup(path);
}

void
repeats_note(struct audit *a, const struct st_event *ev)
{
	refused(a, ev);
	if (strcmp(ev->name, "listen") == 0 && ev->returned && ev->ret == 0)
		a->served = 1;
	else if (strcmp(ev->name, "bind") == 0 && ev->returned &&
	    ev->ret == 0)
		bound(a, ev);
	else if (strcmp(ev->name, "openat") == 0 ||
	    strcmp(ev->name, "open") == 0)
		open_for_writing(a, ev);
	else if (strcmp(ev->name, "connect") == 0 ||
	    strcmp(ev->name, "sendto") == 0)
		peer(a, ev);
}

void
repeats_free(struct audit *a)
{
	int i;

	for (i = 0; i < a->nrepeats; i++)
		free(a->repeats[i]);
	for (i = 0; i < a->nlistens; i++)
		free(a->listens[i]);
	for (i = 0; i < a->nrefused; i++)
		free(a->refused[i]);
	a->nrepeats = a->nlistens = a->nrefused = 0;
}
