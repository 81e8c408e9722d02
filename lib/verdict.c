/* SPDX-License-Identifier: ISC */
/*
 * verdict.c: what tame() does to one call, decided without making it.
 *
 * The filter decides most calls from the table (tame_policy_match); a
 * call it traps for emulation is decided by the handler on what it reads
 * from memory (tame__trap_allows), and a call the handler refuses falls
 * to the table's later rows, where a soft denial may answer it.  The
 * handler takes these steps as it goes (emulate.c and cmsg.c copy what
 * they read, ask here, and make the call), and its violation line names
 * the flags whose paths would have granted a path (tame__path_rights);
 * tame-audit needs the answer for calls it only saw in a trace, and
 * gets it here, from the same pieces.  Nothing here makes a call or
 * reads the program's memory.
 */
#include <sys/syscall.h>

#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "policy.h"
#include "tame_int.h"

#define STAT_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH)

/* Attribute names a WPATH process may set or remove. */
static int
xattr_name_ok(const char *name)
{
	return strncmp(name, "user.", 5) == 0 ||
	    strcmp(name, "system.posix_acl_access") == 0 ||
	    strcmp(name, "system.posix_acl_default") == 0;
}

/*
 * The rights a trapped call's path needs, for those the handler checks
 * against tame_lpaths; 0 for any other call.  The violation report uses
 * it to name the flags whose paths would have granted this one.
 */
int
tame__path_rights(int nr, const uint64_t a[6], const char *path)
{
	int flags;

	switch (nr) {
	case SYS_openat:
#ifdef SYS_open
	case SYS_open:
#endif
		flags = (int)a[nr == SYS_openat ? 2 : 1];
		if ((flags & TAME_OPEN_BITS) == O_RDONLY ||
		    (flags & TAME_OPEN_BITS) == O_PATH)
			return TL_READ;
		return flags & (O_CREAT | TAME_TMPFILE_BIT) ? TL_FULL : TL_RW;
	case SYS_newfstatat:
	case SYS_statx:
		flags = (int)a[nr == SYS_statx ? 2 : 3];
		/* fstat's spelling looks no path up */
		if ((flags & AT_EMPTY_PATH) && (a[1] == 0 ||
		    (path != NULL && path[0] == '\0')))
			return 0;
		return TL_READ;
	case SYS_unlinkat:
	case SYS_mkdirat:
#ifdef SYS_unlink
	case SYS_creat:
	case SYS_unlink:
	case SYS_rmdir:
	case SYS_mkdir:
#endif
		return TL_FULL;
	}
	return 0;
}

/*
 * The handler's decision on a trapped call, from what it read of the
 * program's memory (struct tame_seen): 1 when it makes the call (or
 * answers as the kernel or the table would), 0 when it refuses.  The
 * emulations (emulate.c, cmsg.c) ask it after copying; tame-audit asks
 * it of a traced call (tame__verdict), so that both decide by one rule.
 */
int
tame__trap_allows(tame_atoms held, int nr, const uint64_t a[6],
    const struct tame_seen *s)
{
	const char *path = s->path != NULL ? s->path : "";
	int flags;

	switch (nr) {
	case SYS_openat:
#ifdef SYS_open
	case SYS_open:
	case SYS_creat:
	case SYS_unlink:
	case SYS_rmdir:
	case SYS_mkdir:
#endif
	case SYS_unlinkat:
	case SYS_mkdirat:
		return tame__path_granted(held, s->path,
		    tame__path_rights(nr, a, s->path));
	case SYS_newfstatat:
		flags = (int)a[3];
		if ((flags & AT_EMPTY_PATH) && path[0] == '\0')
			/* fstat; of AT_FDCWD a lookup of ".", RPATH's */
			return (held & TAME_RW) && (int)a[0] != AT_FDCWD;
		return (flags & ~STAT_FLAGS) == 0 &&
		    tame__path_granted(held, path, TL_READ);
	case SYS_statx:
		flags = (int)a[2];
		return ((flags & AT_EMPTY_PATH) && path[0] == '\0') ||
		    tame__path_granted(held, path, TL_READ);
	case SYS_tkill:
		return 1;	/* tgkill(self, tid): ESRCH if not ours */
	case SYS_execve:
	case SYS_execveat:
		return 1;	/* set-ID programs fail with EACCES */
	case SYS_rt_sigprocmask:
	case SYS_rt_sigaction:
		return 1;	/* made, with SIGSYS never blocked */
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_fsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
	case SYS_fremovexattr:
		/* an empty name is the kernel's ERANGE */
		return s->name != NULL && (s->name[0] == '\0' ||
		    xattr_name_ok(s->name));
	case SYS_sendmsg:
	case SYS_sendmmsg:
		/* trapped under unveil's lock (a name) with sendfd, or free */
		return !s->rights || (held & (TAME_CMSG | TAME__FREE));
	case SYS_recvmsg:
	case SYS_recvmmsg:		/* descriptors are never installed */
		return 1;
	}
	return 0;
}

int
tame__errno_after_trap(tame_atoms held, int nr, const uint64_t a[6])
{
	int row = tame_policy_match_except(held, nr, a, TAME_ORIGIN(0),
	    TA_EMULATE);

	if (row < 0 || tame_rules[row].action != TA_ERRNO)
		return 0;
	return tame_rules[row].errnum;
}

int
tame__verdict(tame_atoms held, int nr, const uint64_t a[6],
    const struct tame_seen *seen, int *err)
{
	int row = tame_policy_match(held, nr, a, TAME_ORIGIN_IDS(seen->pid,
	    seen->ids));

	if (row < 0)
		return TAME_VERDICT_VIOLATION;
	switch (tame_rules[row].action) {
	case TA_ALLOW:
	case TA_LANDLOCK:
		return TAME_VERDICT_ALLOW;
	case TA_ERRNO:
		*err = tame_rules[row].errnum;
		return TAME_VERDICT_ERRNO;
	case TA_EMULATE:
		if (tame__trap_allows(held, nr, a, seen))
			return TAME_VERDICT_ALLOW;
		if (seen->rights)
			return TAME_VERDICT_VIOLATION;
		if ((*err = tame__errno_after_trap(held, nr, a)) != 0)
			return TAME_VERDICT_ERRNO;
		return TAME_VERDICT_VIOLATION;
	}
	return TAME_VERDICT_VIOLATION;
}
