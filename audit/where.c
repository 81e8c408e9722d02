/* SPDX-License-Identifier: ISC */
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
 * Functions inlined at an address are followed to the program's own
 * line (addr2line -i), past libc's inline wrappers in system headers.
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

/*
 * A location in a system header: libc's inline wrappers (the fortified
 * open() of <bits/fcntl2.h>, read(), ...) and the compiler's own, whose
 * code lands inside the program's function that called them.  The
 * program's line is the one they were inlined into.
 */
static int
system_header(const char *loc)
{
	return strncmp(loc, "/usr/include/", 13) == 0 ||
	    strncmp(loc, "/usr/lib/gcc/", 13) == 0 ||
	    strncmp(loc, "/usr/local/include/", 19) == 0;
}

static int
known(const char *loc)
{
	return loc[0] != '?' && strstr(loc, ":0") == NULL &&
	    strstr(loc, ":?") == NULL && !system_header(loc);
}

/*
 * addr2line -a -i -f -C -e exe ADDR...: per address a line "0x...",
 * then "func\nfile:line\n" for each function inlined there, innermost
 * first, the real function last.  Of each address's chain this keeps
 * the innermost known place in the program's own source (in: where the
 * call was made) and the outermost (out: the real function, for the
 * top of the stack); func[i][0] is '\0' where there is none.
 */
static int
addr2line(const char *exe, const unsigned long long *addr, int n,
    char in_func[][128], char in_loc[][256], char out_func[][128],
    char out_loc[][256])
{
	char arg[8][32], *argv[16], buf[16384], func[128], loc[256];
	int fds[2], status, i, k = 0;
	size_t len = 0;
	ssize_t r;
	pid_t pid;
	FILE *f;

	argv[k++] = "addr2line";
	argv[k++] = "-a";
	argv[k++] = "-i";
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
	for (i = 0; i < n; i++)
		in_func[i][0] = out_func[i][0] = '\0';
	i = -1;
	while (fgets(func, sizeof(func), f) != NULL) {
		func[strcspn(func, "\n")] = '\0';
		if (strncmp(func, "0x", 2) == 0) {	/* the next address */
			if (++i >= n)
				break;
			continue;
		}
		if (i < 0 || fgets(loc, sizeof(loc), f) == NULL)
			break;
		loc[strcspn(loc, "\n")] = '\0';
		/* "file.c:12 (discriminator 3)" */
		loc[strcspn(loc, " ")] = '\0';
		if (!known(loc))
			continue;
		if (in_func[i][0] == '\0') {
			snprintf(in_func[i], 128, "%s", func);
			snprintf(in_loc[i], 256, "%s", loc);
		}
		snprintf(out_func[i], 128, "%s", func);
		snprintf(out_loc[i], 256, "%s", loc);
	}
	fclose(f);
	return i == n - 1 ? 0 : -1;
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
	char real[PATH_MAX], ifunc[8][128], iloc[8][256], ofunc[8][128],
	    oloc[8][256], *out = NULL;
	int n, i, in = -1, top = -1;

	if (exe == NULL || frames == NULL || realpath(exe, real) == NULL)
		return NULL;
	if ((n = own_frames(real, frames, fr, 64)) == 0)
		return NULL;
	if (n > 8)
		n = 8;
	for (i = 0; i < n; i++)
		addr[i] = fr[i].addr;
	if (addr2line(real, addr, n, ifunc, iloc, ofunc, oloc) == 0)
		for (i = 0; i < n; i++)
			if (ifunc[i][0] != '\0') {
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
	if (strcmp(ifunc[in], ofunc[top]) == 0) {
		if (asprintf(&out, "%s in %s", base(iloc[in]), ifunc[in]) == -1)
			out = NULL;
	} else if (asprintf(&out, "%s in %s, from %s at %s", base(iloc[in]),
	    ifunc[in], ofunc[top], base(oloc[top])) == -1)
		out = NULL;
	return out;
}
