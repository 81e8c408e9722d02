/* SPDX-License-Identifier: ISC */
/*
 * view_apply.c: what a run in the view changed (view.h), applied to the
 * real tree, compared with another run's, or thrown away.
 *
 * A run's upper layer holds every file it made or changed, whole, with
 * its owner, mode and times; a removed file is a whiteout (a character
 * device 0:0); a directory made where one was removed is opaque (an
 * xattr), hiding the lower's.  Applying renames each file into place
 * (a copy, then a rename, across file systems), so that a file is
 * always either the old one or the new.  Without redirect_dir, which
 * overlays do not turn on by default, renaming a directory fails with
 * EXDEV and programs copy instead, so no layer holds a redirect.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view.h"

struct apply {
	char	*why;
	size_t	 len;
	int	 failed;
};

static void
fail(struct apply *ap, const char *path, const char *name)
{
	if (ap->failed++ == 0)
		snprintf(ap->why, ap->len, "%s/%s: %s", path, name,
		    strerror(errno));
}

static int
is_whiteout(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(0, 0);
}

static int
is_opaque(int dir, const char *name)
{
	char path[64], val[4];
	int fd, opaque = 0;

	if ((fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (getxattr(path, "trusted.overlay.opaque", val, sizeof(val)) > 0 ||
	    getxattr(path, "user.overlay.opaque", val, sizeof(val)) > 0)
		opaque = val[0] == 'y';
	close(fd);
	return opaque;
}

/* The overlay's own xattrs stay in its layer. */
static void
strip_overlay_xattrs(int fd)
{
	char names[4096], *p;
	ssize_t n;

	if ((n = flistxattr(fd, names, sizeof(names))) <= 0)
		return;
	for (p = names; p < names + n; p += strlen(p) + 1)
		if (strncmp(p, "trusted.overlay.", 16) == 0 ||
		    strncmp(p, "user.overlay.", 13) == 0)
			(void)fremovexattr(fd, p);
}

/* name in dir and everything under it; ENOENT is no error. */
static int
remove_at(int dir, const char *name)
{
	struct dirent *e;
	DIR *d;
	int fd, rc = 0;

	if (unlinkat(dir, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1 && errno == EACCES && fchmodat(dir, name, 0700, 0) == 0)
		fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return -1;
	}
	(void)fchmod(fd, 0700);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			if (remove_at(fd, e->d_name) == -1)
				rc = -1;
	closedir(d);
	if (unlinkat(dir, name, AT_REMOVEDIR) == -1 && errno != ENOENT)
		rc = -1;
	return rc;
}

static void
same_meta(int fd, const struct stat *st)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };

	(void)fchown(fd, st->st_uid, st->st_gid);
	(void)fchmod(fd, st->st_mode & 07777);
	(void)futimens(fd, ts);
}

/* A copy of from/name as to/tmp, for a rename across file systems. */
static int
copy_at(int from, const char *name, const struct stat *st, int to,
    const char *tmp)
{
	char buf[65536], link[PATH_MAX];
	ssize_t n, w;
	int in, out, rc = 0;

	if (S_ISLNK(st->st_mode)) {
		if ((n = readlinkat(from, name, link, sizeof(link) - 1)) == -1)
			return -1;
		link[n] = '\0';
		return symlinkat(link, to, tmp);
	}
	if (!S_ISREG(st->st_mode))
		return mknodat(to, tmp, st->st_mode, st->st_rdev);
	if ((in = openat(from, name, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if ((out = openat(to, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1) {
		close(in);
		return -1;
	}
	while (rc == 0 && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n == -1 || (w = write(out, buf, (size_t)n)) != n)
			rc = -1;
	}
	if (rc == 0)
		same_meta(out, st);
	close(in);
	if (close(out) == -1)
		rc = -1;
	if (rc == -1)
		(void)unlinkat(to, tmp, 0);
	return rc;
}

/* A file of the layer into the real directory, in one rename. */
static int
put_file(int up, int real, const char *name, const struct stat *st)
{
	char tmp[64];
	int fd;

	if (renameat(up, name, real, name) == -1) {
		if (errno != EXDEV)
			return -1;
		snprintf(tmp, sizeof(tmp), ".tame-audit.%ld", (long)getpid());
		(void)unlinkat(real, tmp, 0);
		if (copy_at(up, name, st, real, tmp) == -1 ||
		    renameat(real, tmp, real, name) == -1)
			return -1;
	}
	if (S_ISREG(st->st_mode) && (fd = openat(real, name, O_RDONLY |
	    O_NOFOLLOW | O_CLOEXEC)) != -1) {
		strip_overlay_xattrs(fd);
		close(fd);
	}
	return 0;
}

static void apply_dir(struct apply *, int, int, const char *);

static void
apply_entry(struct apply *ap, int up, int real, const char *path,
    const char *name)
{
	struct stat su, sr;
	char sub[PATH_MAX];
	int have, u, r;
	DIR *d;
	struct dirent *e;

	if (fstatat(up, name, &su, AT_SYMLINK_NOFOLLOW) == -1) {
		fail(ap, path, name);
		return;
	}
	have = fstatat(real, name, &sr, AT_SYMLINK_NOFOLLOW) == 0;
	if (is_whiteout(&su)) {
		if (remove_at(real, name) == -1)
			fail(ap, path, name);
		return;
	}
	if (!S_ISDIR(su.st_mode)) {
		if (have && S_ISDIR(sr.st_mode) && remove_at(real, name) == -1)
			fail(ap, path, name);
		else if (put_file(up, real, name, &su) == -1)
			fail(ap, path, name);
		return;
	}
	if (have && !S_ISDIR(sr.st_mode)) {
		if (unlinkat(real, name, 0) == -1) {
			fail(ap, path, name);
			return;
		}
		have = 0;
	}
	if (!have && mkdirat(real, name, 0700) == -1) {
		fail(ap, path, name);
		return;
	}
	if ((u = openat(up, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (r = openat(real, name, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		fail(ap, path, name);
		if (u != -1)
			close(u);
		return;
	}
	snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") == 0 ? "" :
	    path, name);
	/* opaque: nothing of the old directory shows through */
	if (have && is_opaque(up, name) && (d = fdopendir(dup(r))) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0 &&
			    remove_at(r, e->d_name) == -1)
				fail(ap, sub, e->d_name);
		closedir(d);
	}
	apply_dir(ap, u, r, sub);
	same_meta(r, &su);
	close(u);
	close(r);
}

static void
apply_dir(struct apply *ap, int up, int real, const char *path)
{
	struct dirent *e;
	DIR *d;

	if ((d = fdopendir(dup(up))) == NULL) {
		fail(ap, path, ".");
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			apply_entry(ap, up, real, path, e->d_name);
	closedir(d);
}

int
view_apply(const struct view *v, int run, char *why, size_t len)
{
	struct apply ap = { why, len, 0 };
	sigset_t hold, old;
	char up[PATH_MAX];
	int k, u, r;

	/* a file is the old one or the new, and the tree one run's */
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);
	for (k = 0; k < v->nm; k++) {
		if (!v->m[k].layered)
			continue;
		snprintf(up, sizeof(up), "%s/%d/%d/upper", v->dir, run, k);
		if ((u = open(up, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
			continue;	/* the run made no layer here */
		if ((r = open(v->m[k].path, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1) {
			fail(&ap, v->m[k].path, ".");
			close(u);
			continue;
		}
		apply_dir(&ap, u, r, v->m[k].path);
		close(u);
		close(r);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ap.failed ? -1 : 0;
}

/*
 * Did runs a and b leave the same files?  Names, kinds, modes and
 * contents; not times.  Returns 1, or 0 with the first difference.
 */
static int
same_file(int da, int db, const char *name, const struct stat *sa,
    const struct stat *sb)
{
	char ba[65536], bb[65536];
	ssize_t na, nb;
	int fa, fb, same = 1;

	if ((sa->st_mode & S_IFMT) != (sb->st_mode & S_IFMT) ||
	    (sa->st_mode & 07777) != (sb->st_mode & 07777))
		return 0;
	if (S_ISLNK(sa->st_mode)) {
		na = readlinkat(da, name, ba, sizeof(ba));
		nb = readlinkat(db, name, bb, sizeof(bb));
		return na == nb && na >= 0 && memcmp(ba, bb, (size_t)na) == 0;
	}
	if (!S_ISREG(sa->st_mode))
		return S_ISDIR(sa->st_mode) || sa->st_rdev == sb->st_rdev;
	if (sa->st_size != sb->st_size)
		return 0;
	fa = openat(da, name, O_RDONLY | O_CLOEXEC);
	fb = openat(db, name, O_RDONLY | O_CLOEXEC);
	while (same && fa != -1 && fb != -1) {
		na = read(fa, ba, sizeof(ba));
		nb = read(fb, bb, sizeof(bb));
		if (na != nb || na < 0 || memcmp(ba, bb, (size_t)na) != 0)
			same = 0;
		if (na <= 0)
			break;
	}
	if (fa == -1 || fb == -1)
		same = 0;
	if (fa != -1)
		close(fa);
	if (fb != -1)
		close(fb);
	return same;
}

static int
same_dir(int da, int db, const char *path, char *diff, size_t len)
{
	struct dirent *e;
	struct stat sa, sb;
	char sub[PATH_MAX];
	DIR *d;
	int pass, from, other, ca, cb, same = 1;

	/* each name of a in b, then each of b in a */
	for (pass = 0; pass < 2 && same; pass++) {
		from = pass == 0 ? da : db;
		other = pass == 0 ? db : da;
		if ((d = fdopendir(dup(from))) == NULL)
			return 0;
		while (same && (e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") ==
			    0 ? "" : path, e->d_name);
			if (fstatat(other, e->d_name, &sb, AT_SYMLINK_NOFOLLOW)
			    == -1) {
				snprintf(diff, len, "%s was %s only in %s run",
				    sub, fstatat(from, e->d_name, &sa,
				    AT_SYMLINK_NOFOLLOW) == 0 &&
				    is_whiteout(&sa) ? "removed" : "written",
				    pass == 0 ? "the first" : "this");
				same = 0;
				break;
			}
			if (pass == 1)
				continue;
			if (fstatat(from, e->d_name, &sa, AT_SYMLINK_NOFOLLOW) ==
			    -1 || !same_file(da, db, e->d_name, &sa, &sb)) {
				snprintf(diff, len, "%s differs from the first "
				    "run's", sub);
				same = 0;
				break;
			}
			if (!S_ISDIR(sa.st_mode))
				continue;
			ca = openat(da, e->d_name, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
			cb = openat(db, e->d_name, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
			same = ca != -1 && cb != -1 &&
			    same_dir(ca, cb, sub, diff, len);
			if (ca != -1)
				close(ca);
			if (cb != -1)
				close(cb);
		}
		closedir(d);
	}
	return same;
}

int
view_same(const struct view *v, int a, int b, char *diff, size_t len)
{
	char pa[PATH_MAX], pb[PATH_MAX];
	int k, da, db, same = 1;

	for (k = 0; k < v->nm && same; k++) {
		if (!v->m[k].layered)
			continue;
		snprintf(pa, sizeof(pa), "%s/%d/%d/upper", v->dir, a, k);
		snprintf(pb, sizeof(pb), "%s/%d/%d/upper", v->dir, b, k);
		da = open(pa, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		db = open(pb, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (da != -1 && db != -1)
			same = same_dir(da, db, v->m[k].path, diff, len);
		if (da != -1)
			close(da);
		if (db != -1)
			close(db);
	}
	return same;
}

void
view_drop(const struct view *v, int run)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%d", v->dir, run);
	(void)remove_at(AT_FDCWD, path);
}

void
view_close(struct view *v)
{
	int k;

	if (v->dir[0] != '\0' && v->tmpfs)
		(void)umount2(v->dir, MNT_DETACH);
	if (v->dir[0] != '\0')
		(void)remove_at(AT_FDCWD, v->dir);
	for (k = 0; k < v->nm; k++) {
		free(v->m[k].path);
		free(v->m[k].options);
	}
	free(v->m);
	free(v->unlayered);
	memset(v, 0, sizeof(*v));
}
