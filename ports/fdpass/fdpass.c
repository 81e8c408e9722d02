/* SPDX-License-Identifier: ISC */
/*
 * fdpass: pass open files over a UNIX-domain socket.
 *
 *	tame-fdpass send socket file ...
 *	tame-fdpass recv socket
 *
 * send opens each file for reading, connects to the stream socket bound
 * at the path socket and sends each descriptor with SCM_RIGHTS, one
 * message a file, whose data is the file's name as given and a NUL.  A
 * file that cannot be opened is reported and skipped.
 *
 * recv binds and listens at the path socket (which must not exist yet),
 * accepts one connection, removes the path, and for each descriptor it
 * receives writes the file's name, a newline, and then the file's
 * contents, read through that descriptor, to the standard output.  A
 * name that arrives without its descriptor is reported.  Names and
 * descriptors are paired in the order they arrive, so the stream may
 * split or join the messages.
 *
 * Acquire, restrict, work.  send opens all its files first, then keeps
 * descriptor I/O and descriptor passing (TAME_STDIO | TAME_CMSG; cmsg
 * implies TAME_UNIX, which the socket and its connect(2) need): a
 * connect to a socket's path needs no path flag, and passing the
 * descriptors keeps TAME_UNIX to the end, so there is nothing left to
 * narrow.  recv binds and listens before taming, since binding creates
 * the path; then it keeps descriptor passing and removing names
 * (TAME_STDIO | TAME_CPATH | TAME_CMSG) until it has accepted the
 * connection and removed the path, and then descriptor passing alone
 * (TAME_STDIO | TAME_CMSG).  Without TAME_CMSG the descriptors sent to
 * it would be closed as they arrive.  Built with -DTAME_TEST_HOOK and
 * run with TAME_TEST_HOOK=1, either mode tries to open /etc/hostname
 * right after its last tame(), which needs TAME_RPATH, for the tests.
 *
 * Exit status 0, 1 if a file could not be opened or sent, a name came
 * without a descriptor, or on any other error; usage errors 1.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#define BUFSIZE	(64 * 1024)
#define MAXFDS	16	/* per message: more than we ever send */

static char	 buf[BUFSIZE];
static int	 rval;

static void	 do_send(const char *, int, char **);
static void	 do_recv(const char *);
static void	 sockaddr_path(struct sockaddr_un *, const char *);
static void	 send_fd(int, int, const char *);
static void	 recv_all(int);
static void	 deliver(const char *, int);
static void	 narrow(void);
static int	 writeall(int, const char *, size_t);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	if (getopt(argc, argv, "") != -1)
		usage();
	argc -= optind;
	argv += optind;

	if (argc >= 3 && strcmp(argv[0], "send") == 0)
		do_send(argv[1], argc - 2, argv + 2);
	else if (argc == 2 && strcmp(argv[0], "recv") == 0)
		do_recv(argv[1]);
	else
		usage();
	return rval;
}

static void
do_send(const char *path, int nfiles, char **files)
{
	struct sockaddr_un sun;
	int *fds, i, s;

	sockaddr_path(&sun, path);
	if ((fds = calloc(nfiles, sizeof(*fds))) == NULL)
		err(1, NULL);
	for (i = 0; i < nfiles; i++)
		if ((fds[i] = open(files[i], O_RDONLY | O_CLOEXEC)) == -1) {
			warn("%s", files[i]);
			rval = 1;
		}
	narrow();

	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		err(1, "socket");
	if (connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "connect %s", path);
	for (i = 0; i < nfiles; i++) {
		if (fds[i] == -1)
			continue;
		send_fd(s, fds[i], files[i]);
		close(fds[i]);
	}
	if (close(s) == -1)
		err(1, "close");
	free(fds);
}

static void
do_recv(const char *path)
{
	struct sockaddr_un sun;
	int s, c;

	sockaddr_path(&sun, path);
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		err(1, "socket");
	if (bind(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "bind %s", path);
	if (listen(s, 1) == -1)
		err(1, "listen");
#ifndef NO_TAME
	/* accept (unix, which cmsg implies), then remove the path */
	if (tame(TAME_STDIO | TAME_CPATH | TAME_CMSG) == -1)
		err(1, "tame");
#endif
	while ((c = accept4(s, NULL, NULL, SOCK_CLOEXEC)) == -1)
		if (errno != EINTR && errno != ECONNABORTED)
			err(1, "accept");
	close(s);
	/* the one peer is here: nobody else needs the name */
	if (unlink(path) == -1)
		err(1, "unlink %s", path);
	narrow();
	recv_all(c);
	close(c);
	if (close(STDOUT_FILENO) == -1)
		err(1, "stdout");
}

static void
sockaddr_path(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun->sun_path))
		errx(1, "%s: socket path too long", path);
	strcpy(sun->sun_path, path);
}

/* One message: the name and its NUL as data, the descriptor beside. */
static void
send_fd(int s, int fd, const char *name)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} cmsgbuf;
	struct msghdr msg;
	struct cmsghdr *cmsg;
	struct iovec iov;
	size_t len = strlen(name) + 1;
	ssize_t n;

	memset(&msg, 0, sizeof(msg));
	memset(&cmsgbuf, 0, sizeof(cmsgbuf));
	iov.iov_base = (char *)name;
	iov.iov_len = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));

	while ((n = sendmsg(s, &msg, 0)) == -1 && errno == EINTR)
		;
	if (n == -1)
		err(1, "sendmsg %s", name);
	/* the descriptor went with the first byte; the rest is data */
	if ((size_t)n < len && writeall(s, name + n, len - n) == -1)
		err(1, "send %s", name);
}

/*
 * Read the stream: names end in NUL, descriptors queue up as they come.
 * Each descriptor travels with the first byte of its name, so when a
 * name is complete its descriptor, if it was let through, is queued.
 */
static void
recv_all(int c)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(MAXFDS * sizeof(int))];
	} cmsgbuf;
	static char name[PATH_MAX + 1];
	struct msghdr msg;
	struct cmsghdr *cmsg;
	struct iovec iov;
	int *queue = NULL, nq = 0, head = 0, truncated = 0, nfd, i;
	size_t namelen = 0;
	ssize_t n, k;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		iov.iov_base = buf;
		iov.iov_len = sizeof(buf);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cmsgbuf.buf;
		msg.msg_controllen = sizeof(cmsgbuf.buf);
		if ((n = recvmsg(c, &msg, MSG_CMSG_CLOEXEC)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "recvmsg");
		}
		if ((msg.msg_flags & MSG_CTRUNC) && !truncated) {
			warnx("descriptors were discarded on the way in");
			truncated = 1;
		}
		for (cmsg = CMSG_FIRSTHDR(&msg); cmsg != NULL;
		    cmsg = CMSG_NXTHDR(&msg, cmsg)) {
			if (cmsg->cmsg_level != SOL_SOCKET ||
			    cmsg->cmsg_type != SCM_RIGHTS)
				continue;
			nfd = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			if ((queue = reallocarray(queue, nq + nfd,
			    sizeof(*queue))) == NULL)
				err(1, NULL);
			memcpy(queue + nq, CMSG_DATA(cmsg),
			    nfd * sizeof(int));
			nq += nfd;
		}
		if (n == 0)
			break;
		for (k = 0; k < n; k++) {
			if (buf[k] != '\0') {
				if (namelen == sizeof(name) - 1)
					errx(1, "a name longer than %d bytes",
					    PATH_MAX);
				name[namelen++] = buf[k];
				continue;
			}
			name[namelen] = '\0';
			namelen = 0;
			if (head < nq)
				deliver(name, queue[head++]);
			else {
				warnx("%s: no descriptor came with it", name);
				rval = 1;
			}
		}
	}
	if (namelen > 0) {
		warnx("the sender stopped in the middle of a name");
		rval = 1;
	}
	for (i = head; i < nq; i++) {
		warnx("a descriptor came without a name");
		close(queue[i]);
		rval = 1;
	}
	free(queue);
}

/* The name, a newline, and what the descriptor reads. */
static void
deliver(const char *name, int fd)
{
	ssize_t n;

	if (writeall(STDOUT_FILENO, name, strlen(name)) == -1 ||
	    writeall(STDOUT_FILENO, "\n", 1) == -1)
		err(1, "stdout");
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			warn("%s", name);
			rval = 1;
			break;
		}
		if (writeall(STDOUT_FILENO, buf, n) == -1)
			err(1, "stdout");
	}
	close(fd);
}

/*
 * The last tame of either mode: passing descriptors on the one socket
 * (cmsg implies unix, which the sender still needs to connect).
 */
static void
narrow(void)
{
#ifndef NO_TAME
	if (tame(TAME_STDIO | TAME_CMSG) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	/* for the tests: a descriptor passer opens no files of its own */
	if (getenv("TAME_TEST_HOOK") != NULL)
		open("/etc/hostname", O_RDONLY);
#endif
#endif
}

static int
writeall(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s send socket file ...\n"
	    "       %s recv socket\n",
	    program_invocation_short_name, program_invocation_short_name);
	exit(1);
}
