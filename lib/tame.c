/* SPDX-License-Identifier: ISC */
/*
 * tame.c: tame(2) itself.  Check the request, build the Landlock layer if
 * one is needed, compile the filter, install both, say so in the trace.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sched.h>

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "supervisor.h"
#include "sys.h"
#include "policy.h"
#include "tame.h"
#include "tame_int.h"


struct tame_state tame__state = {
	.held = TAME__ATOMS | TAME__BASE | TAME__ALWAYS,
	.landlock_ok = 1,
	.exec_null = 1,
	.exec_held = TAME__ATOMS | TAME__BASE | TAME__ALWAYS,
};

static struct tame_prog prog;		/* static: no malloc after MALLOC */
static int lock;			/* the holder's thread id, or 0 */

/*
 * tame() narrows under a lock: two threads must not compile into the one
 * static program at once.  Returns 0, or -1 when this very thread holds
 * the lock already (tame() called from a signal handler inside tame()).
 * A holder that is no thread of this process (the lock came through
 * fork() while another thread held it) has let go.
 */
static int
state_lock(void)
{
	long pid = tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);
	int tid = (int)tame__sys(SYS_gettid, 0, 0, 0, 0, 0, 0), holder;

	for (;;) {
		holder = 0;
		if (__atomic_compare_exchange_n(&lock, &holder, tid, 0,
		    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
		if (holder == tid)
			return -1;
		if (tame__sys(SYS_tgkill, pid, holder, 0, 0, 0, 0) ==
		    -ESRCH && __atomic_compare_exchange_n(&lock, &holder, tid,
		    0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
		tame__sys(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
	}
}

static void
state_unlock(void)
{
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

/*
 * "tame:0x<flags>" (or pledge()'s "pledge:0x<atoms>") on descriptor -1:
 * visible to strace, changes nothing.
 */
static void
audit_marker(const struct tame_request *rq)
{
	static const char hex[] = "0123456789abcdef";
	char buf[40];
	uint64_t v = rq->pledged ? rq->want & TAME__ATOMS : (uint64_t)rq->flags;

	if (tame_unrestricted(rq->want))
		v = TAME__ATOMS;	/* not pledged: every promise */
	int i, n, shift;
	const char *prefix = rq->pledged ? "pledge:0x" : "tame:0x";

	n = (int)strlen(prefix);
	memcpy(buf, prefix, (size_t)n);
	for (shift = 60; shift > 0 && ((v >> shift) & 0xf) == 0; shift -= 4)
		;
	for (i = shift; i >= 0; i -= 4)
		buf[n++] = hex[(v >> i) & 0xf];
	tame__sys(SYS_write, -1, (long)buf, n, 0, 0, 0);
}

/*
 * TAME_AUDIT=permissive lets an audited run go on past every would-be
 * violation.  Honoured only on the first tame() and only while a tracer
 * already controls the process (and so could do anything a filter
 * forbids), so it never weakens an untraced program.  Returns 0, or 1
 * for "permissive" (the name service is warmed as a real call would
 * warm it), or 2 for "permissive-cold" (it is not: tame-audit's runs
 * under every flag, which must see what a run of fewer flags would).
 */
static int
permissive_requested(void)
{
	const char *v = getenv("TAME_AUDIT");
	char buf[1024], *p;
	ssize_t n;
	int fd, mode;

	if (v == NULL)
		return 0;
	if (strcmp(v, "permissive") == 0)
		mode = 1;
	else if (strcmp(v, "permissive-cold") == 0)
		mode = 2;
	else
		return 0;
	if ((fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if ((p = strstr(buf, "TracerPid:")) == NULL)
		return 0;
	return strtol(p + 10, NULL, 10) != 0 ? mode : 0;
}

static int
seccomp_install(const struct tame_prog *p)
{
	struct sock_fprog fp = {
		.len = (unsigned short)p->len,
		.filter = (struct sock_filter *)p->insn,
	};
	long r;

	r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_TSYNC, &fp);
	if (r > 0) {
		/* thread r has a filter we did not install: cannot sync */
		errno = EBUSY;
		return -1;
	}
	if (r == -1 && (errno == ENOSYS ||
	    (errno == EINVAL && prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == -1)))
		errno = ENOSYS;
	return r == 0 ? 0 : -1;
}

static int
single_threaded(void)
{
	/* unshare(CLONE_THREAD) is a no-op that fails if threads exist */
	return tame__sys(SYS_unshare, CLONE_THREAD, 0, 0, 0, 0, 0) == 0;
}

/* The flags and state this process's filters stand for. */
static tame_atoms
current_held(void)
{
	return tame__state.held;
}

/*
 * The first tame() notes that no descriptor can pass when the process
 * holds no AF_UNIX socket; later calls keep what is still true.  The
 * look costs a fresh process some microseconds, so it is made only where
 * messages on other sockets are likely: under INET or DNSPATH (a UDP
 * server, the resolver).  Only a single thread is sure of it: another
 * could make a socket between the look and the filter.
 */
static tame_atoms
with_state(tame_atoms want, tame_atoms held)
{
	int single;

	if (tame__state.tamed)
		return want | (held & TAME__STATE);
	single = single_threaded();
	if (!single)
		want |= TAME__THREADED;
	/* an exec tree: its images' messages are the supervisor's to judge */
	if (tame__nounix_considered(want) && !(want & TAME__EXEC) && single &&
	    !tame__holds_unix_socket())
		want |= TAME__NOUNIX;
	return want;
}

/*
 * unveil's lock in a process that has not pledged: a call number past
 * the last this build knows (a newer kernel's: fchmodat2, setxattrat,
 * file_setattr...) may take a path no check sees, and the policy's
 * filter lets every call it has no row for through.  This one answers
 * ENOSYS to those, as a kernel without them; libtame's own request
 * (TAME_ASK_NR) and other architectures are the policy filter's.
 */
static int
refuse_unknown_calls(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, tame_audit_arch(), 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K,
		    (uint32_t)tame_syscall_max(), 0, 3),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TAME_ASK_NR, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fp = { sizeof(f) / sizeof(f[0]), f };

	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_TSYNC, &fp) == 0 ? 0 : -1;
}

/* The seccomp half: install prog unless the delta changes nothing. */
static int
install(void)
{
	return prog.changed == 0 ? 0 : seccomp_install(&prog);
}

/* The ids a filter being made compares chowns with (compile.h). */
static struct tame_ids own_ids;

/*
 * Does a supervisor serve this process already?  An image exec'd by a
 * pledged one (its filters and its supervisor stay) that pledges itself:
 * the kernel makes no second listener in a chain, and needs none; the
 * supervisor judges it as the image it tracks, told of each narrowing.
 * Asked only under a filter: elsewhere no supervisor can be there.
 */
static int
inherited_supervisor(void)
{
	struct tame_ask q;

	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 2)
		return 0;
	memset(&q, 0, sizeof(q));
	if (tame__sys(TAME_ASK_NR, TAME_ASK_HELLO, 0, 0, (long)&q, sizeof(q),
	    0) < TAME_ASK_VERSION)
		return 0;
	/* the unveil rules this image keeps, which the filters name */
	tame__state.uvid = (uint32_t)q.need;
	return 1;
}

/*
 * Does a process whose first filter is t need the supervisor
 * (supervisor.h)?  Where something it may do can be decided by neither
 * a filter nor a Landlock layer: extended attributes (fattr: their
 * names), exec (the images it runs, under execpromises), paths where no
 * layer confines them (no Landlock, exec held, layers used up), what
 * Landlock does not judge of /tmp (lstat, O_PATH: tmppath), and the
 * ancillary data a unix socket carries besides descriptors (unix:
 * credentials).  Elsewhere lstat() and O_PATH of a granted file fail
 * with EACCES without it.  Only the first narrowing can start one: the
 * kernel makes one listener per chain.
 */
static int
needs_supervisor(const struct tame_target *t)
{
	if ((t->held & ~TAME__ALWAYS) == 0)
		return 0;		/* _exit only */
	/* unveil's checks (UNVEILED), now or after a later lock (UNVEIL) */
	return (t->held & (TAME__FATTR | TAME__EXEC | TAME_TMPPATH |
	    TAME_UNIX | TAME__UNVEIL | TAME__UNVEILED)) != 0 ||
	    t->landlock_ok != 1 || t->split != TAME_SPLIT_NONE;
}

/*
 * The lock of unveil()'s rules in this narrowing: the supervisor keeps
 * them under a number the new filter names (TC_UVID).  One forked in
 * this narrowing takes them from its copy of the process.  0, or -1.
 */
static int
unveil_register(uint32_t *uvid)
{
	long r;

	if (!tame__state.supervised) {
		*uvid = TAME_UVID_FIRST;
		return 0;
	}
	if ((r = tame__ask_unveil(tame__unveil_rules())) < 0) {
		errno = r == -ENOSYS ? ENOSYS : (int)-r;
		return -1;
	}
	*uvid = (uint32_t)r;
	return 0;
}

/*
 * The atoms whose paths pass unveil's lock (unveil.c): what is held,
 * where anything is (pledged or tamed); not pledged, none, as OpenBSD
 * lets nothing past unveil then.
 */
static tame_atoms
unveil_pass(tame_atoms want)
{
	return tame_unrestricted(want) ? 0 : want | TAME__BASE;
}

/*
 * Narrow to rq->want, for tame() or pledge(): both hold one state, so
 * either may narrow what the other left.
 */
static int
narrow_locked(const struct tame_request *rq)
{
	struct tame_target next = { 0 }, prev = { 0 };
	struct sigaction old_sigsys;
	sigset_t sigsys;
	int ruleset = -1, domain_only = 0, r, saved, supervisor = 0;
	int nonzero = (rq->want & ~TAME__ALWAYS) != 0;
	tame_atoms want = rq->want;
	tame_atoms held = current_held();
	/*
	 * exec held, or not pledged (pledge(NULL, E), unveil's lock): the
	 * supervisor follows the images, so that a later pledge() with exec
	 * finds its first filter in place.
	 */
	int execs = (want & TAME__EXEC) || tame_unrestricted(want);
	/* a split filter is made whole, as is the first after one */
	int whole = execs || tame__state.split || tame_unrestricted(held);
	/* unveil's lock: its own, or a narrowing without pledge's unveil */
	int locking = tame__unveil_pending() && (rq->unveil_lock ||
	    !(want & TAME__UNVEIL));
	uint32_t uvid = tame__state.uvid;

	/* not pledged: pledge(NULL, E), or unveil's lock, first */
	if (tame_unrestricted(want) && !tame__state.tamed)
		held = want;
	if (!tame_unrestricted(held) && (want & ~held)) {
		errno = EPERM;		/* only reductions */
		return -1;
	}
	/*
	 * A narrowing without pledge's unveil locks unveil (pledge(2)).
	 * The lock's layer goes in last before the filter, once all that
	 * can fail has not (all or nothing: never a layer without its
	 * filter, nor a path tame() needs hidden before it read it).
	 */
	if (tame__state.tamed && want == (held & ~TAME__STATE) &&
	    !rq->exec_changed && !locking) {
		if (!(want & TAME__UNVEIL) &&
		    tame__unveil_lock(!single_threaded(), unveil_pass(want)) ==
		    -1)
			return -1;
		audit_marker(rq);	/* nothing narrows: nothing new */
		tame__state.pledged = rq->pledged;
		return 0;
	}
	if (!tame__state.tamed)
		tame__state.permissive = permissive_requested();
	if (tame__state.permissive) {
		if ((rq->unveil_lock || !(want & TAME__UNVEIL)) &&
		    tame__unveil_lock(0, unveil_pass(want)) == -1)
			return -1;
		if (tame__state.permissive == 1)
			tame__warm(want);	/* as the real call would */
		audit_marker(rq);
		tame__state.held = want;
		tame__state.tamed = 1;
		tame__state.pledged = rq->pledged;
		return 0;
	}

	if (!tame__state.tamed &&
	    tame__acquired_check(single_threaded()) == -1)
		return -1;
	if (!tame_unrestricted(want))
		tame__warm(want);
	if (!tame__state.tamed && !tame__state.supervised &&
	    inherited_supervisor()) {
		tame__state.supervised = 1;
		tame__sup_config.split = 1;	/* it tracks this image */
		tame__state.split = 1;		/* its first split: unknown */
		tame__state.split_held = tame__state.split_exec = 0;
	}
	want = with_state(want, held);
	if (locking) {
		if (tame__unveil_pass(unveil_pass(want)) == -1 ||
		    unveil_register(&uvid) == -1)
			return -1;
		want |= TAME__UNVEILED;
	}
	next.held = want;
	next.uvid = uvid;
	next.landlock_ok = 1;
	if (execs) {
		/*
		 * pledge's exec: one filter for this image and the ones it
		 * execs; the first such filter is the supervisor's.
		 */
		next.split = tame__state.split ? TAME_SPLIT_LATER :
		    TAME_SPLIT_FIRST;
		next.exec_held = rq->exec_null ? TAME_UNRESTRICTED :
		    rq->exec_held | TAME__LOADER;
		next.split_held = tame__state.split_held;
		next.split_exec = tame__state.split_exec;
		/*
		 * Where unveil may be locked later, the first filter sends
		 * the supervisor the calls unveil's rows trap from the start
		 * (it lets them go on until the lock): a later filter cannot
		 * tell this image's calls from those of images it execs.
		 */
		if (next.split == TAME_SPLIT_FIRST &&
		    (want & (TAME__UNVEIL | TAME__FREE)))
			next.held |= TAME__UNVEILED;
	}
	/* an older filter without PROC was made here too: no fork since */
	next.pid = prev.pid = (int)tame__sys(SYS_getpid, 0, 0, 0, 0, 0, 0);
	/* split: "itself" is whoever calls, which the supervisor knows */
	if (next.split != TAME_SPLIT_NONE)
		next.pid = 0;
	tame__own_ids(&own_ids);
	next.ids = prev.ids = &own_ids;
	if (execs) {
		/*
		 * pledge's exec: a layer that confines paths would bind the
		 * images it execs too, which execpromises judge alone (NULL:
		 * not at all).  Paths are the supervisor's, as without
		 * Landlock; the domain still keeps other processes (and the
		 * supervisor) out of reach (tame__domain_kind).  Not pledged
		 * itself, this image's domain is that of every promise.
		 */
		next.landlock_ok = 0;
		/* unveil's lock, unpledged: a later pledge() may make one */
		if (tame_unrestricted(want) && rq->exec_null)
			next.landlock_ok = tame__state.tamed ?
			    tame__state.landlock_ok : 1;
		if (!tame__state.tamed && !(tame_unrestricted(want) &&
		    rq->exec_null) && tame__landlock_domain(
		    tame_unrestricted(want) ? TAME__ATOMS | TAME__BASE |
		    TAME__ALWAYS : want, &ruleset) == 0 && ruleset != -1)
			domain_only = 1;
	} else if (tame__landlock_needed(want) &&
	    !tame__landlock_is_current(want) &&
	    (!tame__state.tamed || tame__state.landlock_ok == 1)) {
		/*
		 * A layer binds only this thread and its later threads.
		 * Asked here, after tame__warm() ran the name services,
		 * not taken from the probe before it.
		 */
		tame__landlock_opens_marked(tame__state.tamed);
		if (tame__landlock_prepare(want, &ruleset) == -1)
			return -1;
		next.landlock_ok = ruleset != -1;
	} else if (!tame__state.tamed && nonzero &&
	    tame__landlock_domain(want, &ruleset) == 0 && ruleset != -1)
		domain_only = 1;	/* no paths: other processes only */
	/*
	 * A kernel without Landlock never gives a layer, also not to a
	 * later call that narrows to a path-gated flag (rpath,wpath,
	 * cpath,tmppath, which needs none, then tmppath alone): so the
	 * first filter already lets the handler's openat2 through and the
	 * later ones confine the paths with it, instead of refusing them
	 * all as where a layer was lost (tame-sort's spill files on 5.10).
	 */
	if (!tame__state.tamed && tame_landlock_abi() == 0)
		next.landlock_ok = 0;
	/*
	 * Without a layer the handler confines the granted paths itself
	 * (openat2), for good: an older filter made so refuses what a
	 * layer would confine, and only the handler's own opens get past.
	 */
	if (tame__state.tamed && tame__state.landlock_ok != 1)
		next.landlock_ok = tame__state.landlock_ok;
	else if (tame__state.tamed && !next.landlock_ok)
		next.landlock_ok = 2;	/* older filters refuse openat2 */
	if (!next.landlock_ok && !tame__state.tamed)
		tame__paths_resolve(want);
	prev.held = held;
	prev.landlock_ok = tame__state.landlock_ok;
	/* new execpromises: a whole filter, stacked on the older ones */
	if (tame_compile_fast(&next, tame__state.tamed && !whole ? &prev :
	    NULL, &prog) == -1)
		goto fail;

	/*
	 * The handler must be in place before the filter: another thread
	 * may trap the moment it is.  If the filter then fails to go in,
	 * the old handler comes back.
	 */
	if (!tame__state.tamed) {
		const char *p = program_invocation_short_name;

		strncpy(tame__state.progname, p != NULL ? p : "?",
		    sizeof(tame__state.progname) - 1);
		if (tame__install_handler(&old_sigsys) == -1)
			goto fail;
		if (!(want & TAME__THREADED))
			tame__spare_sigsys();
		else if (tame_landlock_abi() == 0)
			tame__warn_blocked_sigsys(0);	/* else EBUSY: later */
	}
	/*
	 * A trap with SIGSYS blocked kills without a word, and emulated
	 * calls such as fstat would die: SIGSYS is libtame's from now on,
	 * in this thread at least (other threads' masks are their own).
	 */
	sigemptyset(&sigsys);
	sigaddset(&sigsys, SIGSYS);
	sigprocmask(SIG_UNBLOCK, &sigsys, NULL);
	/* Landlock and seccomp both need no_new_privs (or CAP_SYS_ADMIN) */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		goto restore;
	/*
	 * The supervisor is forked before the process enters its Landlock
	 * domain: outside it, no code the process runs can reach it.  It
	 * opens granted paths as tame() resolved them.
	 */
	if (!tame__state.tamed && !tame__state.supervised &&
	    needs_supervisor(&next)) {
		tame__paths_resolve(want);
		tame__sup_config.split = next.split == TAME_SPLIT_FIRST;
		tame__sup_config.held = want;
		tame__sup_config.exec_held = next.exec_held;
		tame__sup_config.exec_null = rq->exec_null;
		tame__sup_config.uvid = locking ? TAME_UVID_FIRST : 0;
		if (tame__supervisor_fork() == -1)
			goto restore;
		supervisor = 1;
	}
	/* Landlock first: of the two it is the one that can still fail. */
	if (ruleset != -1) {
		/* every thread's, and this one's; closes it */
		r = tame__landlock_enforce(ruleset, !single_threaded());
		ruleset = -1;
		/*
		 * A thread that could not enter (EBUSY: it blocks SIGSYS)
		 * fails the call, also for a layer of the domain alone:
		 * other processes would stay in its reach.
		 */
		if (r == -1 && errno != E2BIG)
			goto restore;
		/*
		 * Layers used up by others, a domain's alone: the domains
		 * the process is in already keep out what is outside them.
		 */
		if (r == -1 && !domain_only) {
			/*
			 * The kernel's 16 layers are used up, by others:
			 * the filter refuses what a layer would confine,
			 * and the supervisor opens granted paths.
			 */
			next.landlock_ok = tame__state.tamed &&
			    tame__state.landlock_ok != 0 ? 2 : 0;
			if (!tame__state.tamed)
				tame__paths_resolve(want);
			if (!tame__state.tamed && !supervisor) {
				if (tame__supervisor_fork() == -1)
					goto restore;
				supervisor = 1;
			}
			if (tame_compile_fast(&next, tame__state.tamed &&
			    !whole ? &prev : NULL, &prog) == -1)
				goto restore;
		}
	}
	if ((locking || !(want & TAME__UNVEIL)) &&
	    tame__unveil_lock(!single_threaded(), unveil_pass(want)) == -1)
		goto restore;
	audit_marker(rq);
	if (supervisor) {
		/* a split's first filter is the supervisor's itself */
		if (tame__supervisor_handoff(next.split == TAME_SPLIT_FIRST ?
		    &prog : NULL) == -1) {
			supervisor = 0;
			goto restore;
		}
		if (next.split == TAME_SPLIT_FIRST)
			prog.changed = 0;	/* in already */
	} else if (next.split == TAME_SPLIT_FIRST && (tame__state.tamed ||
	    tame__state.supervised)) {
		/*
		 * exec held at last, under filters without a supervisor:
		 * none can come now (tame() first, then pledge() with exec).
		 */
		errno = EPERM;
		goto restore;
	}
	/* unpledged, unveil locked: the numbers no row knows refused */
	if (locking && tame_unrestricted(want) && refuse_unknown_calls() == -1)
		goto restore;
	/* an exec tree's supervisor judges this image by what it holds */
	if (!supervisor && tame__state.supervised && tame__sup_config.split)
		tame__ask_narrow(want, rq->exec_null, rq->exec_null ? 0 :
		    rq->exec_held | TAME__LOADER);
	if (install() == -1)
		goto restore;
	if (next.split == TAME_SPLIT_FIRST) {
		tame__state.split = 1;
		tame__state.split_held = next.held;
		tame__state.split_exec = next.exec_held;
	} else if (next.split == TAME_SPLIT_NONE)
		tame__state.split = 0;
	tame__state.held = want;
	tame__state.pledged = rq->pledged;
	tame__state.exec_null = rq->exec_null;
	tame__state.exec_held = rq->exec_held;
	tame__state.landlock_ok = next.landlock_ok;
	tame__state.uvid = uvid;
	tame__state.tamed = 1;
	return 0;
restore:
	if (!tame__state.tamed) {
		saved = errno;
		if (supervisor)
			tame__supervisor_abort();
		tame__restore_handler(&old_sigsys);
		errno = saved;
	}
fail:
	if (ruleset != -1) {
		saved = errno;
		tame__sys(SYS_close, ruleset, 0, 0, 0, 0, 0);
		errno = saved;
	}
	return -1;
}

long
tame__unix_checks_on(void)
{
	struct tame_target next = { 0 }, prev = { 0 };
	tame_atoms held;
	long r = 0;

	if ((tame__state.held & TAME__NOUNIX) == 0)
		return 0;
	if (state_lock() == -1)
		return -EDEADLK;	/* a trap inside this thread's tame() */
	held = tame__state.held;
	if (held & TAME__NOUNIX) {
		prev.held = held;
		prev.landlock_ok = next.landlock_ok = tame__state.landlock_ok;
		prev.uvid = next.uvid = tame__state.uvid;
		next.held = held & ~TAME__NOUNIX;
		next.pid = prev.pid = (int)tame__sys(SYS_getpid, 0, 0, 0, 0, 0,
		    0);
		tame__own_ids(&own_ids);
		next.ids = prev.ids = &own_ids;
		/* a delta: the older filters still hold the rest */
		if (tame_compile_fast(&next, &prev, &prog) == -1 ||
		    install() == -1)
			r = -errno;
		else
			tame__state.held = next.held;
	}
	state_unlock();
	return r;
}

int
tame__narrow(const struct tame_request *rq)
{
	int r;

	if (state_lock() == -1) {
		errno = EDEADLK;	/* a call from a signal inside one */
		return -1;
	}
	r = narrow_locked(rq);
	state_unlock();
	return r;
}

TAME_EXPORT int
tame(int flags)
{
	if (flags & ~TAME_ALL) {
		errno = EINVAL;
		return -1;
	}
	return tame__narrow(&(struct tame_request){ tame_expand(flags),
	    flags, 0, tame__state.exec_null, tame__state.exec_held, 0 });
}

/*
 * The flags wholly held: each flag whose atoms all are (pledge() may
 * leave a flag in part: "stdio" without flock is not tame's rw).
 */
TAME_EXPORT int
tame_flags_held(void)
{
	tame_atoms held = tame__state.held;
	int i, f, flags = 0;

	if (tame_unrestricted(held))
		return TAME_ALL;	/* not pledged */

	for (i = 0; i < tame_nflagnames; i++) {
		f = tame_flagnames[i].flag;
		if ((f & (f - 1)) == 0 && (held & tame_flagnames[i].atoms) ==
		    tame_flagnames[i].atoms)
			flags |= f;
	}
	return flags;
}
