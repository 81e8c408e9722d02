/* SPDX-License-Identifier: ISC */
/*
 * attach: what the kernel's attach of a seccomp program costs, by the
 * program's shape.  Attaching validates the classic program, converts
 * and JITs it (work that grows with its length) and then replays it for
 * every system call number of the native and the compat architecture to
 * fill the constant-action cache (work that grows with the instructions
 * those walks visit: tests/replay.c counts them).  Synthetic programs
 * pull the two apart, and tame()'s own first filters are timed beside
 * them:
 *
 *	allow1		RET ALLOW: the floor
 *	skip-N		N instructions, every walk jumps over them at once
 *	walk-N		N instructions, every native number walks them all
 *	tame:FLAGS	the first filter tame(FLAGS) installs (Landlock
 *			available), relocated for the child
 *
 *	attach SAMPLES
 *
 * Each sample forks one child per shape, in turn, which sets
 * no_new_privs and times the seccomp(SET_MODE_FILTER, TSYNC) call alone.
 * Prints one JSON line per shape: its length, the replay's summed steps
 * and the samples in microseconds.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "compile.h"
#include "sys.h"
#include "policy.h"
#include "replay.h"
#include "tame.h"

#define MAXSAMPLES	1000

struct shape {
	char			 name[48];
	int			 len;
	long			 steps;
	struct sock_filter	*insn;
	double			 us[MAXSAMPLES];
};

static const uint32_t	nr_off = offsetof(struct seccomp_data, nr);
static const uint32_t	arch_off = offsetof(struct seccomp_data, arch);

/* The arch check and the number's load, as every tame() program starts. */
static int
prologue(struct sock_filter *f)
{
	f[0] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    arch_off);
	f[1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    tame_audit_arch(), 1, 0);
	f[2] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_KILL_PROCESS);
	f[3] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, nr_off);
	return 4;
}

/* n instructions in all; walked says whether every number visits them. */
static int
synthetic(struct sock_filter *f, int n, int walked)
{
	int i = prologue(f), dead = n - i - 2;

	f[i++] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA,
	    walked ? 0 : dead);
	while (i < n - 1)	/* numbers no system call has */
		f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
		    BPF_K, 0x3fff0000 + i, 0, 0);
	f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);
	return i;
}

/* The replay's steps over every number of both architectures. */
static long
replay_steps(const struct sock_filter *f, int len)
{
	long steps = 0;
	int nr;

	for (nr = 0; nr <= tame_syscall_max(); nr++) {
		replay_const_allow(f, len, tame_audit_arch(), nr, &steps);
		replay_const_allow(f, len, REPLAY_COMPAT_ARCH, nr, &steps);
	}
	return steps;
}

static void
add(struct shape *s, const char *name, struct sock_filter *insn, int len)
{
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->insn = insn;
	s->len = len;
	s->steps = replay_steps(insn, len);
}

static double
attach_in_child(const struct shape *s)
{
	struct sock_fprog fp = { .len = (unsigned short)s->len,
	    .filter = s->insn };
	double t0, t1, us = -1;
	int p[2], st;
	pid_t pid;

	if (pipe(p) == -1 || (pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
			_exit(1);
		t0 = clock_now_us();
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_TSYNC, &fp) != 0)
			_exit(1);
		t1 = clock_now_us();
		us = t1 - t0;
		_exit(write(p[1], &us, sizeof(us)) == sizeof(us) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], &us, sizeof(us)) != sizeof(us))
		us = -1;
	close(p[0]);
	if (waitpid(pid, &st, 0) == -1 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0 || us < 0)
		errx(1, "%s: the child could not attach its filter", s->name);
	return us;
}

int
main(int argc, char *argv[])
{
	static const char *const tamed[] = { "stdio", "stdio,rpath",
	    "stdio,rpath,inet,dnspath" };
	static const int sizes[] = { 64, 256, 1024 };
	static struct sock_filter buf[16][TAME_MAXINSN];
	static struct tame_prog prog;
	static struct shape shapes[16];
	struct tame_target t = { 0 };
	char name[48];
	int n = 0, i, k, samples, flags;

	if (argc != 2 || (samples = atoi(argv[1])) < 1 ||
	    samples > MAXSAMPLES) {
		fprintf(stderr, "usage: attach samples (1 to %d)\n",
		    MAXSAMPLES);
		return 2;
	}
	buf[n][0] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);
	add(&shapes[n], "allow1", buf[n], 1), n++;
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		snprintf(name, sizeof(name), "skip-%d", sizes[i]);
		add(&shapes[n], name, buf[n], synthetic(buf[n], sizes[i], 0));
		n++;
		if (sizes[i] > 256)
			continue;	/* a walk of 1024 takes milliseconds */
		snprintf(name, sizeof(name), "walk-%d", sizes[i]);
		add(&shapes[n], name, buf[n], synthetic(buf[n], sizes[i], 1));
		n++;
	}
	for (i = 0; i < (int)(sizeof(tamed) / sizeof(tamed[0])); i++) {
		if (tame_flags_parse(tamed[i], &flags, NULL) == -1)
			errx(1, "%s: bad flags", tamed[i]);
		t.held = tame_expand(flags);
		t.landlock_ok = 1;
		t.pid = getpid();	/* a constant like any other here */
		if (tame_compile_fast(&t, NULL, &prog) == -1)
			err(1, "compile %s", tamed[i]);
		memcpy(buf[n], prog.insn, prog.len * sizeof(prog.insn[0]));
		snprintf(name, sizeof(name), "tame:%s", tamed[i]);
		add(&shapes[n], name, buf[n], prog.len);
		n++;
	}
	for (k = 0; k < samples; k++)
		for (i = 0; i < n; i++)
			shapes[i].us[k] = attach_in_child(&shapes[i]);
	for (i = 0; i < n; i++) {
		printf("{\"shape\":\"%s\",\"len\":%d,\"steps\":%ld,\"us\":[",
		    shapes[i].name, shapes[i].len, shapes[i].steps);
		for (k = 0; k < samples; k++)
			printf("%s%.2f", k ? "," : "", shapes[i].us[k]);
		printf("]}\n");
	}
	return 0;
}
