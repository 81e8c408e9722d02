/*
 * profile.c: read and write profiles (profile.h).  It runs in tame-exec,
 * in tame-audit and, through the shim, at the start of every program of
 * a tree run under a profile: plain stdio, no state beyond the struct.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tame.h"

#define BLANKS	" \t"

int
profile_path_ok(const char *path)
{
	return path != NULL && path[0] == '/' &&
	    strpbrk(path, " \t\n\r\v\f#") == NULL;
}

const struct profile_entry *
profile_find(const struct profile *p, const char *path)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->e[i].path, path) == 0)
			return &p->e[i];
	return NULL;
}

static int
add(struct profile *p, const char *path, int flags, int line)
{
	struct profile_entry *e;
	char *copy;

	if ((copy = strdup(path)) == NULL)
		return -1;
	if (p->n == p->cap) {
		e = realloc(p->e, (size_t)(p->cap ? 2 * p->cap : 16) *
		    sizeof(*e));
		if (e == NULL) {
			free(copy);
			return -1;
		}
		p->e = e;
		p->cap = p->cap ? 2 * p->cap : 16;
	}
	p->e[p->n++] = (struct profile_entry){ .path = copy, .flags = flags,
	    .line = line };
	return 0;
}

int
profile_set(struct profile *p, const char *path, int flags)
{
	struct profile_entry *e;

	if (!profile_path_ok(path)) {
		errno = EINVAL;
		return -1;
	}
	if ((e = (struct profile_entry *)profile_find(p, path)) != NULL) {
		e->flags = flags;
		return 0;
	}
	return add(p, path, flags, 0);
}

/* One line, its comment cut: 0 (blank or added), or -1 with why. */
static int
read_line(struct profile *p, char *s, int line, char *why, size_t len)
{
	const struct profile_entry *dup;
	const char *bad;
	char *path, *flagtext, *end;
	int flags;

	s[strcspn(s, "#\n")] = '\0';
	path = s + strspn(s, BLANKS);
	if (*path == '\0')
		return 0;
	end = path + strcspn(path, BLANKS);
	if (*end == '\0') {
		snprintf(why, len, "\"%s\" has no flags (PATH FLAGS; stdio "
		    "is the least)", path);
		return -1;
	}
	*end = '\0';
	flagtext = end + 1 + strspn(end + 1, BLANKS);
	flagtext[strcspn(flagtext, "\r")] = '\0';
	if (path[0] != '/') {
		snprintf(why, len, "\"%s\" is not an absolute path", path);
		return -1;
	}
	if (*flagtext == '\0') {
		snprintf(why, len, "\"%s\" has no flags (PATH FLAGS; stdio "
		    "is the least)", path);
		return -1;
	}
	/* the flags are one word: "stdio,rpath", as tame-audit writes */
	end = flagtext + strcspn(flagtext, BLANKS);
	if (end[strspn(end, BLANKS)] != '\0') {
		snprintf(why, len, "more than PATH FLAGS: \"%s\" (flags are "
		    "separated by commas, and a path cannot hold spaces)",
		    flagtext);
		return -1;
	}
	*end = '\0';
	if (tame_flags_parse(flagtext, &flags, &bad) == -1) {
		snprintf(why, len, "unknown flag \"%.*s\" for %s",
		    (int)strcspn(bad, ", \t|"), bad, path);
		return -1;
	}
	if (flags == 0) {
		snprintf(why, len, "no flags for %s (stdio is the least)",
		    path);
		return -1;
	}
	if ((dup = profile_find(p, path)) != NULL) {
		snprintf(why, len, "%s is listed again (first on line %d)",
		    path, dup->line);
		return -1;
	}
	if (add(p, path, flags, line) == -1) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

int
profile_read(const char *file, struct profile *p, char *err, size_t errlen)
{
	char *s = NULL, why[512];
	size_t cap = 0;
	ssize_t n;
	int line = 0, r = 0;
	FILE *f;

	if ((f = fopen(file, "re")) == NULL) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	while ((n = getline(&s, &cap, f)) != -1) {
		line++;
		if ((size_t)n != strlen(s)) {
			snprintf(err, errlen, "%s:%d: a NUL byte: not a "
			    "profile", file, line);
			r = -1;
			break;
		}
		if (read_line(p, s, line, why, sizeof(why)) == -1) {
			snprintf(err, errlen, "%s:%d: %s", file, line, why);
			r = -1;
			break;
		}
	}
	if (r == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		r = -1;
	}
	free(s);
	fclose(f);
	if (r == -1)
		profile_free(p);
	return r;
}

int
profile_write_entry(FILE *f, const struct profile_entry *e)
{
	char names[256];

	if (tame_flags_name(e->flags, names, sizeof(names)) < 0)
		return -1;
	return fprintf(f, "%s %s\n", e->path, names) < 0 ? -1 : 0;
}

void
profile_free(struct profile *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->e[i].path);
	free(p->e);
	*p = (struct profile){ 0 };
}
