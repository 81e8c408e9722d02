/* SPDX-License-Identifier: ISC */
/*
 * fuzz_parse.c: tame-audit's strace-log parser (audit/parse.c) on
 * arbitrary text.
 *
 * The input is a log: split at newlines, each line handed to st_line()
 * without a terminator and ending where a PROT_NONE page begins, so a
 * read past the line's end is a crash.  Every event that comes out, and
 * every raw line, then goes through the argument helpers (st_split,
 * st_arg, st_string, st_decoration, st_number, st_field) with output
 * buffers that also end at a guard page.  Besides crashes and sanitizer
 * reports, the contracts of parse.h are checked: return values in range,
 * spans inside the text they came from, NUL-terminated outputs that fit,
 * and st_arg() finding the arguments st_split() found.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "parse.h"

#define MAXARGS	6

static struct guard	 gline, gout;

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz_parse: %s\n", what);
	abort();
}

static int
inside(const char *p, size_t n, const char *text, size_t len)
{
	return p >= text && p <= text + len && n <= (size_t)(text + len - p);
}

/*
 * A string out of one argument, into a buffer of outlen bytes that ends
 * at a guard page: the result must fit and be terminated where it says.
 */
static void
decode_into(const char *arg, size_t n, size_t outlen)
{
	char *out;
	long k;
	int trunc;

	out = guard_put(&gout, NULL, outlen);
	memset(out, 'x', outlen);
	k = st_string(arg, n, out, outlen, &trunc);
	if (k < -1 || (k >= 0 && ((size_t)k >= outlen || out[k] != '\0')))
		fail("st_string: length and terminator disagree");
	if (trunc != 0 && trunc != 1)
		fail("st_string: truncated is no boolean");
	memset(out, 'x', outlen);
	k = st_decoration(arg, n, out, outlen);
	if (k < -1 || (k >= 0 && ((size_t)k >= outlen || out[k] != '\0')))
		fail("st_decoration: length and terminator disagree");
}

/* The helpers on one argument text. */
static void
helpers(const char *args, size_t len, unsigned seed)
{
	const char *argv[MAXARGS], *a;
	size_t argl[MAXARGS], al;
	long long v;
	int n, i;

	n = st_split(args, len, argv, argl, MAXARGS);
	if (n < 0 || n > MAXARGS)
		fail("st_split: count out of range");
	for (i = 0; i < n; i++) {
		if (!inside(argv[i], argl[i], args, len))
			fail("st_split: an argument outside the text");
		if (st_arg(args, len, i, &a, &al) != 0)
			fail("st_arg misses an argument st_split found");
		if (a != argv[i] || al != argl[i])
			fail("st_arg and st_split disagree on a span");
		(void)st_number(argv[i], argl[i], &v);
		decode_into(argv[i], argl[i], 1 + (seed + i) % 40);
		decode_into(argv[i], argl[i], 4096);
	}
	if (n < MAXARGS && st_arg(args, len, n, &a, &al) == 0)
		fail("st_arg finds an argument st_split did not");
	(void)st_field(args, len, "flags", &v);
	(void)st_field(args, len, "child_stack", &v);
	(void)st_field(args, len, "", &v);
}

static void
check_event(const struct st_event *ev)
{
	int i;

	if (ev->kind < ST_CALL || ev->kind > ST_FRAME)
		fail("event of no kind");
	if (memchr(ev->name, '\0', sizeof(ev->name)) == NULL ||
	    memchr(ev->err, '\0', sizeof(ev->err)) == NULL)
		fail("name or errno not terminated");
	if (ev->args == NULL && ev->args_len != 0)
		fail("a length without arguments");
	if (ev->nargs < 0 || ev->nargs > MAXARGS)
		fail("nargs out of range");
	for (i = 0; i < ev->nargs; i++)
		if (!inside(ev->argv[i], ev->argl[i], ev->args, ev->args_len))
			fail("an argument outside the event's text");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_parser *p;
	struct st_event ev;
	const char *s = (const char *)data, *end = s + size, *nl, *line;
	size_t len;
	unsigned seed = 0;
	int k;

	p = st_new();
	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		len = (nl != NULL ? nl : end) - s;
		line = guard_put(&gline, s, len);
		k = st_line(p, line, len, &ev);
		if (k == -1) {
			if (st_error(p) == NULL || *st_error(p) == '\0')
				fail("a malformed line without a message");
		} else if (k == 1) {
			check_event(&ev);
			if (ev.args != NULL)
				helpers(ev.args, ev.args_len, seed);
		} else if (k != 0)
			fail("st_line: no such result");
		/* the helpers on raw text too: the line was put again */
		line = guard_put(&gline, s, len);
		helpers(line, len, seed++);
		s += len + (nl != NULL);
	}
	if (st_pending(p) < 0)
		fail("st_pending < 0");
	st_free(p);
	return 0;
}
