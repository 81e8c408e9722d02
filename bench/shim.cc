/* SPDX-License-Identifier: ISC */
// shim.cc: the one C++ file; hands google-benchmark to bench.h's C API.
//
// The opaque C types are the library's own objects, cast: a bench_state
// is a benchmark::State and a bench is a registered Benchmark, so the
// shim adds nothing to the measured loop beyond one out-of-line call.

#include <benchmark/benchmark.h>

#include "bench.h"

static benchmark::State &
S(struct bench_state *s)
{
	return *reinterpret_cast<benchmark::State *>(s);
}

static benchmark::internal::Benchmark *
B(struct bench *b)
{
	return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}

static struct bench *
C(benchmark::internal::Benchmark *b)
{
	return reinterpret_cast<struct bench *>(b);
}

extern "C" {

struct bench *
bench_register(const char *name, bench_fn fn, void *arg)
{
	return C(benchmark::RegisterBenchmark(name,
	    [fn, arg](benchmark::State &st) {
		fn(reinterpret_cast<struct bench_state *>(&st), arg);
	}));
}

struct bench *
bench_manual_time(struct bench *b)
{
	return C(B(b)->UseManualTime());
}

struct bench *
bench_iterations(struct bench *b, uint64_t n)
{
	return C(B(b)->Iterations(static_cast<benchmark::IterationCount>(n)));
}

struct bench *
bench_repetitions(struct bench *b, int n)
{
	return C(B(b)->Repetitions(n));
}

struct bench *
bench_min_time(struct bench *b, double seconds)
{
	return C(B(b)->MinTime(seconds));
}

int
bench_keep_running(struct bench_state *s)
{
	return S(s).KeepRunning();
}

void
bench_pause(struct bench_state *s)
{
	S(s).PauseTiming();
}

void
bench_resume(struct bench_state *s)
{
	S(s).ResumeTiming();
}

void
bench_set_iteration_time(struct bench_state *s, double seconds)
{
	S(s).SetIterationTime(seconds);
}

void
bench_counter(struct bench_state *s, const char *name, double value)
{
	S(s).counters[name] = benchmark::Counter(value);
}

void
bench_label(struct bench_state *s, const char *label)
{
	S(s).SetLabel(label);
}

void
bench_skip_with_error(struct bench_state *s, const char *msg)
{
	S(s).SkipWithError(msg);
}

uint64_t
bench_max_iterations(struct bench_state *s)
{
	return static_cast<uint64_t>(S(s).max_iterations);
}

int
bench_main(int argc, char *argv[])
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}

}	// extern "C"
