/* SPDX-License-Identifier: ISC */
/*
 * lockprog: a database-style program, for the CLI tests of real tools
 * under tame-exec.  It takes a POSIX record lock, an OFD lock and a
 * flock() on FILE, appends a line under the lock, and reports whether
 * the lock is free for others (F_GETLK).  With -w it then holds the locks
 * until its standard input ends, so that a second lockprog -n sees them
 * taken and says "busy".
 *
 *	lockprog [-w] FILE	lock, append, report; exit 0
 *	lockprog -n FILE	try without waiting: "busy" and exit 1 if held
 */
#include <sys/file.h>

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void
setlk(int fd, int cmd, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };

	if (fcntl(fd, cmd, &fl) == -1)
		err(2, "fcntl");
}

int
main(int argc, char *argv[])
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd, c, wait = 0, try = 0;
	char buf[64];

	while ((c = getopt(argc, argv, "nw")) != -1) {
		if (c == 'n')
			try = 1;
		else if (c == 'w')
			wait = 1;
		else
			return 2;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: lockprog [-n | -w] file\n");
		return 2;
	}
	if ((fd = open(argv[optind], O_RDWR | O_APPEND)) == -1)
		err(2, "%s", argv[optind]);
	if (try) {
		fl.l_pid = 0;
		if (fcntl(fd, F_OFD_GETLK, &fl) == -1)
			err(2, "fcntl");
		if (fl.l_type != F_UNLCK || flock(fd, LOCK_EX | LOCK_NB) == -1) {
			printf("busy\n");
			return 1;
		}
		printf("free\n");
		return 0;
	}
	setlk(fd, F_SETLKW, F_WRLCK);
	if (flock(fd, LOCK_EX) == -1)
		err(2, "flock");
	if (write(fd, "locked\n", 7) != 7)
		err(2, "write");
	setlk(fd, F_GETLK, F_WRLCK);	/* our own lock never blocks us */
	printf("locked %s\n", argv[optind]);
	fflush(stdout);
	while (wait && read(0, buf, sizeof(buf)) > 0)
		;
	setlk(fd, F_SETLK, F_UNLCK);
	return 0;
}
