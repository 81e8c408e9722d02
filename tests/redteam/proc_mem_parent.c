/* SPDX-License-Identifier: ISC */
/*
 * proc_mem_parent.c: a pledged process writes its unpledged parent's
 * memory through /proc/PPID/mem (issue 46, other processes in reach).
 *
 * rpath and wpath open any path, /proc/PID/mem of another process
 * included, where the kernel's ptrace rules allow it (same user, or
 * root).  A Landlock domain is what takes other processes out of reach:
 * a process in one may not trace, nor open the memory of, a process
 * outside it.  libtame makes none where threads already run at the
 * first pledge, nor while exec is held.  The parent keeps a word in its
 * own memory and checks it after the child is done.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "redteam.h"

#define CANARY	0x63616e617279ULL
#define WRITTEN	0x777269747465ULL

static volatile uint64_t canary = CANARY;

struct attempt {
	const char	*promises;	/* NULL: the control */
	int		 threaded;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	uint64_t v = WRITTEN;
	char path[64];
	int fd;

	if (a->threaded)
		rt_second_thread();
	if (a->promises != NULL)
		rt_pledge(a->promises, NULL);
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)getppid());
	if ((fd = open(path, O_RDWR)) == -1)
		return 1;
	if (pwrite(fd, &v, sizeof(v), (off_t)(uintptr_t)&canary) !=
	    sizeof(v))
		return 2;
	return 0;
}

static int
try(struct attempt *a)
{
	struct rt_kid k;
	int written;

	canary = CANARY;
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	written = canary == WRITTEN;
	canary = CANARY;
	return written;
}

int
main(int argc, char **argv)
{
	static const struct attempt tries[] = {
		{ "stdio rpath wpath", 1 },
		{ "stdio rpath wpath exec", 0 },
		{ "stdio rpath wpath", 0 },
	};
	static const char *const label[] = {
		"two threads at pledge(\"stdio rpath wpath\")",
		"pledge(\"stdio rpath wpath exec\", NULL)",
		"pledge(\"stdio rpath wpath\") single-threaded",
	};
	struct attempt control = { NULL, 0 };
	size_t i;

	rt_init(argc, argv);
	if (!try(&control)) {
		rt_na("untamed, /proc/PPID/mem was not writable (ptrace "
		    "rules of this kernel)");
		return rt_finish();
	}
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		struct attempt a = tries[i];

		if (try(&a))
			rt_escaped("%s: wrote its unpledged parent's memory "
			    "through /proc/PPID/mem", label[i]);
		else
			rt_held("%s: the parent's memory is out of reach",
			    label[i]);
	}
	return rt_finish();
}
