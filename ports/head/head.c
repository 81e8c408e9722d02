/* SPDX-License-Identifier: ISC */
/*
 * head: copy the first lines, or bytes, of files, or of the standard
 * input, to the standard output.
 *
 *	head [-qvz] [-c bytes | -n count] [file ...]
 *
 * -n count lines (10 by default), -c bytes instead; the last of the two
 * wins.  A number may carry GNU's multipliers: b (512), k or K (1024),
 * m or M, G, T, P, E, Z, Y, R, Q (powers of 1024), or with B (kB, MB...:
 * powers of 1000) or iB (KiB...: powers of 1024).  With several files
 * each is announced by a "==> name <==" header, and a blank line
 * separates them; -q never prints headers, -v always does.  -z: lines
 * end with NUL, not newline.  "-" is the standard input.  Having read
 * past the last line it copies, head seeks back there when the input
 * can seek, so that the next reader of a shared descriptor starts on
 * the following line.
 *
 * Acquire, restrict, work: the process keeps descriptor I/O and, while
 * named files remain to be opened, reading paths; after the last open
 * it keeps descriptor I/O alone.  Reading only the standard input it
 * never needs a path.  With -DTAME_TEST_HOOK and TAME_TEST_HOOK set it
 * tries to create a file after its last tame(), for the tests.
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#define BUFSZ	(64 * 1024)

static int	 cflag;		/* count bytes, not lines */
static int	 eol = '\n';
static uintmax_t count = 10;
static int	 headers;
static char	 buf[BUFSZ];
static int	 rval;

static void	 narrow(int);
static uintmax_t getnum(const char *, const char *);
static void	 head_file(const char *, int);
static int	 head_lines(int);
static int	 head_bytes(int);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	int ch, i, last, qflag = 0, vflag = 0;

	while ((ch = getopt(argc, argv, "c:n:qvz")) != -1) {
		switch (ch) {
		case 'c':
			cflag = 1;
			count = getnum(optarg, "bytes");
			break;
		case 'n':
			cflag = 0;
			count = getnum(optarg, "lines");
			break;
		case 'q':
			qflag = 1;
			vflag = 0;
			break;
		case 'v':
			vflag = 1;
			qflag = 0;
			break;
		case 'z':
			eol = '\0';
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	headers = vflag || (argc > 1 && !qflag);

	/* named files are opened as we go; "-" and stdin need no paths */
	for (last = argc - 1; last >= 0 && strcmp(argv[last], "-") == 0;
	    last--)
		;
	narrow(last >= 0);

	if (argc == 0)
		head_file("-", 0);
	for (i = 0; i < argc; i++)
		head_file(argv[i], i == last);

	if (fflush(stdout) == EOF || close(STDOUT_FILENO) == -1)
		err(1, "stdout");
	return rval;
}

/* Keep descriptor I/O, and reading paths while opens remain. */
static void
narrow(int opens_left)
{
#ifndef NO_TAME
	if (tame(opens_left ? TAME_STDIO | TAME_RPATH : TAME_STDIO) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	/*
	 * For the tests: head never writes a file.  The directory does not
	 * exist, so that nothing is created should the filter let it by.
	 */
	if (!opens_left && getenv("TAME_TEST_HOOK") != NULL)
		open("/nonexistent/head-hook", O_WRONLY | O_CREAT | O_TRUNC,
		    0666);
#endif
#else
	(void)opens_left;
#endif
}

/*
 * A count: decimal digits after optional blanks and '+', then GNU's
 * optional multiplier.  Out of range or malformed is fatal, as in GNU
 * head.  (GNU's negative counts, "all but the last", are not supported.)
 */
static uintmax_t
getnum(const char *s, const char *what)
{
	static const char powers[] = "KMGTPEZYRQ";
	const char *p = s, *pw;
	uintmax_t n = 0, base = 1024;
	int exp = 0, overflow = 0, d;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+')
		p++;
	if (!isdigit((unsigned char)*p)) {
		/* a multiplier alone multiplies 1 ("K" is 1024) */
		if (*s == '\0' || strchr("bkKmMGTPEZYRQ", *s) == NULL)
			goto bad;
		p = s;
		n = 1;
	}
	for (; isdigit((unsigned char)*p); p++) {
		d = *p - '0';
		if (n > (UINTMAX_MAX - d) / 10)
			overflow = 1;
		n = n * 10 + d;
	}
	if (*p == 'b') {
		base = 512;
		exp = 1;
		p++;
	} else if (*p != '\0') {
		if (*p == 'k' || *p == 'm')
			pw = strchr(powers, toupper((unsigned char)*p));
		else
			pw = strchr(powers, *p);
		if (pw == NULL)
			goto bad;
		exp = pw - powers + 1;
		p++;
		if (*p == 'B') {
			base = 1000;
			p++;
		} else if (p[0] == 'i' && p[1] == 'B')
			p += 2;
	}
	if (*p != '\0')
		goto bad;
	while (exp-- > 0) {
		if (n > UINTMAX_MAX / base)
			overflow = 1;
		n *= base;
	}
	if (overflow)
		errx(1, "invalid number of %s: '%s': %s", what, s,
		    strerror(EOVERFLOW));
	return n;
bad:
	errx(1, "invalid number of %s: '%s'", what, s);
}

static void
head_file(const char *path, int last)
{
	static int first = 1;
	const char *name = path;
	int fd = STDIN_FILENO;

	if (strcmp(path, "-") == 0)
		name = "standard input";
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		warn("cannot open '%s' for reading", path);
		rval = 1;
	}
	if (last)
		narrow(0);	/* the last named file is open: no more paths */
	if (fd == -1)
		return;

	/* a file that cannot be opened has no header, nor a blank line */
	if (headers) {
		printf("%s==> %s <==\n", first ? "" : "\n", name);
		first = 0;
	}
	if (!(cflag ? head_bytes(fd) : head_lines(fd))) {
		warn("error reading '%s'", name);
		rval = 1;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (ferror(stdout))
		err(1, "stdout");
}

/*
 * Copy count lines.  A read returns more than the last line: give the
 * rest back to the descriptor if it can seek.  Returns 0 on a read
 * error.
 */
static int
head_lines(int fd)
{
	uintmax_t left = count;
	ssize_t n, i;

	while (left > 0) {
		if ((n = read(fd, buf, sizeof(buf))) == -1) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		if (n == 0)
			break;
		for (i = 0; i < n && left > 0; i++)
			if (buf[i] == eol)
				left--;
		fwrite(buf, 1, i, stdout);
		if (left == 0 && i < n)
			(void)lseek(fd, i - n, SEEK_CUR);
	}
	return 1;
}

/* Copy count bytes, never reading more. */
static int
head_bytes(int fd)
{
	uintmax_t left = count;
	ssize_t n;

	while (left > 0) {
		n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		if (n == 0)
			break;
		fwrite(buf, 1, n, stdout);
		left -= n;
	}
	return 1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-qvz] [-c bytes | -n count] [file ...]\n",
	    program_invocation_short_name);
	exit(1);
}
