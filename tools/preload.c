/* SPDX-License-Identifier: ISC */
/*
 * preload.c: the shim tame-exec preloads.  Its constructor runs after the
 * dynamic loader has mapped the program and its libraries, and tames the
 * process with the flags tame-exec passed in TAME_EXEC_FLAGS.  If that
 * fails the program must not run untamed: the shim ends it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handover.h"
#include "tame.h"

/*
 * The filter the launcher compiled, if it handed one over: offered to
 * tame(), which takes it only where it was made for exactly this call.
 * Anything else (no handover, another build's, a forged one) and tame()
 * compiles as it always could; the descriptor is closed if it was one.
 */
static void
take_handover(void)
{
	static struct tame_prog prog;	/* static: tame() copies it later */
	struct tame_target target;
	const char *v = getenv(HANDOVER_ENV), *why;
	char *end;
	long fd;
	int r;

	if (v == NULL)
		return;
	errno = 0;
	fd = strtol(v, &end, 10);
	unsetenv(HANDOVER_ENV);
	if (errno != 0 || *end != '\0' || end == v || fd < 3 || fd > 1 << 20)
		return;
	if ((r = handover_read((int)fd, &target, &prog, &why)) == 0)
		tame__offer(&target, &prog);
	if (r >= 0)
		close((int)fd);
}

static void __attribute__((constructor))
tame_preload(void)
{
	const char *v = getenv("TAME_EXEC_FLAGS");
	char *end;
	long flags;

	if (v == NULL)
		return;		/* loaded by someone else: do nothing */
	errno = 0;
	flags = strtol(v, &end, 16);
	if (errno != 0 || *end != '\0' || flags < 0 || flags > TAME_ALL) {
		fprintf(stderr, "tame-exec: bad TAME_EXEC_FLAGS \"%s\"\n", v);
		_exit(1);
	}
	unsetenv("TAME_EXEC_FLAGS");
	unsetenv("LD_PRELOAD");
	take_handover();
	if (tame((int)flags) == -1) {
		fprintf(stderr, "tame-exec: tame: %s\n", strerror(errno));
		_exit(1);
	}
	tame__offer(NULL, NULL);	/* not taken: nothing left behind */
}
