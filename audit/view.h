/* SPDX-License-Identifier: ISC */
/*
 * view.h: the hermetic view, in which each run tame-audit makes sees the
 * file system as it was before the first (tame-audit(1), HERMETIC RUNS).
 *
 * A run enters a private mount namespace (and, unprivileged, a user
 * namespace of the caller's own ids) in which every writable file system
 * is an overlay over the real one, with an upper layer of the run's own;
 * /proc, /sys, /dev and read-only file systems are bound as they are.
 * The first run's layers are applied to the real tree at the end, so the
 * command's effects on files are those of one run; every later run's are
 * thrown away.  The view confines nothing: the program runs with the
 * caller's rights, and what it does outside the file system (a request
 * to a server) happens in every run.
 */
#ifndef AUDIT_VIEW_H
#define AUDIT_VIEW_H

#include <sys/types.h>

#include <limits.h>
#include <stddef.h>

struct view_mount {
	char	*path;		/* the mount point, as the caller sees it */
	char	*options;	/* nosuid,nodev,noexec,... of the mount */
	int	 layered;	/* 1: writes go to a layer; 0: bound as is */
};

struct view {
	char			 dir[1024];	/* each run's layers in
						   dir/N/, removed by
						   view_drop or at
						   view_close */
	char			 cwd[PATH_MAX];
	int			 tmpfs;		/* dir is a tmpfs of ours */
	int			 userns;	/* unprivileged: a user
						   namespace of our ids */
	uid_t			 uid;
	gid_t			 gid;
	struct view_mount	*m;
	int			 nm;
	char			*unlayered;	/* writable file systems
						   bound as they are, for
						   the report; or NULL */
};

/* Is path at or under directory p ("/" holds every path)? */
int	view_under(const char *path, const char *p);

/*
 * Find the mounts, and the place for the layers.  Returns 0; or -1 with
 * why, and nothing left behind.  Whether a run can enter a view (no
 * namespaces for us, a kernel without unprivileged overlays) the first
 * run finds out (trace_run's view_error), before it runs anything.
 */
int	view_open(struct view *, char *why, size_t len);

/*
 * In the child of run number run, before it execs: enter a fresh view,
 * in which the file keep (the trace, or NULL) is the real one.  Returns
 * 0; or -1 with why.
 */
int	view_enter(const struct view *, int run, const char *keep, char *why,
	    size_t len);

/*
 * Apply what run number run changed to the real tree, with the signals
 * that end us held off until it is whole.  Returns 0; or -1 with what
 * could not be applied (the rest is).
 */
int	view_apply(const struct view *, int run, char *why, size_t len);

/*
 * Did runs a and b leave the same files (names, kinds, modes, contents;
 * not times)?  Returns 1; or 0 with the first difference in diff.
 */
int	view_same(const struct view *, int a, int b, char *diff, size_t len);

/* Throw away the layers of run number run, which nothing needs now. */
void	view_drop(const struct view *, int run);

/* Throw away every run's layers. */
void	view_close(struct view *);

#endif /* AUDIT_VIEW_H */
