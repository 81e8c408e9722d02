/* SPDX-License-Identifier: ISC */
/*
 * micro.c: the per-system-call benchmarks, one configuration per process.
 *
 *	micro --config=NAME [--file=PATH] [--cpu=N|none] [benchmark flags]
 *	micro --interleave=NAME,... [--calls=CALL,...] [--rounds=N]
 *	    [--batch-ms=MS] [--out=FILE] [--file=PATH] [--cpu=N|none]
 *	micro --list | --landlock-abi
 *
 * NAME is one of config.c's configurations, or "latency" for the tame()
 * latency benchmarks (latency.c), which fork a child per sample and so
 * run in an untamed parent.  Everything else on the command line goes to
 * google-benchmark.  --interleave runs the calls in short batches that
 * take turns between one process per configuration (interleave.c).
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <netinet/in.h>

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "config.h"
#include "micro.h"

/* Descriptors opened before any filter goes in. */
static int	 fd_zero = -1, fd_null = -1, pipefd[2] = { -1, -1 };
static int	 unixpair[2] = { -1, -1 }, udp = -1;
static const char *small_file = "/etc/hostname";
static const char *granted_file = "/etc/localtime";	/* any nonzero set */

static int
op_getpid(void)
{
	return syscall(SYS_getpid) > 0 ? 0 : -1;
}

static int
op_read(void)
{
	char c;

	return read(fd_zero, &c, 1) == 1 ? 0 : -1;
}

static int
op_write(void)
{
	char c = 0;

	return write(fd_null, &c, 1) == 1 ? 0 : -1;
}

static int
op_open_close(void)
{
	int fd;

	if ((fd = openat(AT_FDCWD, small_file, O_RDONLY)) == -1)
		return -1;
	return close(fd);
}

/* A stat by path: under unveil, the supervisor's (lib/sup_unveil.c). */
static int
op_stat(void)
{
	struct stat st;

	return stat(small_file, &st);
}

static int
op_ioctl(void)
{
	int n;

	return ioctl(pipefd[0], FIONREAD, &n);
}

static int
op_socket_close(void)
{
	int fd;

	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) == -1)
		return -1;
	return close(fd);
}

static int
op_open_granted(void)
{
	int fd;

	if ((fd = openat(AT_FDCWD, granted_file, O_RDONLY)) == -1)
		return -1;
	return close(fd);
}

/*
 * What mkstemp() and the removal of its file make beneath /tmp under
 * TMPPATH: both trap, and the SIGSYS handler checks the path and makes
 * them; with Landlock a layer confines them as well, without it the
 * handler's openat2 (RESOLVE_BENEATH a /tmp descriptor) alone does.
 */
static int
op_tmp_create_remove(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/tame-bench.%d", (int)getpid());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) == -1)
		return -1;
	close(fd);
	return unlink(path);
}

/* One byte out and back, as sendmsg and recvmsg with room for control. */
static int
msg_round_trip(int out, int in)
{
	char c = 'm', ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (out == -1) {
		errno = ENOTSOCK;
		return -1;
	}
	if (sendmsg(out, &m, 0) != 1)
		return -1;
	m.msg_control = ctl;
	m.msg_controllen = sizeof(ctl);
	return recvmsg(in, &m, 0) == 1 ? 0 : -1;
}

static int
op_msg_unix(void)
{
	return msg_round_trip(unixpair[0], unixpair[1]);
}

static int
op_msg_udp(void)
{
	return msg_round_trip(udp, udp);
}

/*
 * What glibc's fork, posix_spawn and pthread_create, and dash around
 * each fork, do with the signal mask: block, then put it back.  Tamed,
 * the block traps (the handler sets the mask less SIGSYS, so that a
 * violation then still has its line); the unblock does not.
 */
static int
op_sigmask_block(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return -1;
	return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

static void
run_op(struct bench_state *s, void *arg)
{
	const struct op *o = arg;
	op_fn op = o->fn;
	char msg[128];

	config_ensure();
	if ((tame_flags_held() & o->need) != o->need) {
		bench_skip_with_error(s, "not held in this configuration");
		return;
	}
	if (op() == -1) {
		snprintf(msg, sizeof(msg), "probe call failed: %s",
		    strerror(errno));
		bench_skip_with_error(s, msg);
		return;
	}
	while (bench_keep_running(s))
		op();
}

const struct op ops[] = {
	{ "getpid", op_getpid, 0 },
	{ "read_1B_devzero", op_read, 0 },
	{ "write_1B_devnull", op_write, 0 },
	{ "openat_close", op_open_close, TAME_RPATH },
	{ "stat", op_stat, TAME_RPATH },
	{ "ioctl_FIONREAD", op_ioctl, 0 },
	{ "socket_close_udp", op_socket_close, TAME_INET },
	{ "openat_close_granted", op_open_granted, 0 },
	{ "msg_unix", op_msg_unix, 0 },
	{ "msg_udp", op_msg_udp, 0 },
	{ "sigmask_block", op_sigmask_block, 0 },
	/* the Landlock and openat2 paths of tmppath, side by side only */
	{ "tmp_create_remove", op_tmp_create_remove, TAME_TMPPATH, 1 },
};
const int nops = sizeof(ops) / sizeof(ops[0]);

static void
register_syscalls(void)
{
	char name[64];
	size_t i;

	for (i = 0; i < (size_t)nops; i++) {
		if (ops[i].interleaved)
			continue;
		snprintf(name, sizeof(name), "syscall/%s", ops[i].name);
		bench_register(name, run_op, (void *)&ops[i]);
	}
}

/*
 * Pin to one CPU: the VM has two and the host schedules both, so a
 * migration in the middle of a repetition is a large part of the noise.
 * The last CPU is the default: the first one takes most interrupts.
 */
void
pin(const char *cpu)
{
	cpu_set_t set;
	long n;

	if (cpu != NULL && strcmp(cpu, "none") == 0)
		return;
	n = cpu != NULL ? strtol(cpu, NULL, 10) :
	    sysconf(_SC_NPROCESSORS_ONLN) - 1;
	if (n < 0)
		n = 0;
	CPU_ZERO(&set);
	CPU_SET(n, &set);
	if (sched_setaffinity(0, sizeof(set), &set) == -1)
		warn("sched_setaffinity %ld", n);
}

void
open_fds(const struct config *c)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);

	if ((fd_zero = open("/dev/zero", O_RDONLY | O_CLOEXEC)) == -1)
		err(1, "/dev/zero");
	if ((fd_null = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		err(1, "/dev/null");
	if (pipe2(pipefd, O_CLOEXEC) == -1)
		err(1, "pipe");
	if (access(small_file, R_OK) == -1)
		err(1, "%s", small_file);
	/* a UDP socket connected to itself on loopback */
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 ||
	    bind(udp, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    getsockname(udp, (struct sockaddr *)&sin, &len) == -1 ||
	    connect(udp, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		err(1, "udp socket");
	if (!c->no_unix && socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0,
	    unixpair) == -1)
		err(1, "socketpair");
}

static void
usage(void)
{
	fprintf(stderr, "usage: micro --config=NAME [--file=PATH] "
	    "[--cpu=N|none] [--benchmark_...]\nconfigurations:\n");
	config_usage();
	fprintf(stderr, "\t%-12s %s\n", "latency",
	    "tame() and libseccomp compile+load, fork per sample");
	exit(2);
}

int
main(int argc, char *argv[])
{
	const struct config *c = NULL;
	const char *cpu = NULL, *name = NULL, *il = NULL;
	int i, n;

	/* take our own options out, leave the rest for google-benchmark */
	for (i = n = 1; i < argc; i++) {
		if (strncmp(argv[i], "--config=", 9) == 0)
			name = argv[i] + 9;
		else if (strncmp(argv[i], "--file=", 7) == 0)
			small_file = argv[i] + 7;
		else if (strncmp(argv[i], "--cpu=", 6) == 0)
			cpu = argv[i] + 6;
		else if (strncmp(argv[i], "--interleave=", 13) == 0)
			il = argv[i] + 13;
		else if (strcmp(argv[i], "--landlock-abi") == 0) {
			printf("%d\n", tame_landlock_abi());
			return 0;
		} else if (strcmp(argv[i], "--list") == 0) {
			config_list();
			return 0;
		}
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	argc = n;
	if (il != NULL) {
		pin(cpu);
		return interleave_main(il, argc, argv);
	}
	if (name == NULL)
		usage();

	pin(cpu);
	if (strcmp(name, "latency") == 0)
		register_latency();
	else {
		if ((c = config_find(name)) == NULL)
			usage();
		config_select(c);
		open_fds(c);
		register_syscalls();
	}
	return bench_main(argc, argv);
}
