/* SPDX-License-Identifier: ISC */
/*
 * usercopy.c: read what a trapped call points at, from the SIGSYS
 * handler, without crashing on a bad pointer.
 *
 * A pointer from the program may be NULL, unmapped or PROT_NONE; the
 * kernel answers such a call with EFAULT, and so does the handler,
 * instead of dying of SIGSEGV inside itself.  Whether a page can be read
 * is asked of the kernel: rt_sigprocmask() with an invalid "how" copies
 * its 8-byte set in before it looks at "how", so it fails with EFAULT on
 * an unreadable page and EINVAL on a readable one, and changes nothing.
 * One such call per page touched, about 0.1 µs.  Whether it can be
 * written is asked the same way: getcpu() stores 4 bytes, the CPU number,
 * and fails with EFAULT where it cannot; the handler only probes bytes
 * it is about to write anyway.
 *
 * Each byte is read once, into the handler's own buffer: the checks and
 * the call the handler then makes use that copy, so another thread that
 * rewrites the program's buffer in between changes nothing.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "sys.h"
#include "tame_int.h"

#define PAGE		4096u		/* the smallest page any arch has */

static int
page_readable(uintptr_t p)
{
	uintptr_t page = p & ~(uintptr_t)(PAGE - 1);

	if (page == 0)
		return 0;		/* NULL would mean "no set" */
	return tame__sys(SYS_rt_sigprocmask, -1, (long)page, 0, 8, 0, 0) !=
	    -EFAULT;
}

long
tame__copy_str(char *dst, size_t len, uint64_t src)
{
	uintptr_t p = (uintptr_t)src;
	size_t n;

	for (n = 0; n < len; n++, p++) {
		if ((n == 0 || p % PAGE == 0) && !page_readable(p))
			return -EFAULT;
		if ((dst[n] = *(const volatile char *)p) == '\0')
			return (long)n;
	}
	return -ENAMETOOLONG;
}

int
tame__copy_in(void *dst, uint64_t src, size_t len)
{
	uintptr_t p = (uintptr_t)src;
	unsigned char *d = dst;
	size_t n;

	for (n = 0; n < len; n++, p++) {
		if ((n == 0 || p % PAGE == 0) && !page_readable(p))
			return -EFAULT;
		d[n] = *(const volatile unsigned char *)p;
	}
	return 0;
}

/*
 * Can the program's len bytes at dst (len >= 4) be written?  The probes
 * store 4 bytes at dst and at each later page the range reaches, so the
 * caller only asks about bytes it overwrites anyway.
 */
int
tame__writable(uint64_t dst, size_t len)
{
	uintptr_t p = (uintptr_t)dst, end = p + len, at;

	if (len < 4 || p < PAGE || end < p)
		return 0;
	for (at = p; at < end; at = (at & ~(uintptr_t)(PAGE - 1)) + PAGE)
		if (tame__sys(SYS_getcpu, (long)(end - at >= 4 ? at : end - 4),
		    0, 0, 0, 0, 0) == -EFAULT)
			return 0;
	return 1;
}
