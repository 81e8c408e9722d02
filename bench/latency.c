/* SPDX-License-Identifier: ISC */
/*
 * latency.c: what one tame() call costs, and what libseccomp costs for
 * the same policy.
 *
 * A filter cannot be removed, so every sample is a freshly forked child:
 * it does any untimed setup, reads the clock, makes the timed call, reads
 * the clock again and sends the difference back through a pipe.  The
 * parent reports it as the iteration's manual time, one iteration per
 * repetition, so the median aggregate is the median sample.  The forked
 * benchmarks are registered first: the in-process compile benchmarks
 * touch libtame's static arrays, and a child of a parent that has not
 * touched them pays the same first-touch faults as a real first tame().
 */
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include "bench.h"
#include "compile.h"
#include "config.h"
#include "sys.h"
#include "micro.h"
#include "oracle.h"
#include "policy.h"
#include "tame.h"
#include "tame_int.h"

#define SAMPLES		101	/* forked samples per benchmark and process */
#define LAT_FLAGS	(TAME_STDIO | TAME_RPATH)

struct lat {
	const char	*name;
	int		(*setup)(void);	/* untimed, in the child */
	int		(*op)(void);	/* timed, in the child */
};

static int
tame_lat(void)
{
	return tame(LAT_FLAGS);
}

static int
tame_wide(void)
{
	return tame(LAT_FLAGS | TAME_INET);
}

static int
tame_stdio(void)
{
	return tame(TAME_STDIO);
}

/*
 * tame()'s first call taken apart: generating the program in a process
 * that has never done so, and loading a program generated beforehand.
 */
static struct tame_prog	 child_prog;

static int
compile_cold(void)
{
	struct tame_target t = { 0 };

	t.held = tame_expand(LAT_FLAGS);
	t.landlock_ok = !tame__landlock_needed(t.held);
	t.pid = getpid();
	return tame_compile(&t, NULL, &child_prog);
}

static int
load_prebuilt(void)
{
	return config_load_raw(child_prog.insn, child_prog.len);
}

static int
allow1(void)
{
	struct sock_filter insn[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return config_load_raw(insn, 1);
}

static int
libseccomp_lat(void)
{
	return config_load_libseccomp(LAT_FLAGS);
}

static const struct lat lats[] = {
	{ "latency/allow1_load", NULL, allow1 },
	{ "latency/tame_first/stdio,rpath", NULL, tame_lat },
	{ "latency/compile_cold/stdio,rpath", NULL, compile_cold },
	{ "latency/load_prebuilt/stdio,rpath", compile_cold, load_prebuilt },
	{ "latency/tame_narrow/stdio,rpath,inet->stdio,rpath", tame_wide,
	    tame_lat },
	{ "latency/tame_narrow/stdio,rpath->stdio", tame_lat, tame_stdio },
	{ "latency/libseccomp_load/stdio,rpath", NULL, libseccomp_lat },
};

static int64_t
ns_between(const struct timespec *a, const struct timespec *b)
{
	return (int64_t)(b->tv_sec - a->tv_sec) * 1000000000 +
	    (b->tv_nsec - a->tv_nsec);
}

static void
child(const struct lat *l, int fd)
{
	struct timespec t0, t1;
	int64_t ns;
	int r;

	if (l->setup != NULL && l->setup() == -1) {
		ns = -errno;
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = l->op();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = r == -1 ? -errno : ns_between(&t0, &t1);
out:
	/* both allowed under every flag set used here */
	(void)write(fd, &ns, sizeof(ns));
	_exit(0);
}

static void
run_forked(struct bench_state *s, void *arg)
{
	const struct lat *l = arg;
	char msg[128];
	int64_t ns;
	ssize_t n;
	pid_t pid;
	int p[2], status;

	if (pipe2(p, O_CLOEXEC) == -1) {
		bench_skip_with_error(s, "pipe");
		return;
	}
	while (bench_keep_running(s)) {
		if ((pid = fork()) == -1) {
			bench_skip_with_error(s, "fork");
			break;
		}
		if (pid == 0) {
			close(p[0]);
			child(l, p[1]);
		}
		n = read(p[0], &ns, sizeof(ns));
		waitpid(pid, &status, 0);
		if (n != sizeof(ns) || ns < 0) {
			snprintf(msg, sizeof(msg), "child: %s",
			    n == sizeof(ns) ? strerror((int)-ns) :
			    "died without a sample");
			bench_skip_with_error(s, msg);
			break;
		}
		bench_set_iteration_time(s, (double)ns / 1e9);
	}
	close(p[0]);
	close(p[1]);
}

/* User-space generation alone, warm, in the parent. */
struct comp {
	const char	*name;
	int		 next, prev;	/* public flags; prev 0: first */
};

static const struct comp comps[] = {
	{ "compile/tame/stdio,rpath", LAT_FLAGS, 0 },
	{ "compile/tame/stdio,rpath,inet,ioctl", BENCH_FLAGS, 0 },
	{ "compile/tame_delta/stdio,rpath,inet->stdio,rpath", LAT_FLAGS,
	    LAT_FLAGS | TAME_INET },
};

static void
run_compile(struct bench_state *s, void *arg)
{
	static struct tame_prog prog;
	const struct comp *c = arg;
	struct tame_target next = { 0 }, prev = { 0 };

	next.held = tame_expand(c->next);
	next.landlock_ok = !tame__landlock_needed(next.held);
	prev.held = tame_expand(c->prev);
	prev.landlock_ok = !tame__landlock_needed(prev.held);
	next.pid = prev.pid = getpid();
	while (bench_keep_running(s))
		if (tame_compile(&next, c->prev ? &prev : NULL,
		    &prog) == -1) {
			bench_skip_with_error(s, "tame_compile");
			return;
		}
	bench_counter(s, "insns", prog.len);
}

/*
 * libseccomp: build the contexts and generate their BPF (config.c), no
 * load.
 */
static void
run_libseccomp_compile(struct bench_state *s, void *arg)
{
	static struct sock_filter buf[BPF_MAXINSNS];
	int n = -1;

	(void)arg;
	while (bench_keep_running(s))
		if ((n = config_oracle_bpf(LAT_FLAGS, buf, BPF_MAXINSNS)) < 0) {
			bench_skip_with_error(s, "config_oracle_bpf");
			return;
		}
	/* the size of what was generated, for the report */
	if (n >= 0)
		bench_counter(s, "insns", n);
	bench_counter(s, "optimize", TAME_ORACLE_OPTIMIZE);
}

void
register_latency(void)
{
	size_t i;

	for (i = 0; i < sizeof(lats) / sizeof(lats[0]); i++)
		bench_repetitions(bench_iterations(bench_manual_time(
		    bench_register(lats[i].name, run_forked,
		    (void *)&lats[i])), 1), SAMPLES);
	for (i = 0; i < sizeof(comps) / sizeof(comps[0]); i++)
		bench_register(comps[i].name, run_compile, (void *)&comps[i]);
	bench_register("compile/libseccomp/stdio,rpath",
	    run_libseccomp_compile, NULL);
}
