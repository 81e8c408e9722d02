/* SPDX-License-Identifier: ISC */
/*
 * view.c: the view (view.h): what each mount is in it, and entering it,
 * in a run's child.
 *
 * The child takes a descriptor of every place it will need, then mounts
 * a tmpfs of its own at the store (/tmp), which only its namespace has.
 * The new root is built there from the descriptors, parents first: a
 * writable file system of a kind that keeps files (ext4, xfs, btrfs,
 * tmpfs, ...) becomes an overlay with the real one below and its upper
 * and work directories on the tmpfs; anything else (/proc, /sys, /dev,
 * read-only mounts) is bound with what is under it.  An overlay hides
 * what is mounted under its lower, so each mount under it is bound or
 * layered again at its own place.  Writable mounts no overlay holds are
 * made read-only there.  Then the tmpfs's descriptor goes to tame-audit,
 * and the run chroots into the new root and goes back to its working
 * directory.  The store itself cannot be seen from the view: the
 * overlay of the file system it is on shows what the real store
 * directory holds, and a bind that brought a copy of it along loses it.
 * Comparing two runs' layers is view_layers.c.
 */
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
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

/*
 * The overlay's behaviour, written out rather than left to the kernel's
 * defaults (redirect_dir=on is some distributions' default, off others'):
 * as root, a directory renames as on the real file system
 * (redirect_dir=on) and a hard link stays one file when one of its names
 * is written (index=on; a lower without file handles falls back to off);
 * in a user namespace the kernel allows neither (userxattr).
 */
#define OVERLAY_ROOT	"redirect_dir=on,index=on,nfs_export=off," \
			"metacopy=off,xino=off"
#define OVERLAY_ROOT_NOINDEX	"redirect_dir=on,index=off,nfs_export=off," \
			"metacopy=off,xino=off"
#define OVERLAY_USER	"userxattr,redirect_dir=nofollow,index=off," \
			"metacopy=off,xino=off"

/* Where a run's tmpfs goes, the first that is a directory. */
static const char *const stores[] = {
	"/tmp", "/var/tmp", "/mnt", "/srv", "/opt", "/home", "/root", NULL,
};

/* At most this many sockets are bound through to the real ones. */
#define MAX_SOCKETS	64

struct mnt {
	int		 id, parent;
	char		*path, *opts, *type;
	int		 rw;
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

/* Writes to /proc, /sys and /dev act outside the file system. */
static int
is_special(const char *path)
{
	return view_under(path, "/proc") || view_under(path, "/sys") ||
	    view_under(path, "/dev");
}

/* The mount's option words that a bind of it keeps. */
static unsigned long
mount_flags(const char *opts)
{
	static const struct {
		const char	*word;
		unsigned long	 flag;
	} words[] = {
		{ "nosuid", MS_NOSUID }, { "nodev", MS_NODEV },
		{ "noexec", MS_NOEXEC }, { "noatime", MS_NOATIME },
		{ "nodiratime", MS_NODIRATIME }, { "relatime", MS_RELATIME },
		{ "strictatime", MS_STRICTATIME }, { NULL, 0 },
	};
	char *copy = xstrdup(opts), *p = copy, *w;
	unsigned long f = 0;
	int i;

	while ((w = strsep(&p, ",")) != NULL)
		for (i = 0; words[i].word != NULL; i++)
			if (strcmp(w, words[i].word) == 0)
				f |= words[i].flag;
	free(copy);
	return f;
}

/*
 * The mounts we see, sorted by path; of mounts stacked at one place only
 * the top one, which is the one no other mount there has for parent.
 */
static struct mnt *
read_mounts(int *count, char *why, size_t len)
{
	FILE *f;
	struct mnt *m = NULL;
	char *line = NULL, *fields[12], *p, *sep;
	size_t cap = 0;
	int n = 0, i, k, nf, hidden;

	if ((f = fopen("/proc/self/mountinfo", "r")) == NULL) {
		snprintf(why, len, "/proc/self/mountinfo: %s",
		    strerror(errno));
		return NULL;
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
	for (i = k = 0; i < n; i++) {
		for (hidden = 0, nf = 0; nf < n && !hidden; nf++)
			hidden = nf != i && m[nf].parent == m[i].id &&
			    strcmp(m[nf].path, m[i].path) == 0;
		if (hidden) {
			free(m[i].path);
			free(m[i].opts);
			free(m[i].type);
		} else
			m[k++] = m[i];
	}
	if (k == 0 || strcmp(m[0].path, "/") != 0) {
		snprintf(why, len, "no root file system in "
		    "/proc/self/mountinfo");
		for (i = 0; i < k; i++) {
			free(m[i].path);
			free(m[i].opts);
			free(m[i].type);
		}
		free(m);
		return NULL;
	}
	*count = k;
	return m;
}

static void
add_mount(struct view *v, const char *path, const char *type,
    enum view_kind kind, int readonly, unsigned long flags)
{
	v->m = xrealloc(v->m, ((size_t)v->nm + 1) * sizeof(*v->m));
	v->m[v->nm] = (struct view_mount){ .path = xstrdup(path),
	    .type = xstrdup(type), .kind = kind, .readonly = readonly,
	    .flags = flags };
	v->nm++;
}

/*
 * As root: every writable file system that keeps files is layered, the
 * rest bound as it is.  What is under a bound one comes with it, unless
 * an overlay stands between (it hides what is under its lower): then it
 * is bound again at its own place (the cgroup mounts under a tmpfs at
 * /sys/fs/cgroup).
 */
static void
root_view(struct view *v, const struct mnt *m, int n)
{
	const struct view_mount *above;
	struct stat st;
	enum view_kind kind;
	int i, k, layer;

	for (i = 0; i < n; i++) {
		layer = m[i].rw && is_layered_type(m[i].type) &&
		    stat(m[i].path, &st) == 0 && S_ISDIR(st.st_mode);
		/* the nearest mount above it: the longest path over it */
		for (above = NULL, k = 0; k < v->nm; k++)
			if (view_under(m[i].path, v->m[k].path) && (above ==
			    NULL || strlen(v->m[k].path) > strlen(above->path)))
				above = &v->m[k];
		if (layer)
			kind = VIEW_LAYER;
		else if (above != NULL && above->kind != VIEW_LAYER)
			kind = VIEW_INSIDE;
		else
			kind = VIEW_BIND;
		add_mount(v, m[i].path, m[i].type, kind, m[i].rw && !layer &&
		    !is_special(m[i].path), mount_flags(m[i].opts));
	}
}

static int
by_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/*
 * Unprivileged, an overlay's lower may have nothing mounted under it
 * that the user namespace did not mount (the kernel will not show what
 * such mounts cover), so "/" cannot be one: the whole tree is bound,
 * read-only where it is writable, and the places a user writes to are
 * layered: the working directory, $HOME, TMPDIR, /tmp, /var/tmp,
 * /dev/shm and /run/user/UID, where we may write.  A place under
 * another is layered again at its own place: an overlay copies a
 * directory up to write in it, and cannot give a copy an owner the
 * namespace does not map, so /tmp/proj of a root-owned /tmp/proj under
 * /tmp is writable only through an overlay of its own.
 */
static void
user_view(struct view *v, const struct mnt *m, int n)
{
	const char *cand[8];
	char real[8][PATH_MAX], rundir[64];
	int nc = 0, i, k, dup;

	add_mount(v, "/", m[0].type, VIEW_BIND, m[0].rw, 0);
	for (i = 1; i < n; i++)
		add_mount(v, m[i].path, m[i].type, VIEW_INSIDE, m[i].rw &&
		    !is_special(m[i].path), 0);
	snprintf(rundir, sizeof(rundir), "/run/user/%u", (unsigned)v->uid);
	cand[nc++] = v->cwd;
	cand[nc++] = getenv("HOME");
	cand[nc++] = getenv("TMPDIR");
	cand[nc++] = "/tmp";
	cand[nc++] = "/var/tmp";
	cand[nc++] = "/dev/shm";
	cand[nc++] = rundir;
	for (i = 0; i < nc; i++)
		if (cand[i] == NULL || realpath(cand[i], real[i]) == NULL ||
		    access(real[i], W_OK) == -1 || strcmp(real[i], "/") == 0)
			real[i][0] = '\0';
	/* outer places first: an overlay is mounted over its parent's */
	qsort(real, (size_t)nc, sizeof(real[0]), by_name);
	for (i = 0; i < nc; i++) {
		if (real[i][0] == '\0')
			continue;
		for (dup = 0, k = 0; k < i && !dup; k++)
			dup = strcmp(real[k], real[i]) == 0;
		if (dup)
			continue;
		/* a mount at the place itself is under its overlay */
		for (k = 0; k < v->nm; k++)
			if (strcmp(v->m[k].path, real[i]) == 0)
				v->m[k].readonly = 0;
		add_mount(v, real[i], "", VIEW_LAYER, 0, 0);
	}
}

/* What the views hold read-only, for the report. */
static char *
readonly_list(const struct view *v)
{
	char *list = NULL, *more;
	int k;

	for (k = 0; k < v->nm; k++) {
		if (!v->m[k].readonly)
			continue;
		if (asprintf(&more, "%s%s%s (%s)", list != NULL ? list : "",
		    list != NULL ? ", " : "", v->m[k].path,
		    v->m[k].type) == -1)
			err(1, NULL);
		free(list);
		list = more;
	}
	return list;
}

int
view_open(struct view *v, char *why, size_t len)
{
	struct mnt *m;
	struct stat st;
	int n, i;

	memset(v, 0, sizeof(*v));
	if (getcwd(v->cwd, sizeof(v->cwd)) == NULL) {
		snprintf(why, len, "the working directory: %s",
		    strerror(errno));
		return -1;
	}
	for (i = 0; stores[i] != NULL; i++)
		if (stat(stores[i], &st) == 0 && S_ISDIR(st.st_mode))
			break;
	if ((v->store = stores[i]) == NULL) {
		snprintf(why, len, "no directory for a tmpfs of ours (/tmp "
		    "is missing)");
		return -1;
	}
	v->uid = getuid();
	v->gid = getgid();
	v->userns = geteuid() != 0;
	if ((m = read_mounts(&n, why, len)) == NULL)
		return -1;
	if (v->userns)
		user_view(v, m, n);
	else
		root_view(v, m, n);
	for (i = 0; i < n; i++) {
		free(m[i].path);
		free(m[i].opts);
		free(m[i].type);
	}
	free(m);
	v->readonly = readonly_list(v);
	return 0;
}

void
view_close(struct view *v)
{
	int k;

	for (k = 0; k < v->nm; k++) {
		free(v->m[k].path);
		free(v->m[k].type);
	}
	free(v->m);
	free(v->readonly);
	memset(v, 0, sizeof(*v));
}

/* Entering it, in the child: everything below reports through why. */

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

static int
namespaces(const struct view *v, char *why, size_t len)
{
	char map[64];

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
	return 0;
}

/* A socket bound to a path under a layered place, to bind through. */
struct sock {
	int	 fd;
	char	*path;
};

/*
 * A socket file seen through an overlay is another inode, which no one
 * listens on: a run could not reach nscd, D-Bus, an X server or a test's
 * own server.  So each socket bound to a path (/proc/net/unix) under a
 * layered place is taken now, and bound through to the real one once
 * the view is built.  (A named pipe has no such list: it stays another
 * pipe in the view, tame-audit(1) says.)
 */
static int
take_sockets(const struct view *v, struct sock *s)
{
	char *line = NULL, *path;
	size_t cap = 0;
	struct stat st;
	FILE *f;
	int k, i, n = 0, layered;

	if ((f = fopen("/proc/net/unix", "r")) == NULL)
		return 0;
	while (n < MAX_SOCKETS && getline(&line, &cap, f) != -1) {
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
			layered = v->m[k].kind == VIEW_LAYER &&
			    view_under(path, v->m[k].path);
		if (layered && (s[n].fd = open(path, O_PATH | O_CLOEXEC)) !=
		    -1)
			s[n++].path = xstrdup(path);
	}
	free(line);
	fclose(f);
	return n;
}

/* "/proc/self/fd/N": a place taken before the tmpfs covered the store. */
static void
fd_path(char *buf, size_t len, int fd)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/*
 * The overlay over mount k, at target: its upper directory takes the
 * real directory's mode and owner (an overlay's top directory shows its
 * upper's: /tmp must stay 1777), where the namespace maps the owner.
 */
static int
layer(const struct view *v, int k, int lower, const char *target,
    char *why, size_t len)
{
	char dir[64], up[96], work[96], lo[64], opts[512];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/%d", v->store, k);
	snprintf(up, sizeof(up), "%s/upper", dir);
	snprintf(work, sizeof(work), "%s/work", dir);
	if (mkdir(dir, 0700) == -1 || mkdir(up, 0755) == -1 ||
	    mkdir(work, 0700) == -1) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (fstat(lower, &st) == 0) {
		(void)chown(up, st.st_uid, st.st_gid);
		(void)chmod(up, st.st_mode & 07777);
	}
	fd_path(lo, sizeof(lo), lower);
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s,%s",
	    lo, up, work, v->userns ? OVERLAY_USER : OVERLAY_ROOT);
	if (mount("overlay", target, "overlay", v->m[k].flags, opts) == 0)
		return 0;
	/* index=on needs file handles below; some kernels refuse then */
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s,%s",
	    lo, up, work, OVERLAY_ROOT_NOINDEX);
	if (!v->userns && errno == EINVAL && mount("overlay", target,
	    "overlay", v->m[k].flags, opts) == 0)
		return 0;
	snprintf(why, len, "an overlay over %s: %s%s", v->m[k].path,
	    strerror(errno), errno == EINVAL ? " (refused by the kernel: in "
	    "a user namespace, an overlay cannot stand over a directory "
	    "with mounts under it, nor on kernels before 5.11; or the "
	    "tmpfs cannot hold its upper layer)" : "");
	return -1;
}

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
struct mount_attr {
	uint64_t	attr_set, attr_clr, propagation, userns_fd;
};
#endif

/*
 * Mount k, at target, read-only in the view.  mount_setattr (5.12)
 * changes that alone; a remount must repeat the flags a user namespace
 * locks.
 */
static int
make_readonly(const struct view *v, int k, const char *target, char *why,
    size_t len)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };

	if (syscall(SYS_mount_setattr, AT_FDCWD, target, 0, &attr,
	    sizeof(attr)) == 0)
		return 0;
	if ((errno == ENOSYS || errno == EINVAL) && mount("none", target,
	    "none", MS_REMOUNT | MS_BIND | MS_RDONLY | v->m[k].flags,
	    NULL) == 0)
		return 0;
	snprintf(why, len, "making %s read-only in the view: %s",
	    v->m[k].path, strerror(errno));
	return -1;
}

/* A copy of the store that a bind brought into the view goes. */
static void
hide_store(const struct view *v, const char *root)
{
	char target[PATH_MAX + 64];
	struct stat store, seen;

	snprintf(target, sizeof(target), "%s%s", root, v->store);
	if (stat(v->store, &store) == 0)
		while (stat(target, &seen) == 0 && seen.st_dev == store.st_dev &&
		    umount2(target, MNT_DETACH) == 0)
			;
}

/* The tmpfs's descriptor to tame-audit, which keeps the layers by it. */
static int
send_store(int fd, int to, char *why, size_t len)
{
	char byte = 'L', ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &io, .msg_iovlen = 1,
	    .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;

	memset(ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(to, &msg, MSG_NOSIGNAL) != 1) {
		snprintf(why, len, "sending the layers: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int
view_write(const char *file, const char *text, char *why, size_t len)
{
	size_t n = strlen(text);
	int fd;

	if ((fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0644)) == -1 || write(fd, text, n) != (ssize_t)n) {
		snprintf(why, len, "%s in the view: %s", file,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
view_enter(const struct view *v, int to, char *why, size_t len)
{
	char root[64], target[PATH_MAX + 64], src[64];
	struct sock socks[MAX_SOCKETS];
	int *fds, k, nsock, store, rc = -1;

	if (namespaces(v, why, len) == -1)
		return -1;
	/* every place, before the tmpfs covers the store */
	fds = xcalloc((size_t)v->nm, sizeof(*fds));
	for (k = 0; k < v->nm; k++)
		if (v->m[k].kind != VIEW_INSIDE && (fds[k] =
		    open(v->m[k].path, O_PATH | O_CLOEXEC)) == -1) {
			snprintf(why, len, "%s: %s", v->m[k].path,
			    strerror(errno));
			return -1;
		}
	nsock = take_sockets(v, socks);
	if (mount("tame-audit", v->store, "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=0700") == -1) {
		snprintf(why, len, "a tmpfs at %s: %s", v->store,
		    strerror(errno));
		return -1;
	}
	snprintf(root, sizeof(root), "%s/root", v->store);
	if (mkdir(root, 0755) == -1) {
		snprintf(why, len, "%s: %s", root, strerror(errno));
		return -1;
	}
	for (k = 0; k < v->nm; k++) {
		snprintf(target, sizeof(target), "%s%s", root,
		    strcmp(v->m[k].path, "/") == 0 ? "" : v->m[k].path);
		fd_path(src, sizeof(src), fds[k]);
		if (v->m[k].kind == VIEW_LAYER) {
			if (layer(v, k, fds[k], target, why, len) == -1)
				return -1;
		} else if (v->m[k].kind == VIEW_BIND && mount(src, target,
		    "none", MS_BIND | MS_REC, NULL) == -1) {
			snprintf(why, len, "binding %s: %s", v->m[k].path,
			    strerror(errno));
			return -1;
		}
	}
	hide_store(v, root);
	for (k = 0; k < v->nm; k++) {
		if (!v->m[k].readonly)
			continue;
		snprintf(target, sizeof(target), "%s%s", root,
		    strcmp(v->m[k].path, "/") == 0 ? "" : v->m[k].path);
		if (make_readonly(v, k, target, why, len) == -1)
			return -1;
	}
	for (k = 0; k < nsock; k++) {
		snprintf(target, sizeof(target), "%s%s", root, socks[k].path);
		fd_path(src, sizeof(src), socks[k].fd);
		(void)mount(src, target, "none", MS_BIND, NULL);
		close(socks[k].fd);
		free(socks[k].path);
	}
	for (k = 0; k < v->nm; k++)
		if (v->m[k].kind != VIEW_INSIDE)
			close(fds[k]);
	free(fds);
	/* the layers go to tame-audit once the run is sure to be made */
	if ((store = open(v->store, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		snprintf(why, len, "%s: %s", v->store, strerror(errno));
		return -1;
	}
	if (chdir(root) == -1 || chroot(".") == -1)
		snprintf(why, len, "chroot to %s: %s", root, strerror(errno));
	else if (chdir(v->cwd) == -1)
		snprintf(why, len, "%s in the view: %s", v->cwd,
		    strerror(errno));
	else
		rc = send_store(store, to, why, len);
	close(store);
	return rc;
}
