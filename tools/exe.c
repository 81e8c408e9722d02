/* SPDX-License-Identifier: ISC */
/*
 * exe.c: which program an exec runs, and whether the shim loads in it
 * (exe.h).  Every call here is a system call or a string function, so
 * that the shim's wrappers can use it in the child of a vfork().
 */
#include <sys/stat.h>
#include <sys/xattr.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "exe.h"

/* The kernel follows five #! lines in a row, no more (ELOOP). */
#define MAXDEPTH	5

/* "/proc/self/fd/N", without snprintf (not async-signal-safe). */
static const char *
fdpath(char buf[32], int fd)
{
	char digits[12], *p = buf + 14;
	int n = 0;

	memcpy(buf, "/proc/self/fd/", 14);
	do
		digits[n++] = (char)('0' + fd % 10);
	while ((fd /= 10) > 0);
	while (n > 0)
		*p++ = digits[--n];
	*p = '\0';
	return buf;
}

/*
 * The file itself, as a descriptor that opens nothing: O_PATH reads
 * no data and needs no read permission, so a FIFO does not block and a
 * device is not opened.  "" with AT_EMPTY_PATH is dirfd's own file.
 */
static int
open_path(int dirfd, const char *path, int atflags)
{
	char proc[32];
	int o = O_PATH | O_CLOEXEC;

	if (path[0] == '\0' && (atflags & AT_EMPTY_PATH)) {
		if (dirfd == AT_FDCWD)
			return open(".", o);	/* a directory: EACCES */
		if (dirfd < 0) {
			errno = EBADF;
			return -1;
		}
		return open(fdpath(proc, dirfd), o);
	}
	if (atflags & AT_SYMLINK_NOFOLLOW)
		o |= O_NOFOLLOW;
	return openat(dirfd, path, o);
}

/*
 * The interpreter of a #! line, as the kernel reads it: after "#!" and
 * blanks, up to a blank, the newline or the end; a line that fills the
 * kernel's 256 bytes with no end to the name is not run.  0, or -1.
 */
static int
interpreter(const struct exe *x, char *out, size_t len)
{
	const char *s = (const char *)x->head + 2, *end, *name;
	const char *nl = memchr(x->head, '\n', (size_t)x->headlen);

	end = nl != NULL ? nl : (const char *)x->head + x->headlen;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (name = s; s < end && *s != ' ' && *s != '\t' && *s != '\0'; s++)
		;
	if (s == name || (size_t)(s - name) >= len ||
	    (nl == NULL && s == (const char *)x->head + sizeof(x->head)))
		return -1;
	memcpy(out, name, (size_t)(s - name));
	out[s - name] = '\0';
	return 0;
}

int
exe_find(int dirfd, const char *path, int atflags, struct exe *x)
{
	char interp[sizeof(x->head)], proc[32];
	ssize_t n;
	int depth, fd;

	x->fd = -1;
	x->script = 0;
	for (depth = 0; ; depth++) {
		if ((fd = open_path(dirfd, path, atflags)) == -1)
			return -1;
		if (fstat(fd, &x->st) == -1 || !S_ISREG(x->st.st_mode)) {
			close(fd);
			errno = EACCES;		/* what execve says */
			return -1;
		}
		fdpath(proc, fd);
		x->fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		x->headlen = x->fd == -1 ? -1 :
		    read(x->fd, x->head, sizeof(x->head));
		if (x->headlen < 2 || x->head[0] != '#' || x->head[1] != '!')
			break;
		/* a script: the program is its interpreter */
		x->script = 1;
		close(fd);
		exe_close(x);
		if (depth >= MAXDEPTH ||
		    interpreter(x, interp, sizeof(interp)) == -1) {
			errno = ENOEXEC;
			return -1;
		}
		path = interp;
		dirfd = AT_FDCWD;
		atflags = 0;
	}
	n = readlink(proc, x->path, sizeof(x->path) - 1);
	close(fd);
	if (n == -1) {
		exe_close(x);
		return -1;
	}
	x->path[n] = '\0';
	return 0;
}

const char *
exe_untamed(const struct exe *x)
{
	/*
	 * The loader ignores the shim only where privileges are gained
	 * (not when root runs root's own set-user-ID program), but that
	 * depends on who runs it: refused as tame-exec -f refuses them.
	 */
	if (x->st.st_mode & S_ISUID)
		return "is set-user-ID (the loader ignores the shim when it "
		    "gains privileges)";
	if (x->st.st_mode & S_ISGID)
		return "is set-group-ID (the loader ignores the shim when it "
		    "gains privileges)";
	if (getxattr(x->path, "security.capability", NULL, 0) > 0)
		return "has file capabilities (the loader ignores the shim "
		    "when they give it privileges)";
	return exe_unloadable(x);
}

const char *
exe_unloadable(const struct exe *x)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	off_t off;
	int i;

	if (x->headlen == -1)
		return "cannot be read to check that the shim can load in it";
	if (x->headlen < (ssize_t)sizeof(eh) ||
	    memcmp(x->head, ELFMAG, SELFMAG) != 0)
		return "is not an ELF executable";
	memcpy(&eh, x->head, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EXE_MACHINE)
		return "is built for another architecture";
	for (i = 0; i < eh.e_phnum; i++) {
		off = (off_t)eh.e_phoff + (off_t)i * eh.e_phentsize;
		if (off + (off_t)sizeof(ph) <= x->headlen)
			memcpy(&ph, x->head + off, sizeof(ph));
		else if (pread(x->fd, &ph, sizeof(ph), off) != sizeof(ph))
			return "is a truncated ELF file";
		if (ph.p_type == PT_INTERP)
			return NULL;
	}
	return "is statically linked";
}

/*
 * Whether path's last name is one a C library gives its dynamic loader
 * (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld-2.31.so, ld64.so.2):
 * the file the kernel maps as the interpreter of every dynamic program,
 * which also runs a program named on its command line.  By name, so
 * that another machine's loader counts too; a copy under another name
 * is a file its maker could as well have copied the program to, which
 * a profile does not list either.
 */
static int
loader_name(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return (strncmp(base, "ld-", 3) == 0 || strncmp(base, "ld64.", 5) == 0 ||
	    strncmp(base, "ld.so", 5) == 0) && strstr(base, ".so") != NULL;
}

/* ld.so's options that take the next word as their value (glibc 2.36) */
static const char *const loader_valued[] = {
	"--library-path", "--inhibit-rpath", "--audit", "--preload",
	"--argv0", "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask", NULL
};

const char *
exe_loader_program(const struct exe *x, char *const argv[])
{
	int i, j;

	if (x->script || x->headlen < SELFMAG ||
	    memcmp(x->head, ELFMAG, SELFMAG) != 0 || !loader_name(x->path) ||
	    argv == NULL || argv[0] == NULL)
		return NULL;
	/*
	 * Its options come first, each a word of its own: those with a
	 * value skip it, the others (--list, --verify, --inhibit-cache,
	 * an unknown one, which glibc's loader refuses) are passed over,
	 * so that the first other word is judged even where the loader
	 * would only list or verify it.  musl's loader ends its options
	 * at "--".  A script whose #! line names the loader hands it
	 * other words (the line's argument, the script's path): not
	 * judged, since whoever can write such a script can as well copy
	 * the program to a path the profile does not list.
	 */
	for (i = 1; argv[i] != NULL; i++) {
		if (strncmp(argv[i], "--", 2) != 0)
			return argv[i];
		if (argv[i][2] == '\0')
			return argv[i + 1];
		for (j = 0; loader_valued[j] != NULL; j++)
			if (strcmp(argv[i], loader_valued[j]) == 0)
				break;
		if (loader_valued[j] != NULL && argv[++i] == NULL)
			return NULL;
	}
	return NULL;
}

/*
 * One program the loader may map as path: listed in p, and one the shim
 * cannot reach in it?  A script it does not run at all.
 */
static const char *
loaded_refused(const struct profile *p, const char *path, char prog[PATH_MAX])
{
	struct exe x;
	const char *why = NULL;

	if (exe_find(AT_FDCWD, path, 0, &x) == -1)
		return NULL;
	if (!x.script && profile_find(p, x.path) != NULL &&
	    (why = exe_unloadable(&x)) != NULL)
		memcpy(prog, x.path, strlen(x.path) + 1);
	exe_close(&x);
	return why;
}

const char *
exe_refused(const struct profile *p, int dirfd, const char *path,
    int atflags, char *const argv[], char prog[PATH_MAX], int *loaded)
{
	struct exe x;
	const char *why = NULL, *name, *base;
	int i;

	*loaded = 0;
	if (exe_find(dirfd, path, atflags, &x) == -1)
		return NULL;	/* the exec fails, or runs what none names */
	if (profile_find(p, x.path) != NULL) {
		if ((why = exe_untamed(&x)) != NULL)
			memcpy(prog, x.path, strlen(x.path) + 1);
		exe_close(&x);
		return why;
	}
	name = exe_loader_program(&x, argv);
	exe_close(&x);
	if (name == NULL)
		return NULL;
	*loaded = 1;
	if (strchr(name, '/') != NULL)
		return loaded_refused(p, name, prog);
	/*
	 * A name without a slash the loader looks up as a library's
	 * (glibc 2.36 in ld.so.cache alone; others may search its
	 * directories and LD_LIBRARY_PATH too): each listed program of
	 * that name is judged, wherever it lies.
	 */
	for (i = 0; i < p->n; i++) {
		base = strrchr(p->e[i].path, '/');
		if (base != NULL && strcmp(base + 1, name) == 0 &&
		    (why = loaded_refused(p, p->e[i].path, prog)) != NULL)
			return why;
	}
	return NULL;
}

void
exe_close(struct exe *x)
{
	if (x->fd != -1)
		close(x->fd);
	x->fd = -1;
}
