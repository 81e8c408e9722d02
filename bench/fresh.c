/* SPDX-License-Identifier: ISC */
/*
 * fresh: the first tame() as a real program pays it.  run.sh execs this
 * anew for every sample, so nothing of libtame is paged in, compiled or
 * warmed before the call: the program is a dynamically linked PIE with
 * libtame.a, as a port is.  It prints the call's time in microseconds
 * and the minor page faults taken during it (getrusage, read outside the
 * timed call).
 *
 *	fresh tame FLAGS		tame(FLAGS)
 *	fresh again FLAGS1 FLAGS2	tame(FLAGS1), then times tame(FLAGS2)
 *	fresh allow1			a 1-instruction filter instead: the floor
 */
#include <sys/resource.h>

#include <err.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "config.h"

static int
flags_of(const char *s)
{
	int f;

	if (tame_flags_parse(s, &f, NULL) == -1)
		errx(2, "bad flags \"%s\"", s);
	return f;
}

int
main(int argc, char *argv[])
{
	double t0, t1;
	long faults;
	int r, f1 = 0, f2 = 0;

	if (argc == 3 && strcmp(argv[1], "tame") == 0)
		f1 = flags_of(argv[2]);
	else if (argc == 4 && strcmp(argv[1], "again") == 0) {
		f1 = flags_of(argv[2]);
		f2 = flags_of(argv[3]);
		if (tame(f1) == -1)
			err(1, "tame");
		f1 = f2;
	} else if (argc != 2 || strcmp(argv[1], "allow1") != 0) {
		fprintf(stderr, "usage: fresh tame FLAGS | again FLAGS1 FLAGS2 "
		    "| allow1\n");
		return 2;
	}
	faults = clock_minflt();
	t0 = clock_now_us();
	r = argc == 2 ? config_load_allow1() : tame(f1);
	t1 = clock_now_us();
	faults = clock_minflt() - faults;
	if (r == -1)
		err(1, "%s", argv[1]);
	/* stdout is open and RW held in every case measured */
	printf("%.1f %ld\n", t1 - t0, faults);
	return 0;
}
