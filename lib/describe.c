/* SPDX-License-Identifier: ISC */
/*
 * describe.c: a system call in words, for the violation report.
 *
 * "openat "/etc/hostname" O_RDONLY", "fcntl F_SETLK", "ioctl TIOCSTI",
 * "socket AF_NETLINK SOCK_RAW 0": the call's name, its paths and strings,
 * and the arguments the policy table decides it by, each masked as the
 * table masks it and named where the name is known.  Which arguments are
 * paths, and how to name a value, is the kernel's ABI and lives here;
 * which arguments decide is the table's, and is read from it.
 *
 * Async-signal-safe: no allocation, no stdio, every string built into
 * the caller's line.  The name tables hold no pointers (see policy.h).
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/fs.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>

#include "policy.h"
#include "tame_int.h"

void
tame__put(struct tame_line *l, const char *s)
{
	while (*s != '\0' && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = *s++;
}

static void
putc_(struct tame_line *l, char c)
{
	if (l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = c;
}

const char *
tame__self_fd(struct tame_line *l, long fd)
{
	l->len = 0;
	tame__put(l, "/proc/self/fd/");
	tame__put_num(l, fd);
	l->buf[l->len] = '\0';
	return l->buf;
}

void
tame__put_num(struct tame_line *l, long n)
{
	unsigned long u = n < 0 ? -(unsigned long)n : (unsigned long)n;
	char tmp[24];
	int i = 0;

	if (n < 0)
		putc_(l, '-');
	do {
		tmp[i++] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	while (i > 0)
		putc_(l, tmp[--i]);
}

void
tame__put_hex(struct tame_line *l, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	int shift;

	tame__put(l, "0x");
	for (shift = 60; shift > 0 && (v >> shift) == 0; shift -= 4)
		;
	for (; shift >= 0; shift -= 4)
		putc_(l, hex[(v >> shift) & 0xf]);
}

/* A string as C would spell it, cut at max bytes with "...". */
void
tame__put_quoted(struct tame_line *l, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c;
	size_t n;

	putc_(l, '"');
	for (n = 0; s[n] != '\0' && n < max; n++) {
		c = (unsigned char)s[n];
		if (c == '"' || c == '\\') {
			putc_(l, '\\');
			putc_(l, (char)c);
		} else if (c == '\n') {
			tame__put(l, "\\n");
		} else if (c < 0x20 || c >= 0x7f) {
			tame__put(l, "\\x");
			putc_(l, hex[c >> 4]);
			putc_(l, hex[c & 0xf]);
		} else
			putc_(l, (char)c);
	}
	putc_(l, '"');
	if (s[n] != '\0')
		tame__put(l, "...");
}

/* How to show one argument. */
enum kind {
	K_INT,			/* a number */
	K_PATH,			/* a path: quoted */
	K_STR,			/* another string (an xattr name): quoted */
	K_OPEN,			/* open flags */
	K_FCNTL,		/* fcntl command */
	K_IOCTL,		/* ioctl request */
	K_AF,			/* address family */
	K_SOCKTYPE,		/* socket type */
	K_PROTO,		/* IP protocol */
	K_LEVEL,		/* socket option level */
	K_SIG,			/* signal number */
	K_PROT,			/* mmap protection */
	K_MAP,			/* mmap flags */
	K_MODE,			/* file type bits of a mode */
	K_PRCTL,		/* prctl option */
	K_AT,			/* AT_* flags of the *at calls */
	K_HEX,			/* flag words shown in hex */
	K_CLONE,		/* clone flags and exit signal, all of them:
				   the table's mask would hide what kind
				   of clone it was (a fork shows 0) */
};

struct abi {
	int		 nr;
	uint8_t		 kind[6];
};

/* The arguments worth naming, by call; K_INT where not listed. */
static const struct abi abi[] = {
	{ __NR_openat, { [1] = K_PATH, [2] = K_OPEN } },
	{ __NR_newfstatat, { [1] = K_PATH, [3] = K_AT } },
	{ __NR_statx, { [1] = K_PATH, [2] = K_AT } },
	{ __NR_faccessat, { [1] = K_PATH } },
	{ __NR_faccessat2, { [1] = K_PATH } },
	{ __NR_readlinkat, { [1] = K_PATH } },
	{ __NR_chdir, { [0] = K_PATH } },
	{ __NR_chroot, { [0] = K_PATH } },
	{ __NR_statfs, { [0] = K_PATH } },
	{ __NR_truncate, { [0] = K_PATH } },
	{ __NR_getxattr, { [0] = K_PATH, [1] = K_STR } },
	{ __NR_lgetxattr, { [0] = K_PATH, [1] = K_STR } },
	{ __NR_fgetxattr, { [1] = K_STR } },
	{ __NR_listxattr, { [0] = K_PATH } },
	{ __NR_llistxattr, { [0] = K_PATH } },
	{ __NR_setxattr, { [0] = K_PATH, [1] = K_STR } },
	{ __NR_lsetxattr, { [0] = K_PATH, [1] = K_STR } },
	{ __NR_fsetxattr, { [1] = K_STR } },
	{ __NR_removexattr, { [0] = K_PATH, [1] = K_STR } },
	{ __NR_lremovexattr, { [0] = K_PATH, [1] = K_STR } },
	{ __NR_fremovexattr, { [1] = K_STR } },
	{ __NR_fchmodat, { [1] = K_PATH } },
	{ __NR_fchownat, { [1] = K_PATH } },
	{ __NR_utimensat, { [1] = K_PATH } },
	{ __NR_mkdirat, { [1] = K_PATH } },
	{ __NR_unlinkat, { [1] = K_PATH } },
	{ __NR_renameat, { [1] = K_PATH, [3] = K_PATH } },
	{ __NR_renameat2, { [1] = K_PATH, [3] = K_PATH } },
	{ __NR_linkat, { [1] = K_PATH, [3] = K_PATH } },
	{ __NR_symlinkat, { [0] = K_PATH, [2] = K_PATH } },
	{ __NR_mknodat, { [1] = K_PATH, [2] = K_MODE } },
	{ __NR_execve, { [0] = K_PATH } },
	{ __NR_execveat, { [1] = K_PATH } },
	{ __NR_mount, { [0] = K_PATH, [1] = K_PATH } },
	{ __NR_umount2, { [0] = K_PATH } },
	{ __NR_pivot_root, { [0] = K_PATH, [1] = K_PATH } },
	{ __NR_swapon, { [0] = K_PATH } },
	{ __NR_swapoff, { [0] = K_PATH } },
	{ __NR_acct, { [0] = K_PATH } },
	{ __NR_inotify_add_watch, { [1] = K_PATH } },
	{ __NR_name_to_handle_at, { [1] = K_PATH } },
	{ __NR_openat2, { [1] = K_PATH } },
	{ __NR_open_tree, { [1] = K_PATH } },
	{ __NR_fcntl, { [1] = K_FCNTL } },
	{ __NR_ioctl, { [1] = K_IOCTL } },
	{ __NR_socket, { [0] = K_AF, [1] = K_SOCKTYPE, [2] = K_PROTO } },
	{ __NR_socketpair, { [0] = K_AF, [1] = K_SOCKTYPE } },
	{ __NR_setsockopt, { [1] = K_LEVEL } },
	{ __NR_getsockopt, { [1] = K_LEVEL } },
	{ __NR_prctl, { [0] = K_PRCTL } },
	{ __NR_mmap, { [2] = K_PROT, [3] = K_MAP } },
	{ __NR_mprotect, { [2] = K_PROT } },
	{ __NR_pkey_mprotect, { [2] = K_PROT } },
	{ __NR_clone, { [0] = K_CLONE } },
	{ __NR_unshare, { [0] = K_CLONE } },
	{ __NR_rt_sigaction, { [0] = K_SIG } },
	{ __NR_kill, { [1] = K_SIG } },
	{ __NR_tkill, { [1] = K_SIG } },
	{ __NR_tgkill, { [2] = K_SIG } },
#ifdef __NR_open
	{ __NR_open, { [0] = K_PATH, [1] = K_OPEN } },
	{ __NR_creat, { [0] = K_PATH } },
	{ __NR_stat, { [0] = K_PATH } },
	{ __NR_lstat, { [0] = K_PATH } },
	{ __NR_access, { [0] = K_PATH } },
	{ __NR_readlink, { [0] = K_PATH } },
	{ __NR_chmod, { [0] = K_PATH } },
	{ __NR_chown, { [0] = K_PATH } },
	{ __NR_lchown, { [0] = K_PATH } },
	{ __NR_utime, { [0] = K_PATH } },
	{ __NR_utimes, { [0] = K_PATH } },
	{ __NR_futimesat, { [1] = K_PATH } },
	{ __NR_mkdir, { [0] = K_PATH } },
	{ __NR_rmdir, { [0] = K_PATH } },
	{ __NR_unlink, { [0] = K_PATH } },
	{ __NR_rename, { [0] = K_PATH, [1] = K_PATH } },
	{ __NR_link, { [0] = K_PATH, [1] = K_PATH } },
	{ __NR_symlink, { [0] = K_PATH, [1] = K_PATH } },
	{ __NR_mknod, { [0] = K_PATH, [1] = K_MODE } },
	{ __NR_uselib, { [0] = K_PATH } },
#endif
};

struct sym {
	uint32_t	 v;
	char		 name[24];
};

#define S(x)	{ (uint32_t)(x), #x }

static const struct sym fcntl_syms[] = {
	S(F_DUPFD), S(F_GETFD), S(F_SETFD), S(F_GETFL), S(F_SETFL),
	S(F_GETLK), S(F_SETLK), S(F_SETLKW), S(F_SETOWN), S(F_GETOWN),
	S(F_SETSIG), S(F_GETSIG), S(F_SETOWN_EX), S(F_GETOWN_EX),
	S(F_OFD_GETLK), S(F_OFD_SETLK), S(F_OFD_SETLKW), S(F_SETLEASE),
	S(F_GETLEASE), S(F_NOTIFY), S(F_DUPFD_CLOEXEC), S(F_SETPIPE_SZ),
	S(F_GETPIPE_SZ), S(F_ADD_SEALS), S(F_GET_SEALS),
};

static const struct sym ioctl_syms[] = {
	S(TCGETS), S(TCSETS), S(TCSETSW), S(TCSETSF), S(TCSBRK), S(TCXONC),
	S(TCFLSH), S(TIOCEXCL), S(TIOCNXCL), S(TIOCSCTTY), S(TIOCGPGRP),
	S(TIOCSPGRP), S(TIOCOUTQ), S(TIOCSTI), S(TIOCGWINSZ), S(TIOCSWINSZ),
	S(TIOCMGET), S(TIOCMSET), S(FIONREAD), S(TIOCLINUX), S(TIOCCONS),
	S(FIONBIO), S(TIOCNOTTY), S(TIOCSETD), S(TIOCGETD), S(TIOCSBRK),
	S(TIOCCBRK), S(TIOCGSID), S(FIONCLEX), S(FIOCLEX), S(FIOASYNC),
	S(FIOGETOWN), S(SIOCATMARK), S(FICLONE), S(FICLONERANGE),
	S(FIDEDUPERANGE), S(FS_IOC_GETFLAGS), S(FS_IOC_SETFLAGS),
	S(TIOCGPTN), S(TIOCSPTLCK), S(TIOCGPTPEER),

};

static const struct sym af_syms[] = {
	S(AF_UNSPEC), S(AF_UNIX), S(AF_INET), S(AF_INET6), S(AF_NETLINK),
	S(AF_PACKET), S(AF_KEY), S(AF_BLUETOOTH), S(AF_VSOCK), S(AF_ALG),
	S(AF_CAN), S(AF_XDP), S(AF_APPLETALK), S(AF_X25), S(AF_TIPC),
};

static const struct sym socktype_syms[] = {
	S(SOCK_STREAM), S(SOCK_DGRAM), S(SOCK_RAW), S(SOCK_RDM),
	S(SOCK_SEQPACKET), S(SOCK_PACKET),
};

static const struct sym proto_syms[] = {
	S(IPPROTO_TCP), S(IPPROTO_UDP), S(IPPROTO_ICMP), S(IPPROTO_ICMPV6),
	S(IPPROTO_RAW), S(IPPROTO_SCTP), S(IPPROTO_UDPLITE),
};

static const struct sym level_syms[] = {
	S(SOL_SOCKET), S(IPPROTO_IP), S(IPPROTO_IPV6), S(IPPROTO_TCP),
	S(IPPROTO_UDP), S(IPPROTO_ICMPV6), S(IPPROTO_RAW), S(SOL_PACKET),
	S(SOL_NETLINK),
};

static const struct sym sig_syms[] = {
	S(SIGHUP), S(SIGINT), S(SIGQUIT), S(SIGILL), S(SIGTRAP), S(SIGABRT),
	S(SIGBUS), S(SIGFPE), S(SIGKILL), S(SIGUSR1), S(SIGSEGV), S(SIGUSR2),
	S(SIGPIPE), S(SIGALRM), S(SIGTERM), S(SIGSTKFLT), S(SIGCHLD),
	S(SIGCONT), S(SIGSTOP), S(SIGTSTP), S(SIGTTIN), S(SIGTTOU), S(SIGURG),
	S(SIGXCPU), S(SIGXFSZ), S(SIGVTALRM), S(SIGPROF), S(SIGWINCH),
	S(SIGIO), S(SIGPWR), S(SIGSYS),
};

static const struct sym prctl_syms[] = {
	S(PR_SET_PDEATHSIG), S(PR_GET_DUMPABLE), S(PR_SET_DUMPABLE),
	S(PR_SET_KEEPCAPS), S(PR_SET_NAME), S(PR_GET_NAME), S(PR_GET_SECCOMP),
	S(PR_SET_SECCOMP), S(PR_CAPBSET_READ), S(PR_CAPBSET_DROP),
	S(PR_SET_SECUREBITS), S(PR_SET_PTRACER), S(PR_SET_NO_NEW_PRIVS),
	S(PR_GET_NO_NEW_PRIVS), S(PR_SET_MM), S(PR_SET_CHILD_SUBREAPER),
	S(PR_CAP_AMBIENT), S(PR_SET_VMA),
};

/* Flag words: each bit named where it can be. */
static const struct sym open_bits[] = {
	S(O_WRONLY), S(O_RDWR), S(O_CREAT), S(O_EXCL), S(O_NOCTTY),
	S(O_TRUNC), S(O_APPEND), S(O_NONBLOCK), S(O_DSYNC), S(O_DIRECT),
	S(O_LARGEFILE), S(O_DIRECTORY), S(O_NOFOLLOW), S(O_NOATIME),
	S(O_CLOEXEC), { 020000000, "O_TMPFILE" }, S(O_PATH),
};

static const struct sym prot_bits[] = {
	S(PROT_READ), S(PROT_WRITE), S(PROT_EXEC),
};

static const struct sym map_bits[] = {
	S(MAP_SHARED), S(MAP_PRIVATE), S(MAP_FIXED), S(MAP_ANONYMOUS),
	S(MAP_GROWSDOWN), S(MAP_DENYWRITE), S(MAP_NORESERVE),
	S(MAP_POPULATE), S(MAP_STACK), S(MAP_FIXED_NOREPLACE),
};

static const struct sym at_bits[] = {
	S(AT_SYMLINK_NOFOLLOW), S(AT_REMOVEDIR), S(AT_SYMLINK_FOLLOW),
	S(AT_NO_AUTOMOUNT), S(AT_EMPTY_PATH),
};

static const struct sym clone_bits[] = {
	S(CLONE_VM), S(CLONE_FS), S(CLONE_FILES), S(CLONE_SIGHAND),
	S(CLONE_PIDFD), S(CLONE_PTRACE), S(CLONE_VFORK), S(CLONE_PARENT),
	S(CLONE_THREAD), S(CLONE_NEWNS), S(CLONE_SYSVSEM), S(CLONE_SETTLS),
	S(CLONE_PARENT_SETTID), S(CLONE_CHILD_CLEARTID), S(CLONE_UNTRACED),
	S(CLONE_CHILD_SETTID), S(CLONE_NEWCGROUP), S(CLONE_NEWUTS),
	S(CLONE_NEWIPC), S(CLONE_NEWUSER), S(CLONE_NEWPID), S(CLONE_NEWNET),
	S(CLONE_IO),
};

static const struct sym mode_syms[] = {
	S(S_IFIFO), S(S_IFCHR), S(S_IFDIR), S(S_IFBLK), S(S_IFREG),
	S(S_IFLNK), S(S_IFSOCK),
};

#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))

/* One value of an enumeration, or the number. */
static void
put_sym(struct tame_line *l, const struct sym *s, int n, uint32_t v)
{
	int i;

	for (i = 0; i < n; i++) {
		if (s[i].v == v) {
			tame__put(l, s[i].name);
			return;
		}
	}
	if (v < 4096)
		tame__put_num(l, (long)v);
	else
		tame__put_hex(l, v);
}

/* Bits by name, "|" between, the rest in hex; zero is zero_name. */
static void
put_bits(struct tame_line *l, const struct sym *s, int n, uint32_t v,
    const char *zero_name)
{
	const char *sep = "";
	int i;

	if (v == 0) {
		tame__put(l, zero_name);
		return;
	}
	for (i = 0; i < n; i++) {
		if ((v & s[i].v) == s[i].v && s[i].v != 0) {
			tame__put(l, sep);
			tame__put(l, s[i].name);
			v &= ~s[i].v;
			sep = "|";
		}
	}
	if (v != 0) {
		tame__put(l, sep);
		tame__put_hex(l, v);
	}
}

static void
put_value(struct tame_line *l, int kind, uint32_t v)
{
	switch (kind) {
	case K_OPEN:
		/* the access mode is a number, not a bit */
		put_bits(l, open_bits, N(open_bits), v, "O_RDONLY");
		return;
	case K_FCNTL:
		put_sym(l, fcntl_syms, N(fcntl_syms), v);
		return;
	case K_IOCTL:
		put_sym(l, ioctl_syms, N(ioctl_syms), v);
		return;
	case K_AF:
		put_sym(l, af_syms, N(af_syms), v);
		return;
	case K_SOCKTYPE:
		put_sym(l, socktype_syms, N(socktype_syms),
		    v & ~(uint32_t)(SOCK_NONBLOCK | SOCK_CLOEXEC));
		if (v & SOCK_NONBLOCK)
			tame__put(l, "|SOCK_NONBLOCK");
		if (v & SOCK_CLOEXEC)
			tame__put(l, "|SOCK_CLOEXEC");
		return;
	case K_PROTO:
		put_sym(l, proto_syms, N(proto_syms), v);
		return;
	case K_LEVEL:
		put_sym(l, level_syms, N(level_syms), v);
		return;
	case K_SIG:
		put_sym(l, sig_syms, N(sig_syms), v);
		return;
	case K_PROT:
		put_bits(l, prot_bits, N(prot_bits), v, "PROT_NONE");
		return;
	case K_MAP:
		put_bits(l, map_bits, N(map_bits), v, "0");
		return;
	case K_MODE:
		put_sym(l, mode_syms, N(mode_syms), v & S_IFMT);
		return;
	case K_PRCTL:
		put_sym(l, prctl_syms, N(prctl_syms), v);
		return;
	case K_AT:
		put_bits(l, at_bits, N(at_bits), v, "0");
		return;
	case K_HEX:
		tame__put_hex(l, v);
		return;
	case K_CLONE:		/* the low byte: the signal at the end */
		if ((v & ~CSIGNAL) != 0 || (v & CSIGNAL) == 0)
			put_bits(l, clone_bits, N(clone_bits), v & ~CSIGNAL,
			    "0");
		if ((v & CSIGNAL) != 0) {
			if ((v & ~CSIGNAL) != 0)
				tame__put(l, "|");
			put_sym(l, sig_syms, N(sig_syms), v & CSIGNAL);
		}
		return;
	}
	if ((int32_t)v > -4096 && (int32_t)v < 4096)
		tame__put_num(l, (int32_t)v);
	else
		tame__put_hex(l, v);
}

static const struct abi *
abi_of(int nr)
{
	int i;

	for (i = 0; i < N(abi); i++)
		if (abi[i].nr == nr)
			return &abi[i];
	return NULL;
}

int
tame__path_arg(int nr)
{
	const struct abi *a = abi_of(nr);
	int i;

	for (i = 0; a != NULL && i < 6; i++)
		if (a->kind[i] == K_PATH)
			return i;
	return -1;
}

int
tame__string_args(int nr)
{
	const struct abi *a = abi_of(nr);
	int i, bits = 0;

	for (i = 0; a != NULL && i < 6; i++)
		if (a->kind[i] == K_PATH || a->kind[i] == K_STR)
			bits |= 1 << i;
	return bits;
}

/*
 * A row for libtame's own calls decides nothing a program does, nor
 * does one that clears a mode's set-ID bits.
 */
static int
from_libtame_only(const struct tame_rule *r)
{
	return tame_rule_marked(r) || tame_rule_setid(r);
}

/*
 * The arguments the table decides this call by, and the union of the
 * masks it applies to each: the violation line shows only those bits,
 * and tame-audit keys its cache by them.
 */
int
tame__decided(int nr, uint32_t mask[6])
{
	const struct tame_rule *r;
	int i, k, nul = 0;

	for (i = 0; i < 6; i++)
		mask[i] = 0;
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr != nr || from_libtame_only(r))
			continue;
		for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++)
			if (r->cond[k].op == TC_IN)
				mask[r->cond[k].arg] |= r->cond[k].mask;
			else if (r->cond[k].op == TC_SELF ||	/* a pid */
			    r->cond[k].op == TC_OWNUID ||	/* an id */
			    r->cond[k].op == TC_OWNGID)
				mask[r->cond[k].arg] = 0xffffffffu;
			else if (r->cond[k].op == TC_NULL ||
			    r->cond[k].op == TC_NOTNULL)
				nul |= 1 << r->cond[k].arg;
	}
	return nul;
}

void
tame__describe(struct tame_line *l, const struct tame_call *c)
{
	const struct abi *a = abi_of(c->nr);
	const char *name = tame_syscall_name(c->nr);
	char str[256];
	uint32_t mask[6];
	long n;
	int i, kind;

	if (name != NULL)
		tame__put(l, name);
	else {
		tame__put(l, "syscall ");
		tame__put_num(l, c->nr);
	}
	(void)tame__decided(c->nr, mask);
	for (i = 0; i < 6; i++) {
		kind = a != NULL ? a->kind[i] : K_INT;
		if (kind == K_PATH || kind == K_STR) {
			tame__put(l, " ");
			if (i == c->path_arg && c->path != NULL) {
				tame__put_quoted(l, c->path, 200);
				continue;
			}
			if (c->a[i] == 0) {
				tame__put(l, "NULL");
				continue;
			}
			n = tame__copy_str(str, sizeof(str), c->a[i]);
			if (n == -ENAMETOOLONG)
				str[sizeof(str) - 1] = '\0';
			if (n >= 0 || n == -ENAMETOOLONG)
				tame__put_quoted(l, str, 200);
			else
				tame__put_hex(l, c->a[i]);
			continue;
		}
		if (mask[i] == 0)
			continue;
		tame__put(l, " ");
		put_value(l, kind, (uint32_t)c->a[i] &
		    (kind == K_CLONE ? ~0u : mask[i]));
	}
	if (c->detail != NULL) {
		tame__put(l, " ");
		tame__put(l, c->detail);
	}
}
