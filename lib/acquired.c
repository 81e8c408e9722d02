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
 *    outside the filter and any Landlock layer of ours; in the context of
 *    the ring's owner, which may be another process (a parent whose ring
 *    the process inherited).  tame() refuses with EBUSY while the process
 *    holds a descriptor of a polled ring, or maps the memory of a ring it
 *    holds no descriptor of (whose owner it cannot see); a ring without
 *    a poller needs io_uring_enter(2), which no flag allows.
 *  - the READ_IMPLIES_EXEC personality: every later PROT_READ mapping is
 *    executable, under a filter that refuses PROT_EXEC.  tame() clears it
 *    (personality(2) itself is refused afterwards).
 *
 * Both are looked at only on the first call: neither can be made after it.
 */
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "supervisor.h"
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

/*
 * A number from a line "key: N" of a small /proc file, or LONG_MIN.
 */
static long
field(int dir, const char *name, const char *key)
{
	char buf[1024], *p;
	long fd, n, v = 0, sign = 1;

	fd = tame__sys(SYS_openat, dir, (long)name, O_RDONLY | O_CLOEXEC, 0,
	    0, 0);
	if (fd < 0)
		return LONG_MIN;
	n = tame__sys(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (n <= 0)
		return LONG_MIN;
	buf[n] = '\0';
	if ((p = strstr(buf, key)) == NULL)
		return LONG_MIN;
	for (p += strlen(key); *p == '\t' || *p == ' '; p++)
		;
	if (*p == '-') {
		sign = -1;
		p++;
	}
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return sign * v;
}

#define MAXRINGS	16

/*
 * The io_uring rings the process holds descriptors of (their inodes, in
 * rings), or -1 for one that a kernel thread polls.
 */
static int
held_rings(uint64_t *rings)
{
	char buf[2048], link[32], info[48];
	struct linux_dirent64 *d;
	long dir, n, off, len, ino;
	int found = 0;

	dir = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self/fd",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (dir < 0)
		return 0;		/* no /proc: nothing to look at */
	while ((n = tame__sys(SYS_getdents64, dir, (long)buf, sizeof(buf), 0,
	    0, 0)) > 0) {
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct linux_dirent64 *)(void *)(buf + off);
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			len = tame__sys(SYS_readlinkat, dir, (long)d->d_name,
			    (long)link, sizeof(link) - 1, 0, 0);
			if (len <= 0)
				continue;
			link[len] = '\0';
			if (strcmp(link, "anon_inode:[io_uring]") != 0)
				continue;
			strcpy(info, "/proc/self/fdinfo/");
			strncat(info, d->d_name, sizeof(info) - 19);
			if (field(AT_FDCWD, info, "\nSqThread:") >= 0) {
				found = -1;	/* polled */
				goto done;
			}
			ino = field(AT_FDCWD, info, "\nino:");
			if (found < MAXRINGS && ino != LONG_MIN)
				rings[found++] = (uint64_t)ino;
		}
	}
done:
	tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
	return found;
}

/* Is a line of /proc/self/maps a ring's memory, of a ring not in rings? */
static int
foreign_ring_line(const char *line, const uint64_t *rings, int nrings)
{
	const char *p = line;
	uint64_t ino;
	int i, field_no;

	if (strstr(line, "anon_inode:[io_uring]") == NULL)
		return 0;
	/* the fifth field is the inode */
	for (field_no = 0; field_no < 4 && *p != '\0'; p++)
		if (*p == ' ' && p[1] != ' ')
			field_no++;
	for (ino = 0; *p >= '0' && *p <= '9'; p++)
		ino = ino * 10 + (uint64_t)(*p - '0');
	for (i = 0; i < nrings; i++)
		if (rings[i] == ino)
			return 0;
	return 1;
}

/* Does the process map the memory of a ring it holds no descriptor of? */
static int
foreign_ring_mapped(const uint64_t *rings, int nrings)
{
	static char buf[8192];		/* static: no allocation here */
	char *line, *nl;
	size_t len = 0;
	long fd, n;
	int found = 0;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self/maps",
	    O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return 0;
	while (!found && (n = tame__sys(SYS_read, fd, (long)(buf + len),
	    (long)(sizeof(buf) - 1 - len), 0, 0, 0)) > 0) {
		len += (size_t)n;
		buf[len] = '\0';
		for (line = buf; !found && (nl = strchr(line, '\n')) != NULL;
		    line = nl + 1) {
			*nl = '\0';
			found = foreign_ring_line(line, rings, nrings);
		}
		len -= (size_t)(line - buf);
		memmove(buf, line, len);
		if (len == sizeof(buf) - 1)
			len = 0;	/* a line of 8 KiB: a path, not a ring */
	}
	if (!found && len > 0) {
		buf[len] = '\0';
		found = foreign_ring_line(buf, rings, nrings);
	}
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return found;
}

int
tame__acquired_check(int single_threaded)
{
	uint64_t rings[MAXRINGS];
	int nrings;
	long p;

	/* the poller is a thread: a single-threaded process has none */
	if (!single_threaded && has_sqpoll_thread()) {
		errno = EBUSY;
		return -1;
	}
	/* ... of its own; another's, through a ring it holds or maps */
	if ((nrings = held_rings(rings)) < 0 ||
	    foreign_ring_mapped(rings, nrings)) {
		errno = EBUSY;
		return -1;
	}
	/*
	 * Under a filter already (an image exec'd by a pledged one): the
	 * first pledge cleared it, and no filter lets it be set again.
	 */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2 &&
	    tame__sys(TAME_ASK_NR, TAME_ASK_HELLO, 0, 0, 0, 0, 0) >=
	    TAME_ASK_VERSION)
		return 0;
	p = tame__sys(SYS_personality, 0xffffffff, 0, 0, 0, 0, 0);
	if (p >= 0 && (p & READ_IMPLIES_EXEC))
		tame__sys(SYS_personality, p & ~READ_IMPLIES_EXEC, 0, 0, 0,
		    0, 0);
	return 0;
}
