/* SPDX-License-Identifier: ISC */
/*
 * sup_procs.c: which image each process of a tree runs, as the
 * supervisor knows it where pledge's exec is held.
 *
 * Every process under the filter shares it, yet each runs one image:
 * the one that pledged (its promises), or one exec'd since (its
 * execpromises, or nothing when they are NULL).  No register or memory
 * of a process can say which without its say-so; the supervisor knows,
 * because it sees every exec and every fork (compile.c,
 * always_supervised):
 *
 *	fork	the child runs its parent's image: recorded when it first
 *		shows up in the parent's list of children, which the
 *		supervisor reads right after letting the fork go on
 *	exec	the process runs a new image once its old memory is gone:
 *		the supervisor holds the old memory open (/proc/PID/mem)
 *		when it lets the exec go on, and at the process's next call
 *		a read of it finds nothing (a failed exec left it as it was)
 *	narrow	the process says so itself (TAME_ASK_NARROW): records only
 *		ever lose atoms
 *
 * A process it cannot place (its parent gone before it showed up) gets
 * what both kinds of image may do (the promises and execpromises that
 * pledged first, together): never more than either.  Records go when
 * their process does (a pidfd that polls readable).
 */
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "compile.h"
#include "sup_int.h"
#include "sys.h"
#include "tame_int.h"

#ifndef KCMP_VM
#define KCMP_VM		1
#endif

#define MAXPROCS	4096

static struct sup_proc	procs[MAXPROCS];
static int		nprocs;		/* slots ever used */
static struct sup_proc	root;		/* what pledged first */

/* "/proc/" N "/" tail. */
const char *
sup_proc_path(char *buf, int n, const char *tail)
{
	char digits[16];
	int d = 0, i;
	unsigned v = (unsigned)n;

	do
		digits[d++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	memcpy(buf, "/proc/", 6);
	i = 6;
	while (d > 0)
		buf[i++] = digits[--d];
	buf[i++] = '/';
	memcpy(buf + i, tail, strlen(tail) + 1);
	return buf;
}

long
sup_status_num(int tid, const char *key)
{
	return sup_status_field(tid, key, 10);
}

long
sup_status_field(int tid, const char *key, int base)
{
	char path[64], buf[2048], *p;
	long fd, n, v = 0;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)sup_proc_path(path, tid,
	    "status"), O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return -1;
	n = tame__sys(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if ((p = strstr(buf, key)) == NULL)
		return -1;
	for (p += strlen(key); *p == '\t' || *p == ' '; p++)
		;
	if (*p < '0' || *p >= '0' + base)
		return -1;
	for (; *p >= '0' && *p < '0' + base; p++)
		v = v * base + (*p - '0');
	return v;
}

/*
 * Under unveil, does the process run an image unveil's x would not
 * exec: a file the rules give no x (a memfd, a path swapped after the
 * exec's look), or a shared object as a program (sup_loader.c)?
 */
static int
image_refused(int tgid, uint32_t uvid)
{
	char path[64];
	long fd;
	int r;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)sup_proc_path(path, tgid,
	    "exe"), O_PATH | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return fd != -ENOENT && fd != -ESRCH;	/* gone: nothing */
	r = !sup_unveil_allows_uvid(uvid, (int)fd, TAME_UV_X);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (r)
		return 1;
	/* readable only to look: an unreadable one maps nothing either */
	fd = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC,
	    0, 0, 0);
	if (fd < 0)
		return 0;
	r = sup_is_loader((int)fd);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	return r;
}

/* Has the process of this record ended (its pid free for another)? */
static int
gone(const struct sup_proc *p)
{
	struct pollfd q = { p->pidfd, POLLIN, 0 };
	struct timespec zero = { 0, 0 };

	return p->pidfd < 0 || (tame__sys(SYS_ppoll, (long)&q, 1, (long)&zero,
	    0, 8, 0) == 1 && (q.revents & (POLLIN | POLLHUP)));
}

static void
drop(struct sup_proc *p)
{
	if (p->pidfd >= 0)
		tame__sys(SYS_close, p->pidfd, 0, 0, 0, 0, 0);
	if (p->pin >= 0)
		tame__sys(SYS_close, p->pin, 0, 0, 0, 0, 0);
	memset(p, 0, sizeof(*p));
	p->pidfd = p->pin = -1;
}

static struct sup_proc *
find(int tgid)
{
	int i;

	for (i = 0; i < nprocs; i++)
		if (procs[i].tgid == tgid) {
			if (!gone(&procs[i]))
				return &procs[i];
			drop(&procs[i]);	/* its pid came back */
			return NULL;
		}
	return NULL;
}

/* A new record for tgid, like model; NULL when full. */
static struct sup_proc *
add(int tgid, const struct sup_proc *model)
{
	struct sup_proc *p = NULL;
	long pidfd;
	int i;

	for (i = 0; i < nprocs && p == NULL; i++)
		if (procs[i].tgid == 0 || gone(&procs[i])) {
			drop(&procs[i]);
			p = &procs[i];
		}
	if (p == NULL) {
		if (nprocs == MAXPROCS)
			return NULL;
		p = &procs[nprocs++];
	}
	if ((pidfd = tame__sys(SYS_pidfd_open, tgid, 0, 0, 0, 0, 0)) < 0)
		return NULL;
	*p = *model;
	p->tgid = tgid;
	p->pidfd = (int)pidfd;
	p->pin = -1;
	return p;
}

void
sup_procs_init(int pledger, tame_atoms held, tame_atoms exec_held,
    int exec_null, uint32_t uvid)
{
	int i;

	for (i = 0; i < MAXPROCS; i++)
		procs[i].pidfd = procs[i].pin = -1;
	root.held = held;
	root.exec_held = exec_held;
	root.exec_null = exec_null;
	root.uvid = uvid;
	root.pidfd = root.pin = -1;
	add(pledger, &root);
}

/* What an image exec'd by p holds. */
static tame_atoms
after_exec(const struct sup_proc *p)
{
	if (p->exec_null)
		return TAME_UNRESTRICTED;	/* not pledged at all */
	return p->exec_held | TAME__LOADER;
}

/*
 * An exec p let go on: is its old memory gone?  Then it runs the new
 * image; else the exec failed and it runs the old one.
 */
static void
settle(struct sup_proc *p)
{
	char byte;
	long n;

	if (p->vm_peer > 0) {
		/* a vfork child: its exec ends the memory it shared */
		n = tame__sys(SYS_kcmp, p->tgid, p->vm_peer, KCMP_VM, 0, 0, 0);
		if (n < 0) {
			/*
			 * Its peer is gone (or it is): which memory it runs
			 * cannot be told.  What both images may do.
			 */
			p->held = tame_unrestricted(p->held) ? after_exec(p) :
			    tame_unrestricted(after_exec(p)) ? p->held :
			    p->held & after_exec(p);
			p->fresh = 1;
			p->vm_peer = 0;
			return;
		}
		if (n != 0) {
			p->held = after_exec(p);
			p->fresh = 1;
			p->vm_peer = 0;
		}
		return;
	}
	if (p->pin < 0)
		return;
	n = tame__sys(SYS_pread64, p->pin, (long)&byte, 1, (long)p->pin_at, 0,
	    0);
	if (n == 0 || n == -ESRCH) {
		p->held = after_exec(p);
		p->fresh = 1;
		/* its own execs get the same execpromises, as OpenBSD's */
	}
	tame__sys(SYS_close, p->pin, 0, 0, 0, 0, 0);
	p->pin = -1;
}

struct sup_proc *
sup_proc_of(struct sup_req *r)
{
	struct sup_proc *p, *parent, guess;
	long tgid, ppid;

	if ((tgid = sup_status_num(r->tid, "\nTgid:")) <= 0)
		return NULL;
	r->tgid = (int)tgid;
	if ((p = find((int)tgid)) != NULL) {
		settle(p);
		if (p->fresh) {
			/* its first call since an exec: what runs now? */
			p->fresh = 0;
			p->loader = p->uvid != 0 &&
			    image_refused(p->tgid, p->uvid);
		}
		return p;
	}
	/* unknown: its parent's image, which it was forked in */
	ppid = sup_status_num((int)tgid, "\nPPid:");
	parent = ppid > 0 ? find((int)ppid) : NULL;
	if (parent != NULL)
		settle(parent);
	if (parent != NULL && parent->pin < 0)
		guess = *parent;
	else {
		/* no parent to place it by: what both kinds may do */
		guess = root;
		guess.held = tame_unrestricted(root.held) ? after_exec(&root) :
		    tame_unrestricted(after_exec(&root)) ? root.held :
		    root.held & after_exec(&root);
		guess.exec_held &= guess.held;
	}
	return add((int)tgid, &guess);
}

void
sup_proc_exec(struct sup_proc *p, struct sup_req *r, uint64_t mapped)
{
	char path[64];
	long fd, ppid;

	if (p->pin >= 0) {
		tame__sys(SYS_close, p->pin, 0, 0, 0, 0, 0);
		p->pin = -1;
	}
	/*
	 * A child that runs in its parent's memory (vfork, posix_spawn):
	 * that memory stays when the child's exec succeeds; the two just
	 * stop sharing it.
	 */
	p->vm_peer = 0;
	ppid = sup_status_num(p->tgid, "\nPPid:");
	if (ppid > 0 && tame__sys(SYS_kcmp, p->tgid, ppid, KCMP_VM, 0, 0,
	    0) == 0) {
		p->vm_peer = (int)ppid;
		return;
	}
	fd = tame__sys(SYS_openat, AT_FDCWD, (long)sup_proc_path(path, r->tid,
	    "mem"), O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0) {
		/* cannot tell when it changes: from now on, the new image */
		p->held = after_exec(p);
		p->fresh = 1;
		return;
	}
	p->pin = (int)fd;
	p->pin_at = mapped;
}

/* Is thread tid of process tgid still in a call that makes a process? */
static int
forking(int tgid, int tid)
{
	char path[64], tail[48] = "task/", buf[32];
	char *p = tail + 5;
	long fd, n, nr = 0;
	char digits[16];
	int k = 0;
	unsigned v = (unsigned)tid;

	do
		digits[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (k > 0)
		*p++ = digits[--k];
	memcpy(p, "/syscall", 9);
	fd = tame__sys(SYS_openat, AT_FDCWD, (long)sup_proc_path(path, tgid,
	    tail), O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return 0;
	n = tame__sys(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (n <= 0 || buf[0] < '0' || buf[0] > '9')
		return 0;	/* "running", or "-1": out of it */
	for (k = 0; k < n && buf[k] >= '0' && buf[k] <= '9'; k++)
		nr = nr * 10 + (buf[k] - '0');
	return nr == SYS_clone || nr == SYS_clone3
#ifdef SYS_fork
	    || nr == SYS_fork || nr == SYS_vfork
#endif
	    ;
}

/*
 * After a fork p let go on, from thread tid: the child shows up in the
 * thread's list of children; recorded with p's image.  A fork that
 * failed shows none: the look gives up after a while.
 */
void
sup_proc_fork(struct sup_proc *p, int tid)
{
	char path[64], tail[48] = "task/", buf[4096], *s;
	long fd, n, child;
	int i, tries, k, done = 0;
	char digits[16];
	unsigned v = (unsigned)tid;

	k = 0;
	do
		digits[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (i = 5; k > 0; )
		tail[i++] = digits[--k];
	memcpy(tail + i, "/children", 10);
	for (tries = 0; tries < 100000; tries++) {
		fd = tame__sys(SYS_openat, AT_FDCWD, (long)sup_proc_path(path,
		    p->tgid, tail), O_RDONLY | O_CLOEXEC, 0, 0, 0);
		if (fd < 0)
			return;
		n = tame__sys(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		if (n < 0)
			return;
		buf[n] = '\0';
		for (s = buf; *s != '\0'; ) {
			for (child = 0; *s >= '0' && *s <= '9'; s++)
				child = child * 10 + (*s - '0');
			while (*s == ' ')
				s++;
			if (child > 0 && find((int)child) == NULL) {
				add((int)child, p);
				return;
			}
			if (child == 0 && *s != '\0')
				s++;
		}
		/*
		 * None yet: while the thread is still in its fork, the
		 * child is to come (a busy machine may not have run it);
		 * once it is out, a last look, and a fork that failed made
		 * none.  Never past a second or so.
		 */
		if (done)
			return;
		done = !forking(p->tgid, tid);
		if (tries < 1000)
			tame__sys(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
		else if (tries < 2000)
			tame__sys(SYS_nanosleep, (long)&(struct timespec){ 0,
			    1000000 }, 0, 0, 0, 0, 0);
		else
			return;
	}
}

void
sup_proc_narrow(struct sup_proc *p, tame_atoms held, int exec_given,
    tame_atoms exec_held)
{
	/* not pledged, then pledged: what it holds now */
	p->held = tame_unrestricted(p->held) ? held & ~TAME__UNVEILED :
	    p->held & held;
	if (exec_given) {
		if (p->exec_null)
			p->exec_held = exec_held;
		else
			p->exec_held &= exec_held;
		p->exec_null = 0;
	}
}
