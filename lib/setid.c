/* SPDX-License-Identifier: ISC */
/*
 * setid.c: the set-ID and sticky bits a tamed or pledged process may not
 * set (OpenBSD's pledge clears them: mode &= ACCESSPERMS).  The filter
 * traps a mode that holds them (policy.c); the handler, or the
 * supervisor where exec is held, clears them here and decides the call
 * as the table does the same call without them.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <stdint.h>

#include "policy.h"
#include "tame_int.h"

#define SETID	(S_ISUID | S_ISGID | S_ISVTX)

/* The argument of nr that holds a mode that matters, or -1. */
static int
mode_arg(int nr, const uint64_t a[6])
{
	switch (nr) {
	case SYS_fchmod:
		return 1;
	case SYS_fchmodat:
	case SYS_mkdirat:
	case SYS_mknodat:
		return 2;
	case SYS_openat:
		return (a[2] & (O_CREAT | TAME_TMPFILE_BIT)) ? 3 : -1;
#ifdef SYS_chmod
	case SYS_chmod:
	case SYS_creat:
	case SYS_mkdir:
	case SYS_mknod:
		return 1;
	case SYS_open:
		return (a[1] & (O_CREAT | TAME_TMPFILE_BIT)) ? 2 : -1;
#endif
	}
	return -1;
}

int
tame__strip_setid(int nr, uint64_t a[6])
{
	int i = mode_arg(nr, a);

	if (i < 0 || (a[i] & SETID) == 0)
		return 0;
	a[i] &= ~(uint64_t)SETID;
	return 1;
}
