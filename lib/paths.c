/* SPDX-License-Identifier: ISC */
/*
 * paths.c: which paths the held flags grant, as strings.
 *
 * The handler decides a trapped path call by the path the program
 * passed, as the 2015 kernel did: an absolute path in canonical form
 * (no "//", "/./" or "/../", no relative names) that lies beneath one of
 * tame_lpaths of a held flag.  That is the check that tells a granted
 * call from a violation; the Landlock layer behind it is what confines
 * the call itself, through symlinks and mounts.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "tame_int.h"

static int
canonical(const char *path)
{
	const char *p;

	if (path[0] != '/')
		return 0;
	/* most paths hold neither: a quick answer (tame-audit asks often) */
	if (strstr(path, "//") == NULL && strstr(path, "/.") == NULL)
		return 1;
	for (p = path; *p != '\0'; p++)
		if (p[0] == '/' && (p[1] == '/' || (p[1] == '.' &&
		    (p[2] == '/' || p[2] == '\0' || (p[2] == '.' &&
		    (p[3] == '/' || p[3] == '\0'))))))
			return 0;
	return 1;
}

/* Is path the entry's path or beneath it? */
static int
beneath(const char *entry, const char *path)
{
	size_t n;

	for (n = 0; entry[n] != '\0' && entry[n] == path[n]; n++)
		;
	return entry[n] == '\0' && (path[n] == '\0' || path[n] == '/');
}

tame_atoms
tame__path_grantors(const char *path, int rights)
{
	tame_atoms flags = 0;
	int i;

	if (path == NULL || !canonical(path))
		return 0;
	for (i = 0; i < tame_nlpaths; i++)
		if (tame_lpaths[i].rights >= rights &&
		    beneath(tame_lpaths[i].path, path))
			flags |= tame_lpaths[i].flag;
	return flags;
}

tame_atoms
tame__path_grantors_each(const char *path, tame_atoms *rw, tame_atoms *full)
{
	tame_atoms read = 0;
	int i;

	*rw = *full = 0;
	if (path == NULL || !canonical(path))
		return 0;
	for (i = 0; i < tame_nlpaths; i++)
		if (beneath(tame_lpaths[i].path, path)) {
			read |= tame_lpaths[i].flag;
			if (tame_lpaths[i].rights >= TL_RW)
				*rw |= tame_lpaths[i].flag;
			if (tame_lpaths[i].rights >= TL_FULL)
				*full |= tame_lpaths[i].flag;
		}
	return read;
}

int
tame__path_granted(tame_atoms held, const char *path, int rights)
{
	return (tame__path_grantors(path, rights) & held) != 0;
}

/*
 * The entry of tame_lpaths that grants path with rights to held, the
 * longest of them; -1 for none.
 */
int
tame__path_entry(tame_atoms held, const char *path, int rights)
{
	size_t n, best_n = 0;
	int i, best = -1;

	if (path == NULL || !canonical(path))
		return -1;
	for (i = 0; i < tame_nlpaths; i++)
		if ((tame_lpaths[i].flag & held) != 0 &&
		    tame_lpaths[i].rights >= rights &&
		    beneath(tame_lpaths[i].path, path) &&
		    (n = strlen(tame_lpaths[i].path)) >= best_n) {
			best = i;
			best_n = n;
		}
	return best;
}

/*
 * Where no Landlock layer confines the granted paths, the handler opens
 * them with resolve flags that follow no symlink (beneath a granted
 * directory: none that leads out).  A granted name that is itself a
 * symlink, or lies beneath one (/etc/resolv.conf to systemd's stub, /lib
 * to /usr/lib, /etc/localtime to its zone), would then never open: so
 * tame() resolves the table's own paths once, while it still may, and
 * the handler opens what they led to then.  A Landlock rule, too, holds
 * the inode the path led to when the rule was made.  An entry that did
 * not resolve (missing, or too long for its slot) grants nothing.
 */
#define RESOLVED_MAX	32
#define RESOLVED_LEN	256

static char	resolved[RESOLVED_MAX][RESOLVED_LEN];
static int	resolved_done;

void
tame__paths_resolve(tame_atoms held)
{
	char buf[PATH_MAX];
	int i;

	if (resolved_done)
		return;
	for (i = 0; i < tame_nlpaths && i < RESOLVED_MAX; i++) {
		resolved[i][0] = '\0';
		if ((tame_lpaths[i].flag & held) == 0)
			continue;
		if (realpath(tame_lpaths[i].path, buf) != NULL &&
		    strlen(buf) < RESOLVED_LEN)
			memcpy(resolved[i], buf, strlen(buf) + 1);
	}
	resolved_done = 1;
}

const char *
tame__path_resolved(int i)
{
	if (i < 0 || i >= RESOLVED_MAX)
		return NULL;
	if (!resolved_done)
		return tame_lpaths[i].path;	/* as named: no symlink */
	return resolved[i][0] != '\0' ? resolved[i] : NULL;
}
