/* SPDX-License-Identifier: ISC */
/*
 * threads.c: a Landlock layer for every thread of the process.
 *
 * landlock_restrict_self(2) binds the calling thread and the threads it
 * starts later, never the others already running; a process with threads
 * at tame() would have its other threads outside the domain: other
 * processes' memory (/proc/PID/mem) and the paths the layer confines in
 * their reach.  So each thread puts the layer on itself: libtame sends
 * it SIGSYS (tgkill, from this process: si_code SI_TKILL), whose handler
 * (handler.c) sets no_new_privs and enforces the ruleset, then answers.
 * A thread that blocks SIGSYS would never answer: such a process is
 * refused (EBUSY) before anything is sent, as is one where a thread does
 * not answer in time.  Threads started meanwhile by a thread not yet in
 * the domain are sent the signal too, until every thread has answered.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sys.h"
#include "tame_int.h"

#define MAXTHREADS	1024

/* The broadcast in progress: what the handler reads and answers. */
static struct {
	volatile int	 active;
	int		 ruleset;
	volatile int	 answers;	/* threads that answered */
	volatile int	 failed;	/* one could not enforce it */
	int		 done[MAXTHREADS];	/* their ids */
} cast;

int
tame__broadcast_active(void)
{
	return cast.active;
}

void
tame__broadcast_answer(void)
{
	long tid = tame__sys(SYS_gettid, 0, 0, 0, 0, 0, 0);
	int n;

	if (tame__sys(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0) != 0 ||
	    tame__sys(SYS_landlock_restrict_self, cast.ruleset, 0, 0, 0, 0,
	    0) != 0)
		cast.failed = 1;
	n = __atomic_fetch_add(&cast.answers, 1, __ATOMIC_SEQ_CST);
	if (n < MAXTHREADS)
		cast.done[n] = (int)tid;
	tame__sys(SYS_futex, (long)&cast.answers, FUTEX_WAKE, 1, 0, 0, 0);
}

/* "/proc/self/task/TID/status" into path (64 bytes). */
static void
task_status(char *path, const char *tid)
{
	size_t n = strnlen(tid, 20);

	memcpy(path, "/proc/self/task/", 16);
	memcpy(path + 16, tid, n);
	memcpy(path + 16 + n, "/status", 8);
}

static int
answered(int tid, int n)
{
	int i;

	for (i = 0; i < n && i < MAXTHREADS; i++)
		if (cast.done[i] == tid)
			return 1;
	return 0;
}

/*
 * Send the signal to every thread but self that has not answered; the
 * number sent, or -1 for a thread that blocks SIGSYS (or too many).
 */
static int
send_round(long pid, long self, int known)
{
	char buf[2048], path[64];
	struct dirent64 *d;
	long dir, n, off, tid;
	int sent = 0;

	dir = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self/task",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (dir < 0)
		return -1;
	while ((n = tame__sys(SYS_getdents64, dir, (long)buf, sizeof(buf), 0,
	    0, 0)) > 0) {
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct dirent64 *)(buf + off);
			if (d->d_name[0] < '1' || d->d_name[0] > '9')
				continue;
			tid = strtol(d->d_name, NULL, 10);
			if (tid == self || answered((int)tid, known))
				continue;
			task_status(path, d->d_name);
			if (tame__blocks_sigsys(path) || known + sent >=
			    MAXTHREADS) {
				tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
				return -1;
			}
			if (tame__sys(SYS_tgkill, pid, tid, SIGSYS, 0, 0, 0) == 0)
				sent++;
		}
	}
	tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
	return sent;
}

/* Does any thread but self block SIGSYS (or can it not be told)? */
static int
any_blocks_sigsys(long self)
{
	char buf[2048], path[64];
	struct dirent64 *d;
	long dir, n, off;
	int found = 0;

	dir = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self/task",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (dir < 0)
		return 1;
	while (!found && (n = tame__sys(SYS_getdents64, dir, (long)buf,
	    sizeof(buf), 0, 0, 0)) > 0)
		for (off = 0; off < n && !found; off += d->d_reclen) {
			d = (struct dirent64 *)(buf + off);
			if (d->d_name[0] < '1' || d->d_name[0] > '9' ||
			    strtol(d->d_name, NULL, 10) == self)
				continue;
			task_status(path, d->d_name);
			found = tame__blocks_sigsys(path);
		}
	tame__sys(SYS_close, dir, 0, 0, 0, 0, 0);
	return found;
}

int
tame__landlock_enforce_all(int ruleset_fd)
{
	struct timespec wait = { 0, 50000000 };
	long pid = tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);
	long self = tame__sys(SYS_gettid, 0, 0, 0, 0, 0, 0);
	int expect = 0, sent, rounds, seen, r = 0;

	/*
	 * Nothing is sent unless every thread can take it.  A thread just
	 * made blocks every signal for a moment (glibc's start_thread):
	 * looked at again, a few times, before it counts as blocking.
	 */
	for (seen = 0; any_blocks_sigsys(self); seen++) {
		if (seen == 20) {
			tame__warn_blocked_sigsys(1);
			errno = EBUSY;
			return -1;
		}
		tame__sys(SYS_nanosleep, (long)&(struct timespec){ 0, 2000000 },
		    0, 0, 0, 0, 0);
	}

	cast.ruleset = ruleset_fd;
	cast.answers = 0;
	cast.failed = 0;
	__atomic_store_n(&cast.active, 1, __ATOMIC_SEQ_CST);
	/* the threads, until a round finds none that has not answered */
	for (rounds = 0; rounds < 16; rounds++) {
		if ((sent = send_round(pid, self, cast.answers)) < 0) {
			r = -1;
			break;
		}
		if (sent == 0)
			break;
		expect += sent;
		/* each answers within a moment; forty waits is a hang */
		for (seen = 0; cast.answers < expect && seen < 40; seen++)
			tame__sys(SYS_futex, (long)&cast.answers, FUTEX_WAIT,
			    cast.answers, (long)&wait, 0, 0);
		if (cast.answers < expect) {
			r = -1;
			break;
		}
	}
	__atomic_store_n(&cast.active, 0, __ATOMIC_SEQ_CST);
	if (r == -1 || cast.failed || rounds == 16) {
		errno = EBUSY;
		return -1;
	}
	return 0;
}

int
tame__landlock_enforce(int ruleset_fd, int threaded)
{
	long r;

	/* the others first: if one cannot, this thread stays as it was */
	if (threaded && tame__landlock_enforce_all(ruleset_fd) == -1) {
		tame__sys(SYS_close, ruleset_fd, 0, 0, 0, 0, 0);
		return -1;
	}
	r = tame__sys(SYS_landlock_restrict_self, ruleset_fd, 0, 0, 0, 0, 0);
	tame__sys(SYS_close, ruleset_fd, 0, 0, 0, 0, 0);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	tame__landlock_enforced();
	return 0;
}
