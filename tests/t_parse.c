/* SPDX-License-Identifier: ISC */
/*
 * t_parse.c: the strace log parser (audit/parse.c) on the forms strace
 * 6.1 prints (shared/reference/auditor.md, section 2), on its traps,
 * on malformed input, and on a real log of a real command.
 */
#include <sys/wait.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "parse.h"

static struct st_parser *p;
static struct st_event ev;

static int
feed(const char *line)
{
	return st_line(p, line, strlen(line), &ev);
}

static void
setup(void)
{
	ck_assert_ptr_nonnull(p = st_new());
}

static void
teardown(void)
{
	st_free(p);
}

/* The i-th argument as a string of its own. */
static const char *
arg(int i)
{
	static char buf[512];
	const char *a;
	size_t n;

	if (st_arg(ev.args, ev.args_len, i, &a, &n) == -1)
		return NULL;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, a);
	return buf;
}

START_TEST(test_plain_call)
{
	ck_assert_int_eq(feed("5638  openat(AT_FDCWD</tmp/demo>, "
	    "\"/etc/passwd\", O_RDONLY|O_CLOEXEC) = 3</etc/passwd>"), 1);
	ck_assert_int_eq(ev.kind, ST_CALL);
	ck_assert_int_eq(ev.pid, 5638);
	ck_assert_str_eq(ev.name, "openat");
	ck_assert(ev.returned);
	ck_assert_int_eq(ev.ret, 3);
	ck_assert_str_eq(ev.err, "");
	ck_assert_str_eq(arg(0), "AT_FDCWD</tmp/demo>");
	ck_assert_str_eq(arg(1), "\"/etc/passwd\"");
	ck_assert_str_eq(arg(2), "O_RDONLY|O_CLOEXEC");
	ck_assert_ptr_null(arg(3));
}
END_TEST

START_TEST(test_errors_and_no_result)
{
	ck_assert_int_eq(feed("12  getppid() = -1 EPERM (Operation not "
	    "permitted)"), 1);
	ck_assert_int_eq(ev.ret, -1);
	ck_assert_str_eq(ev.err, "EPERM");
	ck_assert_ptr_null(arg(0));
	ck_assert_int_eq(feed("12  exit_group(3)                     = ?"), 1);
	ck_assert(!ev.returned);
	ck_assert_int_eq(feed("12  nanosleep({tv_sec=5, tv_nsec=0}, 0x7ffc) "
	    "= ? ERESTART_RESTARTBLOCK (Interrupted by signal)"), 1);
	ck_assert(!ev.returned);
	ck_assert_str_eq(ev.err, "ERESTART_RESTARTBLOCK");
	/* fcntl's annotated result */
	ck_assert_int_eq(feed("12  fcntl(3, F_GETFL) = 0x8002 (flags "
	    "O_RDWR|O_LARGEFILE)"), 1);
	ck_assert_int_eq(ev.ret, 0x8002);
	ck_assert_str_eq(ev.err, "");
}
END_TEST

/* A string may hold ") = ", commas, brackets and quotes. */
START_TEST(test_strings_hide_everything)
{
	char out[64];
	int trunc;

	ck_assert_int_eq(feed("7  write(1, \"a) = 5, [\\\"x\\\"]\\n\"..., 40) "
	    "= 40"), 1);
	ck_assert_int_eq(ev.ret, 40);
	ck_assert_str_eq(arg(2), "40");
	ck_assert_int_eq(st_string(arg(1), strlen(arg(1)), out, sizeof(out),
	    &trunc), 14);
	ck_assert_str_eq(out, "a) = 5, [\"x\"]\n");
	ck_assert(trunc);
	/* octal, hex and letter escapes */
	ck_assert_int_eq(st_string("\"\\303\\251\\x41\\t\\\\\"", 20, out,
	    sizeof(out), &trunc), 5);
	ck_assert_int_eq((unsigned char)out[0], 0303);
	ck_assert_int_eq(out[2], 'A');
	ck_assert_int_eq(out[3], '\t');
	ck_assert_int_eq(out[4], '\\');
	ck_assert(!trunc);
	ck_assert_int_eq(st_string("42", 2, out, sizeof(out), &trunc), -1);
	ck_assert_int_eq(st_string("\"unclosed", 9, out, sizeof(out), &trunc),
	    -1);
	ck_assert_int_eq(st_string("\"too long\"", 10, out, 4, &trunc), -1);
}
END_TEST

/* Comments, nested structures, elisions, and -X verbose numbers. */
START_TEST(test_verbose_numbers_and_comments)
{
	long long v;

	ck_assert_int_eq(feed("9  socket(0x2 /* AF_INET */, 0x1 /* SOCK_STREAM"
	    " */|0x80000 /* SOCK_CLOEXEC */, 0x6 /* IPPROTO_TCP */) = 3"), 1);
	ck_assert_int_eq(st_number(arg(0), strlen(arg(0)), &v), 0);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(st_number(arg(1), strlen(arg(1)), &v), 0);
	ck_assert_int_eq(v, 0x80001);
	ck_assert_int_eq(feed("9  execve(\"/bin/true\", [\"true\"], 0x7ffe /* 37 "
	    "vars, (a) = 1 */) = 0"), 1);
	ck_assert_str_eq(arg(2), "0x7ffe /* 37 vars, (a) = 1 */");
	ck_assert_int_eq(feed("9  newfstatat(3</etc>, \"\", {st_mode=S_IFREG|"
	    "0644, st_size=526, ...}, AT_EMPTY_PATH) = 0"), 1);
	ck_assert_str_eq(arg(3), "AT_EMPTY_PATH");
	ck_assert_int_eq(st_number("AT_FDCWD</tmp>", 14, &v), 0);
	ck_assert_int_eq(v, -100);
	ck_assert_int_eq(st_number("3</etc/passwd>", 14, &v), 0);
	ck_assert_int_eq(v, 3);
	ck_assert_int_eq(st_number("O_RDONLY", 8, &v), -1);
	ck_assert_int_eq(st_number("0x5401 /* TCGETS */", 19, &v), 0);
	ck_assert_int_eq(v, 0x5401);
}
END_TEST

/* -yy decorations: "->" inside, nested ones, escaped brackets. */
START_TEST(test_decorations)
{
	char out[128];

	ck_assert_int_eq(feed("4  connect(5<TCP:[127.0.0.1:50508->127.0.0.1:"
	    "8000]>, {sa_family=AF_INET, sin_port=htons(8000)}, 16) = 0"), 1);
	ck_assert_str_eq(arg(0), "5<TCP:[127.0.0.1:50508->127.0.0.1:8000]>");
	ck_assert_int_eq(st_decoration(arg(0), strlen(arg(0)), out,
	    sizeof(out)), 37);
	ck_assert_str_eq(out, "TCP:[127.0.0.1:50508->127.0.0.1:8000]");
	ck_assert_str_eq(arg(2), "16");
	ck_assert_int_eq(feed("4  read(0</dev/null<char 1:3>>, \"\", 10) = 0"),
	    1);
	ck_assert_int_eq(st_decoration(arg(0), strlen(arg(0)), out,
	    sizeof(out)), 9);
	ck_assert_str_eq(out, "/dev/null");
	ck_assert_str_eq(arg(2), "10");
	ck_assert_int_eq(feed("4  openat(AT_FDCWD</tmp/demo>, \"we>ird<name\", "
	    "O_RDONLY) = 3</tmp/demo/we\\76ird\\74name>"), 1);
	ck_assert_int_eq(ev.ret, 3);
	ck_assert_int_eq(st_decoration("3</tmp/we\\76ird>", 16, out,
	    sizeof(out)), 11);
	ck_assert_str_eq(out, "/tmp/we>ird");
	ck_assert_int_eq(st_decoration("\"a<b>\"", 6, out, sizeof(out)), -1);
	/* a working directory with brackets and a comma, after -X's comment */
	ck_assert_int_eq(feed("4  openat(-100 /* AT_FDCWD */</srv/[x],y>, "
	    "\"a\", 0x80000 /* O_RDONLY|O_CLOEXEC */) = 3</srv/[x],y/a>"), 1);
	ck_assert_int_eq(ev.nargs, 3);
	ck_assert_str_eq(arg(1), "\"a\"");
	ck_assert_int_eq(ev.ret, 3);
	/* a file with no name left (qemu's memfd): -yy adds "(deleted)" */
	ck_assert_int_eq(feed("4  memfd_create(\"test\", 0x3 /* MFD_CLOEXEC|"
	    "MFD_ALLOW_SEALING */) = 3</memfd:test>(deleted)"), 1);
	ck_assert_int_eq(ev.ret, 3);
	ck_assert_int_eq(feed("4  close(3</memfd:test>(deleted)) = 0"), 1);
	ck_assert_int_eq(st_number(arg(0), strlen(arg(0)), &ev.ret), 0);
	ck_assert_int_eq(ev.ret, 3);
}
END_TEST

/* unfinished ... resumed, interleaved, and the execve pid switch. */
START_TEST(test_unfinished_and_resumed)
{
	ck_assert_int_eq(feed("5638  newfstatat(AT_FDCWD, \"/root/x\",  "
	    "<unfinished ...>"), 0);
	ck_assert_int_eq(feed("5639  set_robust_list(0x7f1c, 24 "
	    "<unfinished ...>"), 0);
	ck_assert_int_eq(st_pending(p), 2);
	ck_assert_int_eq(feed("5638  <... newfstatat resumed>0x7ffe844cd630, 0)"
	    " = -1 ENOENT (No such file or directory)"), 1);
	ck_assert_str_eq(ev.name, "newfstatat");
	ck_assert_int_eq(ev.pid, 5638);
	ck_assert_str_eq(arg(1), "\"/root/x\"");
	ck_assert_str_eq(arg(2), "0x7ffe844cd630");
	ck_assert_str_eq(ev.err, "ENOENT");
	ck_assert_int_eq(feed("5639  <... set_robust_list resumed>) = 0"), 1);
	ck_assert_int_eq(st_pending(p), 0);
	/* a thread's execve takes over the leader's pid */
	ck_assert_int_eq(feed("6545  execve(\"/usr/bin/true\", [\"true\"], "
	    "0x7ffe /* 37 vars */ <unfinished ...>"), 0);
	ck_assert_int_eq(feed("6544  <... pause resumed>)              = ?"),
	    -1);	/* its start was never seen: an error, said */
	ck_assert_ptr_nonnull(strstr(st_error(p), "never began"));
	ck_assert_int_eq(feed("6544  +++ superseded by execve in pid 6545 +++"),
	    1);
	ck_assert_int_eq(ev.kind, ST_SUPERSEDED);
	ck_assert_int_eq(ev.status, 6545);
	ck_assert_int_eq(feed("6544  <... execve resumed>)             = 0"), 1);
	ck_assert_str_eq(ev.name, "execve");
	ck_assert_int_eq(ev.pid, 6544);
	ck_assert_int_eq(st_pending(p), 0);
}
END_TEST

START_TEST(test_signals_exits_frames)
{
	ck_assert_int_eq(feed("6363  --- SIGSYS {si_signo=SIGSYS, si_code="
	    "SYS_SECCOMP, si_syscall=__NR_getppid} ---"), 1);
	ck_assert_int_eq(ev.kind, ST_SIGNAL);
	ck_assert_str_eq(ev.name, "SIGSYS");
	ck_assert_int_eq(feed("6363  --- stopped by SIGTSTP ---"), 1);
	ck_assert_str_eq(ev.name, "SIGTSTP");
	ck_assert_int_eq(feed("6363  +++ killed by SIGSYS (core dumped) +++"),
	    1);
	ck_assert_int_eq(ev.kind, ST_KILLED);
	ck_assert_str_eq(ev.name, "SIGSYS");
	ck_assert(ev.core);
	ck_assert_int_eq(feed("5638  +++ exited with 3 +++"), 1);
	ck_assert_int_eq(ev.kind, ST_EXITED);
	ck_assert_int_eq(ev.status, 3);
	ck_assert_int_eq(feed(" > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64"
	    "+0x13) [0x10e2a3]"), 1);
	ck_assert_int_eq(ev.kind, ST_FRAME);
	ck_assert_int_eq(ev.pid, 5638);
	/* no pid prefix (no -f), and stderr's "[pid N]" */
	ck_assert_int_eq(feed("getpid() = 77"), 1);
	ck_assert_int_eq(ev.pid, 0);
	ck_assert_int_eq(feed("[pid  5684] close(3) = 0"), 1);
	ck_assert_int_eq(ev.pid, 5684);
	/* a thread killed at a call's entry: its registers unread, no call */
	ck_assert_int_eq(feed("4242  ????( <unfinished ...>"), 0);
	ck_assert_int_eq(feed("4242  ????() = ?"), 0);
	ck_assert_int_eq(feed("4242  +++ killed by SIGKILL +++"), 1);
	ck_assert_int_eq(ev.kind, ST_KILLED);
}
END_TEST

/* Bad input: an error with a message, never a crash or a false event. */
START_TEST(test_malformed_lines)
{
	static const char *bad[] = {
		"1  openat(AT_FDCWD, \"/x\", O_RDONLY",
		"1  openat(AT_FDCWD, \"/x\", O_RDONLY) 3",
		"1  openat(AT_FDCWD, \"/x) = 3",
		"1  (3) = 0",
		"1  +++ exited with",
		"1  +++ vanished +++",
		"1  <... read resumed",
		"1  read(3, \"x\", 1) = banana",
		"\x01\x02\xff garbage \"",
		"1  <unfinished ...>",
	};
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(feed(bad[i]) == -1, "accepted: %s", bad[i]);
		ck_assert_msg(strncmp(st_error(p), "line ", 5) == 0,
		    "no message for %s", bad[i]);
	}
	ck_assert_int_eq(feed(""), 0);
	ck_assert_int_eq(feed("1  "), 0);
}
END_TEST

/*
 * A real log: strace runs a shell that forks, opens, fails to open,
 * writes and exits.  Every line parses, every unfinished call resumes,
 * and the calls the command made are there with their paths.
 */
START_TEST(test_real_strace_log)
{
	char log[] = "/var/tmp/t_parse.XXXXXX", cmd[512], *line = NULL;
	char path[256];
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int fd, calls = 0, exits = 0, hostname = 0, enoent = 0, trunc;
	const char *a;
	size_t alen;

	ck_assert_int_ge(fd = mkstemp(log), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "strace -f -yy -X verbose -s 64 -o %s sh -c "
	    "'cat /etc/hostname >/dev/null; ls /nonexistent-t-parse "
	    "2>/dev/null; (echo \"a) = b\" | cat) >/dev/null; exit 3' "
	    ">/dev/null 2>&1", log);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 3);
	ck_assert_ptr_nonnull(f = fopen(log, "r"));
	while ((n = getline(&line, &cap, f)) > 0) {
		int r = st_line(p, line, (size_t)n, &ev);

		ck_assert_msg(r != -1, "%s: %s", st_error(p), line);
		if (r != 1)
			continue;
		calls += ev.kind == ST_CALL;
		exits += ev.kind == ST_EXITED;
		if (ev.kind == ST_CALL && strcmp(ev.name, "openat") == 0 &&
		    st_arg(ev.args, ev.args_len, 1, &a, &alen) == 0 &&
		    st_string(a, alen, path, sizeof(path), &trunc) >= 0) {
			hostname += strcmp(path, "/etc/hostname") == 0 &&
			    ev.ret >= 0;
		}
		if (ev.kind == ST_CALL && strcmp(ev.err, "ENOENT") == 0 &&
		    st_arg(ev.args, ev.args_len, 1, &a, &alen) == 0 &&
		    st_string(a, alen, path, sizeof(path), &trunc) >= 0)
			enoent += strcmp(path, "/nonexistent-t-parse") == 0;
	}
	free(line);
	fclose(f);
	unlink(log);
	ck_assert_int_eq(st_pending(p), 0);
	ck_assert_int_gt(calls, 50);
	ck_assert_int_ge(exits, 4);		/* sh, cat, ls, and more */
	ck_assert_int_eq(hostname, 1);
	ck_assert_int_ge(enoent, 1);
}
END_TEST

static Suite *
parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = h_tcase(s, "parse", 30, setup, teardown);

	tcase_add_test(tc, test_plain_call);
	tcase_add_test(tc, test_errors_and_no_result);
	tcase_add_test(tc, test_strings_hide_everything);
	tcase_add_test(tc, test_verbose_numbers_and_comments);
	tcase_add_test(tc, test_decorations);
	tcase_add_test(tc, test_unfinished_and_resumed);
	tcase_add_test(tc, test_signals_exits_frames);
	tcase_add_test(tc, test_malformed_lines);
	tcase_add_test(tc, test_real_strace_log);
	return s;
}

TAME_TEST_MAIN(parse_suite)
