/* SPDX-License-Identifier: ISC */
/*
 * xargs: build command lines from the standard input and run them.
 *
 *	xargs [-0t] [-a file] [-n max-args] [-P max-procs]
 *	    [command [initial-arg ...]]
 *
 * Nothing can be executed after tame(), so this xargs is split in two,
 * as OpenBSD's privilege-separated daemons are: before taming, it forks
 * a spawner, which stays untamed and does nothing but run the command
 * lines it is sent, up to max-procs at a time, and answer with their
 * exit statuses.  The parent then tames itself to descriptor I/O and
 * process control (TAME_STDIO | TAME_PROC): it reads and splits the
 * input, which is what an attacker controls, hands each command line to
 * the spawner over a pipe, and waits for the spawner at the end.  With
 * -DTAME_TEST_HOOK and TAME_TEST_HOOK=1 the parent tries to open a file
 * after taming, for the tests.
 *
 * Input is split at blanks and newlines, with '...', "..." and
 * backslash quoting, or at NUL bytes with -0; from file with -a (opened
 * before taming; the commands then keep the standard input).  The
 * default command is
 * echo.  Exit status as GNU xargs: 123 when a command exited 1 to 125,
 * 124 when one exited 255, 125 when one was killed by a signal, 126 when
 * the command could not run, 127 when it was not found, 1 for bad input.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

#define MAXARGS		4096		/* items per command line */
#define LINEMAX		(128 * 1024)	/* bytes of one command line */

static int	 nulsep, trace, keep_stdin;
static long	 maxargs = MAXARGS, maxprocs = 1;

static pid_t	 start_spawner(int *, int *);
static void	 spawner(int, int) __attribute__((noreturn));
static int	 run_lines(FILE *, int, int, char **, int);
static char	*next_item(FILE *);
static int	 send_line(int, char **, int);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	static char *echo[] = { "echo", NULL };
	FILE *in = stdin;
	char *end;
	int ch, to, from, status, worst;
	pid_t pid;

	while ((ch = getopt(argc, argv, "+0a:n:P:t")) != -1) {
		switch (ch) {
		case '0':
			nulsep = 1;
			break;
		case 'a':
			if ((in = fopen(optarg, "re")) == NULL)
				err(1, "%s", optarg);
			keep_stdin = 1;
			break;
		case 'n':
			maxargs = strtol(optarg, &end, 10);
			if (*end != '\0' || maxargs < 1 || maxargs > MAXARGS)
				errx(1, "invalid number \"%s\" for -n", optarg);
			break;
		case 'P':
			maxprocs = strtol(optarg, &end, 10);
			if (*end != '\0' || maxprocs < 1 || maxprocs > 1024)
				errx(1, "invalid number \"%s\" for -P", optarg);
			break;
		case 't':
			trace = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		argc = 1;
		argv = echo;
	}

	pid = start_spawner(&to, &from);
#ifndef NO_TAME
	/* the input is read, split and sent; the spawner is waited for */
	if (tame(TAME_STDIO | TAME_PROC) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	if (getenv("TAME_TEST_HOOK") != NULL)
		fopen("/etc/hostname", "r");
#endif
#endif
	worst = run_lines(in, to, from, argv, argc);
	if (waitpid(pid, &status, 0) == -1)
		err(1, "waitpid");
	return worst;
}

/* Fork the spawner; *to sends it command lines, *from brings statuses. */
static pid_t
start_spawner(int *to, int *from)
{
	int down[2], up[2];
	pid_t pid;

	if (pipe2(down, O_CLOEXEC) == -1 || pipe2(up, O_CLOEXEC) == -1)
		err(1, "pipe");
	fflush(stdout);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		spawner(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	*to = down[1];
	*from = up[0];
	return pid;
}

/* Read one whole message: 0 at a clean end, -1 on a short one. */
static int
read_all(int fd, void *p, size_t n)
{
	ssize_t r;
	size_t done = 0;

	while (done < n) {
		if ((r = read(fd, (char *)p + done, n - done)) == -1 &&
		    errno == EINTR)
			continue;
		if (r <= 0)
			return done == 0 && r == 0 ? 0 : -1;
		done += (size_t)r;
	}
	return 1;
}

static int
write_all(int fd, const void *p, size_t n)
{
	ssize_t r;
	size_t done = 0;

	while (done < n) {
		if ((r = write(fd, (const char *)p + done, n - done)) == -1 &&
		    errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

/*
 * The spawner: each message is a length and that many bytes of
 * NUL-terminated arguments; each command's wait status goes back as an
 * int, in the order the commands end.  Runs up to maxprocs at once.
 */
static void
spawner(int in, int out)
{
	static char data[LINEMAX];
	char *args[MAXARGS + 2];
	size_t len, off;
	int running = 0, n, status, more = 1, null;
	pid_t pid;

	/* the commands read /dev/null, not the input being split */
	if (!keep_stdin && ((null = open("/dev/null", O_RDONLY)) == -1 ||
	    dup2(null, STDIN_FILENO) == -1))
		_exit(1);

	while (more || running > 0) {
		if (!more || running == maxprocs) {
			if ((pid = wait(&status)) == -1)
				_exit(1);
			running--;
			if (write_all(out, &status, sizeof(status)) == -1)
				_exit(1);
			continue;
		}
		if ((n = read_all(in, &len, sizeof(len))) <= 0 ||
		    len >= sizeof(data) || read_all(in, data, len) <= 0) {
			more = 0;
			continue;
		}
		for (n = 0, off = 0; off < len && n < MAXARGS + 1;
		    off += strlen(data + off) + 1)
			args[n++] = data + off;
		args[n] = NULL;
		if ((pid = fork()) == -1)
			_exit(1);
		if (pid == 0) {
			execvp(args[0], args);
			warn("%s", args[0]);
			_exit(errno == ENOENT ? 127 : 126);
		}
		running++;
	}
	_exit(0);
}

/* The next item of the input, or NULL at its end. */
static char *
next_item(FILE *fp)
{
	static char *item;
	static size_t cap;
	size_t n = 0;
	int ch, quote = 0, any = 0;

	for (;;) {
		ch = getc(fp);
		if (ch == EOF) {
			if (quote)
				errx(1, "unmatched %s quote",
				    quote == '"' ? "double" : "single");
			break;
		}
		if (nulsep) {
			if (ch == '\0') {
				any = 1;	/* an empty item is one too */
				break;
			}
		} else if (quote) {
			if (ch == quote) {
				quote = 0;
				continue;
			}
			if (ch == '\n')
				errx(1, "unmatched %s quote",
				    quote == '"' ? "double" : "single");
		} else if (ch == ' ' || ch == '\t' || ch == '\n') {
			if (any)
				break;
			continue;
		} else if (ch == '\'' || ch == '"') {
			quote = ch;
			any = 1;
			continue;
		} else if (ch == '\\') {
			if ((ch = getc(fp)) == EOF)
				break;
		}
		if (n + 2 > cap) {
			cap = cap == 0 ? 256 : cap * 2;
			if ((item = realloc(item, cap)) == NULL)
				err(1, NULL);
		}
		item[n++] = (char)ch;
		any = 1;
	}
	if (!any && n == 0)
		return NULL;
	if (item == NULL && (item = malloc(1)) == NULL)
		err(1, NULL);
	item[n] = '\0';
	return item;
}

static void
quote(const char *s)
{
	fputc('\'', stderr);
	for (; *s != '\0'; s++)
		if (*s == '\'')
			fputs("'\\''", stderr);
		else
			fputc(*s, stderr);
	fputc('\'', stderr);
}

static int
send_line(int to, char **args, int n)
{
	static char data[LINEMAX];
	size_t len = 0, k;
	int i;

	for (i = 0; i < n; i++) {
		k = strlen(args[i]) + 1;
		if (len + k >= sizeof(data))
			errx(1, "argument list too long");
		memcpy(data + len, args[i], k);
		len += k;
	}
	if (trace) {
		/* as a shell would need it typed, as GNU xargs -t shows it */
		for (i = 0; i < n; i++) {
			if (i > 0)
				fputc(' ', stderr);
			if (args[i][0] != '\0' && args[i][strspn(args[i],
			    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789@%+=:,./_-")] == '\0')
				fputs(args[i], stderr);
			else
				quote(args[i]);
		}
		fputc('\n', stderr);
	}
	return write_all(to, &len, sizeof(len)) == -1 ||
	    write_all(to, data, len) == -1 ? -1 : 0;
}

/* The worst exit status so far, as GNU xargs ranks them. */
static int
rank(int worst, int status)
{
	int code = 0;

	if (WIFSIGNALED(status))
		code = 125;
	else if (WEXITSTATUS(status) == 255)
		code = 124;
	else if (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127)
		code = WEXITSTATUS(status);
	else if (WEXITSTATUS(status) != 0)
		code = 123;
	return code > worst ? code : worst;
}

/*
 * Split the input into command lines of the command and at most
 * maxargs items, send each to the spawner, collect every status.
 */
static int
run_lines(FILE *fp, int to, int from, char **cmd, int ncmd)
{
	char **args;
	char *item;
	int n, sent = 0, got = 0, worst = 0, status, i;

	if ((args = calloc((size_t)(ncmd + maxargs + 1), sizeof(*args))) ==
	    NULL)
		err(1, NULL);
	for (i = 0; i < ncmd; i++)
		args[i] = cmd[i];
	for (;;) {
		for (n = ncmd; n < ncmd + maxargs &&
		    (item = next_item(fp)) != NULL; n++)
			if ((args[n] = strdup(item)) == NULL)
				err(1, NULL);
		if (n == ncmd && sent > 0)
			break;		/* input done */
		if (send_line(to, args, n) == -1)
			errx(1, "the spawner is gone");
		sent++;
		for (i = ncmd; i < n; i++)
			free(args[i]);
		/* at most max-procs running: wait for one to end (GNU order) */
		while (sent - got >= maxprocs && read_all(from, &status,
		    sizeof(status)) > 0) {
			worst = rank(worst, status);
			got++;
		}
		if (n < ncmd + maxargs)
			break;		/* the input ended mid-line */
	}
	close(to);
	while (got < sent && read_all(from, &status, sizeof(status)) > 0) {
		worst = rank(worst, status);
		got++;
	}
	free(args);
	return worst;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-0t] [-a file] [-n max-args] "
	    "[-P max-procs] [command [initial-arg ...]]\n",
	    program_invocation_short_name);
	exit(1);
}
