/* SPDX-License-Identifier: ISC */
/*
 * sys.h: a raw system call, returning -errno instead of setting errno.
 *
 * libtame's own calls, from tame() and from the SIGSYS handler, where
 * errno and glibc's wrappers (which may block signals, or set errno under
 * another thread's feet) are not wanted.  The call has no standing of its
 * own: the filter judges it exactly as any other call of the process, so
 * the handler makes only calls the process's flags allow (a call the
 * filter traps, made from the handler, would kill: SIGSYS is blocked
 * there).  Where the handler needs a call the flags alone do not allow,
 * the row that allows it can be reached by any code in the process and
 * must grant nothing by itself (policy.c, TAME_MARK), or the supervisor
 * makes it (supervisor.h).
 */
#ifndef TAME_SYS_H
#define TAME_SYS_H

#include <sys/syscall.h>

/*
 * Calls newer than some headers libtame is built with; numbered alike on
 * every architecture since Linux 5.1's common table.
 */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal	424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open		434
#endif
#ifndef SYS_openat2
#define SYS_openat2		437
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd		438
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2		439
#endif

long	tame__sys(long nr, long a0, long a1, long a2, long a3, long a4,
	    long a5);

#endif /* TAME_SYS_H */
