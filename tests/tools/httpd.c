/* SPDX-License-Identifier: ISC */
/*
 * httpd: the smallest HTTP/1.0 server, for the CLI tests (curl under
 * tame-exec).  It listens on 127.0.0.1 at an ephemeral port, writes the
 * port to standard output, serves FILE to every GET of any path, COUNT
 * times, then exits.
 *
 *	httpd FILE COUNT
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	char buf[65536], head[128];
	ssize_t n, body;
	int s, c, fd, count, one = 1;

	if (argc != 3 || (count = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: httpd file count\n");
		return 2;
	}
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == -1 ||
	    bind(s, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(s, 4) == -1 ||
	    getsockname(s, (struct sockaddr *)&sin, &len) == -1)
		err(1, "listen");
	printf("%d\n", ntohs(sin.sin_port));
	fflush(stdout);
	while (count-- > 0) {
		if ((c = accept(s, NULL, NULL)) == -1)
			err(1, "accept");
		(void)read(c, buf, sizeof(buf));	/* the request */
		if ((fd = open(argv[1], O_RDONLY)) == -1)
			err(1, "%s", argv[1]);
		body = read(fd, buf, sizeof(buf));
		close(fd);
		n = snprintf(head, sizeof(head), "HTTP/1.0 200 OK\r\n"
		    "Content-Length: %zd\r\n\r\n", body);
		if (write(c, head, n) != n || write(c, buf, body) != body)
			err(1, "write");
		close(c);
	}
	return 0;
}
