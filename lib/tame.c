/* SPDX-License-Identifier: ISC */
/*
 * tame.c: tame(2) itself.  Check the request, build the Landlock layer if
 * one is needed, compile the filter, install both, say so in the trace.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/seccomp.h>
#include <linux/sched.h>

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "gate.h"
#include "policy.h"
#include "tame.h"
#include "tame_int.h"


struct tame_state tame__state = {
	.held = TAME__ATOMS | TAME__BASE | TAME__ALWAYS,
	.landlock_ok = 1,
	.exec_null = 1,
	.exec_held = TAME__ATOMS | TAME__BASE | TAME__ALWAYS,
};

/* The pledged image's code, once exec is held (images.c). */
struct tame_images tame__images;
static int images_taken;

/*
 * Where exec is held, the filter tells the image that pledged from the
 * images it execs (images.c): it needs the ranges of this image's code.
 * Fills t's part; 0, or -1 with errno.
 */
static int
exec_target(struct tame_target *t, const struct tame_request *rq)
{
	t->images = NULL;
	if (!(t->held & TAME__EXEC))
		return 0;
	/*
	 * With prot_exec the pledged image could make code anywhere, and
	 * its calls from there would pass for an exec'd image's.
	 */
	if (t->held & TAME__PROT_EXEC) {
		errno = ENOTSUP;
		return -1;
	}
	if (!images_taken) {
		if (tame__images_snapshot(&tame__images) == -1)
			return -1;
		images_taken = 1;
	}
	t->images = &tame__images;
	t->exec_null = rq->exec_null;
	if (!rq->exec_null)
		t->held |= TAME__EXECSET;
	t->exec_held = rq->exec_held;
	return 0;
}

static struct tame_prog prog;		/* static: no malloc after MALLOC */
static int lock;			/* the holder's thread id, or 0 */

/*
 * tame() and the SIGSYS handler (turning message checks on) both compile
 * into the one static program.  Returns 0, or -1 when this very thread
 * holds the lock already: a trap inside tame() itself must not wait for
 * itself.  A holder that is no thread of this process (the lock came
 * through fork() while another thread held it) has let go.
 */
static int
state_lock(void)
{
	long pid = tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0);
	int tid = (int)tame__gate(SYS_gettid, 0, 0, 0, 0, 0, 0), holder;

	for (;;) {
		holder = 0;
		if (__atomic_compare_exchange_n(&lock, &holder, tid, 0,
		    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
		if (holder == tid)
			return -1;
		if (tame__gate(SYS_tgkill, pid, holder, 0, 0, 0, 0) ==
		    -ESRCH && __atomic_compare_exchange_n(&lock, &holder, tid,
		    0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
		tame__gate(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
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
	int i, n, shift;
	const char *prefix = rq->pledged ? "pledge:0x" : "tame:0x";

	n = (int)strlen(prefix);
	memcpy(buf, prefix, (size_t)n);
	for (shift = 60; shift > 0 && ((v >> shift) & 0xf) == 0; shift -= 4)
		;
	for (i = shift; i >= 0; i -= 4)
		buf[n++] = hex[(v >> i) & 0xf];
	tame__gate(SYS_write, -1, (long)buf, n, 0, 0, 0);
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
	return tame__gate(SYS_unshare, CLONE_THREAD, 0, 0, 0, 0, 0) == 0;
}

/*
 * The flags and state this process's filters really stand for.  The
 * handler turns message checks on by stacking a filter and noting its
 * pid (a vfork child shares this memory, and must not speak for its
 * parent); to this process NOUNIX is gone from then on.
 */
static tame_atoms
current_held(void)
{
	tame_atoms held = tame__state.held;

	if ((held & TAME__NOUNIX) && tame__state.unix_on_pid ==
	    (int)tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0))
		held &= ~TAME__NOUNIX;
	return held;
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
	if (tame__nounix_considered(want) && single &&
	    !tame__holds_unix_socket())
		want |= TAME__NOUNIX;
	return want;
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
 * Narrow to rq->want, for tame() or pledge(): both hold one state, so
 * either may narrow what the other left.
 */
static int
narrow_locked(const struct tame_request *rq)
{
	struct tame_target next = { 0 }, prev = { 0 };
	struct sigaction old_sigsys;
	sigset_t sigsys;
	int ruleset = -1, domain_only = 0, r, saved;
	int nonzero = (rq->want & ~TAME__ALWAYS) != 0;
	int whole = rq->exec_changed && (rq->want & TAME__EXEC);
	tame_atoms want = rq->want;
	tame_atoms held = current_held();

	if (want & ~held) {
		errno = EPERM;		/* only reductions */
		return -1;
	}
	/*
	 * A narrowing without pledge's unveil locks unveil (pledge(2)),
	 * before the filter: "" would leave no call the lock makes.
	 */
	if (!(want & TAME__UNVEIL) && tame__unveil_lock() == -1)
		return -1;
	if (tame__state.tamed && want == (held & ~TAME__STATE) &&
	    !rq->exec_changed) {
		audit_marker(rq);	/* nothing narrows: nothing new */
		tame__state.pledged = rq->pledged;
		return 0;
	}
	if (!tame__state.tamed)
		tame__state.permissive = permissive_requested();
	if (tame__state.permissive) {
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
	tame__warm(want);
	want = with_state(want, held);
	next.held = want;
	next.landlock_ok = 1;
	if (exec_target(&next, rq) == -1)
		return -1;
	want = next.held;		/* with EXECSET where it is held */
	/* an older filter without PROC was made here too: no fork since */
	next.pid = prev.pid = (int)tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0);
	tame__own_ids(&own_ids);
	next.ids = prev.ids = &own_ids;
	if (next.images != NULL) {
		/*
		 * pledge's exec: a Landlock layer would bind the images it
		 * execs too, which execpromises judge alone (NULL: not at
		 * all).  Paths are the handler's, as without Landlock.
		 */
		next.landlock_ok = 0;
	} else if (tame__landlock_needed(want) &&
	    !tame__landlock_is_current(want)) {
		/*
		 * A layer binds only this thread and its later threads.
		 * Asked here, after tame__warm() ran the name services,
		 * not taken from the probe before it.
		 */
		if (single_threaded() &&
		    tame__landlock_prepare(want, &ruleset) == -1)
			return -1;
		next.landlock_ok = ruleset != -1;
	} else if (!tame__state.tamed && nonzero && single_threaded() &&
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
	prev.images = NULL;
	/* new execpromises: a whole filter, stacked on the older ones */
	if (tame_compile_fast(&next, tame__state.tamed && !whole ? &prev :
	    NULL, tame__gate_ip(), &prog) == -1)
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
		else
			tame__warn_blocked_sigsys();
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
	/* Landlock first: of the two it is the one that can still fail. */
	if (ruleset != -1) {
		r = tame__landlock_enforce(ruleset);	/* closes it */
		ruleset = -1;
		if (r == -1 && !domain_only) {
			if (errno != E2BIG)
				goto restore;
			/*
			 * The kernel's 16 layers are used up, by others:
			 * the filter refuses what a layer would confine.
			 */
			next.landlock_ok = tame__state.tamed &&
			    tame__state.landlock_ok != 0 ? 2 : 0;
			if (!tame__state.tamed)
				tame__paths_resolve(want);
			if (tame_compile_fast(&next, tame__state.tamed &&
			    !whole ? &prev : NULL, tame__gate_ip(),
			    &prog) == -1)
				goto restore;
		}
	}
	audit_marker(rq);
	if (install() == -1)
		goto restore;
	tame__state.held = want;
	tame__state.pledged = rq->pledged;
	tame__state.exec_null = rq->exec_null;
	tame__state.exec_held = rq->exec_held;
	tame__state.landlock_ok = next.landlock_ok;
	tame__state.tamed = 1;
	return 0;
restore:
	if (!tame__state.tamed) {
		saved = errno;
		sigaction(SIGSYS, &old_sigsys, NULL);
		errno = saved;
	}
fail:
	if (ruleset != -1) {
		saved = errno;
		tame__gate(SYS_close, ruleset, 0, 0, 0, 0, 0);
		errno = saved;
	}
	/* nothing went in: a later pledge() reads the mappings anew */
	if (!tame__state.tamed)
		images_taken = 0;
	return -1;
}

/*
 * The process is about to hold an AF_UNIX socket (called from the SIGSYS
 * handler, before it makes the trapped socket or socketpair): stack the
 * delta that traps the message calls, unless this process's filters
 * check them already.  Returns 0, or -errno.
 */
int
tame__unix_checks_on(void)
{
	struct tame_target next = { 0 }, prev = { 0 };
	tame_atoms held;
	int r = 0;

	if ((current_held() & TAME__NOUNIX) == 0)
		return 0;
	if (state_lock() == -1)
		return -EDEADLK;	/* a trap inside this thread's tame() */
	held = current_held();
	if (held & TAME__NOUNIX) {
		prev.held = held;
		prev.landlock_ok = tame__state.landlock_ok;
		next.held = held & ~TAME__NOUNIX;
		next.landlock_ok = prev.landlock_ok;
		next.pid = prev.pid = (int)tame__gate(SYS_getpid, 0, 0, 0, 0,
		    0, 0);
		tame__own_ids(&own_ids);
		next.ids = prev.ids = &own_ids;
		next.images = held & TAME__EXEC ? &tame__images : NULL;
		next.exec_null = tame__state.exec_null;
		next.exec_held = tame__state.exec_held;
		prev.images = NULL;
		if (tame_compile_fast(&next, &prev, tame__gate_ip(), &prog) ==
		    -1 ||
		    install() == -1)
			r = -errno;
		else
			tame__state.unix_on_pid = (int)tame__gate(SYS_getpid,
			    0, 0, 0, 0, 0, 0);
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

	for (i = 0; i < tame_nflagnames; i++) {
		f = tame_flagnames[i].flag;
		if ((f & (f - 1)) == 0 && (held & tame_flagnames[i].atoms) ==
		    tame_flagnames[i].atoms)
			flags |= f;
	}
	return flags;
}
