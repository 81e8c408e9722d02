/* SPDX-License-Identifier: ISC */
/*
 * fuzz_flags.c: flag names both ways (lib/flags.c), the parser
 * tame-exec -f and the preload shim hand their users' text to.
 *
 * The input is the text, NUL-terminated right before a PROT_NONE page,
 * so that a parser reading past the terminator crashes.  Checked:
 *  - tame_flags_parse() either succeeds with bits inside TAME_ALL, or
 *    fails with EINVAL and *bad at the start of a word of the text;
 *  - what it parsed, named by tame_flags_name() and parsed again, is
 *    the same set;
 *  - the first bytes as an int: tame_flags_name() refuses bits outside
 *    TAME_ALL, and otherwise writes, into a buffer of any size (ending
 *    at a guard page), a terminated prefix of the full name and returns
 *    the full length, like snprintf; the full name parses back to the
 *    set; tame_flag_name() of it, where it has one, parses back too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "tame.h"

#define SEPARATORS	", \t\n|"

static struct guard	 gin, gout;

static void
fail(const char *what, int flags, const char *text)
{
	fprintf(stderr, "fuzz_flags: %s (flags %#x, text \"%s\")\n", what,
	    flags, text);
	abort();
}

/* name(flags) into a buffer of len bytes ending at a guard page */
static void
name_into(int flags, size_t len, const char *full, int n)
{
	char *buf = guard_put(&gout, NULL, len);
	int k;

	memset(buf, 'x', len);
	k = tame_flags_name(flags, buf, len);
	if (k != n)
		fail("the length depends on the buffer", flags, full);
	if (len > 0 && (strlen(buf) != (len - 1 < (size_t)n ? len - 1 :
	    (size_t)n) || strncmp(buf, full, strlen(buf)) != 0))
		fail("a short buffer gets no prefix of the name", flags, buf);
}

static void
round_trip(int flags, size_t len)
{
	char full[256];
	const char *bad = NULL, *one;
	int n, back;

	errno = 0;
	n = tame_flags_name(flags, full, sizeof(full));
	if (flags & ~TAME_ALL) {
		if (n != -1 || errno != EINVAL)
			fail("bits outside TAME_ALL named", flags, "");
		return;
	}
	if (n < 0 || (size_t)n >= sizeof(full) || strlen(full) != (size_t)n)
		fail("the name's length", flags, full);
	if (tame_flags_parse(full, &back, &bad) != 0 || back != flags)
		fail("the name parses to another set", flags, full);
	name_into(flags, len, full, n);
	if ((one = tame_flag_name(flags)) != NULL &&
	    (tame_flags_parse(one, &back, NULL) != 0 || back != flags))
		fail("tame_flag_name parses to another set", flags, one);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s, *bad = NULL;
	int flags = -1, r, v;

	s = guard_str(&gin, data, size);
	errno = 0;
	r = tame_flags_parse(s, &flags, &bad);
	if (r == 0) {
		if (flags & ~TAME_ALL)
			fail("parsed bits outside TAME_ALL", flags, s);
		round_trip(flags, size % 64);
	} else if (r == -1) {
		if (errno != EINVAL || bad == NULL || bad < s ||
		    bad >= s + strlen(s))
			fail("a refusal without EINVAL and a place", flags, s);
		if (strchr(SEPARATORS, *bad) != NULL ||
		    (bad > s && strchr(SEPARATORS, bad[-1]) == NULL))
			fail("*bad is not the start of a word", flags, s);
	} else
		fail("tame_flags_parse: no such result", flags, s);
	if (size >= sizeof(v)) {
		memcpy(&v, data, sizeof(v));
		/* mostly sets within TAME_ALL, sometimes anything */
		round_trip(data[sizeof(v) - 1] & 0x80 ? v : v & TAME_ALL,
		    size > sizeof(v) ? data[sizeof(v)] : 0);
	}
	return 0;
}
