/* SPDX-License-Identifier: ISC */
/*
 * guard.h: fuzz input laid out in real memory with nothing readable
 * after it.
 *
 * ASan sees overreads of malloc'd memory, but the SIGSYS handler's code
 * reads a program's memory through raw pointers and asks the kernel
 * which pages it may touch (usercopy.c); the parsers are handed lines
 * without a terminator.  So the fuzz targets place their input so that
 * its last byte is the last byte of a page and the page after it is
 * PROT_NONE: one byte too far is a SIGSEGV, which libFuzzer reports as
 * a crash with the input that caused it.
 */
#ifndef FUZZ_GUARD_H
#define FUZZ_GUARD_H

#include <stddef.h>

#define GUARD_PAGE	4096u

struct guard {
	unsigned char	*base;		/* room readable bytes, then
					   a PROT_NONE page */
	size_t		 room;
};

/*
 * Copy len bytes of data (zeros where data is NULL) so that they end
 * where the guard page begins; returns where they start.  The mapping
 * grows as needed and is reused.
 */
void	*guard_put(struct guard *, const void *data, size_t len);

/* The same with a NUL after the bytes: a C string ending at the guard. */
char	*guard_str(struct guard *, const void *data, size_t len);

/* The first byte of the guard page itself (unreadable). */
const void *guard_end(const struct guard *);

#endif /* FUZZ_GUARD_H */
