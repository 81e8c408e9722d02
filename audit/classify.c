/* SPDX-License-Identifier: ISC */
/*
 * classify.c: one traced call to a need, by asking libtame.
 *
 * A call's need is the list of smallest flag sets under which tame()
 * lets it through.  Nothing here knows which flag allows what: the
 * arguments strace printed become the registers the filter would see,
 * the strings become the memory the SIGSYS handler would read, and
 * libtame's own decision (tame__verdict: the table's row, then the
 * handler's check) answers for each set of flags.  Only the flags the
 * table names for this system call, or whose paths hold its path, can
 * change the answer, so only their subsets are asked.
 *
 * Two calls a soft denial answers are classified as the call libc makes
 * next: clone3 gets ENOSYS and glibc calls clone with the same flags;
 * openat2 gets ENOSYS and callers fall back to openat.  The trace of an
 * audited run, made without a filter, shows only the first.
 */
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "parse.h"
#include "policy.h"
#include "tame_int.h"

#define NONNULL		0x1000	/* a pointer strace showed as data */

/* What one call looks like to the filter and the handler. */
struct call {
	int		 nr;
	uint64_t	 a[6];
	char		 str[6][PATH_MAX];	/* string arguments, decoded */
	int		 has_str;		/* bit i: str[i] is set */
	int		 truncated;		/* a string was cut: unknown */
	struct tame_seen seen;
	int		 err;			/* the errno it failed with */
	int		 not_dns;		/* an address, not port 53 */
	int		 family;		/* the address's, or -1 */
};

/* The cache: a call's deciding features to its need. */
struct slot {
	char	*key;
	int	 need;
};

struct cache {
	struct slot	*slots;
	size_t		 cap, used;
};

static uint64_t
hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct slot *
lookup(struct cache *c, const char *key)
{
	struct slot *old;
	size_t i, n;

	if (c->used * 2 >= c->cap) {
		old = c->slots;
		n = c->cap;
		c->cap = n == 0 ? 256 : n * 2;
		c->slots = xcalloc(c->cap, sizeof(*c->slots));
		for (i = 0; i < n; i++)
			if (old[i].key != NULL)
				*lookup(c, old[i].key) = old[i];
		free(old);
	}
	for (i = hash(key) & (c->cap - 1); c->slots[i].key != NULL &&
	    strcmp(c->slots[i].key, key) != 0; i = (i + 1) & (c->cap - 1))
		;
	return &c->slots[i];
}

/* errno names as strace prints them, to numbers (0: unknown). */
static int
errno_number(const char *name)
{
	static int last_e;
	static char last[32];
	const char *s;
	int e;

	if (strcmp(name, last) == 0)
		return last_e;		/* failures come in runs (ENOENT) */
	for (e = 1; e < 4096; e++)
		if ((s = strerrorname_np(e)) != NULL && strcmp(s, name) == 0)
			break;
	snprintf(last, sizeof(last), "%s", name);
	return last_e = e < 4096 ? e : 0;
}

/* Does a message's ancillary data (as strace decodes it) pass fds? */
/*
 * The ids a traced chown is compared with (pledge's fattr gives a file
 * to its own user and groups): the auditor's, which the traced program
 * runs with.
 */
static const struct tame_ids *
traced_ids(void)
{
	static struct tame_ids ids;
	static int read;

	if (!read) {
		tame__own_ids(&ids);
		read = 1;
	}
	return &ids;
}

static int
carries_rights(const char *text, size_t len)
{
	const char *p, *end = text + len;
	long long level, type;

	for (p = text; (p = memmem(p, (size_t)(end - p), "cmsg_level=",
	    11)) != NULL; p += 11) {
		if (st_field(p, (size_t)(end - p), "cmsg_level=", &level) == -1)
			level = memcmp(p + 11, "SOL_SOCKET", 10) == 0 ?
			    SOL_SOCKET : 0;
		if (st_field(p, (size_t)(end - p), "cmsg_type=", &type) == -1)
			type = memmem(p, (size_t)(end - p), "SCM_RIGHTS", 10) ?
			    SCM_RIGHTS : 0;
		if (level == SOL_SOCKET && type == SCM_RIGHTS)
			return 1;
	}
	return 0;
}

/*
 * Does the call name an internet address whose port is not 53?  DNSPATH
 * lets the resolver reach its name servers; the filter cannot read the
 * address, so any peer is reachable under it (tame(3), CAVEATS), but a
 * suggestion of dnspath for a program talking to port 8000 would say
 * something false about it.  (A UDP connect the log reader took for the
 * resolver's own, t->udp_probe, names no peer: see log.c.)
 */
static int
names_other_port(const char *text, size_t len)
{
	const char *p, *end = text + len, *field;
	long port;

	/*
	 * "sin_port=htons(53)", or with -X verbose the raw bytes first:
	 * "sin_port=\"\x00\x35\" /\* htons(53) *\/".
	 */
	if ((field = memmem(text, len, "_port=", 6)) == NULL)
		return 0;
	field += 6;
	if ((p = memmem(field, (size_t)(end - field), "htons(", 6)) == NULL ||
	    p - field > 32)
		return 0;
	p += 6;
	for (port = 0; p < end && *p >= '0' && *p <= '9'; p++)
		if (port <= 65535)	/* past it: no port, and no overflow */
			port = port * 10 + (*p - '0');
	return port != 53;
}

/*
 * The family of the address a connect or send names: strace shows
 * "sa_family=AF_INET" (or "0x2 /\* AF_INET *\/" raw).  -1 for none.
 */
static int
address_family(const char *text, size_t len)
{
	const char *f = memmem(text, len, "sa_family=", 10);
	size_t n;

	if (f == NULL)
		return -1;
	n = (size_t)(text + len - f);
	if (n > 48)
		n = 48;
	if (memmem(f, n, "AF_INET6", 8) != NULL)
		return AF_INET6;
	if (memmem(f, n, "AF_INET", 7) != NULL)
		return AF_INET;
	return -1;
}

/* tame_syscall_number(), remembered: a log names few calls, often. */
static int
syscall_number(const char *name)
{
	static struct {
		char	name[32];
		int	nr;
	} seen[256];
	unsigned h = 0;
	const char *p;

	for (p = name; *p != '\0'; p++)
		h = h * 31 + (unsigned char)*p;
	h %= 256;
	if (strcmp(seen[h].name, name) != 0) {
		snprintf(seen[h].name, sizeof(seen[h].name), "%s", name);
		seen[h].nr = tame_syscall_number(name);
	}
	return seen[h].nr;
}

/* What the table's rows for one call compare: bits, and NULL-ness. */
struct decides {
	int		 known;
	int		 nul;		/* bit i: argument i's NULL-ness */
	uint32_t	 mask[6];
	int		 strings;	/* tame__string_args() */
	int		 path_arg;	/* tame__path_arg() */
};

static const struct decides *decided_by(int);

/* Fill c from strace's text; the two fallbacks become their calls. */
static int
decode(struct call *c, const struct call_text *t)
{
	const char *arg;
	size_t n;
	long long x;
	const char *argv[6];
	size_t argl[6];
	long long v;
	int i, strs, trunc, pathbit, nargs;

	memset(c->a, 0, sizeof(c->a));
	c->has_str = c->truncated = 0;
	if ((c->nr = syscall_number(t->name)) < 0)
		return -1;
	strs = decided_by(c->nr)->strings;
	if ((nargs = t->nargs) > 0) {
		memcpy(argv, t->argv, (size_t)nargs * sizeof(*argv));
		memcpy(argl, t->argl, (size_t)nargs * sizeof(*argl));
	} else
		nargs = st_split(t->args, t->len, argv, argl, 6);
	for (i = 0; i < nargs; i++) {
		arg = argv[i];
		n = argl[i];
		if (strs & (1 << i)) {
			if (st_string(arg, n, c->str[i], sizeof(c->str[i]),
			    &trunc) >= 0) {
				c->has_str |= 1 << i;
				c->truncated |= trunc;
				c->a[i] = (uintptr_t)c->str[i];
				continue;
			}
		}
		if (st_number(arg, n, &x) == 0)
			c->a[i] = (uint64_t)x;
		else
			c->a[i] = n == 4 && memcmp(arg, "NULL", 4) == 0 ? 0 :
			    NONNULL;
	}
	if (c->nr == SYS_clone) {
		/* printed by name, not in register order */
		c->a[0] = st_field(t->args, t->len, "flags=", &v) == 0 ?
		    (uint64_t)v : 0;
	} else if (c->nr == SYS_clone3) {
		c->nr = SYS_clone;
		c->a[0] = st_field(t->args, t->len, "flags=", &v) == 0 ?
		    (uint64_t)v : 0;
		if (st_field(t->args, t->len, "exit_signal=", &v) == 0)
			c->a[0] |= (uint64_t)v & 0xff;
	} else if (c->nr == SYS_openat2 && (c->has_str & 2)) {
		c->nr = SYS_openat;
		if (st_arg(t->args, t->len, 2, &arg, &n) == 0) {
			c->a[2] = st_field(arg, n, "flags=", &v) == 0 ?
			    (uint64_t)v : 0;
			c->a[3] = st_field(arg, n, "mode=", &v) == 0 ?
			    (uint64_t)v : 0;
		}
	}
	memset(&c->seen, 0, sizeof(c->seen));
	i = decided_by(c->nr)->path_arg;
	pathbit = i >= 0 ? 1 << i : 0;
	if (c->has_str & pathbit)
		c->seen.path = c->str[i];
	if (strs & ~pathbit & c->has_str)	/* an attribute's name */
		c->seen.name = c->str[ffs(strs & ~pathbit & c->has_str) - 1];
	c->seen.pid = t->tgid;
	c->seen.ids = traced_ids();
	if (c->nr == SYS_sendmsg || c->nr == SYS_sendmmsg ||
	    c->nr == SYS_recvmsg || c->nr == SYS_recvmmsg)
		c->seen.rights = carries_rights(t->args, t->len);
	c->not_dns = (c->nr == SYS_connect || c->nr == SYS_sendto ||
	    c->nr == SYS_sendmsg || c->nr == SYS_sendmmsg) &&
	    !t->udp_probe && names_other_port(t->args, t->len);
	c->family = c->nr == SYS_connect || c->nr == SYS_sendto ?
	    address_family(t->args, t->len) : -1;
	c->err = t->returned && t->ret == -1 && t->err[0] == 'E' ?
	    errno_number(t->err) : 0;
	return 0;
}

/*
 * The flags that can change this call's answer: those the table's rows
 * for it name, and those whose paths hold its path; with every flag
 * that implies one of them (RPATH implies RW).
 */
static int
relevant_flags(const struct call *c)
{
	tame_atoms named = 0;
	int i, bit, rel = 0;

	for (i = 0; i < tame_nrules; i++)
		if (tame_rules[i].nr == c->nr)
			named |= tame_rules[i].any | tame_rules[i].all;
	if (c->seen.path != NULL)
		named |= tame__path_grantors(c->seen.path, TL_READ);
	for (bit = 1; bit <= TAME_PROC; bit <<= 1)
		if (tame_expand(bit) & named & ~TAME__INTERNAL)
			rel |= bit;
	return rel;
}

static const struct decides *
decided_by(int nr)
{
	static struct decides *table;
	static int max;
	struct decides *d;

	if (table == NULL) {
		max = tame_syscall_max();
		table = xcalloc((size_t)max + 1, sizeof(*table));
	}
	if (nr < 0 || nr > max)
		return &table[0];	/* never asked: decode() refused it */
	d = &table[nr];
	if (d->known)
		return d;
	d->nul = tame__decided(nr, d->mask);
	d->strings = tame__string_args(nr);
	d->path_arg = tame__path_arg(nr);
	d->known = 1;
	return d;
}

/* Appending to a key, by hand: snprintf was a fifth of an audit. */
static char *
put_hex(char *p, char *end, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do
		tmp[n++] = digits[v & 0xf];
	while ((v >>= 4) != 0);
	while (n > 0 && p < end)
		*p++ = tmp[--n];
	return p;
}

static char *
put_str(char *p, char *end, const char *s)
{
	while (*s != '\0' && p < end)
		*p++ = *s++;
	return p;
}

/* The key of everything the answer depends on. */
static void
make_key(const struct call *c, char *key, size_t len)
{
	const struct decides *d = decided_by(c->nr);
	char *p = key, *end = key + len - 1;
	int i;

	p = put_hex(p, end, (uint32_t)c->nr);
	*p++ = '|';
	p = put_hex(p, end, (uint32_t)c->err);
	*p++ = (int)c->a[0] == c->seen.pid ? 's' : '-';	/* TC_SELF */
	*p++ = c->seen.rights ? 'r' : '-';
	*p++ = c->truncated ? 't' : '-';
	*p++ = c->not_dns ? 'n' : '-';
	*p++ = c->family == AF_INET || c->family == AF_INET6 ? 'i' : '-';
	for (i = 0; i < 6 && p < end - 1; i++) {
		*p++ = '|';
		if ((c->has_str & (1 << i)) && c->str[i] == c->seen.path) {
			/*
			 * libtame decides by a path only through the flags
			 * whose paths hold it (and whether it is empty: an
			 * fstat): one need for every path alike.
			 */
			tame_atoms rw, full, r = tame__path_grantors_each(
			    c->seen.path, &rw, &full);

			*p++ = c->seen.path[0] == '\0' ? 'e' : 'p';
			p = put_hex(p, end, r);
			*p++ = ',';
			p = put_hex(p, end, rw);
			*p++ = ',';
			p = put_hex(p, end, full);
		} else if (c->has_str & (1 << i)) {
			*p++ = 's';
			p = put_str(p, end, c->str[i]);
		} else {
			p = put_hex(p, end, (uint32_t)c->a[i] & d->mask[i]);
			if ((d->nul & (1 << i)) && c->a[i] != 0)
				*p++ = '*';
		}
	}
	*p = '\0';
}

/*
 * Keep only the smallest sets: one that implies another goes ("cmsg"
 * says no more than "unix" where unix will do), and of two that imply
 * each other ("rpath", "rpath,rw") the one with fewer names stays.
 */
static int
minimal(int *sets, int n)
{
	int i, j, k = 0, a, b, covered;

	for (i = 0; i < n; i++) {
		a = tame_expand(sets[i]) & TAME_ALL;
		for (covered = 0, j = 0; j < n && !covered; j++) {
			b = tame_expand(sets[j]) & TAME_ALL;
			if (j == i || (b & ~a) != 0)
				continue;
			covered = b != a ||
			    __builtin_popcount(sets[j]) <
			    __builtin_popcount(sets[i]) ||
			    (__builtin_popcount(sets[j]) ==
			    __builtin_popcount(sets[i]) && j < i);
		}
		if (!covered)
			sets[k++] = sets[i];
	}
	return k;
}

/*
 * The socket a connect or send uses is of its address's family (else
 * the kernel refuses it): an IP address needs the atoms that make IP
 * sockets.  The filter cannot read the address; tame-audit can, and
 * does not suggest unix for it.  (A unix path is left to the table:
 * the resolver's nscd probe connects one under dnspath.)
 */
static int
family_refuses(const struct call *c, tame_atoms held)
{
	if (c->family == AF_INET || c->family == AF_INET6)
		return !(held & (TAME_INET | TAME_DNSPATH));
	return 0;
}

/* Ask libtame about every subset of the relevant flags. */
static void
solve(const struct call *c, struct need *nd)
{
	int rel = relevant_flags(c), sub, v, err, n = 0, ne = 0, nd_ = 0;
	tame_atoms held;
	int soft[1 << 13], exact[1 << 13], denied[1 << 13];

	/* every subset of rel, smallest first by enumeration order */
	sub = 0;
	do {
		held = tame_expand(sub) | TAME__BASE;
		err = 0;
		v = tame__verdict(held, c->nr, c->a, &c->seen, &err);
		if (c->not_dns && (held & TAME_DNSPATH) && !(held & TAME_INET))
			v = TAME_VERDICT_VIOLATION;	/* see above */
		if (family_refuses(c, held))
			v = TAME_VERDICT_VIOLATION;
		/*
		 * Descriptors that arrived: without cmsg libtame closes
		 * them on arrival and the program goes without (tame(3)),
		 * so a program that received some needs cmsg.
		 */
		if (c->seen.rights && (c->nr == SYS_recvmsg ||
		    c->nr == SYS_recvmmsg) && !(held & TAME_CMSG))
			v = TAME_VERDICT_VIOLATION;
		if (v == TAME_VERDICT_ALLOW ||
		    (v == TAME_VERDICT_ERRNO && err == c->err))
			exact[ne++] = sub;
		if (v != TAME_VERDICT_VIOLATION)
			soft[n++] = sub;
		if (v == TAME_VERDICT_ERRNO && err != c->err)
			denied[nd_++] = sub;
		if (v == TAME_VERDICT_ERRNO)
			nd->soft_err = err;
		sub = (sub - rel) & rel;
	} while (sub != 0);
	n = minimal(soft, n);
	ne = minimal(exact, ne);
	nd->nalts = n < AUDIT_MAXALTS ? n : AUDIT_MAXALTS;
	memcpy(nd->alts, soft, (size_t)nd->nalts * sizeof(int));
	nd->nexact = ne < AUDIT_MAXALTS ? ne : AUDIT_MAXALTS;
	memcpy(nd->exact, exact, (size_t)nd->nexact * sizeof(int));
	nd_ = minimal(denied, nd_);
	nd->ndenied = nd_ < AUDIT_MAXALTS ? nd_ : AUDIT_MAXALTS;
	memcpy(nd->denied, denied, (size_t)nd->ndenied * sizeof(int));
}

/* The atoms of a set of promises (bit i: tame_promises[i]). */
tame_atoms
promises_atoms(uint64_t set)
{
	tame_atoms atoms = 0;
	int i;

	for (i = 0; i < tame_npromises; i++)
		if (set & ((uint64_t)1 << i))
			atoms |= tame_promises[i].atoms;
	return atoms;
}

/* The smallest of n promise sets into out: drop a set holding another. */
static int
smallest_promises(const uint64_t *sets, int n, uint64_t *out)
{
	int i, j, k, covered;

	for (k = 0, i = 0; i < n; i++) {
		for (covered = 0, j = 0; j < n && !covered; j++)
			covered = j != i && (sets[j] & ~sets[i]) == 0 &&
			    (sets[j] != sets[i] || j < i);
		if (!covered && k < AUDIT_MAXALTS)
			out[k++] = sets[i];
	}
	return k;
}

/*
 * The promises a call needs, as solve() finds the flags: every subset
 * of the promises that bear on it, under pledge's base set.  The same
 * rules for what libtame's answer cannot show (port 53, descriptors
 * that arrived).
 */
static void
solve_promises(const struct call *c, struct need *nd)
{
	tame_atoms named = 0, held;
	uint64_t rel = 0, sub, sets[AUDIT_MAXALTS * 4];
	uint64_t exact[AUDIT_MAXALTS * 4];
	int i, n = 0, ne = 0, v, err;

	for (i = 0; i < tame_nrules; i++)
		if (tame_rules[i].nr == c->nr)
			named |= tame_rules[i].any | tame_rules[i].all;
	if (c->seen.path != NULL)
		named |= tame__path_grantors(c->seen.path, TL_READ);
	for (i = 0; i < tame_npromises; i++)
		if (tame_promises[i].atoms & named)
			rel |= (uint64_t)1 << i;
	nd->npalts = nd->npexact = 0;
	if (__builtin_popcountll(rel) > 12) {
		nd->npalts = -1;	/* too many to try: unknown */
		return;
	}
	sub = 0;
	do {
		held = promises_atoms(sub) | TAME__BASE | TAME__ALWAYS;
		err = 0;
		v = tame__verdict(held, c->nr, c->a, &c->seen, &err);
		if (c->not_dns && (held & TAME_DNSPATH) && !(held & TAME_INET))
			v = TAME_VERDICT_VIOLATION;
		if (family_refuses(c, held))
			v = TAME_VERDICT_VIOLATION;
		if (c->seen.rights && (c->nr == SYS_recvmsg ||
		    c->nr == SYS_recvmmsg) && !(held & TAME__RECVFD))
			v = TAME_VERDICT_VIOLATION;
		if (v != TAME_VERDICT_VIOLATION && n < AUDIT_MAXALTS * 4)
			sets[n++] = sub;
		if ((v == TAME_VERDICT_ALLOW || (v == TAME_VERDICT_ERRNO &&
		    err == c->err)) && ne < AUDIT_MAXALTS * 4)
			exact[ne++] = sub;
		sub = (sub - rel) & rel;
	} while (sub != 0);
	nd->npalts = smallest_promises(sets, n, nd->palts);
	nd->npexact = smallest_promises(exact, ne, nd->pexact);
}

/*
 * A call on a descriptor that a soft denial would have refused to make
 * (glibc's nscd socket under getpw) does not happen under the sets that
 * deny it: those sets meet this call too.
 */
static void
after_creator(struct need *nd, const struct need *creator)
{
	int sets[2 * AUDIT_MAXALTS], n = 0, i;

	for (i = 0; i < nd->nalts; i++)
		sets[n++] = nd->alts[i];
	for (i = 0; i < creator->ndenied; i++)
		sets[n++] = creator->denied[i];
	n = minimal(sets, n);
	nd->nalts = n < AUDIT_MAXALTS ? n : AUDIT_MAXALTS;
	memcpy(nd->alts, sets, (size_t)nd->nalts * sizeof(int));
}

/* "openat "/etc/passwd" O_RDONLY", in the violation line's words. */
static char *
describe(const struct call *c)
{
	struct tame_call tc;
	struct tame_line l = { .len = 0 };
	int i;

	memset(&tc, 0, sizeof(tc));
	tc.nr = c->nr;
	memcpy(tc.a, c->a, sizeof(tc.a));
	tc.path_arg = -1;
	if ((i = tame__path_arg(c->nr)) >= 0 && c->seen.path != NULL) {
		tc.path_arg = i;
		tc.path = c->seen.path;
	}
	if (c->seen.rights)
		tc.detail = "SCM_RIGHTS";
	tame__describe(&l, &tc);
	l.buf[l.len < sizeof(l.buf) ? l.len : sizeof(l.buf) - 1] = '\0';
	return xstrdup(l.buf);
}

/* Why nothing allows it, and what to do about it. */
static char *
reason(const struct call *c, const char *name)
{
	char buf[512];
	int i;

	if (c->nr == SYS_execve || c->nr == SYS_execveat) {
		i = c->nr == SYS_execve ? 0 : 1;
		snprintf(buf, sizeof(buf), "this program execs %s: tame it in "
		    "the child after the exec, or not at all",
		    (c->has_str & (1 << i)) ? c->str[i] : "a program");
		return xstrdup(buf);
	}
	if (c->nr < 0) {
		snprintf(buf, sizeof(buf), "%s is no system call libtame "
		    "knows on this architecture", name);
		return xstrdup(buf);
	}
	for (i = 0; i < tame_nrules; i++)
		if (tame_rules[i].nr == c->nr &&
		    tame_rules[i].action == TA_DENY) {
			snprintf(buf, sizeof(buf), "not allowed after tame(): "
			    "%s", tame_rules[i].why);
			return xstrdup(buf);
		}
	snprintf(buf, sizeof(buf), "no flag allows %s: make it before "
	    "tame(), or do not tame this process", name);
	return xstrdup(buf);
}

static int
new_need(struct audit *a)
{
	if (a->nneeds == a->needs_cap) {
		a->needs_cap = a->needs_cap == 0 ? 64 : a->needs_cap * 2;
		a->needs = xrealloc(a->needs, (size_t)a->needs_cap *
		    sizeof(*a->needs));
	}
	memset(&a->needs[a->nneeds], 0, sizeof(a->needs[0]));
	a->needs[a->nneeds].first_obs = -1;
	return a->nneeds++;
}

/* Does the call ask for executable memory (load code, or make it)? */
static int
wants_exec(const struct call *c)
{
	return (c->nr == SYS_mmap || c->nr == SYS_mprotect ||
	    c->nr == SYS_pkey_mprotect) && (c->a[2] & PROT_EXEC);
}

/* The file an mmap maps, from strace -yy's "3</usr/lib/x.so>". */
static char *
mapped_file(const struct call_text *t)
{
	const char *argv[6], *p, *q;
	size_t argl[6];
	int n;

	if ((n = t->nargs) > 0) {
		memcpy(argv, t->argv, (size_t)n * sizeof(*argv));
		memcpy(argl, t->argl, (size_t)n * sizeof(*argl));
	} else
		n = st_split(t->args, t->len, argv, argl, 6);
	if (n < 5 || (p = memchr(argv[4], '<', argl[4])) == NULL)
		return NULL;
	for (q = argv[4] + argl[4]; q > p && q[-1] != '>'; q--)
		;
	if (q - p < 3)
		return NULL;
	return strndup(p + 1, (size_t)(q - p - 2));
}

/* Calls on a descriptor after the one that made it: was it of use? */
static void
note_use(struct audit *a, const struct call_text *t)
{
	if (t->creator >= 0 && t->returned && t->ret != -1 &&
	    strcmp(t->name, "close") != 0)
		a->needs[t->creator].fd_used = 1;
}

int
classify(struct audit *a, const struct call_text *t)
{
	static struct call c;
	struct cache *cache;
	struct slot *s;
	struct need *nd;
	char key[PATH_MAX * 3 + 256], *module = NULL;
	int id;

	if (a->cache == NULL)
		a->cache = xcalloc(1, sizeof(struct cache));
	cache = a->cache;
	note_use(a, t);
	if (decode(&c, t) == -1)
		snprintf(key, sizeof(key), "?%s", t->name);
	else
		make_key(&c, key, sizeof(key));
	if (t->creator >= 0)
		snprintf(key + strlen(key), sizeof(key) - strlen(key), "|c%d",
		    t->creator);
	/* each module loaded is a blocker of its own */
	if (c.nr >= 0 && wants_exec(&c) && c.nr == SYS_mmap &&
	    (module = mapped_file(t)) != NULL)
		snprintf(key + strlen(key), sizeof(key) - strlen(key), "|x%s",
		    module);
	s = lookup(cache, key);
	if (s->key != NULL) {
		free(module);
		return s->need;
	}
	s->key = xstrdup(key);
	cache->used++;
	s->need = id = new_need(a);
	nd = &a->needs[id];
	if (c.nr < 0) {
		nd->what = xstrdup(t->name);
		nd->reason = reason(&c, t->name);
		return id;
	}
	nd->code = wants_exec(&c);
	nd->module = module;
	nd->failed = c.err != 0;
	nd->err = c.err;
	solve(&c, nd);
	solve_promises(&c, nd);
	if (t->creator >= 0)
		after_creator(nd, &a->needs[t->creator]);
	nd->what = describe(&c);
	if (nd->nalts == 0)
		nd->reason = reason(&c, t->name);
	return id;
}

void
classify_free(struct audit *a)
{
	struct cache *c = a->cache;
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->cap; i++)
		free(c->slots[i].key);
	free(c->slots);
	free(c);
	a->cache = NULL;
}
