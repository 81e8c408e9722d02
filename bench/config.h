/* SPDX-License-Identifier: ISC */
/*
 * config.h: the confinement configurations the micro-benchmarks compare.
 *
 * A seccomp filter cannot be removed, so each configuration runs in a
 * process of its own (bench/run.sh starts one per configuration and
 * round) and is installed once, on the first benchmark call: by then
 * google-benchmark has opened its output file, which no configuration
 * here could open afterwards.
 */
#ifndef BENCH_CONFIG_H
#define BENCH_CONFIG_H

#include "tame.h"

/* The policy every filtered configuration enforces. */
#define BENCH_FLAGS	(TAME_STDIO | TAME_RPATH | TAME_INET | TAME_IOCTL)

struct config {
	const char	*name;
	const char	*what;		/* one line for the report */
	int		(*install)(void);	/* 0, or -1 with errno */
	int		 no_unix;	/* hold no AF_UNIX socket at tame() */
};

const struct config	*config_find(const char *name);
void			 config_usage(void);
void			 config_list(void);

/* Install the chosen configuration, once; exit if it fails. */
void			 config_select(const struct config *);
void			 config_ensure(void);

/*
 * Load one raw filter program with TSYNC (also used by latency.c), or
 * the 1-instruction RET ALLOW one, or the least one that checks an
 * argument of openat, ioctl and socket, or one that plays a kernel
 * without Landlock (bench/load.c).
 */
struct sock_filter;
int			 config_load_raw(struct sock_filter *, unsigned short);
int			 config_load_allow1(void);
int			 config_load_args1(void);
int			 config_load_no_landlock(void);

/*
 * libseccomp's build of the same policy for flags (tests/oracle.c), and
 * loading it with TSYNC as tame() would.
 */
int			 config_oracle_bpf(int flags, struct sock_filter *,
			    int max);
int			 config_load_libseccomp(int flags);

#endif /* BENCH_CONFIG_H */
