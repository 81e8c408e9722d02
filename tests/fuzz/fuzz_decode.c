/* SPDX-License-Identifier: ISC */
/*
 * fuzz_decode.c: what the SIGSYS handler reads of a trapped call,
 * called directly (no trap): lib/usercopy.c's copies from the program's
 * memory, lib/describe.c's violation line, lib/cmsg.c's walk over a
 * message's ancillary data, and lib/paths.c's path checks.
 *
 * The input's first byte picks the part; the rest is laid out in real
 * memory that ends at a PROT_NONE page (guard.h), and pointers into it,
 * at it and at unmapped addresses are what the functions are given.
 * Checked, besides crashes and sanitizer reports:
 *
 *	copies		tame__copy_str, tame__copy_in and tame__writable
 *			answer exactly as the memory is: EFAULT where a
 *			byte they need is unreadable, ENAMETOOLONG, the
 *			length, the bytes themselves
 *	describe	the line stays inside its buffer
 *	cmsg		1, 0 or -EINVAL; more data never hides the
 *			SCM_RIGHTS a prefix of it carries
 *	paths		grantors and grantors_each agree, granted is
 *			grantors & held, the full grant is within the read
 *			grant, and a path that is not absolute and
 *			canonical is granted nothing
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "input.h"
#include "policy.h"
#include "tame_int.h"

static struct guard	 gmem, gpath;

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz_decode: %s\n", what);
	abort();
}

/*
 * A pointer to hand the code: into the laid-out memory (anywhere, up to
 * the guard page), the guard page itself, or an address that is never
 * mapped (the first 64 KiB, or not canonical).  Never a random address
 * that could be mapped: reading the fuzzer's own heap redzones would be
 * ASan noise, not a finding.
 */
static uint64_t
pointer(struct input *in, const unsigned char *mem, size_t len)
{
	uint64_t r = take(in, 2);

	switch (r % 4) {
	case 0:
		return len == 0 ? 0 : (uintptr_t)(mem + (r >> 2) % len);
	case 1:
		return (uintptr_t)(mem + len);	/* the guard page */
	case 2:
		return (r >> 2) & 0xffff;	/* below mmap_min_addr */
	default:
		return 0x8000000000000000ULL | r;
	}
}

/*
 * Is [p, p + n) readable, as far as this target laid memory out?  No
 * bytes are readable anywhere.
 */
static int
readable(uint64_t p, size_t n, const unsigned char *mem, size_t len)
{
	return n == 0 || (p >= (uintptr_t)mem && p <= (uintptr_t)(mem + len) &&
	    n <= (size_t)((uintptr_t)(mem + len) - p));
}

static void
copies(struct input *in)
{
	unsigned char *mem, dst[8192];
	size_t len, n, k;
	uint64_t p;
	long r;

	len = (size_t)take(in, 2) % sizeof(dst);
	if (len > in->n)
		len = in->n;
	mem = guard_put(&gmem, in->p, len);
	in->p += len;
	in->n -= len;
	p = pointer(in, mem, len);
	n = (size_t)take(in, 2) % sizeof(dst);

	r = tame__copy_str((char *)dst, n, p);
	for (k = 0; k < n && readable(p, k + 1, mem, len) &&
	    mem[p - (uintptr_t)mem + k] != '\0'; k++)
		;
	if (k == n ? r != -ENAMETOOLONG : !readable(p, k + 1, mem, len) ?
	    r != -EFAULT : r != (long)k)
		fail("tame__copy_str answers otherwise than the memory");
	if (r >= 0 && memcmp(dst, mem + (p - (uintptr_t)mem), k + 1) != 0)
		fail("tame__copy_str copied other bytes");

	r = tame__copy_in(dst, p, n);
	if (r != (readable(p, n, mem, len) ? 0 : -EFAULT))
		fail("tame__copy_in answers otherwise than the memory");
	if (r == 0 && n > 0 && memcmp(dst, mem + (p - (uintptr_t)mem), n))
		fail("tame__copy_in copied other bytes");

	r = tame__writable(p, n);
	if (r != (n >= 4 && readable(p, n, mem, len) && p >= GUARD_PAGE))
		fail("tame__writable answers otherwise than the memory");
}

static void
describe(struct input *in)
{
	struct tame_call *c;
	struct tame_line l;
	unsigned char *mem;
	size_t len;
	uint64_t r;
	int i;

	c = calloc(1, sizeof(*c));
	r = take(in, 2);
	c->nr = r & 1 ? tame_rules[(r >> 1) % tame_nrules].nr :
	    (int)(int16_t)(r >> 1);
	c->path_arg = r & 0x8000 ? tame__path_arg(c->nr) :
	    (int)take(in, 1) % 8 - 1;
	r = take(in, 1);
	c->detail = r & 1 ? "SCM_RIGHTS" : NULL;
	len = (size_t)take(in, 2) % 1024;
	if (len > in->n / 2)
		len = in->n / 2;
	/* the copied path: a string of any length, at its own guard */
	c->path = r & 2 ? guard_str(&gpath, in->p, len) : NULL;
	in->p += len;
	in->n -= len;
	len = in->n > 6 * 3 ? in->n - 6 * 3 : 0;
	mem = guard_put(&gmem, in->p, len);
	in->p += len;
	in->n -= len;
	for (i = 0; i < 6; i++) {
		r = take(in, 1);
		c->a[i] = r % 3 == 0 ? pointer(in, mem, len) : r % 3 == 1 ?
		    take(in, 2) : take(in, 2) * 0x9e3779b97f4a7c15ULL;
	}
	memset(&l, 0, sizeof(l));
	tame__describe(&l, c);
	if (l.len >= sizeof(l.buf))
		fail("the line ran out of its buffer");
	free(c);
}

static void
cmsg(struct input *in)
{
	const unsigned char *ctl;
	size_t cut = (size_t)take(in, 2);
	int whole, part;

	ctl = guard_put(&gmem, in->p, in->n);
	cut = in->n > 0 ? cut % (in->n + 1) : 0;
	whole = tame__cmsg_rights(ctl, in->n);
	if (whole != 1 && whole != 0 && whole != -EINVAL)
		fail("tame__cmsg_rights: no such answer");
	/* the prefix again, at the guard page: a longer walk is a crash */
	ctl = guard_put(&gmem, in->p, cut);
	part = tame__cmsg_rights(ctl, cut);
	if (part == 1 && whole != 1)
		fail("more data hides the SCM_RIGHTS a prefix carries");
}

/* Is path absolute and canonical?  Said here without paths.c's code. */
static int
canonical(const char *path)
{
	size_t n = strlen(path);

	return path[0] == '/' && strstr(path, "//") == NULL &&
	    strstr(path, "/./") == NULL && strstr(path, "/../") == NULL &&
	    !(n >= 2 && strcmp(path + n - 2, "/.") == 0) &&
	    !(n >= 3 && strcmp(path + n - 3, "/..") == 0);
}

static void
paths(struct input *in)
{
	const char *path;
	tame_atoms held, read, rw, full, each, each_rw, each_full;

	held = (int)take(in, 4);
	path = guard_str(&gpath, in->p, in->n);
	read = tame__path_grantors(path, TL_READ);
	rw = tame__path_grantors(path, TL_RW);
	full = tame__path_grantors(path, TL_FULL);
	each = tame__path_grantors_each(path, &each_rw, &each_full);
	if (each != read || each_rw != rw || each_full != full)
		fail("tame__path_grantors_each disagrees with grantors");
	if ((full & ~rw) != 0 || (rw & ~read) != 0)
		fail("a flag grants writing but not reading, or everything "
		    "but not writing");
	if (!canonical(path) && (read | full) != 0)
		fail("a path not in canonical form is granted");
	if (tame__path_granted(held, path, TL_READ) != ((read & held) != 0) ||
	    tame__path_granted(held, path, TL_FULL) != ((full & held) != 0))
		fail("tame__path_granted is not grantors & held");
	if (tame__path_grantors(NULL, TL_READ) != 0)
		fail("NULL is granted");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };

	switch (take(&in, 1) % 4) {
	case 0:
		copies(&in);
		break;
	case 1:
		describe(&in);
		break;
	case 2:
		cmsg(&in);
		break;
	default:
		paths(&in);
	}
	return 0;
}
