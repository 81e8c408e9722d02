/* SPDX-License-Identifier: ISC */
/*
 * view.c: the hermetic view (view.h): entering it, in a run's child.
 *
 * The new root is built in dir/N/root from the mounts we see, parents
 * first: a writable file system of a kind that keeps files (ext4, xfs,
 * btrfs, tmpfs, ...) becomes an overlay with lowerdir the real one and
 * its upper and work directories in dir/N/K; anything else (/proc, /sys,
 * /dev, read-only mounts) is bound with what is under it.  An overlay
 * hides what is mounted under its lower, so each mount under it is
 * bound or layered again at its own place.  Then the run chroots there
 * and goes back to its working directory.  Applying and throwing away
 * the layers is view_apply.c.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "view.h"

/* File systems whose files a run may change, and an overlay can hold. */
static const char *const layered_types[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "jfs", "reiserfs",
	"tmpfs", "ramfs", "vfat", "exfat",
	"overlay",	/* a container's root, the kernel matrix's guests */
	NULL,
};

struct mnt {
	int	 id, parent;
	char	*path, *opts, *type;
	int	 rw;
};

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void
unescape(char *s)
{
	char *d = s;

	for (; *s != '\0'; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
			    (s[3] - '0'));
			s += 3;
		} else
			*d = *s;
	}
	*d = '\0';
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct mnt *)a)->path,
	    ((const struct mnt *)b)->path);
}

static int
is_layered_type(const char *type)
{
	int i;

	for (i = 0; layered_types[i] != NULL; i++)
		if (strcmp(type, layered_types[i]) == 0)
			return 1;
	return 0;
}

int
view_under(const char *path, const char *p)
{
	size_t n = strlen(p);

	if (strcmp(p, "/") == 0)
		return 1;
	return strncmp(path, p, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/*
 * The mounts we see, parents first; of mounts stacked at one place only
 * the top one, which is the one no other mount there has for parent.
 */
static int
read_mounts(struct view *v, char *why, size_t len)
{
	FILE *f;
	struct mnt *m = NULL;
	char *line = NULL, *fields[12], *p, *sep, *more = NULL;
	size_t cap = 0;
	int n = 0, i, k, nf, hidden;
	struct stat st;

	if ((f = fopen("/proc/self/mountinfo", "r")) == NULL) {
		snprintf(why, len, "/proc/self/mountinfo: %s",
		    strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) != -1) {
		line[strcspn(line, "\n")] = '\0';
		for (nf = 0, p = line; nf < 12 && p != NULL; nf++)
			fields[nf] = strsep(&p, " ");
		/* id parent dev root point opts [optional...] - type src */
		for (sep = NULL, i = 6; i < nf; i++)
			if (strcmp(fields[i], "-") == 0) {
				sep = fields[i];
				break;
			}
		if (sep == NULL || i + 1 >= nf)
			continue;
		m = xrealloc(m, ((size_t)n + 1) * sizeof(*m));
		m[n].id = atoi(fields[0]);
		m[n].parent = atoi(fields[1]);
		unescape(fields[4]);
		m[n].path = xstrdup(fields[4]);
		m[n].opts = xstrdup(fields[5]);
		m[n].type = xstrdup(fields[i + 1]);
		m[n].rw = strncmp(fields[5], "rw", 2) == 0;
		n++;
	}
	free(line);
	fclose(f);
	qsort(m, (size_t)n, sizeof(*m), by_path);
	v->m = xcalloc((size_t)n + 1, sizeof(*v->m));
	v->nm = 0;
	for (i = 0; i < n; i++) {
		for (hidden = 0, k = 0; k < n; k++)
			if (k != i && m[k].parent == m[i].id &&
			    strcmp(m[k].path, m[i].path) == 0)
				hidden = 1;
		if (hidden) {
			free(m[i].path);
			free(m[i].opts);
			free(m[i].type);
			continue;
		}
		v->m[v->nm].path = m[i].path;
		v->m[v->nm].options = m[i].opts;
		v->m[v->nm].layered = m[i].rw && is_layered_type(m[i].type) &&
		    stat(m[i].path, &st) == 0 && S_ISDIR(st.st_mode);
		if (m[i].rw && !v->m[v->nm].layered &&
		    is_layered_type(m[i].type) == 0 &&
		    !view_under(m[i].path, "/proc") &&
		    !view_under(m[i].path, "/sys") &&
		    !view_under(m[i].path, "/dev")) {
			/* a network or FUSE file system: as it is */
			if (asprintf(&p, "%s%s%s (%s)", more != NULL ? more :
			    "", more != NULL ? ", " : "", m[i].path,
			    m[i].type) == -1)
				err(1, NULL);
			free(more);
			more = p;
		}
		v->nm++;
		free(m[i].type);
	}
	v->unlayered = more;
	free(m);
	if (v->nm == 0 || strcmp(v->m[0].path, "/") != 0) {
		snprintf(why, len, "no root file system in "
		    "/proc/self/mountinfo");
		return -1;
	}
	return 0;
}

static int
write_file(const char *path, const char *text)
{
	int fd, ok;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* overlay's options take ',' and ':' as separators, '\' escapes */
static void
escape_dir(char *out, size_t len, const char *dir)
{
	size_t k = 0;

	for (; *dir != '\0' && k + 2 < len; dir++) {
		if (*dir == ',' || *dir == ':' || *dir == '\\')
			out[k++] = '\\';
		out[k++] = *dir;
	}
	out[k] = '\0';
}

static unsigned long
mount_flags(const char *opts)
{
	unsigned long f = 0;

	if (strstr(opts, "nosuid") != NULL)
		f |= MS_NOSUID;
	if (strstr(opts, "nodev") != NULL)
		f |= MS_NODEV;
	if (strstr(opts, "noexec") != NULL)
		f |= MS_NOEXEC;
	return f;
}

static int
layer(const struct view *v, const char *run, int k, const char *target,
    char *why, size_t len)
{
	const struct view_mount *m = &v->m[k];
	char up[PATH_MAX + 64], work[PATH_MAX + 64], lo[PATH_MAX * 2],
	    ue[PATH_MAX * 2], we[PATH_MAX * 2], opts[PATH_MAX * 7];

	snprintf(up, sizeof(up), "%s/%d", run, k);
	if (mkdir(up, 0700) == -1) {
		snprintf(why, len, "%s: %s", up, strerror(errno));
		return -1;
	}
	snprintf(up, sizeof(up), "%s/%d/upper", run, k);
	snprintf(work, sizeof(work), "%s/%d/work", run, k);
	if (mkdir(up, 0755) == -1 || mkdir(work, 0700) == -1) {
		snprintf(why, len, "%s: %s", up, strerror(errno));
		return -1;
	}
	escape_dir(lo, sizeof(lo), m->path);
	escape_dir(ue, sizeof(ue), up);
	escape_dir(we, sizeof(we), work);
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s%s",
	    lo, ue, we, v->userns ? ",userxattr" : "");
	if (mount("overlay", target, "overlay", mount_flags(m->options),
	    opts) == -1) {
		snprintf(why, len, "an overlay over %s: %s%s", m->path,
		    strerror(errno), errno == EINVAL ? " (refused by the "
		    "kernel: in a user namespace, an overlay cannot stand "
		    "over a directory with mounts under it, nor on kernels "
		    "before 5.11; or the upper layer's file system cannot "
		    "hold one)" : "");
		return -1;
	}
	return 0;
}

/*
 * A socket file seen through an overlay is another inode, which no one
 * listens on: a run could not reach nscd, D-Bus, an X server or a test's
 * own server.  So each socket bound to a path (/proc/net/unix) under a
 * layered place is bound through to the real one.  (A named pipe has no
 * such list: it stays another pipe in the view, tame-audit(1) says.)
 */
static void
bind_sockets(const struct view *v, const char *root)
{
	char *line = NULL, *path, target[PATH_MAX * 2];
	size_t cap = 0;
	struct stat st;
	FILE *f;
	int k, i, layered;

	if ((f = fopen("/proc/net/unix", "r")) == NULL)
		return;
	while (getline(&line, &cap, f) != -1) {
		line[strcspn(line, "\n")] = '\0';
		/* Num RefCount Protocol Flags Type St Inode Path */
		for (path = line, i = 0; i < 7 && path != NULL; i++) {
			path += strspn(path, " ");
			path = strchr(path, ' ');
		}
		if (path == NULL || *(path += strspn(path, " ")) != '/' ||
		    lstat(path, &st) == -1 || !S_ISSOCK(st.st_mode))
			continue;
		for (layered = 0, k = 0; k < v->nm && !layered; k++)
			layered = v->m[k].layered &&
			    view_under(path, v->m[k].path);
		if (!layered)
			continue;
		snprintf(target, sizeof(target), "%s%s", root, path);
		(void)mount(path, target, "none", MS_BIND, NULL);
	}
	free(line);
	fclose(f);
}

int
view_enter(const struct view *v, int run, const char *keep, char *why,
    size_t len)
{
	char dir[1100], root[1200], target[PATH_MAX * 2], map[64];
	const char *bound = NULL;
	int k;

	if (v->userns) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == -1) {
			snprintf(why, len, "no user namespace for us: %s%s",
			    strerror(errno), errno == ENOSPC ? " "
			    "(user.max_user_namespaces is 0)" : "");
			return -1;
		}
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)v->uid,
		    (unsigned)v->uid);
		if (write_file("/proc/self/setgroups", "deny") == -1 ||
		    write_file("/proc/self/uid_map", map) == -1) {
			snprintf(why, len, "uid_map: %s", strerror(errno));
			return -1;
		}
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)v->gid,
		    (unsigned)v->gid);
		if (write_file("/proc/self/gid_map", map) == -1) {
			snprintf(why, len, "gid_map: %s", strerror(errno));
			return -1;
		}
	} else if (unshare(CLONE_NEWNS) == -1) {
		snprintf(why, len, "no mount namespace for us: %s",
		    strerror(errno));
		return -1;
	}
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == -1) {
		snprintf(why, len, "making our mounts private: %s",
		    strerror(errno));
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/%d", v->dir, run);
	snprintf(root, sizeof(root), "%s/root", dir);
	if (mkdir(dir, 0700) == -1 || mkdir(root, 0755) == -1) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	for (k = 0; k < v->nm; k++) {
		snprintf(target, sizeof(target), "%s%s", root,
		    strcmp(v->m[k].path, "/") == 0 ? "" : v->m[k].path);
		if (v->m[k].layered) {
			if (layer(v, dir, k, target, why, len) == -1)
				return -1;
			continue;
		}
		if (bound != NULL && view_under(v->m[k].path, bound))
			continue;	/* came with the bind of bound */
		if (mount(v->m[k].path, target, "none", MS_BIND | MS_REC,
		    NULL) == -1) {
			snprintf(why, len, "binding %s: %s", v->m[k].path,
			    strerror(errno));
			return -1;
		}
		bound = v->m[k].path;
	}
	bind_sockets(v, root);
	/* the trace is written through to the real file */
	if (keep != NULL) {
		snprintf(target, sizeof(target), "%s%s%s%s", root,
		    keep[0] == '/' ? "" : v->cwd,
		    keep[0] == '/' || strcmp(v->cwd, "/") == 0 ? "" : "/", keep);
		if (mount(keep, target, "none", MS_BIND, NULL) == -1) {
			snprintf(why, len, "binding %s: %s", keep,
			    strerror(errno));
			return -1;
		}
	}
	if (chdir(root) == -1 || chroot(".") == -1) {
		snprintf(why, len, "chroot to %s: %s", root, strerror(errno));
		return -1;
	}
	if (chdir(v->cwd) == -1) {
		snprintf(why, len, "%s in the view: %s", v->cwd,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Unprivileged, an overlay's lower may have nothing mounted under it (the
 * kernel will not show what such mounts cover), so "/" cannot be one: the
 * whole tree is bound, and the places a user writes to are layered, each
 * directory once (not one under another): the working directory, $HOME,
 * TMPDIR, /tmp, /var/tmp, /dev/shm and /run/user/UID, where we may write.
 */
static void
user_places(struct view *v)
{
	const char *cand[8];
	char real[8][PATH_MAX], rundir[64];
	int n = 0, i, k, nested;

	snprintf(rundir, sizeof(rundir), "/run/user/%u", (unsigned)v->uid);
	cand[n++] = v->cwd;
	cand[n++] = getenv("HOME");
	cand[n++] = getenv("TMPDIR");
	cand[n++] = "/tmp";
	cand[n++] = "/var/tmp";
	cand[n++] = "/dev/shm";
	cand[n++] = rundir;
	for (i = 0; i < n; i++)
		if (cand[i] == NULL || realpath(cand[i], real[i]) == NULL ||
		    access(real[i], W_OK) == -1 || strcmp(real[i], "/") == 0)
			real[i][0] = '\0';
	for (i = 0; i < n; i++) {
		if (real[i][0] == '\0')
			continue;
		for (nested = 0, k = 0; k < n && !nested; k++)
			nested = k != i && real[k][0] != '\0' &&
			    view_under(real[i], real[k]) &&
			    (strcmp(real[i], real[k]) != 0 || k < i);
		if (nested)
			continue;
		v->m = xrealloc(v->m, ((size_t)v->nm + 1) * sizeof(*v->m));
		v->m[v->nm].path = xstrdup(real[i]);
		v->m[v->nm].options = xstrdup("");
		v->m[v->nm].layered = 1;
		v->nm++;
	}
}

int
view_open(struct view *v, char *why, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int k;

	memset(v, 0, sizeof(*v));
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	if (getcwd(v->cwd, sizeof(v->cwd)) == NULL) {
		snprintf(why, len, "the working directory: %s",
		    strerror(errno));
		return -1;
	}
	v->uid = getuid();
	v->gid = getgid();
	v->userns = geteuid() != 0;
	if (read_mounts(v, why, len) == -1)
		return -1;
	if (v->userns) {
		/* "/" bound with all under it, then the user's places */
		for (k = 1; k < v->nm; k++) {
			free(v->m[k].path);
			free(v->m[k].options);
		}
		v->nm = 1;
		v->m[0].layered = 0;
		free(v->unlayered);
		v->unlayered = NULL;
		user_places(v);
	}
	snprintf(v->dir, sizeof(v->dir), "%s/tame-audit-view.XXXXXX", tmp);
	if (mkdtemp(v->dir) == NULL) {
		snprintf(why, len, "%s: %s", tmp, strerror(errno));
		v->dir[0] = '\0';
		view_close(v);
		return -1;
	}
	/*
	 * As root, the layers are kept on a tmpfs of our own, in a mount
	 * namespace of our own: an upper layer cannot be on an overlay (a
	 * container's root), and nothing of it is seen outside.
	 */
	if (!v->userns && unshare(CLONE_NEWNS) == 0 &&
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0 &&
	    mount("tame-audit", v->dir, "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=0700") == 0)
		v->tmpfs = 1;
	return 0;
}
