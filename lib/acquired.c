/* SPDX-License-Identifier: ISC */
/*
 * acquired.c: what a process may hold from before its first tame() that
 * the filter would never see.
 *
 * tame() restricts system calls.  Two things a process can set up
 * beforehand act later without one:
 *
 *  - an io_uring with a submission-queue polling thread (SQPOLL): the
 *    kernel thread reads requests the program writes into shared memory
 *    and makes them (open, connect, ...) with no system call at all, and
 *    outside the filter and any Landlock layer of ours.  tame() refuses
 *    with EBUSY while such a thread exists; a ring without one needs
 *    io_uring_enter(2), which no flag allows.
 *  - the READ_IMPLIES_EXEC personality: every later PROT_READ mapping is
 *    executable, under a filter that refuses PROT_EXEC.  tame() clears it
 *    (personality(2) itself is refused afterwards).
 *
 * Both are looked at only on the first call: neither can be made after it.
 */
#include <sys/personality.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "sys.h"
#include "tame_int.h"

/* The kernel names its SQPOLL thread "iou-sqp-PID" in our thread group. */
#define SQPOLL_COMM	"iou-sqp-"

struct linux_dirent64 {
	uint64_t	 d_ino;
	int64_t		 d_off;
	unsigned short	 d_reclen;
	unsigned char	 d_type;
	char		 d_name[];
};

/* Is the thread named name (a directory of /proc/self/task) a poller? */
static int
is_sqpoll(int task, const char *name)
{
	char path[64] = "", comm[32];
	long fd, n;

	if (strlen(name) > sizeof(path) - sizeof("/comm"))
		return 0;
	strcpy(path, name);
	strcat(path, "/comm");
	fd = tame__sys(SYS_openat, task, (long)path, O_RDONLY | O_CLOEXEC, 0,
	    0, 0);
	if (fd < 0)
		return 0;		/* gone since */
	n = tame__sys(SYS_read, fd, (long)comm, sizeof(comm) - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return n >= (long)strlen(SQPOLL_COMM) &&
	    memcmp(comm, SQPOLL_COMM, strlen(SQPOLL_COMM)) == 0;
}

/* Does a thread of this process poll an io_uring's submission queue? */
static int
has_sqpoll_thread(void)
{
	char buf[2048];
	struct linux_dirent64 *d;
	long task, n, off;
	int found = 0;

	task = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self/task",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (task < 0)
		return 0;		/* no /proc: nothing to look at */
	while (!found && (n = tame__sys(SYS_getdents64, task, (long)buf,
	    sizeof(buf), 0, 0, 0)) > 0) {
		for (off = 0; off < n && !found; off += d->d_reclen) {
			d = (struct linux_dirent64 *)(void *)(buf + off);
			if (d->d_name[0] != '.')
				found = is_sqpoll((int)task, d->d_name);
		}
	}
	tame__sys(SYS_close, task, 0, 0, 0, 0, 0);
	return found;
}

int
tame__acquired_check(int single_threaded)
{
	long p;

	/* the poller is a thread: a single-threaded process has none */
	if (!single_threaded && has_sqpoll_thread()) {
		errno = EBUSY;
		return -1;
	}
	p = tame__sys(SYS_personality, 0xffffffff, 0, 0, 0, 0, 0);
	if (p >= 0 && (p & READ_IMPLIES_EXEC))
		tame__sys(SYS_personality, p & ~READ_IMPLIES_EXEC, 0, 0, 0,
		    0, 0);
	return 0;
}
