/* SPDX-License-Identifier: ISC */
/*
 * clock.h: the two readings the first-call benchmarks take around a
 * tame() in a fresh process (fresh.c whole, phases.c step by step).
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

/* CLOCK_MONOTONIC, in microseconds. */
double	clock_now_us(void);

/* Minor page faults of this process so far (getrusage ru_minflt). */
long	clock_minflt(void);

#endif /* BENCH_CLOCK_H */
