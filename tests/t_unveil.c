/* SPDX-License-Identifier: ISC */
/*
 * t_unveil.c: unveil() on Landlock, in forked children that really
 * unveil: permissions, the lock (unveil(NULL, NULL) and a pledge()
 * without the unveil promise), bad input, and each place where Landlock
 * differs from OpenBSD, asserted as it is (unveil(3) CAVEATS).
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
	if (stat("/etc/hostname", &st) != 0)
		return 6;		/* metadata stays visible */
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
		if (unveil("/etc", "r") != 0 || unveil(NULL, NULL) != 0)
			return 1;
		if (opens("/etc/hostname", O_RDONLY) != 0)
			return 2;
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

static Suite *
unveil_suite(void)
{
	Suite *s = suite_create("unveil");
	TCase *tc = h_tcase(s, "unveil", 60, setup, h_cleanup);

	tcase_add_test(tc, test_read_only_and_the_lock);
	tcase_add_test(tc, test_permissions);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_overlapping_rules_add_up);
	tcase_add_test(tc, test_nothing_hidden_before_the_lock);
	tcase_add_test(tc, test_pledge_locks_unveil);
	tcase_add_test(tc, test_tame_locks_unveil);
	tcase_add_test(tc, test_empty_pledge_locks_unveil_first);
	return s;
}

TAME_TEST_MAIN(unveil_suite)
