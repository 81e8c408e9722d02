/* SPDX-License-Identifier: ISC */
/*
 * landlock.c: the file system half of the path-gated flags.
 *
 * Seccomp cannot read a path, so opens that only some paths may succeed
 * at (the time zone files for everyone, the passwd and group files for
 * GETPW, resolv.conf and friends for DNSPATH, /tmp for TMPPATH) pass the
 * filter and meet a Landlock layer that handles exactly the rights the
 * held flags do not grant everywhere.  Each tame() may add a layer; layers
 * only ever narrow, as flags do.  Landlock refusals are EACCES.
 *
 * A layer binds the calling thread and the threads it starts later, not
 * the ones already running, so tame() only relies on Landlock when the
 * process is single-threaded; otherwise the filter answers the confined
 * opens with EACCES itself, and the SIGSYS handler confines the granted
 * paths with openat2's resolve flags instead (emulate.c).
 */
#include <sys/syscall.h>
#include <linux/landlock.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "sys.h"
#include "landlock_rights.h"
#include "policy.h"
#include "tame_int.h"

#define LL_SCOPE_ABSTRACT_UNIX	(1ULL << 0)	/* LANDLOCK_SCOPE_..., ABI 6 */
#define LL_SCOPE_SIGNAL	(1ULL << 1)	/* LANDLOCK_SCOPE_SIGNAL, ABI 6 */
#define LL_NET_TCP	(3ULL)		/* LANDLOCK_ACCESS_NET_{BIND,CONNECT}_TCP,
					   ABI 4 */

TAME_EXPORT int
tame_landlock_abi(void)
{
	static int abi = -1;
	long r;

	if (abi < 0) {
		r = tame__sys(SYS_landlock_create_ruleset, 0, 0,
		    LANDLOCK_CREATE_RULESET_VERSION, 0, 0, 0);
		abi = r < 0 ? 0 : (int)r;
	}
	return abi;
}


/*
 * Does this kernel have openat2(2) (Linux 5.6)?  Asked once, through the
 * gate, which the filter lets make it where the handler needs it.
 */
int
tame__openat2_ok(void)
{
	static int ok = -1;
	struct {			/* struct open_how */
		uint64_t	 flags, mode, resolve;
	} how = { O_PATH | O_CLOEXEC, 0, 0 };
	long fd;

	if (ok < 0) {
		fd = tame__sys(SYS_openat2, AT_FDCWD, (long)"/", (long)&how,
		    sizeof(how), 0, 0);
		if (fd >= 0)
			tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		ok = fd != -ENOSYS;
	}
	return ok;
}

/*
 * The path-gated flags among flags whose paths this kernel cannot
 * confine: where it has neither Landlock nor openat2 (before Linux 5.6)
 * they grant nothing, and their opens fail with EACCES.
 */
TAME_EXPORT int
tame_flags_unconfined(int flags)
{
	if (flags & ~TAME_ALL) {
		errno = EINVAL;
		return -1;
	}
	if (tame_landlock_abi() > 0 || tame__openat2_ok())
		return 0;
	return flags & (TAME_TMPPATH | TAME_GETPW | TAME_DNSPATH);
}

uint64_t
tame__lpath_access(int rights)
{
	switch (rights) {
	case TL_FULL:
		return LL_READ | LL_WRITE | LL_CREATE |
		    LANDLOCK_ACCESS_FS_REFER;
	case TL_RW:
		return LL_READ | LL_WRITE;
	default:
		return LL_READ;
	}
}

/*
 * The rights a layer for held must handle: those the flags do not grant
 * on every path.  Zero when no Landlock-confined row is live.
 */
static uint64_t
handled(tame_atoms held, int abi)
{
	uint64_t h = 0;
	int i;

	if ((held & ~TAME__ALWAYS) == 0)
		return 0;		/* tame(0) opens nothing */
	if ((held & TAME_RPATH) == 0)
		h |= LL_READ;
	/*
	 * The marked write opens of a path a held atom grants for writing
	 * (pledge's /dev/null, /dev/tty; tmppath's /tmp): judged here.
	 */
	for (i = 0; i < tame_nlpaths && !(held & TAME_WPATH); i++)
		if ((held & tame_lpaths[i].flag) &&
		    tame_lpaths[i].rights >= TL_RW)
			h |= LL_WRITE;
	if (held & TAME_TMPPATH) {
		if ((held & TAME_CPATH) == 0)
			h |= LL_CREATE;
		/* bind() of a path socket is UNIX's, wherever the path */
		if (held & TAME_UNIX)
			h &= ~LANDLOCK_ACCESS_FS_MAKE_SOCK;
	}
	if (h == 0)
		return 0;
	/*
	 * Any layer refuses renames across directories unless it handles
	 * and grants REFER (ABI 2); CPATH must keep them.
	 */
	if (held & TAME_CPATH)
		h |= LANDLOCK_ACCESS_FS_REFER;
	switch (abi) {
	case 1:
		h &= ~LANDLOCK_ACCESS_FS_REFER;
		/* FALLTHROUGH */
	case 2:
		h &= ~LANDLOCK_ACCESS_FS_TRUNCATE;
	}
	return h;
}

int
tame__landlock_needed(tame_atoms held)
{
	return handled(held, 7) != 0;
}

/* Paths are opened marked: a filter is in already (tame.c says so). */
static int	opens_marked;
/* "/", opened before any filter, for the REFER rules of later layers. */
static int	root_fd = -1;

void
tame__landlock_opens_marked(int on)
{
	opens_marked = on;
}

static int
add_path(int ruleset, const char *path, uint64_t access)
{
	struct landlock_path_beneath_attr pb;
	long fd, r;

	int root = strcmp(path, "/") == 0;

	/*
	 * Under a filter already, with a layer (tame_state.landlock_ok):
	 * opened for reading, marked, which the layer judges; the new layer
	 * grants only paths the last one did (policy.c, MARKED).  But "/",
	 * where CPATH's layers grant renames across directories (REFER),
	 * may not be readable: the first layer's descriptor of it is kept.
	 */
	if (root && root_fd >= 0)
		fd = root_fd;
	else if (opens_marked)
		fd = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY |
		    O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0, TAME_MARK, 0);
	else
		fd = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_PATH |
		    O_CLOEXEC, 0, 0, 0);
	if (fd == -ENOENT || fd == -ENOTDIR || fd == -EACCES)
		return 0;		/* nothing there to grant */
	if (fd < 0)
		return (int)fd;
	if (root && !opens_marked)
		root_fd = (int)fd;
	pb.parent_fd = (int)fd;
	pb.allowed_access = access;
	r = tame__sys(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
	    (long)&pb, 0, 0, 0);
	if (r == -EINVAL) {
		/* not a directory: only file rights apply */
		pb.allowed_access = access & LL_FILE;
		r = pb.allowed_access == 0 ? 0 : tame__sys(
		    SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    (long)&pb, 0, 0, 0);
	}
	if (fd != root_fd)
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return (int)r;
}

/*
 * A layer is known by what it handles and which of tame_lpaths it
 * grants.  One equal to the newest layer in force adds nothing, and is
 * not added: any chain of narrowing tame() calls then stays well inside
 * the kernel's 16 layers.
 */
struct layer {
	uint64_t	 handled;
	uint32_t	 paths;		/* bit i: tame_lpaths[i] granted
					   (t_table: at most 32 entries) */
};

static struct layer	 newest, pending;
static int		 newest_valid;

static struct layer
layer_for(tame_atoms held, int abi)
{
	struct layer l = { handled(held, abi), 0 };
	int i;

	for (i = 0; i < tame_nlpaths && i < 32; i++)
		if (held & tame_lpaths[i].flag)
			l.paths |= 1u << i;
	return l;
}

int
tame__landlock_is_current(tame_atoms held)
{
	struct layer l = layer_for(held, tame_landlock_abi());

	return newest_valid && l.handled == newest.handled &&
	    l.paths == newest.paths;
}

/*
 * Build the layer held needs.  Returns 0 with *ruleset_fd -1 when none is
 * needed, 0 with a ruleset to enforce, or -1 with errno.
 */
int
tame__landlock_prepare(tame_atoms held, int *ruleset_fd)
{
	struct landlock_ruleset_attr attr;
	uint64_t access, h;
	long fd;
	int abi, i, r;

	*ruleset_fd = -1;
	abi = tame_landlock_abi();
	if (abi == 0)
		return 0;
	h = handled(held, abi);
	if (h == 0)
		return 0;
	attr.handled_access_fs = h;
	fd = tame__sys(SYS_landlock_create_ruleset, (long)&attr, sizeof(attr),
	    0, 0, 0, 0);
	if (fd < 0) {
		errno = (int)-fd;
		return -1;
	}
	for (i = 0; i < tame_nlpaths; i++) {
		if ((held & tame_lpaths[i].flag) == 0)
			continue;
		access = tame__lpath_access(tame_lpaths[i].rights) & h &
		    ~LANDLOCK_ACCESS_FS_REFER;
		if (access == 0)
			continue;
		if ((r = add_path((int)fd, tame_lpaths[i].path, access)) < 0)
			goto fail;
	}
	if ((h & LANDLOCK_ACCESS_FS_REFER) &&
	    (r = add_path((int)fd, "/", LANDLOCK_ACCESS_FS_REFER)) < 0)
		goto fail;
	pending = layer_for(held, abi);
	*ruleset_fd = (int)fd;
	return 0;
fail:
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	errno = -r;
	return -1;
}

/*
 * The layer that confines no path, for a first tame() that needs none:
 * in a Landlock domain a process cannot ptrace, nor open the memory in
 * /proc of, any process outside it (ptrace(2), process_vm_writev(2),
 * /proc/PID/mem), which RPATH and WPATH would otherwise reach.
 *
 * A layer must restrict something.  The cheapest is one that only
 * refuses what the flags refuse anyway and handles no file system right,
 * so that opens pay nothing for it; the first kind that fits:
 *
 *	no PROC, no CPATH	scope signals (ABI 6): the filter keeps
 *				them to this process anyway
 *	no CPATH, no UNIX	scope abstract AF_UNIX sockets (ABI 6): a
 *				process without UNIX has none to use
 *	no CPATH, INET, DNSPATH	handle TCP bind and connect (ABI 4): the
 *				process may make no internet socket
 *	otherwise		handle making block devices, which the
 *				filter refuses anyway; every open then
 *				passes Landlock's hook (bench: +160 ns an
 *				open+close on 6.18)
 *
 * PROC's signals may go to any process, so PROC cannot scope them; and
 * under CPATH the layer must handle and grant REFER everywhere, since a
 * layer that does not refuses renames across directories as soon as a
 * later one handles file rights.  Before ABI 2 no layer can grant REFER:
 * under CPATH there is then no domain (nor without Landlock at all).
 */
int
tame__domain_kind(tame_atoms held, int abi)
{
	if (abi == 0)
		return TAME_DOMAIN_NONE;
	/*
	 * pledge's exec: the images it execs live in the domain too, and
	 * execpromises (NULL: nothing) decide what they may: the layer
	 * handles making block devices only (CAP_MKNOD's anyway), no
	 * rename, no signal, no socket.
	 */
	if (held & TAME__EXEC)
		return TAME_DOMAIN_BLOCK;
	if (abi < 2 && (held & TAME_CPATH))
		return TAME_DOMAIN_NONE;
	if (abi >= 6 && (held & (TAME_PROC | TAME_CPATH)) == 0)
		return TAME_DOMAIN_SIGNALS;
	if (abi >= 6 && (held & (TAME_CPATH | TAME_UNIX)) == 0)
		return TAME_DOMAIN_ABSTRACT_UNIX;
	if (abi >= 4 && (held & (TAME_CPATH | TAME_INET | TAME_DNSPATH)) == 0)
		return TAME_DOMAIN_TCP;
	return TAME_DOMAIN_FILES;
}

/*
 * Build that layer for held on this kernel.  Returns 0 with *ruleset_fd
 * -1 where there is none to add, 0 with a ruleset to enforce, or -1 with
 * errno.
 */
int
tame__landlock_domain(tame_atoms held, int *ruleset_fd)
{
	struct {			/* struct landlock_ruleset_attr, ABI 6 */
		uint64_t	 handled_access_fs;
		uint64_t	 handled_access_net;
		uint64_t	 scoped;
	} attr = { 0, 0, 0 };
	long fd;
	int r;

	*ruleset_fd = -1;
	switch (tame__domain_kind(held, tame_landlock_abi())) {
	case TAME_DOMAIN_NONE:
		return 0;
	case TAME_DOMAIN_SIGNALS:
		attr.scoped = LL_SCOPE_SIGNAL;
		break;
	case TAME_DOMAIN_ABSTRACT_UNIX:
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX;
		break;
	case TAME_DOMAIN_TCP:
		attr.handled_access_net = LL_NET_TCP;
		break;
	case TAME_DOMAIN_BLOCK:
		attr.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_BLOCK;
		break;
	default:
		attr.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_BLOCK;
		if (held & TAME_CPATH)
			attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
	}
	fd = tame__sys(SYS_landlock_create_ruleset, (long)&attr, sizeof(attr),
	    0, 0, 0, 0);
	if (fd < 0) {
		errno = (int)-fd;
		return -1;
	}
	if ((attr.handled_access_fs & LANDLOCK_ACCESS_FS_REFER) &&
	    (r = add_path((int)fd, "/", LANDLOCK_ACCESS_FS_REFER)) < 0) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		errno = -r;
		return -1;
	}
	pending = (struct layer){ attr.handled_access_fs, 0 };
	*ruleset_fd = (int)fd;
	return 0;
}

/* The layer tame__landlock_prepare() or _domain() made is in force. */
void
tame__landlock_enforced(void)
{
	newest = pending;
	newest_valid = 1;
}
