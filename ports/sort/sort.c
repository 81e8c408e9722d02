/* SPDX-License-Identifier: ISC */
/*
 * sort: sort lines of text files.
 *
 *	sort [-nru] [-o output] [-S size] [-T dir] [file ...]
 *
 * Lines are compared as bytes (GNU sort under LC_ALL=C); -n compares
 * them as numbers (blanks, an optional '-', digits, an optional '.' and
 * digits; anything else counts as zero), then, on a tie, as bytes; -r
 * reverses the result; -u outputs only the first of each run of equal
 * lines (under -n, equal numbers), without the byte tie-break.  Files
 * named "-" and no files at all mean the standard input.  -o writes the
 * output to a file, which may also be an input: it is truncated only
 * once every input has been read.
 *
 * -S bounds the bytes of input held in memory (default 1M; a number
 * alone is KiB as in GNU sort, or give a suffix b, K, M or G).  Input
 * beyond it is sorted in runs written to temporary files made with
 * mkstemp(3) in -T dir, or $TMPDIR, or /tmp; each is unlinked at once,
 * read back through its descriptor and merged with the others and the
 * last run, which stays in memory.  At most MAXRUNS runs are kept: more
 * are merged into one as the input is read.
 *
 * Acquire, restrict, work.  After the options:
 *
 *	tame(STDIO [| RPATH] [| WPATH | CPATH] [| TMP])
 *
 * with RPATH when files are named, WPATH and CPATH for -o (the output
 * is created if missing), and TMP only when temporary files may be
 * needed: when some input is not a regular file, or the regular files
 * add up to more than the budget.  TMP is TMPPATH when the directory is
 * /tmp or beneath it, in canonical form; TMPPATH grants nothing else,
 * so for any other directory TMP is RPATH | WPATH | CPATH (mkstemp
 * opens O_RDWR | O_CREAT, and the unlink needs CPATH).  Once the inputs
 * and the output are open:
 *
 *	tame(STDIO [| TMP])
 *
 * and when the input is exhausted, so that no temporary file remains to
 * be created, before the merge and all output:
 *
 *	tame(STDIO)
 *
 * Built with -DTAME_TEST_HOOK and run with TAME_TEST_HOOK=1, the first
 * tame() that leaves no path flag but TMPPATH tries to create a file in
 * the current directory, which needs CPATH.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the flag values; the untamed build calls nothing from it */
#include <tame.h>

#define DEFBUDGET	(1024 * 1024)
#define MINBUDGET	1024
#define MAXRUNS		32

struct line {
	char	*s;
	size_t	 len;		/* without the newline */
	size_t	 seq;		/* input order, for a stable sort */
};

/* A sorted run: a temporary file, or the last chunk in memory. */
struct run {
	FILE		*fp;
	struct line	*mem;
	size_t		 n, i;
	struct line	 cur;
	size_t		 cap;
	int		 done;
};

/* Where sorted lines go, remembering the last one for -u. */
struct out {
	FILE	*fp;
	char	*last;
	size_t	 lastlen, lastcap;
	int	 have;
};

static int		 nflag, rflag, uflag;
static size_t		 budget = DEFBUDGET;
static const char	*tmpdir;
static int		 tmpflags;	/* what making temporary files needs */

static struct line	*chunk;		/* the run being read */
static size_t		 nchunk, chunkcap, chunkbytes, seq;
static FILE		*runs[MAXRUNS];
static int		 nruns;

static void	 make_template(void);
static FILE	**open_inputs(int, char **);
static FILE	*open_output(const char *);
static size_t	 parse_size(const char *);
static int	 beneath_tmp(const char *);
static int	 may_spill(int, char **);
static void	 narrow(int);
static void	 read_input(FILE *, const char *, int);
static void	 add_line(const char *, size_t, int);
static void	 spill(void);
static FILE	*new_run(void);
static void	 merge(FILE **, int, struct line *, size_t, struct out *);
static int	 run_next(struct run *);
static void	 emit(struct out *, const struct line *);
static int	 numcmp(const char *, size_t, const char *, size_t);
static int	 compare(const struct line *, const struct line *);
static int	 qcompare(const void *, const void *);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	struct out out = { 0 };
	FILE **in;
	const char *outfile = NULL;
	int ch, i, spillable, named = 0;

	while ((ch = getopt(argc, argv, "no:rS:T:u")) != -1) {
		switch (ch) {
		case 'n':
			nflag = 1;
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'r':
			rflag = 1;
			break;
		case 'S':
			budget = parse_size(optarg);
			break;
		case 'T':
			tmpdir = optarg;
			break;
		case 'u':
			uflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	make_template();
	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "-") != 0)
			named = 1;
	spillable = may_spill(argc, argv);
	narrow((named ? TAME_RPATH : 0) |
	    (outfile != NULL ? TAME_WPATH | TAME_CPATH : 0) |
	    (spillable ? tmpflags : 0));

	/* every input first, so a missing one leaves the output alone */
	in = open_inputs(argc, argv);
	out.fp = outfile != NULL ? open_output(outfile) : stdout;
	narrow(spillable ? tmpflags : 0);

	if (argc == 0)
		read_input(stdin, "-", spillable);
	for (i = 0; i < argc; i++) {
		read_input(in[i], argv[i], spillable);
		if (in[i] != stdin)
			fclose(in[i]);
	}
	free(in);
	narrow(0);	/* the last run is made: no more temporary files */

	if (outfile != NULL) {
		struct stat sb;

		if (fstat(fileno(out.fp), &sb) == -1)
			err(2, "%s", outfile);
		if (S_ISREG(sb.st_mode) && ftruncate(fileno(out.fp), 0) == -1)
			err(2, "%s", outfile);
	}
	if (nchunk > 0)		/* no input: chunk is still NULL */
		qsort(chunk, nchunk, sizeof(*chunk), qcompare);
	merge(runs, nruns, chunk, nchunk, &out);
	if (fflush(out.fp) == EOF || ferror(out.fp) ||
	    fclose(out.fp) == EOF)
		err(2, "write failed: %s",
		    outfile != NULL ? outfile : "standard output");
	return 0;
}

/*
 * The mkstemp(3) template in -T dir, $TMPDIR or /tmp, and the flags
 * that creating it needs.
 */
static void
make_template(void)
{
	const char *dir;
	char *buf;
	size_t len;

	if ((dir = tmpdir) == NULL && ((dir = getenv("TMPDIR")) == NULL ||
	    *dir == '\0'))
		dir = "/tmp";
	/* no trailing slash: TMPPATH wants the path in canonical form */
	for (len = strlen(dir); len > 0 && dir[len - 1] == '/'; len--)
		;
	if (asprintf(&buf, "%.*s/sortXXXXXX", (int)len, dir) == -1)
		err(2, NULL);
	tmpdir = buf;
	tmpflags = beneath_tmp(tmpdir) ? TAME_TMPPATH :
	    TAME_RPATH | TAME_WPATH | TAME_CPATH;
}

static FILE **
open_inputs(int argc, char *argv[])
{
	FILE **in;
	int i;

	if ((in = calloc((unsigned int)argc + 1, sizeof(*in))) == NULL)
		err(2, NULL);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0)
			in[i] = stdin;
		else if ((in[i] = fopen(argv[i], "re")) == NULL)
			err(2, "cannot read: %s", argv[i]);
	}
	return in;
}

/* Not truncated yet: it may be one of the inputs. */
static FILE *
open_output(const char *path)
{
	FILE *fp;
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666)) == -1)
		err(2, "open failed: %s", path);
	if ((fp = fdopen(fd, "w")) == NULL)
		err(2, NULL);
	return fp;
}

/* GNU's -S: a number of KiB, or with a suffix b, K, M or G. */
static size_t
parse_size(const char *s)
{
	unsigned long long n;
	char *end;
	int shift;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (end == s || *s == '-' || errno == ERANGE)
		errx(2, "invalid -S argument '%s'", s);
	switch (*end) {
	case 'b':
		shift = 0;
		break;
	case '\0':
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		errx(2, "invalid suffix in -S argument '%s'", s);
	}
	if (*end != '\0' && end[1] != '\0')
		errx(2, "invalid suffix in -S argument '%s'", s);
	if (n > (SIZE_MAX >> shift))
		n = SIZE_MAX >> shift;
	n <<= shift;
	return n < MINBUDGET ? MINBUDGET : n;
}

/*
 * TMPPATH grants a path only as it is written: absolute, canonical, and
 * beneath /tmp.  The template has no trailing slash.
 */
static int
beneath_tmp(const char *path)
{
	const char *p;

	if (strncmp(path, "/tmp/", 5) != 0)
		return 0;
	for (p = path; *p != '\0'; p++)
		if (p[0] == '/' && (p[1] == '/' ||
		    (p[1] == '.' && (p[2] == '/' || p[2] == '\0' ||
		    (p[2] == '.' && (p[3] == '/' || p[3] == '\0'))))))
			return 0;
	return 1;
}

/*
 * Could the input exceed the budget?  Only regular files have a size
 * known in advance; a file that grows after this look is still sorted,
 * in memory beyond the budget.
 */
static int
may_spill(int argc, char *argv[])
{
	struct stat sb;
	off_t pos;
	size_t total = 0;
	int i;

	for (i = 0; i < (argc > 0 ? argc : 1); i++) {
		if (argc == 0 || strcmp(argv[i], "-") == 0) {
			if (fstat(STDIN_FILENO, &sb) == -1)
				return 1;
			if ((pos = lseek(STDIN_FILENO, 0, SEEK_CUR)) > 0)
				sb.st_size -= pos;
		} else if (stat(argv[i], &sb) == -1)
			continue;	/* the open reports it */
		if (!S_ISREG(sb.st_mode))
			return 1;
		if (sb.st_size > 0)
			total += sb.st_size;
		if (total > budget)
			return 1;
	}
	return 0;
}

/* Keep stdio and the flags given. */
static void
narrow(int flags)
{
#ifndef NO_TAME
	static int held = TAME_ALL;

	flags |= TAME_STDIO;
	if (flags == held)
		return;
	if (tame(flags) == -1)
		err(2, "tame");
	held = flags;
#ifdef TAME_TEST_HOOK
	/* for the tests: TMPPATH must not create files elsewhere */
	if (!(flags & (TAME_RPATH | TAME_WPATH | TAME_CPATH)) &&
	    getenv("TAME_TEST_HOOK") != NULL)
		open("sort-hook.out", O_WRONLY | O_CREAT | O_TRUNC, 0666);
#endif
#else
	(void)flags;
#endif
}

static void
read_input(FILE *fp, const char *name, int spillable)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, fp)) != -1)
		add_line(line, n, spillable);
	if (ferror(fp))
		err(2, "read failed: %s", name);
	free(line);
}

/* Add one line (n bytes, with its newline if any) to the chunk. */
static void
add_line(const char *s, size_t n, int spillable)
{
	struct line *l;

	if (spillable && nchunk > 0 && chunkbytes + n > budget)
		spill();
	if (nchunk == chunkcap) {
		chunkcap = chunkcap ? chunkcap * 2 : 1024;
		if ((chunk = reallocarray(chunk, chunkcap,
		    sizeof(*chunk))) == NULL)
			err(2, NULL);
	}
	chunkbytes += n;
	l = &chunk[nchunk++];
	l->len = n > 0 && s[n - 1] == '\n' ? n - 1 : n;
	l->seq = seq++;
	if ((l->s = malloc(l->len + 1)) == NULL)
		err(2, NULL);
	memcpy(l->s, s, l->len);
}

/* Sort the chunk into a new temporary file. */
static void
spill(void)
{
	struct out o = { 0 };
	FILE *fp;
	size_t i;

	if (nruns == MAXRUNS) {
		/* too many runs open: merge them into one */
		o.fp = new_run();
		merge(runs, nruns, NULL, 0, &o);
		free(o.last);
		nruns = 0;
		runs[nruns++] = o.fp;
		memset(&o, 0, sizeof(o));
	}
	if (nchunk > 0)		/* no input: chunk is still NULL */
		qsort(chunk, nchunk, sizeof(*chunk), qcompare);
	o.fp = fp = new_run();
	for (i = 0; i < nchunk; i++) {
		emit(&o, &chunk[i]);
		free(chunk[i].s);
	}
	free(o.last);
	if (fflush(fp) == EOF)
		err(2, "%s", tmpdir);
	runs[nruns++] = fp;
	nchunk = chunkbytes = 0;
}

/*
 * A temporary file, unlinked at once: it lives on through its
 * descriptor, and no name is left behind if the sort is killed.
 */
static FILE *
new_run(void)
{
	char path[PATH_MAX];
	FILE *fp;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s", tmpdir) >=
	    sizeof(path))
		errx(2, "%s: name too long", tmpdir);
	if ((fd = mkstemp(path)) == -1)
		err(2, "cannot create temporary file in '%.*s'",
		    (int)(strrchr(tmpdir, '/') - tmpdir), tmpdir);
	if (unlink(path) == -1)
		err(2, "%s", path);
	if ((fp = fdopen(fd, "w+")) == NULL)
		err(2, NULL);
	return fp;
}

/*
 * Merge sorted files and a sorted array into o.  Equal lines go out in
 * the order of the runs, which is input order: -u keeps the first.
 */
static void
merge(FILE **files, int nfiles, struct line *mem, size_t nmem,
    struct out *o)
{
	struct run *r;
	int i, best, n = nfiles + 1;

	if ((r = calloc(n, sizeof(*r))) == NULL)
		err(2, NULL);
	for (i = 0; i < nfiles; i++) {
		r[i].fp = files[i];
		if (fseek(r[i].fp, 0, SEEK_SET) == -1)
			err(2, "%s", tmpdir);
	}
	r[nfiles].mem = mem;
	r[nfiles].n = nmem;
	for (i = 0; i < n; i++)
		run_next(&r[i]);
	for (;;) {
		for (best = -1, i = 0; i < n; i++)
			if (!r[i].done && (best == -1 ||
			    compare(&r[i].cur, &r[best].cur) < 0))
				best = i;
		if (best == -1)
			break;
		emit(o, &r[best].cur);
		run_next(&r[best]);
	}
	for (i = 0; i < nfiles; i++) {
		free(r[i].cur.s);
		fclose(files[i]);
	}
	free(r);
}

/* Step a run to its next line; 0 at its end. */
static int
run_next(struct run *r)
{
	ssize_t n;

	if (r->done)
		return 0;
	if (r->fp == NULL) {
		if (r->i == r->n) {
			r->done = 1;
			return 0;
		}
		r->cur = r->mem[r->i++];
		return 1;
	}
	if ((n = getline(&r->cur.s, &r->cap, r->fp)) == -1) {
		if (ferror(r->fp))
			err(2, "%s", tmpdir);
		r->done = 1;
		return 0;
	}
	r->cur.len = n - 1;	/* every line in a run ends in a newline */
	return 1;
}

static void
emit(struct out *o, const struct line *l)
{
	if (uflag) {
		struct line last = { o->last, o->lastlen, 0 };

		if (o->have && compare(&last, l) == 0)
			return;
		if (l->len + 1 > o->lastcap) {
			o->lastcap = l->len + 1;
			if ((o->last = realloc(o->last, o->lastcap)) == NULL)
				err(2, NULL);
		}
		memcpy(o->last, l->s, l->len);
		o->lastlen = l->len;
		o->have = 1;
	}
	if (fwrite(l->s, 1, l->len, o->fp) != l->len ||
	    putc('\n', o->fp) == EOF)
		err(2, "write failed");
}

/* Skip blanks, an optional '-', then integer and fraction digits. */
static void
numparse(const char *s, size_t len, int *neg, const char **ip,
    size_t *ilen, const char **fp, size_t *flen)
{
	const char *e = s + len;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	*neg = s < e && *s == '-';
	if (*neg)
		s++;
	while (s < e && *s == '0')	/* leading zeros count for nothing */
		s++;
	for (*ip = s; s < e && *s >= '0' && *s <= '9'; s++)
		;
	*ilen = s - *ip;
	*fp = s;
	*flen = 0;
	if (s < e && *s == '.') {
		for (*fp = ++s; s < e && *s >= '0' && *s <= '9'; s++)
			;
		*flen = s - *fp;
		while (*flen > 0 && (*fp)[*flen - 1] == '0')
			(*flen)--;	/* nor do trailing ones */
	}
	if (*ilen == 0 && *flen == 0)
		*neg = 0;		/* -0 is 0 */
}

/* Compare as numbers, digit strings of any length. */
static int
numcmp(const char *a, size_t alen, const char *b, size_t blen)
{
	const char *ai, *af, *bi, *bf;
	size_t ail, afl, bil, bfl;
	int aneg, bneg, r;

	numparse(a, alen, &aneg, &ai, &ail, &af, &afl);
	numparse(b, blen, &bneg, &bi, &bil, &bf, &bfl);
	if (aneg != bneg)
		return aneg ? -1 : 1;
	if (ail != bil)
		r = ail < bil ? -1 : 1;
	else if ((r = memcmp(ai, bi, ail)) == 0 &&
	    (r = memcmp(af, bf, afl < bfl ? afl : bfl)) == 0)
		r = afl < bfl ? -1 : afl > bfl;
	return aneg ? -r : r;
}

static int
compare(const struct line *a, const struct line *b)
{
	int r = 0;

	if (nflag)
		r = numcmp(a->s, a->len, b->s, b->len);
	/* the whole line as bytes: the key, or the last resort */
	if (r == 0 && (!nflag || !uflag)) {
		r = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
		if (r == 0)
			r = a->len < b->len ? -1 : a->len > b->len;
	}
	return rflag ? -r : r;
}

/* qsort is not stable: ties go in input order, which -u relies on. */
static int
qcompare(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;
	int r;

	if ((r = compare(a, b)) != 0)
		return r;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-nru] [-o output] [-S size] [-T dir] "
	    "[file ...]\n", program_invocation_short_name);
	exit(2);
}
