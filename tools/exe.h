/* SPDX-License-Identifier: ISC */
/*
 * exe.h: which program an exec of a file runs (a script's interpreter,
 * as the kernel finds it), and whether tame-exec's preloaded shim can
 * load in it.  For tame-exec --profile, which checks its command, and
 * for the shim's exec wrappers, which check what a process starts and
 * may run in the child of a vfork(): system calls and string functions
 * only, no allocation, no stdio, nothing locked.
 */
#ifndef TAME_EXE_H
#define TAME_EXE_H

#include <sys/stat.h>

#include <elf.h>
#include <limits.h>
#include <sys/types.h>

#include "profile.h"

#if defined(__x86_64__)
#define EXE_MACHINE	EM_X86_64
#elif defined(__aarch64__)
#define EXE_MACHINE	EM_AARCH64
#endif

struct exe {
	char		 path[PATH_MAX];	/* real path, as /proc/PID/exe */
	struct stat	 st;
	unsigned char	 head[256];	/* the kernel reads as much (#!) */
	ssize_t		 headlen;	/* -1: cannot be read */
	int		 fd;		/* open for reading, or -1 */
	int		 script;	/* path was a script: this is the
					   interpreter its #! line names */
};

/*
 * The program execveat(dirfd, path, ..., atflags) would run: the file,
 * or the interpreter of its #! line, followed as the kernel follows
 * them.  Returns 0, or -1 with errno where there is no such regular
 * file (or a script's line is not one the kernel runs): then the exec
 * fails by itself, or runs something exe_find cannot name.
 */
int		 exe_find(int dirfd, const char *path, int atflags,
		    struct exe *x);

/*
 * Why the shim could not load in x, as the end of a sentence ("is
 * statically linked"), or NULL when it can: the dynamic loader skips a
 * preload in a set-ID or file-capability program, there is none in a
 * static one, and a shim of this machine loads in no other.
 */
const char	*exe_untamed(const struct exe *x);

/*
 * The same for a program the dynamic loader maps itself (ld.so PROGRAM):
 * no privileges are gained then, so only what the file is counts.
 */
const char	*exe_unloadable(const struct exe *x);

/*
 * Whether an exec of x with argv is the dynamic loader run as a command,
 * and the program it will run: argv's word after the loader's options,
 * as glibc's ld.so reads them.  NULL when x is no loader or runs none.
 */
const char	*exe_loader_program(const struct exe *x, char *const argv[]);

/*
 * Under profile p: would execveat(dirfd, path, argv, ..., atflags) start
 * a program p lists that the shim cannot reach?  Then why, as the end of
 * a sentence, with that program's real path in prog and *loaded 1 where
 * the dynamic loader, run as a command, would start it; else NULL.
 */
const char	*exe_refused(const struct profile *p, int dirfd,
		    const char *path, int atflags, char *const argv[],
		    char prog[PATH_MAX], int *loaded);

void		 exe_close(struct exe *x);

#endif /* TAME_EXE_H */
