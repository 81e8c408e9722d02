/*
 * sysnames.c: names of the native system calls, from the kernel headers
 * this library was built against (build/sysnames.h is generated from
 * <asm/unistd.h> by the Makefile).  The reporter prints them; tame-audit
 * maps strace's names back to numbers.
 */
#include <string.h>

#include "policy.h"

struct sysname {
	const char	*name;
	int		 nr;
};

static const struct sysname sysnames[] = {
#define X(name, nr)	{ #name, nr },
#include "sysnames.h"
#undef X
};
#define NSYSNAMES	(int)(sizeof(sysnames) / sizeof(sysnames[0]))

const char *
tame_syscall_name(int nr)
{
	int i;

	for (i = 0; i < NSYSNAMES; i++)
		if (sysnames[i].nr == nr)
			return sysnames[i].name;
	return NULL;
}

int
tame_syscall_number(const char *name)
{
	int i;

	for (i = 0; i < NSYSNAMES; i++)
		if (strcmp(sysnames[i].name, name) == 0)
			return sysnames[i].nr;
	return -1;
}

int
tame_syscall_max(void)
{
	int i, max = 0;

	for (i = 0; i < NSYSNAMES; i++)
		if (sysnames[i].nr > max)
			max = sysnames[i].nr;
	return max;
}
