/* SPDX-License-Identifier: ISC */
/*
 * unveil_unrouted_calls.c: path calls no UNVEILED row routes, where
 * unveil is locked without pledge (issue 46, unveil's unmediated calls).
 *
 * unveil() alone leaves the process not pledged (TAME__FREE): its filter
 * lets every call through but those of unveil's rows (policy.c), which
 * the supervisor checks.  Landlock judges opens, exec, making and
 * removing names; the rows cover stat, chmod, chown, times, attributes,
 * O_PATH by open/openat and a unix connect/sendto.  Other calls that
 * reach a file by path are neither: the kernel's numbers past the
 * build's headers (fchmodat2, setxattrat, file_setattr), openat2 (an
 * O_PATH descriptor, on which the AT_EMPTY_PATH forms the supervisor
 * does not check then work), inotify_add_watch, and sendmsg with a
 * msg_name (the rows route sendto only).  Each part: untamed first, then
 * unveil("visible", "rwc") alone, the effect checked by the parent.
 */
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/xattr.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define NR_fchmodat2	452
#define NR_setxattrat	463
#define NR_file_getattr	468
#define NR_file_setattr	469
#define FS_XFLAG_NODUMP	0x80

struct xattr_args { uint64_t value; uint32_t size, flags; };
struct file_attr { uint64_t xflags; uint32_t extsize, nextents, projid, cowextsize; };
struct open_how_ { uint64_t flags, mode, resolve; };

enum { FCHMODAT2, SETXATTRAT, FILE_SETATTR, OPENAT2_EMPTY, SENDMSG, INOTIFY, NPARTS };
static const char *const what[NPARTS] = {
	"fchmodat2 made hidden/file 0604",
	"setxattrat set user.rt on hidden/file",
	"file_setattr set the nodump flag of hidden/file",
	"openat2 O_PATH, then utimensat(fd, \"\", AT_EMPTY_PATH) set hidden/file's mtime",
	"sendmsg by msg_name reached a datagram socket in hidden/",
	"inotify_add_watch on hidden/ saw the name of a file made there after the lock",
};

struct attempt {
	int	 tamed;
	int	 part;
	char	 made[64];	/* INOTIFY: the name the parent makes */
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	const char *f = rt_path("hidden/file");
	struct xattr_args xa = { (uint64_t)(uintptr_t)"rt", 2, 0 };
	struct file_attr fa = { 0 };
	struct open_how_ how = { O_PATH, 0, 0 };
	struct timespec ts[2] = { { 1000000, 0 }, { 1000000, 0 } };
	struct sockaddr_un sun = { AF_UNIX, "" };
	struct iovec io = { "rt-dgram", 8 };
	struct msghdr m = { 0 };
	char buf[4096];
	long fd, n;

	if (a->tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		rt_unveil(NULL, NULL);
	}
	switch (a->part) {
	case FCHMODAT2:
		return syscall(NR_fchmodat2, AT_FDCWD, f, 0604, 0) == 0 ? 0 : 1;
	case SETXATTRAT:
		return syscall(NR_setxattrat, AT_FDCWD, f, 0, "user.rt", &xa,
		    sizeof(xa)) == 0 ? 0 : 1;
	case FILE_SETATTR:
		if (syscall(NR_file_getattr, AT_FDCWD, f, &fa, sizeof(fa), 0))
			return 1;
		fa.xflags |= FS_XFLAG_NODUMP;
		return syscall(NR_file_setattr, AT_FDCWD, f, &fa, sizeof(fa),
		    0) == 0 ? 0 : 1;
	case OPENAT2_EMPTY:
		if ((fd = syscall(SYS_openat2, AT_FDCWD, f, &how,
		    sizeof(how))) < 0)
			return 1;
		return utimensat((int)fd, "", ts, AT_EMPTY_PATH) == 0 ? 0 : 1;
	case SENDMSG:
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s",
		    rt_path("hidden/sock"));
		m.msg_name = &sun;
		m.msg_namelen = sizeof(sun);
		m.msg_iov = &io;
		m.msg_iovlen = 1;
		fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		return sendmsg((int)fd, &m, 0) == 8 ? 0 : 1;
	case INOTIFY:
		if ((fd = inotify_init1(0)) < 0 || inotify_add_watch((int)fd,
		    rt_path("hidden"), IN_CREATE) < 0)
			return 1;
		rt_ready();
		if ((n = read((int)fd, buf, sizeof(buf))) > 0)
			rt_tell(buf, (size_t)n);
		return 0;
	}
	return 1;
}

static int
effect(struct attempt *a, int dgram)
{
	const char *f = rt_path("hidden/file");
	struct file_attr fa = { 0 };
	struct stat st;
	struct rt_kid k;
	char v[16], got[4096];
	size_t n = 0;
	int r = 0;

	rt_spawn(&k, attack, a);
	if (a->part == INOTIFY && rt_heard(&k) == 0) {
		snprintf(a->made, sizeof(a->made), "made-%ld", random());
		close(open(rt_path("hidden/%s", a->made), O_WRONLY | O_CREAT,
		    0600));
		n = rt_listen(&k, got, sizeof(got));
	}
	rt_reap(&k);
	rt_check(k.status);
	switch (a->part) {
	case FCHMODAT2:
		r = stat(f, &st) == 0 && (st.st_mode & 07777) == 0604;
		break;
	case SETXATTRAT:
		r = getxattr(f, "user.rt", v, sizeof(v)) == 2;
		break;
	case FILE_SETATTR:
		r = syscall(NR_file_getattr, AT_FDCWD, f, &fa, sizeof(fa), 0) ==
		    0 && (fa.xflags & FS_XFLAG_NODUMP);
		break;
	case OPENAT2_EMPTY:
		r = stat(f, &st) == 0 && st.st_mtime == 1000000;
		break;
	case SENDMSG:
		r = recv(dgram, v, sizeof(v), MSG_DONTWAIT) == 8;
		break;
	case INOTIFY:
		r = a->made[0] != '\0' && memmem(got, n, a->made,
		    strlen(a->made)) != NULL;
		break;
	}
	return r;
}

/* the file as it was: mode 0644, no attribute or flag, mtime now */
static void
reset(void)
{
	const char *f = rt_path("hidden/file");
	struct file_attr fa = { 0 };
	int fd;

	unlink(f);
	if ((fd = open(f, O_WRONLY | O_CREAT, 0644)) == -1)
		rt_fatal("%s", f);
	close(fd);
	chmod(f, 0644);
	(void)fa;
}

int
main(int argc, char **argv)
{
	struct sockaddr_un sun = { AF_UNIX, "" };
	struct attempt a;
	int p, dgram;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	chmod(rt_path("hidden"), 0777);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", rt_path("hidden/sock"));
	if ((dgram = socket(AF_UNIX, SOCK_DGRAM, 0)) == -1 ||
	    bind(dgram, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		rt_fatal("bind %s", sun.sun_path);
	for (p = 0; p < NPARTS; p++) {
		memset(&a, 0, sizeof(a));
		a.part = p;
		reset();
		if (!effect(&a, dgram)) {
			rt_na("untamed, %s: no effect (not on this kernel or "
			    "file system)", what[p]);
			continue;
		}
		reset();
		a.tamed = 1;
		a.made[0] = '\0';
		if (effect(&a, dgram))
			rt_escaped("unveil(\"visible\", \"rwc\") alone: %s",
			    what[p]);
		else
			rt_held("unveil alone: not so: %s", what[p]);
	}
	return rt_finish();
}
