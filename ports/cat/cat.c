/* SPDX-License-Identifier: ISC */
/*
 * cat: concatenate files, or the standard input, to the standard output.
 *
 *	cat [-benstuv] [file ...]
 *
 * Acquire, restrict, work: once the buffer exists the process keeps only
 * descriptor I/O and, while named files remain to be opened, reading
 * paths; after the last open it keeps descriptor I/O alone.  Built with
 * -DNO_TAME the same source is the untamed baseline of the benchmarks;
 * with -DTAME_TEST_HOOK it tries to open a socket after its last tame()
 * when TAME_TEST_HOOK=1, for the tests.
 *
 * -b number non-blank lines, -n number all lines, -s squeeze runs of
 * blank lines into one, -u unbuffered (output is never buffered here),
 * -v show non-printing characters as ^X and M-X, -e as -v and mark line
 * ends with $, -t as -v and show tabs as ^I.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#define MINBLK	512
#define MAXBLK	(64 * 1024)

static int	 bflag, eflag, nflag, sflag, tflag, vflag;
static char	*buf;
static size_t	 bsize;
static int	 rval;

static void	 narrow(int);
static void	 cat_file(const char *, int);
static void	 raw_cat(int, const char *);
static void	 cooked_cat(int, const char *);
static void	 setbuffer_size(void);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	int ch, i, last;

	while ((ch = getopt(argc, argv, "benstuv")) != -1) {
		switch (ch) {
		case 'b':
			bflag = nflag = 1;	/* -b implies -n */
			break;
		case 'e':
			eflag = vflag = 1;	/* -e implies -v */
			break;
		case 'n':
			nflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		case 't':
			tflag = vflag = 1;	/* -t implies -v */
			break;
		case 'u':
			/* output is never buffered here: nothing to do */
			break;
		case 'v':
			vflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	setbuffer_size();
	/* named files are opened as we go; "-" and stdin need no paths */
	for (last = argc - 1; last >= 0 && strcmp(argv[last], "-") == 0;
	    last--)
		;
	narrow(last >= 0);

	if (argc == 0)
		cat_file("-", 0);
	for (i = 0; i < argc; i++)
		cat_file(argv[i], i == last);

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
	/* for the tests: a cat must never reach the network */
	if (!opens_left && getenv("TAME_TEST_HOOK") != NULL)
		socket(AF_INET, SOCK_STREAM, 0);
#endif
#else
	(void)opens_left;
#endif
}

/*
 * Read and write in the output's preferred block size, as OpenBSD's cat
 * does: /dev/null, pipes and most file systems say 4 KiB.
 */
static void
setbuffer_size(void)
{
	struct stat sb;

	if (fstat(STDOUT_FILENO, &sb) == -1)
		err(1, "stdout");
	bsize = sb.st_blksize;
	if (bsize < MINBLK)
		bsize = MINBLK;
	if (bsize > MAXBLK)
		bsize = MAXBLK;
	if ((buf = malloc(bsize)) == NULL)
		err(1, NULL);
}

static void
cat_file(const char *path, int last)
{
	int fd = STDIN_FILENO;

	if (strcmp(path, "-") != 0 &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		warn("%s", path);
		rval = 1;
	}
	if (last)
		narrow(0);	/* the last named file is open: no more paths */
	if (fd == -1)
		return;
	if (bflag || eflag || nflag || sflag || tflag || vflag)
		cooked_cat(fd, fd == STDIN_FILENO ? "stdin" : path);
	else
		raw_cat(fd, fd == STDIN_FILENO ? "stdin" : path);
	if (fd != STDIN_FILENO)
		close(fd);
}

static void
raw_cat(int fd, const char *name)
{
	ssize_t nr, nw;
	size_t off;

	while ((nr = read(fd, buf, bsize)) != 0) {
		if (nr == -1) {
			if (errno == EINTR)
				continue;
			warn("%s", name);
			rval = 1;
			return;
		}
		for (off = 0; off < (size_t)nr; off += nw) {
			nw = write(STDOUT_FILENO, buf + off, nr - off);
			if (nw == -1 && errno == EINTR) {
				nw = 0;
				continue;
			}
			/* a failed output fails every file after it too */
			if (nw == -1 || nw == 0)
				err(1, "stdout");
		}
	}
}

/*
 * The options that look at characters, through stdio.  Line numbers
 * and the blank-line state carry over from one file to the next, as one
 * stream.
 */
static void
cooked_cat(int fd, const char *name)
{
	static int line, prev = '\n', gobble;
	FILE *fp;
	int ch, c;

	if ((fp = fdopen(dup(fd), "r")) == NULL)
		err(1, "%s", name);
	for (; (c = ch = getc(fp)) != EOF; prev = ch) {
		if (prev == '\n') {
			if (sflag && ch == '\n') {
				if (gobble)
					continue;
				gobble = 1;
			} else
				gobble = 0;
			if (nflag && (!bflag || ch != '\n'))
				printf("%6d\t", ++line);
		}
		if (ch == '\n') {
			if (eflag)
				putchar('$');
		} else if (ch == '\t') {
			if (tflag) {
				fputs("^I", stdout);
				continue;
			}
		} else if (vflag) {
			if (c & 0x80) {
				fputs("M-", stdout);
				c &= 0x7f;
			}
			if (c < 0x20 || c == 0x7f) {
				putchar('^');
				putchar(c == 0x7f ? '?' : c | 0x40);
				continue;
			}
		}
		if (putchar(c) == EOF)
			err(1, "stdout");
	}
	if (ferror(fp)) {
		warn("%s", name);
		rval = 1;
	}
	fclose(fp);
	if (ferror(stdout))
		err(1, "stdout");
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-benstuv] [file ...]\n",
	    program_invocation_short_name);
	exit(1);
}
