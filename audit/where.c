/*
 * where.c: a call's -k stack to a line of the program's own source.
 *
 * strace -k prints, after each call, its frames innermost first:
 *
 *	 > /usr/lib/x86_64-linux-gnu/libc.so.6(__open64+0x5b) [0x10a4fb]
 *	 > /home/u/cat(cat_file+0x2c) [0x1389]
 *	 > /home/u/cat(main+0x11e) [0x14b2]
 *
 * The bracketed number is the address within that file, what addr2line
 * reads.  The innermost frame in the program itself says which of its
 * lines made the call; the outermost one (main, or a thread's start)
 * says where in the top-level flow that was, the place a tame() call can
 * follow.  A return address points after the call: one is taken off.
 */
#include <sys/wait.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"

struct frame {
	char			sym[128];	/* from strace, "" if none */
	unsigned long long	addr;
};

/* The frames of frames that lie in exe: 0..n, innermost first. */
static int
own_frames(const char *exe, const char *frames, struct frame *out, int max)
{
	const char *p, *open, *close, *nl;
	size_t elen = strlen(exe);
	int n = 0;

	for (p = frames; *p != '\0' && n < max; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		while (*p == ' ' || *p == '>')
			p++;
		open = memchr(p, '(', (size_t)(nl - p));
		close = open != NULL ? memchr(open, ')', (size_t)(nl - open)) :
		    NULL;
		if (open != NULL && close != NULL &&
		    (size_t)(open - p) == elen && memcmp(p, exe, elen) == 0) {
			const char *br = memchr(close, '[', (size_t)(nl - close));
			size_t sl = (size_t)(close - open - 1);

			if (br != NULL) {
				if (sl >= sizeof(out[n].sym))
					sl = sizeof(out[n].sym) - 1;
				memcpy(out[n].sym, open + 1, sl);
				out[n].sym[sl] = '\0';
				out[n].addr = strtoull(br + 1, NULL, 16);
				n++;
			}
		}
		if (*nl == '\0')
			break;
	}
	return n;
}

/* addr2line -f -C -e exe ADDR...: "func\nfile:line\n" per address. */
static int
addr2line(const char *exe, const unsigned long long *addr, int n,
    char func[][128], char loc[][256])
{
	char arg[8][32], *argv[16], buf[4096];
	int fds[2], status, i, k = 0;
	size_t len = 0;
	ssize_t r;
	pid_t pid;
	FILE *f;

	argv[k++] = "addr2line";
	argv[k++] = "-f";
	argv[k++] = "-C";
	argv[k++] = "-e";
	argv[k++] = (char *)exe;
	for (i = 0; i < n && i < 8; i++) {
		snprintf(arg[i], sizeof(arg[i]), "0x%llx", addr[i] - 1);
		argv[k++] = arg[i];
	}
	argv[k] = NULL;
	if (pipe(fds) == -1)
		return -1;
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		freopen("/dev/null", "w", stderr);
		execvp("addr2line", argv);
		_exit(127);
	}
	close(fds[1]);
	while (len + 1 < sizeof(buf) &&
	    (r = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)r;
	buf[len] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	if ((f = fmemopen(buf, len + 1, "r")) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (fgets(func[i], 128, f) == NULL ||
		    fgets(loc[i], 256, f) == NULL)
			break;
		func[i][strcspn(func[i], "\n")] = '\0';
		loc[i][strcspn(loc[i], "\n")] = '\0';
		/* "file.c:12 (discriminator 3)" */
		loc[i][strcspn(loc[i], " ")] = '\0';
	}
	fclose(f);
	return i == n ? 0 : -1;
}

static int
known(const char *loc)
{
	return loc[0] != '?' && strstr(loc, ":0") == NULL &&
	    strstr(loc, ":?") == NULL;
}

/* "cat.c:87" without the directories. */
static const char *
base(const char *loc)
{
	const char *s = strrchr(loc, '/');

	return s != NULL ? s + 1 : loc;
}

char *
where_resolve(const char *exe, const char *frames)
{
	struct frame fr[64];
	unsigned long long addr[8];
	char real[PATH_MAX], func[8][128], loc[8][256], *out = NULL;
	int n, i, in = -1, top = -1;

	if (exe == NULL || frames == NULL || realpath(exe, real) == NULL)
		return NULL;
	if ((n = own_frames(real, frames, fr, 64)) == 0)
		return NULL;
	if (n > 8)
		n = 8;
	for (i = 0; i < n; i++)
		addr[i] = fr[i].addr;
	if (addr2line(real, addr, n, func, loc) == 0)
		for (i = 0; i < n; i++)
			if (known(loc[i])) {
				if (in < 0)
					in = i;
				top = i;
			}
	if (in < 0) {
		/* no debug information: strace's symbol is all there is */
		if (asprintf(&out, "in %s (no line numbers: build with -g)",
		    fr[0].sym[0] != '\0' ? fr[0].sym : "the program") == -1)
			out = NULL;
		return out;
	}
	if (top == in || strcmp(func[in], func[top]) == 0) {
		if (asprintf(&out, "%s in %s", base(loc[in]), func[in]) == -1)
			out = NULL;
	} else if (asprintf(&out, "%s in %s, from %s at %s", base(loc[in]),
	    func[in], func[top], base(loc[top])) == -1)
		out = NULL;
	return out;
}
