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
 * Where Landlock differs from OpenBSD (unveil(3) CAVEATS, each tested
 * in tests/t_unveil.c): nothing is hidden before the lock; overlapping
 * rules add up instead of the deepest one deciding, so "" cannot hide a
 * path beneath one unveiled; a hidden path fails with EACCES, not
 * ENOENT, and stat() still sees it; a path must exist to be unveiled;
 * the layer binds the locking thread and those it starts later, and
 * the images it execs.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/landlock.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "sys.h"
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

/* The lock: the layer goes in, with the rules unveil() added. */
int
tame__unveil_lock(void)
{
	long r;

	if (locked)
		return 0;
	if (ruleset == -1) {
		locked = 1;		/* nothing unveiled: nothing hidden */
		return 0;
	}
	/* on failure the rules stay, and a later lock may try again */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	r = tame__sys(SYS_landlock_restrict_self, ruleset, 0, 0, 0, 0, 0);
	if (r < 0)
		return fail((int)-r);
	tame__sys(SYS_close, ruleset, 0, 0, 0, 0, 0);
	ruleset = -1;
	locked = 1;
	return 0;
}

static int
add_rule(const char *path, uint64_t rights)
{
	struct landlock_path_beneath_attr pb;
	long fd, r;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_PATH | O_CLOEXEC,
	    0, 0, 0);
	if (fd < 0)
		return fail((int)-fd);
	pb.parent_fd = (int)fd;
	pb.allowed_access = rights & handled;
	r = tame__sys(SYS_landlock_add_rule, ruleset,
	    LANDLOCK_RULE_PATH_BENEATH, (long)&pb, 0, 0, 0);
	if (r == -EINVAL) {
		/* a file: only the rights a file has */
		pb.allowed_access &= UV_FILE;
		r = pb.allowed_access == 0 ? 0 : tame__sys(
		    SYS_landlock_add_rule, ruleset,
		    LANDLOCK_RULE_PATH_BENEATH, (long)&pb, 0, 0, 0);
	}
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return r < 0 ? fail((int)-r) : 0;
}

TAME_EXPORT int
unveil(const char *path, const char *permissions)
{
	struct landlock_ruleset_attr attr = { 0 };
	uint64_t rights;
	int abi;
	long fd;

	if (locked || (tame__state.tamed &&
	    !(tame__state.held & TAME__UNVEIL)))
		return fail(EPERM);
	if (path == NULL && permissions == NULL)
		return tame__unveil_lock();
	if (path == NULL || permissions == NULL ||
	    parse_permissions(permissions, &rights) == -1)
		return fail(EINVAL);
	if ((abi = tame_landlock_abi()) == 0)
		return fail(ENOSYS);	/* no Landlock: nothing can hide */
	if (ruleset == -1) {
		handled = known_rights(abi);
		attr.handled_access_fs = handled;
		fd = tame__sys(SYS_landlock_create_ruleset, (long)&attr,
		    sizeof(attr), 0, 0, 0, 0);
		if (fd < 0)
			return fail((int)-fd);
		ruleset = (int)fd;
	}
	/* "": no rights; the path stays hidden unless a parent is not */
	if (rights == 0)
		return 0;
	return add_rule(path, rights);
}
