/* SPDX-License-Identifier: ISC */
/*
 * sup_exec.c: the calls of an exec tree the filter sends the supervisor
 * (compile.c, the exec split): each judged by the image its caller runs
 * (sup_procs.c), by the table's own rows.
 *
 *	exec, fork	let go on, and recorded: the image after an exec,
 *			the child of a fork; an exec of a set-ID program
 *			under execpromises fails with EACCES and a line,
 *			as on OpenBSD
 *	allowed		let go on (SECCOMP_USER_NOTIF_FLAG_CONTINUE): the
 *			row that allows it read registers only, which
 *			nothing can change while the caller waits
 *	a trap's	made here from copies, as for a request
 *			(sup_calls.c)
 *	a violation	the line on the caller's stderr, then SIGSYS to
 *			it (pledge's error: ENOSYS, and it goes on)
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "compile.h"
#include "sup_int.h"
#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"


/* The caller's effective ids and groups (pledge's fattr: chown to self). */
static void
caller_ids(int tid, struct tame_ids *ids)
{
	char path[64], buf[4096], *p;
	long fd, n;
	uint32_t v;
	int field;

	ids->uid = (uint32_t)-2;	/* matches nothing but -1's rows */
	ids->gid[0] = (uint32_t)-2;
	ids->ngid = 1;
	fd = tame__sys(SYS_openat, AT_FDCWD, (long)sup_proc_path(path, tid,
	    "status"), O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return;
	n = tame__sys(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (n <= 0)
		return;
	buf[n] = '\0';
	/* the second number of Uid: and Gid: is the effective one */
	if ((p = strstr(buf, "\nUid:")) != NULL)
		for (p += 5, field = 0; field < 2; field++) {
			while (*p == '\t' || *p == ' ')
				p++;
			for (v = 0; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (uint32_t)(*p - '0');
			ids->uid = v;
		}
	if ((p = strstr(buf, "\nGid:")) != NULL)
		for (p += 5, field = 0; field < 2; field++) {
			while (*p == '\t' || *p == ' ')
				p++;
			for (v = 0; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (uint32_t)(*p - '0');
			ids->gid[0] = v;
		}
	if ((p = strstr(buf, "\nGroups:")) != NULL)
		for (p += 8; ids->ngid < TAME_MAXGIDS; ) {
			while (*p == '\t' || *p == ' ')
				p++;
			if (*p < '0' || *p > '9')
				break;
			for (v = 0; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (uint32_t)(*p - '0');
			if (v != ids->gid[0])
				ids->gid[ids->ngid++] = v;
		}
}

/* The caller's own name, for its line. */
static void
caller_comm(int tid, char *comm, size_t len)
{
	char path[64];
	long fd, n;

	strncpy(comm, "?", len);
	fd = tame__sys(SYS_openat, AT_FDCWD, (long)sup_proc_path(path, tid,
	    "comm"), O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return;
	n = tame__sys(SYS_read, fd, (long)comm, (long)len - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (n > 0) {
		comm[n] = '\0';
		if (comm[n - 1] == '\n')
			comm[n - 1] = '\0';
	}
}

/* A violation's line, on the caller's stderr. */
static void
say(struct sup_req *r, tame_atoms held, const char *detail, tame_atoms need)
{
	struct tame_call c;
	struct tame_line l = { .len = 0 };
	char comm[32];
	long err, pa;

	memset(&c, 0, sizeof(c));
	c.nr = r->nr;
	memcpy(c.a, r->args, sizeof(c.a));
	c.path_arg = -1;
	c.detail = detail;
	c.need = need;
	if ((pa = tame__path_arg(r->nr)) >= 0 && sup_read_str(r, c.buf,
	    sizeof(c.buf), r->args[pa]) >= 0) {
		c.path_arg = (int)pa;
		c.path = c.buf;
	}
	caller_comm(r->tid, comm, sizeof(comm));
	tame__violation_line(&l, &c, comm, r->tgid, held, 1);
	if ((err = sup_caller_file(r, 2)) >= 0) {
		tame__sys(SYS_write, err, (long)l.buf, (long)l.len, 0, 0, 0);
		tame__sys(SYS_close, err, 0, 0, 0, 0, 0);
	}
}

/*
 * A violation of an image the supervisor judged: its line, then SIGSYS
 * (the default action dumps a core; a handler of libtame's takes it for
 * what it is), unless pledge's error is held.  The call fails with
 * ENOSYS either way.
 */
static long
violation(struct sup_req *r, tame_atoms held, const char *detail,
    tame_atoms need)
{
	long pidfd;

	say(r, held, detail, need);
	if (!(held & TAME__ERROR) && (pidfd = tame__sys(SYS_pidfd_open,
	    r->tgid, 0, 0, 0, 0, 0)) >= 0) {
		if (sup_valid(r))
			tame__sys(SYS_pidfd_send_signal, pidfd, SIGSYS, 0, 0,
			    0, 0);
		tame__sys(SYS_close, pidfd, 0, 0, 0, 0, 0);
	}
	return -ENOSYS;
}

#define WHY_LOADER	"(a shared object run as a program)"

/* Is the O_PATH descriptor's file a loader (sup_loader.c)? */
static int
readable_loader(long fd)
{
	char proc[32] = "/proc/self/fd/", digits[12];
	unsigned long v = (unsigned long)fd;
	long f;
	int n = 0, i = 14, r;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		proc[i++] = digits[--n];
	proc[i] = '\0';
	f = tame__sys(SYS_openat, AT_FDCWD, (long)proc, O_RDONLY | O_CLOEXEC |
	    O_NONBLOCK | O_NOCTTY, 0, 0, 0);
	if (f < 0)
		return 0;	/* unreadable: nothing to map it from */
	r = sup_is_loader((int)f);
	tame__sys(SYS_close, f, 0, 0, 0, 0, 0);
	return r;
}

/*
 * The image runs a shared object as a program under unveil: the loader
 * would map a program from a path unveiled without x.  Its line, and it
 * ends at once, before any code of that program runs.
 */
long
sup_loader_refused(struct sup_req *r, struct sup_proc *p)
{
	long pidfd;

	say(r, p->held, WHY_LOADER, 0);
	if ((pidfd = tame__sys(SYS_pidfd_open, r->tgid, 0, 0, 0, 0, 0)) >= 0) {
		tame__sys(SYS_pidfd_send_signal, pidfd, SIGKILL, 0, 0, 0, 0);
		tame__sys(SYS_close, pidfd, 0, 0, 0, 0, 0);
	}
	return -EACCES;
}

/*
 * execve, execveat: allowed by the caller's image, a set-ID program
 * refused under execpromises (its privilege would be lost unseen: no
 * set-ID under no_new_privs); then the image is about to change.
 */
static long
exec_call(struct sup_req *r, struct sup_proc *p)
{
	static char path[PATH_MAX];
	int at = r->nr == SYS_execveat;
	struct stat st;
	long fd, n;

	if (!tame_unrestricted(p->held) && tame_policy_match(p->held, r->nr,
	    r->args, TAME_ORIGIN(r->tgid)) < 0)
		return violation(r, p->held, NULL, 0);
	if (p->uvid != 0 && (n = sup_read_str(r, path, sizeof(path),
	    r->args[at])) < 0)
		return n;	/* under unveil, looked at or not let go on */
	if ((!p->exec_null || p->uvid != 0) && sup_read_str(r, path,
	    sizeof(path), r->args[at]) >= 0) {
		/* execveat(fd, "", AT_EMPTY_PATH): the descriptor's file */
		if (path[0] == '\0' && !(at && (r->args[4] & AT_EMPTY_PATH)))
			return -ENOENT;
		fd = sup_open_at(r, at ? (int)r->args[0] : AT_FDCWD, path,
		    O_PATH | (at && (r->args[4] & AT_SYMLINK_NOFOLLOW) ?
		    O_NOFOLLOW : 0), 0);
		/*
		 * Under unveil, the file itself must be one x is unveiled
		 * for (a memfd, reached by /proc/self/fd or a descriptor,
		 * is in no directory: none); one that cannot be found
		 * here is not let go on.  The image that runs is looked at
		 * again at its first call (sup_procs.c): a path rewritten
		 * after this look gains nothing.
		 */
		if (fd < 0 && p->uvid != 0)
			return fd == -ELOOP ? -EACCES : fd;
		if (fd >= 0 && p->uvid != 0 && !sup_unveil_allows(r, (int)fd,
		    TAME_UV_X)) {
			tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
			return -EACCES;
		}
		if (fd >= 0 && p->uvid != 0 && readable_loader(fd)) {
			tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
			return violation(r, p->held, WHY_LOADER, 0);
		}
		if (fd >= 0 && !p->exec_null) {
			if (tame__sys(SYS_newfstatat, fd, (long)"", (long)&st,
			    AT_EMPTY_PATH, 0, 0) == 0 && S_ISREG(st.st_mode) &&
			    (st.st_mode & (S_ISUID | S_ISGID))) {
				tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
				say(r, p->held, "of a set-ID program under "
				    "execpromises", 0);
				return -EACCES;
			}
		}
		if (fd >= 0)
			tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	}
	/* the path's own memory: mapped in the old image, gone after */
	sup_proc_exec(p, r, r->args[at]);
	r->cont = 1;
	return 0;
}

long
sup_direct(struct sup_req *r)
{
	struct sup_proc *p = sup_proc_of(r);
	struct tame_ids ids;
	struct tame_ask q;
	const struct tame_rule *row;
	uint64_t a[6];
	tame_atoms held;
	long ret;
	int i, bits;

	if (p == NULL)
		return -EAGAIN;		/* no room to tell it apart */
	if (p->loader)
		return sup_loader_refused(r, p);
	r->held = p->held;
	r->uvid = p->uvid;
	/* under unveil's lock, unveil's rows apply (sup_unveil.c) */
	held = p->held | (p->uvid != 0 ? TAME__UNVEILED : 0);
	/* not pledged: its calls are the kernel's alone (forks recorded) */
	if (tame_unrestricted(p->held) && p->uvid == 0 &&
	    r->nr != SYS_execve && r->nr != SYS_execveat) {
		r->cont = 1;
		if (r->nr == SYS_clone
#ifdef SYS_fork
		    || r->nr == SYS_fork || r->nr == SYS_vfork
#endif
		    )
			r->forked = p;
		return 0;
	}
	switch (r->nr) {
	case SYS_execve:
	case SYS_execveat:
		return exec_call(r, p);
	}
	caller_ids(r->tid, &ids);
	memcpy(a, r->args, sizeof(a));
	bits = tame__strip_setid(r->nr, a);
	/* with set-ID or sticky bits: decided without them (setid.c) */
	i = tame_policy_match(held, r->nr, a, TAME_ORIGIN_IDS(r->tgid,
	    &ids));
	if (i < 0 && tame_unrestricted(held)) {
		r->cont = 1;		/* not pledged: no row refuses it */
		if (r->nr == SYS_clone
#ifdef SYS_fork
		    || r->nr == SYS_fork || r->nr == SYS_vfork
#endif
		    )
			r->forked = p;
		return 0;
	}
	if (i < 0)
		return violation(r, p->held, NULL, 0);
	row = &tame_rules[i];
	/*
	 * Without the bits, a call the filter would let through: made
	 * here, as unveil's layer would judge it.  Not a marked one that
	 * a Landlock layer would judge (TA_LANDLOCK): there is none here.
	 */
	if (bits && row->action == TA_ALLOW)
		return sup_make_stripped(r, r->nr, a);
	switch (row->action) {
	case TA_ALLOW:
		r->cont = 1;
		if (r->nr == SYS_clone
#ifdef SYS_fork
		    || r->nr == SYS_fork || r->nr == SYS_vfork
#endif
		    )
			r->forked = p;	/* recorded once it went on */
		return 0;
	case TA_ERRNO:
		return -row->errnum;
	case TA_LANDLOCK:
		return -EACCES;		/* no layer where exec is held */
	case TA_DENY:
		return violation(r, p->held, NULL, 0);
	}
	/* a trap's: made here, as for a request */
	if (r->nr == SYS_rt_sigprocmask || r->nr == SYS_rt_sigaction) {
		r->cont = 1;
		return 0;
	}
	memset(&q, 0, sizeof(q));
	q.nr = r->nr;
	memcpy(q.a, a, sizeof(q.a));
	q.verdict = TAME_VERDICT_ALLOW;
	ret = sup_call(r, &q);
	if (q.verdict == TAME_VERDICT_VIOLATION)
		return violation(r, p->held, q.detail[0] != '\0' ? q.detail :
		    NULL, q.need);
	if (q.verdict == TAME_ASK_AGAIN)
		r->wait = 1;
	return ret;
}
