/* SPDX-License-Identifier: ISC */
/*
 * phases: where a freshly exec'd program's first tame() goes.
 *
 *	phases FLAGS
 *
 * tame() cannot be timed from the inside without changing lib/, so this
 * program, linked with libtame.a like bench/fresh, makes the steps a
 * first tame(FLAGS) makes (lib/tame.c, tame_locked), one by one, through
 * the library's own internal functions, and reads the monotonic clock
 * and getrusage(RUSAGE_SELF).ru_minflt between them.  run.sh execs it
 * anew per sample, beside `fresh tame FLAGS` timing the whole call, and
 * the report checks that the phases add up to the whole.
 *
 * The time spent reading the clock and the fault count at a boundary is
 * left out of both phases: a boundary reads the clock (the end of one
 * phase), getrusage, then the clock again (the start of the next).
 * libtame's own system calls go through tame__sys, which is wrapped at
 * link time (-Wl,--wrap=tame__sys) so that the Landlock ruleset's
 * creation and its rules, made inside one library function, can be told
 * apart.
 *
 * Prints one JSON line: the flags, each phase's microseconds and minor
 * faults, and their sum.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/sched.h>
#include <linux/seccomp.h>

#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#include "compile.h"
#include "sys.h"
#include "policy.h"
#include "tame.h"
#include "tame_int.h"

#define MAXPHASES	16

struct phase {
	const char	*name;
	double		 us;
	long		 faults;
};

static struct phase	 phases[MAXPHASES];
static int		 nphases;
static const char	*current;	/* the phase running now */
static double		 started;	/* its start, µs */
static long		 faults_at;	/* ru_minflt at its start */

static struct tame_prog	 prog;	/* tame.c's is static too: same faults */

/* End the running phase, if any, and start the one called next. */
static void
mark(const char *next)
{
	double t = clock_now_us();
	long f = clock_minflt();

	if (current != NULL && nphases < MAXPHASES) {
		phases[nphases].name = current;
		phases[nphases].us = t - started;
		phases[nphases].faults = f - faults_at;
		nphases++;
	}
	current = next;
	faults_at = clock_minflt();	/* the second call's own faults are done */
	started = clock_now_us();
}

/*
 * libtame's system calls.  Only the Landlock ruleset's creation is a
 * boundary (prepare creates it, then adds the rules); everything else
 * passes straight through.
 */
long	__real_tame__sys(long, long, long, long, long, long, long);

long
__wrap_tame__sys(long nr, long a0, long a1, long a2, long a3, long a4,
    long a5)
{
	long r = __real_tame__sys(nr, a0, a1, a2, a3, a4, a5);

	if (nr == SYS_landlock_create_ruleset && current != NULL &&
	    strcmp(current, "landlock_create") == 0)
		mark("landlock_rules");
	return r;
}

/*
 * The first touch of what the compiler reads and writes: the policy
 * table and the Landlock path list (read-only data of the binary), or
 * the precompiled program where the build made one (lib/prebuilt.c),
 * and the first pages of the static workspace (zero pages until
 * written).  A real tame() takes these faults inside its compile; taken
 * apart here, the compile phase shows the compiling (or copying) alone.
 */
#define TOUCH_INSNS	512	/* more than any first filter is long */

static void
touch_compile_data(const struct tame_target *next)
{
	static volatile char sink;
	const struct tame_precompiled *pc = tame_precompiled_find(next, NULL);
	const char *p, *end;
	char *w;

	if (pc != NULL) {
		p = (const char *)&tame__precompiled_insn[pc->insn_at];
		end = p + pc->len * sizeof(tame__precompiled_insn[0]);
		for (; p < end; p += 4096)
			sink += *p;
		sink += *(end - 1) +
		    *(const char *)&tame__precompiled_reloc[pc->reloc_at];
		goto workspace;
	}
	p = (const char *)tame_rules;
	end = p + tame_nrules * sizeof(tame_rules[0]);
	for (; p < end; p += 4096)
		sink += *p;
	sink += *(end - 1);
	p = (const char *)tame_lpaths;
	end = p + tame_nlpaths * sizeof(tame_lpaths[0]);
	for (; p < end; p += 4096)
		sink += *p;
	sink += *(end - 1);
workspace:
	w = (char *)&prog;
	end = (const char *)&prog.insn[TOUCH_INSNS];
	for (; w < end; w += 4096)
		*w = 0;
}

/*
 * tame_locked()'s first call, step by step, as lib/tame.c makes it: the
 * same functions in the same order, with the library's own state left
 * as a first call finds it.
 */
static void
first_tame(int flags)
{
	struct tame_target next = { 0 };
	struct sigaction old_sigsys;
	struct sock_fprog fp;
	sigset_t sigsys;
	int ruleset = -1;
	tame_atoms want;
	char buf[32] = "tame:0x0";

	mark("check");
	/* state_lock(): two raw calls and a compare-exchange */
	(void)tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);
	(void)tame__sys(SYS_gettid, 0, 0, 0, 0, 0, 0);
	want = tame_expand(flags);
	(void)getenv("TAME_AUDIT");	/* permissive_requested() */

	mark("acquired");
	if (tame__acquired_check(tame__sys(SYS_unshare, CLONE_THREAD, 0, 0,
	    0, 0, 0) == 0) == -1)
		err(1, "tame__acquired_check");

	mark("warm");
	tame__warm(want);

	mark("unix_look");
	/* with_state(): only under INET or DNSPATH, and single-threaded */
	if (tame__nounix_considered(want) &&
	    tame__sys(SYS_unshare, CLONE_THREAD, 0, 0, 0, 0, 0) == 0 &&
	    !tame__holds_unix_socket())
		want |= TAME__NOUNIX;

	mark("landlock_create");
	next.held = want;
	next.landlock_ok = 1;
	next.pid = (int)tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);
	if (tame__landlock_needed(want) && !tame__landlock_is_current(want)) {
		if (tame__sys(SYS_unshare, CLONE_THREAD, 0, 0, 0, 0, 0) == 0 &&
		    tame__landlock_prepare(want, &ruleset) == -1)
			err(1, "tame__landlock_prepare");
		next.landlock_ok = ruleset != -1;
	} else if (tame__sys(SYS_unshare, CLONE_THREAD, 0, 0, 0, 0, 0) == 0 &&
	    tame__landlock_domain(want, &ruleset) == -1)
		err(1, "tame__landlock_domain");	/* the domain layer */

	mark("touch");
	touch_compile_data(&next);

	mark("compile");
	if (tame_compile_fast(&next, NULL, &prog) == -1)
		err(1, "tame_compile_fast");

	mark("handler");
	strncpy(tame__state.progname, program_invocation_short_name,
	    sizeof(tame__state.progname) - 1);
	if (tame__install_handler(&old_sigsys) == -1)
		err(1, "tame__install_handler");

	mark("spare_sigsys");
	tame__spare_sigsys();
	sigemptyset(&sigsys);
	sigaddset(&sigsys, SIGSYS);
	sigprocmask(SIG_UNBLOCK, &sigsys, NULL);

	mark("no_new_privs");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		err(1, "PR_SET_NO_NEW_PRIVS");

	mark("landlock_restrict");
	if (ruleset != -1 && tame__landlock_enforce(ruleset, 0) == -1)
		err(1, "tame__landlock_enforce");

	mark("seccomp_attach");
	/* audit_marker(): one write on descriptor -1 */
	tame__sys(SYS_write, -1, (long)buf, strlen(buf), 0, 0, 0);
	fp.len = (unsigned short)prog.len;
	fp.filter = prog.insn;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_TSYNC, &fp) != 0)
		err(1, "seccomp");
	tame__state.held = want;
	tame__state.landlock_ok = next.landlock_ok;
	tame__state.tamed = 1;
	mark(NULL);
}

int
main(int argc, char *argv[])
{
	double sum = 0;
	int flags, i;

	if (argc != 2 || tame_flags_parse(argv[1], &flags, NULL) == -1) {
		fprintf(stderr, "usage: phases FLAGS\n");
		return 2;
	}
	first_tame(flags);
	/* stdout is open and stdio held: printf works under any flags */
	printf("{\"flags\":\"%s\",\"insns\":%d,\"phases\":{", argv[1],
	    prog.len);
	for (i = 0; i < nphases; i++) {
		printf("%s\"%s\":[%.2f,%ld]", i ? "," : "", phases[i].name,
		    phases[i].us, phases[i].faults);
		sum += phases[i].us;
	}
	printf("},\"sum\":%.2f}\n", sum);
	return 0;
}
