/* SPDX-License-Identifier: ISC */
/*
 * harness.h: run code in a tamed grandchild and look at how it ended.
 *
 * Check already forks once per test; that child stays untamed (Check's
 * own end-of-test timer calls would otherwise die) and forks again.  The
 * grandchild tames itself, runs the body and _exits with the body's
 * return value; the test asserts on the exit status or signal, and on
 * what the grandchild wrote to stderr.
 */
#ifndef TAME_HARNESS_H
#define TAME_HARNESS_H

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "tame.h"

struct outcome {
	int	exited;		/* normal exit: status holds the code */
	int	status;
	int	signaled;	/* killed: sig holds the signal */
	int	sig;
	char	err[4096];	/* everything written to stderr */
};

/* Exit codes the harness itself uses in the grandchild. */
#define H_TAME_FAILED	250	/* tame() returned -1 */
#define H_SETUP_FAILED	251	/* the setup hook returned nonzero */

typedef int	(*h_body)(void *);

/*
 * Fork; in the grandchild run setup(arg) if not NULL, tame(flags) unless
 * flags is H_NO_TAME, then body(arg), and _exit with its value.  Waits up
 * to 10 seconds (times CK_TIMEOUT_MULTIPLIER), then kills it as hung.
 * Returns the outcome.
 */
#define H_NO_TAME	(-1)
struct outcome	h_run(int flags, h_body setup, h_body body, void *arg);

/* Assertions on an outcome, with its stderr in the failure message. */
#define ck_assert_exit(o, code) \
	ck_assert_msg((o).exited && (o).status == (code), \
	    "expected exit %d, got %s %d; stderr: %s", (code), \
	    (o).exited ? "exit" : "signal", (o).exited ? (o).status : (o).sig, \
	    (o).err)
#define ck_assert_signal(o, signo) \
	ck_assert_msg((o).signaled && (o).sig == (signo), \
	    "expected signal %d, got %s %d; stderr: %s", (signo), \
	    (o).exited ? "exit" : "signal", (o).exited ? (o).status : (o).sig, \
	    (o).err)
/* Death by SIGSYS, and the report line names the call and a flag. */
#define ck_assert_violation(o, call, flag) do { \
	ck_assert_signal(o, SIGSYS); \
	ck_assert_msg(h_reported((o).err, (call), (flag)), \
	    "report should name %s and %s: %s", (call), (flag), (o).err); \
} while (0)

int	h_reported(const char *err, const char *call, const char *flag);
/* The call a libc function makes here, for a test that names x86-64's. */
const char	*h_native_call(const char *call);

#if defined(__x86_64__)
/*
 * 1 where this kernel has no IA-32 entry (int $0x80 faults before any
 * filter), after printing the n/a line the cases that need it give; 0
 * where an untamed int $0x80 getpid returns the pid.
 */
int	h_ia32_off(void);
#endif

/*
 * Make standard error a pipe whose reader is gone: a write to it raises
 * SIGPIPE (and fails with EPIPE).  0, or -1 with errno.
 */
int	h_stderr_to_closed_pipe(void);

/* A fresh directory for one test, removed by h_cleanup(). */
const char	*h_tmpdir(void);
void		 h_cleanup(void);

/*
 * A test case of suite s with a timeout in seconds and, if not NULL, a
 * checked fixture run around each test (in the test's own process).
 */
TCase	*h_tcase(Suite *s, const char *name, int timeout,
	    void (*setup)(void), void (*teardown)(void));

/* Each test program ends with TAME_TEST_MAIN(its suite function). */
int	h_main(Suite *);
#define TAME_TEST_MAIN(fn) \
	int main(void) { return h_main(fn()); }

#endif /* TAME_HARNESS_H */
