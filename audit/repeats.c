/* SPDX-License-Identifier: ISC */
/*
 * repeats.c: what a run did that its hermetic view (tame-audit(1),
 * HERMETIC RUNS) does not hold back, so that every run of the command
 * did it again: a device opened for writing, a connection to a server,
 * unprivileged a change outside the places the view layers (the report
 * names them when the command ran more than once); a socket
 * it bound, out of reach outside the view; and an owner the unprivileged
 * view showed otherwise than the real one.
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
#include "view.h"

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
 * The calls that change the tree at a path, and which argument names
 * it (two for a rename).  A symlink's or link's first path is not
 * changed; an open counts when it may write (open_may_write).
 */
static const struct {
	const char	*name;
	int		 arg, arg2;
} changes[] = {
	{ "open", 0, -1 }, { "openat", 1, -1 }, { "creat", 0, -1 },
	{ "mkdir", 0, -1 }, { "mkdirat", 1, -1 }, { "rmdir", 0, -1 },
	{ "unlink", 0, -1 }, { "unlinkat", 1, -1 },
	{ "rename", 0, 1 }, { "renameat", 1, 3 }, { "renameat2", 1, 3 },
	{ "symlink", 1, -1 }, { "symlinkat", 2, -1 },
	{ "link", 1, -1 }, { "linkat", 3, -1 },
	{ "truncate", 0, -1 }, { "mknod", 0, -1 }, { "mknodat", 1, -1 },
	{ NULL, 0, 0 },
};

static int
open_may_write(const struct st_event *ev)
{
	return open_writes(ev) ||
	    memmem(ev->args, ev->args_len, "O_CREAT", 7) != NULL ||
	    strcmp(ev->name, "creat") == 0;
}

/*
 * Is the absolute path (argument k, quoted) outside every place the
 * view layers?  Its nearest existing directory is resolved first, as
 * the view's places were (a $HOME reached through a symbolic link).
 */
static int
unlayered(const struct audit *a, const struct st_event *ev, int k,
    char *path, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX], *slash;
	int i, cut;

	/* strace's escapes decoded; a path it cut short is not judged */
	if (k >= ev->nargs || st_string(ev->argv[k], ev->argl[k], dir,
	    sizeof(dir), &cut) < 1 || cut || dir[0] != '/')
		return 0;
	snprintf(path, len, "%s", dir);
	if (view_under(dir, "/dev") || view_under(dir, "/proc") ||
	    view_under(dir, "/sys"))
		return 0;
	while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		if (realpath(dir, real) != NULL)
			break;
	}
	if (slash == NULL || slash == dir)
		snprintf(real, sizeof(real), "/");
	for (i = 0; a->layered[i] != NULL; i++)
		if (view_under(real, a->layered[i]))
			return 0;
	return 1;
}

/*
 * Unprivileged, only the caller's own places are layered: a change the
 * run made elsewhere (a group-writable directory, say) is real in every
 * run.
 */
static void
changed_outside(struct audit *a, const struct st_event *ev)
{
	char path[PATH_MAX], what[PATH_MAX + 128];
	int i;

	if (!ev->returned || ev->ret < 0)
		return;
	for (i = 0; changes[i].name != NULL; i++)
		if (strcmp(changes[i].name, ev->name) == 0)
			break;
	if (changes[i].name == NULL || (strncmp(ev->name, "open", 4) == 0 &&
	    !open_may_write(ev)))
		return;
	if (unlayered(a, ev, changes[i].arg, path, sizeof(path)) ||
	    (changes[i].arg2 >= 0 &&
	    unlayered(a, ev, changes[i].arg2, path, sizeof(path)))) {
		snprintf(what, sizeof(what), "changes to %s (unprivileged, "
		    "the view layers only the caller's own places)", path);
		add(a, what);
	}
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

/*
 * A file named by path whose owner showed as the overflow id: what ls -l
 * or stat would print.  fstat of an open descriptor (the loader's, the
 * locale's, a check of stdout) is left out.
 */
static void
foreign_owner(struct audit *a, const struct st_event *ev)
{
	if (strcmp(ev->name, "fstat") != 0 &&
	    memmem(ev->args, ev->args_len, "\"\"", 2) == NULL &&
	    memmem(ev->args, ev->args_len, a->foreign_id,
	    strlen(a->foreign_id)) != NULL)
		a->foreign_seen++;
}

void
repeats_note(struct audit *a, const struct st_event *ev)
{
	if (a->layered != NULL)
		changed_outside(a, ev);
	if (a->foreign_id != NULL && strstr(ev->name, "stat") != NULL)
		foreign_owner(a, ev);
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
	a->nrepeats = a->nlistens = 0;
}
