/* SPDX-License-Identifier: ISC */
/*
 * echo: a TCP echo server and its client, in one program.
 *
 *	tame-echo -l [-4 | -6] [-n count] port
 *	tame-echo [-4 | -6] host port
 *
 * With -l it listens on the loopback address, 127.0.0.1 (or ::1 with
 * -6), and serves count connections (default 1) one after the other,
 * sending every byte it reads back to the peer until the peer closes.
 * Port 0 lets the kernel pick a free port, which is reported on the
 * standard error as "listening on PORT" before anything is served.
 *
 * Without -l it connects to host and port, copies its standard input to
 * the connection (shutting the writing side down at end of file) and
 * the connection to its standard output, until the peer closes.  host
 * and port must be numeric (an IPv4 or IPv6 address and a port number):
 * names are never resolved, so the client needs no name service at all.
 * -4 and -6 restrict the client to that family.
 *
 * Acquire, restrict, work.  The server opens, binds and listens on its
 * socket before taming, then keeps descriptor I/O and the internet
 * sockets it needs to accept connections (TAME_STDIO | TAME_INET); once
 * it has accepted its last connection it closes the listening socket
 * and keeps descriptor I/O alone (TAME_STDIO).  The client resolves the
 * numeric address and connects untamed, then keeps descriptor I/O alone
 * (TAME_STDIO): what the peer sends can reach nothing else.  Built with
 * -DTAME_TEST_HOOK and run with TAME_TEST_HOOK=1, either mode tries to
 * open an internet socket right after its last tame(), which TAME_STDIO
 * forbids, for the tests.
 *
 * Exit status 0, or 1 on any error (usage, refused connection, I/O;
 * the server serves its other connections after one fails).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#define BUFSIZE	(64 * 1024)
/* a read will not block: data, end of file, or an error to report */
#define READY	(POLLIN | POLLHUP | POLLERR | POLLNVAL)

static char	 buf[BUFSIZE];
static int	 rval;

static void	 server(int, const char *, long);
static void	 client(int, const char *, const char *);
static int	 listen_loopback(int, const char *);
static int	 connect_numeric(int, const char *, const char *);
static void	 echo_conn(int);
static void	 copy_loop(int);
static void	 narrow(void);
static int	 writeall(int, const char *, size_t);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	int ch, family = AF_UNSPEC, lflag = 0, nflag = 0;
	long count = 1;
	char *end;

	while ((ch = getopt(argc, argv, "46ln:")) != -1) {
		switch (ch) {
		case '4':
			family = AF_INET;
			break;
		case '6':
			family = AF_INET6;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'n':
			nflag = 1;
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    count < 1 || count > INT_MAX)
				errx(1, "invalid count \"%s\"", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	/* a peer that goes away must give EPIPE, not kill us */
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		err(1, "signal");
	if (lflag) {
		if (argc != 1)
			usage();
		server(family == AF_INET6 ? AF_INET6 : AF_INET, argv[0],
		    count);
	} else {
		if (argc != 2 || nflag)
			usage();
		client(family, argv[0], argv[1]);
	}
	return rval;
}

static void
server(int family, const char *port, long count)
{
	long i;
	int s, c;

	s = listen_loopback(family, port);
#ifndef NO_TAME
	/* accept(2) is all that is left of the network */
	if (tame(TAME_STDIO | TAME_INET) == -1)
		err(1, "tame");
#endif
	for (i = 1; i <= count; i++) {
		while ((c = accept4(s, NULL, NULL, SOCK_CLOEXEC)) == -1)
			if (errno != EINTR && errno != ECONNABORTED)
				err(1, "accept");
		if (i == count) {
			/* the last connection: no more sockets */
			close(s);
			narrow();
		}
		echo_conn(c);
		close(c);
	}
}

static void
client(int family, const char *host, const char *port)
{
	int s;

	s = connect_numeric(family, host, port);
	narrow();
	copy_loop(s);
	close(s);
	if (close(STDOUT_FILENO) == -1)
		err(1, "stdout");
}

/* Bind and listen on the loopback address of family; say which port. */
static int
listen_loopback(int family, const char *port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	long p;
	char *end;
	int s, on = 1;

	errno = 0;
	p = strtol(port, &end, 10);
	if (*port == '\0' || *end != '\0' || errno != 0 || p < 0 ||
	    p > 65535)
		errx(1, "invalid port \"%s\"", port);
	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET6) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_loopback;
		sin6->sin6_port = htons(p);
		len = sizeof(*sin6);
	} else {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sin->sin_port = htons(p);
		len = sizeof(*sin);
	}
	if ((s = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		err(1, "socket");
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == -1)
		err(1, "setsockopt");
	if (bind(s, (struct sockaddr *)&ss, len) == -1)
		err(1, "bind %s port %s",
		    family == AF_INET6 ? "::1" : "127.0.0.1", port);
	if (listen(s, 5) == -1)
		err(1, "listen");
	if (p == 0) {
		/* the kernel picked: the caller must learn which */
		if (getsockname(s, (struct sockaddr *)&ss, &len) == -1)
			err(1, "getsockname");
		fprintf(stderr, "listening on %u\n", family == AF_INET6 ?
		    ntohs(sin6->sin6_port) : ntohs(sin->sin_port));
	}
	return s;
}

/* Connect to the first address of host and port that accepts. */
static int
connect_numeric(int family, const char *host, const char *port)
{
	struct addrinfo hints, *res, *ai;
	int s = -1, error, saved = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	/* numbers only: no name service is ever asked */
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	if ((error = getaddrinfo(host, port, &hints, &res)) == EAI_NONAME)
		errx(1, "%s port %s: not a numeric address and port "
		    "(names are not resolved)", host, port);
	if (error != 0)
		errx(1, "%s port %s: %s", host, port, gai_strerror(error));
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (s == -1) {
			saved = errno;
			continue;
		}
		if (connect(s, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		saved = errno;
		close(s);
		s = -1;
	}
	freeaddrinfo(res);
	if (s == -1) {
		errno = saved;
		err(1, "connect to %s port %s", host, port);
	}
	return s;
}

/* Send back what the peer sends, until it closes. */
static void
echo_conn(int c)
{
	ssize_t n;

	while ((n = read(c, buf, sizeof(buf))) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			warn("read");
			rval = 1;
			return;
		}
		if (writeall(c, buf, n) == -1) {
			/* the peer left: serve the next one */
			warn("write");
			rval = 1;
			return;
		}
	}
}

/*
 * Standard input to the socket and the socket to standard output at
 * once: the peer echoes while we send, so sending everything first
 * could fill both directions and deadlock.  The socket is non-blocking
 * and written only as far as poll(2) says it can take.
 */
static void
copy_loop(int s)
{
	static char out[BUFSIZE];
	struct pollfd pfd[2];
	size_t off = 0, len = 0;
	ssize_t n;
	int fl, in_eof = 0, shut = 0;

	if ((fl = fcntl(s, F_GETFL)) == -1 ||
	    fcntl(s, F_SETFL, fl | O_NONBLOCK) == -1)
		err(1, "fcntl");
	for (;;) {
		if (in_eof && len == 0 && !shut) {
			if (shutdown(s, SHUT_WR) == -1)
				err(1, "shutdown");
			shut = 1;
		}
		pfd[0].fd = in_eof || len > 0 ? -1 : STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = s;
		pfd[1].events = POLLIN | (len > 0 ? POLLOUT : 0);
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (pfd[1].revents & READY) {
			n = read(s, buf, sizeof(buf));
			if (n == 0)
				return;		/* the peer is done */
			if (n == -1 && errno != EINTR && errno != EAGAIN)
				err(1, "read");
			if (n > 0 && writeall(STDOUT_FILENO, buf, n) == -1)
				err(1, "stdout");
		}
		if (len > 0 && (pfd[1].revents & POLLOUT)) {
			n = write(s, out + off, len);
			if (n == -1 && errno != EINTR && errno != EAGAIN)
				err(1, "write");
			if (n > 0) {
				off += n;
				len -= n;
			}
		}
		if (pfd[0].revents & READY) {
			n = read(STDIN_FILENO, out, sizeof(out));
			if (n == -1 && errno != EINTR)
				err(1, "stdin");
			if (n == 0)
				in_eof = 1;
			if (n > 0) {
				off = 0;
				len = n;
			}
		}
	}
}

/* The last tame: only I/O on the connected socket and stdio remains. */
static void
narrow(void)
{
#ifndef NO_TAME
	if (tame(TAME_STDIO) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	/* for the tests: a connection must not lead to another one */
	if (getenv("TAME_TEST_HOOK") != NULL)
		socket(AF_INET, SOCK_STREAM, 0);
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
	fprintf(stderr, "usage: %s -l [-4 | -6] [-n count] port\n"
	    "       %s [-4 | -6] host port\n",
	    program_invocation_short_name, program_invocation_short_name);
	exit(1);
}
