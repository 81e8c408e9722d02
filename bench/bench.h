/* SPDX-License-Identifier: ISC */
/*
 * bench.h: google-benchmark for C programs, through bench/shim.cc.
 *
 * A benchmark is a C function that loops while bench_keep_running() says
 * so.  Everything else (iteration counts, repetitions, aggregates, JSON
 * output, command line flags) is google-benchmark's own.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bench;			/* one registered benchmark */
struct bench_state;		/* the running state of one benchmark */

typedef void	(*bench_fn)(struct bench_state *, void *);

/* Register fn under name; arg is passed to every call. */
struct bench	*bench_register(const char *name, bench_fn fn, void *arg);

/* Options of one registered benchmark; each returns its argument. */
struct bench	*bench_manual_time(struct bench *);
struct bench	*bench_iterations(struct bench *, uint64_t);
struct bench	*bench_repetitions(struct bench *, int);
struct bench	*bench_min_time(struct bench *, double seconds);

/* Inside the function. */
int		 bench_keep_running(struct bench_state *);
void		 bench_pause(struct bench_state *);
void		 bench_resume(struct bench_state *);
void		 bench_set_iteration_time(struct bench_state *,
		    double seconds);
void		 bench_counter(struct bench_state *, const char *name,
		    double value);
void		 bench_label(struct bench_state *, const char *label);
void		 bench_skip_with_error(struct bench_state *, const char *msg);
uint64_t	 bench_max_iterations(struct bench_state *);

/* Parse google-benchmark's flags, run what matches, return 0 or 1. */
int		 bench_main(int argc, char *argv[]);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_H */
