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

#include "tame.h"

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
	if (tame((int)flags) == -1) {
		fprintf(stderr, "tame-exec: tame: %s\n", strerror(errno));
		_exit(1);
	}
}
