/* SPDX-License-Identifier: ISC */
/*
 * config.c: the ways the benchmark process confines itself.
 *
 *	untamed		nothing: the baseline every ratio divides by
 *	allow1		one RET ALLOW instruction: what seccomp costs at all
 *	allow3		three of them stacked: the floor of three tame() calls
 *	args1		the kernel's floor for an argument-checked call at one
 *			tame(): the least filter that reads an argument of
 *			the checked calls (so the kernel's cache cannot
 *			answer them), in the Landlock domain tame1 enters
 *	args3		three of them stacked, in the domain tame3's first
 *			call enters: the floor of three tame() calls for
 *			those calls
 *	tame1		tame(BENCH_FLAGS) once
 *	tame3		three narrowing tame() calls ending at BENCH_FLAGS;
 *			every one keeps the benchmarked calls, so each
 *			argument-checked call runs three filters
 *	libseccomp	the same policy built by libseccomp (tests/oracle.c:
 *			a context for each side of the marker, joined),
 *			loaded with TSYNC as tame() loads its own
 *
 * and three that price the traps (each call the handler checks costs a
 * signal):
 *
 *	tame-norpath	tame() without RPATH: an open of a granted file
 *			(the time zone) traps, is checked and made by
 *			the handler
 *	tame-cmsg	tame1 plus CMSG: messages are not checked
 *	tame-nounix	tame1 in a process that holds no AF_UNIX socket:
 *			messages go straight through (tame1's process
 *			holds a socketpair, so its messages trap)
 *
 * and two that price tmppath's two ways (interleaved runs only):
 *
 *	tame-tmp	tame1 plus TMPPATH: a create or remove beneath
 *			/tmp traps, the handler checks its path and makes
 *			it, and a Landlock layer confines it as well
 *	tame-tmp-openat2 the same on a kernel without Landlock, as a
 *			filter answering landlock_create_ruleset with
 *			ENOSYS plays one (tests/tools/refuse.c): the
 *			handler makes it with openat2 beneath a /tmp
 *			descriptor, which alone confines it
 *
 * and three that price the supervisor (interleaved runs only):
 *
 *	pledge-norpath	pledge("stdio inet tty") without Landlock: a
 *			granted open traps and the supervisor makes it
 *	pledge-exec-norpath the same with exec: the first filter sends the
 *			open to the supervisor itself
 *	tame1-unveiled	tame1 after unveil("/", "r"): a stat by path traps
 *			and the supervisor checks and makes it
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


#include "sys.h"
#include "oracle.h"
#include "pledge.h"
#include "policy.h"
#include "tame_int.h"

#include "config.h"

static const struct config	*chosen;

/* tame3's first call: every step keeps the benchmarked calls */
#define TAME3_FIRST	(BENCH_FLAGS | TAME_WPATH | TAME_CPATH | TAME_UNIX | \
			 TAME_PROC)

static int
install_untamed(void)
{
	return 0;
}

static int
install_allow1(void)
{
	return config_load_allow1();
}

/* Three filters stacked, as three tame() calls stack theirs. */
static int
load_three(int (*load)(void))
{
	int i;

	for (i = 0; i < 3; i++)
		if (load() == -1)
			return -1;
	return 0;
}

static int
install_allow3(void)
{
	return load_three(config_load_allow1);
}

/*
 * The Landlock domain the first tame() of flags enters when it needs no
 * path layer (lib/landlock.c): what the kernel's own hooks cost.
 */
static int
enter_domain(int flags)
{
	int fd;

	if (tame__landlock_domain(tame_expand(flags), &fd) == -1)
		return -1;
	return fd == -1 ? 0 : tame__landlock_enforce(fd, 0);
}

static int
install_args1(void)
{
	if (config_load_args1() == -1)
		return -1;
	return enter_domain(BENCH_FLAGS);
}

static int
install_args3(void)
{
	if (load_three(config_load_args1) == -1)
		return -1;
	return enter_domain(TAME3_FIRST);
}

static int
install_tame1(void)
{
	return tame(BENCH_FLAGS);
}

static int
install_tame3(void)
{
	/* each step drops flags the benchmarked calls do not need */
	if (tame(TAME3_FIRST) == -1)
		return -1;
	if (tame(BENCH_FLAGS | TAME_WPATH | TAME_UNIX) == -1)
		return -1;
	return tame(BENCH_FLAGS);
}

/*
 * libseccomp's build of the same policy for flags (tests/oracle.c): two
 * contexts, one for each side of the marker libtame's own calls carry,
 * generated and joined as tame_oracle_bpf() does.  One context for both
 * sides is correct too, but libseccomp's tree crosses every marked row
 * with every other row of its call (openat's): more than the kernel's
 * 4096 instructions for tame1.  The count, or -1.
 */
int
config_oracle_bpf(int flags, struct sock_filter *buf, int max)
{
	tame_atoms held = tame_expand(flags);

	return tame_oracle_bpf(held, !tame__landlock_needed(held), buf, max);
}

/* Load that program, as tame() would (TSYNC). */
int
config_load_libseccomp(int flags)
{
	static struct sock_filter buf[BPF_MAXINSNS];
	int i, n;

	if ((n = config_oracle_bpf(flags, buf, BPF_MAXINSNS)) < 0) {
		errno = E2BIG;
		return -1;
	}
	/*
	 * No handler is installed here: the calls the table emulates (a
	 * message while an AF_UNIX socket is held) fail with ENOSYS, as
	 * the context's own stand-in action does without a tracer, so a
	 * row prices the filter alone.
	 */
	for (i = 0; i < n; i++)
		if (buf[i].code == (BPF_RET | BPF_K) &&
		    buf[i].k == (SECCOMP_RET_TRAP | TAME_TRAP_EMULATE))
			buf[i].k = SECCOMP_RET_ERRNO | ENOSYS;
	return config_load_raw(buf, n);
}

static int
install_libseccomp(void)
{
	return config_load_libseccomp(BENCH_FLAGS);
}

static int
install_norpath(void)
{
	return tame(BENCH_FLAGS & ~TAME_RPATH);
}

static int
install_cmsg(void)
{
	return tame(BENCH_FLAGS | TAME_CMSG);
}

static int
install_tmp(void)
{
	return tame(BENCH_FLAGS | TAME_TMPPATH);
}

static int
install_tmp_openat2(void)
{
	if (config_load_no_landlock() == -1)
		return -1;
	return install_tmp();
}

/*
 * pledge's exec: the same promises with and without exec, both without
 * Landlock (a process holding exec makes no layer): a granted open is
 * the supervisor's in both; with exec the first filter sends it there
 * itself, without a trap.
 */
static int
install_pledge_norpath(void)
{
	if (config_load_no_landlock() == -1)
		return -1;
	return pledge("stdio inet tty", NULL);
}

static int
install_pledge_exec_norpath(void)
{
	return pledge("stdio inet tty exec", NULL);
}

/*
 * unveil: tame1 after unveil("/", "r"), which tame() locks: a stat by
 * path traps and the supervisor checks it against the rules and makes
 * it; an open is Landlock's (one more layer).
 */
static int
install_unveiled(void)
{
	if (unveil("/", "r") == -1)
		return -1;
	return install_tame1();
}

static const struct config configs[] = {
	{ "untamed", "no filter", install_untamed },
	{ "allow1", "one RET ALLOW instruction", install_allow1 },
	{ "allow3", "three stacked RET ALLOW filters", install_allow3 },
	{ "args1", "the least argument check (openat, ioctl, socket), "
	    "in tame1's Landlock domain", install_args1 },
	{ "args3", "three of args1's filters, in tame3's Landlock domain",
	    install_args3 },
	{ "tame1", "tame(STDIO|RPATH|INET|IOCTL)", install_tame1 },
	{ "tame3", "tame(+WPATH|CPATH|UNIX|PROC), tame(+WPATH|UNIX), "
	    "tame(STDIO|RPATH|INET|IOCTL)", install_tame3 },
	{ "libseccomp", "tame_oracle_bpf(STDIO|RPATH|INET|IOCTL): "
	    "libseccomp's programs, loaded", install_libseccomp },
	{ "tame-norpath", "tame(STDIO|INET|IOCTL): granted opens trap",
	    install_norpath },
	{ "tame-cmsg", "tame(STDIO|RPATH|INET|IOCTL|CMSG): messages "
	    "unchecked", install_cmsg },
	{ "tame-nounix", "tame1 holding no AF_UNIX socket: messages "
	    "untrapped", install_tame1, 1 },
	{ "tame-tmp", "tame1 plus TMPPATH: /tmp confined by the handler "
	    "and Landlock",
	    install_tmp },
	{ "tame-tmp-openat2", "tame-tmp without Landlock: /tmp confined by "
	    "the handler's openat2", install_tmp_openat2 },
	{ "pledge-norpath", "pledge(\"stdio inet tty\") without Landlock: "
	    "granted opens trap", install_pledge_norpath },
	{ "pledge-exec-norpath", "pledge(\"stdio inet tty exec\", NULL): "
	    "the same, sent to the supervisor by the first filter",
	    install_pledge_exec_norpath },
	{ "tame1-unveiled", "tame1 after unveil(\"/\", \"r\"): a stat "
	    "by path is the supervisor's", install_unveiled },
};

#define NCONFIGS	(sizeof(configs) / sizeof(configs[0]))

const struct config *
config_find(const char *name)
{
	size_t i;

	for (i = 0; i < NCONFIGS; i++)
		if (strcmp(configs[i].name, name) == 0)
			return &configs[i];
	return NULL;
}

void
config_usage(void)
{
	size_t i;

	for (i = 0; i < NCONFIGS; i++)
		fprintf(stderr, "\t%-12s %s\n", configs[i].name,
		    configs[i].what);
}

/* The names, one a line, in the order the report shows them. */
void
config_list(void)
{
	size_t i;

	for (i = 0; i < NCONFIGS; i++)
		printf("%s\n", configs[i].name);
}

void
config_select(const struct config *c)
{
	chosen = c;
}

void
config_ensure(void)
{
	static int done;

	if (done || chosen == NULL)
		return;
	done = 1;
	if (chosen->install() == -1)
		err(1, "install %s", chosen->name);
}
