/* SPDX-License-Identifier: ISC */
/*
 * profile.c: read and write profiles (profile.h).  It runs in tame-exec,
 * in tame-audit and, through the shim, at the start of every program of
 * a tree run under a profile: no state beyond the struct, and no more
 * work at a start than one read of the file and a pass over its lines.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "profile.h"
#include "tame.h"
#include "tame_int.h"

#define BLANKS	" \t"

int
profile_path_ok(const char *path)
{
	return path != NULL && path[0] == '/' &&
	    strpbrk(path, " \t\n\r\v\f#") == NULL;
}

int
profile_module_ok(const char *module)
{
	return profile_path_ok(module) && strpbrk(module, ",:") == NULL;
}

/* "load=A,B": every module an absolute path; the list after "=". */
static char *
load_list(char *word, char *why, size_t len)
{
	char *list, *m, *end;

	if (strncmp(word, "load=", 5) != 0) {
		snprintf(why, len, "more than PATH FLAGS: \"%s\" (flags are "
		    "separated by commas, and a path cannot hold spaces; "
		    "modules go in load=MODULE,...)", word);
		return NULL;
	}
	list = word + 5;
	for (m = list; ; m = end + 1) {
		end = m + strcspn(m, ",");
		if (m[0] != '/' || end == m || memchr(m, ':',
		    (size_t)(end - m)) != NULL) {
			snprintf(why, len, "load=: \"%.*s\" is not a module's "
			    "absolute path", (int)(end - m), m);
			return NULL;
		}
		if (*end == '\0')
			return list;
	}
}

/* FNV-1a: paths share long prefixes, and every byte counts. */
static uint32_t
hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The index slot of path: its entry's, or the empty one it would take. */
static int *
slot(const struct profile *p, const char *path)
{
	uint32_t i, mask = (uint32_t)p->icap - 1;

	for (i = hash(path) & mask; p->index[i] != 0; i = (i + 1) & mask)
		if (strcmp(p->e[p->index[i] - 1].path, path) == 0)
			break;
	return &p->index[i];
}

const struct profile_entry *
profile_find(const struct profile *p, const char *path)
{
	int *s;

	if (p->icap == 0)
		return NULL;
	s = slot(p, path);
	return *s != 0 ? &p->e[*s - 1] : NULL;
}

/* Room for n entries, the index at most half full. */
static int
reserve(struct profile *p, int n)
{
	struct profile_entry *e;
	int *index, icap, i;

	if (n > p->cap) {
		if ((e = realloc(p->e, (size_t)n * sizeof(*e))) == NULL)
			return -1;
		p->e = e;
		p->cap = n;
	}
	if (2 * n <= p->icap)
		return 0;
	for (icap = 32; icap < 2 * n; icap *= 2)
		;
	if ((index = calloc((size_t)icap, sizeof(*index))) == NULL)
		return -1;
	free(p->index);
	p->index = index;
	p->icap = icap;
	for (i = 0; i < p->n; i++)
		*slot(p, p->e[i].path) = i + 1;
	return 0;
}

/* A new entry; a path of a line stays in the text, another is copied. */
static int
add(struct profile *p, const char *path, int flags, char *load, int line)
{
	char *copy = (char *)path;

	if (p->n == p->cap && reserve(p, p->cap ? 2 * p->cap : 16) == -1)
		return -1;
	if (line == 0 && (copy = strdup(path)) == NULL)
		return -1;
	p->e[p->n++] = (struct profile_entry){ .path = copy, .flags = flags,
	    .load = load, .line = line };
	*slot(p, copy) = p->n;
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
	return add(p, path, flags, NULL, 0);
}

#define PLEDGE_PREFIX	"pledge:"

/* A line's entry, once: 0, or -1 with why (listed twice, no memory). */
static int
add_line(struct profile *p, const char *path, int flags, char *load,
    int line, char *why, size_t len)
{
	const struct profile_entry *dup;

	if ((dup = profile_find(p, path)) != NULL) {
		snprintf(why, len, "%s is listed again (first on line %d)",
		    path, dup->line);
		return -1;
	}
	if (add(p, path, flags, load, line) == -1) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * "pledge:stdio,rpath": the promises, checked as pledge() will check
 * them, stored with spaces in place of the commas.
 */
static int
read_promises(struct profile *p, const char *path, char *text, char *load,
    int line, char *why, size_t len)
{
	const char *bad;
	char *words = text + strlen(PLEDGE_PREFIX), *c;
	tame_atoms atoms, stdio, exec, rpath;

	for (c = words; *c != '\0'; c++)
		if (*c == ',')
			*c = ' ';
	if (tame__promises_parse(words, &atoms, &bad) == -1) {
		snprintf(why, len, "unknown promise \"%.*s\" for %s",
		    (int)strcspn(bad, " "), bad, path);
		return -1;
	}
	(void)tame__promises_parse("stdio", &stdio, NULL);
	(void)tame__promises_parse("exec", &exec, NULL);
	(void)tame__promises_parse("rpath", &rpath, NULL);
	if ((atoms & stdio) != stdio) {
		snprintf(why, len, "%s pledge:%s: without stdio no program "
		    "gets past its start", path, words);
		return -1;
	}
	/*
	 * The shim's exec wrappers look at each program such a program
	 * starts (preload-exec.c), which takes rpath: without it the first
	 * exec would die of the look, and with the look left out a listed
	 * program the shim cannot reach would start untamed, without a word.
	 */
	if ((atoms & exec) == exec && (atoms & rpath) != rpath) {
		snprintf(why, len, "%s pledge:%s: a program pledged with exec "
		    "needs rpath too (the shim reads each program it starts, "
		    "to refuse a listed one it cannot tame): add rpath", path,
		    words);
		return -1;
	}
	if (add_line(p, path, TAME_STDIO, load, line, why, len) == -1)
		return -1;
	p->e[p->n - 1].promises = words;
	return 0;
}

/* One line, its comment cut: 0 (blank or added), or -1 with why. */
static int
read_line(struct profile *p, char *s, int line, char *why, size_t len)
{
	const char *bad;
	char *path, *flagtext, *end, *word, *rest, *load = NULL;
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
	word = end + strspn(end, BLANKS);	/* load=..., or nothing */
	if (*word != '\0') {
		rest = word + strcspn(word, BLANKS);
		if (rest[strspn(rest, BLANKS)] != '\0') {
			snprintf(why, len, "more than PATH FLAGS load=MODULES: "
			    "\"%s\"", flagtext);
			return -1;
		}
		*rest = '\0';
		if ((load = load_list(word, why, len)) == NULL)
			return -1;
	}
	*end = '\0';
	if (strncmp(flagtext, PLEDGE_PREFIX, strlen(PLEDGE_PREFIX)) == 0)
		return read_promises(p, path, flagtext, load, line, why, len);
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
	/* the loader and libc of every program need malloc and rw */
	if ((flags & TAME_STDIO) != TAME_STDIO) {
		snprintf(why, len, "%s %s: without stdio no program gets "
		    "past its start (stdio is the least)", path, flagtext);
		return -1;
	}
	return add_line(p, path, flags, load, line, why, len);
}

/*
 * The whole file, NUL-terminated, in *text.  A regular file is read at
 * once, into room for one byte more than its size: a short read of a
 * regular file is its end, so no second read asks for the end.
 */
static int
slurp(const char *file, char **text, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL, *b;
	size_t cap, n = 0;
	ssize_t r;
	int fd, saved;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1)
		goto fail;
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 4096;
	for (;;) {
		if (n == cap)
			cap *= 2;
		if ((b = realloc(buf, cap + 1)) == NULL)
			goto fail;
		buf = b;
		if ((r = read(fd, buf + n, cap - n)) == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		n += (size_t)r;
		if (r == 0 || (S_ISREG(st.st_mode) && n < cap))
			break;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
fail:
	saved = errno;
	snprintf(err, errlen, "%s: %s", file, strerror(saved));
	free(buf);
	if (fd != -1)
		close(fd);
	errno = saved;
	return -1;
}

int
profile_read(const char *file, struct profile *p, char *err, size_t errlen)
{
	char *s, *end, *nl, why[512];
	size_t len;
	int line = 0, lines = 1;

	if (slurp(file, &p->text, &len, err, errlen) == -1)
		return -1;
	end = p->text + len;
	for (s = p->text; (s = memchr(s, '\n', (size_t)(end - s))) != NULL;
	    s++)
		lines++;
	if (reserve(p, lines) == -1) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		goto fail;
	}
	for (s = p->text; s < end; s = nl + 1) {
		line++;
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		*nl = '\0';
		if (strlen(s) != (size_t)(nl - s)) {
			snprintf(err, errlen, "%s:%d: a NUL byte: not a "
			    "profile", file, line);
			goto fail;
		}
		if (read_line(p, s, line, why, sizeof(why)) == -1) {
			snprintf(err, errlen, "%s:%d: %s", file, line, why);
			goto fail;
		}
	}
	return 0;
fail:
	profile_free(p);
	return -1;
}

int
profile_write_entry(FILE *f, const struct profile_entry *e,
    const char *tail)
{
	char names[512], *c;

	if (e->promises != NULL) {
		snprintf(names, sizeof(names), "%s%s", PLEDGE_PREFIX,
		    e->promises);
		for (c = names; *c != '\0'; c++)
			if (*c == ' ')
				*c = ',';
	} else if (tame_flags_name(e->flags, names, sizeof(names)) < 0)
		return -1;
	return fprintf(f, "%s %s%s%s%s%s\n", e->path, names,
	    e->load != NULL ? " load=" : "", e->load != NULL ? e->load : "",
	    tail != NULL ? "  " : "", tail != NULL ? tail : "") < 0 ? -1 : 0;
}

void
profile_free(struct profile *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (p->e[i].line == 0)
			free(p->e[i].path);
	free(p->e);
	free(p->index);
	free(p->text);
	*p = (struct profile){ 0 };
}
