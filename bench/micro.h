/* SPDX-License-Identifier: ISC */
/*
 * micro.h: what the parts of the micro-benchmark binary share.
 */
#ifndef BENCH_MICRO_H
#define BENCH_MICRO_H

struct config;

/*
 * One call of the measured operation, checked.  The benchmarks call it
 * once before timing so that a configuration which refuses the call
 * (ENOSYS, EACCES) shows as an error rather than as a fast syscall.
 */
typedef int	(*op_fn)(void);

struct op {
	const char	*name;
	op_fn		 fn;
	int		 need;		/* flags it needs; else skipped */
	int		 interleaved;	/* only in micro --interleave runs */
};

/* micro.c: the measured calls, and what a benchmark process sets up. */
extern const struct op	ops[];
extern const int	nops;
void	pin(const char *cpu);
void	open_fds(const struct config *);

/* latency.c: register the tame() latency benchmarks. */
void	register_latency(void);

/*
 * interleave.c: the calls in batches taking turns between configurations
 * (configs: comma-separated names); the rest of argv is its options.
 */
int	interleave_main(const char *configs, int argc, char *argv[]);

#endif /* BENCH_MICRO_H */
