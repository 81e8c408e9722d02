/* SPDX-License-Identifier: ISC */
/*
 * policy.c: the policy.  One row per (system call, flags, argument test).
 *
 * Blocks run from least risky and most required to most powerful, each
 * with the reason it exists.  Within one system call the first applicable
 * row decides, so for every call the plain allowances come first, then
 * the Landlock-confined ones, then the traps and soft denials: a soft
 * denial never shadows an allowance that a larger set of flags grants.
 * One that applies wherever the allowance does (SIGSYS's action) comes
 * first on purpose: no flag lifts it.  Last come the refused calls: a
 * violation that stays gets a row of its own, only to say why (tame-audit
 * quotes it, the man page lists it); it is the last row of its call, so
 * it takes only calls no row before it answers and shadows nothing.
 * tests/t_table.c checks that order.
 */
#include <sys/ioctl.h>
#include <sys/mtio.h>
#include <sys/syscall.h>
#include <asm/unistd.h>		/* the kernel's numbers, as sysnames.c */
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <asm/sockios.h>
#include <linux/fs.h>
#include <linux/mempolicy.h>
#include <linux/netlink.h>
#include <linux/prctl.h>
#ifdef __x86_64__
#include <asm/prctl.h>
#endif
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>

#include "policy.h"

#define SYS(n)		.name = #n, .nr = __NR_##n	/* then any, all, ... */
#define NV(...)		(sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))
#define IN(a, m, ...)	{ TC_IN, a, NV(__VA_ARGS__), m, { __VA_ARGS__ } }
#define ISNULL(a)	{ TC_NULL, a, 0, 0, { 0 } }
#define NOTNULL(a)	{ TC_NOTNULL, a, 0, 0, { 0 } }
/*
 * A call libtame makes for a trapped one (policy.h, TAME_MARK): argument
 * a, unused by the call, holds the marker.  Any code can set it; a row
 * with it grants only what the kernel still checks, or what harms the
 * caller alone.
 */
#define MARKED(a)	{ TC_IN, a, 1, 0xffffffffu, { TAME_MARK } }
/* The claim of a supervisor request, half h: nothing beyond what is held. */
#define WITHIN(a, h)	{ TC_WITHIN, a, 1, 0, { h } }
#define SELF(a)		{ TC_SELF, a, 0, 0, { 0 } }
#define OWNUID(a)	{ TC_OWNUID, a, 0, 0, { 0 } }
#define OWNGID(a)	{ TC_OWNGID, a, 0, 0, { 0 } }
#define UVID(a)		{ TC_UVID, a, 0, 0, { 0 } }
/* An unsigned long that must be 0: all 64 bits, where IN sees 32. */
#define ZERO(a)		{ TC_NULL, a, 0, 0, { 0 } }
#define ALL32		0xffffffffu

/*
 * Linux 6.15's PIDFD_SELF (linux/fcntl.h) and 6.9's pidfd_send_signal()
 * flags (linux/pidfd.h), which the build's headers may predate.
 */
#ifndef PIDFD_SELF_THREAD
#define PIDFD_SELF_THREAD		(-10000)
#define PIDFD_SELF_THREAD_GROUP		(-10001)
#endif
#ifndef PIDFD_SIGNAL_THREAD
#define PIDFD_SIGNAL_THREAD		(1u << 0)
#define PIDFD_SIGNAL_THREAD_GROUP	(1u << 1)
#endif

/* IP options of <linux/in.h> and <linux/in6.h> that glibc's headers may lack. */
#ifndef IP_UNICAST_IF
#define IP_UNICAST_IF	50
#endif
#ifndef IP_LOCAL_PORT_RANGE
#define IP_LOCAL_PORT_RANGE	51
#endif
#ifndef IP_PROTOCOL
#define IP_PROTOCOL	52
#endif
#ifndef IPV6_FLOWLABEL_MGR
#define IPV6_FLOWLABEL_MGR	32
#endif
#ifndef IPV6_FLOWINFO_SEND
#define IPV6_FLOWINFO_SEND	33
#endif
#ifndef IPV6_RECVPATHMTU
#define IPV6_RECVPATHMTU	60
#endif
#ifndef IPV6_PATHMTU
#define IPV6_PATHMTU	61
#endif
#ifndef IPV6_AUTOFLOWLABEL
#define IPV6_AUTOFLOWLABEL	70
#endif
#ifndef IPV6_ADDR_PREFERENCES
#define IPV6_ADDR_PREFERENCES	72
#endif
#ifndef IPV6_MINHOPCOUNT
#define IPV6_MINHOPCOUNT	73
#endif
#ifndef IPV6_RECVORIGDSTADDR
#define IPV6_RECVORIGDSTADDR	74
#endif
#ifndef IPV6_TRANSPARENT
#define IPV6_TRANSPARENT	75
#endif
#ifndef IPV6_UNICAST_IF
#define IPV6_UNICAST_IF	76
#endif
#ifndef IPV6_RECVFRAGSIZE
#define IPV6_RECVFRAGSIZE	77
#endif
#ifndef IPV6_FREEBIND
#define IPV6_FREEBIND	78
#endif

/* seccomp(2)'s questions (Linux 4.14 and 5.0), for older headers. */
#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL	2
#endif
#ifndef SECCOMP_GET_NOTIF_SIZES
#define SECCOMP_GET_NOTIF_SIZES		3
#endif

/* Flag groups used by rows. */
#define ALWAYS		TAME__ALWAYS
#define BASE		TAME__BASE
#define MALLOC		TAME_MALLOC
#define RW		TAME_RW
#define RPATH		TAME_RPATH
#define WPATH		TAME_WPATH
#define CPATH		TAME_CPATH
#define TMPPATH		TAME_TMPPATH
#define INET		TAME_INET
#define UNIX		TAME_UNIX
#define DNSPATH		TAME_DNSPATH
#define GETPW		TAME_GETPW
#define IOCTL		TAME_IOCTL
#define PROC		TAME_PROC
#define CMSG		TAME_CMSG
#define NOUNIX		TAME__NOUNIX
/* Atoms of pledge's promises that the 2015 flags hold as parts. */
#define FLOCK		TAME__FLOCK
#define FATTR		TAME__FATTR
#define CHOWN		TAME__CHOWN
#define DPATH		TAME__DPATH
#define RECVFD		TAME__RECVFD
#define ID		TAME__ID
#define REAP		TAME__REAP
#define STDIO_OBSD	TAME__STDIO_OBSD
#define MCAST		TAME__MCAST
/* Atoms only pledge() holds. */
#define ROUTE		(TAME__ROUTE | TAME__WROUTE)
#define THREADED	TAME__THREADED
#define NET		(INET | UNIX | DNSPATH)
#define UNVEILED	TAME__UNVEILED
#define FREE		TAME__FREE

/* Open flags: see TAME_OPEN_BITS in policy.h. */
#define TMPFILE_BIT	TAME_TMPFILE_BIT
#define OPEN_BITS	TAME_OPEN_BITS
#define OPEN_READ	O_RDONLY, O_PATH
#define OPEN_WRITE	O_WRONLY, O_WRONLY | O_TRUNC
#define OPEN_RDWR	O_RDWR, O_RDWR | O_TRUNC
#define CREATE_WRITE	O_WRONLY | O_CREAT, O_WRONLY | O_CREAT | O_TRUNC, \
			O_WRONLY | TMPFILE_BIT
#define CREATE_RDWR	O_RDWR | O_CREAT, O_RDWR | O_CREAT | O_TRUNC, \
			O_RDWR | TMPFILE_BIT
#define CREATE_READ	O_RDONLY | O_CREAT
/* Every open TMPPATH may make beneath /tmp: all but plain reads. */
#define TMP_OPENS	OPEN_WRITE, OPEN_RDWR, CREATE_WRITE, CREATE_RDWR, \
			CREATE_READ

/* pthread_create's clone; anything that makes namespaces or traces is out. */
#define THREAD_CLONE	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			 CLONE_THREAD)
#define CLONE_NEVER	(CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | \
			 CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | \
			 CLONE_NEWNET | CLONE_PTRACE | CLONE_UNTRACED | \
			 CLONE_PARENT)

#define SOCK_FLAGS	(SOCK_NONBLOCK | SOCK_CLOEXEC)
#define SOCK_TYPE	(ALL32 & ~SOCK_FLAGS)

#define WHY_SELF	"information about the process itself"
#define WHY_SIG		"signal handling within the process"
#define WHY_TO_SELF	"a signal to this process"
#define WHY_TIME	"clocks, sleeping and timers"
#define WHY_THREAD	"threads and their housekeeping"
#define WHY_RETAME	"tame() narrows again under its own filter"
#define WHY_MEM		"memory, never executable (W^X)"
#define WHY_IO		"I/O on descriptors already open"
#define WHY_FD		"descriptor housekeeping"
#define WHY_POLL	"waiting for descriptors"
#define WHY_LOOKUP	"path lookups leak names: RPATH"
#define WHY_READ	"open for reading"
#define WHY_WRITE	"open an existing file for writing"
#define WHY_RDWR	"open for reading and writing"
#define WHY_ATTR	"change attributes of existing files"
#define WHY_CHOWN	"give files to other users and groups"
#define WHY_OWN		"keep a file its owner's: own user, own groups"
#define WHY_NOT_OWN	"fattr: not to another user or group (EPERM)"
#define WHY_CREATE	"create a new name"
#define WHY_REMOVE	"remove or rename a name"
#define WHY_SOCK	"socket calls"
#define WHY_DEV_WRITE	"a write: /dev/null, /dev/tty under tty (OpenBSD's pledge_namei)"
#define WHY_SOCKOPT_COMMON "a receive buffer's size, a pending error (OpenBSD's stdio)"
#define WHY_IPOPT	"IP options but multicast's"
#define WHY_TTY		"terminal control"
#define WHY_PROC	"other processes: fork, signal, wait, change ids"
#define WHY_ID		"change ids: PROC's, pledge's id"
#define WHY_TMP		"beneath /tmp only: path checked, then Landlock"
#define WHY_GRANTED	"a granted path, made by the handler: Landlock judges"
#define WHY_LOCK	"advisory locks on descriptors already open"
#define WHY_MSG_FREE	"no AF_UNIX socket held: no descriptor can pass"
#define WHY_MSG_CHECK	"SCM_RIGHTS needs CMSG: checked in the handler"
#define WHY_XATTR	"user.* and POSIX ACLs only: name checked"
#define WHY_SCHED	"scheduling of the process itself; others: PROC"
#define WHY_MLOCK	"keep own memory resident (gpg's keys); never exec"
#define WHY_NUMA	"NUMA placement of own memory; no protection change"
#define WHY_PKEY	"protection keys only take access away from own memory"
#define WHY_NOEXEC	"no exec after tame() (2015): exec first, then tame"
#define WHY_WX		"W^X: code is loaded before tame()"
#define WHY_SETID	"set-ID and sticky bits are cleared (OpenBSD)"
#define WHY_UV_READ	"unveil: the path needs r; the supervisor checks it"
#define WHY_UV_WRITE	"unveil: the path needs w; the supervisor checks it"
#define WHY_UV_UNIX	"unveil: a unix socket's path needs w (supervisor)"
#define WHY_UV_URING	"unveil: a ring's calls would pass the checks"
#define WHY_UV_MSG	"unveil: a name or ancillary data: the supervisor's"
#define WHY_UV_OTHER	"unveil: names a file another way, unchecked"

/* A mode's set-ID and sticky bits, and each way some are set. */
#define SETID		TAME_SETID_BITS	/* S_ISUID | S_ISGID | S_ISVTX */
#define SETID_VALUES	01000, 02000, 03000, 04000, 05000, 06000, 07000

const struct tame_rule tame_rules[] = {
	/* Leaving is always possible: tame(0) keeps exactly these. */
	{ SYS(exit), ALWAYS, .why = "the thread ends" },
	{ SYS(exit_group), ALWAYS, .why = "the process ends" },

	/* Base set: everything nonzero gets it.  Information about self. */
	{ SYS(getpid), BASE, .why = WHY_SELF },
	{ SYS(getppid), BASE, .why = WHY_SELF },
	{ SYS(gettid), BASE, .why = WHY_SELF },
	{ SYS(getuid), BASE, .why = WHY_SELF },
	{ SYS(geteuid), BASE, .why = WHY_SELF },
	{ SYS(getgid), BASE, .why = WHY_SELF },
	{ SYS(getegid), BASE, .why = WHY_SELF },
	{ SYS(getresuid), BASE, .why = WHY_SELF },
	{ SYS(getresgid), BASE, .why = WHY_SELF },
	{ SYS(getgroups), BASE, .why = WHY_SELF },
	{ SYS(getpgid), BASE, .why = WHY_SELF },
#ifdef __NR_getpgrp
	{ SYS(getpgrp), BASE, .why = WHY_SELF },
#endif
	{ SYS(getsid), BASE, .why = WHY_SELF },
	{ SYS(getrusage), BASE, .why = WHY_SELF },
	{ SYS(times), BASE, .why = WHY_SELF },
	{ SYS(umask), BASE, .why = WHY_SELF },
	{ SYS(uname), BASE, .why = WHY_SELF },
	{ SYS(sysinfo), BASE, .why = WHY_SELF },
	{ SYS(getcpu), BASE, .why = WHY_SELF },
	{ SYS(sched_getaffinity), BASE, .why = WHY_SELF },
	{ SYS(sched_yield), BASE, .why = WHY_SELF },
	/*
	 * Scheduling facts about the process itself, by pid 0 or its own
	 * (pkcon asks sched_getattr); another pid's need PROC below.  The
	 * priority ranges name no process at all.
	 */
	{ SYS(sched_getattr), BASE, .cond = { IN(0, ALL32, 0) },
	    .why = WHY_SCHED },
	{ SYS(sched_getattr), BASE, .cond = { SELF(0) }, .why = WHY_SCHED },
	{ SYS(sched_getparam), BASE, .cond = { IN(0, ALL32, 0) },
	    .why = WHY_SCHED },
	{ SYS(sched_getparam), BASE, .cond = { SELF(0) }, .why = WHY_SCHED },
	{ SYS(sched_getscheduler), BASE, .cond = { IN(0, ALL32, 0) },
	    .why = WHY_SCHED },
	{ SYS(sched_getscheduler), BASE, .cond = { SELF(0) },
	    .why = WHY_SCHED },
	{ SYS(sched_rr_get_interval), BASE, .cond = { IN(0, ALL32, 0) },
	    .why = WHY_SCHED },
	{ SYS(sched_rr_get_interval), BASE, .cond = { SELF(0) },
	    .why = WHY_SCHED },
	{ SYS(sched_get_priority_max), BASE,
	    .why = "a policy's priority range: a constant" },
	{ SYS(sched_get_priority_min), BASE,
	    .why = "a policy's priority range: a constant" },
	/*
	 * Reading capability sets changes nothing (node --version does).
	 * The pid is in memory the filter cannot read, so another
	 * process's sets can be read too: what its /proc status shows.
	 */
	{ SYS(capget), BASE, .why = "read capability sets; never capset" },
	/* libnuma's numa_available() (procps' ps and top) asks it. */
	{ SYS(get_mempolicy), BASE,
	    .why = "the NUMA policy of own memory: a fact about self" },
	{ SYS(fchdir), BASE, .why = "move to a directory already open" },
#ifdef __NR_getrlimit
	{ SYS(getrlimit), BASE, .why = WHY_SELF },
#endif
	{ SYS(prlimit64), BASE, .cond = { IN(0, ALL32, 0), ISNULL(2) },
	    .why = "read own limits (getrlimit)" },
	{ SYS(prctl), BASE, .cond = { IN(0, ALL32, PR_SET_NAME, PR_GET_NAME,
	    PR_GET_SECCOMP, PR_SET_NO_NEW_PRIVS, PR_GET_NO_NEW_PRIVS,
	    PR_GET_DUMPABLE, PR_CAPBSET_READ) },
	    .why = "name and inspect self; set no_new_privs for tame()" },
	/*
	 * Undumpable only narrows (gpg-agent); back to 1 or 2 never.  The
	 * kernel's argument is an unsigned long: all 64 bits must be 0.
	 */
	{ SYS(prctl), BASE, .cond = { IN(0, ALL32, PR_SET_DUMPABLE),
	    ZERO(1) }, .why = "become undumpable (gpg-agent): it only narrows" },
	/* qemu: what a machine-check memory error does to this process */
	{ SYS(prctl), BASE, .cond = { IN(0, ALL32, PR_MCE_KILL,
	    PR_MCE_KILL_GET) }, .why = "machine-check kill policy of self (qemu)" },

	/* Signals within the process.  SIGSYS stays libtame's. */
	{ SYS(rt_sigreturn), BASE, .why = WHY_SIG },
	{ SYS(restart_syscall), BASE, .why = WHY_SIG },
	/*
	 * SIGSYS is never blocked once tamed.  A trap that comes while it
	 * is blocked kills at once, without the handler and its line, and
	 * dash and glibc block every signal around fork, vfork and spawn:
	 * a mask that may block SIGSYS, and a handler's mask, are set by
	 * the SIGSYS handler with SIGSYS left out (emulate.c).  Reading a
	 * mask, unblocking and an invalid "how" need no look.  (The trap
	 * is the narrow row, the allowance the rest: its complement would
	 * be thousands of rules in the libseccomp oracle.)  A process that
	 * had other threads at its first tame() is not trapped: their
	 * masks are their own, and a trap where one blocks SIGSYS (a
	 * worker that blocks every signal, a thread just made, which
	 * glibc starts with all blocked) would kill it.
	 */
	{ SYS(rt_sigprocmask), BASE, THREADED,
	    .why = "threads made before tame(): masks as they were" },
	{ SYS(rt_sigprocmask), BASE, .cond = { MARKED(4) },
	    .why = "libtame's own: blocking SIGSYS only costs the line" },
	{ SYS(rt_sigprocmask), BASE, .action = TA_EMULATE, .cond = { IN(0,
	    ALL32, SIG_BLOCK, SIG_SETMASK), NOTNULL(1) },
	    .why = "block signals: SIGSYS stays unblocked" },
	{ SYS(rt_sigprocmask), BASE,
	    .why = "read the mask, unblock signals" },
	{ SYS(rt_sigpending), BASE, .why = WHY_SIG },
	{ SYS(rt_sigsuspend), BASE, .why = WHY_SIG },
	{ SYS(rt_sigtimedwait), BASE, .why = WHY_SIG },
	{ SYS(sigaltstack), BASE, .why = WHY_SIG },
#ifdef __NR_pause
	{ SYS(pause), BASE, .why = WHY_SIG },
#endif
	/*
	 * A new action for SIGSYS fails as one for SIGKILL does, and
	 * first: no flag lifts it.  Programs that set a handler for every
	 * signal (ps) go on; reading the action (act NULL) works.
	 */
	/*
	 * An image exec'd by a pledged one that pledges itself puts its
	 * handler in marked.  Code that forges the marker to put its own
	 * in gains nothing: a trapped call is never made, whoever takes
	 * the trap.
	 */
	{ SYS(rt_sigaction), BASE, .cond = { IN(0, ALL32, SIGSYS),
	    MARKED(4) }, .why = "libtame's handler, under an inherited filter" },
	{ SYS(rt_sigaction), BASE, .action = TA_ERRNO, .errnum = EINVAL,
	    .cond = { IN(0, ALL32, SIGSYS), NOTNULL(1) },
	    .why = "SIGSYS is libtame's: EINVAL, as for SIGKILL" },
	{ SYS(rt_sigaction), BASE, THREADED,
	    .why = "threads made before tame(): actions as they were" },
	{ SYS(rt_sigaction), BASE, .cond = { MARKED(4) },
	    .why = "libtame's own: a mask with SIGSYS only costs the line" },
	{ SYS(rt_sigaction), BASE, .action = TA_EMULATE, .cond = {
	    NOTNULL(1) },
	    .why = "handlers for other signals: never blocking SIGSYS" },
	{ SYS(rt_sigaction), BASE, .why = "read a signal's action" },

	/* Time. */
	{ SYS(clock_gettime), BASE, .why = WHY_TIME },
	{ SYS(clock_getres), BASE, .why = WHY_TIME },
	/* pledge's settime (the kernel still asks for CAP_SYS_TIME) */
	{ SYS(settimeofday), TAME__SETTIME, .why = "set the clock: settime" },
	{ SYS(clock_settime), TAME__SETTIME, .why = "set the clock: settime" },
	{ SYS(clock_adjtime), TAME__SETTIME, .why = "set the clock: settime" },
	{ SYS(adjtimex), TAME__SETTIME, .why = "set the clock: settime" },
	{ SYS(gettimeofday), BASE, .why = WHY_TIME },
#ifdef __NR_time
	{ SYS(time), BASE, .why = WHY_TIME },
#endif
	{ SYS(clock_nanosleep), BASE, .why = WHY_TIME },
	{ SYS(nanosleep), BASE, .why = WHY_TIME },
	{ SYS(getitimer), BASE, .why = WHY_TIME },
	{ SYS(setitimer), BASE, .why = WHY_TIME },
#ifdef __NR_alarm
	{ SYS(alarm), BASE, .why = WHY_TIME },
#endif
	{ SYS(timer_create), BASE, .why = WHY_TIME },
	{ SYS(timer_settime), BASE, .why = WHY_TIME },
	{ SYS(timer_gettime), BASE, .why = WHY_TIME },
	{ SYS(timer_getoverrun), BASE, .why = WHY_TIME },
	{ SYS(timer_delete), BASE, .why = WHY_TIME },

	/* Housekeeping every thread and fork child does. */
	{ SYS(futex), BASE, .why = WHY_THREAD },
	{ SYS(set_robust_list), BASE, .why = WHY_THREAD },
	{ SYS(get_robust_list), BASE, .why = WHY_THREAD },
	{ SYS(set_tid_address), BASE, .why = WHY_THREAD },
	{ SYS(rseq), BASE, .why = WHY_THREAD },

	/*
	 * Set-ID and sticky bits: a tamed or pledged process makes no
	 * set-ID file, as OpenBSD's pledge strips them (mode &= 0777) from
	 * chmod and from every name it creates.  A mode with them traps;
	 * the handler (or, where exec is held, the supervisor) clears them
	 * and decides the call as the table does the same call without.
	 * First in their calls, under every set: no flag lifts them.
	 */
	{ SYS(fchmod), BASE, .action = TA_EMULATE, .cond = { IN(1, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(fchmodat), BASE, .action = TA_EMULATE, .cond = { IN(2, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(openat), BASE, .action = TA_EMULATE, .cond = { IN(2, O_CREAT,
	    O_CREAT), IN(3, SETID, SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(openat), BASE, .action = TA_EMULATE, .cond = { IN(2,
	    TMPFILE_BIT, TMPFILE_BIT), IN(3, SETID, SETID_VALUES) },
	    .why = WHY_SETID },
	{ SYS(mkdirat), BASE, .action = TA_EMULATE, .cond = { IN(2, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(mknodat), BASE, .action = TA_EMULATE, .cond = { IN(2, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
#ifdef __NR_chmod
	{ SYS(chmod), BASE, .action = TA_EMULATE, .cond = { IN(1, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(open), BASE, .action = TA_EMULATE, .cond = { IN(1, O_CREAT,
	    O_CREAT), IN(2, SETID, SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(open), BASE, .action = TA_EMULATE, .cond = { IN(1,
	    TMPFILE_BIT, TMPFILE_BIT), IN(2, SETID, SETID_VALUES) },
	    .why = WHY_SETID },
	{ SYS(creat), BASE, .action = TA_EMULATE, .cond = { IN(1, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(mkdir), BASE, .action = TA_EMULATE, .cond = { IN(1, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
	{ SYS(mknod), BASE, .action = TA_EMULATE, .cond = { IN(1, SETID,
	    SETID_VALUES) }, .why = WHY_SETID },
#endif

	/*
	 * unveil(): the path calls no Landlock layer judges, by a path
	 * (not a descriptor), trap once unveil is locked; the supervisor
	 * finds what the path leads to, checks the rules that cover it
	 * (sup_unveil.c) and makes the call from its copy.  First in their
	 * calls after the set-ID rows: a flag that allows the call never
	 * lifts the check.  Each row's flags are those that allow the call.
	 */
#define UV(n, any, ...) { SYS(n), any, UNVEILED, .action = TA_EMULATE, \
	    __VA_ARGS__ }
	UV(newfstatat, RPATH, .why = WHY_UV_READ),
	UV(statx, RPATH, .why = WHY_UV_READ),
	UV(faccessat, RPATH, .why = WHY_UV_READ),
	UV(faccessat2, RPATH, .why = WHY_UV_READ),
	UV(readlinkat, RPATH, .why = WHY_UV_READ),
	UV(chdir, RPATH, .why = WHY_UV_READ),
	UV(getxattr, RPATH, .why = WHY_UV_READ),
	UV(lgetxattr, RPATH, .why = WHY_UV_READ),
	UV(listxattr, RPATH, .why = WHY_UV_READ),
	UV(llistxattr, RPATH, .why = WHY_UV_READ),
	UV(openat, RPATH, .cond = { IN(2, OPEN_BITS, O_PATH) },
	    .why = "O_PATH: a lookup the unveiled paths must allow (r)"),
	UV(truncate, WPATH, .why = WHY_UV_WRITE),
	UV(fchmodat, FATTR, .why = WHY_UV_WRITE),
	UV(fchownat, CHOWN | FATTR, .why = WHY_UV_WRITE),
	UV(utimensat, FATTR, .cond = { NOTNULL(1) }, .why = WHY_UV_WRITE),
	UV(setxattr, FATTR, .why = WHY_UV_WRITE),
	UV(lsetxattr, FATTR, .why = WHY_UV_WRITE),
	UV(removexattr, FATTR, .why = WHY_UV_WRITE),
	UV(lremovexattr, FATTR, .why = WHY_UV_WRITE),
	UV(statfs, RPATH, .why = WHY_UV_READ),
	UV(connect, NET, .why = WHY_UV_UNIX),
	UV(sendto, NET | ROUTE, .cond = { NOTNULL(4) }, .why = WHY_UV_UNIX),
	/* a name (a unix path) or ancillary data: the supervisor's send */
	UV(sendmsg, RW, .why = WHY_UV_MSG),
	UV(sendmmsg, RW, .why = WHY_UV_MSG),
#ifdef __NR_stat
	UV(stat, RPATH, .why = WHY_UV_READ),
	UV(lstat, RPATH, .why = WHY_UV_READ),
	UV(access, RPATH, .why = WHY_UV_READ),
	UV(readlink, RPATH, .why = WHY_UV_READ),
	UV(open, RPATH, .cond = { IN(1, OPEN_BITS, O_PATH) },
	    .why = "O_PATH: a lookup the unveiled paths must allow (r)"),
	UV(chmod, FATTR, .why = WHY_UV_WRITE),
	UV(chown, CHOWN | FATTR, .why = WHY_UV_WRITE),
	UV(lchown, CHOWN | FATTR, .why = WHY_UV_WRITE),
	UV(utime, FATTR, .why = WHY_UV_WRITE),
	UV(utimes, FATTR, .why = WHY_UV_WRITE),
	UV(futimesat, FATTR, .why = WHY_UV_WRITE),
#endif
	/*
	 * Not pledged, under unveil's lock: the calls that reach a path
	 * neither Landlock nor these checks judge, which pledge's promises
	 * never allow.  A ring's requests are the kernel's workers'; a
	 * handle, a watch or a mount tree names a file by another way.
	 */
#define UV_REFUSED(n, e, w) { SYS(n), FREE, UNVEILED, \
	    .action = TA_ERRNO, .errnum = e, .why = w }
	UV_REFUSED(openat2, ENOSYS, "unveil: callers fall back to openat"),
	UV_REFUSED(name_to_handle_at, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(open_by_handle_at, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(inotify_init1, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(inotify_add_watch, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(fanotify_init, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(fanotify_mark, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(open_tree, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(fsopen, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(fspick, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(move_mount, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(mount_setattr, ENOSYS, WHY_UV_OTHER),
	UV_REFUSED(chroot, EPERM, WHY_UV_OTHER),
#ifdef __NR_inotify_init
	UV_REFUSED(inotify_init, ENOSYS, WHY_UV_OTHER),
#endif
#undef UV_REFUSED
	{ SYS(io_uring_setup), FREE, UNVEILED, .action = TA_ERRNO,
	    .errnum = ENOSYS, .why = WHY_UV_URING },
	{ SYS(io_uring_enter), FREE, UNVEILED, .action = TA_ERRNO,
	    .errnum = ENOSYS, .why = WHY_UV_URING },
	{ SYS(io_uring_register), FREE, UNVEILED, .action = TA_ERRNO,
	    .errnum = ENOSYS, .why = WHY_UV_URING },
#undef UV

	/* What tame() itself needs to narrow again. */
	{ SYS(seccomp), BASE, .cond = { IN(0, ALL32, SECCOMP_SET_MODE_FILTER) },
	    .why = WHY_RETAME },
	/*
	 * Strict mode only narrows (under a filter the kernel refuses it
	 * with EINVAL); the questions change nothing.  man-db's libseccomp
	 * asks them (apropos, man, mandb, lexgrog).
	 */
	{ SYS(seccomp), BASE, .cond = { IN(0, ALL32, SECCOMP_SET_MODE_STRICT,
	    SECCOMP_GET_ACTION_AVAIL, SECCOMP_GET_NOTIF_SIZES) },
	    .why = "narrow further, or ask what the kernel offers" },
	{ SYS(landlock_create_ruleset), BASE, .why = WHY_RETAME },
	{ SYS(landlock_add_rule), BASE, .why = WHY_RETAME },
	{ SYS(landlock_restrict_self), BASE, .why = WHY_RETAME },
	{ SYS(unshare), BASE, .cond = { IN(0, ALL32, CLONE_THREAD) },
	    .why = "single-thread probe; changes nothing" },
	{ SYS(write), BASE, .cond = { IN(0, ALL32, (uint32_t)-1) },
	    .why = "the audit marker: -1 is never a descriptor" },
	/* closing a descriptor of its own gives a process nothing */
	{ SYS(close), BASE, .why = "libtame closes what it opened" },
	{ SYS(fstat), BASE, .cond = { MARKED(2) },
	    .why = "the stat of a granted file the handler opened" },
	/*
	 * The supervisor (supervisor.h) makes what neither the filter nor
	 * a Landlock layer can decide.  The request claims the atoms the
	 * caller holds; each filter lets it through only if it holds them
	 * all, so the supervisor never grants beyond the filters.
	 */
	{ .name = "tame_ask", .nr = TAME_ASK_NR, BASE, .cond = { IN(0, ALL32,
	    1 /* TAME_ASK_HELLO */) },
	    .why = "is a supervisor there: it grants nothing" },
	{ .name = "tame_ask", .nr = TAME_ASK_NR, BASE, UNVEILED,
	    .cond = { WITHIN(1, 0), WITHIN(2, 1), UVID(5) },
	    .why = "ask the supervisor, naming the process's unveil rules" },
	{ .name = "tame_ask", .nr = TAME_ASK_NR, BASE, UNVEILED,
	    .action = TA_ERRNO, .errnum = EPERM,
	    .why = "a claim beyond what is held, or others' unveil rules" },
	{ .name = "tame_ask", .nr = TAME_ASK_NR, BASE,
	    .cond = { WITHIN(1, 0), WITHIN(2, 1) },
	    .why = "ask the supervisor, claiming no more than is held" },
	{ .name = "tame_ask", .nr = TAME_ASK_NR, BASE, .action = TA_ERRNO,
	    .errnum = EPERM, .why = "a claim beyond the atoms held" },

	/*
	 * Signals to this process: raise(), abort(), pthread_kill().  The
	 * filter compares the target with the pid of the process that
	 * installed it, which is the pid of every process the filter
	 * binds: without PROC no process can fork, and with PROC the rows
	 * under PROC allow every target anyway.  No row needs the gate.
	 */
	{ SYS(kill), BASE, .cond = { SELF(0) }, .why = WHY_TO_SELF },
	/*
	 * pledge's stdio: its own process group, as OpenBSD's pledge_kill
	 * (Landlock's signal scope, Linux 6.12, keeps it to processes of
	 * the domain); tame()'s PROC signals any.
	 */
	{ SYS(kill), STDIO_OBSD, .cond = { IN(0, ALL32, 0) },
	    .why = "a signal to its own process group" },
	{ SYS(tgkill), BASE, .cond = { SELF(0) },
	    .why = "raise(), abort(), pthread_kill(): a thread of this "
	    "process" },
	{ SYS(rt_sigqueueinfo), BASE, .cond = { SELF(0) }, .why = WHY_TO_SELF },
	{ SYS(rt_tgsigqueueinfo), BASE, .cond = { SELF(0) },
	    .why = WHY_TO_SELF },
	/*
	 * Linux 6.15's PIDFD_SELF names this thread or this process, never
	 * another (older kernels answer EBADF); flags may narrow the target
	 * to a thread, never widen it to the process group.
	 */
	{ SYS(pidfd_send_signal), BASE, .cond = { IN(0, ALL32,
	    PIDFD_SELF_THREAD, PIDFD_SELF_THREAD_GROUP), IN(3, ALL32, 0,
	    PIDFD_SIGNAL_THREAD, PIDFD_SIGNAL_THREAD_GROUP) },
	    .why = WHY_TO_SELF },

	/* MALLOC: memory, and threads (which are only memory and a stack). */
	{ SYS(brk), MALLOC, .why = WHY_MEM },
	{ SYS(mmap), MALLOC, .cond = { IN(2, PROT_EXEC, 0) }, .why = WHY_MEM },
	{ SYS(mprotect), MALLOC, .cond = { IN(2, PROT_EXEC, 0) },
	    .why = WHY_MEM },
	{ SYS(munmap), MALLOC, .why = WHY_MEM },
	{ SYS(mremap), MALLOC, .why = WHY_MEM },
	{ SYS(madvise), MALLOC, .why = WHY_MEM },
	{ SYS(getrandom), MALLOC, .why = "malloc seeds its tcache key" },
	/* qemu probes it: memory with a descriptor, as W^X as any other */
	{ SYS(memfd_create), MALLOC,
	    .why = "anonymous memory with a descriptor, never executable" },
	{ SYS(msync), MALLOC, .why = WHY_MEM },
	{ SYS(mincore), MALLOC, .why = WHY_MEM },
	{ SYS(clone), MALLOC, .cond = { IN(0, THREAD_CLONE, THREAD_CLONE),
	    IN(0, CLONE_NEVER, 0) }, .why = "pthread_create" },
	/*
	 * Whether memory the process has stays in RAM, within
	 * RLIMIT_MEMLOCK: gpg, gpgsm and pinentry lock their keys.  It
	 * never changes a protection, so never makes anything executable.
	 */
	{ SYS(mlock), MALLOC, .why = WHY_MLOCK },
	{ SYS(mlock2), MALLOC, .cond = { IN(2, ALL32, 0, MLOCK_ONFAULT) },
	    .why = WHY_MLOCK },
	{ SYS(munlock), MALLOC, .why = WHY_MLOCK },
	{ SYS(mlockall), MALLOC, .cond = { IN(0, ALL32, MCL_CURRENT,
	    MCL_FUTURE, MCL_CURRENT | MCL_FUTURE, MCL_CURRENT | MCL_ONFAULT,
	    MCL_FUTURE | MCL_ONFAULT, MCL_CURRENT | MCL_FUTURE |
	    MCL_ONFAULT) }, .why = WHY_MLOCK },
	{ SYS(munlockall), MALLOC, .why = WHY_MLOCK },
	/*
	 * On which NUMA nodes the process's own memory lives (libnuma); it
	 * never changes what the process may do.  Never MPOL_MF_MOVE_ALL,
	 * which moves pages other processes share too.
	 */
	{ SYS(set_mempolicy), MALLOC, .why = WHY_NUMA },
#ifdef __NR_set_mempolicy_home_node
	{ SYS(set_mempolicy_home_node), MALLOC, .why = WHY_NUMA },
#endif
	{ SYS(mbind), MALLOC, .cond = { IN(5, MPOL_MF_MOVE_ALL, 0) },
	    .why = WHY_NUMA },
	/*
	 * Protection keys only take access away from the process's own
	 * memory (node allocates one); pkey_mprotect is mprotect with a
	 * key, and as mprotect never PROT_EXEC (refused below).
	 */
	{ SYS(pkey_alloc), MALLOC, .why = WHY_PKEY },
	{ SYS(pkey_free), MALLOC, .why = WHY_PKEY },
	{ SYS(pkey_mprotect), MALLOC, .cond = { IN(2, PROT_EXEC, 0) },
	    .why = WHY_MEM },
	/*
	 * pledge's prot_exec: code mapped after the filter (a JIT, dlopen).
	 * No 2015 flag holds it: W^X is tame()'s rule (refused below).
	 */
	{ SYS(mmap), TAME__PROT_EXEC, .why = "executable mappings: prot_exec" },
	{ SYS(mprotect), TAME__PROT_EXEC,
	    .why = "executable mappings: prot_exec" },
	{ SYS(pkey_mprotect), TAME__PROT_EXEC,
	    .why = "executable mappings: prot_exec" },
	/*
	 * An image exec'd under execpromises: its loader maps its
	 * libraries' code from their files.  OpenBSD allows that until the
	 * loader's kbind(2), which Linux lacks: here, file mappings for its
	 * whole life, never anonymous code nor a mapping made executable.
	 */
	{ SYS(mmap), TAME__LOADER, .cond = { IN(3, MAP_ANONYMOUS, 0) },
	    .why = "an exec'd image's loader maps its libraries" },

	/* RW: I/O on descriptors the process already holds. */
	{ SYS(read), RW, .why = WHY_IO },
	{ SYS(readv), RW, .why = WHY_IO },
	{ SYS(pread64), RW, .why = WHY_IO },
	{ SYS(preadv), RW, .why = WHY_IO },
	{ SYS(preadv2), RW, .why = WHY_IO },
	{ SYS(write), RW, .why = WHY_IO },
	{ SYS(writev), RW, .why = WHY_IO },
	{ SYS(pwrite64), RW, .why = WHY_IO },
	{ SYS(pwritev), RW, .why = WHY_IO },
	{ SYS(pwritev2), RW, .why = WHY_IO },
	{ SYS(lseek), RW, .why = WHY_IO },
	{ SYS(sendfile), RW, .why = "copy between descriptors already open" },
	{ SYS(splice), RW, .why = WHY_IO },
	{ SYS(tee), RW, .why = WHY_IO },
	{ SYS(copy_file_range), RW,
	    .why = "copy between descriptors already open" },
	{ SYS(fsync), RW, .why = WHY_IO },
	{ SYS(fdatasync), RW, .why = WHY_IO },
	{ SYS(ftruncate), RW, .why = WHY_IO },
	{ SYS(fallocate), RW, .why = WHY_IO },
	{ SYS(fadvise64), RW, .why = WHY_IO },
	{ SYS(fstat), RW, .why = WHY_IO },
	{ SYS(getdents64), RW, .why = "read a directory already open" },
#ifdef __NR_getdents
	{ SYS(getdents), RW, .why = "read a directory already open" },
#endif
	{ SYS(recvfrom), RW, .why = WHY_IO },
	{ SYS(sendto), RW, .cond = { ISNULL(4) },
	    .why = "send on a connected socket, no address" },
	/*
	 * Messages.  Seccomp cannot read a msghdr, so whether SCM_RIGHTS
	 * rides along is the handler's to see: while the process may hold
	 * an AF_UNIX socket these calls trap (below).  One that holds none
	 * cannot pass a descriptor, and its messages go straight through.
	 */
	{ SYS(recvmsg), RW, NOUNIX, .why = WHY_MSG_FREE },
	{ SYS(sendmsg), RW, NOUNIX, .why = WHY_MSG_FREE },
	{ SYS(recvmmsg), RW, NOUNIX, .why = WHY_MSG_FREE },
	{ SYS(sendmmsg), RW, NOUNIX, .why = WHY_MSG_FREE },
	{ SYS(recvmsg), RECVFD, .why = "descriptors may arrive (SCM_RIGHTS)" },
	{ SYS(sendmsg), CMSG, .why = "descriptors may leave (SCM_RIGHTS)" },
	{ SYS(recvmmsg), RECVFD,
	    .why = "descriptors may arrive (SCM_RIGHTS)" },
	{ SYS(sendmmsg), CMSG, .why = "descriptors may leave (SCM_RIGHTS)" },
	{ SYS(shutdown), RW, .why = WHY_IO },
	{ SYS(close), RW, .why = WHY_FD },
	{ SYS(close_range), RW, .why = WHY_FD },
	{ SYS(dup), RW, .why = WHY_FD },
#ifdef __NR_dup2
	{ SYS(dup2), RW, .why = WHY_FD },
#endif
	{ SYS(dup3), RW, .why = WHY_FD },
	/*
	 * fcntl's commands one by one, as real programs use them (the
	 * census; a test suite's bash asks F_GETPIPE_SZ before writing a
	 * here-document into a pipe).  Queries of a descriptor's own state
	 * are housekeeping: whom SIGIO would go to (setting it is PROC's),
	 * the kernel's write-lifetime hints.
	 */
	{ SYS(fcntl), RW, .cond = { IN(1, ALL32, F_DUPFD, F_DUPFD_CLOEXEC,
	    F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETOWN, F_GETOWN_EX,
	    F_GETSIG, F_GET_RW_HINT, F_GET_FILE_RW_HINT) }, .why = WHY_FD },
	/*
	 * A pipe's buffer is the process's own (unprivileged, at most
	 * /proc/sys/fs/pipe-max-size), as a socket's SO_SNDBUF is; a
	 * memfd's seals only ever take rights away from its descriptors.
	 */
	{ SYS(fcntl), RW, .cond = { IN(1, ALL32, F_GETPIPE_SZ, F_SETPIPE_SZ,
	    F_GET_SEALS, F_ADD_SEALS) },
	    .why = "a pipe's buffer, a memfd's seals: descriptors open" },
	/* The lease this process holds is its own to ask about. */
	{ SYS(fcntl), FLOCK, .cond = { IN(1, ALL32, F_GETLK, F_SETLK, F_SETLKW,
	    F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_GETLEASE) },
	    .why = WHY_LOCK },
	{ SYS(flock), FLOCK, .why = WHY_LOCK },
	{ SYS(ioctl), RW, .cond = { IN(1, ALL32, FIONREAD, FIONBIO, FIOCLEX,
	    FIONCLEX) }, .why = WHY_FD },
	{ SYS(ioctl), RW, .cond = { IN(1, ALL32, FICLONE, FICLONERANGE) },
	    .why = "reflink: copy between descriptors already open" },
#ifdef __NR_pipe
	{ SYS(pipe), RW, .why = WHY_FD },
#endif
	{ SYS(pipe2), RW, .why = WHY_FD },
	{ SYS(socketpair), CMSG | RECVFD, .cond = { IN(0, ALL32, AF_UNIX) },
	    .why = "an anonymous, connected pair" },
	/*
	 * Under NOUNIX the message calls go unchecked (no descriptor can
	 * pass without an AF_UNIX socket).  The first pair traps: the
	 * handler stacks a filter that checks them (cmsg.c), then makes
	 * the pair, marked.  Code that forges the marker skips the checks
	 * and gets a pair whose two ends are its own: descriptors it sends
	 * over it are its own already, and go to no process outside the
	 * filters it is under.
	 */
	{ SYS(socketpair), NOUNIX, .cond = { IN(0, ALL32, AF_UNIX),
	    MARKED(4) }, .why = "the handler's pair, once messages are checked" },
	{ SYS(socketpair), NOUNIX, .action = TA_EMULATE,
	    .cond = { IN(0, ALL32, AF_UNIX) },
	    .why = "the first AF_UNIX pair turns the message checks on" },
	{ SYS(socketpair), RW, .cond = { IN(0, ALL32, AF_UNIX) },
	    .why = "an anonymous pair; its messages are checked" },
	{ SYS(eventfd2), RW, .why = WHY_FD },
#ifdef __NR_eventfd
	{ SYS(eventfd), RW, .why = WHY_FD },
#endif
	{ SYS(signalfd4), RW, .why = "the process's own signals as a descriptor" },
#ifdef __NR_signalfd
	{ SYS(signalfd), RW, .why = "the process's own signals as a descriptor" },
#endif
	{ SYS(timerfd_create), RW, .why = WHY_FD },
	{ SYS(timerfd_settime), RW, .why = WHY_FD },
	{ SYS(timerfd_gettime), RW, .why = WHY_FD },
#ifdef __NR_poll
	{ SYS(poll), RW, .why = WHY_POLL },
#endif
	{ SYS(ppoll), RW, .why = WHY_POLL },
#ifdef __NR_select
	{ SYS(select), RW, .why = WHY_POLL },
#endif
	{ SYS(pselect6), RW, .why = WHY_POLL },
#ifdef __NR_epoll_create
	{ SYS(epoll_create), RW, .why = WHY_POLL },
#endif
	{ SYS(epoll_create1), RW, .why = WHY_POLL },
	{ SYS(epoll_ctl), RW, .why = WHY_POLL },
#ifdef __NR_epoll_wait
	{ SYS(epoll_wait), RW, .why = WHY_POLL },
#endif
	{ SYS(epoll_pwait), RW, .why = WHY_POLL },
	{ SYS(epoll_pwait2), RW, .why = WHY_POLL },

	/* RPATH: read-only effects on the file system. */
	{ SYS(openat), RPATH, .cond = { IN(2, OPEN_BITS, OPEN_READ) },
	    .why = WHY_READ },
#ifdef __NR_open
	{ SYS(open), RPATH, .cond = { IN(1, OPEN_BITS, OPEN_READ) },
	    .why = WHY_READ },
#endif
	{ SYS(newfstatat), RPATH, .why = WHY_LOOKUP },
#ifdef __NR_stat
	{ SYS(stat), RPATH, .why = WHY_LOOKUP },
	{ SYS(lstat), RPATH, .why = WHY_LOOKUP },
#endif
	{ SYS(statx), RPATH, .why = WHY_LOOKUP },
#ifdef __NR_access
	{ SYS(access), RPATH, .why = WHY_LOOKUP },
#endif
	{ SYS(faccessat), RPATH, .why = WHY_LOOKUP },
	{ SYS(faccessat2), RPATH, .why = WHY_LOOKUP },
#ifdef __NR_readlink
	{ SYS(readlink), RPATH, .why = WHY_LOOKUP },
#endif
	{ SYS(readlinkat), RPATH, .why = WHY_LOOKUP },
	{ SYS(getcwd), RPATH, .why = WHY_LOOKUP },
	{ SYS(chdir), RPATH, .why = WHY_LOOKUP },
	{ SYS(statfs), RPATH, .why = WHY_LOOKUP },
	{ SYS(fstatfs), RPATH, .why = WHY_LOOKUP },
	{ SYS(getxattr), RPATH, .why = WHY_LOOKUP },
	{ SYS(lgetxattr), RPATH, .why = WHY_LOOKUP },
	{ SYS(fgetxattr), RPATH, .why = WHY_LOOKUP },
	{ SYS(listxattr), RPATH, .why = WHY_LOOKUP },
	{ SYS(llistxattr), RPATH, .why = WHY_LOOKUP },
	{ SYS(flistxattr), RPATH, .why = WHY_LOOKUP },

	/* WPATH: write to files that exist; O_RDWR needs RPATH too. */
	{ SYS(openat), WPATH, .cond = { IN(2, OPEN_BITS, OPEN_WRITE) },
	    .why = WHY_WRITE },
	{ SYS(openat), RPATH, WPATH, .cond = { IN(2, OPEN_BITS, OPEN_RDWR) },
	    .why = WHY_RDWR },
#ifdef __NR_open
	{ SYS(open), WPATH, .cond = { IN(1, OPEN_BITS, OPEN_WRITE) },
	    .why = WHY_WRITE },
	{ SYS(open), RPATH, WPATH, .cond = { IN(1, OPEN_BITS, OPEN_RDWR) },
	    .why = WHY_RDWR },
#endif
	{ SYS(truncate), WPATH, .why = WHY_ATTR },
	{ SYS(fchmod), FATTR, .why = WHY_ATTR },
	{ SYS(fchmodat), FATTR, .why = WHY_ATTR },
	/*
	 * chown gives files away.  fattr alone gives them to the caller's
	 * own user and groups (-1: unchanged), and fails any other owner
	 * with EPERM, as OpenBSD's pledge_chown().  tame's WPATH holds
	 * both: its filters stop at the first row.
	 */
	{ SYS(fchown), CHOWN, .why = WHY_CHOWN },
	{ SYS(fchown), FATTR, .cond = { OWNUID(1), OWNGID(2) },
	    .why = WHY_OWN },
	{ SYS(fchown), FATTR, .action = TA_ERRNO, .errnum = EPERM,
	    .why = WHY_NOT_OWN },
	{ SYS(fchownat), CHOWN, .why = WHY_CHOWN },
	{ SYS(fchownat), FATTR, .cond = { OWNUID(2), OWNGID(3) },
	    .why = WHY_OWN },
	{ SYS(fchownat), FATTR, .action = TA_ERRNO, .errnum = EPERM,
	    .why = WHY_NOT_OWN },
	{ SYS(utimensat), FATTR, .why = WHY_ATTR },
#ifdef __NR_chmod
	{ SYS(chmod), FATTR, .why = WHY_ATTR },
	{ SYS(chown), CHOWN, .why = WHY_CHOWN },
	{ SYS(chown), FATTR, .cond = { OWNUID(1), OWNGID(2) },
	    .why = WHY_OWN },
	{ SYS(chown), FATTR, .action = TA_ERRNO, .errnum = EPERM,
	    .why = WHY_NOT_OWN },
	{ SYS(lchown), CHOWN, .why = WHY_CHOWN },
	{ SYS(lchown), FATTR, .cond = { OWNUID(1), OWNGID(2) },
	    .why = WHY_OWN },
	{ SYS(lchown), FATTR, .action = TA_ERRNO, .errnum = EPERM,
	    .why = WHY_NOT_OWN },
	{ SYS(utime), FATTR, .why = WHY_ATTR },
	{ SYS(utimes), FATTR, .why = WHY_ATTR },
	{ SYS(futimesat), FATTR, .why = WHY_ATTR },
#endif

	/*
	 * CPATH: create and remove names.  An open is allowed by CPATH only
	 * when it really creates, and creating for writing needs WPATH too.
	 */
	{ SYS(openat), CPATH, WPATH, .cond = { IN(2, OPEN_BITS, CREATE_WRITE) },
	    .why = WHY_CREATE },
	{ SYS(openat), CPATH, RPATH | WPATH, .cond = { IN(2, OPEN_BITS,
	    CREATE_RDWR) }, .why = WHY_CREATE },
	{ SYS(openat), CPATH, RPATH, .cond = { IN(2, OPEN_BITS, CREATE_READ) },
	    .why = WHY_CREATE },
#ifdef __NR_open
	{ SYS(open), CPATH, WPATH, .cond = { IN(1, OPEN_BITS, CREATE_WRITE) },
	    .why = WHY_CREATE },
	{ SYS(open), CPATH, RPATH | WPATH, .cond = { IN(1, OPEN_BITS,
	    CREATE_RDWR) }, .why = WHY_CREATE },
	{ SYS(open), CPATH, RPATH, .cond = { IN(1, OPEN_BITS, CREATE_READ) },
	    .why = WHY_CREATE },
	{ SYS(creat), CPATH, WPATH, .why = WHY_CREATE },
	{ SYS(mkdir), CPATH, .why = WHY_CREATE },
	{ SYS(link), CPATH, .why = WHY_CREATE },
	{ SYS(symlink), CPATH, .why = WHY_CREATE },
	{ SYS(mknod), DPATH, .cond = { IN(1, S_IFMT, S_IFIFO) },
	    .why = "mkfifo; never devices" },
	{ SYS(unlink), CPATH, .why = WHY_REMOVE },
	{ SYS(rmdir), CPATH, .why = WHY_REMOVE },
	{ SYS(rename), CPATH, .why = WHY_REMOVE },
#endif
	{ SYS(mkdirat), CPATH, .why = WHY_CREATE },
	{ SYS(linkat), CPATH, .why = WHY_CREATE },
	{ SYS(symlinkat), CPATH, .why = WHY_CREATE },
	{ SYS(mknodat), DPATH, .cond = { IN(2, S_IFMT, S_IFIFO) },
	    .why = "mkfifo; never devices" },
	{ SYS(unlinkat), CPATH, .why = WHY_REMOVE },
	{ SYS(renameat), CPATH, .why = WHY_REMOVE },
	{ SYS(renameat2), CPATH, .why = WHY_REMOVE },

	/*
	 * INET: TCP and UDP over IPv4 and IPv6, never raw or packet.
	 * DNSPATH: the resolver talks UDP, and TCP for long answers.
	 * UNIX: local sockets.
	 */
	{ SYS(socket), INET | DNSPATH, .cond = { IN(0, ALL32, AF_INET,
	    AF_INET6), IN(1, SOCK_TYPE, SOCK_STREAM, SOCK_DGRAM),
	    IN(2, ALL32, 0, IPPROTO_TCP, IPPROTO_UDP) },
	    .why = "TCP and UDP sockets" },
	{ SYS(socket), UNIX, .cond = { IN(0, ALL32, AF_UNIX), IN(1, SOCK_TYPE,
	    SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET), IN(2, ALL32, 0) },
	    .why = "local sockets; their messages are checked" },
	/*
	 * pledge's route and wroute: a NETLINK_ROUTE socket (getifaddrs,
	 * ip route show).  The filter cannot read its requests, so the
	 * kernel's CAP_NET_ADMIN alone tells reading from changing them.
	 */
	{ SYS(socket), ROUTE, .cond = { IN(0, ALL32, AF_NETLINK),
	    IN(2, ALL32, NETLINK_ROUTE) },
	    .why = "routing tables and interfaces: route, wroute" },
	{ SYS(connect), NET, .why = WHY_SOCK },
	{ SYS(sendto), NET | ROUTE, .why = "send with an address" },
	{ SYS(getsockname), NET | ROUTE | STDIO_OBSD, .why = WHY_SOCK },
	{ SYS(getpeername), NET | STDIO_OBSD, .why = WHY_SOCK },
	{ SYS(getsockopt), NET, .why = WHY_SOCK },
	/* OpenBSD's pledge_sockopt: "too common to reject" */
	{ SYS(getsockopt), STDIO_OBSD, .cond = { IN(1, ALL32, SOL_SOCKET),
	    IN(2, ALL32, SO_RCVBUF, SO_ERROR) }, .why = WHY_SOCKOPT_COMMON },
	{ SYS(setsockopt), STDIO_OBSD, .cond = { IN(1, ALL32, SOL_SOCKET),
	    IN(2, ALL32, SO_RCVBUF, SO_ERROR) }, .why = WHY_SOCKOPT_COMMON },
	/*
	 * Socket options.  Multicast's (IP_MULTICAST_*, IP_ADD_MEMBERSHIP,
	 * MCAST_*, IPv6's likewise) are pledge's mcast: the IP and IPv6
	 * options below are the others, by value (IPv4's below 32, where
	 * multicast's begin, and three after them).  The 2015 flags that
	 * open sockets hold mcast, so every IP option stays theirs.
	 */
	{ SYS(setsockopt), NET, .cond = { IN(1, ALL32, SOL_SOCKET,
	    IPPROTO_TCP, IPPROTO_UDP) }, .why = "socket, TCP and UDP options" },
	{ SYS(setsockopt), NET, .cond = { IN(1, ALL32, IPPROTO_IP),
	    IN(2, ~0x1fu, 0) }, .why = WHY_IPOPT },
	{ SYS(setsockopt), NET, .cond = { IN(1, ALL32, IPPROTO_IP),
	    IN(2, ALL32, IP_UNICAST_IF, IP_LOCAL_PORT_RANGE, IP_PROTOCOL) },
	    .why = WHY_IPOPT },
	{ SYS(setsockopt), NET, .cond = { IN(1, ALL32, IPPROTO_IPV6),
	    IN(2, ALL32, IPV6_UNICAST_HOPS, IPV6_MTU_DISCOVER, IPV6_MTU,
	    IPV6_RECVERR, IPV6_V6ONLY, IPV6_RECVPKTINFO, IPV6_PKTINFO,
	    IPV6_RECVHOPLIMIT, IPV6_HOPLIMIT, IPV6_DONTFRAG, IPV6_RECVTCLASS,
	    IPV6_TCLASS) }, .why = WHY_IPOPT },
	{ SYS(setsockopt), NET, .cond = { IN(1, ALL32, IPPROTO_IPV6),
	    IN(2, ALL32, IPV6_FLOWLABEL_MGR, IPV6_FLOWINFO_SEND,
	    IPV6_RECVPATHMTU, IPV6_PATHMTU, IPV6_AUTOFLOWLABEL,
	    IPV6_ADDR_PREFERENCES, IPV6_MINHOPCOUNT, IPV6_RECVORIGDSTADDR,
	    IPV6_TRANSPARENT, IPV6_UNICAST_IF, IPV6_RECVFRAGSIZE,
	    IPV6_FREEBIND) }, .why = WHY_IPOPT },
	{ SYS(setsockopt), MCAST, .cond = { IN(1, ALL32, IPPROTO_IP,
	    IPPROTO_IPV6) }, .why = "IP options, multicast's among them: mcast" },
	{ SYS(bind), INET | UNIX | ROUTE, .why = WHY_SOCK },
	{ SYS(listen), INET | UNIX, .why = WHY_SOCK },
	{ SYS(accept), INET | UNIX, .why = WHY_SOCK },
	{ SYS(accept4), INET | UNIX, .why = WHY_SOCK },

	/* IOCTL: the terminal set.  TIOCSTI (typing into a tty) never. */
	{ SYS(ioctl), IOCTL, .cond = { IN(1, ALL32, TCGETS, TCSETS, TCSETSW,
	    TCSETSF, TIOCGWINSZ, TIOCSWINSZ, TIOCGPGRP, FIOASYNC, TCFLSH,
	    TCXONC, TIOCSBRK, TIOCCBRK) }, .why = WHY_TTY },
	{ SYS(ioctl), IOCTL, .cond = { IN(1, ALL32, TCSBRK, TIOCOUTQ,
	    TIOCGSID, FIOGETOWN, SIOCATMARK) }, .why = WHY_TTY },
	/*
	 * pledge's tty: a pseudo-terminal pair, with rpath and wpath as
	 * OpenBSD's PTMGET (glibc's openpty() unlocks and names the pair,
	 * or opens the peer), and a controlling terminal (login_tty(),
	 * forkpty()) or exclusive use (cu), as OpenBSD's list.
	 */
	{ SYS(ioctl), TAME__PTY, RPATH | WPATH, .cond = { IN(1, ALL32,
	    TIOCSPTLCK, TIOCGPTN, TIOCGPTPEER) },
	    .why = "pseudo-terminals: unlock, name, open the peer" },
	{ SYS(ioctl), TAME__PTY, .cond = { IN(1, ALL32, TIOCSCTTY,
	    TIOCEXCL) }, .why = "a controlling terminal, exclusive use" },
	{ SYS(ioctl), IOCTL, PROC, .cond = { IN(1, ALL32, TIOCSPGRP) },
	    .why = "job control" },
	/* pledge's tape: a tape drive's status and operations (st(4)) */
	{ SYS(ioctl), TAME__TAPE, .cond = { IN(1, ALL32, MTIOCTOP, MTIOCGET,
	    MTIOCPOS) }, .why = "magnetic tape: status, position, operations" },

	/* PROC: other processes. */
	/*
	 * A process sharing another's memory that is no vfork (the parent
	 * waits): none, for the supervisor tells an exec'd image from the
	 * one that pledged by its memory (sup_procs.c).
	 */
	{ SYS(clone), PROC, .cond = { IN(0, CLONE_NEVER | CLONE_VM |
	    CLONE_VFORK, 0, CLONE_VFORK, CLONE_VM | CLONE_VFORK) },
	    .why = "fork, vfork; never namespaces, tracing, shared memory" },
#ifdef __NR_fork
	{ SYS(fork), PROC, .why = WHY_PROC },
	{ SYS(vfork), PROC, .why = WHY_PROC },
#endif
	{ SYS(fcntl), PROC, .cond = { IN(1, ALL32, F_SETOWN, F_SETOWN_EX,
	    F_SETSIG) }, .why = "choose who gets SIGIO: another process" },
	/*
	 * A lease holds back other processes' open() of the file (up to
	 * /proc/sys/fs/lease-break-time) and has the kernel tell this one.
	 */
	{ SYS(fcntl), PROC, .cond = { IN(1, ALL32, F_SETLEASE) },
	    .why = "a lease holds back other processes' opens of a file" },
	{ SYS(kill), PROC, .why = WHY_PROC },
	{ SYS(tkill), PROC, .why = WHY_PROC },
	{ SYS(tgkill), PROC, .why = WHY_PROC },
	{ SYS(rt_sigqueueinfo), PROC, .why = WHY_PROC },
	{ SYS(rt_tgsigqueueinfo), PROC, .why = WHY_PROC },
	{ SYS(wait4), REAP, .why = "wait for children: pledge's stdio" },
	{ SYS(waitid), REAP, .why = "wait for children: pledge's stdio" },
	{ SYS(setpgid), PROC, .why = WHY_PROC },
	{ SYS(setsid), PROC, .why = WHY_PROC },
	{ SYS(setuid), ID, .why = WHY_ID },
	{ SYS(setgid), ID, .why = WHY_ID },
	{ SYS(setreuid), ID, .why = WHY_ID },
	{ SYS(setregid), ID, .why = WHY_ID },
	{ SYS(setresuid), ID, .why = WHY_ID },
	{ SYS(setresgid), ID, .why = WHY_ID },
	{ SYS(setgroups), ID, .why = WHY_ID },
	{ SYS(setpriority), PROC | ID, .why = WHY_PROC },
	{ SYS(getpriority), PROC, .why = WHY_PROC },
	{ SYS(prlimit64), PROC | ID, .why = WHY_PROC },
#ifdef __NR_setrlimit
	{ SYS(setrlimit), PROC | ID, .why = WHY_PROC },
#endif
	{ SYS(sched_setaffinity), PROC, .why = WHY_PROC },
	{ SYS(sched_setscheduler), PROC, .why = WHY_PROC },
	{ SYS(sched_setparam), PROC, .why = WHY_PROC },
	{ SYS(sched_setattr), PROC, .why = WHY_PROC },
	{ SYS(sched_getscheduler), PROC, .why = WHY_PROC },
	{ SYS(sched_getparam), PROC, .why = WHY_PROC },
	{ SYS(sched_getattr), PROC, .why = WHY_PROC },
	{ SYS(sched_rr_get_interval), PROC, .why = WHY_PROC },

	/*
	 * Paths a flag grants only in part: the time zone and locale files
	 * to everyone, the databases to GETPW and DNSPATH, /tmp to TMPPATH.
	 * Seccomp cannot read a path, so without the flag that grants every
	 * path these calls trap.  The handler copies the path once; any
	 * path no held flag grants (tame_lpaths below) is a violation whose
	 * report names it.  A granted one it opens again, marked, where a
	 * Landlock layer is the real confinement (symlinks, ".."): the
	 * marked row lets any code through, and the layer judges each such
	 * open alike.  O_PATH, which Landlock does not judge, is never
	 * marked.  Without a layer (no Landlock, or exec held, whose layer
	 * would bind the images it execs) the supervisor opens granted
	 * paths with openat2's resolve flags (supervisor.h); without one
	 * either they fail with EACCES: never more than can be confined.
	 */
	{ SYS(openat), BASE, .action = TA_LANDLOCK, .cond = { IN(2, OPEN_BITS,
	    O_RDONLY), MARKED(4) }, .why = WHY_GRANTED },
	{ SYS(openat), TMPPATH, .action = TA_LANDLOCK, .cond = { IN(2,
	    OPEN_BITS, TMP_OPENS), MARKED(4) }, .why = WHY_GRANTED },
	{ SYS(openat), STDIO_OBSD | TAME__PTY, .action = TA_LANDLOCK,
	    .cond = { IN(2, OPEN_BITS, OPEN_WRITE, OPEN_RDWR), MARKED(4) },
	    .why = WHY_GRANTED },
	{ SYS(unlinkat), TMPPATH, .action = TA_LANDLOCK,
	    .cond = { IN(0, ALL32, AT_FDCWD), MARKED(3) },
	    .why = WHY_GRANTED },
	{ SYS(mkdirat), TMPPATH, .action = TA_LANDLOCK,
	    .cond = { IN(0, ALL32, AT_FDCWD), MARKED(3) },
	    .why = WHY_GRANTED },
	{ SYS(openat), BASE, .action = TA_EMULATE, .cond = { IN(2, OPEN_BITS,
	    OPEN_READ) }, .why = "a read: the path must be one a held flag grants" },
	{ SYS(openat), TMPPATH, .action = TA_EMULATE, .cond = { IN(2,
	    OPEN_BITS, TMP_OPENS) }, .why = WHY_TMP },
	{ SYS(openat), STDIO_OBSD | TAME__PTY, .action = TA_EMULATE,
	    .cond = { IN(2, OPEN_BITS, OPEN_WRITE, OPEN_RDWR) },
	    .why = WHY_DEV_WRITE },
#ifdef __NR_open
	{ SYS(open), BASE, .action = TA_EMULATE, .cond = { IN(1, OPEN_BITS,
	    OPEN_READ) }, .why = "a read: the path must be one a held flag grants" },
	{ SYS(open), TMPPATH, .action = TA_EMULATE, .cond = { IN(1, OPEN_BITS,
	    TMP_OPENS) }, .why = WHY_TMP },
	{ SYS(open), STDIO_OBSD | TAME__PTY, .action = TA_EMULATE,
	    .cond = { IN(1, OPEN_BITS, OPEN_WRITE, OPEN_RDWR) },
	    .why = WHY_DEV_WRITE },
	{ SYS(creat), TMPPATH, .action = TA_EMULATE, .why = WHY_TMP },
	{ SYS(unlink), TMPPATH, .action = TA_EMULATE, .why = WHY_TMP },
	{ SYS(mkdir), TMPPATH, .action = TA_EMULATE, .why = WHY_TMP },
	{ SYS(rmdir), TMPPATH, .action = TA_EMULATE, .why = WHY_TMP },
#endif
	{ SYS(unlinkat), TMPPATH, .action = TA_EMULATE, .why = WHY_TMP },
	{ SYS(mkdirat), TMPPATH, .action = TA_EMULATE, .why = WHY_TMP },
	/*
	 * fstat is newfstatat(fd, "", AT_EMPTY_PATH) on glibc, which the
	 * filter cannot tell from a lookup relative to fd: the handler
	 * checks the path is empty.  glibc also stats the files it rereads
	 * (localtime, on every localtime()): the handler allows the paths
	 * a held flag grants.  statx answers ENOSYS on those, and callers
	 * fall back to fstat and stat.
	 */
	{ SYS(newfstatat), RW, .action = TA_EMULATE, .cond = { IN(3, ALL32,
	    AT_EMPTY_PATH) }, .why = "fstat(), checked in the handler" },
	{ SYS(newfstatat), BASE, .action = TA_EMULATE,
	    .why = "a lookup: the path must be one a held flag grants" },
	{ SYS(statx), BASE, .action = TA_EMULATE,
	    .why = "ENOSYS on fstat or a granted path: callers fall back" },

	/*
	 * tkill names a thread without its process: the handler makes it
	 * tgkill of this process, which the kernel refuses (ESRCH) for a
	 * thread of any other.
	 */
	{ SYS(tkill), BASE, .action = TA_EMULATE,
	    .why = "a thread of this process only" },

	/*
	 * Descriptor passing (see the message rows under RW): sending
	 * SCM_RIGHTS without CMSG is a violation, and descriptors that
	 * arrive are never installed (MSG_CTRUNC).
	 */
	{ SYS(sendmsg), RW, .action = TA_EMULATE, .why = WHY_MSG_CHECK },
	{ SYS(sendmmsg), RW, .action = TA_EMULATE, .why = WHY_MSG_CHECK },
	{ SYS(recvmsg), RW, .action = TA_EMULATE,
	    .why = "descriptors that arrive without CMSG are closed" },
	{ SYS(recvmmsg), RW, .action = TA_EMULATE,
	    .why = "descriptors that arrive without CMSG are closed" },

	/*
	 * Extended attributes: the user namespace and POSIX ACLs, which
	 * cp -p, install and tar keep; never security.* or trusted.* (file
	 * capabilities, labels).  A name is a string: the supervisor reads
	 * it once and sets the attribute from its copy.
	 */
	{ SYS(setxattr), FATTR, .action = TA_EMULATE, .why = WHY_XATTR },
	{ SYS(lsetxattr), FATTR, .action = TA_EMULATE, .why = WHY_XATTR },
	{ SYS(fsetxattr), FATTR, .action = TA_EMULATE, .why = WHY_XATTR },
	{ SYS(removexattr), FATTR, .action = TA_EMULATE, .why = WHY_XATTR },
	{ SYS(lremovexattr), FATTR, .action = TA_EMULATE, .why = WHY_XATTR },
	{ SYS(fremovexattr), FATTR, .action = TA_EMULATE, .why = WHY_XATTR },

	/* Soft denials: libc probes these and falls back on the error. */
	{ SYS(clone3), BASE, .action = TA_ERRNO, .errnum = ENOSYS,
	    .why = "flags unreadable; glibc falls back to clone" },
	{ SYS(openat2), BASE, .action = TA_ERRNO, .errnum = ENOSYS,
	    .why = "flags unreadable; callers fall back to openat" },
	{ SYS(ioctl), BASE, .action = TA_ERRNO, .errnum = ENOTTY,
	    .cond = { IN(1, ALL32, TCGETS, TIOCGWINSZ, TIOCGPGRP, TIOCGSID) },
	    .why = "terminal queries (isatty()): no terminal here" },
	{ SYS(openat), GETPW | DNSPATH, .action = TA_ERRNO, .errnum = EACCES,
	    .cond = { IN(2, OPEN_BITS, O_PATH) },
	    .why = "NSS modules (systemd's) look paths up from /; they cope" },
	{ SYS(mmap), MALLOC, .action = TA_ERRNO, .errnum = EPERM,
	    .cond = { IN(2, PROT_EXEC, PROT_EXEC), IN(3, MAP_ANONYMOUS, 0) },
	    .why = "dlopen() fails gently: NSS skips a module" },
	{ SYS(socket), GETPW | DNSPATH, .action = TA_ERRNO, .errnum = EACCES,
	    .cond = { IN(0, ALL32, AF_UNIX), IN(1, ALL32, SOCK_STREAM |
	    SOCK_CLOEXEC | SOCK_NONBLOCK) }, .why = "glibc's nscd probe" },
	{ SYS(socket), INET | DNSPATH, .action = TA_ERRNO, .errnum = EACCES,
	    .cond = { IN(0, ALL32, AF_NETLINK), IN(2, ALL32, NETLINK_ROUTE) },
	    .why = "getaddrinfo's interface probe" },
	{ SYS(socket), BASE, .action = TA_ERRNO, .errnum = EPROTONOSUPPORT,
	    .cond = { IN(0, ALL32, AF_NETLINK), IN(2, ALL32, NETLINK_AUDIT) },
	    .why = "libaudit takes it for a kernel without audit" },

	/*
	 * Refused calls: violations that stay whatever the flags, each with
	 * the reason tame-audit gives for a run that makes one.  Each is the
	 * last row of its call, so it answers only what no row before it
	 * does, exactly as no row at all would: the filter is the same.
	 *
	 * No exec after tame (2015): a program that runs others is tamed
	 * in the child, after the exec, or by tame-exec from outside.
	 */
	/*
	 * pledge's exec: the supervisor sees every exec (supervisor.h),
	 * refuses a set-ID program under execpromises (EACCES, as on
	 * OpenBSD; without them no_new_privs runs it unprivileged), and
	 * judges the new image by execpromises from its first call.
	 */
	{ SYS(execve), TAME__EXEC, .why = "pledge's exec: run another image" },
#ifdef __NR_arch_prctl
	/* the new image's loader sets its thread pointer on x86-64 */
	{ SYS(arch_prctl), TAME__EXEC | TAME__LOADER,
	    .cond = { IN(0, ALL32, ARCH_SET_FS) },
	    .why = "a new image's thread pointer" },
#endif
	{ SYS(execveat), TAME__EXEC,
	    .why = "pledge's exec: run another image" },
	{ SYS(execve), BASE, .action = TA_DENY, .why = WHY_NOEXEC },
	{ SYS(execveat), BASE, .action = TA_DENY, .why = WHY_NOEXEC },
	/*
	 * The sets capset() asks for are in memory the filter cannot read,
	 * so dropping cannot be told from raising within the permitted set
	 * (ip drops what it does not need).  Drop before tame().
	 */
	{ SYS(capset), BASE, .action = TA_DENY,
	    .why = "sets unreadable: cannot tell dropping from raising" },
	/*
	 * W^X: all code is loaded before tame(), so a JIT (the JDK, node)
	 * cannot be tamed.  A file mapped executable under MALLOC fails
	 * with EPERM first (the NSS row above).
	 */
	{ SYS(mmap), BASE, .action = TA_DENY,
	    .cond = { IN(2, PROT_EXEC, PROT_EXEC) }, .why = WHY_WX },
	{ SYS(mprotect), BASE, .action = TA_DENY,
	    .cond = { IN(2, PROT_EXEC, PROT_EXEC) }, .why = WHY_WX },
	{ SYS(pkey_mprotect), BASE, .action = TA_DENY,
	    .cond = { IN(2, PROT_EXEC, PROT_EXEC) }, .why = WHY_WX },
	/*
	 * fcntl's other commands.  F_NOTIFY (dnotify) watches a directory
	 * for what other processes do in it, as inotify does, which no flag
	 * allows either; the write-lifetime hints a process sets are stored
	 * on the inode, for every process that writes the file.
	 */
	{ SYS(fcntl), BASE, .action = TA_DENY, .cond = { IN(1, ALL32,
	    F_NOTIFY) }, .why = "watches what others do in a directory" },
	{ SYS(fcntl), BASE, .action = TA_DENY, .cond = { IN(1, ALL32,
	    F_SET_RW_HINT, F_SET_FILE_RW_HINT) },
	    .why = "a hint stored on the file, for every writer" },
	/*
	 * An io_uring's requests are made by the kernel's workers, which no
	 * filter sees (qemu sets one up): one made before tame() even fails
	 * tame() with EBUSY when it polls on its own.
	 */
	{ SYS(io_uring_setup), BASE, .action = TA_DENY,
	    .why = "its requests run outside the filter" },
	{ SYS(io_uring_enter), BASE, .action = TA_DENY,
	    .why = "its requests run outside the filter" },
	{ SYS(io_uring_register), BASE, .action = TA_DENY,
	    .why = "its requests run outside the filter" },
};
const int tame_nrules = sizeof(tame_rules) / sizeof(tame_rules[0]);

/*
 * The special files of the 2015 design, in Linux's places.  Everyone
 * reads the time zone and locale data (2015: zoneinfo and the libc
 * message catalogs; setlocale() reads the charset converters' cache) and
 * the number of CPUs (sysconf()).  GETPW and
 * DNSPATH read their databases, and the dynamic loader's cache and the
 * libraries, so that an NSS module glibc loads late finds its file and
 * then fails gently at the executable mapping instead of killing.
 */
#ifdef TAME_MULTIARCH		/* Debian's multiarch triplet (Makefile) */
#define GCONV_DIR	"/usr/lib/" TAME_MULTIARCH "/gconv"
#else
#define GCONV_DIR	"/usr/lib64/gconv"
#endif

const struct tame_lpath tame_lpaths[] = {
	{ TAME__BASE, TL_READ, "/etc/localtime" },
	{ TAME__BASE, TL_READ, "/usr/share/zoneinfo" },
	{ TAME__BASE, TL_READ, "/usr/lib/locale" },
	{ TAME__BASE, TL_READ, "/usr/share/locale" },
	{ TAME__BASE, TL_READ, GCONV_DIR },
	{ TAME__BASE, TL_READ, "/sys/devices/system/cpu/online" },
	{ TAME_GETPW, TL_READ, "/etc/passwd" },
	{ TAME_GETPW, TL_READ, "/etc/group" },
	{ TAME_GETPW, TL_READ, "/proc/sys/kernel/ngroups_max" },
	{ TAME_GETPW, TL_READ, "/run/systemd/userdb" },
	{ TAME_GETPW | TAME_DNSPATH, TL_READ, "/etc/nsswitch.conf" },
	{ TAME_GETPW | TAME_DNSPATH, TL_READ, "/etc/ld.so.cache", 1 },
	{ TAME_GETPW | TAME_DNSPATH, TL_READ, "/lib", 1 },
	{ TAME_GETPW | TAME_DNSPATH, TL_READ, "/usr/lib", 1 },
	{ TAME_DNSPATH, TL_READ, "/etc/resolv.conf" },
	{ TAME_DNSPATH, TL_READ, "/etc/hosts" },
	{ TAME_DNSPATH, TL_READ, "/etc/host.conf" },
	{ TAME_DNSPATH, TL_READ, "/etc/services" },
	{ TAME_DNSPATH, TL_READ, "/etc/gai.conf" },
	{ TAME_TMPPATH, TL_FULL, "/tmp" },
	/*
	 * pledge_namei's own: daemon(3) opens /dev/null under any promise,
	 * readpassphrase(3) /dev/tty under tty
	 */
	{ TAME__STDIO_OBSD, TL_RW, "/dev/null" },
	{ TAME__PTY, TL_RW, "/dev/tty" },
	/* pledge's vminfo: the kernel's memory and load statistics */
	{ TAME__VMINFO, TL_READ, "/proc/meminfo" },
	{ TAME__VMINFO, TL_READ, "/proc/vmstat" },
	{ TAME__VMINFO, TL_READ, "/proc/loadavg" },
	{ TAME__VMINFO, TL_READ, "/proc/stat" },
	{ TAME__VMINFO, TL_READ, "/proc/swaps" },
	/* pledge's ps: other processes, as /proc shows them */
	{ TAME__PS, TL_READ, "/proc" },
};
const int tame_nlpaths = sizeof(tame_lpaths) / sizeof(tame_lpaths[0]);

/*
 * The flags in the order the man page lists them.  Implications follow
 * the July 2015 tame.h: every flag that works on descriptors includes RW,
 * CMSG includes UNIX, GETPW includes STDIO.  DNSPATH includes STDIO too
 * (the seed had MALLOC; the resolver also reads and writes sockets).
 */
const struct tame_flagname tame_flagnames[] = {
	{ "malloc", TAME_MALLOC, 0, MALLOC,
	    "allocate memory and start threads" },
	{ "rw", TAME_RW, 0, RW | FLOCK,
	    "read, write and manage descriptors already open" },
	{ "stdio", TAME_STDIO, 0, MALLOC | RW | FLOCK,
	    "malloc and rw: all of stdio works" },
	{ "rpath", TAME_RPATH, TAME_RW, RPATH,
	    "open for reading, look paths up" },
	{ "wpath", TAME_WPATH, TAME_RW, WPATH | FATTR | CHOWN,
	    "open existing files for writing" },
	{ "cpath", TAME_CPATH, 0, CPATH | DPATH, "create and remove names" },
	{ "tmppath", TAME_TMPPATH, TAME_RW, TMPPATH,
	    "read, write, create and remove beneath /tmp" },
	{ "inet", TAME_INET, TAME_RW, INET | MCAST,
	    "TCP and UDP sockets, IPv4 and IPv6" },
	{ "unix", TAME_UNIX, TAME_RW, UNIX | MCAST, "AF_UNIX sockets" },
	{ "dnspath", TAME_DNSPATH, TAME_STDIO, DNSPATH | MCAST,
	    "resolve host names" },
	{ "getpw", TAME_GETPW, TAME_STDIO, GETPW,
	    "read passwd and group entries" },
	{ "cmsg", TAME_CMSG, TAME_UNIX | TAME_RW, CMSG | RECVFD,
	    "pass descriptors" },
	{ "ioctl", TAME_IOCTL, 0, IOCTL, "terminal ioctls" },
	{ "proc", TAME_PROC, 0, PROC | ID | REAP,
	    "fork, signal and wait for others, set ids" },
};
const int tame_nflagnames = sizeof(tame_flagnames) / sizeof(tame_flagnames[0]);

/*
 * pledge(2)'s promises, in its man page's order, as unions of atoms.
 * Where OpenBSD's object has no Linux counterpart, the word is accepted
 * and grants what .here says (often nothing beyond holding the word,
 * which a later pledge() may drop).  tmppath is OpenBSD's from 2015 to
 * 2025 (removed from OpenBSD in 2026); programs still ask for it.
 */
const struct tame_promise tame_promises[] = {
	{ "stdio", MALLOC | RW | REAP | STDIO_OBSD, "memory, I/O on open "
	    "descriptors, self, wait", "" },
	{ "rpath", RPATH, "read-only path operations", "" },
	{ "wpath", WPATH, "open existing files for writing", "" },
	{ "cpath", CPATH, "create and remove names", "" },
	{ "dpath", DPATH, "make FIFOs and device nodes",
	    "FIFOs only: device nodes are never made" },
	{ "tmppath", TMPPATH, "files beneath /tmp",
	    "OpenBSD removed it in 2026; kept with its 2015-2025 meaning" },
	{ "inet", INET, "AF_INET and AF_INET6 sockets", "" },
	{ "mcast", MCAST, "multicast socket options with inet", "" },
	{ "fattr", FATTR, "change modes and times, chown to its own ids",
	    "" },
	{ "chown", CHOWN, "give files to other users and groups", "" },
	{ "flock", FLOCK, "file locks", "" },
	{ "unix", UNIX, "AF_UNIX sockets", "" },
	{ "dns", DNSPATH, "resolve host names", "" },
	{ "getpw", GETPW, "read passwd and group entries", "" },
	{ "sendfd", CMSG, "send descriptors (SCM_RIGHTS)", "" },
	{ "recvfd", RECVFD, "receive descriptors (SCM_RIGHTS)", "" },
	{ "tape", TAME__TAPE, "magnetic tape ioctls", "" },
	{ "tty", IOCTL | TAME__PTY, "terminal ioctls, pseudo-terminals", "" },
	{ "proc", PROC, "fork, signal others, process groups", "" },
	{ "exec", TAME__EXEC, "execve: the new image runs under execpromises",
	    "the supervisor follows each image; see CAVEATS" },
	{ "prot_exec", TAME__PROT_EXEC, "executable mappings", "" },
	{ "settime", TAME__SETTIME, "set the clock", "" },
	{ "ps", TAME__PS, "inspect other processes",
	    "reading /proc, all of it (OpenBSD: the process table by sysctl)" },
	{ "vminfo", TAME__VMINFO, "memory statistics",
	    "reading them from /proc (OpenBSD: sysctl)" },
	{ "id", ID, "change ids, groups and limits", "" },
	{ "pf", TAME__PF, "packet filter ioctls", "nothing: no pf(4) here" },
	{ "route", TAME__ROUTE, "read routing tables",
	    "NETLINK_ROUTE sockets; CAP_NET_ADMIN alone keeps them read-only" },
	{ "wroute", TAME__WROUTE, "change routing tables",
	    "NETLINK_ROUTE sockets, as route" },
	{ "audio", TAME__AUDIO, "audio ioctls", "nothing: no audio(4) here" },
	{ "video", TAME__VIDEO, "video ioctls", "nothing: no video(4) here" },
	{ "bpf", TAME__BPF, "bpf(4) ioctls", "nothing: no bpf(4) here" },
	{ "unveil", TAME__UNVEIL, "call unveil()", "" },
	{ "error", TAME__ERROR, "violations fail with ENOSYS",
	    "the line is still printed" },
	{ "disklabel", TAME__DISKLABEL, "disk labels (undocumented)",
	    "nothing: accepted as OpenBSD's kernel accepts it" },
	{ "drm", TAME__DRM, "drm ioctls (undocumented)",
	    "nothing: accepted as OpenBSD's kernel accepts it" },
	{ "vmm", TAME__VMM, "vmm ioctls (undocumented)",
	    "nothing: accepted as OpenBSD's kernel accepts it" },
};
const int tame_npromises = sizeof(tame_promises) / sizeof(tame_promises[0]);
