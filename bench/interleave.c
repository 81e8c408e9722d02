/* SPDX-License-Identifier: ISC */
/*
 * interleave.c: per-call costs fine enough to tell two configurations
 * apart at the 10 ns level.
 *
 * A filter cannot be removed, so each configuration lives in a process
 * of its own, as in the google-benchmark runs; but instead of one
 * process measuring for seconds and the next one after it, every
 * configuration's process (a "worker", forked from here, pinned to the
 * same CPU) runs one short batch of a call in turn, the order of the
 * workers shuffled anew for each call and round.  A round's batches of
 * one call ran within milliseconds of each other, so the difference of
 * two configurations within a round sees almost none of the drift of
 * the shared host, and the median of those paired differences over
 * hundreds of rounds is what the report judges (bench/report/summary.py,
 * "paired").
 *
 *	micro --interleave=untamed,allow1,tame1 [--calls=getpid,...]
 *	    [--rounds=N] [--batch-ms=MS] [--out=FILE]
 *
 * Writes JSON: per call, the batch size and, per configuration, the
 * per-call time of every round as CPU time (CLOCK_THREAD_CPUTIME_ID,
 * which leaves out the time another tenant holds the CPU), and the
 * median over the rounds of the real time.
 */
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "micro.h"

#define MAXWORKERS	16
#define WARMUP_ROUNDS	3

struct request {
	int	op;		/* index in ops[], or -1: exit */
	long	n;		/* calls in the batch */
};

struct reply {
	int	err;		/* 0, or the errno of the probe call */
	int64_t	cpu_ns;		/* the batch's CPU time */
	int64_t	real_ns;	/* and its real time */
};

struct worker {
	const struct config	*c;
	pid_t			 pid;
	int			 req;	/* we write requests here */
	int			 rep;	/* and read replies here */
};

static struct worker	workers[MAXWORKERS];
static int		nworkers;

static int64_t
clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A worker: install the configuration, then run batches on request. */
static void
serve(const struct config *c, int req, int rep)
{
	struct request q;
	struct reply a;
	const struct op *o;
	int64_t c0, r0;
	long i;

	config_select(c);
	open_fds(c);
	config_ensure();
	while (read(req, &q, sizeof(q)) == sizeof(q) && q.op >= 0 &&
	    q.op < nops) {
		o = &ops[q.op];
		memset(&a, 0, sizeof(a));
		if ((tame_flags_held() & o->need) != o->need)
			a.err = EPERM;
		else if (o->fn() == -1)
			a.err = errno != 0 ? errno : EIO;
		else {
			c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			r0 = clock_ns(CLOCK_MONOTONIC);
			for (i = 0; i < q.n; i++)
				o->fn();
			a.real_ns = clock_ns(CLOCK_MONOTONIC) - r0;
			a.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		}
		if (write(rep, &a, sizeof(a)) != sizeof(a))
			break;
	}
	_exit(0);
}

static void
start_worker(const struct config *c)
{
	struct worker *w;
	int q[2], r[2], i;
	pid_t pid;

	if (nworkers == MAXWORKERS)
		errx(2, "more than %d configurations", MAXWORKERS);
	if (pipe(q) == -1 || pipe(r) == -1)
		err(1, "pipe");
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		/* the other workers' pipes are no business of this one */
		for (i = 0; i < nworkers; i++) {
			close(workers[i].req);
			close(workers[i].rep);
		}
		close(q[1]);
		close(r[0]);
		serve(c, q[0], r[1]);
	}
	close(q[0]);
	close(r[1]);
	w = &workers[nworkers++];
	w->c = c;
	w->pid = pid;
	w->req = q[1];
	w->rep = r[0];
}

static int
batch(struct worker *w, int op, long n, struct reply *a)
{
	struct request q = { op, n };

	if (write(w->req, &q, sizeof(q)) != sizeof(q) ||
	    read(w->rep, a, sizeof(*a)) != sizeof(*a))
		errx(1, "worker %s died", w->c->name);
	return a->err;
}

static void
stop_workers(void)
{
	struct request q = { -1, 0 };
	int i;

	for (i = 0; i < nworkers; i++) {
		(void)write(workers[i].req, &q, sizeof(q));
		close(workers[i].req);
		close(workers[i].rep);
		waitpid(workers[i].pid, NULL, 0);
	}
}

/*
 * Calls per batch so that a batch of op takes about ms milliseconds in
 * the first worker: the median of three probes of a small batch.
 */
static long
calibrate(int op, double ms)
{
	struct reply a;
	int64_t t[3], x;
	long n = 64;
	int i;

	for (i = 0; i < 3; i++) {
		if (batch(&workers[0], op, n, &a) != 0)
			return 0;
		t[i] = a.real_ns;
	}
	/* the median of three */
	if (t[0] > t[1])
		x = t[0], t[0] = t[1], t[1] = x;
	x = t[2] < t[0] ? t[0] : t[2] > t[1] ? t[1] : t[2];
	if (x <= 0)
		x = 1;
	n = (long)(ms * 1e6 / ((double)x / n));
	return n < 16 ? 16 : n;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the n values at v that are not negative (v is sorted). */
static double
median_of(double *v, int n)
{
	int i;

	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n && v[i] < 0; i++)
		;
	v += i;
	n -= i;
	if (n == 0)
		return -1;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A small generator of our own: the order must not depend on libc's. */
static uint64_t
next_random(void)
{
	static uint64_t s = 0x9e3779b97f4a7c15ULL;

	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s;
}

static void
shuffle(int *v, int n)
{
	int i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (int)(next_random() % (uint64_t)(i + 1));
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

static int
op_index(const char *name)
{
	int i;

	for (i = 0; i < nops; i++)
		if (strcmp(ops[i].name, name) == 0)
			return i;
	errx(2, "no call %s", name);
}

int
interleave_main(const char *configs, int argc, char *argv[])
{
	const struct config *c;
	struct reply a;
	char *list, *name, *calls = NULL;
	const char *out = NULL;
	double batch_ms = 2, *cpu, *real;
	long nbatch[64];
	int call[64], ncalls = 0, rounds = 200, order[MAXWORKERS];
	int i, j, k, r;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--calls=", 8) == 0)
			calls = argv[i] + 8;
		else if (strncmp(argv[i], "--rounds=", 9) == 0)
			rounds = atoi(argv[i] + 9);
		else if (strncmp(argv[i], "--batch-ms=", 11) == 0)
			batch_ms = atof(argv[i] + 11);
		else if (strncmp(argv[i], "--out=", 6) == 0)
			out = argv[i] + 6;
		else
			errx(2, "interleave: unknown option %s", argv[i]);
	}
	if (rounds < 1 || batch_ms <= 0)
		errx(2, "interleave: bad --rounds or --batch-ms");
	if (calls == NULL)
		for (i = 0; i < nops && i < 64; i++)
			call[ncalls++] = i;
	else {
		if ((list = strdup(calls)) == NULL)
			err(1, NULL);
		for (name = strtok(list, ","); name != NULL && ncalls < 64;
		    name = strtok(NULL, ","))
			call[ncalls++] = op_index(name);
	}
	if ((list = strdup(configs)) == NULL)
		err(1, NULL);
	for (name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
		if ((c = config_find(name)) == NULL)
			errx(2, "no configuration %s", name);
		start_worker(c);
	}
	if (nworkers < 1)
		errx(2, "interleave: no configuration");
	cpu = calloc((size_t)ncalls * nworkers * rounds, sizeof(*cpu));
	real = calloc((size_t)ncalls * nworkers * rounds, sizeof(*real));
	if (cpu == NULL || real == NULL)
		err(1, NULL);
#define AT(v, ci, w, r)	(v)[((size_t)(ci) * nworkers + (w)) * rounds + (r)]

	for (k = 0; k < ncalls; k++)
		nbatch[k] = calibrate(call[k], batch_ms);
	for (i = 0; i < nworkers; i++)
		order[i] = i;
	for (r = -WARMUP_ROUNDS; r < rounds; r++) {
		if (r >= 0 && r % (rounds / 10 > 0 ? rounds / 10 : 1) == 0) {
			printf("bench: interleaved round %d/%d\n", r + 1,
			    rounds);
			fflush(stdout);
		}
		for (k = 0; k < ncalls; k++) {
			if (nbatch[k] == 0)
				continue;	/* the first worker refused it */
			shuffle(order, nworkers);
			for (j = 0; j < nworkers; j++) {
				i = order[j];
				if (batch(&workers[i], call[k], nbatch[k],
				    &a) != 0) {
					a.cpu_ns = a.real_ns = -1;
				}
				if (r < 0)
					continue;
				AT(cpu, k, i, r) = a.cpu_ns < 0 ? -1 :
				    (double)a.cpu_ns / nbatch[k];
				AT(real, k, i, r) = a.real_ns < 0 ? -1 :
				    (double)a.real_ns / nbatch[k];
			}
		}
	}
	stop_workers();

	if (out == NULL)
		f = stdout;
	else if ((f = fopen(out, "w")) == NULL)
		err(1, "%s", out);
	fprintf(f, "{\"rounds\":%d,\"batch_ms\":%g,\"configs\":[", rounds,
	    batch_ms);
	for (i = 0; i < nworkers; i++)
		fprintf(f, "%s\"%s\"", i ? "," : "", workers[i].c->name);
	fprintf(f, "],\"calls\":[");
	for (k = 0; k < ncalls; k++) {
		fprintf(f, "%s\n{\"call\":\"%s\",\"batch\":%ld,\"results\":{",
		    k ? "," : "", ops[call[k]].name, nbatch[k]);
		for (i = 0; i < nworkers; i++) {
			fprintf(f, "%s\"%s\":{\"cpu\":[", i ? "," : "",
			    workers[i].c->name);
			for (r = 0; nbatch[k] && r < rounds; r++)
				fprintf(f, AT(cpu, k, i, r) < 0 ? "%snull" :
				    "%s%.1f", r ? "," : "", AT(cpu, k, i, r));
			fprintf(f, "],\"real_median\":%.1f}", nbatch[k] ?
			    median_of(&AT(real, k, i, 0), rounds) : -1);
		}
		fprintf(f, "}}");
	}
	fprintf(f, "]}\n");
	if (f != stdout && fclose(f) == EOF)
		err(1, "%s", out);
	return 0;
}
