/* SPDX-License-Identifier: ISC */
/*
 * t_unveil.c: unveil() on Landlock and the supervisor, in forked
 * children that really unveil: permissions, the lock (unveil(NULL,
 * NULL) and a pledge() without the unveil promise), the path calls
 * Landlock does not judge (stat, access, readlink, chdir, O_PATH, modes,
 * owners, times, attributes, unix sockets by path and abstract ones),
 * bad input, and each place where this differs from OpenBSD, asserted as
 * it is (unveil(3) CAVEATS).
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/xattr.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "pledge.h"

static char	 dir[256];

static const char *
in_dir(const char *name)
{
	static char path[2][512];
	static int k;

	k ^= 1;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

/* dir/f (a file), dir/sub/g, and an outside file beside dir. */
static void
setup(void)
{
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/unveil.XXXXXX", h_tmpdir());
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(mkdir(in_dir("sub"), 0755), 0);
	ck_assert_ptr_nonnull(f = fopen(in_dir("f"), "w"));
	fclose(f);
	ck_assert_ptr_nonnull(f = fopen(in_dir("sub/g"), "w"));
	fclose(f);
}

/*
 * Needs Landlock: else unveil() must fail with ENOSYS (nothing could be
 * hidden), which is checked, and the case is n/a for the rest.
 */
static int
have_landlock(void)
{
	if (tame_landlock_abi() > 0)
		return 1;
	errno = 0;
	ck_assert_msg(unveil(dir, "r") == -1 && errno == ENOSYS,
	    "unveil() without Landlock: %s, not ENOSYS", strerror(errno));
	printf("n/a: no Landlock in this kernel: unveil() fails with "
	    "ENOSYS\n");
	return 0;
}

static int
opens(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd == -1)
		return -errno;
	close(fd);
	return 0;
}

static int
body_read_only(void *arg)
{
	struct stat st;

	(void)arg;
	if (unveil(dir, "r") != 0 || unveil(NULL, NULL) != 0)
		return 100;
	if (opens(in_dir("f"), O_RDONLY) != 0)
		return 1;		/* unveiled: readable */
	if (opens(in_dir("sub/g"), O_RDONLY) != 0)
		return 2;		/* beneath it too */
	if (opens(in_dir("f"), O_WRONLY) != -EACCES)
		return 3;		/* no w */
	if (opens(in_dir("new"), O_WRONLY | O_CREAT) != -EACCES)
		return 4;		/* no c */
	if (opens("/etc/hostname", O_RDONLY) != -EACCES)
		return 5;		/* hidden: EACCES (OpenBSD: ENOENT) */
	if (stat("/etc/hostname", &st) != -1 || errno != EACCES)
		return 6;		/* so is what it is */
	if (stat(in_dir("sub/g"), &st) != 0)
		return 8;
	errno = 0;
	if (unveil(dir, "rw") != -1 || errno != EPERM)
		return 7;		/* locked */
	return 0;
}

START_TEST(test_read_only_and_the_lock)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_read_only, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_create(void *arg)
{
	(void)arg;
	if (unveil(dir, "rwc") != 0 || unveil("/", "r") != 0 ||
	    unveil(NULL, NULL) != 0)
		return 100;
	if (opens(in_dir("new"), O_WRONLY | O_CREAT) != 0)
		return 1;
	if (unlink(in_dir("new")) != 0)
		return 2;
	if (opens("/etc/hostname", O_RDONLY) != 0)
		return 3;		/* "/" "r" */
	if (opens("/tmp/unveil-outside", O_WRONLY | O_CREAT) != -EACCES)
		return 4;
	if (execl("/bin/true", "true", (char *)NULL) != -1 ||
	    errno != EACCES)
		return 5;		/* no x anywhere */
	return 0;
}

START_TEST(test_permissions)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_create, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * A name still to be made (OpenBSD files it under its directory): the
 * unveil succeeds and the name can be made; Landlock's rule is its
 * directory's, so the directory's other names get the same rights (the
 * difference unveil(3) states), and nothing outside it.
 */
static int
body_name_to_be_made(void *arg)
{
	(void)arg;
	if (unveil(in_dir("sub/new.txt"), "rwc") != 0 ||
	    unveil(NULL, NULL) != 0)
		return 100;
	if (opens(in_dir("sub/new.txt"), O_WRONLY | O_CREAT) != 0)
		return 1;
	if (opens(in_dir("sub/new.txt"), O_RDWR) != 0)
		return 2;
	if (opens(in_dir("sub/g"), O_RDWR) != 0)
		return 3;		/* the directory's: as documented */
	if (opens(in_dir("f"), O_RDONLY) != -EACCES)
		return 4;		/* outside the directory: hidden */
	return 0;
}

START_TEST(test_name_to_be_made)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_name_to_be_made, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * The same path again takes the new permissions, as OpenBSD's: fewer
 * narrow it (Landlock's rules only add up: the ruleset is made anew),
 * and "" hides it.  A subdirectory's own rule is kept through that.
 */
static int
body_same_path_narrows(void *arg)
{
	(void)arg;
	if (unveil(dir, "rwc") != 0)
		return 101;
	if (unveil(in_dir("sub"), "rw") != 0)
		return 102;
	if (unveil(dir, "r") != 0)
		return 103;
	if (unveil(NULL, NULL) != 0)
		return 104;
	if (opens(in_dir("f"), O_RDONLY) != 0)
		return 1;
	if (opens(in_dir("f"), O_WRONLY) != -EACCES)
		return 2;		/* w narrowed away */
	if (opens(in_dir("new"), O_WRONLY | O_CREAT) != -EACCES)
		return 3;		/* c too */
	if (opens(in_dir("sub/g"), O_RDWR) != 0)
		return 4;		/* sub's own rule stands */
	return 0;
}

static int
body_same_path_hidden(void *arg)
{
	(void)arg;
	if (unveil(in_dir("sub"), "r") != 0 || unveil(in_dir("f"), "r") != 0 ||
	    unveil(in_dir("f"), "") != 0 || unveil(NULL, NULL) != 0)
		return 100;
	if (opens(in_dir("sub/g"), O_RDONLY) != 0)
		return 1;
	if (opens(in_dir("f"), O_RDONLY) != -EACCES)
		return 2;		/* "" after "r": hidden */
	return 0;
}

START_TEST(test_same_path_narrows)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_same_path_narrows, NULL);
	ck_assert_exit(o, 0);
	o = h_run(H_NO_TAME, NULL, body_same_path_hidden, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * pledge's own paths pass unveil, as OpenBSD's pledge_namei lets them:
 * /dev/null, the time zone, tmppath's /tmp; the name service's files
 * only with getpw.  Unpledged, unveil lets nothing past.
 */
static int
body_pledge_paths_pass(void *arg)
{
	char tmp[] = "/tmp/tame-unveil.XXXXXX";
	int fd;

	(void)arg;
	if (unveil(dir, "r") != 0 || pledge("stdio rpath tmppath", NULL) != 0)
		return 100;
	if (opens("/dev/null", O_RDWR) != 0)
		return 1;
	if (opens("/etc/localtime", O_RDONLY) != 0 && errno != ENOENT)
		return 2;
	if ((fd = mkstemp(tmp)) == -1)
		return 3;
	close(fd);
	if (unlink(tmp) != 0)
		return 4;
	if (opens("/etc/passwd", O_RDONLY) != -EACCES)
		return 5;		/* getpw's, not held: hidden */
	if (opens(in_dir("f"), O_RDONLY) != 0)
		return 6;
	return 0;
}

static int
body_unpledged_passes_nothing(void *arg)
{
	(void)arg;
	if (unveil(dir, "r") != 0 || unveil(NULL, NULL) != 0)
		return 100;
	return opens("/dev/null", O_RDONLY) == -EACCES ? 0 : 1;
}

START_TEST(test_pledge_paths_pass_unveil)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_pledge_paths_pass, NULL);
	ck_assert_exit(o, 0);
	o = h_run(H_NO_TAME, NULL, body_unpledged_passes_nothing, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * Links between unveiled trees: allowed where the file gains nothing
 * (rwc to rwc); EXDEV from "r" into "rwc", where OpenBSD allows it
 * (Landlock's refer rule: unveil(3) CAVEATS, tested as it is).
 */
static int
body_links(void *arg)
{
	(void)arg;
	if (mkdir(in_dir("a"), 0755) != 0 || mkdir(in_dir("b"), 0755) != 0 ||
	    rename(in_dir("f"), in_dir("a/f")) != 0 ||
	    unveil(in_dir("a"), "rwc") != 0 || unveil(in_dir("b"), "rwc") != 0 ||
	    unveil(in_dir("sub"), "r") != 0 || unveil(NULL, NULL) != 0)
		return 100;
	if (link(in_dir("a/f"), in_dir("b/f")) != 0)
		return 1;
	if (link(in_dir("sub/g"), in_dir("b/g")) != -1 || errno != EXDEV)
		return 2;
	return 0;
}

START_TEST(test_links_between_trees)
{
	struct outcome o;

	if (!have_landlock() || tame_landlock_abi() < 2)
		return;		/* ABI 1: no refer right, every link EXDEV */
	o = h_run(H_NO_TAME, NULL, body_links, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_bad_input(void *arg)
{
	(void)arg;
	errno = 0;
	if (unveil(dir, "rz") != -1 || errno != EINVAL)
		return 1;
	errno = 0;
	if (unveil(dir, NULL) != -1 || errno != EINVAL)
		return 2;
	errno = 0;
	if (unveil(NULL, "r") != -1 || errno != EINVAL)
		return 3;
	errno = 0;
	if (unveil(in_dir("missing/x"), "r") != -1 || errno != ENOENT)
		return 4;		/* a path that does not exist */
	return 0;
}

START_TEST(test_bad_input)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_bad_input, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * Overlapping rules add up: "" beneath a readable directory hides
 * nothing (OpenBSD: the deepest rule decides, and sub is hidden).
 */
static int
body_overlap(void *arg)
{
	(void)arg;
	if (unveil(dir, "r") != 0 || unveil(in_dir("sub"), "") != 0 ||
	    unveil(in_dir("sub"), "w") != 0 || unveil(NULL, NULL) != 0)
		return 100;
	if (opens(in_dir("sub/g"), O_RDONLY) != 0)
		return 1;		/* r from dir still applies */
	if (opens(in_dir("sub/g"), O_WRONLY) != 0)
		return 2;		/* w from sub */
	if (opens(in_dir("f"), O_WRONLY) != -EACCES)
		return 3;
	return 0;
}

START_TEST(test_overlapping_rules_add_up)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_overlap, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/* Nothing is hidden before the lock (OpenBSD: from the first call). */
static int
body_before_lock(void *arg)
{
	(void)arg;
	if (unveil(dir, "r") != 0)
		return 100;
	return opens("/etc/hostname", O_RDONLY) == 0 ? 0 : 1;
}

START_TEST(test_nothing_hidden_before_the_lock)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_before_lock, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/* pledge() without the unveil promise locks; with it, unveil goes on. */
static int
body_pledge(void *arg)
{
	int with = *(int *)arg;

	if (unveil(dir, "r") != 0)
		return 100;
	if (pledge(with ? "stdio rpath unveil" : "stdio rpath", NULL) != 0)
		return 101;
	if (with) {
		struct stat st;

		if (unveil("/etc", "r") != 0 || unveil(NULL, NULL) != 0)
			return 1;
		if (opens("/etc/hostname", O_RDONLY) != 0)
			return 2;
		/* a check by the supervisor, under a filter from before */
		if (stat("/etc/hostname", &st) != 0 ||
		    stat("/usr/bin/env", &st) != -1 || errno != EACCES)
			return 6;
	} else {
		errno = 0;
		if (unveil("/etc", "r") != -1 || errno != EPERM)
			return 3;
	}
	if (opens(in_dir("f"), O_RDONLY) != 0)
		return 4;
	return opens(with ? "/usr/bin/env" : "/etc/hostname", O_RDONLY) ==
	    -EACCES ? 0 : 5;
}

START_TEST(test_pledge_locks_unveil)
{
	int with = 0;
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_pledge, &with);
	ck_assert_exit(o, 0);
	with = 1;
	o = h_run(H_NO_TAME, NULL, body_pledge, &with);
	ck_assert_exit(o, 0);
}
END_TEST

/* pledge("") after unveil(): the lock goes in before "" leaves _exit. */
static int
body_empty(void *arg)
{
	(void)arg;
	if (unveil(dir, "r") != 0 || pledge("", NULL) != 0)
		return 100;
	syscall(SYS_exit_group, 7);
	return 1;
}

START_TEST(test_empty_pledge_locks_unveil_first)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_empty, NULL);
	ck_assert_exit(o, 7);
}
END_TEST

/* tame() locks too: it holds no unveil promise. */
static int
body_tame(void *arg)
{
	(void)arg;
	if (unveil(dir, "r") != 0 || tame(TAME_STDIO | TAME_RPATH) != 0)
		return 100;
	errno = 0;
	if (unveil("/etc", "r") != -1 || errno != EPERM)
		return 1;
	return opens("/etc/hostname", O_RDONLY) == -EACCES ? 0 : 2;
}

START_TEST(test_tame_locks_unveil)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_tame, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/* "<dir>.out": a file beside the unveiled directory, never unveiled. */
static const char *
outside(const char *suffix)
{
	static char path[2][512];
	static int k;

	k ^= 1;
	snprintf(path[k], sizeof(path[k]), "%s.%s", dir, suffix);
	return path[k];
}

/* A listening unix socket at path; its descriptor, or -1. */
static int
listening(const char *path, int abstract)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	socklen_t len;
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	if (abstract) {
		snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1, "%s",
		    path);
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
		    strlen(path));
	} else {
		unlink(path);
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
		len = sizeof(sun);
	}
	if (s == -1 || bind(s, (struct sockaddr *)&sun, len) != 0 ||
	    listen(s, 4) != 0)
		return -1;
	return s;
}

/* connect() to what listening() made: 0 or -errno. */
static int
connects(const char *path, int abstract)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	socklen_t len;
	int s = socket(AF_UNIX, SOCK_STREAM, 0), r;

	if (abstract) {
		snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1, "%s",
		    path);
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
		    strlen(path));
	} else {
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
		len = sizeof(sun);
	}
	r = connect(s, (struct sockaddr *)&sun, len) == 0 ? 0 : -errno;
	close(s);
	return r;
}

#define HIDDEN(call) do {						\
	errno = 0;							\
	if ((call) != -1 || errno != EACCES)				\
		return __LINE__;					\
} while (0)
#define SEEN(call) do {							\
	if ((call) == -1)						\
		return __LINE__;					\
} while (0)

/*
 * Every path call Landlock does not judge, on an unveiled path and on
 * a hidden one, after unveil(NULL, NULL) alone (arg 0), pledge() (arg
 * 1), or both, in that order (arg 2): the hidden one fails with EACCES,
 * the unveiled one works.
 */
static int
body_unjudged_calls(void *arg)
{
	int pledged = *(int *)arg, fd, ls, lo;
	struct stat st;
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	char buf[256], cwd[512], hidden[512], link[512], hidden_link[512];

	/* copies: in_dir() and outside() reuse their buffers */
	snprintf(hidden, sizeof(hidden), "%s", outside("out"));
	snprintf(link, sizeof(link), "%s", in_dir("l"));
	snprintf(hidden_link, sizeof(hidden_link), "%s", in_dir("to-outside"));

	if ((fd = open(hidden, O_WRONLY | O_CREAT, 0644)) == -1)
		return 100;
	close(fd);
	if (symlink("f", link) != 0 || symlink(hidden, hidden_link) != 0)
		return 101;
	if ((ls = listening(in_dir("s"), 0)) == -1 ||
	    (lo = listening(outside("sock"), 0)) == -1 ||
	    listening(dir, 1) == -1)
		return 102;
	if (unveil(dir, "r") != 0 || unveil(in_dir("f"), "rw") != 0 ||
	    unveil(in_dir("s"), "w") != 0)
		return 103;
	/* 2: locked unpledged first, then pledged (tame-exec -v -p) */
	if (pledged == 2 && unveil(NULL, NULL) != 0)
		return 104;
	if (pledged ? pledge("stdio rpath wpath cpath fattr unix", NULL) :
	    unveil(NULL, NULL))
		return 105;

	SEEN(stat(in_dir("f"), &st));
	HIDDEN(stat(hidden, &st));
	HIDDEN(lstat(hidden, &st));
	HIDDEN(stat(hidden_link, &st));	/* where the link leads decides */
	SEEN(lstat(hidden_link, &st));	/* the link itself is unveiled */
	HIDDEN(open(hidden_link, O_RDONLY));	/* as Landlock judges it */
	SEEN(fstatat(AT_FDCWD, in_dir("f"), &st, 0));
	if ((fd = open(in_dir("f"), O_RDONLY)) == -1)
		return __LINE__;
	SEEN(fstat(fd, &st));		/* a descriptor names no path */
	close(fd);
	SEEN(access(in_dir("f"), R_OK | W_OK));
	HIDDEN(access(hidden, F_OK));
	HIDDEN(faccessat(AT_FDCWD, hidden, R_OK, AT_EACCESS));
	HIDDEN(access(in_dir("sub/g"), W_OK));	/* dir is r only */
	if (readlink(link, buf, sizeof(buf)) != 1 || buf[0] != 'f')
		return __LINE__;
	HIDDEN(readlink(hidden, buf, sizeof(buf)));
	HIDDEN(open(hidden, O_PATH));
	if ((fd = open(in_dir("sub"), O_PATH | O_DIRECTORY)) == -1)
		return __LINE__;
	close(fd);
	HIDDEN(chmod(hidden, 0600));
	HIDDEN(chmod(in_dir("sub/g"), 0600));	/* needs w */
	HIDDEN(utimensat(AT_FDCWD, in_dir("sub/g"), ts, 0));
	SEEN(chmod(in_dir("f"), 0640));
	SEEN(stat(in_dir("f"), &st));
	if ((st.st_mode & 07777) != 0640)
		return __LINE__;
	HIDDEN(chown(hidden, (uid_t)-1, (gid_t)-1));
	HIDDEN(lchown(hidden, (uid_t)-1, (gid_t)-1));
	SEEN(chown(in_dir("f"), (uid_t)-1, (gid_t)-1));
	HIDDEN(utimensat(AT_FDCWD, hidden, ts, 0));
	HIDDEN(utimes(hidden, NULL));
	SEEN(utimensat(AT_FDCWD, in_dir("f"), ts, 0));
	HIDDEN(truncate(hidden, 0));
	SEEN(truncate(in_dir("f"), 0));
	HIDDEN(getxattr(hidden, "user.x", buf, sizeof(buf)));
	HIDDEN(listxattr(hidden, buf, sizeof(buf)));
	HIDDEN(setxattr(hidden, "user.x", "1", 1, 0));
	HIDDEN(removexattr(hidden, "user.x"));
	HIDDEN(chdir(h_tmpdir()));	/* dir's parent */
	SEEN(chdir(in_dir("sub")));
	if (getcwd(cwd, sizeof(cwd)) == NULL ||
	    strcmp(cwd, in_dir("sub")) != 0)
		return __LINE__;
	SEEN(stat("g", &st));		/* relative to the new directory */
	if (connects(in_dir("s"), 0) != 0)
		return __LINE__;
	if (connects(outside("sock"), 0) != -EACCES)
		return __LINE__;
	if (connects(dir, 1) != -EACCES)
		return __LINE__;	/* abstract: no path to unveil */
	close(ls);
	close(lo);
	return 0;
}

START_TEST(test_unjudged_calls)
{
	struct outcome o;
	int pledged = 0;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_unjudged_calls, &pledged);
	ck_assert_exit(o, 0);
	unlink(outside("out"));
	unlink(outside("sock"));
	unlink(in_dir("l"));
	unlink(in_dir("to-outside"));
	for (pledged = 1; pledged <= 2; pledged++) {
		o = h_run(H_NO_TAME, NULL, body_unjudged_calls, &pledged);
		ck_assert_exit(o, 0);
		unlink(outside("out"));
		unlink(outside("sock"));
		unlink(in_dir("l"));
		unlink(in_dir("to-outside"));
	}
}
END_TEST

/*
 * /proc/self names the caller, not the supervisor that stats or reads
 * the link for it.
 */
static int
body_proc_self(void *arg)
{
	struct stat viapath, viafd;
	char buf[64], want[64];
	long n;
	int fd;

	(void)arg;
	if (unveil("/proc", "r") != 0 || unveil(NULL, NULL) != 0)
		return 100;
	snprintf(want, sizeof(want), "%d", (int)getpid());
	if ((n = readlink("/proc/self", buf, sizeof(buf) - 1)) <= 0)
		return 1;
	buf[n] = '\0';
	if (strcmp(buf, want) != 0)
		return 2;
	if ((fd = open("/proc/self/stat", O_RDONLY)) == -1)
		return 3;
	if (fstat(fd, &viafd) != 0 || stat("/proc/self/stat", &viapath) != 0)
		return 4;
	close(fd);
	return viafd.st_ino == viapath.st_ino ? 0 : 5;
}

START_TEST(test_proc_self_is_the_caller)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_proc_self, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * A thread that was running before the lock is bound by it too, as
 * OpenBSD's unveil binds the process.
 */
static int go[2], done[2];

static void *
opener(void *arg)
{
	char c;
	int r;

	(void)arg;
	if (read(go[0], &c, 1) != 1)
		return (void *)1;
	r = opens("/etc/hostname", O_RDONLY);
	return (void *)(long)(r == -EACCES ? 0 : 2);
}

static int
body_thread_before_lock(void *arg)
{
	pthread_t t;
	void *ret;

	(void)arg;
	if (pipe(go) != 0 || pipe(done) != 0 ||
	    pthread_create(&t, NULL, opener, NULL) != 0)
		return 100;
	if (unveil(dir, "r") != 0 || unveil(NULL, NULL) != 0)
		return 101;
	if (write(go[1], "g", 1) != 1 || pthread_join(t, &ret) != 0)
		return 102;
	return (int)(long)ret;
}

START_TEST(test_threads_before_the_lock_are_bound)
{
	struct outcome o;

	if (!have_landlock())
		return;
	o = h_run(H_NO_TAME, NULL, body_thread_before_lock, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static Suite *
unveil_suite(void)
{
	Suite *s = suite_create("unveil");
	TCase *tc = h_tcase(s, "unveil", 60, setup, h_cleanup);

	tcase_add_test(tc, test_read_only_and_the_lock);
	tcase_add_test(tc, test_permissions);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_name_to_be_made);
	tcase_add_test(tc, test_same_path_narrows);
	tcase_add_test(tc, test_pledge_paths_pass_unveil);
	tcase_add_test(tc, test_links_between_trees);
	tcase_add_test(tc, test_overlapping_rules_add_up);
	tcase_add_test(tc, test_nothing_hidden_before_the_lock);
	tcase_add_test(tc, test_pledge_locks_unveil);
	tcase_add_test(tc, test_tame_locks_unveil);
	tcase_add_test(tc, test_empty_pledge_locks_unveil_first);
	tcase_add_test(tc, test_unjudged_calls);
	tcase_add_test(tc, test_proc_self_is_the_caller);
	tcase_add_test(tc, test_threads_before_the_lock_are_bound);
	return s;
}

TAME_TEST_MAIN(unveil_suite)
