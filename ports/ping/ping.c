/* SPDX-License-Identifier: ISC */
/*
 * ping: send ICMP ECHO_REQUEST packets to a host and report the replies.
 *
 *	ping [-46nq] [-c count] [-i interval] [-s packetsize]
 *	    [-W timeout] [-w deadline] destination
 *
 * The showcase of the 2015 tame article: ping gets the net and loses the
 * file system.  Acquire, restrict, work: the destination is resolved
 * (and, for a name, its address looked up in reverse once, since no
 * name service is left later) and the ICMP socket opened while the
 * process holds everything: an ICMP datagram socket where the group
 * range of net.ipv4.ping_group_range lets us have one, else a raw
 * socket (root).  Raw sockets cannot be created after tame(), and the
 * ICMP-level type filter of a raw socket is an option no flag allows,
 * so both happen first.  Then tame(TAME_STDIO | TAME_INET): no file can
 * be opened from here on, only the socket configured (IP-level options
 * for the TTL, connect() to the destination).  A connected socket needs
 * nothing more than descriptor I/O (send without an address, recvmsg,
 * ppoll), so the last step is tame(TAME_STDIO) before the first packet
 * leaves.  Built with -DNO_TAME it is the untamed baseline; with
 * -DTAME_TEST_HOOK and TAME_TEST_HOOK=1 it tries to read /etc/hosts
 * after its last tame(), for the tests.
 *
 * Output and exit status follow iputils ping: 0 if a reply came (and,
 * with -w and -c, count replies), 1 if none, 2 on other errors.
 * -c stop after count packets (with -w: after count replies), -i seconds
 * between packets (fractions allowed; 0, root only, sends the next one
 * when the reply is in or after 10 ms), -W seconds to wait for a reply
 * once all are sent when none came (0: forever), -w seconds before
 * exiting regardless, -s data bytes (default 56), -q only the summary,
 * -n no reverse lookup, -4 and -6 choose the address family.
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/icmp6.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <arpa/inet.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#ifndef ICMP_FILTER
#define ICMP_FILTER	1	/* <linux/icmp.h>, which <netinet/ip_icmp.h> */
#endif				/* would clash with */

#define DEFDATALEN	56
#define MAXDATALEN4	(65535 - 20 - 8)	/* IPv4 and ICMP headers */
#define MAXDATALEN6	(65535 - 8)		/* payload length: ICMPv6 only */
#define FASTWAIT	10000		/* -i 0: next echo after 10 ms anyway */
#define MINLINGER	10000		/* at least 10 ms for the last reply */

static struct sockaddr_storage dst;
static socklen_t dstlen;
static int	 family, sock, rawsock, quiet, numeric, timing, caught_up;
static long	 npackets, datalen = DEFDATALEN;
static int64_t	 interval = 1000000, linger = 10000000, deadline;
static char	 hostname[NI_MAXHOST], dstaddr[INET6_ADDRSTRLEN];
static char	 fromname[NI_MAXHOST + INET6_ADDRSTRLEN + 4];
static uint16_t	 ident;
static unsigned char *outpack, *inpack, seen[65536 / 8];
static size_t	 inlen;
static long	 ntransmitted, nreceived, nrepeats, nerrors;
static int64_t	 start, lastsend, lastevent, tmin = INT64_MAX, tmax, tsum;
static int64_t	 ewma8;
static long double tsum2;
static volatile sig_atomic_t interrupted;

static void	 resolve(const char *);
static void	 open_socket(void);
static void	 narrow(int);
static void	 configure(void);
static void	 pinger(void);
static int	 may_send(void);
static void	 send_echo(void);
static int	 receive(void);
static void	 finish(void) __attribute__((noreturn));
static void	 print_ms(const char *, int64_t);
static uint16_t	 cksum(const void *, size_t);
static int64_t	 now_us(void);
static int64_t	 seconds(const char *, double, double);
static long	 number(const char *, long, long);
static void	 onsigint(int);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	struct sigaction sa;
	int ch;

	while ((ch = getopt(argc, argv, "46c:i:nqs:W:w:")) != -1) {
		switch (ch) {
		case '4':
		case '6':
			if (family != 0)
				errx(2, "only one -4 or -6 option may be "
				    "specified");
			family = ch == '4' ? AF_INET : AF_INET6;
			break;
		case 'c':
			npackets = number(optarg, 1, LONG_MAX);
			break;
		case 'i':
			interval = seconds(optarg, 0, 1e7);
			break;
		case 'n':
			numeric = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 's':
			datalen = number(optarg, 0, MAXDATALEN6);
			break;
		case 'W':
			linger = seconds(optarg, 0, 1e7);
			break;
		case 'w':
			deadline = seconds(optarg, 0, 1e7);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		errx(1, "usage error: Destination address required");
	if (argc > 1)
		usage();
	resolve(argv[0]);
	open_socket();
	narrow(1);
	configure();
	narrow(0);

	if (setvbuf(stdout, NULL, _IOLBF, 0) != 0)
		err(2, "stdout");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsigint;
	sigaction(SIGINT, &sa, NULL);
	if (family == AF_INET)
		printf("PING %s (%s) %ld(%ld) bytes of data.\n", hostname,
		    dstaddr, datalen, datalen + 8 + 20);
	else
		printf("PING %s(%s) %ld data bytes\n", hostname, fromname,
		    datalen);
	fflush(stdout);
	/* as iputils, after its first line: a flood is for root only */
	if (interval < 2000 && geteuid() != 0)
		errx(2, "cannot flood; minimal interval allowed for user "
		    "is 2ms");
	pinger();
	finish();
}

/*
 * Everything that needs the name service, done while we still have it:
 * the address, the name to print, and the name replies come from.
 */
static void
resolve(const char *target)
{
	struct addrinfo hints, *res;
	unsigned char any[sizeof(struct in6_addr)];
	char rev[NI_MAXHOST];
	int error;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = AI_CANONNAME;
	if ((error = getaddrinfo(target, NULL, &hints, &res)) != 0)
		errx(2, "%s: %s", target, gai_strerror(error));
	family = res->ai_family;
	memcpy(&dst, res->ai_addr, res->ai_addrlen);
	dstlen = res->ai_addrlen;
	snprintf(hostname, sizeof(hostname), "%s",
	    res->ai_canonname != NULL ? res->ai_canonname : target);
	freeaddrinfo(res);
	if (getnameinfo((struct sockaddr *)&dst, dstlen, dstaddr,
	    sizeof(dstaddr), NULL, 0, NI_NUMERICHOST) != 0)
		errx(2, "%s: cannot print its address", target);
	if (family == AF_INET && datalen > MAXDATALEN4)
		errx(1, "invalid argument: '%ld': out of range: 0 <= value "
		    "<= %d", datalen, MAXDATALEN4);

	/* an address given as such is printed as such, as iputils does */
	if (numeric || inet_pton(family, target, any) == 1 ||
	    getnameinfo((struct sockaddr *)&dst, dstlen, rev, sizeof(rev),
	    NULL, 0, NI_NAMEREQD) != 0)
		snprintf(fromname, sizeof(fromname), "%s", dstaddr);
	else
		snprintf(fromname, sizeof(fromname), "%s (%s)", rev,
		    dstaddr);
}

/*
 * A datagram ICMP socket if ping_group_range lets our group have one,
 * else a raw one.  On a raw socket the kernel passes every ICMP message
 * to us, so it filters them down to echo replies here: the ICMP-level
 * options are ones no flag allows after tame().
 */
static void
open_socket(void)
{
	int proto = family == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6;

	if ((sock = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, proto)) != -1)
		return;
	if ((sock = socket(family, SOCK_RAW | SOCK_CLOEXEC, proto)) == -1)
		err(2, "socket");
	rawsock = 1;
	ident = getpid() & 0xffff;
	if (family == AF_INET) {
		uint32_t filt = ~(1U << ICMP_ECHOREPLY);

		if (setsockopt(sock, SOL_RAW, ICMP_FILTER, &filt,
		    sizeof(filt)) == -1)
			warn("ICMP_FILTER");	/* the checks below suffice */
	} else {
		struct icmp6_filter filt6;

		ICMP6_FILTER_SETBLOCKALL(&filt6);
		ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &filt6);
		if (setsockopt(sock, IPPROTO_ICMPV6, ICMP6_FILTER, &filt6,
		    sizeof(filt6)) == -1)
			warn("ICMP6_FILTER");
	}
}

/* The net while the socket is configured, then descriptor I/O alone. */
static void
narrow(int configuring)
{
#ifndef NO_TAME
	if (tame(configuring ? TAME_STDIO | TAME_INET : TAME_STDIO) == -1)
		err(2, "tame");
#ifdef TAME_TEST_HOOK
	/* for the tests: the showcase ping must never reach a file */
	if (!configuring && getenv("TAME_TEST_HOOK") != NULL)
		open("/etc/hosts", O_RDONLY);
#endif
#else
	(void)configuring;
#endif
}

/*
 * Ask for the TTL (hop limit) of each reply, and connect: the kernel
 * then only passes us what the destination sends, and sending needs no
 * address, which descriptor I/O alone allows.
 */
static void
configure(void)
{
	int on = 1;

	if (family == AF_INET) {
		if (setsockopt(sock, IPPROTO_IP, IP_RECVTTL, &on,
		    sizeof(on)) == -1)
			err(2, "IP_RECVTTL");
	} else if (setsockopt(sock, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, &on,
	    sizeof(on)) == -1)
		err(2, "IPV6_RECVHOPLIMIT");
	if (connect(sock, (struct sockaddr *)&dst, dstlen) == -1)
		err(2, "connect");
}

static int
may_send(void)
{
	if (npackets == 0)
		return 1;
	/* with a deadline, count is the replies to wait for */
	return deadline ? nreceived < npackets : ntransmitted < npackets;
}

/*
 * Send on the interval, read replies as they come, and stop at the
 * count, the deadline, an interrupt, or when the last reply is overdue:
 * twice the longest round trip once any reply came, else -W.
 */
static void
pinger(void)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	struct timespec ts;
	int64_t now, next, until, wait;

	/* a raw IPv4 socket hands us the IP header, options and all */
	inlen = 60 + 8 + datalen;
	if ((outpack = calloc(1, 8 + datalen)) == NULL ||
	    (inpack = malloc(inlen)) == NULL)
		err(2, NULL);
	/* room for the time it was sent, or no round trip times */
	timing = datalen >= (long)sizeof(struct timespec);

	start = next = now_us();
	for (;;) {
		now = now_us();
		if (interrupted || (deadline && now >= start + deadline) ||
		    (npackets && nreceived + nerrors >= npackets))
			break;
		if (may_send() && now >= next) {
			send_echo();
			next = now + (interval ? interval : FASTWAIT);
		}
		until = INT64_MAX;
		if (may_send())
			until = next;
		else if (!deadline && (nreceived || linger)) {
			wait = nreceived ? 2 * tmax : linger;
			until = lastsend + (wait < MINLINGER ? MINLINGER : wait);
			if (now >= until)
				break;
		}
		if (deadline && start + deadline < until)
			until = start + deadline;
		if (until != INT64_MAX) {
			ts.tv_sec = (until - now) / 1000000;
			ts.tv_nsec = (until - now) % 1000000 * 1000;
		}
		if (ppoll(&pfd, 1, until == INT64_MAX ? NULL : &ts,
		    NULL) == -1) {
			if (errno == EINTR)
				continue;
			err(2, "poll");
		}
		caught_up = 0;
		while (pfd.revents && receive() != 0)
			;
		/* -i 0: the reply to the last echo sends the next one */
		if (interval == 0 && caught_up)
			next = now_us();
	}
}

static void
send_echo(void)
{
	struct icmphdr *icp = (struct icmphdr *)outpack;
	struct timespec ts;
	uint16_t seq = ++ntransmitted & 0xffff;
	size_t i;

	memset(outpack, 0, 8);
	icp->type = family == AF_INET ? ICMP_ECHO : ICMP6_ECHO_REQUEST;
	icp->un.echo.id = htons(ident);	/* datagram: the kernel's own */
	icp->un.echo.sequence = htons(seq);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (i = 0; i < (size_t)datalen; i++)
		outpack[8 + i] = i;
	if (timing)
		memcpy(outpack + 8, &ts, sizeof(ts));
	/* the kernel sums ICMPv6 itself, and datagram ICMP too */
	if (family == AF_INET)
		icp->checksum = cksum(outpack, 8 + datalen);
	seen[seq / 8] &= ~(1 << seq % 8);
	lastsend = lastevent = now_us();
	if (send(sock, outpack, 8 + datalen, 0) == -1)
		warn("sendmsg");
}

/*
 * Read one waiting packet, if any, and report it.  Returns 1 after an
 * echo reply to us, -1 after anything else, 0 when nothing is waiting.
 */
static int
receive(void)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int)) * 2];
	} cbuf;
	struct iovec iov = { .iov_base = inpack, .iov_len = inlen };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = &cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	struct icmphdr *icp;
	struct timespec ts, sent;
	unsigned char *p = inpack;
	ssize_t n;
	int64_t rtt = -1;
	int ttl = -1, dup, reply;
	uint16_t seq;

	if ((n = recvmsg(sock, &msg, MSG_DONTWAIT)) == -1) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		/* an ICMP error the connected socket was told of */
		nerrors++;
		if (!quiet)
			printf("From %s: %s\n", fromname, strerror(errno));
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (rawsock && family == AF_INET) {
		size_t hl = n > 0 ? (p[0] & 0x0f) * 4 : 0;

		if ((size_t)n < hl + 8)
			return -1;
		p += hl;
		n -= hl;
	}
	if (n < 8)
		return -1;
	icp = (struct icmphdr *)p;
	reply = family == AF_INET ? ICMP_ECHOREPLY : ICMP6_ECHO_REPLY;
	if (icp->type != reply || (rawsock && ntohs(icp->un.echo.id) != ident))
		return -1;
	for (cm = CMSG_FIRSTHDR(&msg); cm != NULL; cm = CMSG_NXTHDR(&msg, cm))
		if ((cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_TTL) ||
		    (cm->cmsg_level == IPPROTO_IPV6 &&
		    cm->cmsg_type == IPV6_HOPLIMIT))
			memcpy(&ttl, CMSG_DATA(cm), sizeof(ttl));

	lastevent = now_us();
	seq = ntohs(icp->un.echo.sequence);
	if ((dup = seen[seq / 8] & (1 << seq % 8)))
		nrepeats++;
	else {
		seen[seq / 8] |= 1 << seq % 8;
		nreceived++;
	}
	if (seq == (ntransmitted & 0xffff))
		caught_up = 1;
	if (timing && n - 8 >= (ssize_t)sizeof(sent)) {
		memcpy(&sent, p + 8, sizeof(sent));
		rtt = (ts.tv_sec - sent.tv_sec) * 1000000 +
		    (ts.tv_nsec - sent.tv_nsec) / 1000;
		if (rtt < 0)
			rtt = 0;
		tsum += rtt;
		tsum2 += (long double)rtt * rtt;
		if (rtt < tmin)
			tmin = rtt;
		if (rtt > tmax)
			tmax = rtt;
		ewma8 = ewma8 == 0 ? rtt * 8 : ewma8 + rtt - ewma8 / 8;
	}
	if (quiet)
		return 1;
	printf("%zd bytes from %s: icmp_seq=%u", n, fromname, seq);
	if (ttl >= 0)
		printf(" ttl=%d", ttl);
	if (rtt >= 0)
		print_ms(" time=", rtt);
	printf("%s\n", dup ? " (DUP!)" : "");
	return 1;
}

/* Times as iputils prints them: three significant digits, in ms. */
static void
print_ms(const char *label, int64_t us)
{
	if (us >= 100000 - 50)
		printf("%s%lld ms", label, (long long)(us + 500) / 1000);
	else if (us >= 10000 - 5)
		printf("%s%lld.%01lld ms", label, (long long)(us + 50) / 1000,
		    (long long)(us + 50) % 1000 / 100);
	else if (us >= 1000)
		printf("%s%lld.%02lld ms", label, (long long)(us + 5) / 1000,
		    (long long)(us + 5) % 1000 / 10);
	else
		printf("%s0.%03lld ms", label, (long long)us);
}

static void
finish(void)
{
	int64_t total = (lastevent > start ? lastevent - start : 0);
	long n = nreceived + nrepeats;
	int64_t avg, mdev, var, x;

	printf("\n--- %s ping statistics ---\n", hostname);
	printf("%ld packets transmitted, %ld received", ntransmitted,
	    nreceived);
	if (nrepeats)
		printf(", +%ld duplicates", nrepeats);
	if (nerrors)
		printf(", +%ld errors", nerrors);
	if (ntransmitted)
		printf(", %g%% packet loss", (double)((ntransmitted -
		    nreceived) * 100.0 / ntransmitted));
	printf(", time %lldms\n", (long long)total / 1000);
	if (nreceived && timing) {
		avg = tsum / n;
		var = (int64_t)(tsum2 / n) - avg * avg;
		/* the integer square root: no libm in the ports */
		for (mdev = var > 0 ? var : 0, x = (mdev + 1) / 2; x < mdev;
		    x = (var / x + x) / 2)
			mdev = x;
		printf("rtt min/avg/max/mdev = %lld.%03lld/%lld.%03lld/"
		    "%lld.%03lld/%lld.%03lld ms", (long long)tmin / 1000,
		    (long long)tmin % 1000, (long long)avg / 1000,
		    (long long)avg % 1000, (long long)tmax / 1000,
		    (long long)tmax % 1000, (long long)mdev / 1000,
		    (long long)mdev % 1000);
		if (interval == 0 && ntransmitted > 1) {
			x = total / (ntransmitted - 1);
			printf(", ipg/ewma %lld.%03lld/%lld.%03lld ms",
			    (long long)x / 1000, (long long)x % 1000,
			    (long long)ewma8 / 8000,
			    (long long)ewma8 / 8 % 1000);
		}
	}
	printf("\n");
	if (fflush(stdout) == EOF)
		err(2, "stdout");
	exit(nreceived == 0 || (deadline && npackets &&
	    nreceived < npackets));
}

/* The Internet checksum of RFC 1071. */
static uint16_t
cksum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t sum = 0;

	for (; len > 1; p += 2, len -= 2)
		sum += p[0] << 8 | p[1];
	if (len)
		sum += p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum & 0xffff);
}

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Seconds, fractions allowed, as microseconds. */
static int64_t
seconds(const char *s, double min, double max)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !(d >= min) ||
	    d > max)
		errx(1, "invalid argument: '%s'", s);
	return (int64_t)(d * 1e6 + 0.5);
}

static long
number(const char *s, long min, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno == ERANGE)
		errx(1, "invalid argument: '%s'", s);
	if (n < min || n > max)
		errx(1, "invalid argument: '%s': out of range: %ld <= value "
		    "<= %ld", s, min, max);
	return n;
}

static void
onsigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-46nq] [-c count] [-i interval] "
	    "[-s packetsize]\n\t[-W timeout] [-w deadline] destination\n",
	    program_invocation_short_name);
	exit(2);
}
