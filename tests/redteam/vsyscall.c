/* SPDX-License-Identifier: ISC */
/*
 * vsyscall.c: the legacy vsyscall page under pledge("") (issue 46, point
 * 7: classes the review did not try).
 *
 * x86-64 keeps, at 0xffffffffff600000, three entry points
 * (gettimeofday, time, getcpu) that the kernel emulates on the fault an
 * instruction fetch there takes (vsyscall=xonly or emulate): no system
 * call instruction runs, and the address the filter would see is in no
 * mapping of the process.  The kernel runs the filter for them too; this
 * proves it, with promises that allow none of the three: a child that
 * survives the call (and exits 42) made a call the filter never saw.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#if defined(__x86_64__)
#define VSYS	0xffffffffff600000UL

struct attempt {
	int		 how;		/* 0 untamed, 1 pledge(""), 2 tame(0) */
	int		 call;		/* gettimeofday, time, getcpu */
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	long (*fn)(void *, void *, void *) =
	    (long (*)(void *, void *, void *))(VSYS + 0x400UL * a->call);
	unsigned cpu;
	char tv[16];

	if (a->how == 1)
		rt_pledge("", NULL);
	else if (a->how == 2)
		rt_tame(0);
	if (a->call == 0)
		fn(tv, NULL, NULL);
	else if (a->call == 1)
		fn(NULL, NULL, NULL);
	else
		fn(&cpu, NULL, NULL);
	_exit(42);
}

static int
has_vsyscall(void)
{
	char l[256];
	FILE *f = fopen("/proc/self/maps", "re");
	int r = 0;

	while (f != NULL && fgets(l, sizeof(l), f) != NULL)
		if (strstr(l, "[vsyscall]") != NULL && l[strcspn(l, " ") + 3] ==
		    'x')
			r = 1;
	if (f != NULL)
		fclose(f);
	return r;
}

int
main(int argc, char **argv)
{
	static const char *const call[] = { "gettimeofday", "time",
	    "getcpu" };
	static const char *const how[] = { "", "pledge(\"\")", "tame(0)" };
	struct attempt a;
	struct rt_kid k;
	int n = 0;

	rt_init(argc, argv);
	if (!has_vsyscall()) {
		rt_na("no executable vsyscall page (vsyscall=none)");
		return rt_finish();
	}
	for (a.call = 0; a.call < 3; a.call++) {
		a.how = 0;
		rt_spawn(&k, attack, &a);
		if (!rt_exited(rt_reap(&k), 42)) {
			rt_na("untamed, vsyscall %s did not return (%s)",
			    call[a.call], rt_how(k.status));
			continue;
		}
		for (a.how = 1; a.how <= 2; a.how++) {
			rt_spawn(&k, attack, &a);
			if (rt_exited(rt_reap(&k), 42)) {
				rt_escaped("%s: the vsyscall page's %s ran, "
				    "unseen by the filter", how[a.how],
				    call[a.call]);
				n++;
			}
		}
	}
	if (n == 0)
		rt_held("pledge(\"\"), tame(0): each vsyscall entry met the "
		    "filter");
	return rt_finish();
}
#else
int
main(int argc, char **argv)
{
	rt_init(argc, argv);
	rt_na("vsyscall page (x86-64 only)");
	return rt_finish();
}
#endif
