/* SPDX-License-Identifier: ISC */
/*
 * input.c: see input.h.
 */
#include "input.h"

uint64_t
take(struct input *in, size_t bytes)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < bytes && i < sizeof(v); i++)
		if (in->n > 0) {
			v |= (uint64_t)*in->p++ << (8 * i);
			in->n--;
		}
	return v;
}
