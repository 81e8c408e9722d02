/* SPDX-License-Identifier: ISC */
/*
 * landlock_rights.h: the file system rights of Landlock that libtame's
 * two users of it group alike: the path-gated flags' layers
 * (landlock.c) and unveil()'s (unveil.c).
 */
#ifndef TAME_LANDLOCK_RIGHTS_H
#define TAME_LANDLOCK_RIGHTS_H

#include <linux/landlock.h>

/* Rights newer than Debian 12's <linux/landlock.h> (ABI 2). */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER	(1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE	(1ULL << 14)
#endif

#define LL_READ		(LANDLOCK_ACCESS_FS_READ_FILE | \
			 LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_WRITE	(LANDLOCK_ACCESS_FS_WRITE_FILE | \
			 LANDLOCK_ACCESS_FS_TRUNCATE)
#define LL_CREATE	(LANDLOCK_ACCESS_FS_REMOVE_DIR | \
			 LANDLOCK_ACCESS_FS_REMOVE_FILE | \
			 LANDLOCK_ACCESS_FS_MAKE_CHAR | \
			 LANDLOCK_ACCESS_FS_MAKE_DIR | \
			 LANDLOCK_ACCESS_FS_MAKE_REG | \
			 LANDLOCK_ACCESS_FS_MAKE_SOCK | \
			 LANDLOCK_ACCESS_FS_MAKE_FIFO | \
			 LANDLOCK_ACCESS_FS_MAKE_BLOCK | \
			 LANDLOCK_ACCESS_FS_MAKE_SYM)
/* What a rule may grant a file rather than a directory. */
#define LL_FILE		(LANDLOCK_ACCESS_FS_READ_FILE | \
			 LANDLOCK_ACCESS_FS_WRITE_FILE | \
			 LANDLOCK_ACCESS_FS_TRUNCATE)

#endif /* TAME_LANDLOCK_RIGHTS_H */
