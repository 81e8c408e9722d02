/* SPDX-License-Identifier: ISC */
/*
 * t_audit.c: tame-audit's classifier and cover solver.
 *
 * The classifier is checked against what libtame really does: each need
 * it derives from strace's text of a call is compared with the verdict
 * of a forked child that tames itself with the sets the need names and
 * with the sets just below them (tests/cli/audit.sh runs whole programs
 * the same way).  The fixtures in tests/audit/ hold strace's traps
 * (auditor.md section 2.11), each with the flags it must give.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "harness.h"
#include "policy.h"
#include "tree.h"

static struct audit *a;

static void
setup(void)
{
	a = audit_new();
}

static void
teardown(void)
{
	audit_free(a);
}

/* The need of one call written as strace -X verbose writes it. */
static const struct need *
need_of(const char *name, const char *args, long long ret, const char *err)
{
	struct call_text t = { .name = name, .args = args, .len = strlen(args),
	    .ret = ret, .err = err, .returned = 1, .tgid = 4242,
	    .creator = -1 };
	int id = classify(a, &t);

	return &a->needs[id];
}

static int
has_alt(const struct need *nd, int flags)
{
	int i;

	for (i = 0; i < nd->nalts; i++)
		if (nd->alts[i] == flags)
			return 1;
	return 0;
}

START_TEST(test_read_of_passwd_is_rpath_or_getpw)
{
	const struct need *nd = need_of("openat", "-100 /* AT_FDCWD */</>, "
	    "\"/etc/passwd\", 0x80000 /* O_RDONLY|O_CLOEXEC */", 3, "");

	ck_assert_int_eq(nd->nalts, 2);
	ck_assert(has_alt(nd, TAME_RPATH));
	ck_assert(has_alt(nd, TAME_GETPW));
	ck_assert_str_eq(nd->what, "openat \"/etc/passwd\" O_RDONLY");
}
END_TEST

START_TEST(test_create_in_tmp_is_tmppath_or_wpath_cpath)
{
	const struct need *nd = need_of("openat", "-100, \"/tmp/x\", "
	    "0x241 /* O_WRONLY|O_CREAT|O_TRUNC */, 0644", 3, "");

	ck_assert(has_alt(nd, TAME_TMPPATH));
	ck_assert(has_alt(nd, TAME_WPATH | TAME_CPATH));
	ck_assert_int_eq(nd->nalts, 2);
	/* elsewhere, only wpath and cpath */
	nd = need_of("openat", "-100, \"/srv/x\", 0x241, 0644", 3, "");
	ck_assert_int_eq(nd->nalts, 1);
	ck_assert(has_alt(nd, TAME_WPATH | TAME_CPATH));
}
END_TEST

START_TEST(test_sockets)
{
	const struct need *nd;

	nd = need_of("socket", "0x2 /* AF_INET */, 0x1 /* SOCK_STREAM */, 0",
	    3, "");
	ck_assert(has_alt(nd, TAME_INET));
	ck_assert(has_alt(nd, TAME_DNSPATH));
	nd = need_of("socket", "0x11 /* AF_PACKET */, 0x3, 0", 3, "");
	ck_assert_int_eq(nd->nalts, 0);
	ck_assert_ptr_nonnull(nd->reason);
	/* a peer that is no name server: not dnspath's */
	nd = need_of("connect", "3<TCP:[1]>, {sa_family=0x2 /* AF_INET */, "
	    "sin_port=htons(8000), sin_addr=inet_addr(\"127.0.0.1\")}, 16", 0,
	    "");
	ck_assert(has_alt(nd, TAME_INET));
	ck_assert(!has_alt(nd, TAME_DNSPATH));
	nd = need_of("connect", "3<UDP:[1]>, {sa_family=0x2 /* AF_INET */, "
	    "sin_port=htons(53), sin_addr=inet_addr(\"127.0.0.53\")}, 16", 0,
	    "");
	ck_assert(has_alt(nd, TAME_DNSPATH));
	/* as strace -X verbose prints a port: the bytes, then htons() */
	nd = need_of("connect", "3<TCP:[2]>, {sa_family=0x2 /* AF_INET */, "
	    "sin_port=\"\\x22\\x3d\" /* htons(8765) */, sin_addr="
	    "\"\\x7f\\x00\\x00\\x01\" /* inet_addr(\"127.0.0.1\") */}, 16",
	    0, "");
	ck_assert(has_alt(nd, TAME_INET));
	ck_assert(!has_alt(nd, TAME_DNSPATH));
	nd = need_of("connect", "3<UDP:[2]>, {sa_family=0x2 /* AF_INET */, "
	    "sin_port=\"\\x00\\x35\" /* htons(53) */, sin_addr="
	    "\"\\x7f\\x00\\x00\\x35\" /* inet_addr(\"127.0.0.53\") */}, 16",
	    0, "");
	ck_assert(has_alt(nd, TAME_DNSPATH));
	/*
	 * a UDP connect alone: a peer, until the log shows it was the
	 * resolver's (tests/audit/udp_probe.log, udp_peer.log)
	 */
	nd = need_of("connect", "3<UDP:[3]>, {sa_family=0x2 /* AF_INET */, "
	    "sin_port=htons(80), sin_addr=inet_addr(\"127.0.0.1\")}, 16", 0,
	    "");
	ck_assert(!has_alt(nd, TAME_DNSPATH));
	/* nor is a raw socket's port 0 (ping) */
	nd = need_of("connect", "3<socket:[5]>, {sa_family=0x2 /* AF_INET */, "
	    "sin_port=htons(0), sin_addr=inet_addr(\"127.0.0.1\")}, 16", 0,
	    "");
	ck_assert(!has_alt(nd, TAME_DNSPATH));
}
END_TEST

START_TEST(test_soft_denials)
{
	const struct need *nd;

	/* isatty() on a pipe: ENOTTY is what tame() answers anyway */
	nd = need_of("ioctl", "1<pipe:[5]>, 0x5401 /* TCGETS */, 0x7ffc", -1,
	    "ENOTTY");
	ck_assert(has_alt(nd, 0));
	ck_assert(nd->nexact > 0 && nd->exact[0] == 0);
	/* on a terminal it succeeded: the program goes on, differently */
	nd = need_of("ioctl", "1</dev/pts/0>, 0x5401 /* TCGETS */, 0x7ffc", 0,
	    "");
	ck_assert(has_alt(nd, 0));
	ck_assert_int_eq(nd->nexact, 1);
	ck_assert_int_eq(nd->exact[0], TAME_IOCTL);
	ck_assert_int_gt(nd->ndenied, 0);
}
END_TEST

/*
 * The verdict's inputs: a code load is a blocker whatever the flags; a
 * soft denial that changed an answer needs the flags that keep it, unless
 * the call failed anyway or its descriptor was of no use.
 */
START_TEST(test_code_and_soft_answers)
{
	struct findings f;
	struct need *nd;
	int i;

	nd = (struct need *)need_of("mmap", "0x7f00, 8192, 0x5 /* PROT_READ|"
	    "PROT_EXEC */, 0x812 /* MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE */, "
	    "3</usr/lib/x86_64-linux-gnu/gconv/UTF-16.so>, 0x1000", 0x7f00, "");
	ck_assert(nd->code);
	ck_assert_str_eq(nd->module, "/usr/lib/x86_64-linux-gnu/gconv/UTF-16.so");
	/* another module is a blocker of its own */
	ck_assert_ptr_ne(need_of("mmap", "0x7f00, 8192, 0x5, 0x812, "
	    "3</usr/lib/libB.so>, 0x1000", 0x7f00, ""), nd);
	/* a terminal query that succeeded: sharpened to ioctl */
	nd = (struct need *)need_of("ioctl", "1</dev/pts/0>, 0x5401 /* TCGETS "
	    "*/, 0x7ffc", 0, "");
	ck_assert(!need_benign(nd));
	/* one that failed anyway: left loose */
	ck_assert(need_benign(need_of("ioctl", "1</dev/null>, 0x5401 /* TCGETS "
	    "*/, 0x7ffc", -1, "EINVAL")));
	audit_sharpen(a);
	ck_assert_int_eq(nd->nalts, 1);
	ck_assert_int_eq(nd->alts[0], TAME_IOCTL);
	findings_make(a, &f, 0, 0, 0);
	verdict_make(a, &f);
	ck_assert(!f.tameable);
	ck_assert_int_eq(f.nblockers, 2);
	for (i = 0; i < f.nblockers; i++)
		ck_assert_int_eq(f.blockers[i].kind, BLOCK_CODE);
	ck_assert(f.flags & TAME_IOCTL);
	findings_free(&f);
}
END_TEST

START_TEST(test_fallbacks_are_classified_as_their_calls)
{
	const struct need *nd;

	/* a thread: clone3 gets ENOSYS, glibc calls clone(CLONE_THREAD...) */
	nd = need_of("clone3", "{flags=0x3d0f00 /* CLONE_VM|CLONE_FS|"
	    "CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|"
	    "CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID */, exit_signal=0, "
	    "stack=0x7f, stack_size=0x7fff00} => {parent_tid=[9]}, 88", 9, "");
	ck_assert(has_alt(nd, TAME_MALLOC));
	/* posix_spawn's vfork-style child: a new process, proc's */
	nd = need_of("clone3", "{flags=0x4111 /* CLONE_VM|CLONE_VFORK|"
	    "CLONE_CLEAR_SIGHAND */, exit_signal=17 /* SIGCHLD */, stack=0x7f, "
	    "stack_size=0x9000}, 88", 9, "");
	ck_assert_int_eq(nd->nalts, 1);
	ck_assert(has_alt(nd, TAME_PROC));
	nd = need_of("clone", "child_stack=NULL, flags=0x1200011 /* "
	    "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD */, "
	    "child_tidptr=0x7f1c", 77, "");
	ck_assert(has_alt(nd, TAME_PROC));
}
END_TEST

START_TEST(test_signals_messages_exec)
{
	const struct need *nd;

	nd = need_of("kill", "4242, 0x6 /* SIGABRT */", 0, "");
	ck_assert(has_alt(nd, 0));		/* raise(): itself */
	nd = need_of("kill", "1, 0xf /* SIGTERM */", 0, "");
	ck_assert(has_alt(nd, TAME_PROC));
	nd = need_of("sendmsg", "3<UNIX-STREAM:[1->2]>, {msg_name=NULL, "
	    "msg_control=[{cmsg_len=20, cmsg_level=0x1 /* SOL_SOCKET */, "
	    "cmsg_type=0x1 /* SCM_RIGHTS */, cmsg_data=[5]}], "
	    "msg_controllen=24, msg_flags=0}, 0", 1, "");
	ck_assert_int_eq(nd->nalts, 1);
	ck_assert(has_alt(nd, TAME_CMSG));
	nd = need_of("sendmsg", "3<UNIX-STREAM:[1->2]>, {msg_name=NULL, "
	    "msg_iov=[{iov_base=\"SCM_RIGHTS\", iov_len=10}], msg_control=NULL,"
	    " msg_controllen=0, msg_flags=0}, 0", 10, "");
	ck_assert(has_alt(nd, TAME_RW));	/* only words about it */
	nd = need_of("execve", "\"/bin/sh\", [\"sh\"], 0x7ffd /* 3 vars */", 0,
	    "");
	ck_assert_int_eq(nd->nalts, 0);
	ck_assert_ptr_nonnull(strstr(nd->reason, "/bin/sh"));
	nd = need_of("no_such_call", "1, 2", 0, "");
	ck_assert_int_eq(nd->nalts, 0);
}
END_TEST

/*
 * Each minimal alternative of a need really lets the call through, in
 * a child that tames itself with it; each set below it really kills.
 */
static int
open_passwd(void *arg)
{
	(void)arg;
	return open("/etc/passwd", O_RDONLY | O_CLOEXEC) >= 0 ? 0 : 3;
}

static int
open_tmp(void *arg)
{
	char path[64];

	(void)arg;
	snprintf(path, sizeof(path), "/tmp/t_audit.%d", (int)getpid());
	if (open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600) == -1)
		return 3;
	return unlink(path) == 0 ? 0 : 4;
}

START_TEST(test_alternatives_are_what_libtame_does)
{
	static const struct {
		const char	*args;
		h_body		 body;
	} cases[] = {
		{ "-100, \"/etc/passwd\", 0x80000", open_passwd },
		{ "-100, \"/tmp/t_audit.1\", 0x241, 0600", open_tmp },
	};
	const struct need *nd;
	struct outcome o;
	size_t c;
	int i, bit;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		nd = need_of("openat", cases[c].args, 3, "");
		ck_assert_int_gt(nd->nalts, 0);
		for (i = 0; i < nd->nalts; i++) {
			/* (open_tmp's unlink needs what its open needs) */
			o = h_run(TAME_STDIO | nd->alts[i], NULL, cases[c].body,
			    NULL);
			ck_assert_exit(o, 0);
			for (bit = 1; bit <= TAME_PROC; bit <<= 1) {
				if (!(nd->alts[i] & bit))
					continue;
				o = h_run(TAME_STDIO | (nd->alts[i] & ~bit),
				    NULL, cases[c].body, NULL);
				ck_assert_signal(o, SIGSYS);
			}
		}
	}
}
END_TEST

START_TEST(test_cover_is_exact_and_grants_least)
{
	struct need n1 = { .nalts = 2, .alts = { TAME_RPATH, TAME_GETPW } };
	struct need n2 = { .nalts = 2, .alts = { TAME_TMPPATH,
	    TAME_WPATH | TAME_CPATH } };
	struct need n3 = { .nalts = 1, .alts = { TAME_RPATH } };
	struct need n4 = { .nalts = 0 };
	const struct need *v[4];
	int ties[8], nties, set;

	/* /etc/passwd alone: getpw grants less than rpath */
	v[0] = &n1;
	set = cover_solve(v, 1, TAME_STDIO, 0, 0, ties, &nties, 8);
	ck_assert_int_eq(set, TAME_STDIO | TAME_GETPW);
	ck_assert_int_eq(nties, 1);
	ck_assert_int_eq(ties[0], TAME_STDIO | TAME_RPATH);
	/* with another read, rpath covers both: one flag, not two */
	v[1] = &n3;
	set = cover_solve(v, 2, TAME_STDIO, 0, 0, ties, &nties, 8);
	ck_assert_int_eq(set, TAME_STDIO | TAME_RPATH);
	/* a create in /tmp: tmppath (one) beats wpath+cpath (two) */
	v[2] = &n2;
	v[3] = &n4;		/* nothing meets it: left out */
	set = cover_solve(v, 4, TAME_STDIO, 0, 0, NULL, NULL, 0);
	ck_assert_int_eq(set, TAME_STDIO | TAME_RPATH | TAME_TMPPATH);
	ck_assert(cover_meets(&n2, set, 0));
	ck_assert(!cover_meets(&n2, TAME_STDIO | TAME_WPATH, 0));
	/* implied flags meet too: cmsg holds unix */
	n4 = (struct need){ .nalts = 1, .alts = { TAME_UNIX } };
	ck_assert(cover_meets(&n4, TAME_STDIO | TAME_CMSG, 0));
}
END_TEST

START_TEST(test_flag_text)
{
	char buf[256];

	flags_text(TAME_STDIO | TAME_RPATH, buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "stdio,rpath");
	flags_text(TAME_STDIO | TAME_RPATH, buf, sizeof(buf), 1);
	ck_assert_str_eq(buf, "TAME_STDIO | TAME_RPATH");
	flags_text(TAME_RW | TAME_RPATH, buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "rpath");		/* rw is implied */
	flags_text(TAME_STDIO | TAME_UNIX | TAME_CMSG, buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "stdio,cmsg");
	flags_text(0, buf, sizeof(buf), 1);
	ck_assert_str_eq(buf, "0");
}
END_TEST

/* Every fixture gives the flags its .expect file names. */
START_TEST(test_fixtures)
{
	char dir[PATH_MAX], log[PATH_MAX + 300], exp[PATH_MAX + 300];
	char want[256], got[256], msg[512], *self;
	struct findings f;
	struct dirent *e;
	FILE *fp;
	DIR *d;
	int n = 0;
	size_t len;

	/* tests/audit, found from this binary (build/tests/t_audit) */
	self = realpath("/proc/self/exe", NULL);
	ck_assert_ptr_nonnull(self);
	*strrchr(self, '/') = '\0';
	snprintf(dir, sizeof(dir), "%s/../../tests/audit", self);
	free(self);
	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((e = readdir(d)) != NULL) {
		len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".log") != 0)
			continue;
		snprintf(log, sizeof(log), "%s/%s", dir, e->d_name);
		snprintf(exp, sizeof(exp), "%s/%.*s.expect", dir,
		    (int)(len - 4), e->d_name);
		ck_assert_ptr_nonnull(fp = fopen(exp, "r"));
		ck_assert_ptr_nonnull(fgets(want, sizeof(want), fp));
		fclose(fp);
		want[strcspn(want, "\n")] = '\0';
		audit_free(a);
		a = audit_new();
		ck_assert_msg(audit_read_log(a, log, 0, msg, sizeof(msg)) == 0,
		    "%s: %s", log, msg);
		ck_assert_int_ge(a->runs[0].markers, 1);
		findings_make(a, &f, 0, 0, 0);
		flags_text(f.flags, got, sizeof(got), 0);
		findings_free(&f);
		ck_assert_msg(strcmp(got, want) == 0, "%s: got %s, want %s",
		    e->d_name, got, want);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 12);
}
END_TEST

/* What a fixture must show besides its flags. */
START_TEST(test_fixture_details)
{
	char msg[512], path[PATH_MAX + 64], *self;
	struct findings f;
	int i, execs = 0;

	self = realpath("/proc/self/exe", NULL);
	ck_assert_ptr_nonnull(self);
	*strrchr(self, '/') = '\0';
	/* a thread's execve took over the leader's pid: it is seen */
	snprintf(path, sizeof(path), "%s/../../tests/audit/exec_thread.log",
	    self);
	ck_assert_int_eq(audit_read_log(a, path, 0, msg, sizeof(msg)), 0);
	findings_make(a, &f, 0, 0, 0);
	for (i = 0; i < f.nunexpressible; i++)
		execs += strstr(a->needs[f.unexpressible[i]].what,
		    "/usr/bin/true") != NULL;
	ck_assert_int_eq(execs, 1);
	/* the new image's loader is not counted */
	ck_assert_int_eq(f.flags, TAME_STDIO);
	findings_free(&f);
	/* a log cut off inside a call says so */
	audit_free(a);
	a = audit_new();
	snprintf(path, sizeof(path), "%s/../../tests/audit/cut.log", self);
	ck_assert_int_eq(audit_read_log(a, path, 0, msg, sizeof(msg)), 0);
	ck_assert(a->runs[0].cut);
	/* the exit or the signal of the first process */
	audit_free(a);
	a = audit_new();
	snprintf(path, sizeof(path), "%s/../../tests/audit/signals.log", self);
	ck_assert_int_eq(audit_read_log(a, path, 0, msg, sizeof(msg)), 0);
	ck_assert_int_eq(a->runs[0].exited, 2);
	ck_assert_str_eq(a->runs[0].signame, "SIGPIPE");
	free(self);
}
END_TEST

/*
 * A process killed while the loader was still at work (a suite starts
 * sleep and kills it at once) ran nothing of its program: the tree
 * names it not judged, with the signal, and never calls it a program
 * started without the shim; its starter is a launcher that starts it.
 */
START_TEST(test_killed_before_its_start)
{
	char msg[512], path[PATH_MAX + 64], *self;
	struct tree t = { 0 };
	int sleep_i, dash_i;

	self = realpath("/proc/self/exe", NULL);
	ck_assert_ptr_nonnull(self);
	*strrchr(self, '/') = '\0';
	snprintf(path, sizeof(path), "%s/../../tests/audit/killed_early.log",
	    self);
	free(self);
	ck_assert_int_eq(tree_read_log(&t, path, msg, sizeof(msg)), 0);
	tree_judge(&t);
	ck_assert_int_ge(sleep_i = tree_program_find(&t, "/usr/bin/sleep"), 0);
	ck_assert_int_ge(dash_i = tree_program_find(&t, "/usr/bin/dash"), 0);
	ck_assert_int_eq(t.p[sleep_i].unreached, 0);
	ck_assert_int_eq(t.p[sleep_i].killed, 1);
	ck_assert_int_eq(t.p[sleep_i].f.tameable, 0);
	ck_assert_ptr_nonnull(tree_not_judged(&t, sleep_i));
	ck_assert_ptr_nonnull(strstr(tree_not_judged(&t, sleep_i),
	    "SIGTERM killed its process before its start"));
	ck_assert_int_eq(t.p[sleep_i].starter, dash_i);
	ck_assert(tree_is_launcher(&t, dash_i));
	ck_assert_ptr_null(tree_not_judged(&t, dash_i));
	tree_free(&t);
}
END_TEST

static Suite *
audit_suite(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = h_tcase(s, "audit", 60, setup, teardown);

	tcase_add_test(tc, test_read_of_passwd_is_rpath_or_getpw);
	tcase_add_test(tc, test_create_in_tmp_is_tmppath_or_wpath_cpath);
	tcase_add_test(tc, test_sockets);
	tcase_add_test(tc, test_soft_denials);
	tcase_add_test(tc, test_code_and_soft_answers);
	tcase_add_test(tc, test_fallbacks_are_classified_as_their_calls);
	tcase_add_test(tc, test_signals_messages_exec);
	tcase_add_test(tc, test_alternatives_are_what_libtame_does);
	tcase_add_test(tc, test_cover_is_exact_and_grants_least);
	tcase_add_test(tc, test_flag_text);
	tcase_add_test(tc, test_fixtures);
	tcase_add_test(tc, test_fixture_details);
	tcase_add_test(tc, test_killed_before_its_start);
	return s;
}

TAME_TEST_MAIN(audit_suite)
