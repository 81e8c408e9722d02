/* SPDX-License-Identifier: ISC */
/*
 * gate_sendfd.c: SCM_RIGHTS sent without sendfd, through a "syscall;
 * ret" found in the process (issue 46, the gate, with a layer).
 *
 * seccomp cannot read a msghdr, so libtame traps sendmsg and its handler
 * checks the message before making the call itself, through the one
 * instruction the filter lets pass.  A single-threaded pledge("stdio")
 * has a Landlock layer, but Landlock knows nothing of descriptors: a
 * jump to that instruction with sendmsg's registers sends any
 * descriptor the process holds.  The parent, at the other end of a
 * socket pair, checks whether a descriptor of the file arrived.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	uint64_t	 gadget;
	int		 sock;		/* the child's end */
	int		 fd;		/* what it sends */
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { "x", 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	struct rt_regs r = { SYS_sendmsg, { a->sock, (long)&m, 0 } };

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &a->fd, sizeof(int));
	if (a->tamed)
		rt_pledge("stdio", NULL);
	rt_sh->ret = rt_jump(a->gadget, &r);
	return 0;
}

/* Did a descriptor of the file come in on s? */
static int
arrived(int s, const struct stat *want)
{
	char cbuf[CMSG_SPACE(4 * sizeof(int))], b[8];
	struct iovec iov = { b, sizeof(b) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	struct stat st;
	int fd, got = 0;

	while (recvmsg(s, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) > 0) {
		for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_type != SCM_RIGHTS)
				continue;
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
			if (fstat(fd, &st) == 0 && st.st_ino == want->st_ino &&
			    st.st_dev == want->st_dev)
				got = 1;
			close(fd);
		}
		m.msg_controllen = sizeof(cbuf);
	}
	return got;
}

static int
try(struct attempt *a, const struct stat *want)
{
	struct rt_kid k;
	int sp[2], got;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sp) == -1)
		rt_fatal("socketpair");
	a->sock = sp[1];
	rt_spawn(&k, attack, a);
	close(sp[1]);
	rt_reap(&k);
	got = arrived(sp[0], want);
	close(sp[0]);
	return got;
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct attempt a = { 0 };
	struct stat want;
	int n, i;

	rt_init(argc, argv);
	if ((a.fd = open(rt_path("sent"), O_RDWR | O_CREAT, 0600)) == -1 ||
	    fstat(a.fd, &want) == -1)
		rt_fatal("%s", rt_path("sent"));
	if ((n = rt_gadgets(g, RT_MAXGADGETS)) == 0) {
		rt_na("no \"syscall; ret\" in this process's code");
		return rt_finish();
	}
	a.gadget = g[0].addr;
	if (!try(&a, &want)) {
		rt_na("untamed, sendmsg through a \"syscall; ret\" sent no "
		    "descriptor");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < n; i++) {
		a.gadget = g[i].addr;
		if (try(&a, &want)) {
			rt_escaped("pledge(\"stdio\"): sendmsg through the "
			    "\"syscall; ret\" at %s passed a descriptor "
			    "(SCM_RIGHTS) without sendfd", g[i].where);
			return rt_finish();
		}
	}
	rt_held("pledge(\"stdio\"): none of %d \"syscall; ret\" passed a "
	    "descriptor", n);
	return rt_finish();
}
