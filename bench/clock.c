/* SPDX-License-Identifier: ISC */
/*
 * clock.c: see clock.h.
 */
#include <sys/resource.h>

#include <time.h>

#include "clock.h"

double
clock_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

long
clock_minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}
