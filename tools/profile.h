/* SPDX-License-Identifier: ISC */
/*
 * profile.h: a profile, the flags of each program of a process tree.
 *
 * tame-audit --profile writes one, tame-exec --profile and its shim read
 * it: one line per program,
 *
 *	PATH FLAGS [load=MODULE,...]
 *	PATH pledge:PROMISE,... [load=MODULE,...]
 *
 * PATH the program's real executable path (what /proc/PID/exe shows: an
 * absolute path with no symbolic link in it; a script's is its
 * interpreter's), FLAGS lowercase flag names separated by commas
 * ("stdio,rpath"), the two separated by spaces or tabs; then, for a
 * program that loads code on demand, the shared objects the shim loads
 * before tame() (tame-exec -l), absolute paths separated by commas.  In
 * place of FLAGS, "pledge:" and pledge(3)'s promises separated by commas
 * ("pledge:stdio,rpath,proc,exec") has the shim call pledge() with them
 * (NULL execpromises) instead of tame().  '#' starts a
 * comment to the end of the line; blank lines are ignored.  A PATH may
 * not hold white space or '#', nor appear twice.  This file is the one
 * reader and writer of the format.
 *
 * The shim reads the profile at the start of every program of a tree, so
 * reading costs one read(2) of the file and a few allocations, whatever
 * its length: the paths stay in the text as read, and an index finds a
 * path (and a duplicate) in constant time.
 */
#ifndef TAME_PROFILE_H
#define TAME_PROFILE_H

#include <stddef.h>
#include <stdio.h>

struct profile_entry {
	char	*path;		/* in text when read, else its own copy */
	int	 flags;
	char	*load;		/* the modules, ',' between them, or NULL:
				   in text when read, else the caller's */
	char	*promises;	/* pledge's, ' ' between them, or NULL
				   (then flags): in text when read */
	int	 line;		/* where it was read, or 0 (profile_set) */
};

struct profile {
	struct profile_entry	*e;
	int			 n, cap;
	char			*text;	/* the file, lines cut in place */
	int			*index;	/* entry + 1 by hash of path, or 0 */
	int			 icap;	/* a power of two, or 0 */
};

/*
 * Read file into p (which starts empty).  Returns 0, or -1 with "FILE:LINE:
 * what is wrong" (or "FILE: why it cannot be read") in err; then p holds
 * nothing.  A file that does not exist is an error here: callers that
 * create one check first.
 */
int	profile_read(const char *file, struct profile *p, char *err,
	    size_t errlen);

/* The entry of path (compared as given), or NULL. */
const struct profile_entry *profile_find(const struct profile *p,
	    const char *path);

/*
 * Add or replace path's entry.  Returns 0, or -1 with errno EINVAL for a
 * path the format cannot hold (relative, white space, '#'), ENOMEM.
 */
int	profile_set(struct profile *p, const char *path, int flags);

/* Whether a path can be written on a profile line. */
int	profile_path_ok(const char *path);

/*
 * One line "PATH FLAGS[ load=MODULES]", then "  " and tail where tail is
 * not NULL (a comment the user gave the line), then a newline.
 */
int	profile_write_entry(FILE *f, const struct profile_entry *e,
	    const char *tail);

/* Whether a module can be written in a load= list. */
int	profile_module_ok(const char *module);

void	profile_free(struct profile *p);

#endif /* TAME_PROFILE_H */
