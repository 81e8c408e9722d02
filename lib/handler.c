/* SPDX-License-Identifier: ISC */
/*
 * handler.c: libtame's SIGSYS handler.  Every trap lands here.
 *
 * An emulation trap (TAME_TRAP_EMULATE) is a call the filter could not
 * decide: emulate.c reads what it needs, has it decided by the current
 * flags (verdict.c) and, if it is allowed, makes it; if not, the table's
 * later rows say whether it fails softly with an errno (verdict.c too),
 * and otherwise it is a violation.
 *
 * A violation writes one line (report.c) and repeats the call under one
 * more filter that kills the process on it (die() below): the whole
 * process dies of SIGSYS, with a core where the limits allow, and the
 * kernel records the death in its audit log as it does every seccomp
 * kill.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include "compile.h"
#include "sys.h"
#include "policy.h"
#include "tame_int.h"

#ifndef SYS_SECCOMP
#define SYS_SECCOMP	1		/* si_code of a seccomp trap */
#endif

/*
 * When the handler will not make a trapped call, the rows after the trap
 * decide, as if it were not there: a soft denial returns its errno.
 * Returns the errno, or 0 for a violation.
 */
static int
after_trap(tame_atoms held, const struct tame_call *c)
{
	if (c->detail != NULL)
		return 0;	/* refused for what it carries */
	return tame__errno_after_trap(held, c->nr, c->a);
}

/*
 * A trap may come from an older filter, made for flags since dropped,
 * when the newest would answer with an errno (the kernel lets a trap
 * win over an errno): the current flags decide.  Returns 1 with that
 * errno in *ret, or 0 to go on.
 */
static int
current_answer(tame_atoms held, const struct tame_call *c, long *ret)
{
	/*
	 * Without the process's ids: they decide only a chown's row
	 * under fattr, and no filter traps a chown to be emulated.
	 */
	int row = tame_policy_match(held, c->nr, c->a, TAME_ORIGIN((int)
	    tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0)));

	if (row < 0 || tame_rules[row].action != TA_ERRNO)
		return 0;
	*ret = -tame_rules[row].errnum;
	return 1;
}

/*
 * A call whose set-ID and sticky bits the handler cleared (setid.c),
 * decided as the table decides it without them: made (0, the result in
 * *ret), refused softly (0, -errno), left to the emulation it would get
 * (1), or a violation (-1).  What it makes, the filter lets through:
 * the bits are gone.
 */
static int
stripped(tame_atoms held, const struct tame_call *c, long *ret)
{
	int row = tame_policy_match(held, c->nr, c->a, TAME_ORIGIN((int)
	    tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0)));

	if (row < 0 || tame_rules[row].action == TA_DENY)
		return -1;
	switch (tame_rules[row].action) {
	case TA_ERRNO:
		*ret = -tame_rules[row].errnum;
		return 0;
	case TA_EMULATE:
		return 1;
	case TA_LANDLOCK:
		*ret = -EACCES;		/* a program's call is never marked */
		return 0;
	}
	*ret = tame__sys(c->nr, (long)c->a[0], (long)c->a[1], (long)c->a[2],
	    (long)c->a[3], (long)c->a[4], (long)c->a[5]);
	return 0;
}

/*
 * Repeat the violating call under a last filter that answers it with
 * SECCOMP_RET_KILL_PROCESS.  The kernel logs such a kill (audit record
 * type 1326, SECCOMP, in dmesg or auditd's log, where
 * kernel.seccomp.actions_logged has kill_process, the default, and audit
 * is on), as OpenBSD's kernel logs a pledge violation: a daemon whose
 * stderr is /dev/null leaves a trace.  The process dies of SIGSYS with
 * its core either way.  If the filter cannot be added (the kernel's
 * limit on a thread's filters), the call traps again with SIGSYS blocked
 * in its own handler, and the kernel resets SIGSYS and kills with it,
 * unlogged.
 */
static void
die(const struct tame_call *c)
{
	struct sock_filter kill[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)c->nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(kill) / sizeof(kill[0]), kill };

	tame__sys(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, (long)&prog, 0,
	    0, 0);
	syscall(c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5]);
	tame__sys(SYS_exit_group, 128 + SIGSYS, 0, 0, 0, 0, 0);
}

/*
 * Die of SIGSYS at the next call, as a kill by the filter; if the filter
 * cannot be added, a call with SIGSYS blocked here traps and the kernel
 * kills with it; else exit with the status a shell shows for SIGSYS.
 */
static void
die_at_next_call(void)
{
	struct sock_filter kill[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { 1, kill };

	tame__sys(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, (long)&prog, 0,
	    0, 0);
	syscall(-1);
	tame__sys(SYS_exit_group, 128 + SIGSYS, 0, 0, 0, 0, 0);
}

static void
on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	struct tame_call c;
	long ret;
	tame_atoms held = tame__state.held;
	int saved = errno;

	(void)sig;
	/* tame() asks each thread to enter its Landlock domain (threads.c) */
	if (si->si_code == SI_TKILL && si->si_pid == (pid_t)tame__sys(
	    SYS_getpid, 0, 0, 0, 0, 0, 0) && tame__broadcast_active()) {
		tame__broadcast_answer();
		errno = saved;
		return;
	}
	if (si->si_code != SYS_SECCOMP || si->si_arch != tame_audit_arch()) {
		/*
		 * Not a trap: a SIGSYS sent by someone (raise(SIGSYS), the
		 * supervisor after its line).  Its default action, death,
		 * without a report or an emulation: a last filter that
		 * kills at the next call.  (A call no row names would not
		 * do: in an exec tree the supervisor answers it, when the
		 * exec'd images may make any call.)
		 */
		die_at_next_call();
	}
	c.nr = si->si_syscall;
	c.path_arg = -1;
	c.path = NULL;
	c.detail = NULL;
	c.need = 0;
	c.mask = (uint64_t *)(void *)&uc->uc_sigmask;
#if defined(__x86_64__)
	c.a[0] = uc->uc_mcontext.gregs[REG_RDI];
	c.a[1] = uc->uc_mcontext.gregs[REG_RSI];
	c.a[2] = uc->uc_mcontext.gregs[REG_RDX];
	c.a[3] = uc->uc_mcontext.gregs[REG_R10];
	c.a[4] = uc->uc_mcontext.gregs[REG_R8];
	c.a[5] = uc->uc_mcontext.gregs[REG_R9];
#elif defined(__aarch64__)
	for (int i = 0; i < 6; i++)
		c.a[i] = uc->uc_mcontext.regs[i];
#endif
	if (si->si_errno == TAME_TRAP_EMULATE) {
		if (tame__strip_setid(c.nr, c.a)) {
			/* the same call without the bits, as the table says */
			switch (stripped(held, &c, &ret)) {
			case 0:
				goto answer;
			case -1:
				goto violation;
			}
		}
		if (!current_answer(held, &c, &ret) &&
		    tame__emulate(held, &c, &ret) == -1 &&
		    (ret = -after_trap(held, &c)) == 0)
			goto violation;
answer:
#if defined(__x86_64__)
		uc->uc_mcontext.gregs[REG_RAX] = ret;
#elif defined(__aarch64__)
		uc->uc_mcontext.regs[0] = ret;
#endif
		errno = saved;
		return;
	}
	/* a violation trap: still show the path the call named */
	if ((c.path_arg = tame__path_arg(c.nr)) >= 0 &&
	    tame__copy_str(c.buf, sizeof(c.buf), c.a[c.path_arg]) >= 0)
		c.path = c.buf;
violation:
	tame__violation(&c);
	if (held & TAME__ERROR) {
		/* pledge's error: the call fails, the process goes on */
#if defined(__x86_64__)
		uc->uc_mcontext.gregs[REG_RAX] = -ENOSYS;
#elif defined(__aarch64__)
		uc->uc_mcontext.regs[0] = -ENOSYS;
#endif
		errno = saved;
		return;
	}
	die(&c);
}

/*
 * A signal mask of a status file (/proc/self/status, a thread's), the
 * field "\nSigCgt:" or "\nSigBlk:"; all signals where it cannot be read.
 */
static uint64_t
status_mask(const char *path, const char *field)
{
	char buf[2048], *p;
	uint64_t mask = 0;
	long fd, n;
	int digits = 0;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)path, O_RDONLY |
	    O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return ~(uint64_t)0;
	n = tame__sys(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (n <= 0)
		return ~(uint64_t)0;
	buf[n] = '\0';
	if ((p = strstr(buf, field)) == NULL)
		return ~(uint64_t)0;
	for (p += strlen(field); *p == '\t' || *p == ' '; p++)
		;
	for (; digits < 16; p++, digits++) {
		if (*p >= '0' && *p <= '9')
			mask = mask << 4 | (uint64_t)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			mask = mask << 4 | (uint64_t)(*p - 'a' + 10);
		else
			break;
	}
	return digits == 16 ? mask : ~(uint64_t)0;
}

int
tame__blocks_sigsys(const char *status)
{
	return (status_mask(status, "\nSigBlk:") & TAME_SIGSYS_BIT) != 0;
}

/*
 * A process with other threads at its first tame() keeps their signal
 * masks as they are (policy.c: the THREADED rows): a thread that blocks
 * SIGSYS (a worker that blocks every signal so that the main thread
 * takes them) dies of a violation without the handler, so without its
 * line.  That cannot be told later; so it is said now, once, naming one
 * such thread, and tame(3) says how to avoid it.
 */
void
tame__warn_blocked_sigsys(int refused)
{
	struct tame_line l = { .len = 0 };
	char dents[4096], path[64];
	long fd, n, self = tame__sys(SYS_gettid, 0, 0, 0, 0, 0, 0), tid;
	long off, found = 0, others = 0;
	struct dirent64 *d;

	fd = tame__sys(SYS_openat, AT_FDCWD, (long)"/proc/self/task",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return;
	while (!found && (n = tame__sys(SYS_getdents64, fd, (long)dents,
	    sizeof(dents), 0, 0, 0)) > 0)
		for (off = 0; off < n && !found; off += d->d_reclen) {
			d = (struct dirent64 *)(dents + off);
			if (d->d_name[0] < '1' || d->d_name[0] > '9' ||
			    (tid = strtol(d->d_name, NULL, 10)) == self)
				continue;
			others++;
			l.len = 0;
			tame__put(&l, "/proc/self/task/");
			tame__put(&l, d->d_name);
			tame__put(&l, "/status");
			memcpy(path, l.buf, l.len);
			path[l.len] = '\0';
			if (status_mask(path, "\nSigBlk:") & TAME_SIGSYS_BIT)
				found = tid;
		}
	tame__sys(SYS_close, fd, 0, 0, 0, 0, 0);
	if (!found)
		return;
	l.len = 0;
	tame__put(&l, tame__state.progname);
	tame__put(&l, "[");
	tame__put_num(&l, tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0));
	tame__put(&l, "]: tame: thread ");
	tame__put_num(&l, found);
	if (refused)
		tame__put(&l, " blocks SIGSYS: it cannot be put in the "
		    "process's Landlock domain: EBUSY (unblock SIGSYS in "
		    "threads made before tame(); tame(3), CAVEATS)\n");
	else
		tame__put(&l, " blocks SIGSYS: a violation in it ends the "
		    "process with no tame: line (unblock SIGSYS in threads "
		    "made before tame(); tame(3), CAVEATS)\n");
	tame__say(&l);
}

/*
 * Every signal's action is asked for in turn: 64 calls cost less than
 * reading SigCgt from /proc/self/status in a process that has not
 * touched /proc yet, and need no /proc.
 */
void
tame__spare_sigsys(void)
{
	struct tame_ksigaction act;
	int sig;

	for (sig = 1; sig <= 64; sig++) {
		if (sig == SIGSYS || sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (tame__sys(SYS_rt_sigaction, sig, 0, (long)&act,
		    sizeof(act.mask), 0, 0) != 0 || act.handler <= 1 ||
		    !(act.mask & TAME_SIGSYS_BIT))
			continue;	/* SIG_DFL, SIG_IGN, or spares it */
		act.mask &= ~TAME_SIGSYS_BIT;
		tame__sys(SYS_rt_sigaction, sig, (long)&act, 0,
		    sizeof(act.mask), 0, 0);
	}
}

#if defined(__x86_64__)
/*
 * The return from a signal handler, as the C library's restorer makes
 * it (x86-64 needs one; aarch64's kernel has its own).
 */
__asm__(".pushsection .text\n"
    ".type tame__sigreturn, @function\n"
    "tame__sigreturn:\n"
    "\tmovq $15, %rax\n"
    "\tsyscall\n"
    ".size tame__sigreturn, .-tame__sigreturn\n"
    ".popsection\n");
void	tame__sigreturn(void);
#define TAME_SA_RESTORER	0x04000000
#endif

/* The kernel's action before a marked install, to put back. */
static struct tame_ksigaction marked_old;
static int marked_install;

/*
 * Under an inherited filter (an image exec'd by a pledged one, which
 * pledges itself), SIGSYS's action is libtame's only, by a marked call
 * (policy.c): libtame's handler goes in that way.
 */
static int
install_marked(void)
{
	struct tame_ksigaction act = { 0 };
	long r;

	act.handler = (uint64_t)(uintptr_t)on_sigsys;
	act.flags = SA_SIGINFO | SA_RESTART;
#if defined(__x86_64__)
	act.flags |= TAME_SA_RESTORER;
	act.restorer = (uint64_t)(uintptr_t)tame__sigreturn;
#endif
	r = tame__sys(SYS_rt_sigaction, SIGSYS, (long)&act, (long)&marked_old,
	    sizeof(act.mask), TAME_MARK, 0);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	marked_install = 1;
	return 0;
}

/*
 * Make on_sigsys the SIGSYS handler; the previous action goes to old, so
 * that a tame() that fails later can put it back (tame__restore_handler).
 */
int
tame__install_handler(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	/* tame()'s own SIGSYS to other threads (threads.c) restarts calls */
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	marked_install = 0;
	if (sigaction(SIGSYS, &sa, old) == 0)
		return 0;
	return errno == EINVAL ? install_marked() : -1;
}

void
tame__restore_handler(const struct sigaction *old)
{
	if (marked_install)
		tame__sys(SYS_rt_sigaction, SIGSYS, (long)&marked_old, 0,
		    sizeof(marked_old.mask), TAME_MARK, 0);
	else
		sigaction(SIGSYS, old, NULL);
}
