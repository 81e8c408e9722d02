/*
 * micro.c: the per-system-call benchmarks, one configuration per process.
 *
 *	micro --config=NAME [--file=PATH] [--cpu=N|none] [benchmark flags]
 *	micro --list | --landlock-abi
 *
 * NAME is one of config.c's configurations, or "latency" for the tame()
 * latency benchmarks (latency.c), which fork a child per sample and so
 * run in an untamed parent.  Everything else on the command line goes to
 * google-benchmark.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <netinet/in.h>

#include <err.h>
#include <errno.h>
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
static const char *small_file = "/etc/hostname";

/*
 * One call of the measured operation, checked.  The benchmarks call it
 * once before timing so that a configuration which refuses the call
 * (ENOSYS, EACCES) shows as an error rather than as a fast syscall.
 */
typedef int	(*op_fn)(void);

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

static void
run_op(struct bench_state *s, void *arg)
{
	op_fn op = (op_fn)arg;
	char msg[128];

	config_ensure();
	if (op() == -1) {
		snprintf(msg, sizeof(msg), "probe call failed: %s",
		    strerror(errno));
		bench_skip_with_error(s, msg);
		return;
	}
	while (bench_keep_running(s))
		op();
}

static const struct {
	const char	*name;
	op_fn		 op;
} ops[] = {
	{ "getpid", op_getpid },
	{ "read_1B_devzero", op_read },
	{ "write_1B_devnull", op_write },
	{ "openat_close", op_open_close },
	{ "ioctl_FIONREAD", op_ioctl },
	{ "socket_close_udp", op_socket_close },
};

static void
register_syscalls(void)
{
	char name[64];
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		snprintf(name, sizeof(name), "syscall/%s", ops[i].name);
		bench_register(name, run_op, (void *)ops[i].op);
	}
}

/*
 * Pin to one CPU: the VM has two and the host schedules both, so a
 * migration in the middle of a repetition is a large part of the noise.
 * The last CPU is the default: the first one takes most interrupts.
 */
static void
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

static void
open_fds(void)
{
	if ((fd_zero = open("/dev/zero", O_RDONLY | O_CLOEXEC)) == -1)
		err(1, "/dev/zero");
	if ((fd_null = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		err(1, "/dev/null");
	if (pipe2(pipefd, O_CLOEXEC) == -1)
		err(1, "pipe");
	if (access(small_file, R_OK) == -1)
		err(1, "%s", small_file);
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
	const char *cpu = NULL, *name = NULL;
	int i, n;

	/* take our own options out, leave the rest for google-benchmark */
	for (i = n = 1; i < argc; i++) {
		if (strncmp(argv[i], "--config=", 9) == 0)
			name = argv[i] + 9;
		else if (strncmp(argv[i], "--file=", 7) == 0)
			small_file = argv[i] + 7;
		else if (strncmp(argv[i], "--cpu=", 6) == 0)
			cpu = argv[i] + 6;
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
	if (name == NULL)
		usage();

	pin(cpu);
	if (strcmp(name, "latency") == 0)
		register_latency();
	else {
		if ((c = config_find(name)) == NULL)
			usage();
		config_select(c);
		open_fds();
		register_syscalls();
	}
	return bench_main(argc, argv);
}
