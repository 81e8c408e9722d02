/* SPDX-License-Identifier: ISC */
/*
 * tee: copy the standard input to the standard output and to files.
 *
 *	tee [-ai] [file ...]
 *
 * Each file is created (mode 0666 less the umask) or truncated; -a
 * appends to it instead.  -i ignores SIGINT, so that an interrupt meant
 * for the producer of a pipeline does not cut the copy short.  A file
 * that cannot be opened, or written, is reported and left behind while
 * the others are still written, and the status is 1.  "-" is a file of
 * that name, as in GNU tee.  Once no output is left, tee stops reading.
 *
 * Acquire, restrict, work, OpenBSD style: with file operands the
 * process first narrows to descriptor I/O plus writing and creating
 * paths, which is all opening (O_WRONLY, O_CREAT) the files takes; once
 * they are open it keeps descriptor I/O alone for the copy.  Without
 * files it narrows to descriptor I/O at once.  With -DTAME_TEST_HOOK
 * and TAME_TEST_HOOK set it tries to remove a file after its last
 * tame(), for the tests.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#define BUFSZ	(64 * 1024)

struct output {
	int		 fd;	/* -1 once it has failed */
	const char	*name;
};

static struct output *outs;
static int	 nouts, live;
static char	 buf[BUFSZ];
static int	 rval;

static void	 narrow(int);
static void	 open_files(int, char **, int);
static void	 copy(void);
static int	 write_all(int, const char *, size_t);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	int ch, aflag = 0;

	while ((ch = getopt(argc, argv, "ai")) != -1) {
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'i':
			if (signal(SIGINT, SIG_IGN) == SIG_ERR)
				err(1, "signal");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (argc > 0)
		narrow(1);
	open_files(argc, argv, aflag);
	narrow(0);	/* every file is open: no more paths */

	copy();

	for (; nouts > 1; nouts--)
		if (outs[nouts - 1].fd != -1 &&
		    close(outs[nouts - 1].fd) == -1) {
			warn("%s", outs[nouts - 1].name);
			rval = 1;
		}
	return rval;
}

/* Keep descriptor I/O, and opening files for writing while that lasts. */
static void
narrow(int opening)
{
#ifndef NO_TAME
	if (tame(opening ? TAME_STDIO | TAME_WPATH | TAME_CPATH :
	    TAME_STDIO) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	/*
	 * For the tests: tee never removes a file.  The directory does not
	 * exist, so that nothing is lost should the filter let it by.
	 */
	if (!opening && getenv("TAME_TEST_HOOK") != NULL)
		unlink("/nonexistent/tee-hook");
#endif
#else
	(void)opening;
#endif
}

/* Standard output first, then every file that opens. */
static void
open_files(int argc, char *argv[], int aflag)
{
	int fd, i, mode;

	if ((outs = calloc(argc + 1, sizeof(*outs))) == NULL)
		err(1, NULL);
	outs[0].fd = STDOUT_FILENO;
	outs[0].name = "standard output";
	nouts = 1;
	mode = O_WRONLY | O_CREAT | O_CLOEXEC | (aflag ? O_APPEND : O_TRUNC);
	for (i = 0; i < argc; i++) {
		if ((fd = open(argv[i], mode, 0666)) == -1) {
			warn("%s", argv[i]);
			rval = 1;
			continue;
		}
		outs[nouts].fd = fd;
		outs[nouts].name = argv[i];
		nouts++;
	}
	live = nouts;
}

/* Read until the end of the input, or until no output is left. */
static void
copy(void)
{
	ssize_t n;
	int i;

	while (live > 0) {
		if ((n = read(STDIN_FILENO, buf, sizeof(buf))) == -1) {
			if (errno == EINTR)
				continue;
			warn("read error");
			rval = 1;
			return;
		}
		if (n == 0)
			return;
		for (i = 0; i < nouts; i++) {
			if (outs[i].fd == -1 ||
			    write_all(outs[i].fd, buf, n) == 0)
				continue;
			/* one failed output does not stop the others */
			warn("%s", outs[i].name);
			rval = 1;
			if (i > 0)
				close(outs[i].fd);
			outs[i].fd = -1;
			live--;
		}
	}
}

/* Returns 0, or -1 with errno. */
static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = EIO;	/* no progress: do not spin */
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
	fprintf(stderr, "usage: %s [-ai] [file ...]\n",
	    program_invocation_short_name);
	exit(1);
}
