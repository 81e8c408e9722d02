/* SPDX-License-Identifier: ISC */
/*
 * t_fs.c: the file system half of the conformance matrix.
 *
 * Every test tames a grandchild (h_run) and makes real system calls in
 * it.  Each allowance is shown to work, each refusal to kill or to fail
 * with EACCES, and for every refusal the untamed parent then looks at the
 * file system to prove nothing happened: the file was not created,
 * truncated or removed, its content is unchanged, no byte was read.
 *
 * Bodies report back through a MAP_SHARED fixture, so that the parent can
 * tell "open failed" from "open worked and the read returned nothing".
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <sys/prctl.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <langinfo.h>
#include <locale.h>
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "tame.h"

#define nitems(a)	(sizeof(a) / sizeof((a)[0]))

#define CONTENT		"the quick brown fox\n"
#define CONTENT_LEN	(sizeof(CONTENT) - 1)
#define MODE		0644

/* What one test shares with its tamed grandchild. */
struct fx {
	char	dir[256];	/* h_tmpdir(), outside /tmp */
	char	file[300];	/* dir/file, holding CONTENT */
	char	link[300];	/* dir/link -> file */
	char	other[300];	/* dir/other: not made by the parent */
	char	sub[300];	/* dir/sub, an empty directory */
	char	out[300];	/* a name or text the body hands back */
	int	fd;		/* opened by setup, before tame() */
	int	op;		/* which entry of an op table */
	int	flags2;		/* if set, the body tames again */
	ssize_t	nread;		/* refused open read this; -1: no */
	char	buf[256];	/* what was read */
};

static struct fx *fx;

/*
 * A body's step failed: say which on stderr (the assertion message shows
 * it) and exit nonzero.  No strerror: it may look for a message catalog,
 * which is a file system access of its own.
 */
#define REQUIRE(c) do {							\
	if (!(c)) {							\
		dprintf(2, "line %d: %s (errno %d)\n", __LINE__, #c,	\
		    errno);						\
		return 1;						\
	}								\
} while (0)

/* Untamed helpers for the parent. */

static void
put_file(const char *path, const char *content)
{
	FILE *f;

	if ((f = fopen(path, "w")) == NULL)
		ck_abort_msg("fopen %s: %s", path, strerror(errno));
	fputs(content, f);
	if (fclose(f) != 0)
		ck_abort_msg("fclose %s: %s", path, strerror(errno));
	if (chmod(path, MODE) == -1)
		ck_abort_msg("chmod %s: %s", path, strerror(errno));
}

/* The whole content of path in buf, or NULL if it cannot be read. */
static const char *
get_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void
assert_content(const char *path, const char *want)
{
	char buf[256];
	const char *got;

	got = get_file(path, buf, sizeof(buf));
	ck_assert_msg(got != NULL, "%s is gone", path);
	ck_assert_str_eq(got, want);
}

static void
assert_absent(const char *path)
{
	ck_assert_msg(!exists(path), "%s exists", path);
}

static void
path_in(char *dst, size_t len, const char *name)
{
	snprintf(dst, len, "%s/%s", fx->dir, name);
}

/*
 * Per test (Check forks each one): a fresh scratch directory with one
 * file of known content and a symlink to it, shared with the body.
 */
static void
fx_setup(void)
{
	fx = mmap(NULL, sizeof(*fx), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fx == MAP_FAILED)
		ck_abort_msg("mmap: %s", strerror(errno));
	memset(fx, 0, sizeof(*fx));
	snprintf(fx->dir, sizeof(fx->dir), "%s", h_tmpdir());
	path_in(fx->file, sizeof(fx->file), "file");
	path_in(fx->link, sizeof(fx->link), "link");
	path_in(fx->other, sizeof(fx->other), "other");
	path_in(fx->sub, sizeof(fx->sub), "sub");
	put_file(fx->file, CONTENT);
	if (symlink("file", fx->link) == -1 || mkdir(fx->sub, 0755) == -1)
		ck_abort_msg("fixture: %s", strerror(errno));
	fx->fd = -1;
	fx->nread = -1;
}

static void
fx_teardown(void)
{
	h_cleanup();
	munmap(fx, sizeof(*fx));
}

/* Calls exactly as the kernel sees them, whatever glibc prefers. */

static int
raw_open(const char *path, int flags)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, 0600);
}

/*
 * Open path where the open must be a violation.  Only reached if it was
 * not: records what read() got in fx->nread, so the parent can see the
 * leak, and returns 2.
 */
static int
open_must_die(const char *path, int flags)
{
	int fd;

	if ((fd = raw_open(path, flags)) != -1) {
		fx->nread = read(fd, fx->buf, sizeof(fx->buf) - 1);
		close(fd);
	}
	snprintf(fx->out, sizeof(fx->out), "open returned %d", fd);
	return 2;
}

/* A violation whose line names the call, the path (quoted) and a flag. */
#define ck_assert_path_violation(o, call, path, flag) do {		\
	char q_[320];							\
	ck_assert_violation(o, call, flag);				\
	snprintf(q_, sizeof(q_), "%s \"%s\"", h_native_call(call),	\
	    (path));							\
	ck_assert_msg(strstr((o).err, q_) != NULL,			\
	    "report should name %s: %s", q_, (o).err);			\
} while (0)

/* Try to open and use the fixture; only reached if the open was allowed. */
static int
open_and_use(int flags)
{
	int fd;

	REQUIRE((fd = raw_open(fx->file, flags)) != -1);
	if ((flags & O_ACCMODE) != O_WRONLY)
		fx->nread = read(fd, fx->buf, sizeof(fx->buf) - 1);
	if ((flags & O_ACCMODE) != O_RDONLY)
		(void)pwrite(fd, "XXXX", 4, 0);
	close(fd);
	return 0;
}

/*
 * Base set: any nonzero flags read the time zone files, and nothing
 * else, through Landlock.
 */

static int
body_base_reads_zone_files(void *arg)
{
	char magic[4];
	DIR *d;
	struct dirent *de;
	int fd, seen = 0;

	(void)arg;
	REQUIRE((fd = raw_open("/etc/localtime", O_RDONLY)) != -1);
	REQUIRE(read(fd, magic, 4) == 4 && memcmp(magic, "TZif", 4) == 0);
	close(fd);
	REQUIRE((fd = raw_open("/usr/share/zoneinfo/Europe/Paris",
	    O_RDONLY | O_CLOEXEC)) != -1);
	REQUIRE(read(fd, magic, 4) == 4 && memcmp(magic, "TZif", 4) == 0);
	close(fd);
	/* READ_DIR is granted beneath zoneinfo too */
	REQUIRE((d = opendir("/usr/share/zoneinfo")) != NULL);
	while ((de = readdir(d)) != NULL)
		seen |= strcmp(de->d_name, "Europe") == 0;
	closedir(d);
	REQUIRE(seen);
	return 0;
}

START_TEST(test_base_reads_zone_files)
{
	struct outcome o;

	o = h_run(TAME_STDIO, NULL, body_base_reads_zone_files, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
setup_tz_paris(void *arg)
{
	(void)arg;
	return setenv("TZ", "Europe/Paris", 1);
}

/*
 * Without the file glibc would fall back to UTC, so only a CET or CEST
 * abbreviation proves the zone file was read.
 */
static int
body_localtime_paris(void *arg)
{
	struct tm *tm;
	time_t t = 1700000000;	/* November 2023: CET */

	(void)arg;
	REQUIRE((tm = localtime(&t)) != NULL);
	REQUIRE(tm->tm_zone != NULL && strcmp(tm->tm_zone, "CET") == 0);
	REQUIRE(tm->tm_hour == 23);	/* 22:13 UTC */
	return 0;
}

START_TEST(test_base_localtime_reads_zoneinfo)
{
	struct outcome o;

	o = h_run(TAME_STDIO, setup_tz_paris, body_localtime_paris, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
setup_tz_unset(void *arg)
{
	(void)arg;
	return unsetenv("TZ");
}

/*
 * With TZ unset glibc rereads /etc/localtime on every localtime() and,
 * from the second call on, first checks whether it changed.  Programs
 * call localtime() in loops (ls -l, logging), so this must keep working.
 */
static int
body_localtime_repeated(void *arg)
{
	time_t t = 1700000000;
	int i;

	(void)arg;
	for (i = 0; i < 3; i++)
		REQUIRE(localtime(&t) != NULL);
	return 0;
}

START_TEST(test_base_localtime_repeated_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO, setup_tz_unset, body_localtime_repeated, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * A path call no held flag grants is a violation, and its line names the
 * call, the path as the program passed it, and the flags whose grants
 * would cover it; the untamed parent then sees that nothing happened:
 * nothing read, the file unchanged, nothing created or removed.
 */
enum refused_op {
	R_OPEN, R_FOPEN, R_STAT, R_STATX, R_ACCESS, R_READLINK, R_CHDIR,
	R_MKDIR, R_UNLINK, R_RMDIR,
};

static const struct refused {
	int		 flags;
	int		 op;
	const char	*path;		/* F, L, D, O, S: the fixture's */
	int		 oflags;
	const char	*call;
	const char	*need;		/* one of the flags the line names */
} refused[] = {
	{ TAME_STDIO, R_OPEN, "F", O_RDONLY, "openat", "rpath" },
	{ TAME_STDIO, R_OPEN, "/etc/hostname", O_RDONLY, "openat", "rpath" },
	{ TAME_STDIO, R_OPEN, "D", O_RDONLY | O_DIRECTORY, "openat", "rpath" },
	{ TAME_STDIO, R_FOPEN, "F", 0, "openat", "rpath" },
	{ TAME_STDIO, R_OPEN, "F", O_PATH, "openat", "rpath" },
	{ TAME_STDIO, R_STAT, "F", 0, "newfstatat", "rpath" },
	{ TAME_STDIO, R_STATX, "F", 0, "statx", "rpath" },
	{ TAME_STDIO, R_ACCESS, "F", 0, "access", "rpath" },
	{ TAME_STDIO, R_READLINK, "L", 0, "readlink", "rpath" },
	{ TAME_STDIO, R_CHDIR, "D", 0, "chdir", "rpath" },
	{ TAME_STDIO, R_OPEN, "/etc/passwd", O_RDONLY, "openat", "getpw" },
	{ TAME_STDIO, R_OPEN, "/tmp/../etc/passwd", O_RDONLY, "openat",
	    "rpath" },
	{ TAME_CPATH | TAME_RW, R_OPEN, "F", O_RDONLY, "openat", "rpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_OPEN, "F", O_RDONLY, "openat",
	    "rpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_OPEN, "O", O_WRONLY | O_CREAT | O_EXCL,
	    "openat", "wpath+cpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_OPEN, "F", O_WRONLY | O_TRUNC,
	    "openat", "wpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_OPEN, "F", O_RDWR, "openat",
	    "rpath+wpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_MKDIR, "O", 0, "mkdir", "cpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_UNLINK, "F", 0, "unlink", "cpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_RMDIR, "S", 0, "rmdir", "cpath" },
	{ TAME_STDIO | TAME_TMPPATH, R_OPEN, "/tmp/../etc/passwd", O_RDONLY,
	    "openat", "rpath" },
	{ TAME_GETPW, R_OPEN, "/etc/shadow", O_RDONLY, "openat", "rpath" },
	{ TAME_GETPW, R_OPEN, "/etc/hosts", O_RDONLY, "openat", "dnspath" },
	{ TAME_GETPW, R_OPEN, "F", O_RDONLY, "openat", "rpath" },
	{ TAME_DNSPATH, R_OPEN, "/etc/passwd", O_RDONLY, "openat", "getpw" },
	{ TAME_DNSPATH, R_STAT, "/etc/shadow", 0, "newfstatat", "rpath" },
};

static const char *
refused_path(const char *p)
{
	switch (p[0]) {
	case 'F':
		return fx->file;
	case 'L':
		return fx->link;
	case 'D':
		return fx->dir;
	case 'O':
		return fx->other;
	case 'S':
		return fx->sub;
	}
	return p;
}

static int
body_refused(void *arg)
{
	const struct refused *c = arg;
	const char *path = refused_path(c->path);
	struct stat st;
	char buf[64];
	FILE *f;
	long r = 0;

	switch (c->op) {
	case R_OPEN:
		return open_must_die(path, c->oflags);
	case R_FOPEN:
		if ((f = fopen(path, "r")) != NULL) {
			fx->nread = (ssize_t)fread(fx->buf, 1,
			    sizeof(fx->buf) - 1, f);
			fclose(f);
		}
		break;
	case R_STAT:
		r = syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0);
		break;
	case R_STATX:
		r = syscall(SYS_statx, AT_FDCWD, path, 0, 0x7ff, fx->buf);
		break;
	case R_ACCESS:
		r = access(path, R_OK);
		break;
	case R_READLINK:
		r = readlink(path, buf, sizeof(buf));
		break;
	case R_CHDIR:
		r = chdir(path);
		break;
	case R_MKDIR:
		r = mkdir(path, 0755);
		break;
	case R_UNLINK:
		r = unlink(path);
		break;
	case R_RMDIR:
		r = rmdir(path);
		break;
	}
	snprintf(fx->out, sizeof(fx->out), "returned %ld", r);
	return 2;
}

START_TEST(test_refused_path_kills_and_names_it)
{
	const struct refused *c = &refused[_i];
	struct outcome o;

	o = h_run(c->flags, NULL, body_refused, (void *)c);
	ck_assert_path_violation(o, c->call, refused_path(c->path), c->need);
	ck_assert_msg(fx->out[0] == '\0', "case %d: %s", _i, fx->out);
	ck_assert_int_eq(fx->nread, -1);
	assert_content(fx->file, CONTENT);
	assert_absent(fx->other);
	ck_assert_msg(exists(fx->sub), "sub is gone");
}
END_TEST

/*
 * The base set also reads the locale data (as 2015's read the libc
 * message catalogs) and the CPU count, so setlocale() and sysconf() work
 * under any nonzero flags.
 */
static int
body_locale_cpus(void *arg)
{
	(void)arg;
	REQUIRE(setlocale(LC_ALL, "C.UTF-8") != NULL);
	REQUIRE(strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
	REQUIRE(sysconf(_SC_NPROCESSORS_ONLN) > 0);
	return 0;
}

START_TEST(test_base_reads_locale_and_cpus)
{
	struct outcome o;

	o = h_run(TAME_STDIO, NULL, body_locale_cpus, NULL);
	ck_assert_exit(o, 0);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/*
 * A symlink in a granted directory leads nowhere else: Landlock confines
 * reads, and the handler holds stat and O_PATH to what a read may reach
 * (Landlock itself does not mediate them).  The link, in /tmp under
 * TMPPATH, points at the fixture outside /tmp.
 */
static int
setup_tmp_link(void *arg)
{
	char *link = arg;

	snprintf(link, 64, "/tmp/tame-link.%d", (int)getpid());
	unlink(link);
	return symlink(fx->file, link);
}

static int
body_tmp_link(void *arg)
{
	const char *link = arg;
	struct stat st;
	int fd, r = 0;

	if (syscall(SYS_newfstatat, AT_FDCWD, link, &st, 0) != -1 ||
	    errno != EACCES)
		r = 1;
	else if ((fd = raw_open(link, O_PATH)) != -1 || errno != EACCES)
		r = 2;
	else if ((fd = raw_open(link, O_RDONLY)) != -1 || errno != EACCES)
		r = 3;
	/* the link itself is in /tmp: lstat sees it */
	else if (syscall(SYS_newfstatat, AT_FDCWD, link, &st,
	    AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode))
		r = 4;
	unlink(link);
	return r;
}

START_TEST(test_symlink_out_of_granted_dir_leads_nowhere)
{
	struct outcome o;
	char link[64] = "";

	o = h_run(TAME_STDIO | TAME_TMPPATH, setup_tmp_link, body_tmp_link,
	    link);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * The handler reads a trapped call's path itself; a bad pointer is the
 * program's EFAULT, as without tame(), not a crash inside the handler.
 */
static int
body_bad_pointers(void *arg)
{
	struct stat st;

	(void)arg;
	REQUIRE(syscall(SYS_openat, AT_FDCWD, (char *)1, O_RDONLY) == -1 &&
	    errno == EFAULT);
	REQUIRE(syscall(SYS_newfstatat, AT_FDCWD, (char *)0x10, &st, 0) ==
	    -1 && errno == EFAULT);
	REQUIRE(syscall(SYS_newfstatat, 1, (char *)0x10, &st,
	    AT_EMPTY_PATH) == -1 && errno == EFAULT);
	REQUIRE(syscall(SYS_statx, AT_FDCWD, (char *)8, 0, 0x7ff, &st) ==
	    -1 && errno == EFAULT);
	return 0;
}

START_TEST(test_bad_path_pointer_is_efault)
{
	struct outcome o;

	o = h_run(TAME_STDIO, NULL, body_bad_pointers, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/* Path lookups, each reached only if the one before it killed nothing. */
static int
do_stat(void)
{
	struct stat st;

	return stat(fx->file, &st) == 0 ? 0 : 1;
}

static int
do_lstat(void)
{
	struct stat st;

	return lstat(fx->link, &st) == 0 && S_ISLNK(st.st_mode) ? 0 : 1;
}

static int
do_access(void)
{
	return access(fx->file, R_OK) == 0 ? 0 : 1;
}

static int
do_readlink(void)
{
	char buf[64];
	ssize_t n;

	n = readlink(fx->link, buf, sizeof(buf));
	return n == 4 && memcmp(buf, "file", 4) == 0 ? 0 : 1;
}

static int
do_getcwd(void)
{
	char buf[300];

	return getcwd(buf, sizeof(buf)) != NULL ? 0 : 1;
}

static int
do_chdir(void)
{
	char buf[300];

	if (chdir(fx->dir) == -1 || getcwd(buf, sizeof(buf)) == NULL)
		return 1;
	return strcmp(buf, fx->dir) == 0 ? 0 : 1;
}

static const struct lookup {
	const char	*call;		/* the syscall glibc makes */
	int		(*fn)(void);
} lookups[] = {
	{ "newfstatat", do_stat },
	{ "newfstatat", do_lstat },
	{ "access", do_access },
	{ "readlink", do_readlink },
	{ "getcwd", do_getcwd },
	{ "chdir", do_chdir },
};

static int
body_lookup(void *arg)
{
	(void)arg;
	return lookups[fx->op].fn();
}

START_TEST(test_lookup_without_rpath_kills)
{
	struct outcome o;

	fx->op = _i;
	o = h_run(TAME_STDIO, NULL, body_lookup, NULL);
	ck_assert_violation(o, lookups[_i].call, "rpath");
}
END_TEST

START_TEST(test_lookup_with_rpath_works)
{
	struct outcome o;

	fx->op = _i;
	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_lookup, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_raw_stat(void *arg)
{
	struct stat st;

	(void)arg;
	if (syscall(SYS_newfstatat, AT_FDCWD, fx->file, &st, 0) == 0)
		snprintf(fx->out, sizeof(fx->out), "%lld",
		    (long long)st.st_size);
	return 0;
}

START_TEST(test_base_raw_newfstatat_kills_needs_rpath)
{
	struct outcome o;

	o = h_run(TAME_STDIO, NULL, body_raw_stat, NULL);
	ck_assert_violation(o, "newfstatat", "rpath");
	ck_assert_str_eq(fx->out, "");
}
END_TEST

/*
 * glibc stats the files it rereads (localtime with TZ unset, nsswitch.conf,
 * resolv.conf), so a stat of exactly the files a path-gated flag grants
 * works without RPATH.  Anything that only looks like one of them must
 * still be refused: a longer name, a walk out of a granted directory, a
 * relative name.  Those kill, and no metadata comes back.
 */
#define STAT_KILLS	0
#define STAT_WORKS	1
#define STAT_EACCES	2	/* lstat of a granted link: a supervisor's */

static const struct stat_case {
	int		 flags;
	const char	*path;
	int		 nofollow;
	int		 expect;
} stat_cases[] = {
	{ TAME_STDIO, "/etc/localtime", 0, STAT_WORKS },
	{ TAME_STDIO, "/etc/localtime", 1, STAT_EACCES },
	{ TAME_STDIO | TAME_TMPPATH, "/etc/localtime", 1, STAT_WORKS },
	{ TAME_STDIO, "/usr/share/zoneinfo", 0, STAT_WORKS },
	{ TAME_STDIO, "/usr/share/zoneinfo/Europe/Paris", 0, STAT_WORKS },
	{ TAME_GETPW, "/etc/passwd", 0, STAT_WORKS },
	{ TAME_GETPW, "/etc/nsswitch.conf", 0, STAT_WORKS },
	{ TAME_DNSPATH, "/etc/resolv.conf", 0, STAT_WORKS },
	{ TAME_DNSPATH, "/etc/hosts", 0, STAT_WORKS },
	{ TAME_STDIO, "/etc/shadow", 0, STAT_KILLS },
	{ TAME_STDIO, "/etc/passwd", 0, STAT_KILLS },
	{ TAME_STDIO, "/etc/localtimes", 0, STAT_KILLS },
	{ TAME_STDIO, "/usr/share/zoneinfo/../../../etc/shadow", 0,
	    STAT_KILLS },
	{ TAME_STDIO, "/usr/share/zoneinfo/./../../../etc/shadow", 0,
	    STAT_KILLS },
	{ TAME_STDIO, "etc/localtime", 0, STAT_KILLS },
	{ TAME_GETPW, "/etc/shadow", 0, STAT_KILLS },
	{ TAME_GETPW, "/etc/resolv.conf", 0, STAT_KILLS },
	{ TAME_GETPW, "/usr/share/zoneinfo/../../../etc/shadow", 0,
	    STAT_KILLS },
	{ TAME_DNSPATH, "/etc/passwd", 0, STAT_KILLS },
};

static int
setup_cwd_root(void *arg)
{
	(void)arg;
	return chdir("/");
}

static int
body_stat_case(void *arg)
{
	const struct stat_case *c = arg;
	struct stat st;

	/* the mode in octal if the stat worked, else E and the errno */
	if (syscall(SYS_newfstatat, AT_FDCWD, c->path, &st,
	    c->nofollow ? AT_SYMLINK_NOFOLLOW : 0) == 0)
		snprintf(fx->out, sizeof(fx->out), "%o",
		    (unsigned)st.st_mode);
	else
		snprintf(fx->out, sizeof(fx->out), "E%d", errno);
	return 0;
}

START_TEST(test_stat_of_granted_file_only)
{
	const struct stat_case *c = &stat_cases[_i];
	struct outcome o;

	o = h_run(c->flags, setup_cwd_root, body_stat_case, (void *)c);
	switch (c->expect) {
	case STAT_WORKS:
		ck_assert_exit(o, 0);
		ck_assert_msg(fx->out[0] != '\0' && fx->out[0] != 'E',
		    "stat %s failed: %s", c->path, fx->out);
		if (c->nofollow)	/* /etc/localtime is a symlink here */
			ck_assert_msg(S_ISLNK(strtoul(fx->out, NULL, 8)),
			    "lstat %s followed the link", c->path);
		break;
	case STAT_EACCES:
		/*
		 * Landlock does not judge lstat(), nor a filter the path:
		 * only a supervisor may make it, and tame(STDIO) runs none.
		 */
		ck_assert_exit(o, 0);
		ck_assert_str_eq(fx->out, "E13");
		break;
	default:
		ck_assert_violation(o, "newfstatat", "rpath");
		ck_assert_msg(fx->out[0] == '\0', "stat %s returned %s",
		    c->path, fx->out);
	}
}
END_TEST

/*
 * RPATH: read and look up, never change.
 */

static int
body_rpath_reads(void *arg)
{
	char line[64];
	FILE *f;
	ssize_t n;
	int fd;

	(void)arg;
	REQUIRE((fd = raw_open(fx->file, O_RDONLY)) != -1);
	REQUIRE((n = read(fd, fx->buf, sizeof(fx->buf) - 1)) >= 0);
	fx->buf[n] = '\0';
	close(fd);
	REQUIRE(strcmp(fx->buf, CONTENT) == 0);
	/* fopen, and the fstat its first read makes */
	REQUIRE((f = fopen(fx->file, "r")) != NULL);
	REQUIRE(fgets(line, sizeof(line), f) != NULL);
	REQUIRE(strcmp(line, CONTENT) == 0);
	fclose(f);
	/* O_PATH is a lookup; O_NOFOLLOW and O_NONBLOCK change nothing */
	REQUIRE((fd = raw_open(fx->file, O_PATH)) != -1);
	close(fd);
	REQUIRE((fd = raw_open(fx->file, O_RDONLY | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC)) != -1);
	close(fd);
	return 0;
}

START_TEST(test_rpath_open_rdonly_reads)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_rpath_reads, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_rpath_opendir(void *arg)
{
	struct dirent *de;
	DIR *d;
	int fd, seen = 0;

	(void)arg;
	/* opendir passes O_DIRECTORY, which must not look like tmpfile */
	REQUIRE((d = opendir(fx->dir)) != NULL);
	while ((de = readdir(d)) != NULL)
		seen |= strcmp(de->d_name, "file") == 0 ? 1 :
		    strcmp(de->d_name, "sub") == 0 ? 2 : 0;
	closedir(d);
	REQUIRE(seen == 3);
	REQUIRE((fd = raw_open(fx->sub, O_RDONLY | O_DIRECTORY)) != -1);
	close(fd);
	return 0;
}

static int
body_o_path(void *arg)
{
	int fd;

	(void)arg;
	if ((fd = raw_open(fx->file, O_PATH)) != -1) {
		snprintf(fx->out, sizeof(fx->out), "fd %d", fd);
		return 2;
	}
	REQUIRE(errno == EACCES);
	return 0;
}

START_TEST(test_stdio_o_path_open_kills_needs_rpath)
{
	struct outcome o;

	/* an O_PATH descriptor is a lookup: it names a file, so RPATH */
	o = h_run(TAME_STDIO, NULL, body_o_path, NULL);
	ck_assert_violation(o, "openat", "rpath");
	ck_assert_str_eq(fx->out, "");
}
END_TEST

START_TEST(test_getpw_o_path_open_is_eacces)
{
	struct outcome o;

	/* NSS looks paths up with O_PATH and copes: the table's soft row */
	o = h_run(TAME_GETPW, NULL, body_o_path, NULL);
	ck_assert_exit(o, 0);
	ck_assert_str_eq(fx->out, "");
}
END_TEST

static int
body_getpw_unknown(void *arg)
{
	(void)arg;
	errno = 0;
	REQUIRE(getpwnam("no-such-user-t-fs") == NULL);
	REQUIRE(getgrnam("no-such-group-t-fs") == NULL);
	return 0;
}

START_TEST(test_getpw_unknown_name_is_null)
{
	struct outcome o;

	o = h_run(TAME_GETPW, NULL, body_getpw_unknown, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_rpath_opendir_readdir_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_rpath_opendir, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_open_flags(void *arg)
{
	return open_and_use(*(int *)arg);
}

START_TEST(test_rpath_open_wronly_kills_needs_wpath)
{
	struct outcome o;
	int flags = O_WRONLY;

	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_open_flags, &flags);
	ck_assert_violation(o, "openat", "wpath");
	assert_content(fx->file, CONTENT);
}
END_TEST

START_TEST(test_rpath_open_rdonly_trunc_kills)
{
	struct outcome o;
	int flags = O_RDONLY | O_TRUNC;

	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_open_flags, &flags);
	/* no flag allows it: the report says so */
	ck_assert_violation(o, "openat", "not allowed");
	assert_content(fx->file, CONTENT);
	ck_assert_int_eq(fx->nread, -1);
}
END_TEST

START_TEST(test_rpath_open_rdwr_kills_needs_wpath)
{
	struct outcome o;
	int flags = O_RDWR;

	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_open_flags, &flags);
	ck_assert_violation(o, "openat", "wpath");
	/* rpath is held: the report must not ask for it */
	ck_assert_msg(strstr(o.err, "rpath+wpath") == NULL, "%s", o.err);
	assert_content(fx->file, CONTENT);
	ck_assert_int_eq(fx->nread, -1);
}
END_TEST

START_TEST(test_stdio_open_rdwr_kills_needs_rpath_and_wpath)
{
	struct outcome o;
	int flags = O_RDWR;

	o = h_run(TAME_STDIO, NULL, body_open_flags, &flags);
	ck_assert_violation(o, "openat", "rpath+wpath");
	assert_content(fx->file, CONTENT);
	ck_assert_int_eq(fx->nread, -1);
}
END_TEST

static int
body_fopen_w(void *arg)
{
	FILE *f;

	(void)arg;
	if ((f = fopen(fx->file, "w")) != NULL)
		fclose(f);
	return 0;
}

START_TEST(test_rpath_fopen_for_writing_kills)
{
	struct outcome o;

	/* "w" is O_WRONLY|O_CREAT|O_TRUNC: the open dies, the file stays */
	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_fopen_w, NULL);
	ck_assert_violation(o, "openat", "wpath");
	assert_content(fx->file, CONTENT);
}
END_TEST

/*
 * WPATH: write to files that exist.
 */

static int
body_wpath_writes(void *arg)
{
	int fd;

	(void)arg;
	REQUIRE((fd = raw_open(fx->file, O_WRONLY | O_TRUNC)) != -1);
	REQUIRE(write(fd, "abc", 3) == 3);
	close(fd);
	REQUIRE((fd = raw_open(fx->file, O_WRONLY | O_APPEND)) != -1);
	REQUIRE(write(fd, "def", 3) == 3);
	close(fd);
	REQUIRE((fd = raw_open(fx->file, O_WRONLY)) != -1);
	REQUIRE(write(fd, "X", 1) == 1);
	close(fd);
	return 0;
}

START_TEST(test_wpath_open_existing_for_writing_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_WPATH, NULL, body_wpath_writes, NULL);
	ck_assert_exit(o, 0);
	assert_content(fx->file, "Xbcdef");
}
END_TEST

START_TEST(test_wpath_open_rdwr_kills_needs_rpath)
{
	struct outcome o;
	int flags = O_RDWR;

	o = h_run(TAME_STDIO | TAME_WPATH, NULL, body_open_flags, &flags);
	ck_assert_violation(o, "openat", "rpath");
	assert_content(fx->file, CONTENT);
	ck_assert_int_eq(fx->nread, -1);
}
END_TEST

START_TEST(test_rpath_wpath_open_rdwr_works)
{
	struct outcome o;
	int flags = O_RDWR;

	o = h_run(TAME_STDIO | TAME_RPATH | TAME_WPATH, NULL, body_open_flags,
	    &flags);
	ck_assert_exit(o, 0);
	ck_assert_int_eq(fx->nread, CONTENT_LEN);
	assert_content(fx->file, "XXXXquick brown fox\n");
}
END_TEST

/* Attribute changes: each op, and how the parent sees that it happened. */

static int
do_chmod(void)
{
	return chmod(fx->file, 0600) == 0 ? 0 : 1;
}

static int
do_fchmod(void)
{
	int fd, r;

	/* O_RDONLY needs rpath; the refused call must be fchmod itself */
	if ((fd = raw_open(fx->file, O_RDONLY)) == -1)
		return 1;
	r = fchmod(fd, 0600);
	close(fd);
	return r == 0 ? 0 : 1;
}

static int
do_truncate(void)
{
	return truncate(fx->file, 3) == 0 ? 0 : 1;
}

static int
do_utimes(void)
{
	struct timeval tv[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	return utimes(fx->file, tv) == 0 ? 0 : 1;
}

static int
changed_mode(void)
{
	struct stat st;

	return stat(fx->file, &st) == 0 && (st.st_mode & 07777) != MODE;
}

static int
changed_size(void)
{
	struct stat st;

	return stat(fx->file, &st) == 0 && st.st_size != CONTENT_LEN;
}

static int
changed_mtime(void)
{
	struct stat st;

	return stat(fx->file, &st) == 0 && st.st_mtime == 1000000000;
}

static const struct attr_op {
	const char	*call;
	int		(*fn)(void);
	int		(*changed)(void);
} attr_ops[] = {
	{ "chmod", do_chmod, changed_mode },
	{ "fchmod", do_fchmod, changed_mode },
	{ "truncate", do_truncate, changed_size },
	{ "utimensat", do_utimes, changed_mtime },
};

static int
body_attr(void *arg)
{
	(void)arg;
	return attr_ops[fx->op].fn();
}

START_TEST(test_attr_with_wpath_works)
{
	struct outcome o;

	fx->op = _i;
	o = h_run(TAME_STDIO | TAME_RPATH | TAME_WPATH, NULL, body_attr, NULL);
	ck_assert_exit(o, 0);
	ck_assert_msg(attr_ops[_i].changed(), "%s changed nothing",
	    attr_ops[_i].call);
}
END_TEST

START_TEST(test_attr_without_wpath_kills)
{
	struct outcome o;

	fx->op = _i;
	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_attr, NULL);
	ck_assert_violation(o, attr_ops[_i].call, "wpath");
	ck_assert_msg(!attr_ops[_i].changed(), "%s took effect",
	    attr_ops[_i].call);
	assert_content(fx->file, CONTENT);
}
END_TEST

/*
 * Extended attributes under WPATH: the user namespace and POSIX ACLs
 * (what cp -p, install and tar keep), by descriptor, path or link; never
 * trusted.* or security.* (file capabilities, labels), which the handler
 * refuses by name.  The parent reads back what really changed.
 */
static const struct xattr_case {
	const char	*name;
	int		 how;		/* 0 fd, 1 path, 2 link (no follow) */
	int		 allowed;
} xattr_cases[] = {
	{ "user.tame", 0, 1 },
	{ "user.tame", 1, 1 },
	{ "user.tame", 2, 1 },
	{ "trusted.tame", 0, 0 },
	{ "trusted.tame", 1, 0 },
	{ "security.tame", 0, 0 },
	{ "security.capability", 1, 0 },
};

static int
body_xattr(void *arg)
{
	const struct xattr_case *c = arg;
	long r;

	switch (c->how) {
	case 0:
		r = fsetxattr(fx->fd, c->name, "v1", 2, 0);
		break;
	case 1:
		r = setxattr(fx->file, c->name, "v1", 2, 0);
		break;
	default:
		r = lsetxattr(fx->file, c->name, "v1", 2, 0);
		break;
	}
	if (r == -1)
		return 1;
	/* and away again, the same way */
	if (c->how == 0 ? fremovexattr(fx->fd, c->name) :
	    removexattr(fx->file, c->name))
		return 2;
	return c->how == 0 ? fsetxattr(fx->fd, c->name, "v2", 2, 0) :
	    setxattr(fx->file, c->name, "v2", 2, 0);
}

static int
setup_open_rw(void *arg)
{
	(void)arg;
	return (fx->fd = open(fx->file, O_RDWR)) == -1;
}

START_TEST(test_xattr_user_and_acl_names_only)
{
	const struct xattr_case *c = &xattr_cases[_i];
	struct outcome o;
	char v[8] = "";
	ssize_t n;

	/* tmpfs keeps user.* names from 6.6 on: an overlay with tmpfs
	 * above (make check-kernels' guests on 6.1) refuses them all */
	if (c->allowed && setxattr(fx->file, "user.probe", "", 0, 0) == -1 &&
	    errno == EOPNOTSUPP) {
		printf("n/a: user xattrs (none on the test directory's "
		    "file system)\n");
		fflush(stdout);
		return;
	}
	removexattr(fx->file, "user.probe");
	o = h_run(TAME_STDIO | TAME_RPATH | TAME_WPATH, setup_open_rw,
	    body_xattr, (void *)c);
	n = getxattr(fx->file, c->name, v, sizeof(v));
	if (c->allowed) {
		ck_assert_exit(o, 0);
		ck_assert_int_eq(n, 2);
		ck_assert_str_eq(v, "v2");
	} else {
		ck_assert_violation(o, c->how == 0 ? "fsetxattr" : "setxattr",
		    "not allowed");
		ck_assert_msg(strstr(o.err, c->name) != NULL,
		    "the line should name %s: %s", c->name, o.err);
		ck_assert_int_eq(n, -1);
	}
}
END_TEST

/* Without WPATH no attribute changes at all. */
START_TEST(test_xattr_needs_wpath)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_RPATH, setup_open_rw, body_xattr,
	    (void *)&xattr_cases[0]);
	ck_assert_violation(o, "fsetxattr", "wpath");
	ck_assert_int_eq(getxattr(fx->file, "user.tame", NULL, 0), -1);
}
END_TEST

/*
 * Copies between descriptors already open are RW's: copy_file_range,
 * sendfile and the reflink ioctls (the file system may refuse a reflink
 * with its own error; the filter does not kill).
 */
static int
body_copy_between_fds(void *arg)
{
	struct file_clone_range r = { 0 };
	int in = fx->fd, out = *(int *)arg;
	off_t off = 0;

	if (copy_file_range(in, &off, out, NULL, CONTENT_LEN, 0) !=
	    (ssize_t)CONTENT_LEN)
		return 1;
	off = 0;
	if (sendfile(out, in, &off, CONTENT_LEN) != (ssize_t)CONTENT_LEN)
		return 2;
	if (ioctl(out, FICLONE, in) == -1 && errno != EOPNOTSUPP &&
	    errno != EXDEV && errno != EINVAL && errno != EBADF)
		return 3;
	r.src_fd = in;
	if (ioctl(out, FICLONERANGE, &r) == -1 && errno != EOPNOTSUPP &&
	    errno != EXDEV && errno != EINVAL && errno != EBADF)
		return 4;
	return 0;
}

START_TEST(test_copy_between_descriptors_under_rw)
{
	struct outcome o;
	char buf[2 * CONTENT_LEN + 1];
	int out;

	ck_assert_int_ge(out = open(fx->other, O_RDWR | O_CREAT | O_TRUNC,
	    0600), 0);
	o = h_run(TAME_RW, setup_open_rw, body_copy_between_fds, &out);
	ck_assert_exit(o, 0);
	ck_assert_ptr_nonnull(get_file(fx->other, buf, sizeof(buf)));
	ck_assert_str_eq(buf, CONTENT CONTENT);
	close(out);
}
END_TEST

/*
 * CPATH: create and remove names.  It never opens an existing file, and
 * creating for writing also needs WPATH.
 */

static int
body_create(void *arg)
{
	int fd;

	(void)arg;
	REQUIRE((fd = (int)syscall(SYS_openat, AT_FDCWD, fx->other,
	    O_WRONLY | O_CREAT | O_EXCL, 0600)) != -1);
	REQUIRE(write(fd, "new\n", 4) == 4);
	close(fd);
	return 0;
}

START_TEST(test_cpath_alone_create_kills_needs_wpath)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_CPATH, NULL, body_create, NULL);
	ck_assert_violation(o, "openat", "wpath");
	assert_absent(fx->other);
}
END_TEST

START_TEST(test_wpath_alone_create_kills_needs_cpath)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_WPATH, NULL, body_create, NULL);
	ck_assert_violation(o, "openat", "cpath");
	assert_absent(fx->other);
}
END_TEST

START_TEST(test_cpath_wpath_create_works)
{
	struct outcome o;

	/* no rpath: a Landlock layer confines reads, creation must pass it */
	o = h_run(TAME_STDIO | TAME_CPATH | TAME_WPATH, NULL, body_create,
	    NULL);
	ck_assert_exit(o, 0);
	assert_content(fx->other, "new\n");
}
END_TEST

static int
body_fopen_create(void *arg)
{
	FILE *f;

	(void)arg;
	REQUIRE((f = fopen(fx->other, "w")) != NULL);
	REQUIRE(fputs("via fopen\n", f) >= 0);
	REQUIRE(fclose(f) == 0);
	return 0;
}

START_TEST(test_cpath_wpath_fopen_w_creates)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_CPATH | TAME_WPATH, NULL,
	    body_fopen_create, NULL);
	ck_assert_exit(o, 0);
	assert_content(fx->other, "via fopen\n");
}
END_TEST

START_TEST(test_cpath_alone_open_rdwr_existing_kills)
{
	struct outcome o;
	int flags = O_RDWR;

	o = h_run(TAME_CPATH | TAME_RW, NULL, body_open_flags, &flags);
	ck_assert_violation(o, "openat", "rpath+wpath");
	assert_content(fx->file, CONTENT);
	ck_assert_int_eq(fx->nread, -1);
}
END_TEST

START_TEST(test_cpath_alone_open_wronly_trunc_existing_kills)
{
	struct outcome o;
	int flags = O_WRONLY | O_TRUNC;

	o = h_run(TAME_CPATH | TAME_RW, NULL, body_open_flags, &flags);
	ck_assert_violation(o, "openat", "wpath");
	assert_content(fx->file, CONTENT);
}
END_TEST

/* Name operations: each op, and how the parent sees that it happened. */

static int
name_mkdir(void)
{
	return mkdir(fx->other, 0755) == 0 ? 0 : 1;
}

static int
name_unlink(void)
{
	return unlink(fx->file) == 0 ? 0 : 1;
}

static int
name_rename(void)
{
	return rename(fx->file, fx->other) == 0 ? 0 : 1;
}

static int
name_link(void)
{
	return link(fx->file, fx->other) == 0 ? 0 : 1;
}

static int
name_symlink(void)
{
	return symlink("file", fx->other) == 0 ? 0 : 1;
}

static int
name_rmdir(void)
{
	return rmdir(fx->sub) == 0 ? 0 : 1;
}

static int
name_mkfifo(void)
{
	return mkfifo(fx->other, 0600) == 0 ? 0 : 1;
}

static int
done_mkdir(void)
{
	struct stat st;

	return stat(fx->other, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
done_unlink(void)
{
	return !exists(fx->file);
}

static int
done_rename(void)
{
	return !exists(fx->file) && exists(fx->other);
}

static int
done_link(void)
{
	struct stat a, b;

	return stat(fx->file, &a) == 0 && lstat(fx->other, &b) == 0 &&
	    a.st_ino == b.st_ino;
}

static int
done_symlink(void)
{
	struct stat st;

	return lstat(fx->other, &st) == 0 && S_ISLNK(st.st_mode);
}

static int
done_rmdir(void)
{
	return !exists(fx->sub);
}

static int
done_mkfifo(void)
{
	struct stat st;

	return lstat(fx->other, &st) == 0 && S_ISFIFO(st.st_mode);
}

static const struct name_op {
	const char	*call;		/* the syscall glibc makes */
	int		(*fn)(void);
	int		(*done)(void);
} name_ops[] = {
	{ "mkdir", name_mkdir, done_mkdir },
	{ "unlink", name_unlink, done_unlink },
	{ "rename", name_rename, done_rename },
	{ "link", name_link, done_link },
	{ "symlink", name_symlink, done_symlink },
	{ "rmdir", name_rmdir, done_rmdir },
	{ "mknodat", name_mkfifo, done_mkfifo },
};

static int
body_name(void *arg)
{
	(void)arg;
	return name_ops[fx->op].fn();
}

START_TEST(test_name_op_with_cpath_works)
{
	struct outcome o;

	fx->op = _i;
	o = h_run(TAME_STDIO | TAME_CPATH, NULL, body_name, NULL);
	ck_assert_exit(o, 0);
	ck_assert_msg(name_ops[_i].done(), "%s did nothing", name_ops[_i].call);
}
END_TEST

START_TEST(test_name_op_without_cpath_kills)
{
	struct outcome o;

	fx->op = _i;
	o = h_run(TAME_STDIO | TAME_RPATH | TAME_WPATH, NULL, body_name, NULL);
	ck_assert_violation(o, name_ops[_i].call, "cpath");
	ck_assert_msg(!name_ops[_i].done(), "%s took effect",
	    name_ops[_i].call);
	assert_content(fx->file, CONTENT);
	ck_assert_msg(exists(fx->sub), "sub is gone");
	assert_absent(fx->other);
}
END_TEST

static int
body_mknod_device(void *arg)
{
	(void)arg;
	/* /dev/null's numbers: harmless, but no device may be made */
	syscall(SYS_mknodat, AT_FDCWD, fx->other, S_IFCHR | 0600,
	    makedev(1, 3));
	return 0;
}

START_TEST(test_cpath_mknod_char_device_kills)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_CPATH, NULL, body_mknod_device, NULL);
	ck_assert_violation(o, "mknodat", "not allowed");
	assert_absent(fx->other);
}
END_TEST

/*
 * A rename or link from one directory to another: Landlock refuses those
 * with EXDEV in any layer that does not handle and grant REFER, so the
 * flag sets with a Landlock layer (no rpath) matter as much as the one
 * without.  flags2, if set, narrows once more to stack a second layer.
 */
static const struct refer_case {
	int	flags;
	int	flags2;
} refer_cases[] = {
	{ TAME_RPATH | TAME_WPATH | TAME_CPATH, 0 },
	{ TAME_STDIO | TAME_RPATH | TAME_WPATH | TAME_CPATH, 0 },
	{ TAME_STDIO | TAME_WPATH | TAME_CPATH, 0 },
	{ TAME_STDIO | TAME_CPATH, 0 },
	{ TAME_STDIO | TAME_WPATH | TAME_CPATH | TAME_TMPPATH,
	    TAME_STDIO | TAME_CPATH },
	{ TAME_STDIO | TAME_RPATH | TAME_WPATH | TAME_CPATH,
	    TAME_STDIO | TAME_CPATH },
};

static int
body_rename_across(void *arg)
{
	char from[300], to[300], lfrom[300], lto[300];

	(void)arg;
	if (fx->flags2 != 0)
		REQUIRE(tame(fx->flags2) == 0);
	snprintf(from, sizeof(from), "%s/a/f", fx->dir);
	snprintf(to, sizeof(to), "%s/b/f", fx->dir);
	snprintf(lfrom, sizeof(lfrom), "%s/a/g", fx->dir);
	snprintf(lto, sizeof(lto), "%s/b/g", fx->dir);
	REQUIRE(rename(from, to) == 0);
	REQUIRE(link(lfrom, lto) == 0);
	return 0;
}

START_TEST(test_cpath_rename_across_directories_works)
{
	char a[280], b[280], path[300];
	struct outcome o;

	path_in(a, sizeof(a), "a");
	path_in(b, sizeof(b), "b");
	if (mkdir(a, 0755) == -1 || mkdir(b, 0755) == -1)
		ck_abort_msg("mkdir: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/f", a);
	put_file(path, CONTENT);
	snprintf(path, sizeof(path), "%s/g", a);
	put_file(path, "g\n");
	fx->flags2 = refer_cases[_i].flags2;
	o = h_run(refer_cases[_i].flags, NULL, body_rename_across, NULL);
	ck_assert_exit(o, 0);
	snprintf(path, sizeof(path), "%s/f", a);
	assert_absent(path);
	snprintf(path, sizeof(path), "%s/f", b);
	assert_content(path, CONTENT);
	snprintf(path, sizeof(path), "%s/g", b);
	assert_content(path, "g\n");
}
END_TEST

/*
 * fstat under RW: glibc's fstat is newfstatat(fd, "", AT_EMPTY_PATH),
 * trapped and done by libtame's handler; a real lookup through the same
 * call is not.
 */

static int
setup_open_file(void *arg)
{
	(void)arg;
	return (fx->fd = open(fx->file, O_RDONLY)) == -1;
}

static int
setup_open_dir(void *arg)
{
	(void)arg;
	return (fx->fd = open(fx->dir, O_RDONLY | O_DIRECTORY)) == -1;
}

static int
body_fstat(void *arg)
{
	struct stat st;

	(void)arg;
	REQUIRE(fstat(fx->fd, &st) == 0);
	REQUIRE(S_ISREG(st.st_mode) && st.st_size == CONTENT_LEN);
	memset(&st, 0, sizeof(st));
	REQUIRE(syscall(SYS_newfstatat, fx->fd, "", &st, AT_EMPTY_PATH) == 0);
	REQUIRE(st.st_size == CONTENT_LEN);
	memset(&st, 0, sizeof(st));
	REQUIRE(syscall(SYS_fstat, fx->fd, &st) == 0);
	REQUIRE(st.st_size == CONTENT_LEN);
	/* a bad descriptor is the kernel's EBADF, not a kill */
	REQUIRE(fstat(1000, &st) == -1 && errno == EBADF);
	return 0;
}

START_TEST(test_stdio_fstat_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO, setup_open_file, body_fstat, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_fstatat_named(void *arg)
{
	struct stat st;

	(void)arg;
	if (syscall(SYS_newfstatat, fx->fd, "file", &st, AT_EMPTY_PATH) == 0)
		snprintf(fx->out, sizeof(fx->out), "%lld",
		    (long long)st.st_size);
	return 0;
}

START_TEST(test_stdio_fstatat_named_path_kills_needs_rpath)
{
	struct outcome o;

	o = h_run(TAME_STDIO, setup_open_dir, body_fstatat_named, NULL);
	ck_assert_violation(o, "newfstatat", "rpath");
	ck_assert_str_eq(fx->out, "");
}
END_TEST

START_TEST(test_rpath_fstatat_named_path_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_RPATH, setup_open_dir, body_fstatat_named,
	    NULL);
	ck_assert_exit(o, 0);
	ck_assert_int_eq(atoi(fx->out), CONTENT_LEN);
}
END_TEST

static int
body_fstat_quiet(void *arg)
{
	struct stat st;

	(void)arg;
	return fstat(fx->fd, &st) == 0 ? 0 : 1;
}

START_TEST(test_malloc_fstat_kills_needs_rw)
{
	struct outcome o;

	/* without rw no line can be written: SIGSYS alone */
	o = h_run(TAME_MALLOC, setup_open_file, body_fstat_quiet, NULL);
	ck_assert_signal(o, SIGSYS);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/*
 * TMPPATH: read, write, create and remove beneath /tmp, and nowhere else.
 */

static int
body_tmp_mkstemp(void *arg)
{
	char back[16];
	int fd;

	(void)arg;
	snprintf(fx->out, sizeof(fx->out), "/tmp/xxXXXXXX");
	REQUIRE((fd = mkstemp(fx->out)) != -1);
	REQUIRE(write(fd, "hello", 5) == 5);
	REQUIRE(lseek(fd, 0, SEEK_SET) == 0);
	REQUIRE(read(fd, back, sizeof(back)) == 5);
	REQUIRE(memcmp(back, "hello", 5) == 0);
	close(fd);
	/* reopen by name: an existing file beneath /tmp is readable */
	REQUIRE((fd = raw_open(fx->out, O_RDONLY)) != -1);
	REQUIRE(read(fd, back, sizeof(back)) == 5);
	close(fd);
	REQUIRE(unlink(fx->out) == 0);
	return 0;
}

START_TEST(test_tmppath_mkstemp_write_read_unlink_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_TMPPATH, NULL, body_tmp_mkstemp, NULL);
	/* mkstemp replaced the X's in the shared buffer: the name it made */
	ck_assert_msg(strcmp(fx->out, "/tmp/xxXXXXXX") != 0, "no name made");
	if (strncmp(fx->out, "/tmp/xx", 7) == 0)
		unlink(fx->out);	/* whatever happened, leave no litter */
	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_tmppath_mkstemp_unlink_leaves_nothing)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_TMPPATH, NULL, body_tmp_mkstemp, NULL);
	ck_assert_exit(o, 0);
	assert_absent(fx->out);
}
END_TEST

static int
body_tmpfile(void *arg)
{
	char line[32];
	FILE *f;

	(void)arg;
	REQUIRE((f = tmpfile()) != NULL);
	REQUIRE(fputs("scratch\n", f) >= 0);
	rewind(f);
	REQUIRE(fgets(line, sizeof(line), f) != NULL);
	REQUIRE(strcmp(line, "scratch\n") == 0);
	fclose(f);
	return 0;
}

START_TEST(test_tmppath_tmpfile_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_TMPPATH, NULL, body_tmpfile, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * GETPW: the passwd and group databases, nothing else.
 */

static int
body_getpw(void *arg)
{
	struct passwd *pw;
	struct group *gr;
	int i;

	(void)arg;
	/* twice: glibc checks nsswitch.conf for changes on later calls */
	for (i = 0; i < 2; i++) {
		REQUIRE((pw = getpwnam("root")) != NULL);
		REQUIRE(pw->pw_uid == 0 && strcmp(pw->pw_name, "root") == 0);
		REQUIRE((gr = getgrgid(0)) != NULL);
		REQUIRE(strcmp(gr->gr_name, "root") == 0);
		REQUIRE((pw = getpwuid(0)) != NULL);
	}
	return 0;
}

START_TEST(test_getpw_getpwnam_getgrgid_work)
{
	struct outcome o;

	o = h_run(TAME_GETPW, NULL, body_getpw, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * DNSPATH: the resolver's files and sockets.
 */

static int
body_gai(void *arg)
{
	struct addrinfo hints, *res, *ai;
	struct sockaddr_in *sin;
	int inet = *(int *)arg, found = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_INET;
	REQUIRE(getaddrinfo("localhost", NULL, inet ? &hints : NULL,
	    &res) == 0);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET)
			continue;
		sin = (struct sockaddr_in *)ai->ai_addr;
		found |= sin->sin_addr.s_addr == htonl(INADDR_LOOPBACK);
	}
	freeaddrinfo(res);
	REQUIRE(found);
	return 0;
}

START_TEST(test_dnspath_getaddrinfo_localhost_inet_works)
{
	struct outcome o;
	int inet = 1;

	o = h_run(TAME_DNSPATH, NULL, body_gai, &inet);
	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_dnspath_getaddrinfo_localhost_default_hints_works)
{
	struct outcome o;
	int inet = 0;

	o = h_run(TAME_DNSPATH, NULL, body_gai, &inet);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * A kernel without Landlock (before 5.13, or a container that hides it),
 * and one without openat2 too (before 5.6), played for real: a filter
 * installed before tame() answers those calls with ENOSYS.  Without
 * Landlock the handler confines the granted paths itself with openat2's
 * resolve flags, and every path-gated flag works as documented; without
 * openat2 as well, the granted paths fail with EACCES (nothing granted
 * that could not be confined) and any other path still kills.
 */
#ifndef SYS_openat2
#define SYS_openat2	437
#endif

static int
hide_calls(int openat2_too)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),	/* nr */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset,
		    2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, openat2_too ? SYS_openat2 :
		    SYS_landlock_create_ruleset, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	};
	struct sock_fprog p = { sizeof(f) / sizeof(f[0]), f };

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &p) == 0 &&
	    tame_landlock_abi() == 0 ? 0 : 1;
}

static int
no_landlock(void *arg)
{
	(void)arg;
	return hide_calls(0);
}

static int
no_landlock_cwd_root(void *arg)
{
	return setup_cwd_root(arg) || hide_calls(0);
}

static int
no_landlock_tmp_link(void *arg)
{
	return setup_tmp_link(arg) || hide_calls(0);
}

static int
no_landlock_no_openat2(void *arg)
{
	(void)arg;
	return hide_calls(1);
}

START_TEST(test_nolandlock_refused_path_kills_and_names_it)
{
	const struct refused *c = &refused[_i];
	struct outcome o;

	o = h_run(c->flags, no_landlock, body_refused, (void *)c);
	ck_assert_path_violation(o, c->call, refused_path(c->path), c->need);
	ck_assert_msg(fx->out[0] == '\0', "case %d: %s", _i, fx->out);
	ck_assert_int_eq(fx->nread, -1);
	assert_content(fx->file, CONTENT);
}
END_TEST

START_TEST(test_nolandlock_stat_of_granted_file_only)
{
	const struct stat_case *c = &stat_cases[_i];
	struct outcome o;

	o = h_run(c->flags, no_landlock_cwd_root, body_stat_case, (void *)c);
	/* without Landlock a supervisor runs: it makes lstat() too */
	if (c->expect == STAT_WORKS || c->expect == STAT_EACCES) {
		ck_assert_exit(o, 0);
		ck_assert_msg(fx->out[0] != '\0' && fx->out[0] != 'E',
		    "stat %s failed: %s", c->path, fx->out);
		if (c->nofollow)
			ck_assert_msg(S_ISLNK(strtoul(fx->out, NULL, 8)),
			    "lstat %s followed the link", c->path);
	} else {
		ck_assert_violation(o, "newfstatat", "rpath");
		ck_assert_msg(fx->out[0] == '\0', "stat %s returned %s",
		    c->path, fx->out);
	}
}
END_TEST

START_TEST(test_nolandlock_tmppath_mkstemp_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_TMPPATH, no_landlock, body_tmp_mkstemp,
	    NULL);
	if (strncmp(fx->out, "/tmp/xx", 7) == 0)
		unlink(fx->out);
	ck_assert_exit(o, 0);
	assert_absent(fx->out);
}
END_TEST

/*
 * A first tame() whose flags need no path confined (rpath, wpath, cpath
 * grant every path tmppath does), then a narrowing to tmppath alone, as
 * tame-sort makes for its spill files: beneath /tmp still works, on this
 * kernel (a Landlock layer at the second call) and without Landlock (the
 * handler's openat2 from the first filter on); a symlink out does not.
 */
static int
body_narrow_then_mkstemp(void *arg)
{
	REQUIRE(tame(TAME_STDIO | TAME_TMPPATH) == 0);
	return body_tmp_mkstemp(arg);
}

static int
body_narrow_then_link(void *arg)
{
	REQUIRE(tame(TAME_STDIO | TAME_TMPPATH) == 0);
	return body_tmp_link(arg);
}

START_TEST(test_narrowed_to_tmppath_mkstemp_works)
{
	struct outcome o;
	char link[64] = "";

	o = h_run(TAME_STDIO | TAME_RPATH | TAME_WPATH | TAME_CPATH |
	    TAME_TMPPATH, _i ? no_landlock : NULL, body_narrow_then_mkstemp,
	    NULL);
	if (strncmp(fx->out, "/tmp/xx", 7) == 0)
		unlink(fx->out);
	ck_assert_exit(o, 0);
	assert_absent(fx->out);
	o = h_run(TAME_STDIO | TAME_RPATH | TAME_WPATH | TAME_CPATH |
	    TAME_TMPPATH, _i ? no_landlock_tmp_link : setup_tmp_link,
	    body_narrow_then_link, link);
	ck_assert_exit(o, 0);
}
END_TEST

/* mkdtemp, a file made and removed in it, rmdir: all beneath /tmp */
static int
body_tmp_mkdtemp(void *arg)
{
	char file[sizeof(fx->out) + 8];
	struct stat st;
	int fd;

	(void)arg;
	snprintf(fx->out, sizeof(fx->out), "/tmp/tdXXXXXX");
	REQUIRE(mkdtemp(fx->out) != NULL);
	snprintf(file, sizeof(file), "%s/f", fx->out);
	REQUIRE((fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600)) != -1);
	close(fd);
	REQUIRE(stat(file, &st) == 0 && S_ISREG(st.st_mode));
	/* a directory cannot be removed while it holds a name */
	REQUIRE(rmdir(fx->out) == -1 && errno == ENOTEMPTY);
	REQUIRE(unlink(file) == 0);
	REQUIRE(syscall(SYS_mkdirat, AT_FDCWD, file, 0700) == 0);
	REQUIRE(syscall(SYS_unlinkat, AT_FDCWD, file, AT_REMOVEDIR) == 0);
	REQUIRE(rmdir(fx->out) == 0);
	/* and nothing made or removed by a name that leaves /tmp */
	REQUIRE(mkdir("/tmp", 0700) == -1 && errno == EACCES);
	return 0;
}

START_TEST(test_nolandlock_tmppath_mkdtemp_mkdir_rmdir_work)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_TMPPATH, no_landlock, body_tmp_mkdtemp,
	    NULL);
	if (strncmp(fx->out, "/tmp/td", 7) == 0)
		rmdir(fx->out);
	ck_assert_exit(o, 0);
	assert_absent(fx->out);
}
END_TEST

START_TEST(test_nolandlock_tmpfile_works)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_TMPPATH, no_landlock, body_tmpfile, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/* the symlink in /tmp to the fixture outside: EACCES, as with Landlock */
START_TEST(test_nolandlock_symlink_out_of_tmp_leads_nowhere)
{
	struct outcome o;
	char link[64] = "";

	o = h_run(TAME_STDIO | TAME_TMPPATH, no_landlock_tmp_link,
	    body_tmp_link, link);
	ck_assert_exit(o, 0);
}
END_TEST

/* "/tmp/x/.." never reaches the handler's open; a ".." inside a link */
static int
setup_tmp_dotdot_link(void *arg)
{
	char *link = arg;

	snprintf(link, 64, "/tmp/tame-dotdot.%d", (int)getpid());
	unlink(link);
	return symlink("../etc/passwd", link) || hide_calls(0);
}

static int
body_tmp_dotdot_link(void *arg)
{
	const char *link = arg;
	int fd, r = 0;

	if ((fd = raw_open(link, O_RDONLY)) != -1 || errno != EACCES)
		r = 1;
	unlink(link);
	return r;
}

START_TEST(test_nolandlock_dotdot_link_out_of_tmp_leads_nowhere)
{
	struct outcome o;
	char link[64] = "";

	o = h_run(TAME_STDIO | TAME_TMPPATH, setup_tmp_dotdot_link,
	    body_tmp_dotdot_link, link);
	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_nolandlock_getpw_works)
{
	struct outcome o;

	o = h_run(TAME_GETPW, no_landlock, body_getpw, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_nolandlock_dnspath_getaddrinfo_localhost_works)
{
	struct outcome o;
	int inet = _i;

	o = h_run(TAME_DNSPATH, no_landlock, body_gai, &inet);
	ck_assert_exit(o, 0);
}
END_TEST

/*
 * Without openat2 either: tmppath's /tmp and the base set's time zone
 * file fail with EACCES (tame(3) CAVEATS), another path still kills.
 */
static int
body_no_openat2(void *arg)
{
	char path[64];
	int fd;

	(void)arg;
	REQUIRE(raw_open("/etc/localtime", O_RDONLY) == -1 && errno == EACCES);
	snprintf(path, sizeof(path), "/tmp/tame-no-openat2.%d", getpid());
	if ((fd = raw_open(path, O_RDWR | O_CREAT | O_EXCL)) != -1) {
		unlink(path);
		return 3;
	}
	REQUIRE(errno == EACCES);
	REQUIRE(mkdir(path, 0700) == -1 && errno == EACCES);
	open_must_die("/etc/hostname", O_RDONLY);
	return 2;
}

START_TEST(test_nolandlock_no_openat2_grants_nothing)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_TMPPATH, no_landlock_no_openat2,
	    body_no_openat2, NULL);
	ck_assert_path_violation(o, "openat", "/etc/hostname", "rpath");
}
END_TEST

/*
 * Narrowing: giving up RPATH takes file reads away, though descriptors
 * already open stay usable.
 */

static int
body_narrow(void *arg)
{
	char c;
	int fd, kept;

	(void)arg;
	REQUIRE((kept = raw_open(fx->file, O_RDONLY)) != -1);
	REQUIRE((fd = raw_open(fx->file, O_RDONLY)) != -1);
	close(fd);
	REQUIRE(tame(TAME_STDIO) == 0);
	REQUIRE(read(kept, &c, 1) == 1 && c == CONTENT[0]);
	return open_must_die(fx->file, O_RDONLY);
}

START_TEST(test_narrowing_to_stdio_revokes_reads)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_narrow, NULL);
	ck_assert_path_violation(o, "openat", fx->file, "rpath");
	ck_assert_int_eq(fx->nread, -1);
}
END_TEST

static int
body_narrow_lookup(void *arg)
{
	(void)arg;
	REQUIRE(do_stat() == 0);
	REQUIRE(tame(TAME_STDIO) == 0);
	return do_stat() + 10;
}

START_TEST(test_narrowing_to_stdio_revokes_lookups)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_RPATH, NULL, body_narrow_lookup, NULL);
	ck_assert_violation(o, "newfstatat", "rpath");
}
END_TEST

/*
 * The path-gated flags are confined on every supported kernel (5.6+):
 * by Landlock where it is, else by the SIGSYS handler's openat2.  The
 * Landlock cases above need Landlock to mean anything, so a kernel
 * without it says so.
 */
START_TEST(test_landlock_abi_available)
{
	ck_assert_int_eq(tame_flags_unconfined(TAME_ALL), 0);
	if (tame_landlock_abi() == 0) {
		printf("n/a: Landlock (5.13): the path-gated flags are "
		    "confined by the SIGSYS handler's openat2 alone\n");
		fflush(stdout);
	}
}
END_TEST

static TCase *
tc_new(Suite *s, const char *name)
{
	/* a few forks per test, and a resolver: well above the default */
	return h_tcase(s, name, 30, fx_setup, fx_teardown);
}

Suite *
fs_suite(void)
{
	Suite *s = suite_create("fs");
	TCase *tc;

	tc = tc_new(s, "base");
	tcase_add_test(tc, test_landlock_abi_available);
	tcase_add_test(tc, test_base_reads_zone_files);
	tcase_add_test(tc, test_base_localtime_reads_zoneinfo);
	tcase_add_test(tc, test_base_localtime_repeated_works);
	tcase_add_loop_test(tc, test_refused_path_kills_and_names_it, 0,
	    nitems(refused));
	tcase_add_test(tc, test_base_reads_locale_and_cpus);
	tcase_add_test(tc, test_bad_path_pointer_is_efault);
	tcase_add_test(tc, test_symlink_out_of_granted_dir_leads_nowhere);
	tcase_add_test(tc, test_base_raw_newfstatat_kills_needs_rpath);
	tcase_add_loop_test(tc, test_stat_of_granted_file_only, 0,
	    nitems(stat_cases));
	tcase_add_loop_test(tc, test_lookup_without_rpath_kills, 0,
	    nitems(lookups));

	tc = tc_new(s, "rpath");
	tcase_add_loop_test(tc, test_lookup_with_rpath_works, 0,
	    nitems(lookups));
	tcase_add_test(tc, test_rpath_open_rdonly_reads);
	tcase_add_test(tc, test_rpath_opendir_readdir_works);
	tcase_add_test(tc, test_stdio_o_path_open_kills_needs_rpath);
	tcase_add_test(tc, test_rpath_open_wronly_kills_needs_wpath);
	tcase_add_test(tc, test_rpath_open_rdonly_trunc_kills);
	tcase_add_test(tc, test_rpath_open_rdwr_kills_needs_wpath);
	tcase_add_test(tc, test_stdio_open_rdwr_kills_needs_rpath_and_wpath);
	tcase_add_test(tc, test_rpath_fopen_for_writing_kills);

	tc = tc_new(s, "wpath");
	tcase_add_test(tc, test_wpath_open_existing_for_writing_works);
	tcase_add_test(tc, test_wpath_open_rdwr_kills_needs_rpath);
	tcase_add_test(tc, test_rpath_wpath_open_rdwr_works);
	tcase_add_loop_test(tc, test_attr_with_wpath_works, 0,
	    nitems(attr_ops));
	tcase_add_loop_test(tc, test_attr_without_wpath_kills, 0,
	    nitems(attr_ops));
	tcase_add_loop_test(tc, test_xattr_user_and_acl_names_only, 0,
	    nitems(xattr_cases));
	tcase_add_test(tc, test_xattr_needs_wpath);
	tcase_add_test(tc, test_copy_between_descriptors_under_rw);

	tc = tc_new(s, "cpath");
	tcase_add_test(tc, test_cpath_alone_create_kills_needs_wpath);
	tcase_add_test(tc, test_wpath_alone_create_kills_needs_cpath);
	tcase_add_test(tc, test_cpath_wpath_create_works);
	tcase_add_test(tc, test_cpath_wpath_fopen_w_creates);
	tcase_add_test(tc, test_cpath_alone_open_rdwr_existing_kills);
	tcase_add_test(tc, test_cpath_alone_open_wronly_trunc_existing_kills);
	tcase_add_loop_test(tc, test_name_op_with_cpath_works, 0,
	    nitems(name_ops));
	tcase_add_loop_test(tc, test_name_op_without_cpath_kills, 0,
	    nitems(name_ops));
	tcase_add_test(tc, test_cpath_mknod_char_device_kills);
	tcase_add_loop_test(tc, test_cpath_rename_across_directories_works, 0,
	    nitems(refer_cases));

	tc = tc_new(s, "fstat");
	tcase_add_test(tc, test_stdio_fstat_works);
	tcase_add_test(tc, test_stdio_fstatat_named_path_kills_needs_rpath);
	tcase_add_test(tc, test_rpath_fstatat_named_path_works);
	tcase_add_test(tc, test_malloc_fstat_kills_needs_rw);

	tc = tc_new(s, "tmppath");
	tcase_add_test(tc, test_tmppath_mkstemp_write_read_unlink_works);
	tcase_add_test(tc, test_tmppath_mkstemp_unlink_leaves_nothing);
	tcase_add_test(tc, test_tmppath_tmpfile_works);

	tc = tc_new(s, "getpw");
	tcase_add_test(tc, test_getpw_getpwnam_getgrgid_work);
	tcase_add_test(tc, test_getpw_o_path_open_is_eacces);
	tcase_add_test(tc, test_getpw_unknown_name_is_null);

	tc = tc_new(s, "dnspath");
	tcase_add_test(tc, test_dnspath_getaddrinfo_localhost_inet_works);
	tcase_add_test(tc,
	    test_dnspath_getaddrinfo_localhost_default_hints_works);

	tc = tc_new(s, "without landlock");
	tcase_add_loop_test(tc, test_nolandlock_refused_path_kills_and_names_it,
	    0, nitems(refused));
	tcase_add_loop_test(tc, test_nolandlock_stat_of_granted_file_only, 0,
	    nitems(stat_cases));
	tcase_add_test(tc, test_nolandlock_tmppath_mkstemp_works);
	tcase_add_loop_test(tc, test_narrowed_to_tmppath_mkstemp_works, 0, 2);
	tcase_add_test(tc, test_nolandlock_tmppath_mkdtemp_mkdir_rmdir_work);
	tcase_add_test(tc, test_nolandlock_tmpfile_works);
	tcase_add_test(tc, test_nolandlock_symlink_out_of_tmp_leads_nowhere);
	tcase_add_test(tc,
	    test_nolandlock_dotdot_link_out_of_tmp_leads_nowhere);
	tcase_add_test(tc, test_nolandlock_getpw_works);
	tcase_add_loop_test(tc,
	    test_nolandlock_dnspath_getaddrinfo_localhost_works, 0, 2);
	tcase_add_test(tc, test_nolandlock_no_openat2_grants_nothing);

	tc = tc_new(s, "narrow");
	tcase_add_test(tc, test_narrowing_to_stdio_revokes_reads);
	tcase_add_test(tc, test_narrowing_to_stdio_revokes_lookups);

	return s;
}

TAME_TEST_MAIN(fs_suite)
