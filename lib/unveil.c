/* SPDX-License-Identifier: ISC */
/*
 * unveil.c: OpenBSD's unveil(2) on a Landlock layer.
 *
 * Each unveil(path, permissions) adds a rule to one ruleset that handles
 * every file system right the kernel's Landlock knows; the layer goes in
 * when unveil is locked: unveil(NULL, NULL), or a pledge() without the
 * unveil promise.  From then on only the unveiled paths are reachable,
 * each with its permissions (r: read files and list directories, w:
 * write and truncate, x: execute, c: create, remove and rename).
 *
 * Landlock judges opens, creating, removing, renaming and exec; the
 * calls it does not judge (stat, access, readlink, chdir, O_PATH, modes,
 * owners, times, attributes, a unix socket's connect by path) the lock
 * makes trap (policy.c, the UNVEILED rows), and the supervisor checks
 * them against the same rules, kept here by device and inode and handed
 * to it at the lock (sup_unveil.c).  Abstract unix sockets are out of
 * reach too (Landlock's scope where the kernel has it; the supervisor
 * refuses them).
 *
 * Where this differs from OpenBSD (unveil(3) CAVEATS, each tested in
 * tests/t_unveil.c): nothing is hidden before the lock; overlapping
 * rules add up instead of the deepest one deciding, so "" cannot hide a
 * path beneath one unveiled (the same path again does take the new
 * permissions, as OpenBSD's); a hidden path fails with EACCES, not
 * ENOENT; a name still to be made unveils its whole directory; the layer
 * binds the locking thread and those it starts later, and the images it
 * execs.
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/landlock.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "sys.h"
#include "compile.h"
#include "landlock_rights.h"
#include "policy.h"
#include "tame_int.h"

#define UV_READ		LL_READ
#define UV_WRITE	LL_WRITE
#define UV_EXEC		LANDLOCK_ACCESS_FS_EXECUTE
#define UV_CREATE	(LL_CREATE | LANDLOCK_ACCESS_FS_REFER)
/* What may be granted to a file rather than a directory. */
#define UV_FILE		(LL_FILE | UV_EXEC)

static int	 ruleset = -1;	/* rules so far, before the lock */
static int	 locked;
static uint64_t	 handled;	/* the rights this kernel's ruleset has */
static struct tame_unveil_rules rules;	/* the same, for the supervisor */

/* Landlock's scope of abstract unix sockets (ABI 6), for older headers. */
#define UV_SCOPE_ABSTRACT_UNIX	(1ULL << 0)

const struct tame_unveil_rules *
tame__unveil_rules(void)
{
	return &rules;
}

int
tame__unveil_pending(void)
{
	return !locked && ruleset != -1;
}

/* The rights this kernel knows: REFER from ABI 2, TRUNCATE from 3. */
static uint64_t
known_rights(int abi)
{
	uint64_t r = UV_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | UV_EXEC |
	    (UV_CREATE & ~LANDLOCK_ACCESS_FS_REFER);

	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	return r;
}

/* "rwxc" to rights; -1 for another letter. */
static int
parse_permissions(const char *s, uint64_t *rights)
{
	*rights = 0;
	for (; *s != '\0'; s++)
		switch (*s) {
		case 'r':
			*rights |= UV_READ;
			break;
		case 'w':
			*rights |= UV_WRITE;
			break;
		case 'x':
			*rights |= UV_EXEC;
			break;
		case 'c':
			*rights |= UV_CREATE;
			break;
		default:
			return -1;
		}
	return 0;
}

static int
fail(int err)
{
	errno = err;
	return -1;
}

static int	rule_on(long, uint64_t, int);

/*
 * The paths pledge grants beside unveil (OpenBSD's pledge_namei lets
 * /dev/null, the time zone, the name service's files and tmppath's /tmp
 * past unveil; glibc's locale data is this list's too): each of
 * tame_lpaths that the atoms pass hold, added as a rule that adds up
 * with the program's own.
 */
int
tame__unveil_pass(tame_atoms pass)
{
	static int passed;
	long fd;
	int i;

	if (passed || ruleset == -1 || pass == 0)
		return 0;
	passed = 1;
	for (i = 0; i < tame_nlpaths; i++) {
		if ((tame_lpaths[i].flag & pass) == 0)
			continue;
		fd = tame__sys(SYS_openat, AT_FDCWD, (long)tame_lpaths[i].path,
		    O_PATH | O_CLOEXEC, 0, 0, 0);
		if (fd < 0)
			continue;	/* not on this system */
		if (rule_on(fd, tame__lpath_access(tame_lpaths[i].rights),
		    1) == -1)
			return -1;
	}
	return 0;
}

/*
 * The lock: the layer goes in, with the rules unveil() added and the
 * paths of pass (the atoms held, where pledged or tamed); with threads,
 * in every thread (threads.c: libtame's SIGSYS handler must be in
 * place), as OpenBSD's unveil binds the whole process.
 */
int
tame__unveil_lock(int threads, tame_atoms pass)
{
	long r, copy;

	if (locked)
		return 0;
	if (ruleset == -1) {
		locked = 1;		/* nothing unveiled: nothing hidden */
		return 0;
	}
	if (tame__unveil_pass(pass) == -1)
		return -1;
	/* on failure the rules stay, and a later lock may try again */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	if (threads) {
		copy = tame__sys(SYS_fcntl, ruleset, F_DUPFD_CLOEXEC, 0, 0, 0,
		    0);
		if (copy < 0)
			return fail((int)-copy);
		if (tame__landlock_enforce((int)copy, 1) == -1)
			return -1;	/* it closed the copy */
	} else {
		r = tame__sys(SYS_landlock_restrict_self, ruleset, 0, 0, 0, 0,
		    0);
		if (r < 0)
			return fail((int)-r);
	}
	tame__sys(SYS_close, ruleset, 0, 0, 0, 0, 0);
	ruleset = -1;
	locked = 1;
	return 0;
}

/* "rwxc" as the supervisor's rules say it. */
static uint32_t
perms_of(uint64_t rights)
{
	return ((rights & UV_READ) ? TAME_UV_R : 0) |
	    ((rights & UV_WRITE) ? TAME_UV_W : 0) |
	    ((rights & UV_EXEC) ? TAME_UV_X : 0) |
	    ((rights & UV_CREATE) ? TAME_UV_C : 0);
}

/*
 * Beside each of the supervisor's rules (rules.r[i]): its Landlock
 * rights, whether it stands for a name still to be made (its
 * directory's rule), and where it was found, as an absolute path in
 * paths[], to rebuild the ruleset where a rule narrows.
 */
static struct {
	uint64_t	 rights;
	int		 made;
	uint32_t	 path_at;
} kept[TAME_UNVEIL_MAX];
static char	 paths[65536];
static size_t	 paths_used;

/* Keep the absolute path of descriptor fd in paths[]; its offset. */
static long
keep_path(long fd)
{
	struct tame_line proc;
	long len, at;

	at = (long)paths_used;
	if (sizeof(paths) - paths_used < PATH_MAX)
		return -E2BIG;
	len = tame__sys(SYS_readlinkat, AT_FDCWD, (long)tame__self_fd(&proc,
	    fd), (long)(paths + at), PATH_MAX - 1, 0, 0);
	if (len <= 0 || paths[at] != '/')
		return -EIO;	/* no /proc: no way to find it again */
	paths[at + len] = '\0';
	paths_used += (size_t)len + 1;
	return at;
}

/* A Landlock rule of rights on what fd is (a file: a file's rights). */
static long
landlock_rule(int set, long fd, uint64_t rights)
{
	struct landlock_path_beneath_attr pb;
	long r;

	pb.parent_fd = (int)fd;
	pb.allowed_access = rights & handled;
	if (pb.allowed_access == 0)
		return 0;		/* "": no rule, the path hidden */
	r = tame__sys(SYS_landlock_add_rule, set, LANDLOCK_RULE_PATH_BENEATH,
	    (long)&pb, 0, 0, 0);
	if (r == -EINVAL) {
		pb.allowed_access &= UV_FILE;
		r = pb.allowed_access == 0 ? 0 : tame__sys(
		    SYS_landlock_add_rule, set, LANDLOCK_RULE_PATH_BENEATH,
		    (long)&pb, 0, 0, 0);
	}
	return r;
}

static long
new_ruleset(void)
{
	struct {			/* struct landlock_ruleset_attr, ABI 6 */
		uint64_t	 handled_access_fs;
		uint64_t	 handled_access_net;
		uint64_t	 scoped;
	} attr = { handled, 0, 0 };

	if (tame_landlock_abi() >= 6)
		attr.scoped = UV_SCOPE_ABSTRACT_UNIX;
	return tame__sys(SYS_landlock_create_ruleset, (long)&attr,
	    sizeof(attr), 0, 0, 0, 0);
}

/*
 * Landlock rules only add up: where a rule narrows (the same path again
 * with fewer permissions, as OpenBSD allows), the ruleset is made anew
 * from every rule as it stands, each found again by its path and kept
 * only if that is still the same file (else it is hidden: fail closed).
 */
static long
rebuild(void)
{
	struct stat st;
	long set, fd, r = 0;
	int i;

	if ((set = new_ruleset()) < 0)
		return set;
	for (i = 0; i < rules.n && r >= 0; i++) {
		fd = tame__sys(SYS_openat, AT_FDCWD, (long)(paths +
		    kept[i].path_at), O_PATH | O_CLOEXEC, 0, 0, 0);
		if (fd < 0)
			continue;
		if (tame__sys(SYS_newfstatat, fd, (long)"", (long)&st,
		    AT_EMPTY_PATH, 0, 0) == 0 && st.st_dev == rules.r[i].dev &&
		    st.st_ino == rules.r[i].ino)
			r = landlock_rule((int)set, fd, kept[i].rights);
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	}
	if (r < 0) {
		tame__sys(SYS_close, set, 0, 0, 0, 0, 0);
		return r;
	}
	tame__sys(SYS_close, ruleset, 0, 0, 0, 0, 0);
	ruleset = (int)set;
	return 0;
}

/*
 * A rule for what fd is: the same file again takes the new permissions
 * (OpenBSD's unveil of one path twice), where neither call named a name
 * still to be made (those add up: the directory's rule stands for
 * every name in it).
 */
static int
record_rule(long fd, uint64_t rights, int made)
{
	struct stat st;
	uint64_t was;
	long at;
	int i;

	if (tame__sys(SYS_newfstatat, fd, (long)"", (long)&st, AT_EMPTY_PATH,
	    0, 0) != 0)
		return fail(EIO);
	for (i = 0; i < rules.n; i++)
		if (rules.r[i].dev == st.st_dev && rules.r[i].ino == st.st_ino)
			break;
	if (i == TAME_UNVEIL_MAX)
		return fail(E2BIG);	/* OpenBSD's limit is 128 */
	if (i == rules.n) {
		if ((at = keep_path(fd)) < 0)
			return fail((int)-at);
		rules.r[i].dev = st.st_dev;
		rules.r[i].ino = st.st_ino;
		rules.r[i].dir = S_ISDIR(st.st_mode);
		rules.r[i].perms = 0;
		kept[i].rights = 0;
		kept[i].made = made;
		kept[i].path_at = (uint32_t)at;
		rules.n++;
	}
	was = kept[i].rights;
	if (made || kept[i].made) {
		kept[i].rights |= rights;
		kept[i].made |= made;
	} else
		kept[i].rights = rights;
	rules.r[i].perms = perms_of(kept[i].rights);
	if ((was & ~kept[i].rights) != 0 && rebuild() < 0) {
		kept[i].rights = was;	/* as it was: all or nothing */
		rules.r[i].perms = perms_of(was);
		return fail(ENOMEM);
	}
	return 0;
}

/*
 * The directory a path's last name would be in, for a name not made yet
 * (OpenBSD files it there): "." for a bare name.  -errno where that
 * directory is missing too (ENOENT, as OpenBSD answers).
 */
static long
open_parent(const char *path)
{
	char dir[PATH_MAX];
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;			/* "new/": the name is "new" */
	while (n > 0 && path[n - 1] != '/')
		n--;
	if (n == 0)
		return tame__sys(SYS_openat, AT_FDCWD, (long)".", O_PATH |
		    O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return tame__sys(SYS_openat, AT_FDCWD, (long)dir, O_PATH |
	    O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
}

/* A rule of rights on what fd is, kept and added; fd closed.  0 or -1. */
static int
rule_on(long fd, uint64_t rights, int made)
{
	long r = record_rule(fd, rights, made) == -1 ? -errno :
	    landlock_rule(ruleset, fd, rights);

	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return r < 0 ? fail((int)-r) : 0;
}

static int
add_rule(const char *path, uint64_t rights)
{
	long fd;
	int made = 0;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_PATH | O_CLOEXEC,
	    0, 0, 0);
	/*
	 * A name still to be made: Landlock rules hold inodes, so the
	 * nearest is its directory's, which grants the rights on all of
	 * the directory (unveil(3), CAVEATS).
	 */
	if (fd == -ENOENT) {
		fd = open_parent(path);
		made = 1;
	}
	if (fd < 0)
		return fail((int)-fd);
	return rule_on(fd, rights, made);
}

/*
 * unveil(NULL, NULL): the lock, which makes the path calls Landlock does
 * not judge trap (a narrowing that holds what is held, and UNVEILED);
 * unpledged, a filter that checks them alone.
 */
static int
lock_request(void)
{
	struct tame_request rq = { 0 };

	if (!tame__unveil_pending())
		return tame__unveil_lock(0, 0);	/* nothing hidden */
	rq.want = tame__state.tamed ? tame__state.held & ~TAME__STATE :
	    TAME_UNRESTRICTED;
	rq.pledged = tame__state.tamed ? tame__state.pledged : 1;
	rq.exec_null = tame__state.exec_null;
	rq.exec_held = tame__state.exec_held;
	rq.unveil_lock = 1;
	return tame__narrow(&rq);
}

TAME_EXPORT int
unveil(const char *path, const char *permissions)
{
	uint64_t rights;
	int abi;
	long fd;

	if (locked || (tame__state.tamed &&
	    !(tame__state.held & TAME__UNVEIL)))
		return fail(EPERM);
	if (path == NULL && permissions == NULL)
		return lock_request();
	if (path == NULL || permissions == NULL ||
	    parse_permissions(permissions, &rights) == -1)
		return fail(EINVAL);
	if ((abi = tame_landlock_abi()) == 0)
		return fail(ENOSYS);	/* no Landlock: nothing can hide */
	if (ruleset == -1) {
		handled = known_rights(abi);
		if ((fd = new_ruleset()) < 0)
			return fail((int)-fd);
		ruleset = (int)fd;
	}
	/*
	 * "": no rights; the path stays hidden unless a parent is not, or
	 * it was unveiled before: then it narrows to nothing.
	 */
	return add_rule(path, rights);
}
