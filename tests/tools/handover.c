/* SPDX-License-Identifier: ISC */
/*
 * handover: play tame-exec's launcher, handing the shim a filter made
 * here, faithfully or not, then execute the command with the shim.
 *
 *	handover SHIM HOW FLAGS PROGFLAGS -- command [arg ...]
 *
 * The shim is told to tame(FLAGS) and handed the first filter of
 * PROGFLAGS, labelled as FLAGS's own target (handover_target(), as
 * tame-exec labels it).  HOW:
 *	sealed		as the launcher does it
 *	unsealed	the same file without its seals
 *	other-build	sealed, but with another build's number
 *	other-pid	sealed, but made for another process
 *	none		no handover: only the variable, naming descriptor 0
 * tests/cli/handover.sh says what each must do.
 */
#include <sys/mman.h>

#include <err.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "handover.h"
#include "tame.h"

static struct tame_prog prog;

static int
flags_of(const char *s)
{
	const char *bad;
	int flags;

	if (tame_flags_parse(s, &flags, &bad) == -1)
		errx(2, "unknown flag name in \"%s\"", s);
	return flags;
}

/* fd's file in a new memfd, n bytes at "at" changed, sealed or not. */
static int
forge(int fd, size_t at, const void *value, size_t n, int seal)
{
	static char buf[sizeof(struct handover_header) + 64 * 1024];
	ssize_t len = pread(fd, buf, sizeof(buf), 0);
	int out = memfd_create("forged", MFD_ALLOW_SEALING);

	if (len <= 0 || out == -1)
		err(1, "copy");
	if (n > 0)
		memcpy(buf + at, value, n);
	if (write(out, buf, (size_t)len) != len || (seal &&
	    fcntl(out, F_ADD_SEALS, HANDOVER_SEALS) == -1))
		err(1, "forge");
	close(fd);
	return out;
}

int
main(int argc, char *argv[])
{
	struct tame_target label, made;
	char flagsvar[32], progvar[48];
	uint64_t id = tame__build_id ^ 1;
	int32_t pid = getpid() + 1;
	int fd = 0;

	if (argc < 7 || strcmp(argv[5], "--") != 0) {
		fprintf(stderr, "usage: handover shim how flags progflags -- "
		    "command [arg ...]\n");
		return 2;
	}
	handover_target(flags_of(argv[3]), &label);
	handover_target(flags_of(argv[4]), &made);
	if (strcmp(argv[2], "none") != 0) {
		if (tame_compile(&made, NULL, HANDOVER_GATE, &prog) == -1)
			err(1, "compile");
		if ((fd = handover_write(&label, &prog)) == -1)
			err(1, "handover_write");
	}
	if (strcmp(argv[2], "unsealed") == 0)
		fd = forge(fd, 0, NULL, 0, 0);
	else if (strcmp(argv[2], "other-build") == 0)
		fd = forge(fd, offsetof(struct handover_header, build_id),
		    &id, sizeof(id), 1);
	else if (strcmp(argv[2], "other-pid") == 0)
		fd = forge(fd, offsetof(struct handover_header, pid), &pid,
		    sizeof(pid), 1);
	else if (strcmp(argv[2], "sealed") != 0 &&
	    strcmp(argv[2], "none") != 0)
		errx(2, "unknown way \"%s\"", argv[2]);

	snprintf(flagsvar, sizeof(flagsvar), "%#x", flags_of(argv[3]));
	snprintf(progvar, sizeof(progvar), "%d", fd);
	if (setenv("LD_PRELOAD", argv[1], 1) == -1 ||
	    setenv("TAME_EXEC_FLAGS", flagsvar, 1) == -1 ||
	    setenv(HANDOVER_ENV, progvar, 1) == -1)
		err(1, "setenv");
	execvp(argv[6], argv + 6);
	err(127, "%s", argv[6]);
}
