/* SPDX-License-Identifier: ISC */
/*
 * harness.c: see harness.h.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "policy.h"

static char tmpdir[256];

#ifdef __SANITIZE_ADDRESS__
/*
 * Under ASan (make check SANITIZE=1) a SIGSEGV, SIGBUS, SIGFPE or SIGILL
 * would start ASan's report, whose first readlink("/proc/self/exe") is a
 * violation in a tamed child: the tests that expect a child to die of
 * one of those would see SIGSYS.  The kernel's signals stay as they are.
 */
__attribute__((visibility("default"))) const char *
__asan_default_options(void)
{
	return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0";
}
#endif

/*
 * The grandchild's way out.  Under ASan (make check SANITIZE=1) every
 * call of a noreturn function such as _exit() is preceded by
 * __asan_handle_no_return(), which asks sigaltstack() where the stack
 * is: a violation under tame(0), which allows exit and exit_group alone.
 * syscall() is not noreturn, and neither may this function look so.
 */
static void
child_exit(int code)
{
#ifdef __SANITIZE_ADDRESS__
	syscall(SYS_exit_group, code);
#else
	_exit(code);
#endif
}

/*
 * How long a grandchild may run before it is taken for hung and killed:
 * 10 seconds, times Check's CK_TIMEOUT_MULTIPLIER as its own timeouts
 * are (make check-stress sets it: busy cores make everything slower).
 * A guard against a hang, never a measure: no test passes by it.
 */
static long
hang_seconds(void)
{
	const char *m = getenv("CK_TIMEOUT_MULTIPLIER");
	long k = m != NULL ? strtol(m, NULL, 10) : 1;

	return 10 * (k >= 1 && k <= 100 ? k : 1);
}

struct outcome
h_run(int flags, h_body setup, h_body body, void *arg)
{
	struct outcome o;
	struct timespec start, now;
	size_t len = 0;
	ssize_t n;
	pid_t pid;
	int p[2], st, done = 0;

	memset(&o, 0, sizeof(o));
	if (pipe(p) == -1)
		ck_abort_msg("pipe: %s", strerror(errno));
	fflush(NULL);
	if ((pid = fork()) == -1)
		ck_abort_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		if (setup != NULL && setup(arg) != 0)
			child_exit(H_SETUP_FAILED);
		if (flags != H_NO_TAME && tame(flags) == -1) {
			dprintf(2, "tame(%#x): %s\n", flags, strerror(errno));
			child_exit(H_TAME_FAILED);
		}
		child_exit(body(arg));
	}
	close(p[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!done) {
		struct pollfd pfd = { p[0], POLLIN, 0 };

		if (poll(&pfd, 1, 100) > 0) {
			n = read(p[0], o.err + len, sizeof(o.err) - 1 - len);
			if (n > 0)
				len += n;
			else
				done = 1;	/* EOF: the grandchild is gone */
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > hang_seconds()) {
			kill(pid, SIGKILL);
			done = 1;
		}
	}
	close(p[0]);
	if (waitpid(pid, &st, 0) == -1)
		ck_abort_msg("waitpid: %s", strerror(errno));
	o.err[len] = '\0';
	if (WIFEXITED(st)) {
		o.exited = 1;
		o.status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		o.signaled = 1;
		o.sig = WTERMSIG(st);
	}
	return o;
}

int
h_reported(const char *err, const char *call, const char *flag)
{
	char want[128];
	const char *line, *end, *needs;
	size_t n;

	call = h_native_call(call);
	/* "prog[pid]: tame: call [details] needs a or b+c" */
	n = (size_t)snprintf(want, sizeof(want), ": tame: %s", call);
	for (line = strstr(err, want); line != NULL;
	    line = strstr(line + 1, want)) {
		if (line[n] != ' ' && line[n] != '\n')
			continue;	/* "open" is not "openat" */
		if (flag == NULL)
			return 1;
		/* the flags come after "needs", or the line says "not allowed" */
		if ((end = strchr(line, '\n')) == NULL)
			return 0;
		if ((needs = strstr(line, " needs ")) == NULL || needs > end)
			needs = strstr(line, " is not allowed");
		if (needs == NULL || needs > end)
			return 0;
		needs = strstr(needs, flag);
		return needs != NULL && needs < end;
	}
	return 0;
}

#if defined(__x86_64__)
/* An untamed i386 getpid through int $0x80: 0 when it returns the pid. */
static int
body_int80_getpid(void *arg)
{
	long r = 20;		/* i386 getpid */

	(void)arg;
	__asm__ volatile ("int $0x80" : "+a"(r) : : "memory");
	return r == getpid() ? 0 : 1;
}

/*
 * Not every x86-64 kernel takes i386 calls: Linux 6.7 and later booted
 * with ia32_emulation=0, kernels built without IA32_EMULATION, and
 * confidential or paravirtualised guests have no IA-32 entry, and there
 * int $0x80 is a general-protection fault (SIGSEGV) before any filter
 * sees a call.  Asked once per test process, of an untamed child; any
 * other answer is a failure, not an n/a.
 */
int
h_ia32_off(void)
{
	static int off = -1;
	struct outcome o;

	if (off == -1) {
		o = h_run(H_NO_TAME, NULL, body_int80_getpid, NULL);
		if (o.signaled && o.sig == SIGSEGV)
			off = 1;
		else {
			ck_assert_msg(o.exited && o.status == 0, "untamed int "
			    "$0x80 getpid neither returned the pid nor "
			    "faulted: %s %d", o.exited ? "exit" : "signal",
			    o.exited ? o.status : o.sig);
			off = 0;
		}
	}
	if (off) {
		printf("n/a: IA-32 emulation off (int $0x80 faults before "
		    "any filter)\n");
		fflush(stdout);
	}
	return off;
}
#endif

int
h_stderr_to_closed_pipe(void)
{
	int p[2];

	if (pipe(p) == -1 || close(p[0]) == -1 || dup2(p[1], 2) == -1)
		return -1;
	return close(p[1]);
}

/*
 * The tests name the call a libc function makes on x86-64.  An
 * architecture with the asm-generic table (arm64) lacks the old calls,
 * and glibc makes the *at (or newer) one instead: that is the call the
 * report names there.
 */
const char *
h_native_call(const char *call)
{
	static const char *const instead[][2] = {
		{ "access", "faccessat" }, { "chmod", "fchmodat" },
		{ "chown", "fchownat" }, { "creat", "openat" },
		{ "dup2", "dup3" }, { "epoll_create", "epoll_create1" },
		{ "epoll_wait", "epoll_pwait" }, { "fork", "clone" },
		{ "getdents", "getdents64" }, { "inotify_init", "inotify_init1" },
		{ "lchown", "fchownat" }, { "link", "linkat" },
		{ "lstat", "newfstatat" }, { "mkdir", "mkdirat" },
		{ "mknod", "mknodat" }, { "open", "openat" },
		{ "pipe", "pipe2" }, { "poll", "ppoll" },
		{ "readlink", "readlinkat" }, { "rename", "renameat" },
		{ "rmdir", "unlinkat" }, { "select", "pselect6" },
		{ "stat", "newfstatat" }, { "symlink", "symlinkat" },
		{ "unlink", "unlinkat" }, { "utimes", "utimensat" },
		{ "vfork", "clone" },
	};
	size_t i;

	if (tame_syscall_number(call) >= 0)
		return call;
	for (i = 0; i < sizeof(instead) / sizeof(instead[0]); i++)
		if (strcmp(instead[i][0], call) == 0)
			return instead[i][1];
	return call;
}

const char *
h_tmpdir(void)
{
	if (tmpdir[0] == '\0') {
		snprintf(tmpdir, sizeof(tmpdir), "/var/tmp/tame-test.XXXXXX");
		if (mkdtemp(tmpdir) == NULL)
			ck_abort_msg("mkdtemp: %s", strerror(errno));
	}
	return tmpdir;
}

void
h_cleanup(void)
{
	char cmd[300];

	if (tmpdir[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "warning: could not remove %s\n", tmpdir);
		tmpdir[0] = '\0';
	}
}

TCase *
h_tcase(Suite *s, const char *name, int timeout, void (*setup)(void),
    void (*teardown)(void))
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, timeout);
	if (setup != NULL || teardown != NULL)
		tcase_add_checked_fixture(tc, setup, teardown);
	suite_add_tcase(s, tc);
	return tc;
}

int
h_main(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed, run;

	srunner_run_all(sr, CK_NORMAL);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	printf("RESULT %d passed, %d failed\n", run - failed, failed);
	return failed == 0 ? 0 : 1;
}
