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
#include <stdint.h>
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

int
tame__path_grantors(const char *path, int rights)
{
	int i, flags = 0;

	if (path == NULL || !canonical(path))
		return 0;
	for (i = 0; i < tame_nlpaths; i++)
		if (tame_lpaths[i].rights >= rights &&
		    beneath(tame_lpaths[i].path, path))
			flags |= tame_lpaths[i].flag;
	return flags;
}

int
tame__path_grantors_each(const char *path, int *full)
{
	int i, read = 0;

	*full = 0;
	if (path == NULL || !canonical(path))
		return 0;
	for (i = 0; i < tame_nlpaths; i++)
		if (beneath(tame_lpaths[i].path, path)) {
			read |= tame_lpaths[i].flag;
			if (tame_lpaths[i].rights >= TL_FULL)
				*full |= tame_lpaths[i].flag;
		}
	return read;
}

int
tame__path_granted(int held, const char *path, int rights)
{
	return (tame__path_grantors(path, rights) & held) != 0;
}
