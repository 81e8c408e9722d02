/*
 * cat: copy files, or the standard input, to the standard output.
 *
 * The first port of libtame: once the output block size is known and the
 * buffer exists, the process gives up everything but descriptor I/O and,
 * when files are named, opening them for reading.  Built with -DNO_TAME
 * the same source is the untamed baseline the benchmarks compare with.
 */
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

static char	*buf;
static size_t	 bsize;
static int	 rval;

static void	 cat_fd(int, const char *);
static void	 cat_file(const char *);
static void	 setbuffer_size(void);
static void	 usage(void);

int
main(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, "u")) != -1) {
		switch (ch) {
		case 'u':
			/* output is never buffered here: nothing to do */
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	setbuffer_size();
#ifndef NO_TAME
	/* Named files are opened as we go; stdin alone needs no paths. */
	if (tame(argc > 0 ? TAME_STDIO | TAME_RPATH : TAME_STDIO) == -1)
		err(1, "tame");
#endif

	if (argc == 0)
		cat_fd(STDIN_FILENO, "stdin");
	for (; *argv != NULL; argv++)
		cat_file(*argv);

	if (close(STDOUT_FILENO) == -1)
		err(1, "stdout");
	return rval;
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
cat_file(const char *path)
{
	int fd;

	if (strcmp(path, "-") == 0) {
		cat_fd(STDIN_FILENO, "stdin");
		return;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		warn("%s", path);
		rval = 1;
		return;
	}
	cat_fd(fd, path);
	close(fd);
}

static void
cat_fd(int fd, const char *name)
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

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-u] [file ...]\n", program_invocation_short_name);
	exit(1);
}
