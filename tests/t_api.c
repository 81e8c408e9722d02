/* SPDX-License-Identifier: ISC */
/*
 * t_api.c: tame() as an API: errors, narrowing, tame(0), the violation
 * report, flag names, the audit marker and permissive mode, threads,
 * architecture checks and 32-bit argument compares.
 */
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "policy.h"
#include "tame_int.h"

static int
socket_works(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s == -1)
		return 0;
	close(s);
	return 1;
}

static int
body_unknown_bits(void *arg)
{
	(void)arg;
	if (tame(0x4000) != -1 || errno != EINVAL)
		return 1;
	if (tame(-1) != -1 || errno != EINVAL)
		return 2;
	/* nothing was installed: everything still works */
	return socket_works() ? 0 : 3;
}

START_TEST(test_unknown_bits_are_einval_and_install_nothing)
{
	struct outcome o = h_run(H_NO_TAME, NULL, body_unknown_bits, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_widen(void *arg)
{
	(void)arg;
	if (tame(TAME_STDIO | TAME_RPATH) != -1 || errno != EPERM)
		return 1;
	if (tame(TAME_STDIO | TAME_INET) != -1 || errno != EPERM)
		return 2;
	if (tame_flags_held() != TAME_STDIO)
		return 3;
	/* still only STDIO: a read-only open is a violation */
	open("/etc/hostname", O_RDONLY);
	return 4;
}

START_TEST(test_flags_only_narrow)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_widen, NULL);

	ck_assert_violation(o, "openat", "rpath");
}
END_TEST

static int
body_narrow_implied(void *arg)
{
	(void)arg;
	/* RPATH implies RW, so RW alone is a reduction */
	if (tame_flags_held() != (TAME_RPATH | TAME_RW))
		return 1;
	if (tame(TAME_RW) == -1)
		return 2;
	if (tame(TAME_RW) == -1)	/* the same set again is fine */
		return 3;
	return tame_flags_held() == TAME_RW ? 0 : 4;
}

START_TEST(test_implied_flags_can_be_kept)
{
	struct outcome o = h_run(TAME_RPATH, NULL, body_narrow_implied, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_held_before_tame_is_all)
{
	ck_assert_int_eq(tame_flags_held(), TAME_ALL);
}
END_TEST

static int
body_exit7(void *arg)
{
	(void)arg;
	return 7;
}

static int
body_getpid(void *arg)
{
	(void)arg;
	syscall(SYS_getpid);
	return 0;
}

START_TEST(test_tame_zero_allows_exit_only)
{
	struct outcome o;

	o = h_run(0, NULL, body_exit7, NULL);
	ck_assert_exit(o, 7);
	o = h_run(0, NULL, body_getpid, NULL);
	ck_assert_signal(o, SIGSYS);
	/* no flags, no stderr: the death is silent */
	ck_assert_str_eq(o.err, "");
}
END_TEST

static int
body_socket(void *arg)
{
	(void)arg;
	socket(AF_INET, SOCK_STREAM, 0);
	return 0;
}

START_TEST(test_violation_line_names_program_pid_call_flags)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_socket, NULL);
	char prog[64];
	int pid = 0;

	ck_assert_violation(o, "socket", "inet");
	/* the arguments the table decided by, named */
	ck_assert_int_eq(sscanf(o.err, "%63[^[][%d]: tame: socket AF_INET "
	    "SOCK_STREAM 0 needs", prog, &pid), 2);
	ck_assert_str_eq(prog, "t_api");
	ck_assert_int_gt(pid, 1);
	ck_assert_ptr_nonnull(strstr(o.err, "needs inet or dnspath\n"));
	/* exactly one line */
	ck_assert_ptr_eq(strchr(o.err, '\n'), o.err + strlen(o.err) - 1);
}
END_TEST

static int
body_write_stderr(void *arg)
{
	(void)arg;
	write(2, "x", 1);
	return 0;
}

START_TEST(test_report_channel_is_not_the_programs)
{
	/*
	 * No channel of libtame's own: under MALLOC neither the program
	 * nor the reporter writes (a row that let libtame's line through
	 * would let any code of the process through).  The death is the
	 * kernel's to log (t_klog).
	 */
	struct outcome o = h_run(TAME_MALLOC, NULL, body_write_stderr, NULL);

	ck_assert_signal(o, SIGSYS);
	ck_assert_str_eq(o.err, "");
}
END_TEST

static int
body_three_tames(void *arg)
{
	int fd;

	(void)arg;
	if (tame(TAME_STDIO | TAME_RPATH | TAME_INET) == -1)
		return 1;
	if (!socket_works())
		return 2;
	if (tame(TAME_STDIO | TAME_RPATH) == -1)
		return 3;
	if ((fd = open("/etc/hostname", O_RDONLY)) == -1)
		return 4;
	close(fd);
	if (tame(TAME_STDIO) == -1)
		return 5;
	socket(AF_INET, SOCK_DGRAM, 0);		/* dies */
	return 7;
}

START_TEST(test_each_tame_narrows_further)
{
	struct outcome o = h_run(H_NO_TAME, NULL, body_three_tames, NULL);

	ck_assert_violation(o, "socket", "inet");
}
END_TEST

START_TEST(test_parse_flag_lists)
{
	const char *bad = NULL;
	int f = -1;

	ck_assert_int_eq(tame_flags_parse("malloc,rpath", &f, NULL), 0);
	ck_assert_int_eq(f, TAME_MALLOC | TAME_RPATH);
	ck_assert_int_eq(tame_flags_parse("TAME_STDIO|TAME_RPATH", &f, NULL), 0);
	ck_assert_int_eq(f, TAME_STDIO | TAME_RPATH);
	ck_assert_int_eq(tame_flags_parse("  Stdio  inet\tUNIX ", &f, NULL), 0);
	ck_assert_int_eq(f, TAME_STDIO | TAME_INET | TAME_UNIX);
	ck_assert_int_eq(tame_flags_parse("", &f, NULL), 0);
	ck_assert_int_eq(f, 0);
	ck_assert_int_eq(tame_flags_parse("stdio,rpathx", &f, &bad), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(bad, "rpathx");
	ck_assert_int_eq(tame_flags_parse("tame_", &f, &bad), -1);
	ck_assert_int_eq(tame_flags_parse("abort", &f, &bad), -1);
}
END_TEST

START_TEST(test_name_flags)
{
	char buf[128];

	ck_assert_int_eq(tame_flags_name(TAME_STDIO, buf, sizeof(buf)), 5);
	ck_assert_str_eq(buf, "stdio");
	tame_flags_name(TAME_STDIO | TAME_RPATH | TAME_PROC, buf, sizeof(buf));
	ck_assert_str_eq(buf, "stdio,rpath,proc");
	tame_flags_name(TAME_RW, buf, sizeof(buf));
	ck_assert_str_eq(buf, "rw");
	tame_flags_name(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(tame_flags_name(0x4000, buf, sizeof(buf)), -1);
	/* truncation behaves like snprintf */
	ck_assert_int_eq(tame_flags_name(TAME_STDIO | TAME_RPATH, buf, 4), 11);
	ck_assert_str_eq(buf, "std");
	ck_assert_str_eq(tame_flag_name(TAME_DNSPATH), "dnspath");
	ck_assert_ptr_null(tame_flag_name(0x4000));
}
END_TEST

/* Run this test program's helper mode under strace and read the trace. */
static int
strace_self(const char *mode, int permissive, char *out, size_t len)
{
	char cmd[512];
	FILE *f;
	size_t n;
	int st;

	/*
	 * Under ASan (make check SANITIZE=1) the leak check at exit would
	 * find strace in its way, end the helper with a fatal error, and its
	 * "survived" would stay in the stdio buffer.
	 */
	snprintf(cmd, sizeof(cmd), "%s %s strace -qq -f -e trace=write,socket "
	    "/proc/%d/exe %s 2>&1", permissive ? "TAME_AUDIT=permissive" : "",
#ifdef __SANITIZE_ADDRESS__
	    "ASAN_OPTIONS=detect_leaks=0",
#else
	    "",
#endif
	    (int)getpid(), mode);
	if ((f = popen(cmd, "r")) == NULL)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	st = pclose(f);
	return st;
}

START_TEST(test_audit_marker_in_trace)
{
	char out[8192];

	strace_self("--marker", 0, out, sizeof(out));
	ck_assert_msg(strstr(out, "write(-1, \"tame:0x3\", 8)") != NULL &&
	    strstr(out, "EBADF") != NULL, "no marker in: %s", out);
}
END_TEST

START_TEST(test_permissive_only_under_a_tracer)
{
	char out[8192];
	struct outcome o;

	/* traced: no filter, the socket call goes through */
	strace_self("--socket-after-tame", 1, out, sizeof(out));
	ck_assert_msg(strstr(out, "survived") != NULL, "trace: %s", out);
	/* untraced, the variable changes nothing */
	setenv("TAME_AUDIT", "permissive", 1);
	o = h_run(TAME_STDIO, NULL, body_socket, NULL);
	unsetenv("TAME_AUDIT");
	ck_assert_violation(o, "socket", "inet");
}
END_TEST

static void *
idle_thread(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static volatile int filtered;

/* A thread with a seccomp filter of its own that tame() cannot sync. */
static void *
own_filter_thread(void *arg)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog p = { 1, &allow };

	(void)arg;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	filtered = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &p) == 0 ?
	    1 : -1;
	for (;;)
		pause();
	return NULL;
}

static int
body_tsync_conflict(void *arg)
{
	pthread_t t;

	(void)arg;
	pthread_create(&t, NULL, own_filter_thread, NULL);
	while (filtered == 0)
		sched_yield();
	if (filtered < 0)
		return 1;
	if (tame(TAME_STDIO) != -1 || errno != EBUSY)
		return 2;
	/* and nothing was installed */
	return socket_works() ? 0 : 3;
}

START_TEST(test_threads_are_bound_or_tame_fails)
{
	struct outcome o = h_run(H_NO_TAME, NULL, body_tsync_conflict, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_threads_then_localtime(void *arg)
{
	pthread_t t;
	int fd;

	(void)arg;
	pthread_create(&t, NULL, idle_thread, NULL);
	if (tame(TAME_STDIO) == -1)
		return 1;
	/*
	 * Landlock would bind only this thread, so no layer is added: the
	 * handler confines the granted opens itself (openat2), in every
	 * thread, and any other path still kills.
	 */
	if ((fd = open("/etc/localtime", O_RDONLY)) == -1)
		return 2;
	close(fd);
	open("/etc/hostname", O_RDONLY);
	return 3;
}

static int
body_localtime(void *arg)
{
	(void)arg;
	return open("/etc/localtime", O_RDONLY) >= 0 ? 0 : 1;
}

START_TEST(test_landlock_rows_need_a_single_thread)
{
	struct outcome o;

	o = h_run(TAME_STDIO, NULL, body_localtime, NULL);
	ck_assert_exit(o, 0);
	o = h_run(H_NO_TAME, NULL, body_threads_then_localtime, NULL);
	ck_assert_violation(o, "openat", "rpath");
}
END_TEST

/*
 * A kernel without Landlock and without openat2 (before 5.6), for real: a
 * filter installed before tame() answers both with ENOSYS, as such
 * kernels do.  (Without Landlock alone the handler confines the granted
 * paths itself: t_fs.c, "without landlock".)
 */
static int
hide_landlock(void *arg)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),	/* nr */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset,
		    1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 437 /* openat2 */, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog p = { 5, f };

	(void)arg;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &p) == 0 ?
	    0 : 1;
}

static int
body_without_landlock(void *arg)
{
	char path[64];
	int fd;

	(void)arg;
	if (tame_landlock_abi() != 0)
		return 1;
	if (tame_flags_unconfined(TAME_ALL) != (TAME_TMPPATH | TAME_GETPW |
	    TAME_DNSPATH))
		return 5;
	/* the time zone files cannot be confined, so they are refused */
	if (open("/etc/localtime", O_RDONLY) != -1 || errno != EACCES)
		return 2;
	/* TMPPATH grants nothing it could not confine to /tmp */
	snprintf(path, sizeof(path), "/tmp/tame-no-landlock.%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd != -1) {
		unlink(path);
		return 3;
	}
	return errno == EACCES ? 0 : 4;
}

static int
body_without_landlock_elsewhere(void *arg)
{
	(void)arg;
	open("/etc/hostname", O_RDONLY);
	return 9;
}

START_TEST(test_without_landlock_path_flags_grant_nothing)
{
	struct outcome o = h_run(TAME_STDIO | TAME_TMPPATH, hide_landlock,
	    body_without_landlock, NULL);

	ck_assert_exit(o, 0);
	/* and a path no flag would grant still kills */
	o = h_run(TAME_STDIO | TAME_TMPPATH, hide_landlock,
	    body_without_landlock_elsewhere, NULL);
	ck_assert_violation(o, "openat", "rpath");
}
END_TEST

/*
 * Repeated tame(): a call with the flags already held installs nothing,
 * so a server may re-tame as often as it likes.  The kernel says how
 * many filters the process carries in /proc/self/status, read through a
 * descriptor opened before the first tame().
 */
static int
seccomp_filters(int fd)
{
	char buf[2048], *p;
	ssize_t n;

	if ((n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return -1;
	buf[n] = '\0';
	if ((p = strstr(buf, "Seccomp_filters:")) == NULL)
		return -1;
	return atoi(p + strlen("Seccomp_filters:"));
}

static int
open_status(void *arg)
{
	int *fd = arg;

	return (*fd = open("/proc/self/status", O_RDONLY)) == -1;
}

static int
body_repeat(void *arg)
{
	int fd = *(int *)arg, i;

	for (i = 0; i < 1000; i++)
		if (tame(TAME_STDIO) == -1)
			return 1;
	if (seccomp_filters(fd) != 1)
		return 2;
	/* still STDIO, and only STDIO */
	if (write(2, "", 0) != 0)
		return 3;
	socket(AF_INET, SOCK_DGRAM, 0);
	return 4;
}

START_TEST(test_repeated_tame_installs_nothing)
{
	struct outcome o;
	int fd = -1;

	o = h_run(H_NO_TAME, open_status, body_repeat, &fd);
	ck_assert_violation(o, "socket", "inet");
}
END_TEST

/*
 * The longest chains of narrowing calls: every flag dropped one at a
 * time from TAME_ALL down to 0, in several orders.  Each call must work
 * and hold exactly what it says; tame(0) at the end leaves only _exit.
 * Equal Landlock layers are not repeated and a delta that changes no
 * answer is not installed, so the chain stays far inside the kernel's
 * limits (16 Landlock layers, 32768 filter instructions).
 */
static int
body_chain(void *arg)
{
	int order = *(int *)arg, flags = TAME_ALL, i, bit, perm[13];
	unsigned seed = 0x5eed + order;

	for (i = 0; i < 13; i++)
		perm[i] = order == 0 ? i : 12 - i;
	for (i = 12; i > 0 && order > 1; i--) {	/* a shuffled order */
		int j = (int)((seed = seed * 1103515245u + 12345u) >> 8) %
		    (i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	if (tame(flags) == -1)
		return 100;
	for (i = 0; i < 13; i++) {
		bit = 1 << perm[i];
		flags &= ~bit;
		if (tame(flags) == -1) {
			dprintf(2, "tame(%#x): %s\n", flags, strerror(errno));
			return 1 + i;
		}
		/* held: exactly the flags and what they imply */
		if (tame_flags_held() != (int)(tame_expand(flags) & TAME_ALL))
			return 50 + i;
	}
	if (tame_flags_held() != 0)
		return 99;
	syscall(SYS_getpid);		/* tame(0): dies, silently */
	return 98;
}

START_TEST(test_longest_chain_fits)
{
	struct outcome o;
	int order = _i;

	o = h_run(H_NO_TAME, NULL, body_chain, &order);
	ck_assert_signal(o, SIGSYS);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/*
 * When the kernel's 16 Landlock layers are used up by others, tame()
 * still works: the filter refuses what a layer would have confined, and
 * the handler confines the granted files itself with openat2.
 */
static int
use_up_layers(void *arg)
{
	struct { uint64_t handled; } attr = { 1ULL << 0 };	/* EXECUTE */
	int i, fd;

	(void)arg;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	for (i = 0; i < 16; i++) {
		if ((fd = (int)syscall(SYS_landlock_create_ruleset, &attr,
		    sizeof(attr), 0)) == -1)
			return 1;
		if (syscall(SYS_landlock_restrict_self, fd, 0) == -1)
			return 2;
		close(fd);
	}
	return 0;
}

static int
body_layers_used_up(void *arg)
{
	int fd;

	(void)arg;
	/* no layer: the handler confines the granted opens (openat2) */
	if ((fd = open("/etc/localtime", O_RDONLY)) == -1)
		return 1;
	close(fd);
	open("/etc/hostname", O_RDONLY);	/* dies */
	return 2;
}

START_TEST(test_landlock_layers_used_up)
{
	struct outcome o;

	if (tame_landlock_abi() == 0) {		/* no layers to use up */
		printf("n/a: Landlock (this kernel has none)\n");
		fflush(stdout);
		return;
	}
	o = h_run(TAME_STDIO, use_up_layers, body_layers_used_up, NULL);
	ck_assert_violation(o, "openat", "rpath");
}
END_TEST

/*
 * The first call's domain layer, by Landlock ABI (lib/landlock.c): the
 * kinds that handle no file right where the flags allow one, the files'
 * kind under cpath, none where Landlock cannot hold cpath (ABI 1) or is
 * missing.  t_bypass's /proc/PID/mem case checks on this kernel that
 * each kind it has keeps other processes out.
 */
START_TEST(test_domain_kind_by_abi)
{
	static const struct {
		int	 flags, abi, kind;
	} c[] = {
		{ TAME_STDIO | TAME_RPATH, 0, TAME_DOMAIN_NONE },
		{ TAME_STDIO | TAME_RPATH, 1, TAME_DOMAIN_FILES },
		{ TAME_STDIO | TAME_RPATH | TAME_CPATH, 1, TAME_DOMAIN_NONE },
		{ TAME_STDIO | TAME_RPATH | TAME_CPATH, 2, TAME_DOMAIN_FILES },
		{ TAME_STDIO | TAME_RPATH, 5, TAME_DOMAIN_TCP },
		{ TAME_STDIO | TAME_RPATH | TAME_INET, 5, TAME_DOMAIN_FILES },
		{ TAME_STDIO | TAME_RPATH | TAME_DNSPATH, 5, TAME_DOMAIN_FILES },
		{ TAME_STDIO | TAME_RPATH | TAME_INET, 6, TAME_DOMAIN_SIGNALS },
		{ TAME_STDIO | TAME_RPATH | TAME_PROC | TAME_INET, 6,
		    TAME_DOMAIN_ABSTRACT_UNIX },
		{ TAME_STDIO | TAME_RPATH | TAME_PROC | TAME_UNIX, 6,
		    TAME_DOMAIN_TCP },
		{ TAME_STDIO | TAME_RPATH | TAME_PROC | TAME_UNIX | TAME_INET, 7,
		    TAME_DOMAIN_FILES },
		{ TAME_STDIO | TAME_RPATH | TAME_CPATH, 7, TAME_DOMAIN_FILES },
		{ TAME_ALL, 7, TAME_DOMAIN_FILES },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(tame__domain_kind(tame_expand(c[i].flags),
		    c[i].abi) == c[i].kind, "case %zu: kind %d, want %d", i,
		    tame__domain_kind(tame_expand(c[i].flags), c[i].abi),
		    c[i].kind);
}
END_TEST

/*
 * A SIGSYS that no filter sent (raise(SIGSYS)) is not a trap: it gets
 * SIGSYS's default action, death, with no report and nothing emulated.
 */
static int
body_raise_sigsys(void *arg)
{
	(void)arg;
	raise(SIGSYS);
	return 1;
}

START_TEST(test_forged_sigsys_is_no_trap)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_raise_sigsys, NULL);

	ck_assert_signal(o, SIGSYS);
	ck_assert_str_eq(o.err, "");
}
END_TEST

static int
block_sigsys(void *arg)
{
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	return sigprocmask(SIG_BLOCK, &set, NULL) == 0 ? 0 : 1;
}

static int
body_fstat(void *arg)
{
	struct stat st;

	(void)arg;
	return fstat(1, &st) == 0 ? 0 : 1;
}

/* tame() takes SIGSYS back in its thread: emulated calls keep working. */
START_TEST(test_tame_unblocks_sigsys)
{
	struct outcome o = h_run(TAME_STDIO, block_sigsys, body_fstat, NULL);

	ck_assert_exit(o, 0);
	o = h_run(TAME_STDIO, block_sigsys, body_socket, NULL);
	ck_assert_violation(o, "socket", "inet");
}
END_TEST

/*
 * SIGSYS is never blocked after tame(): dash and glibc block every signal
 * around fork and spawn, and a trap with SIGSYS blocked would kill with
 * no line.  The handler sets such masks itself, less SIGSYS.
 */
static int
body_fork_all_blocked(void *arg)
{
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	fork();
	return 0;
}

static int
body_system(void *arg)
{
	(void)arg;
	return system("true");
}

static void
on_usr1_violate(int sig)
{
	(void)sig;
	socket(AF_INET, SOCK_STREAM, 0);
}

static int
body_violation_in_handler_blocking_all(void *arg)
{
	struct sigaction sa;

	(void)arg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1_violate;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) == -1)
		return 1;
	raise(SIGUSR1);
	return 2;
}

/* stderr a pipe whose reader is gone: writing the line raises SIGPIPE */
static int
stderr_to_closed_pipe(void *arg)
{
	(void)arg;
	return h_stderr_to_closed_pipe();
}

/*
 * The line changes nothing but stderr: a violation dies of SIGSYS also
 * where the line meets a pipe nobody reads (`prog 2>&1 | head -1`), not
 * of the SIGPIPE its write raised, which a shell takes for a normal end.
 */
START_TEST(test_violation_into_a_closed_pipe_dies_of_sigsys)
{
	struct outcome o = h_run(TAME_STDIO, stderr_to_closed_pipe,
	    body_socket, NULL);

	ck_assert_signal(o, SIGSYS);
}
END_TEST

START_TEST(test_violation_with_every_signal_blocked_is_reported)
{
	struct outcome o = h_run(TAME_STDIO | TAME_RPATH, NULL,
	    body_fork_all_blocked, NULL);

	ck_assert_violation(o, "clone", "proc");
	/* a fork's clone, named as what it is (the table's mask shows 0) */
	ck_assert_msg(strstr(o.err, "tame: clone CLONE_CHILD_CLEARTID|"
	    "CLONE_CHILD_SETTID|SIGCHLD needs proc\n") != NULL, "%s", o.err);
	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_system, NULL);
	ck_assert_violation(o, "clone", "proc");
	ck_assert_msg(strstr(o.err, "tame: clone CLONE_VM|CLONE_VFORK|"
	    "SIGCHLD needs proc\n") != NULL, "%s", o.err);
	o = h_run(TAME_STDIO, NULL, body_violation_in_handler_blocking_all,
	    NULL);
	ck_assert_violation(o, "socket", "inet");
}
END_TEST

/* The masks a program sets and reads back are its own, less SIGSYS. */
static int
body_masks_as_asked(void *arg)
{
	sigset_t set, old, now;
	struct sigaction sa, back;
	struct stat st;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGSYS);
	if (sigprocmask(SIG_BLOCK, &set, &old) == -1)
		return 1;
	if (sigismember(&old, SIGUSR1) || sigismember(&old, SIGSYS))
		return 2;
	if (sigprocmask(SIG_BLOCK, NULL, &now) == -1 ||
	    !sigismember(&now, SIGUSR1) || sigismember(&now, SIGSYS))
		return 3;
	if (fstat(1, &st) == -1)	/* an emulated call: SIGSYS gets in */
		return 4;
	if (sigprocmask(SIG_SETMASK, &old, NULL) == -1 ||
	    sigprocmask(SIG_BLOCK, NULL, &now) == -1 ||
	    sigismember(&now, SIGUSR1))
		return 5;
	/* the kernel's own answers */
	if (syscall(SYS_rt_sigprocmask, 99, &set, NULL, 8) != -1 ||
	    errno != EINVAL)
		return 6;
	if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, (void *)8, NULL, 8) !=
	    -1 || errno != EFAULT)
		return 7;
	if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 4) != -1 ||
	    errno != EINVAL)
		return 8;
	if (syscall(SYS_rt_sigaction, SIGUSR2, (void *)8, NULL, 8) != -1 ||
	    errno != EFAULT)
		return 9;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGUSR2, &sa, NULL) == -1 ||
	    sigaction(SIGUSR2, NULL, &back) == -1)
		return 10;
	if (back.sa_handler != SIG_IGN || !sigismember(&back.sa_mask,
	    SIGUSR1) || sigismember(&back.sa_mask, SIGSYS))
		return 11;
	return 0;
}

/*
 * A handler installed before tame() with every signal in its mask (the
 * common sigfillset idiom): its mask is spared SIGSYS at the first
 * tame(), so siglongjmp() out of it (a mask call, trapped) goes on, and
 * a violation inside it has its line.
 */
static sigjmp_buf back_to_loop;

static void
on_usr1_jump(int sig)
{
	(void)sig;
	siglongjmp(back_to_loop, 1);
}

static int
setup_full_mask_handlers(void *arg)
{
	struct sigaction sa;

	(void)arg;
	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_handler = on_usr1_jump;
	if (sigaction(SIGUSR1, &sa, NULL) == -1)
		return 1;
	sa.sa_handler = on_usr1_violate;
	return sigaction(SIGUSR2, &sa, NULL) == -1;
}

static int
body_jump_out_then_violate(void *arg)
{
	(void)arg;
	if (sigsetjmp(back_to_loop, 1) == 0) {
		raise(SIGUSR1);
		return 2;		/* the handler did not jump */
	}
	raise(SIGUSR2);			/* socket() in the handler */
	return 3;
}

START_TEST(test_handlers_set_before_tame_spare_sigsys)
{
	struct outcome o = h_run(TAME_STDIO, setup_full_mask_handlers,
	    body_jump_out_then_violate, NULL);

	ck_assert_violation(o, "socket", "inet");
}
END_TEST

/*
 * With other threads at the first tame(), masks are theirs: a worker
 * that blocked every signal (SIGSYS too) before tame() blocks and
 * unblocks again after it, and lives.  A violation in it could not say
 * its line, so tame() says that, once, naming the thread.
 */
static void *
worker_blocking_all(void *arg)
{
	int *fd = arg;
	sigset_t all, one;
	char c;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	if (write(fd[1], "r", 1) != 1 || read(fd[1], &c, 1) != 1)
		return (void *)1L;
	sigemptyset(&one);
	sigaddset(&one, SIGUSR1);
	if (pthread_sigmask(SIG_BLOCK, &one, NULL) != 0)
		return (void *)2L;
	return NULL;
}

static int worker_fd[2];
static pthread_t worker;

static int
setup_worker(void *arg)
{
	char c;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, worker_fd) == -1 ||
	    pthread_create(&worker, NULL, worker_blocking_all, worker_fd) != 0)
		return 1;
	return read(worker_fd[0], &c, 1) != 1;	/* it has blocked all */
}

static int
body_release_worker(void *arg)
{
	void *ret;

	(void)arg;
	if (write(worker_fd[0], "g", 1) != 1 ||
	    pthread_join(worker, &ret) != 0)
		return 4;
	return (int)(long)ret;
}

START_TEST(test_threads_before_tame_keep_their_masks)
{
	/*
	 * A thread that blocks SIGSYS cannot be sent into the process's
	 * Landlock domain (threads.c): where Landlock is, tame() refuses
	 * (EBUSY) and names it; where not, the thread keeps its mask and a
	 * violation in it ends the process without the line.
	 */
	struct outcome o;

	/*
	 * STDIO|RPATH makes no layer with paths, only the domain's: the
	 * same refusal (else other processes stayed in the thread's reach).
	 */
	if (tame_landlock_abi() > 0) {
		o = h_run(TAME_STDIO | TAME_RPATH, setup_worker,
		    body_release_worker, NULL);
		ck_assert_exit(o, H_TAME_FAILED);
	}
	o = h_run(TAME_STDIO, setup_worker, body_release_worker, NULL);
	if (tame_landlock_abi() > 0) {
		ck_assert_exit(o, H_TAME_FAILED);
		ck_assert_msg(strstr(o.err, "]: tame: thread ") != NULL &&
		    strstr(o.err, " blocks SIGSYS: it cannot be put in the "
		    "process's Landlock domain: EBUSY") != NULL,
		    "no line: %s", o.err);
		return;
	}
	ck_assert_exit(o, 0);
	ck_assert_msg(strstr(o.err, "]: tame: thread ") != NULL &&
	    strstr(o.err, " blocks SIGSYS: a violation in it ends the "
	    "process with no tame: line") != NULL, "no warning: %s", o.err);
}
END_TEST

START_TEST(test_masks_are_set_as_asked_less_sigsys)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_masks_as_asked, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

#if defined(__x86_64__)
/* x86's other ABIs (arm64's, AArch32, is t_bypass's: it needs an exec) */
static int
body_x32(void *arg)
{
	(void)arg;
	syscall(0x40000000 | SYS_getpid);
	return 0;
}

static int
body_int80(void *arg)
{
	long r = 20;		/* i386 getpid */

	(void)arg;
	__asm__ volatile ("int $0x80" : "+a"(r) : : "memory");
	return 0;
}

START_TEST(test_foreign_entry_points_die)
{
	struct outcome o;
	int off;

	o = h_run(TAME_ALL, NULL, body_x32, NULL);
	ck_assert_signal(o, SIGSYS);
	/* without an IA-32 entry the call faults tamed as it does untamed */
	off = h_ia32_off();
	o = h_run(TAME_ALL, NULL, body_int80, NULL);
	ck_assert_signal(o, off ? SIGSEGV : SIGSYS);
}
END_TEST
#endif

static int
body_sign_extended(void *arg)
{
	long r;
	int fd;

	(void)arg;
	/* AT_FDCWD sign-extended to 64 bits, as non-glibc callers pass it */
	fd = (int)syscall(SYS_openat, (long)AT_FDCWD, "/etc/hostname",
	    (long)O_RDONLY);
	if (fd == -1)
		return 1;
	/* an fcntl command with junk in the high word is still F_GETFL */
	r = syscall(SYS_fcntl, fd, (1L << 32) | F_GETFL);
	if (r == -1)
		return 2;
	/* TIOCGWINSZ with the high word set: allowed, ENOTTY on a file */
	r = syscall(SYS_ioctl, fd, 0xffffffff00000000UL | TIOCGWINSZ, NULL);
	if (r != -1 || errno != ENOTTY)
		return 3;
	return 0;
}

START_TEST(test_int_arguments_use_low_32_bits)
{
	struct outcome o = h_run(TAME_STDIO | TAME_RPATH | TAME_IOCTL, NULL,
	    body_sign_extended, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static Suite *
api_suite(void)
{
	Suite *s = suite_create("api");
	TCase *tc = tcase_create("api");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_unknown_bits_are_einval_and_install_nothing);
	tcase_add_test(tc, test_flags_only_narrow);
	tcase_add_test(tc, test_implied_flags_can_be_kept);
	tcase_add_test(tc, test_held_before_tame_is_all);
	tcase_add_test(tc, test_tame_zero_allows_exit_only);
	tcase_add_test(tc, test_violation_line_names_program_pid_call_flags);
	tcase_add_test(tc, test_report_channel_is_not_the_programs);
	tcase_add_test(tc, test_each_tame_narrows_further);
	tcase_add_test(tc, test_parse_flag_lists);
	tcase_add_test(tc, test_name_flags);
	tcase_add_test(tc, test_audit_marker_in_trace);
	tcase_add_test(tc, test_permissive_only_under_a_tracer);
	tcase_add_test(tc, test_threads_are_bound_or_tame_fails);
	tcase_add_test(tc, test_landlock_rows_need_a_single_thread);
	tcase_add_test(tc, test_without_landlock_path_flags_grant_nothing);
	tcase_add_test(tc, test_repeated_tame_installs_nothing);
	tcase_add_test(tc, test_forged_sigsys_is_no_trap);
	tcase_add_loop_test(tc, test_longest_chain_fits, 0, 6);
	tcase_add_test(tc, test_landlock_layers_used_up);
	tcase_add_test(tc, test_domain_kind_by_abi);
	tcase_add_test(tc, test_tame_unblocks_sigsys);
	tcase_add_test(tc, test_violation_with_every_signal_blocked_is_reported);
	tcase_add_test(tc, test_masks_are_set_as_asked_less_sigsys);
	tcase_add_test(tc, test_violation_into_a_closed_pipe_dies_of_sigsys);
	tcase_add_test(tc, test_handlers_set_before_tame_spare_sigsys);
	tcase_add_test(tc, test_threads_before_tame_keep_their_masks);
#if defined(__x86_64__)
	tcase_add_test(tc, test_foreign_entry_points_die);
#endif
	tcase_add_test(tc, test_int_arguments_use_low_32_bits);
	suite_add_tcase(s, tc);
	return s;
}

/* Modes for strace_self(): the program run under a real tracer. */
int
main(int argc, char *argv[])
{
	if (argc == 2 && strcmp(argv[1], "--marker") == 0)
		return tame(TAME_STDIO) == 0 ? 0 : 1;
	if (argc == 2 && strcmp(argv[1], "--socket-after-tame") == 0) {
		if (tame(TAME_STDIO) == -1)
			return 1;
		if (!socket_works())
			return 2;
		printf("survived\n");
		return 0;
	}
	return h_main(api_suite());
}
