/* SPDX-License-Identifier: ISC */
/*
 * view_layers.c: what two runs in views (view.h) changed, compared.
 *
 * A run's upper layer holds every file it made or changed, whole, with
 * its owner, mode and times; a removed file is a whiteout (a character
 * device 0:0).  The layers are read through the descriptor of the run's
 * tmpfs that view_enter sent: its namespace may be gone, the files stay
 * until that descriptor is closed.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view.h"

static int
is_whiteout(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(0, 0);
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

/* Do runs a and b disagree on name (a file of both, or of one)? */
static int
disagree(int da, int db, const char *name)
{
	struct stat sa, sb;
	int ia, ib;

	ia = fstatat(da, name, &sa, AT_SYMLINK_NOFOLLOW) == 0;
	ib = fstatat(db, name, &sb, AT_SYMLINK_NOFOLLOW) == 0;
	if (ia != ib)
		return 1;
	return ia && !same_file(da, db, name, &sa, &sb);
}

/*
 * Did runs a and b leave the same files under path?  dn, when not -1,
 * is a second run made as a was: where a and dn disagree, the command
 * itself varies from run to run (a random port in a log), and b is not
 * held to a there.
 */
static int
same_dir(int da, int db, int dn, const char *path, char *diff, size_t len)
{
	struct dirent *e;
	struct stat sa, sb;
	char sub[PATH_MAX];
	DIR *d;
	int pass, from, other, ca, cb, cn, same = 1;

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
				if (dn != -1 && disagree(da, dn, e->d_name))
					continue;
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
				if (dn != -1 && disagree(da, dn, e->d_name))
					continue;
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
			cn = dn == -1 ? -1 : openat(dn, e->d_name, O_RDONLY |
			    O_DIRECTORY | O_CLOEXEC);
			same = ca != -1 && cb != -1 &&
			    same_dir(ca, cb, cn, sub, diff, len);
			if (ca != -1)
				close(ca);
			if (cb != -1)
				close(cb);
			if (cn != -1)
				close(cn);
		}
		closedir(d);
	}
	return same;
}

int
view_same(const struct view *v, int a, int b, int noise, char *diff,
    size_t len)
{
	char up[32];
	int k, da, db, dn, same = 1;

	for (k = 0; k < v->nm && same; k++) {
		if (v->m[k].kind != VIEW_LAYER)
			continue;
		snprintf(up, sizeof(up), "%d/upper", k);
		da = openat(a, up, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		db = openat(b, up, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		dn = noise < 0 ? -1 : openat(noise, up, O_RDONLY |
		    O_DIRECTORY | O_CLOEXEC);
		if (da != -1 && db != -1)
			same = same_dir(da, db, dn, v->m[k].path, diff, len);
		else if (da != db) {
			snprintf(diff, len, "the layers of %s could not be "
			    "read: %s", v->m[k].path, strerror(errno));
			same = 0;
		}
		if (da != -1)
			close(da);
		if (db != -1)
			close(db);
		if (dn != -1)
			close(dn);
	}
	return same;
}
