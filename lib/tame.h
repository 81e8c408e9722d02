/* SPDX-License-Identifier: ISC */
/*
 * tame.h: OpenBSD's 2015 tame(2) for Linux, on seccomp-BPF and Landlock.
 *
 * A process calls tame() once it has acquired what it needs; from then on
 * it may only make the system calls its flags allow, and any other call
 * kills the whole process with SIGSYS after one line on stderr that names
 * the call and the flag that would have allowed it.  Flags only narrow.
 * See tame(3) for what each flag allows.
 */
#ifndef TAME_H
#define TAME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TAME_VERSION_MAJOR	0
#define TAME_VERSION_MINOR	2
#define TAME_VERSION_PATCH	0

/* The thirteen flags of the July 2015 design. */
#define TAME_MALLOC	0x0001	/* allocate memory, start threads */
#define TAME_RW		0x0002	/* I/O on descriptors already open */
#define TAME_RPATH	0x0004	/* open for reading, look paths up */
#define TAME_WPATH	0x0008	/* open existing files for writing */
#define TAME_CPATH	0x0010	/* create and remove names */
#define TAME_TMPPATH	0x0020	/* read, write, create, remove in /tmp */
#define TAME_INET	0x0040	/* AF_INET and AF_INET6 sockets */
#define TAME_UNIX	0x0080	/* AF_UNIX sockets */
#define TAME_DNSPATH	0x0100	/* name service: resolv.conf, hosts, DNS */
#define TAME_GETPW	0x0200	/* passwd and group databases */
#define TAME_CMSG	0x0400	/* pass descriptors (see CAVEATS) */
#define TAME_IOCTL	0x0800	/* terminal ioctls */
#define TAME_PROC	0x1000	/* fork, kill, wait, set*id */

#define TAME_STDIO	(TAME_MALLOC | TAME_RW)
#define TAME_ALL	0x1fff	/* every flag: the state before tame() */

/*
 * Restrict the calling process, all its threads and all its future
 * children to the system calls that flags allow.  Returns 0, or -1 with
 * errno: EINVAL for bits outside TAME_ALL, EPERM for a flag not currently
 * held, EBUSY if another thread carries a filter of its own (or, at the
 * first call, an io_uring's polling thread would make calls no filter
 * sees), ENOSYS where the kernel has no seccomp filters.  On error
 * nothing is installed.
 */
int		 tame(int flags);

/* The flags currently held: TAME_ALL before the first tame(). */
int		 tame_flags_held(void);

/*
 * Parse a list of flag names separated by commas, spaces or '|', case
 * insensitive, with or without the TAME_ prefix ("malloc,rpath",
 * "TAME_STDIO|TAME_RPATH", "stdio").  A name given twice counts once;
 * "", "," and " | " parse to 0.  s is a NUL-terminated string, read up
 * to its NUL and no further, of any length.  Returns 0 and stores the
 * flags, or -1 with errno EINVAL and *flags unchanged: for an unknown
 * name, when *bad, if bad is not NULL, points at it within s; and for s
 * or flags NULL, when *bad is left alone.
 */
int		 tame_flags_parse(const char *s, int *flags, const char **bad);

/*
 * Write the lowercase names of flags, separated by commas, into buf.
 * TAME_STDIO prints as "stdio"; 0 as "".  As snprintf does, it writes
 * at most len bytes, always NUL-terminated when len > 0, and returns
 * the length the full string needs; buf may be NULL when len is 0.
 * Returns -1 with EINVAL for bits outside TAME_ALL (a negative value
 * included), or for buf NULL with len > 0; then buf is unchanged.
 */
int		 tame_flags_name(int flags, char *buf, size_t len);

/*
 * The name of one flag ("rpath"), or of TAME_STDIO ("stdio"); NULL for
 * any other value: 0, other combinations, bits outside TAME_ALL.
 */
const char	*tame_flag_name(int flag);

/*
 * The Landlock ABI this kernel offers (0 where Landlock is missing or
 * disabled).  The path-gated flags TMPPATH, GETPW and DNSPATH, and the
 * base set's time zone files, are confined by it; without it, by the
 * SIGSYS handler's openat2 (see tame_flags_unconfined()).
 */
int		 tame_landlock_abi(void);

/*
 * Of TAME_TMPPATH, TAME_GETPW and TAME_DNSPATH in flags, those this
 * kernel cannot confine to their paths: neither Landlock nor openat2
 * (Linux 5.6) is there.  tame() grants such a flag nothing: its paths
 * fail with EACCES, as do the base set's time zone files.  0 when all
 * can be confined; -1 with EINVAL for bits outside TAME_ALL.
 */
int		 tame_flags_unconfined(int flags);

const char	*tame_version(void);

#ifdef __cplusplus
}
#endif

#endif /* TAME_H */
