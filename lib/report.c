/*
 * report.c: the SIGSYS handler.  It does two jobs.
 *
 * Emulation: a few calls are trapped because the filter cannot see enough
 * to decide (fstat's empty path, the target of a signal).  The handler
 * decides, makes the call through the gate and returns its result.
 *
 * Violation: it writes one line to stderr naming the program, the pid,
 * the call and the flags that would have allowed it, then repeats the
 * call.  SIGSYS is blocked inside its own handler, so the kernel resets
 * it to the default action and the whole process dies of SIGSYS (with a
 * core where the limits allow).
 *
 * Everything here is async-signal-safe: raw system calls, the table
 * matcher, and string building into a stack buffer.
 */
#include <sys/syscall.h>
#include <sys/types.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "gate.h"
#include "policy.h"
#include "tame_int.h"

struct line {
	char	buf[512];
	size_t	len;
};

static void
put(struct line *l, const char *s)
{
	while (*s != '\0' && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = *s++;
}

static void
put_num(struct line *l, long n)
{
	char tmp[24];
	int i = 0;

	if (n < 0) {
		put(l, "-");
		n = -n;
	}
	do {
		tmp[i++] = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	while (i > 0 && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = tmp[--i];
}

/* "rpath+wpath" for the flags in set, in man page order. */
static void
put_flags(struct line *l, int set)
{
	const char *sep = "";
	int i;

	for (i = 0; i < tame_nflagnames; i++) {
		if ((tame_flagnames[i].flag & set) == 0 ||
		    tame_flagnames[i].flag == TAME_STDIO)
			continue;
		put(l, sep);
		put(l, tame_flagnames[i].name);
		sep = "+";
	}
}

/*
 * A soft denial counts: with its flag the call fails gently and the
 * program goes on (ls -l lives with getpw, which answers nscd's probe).
 */
int
tame__missing(int held, int nr, const uint64_t args[6], int *alts, int max)
{
	const struct tame_rule *r;
	int i, j, n = 0, need, bit;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr != nr || r->action == TA_DENY ||
		    !tame_rule_args_match(r, args, 0, 1))
			continue;
		if (r->any & (TAME__BASE | TAME__ALWAYS))
			continue;	/* held already, or tame(0) */
		need = r->all & ~held;
		/* one alternative per flag of any that is missing */
		for (bit = 1; bit <= TAME_PROC; bit <<= 1) {
			int alt;

			if ((r->any & bit) == 0)
				continue;
			alt = need | ((held & r->any) ? 0 : bit);
			if (alt == 0)
				continue;
			for (j = 0; j < n && alts[j] != alt; j++)
				;
			if (j == n && n < max)
				alts[n++] = alt;
		}
	}
	return n;
}

static void
report(int nr, const uint64_t args[6])
{
	struct line l = { .len = 0 };
	const char *name = tame_syscall_name(nr);
	int alts[8], i, n;

	n = tame__missing(tame__state.held, nr, args, alts, 8);
	put(&l, tame__state.progname);
	put(&l, "[");
	put_num(&l, (long)tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0));
	put(&l, "]: tame: ");
	put(&l, name != NULL ? name : "syscall");
	put(&l, " (");
	put_num(&l, nr);
	put(&l, ") ");
	if (n == 0)
		put(&l, "is not allowed after tame()");
	else
		put(&l, "needs ");
	for (i = 0; i < n; i++) {
		if (i > 0)
			put(&l, " or ");
		put_flags(&l, alts[i]);
	}
	put(&l, "\n");
	tame__gate(SYS_write, 2, (long)l.buf, (long)l.len, 0, 0, 0);
}

/*
 * Copy the program's path into buf, so that another thread cannot change
 * it between the check and the call.  Returns 0, or -1 if it is longer
 * than the buffer.
 */
static int
copy_path(char *buf, size_t len, const char *path)
{
	size_t n;

	for (n = 0; n < len; n++)
		if ((buf[n] = path[n]) == '\0')
			return 0;
	return -1;
}

/*
 * Is path one of the files the Landlock layer grants under held?  Only
 * absolute paths in canonical form count (no "//", "/./", "/../"), so a
 * name cannot walk out of a granted directory.
 */
static int
path_granted(int held, const char *path)
{
	const char *p, *lp;
	size_t n;
	int i;

	if (path[0] != '/')
		return 0;
	for (p = path; *p != '\0'; p++)
		if (p[0] == '/' && (p[1] == '/' || (p[1] == '.' &&
		    (p[2] == '/' || p[2] == '\0' || (p[2] == '.' &&
		    (p[3] == '/' || p[3] == '\0'))))))
			return 0;
	for (i = 0; i < tame_nlpaths; i++) {
		if ((held & tame_lpaths[i].flag) == 0)
			continue;
		lp = tame_lpaths[i].path;
		for (n = 0; lp[n] != '\0' && lp[n] == path[n]; n++)
			;
		if (lp[n] == '\0' && (path[n] == '\0' || path[n] == '/'))
			return 1;
	}
	return 0;
}

/*
 * Do a trapped call if the handler can prove it harmless; return 0 and
 * the result in *ret, or -1 when the table's later rows must decide.
 */
static int
emulate(int held, int nr, const uint64_t a[6], long *ret)
{
	const char *path;
	char buf[PATH_MAX];
	long pid;

	switch (nr) {
	case SYS_newfstatat:
		path = (const char *)(uintptr_t)a[1];
		if ((a[3] & AT_EMPTY_PATH) && (path == NULL || path[0] == '\0')) {
			/* fstat(fd) in glibc's spelling: no lookup at all */
			if ((held & TAME_RW) == 0)
				return -1;
			*ret = tame__gate(SYS_fstat, a[0], a[2], 0, 0, 0, 0);
			return 0;
		}
		if ((a[3] & ~AT_SYMLINK_NOFOLLOW) != 0 || path == NULL ||
		    copy_path(buf, sizeof(buf), path) == -1 ||
		    !path_granted(held, buf))
			return -1;
		*ret = tame__gate(SYS_newfstatat, AT_FDCWD, (long)buf, a[2],
		    a[3], 0, 0);
		return 0;
	}
	/* the rest are signals: only to this process */
	pid = tame__gate(SYS_getpid, 0, 0, 0, 0, 0, 0);
	switch (nr) {
	case SYS_kill:
		if ((pid_t)a[0] != pid)
			return -1;
		*ret = tame__gate(SYS_kill, pid, a[1], 0, 0, 0, 0);
		return 0;
	case SYS_tgkill:
		if ((pid_t)a[0] != pid)
			return -1;
		*ret = tame__gate(SYS_tgkill, pid, a[1], a[2], 0, 0, 0);
		return 0;
	case SYS_tkill:
		/* only threads of this process: tgkill says ESRCH otherwise */
		*ret = tame__gate(SYS_tgkill, pid, a[0], a[1], 0, 0, 0);
		return 0;
	}
	return -1;
}

/*
 * When the handler will not do a trapped call, the rows after the trap
 * decide, as if it were not there: a soft denial returns its errno.
 * Returns the errno, or 0 for a violation.
 */
static int
after_trap(int held, int nr, const uint64_t a[6])
{
	int row = tame_policy_match_except(held, nr, a, 0, 1, TA_EMULATE);

	if (row < 0 || tame_rules[row].action != TA_ERRNO)
		return 0;
	return tame_rules[row].errnum;
}

static void
on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint64_t a[6];
	long ret;
	int nr = si->si_syscall, held = tame__state.held;

	(void)sig;
#if defined(__x86_64__)
	a[0] = uc->uc_mcontext.gregs[REG_RDI];
	a[1] = uc->uc_mcontext.gregs[REG_RSI];
	a[2] = uc->uc_mcontext.gregs[REG_RDX];
	a[3] = uc->uc_mcontext.gregs[REG_R10];
	a[4] = uc->uc_mcontext.gregs[REG_R8];
	a[5] = uc->uc_mcontext.gregs[REG_R9];
#elif defined(__aarch64__)
	for (int i = 0; i < 6; i++)
		a[i] = uc->uc_mcontext.regs[i];
#endif
	if (si->si_errno == TAME_TRAP_EMULATE) {
		if (emulate(held, nr, a, &ret) == -1 &&
		    (ret = -after_trap(held, nr, a)) == 0)
			goto violation;
#if defined(__x86_64__)
		uc->uc_mcontext.gregs[REG_RAX] = ret;
#elif defined(__aarch64__)
		uc->uc_mcontext.regs[0] = ret;
#endif
		return;
	}
violation:
	report(nr, a);
	/* The same call traps again with SIGSYS blocked: death by SIGSYS. */
	syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	tame__gate(SYS_exit_group, 128 + SIGSYS, 0, 0, 0, 0, 0);
}

/*
 * Make on_sigsys the SIGSYS handler; the previous action goes to old, so
 * that a tame() that fails later can put it back.
 */
int
tame__install_handler(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGSYS, &sa, old);
}
