/* SPDX-License-Identifier: ISC */
/*
 * sup_start.c: start the supervisor (supervisor.h), from the first
 * narrowing that needs one.
 *
 * The supervisor must be outside every filter, so it is forked before
 * any goes in; and it must hold the filter's listener, which the kernel
 * hands only to the process that installs the filter.  So, in order:
 *
 *	fork		the supervisor, unfiltered, before the process
 *			enters its Landlock domain
 *	filter		the supervisor's filter, with a listener: it sends
 *			the supervisor's system call (TAME_ASK_NR) there
 *			and lets every other call through, so
 *	hand over	sendmsg() can pass the listener to the supervisor,
 *			and the process closes its own copy
 *
 * and only then the policy's filter goes in (tame.c).  Where pledge's
 * exec is held, the policy's filter is the supervisor's itself (it sends
 * every call the two kinds of image answer differently): the supervisor
 * takes the listener from the process, which waits (struct handoff).  Code that runs in
 * the process later finds no listener to answer its own calls with: the
 * only copy is the supervisor's, and the kernel makes no second listener
 * in a chain that has one.  All of it happens inside tame() or
 * pledge(), the program's own call: code that could race it there could
 * as well have skipped the call.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compile.h"
#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"

#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER	(1UL << 3)
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF	0x7fc00000U
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH	(1UL << 4)
#endif

#define OFF_NR		offsetof(struct seccomp_data, nr)
#define OFF_ARCH	offsetof(struct seccomp_data, arch)

/*
 * The supervisor's filter: the native architecture's TAME_ASK_NR goes
 * to the listener, every other call on (the policy's filter decides
 * them).  Every answer but one is a constant on the number, so the
 * kernel's constant-action cache keeps it off the path of every real
 * call.
 */
static int
listener_filter(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, tame_audit_arch(), 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TAME_ASK_NR, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fp = { sizeof(f) / sizeof(f[0]), f };

	/*
	 * This thread alone: the policy's filter, synchronized to every
	 * thread after it, carries this one with it (its ancestor).
	 */
	return (int)tame__sys(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_NEW_LISTENER, (long)&fp, 0, 0, 0);
}

/* Send descriptor fd over the socket s; 0 or -errno. */
static long
send_fd(int s, int fd)
{
	char byte = 0;
	union {
		struct cmsghdr	 h;
		char		 buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = { &byte, 1 };
	struct msghdr m;
	struct cmsghdr *h;

	memset(&m, 0, sizeof(m));
	memset(&u, 0, sizeof(u));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	return tame__sys(SYS_sendmsg, s, (long)&m, MSG_NOSIGNAL, 0, 0, 0);
}

/* Receive one descriptor from s; it, or -errno. */
static long
recv_fd(int s)
{
	char byte;
	union {
		struct cmsghdr	 h;
		char		 buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = { &byte, 1 };
	struct msghdr m;
	struct cmsghdr *h;
	long r;
	int fd;

	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	if ((r = tame__sys(SYS_recvmsg, s, (long)&m, MSG_CMSG_CLOEXEC, 0, 0,
	    0)) < 0)
		return r;
	if (r == 0 || (h = CMSG_FIRSTHDR(&m)) == NULL ||
	    h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS ||
	    h->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(h), sizeof(int));
	return fd;
}

/*
 * What the supervisor serves, set before it is forked: in an exec tree
 * it tracks each process's image, starting from these.
 */
struct tame_sup_config tame__sup_config;

/*
 * The handover, in memory the two share from the fork on: where the
 * policy's own filter is the supervisor's (an exec tree: it sends calls
 * there itself, sendmsg() among them maybe), the process cannot send
 * the listener, and the supervisor takes it from the process instead
 * (pidfd_getfd(), with the right to read it that the supervisor needs
 * anyway) while the process waits, then the process closes its own.
 */
struct handoff {
	volatile int	 state;		/* below */
	volatile int	 fd;		/* PULL: the listener's number */
	volatile int	 ok;
};

enum { WAITING, PUSHED, PULL, PULLED };

static struct handoff	*shared;

static void
futex_wait(volatile int *a, int v)
{
	while (*a == v)
		tame__sys(SYS_futex, (long)a, FUTEX_WAIT, v, 0, 0, 0);
}

static void
futex_wake(volatile int *a)
{
	tame__sys(SYS_futex, (long)a, FUTEX_WAKE, 1, 0, 0, 0);
}

/* The listener, pushed over s or pulled from the pledger; or -errno. */
static long
take_listener(int s, int pledger)
{
	long pidfd, fd;

	futex_wait(&shared->state, WAITING);
	if (shared->state == PUSHED)
		return recv_fd(s);
	fd = -ESRCH;
	if ((pidfd = tame__sys(SYS_pidfd_open, pledger, 0, 0, 0, 0, 0)) >= 0) {
		fd = tame__sys(SYS_pidfd_getfd, pidfd, shared->fd, 0, 0, 0, 0);
		tame__sys(SYS_close, pidfd, 0, 0, 0, 0, 0);
	}
	shared->ok = fd >= 0;
	shared->state = PULLED;
	futex_wake(&shared->state);
	return fd;
}

/*
 * The supervisor's first steps, in the child: a session of its own (a
 * terminal's ^C, a shell's kill of the job, are not for it), none of the
 * process's descriptors (a pipe it kept open would never see its end),
 * the listener, then the loop, which never returns.
 */
static void __attribute__((noreturn))
child(int s, int pledger)
{
	struct tame_ksigaction dfl = { (uint64_t)(uintptr_t)SIG_DFL, 0, 0, 0 };
	long listener;
	int sig;

	tame__sys(SYS_setsid, 0, 0, 0, 0, 0, 0);
	/* the program's handlers are the program's: none run here */
	for (sig = 1; sig <= 64; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			tame__sys(SYS_rt_sigaction, sig, (long)&dfl, 0,
			    sizeof(dfl.mask), 0, 0);
	tame__sys(SYS_rt_sigaction, SIGPIPE, (long)&(struct tame_ksigaction){
	    (uint64_t)(uintptr_t)SIG_IGN, 0, 0, 0 }, 0, sizeof(dfl.mask), 0,
	    0);
	tame__sys(SYS_rt_sigprocmask, SIG_SETMASK, (long)&(uint64_t){ 0 }, 0,
	    sizeof(uint64_t), 0, 0);
	if (s > 0)
		tame__sys(SYS_close_range, 0, s - 1, 0, 0, 0, 0);
	tame__sys(SYS_close_range, s + 1, ~0U, 0, 0, 0, 0);
	/* neither a core nor another process's ptrace reads it */
	tame__sys(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0, 0);
	tame__sys(SYS_prctl, PR_SET_NAME, (long)"tame-supervisor", 0, 0, 0, 0);
	listener = take_listener(s, pledger);
	tame__sys(SYS_close, s, 0, 0, 0, 0, 0);
	tame__sys(SYS_munmap, (long)shared, 4096, 0, 0, 0, 0);
	if (listener < 0)
		tame__sys(SYS_exit_group, 1, 0, 0, 0, 0, 0);
	tame__supervise((int)listener, pledger);
}

/* Between the fork and the handover: our end, and the child. */
static int	 sock = -1;
static long	 child_pid;

int
tame__supervisor_fork(void)
{
	long pid, r, map;
	int sv[2];
	int pledger = (int)tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);

	map = tame__sys(SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_ANONYMOUS, -1, 0);
	if (map < 0 && map > -4096) {
		errno = (int)-map;
		return -1;
	}
	shared = (struct handoff *)map;
	shared->state = WAITING;
	if ((r = tame__sys(SYS_socketpair, AF_UNIX, SOCK_SEQPACKET |
	    SOCK_CLOEXEC, 0, (long)sv, 0, 0)) < 0) {
		tame__sys(SYS_munmap, map, 4096, 0, 0, 0, 0);
		errno = (int)-r;
		return -1;
	}
	/*
	 * A child that tells its end to no one: no SIGCHLD, and unseen by
	 * the program's wait() (only __WALL or __WCLONE find it).
	 */
	pid = tame__sys(SYS_clone, 0, 0, 0, 0, 0, 0);
	if (pid == 0) {
		tame__sys(SYS_close, sv[0], 0, 0, 0, 0, 0);
		child(sv[1], pledger);
	}
	tame__sys(SYS_close, sv[1], 0, 0, 0, 0, 0);
	if (pid < 0) {
		tame__sys(SYS_close, sv[0], 0, 0, 0, 0, 0);
		tame__sys(SYS_munmap, map, 4096, 0, 0, 0, 0);
		errno = (int)-pid;
		return -1;
	}
	sock = sv[0];
	child_pid = pid;
	return 0;
}

/* Install p with a listener, synchronized to every thread; it, or -errno. */
static long
install_listening(const struct tame_prog *p)
{
	struct sock_fprog fp = { (unsigned short)p->len,
	    (struct sock_filter *)p->insn };
	long r;

	r = tame__sys(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC |
	    SECCOMP_FILTER_FLAG_TSYNC_ESRCH, (long)&fp, 0, 0, 0);
	/* before Linux 5.7 the two cannot go together: alone, no need */
	if (r == -EINVAL && tame__sys(SYS_unshare, CLONE_THREAD, 0, 0, 0, 0,
	    0) == 0)
		r = tame__sys(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_NEW_LISTENER, (long)&fp, 0, 0, 0);
	return r == -ESRCH ? -EBUSY : r;
}

int
tame__supervisor_handoff(const struct tame_prog *policy)
{
	long listener, r = 0, dumpable = 1;

	if (policy == NULL) {
		listener = listener_filter();
		if (listener >= 0) {
			r = send_fd(sock, (int)listener);
			tame__sys(SYS_close, listener, 0, 0, 0, 0, 0);
			shared->state = PUSHED;
			futex_wake(&shared->state);
		} else
			r = listener;
	} else {
		/* the supervisor must be let in; it is made so for it */
		dumpable = tame__sys(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0, 0);
		if (dumpable != 1)
			tame__sys(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0, 0);
		listener = install_listening(policy);
		if (listener >= 0) {
			shared->fd = (int)listener;
			shared->state = PULL;
			futex_wake(&shared->state);
			futex_wait(&shared->state, PULL);
			r = shared->ok ? 0 : -EPERM;
			tame__sys(SYS_close, listener, 0, 0, 0, 0, 0);
		} else
			r = listener;
		if (dumpable == 0)
			tame__sys(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0, 0);
	}
	tame__sys(SYS_close, sock, 0, 0, 0, 0, 0);
	sock = -1;
	tame__sys(SYS_munmap, (long)shared, 4096, 0, 0, 0, 0);
	if (r < 0) {
		/* a filter that went in lets through what it let before */
		tame__supervisor_abort();
		errno = (int)-r;
		return -1;
	}
	tame__state.supervised = 1;
	return 0;
}

void
tame__supervisor_abort(void)
{
	if (sock >= 0) {
		tame__sys(SYS_close, sock, 0, 0, 0, 0, 0);
		sock = -1;
	}
	if (child_pid > 0)
		tame__sys(SYS_kill, child_pid, SIGKILL, 0, 0, 0, 0);
	child_pid = 0;
	tame__state.supervised = 0;
}
