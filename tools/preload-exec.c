/* SPDX-License-Identifier: ISC */
/*
 * preload-exec.c: the shim's exec family.  Under a profile, and in
 * tame-audit's tree, every program a process starts must get the shim
 * and the variables that tell it what to do, and a program the profile
 * lists must not slip past it.  So the shim replaces the C library's
 * exec family, posix_spawn() and pidfd_spawn() (glibc's execvp and execl
 * call its execve internally, where no preload reaches: each is
 * replaced):
 *
 *  - the environment the new program gets has LD_PRELOAD (with the
 *    shim) and the mode's variables back, whatever the caller made of it
 *    (env -i, execle with a fresh one): a listed program is tamed anyway;
 *  - under a profile, a program it lists that the dynamic loader would
 *    not put the shim in (set-ID, file capabilities, static, another
 *    machine) is not started: the call fails with EACCES, after one line
 *    on stderr;
 *  - the dynamic loader run as a command (ld.so PROGRAM) is judged by
 *    the program it runs: a listed one it would start without the shim
 *    (a static one) is not started either (exe_refused()).
 *
 * system(), popen() and wordexp() start /bin/sh by glibc's own calls,
 * with environ: they put the variables back into environ first.  A program
 * the profile pledges (pledge:...,exec) does all this as one it does not
 * list does.  Anywhere else (tame-exec -f or -p, a program the profile
 * tames, which may not exec, a program that loaded the shim without
 * tame-exec) they pass straight on.  What cannot be caught here, a
 * program that makes the system call itself or has no shim (a static
 * parent), is in tame-exec(1), CAVEATS.
 *
 * The exec calls run where only async-signal-safe code may: in the
 * child of a vfork(), which shares its parent's memory while the
 * parent's other threads go on, or of a fork() in a threaded program.
 * So they make system calls and use their own stack.  They read the
 * shim's state and the profile, written before main(), without a lock;
 * allocate nothing from malloc (a parent thread may hold its lock, and
 * the child would take it across the exec); leave dlsym (the loader's
 * lock) to the constructor; print with one writev().  The environment
 * they build lies on the stack, or, past ROOM (some 250 variables), in
 * a mapping of its own: mmap is a system call, but in a vfork() child
 * the mapping is the parent's memory, and it stays there when the exec
 * succeeds.  errno is the one thing written that a vfork() parent sees,
 * as with any exec that fails.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>

#include "exe.h"
#include "preload.h"

#define EXPORT	__attribute__((visibility("default")))
#define ROOM	2048

typedef int	spawn_fn(pid_t *, const char *,
		    const posix_spawn_file_actions_t *,
		    const posix_spawnattr_t *, char *const [], char *const []);

/*
 * The C library's own (or the next preload's), found by name.  One the
 * C library lacks (pidfd_spawn before glibc 2.39) stays NULL and its
 * wrapper fails with ENOSYS: no program that runs calls it anyway.
 */
enum { EXECVPE, POSIX_SPAWN, POSIX_SPAWNP, PIDFD_SPAWN, PIDFD_SPAWNP, SYSTEM,
	POPEN, WORDEXP, NNEXT };
static const char *const next_name[NNEXT] = {
	"execvpe", "posix_spawn", "posix_spawnp", "pidfd_spawn",
	"pidfd_spawnp", "system", "popen", "wordexp"
};
static void *next_fn[NNEXT];

/* Where the new environment is built: the caller's stack, or a mapping. */
struct room {
	char	*p;
	size_t	 len;
	size_t	 mapped;
};

static char *const	*amend(char *const [], struct room *);
static int		 refused(int, const char *, int, char *const []);
static int		 refused_search(const char *, char *const []);

void
shim_exec_init(void)
{
	int i;

	for (i = 0; i < NNEXT; i++)
		next_fn[i] = dlsym(RTLD_NEXT, next_name[i]);
}

/*
 * Found by the constructor in the modes that do work here; in -f mode
 * (whose exec is a violation anyway) and without tame-exec, found at
 * the first call instead, to add nothing to the program's start.
 */
static void *
next(int i)
{
	void *fn = __atomic_load_n(&next_fn[i], __ATOMIC_ACQUIRE);

	if (fn == NULL) {
		fn = dlsym(RTLD_NEXT, next_name[i]);
		__atomic_store_n(&next_fn[i], fn, __ATOMIC_RELEASE);
	}
	if (fn == NULL)
		errno = ENOSYS;
	return fn;
}

static void
release(struct room *r)
{
	int saved = errno;

	if (r->mapped > 0)
		munmap(r->p, r->mapped);
	errno = saved;
}

/* execve and execveat (fexecve's too): one system call in glibc too. */
static int
exec_at(int dirfd, const char *path, char *const argv[], char *const envp[],
    int atflags, int at)
{
	char small[ROOM] __attribute__((aligned(sizeof(char *))));
	struct room r = { small, sizeof(small), 0 };
	char *const *env = envp;
	int e;

	if (shim.mode != SHIM_PASS) {
		if ((e = refused(dirfd, path, atflags, argv)) != 0) {
			errno = e;
			return -1;
		}
		if ((env = amend(envp, &r)) == NULL)
			return -1;
	}
	if (at)
		syscall(SYS_execveat, dirfd, path, argv, env, atflags);
	else
		syscall(SYS_execve, path, argv, env);
	release(&r);
	return -1;
}

/* execvp and execvpe: glibc's own search, on the amended environment. */
static int
exec_search(const char *file, char *const argv[], char *const envp[])
{
	char small[ROOM] __attribute__((aligned(sizeof(char *))));
	struct room r = { small, sizeof(small), 0 };
	int (*fn)(const char *, char *const [], char *const []);
	char *const *env = envp;
	int e;

	if ((fn = (int (*)(const char *, char *const [],
	    char *const []))next(EXECVPE)) == NULL)
		return -1;
	if (shim.mode != SHIM_PASS) {
		if ((e = refused_search(file, argv)) != 0) {
			errno = e;
			return -1;
		}
		if ((env = amend(envp, &r)) == NULL)
			return -1;
	}
	fn(file, argv, env);
	release(&r);
	return -1;
}

/*
 * posix_spawn, posix_spawnp and glibc's pidfd_spawn, pidfd_spawnp (which
 * give a pidfd in *pid): which is the function's index in next_name.
 */
static int
spawn(int which, pid_t *pid, const char *path,
    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
    char *const argv[], char *const envp[])
{
	char small[ROOM] __attribute__((aligned(sizeof(char *))));
	struct room r = { small, sizeof(small), 0 };
	int search = which == POSIX_SPAWNP || which == PIDFD_SPAWNP;
	spawn_fn *fn;
	char *const *env = envp;
	int e;

	if ((fn = (spawn_fn *)next(which)) == NULL)
		return ENOSYS;
	if (shim.mode != SHIM_PASS) {
		/* a relative path is looked at from here, before any
		 * chdir of fa */
		e = search ? refused_search(path, argv) :
		    refused(AT_FDCWD, path, 0, argv);
		if (e != 0)
			return e;
		if ((env = amend(envp, &r)) == NULL)
			return errno;
	}
	e = fn(pid, path, fa, attr, argv, env);
	release(&r);
	return e;
}

/*
 * system() and popen() run /bin/sh by glibc's internal posix_spawn,
 * which passes environ: the variables go back there, for good (the
 * program had them at its start).  Neither is async-signal-safe, so
 * the mapping amend() may make is never unmapped: it is environ now.
 */
static void
fix_environ(void)
{
	struct room r = { NULL, 0, 0 };
	char *const *env;

	if (shim.mode != SHIM_PASS && (env = amend(environ, &r)) != NULL)
		environ = (char **)env;
}

EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	return exec_at(AT_FDCWD, path, argv, envp, 0, 0);
}

EXPORT int
execveat(int dirfd, const char *path, char *const argv[],
    char *const envp[], int flags)
{
	return exec_at(dirfd, path, argv, envp, flags, 1);
}

/* glibc's checks, of arguments it declares nonnull */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnonnull-compare"
EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	if (fd < 0 || argv == NULL || envp == NULL) {
		errno = EINVAL;
		return -1;
	}
	return exec_at(fd, "", argv, envp, AT_EMPTY_PATH, 1);
}
#pragma GCC diagnostic pop

EXPORT int
execv(const char *path, char *const argv[])
{
	return exec_at(AT_FDCWD, path, argv, environ, 0, 0);
}

EXPORT int
execvp(const char *file, char *const argv[])
{
	return exec_search(file, argv, environ);
}

EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	return exec_search(file, argv, envp);
}

/* execl's list up to its NULL counts, as in glibc: argc, or -1. */
static ptrdiff_t
nargs(va_list ap)
{
	ptrdiff_t argc;

	for (argc = 1; va_arg(ap, const char *) != NULL; argc++)
		if (argc == INT_MAX)
			return -1;
	return argc;
}

EXPORT int
execl(const char *path, const char *arg, ...)
{
	va_list ap;
	ptrdiff_t argc, i;

	va_start(ap, arg);
	argc = nargs(ap);
	va_end(ap);
	if (argc == -1) {
		errno = E2BIG;
		return -1;
	}
	{
		char *argv[argc + 1];

		va_start(ap, arg);
		argv[0] = (char *)arg;
		for (i = 1; i <= argc; i++)
			argv[i] = va_arg(ap, char *);
		va_end(ap);
		return exec_at(AT_FDCWD, path, argv, environ, 0, 0);
	}
}

EXPORT int
execle(const char *path, const char *arg, ...)
{
	va_list ap;
	ptrdiff_t argc, i;
	char *const *envp;

	va_start(ap, arg);
	argc = nargs(ap);
	va_end(ap);
	if (argc == -1) {
		errno = E2BIG;
		return -1;
	}
	{
		char *argv[argc + 1];

		va_start(ap, arg);
		argv[0] = (char *)arg;
		for (i = 1; i <= argc; i++)
			argv[i] = va_arg(ap, char *);
		envp = va_arg(ap, char *const *);
		va_end(ap);
		return exec_at(AT_FDCWD, path, argv, envp, 0, 0);
	}
}

EXPORT int
execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	ptrdiff_t argc, i;

	va_start(ap, arg);
	argc = nargs(ap);
	va_end(ap);
	if (argc == -1) {
		errno = E2BIG;
		return -1;
	}
	{
		char *argv[argc + 1];

		va_start(ap, arg);
		argv[0] = (char *)arg;
		for (i = 1; i <= argc; i++)
			argv[i] = va_arg(ap, char *);
		va_end(ap);
		return exec_search(file, argv, environ);
	}
}

EXPORT int
posix_spawn(pid_t *restrict pid, const char *restrict path,
    const posix_spawn_file_actions_t *fa,
    const posix_spawnattr_t *restrict attr, char *const argv[restrict],
    char *const envp[restrict])
{
	return spawn(POSIX_SPAWN, pid, path, fa, attr, argv, envp);
}

EXPORT int
posix_spawnp(pid_t *restrict pid, const char *restrict file,
    const posix_spawn_file_actions_t *fa,
    const posix_spawnattr_t *restrict attr, char *const argv[restrict],
    char *const envp[restrict])
{
	return spawn(POSIX_SPAWNP, pid, file, fa, attr, argv, envp);
}

EXPORT int
pidfd_spawn(int *restrict pidfd, const char *restrict path,
    const posix_spawn_file_actions_t *restrict fa,
    const posix_spawnattr_t *restrict attr, char *const argv[restrict],
    char *const envp[restrict])
{
	return spawn(PIDFD_SPAWN, pidfd, path, fa, attr, argv, envp);
}

EXPORT int
pidfd_spawnp(int *restrict pidfd, const char *restrict file,
    const posix_spawn_file_actions_t *restrict fa,
    const posix_spawnattr_t *restrict attr, char *const argv[restrict],
    char *const envp[restrict])
{
	return spawn(PIDFD_SPAWNP, pidfd, file, fa, attr, argv, envp);
}

EXPORT int
system(const char *command)
{
	int (*fn)(const char *);

	if ((fn = (int (*)(const char *))next(SYSTEM)) == NULL)
		return -1;
	fix_environ();
	return fn(command);
}

EXPORT FILE *
popen(const char *command, const char *type)
{
	FILE *(*fn)(const char *, const char *);

	if ((fn = (FILE *(*)(const char *, const char *))next(POPEN)) == NULL)
		return NULL;
	fix_environ();
	return fn(command, type);
}

/* A command substitution ($(...)) runs /bin/sh with environ, as system. */
EXPORT int
wordexp(const char *words, wordexp_t *we, int flags)
{
	int (*fn)(const char *, wordexp_t *, int);

	if ((fn = (int (*)(const char *, wordexp_t *, int))next(WORDEXP)) ==
	    NULL)
		return WRDE_NOSPACE;
	if (!(flags & WRDE_NOCMD))
		fix_environ();
	return fn(words, we, flags);
}

/* "NAME=..." */
static int
named(const char *e, const char *name)
{
	size_t n = strlen(name);

	return strncmp(e, name, n) == 0 && e[n] == '=';
}

/*
 * Set by the modes, whatever the caller has: every TAME_EXEC_* (one the
 * caller set would switch the shim in the new program to its mode, or
 * give it other flags, promises or another profile), and the mode's.
 */
static int
managed(const char *e)
{
	int i;

	if (strncmp(e, "TAME_EXEC_", 10) == 0)
		return 1;
	for (i = 0; shim.vars[i] != NULL; i++)
		if (strncmp(e, shim.vars[i], strcspn(shim.vars[i], "=") + 1) ==
		    0)
			return 1;
	return 0;
}

static int
ours(const char *e)
{
	int i;

	for (i = 0; shim.vars[i] != NULL; i++)
		if (strcmp(e, shim.vars[i]) == 0)
			return 1;
	return 0;
}

/* Whether a list of LD_PRELOAD (colons or spaces between) has the shim. */
static int
has_shim(const char *list)
{
	size_t n = strlen(shim.path), len;
	const char *s;

	for (s = list + strspn(list, ": "); *s != '\0'; s += strspn(s, ": ")) {
		len = strcspn(s, ": ");
		if (len == n && memcmp(s, shim.path, n) == 0)
			return 1;
		s += len;
	}
	return 0;
}

/*
 * envp as the new program must get it: without the caller's TAME_EXEC_*
 * (a stale or borrowed one would switch the mode) and with the mode's
 * variables; LD_PRELOAD as the caller had it if the shim is in it,
 * else the shim followed by the caller's list.  envp itself when it is
 * that already, or NULL with errno.
 */
static char *const *
amend(char *const envp[], struct room *r)
{
	static char *const empty[] = { NULL };
	const char *theirs = NULL;
	size_t n, nvars, need, plen = 0, len, i, j;
	int preloads = 0, same = 0, other = 0, keep;
	char **out, *s;

	if (envp == NULL)
		envp = empty;
	for (n = 0; envp[n] != NULL; n++)
		if (named(envp[n], "LD_PRELOAD")) {
			theirs = envp[n] + 11;	/* the last counts */
			preloads++;
		} else if (managed(envp[n])) {
			if (ours(envp[n]))
				same++;
			else
				other++;
		}
	for (nvars = 0; shim.vars[nvars] != NULL; nvars++)
		;
	keep = theirs != NULL && has_shim(theirs);
	if (preloads == 1 && keep && same == (int)nvars && other == 0)
		return envp;
	if (theirs != NULL && *theirs != '\0' && !keep)
		plen = strlen(shim.preload) + 1 + strlen(theirs) + 1;
	need = (n + nvars + 2) * sizeof(char *) + plen;
	if (need > r->len) {
		r->p = mmap(NULL, need, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (r->p == MAP_FAILED)
			return NULL;
		r->len = r->mapped = need;
	}
	out = (char **)r->p;
	for (i = j = 0; i < n; i++)
		if (!named(envp[i], "LD_PRELOAD") && !managed(envp[i]))
			out[j++] = envp[i];
	if (keep)
		out[j++] = (char *)theirs - 11;
	else if (plen > 0) {
		s = r->p + (n + nvars + 2) * sizeof(char *);
		out[j++] = s;
		len = strlen(shim.preload);
		memcpy(s, shim.preload, len);
		s[len] = ':';
		memcpy(s + len + 1, theirs, strlen(theirs) + 1);
	} else
		out[j++] = shim.preload;
	for (i = 0; i < nvars; i++)
		out[j++] = shim.vars[i];
	out[j] = NULL;
	return out;
}

/*
 * Under a profile: is the program an exec of path with argv runs one the
 * profile lists, but one the shim cannot reach (exe_refused: the dynamic
 * loader run as a command is judged by the program it runs)?  Then say
 * so, and the exec fails with EACCES rather than run it untamed: 0, or
 * EACCES.
 */
static int
refused(int dirfd, const char *path, int atflags, char *const argv[])
{
	char prog[PATH_MAX];
	struct iovec iov[7];
	const char *why;
	int saved = errno, loaded, i;

	if (shim.mode != SHIM_PROFILE)
		return 0;
	why = exe_refused(&shim.profile, dirfd, path, atflags, argv, prog,
	    &loaded);
	errno = saved;
	if (why == NULL)
		return 0;
	iov[0].iov_base = "tame-exec: ";
	iov[1].iov_base = prog;
	iov[2].iov_base = " is listed in ";
	iov[3].iov_base = (char *)shim.file;
	iov[4].iov_base = " but ";
	iov[5].iov_base = (char *)why;
	iov[6].iov_base = loaded ? ": the dynamic loader would run it "
	    "untamed; not run\n" : ": it would run untamed; not run\n";
	for (i = 0; i < 7; i++)
		iov[i].iov_len = strlen(iov[i].iov_base);
	(void)!writev(2, iov, 7);
	errno = saved;
	return EACCES;
}

/*
 * The same for file searched in PATH, as glibc's execvp and posix_spawnp
 * search it: the first candidate that is a regular file we may
 * execute, since the search goes on past EACCES and ENOENT.  A guess
 * made beforehand, so that the search itself stays the C library's.
 */
static int
refused_search(const char *file, char *const argv[])
{
	char buf[PATH_MAX];
	const char *path, *p, *end;
	size_t len = strlen(file), n;
	struct stat st;

	if (shim.mode != SHIM_PROFILE || *file == '\0')
		return 0;
	if (strchr(file, '/') != NULL)
		return refused(AT_FDCWD, file, 0, argv);
	if ((path = getenv("PATH")) == NULL)
		path = "/bin:/usr/bin";		/* glibc's when unset */
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		n = (size_t)(end - p);
		if (n + 1 + len < sizeof(buf)) {
			memcpy(buf, p, n);
			if (n > 0)	/* an empty entry is the directory */
				buf[n++] = '/';
			memcpy(buf + n, file, len + 1);
			if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(buf, X_OK) == 0)
				return refused(AT_FDCWD, buf, 0, argv);
		}
		if (*end == '\0')
			return 0;
	}
}
