/* SPDX-License-Identifier: ISC */
/*
 * input.h: a fuzz input read from the front as little-endian numbers,
 * zeros once it runs out, so that any input decodes to something.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct input {
	const uint8_t	*p;
	size_t		 n;
};

/* The next bytes (at most 8) of the input as a number. */
uint64_t	take(struct input *, size_t bytes);

#endif /* FUZZ_INPUT_H */
