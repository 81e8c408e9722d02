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
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	off_t off;
	int i;

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

void
exe_close(struct exe *x)
{
	if (x->fd != -1)
		close(x->fd);
	x->fd = -1;
}
