/* SPDX-License-Identifier: ISC */
/*
 * host: look up the addresses of a host name.
 *
 *	tame-host [-4 | -6] name
 *
 * Prints one line for each address, in the order the resolver returns
 * them, as bind9's host(1) prints A and AAAA records:
 *
 *	localhost has address 127.0.0.1
 *	localhost has IPv6 address ::1
 *
 * -4 asks for IPv4 addresses only and -6 for IPv6 only (bind9's host
 * uses them to choose the transport to its name server instead; here
 * the system's resolver, getaddrinfo(3), chooses, and it also reads
 * /etc/hosts, which bind9's host never does).  There are no record
 * types but A and AAAA, and no aliases are shown.
 *
 * A name that does not exist is reported on the standard output, as
 * bind9's host does, as "Host NAME not found: 3(NXDOMAIN)"; a name with
 * no address of the family asked for as "NAME has no A record" (AAAA
 * with -6, "address" without either); a name server that cannot be
 * reached or fails as "Host NAME not found: 2(SERVFAIL)".  Each of
 * these exits 1 (bind9's host exits 0 for a name without the record).
 * Other errors are diagnosed on the standard error, with status 1, as
 * are usage errors.
 *
 * Acquire, restrict, work: nothing needs acquiring but the resolver, so
 * right after the options the program keeps descriptor I/O and the name
 * service (TAME_STDIO | TAME_DNSPATH: the resolver's files under /etc,
 * and client sockets to its name servers; tame() loads glibc's name
 * service modules first).  Once the answer is in it keeps descriptor
 * I/O alone (TAME_STDIO) to print it.  Built with -DTAME_TEST_HOOK and
 * run with TAME_TEST_HOOK=1, it tries to open /etc/hostname, a file the
 * resolver does not read, right after its last tame(), for the tests.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

static void	 print_addrs(const char *, const struct addrinfo *);
static int	 not_found(const char *, int, int);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	struct addrinfo hints, *res;
	int ch, error, family = AF_UNSPEC;

	while ((ch = getopt(argc, argv, "46")) != -1) {
		switch (ch) {
		case '4':
			family = AF_INET;
			break;
		case '6':
			family = AF_INET6;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();

#ifndef NO_TAME
	if (tame(TAME_STDIO | TAME_DNSPATH) == -1)
		err(1, "tame");
#endif
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	/* one socket type, or each address comes once per type */
	hints.ai_socktype = SOCK_STREAM;
	error = getaddrinfo(argv[0], NULL, &hints, &res);
#ifndef NO_TAME
	/* the answer is in: what is left is printing it */
	if (tame(TAME_STDIO) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	/* for the tests: the resolver is done, no file is left to read */
	if (getenv("TAME_TEST_HOOK") != NULL)
		open("/etc/hostname", O_RDONLY);
#endif
#endif
	if (error != 0)
		return not_found(argv[0], family, error);
	print_addrs(argv[0], res);
	freeaddrinfo(res);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}

static void
print_addrs(const char *name, const struct addrinfo *res)
{
	const struct addrinfo *ai;
	const void *addr;
	char buf[INET6_ADDRSTRLEN];

	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET)
			addr = &((struct sockaddr_in *)ai->ai_addr)->sin_addr;
		else if (ai->ai_family == AF_INET6)
			addr = &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
		else
			continue;
		if (inet_ntop(ai->ai_family, addr, buf, sizeof(buf)) == NULL)
			err(1, "inet_ntop");
		printf("%s has %saddress %s\n", name,
		    ai->ai_family == AF_INET6 ? "IPv6 " : "", buf);
	}
}

/* Say why there is no address, in bind9's words where it has them. */
static int
not_found(const char *name, int family, int error)
{
	switch (error) {
	case EAI_NONAME:
		printf("Host %s not found: 3(NXDOMAIN)\n", name);
		break;
	case EAI_NODATA:
	case EAI_ADDRFAMILY:
		printf("%s has no %s record\n", name, family == AF_INET ? "A" :
		    family == AF_INET6 ? "AAAA" : "address");
		break;
	case EAI_AGAIN:
	case EAI_FAIL:
		printf("Host %s not found: 2(SERVFAIL)\n", name);
		break;
	default:
		errx(1, "%s: %s", name, gai_strerror(error));
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	return 1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-4 | -6] name\n",
	    program_invocation_short_name);
	exit(1);
}
