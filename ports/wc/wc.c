/* SPDX-License-Identifier: ISC */
/*
 * wc: count the lines, words and bytes or characters of files, or of the
 * standard input.
 *
 *	wc [-c | -m] [-lw] [file ...]
 *
 * -l lines (newline bytes), -w words (runs of printable characters
 * between white space), -c bytes, -m characters as the locale decodes
 * them (bytes that do not decode are not characters); given both, as GNU
 * wc allows, both are printed.  With no option, -lwc.  In a charset of
 * single bytes (the C locale) characters are bytes.  The counts come in
 * the order lines, words, characters, bytes, in columns as wide as GNU
 * wc makes them, and a "total" line follows several files.  "-" is the
 * standard input.
 *
 * Acquire, restrict, work: once the locale is loaded the process keeps
 * descriptor I/O and, while named files remain to be opened, reading
 * paths (the column width also needs a stat(2) of each file first);
 * after the last open it keeps descriptor I/O alone.  Reading only the
 * standard input it never needs a path.  With -DTAME_TEST_HOOK and
 * TAME_TEST_HOOK set it tries to open a file it was not given after its
 * last tame(), for the tests.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#define BUFSZ	(64 * 1024)

struct counts {
	uintmax_t	lines, words, chars, bytes;
};

static int	 lflag, wflag, cflag, mflag;
static int	 multibyte;	/* -m or -w must decode the locale's charset */
static int	 nbsp_splits;	/* no-break spaces end words (not POSIXLY_CORRECT) */
static int	 width;
static char	 buf[BUFSZ + MB_LEN_MAX];
static struct counts total;
static int	 rval;

static void	 narrow(int);
static int	 number_width(int, char **);
static void	 count_file(const char *, int);
static int	 count_bytes(int, struct counts *);
static int	 count_chars(int, struct counts *);
static int	 is_nbsp(wint_t);
static void	 print_counts(const struct counts *, const char *);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	mbstate_t ps;
	wchar_t wc;
	int ch, i, last;

	setlocale(LC_ALL, "");
	while ((ch = getopt(argc, argv, "clmw")) != -1) {
		switch (ch) {
		case 'c':
			cflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'm':
			mflag = 1;
			break;
		case 'w':
			wflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!lflag && !wflag && !cflag && !mflag)
		lflag = wflag = cflag = 1;

	/*
	 * Decoding is needed for characters and for words (a word ends at
	 * a wide space), unless the locale's characters are its bytes.
	 * Decode once now: a charset whose converter is a module loads it
	 * here, since no code can be loaded after tame().
	 */
	multibyte = (mflag || wflag) && MB_CUR_MAX > 1;
	if (multibyte) {
		memset(&ps, 0, sizeof(ps));
		(void)mbrtowc(&wc, "a", 1, &ps);
	}
	nbsp_splits = getenv("POSIXLY_CORRECT") == NULL;

	/* named files are opened as we go; "-" and stdin need no paths */
	for (last = argc - 1; last >= 0 && strcmp(argv[last], "-") == 0;
	    last--)
		;
	narrow(last >= 0);
	width = number_width(argc, argv);

	if (argc == 0)
		count_file(NULL, 0);
	for (i = 0; i < argc; i++)
		count_file(argv[i], i == last);
	if (argc > 1)
		print_counts(&total, "total");

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
	/* for the tests: wc reads only what it was given */
	if (!opens_left && getenv("TAME_TEST_HOOK") != NULL)
		open("/etc/shadow", O_RDONLY);
#endif
#else
	(void)opens_left;
#endif
}

/*
 * The width of every column, as GNU wc chooses it before counting: one
 * count of one input stands alone; otherwise the digits of the sizes of
 * the regular files together, and at least 7 when an input is anything
 * else (a pipe, a terminal, a directory), whose size is unknown.
 * Inputs that cannot be looked at do not count.
 */
static int
number_width(int argc, char *argv[])
{
	struct stat sb;
	uintmax_t size = 0;
	int i, n, w = 1, minw = 1, st;

	if (argc <= 1 && lflag + wflag + cflag + mflag == 1)
		return 1;
	n = argc == 0 ? 1 : argc;
	for (i = 0; i < n; i++) {
		if (argc == 0 || strcmp(argv[i], "-") == 0)
			st = fstat(STDIN_FILENO, &sb);
		else
			st = stat(argv[i], &sb);
		if (st == -1)
			continue;
		if (S_ISREG(sb.st_mode))
			size += sb.st_size;
		else
			minw = 7;
	}
	for (; size >= 10; size /= 10)
		w++;
	return w < minw ? minw : w;
}

/* Count one input (NULL: the standard input, unnamed) and print it. */
static void
count_file(const char *path, int last)
{
	struct counts c = { 0, 0, 0, 0 };
	const char *name = path == NULL ? "-" : path;
	int fd = STDIN_FILENO, ok;

	if (path != NULL && strcmp(path, "-") != 0 &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		warn("%s", path);
		rval = 1;
	}
	if (last)
		narrow(0);	/* the last named file is open: no more paths */
	if (fd == -1)
		return;

	ok = multibyte ? count_chars(fd, &c) : count_bytes(fd, &c);
	if (!ok) {
		/* what was read still counts, as in GNU wc */
		warn("%s", name);
		rval = 1;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (!multibyte)
		c.chars = c.bytes;
	print_counts(&c, path);
	total.lines += c.lines;
	total.words += c.words;
	total.chars += c.chars;
	total.bytes += c.bytes;
}

/*
 * The charset is the bytes (or only lines and bytes are asked for):
 * a word is a run of printable bytes between white space; other bytes
 * neither start nor end one.  Returns 0 on a read error.
 */
static int
count_bytes(int fd, struct counts *c)
{
	ssize_t n, i;
	int inword = 0;
	unsigned char ch;

	for (;;) {
		if ((n = read(fd, buf, BUFSZ)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (n == 0)
			break;
		c->bytes += n;
		for (i = 0; i < n; i++) {
			ch = buf[i];
			if (ch == '\n')
				c->lines++;
			if (!wflag)
				continue;
			if (isspace(ch)) {
				c->words += inword;
				inword = 0;
			} else if (isprint(ch))
				inword = 1;
		}
	}
	c->words += inword;
	return n == 0;
}

/*
 * A multibyte charset: the same, on the characters the locale decodes.
 * A byte that starts no valid character is counted as a byte only and
 * skipped; a character cut by the end of the buffer is kept for the
 * next read, and one cut by the end of the file is bytes only.
 */
static int
count_chars(int fd, struct counts *c)
{
	mbstate_t ps;
	wchar_t wc;
	ssize_t n;
	size_t left = 0, len, k;
	char *p;
	int inword = 0;

	memset(&ps, 0, sizeof(ps));
	for (;;) {
		if ((n = read(fd, buf + left, BUFSZ)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (n == 0)
			break;
		c->bytes += n;
		p = buf;
		len = left + n;
		left = 0;
		while (len > 0) {
			k = mbrtowc(&wc, p, len, &ps);
			if (k == (size_t)-2 && len < MB_LEN_MAX) {
				/* the start of a character: keep it */
				memset(&ps, 0, sizeof(ps));
				memmove(buf, p, len);
				left = len;
				break;
			}
			if (k == (size_t)-1 || k == (size_t)-2) {
				memset(&ps, 0, sizeof(ps));
				p++;
				len--;
				continue;
			}
			if (k == 0)
				k = 1;	/* a NUL character */
			p += k;
			len -= k;
			c->chars++;
			if (wc == L'\n')
				c->lines++;
			/*
			 * As GNU wc: the ASCII blanks separate words; beyond
			 * them only printable characters count, spaces and
			 * no-break spaces separating (so U+2028 and U+2029,
			 * not printable, do neither).
			 */
			if (wc == L' ' || (wc >= L'\t' && wc <= L'\r') ||
			    (iswprint(wc) && (iswspace(wc) || is_nbsp(wc)))) {
				c->words += inword;
				inword = 0;
			} else if (iswprint(wc))
				inword = 1;
		}
	}
	c->words += inword;
	return n == 0;
}

/* The no-break spaces that GNU wc takes as word separators. */
static int
is_nbsp(wint_t wc)
{
	return nbsp_splits && (wc == 0x00a0 || wc == 0x2007 ||
	    wc == 0x202f || wc == 0x2060);
}

static void
print_counts(const struct counts *c, const char *name)
{
	const char *sep = "";

	if (lflag) {
		printf("%*ju", width, c->lines);
		sep = " ";
	}
	if (wflag) {
		printf("%s%*ju", sep, width, c->words);
		sep = " ";
	}
	if (mflag) {
		printf("%s%*ju", sep, width, c->chars);
		sep = " ";
	}
	if (cflag)
		printf("%s%*ju", sep, width, c->bytes);
	if (name != NULL)
		printf(" %s", name);
	if (putchar('\n') == EOF)
		err(1, "stdout");
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-c | -m] [-lw] [file ...]\n",
	    program_invocation_short_name);
	exit(1);
}
