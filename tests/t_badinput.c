/* SPDX-License-Identifier: ISC */
/*
 * t_badinput.c: the public API (tame.h) on malformed input.
 *
 * What tame.h promises for input that is not what a careful caller
 * passes: NULL pointers, strings that end right before an unmapped page,
 * names given twice, in odd case, with the prefix alone, lists of a
 * megabyte, buffers of no size, flag values with bits no flag has.  Each
 * case asserts the documented result and errno; a read past a string's
 * NUL, or a write past a buffer's length, crashes the test.
 */
#include <sys/mman.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define SENTINEL	0x5a5a5a5a

/*
 * Two pages, the second PROT_NONE: a string placed to end at the first
 * page's last byte is followed by memory that faults on any read.
 */
static char	*guard_page;
static size_t	 page;

static void
guard_setup(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	guard_page = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(guard_page, MAP_FAILED);
	ck_assert_int_eq(mprotect(guard_page + page, page, PROT_NONE), 0);
}

static void
guard_teardown(void)
{
	munmap(guard_page, 2 * page);
}

/* s copied so that its NUL is the last readable byte. */
static const char *
at_page_end(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = guard_page + page - n;

	memcpy(p, s, n);
	return p;
}

/* ---- tame_flags_parse ---- */

START_TEST(test_parse_null_arguments)
{
	const char *bad = (const char *)&bad;	/* must stay as it is */
	int f = SENTINEL;

	errno = 0;
	ck_assert_int_eq(tame_flags_parse(NULL, &f, &bad), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(f, SENTINEL);
	ck_assert_ptr_eq(bad, (const char *)&bad);
	errno = 0;
	ck_assert_int_eq(tame_flags_parse("stdio", NULL, &bad), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(bad, (const char *)&bad);
	errno = 0;
	ck_assert_int_eq(tame_flags_parse(NULL, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* bad NULL is allowed, on success and on an unknown name */
	ck_assert_int_eq(tame_flags_parse("rpath", &f, NULL), 0);
	ck_assert_int_eq(f, TAME_RPATH);
	f = SENTINEL;
	errno = 0;
	ck_assert_int_eq(tame_flags_parse("rpath,nosuch", &f, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(f, SENTINEL);
}
END_TEST

/*
 * Strings whose NUL is the last byte before an unmapped page: the
 * parser must stop at the NUL, whatever the string ends with.
 */
START_TEST(test_parse_stops_at_the_nul)
{
	static const struct {
		const char	*s;
		int		 ret, flags;
		int		 badoff;	/* where *bad points, on -1 */
	} cases[] = {
		{ "", 0, 0, 0 },
		{ "stdio,rpath", 0, TAME_STDIO | TAME_RPATH, 0 },
		{ "rpath", 0, TAME_RPATH, 0 },
		{ "TAME_PROC", 0, TAME_PROC, 0 },
		{ "proc,", 0, TAME_PROC, 0 },
		{ " | , \t\n", 0, 0, 0 },
		{ "TAME_", -1, 0, 0 },
		{ "stdio,TAME", -1, 0, 6 },
		{ "stdio,rpat", -1, 0, 6 },
		{ "stdio,rpathx", -1, 0, 6 },
		{ "x", -1, 0, 0 },
	};
	const char *s, *bad;
	size_t i;
	int f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = at_page_end(cases[i].s);
		f = SENTINEL;
		bad = NULL;
		ck_assert_msg(tame_flags_parse(s, &f, &bad) == cases[i].ret,
		    "\"%s\": not %d", cases[i].s, cases[i].ret);
		if (cases[i].ret == 0)
			ck_assert_msg(f == cases[i].flags, "\"%s\": %#x",
			    cases[i].s, f);
		else
			ck_assert_msg(f == SENTINEL &&
			    bad == s + cases[i].badoff, "\"%s\": flags %#x, "
			    "bad at %td", cases[i].s, f, bad - s);
	}
}
END_TEST

/* "rpath,rpath" is rpath: a name twice counts once, as in any list. */
START_TEST(test_parse_duplicates_and_odd_spellings)
{
	static const struct {
		const char	*s;
		int		 flags;
	} ok[] = {
		{ "rpath,rpath", TAME_RPATH },
		{ "stdio,malloc,rw,stdio", TAME_STDIO },
		{ "RPATH|rpath|TAME_RPATH|tame_rpath", TAME_RPATH },
		{ "tAmE_rPaTh", TAME_RPATH },
		{ "Tame_Stdio TAME_INET", TAME_STDIO | TAME_INET },
		{ ",", 0 },
		{ " | ", 0 },
		{ ",,,|||   \t\t\n\n", 0 },
		{ "||stdio||", TAME_STDIO },
	};
	static const char *unknown[] = {
		"TAME_", "tame_", "TAME_TAME_RPATH", "TAMERPATH", "TAME-RPATH",
		"rpath;wpath", "r", "std", "stdiox", "rpath\x01", "rpath\xff",
		"all", "none", "0x4", "4", "*",
	};
	const char *bad;
	size_t i;
	int f;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		f = SENTINEL;
		ck_assert_msg(tame_flags_parse(ok[i].s, &f, NULL) == 0 &&
		    f == ok[i].flags, "\"%s\": %#x, want %#x", ok[i].s, f,
		    ok[i].flags);
	}
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		bad = NULL;
		errno = 0;
		ck_assert_msg(tame_flags_parse(unknown[i], &f, &bad) == -1 &&
		    errno == EINVAL && bad == unknown[i], "\"%s\" accepted",
		    unknown[i]);
	}
}
END_TEST

/* A list of a megabyte: parsed whole, or refused at the right name. */
START_TEST(test_parse_huge_lists)
{
	size_t n = 1 << 20, i;
	char *s = malloc(n + 16);
	const char *bad;
	int f;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i + 6 <= n; i += 6)
		memcpy(s + i, "stdio,", 6);
	s[i] = '\0';
	ck_assert_int_eq(tame_flags_parse(s, &f, NULL), 0);
	ck_assert_int_eq(f, TAME_STDIO);
	/* the last name unknown: *bad points at it */
	strcpy(s + i, "bogus");
	ck_assert_int_eq(tame_flags_parse(s, &f, &bad), -1);
	ck_assert_ptr_eq(bad, s + i);
	/* one name a megabyte long */
	memset(s, 'r', n);
	s[n] = '\0';
	ck_assert_int_eq(tame_flags_parse(s, &f, &bad), -1);
	ck_assert_ptr_eq(bad, s);
	/* separators alone */
	memset(s, '|', n);
	ck_assert_int_eq(tame_flags_parse(s, &f, NULL), 0);
	ck_assert_int_eq(f, 0);
	free(s);
}
END_TEST

/* ---- tame_flags_name and tame_flag_name ---- */

START_TEST(test_name_null_and_tiny_buffers)
{
	char buf[256], full[256];
	int f, n, len;

	/* the length alone: NULL and 0, as snprintf(NULL, 0, ...) */
	ck_assert_int_eq(tame_flags_name(TAME_STDIO | TAME_RPATH, NULL, 0),
	    (int)strlen("stdio,rpath"));
	ck_assert_int_eq(tame_flags_name(0, NULL, 0), 0);
	/* NULL with room claimed: refused, nothing written */
	errno = 0;
	ck_assert_int_eq(tame_flags_name(TAME_STDIO, NULL, 8), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* every flag set, every length up to the full one and past it */
	for (f = 0; f <= TAME_ALL; f++) {
		n = tame_flags_name(f, full, sizeof(full));
		ck_assert_int_ge(n, 0);
		ck_assert_int_eq((int)strlen(full), n);
		for (len = 0; len <= n + 1; len++) {
			memset(buf, '#', sizeof(buf));
			ck_assert_int_eq(tame_flags_name(f, buf, len), n);
			/* a prefix, terminated within len, nothing past */
			if (len > 0)
				ck_assert_msg(strncmp(buf, full, len - 1) ==
				    0 && buf[len - 1] == '\0', "%#x in %d "
				    "bytes: \"%.*s\"", f, len, len, buf);
			ck_assert_msg(buf[len] == '#', "%#x: byte %d, past "
			    "len, written", f, len);
		}
	}
}
END_TEST

START_TEST(test_name_bits_no_flag_has)
{
	static const int badflags[] = {
		INT_MIN, -1, INT_MAX, TAME_ALL + 1, 0x2000, 0x10000000,
		0x20000000, 0x40000000, TAME_STDIO | 0x8000,
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(badflags) / sizeof(badflags[0]); i++) {
		memset(buf, '#', sizeof(buf));
		errno = 0;
		ck_assert_msg(tame_flags_name(badflags[i], buf, sizeof(buf)) ==
		    -1 && errno == EINVAL, "%#x named", badflags[i]);
		ck_assert_msg(buf[0] == '#', "%#x: buf written", badflags[i]);
		ck_assert_ptr_null(tame_flag_name(badflags[i]));
	}
}
END_TEST

START_TEST(test_flag_name_of_one_flag_only)
{
	const char *name;
	int bit, f;

	ck_assert_ptr_null(tame_flag_name(0));
	ck_assert_ptr_null(tame_flag_name(TAME_RPATH | TAME_WPATH));
	ck_assert_ptr_null(tame_flag_name(TAME_ALL));
	ck_assert_str_eq(tame_flag_name(TAME_STDIO), "stdio");
	for (bit = 0; bit < 13; bit++) {
		name = tame_flag_name(1 << bit);
		ck_assert_msg(name != NULL, "bit %d has no name", bit);
		ck_assert_int_eq(tame_flags_parse(name, &f, NULL), 0);
		ck_assert_int_eq(f, 1 << bit);
	}
}
END_TEST

/* What tame_flags_name writes, tame_flags_parse reads back. */
START_TEST(test_name_parse_round_trip)
{
	char buf[256];
	int f, g;

	for (f = 0; f <= TAME_ALL; f++) {
		ck_assert_int_ge(tame_flags_name(f, buf, sizeof(buf)), 0);
		ck_assert_int_eq(tame_flags_parse(buf, &g, NULL), 0);
		ck_assert_msg(f == g, "%#x -> \"%s\" -> %#x", f, buf, g);
	}
}
END_TEST

/* ---- tame() ---- */

/* Values with bits outside TAME_ALL: EINVAL, and nothing installed. */
static int
body_bad_values(void *arg)
{
	static const int badflags[] = {
		INT_MIN, INT_MIN | TAME_STDIO, INT_MAX, TAME_ALL + 1, 0x2000,
		0x10000000, 0x20000000, 0x40000000,
	};
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(badflags) / sizeof(badflags[0]); i++) {
		errno = 0;
		if (tame(badflags[i]) != -1 || errno != EINVAL)
			return 10 + (int)i;
		if (tame_flags_held() != TAME_ALL)
			return 30 + (int)i;
	}
	/* the refusals left nothing behind: a real tame() still works */
	if (tame(TAME_STDIO | TAME_RPATH) != 0)
		return 2;
	if (tame(INT_MIN) != -1 || errno != EINVAL)
		return 3;
	return tame_flags_held() == (TAME_STDIO | TAME_RPATH) ? 0 : 4;
}

START_TEST(test_tame_bad_values)
{
	struct outcome o = h_run(H_NO_TAME, NULL, body_bad_values, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static Suite *
badinput_suite(void)
{
	Suite *s = suite_create("badinput");
	TCase *tc = h_tcase(s, "api", 60, guard_setup, guard_teardown);

	tcase_add_test(tc, test_parse_null_arguments);
	tcase_add_test(tc, test_parse_stops_at_the_nul);
	tcase_add_test(tc, test_parse_duplicates_and_odd_spellings);
	tcase_add_test(tc, test_parse_huge_lists);
	tcase_add_test(tc, test_name_null_and_tiny_buffers);
	tcase_add_test(tc, test_name_bits_no_flag_has);
	tcase_add_test(tc, test_flag_name_of_one_flag_only);
	tcase_add_test(tc, test_name_parse_round_trip);
	tcase_add_test(tc, test_tame_bad_values);
	return s;
}

TAME_TEST_MAIN(badinput_suite)
