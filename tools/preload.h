/* SPDX-License-Identifier: ISC */
/*
 * preload.h: what the shim's constructor (preload.c) leaves for its exec
 * wrappers (preload-exec.c).  Written before main() and only read after,
 * so the wrappers read it without a lock, in a vfork() child too.
 */
#ifndef TAME_PRELOAD_H
#define TAME_PRELOAD_H

#include "profile.h"

enum shim_mode {
	SHIM_PASS,	/* -f, -p, a tamed listed program, or no tame-exec:
			   pass on */
	SHIM_PROFILE,	/* a program the profile does not list, or one it
			   pledges (which may exec): carry the profile on */
	SHIM_TREE	/* tame-exec --tree (tame-audit's): every program */
};

#define SHIM_NVARS	3

struct shim {
	enum shim_mode	 mode;
	const char	*path;		/* the shim itself, as loaded */
	char		*preload;	/* "LD_PRELOAD=" path */
	char		*vars[SHIM_NVARS + 1];	/* "NAME=value" to pass on */
	const char	*file;		/* the profile */
	struct profile	 profile;
};

extern struct shim shim;

/* Find the functions the wrappers pass on to (dlsym is not for later). */
void	shim_exec_init(void);

#endif /* TAME_PRELOAD_H */
