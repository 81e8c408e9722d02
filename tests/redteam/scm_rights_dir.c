/* SPDX-License-Identifier: ISC */
/*
 * scm_rights_dir.c: a directory descriptor received in SCM_RIGHTS (issue
 * 46, point 6).
 *
 * OpenBSD refuses directory descriptors in SCM_RIGHTS under pledge, even
 * with sendfd and recvfd: a directory descriptor reaches past unveil,
 * since paths relative to it begin where unveil never looked.  The
 * child, with only visible/ unveiled and recvfd, gets from its parent a
 * descriptor of hidden/ and opens hidden/secret relative to it, reads
 * it and tells the parent, which compares the bytes; failing that, it
 * links (then renames) hidden/secret into visible/ through the
 * descriptor and reads the copy.  Landlock, which checks the file
 * opened and not the path written, may refuse all of these anyway:
 * what matters is whether the secret came out, and the case says
 * whether the directory itself arrived.  Last it changes the secret's
 * mode through the descriptor (fchmodat, which Landlock does not judge:
 * under unveil's lock the supervisor must), which the parent sees.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	const char	*promises;	/* NULL: the control */
	int		 sock, peer;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	char cbuf[CMSG_SPACE(sizeof(int))], b[8], buf[4096];
	struct iovec iov = { b, sizeof(b) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	struct stat st;
	int dfd = -1, fd;
	ssize_t n;

	close(a->peer);
	if (a->promises != NULL)
		rt_hide(a->promises);
	if (recvmsg(a->sock, &m, 0) <= 0)
		return 1;
	for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_type == SCM_RIGHTS)
			memcpy(&dfd, CMSG_DATA(c), sizeof(int));
	if (dfd == -1)
		return 2;
	rt_sh->where = fstat(dfd, &st) == 0 && S_ISDIR(st.st_mode);
	(void)fchmodat(dfd, "secret", 0666, 0);
	if ((fd = openat(dfd, "secret", O_RDONLY)) == -1 &&
	    linkat(dfd, "secret", AT_FDCWD, rt_path("visible/linked"), 0) ==
	    0)
		fd = open(rt_path("visible/linked"), O_RDONLY);
	if (fd == -1 && renameat(dfd, "secret", AT_FDCWD,
	    rt_path("visible/moved")) == 0)
		fd = open(rt_path("visible/moved"), O_RDONLY);
	if (fd == -1)
		return 3;
	if ((n = read(fd, buf, sizeof(buf))) > 0)
		rt_tell(buf, (size_t)n);
	return 0;
}

/*
 * 2: the secret was read, or its mode changed; 1: only the directory
 * arrived; 0: nothing
 */
static int
try(struct attempt *a, const struct rt_secret *s, int dir)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, buf[4096];
	struct iovec iov = { "d", 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	struct rt_kid k;
	struct stat st;
	int sp[2], chmodded;
	size_t n;

	if (chmod(rt_path("hidden/secret"), 0600) == -1)
		rt_fatal("chmod");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1)
		rt_fatal("socketpair");
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &dir, sizeof(int));
	a->sock = sp[1];
	a->peer = sp[0];
	rt_spawn(&k, attack, a);
	close(sp[1]);
	sendmsg(sp[0], &m, MSG_NOSIGNAL);
	n = rt_listen(&k, buf, sizeof(buf));
	close(sp[0]);
	rt_reap(&k);
	rt_check(k.status);
	if (stat(rt_path("hidden/secret"), &st) == -1)
		rt_fatal("stat");
	chmodded = (st.st_mode & 07777) != 0600;
	return rt_secret_in(s, buf, n) || chmodded ? 2 : rt_sh->where ? 1 : 0;
}

int
main(int argc, char **argv)
{
	/* (with exec, pledge after unveil fails: pledge_half_applied.c) */
	static const char *const promises[] = {
	    "stdio rpath cpath fattr recvfd" };
	struct rt_secret s;
	struct attempt a = { 0 };
	size_t i;
	int dir, r;

	rt_init(argc, argv);
	rt_two_dirs();
	rt_secret(&s, rt_path("hidden/secret"));
	if ((dir = open(rt_path("hidden"), O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		rt_fatal("hidden");
	if (try(&a, &s, dir) != 2) {
		rt_na("untamed, the directory descriptor was not usable");
		return rt_finish();
	}
	for (i = 0; i < sizeof(promises) / sizeof(promises[0]); i++) {
		a.promises = promises[i];
		if ((r = try(&a, &s, dir)) == 2)
			rt_escaped("%s: received a descriptor of hidden/ and "
			    "read or chmodded hidden/secret relative to it",
			    rt_hide_label(a.promises));
		else
			rt_held("%s: %s", rt_hide_label(a.promises), r == 1 ?
			    "a descriptor of hidden/ arrived (OpenBSD refuses "
			    "it), but no file opened through it was read" :
			    "no directory descriptor arrived");
	}
	return rt_finish();
}
