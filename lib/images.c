/* SPDX-License-Identifier: ISC */
/*
 * images.c: telling the pledged image from the images it execs.
 *
 * A seccomp filter stays across execve and cannot be lifted, yet
 * pledge's exec promise runs the new image under execpromises (NULL:
 * not pledged at all).  What the filter can see that differs between
 * the two is where a call comes from: seccomp_data's instruction
 * pointer.  The pledged image's code is the executable mappings it holds
 * at its first pledge() with exec, and it can make no other: without
 * prot_exec no mapping becomes executable (W^X), and with exec held
 * mremap() may not move code (policy.c; emulate.c checks it).  A call
 * from outside those ranges is the new image's, judged by execpromises
 * from its first instruction.
 *
 * An exec'd image whose code lands inside the old ranges is judged as
 * the pledged one: with address space randomization that takes two
 * bases within a few megabytes of each other (about 1 in 10^5 execs),
 * and pledge() turns ADDR_NO_RANDOMIZE off for the images it execs
 * (gdb sets it); it fails closed, the new image ending on a call its
 * promises refuse.
 */
#include <sys/personality.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <linux/seccomp.h>

#include "compile.h"
#include "gate.h"
#include "policy.h"
#include "tame_int.h"

#define OFF_IP_LO	offsetof(struct seccomp_data, instruction_pointer)
#define OFF_IP_HI	(OFF_IP_LO + 4)

/* Add [lo, hi), split so that each range lies within one 4 GiB window. */
int
tame__images_add(struct tame_images *im, uint64_t lo, uint64_t hi)
{
	uint64_t end;

	while (lo < hi) {
		end = (lo | 0xffffffffULL) + 1;
		if (end == 0 || end > hi)
			end = hi;
		if (im->n > 0 && im->r[im->n - 1].hi == lo &&
		    (im->r[im->n - 1].lo >> 32) == (lo >> 32))
			im->r[im->n - 1].hi = end;	/* adjacent: one */
		else if (im->n == TAME_MAXIMAGES)
			return -1;
		else {
			im->r[im->n].lo = lo;
			im->r[im->n].hi = end;
			im->n++;
		}
		lo = end;
	}
	return 0;
}

static uint64_t
hex(const char **p)
{
	uint64_t v = 0;
	int d;

	for (;; (*p)++) {
		if (**p >= '0' && **p <= '9')
			d = **p - '0';
		else if (**p >= 'a' && **p <= 'f')
			d = **p - 'a' + 10;
		else
			return v;
		v = v << 4 | (uint64_t)d;
	}
}

/*
 * One line of /proc/self/maps ("lo-hi rwxp ..."): an executable mapping
 * is added; one that is also writable (an executable stack, a JIT's
 * buffer) is refused, since code could appear in it, or beyond it as a
 * stack grows, with no system call the filter sees.  0, or -1 with errno.
 */
static int
map_line(struct tame_images *im, const char *p)
{
	uint64_t lo, hi;

	lo = hex(&p);
	p += *p == '-';
	hi = hex(&p);
	if (p[0] != ' ' || strlen(p) < 5 || p[3] != 'x')
		return 0;
	if (p[2] == 'w') {
		errno = ENOTSUP;
		return -1;
	}
	if (tame__images_add(im, lo, hi) == -1) {
		errno = E2BIG;
		return -1;
	}
	return 0;
}

/*
 * The executable mappings of this process, from /proc/self/maps, read a
 * piece at a time (a process with many libraries has a long one).  0, or
 * -1 with errno: E2BIG for more ranges than a filter holds, ENOTSUP for
 * a mapping both writable and executable.
 */
int
tame__images_snapshot(struct tame_images *im)
{
	static char buf[8192];		/* static: no allocation here */
	char *line, *nl;
	size_t len = 0;
	ssize_t n;
	int fd, r = 0, saved;

	im->n = 0;
	if ((fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (r == 0 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
		len += (size_t)n;
		buf[len] = '\0';
		for (line = buf; r == 0 && (nl = strchr(line, '\n')) != NULL;
		    line = nl + 1) {
			*nl = '\0';
			r = map_line(im, line);
		}
		len -= (size_t)(line - buf);
		memmove(buf, line, len);
		if (len == sizeof(buf) - 1) {
			errno = E2BIG;		/* one line of 8 KiB: not maps */
			r = -1;
		}
	}
	if (r == 0 && len > 0) {
		buf[len] = '\0';
		r = map_line(im, buf);
	}
	saved = errno;
	close(fd);
	errno = saved;
	if (r == -1)
		return -1;
	/*
	 * The images this one execs get randomized addresses even where
	 * this one has none (gdb's ADDR_NO_RANDOMIZE), or their code would
	 * land where this one's is.
	 */
	n = personality(0xffffffff);
	if (n != -1 && (n & ADDR_NO_RANDOMIZE))
		personality((unsigned long)n & ~(unsigned long)ADDR_NO_RANDOMIZE);
	return 0;
}

/* Does [lo, lo + len) meet the pledged image's code? */
int
tame__images_meet(const struct tame_images *im, uint64_t lo, uint64_t len)
{
	int i;

	for (i = 0; i < im->n; i++)
		if (lo < im->r[i].hi && lo + len > im->r[i].lo)
			return 1;
	return 0;
}

static int
put(struct tame_prog *p, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (p->len >= TAME_MAXINSN)
		return -1;
	p->insn[p->len++] = (struct sock_filter){ code, jt, jf, k };
	return 0;
}

/*
 * The range checks: for each range, six instructions that jump to
 * inside (absolute) when the call comes from it; after the last, the
 * call comes from no range and control falls through.
 */
static int
put_ranges(struct tame_prog *p, const struct tame_images *im, int inside)
{
	int i, r = 0, at;

	for (i = 0; i < im->n; i++) {
		r |= put(p, BPF_LD | BPF_W | BPF_ABS, OFF_IP_HI, 0, 0);
		r |= put(p, BPF_JMP | BPF_JEQ | BPF_K,
		    (uint32_t)(im->r[i].lo >> 32), 0, 4);
		r |= put(p, BPF_LD | BPF_W | BPF_ABS, OFF_IP_LO, 0, 0);
		r |= put(p, BPF_JMP | BPF_JGE | BPF_K, (uint32_t)im->r[i].lo,
		    0, 2);
		r |= put(p, BPF_JMP | BPF_JGT | BPF_K,
		    (uint32_t)(im->r[i].hi - 1), 1, 0);
		at = p->len;
		r |= put(p, BPF_JMP | BPF_JA, (uint32_t)(inside - at - 1), 0, 0);
	}
	return r;
}

/*
 * execpromises NULL: every answer of p but ALLOW becomes "ALLOW if the
 * call comes from outside the pledged image's code, else that answer".
 * A RET of another answer turns into a jump to a stub that keeps the
 * answer in scratch memory; one block of range checks then returns it,
 * or ALLOW.  Calls p allows outright never read the instruction pointer,
 * so they stay in the kernel's constant-action cache.
 */
static int
unpledge_outside(struct tame_prog *p, const struct tame_images *im)
{
	uint32_t answers[16];
	int stub_at[16], nanswers = 0, len = p->len, i, j, common, inside;
	int r = 0;

	for (i = 0; i < len; i++) {
		if (p->insn[i].code != (BPF_RET | BPF_K) ||
		    p->insn[i].k == SECCOMP_RET_ALLOW)
			continue;
		for (j = 0; j < nanswers && answers[j] != p->insn[i].k; j++)
			;
		if (j == nanswers) {
			if (nanswers == 16)
				return -1;
			answers[nanswers++] = p->insn[i].k;
		}
	}
	/* stubs: A = answer, M[0] = A, jump to the checks (placed after) */
	for (j = 0; j < nanswers; j++) {
		stub_at[j] = p->len;
		r |= put(p, BPF_LD | BPF_IMM, answers[j], 0, 0);
		r |= put(p, BPF_ST, 0, 0, 0);
		r |= put(p, BPF_JMP | BPF_JA, 0, 0, 0);	/* set below */
	}
	common = p->len;
	for (j = 0; j < nanswers; j++)
		p->insn[stub_at[j] + 2].k = (uint32_t)(common - stub_at[j] - 3);
	/* inside: after the checks' one outside answer */
	inside = common + 6 * im->n + 1;
	r |= put_ranges(p, im, inside);
	r |= put(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	r |= put(p, BPF_LD | BPF_MEM, 0, 0, 0);
	r |= put(p, BPF_RET | BPF_A, 0, 0, 0);
	if (r != 0)
		return -1;
	for (i = 0; i < len; i++) {
		if (p->insn[i].code != (BPF_RET | BPF_K) ||
		    p->insn[i].k == SECCOMP_RET_ALLOW)
			continue;
		for (j = 0; answers[j] != p->insn[i].k; j++)
			;
		p->insn[i] = (struct sock_filter){ BPF_JMP | BPF_JA, 0, 0,
		    (uint32_t)(stub_at[j] - i - 1) };
	}
	return 0;
}

/*
 * execpromises given: the range checks first; from inside, p (the
 * promises); from outside, after (the execpromises), each as compiled
 * and moved along with its relocations.
 */
static int
split_images(struct tame_prog *p, const struct tame_prog *after,
    const struct tame_images *im)
{
	static struct tame_prog mine;	/* static: no allocation here */
	int head = 6 * im->n + 1, i;

	if (head + p->len + after->len > TAME_MAXINSN ||
	    p->nreloc + after->nreloc > TAME_MAXRELOC)
		return -1;
	mine = *p;
	p->len = 0;
	if (put_ranges(p, im, head) != 0 ||
	    put(p, BPF_JMP | BPF_JA, (uint32_t)mine.len, 0, 0) != 0)
		return -1;
	memcpy(&p->insn[head], mine.insn, (size_t)mine.len *
	    sizeof(mine.insn[0]));
	memcpy(&p->insn[head + mine.len], after->insn, (size_t)after->len *
	    sizeof(after->insn[0]));
	p->len = head + mine.len + after->len;
	for (i = 0; i < mine.nreloc; i++) {
		p->reloc[i] = mine.reloc[i];
		p->reloc[i].at = (uint16_t)(p->reloc[i].at + head);
	}
	for (i = 0; i < after->nreloc; i++) {
		p->reloc[mine.nreloc + i] = after->reloc[i];
		p->reloc[mine.nreloc + i].at = (uint16_t)(after->reloc[i].at +
		    head + mine.len);
	}
	p->nreloc = mine.nreloc + after->nreloc;
	return 0;
}

/*
 * The filter for t, compiled as tame_compile() does, made to judge the
 * calls of images t's process execs by t's execpromises.
 */
int
tame__images_compile(const struct tame_target *t,
    const struct tame_target *prev, uint64_t gate, struct tame_prog *out)
{
	static struct tame_prog after;
	struct tame_target a;

	if (tame_compile(t, prev, gate, out) == -1)
		return -1;
	if (t->exec_null) {
		if (unpledge_outside(out, t->images) == 0)
			return 0;
	} else {
		a = *t;
		a.held = t->exec_held | TAME__LOADER;
		a.images = NULL;
		a.no_handler = 1;
		if (tame_compile(&a, NULL, gate, &after) == 0 &&
		    split_images(out, &after, t->images) == 0) {
			out->changed = 1;	/* always installed */
			return 0;
		}
	}
	errno = E2BIG;
	return -1;
}
