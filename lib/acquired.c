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
 * The look is most of what a first tame() costs beyond the kernel's own
 * work (about 30 us of 200 on the reference VM, 100 before it avoided
 * listing /proc/self/fd and reading the text of /proc/self/maps in the
 * common case), so each step takes the cheapest way that sees it all.
 */
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <time.h>

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

/*
 * PROCMAP_QUERY (Linux 6.11, <linux/fs.h>; older headers lack it): one
 * ioctl on /proc/PID/maps answers for the first mapping at or after an
 * address that has the asked-for properties, without the text of them
 * all.
 */
struct tame_procmap_query {
	uint64_t	 size, query_flags, query_addr;
	uint64_t	 vma_start, vma_end, vma_flags, vma_page_size;
	uint64_t	 vma_offset, inode;
	uint32_t	 dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t	 vma_name_addr, build_id_addr;
};
#define TAME_PROCMAP_QUERY	_IOWR('f', 17, struct tame_procmap_query)
#define TAME_PROCMAP_SHARED	0x08	/* PROCMAP_QUERY_VMA_SHARED */
#define TAME_PROCMAP_OR_NEXT	0x10	/* ..._COVERING_OR_NEXT_VMA */
#define TAME_PROCMAP_FILE	0x20	/* ..._FILE_BACKED_VMA */

#define RING_NAME	"anon_inode:[io_uring]"

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
has_sqpoll_thread(int self)
{
	char buf[2048];
	struct linux_dirent64 *d;
	long task, n, off;
	int found = 0;

	task = tame__sys(SYS_openat, self, (long)"task",
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

struct rings {
	uint64_t	 ino[MAXRINGS];	/* of the rings held, unpolled */
	int		 n;
	int		 polled;	/* one held is polled */
};

/*
 * Might descriptor fd be an io_uring?  Its file is an anonymous inode:
 * no file type (every kernel to date), or, should a kernel give those
 * one, a regular file of a device-less file system.  Only these are
 * looked at through /proc (a link to read costs a lookup each).
 */
static int
maybe_ring(long fd)
{
	struct stat st;

	if (tame__sys(SYS_fstat, fd, (long)&st, 0, 0, 0, 0) != 0)
		return 0;		/* closed since */
	return (st.st_mode & S_IFMT) == 0 ||
	    (S_ISREG(st.st_mode) && major(st.st_dev) == 0);
}

/* Note descriptor fd (a name in /proc/self/fd) if it is a ring. */
static void
note_ring(int self, const char *fd, struct rings *r)
{
	char path[32], link[sizeof(RING_NAME) + 1];
	long len, ino;

	if (strlen(fd) > 10)
		return;
	strcpy(path, "fd/");
	strcat(path, fd);
	len = tame__sys(SYS_readlinkat, self, (long)path, (long)link,
	    sizeof(link) - 1, 0, 0);
	if (len <= 0)
		return;
	link[len] = '\0';
	if (strcmp(link, RING_NAME) != 0)
		return;
	strcpy(path, "fdinfo/");
	strcat(path, fd);
	if (field(self, path, "\nSqThread:") >= 0)
		r->polled = 1;
	else if (r->n < MAXRINGS && (ino = field(self, path, "\nino:")) !=
	    LONG_MIN)
		r->ino[r->n++] = (uint64_t)ino;
}

#define POLL_CHUNK	64
#define POLL_MAX	1024	/* beyond: the listing */

/*
 * The common case, without listing /proc/self/fd (which makes an inode
 * for each descriptor): since Linux 6.2 that directory's size is the
 * number of open descriptors, and poll(2) over 64 numbers at a time
 * finds which are open, until all are found.  -1 if done; 0 if some are
 * beyond the first POLL_MAX numbers, or the kernel does not count.
 */
static int
rings_low_fds(int self, struct rings *r)
{
	static struct pollfd pfd[POLL_CHUNK];	/* static: no stack */
	struct timespec none = { 0, 0 };
	struct tame_line name;
	struct stat st;
	long base, i, open = 0;

	if (tame__sys(SYS_newfstatat, self, (long)"fd", (long)&st, 0, 0,
	    0) != 0 || st.st_size <= 0)
		return 0;
	for (base = 0; open < st.st_size; base += POLL_CHUNK) {
		if (base >= POLL_MAX)
			return 0;
		for (i = 0; i < POLL_CHUNK; i++) {
			pfd[i].fd = (int)(base + i);
			pfd[i].events = 0;
			pfd[i].revents = 0;
		}
		if (tame__sys(SYS_ppoll, (long)pfd, POLL_CHUNK, (long)&none, 0,
		    0, 0) < 0)
			return 0;
		/* self, a path descriptor, is open but not pollable */
		for (i = 0; i < POLL_CHUNK; i++) {
			if (pfd[i].revents & POLLNVAL && base + i != self)
				continue;
			open++;
			if (!r->polled && base + i != self &&
			    maybe_ring(base + i)) {
				name.len = 0;
				tame__put_num(&name, base + i);
				name.buf[name.len] = '\0';
				note_ring(self, name.buf, r);
			}
		}
	}
	return open == st.st_size ? -1 : 0;
}

/*
 * The io_uring rings the process holds descriptors of: whether one is
 * polled by a kernel thread, and the others' inodes.
 */
static void
held_rings(int self, struct rings *r)
{
	char buf[2048];
	struct linux_dirent64 *d;
	long dir, n, off;

	if (rings_low_fds(self, r) == -1)
		return;
	dir = tame__sys(SYS_openat, self, (long)"fd",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (dir < 0)
		return;			/* no /proc: nothing to look at */
	while (!r->polled && (n = tame__sys(SYS_getdents64, dir, (long)buf,
	    sizeof(buf), 0, 0, 0)) > 0)
		for (off = 0; off < n && !r->polled; off += d->d_reclen) {
			d = (struct linux_dirent64 *)(void *)(buf + off);
			if (d->d_name[0] >= '0' && d->d_name[0] <= '9')
				note_ring(self, d->d_name, r);
		}
	tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
}

/* Is the ring of inode ino one of those held? */
static int
is_held(const struct rings *r, uint64_t ino)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->ino[i] == ino)
			return 1;
	return 0;
}

/* Is a line of /proc/self/maps a ring's memory, of a ring not held? */
static int
foreign_ring_line(const char *line, const struct rings *r)
{
	const char *p = line;
	uint64_t ino;
	int field_no;

	if (strstr(line, RING_NAME) == NULL)
		return 0;
	/* the fifth field is the inode */
	for (field_no = 0; field_no < 4 && *p != '\0'; p++)
		if (*p == ' ' && p[1] != ' ')
			field_no++;
	for (ino = 0; *p >= '0' && *p <= '9'; p++)
		ino = ino * 10 + (uint64_t)(*p - '0');
	return !is_held(r, ino);
}

/* The same, from the text of /proc/self/maps (kernels before 6.11). */
static int
foreign_ring_in_text(long fd, const struct rings *r)
{
	static char buf[8192];		/* static: no allocation here */
	char *line, *nl;
	size_t len = 0;
	long n;
	int found = 0;

	while (!found && (n = tame__sys(SYS_read, fd, (long)(buf + len),
	    (long)(sizeof(buf) - 1 - len), 0, 0, 0)) > 0) {
		len += (size_t)n;
		buf[len] = '\0';
		for (line = buf; !found && (nl = strchr(line, '\n')) != NULL;
		    line = nl + 1) {
			*nl = '\0';
			found = foreign_ring_line(line, r);
		}
		len -= (size_t)(line - buf);
		memmove(buf, line, len);
		if (len == sizeof(buf) - 1)
			len = 0;	/* a line of 8 KiB: a path, not a ring */
	}
	if (!found && len > 0) {
		buf[len] = '\0';
		found = foreign_ring_line(buf, r);
	}
	return found;
}

/*
 * Does the process map the memory of a ring it holds no descriptor of?
 * A ring's memory is a shared mapping of its file; PROCMAP_QUERY walks
 * those alone (few: libraries are private), the text is read where the
 * kernel has no such query, or a filter (an image executed under
 * execpromises) refuses the ioctl.
 */
static int
foreign_ring_mapped(int self, const struct rings *r, int filtered)
{
	static char name[4096];		/* a path: PATH_MAX at most */
	struct tame_procmap_query q;
	uint64_t at = 0;
	long fd, e;
	int found = 0;

	fd = tame__sys(SYS_openat, self, (long)"maps", O_RDONLY | O_CLOEXEC,
	    0, 0, 0);
	if (fd < 0)
		return 0;
	for (e = filtered ? -ENOTTY : 0; e == 0;) {
		memset(&q, 0, sizeof(q));
		q.size = sizeof(q);
		q.query_flags = TAME_PROCMAP_OR_NEXT | TAME_PROCMAP_SHARED |
		    TAME_PROCMAP_FILE;
		q.query_addr = at;
		q.vma_name_addr = (uint64_t)(uintptr_t)name;
		q.vma_name_size = sizeof(name);
		if ((e = tame__sys(SYS_ioctl, fd, TAME_PROCMAP_QUERY,
		    (long)&q, 0, 0, 0)) != 0)
			break;
		if (q.vma_name_size > 0 && strcmp(name, RING_NAME) == 0 &&
		    !is_held(r, q.inode)) {
			found = 1;
			break;
		}
		at = q.vma_end;
	}
	/* ENOENT: no more; anything else (ENOTTY before 6.11): the text */
	if (!found && e != 0 && e != -ENOENT)
		found = foreign_ring_in_text(fd, r);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return found;
}

int
tame__acquired_check(int single_threaded)
{
	struct rings rings = { .n = 0, .polled = 0 };
	int busy, filtered = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2;
	long self, p;

	/* one lookup of this process's /proc directory for every look */
	self = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self",
	    O_PATH | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (self >= 0) {
		/* the poller is a thread: a single-threaded process has none */
		busy = !single_threaded && has_sqpoll_thread((int)self);
		/* ... of its own; another's, through a ring held or mapped */
		if (!busy)
			held_rings((int)self, &rings);
		busy = busy || rings.polled ||
		    foreign_ring_mapped((int)self, &rings, filtered);
		tame__sys(SYS_close, self, 0, 0, 0, 0, 0);
		if (busy) {
			errno = EBUSY;
			return -1;
		}
	}
	/*
	 * Under a filter already (an image exec'd by a pledged one): the
	 * first pledge cleared it, and no filter lets it be set again.
	 */
	if (filtered &&
	    tame__sys(TAME_ASK_NR, TAME_ASK_HELLO, 0, 0, 0, 0, 0) >=
	    TAME_ASK_VERSION)
		return 0;
	p = tame__sys(SYS_personality, 0xffffffff, 0, 0, 0, 0, 0);
	if (p >= 0 && (p & READ_IMPLIES_EXEC))
		tame__sys(SYS_personality, p & ~READ_IMPLIES_EXEC, 0, 0, 0,
		    0, 0);
	return 0;
}
