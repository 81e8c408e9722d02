/*
 * micro.h: what the parts of the micro-benchmark binary share.
 */
#ifndef BENCH_MICRO_H
#define BENCH_MICRO_H

/* latency.c: register the tame() latency benchmarks. */
void	register_latency(void);

#endif /* BENCH_MICRO_H */
