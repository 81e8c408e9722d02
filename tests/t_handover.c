/* SPDX-License-Identifier: ISC */
/*
 * t_handover.c: what the shim refuses to take from tame-exec's launcher
 * (tools/handover.c).  Each case is a real file made from a real
 * handover, changed in one way; handover_read() must refuse it, and say
 * whether it was a handover at all (the shim then closes it) or
 * somebody else's descriptor (left alone).  t_oracle proves the programs
 * taken equal the compiler's; tests/cli/handover.sh runs the shim.
 */
#include <sys/mman.h>

#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "handover.h"
#include "harness.h"
#include "policy.h"
#include "tame.h"

#define SEALS	(F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

static unsigned char	good[64 * 1024];	/* a real handover's bytes */
static size_t		good_len;
static struct tame_prog	prog;

static void
make_good(void)
{
	struct tame_target t = { tame_expand(TAME_STDIO | TAME_RPATH |
	    TAME_INET), 1, getpid() };
	ssize_t n;
	int fd;

	ck_assert(tame_compile(&t, NULL, HANDOVER_GATE, &prog) == 0);
	ck_assert((fd = handover_write(&t, &prog)) > 2);
	ck_assert((n = pread(fd, good, sizeof(good), 0)) > 0);
	good_len = (size_t)n;
	close(fd);
}

/* bytes in a new memfd, with seals */
static int
file_of(const void *bytes, size_t len, int seals)
{
	int fd = memfd_create("t_handover", MFD_ALLOW_SEALING | MFD_CLOEXEC);

	ck_assert(fd != -1);
	ck_assert(write(fd, bytes, len) == (ssize_t)len);
	if (seals != 0)
		ck_assert(fcntl(fd, F_ADD_SEALS, seals) == 0);
	return fd;
}

/* handover_read of bytes so sealed: its result, and why. */
static int
read_back(const void *bytes, size_t len, int seals, const char **why)
{
	struct tame_target t;
	int fd = file_of(bytes, len, seals), r;

	*why = "";
	r = handover_read(fd, &t, &prog, why);
	close(fd);
	return r;
}

/* the good file with n bytes at "at" changed */
static int
read_changed(size_t at, size_t n, const void *value, const char **why)
{
	static unsigned char buf[sizeof(good)];

	memcpy(buf, good, good_len);
	memcpy(buf + at, value, n);
	return read_back(buf, good_len, SEALS, why);
}

#define FIELD(f)	offsetof(struct handover_header, f), \
			sizeof(((struct handover_header *)0)->f)

START_TEST(test_the_good_one_is_taken)
{
	const char *why;

	make_good();
	ck_assert_msg(read_back(good, good_len, SEALS, &why) == 0, "%s", why);
}
END_TEST

/* not a handover: somebody's descriptor, to be left alone */
START_TEST(test_not_a_handover)
{
	const char *why;
	char path[] = "/tmp/t_handover.XXXXXX";
	struct tame_target t;
	int fd, p[2];

	make_good();
	/* the right bytes, in a regular file anybody could rewrite */
	ck_assert((fd = mkstemp(path)) != -1);
	unlink(path);
	ck_assert(write(fd, good, good_len) == (ssize_t)good_len);
	ck_assert_int_eq(handover_read(fd, &t, &prog, &why), -1);
	close(fd);
	ck_assert(pipe(p) == 0);
	ck_assert_int_eq(handover_read(p[0], &t, &prog, &why), -1);
	close(p[0]);
	close(p[1]);
	ck_assert_int_eq(handover_read(-1, &t, &prog, &why), -1);
	/* a memfd, but not sealed against every change */
	ck_assert_int_eq(read_back(good, good_len, 0, &why), -1);
	ck_assert_int_eq(read_back(good, good_len, SEALS & ~F_SEAL_WRITE,
	    &why), -1);
	ck_assert_int_eq(read_back(good, good_len, SEALS & ~F_SEAL_GROW,
	    &why), -1);
	ck_assert_str_eq(why, "not a memfd sealed against every change");
	/* sealed, but not ours */
	ck_assert_int_eq(read_changed(0, 8, "TAME-PRG", &why), -1);
	ck_assert_int_eq(read_back(good, 20, SEALS, &why), -1);
	ck_assert_str_eq(why, "no handed-over filter in it");
}
END_TEST

/* a handover that will not do: closed, and the shim compiles */
START_TEST(test_a_handover_refused)
{
	const uint64_t id = tame__build_id + 1;
	const uint32_t version = HANDOVER_VERSION + 1, one = 1;
	const int32_t pid = getpid() + 1;
	const uint16_t zero = 0, huge = TAME_MAXINSN + 1;
	const uint16_t many = TAME_MAXRELOC + 1;
	const struct handover_header *h = (const void *)good;
	struct tame_reloc r;
	const char *why;
	size_t at;

	make_good();
	ck_assert_int_eq(read_changed(FIELD(build_id), &id, &why), 1);
	ck_assert_str_eq(why, "written by another build of libtame");
	ck_assert_int_eq(read_changed(FIELD(version), &version, &why), 1);
	ck_assert_int_eq(read_changed(FIELD(pid), &pid, &why), 1);
	ck_assert_str_eq(why, "made for another process");
	ck_assert_int_eq(read_changed(FIELD(len), &zero, &why), 1);
	ck_assert_int_eq(read_changed(FIELD(len), &huge, &why), 1);
	ck_assert_int_eq(read_changed(FIELD(nreloc), &many, &why), 1);
	ck_assert_int_eq(read_changed(FIELD(reserved), &one, &why), 1);
	ck_assert_int_eq(read_changed(FIELD(size), &one, &why), 1);
	ck_assert_str_eq(why, "its lengths do not add up");
	/* one byte more than the header says */
	ck_assert_int_eq(read_back(good, good_len + 1, SEALS, &why), 1);
	ck_assert_int_eq(read_back(good, good_len - 8, SEALS, &why), 1);

	/* relocations that would rewrite anything but a compare */
	ck_assert(h->nreloc > 0);
	at = sizeof(*h);
	memcpy(&r, good + at, sizeof(r));
	r.at = h->len;
	ck_assert_int_eq(read_changed(at, sizeof(r), &r, &why), 1);
	ck_assert_str_eq(why, "a relocation points outside its compares");
	memcpy(&r, good + at, sizeof(r));
	r.kind = TAME_RELOC_PID + 1;
	ck_assert_int_eq(read_changed(at, sizeof(r), &r, &why), 1);
	memcpy(&r, good + at, sizeof(r));
	r.at = 0;		/* the first instruction loads the arch */
	ck_assert_int_eq(read_changed(at, sizeof(r), &r, &why), 1);
}
END_TEST

static Suite *
handover_suite(void)
{
	Suite *s = suite_create("handover");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, test_the_good_one_is_taken);
	tcase_add_test(tc, test_not_a_handover);
	tcase_add_test(tc, test_a_handover_refused);
	suite_add_tcase(s, tc);
	return s;
}

TAME_TEST_MAIN(handover_suite)
