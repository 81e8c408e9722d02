/* SPDX-License-Identifier: ISC */
/*
 * preload.c: the shim tame-exec preloads.  Its constructor runs after the
 * dynamic loader has mapped the program and its libraries, and tames the
 * process as tame-exec asked:
 *
 *  - -f: with TAME_EXEC_FLAGS, which it removes, and LD_PRELOAD too;
 *    -p: the same, with TAME_EXEC_PLEDGE's promises given to pledge();
 *    -l and -v: TAME_EXEC_LOAD's modules loaded and TAME_EXEC_UNVEIL's
 *    paths unveiled first, each variable removed once used;
 *  - --profile: TAME_EXEC_PROFILE names a profile; a program it lists
 *    is tamed with its line's flags, any other runs as it would, and
 *    both variables stay, for every program the process starts;
 *  - --tree (tame-audit's), TAME_EXEC_TREE=1 beside TAME_EXEC_FLAGS:
 *    every program names itself in the trace, then is tamed as with -f
 *    (where tame-audit runs it, permissively: nothing goes in and the
 *    tree goes on).
 *
 * tame-exec removes every TAME_EXEC_* variable of its caller and sets its
 * own, so what is read here is what tame-exec was told on its command
 * line; and no mode drops another's work (-v and -p hold in a tree too).
 * In the last two, preload-exec.c sees that what the process starts gets
 * the variables.  If taming fails the program must not run untamed: the
 * shim ends it.
 */
#include <sys/auxv.h>
#include <sys/syscall.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preload.h"
#include "pledge.h"
#include "profile.h"
#include "tame.h"

#define MARKER	"tame-exe:"

struct shim shim;

static void	load_modules(const char *, const char *);
static void	unveil_list(const char *);
static void	tame_command(int);
static void	tree(const char *);
static void	profiled(const char *);
static int	program_path(char *, size_t, const char **);
static void	keep(void);
static char	*var(const char *, const char *);

static void __attribute__((constructor))
tame_preload(void)
{
	const char *v = getenv("TAME_EXEC_FLAGS"), *t;
	char *end;
	long flags;

	if (v == NULL) {
		if ((v = getenv("TAME_EXEC_PROFILE")) != NULL)
			profiled(v);
		return;		/* else loaded by someone else: do nothing */
	}
	errno = 0;
	flags = strtol(v, &end, 16);
	if (errno != 0 || *end != '\0' || flags < 0 || flags > TAME_ALL) {
		fprintf(stderr, "tame-exec: bad TAME_EXEC_FLAGS \"%s\"\n", v);
		_exit(1);
	}
	if ((t = getenv("TAME_EXEC_TREE")) != NULL && strcmp(t, "1") == 0)
		tree(v);
	else {
		unsetenv("TAME_EXEC_FLAGS");
		unsetenv("LD_PRELOAD");
	}
	tame_command((int)flags);
}

/*
 * The command's own requests, each variable removed once read, so that
 * a program it starts (a tree's, or one pledge lets it exec) never sees
 * them: the modules loaded, the paths unveiled, then pledge(promises),
 * or tame(flags) where tame-exec gave no promises.
 */
static void
tame_command(int flags)
{
	const char *t;

	if ((t = getenv("TAME_EXEC_LOAD")) != NULL) {
		load_modules(t, ":");
		unsetenv("TAME_EXEC_LOAD");
	}
	if ((t = getenv("TAME_EXEC_UNVEIL")) != NULL) {
		unveil_list(t);
		unsetenv("TAME_EXEC_UNVEIL");
	}
	if ((t = getenv("TAME_EXEC_PLEDGE")) != NULL) {
		char promises[1024];

		/* the variable goes, so that a child sees the environment */
		snprintf(promises, sizeof(promises), "%s", t);
		unsetenv("TAME_EXEC_PLEDGE");
		if (pledge(promises, NULL) == -1) {
			fprintf(stderr, "tame-exec: pledge: %s\n",
			    strerror(errno));
			_exit(1);
		}
		return;
	}
	if (tame(flags) == -1) {
		fprintf(stderr, "tame-exec: tame: %s\n", strerror(errno));
		_exit(1);
	}
}

/*
 * tame-exec -v: unveil each "perm:path" line, then lock, before the
 * command is tamed or pledged.  A path that cannot be unveiled ends it:
 * it would otherwise run with less hidden than asked.
 */
static void
unveil_list(const char *list)
{
	char *copy, *p, *next, *colon;

	if ((copy = strdup(list)) == NULL) {
		fprintf(stderr, "tame-exec: %s\n", strerror(errno));
		_exit(126);
	}
	for (p = copy; p != NULL; p = next) {
		if ((next = strchr(p, '\n')) != NULL)
			*next++ = '\0';
		if ((colon = strchr(p, ':')) == NULL)
			continue;
		*colon = '\0';
		if (unveil(colon + 1, p) == -1) {
			fprintf(stderr, "tame-exec: unveil %s: %s; not run\n",
			    colon + 1, strerror(errno));
			_exit(126);
		}
	}
	free(copy);
	if (unveil(NULL, NULL) == -1) {
		fprintf(stderr, "tame-exec: unveil: %s; not run\n",
		    strerror(errno));
		_exit(126);
	}
}

/*
 * tame-exec -l, a profile line's load=: the modules the program loads on
 * demand (iconv's gconv converters, a plugin), sep between them, loaded
 * before tame() as tame() loads the name service's, so that the
 * program's own dlopen() later finds each mapped (the loader knows a
 * file by its device and inode) and maps nothing, which the filter would
 * refuse.  A module that will not load ends the program: it was audited
 * with it.
 */
static void
load_modules(const char *list, const char *sep)
{
	char *copy, *p, *next;

	if ((copy = strdup(list)) == NULL) {
		fprintf(stderr, "tame-exec: %s\n", strerror(errno));
		_exit(126);
	}
	for (p = copy; p != NULL; p = next) {
		if ((next = strpbrk(p, sep)) != NULL)
			*next++ = '\0';
		if (*p != '\0' && dlopen(p, RTLD_NOW | RTLD_LOCAL) == NULL) {
			fprintf(stderr, "tame-exec: cannot load %s before "
			    "tame(): %s; not run\n", p, dlerror());
			_exit(126);
		}
	}
	free(copy);
}

/*
 * tame-exec --tree (tame-audit's): the variables stay, TAME_AUDIT with
 * them, and before tame()'s marker the program names itself with one
 * more that changes nothing, write(-1, "tame-exe:PATH", n), PATH its
 * real executable path: in the trace, each pid's program, then its
 * flags.  The caller then tames it as -f does (tame_command).
 */
static void
tree(const char *flags)
{
	char buf[sizeof(MARKER) + PATH_MAX] = MARKER;
	const char *audit = getenv("TAME_AUDIT"), *why;

	keep();
	shim.vars[0] = var("TAME_EXEC_FLAGS", flags);
	shim.vars[1] = var("TAME_EXEC_TREE", "1");
	if (audit != NULL)
		shim.vars[2] = var("TAME_AUDIT", audit);
	shim.mode = SHIM_TREE;
	shim_exec_init();
	if (program_path(buf + strlen(MARKER), sizeof(buf) - strlen(MARKER),
	    &why) == 0)
		syscall(SYS_write, -1, buf, strlen(buf));
}

/*
 * --profile: a program the profile lists is tamed with its flags;
 * another is a launcher, which runs as it would and passes the profile
 * on.  A program it pledges may exec too (pledge:...,exec), so it passes
 * the profile on as a launcher does, and its exec wrappers refuse what
 * a launcher's refuse.  A profile that went bad since tame-exec read it
 * ends the program before it runs: it may have been listed.
 */
static void
profiled(const char *file)
{
	char self[PATH_MAX], err[PATH_MAX + 600];
	const struct profile_entry *e;
	const char *why;
	int flags;

	if (program_path(self, sizeof(self), &why) == -1) {
		fprintf(stderr, "tame-exec: %s: %s: cannot tell which program "
		    "this is; not run\n", why, strerror(errno));
		_exit(126);
	}
	if (file[0] != '/') {
		fprintf(stderr, "tame-exec: TAME_EXEC_PROFILE \"%s\" is not an "
		    "absolute path; %s not run\n", file, self);
		_exit(126);
	}
	if (profile_read(file, &shim.profile, err, sizeof(err)) == -1) {
		fprintf(stderr, "tame-exec: %s; %s not run\n", err, self);
		_exit(126);
	}
	shim_exec_init();
	if ((e = profile_find(&shim.profile, self)) != NULL &&
	    e->load != NULL)
		load_modules(e->load, ",");
	if (e != NULL && e->promises == NULL) {
		flags = e->flags;
		profile_free(&shim.profile);
		if (tame(flags) == -1) {
			fprintf(stderr, "tame-exec: %s: tame: %s\n", self,
			    strerror(errno));
			_exit(1);
		}
		return;
	}
	keep();
	shim.vars[0] = var("TAME_EXEC_PROFILE", file);
	shim.file = shim.vars[0] + strlen("TAME_EXEC_PROFILE=");
	shim.mode = SHIM_PROFILE;
	/* the promises stay in the profile's text, which stays read */
	if (e != NULL && pledge(e->promises, NULL) == -1) {
		fprintf(stderr, "tame-exec: %s: pledge: %s\n", self,
		    strerror(errno));
		_exit(1);
	}
}

/* dl_iterate_phdr's first object is the main program: where it lies. */
static int
first_object(struct dl_phdr_info *info, size_t size, void *at)
{
	(void)size;
	*(uintptr_t *)at = (uintptr_t)info->dlpi_phdr;
	return 1;
}

/*
 * The file mapped where the main program's headers lie, as
 * /proc/self/maps names it ("lo-hi perms offset dev inode path", no
 * '/' before the path): the kernel's name for it, which the program,
 * however its parent named it, cannot change.  0, or -1 with why.
 */
static int
mapped_main(char *buf, size_t len, const char **why)
{
	unsigned long lo, hi;
	uintptr_t at = 0;
	char *line = NULL, *path;
	size_t cap = 0;
	FILE *f;
	int found = -1;

	*why = "the dynamic loader's program in /proc/self/maps";
	dl_iterate_phdr(first_object, &at);
	if (at == 0 || (f = fopen("/proc/self/maps", "re")) == NULL)
		return -1;
	while (found == -1 && getline(&line, &cap, f) != -1) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2 || at < lo ||
		    at >= hi)
			continue;
		if ((path = strchr(line, '/')) == NULL) {
			errno = ENOENT;
			break;
		}
		path[strcspn(path, "\n")] = '\0';
		if (strlen(path) >= len) {
			errno = ENAMETOOLONG;
			break;
		}
		memcpy(buf, path, strlen(path) + 1);
		found = 0;
	}
	if (found == -1 && errno == 0)
		errno = ENOENT;
	free(line);
	fclose(f);
	return found;
}

/*
 * The real path of the program this process runs, as a profile names it:
 * /proc/self/exe.  But where the kernel started the dynamic loader itself
 * ("ld.so PROGRAM": no interpreter, so AT_BASE is 0), that is the loader,
 * and the program is the main object it mapped.  0, or -1 with errno and
 * what could not be read in *why.
 */
static int
program_path(char *buf, size_t len, const char **why)
{
	ssize_t n;

	*why = "/proc/self/exe";
	if ((n = readlink("/proc/self/exe", buf, len - 1)) == -1)
		return -1;
	buf[n] = '\0';
	if (getauxval(AT_BASE) != 0)
		return 0;
	errno = 0;
	return mapped_main(buf, len, why);
}

/* The shim's own path, for LD_PRELOAD: absolute, for any directory. */
static void
keep(void)
{
	Dl_info info;

	if (dladdr((void *)tame_preload, &info) == 0 ||
	    info.dli_fname == NULL || (shim.path = info.dli_fname[0] == '/' ?
	    info.dli_fname : realpath(info.dli_fname, NULL)) == NULL) {
		fprintf(stderr, "tame-exec: the shim cannot find its own "
		    "path; not run\n");
		_exit(126);
	}
	shim.preload = var("LD_PRELOAD", shim.path);
}

/*
 * "NAME=value", a copy: what the program does to environ later (some
 * overwrite its strings to show a process title) cannot change it.
 */
static char *
var(const char *name, const char *value)
{
	size_t n = strlen(name), m = strlen(value);
	char *s;

	if ((s = malloc(n + 1 + m + 1)) == NULL) {
		fprintf(stderr, "tame-exec: %s\n", strerror(errno));
		_exit(126);
	}
	memcpy(s, name, n);
	s[n] = '=';
	memcpy(s + n + 1, value, m + 1);
	return s;
}
