/* SPDX-License-Identifier: ISC */
/*
 * sup_loop.c: the supervisor's loop, and its reach into the caller.
 *
 * One notification at a time: receive it, read what it points at from
 * the caller's memory (/proc/TID/mem), decide, make the call, answer.
 * Nothing here blocks on the caller's behalf: a call that would wait
 * (a full socket) is answered EAGAIN with a verdict that tells the
 * handler to wait itself and ask again (supervisor.h).  The loop ends
 * when no process is left under the filter (the listener hangs up).
 *
 * Only raw system calls and libtame's own code run here: the process
 * was forked from inside tame(), maybe beside threads that held locks of
 * libc's; malloc, stdio and the like are never called.
 */
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "compile.h"
#include "sup_int.h"
#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"

#ifndef SECCOMP_GET_NOTIF_SIZES
#define SECCOMP_GET_NOTIF_SIZES	3
#endif

/* "/proc/" TID "/" tail, into buf (64 bytes is room for any). */
static const char *
proc_path(char *buf, int tid, const char *tail)
{
	char digits[16];
	int n = 0, i = 0;
	unsigned v = (unsigned)tid;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0 && n < (int)sizeof(digits));
	memcpy(buf, "/proc/", 6);
	i = 6;
	while (n > 0)
		buf[i++] = digits[--n];
	buf[i++] = '/';
	memcpy(buf + i, tail, strlen(tail) + 1);
	return buf;
}

int
sup_valid(struct sup_req *r)
{
	return tame__sys(SYS_ioctl, r->listener, SECCOMP_IOCTL_NOTIF_ID_VALID,
	    (long)&r->id, 0, 0, 0) == 0;
}

/* The caller's memory, opened once per request and checked to be its. */
static int
mem(struct sup_req *r)
{
	char path[64];
	long fd;

	if (r->mem >= 0)
		return r->mem;
	fd = tame__sys(SYS_openat, AT_FDCWD, (long)proc_path(path, r->tid,
	    "mem"), O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return -1;
	/* the thread could have gone and its number come back since */
	if (!sup_valid(r)) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return -1;
	}
	r->mem = (int)fd;
	return r->mem;
}

int
sup_read(struct sup_req *r, void *dst, uint64_t src, size_t len)
{
	int fd = mem(r);

	if (len == 0)
		return 0;
	if (fd < 0 || src == 0 || tame__sys(SYS_pread64, fd, (long)dst,
	    (long)len, (long)src, 0, 0) != (long)len)
		return -EFAULT;
	return 0;
}

int
sup_write(struct sup_req *r, uint64_t dst, const void *src, size_t len)
{
	struct iovec local = { (void *)(uintptr_t)src, len };
	struct iovec remote = { (void *)(uintptr_t)dst, len };

	if (len == 0)
		return 0;
	/*
	 * As the kernel writes a call's answer: only where the caller may
	 * write itself (process_vm_writev keeps to the page protections,
	 * where /proc/TID/mem would write over its code).
	 */
	if (dst == 0 || !sup_valid(r) || tame__sys(SYS_process_vm_writev,
	    r->tid, (long)&local, 1, (long)&remote, 1, 0) != (long)len)
		return -EFAULT;
	return 0;
}

long
sup_read_str(struct sup_req *r, char *dst, size_t len, uint64_t src)
{
	size_t n = 0, chunk, i;
	int fd = mem(r);
	long got;

	if (fd < 0 || src == 0)
		return -EFAULT;
	while (n < len) {
		/* up to the end of the page: the next may not be mapped */
		chunk = 4096 - (size_t)((src + n) % 4096);
		if (chunk > len - n)
			chunk = len - n;
		got = tame__sys(SYS_pread64, fd, (long)(dst + n), (long)chunk,
		    (long)(src + n), 0, 0);
		if (got <= 0)
			return -EFAULT;
		for (i = 0; i < (size_t)got; i++)
			if (dst[n + i] == '\0')
				return (long)(n + i);
		n += (size_t)got;
	}
	return -ENAMETOOLONG;
}

long
sup_addfd(struct sup_req *r, int fd, int cloexec)
{
	struct seccomp_notif_addfd a = { r->id, SECCOMP_ADDFD_FLAG_SEND,
	    (uint32_t)fd, 0, cloexec ? O_CLOEXEC : 0 };
	long n;

	n = tame__sys(SYS_ioctl, r->listener, SECCOMP_IOCTL_NOTIF_ADDFD,
	    (long)&a, 0, 0, 0);
	if (n >= 0) {
		r->answered = 1;
		return n;
	}
	if (n != -EINVAL)
		return n;
	/* before Linux 5.14: add it, then answer with its number */
	a.flags = 0;
	return tame__sys(SYS_ioctl, r->listener, SECCOMP_IOCTL_NOTIF_ADDFD,
	    (long)&a, 0, 0, 0);
}

/*
 * The lines of a status file that say what a process may do: its ids,
 * groups and capabilities, in one string.  Returns its length, 0 when
 * it cannot be read.
 */
static size_t
creds(const char *path, char *out, size_t max)
{
	/* inline, not pointers: no relocation in every program (relocs.sh) */
	static const char keys[][10] = { "\nUid:", "\nGid:", "\nGroups:",
	    "\nCapEff:", "\nCapBnd:" };
	char buf[4096], *p, *e;
	size_t n = 0, k, len;
	long fd, got;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY |
	    O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return 0;
	got = tame__sys(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if ((p = strstr(buf, keys[k])) == NULL)
			return 0;
		if ((e = strchr(p + 1, '\n')) == NULL)
			e = buf + got;
		len = (size_t)(e - p);
		if (n + len > max)
			return 0;
		memcpy(out + n, p, len);
		n += len;
	}
	return n;
}

int
sup_same_creds(struct sup_req *r)
{
	static char mine[1024], theirs[1024];
	static size_t nmine;
	char path[64];
	size_t n;

	if (nmine == 0)
		nmine = creds("/proc/self/status", mine, sizeof(mine));
	n = creds(proc_path(path, r->tid, "status"), theirs, sizeof(theirs));
	return nmine != 0 && n == nmine && memcmp(mine, theirs, n) == 0;
}

long
sup_caller_fd(struct sup_req *r, int fd)
{
	char path[64], tail[24] = "fd/";
	char digits[12];
	int n = 0, i = 3;
	unsigned v = (unsigned)fd;

	if (fd < 0)
		return -EBADF;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		tail[i++] = digits[--n];
	tail[i] = '\0';
	return tame__sys(SYS_openat, AT_FDCWD, (long)proc_path(path, r->tid,
	    tail), O_PATH | O_CLOEXEC, 0, 0, 0);
}

/* n in decimal at buf; the end. */
static char *
put_dec(char *buf, unsigned long n)
{
	char digits[24];
	int k = 0;

	do
		digits[k++] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	while (k > 0)
		*buf++ = digits[--k];
	return buf;
}

/*
 * The caller's /proc/self and /proc/thread-self, which this process
 * would read as its own: spelled with the caller's numbers.  path, or
 * the rewritten one in buf; NULL if it does not fit.
 */
const char *
sup_callers_proc(struct sup_req *r, const char *path, char *buf, size_t len)
{
	const char *rest;
	long tgid;
	char *p;
	int thread;

	if (strncmp(path, "/proc/self", 10) == 0 &&
	    (path[10] == '/' || path[10] == '\0')) {
		rest = path + 10;
		thread = 0;
	} else if (strncmp(path, "/proc/thread-self", 17) == 0 &&
	    (path[17] == '/' || path[17] == '\0')) {
		rest = path + 17;
		thread = 1;
	} else
		return path;
	if ((tgid = r->tgid > 0 ? r->tgid : sup_status_num(r->tid,
	    "\nTgid:")) <= 0 || strlen(rest) + 48 > len)
		return NULL;
	p = put_dec(stpcpy(buf, "/proc/"), (unsigned long)tgid);
	if (thread)
		p = put_dec(stpcpy(p, "/task/"), (unsigned long)r->tid);
	strcpy(p, rest);
	return buf;
}

int
sup_proc_guard(long fd)
{
	struct statfs fs;
	char self[32] = "/proc/self/fd/", where[PATH_MAX], path[64];
	const char *p;
	long n, pid = 0, me;

	if (tame__sys(SYS_fstatfs, fd, (long)&fs, 0, 0, 0, 0) != 0)
		return -1;		/* cannot tell: refused */
	if (fs.f_type != PROC_SUPER_MAGIC)
		return 0;
	*put_dec(self + 14, (unsigned long)fd) = '\0';
	n = tame__sys(SYS_readlinkat, AT_FDCWD, (long)self, (long)where,
	    sizeof(where) - 1, 0, 0);
	if (n <= 0)
		return -1;
	where[n] = '\0';
	/* the /proc of a process: "/proc/N" and below, as this one sees */
	if ((p = strstr(where, "/proc/")) != where)
		return -1;		/* another mount of it: refused */
	for (p += 6; *p >= '0' && *p <= '9'; p++)
		pid = pid * 10 + (*p - '0');
	if (pid == 0 || (*p != '/' && *p != '\0'))
		return 0;		/* /proc itself, its other files */
	me = tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);
	if (pid == me || sup_status_num((int)pid, "\nPPid:") == me)
		return -1;		/* this process, or a helper of it */
	(void)path;
	return 0;
}

long
sup_open_at(struct sup_req *r, int dirfd, const char *path, int oflags,
    long mode)
{
	struct open_how how = { 0 };
	char where[64];
	static char proc[PATH_MAX];
	long base, fd;

	if ((path = sup_callers_proc(r, path, proc, sizeof(proc))) == NULL)
		return -ENAMETOOLONG;

	if (path[0] == '/')
		base = tame__sys(SYS_openat, AT_FDCWD, (long)proc_path(where,
		    r->tid, "root"), O_PATH | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	else if (dirfd == AT_FDCWD)
		base = tame__sys(SYS_openat, AT_FDCWD, (long)proc_path(where,
		    r->tid, "cwd"), O_PATH | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	else
		base = sup_caller_fd(r, dirfd);
	if (base < 0)
		return base == -ENOENT ? -EBADF : base;
	if (!sup_valid(r)) {
		tame__sys(SYS_close, base, 0, 0, 0, 0, 0);
		return -ESRCH;
	}
	if (path[0] == '\0')
		return base;		/* AT_EMPTY_PATH: the descriptor */
	how.flags = (uint64_t)(unsigned)(oflags | O_CLOEXEC);
	if (oflags & (O_CREAT | TAME_TMPFILE_BIT))
		how.mode = (uint64_t)mode & 07777;
	/*
	 * No magic link (the caller's /proc/self would be this process's)
	 * and, for an absolute path, its own root as "/".
	 */
	how.resolve = RESOLVE_NO_MAGICLINKS | (path[0] == '/' ?
	    RESOLVE_IN_ROOT : 0);
	fd = tame__sys(SYS_openat2, base, (long)path, (long)&how, sizeof(how),
	    0, 0);
	tame__sys(SYS_close, base, 0, 0, 0, 0, 0);
	if (fd >= 0 && sup_proc_guard(fd) != 0) {
		tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
		return -EACCES;	/* the supervisor's own, not the caller's */
	}
	return fd;
}

/* An exec tree: each process's image is tracked (sup_procs.c). */
static int	split;

/* Answer one request of the process's own (TAME_ASK_NR). */
static long
ask(struct sup_req *r)
{
	struct tame_ask q;
	struct sup_proc *p = NULL;
	long ret;
	int op = (int)r->args[0];

	/* the claim every filter checked: at most what the caller holds */
	r->held = (tame_atoms)(uint32_t)r->args[1] |
	    (tame_atoms)(uint32_t)r->args[2] << 32;
	/*
	 * Its states no filter checks (a filter made before unveil's lock
	 * holds no UNVEILED): none of them is the caller's to claim here.
	 */
	r->held &= ~TAME__STATE;
	/*
	 * Its unveil rules: those every filter of the caller compares the
	 * number with (TC_UVID); where none does (not locked), any it
	 * names only narrows what it is granted.
	 */
	r->uvid = (uint32_t)r->args[5];
	/* in an exec tree, no more than its image holds either */
	if (split) {
		if ((p = sup_proc_of(r)) == NULL)
			return -EAGAIN;
		if (p->loader)
			return sup_loader_refused(r, p);
		if (!tame_unrestricted(p->held))	/* else every atom */
			r->held &= p->held;
		r->uvid = p->uvid;	/* a first filter compares nothing */
	}
	switch (op) {
	case TAME_ASK_HELLO:
		/* and the number of its unveil rules, for its requests */
		if (r->args[4] == sizeof(q)) {
			q.need = r->uvid;
			sup_write(r, r->args[3] + offsetof(struct tame_ask,
			    need), &q.need, sizeof(q.need));
		}
		return TAME_ASK_VERSION;
	case TAME_ASK_UNVEIL:
		/*
		 * Rules of its own already (every filter of it names their
		 * number, or its image's record does): locked, for good.
		 */
		if (r->uvid != 0 || (uint32_t)r->args[5] != 0 ||
		    (!(r->held & TAME__UNVEIL) && !tame_unrestricted(r->held)))
			return -EPERM;
		ret = sup_unveil_keep(r, r->args[3], r->args[4]);
		if (ret > 0 && p != NULL)
			p->uvid = (uint32_t)ret;
		return ret;
	case TAME_ASK_NARROW:
		if (p != NULL && r->args[4] == sizeof(q) && sup_read(r, &q,
		    r->args[3], sizeof(q)) == 0)
			sup_proc_narrow(p, r->held, !q.exec_null, q.exec_held);
		return 0;
	case TAME_ASK_CALL:
		if (r->args[4] != sizeof(q) || sup_read(r, &q, r->args[3],
		    sizeof(q)) != 0)
			return -EFAULT;
		q.verdict = TAME_VERDICT_ALLOW;
		q.detail[0] = '\0';
		q.need = 0;
		ret = sup_call(r, &q);
		/* how it was judged, where the request came from */
		sup_write(r, r->args[3] + offsetof(struct tame_ask, verdict),
		    &q.verdict, sizeof(q.verdict));
		if (q.verdict != TAME_VERDICT_ALLOW)
			sup_write(r, r->args[3] + offsetof(struct tame_ask,
			    need), &q.need, sizeof(q.need) + sizeof(q.detail));
		return ret;
	}
	return -EINVAL;
}

/* Calls of an exec tree that wait (a full socket), answered later. */
#define MAXWAITS	64

static struct sup_req	waits[MAXWAITS];
static int		wait_fd[MAXWAITS];	/* its socket, here */
static int		nwaits;

void
sup_answer(struct sup_req *r, long ret)
{
	struct seccomp_notif_resp resp;

	if (r->answered)
		return;
	memset(&resp, 0, sizeof(resp));
	resp.id = r->id;
	if (r->cont)
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else if (ret < 0)
		resp.error = (int32_t)ret;
	else
		resp.val = ret;
	/* ENOENT: the caller went (a signal, its death): nothing */
	tame__sys(SYS_ioctl, r->listener, SECCOMP_IOCTL_NOTIF_SEND,
	    (long)&resp, 0, 0, 0);
}

/* Decide and answer r, or keep it to answer when its socket is ready. */
static void
serve(struct sup_req *r)
{
	long ret, fd;

	r->mem = -1;
	r->answered = r->cont = r->wait = 0;
	r->forked = NULL;
	if (r->nr == TAME_ASK_NR)
		ret = ask(r);
	else if (split)
		ret = sup_direct(r);
	else
		ret = -ENOSYS;
	if (r->mem >= 0)
		tame__sys(SYS_close, r->mem, 0, 0, 0, 0, 0);
	r->mem = -1;
	if (r->wait && nwaits < MAXWAITS &&
	    (fd = sup_caller_file(r, (int)r->args[0])) >= 0) {
		waits[nwaits] = *r;
		wait_fd[nwaits++] = (int)fd;
		return;
	}
	sup_answer(r, ret);
	if (r->cont && r->forked != NULL)
		sup_proc_fork(r->forked, r->tid);
}

/* Retry the waiting calls whose sockets are ready; drop the gone. */
static void
retry(const struct pollfd *p)
{
	struct sup_req r;
	int i, ready;

	for (i = nwaits - 1; i >= 0; i--) {
		ready = p[i].revents != 0;
		if (!ready && sup_valid(&waits[i]))
			continue;
		r = waits[i];
		tame__sys(SYS_close, wait_fd[i], 0, 0, 0, 0, 0);
		waits[i] = waits[nwaits - 1];
		wait_fd[i] = wait_fd[nwaits - 1];
		nwaits--;
		if (ready)
			serve(&r);
	}
}

void
tame__supervise(int listener, int pledger)
{
	/* the kernel's structures may grow: room for more than today's */
	static union {
		struct seccomp_notif	 n;
		char			 room[1024];
	} buf;
	struct seccomp_notif_sizes sizes;
	struct pollfd p[MAXWAITS + 1];
	struct timespec tick = { 0, 250000000 };
	struct sup_req r;
	int i;

	if (tame__sys(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, (long)&sizes, 0,
	    0, 0) != 0 || sizes.seccomp_notif > sizeof(buf))
		tame__sys(SYS_exit_group, 1, 0, 0, 0, 0, 0);
	/* the rules the process locks as it hands the listener over */
	if (tame__sup_config.uvid != 0 &&
	    sup_unveil_keep_own() != (long)tame__sup_config.uvid)
		tame__sys(SYS_exit_group, 1, 0, 0, 0, 0, 0);
	/* a blocking connect's helper (sup_unveil.c) goes unwaited for */
	tame__sys(SYS_rt_sigaction, SIGCHLD, (long)&(struct tame_ksigaction){
	    .handler = (uintptr_t)SIG_IGN }, 0, sizeof(uint64_t), 0, 0);
	if ((split = tame__sup_config.split) != 0)
		sup_procs_init(pledger, tame__sup_config.held,
		    tame__sup_config.exec_held, tame__sup_config.exec_null,
		    tame__sup_config.uvid);
	for (;;) {
		for (i = 0; i < nwaits; i++) {
			p[i].fd = wait_fd[i];
			p[i].events = (short)(waits[i].nr == SYS_recvmsg ||
			    waits[i].nr == SYS_recvmmsg ? POLLIN : POLLOUT);
			p[i].revents = 0;
		}
		p[nwaits].fd = listener;
		p[nwaits].events = POLLIN;
		p[nwaits].revents = 0;
		if (tame__sys(SYS_ppoll, (long)p, nwaits + 1, nwaits > 0 ?
		    (long)&tick : 0, 0, 0, 0) < 0)
			continue;
		if (nwaits > 0)
			retry(p);
		if ((p[nwaits].revents & (POLLHUP | POLLERR)) &&
		    !(p[nwaits].revents & POLLIN))
			break;		/* no process is left to serve */
		if (!(p[nwaits].revents & POLLIN))
			continue;
		memset(&buf, 0, sizes.seccomp_notif);
		if (tame__sys(SYS_ioctl, listener, SECCOMP_IOCTL_NOTIF_RECV,
		    (long)&buf.n, 0, 0, 0) != 0)
			continue;	/* EINTR, or its caller is gone */
		memset(&r, 0, sizeof(r));
		r.listener = listener;
		r.id = buf.n.id;
		r.tid = (int)buf.n.pid;
		r.nr = buf.n.data.nr;
		memcpy(r.args, buf.n.data.args, sizeof(r.args));
		serve(&r);
	}
	tame__sys(SYS_exit_group, 0, 0, 0, 0, 0, 0);
	for (;;)
		;
}
