/* SPDX-License-Identifier: ISC */
/*
 * rseq_area.c: a restartable-sequences area registered over libtame's
 * code and read-only data (issue 46, point 7: classes the review did
 * not try).
 *
 * rseq(2) gives the kernel an address it writes (the CPU number) on
 * every return to the process: a write the process does not make
 * itself, and so no page protection of its own stands in its way but
 * the kernel's.  Under pledge("stdio") the attacker moves its thread's
 * area (the C library registers one) onto libtame's code and its
 * read-only data; the kernel must refuse to write there (the process
 * dies of SIGSEGV) or the call must be refused.  The parent compares
 * the child's bytes with its own (the same image) while the child
 * waits.  The control: an area in writable memory is written.
 */
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/rseq.h>

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#ifndef RSEQ_SIG
#if defined(__x86_64__)
#define RSEQ_SIG	0x53053053
#else
#define RSEQ_SIG	0xd428bc00
#endif
#endif

extern const ptrdiff_t __rseq_offset;
extern const unsigned int __rseq_size;

static struct rseq writable __attribute__((aligned(32)));

struct attempt {
	int		 tamed;
	void		*area;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	void *mine = (char *)__builtin_thread_pointer() + __rseq_offset;

	if (a->tamed)
		rt_pledge("stdio", NULL);
	/* the C library's area first: one a thread */
	if (__rseq_size > 0)
		syscall(SYS_rseq, mine, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
	if (syscall(SYS_rseq, a->area, 32, 0, RSEQ_SIG) == -1)
		return 1;
	sched_yield();			/* returns to user: written now */
	rt_ready();
	rt_await_go();
	return 0;
}

/* 1 if the child's bytes at area differ from ours (or became a CPU). */
static int
written(struct attempt *a, int *status)
{
	unsigned char theirs[32];
	struct iovec l = { theirs, sizeof(theirs) }, r = { a->area, 32 };
	struct rt_kid k;
	int w = 0;

	memset(&writable, 0xff, sizeof(writable));
	rt_spawn(&k, attack, a);
	if (rt_heard(&k) == 0 &&
	    process_vm_readv(k.pid, &l, 1, &r, 1, 0) == sizeof(theirs))
		w = memcmp(theirs, a->area, sizeof(theirs)) != 0;
	rt_go(&k);
	*status = rt_reap(&k);
	rt_check(k.status);
	return w;
}

int
main(int argc, char **argv)
{
	struct attempt a = { 0 };
	struct { const char *what; void *at; } t[] = {
		{ "libtame's code (tame())", (void *)tame },
		{ "libtame's read-only data (tame_version()'s string)",
		    (void *)tame_version() },
	};
	size_t i;
	int st;

	rt_init(argc, argv);
	a.area = &writable;
	if (!written(&a, &st)) {
		rt_na("untamed, rseq wrote nothing (%s): no rseq here?",
		    rt_how(st));
		return rt_finish();
	}
	for (i = 0; i < 2; i++) {
		a.area = (void *)((uintptr_t)t[i].at & ~(uintptr_t)31);
		a.tamed = 0;
		if (written(&a, &st)) {
			rt_na("untamed, the kernel wrote %s: nothing to keep",
			    t[i].what);
			continue;
		}
		a.tamed = 1;
		if (written(&a, &st))
			rt_escaped("pledge(\"stdio\"): an rseq area made the "
			    "kernel write %s", t[i].what);
		else
			rt_held("pledge(\"stdio\"): rseq over %s: nothing "
			    "written (%s)", t[i].what, rt_exited(st, 1) ?
			    "rseq() failed" : rt_how(st));
	}
	return rt_finish();
}
