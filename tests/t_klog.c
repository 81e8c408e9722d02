/* SPDX-License-Identifier: ISC */
/*
 * t_klog.c: a violation is in the kernel's log, as on OpenBSD.
 *
 * The line on stderr is lost where stderr is /dev/null (a daemon).  So
 * the handler ends the process with SECCOMP_RET_KILL_PROCESS on the
 * violating call, which the kernel records (audit type 1326, SECCOMP)
 * in its log where it logs seccomp kills: this test reads /dev/kmsg for
 * the record of a tamed process with stderr on /dev/null.
 *
 * Whether the kernel logs is this machine's setting (audit on,
 * kernel.seccomp.actions_logged with kill_process; auditd takes the
 * records away from dmesg), and printk keeps about ten records in five
 * seconds.  So a control comes first each time: a process that kills
 * itself with a one-rule filter of its own.  Control logged, the tamed
 * one must be too; control never logged, the case is n/a with why.
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tame.h"

#define ATTEMPTS	3
#define WINDOW		6	/* seconds: printk's limit is per 5 */

/* The kernel log, positioned at its end; -1 where it cannot be read. */
static int
klog_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd != -1 && lseek(fd, 0, SEEK_END) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Is this record the kernel's of a seccomp kill of pid on call nr? */
static int
is_kill(const char *rec, pid_t pid, long nr)
{
	char pidw[32], nrw[32];

	snprintf(pidw, sizeof(pidw), " pid=%d ", (int)pid);
	snprintf(nrw, sizeof(nrw), " syscall=%ld ", nr);
	return strstr(rec, "type=1326") != NULL && strstr(rec, pidw) != NULL &&
	    strstr(rec, nrw) != NULL && strstr(rec, "code=0x80000000") != NULL;
}

/*
 * The records since fd's place: bit 0 set if the control's kill is
 * among them, bit 1 if the tamed process's is.
 */
static int
klog_kills(int fd, pid_t control, pid_t tamed)
{
	char rec[8192];
	ssize_t n;
	int found = 0;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n == -1 && errno == EPIPE)
			continue;	/* records overwritten: read on */
		if (n <= 0)
			return found;
		rec[n] = '\0';
		if (is_kill(rec, control, SYS_getppid))
			found |= 1;
		if (is_kill(rec, tamed, SYS_socket))
			found |= 2;
	}
}

/* A process killed by a filter of its own on getppid: the control. */
static pid_t
control_kill(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	pid_t pid;
	int status;

	if ((pid = fork()) == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ==
		    0)
			syscall(SYS_getppid);
		_exit(1);
	}
	if (pid == -1 || waitpid(pid, &status, 0) != pid ||
	    !WIFSIGNALED(status) || WTERMSIG(status) != SIGSYS)
		return -1;
	return pid;
}

/* A tamed process, stderr on /dev/null, makes a socket: it dies. */
static pid_t
tamed_violation(void)
{
	pid_t pid;
	int status, null;

	if ((pid = fork()) == 0) {
		if ((null = open("/dev/null", O_WRONLY)) == -1 ||
		    dup2(null, 2) == -1 || tame(TAME_STDIO) == -1)
			_exit(1);
		socket(AF_INET, SOCK_STREAM, 0);
		_exit(2);
	}
	if (pid == -1 || waitpid(pid, &status, 0) != pid ||
	    !WIFSIGNALED(status) || WTERMSIG(status) != SIGSYS)
		return -1;
	return pid;
}

START_TEST(test_violation_is_in_the_kernel_log)
{
	int attempt, fd, found = 0, controls = 0;
	pid_t control, tamed;

	if ((fd = klog_open()) == -1) {
		printf("n/a: the kernel's log (/dev/kmsg: %s)\n",
		    strerror(errno));
		fflush(stdout);
		return;
	}
	for (attempt = 1; attempt <= ATTEMPTS; attempt++) {
		if (attempt > 1)
			sleep(WINDOW);
		lseek(fd, 0, SEEK_END);
		control = control_kill();
		ck_assert_msg(control > 0, "the control did not die of SIGSYS");
		tamed = tamed_violation();
		ck_assert_msg(tamed > 0, "the tamed process did not die of "
		    "SIGSYS");
		usleep(200000);		/* kauditd prints from its thread */
		found = klog_kills(fd, control, tamed);
		if (!(found & 1))
			continue;	/* not logging, or printk's limit */
		controls++;
		if (found & 2)
			break;
	}
	close(fd);
	if (controls == 0) {
		printf("n/a: this kernel logs no seccomp kill to /dev/kmsg "
		    "(audit off, auditd taking the records, or "
		    "kernel.seccomp.actions_logged without kill_process)\n");
		fflush(stdout);
		return;
	}
	ck_assert_msg(found & 2, "the kernel logged the control's "
	    "seccomp kill %d times, never the tamed process's violation",
	    controls);
}
END_TEST

static Suite *
klog_suite(void)
{
	Suite *s = suite_create("klog");
	TCase *tc = h_tcase(s, "klog", 60, NULL, NULL);

	tcase_add_test(tc, test_violation_is_in_the_kernel_log);
	return s;
}

TAME_TEST_MAIN(klog_suite)
