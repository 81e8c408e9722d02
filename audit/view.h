/* SPDX-License-Identifier: ISC */
/*
 * view.h: the view in which each of tame-audit's own runs of the command
 * is made, and thrown away after it (tame-audit(1), HERMETIC RUNS).
 *
 * The user's files change only by the one plain run of the command that
 * ends an audit (runs.h); every other run is made in a view, and nothing
 * of a view ever reaches the real tree.  A run enters a private mount
 * namespace (unprivileged, in a user namespace of the caller's own ids)
 * where each file system the command could change is an overlay over
 * the real one, whose upper layer is on a tmpfs that only that namespace
 * has: it is gone with the run's last process and our descriptor of it,
 * whatever ends us, and no path the command can reach leads to it.  What
 * no overlay can stand over (a network file system, a file bound alone,
 * unprivileged the places that are not the caller's own) is read-only in
 * the view, so that a run of ours fails to write there instead of
 * writing for real.  /proc, /sys and /dev are bound as they are.  The
 * view confines nothing: the program runs with the caller's rights, and
 * what it does outside the file system (a request to a server) happens
 * in every run.
 */
#ifndef AUDIT_VIEW_H
#define AUDIT_VIEW_H

#include <sys/types.h>

#include <limits.h>
#include <stddef.h>

enum view_kind {
	VIEW_LAYER,	/* an overlay, writes go to the run's layer */
	VIEW_BIND,	/* bound with all under it, as it is */
	VIEW_INSIDE,	/* came with the bind of a mount above it */
};

struct view_mount {
	char		*path;		/* the mount point, as we see it */
	char		*type;		/* its file system's type */
	enum view_kind	 kind;
	int		 readonly;	/* writable, but read-only in the
					   view: no overlay holds it */
	unsigned long	 flags;		/* nosuid, nodev, noexec */
};

struct view {
	char			 cwd[PATH_MAX];
	int			 userns;	/* unprivileged: a user
						   namespace of our ids */
	uid_t			 uid;
	gid_t			 gid;
	struct view_mount	*m;
	int			 nm;
	const char		*store;		/* where a run's tmpfs is
						   mounted in its namespace,
						   hidden from its view */
	char			*readonly;	/* for the report: what the
						   views hold read-only, or
						   NULL */
};

/* Is path at or under directory p ("/" holds every path)? */
int	view_under(const char *path, const char *p);

/*
 * Find the mounts and what each is in a view.  Returns 0; or -1 with
 * why.  Whether a run can enter a view (no namespaces for us, a kernel
 * without unprivileged overlays) the first run finds out (trace.h),
 * before it runs anything.
 */
int	view_open(struct view *, char *why, size_t len);

/*
 * In a run's child, before it execs: enter a fresh view, and send the
 * descriptor of its layers (the tmpfs) on the socket to.  Returns 0; or
 * -1 with why, having run nothing.
 */
/*
 * In a view (after view_enter()): file made anew with text, for the run
 * to read (it is gone with the view).  0, or -1 with why.
 */
int	view_write(const char *file, const char *text, char *why, size_t len);

int	view_enter(const struct view *, int to, char *why, size_t len);

/*
 * Did the runs whose layers are a and b (descriptors view_enter sent)
 * leave the same files (names, kinds, modes, contents; not times)?
 * noise, when not -1, holds the layers of a second run made as a was: a
 * file on which a and noise disagree varies from run to run, and b is
 * not held to a there.  Returns 1; or 0 with the first difference in
 * diff.
 */
int	view_same(const struct view *, int a, int b, int noise, char *diff,
	    size_t len);

void	view_close(struct view *);

#endif /* AUDIT_VIEW_H */
