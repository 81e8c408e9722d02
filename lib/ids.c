/* SPDX-License-Identifier: ISC */
/*
 * ids.c: the ids pledge's fattr compares a chown with.
 *
 * OpenBSD lets a process holding fattr but not chown give a file to
 * itself: the owner -1 or its effective uid, the group -1, its effective
 * gid or one of its groups.  The filter holds these values as constants,
 * read here when it is compiled; the violation reporter reads them again
 * to name what a refused chown needed.
 */
#include <sys/syscall.h>

#include <stdint.h>

#include "sys.h"
#include "policy.h"

void
tame__own_ids(struct tame_ids *ids)
{
	/* getgroups(2)'s list may hold the effective gid, or not */
	uint32_t groups[TAME_MAXGIDS - 1];
	long n;
	int i;

	ids->uid = (uint32_t)tame__sys(SYS_geteuid, 0, 0, 0, 0, 0, 0);
	ids->gid[0] = (uint32_t)tame__sys(SYS_getegid, 0, 0, 0, 0, 0, 0);
	ids->ngid = 1;
	/*
	 * More groups than fit: EINVAL, and none are listed.  A chown to
	 * them is then refused with EPERM, as to any group not its own.
	 */
	n = tame__sys(SYS_getgroups, TAME_MAXGIDS - 1, (long)groups, 0, 0,
	    0, 0);
	for (i = 0; i < n; i++)
		if (groups[i] != ids->gid[0])
			ids->gid[ids->ngid++] = groups[i];
}
