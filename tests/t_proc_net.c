/* SPDX-License-Identifier: ISC */
/*
 * t_proc_net.c: the memory, descriptor, network, ioctl and process half
 * of the conformance matrix.
 *
 * Every test really tames a grandchild (h_run) and really calls the
 * kernel; each flag is tested in both polarities: what it allows works,
 * and what it does not allow kills with a report naming the missing flag
 * (or soft-fails with the documented errno).  Where a refused call would
 * have had an effect visible outside the dead process (a datagram, a
 * child, a signal, a file), the untamed test process checks that the
 * effect did not happen.
 *
 * Bodies return 0 for success and a distinct small number for each step
 * that can go wrong, so a failure message says which step it was.
 * REACHED is what a body returns when a call that should have killed it
 * returned instead.
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/if_ether.h>
#include <linux/mempolicy.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "sys.h"
#include "harness.h"
#include "sibling.h"
#include "pledge.h"

#define REACHED		99	/* a killing call returned */
#define TIMEOUT		30	/* per test; h_run gives up at 10 s */

/* What setup hooks hand to bodies, inside one grandchild. */
struct ctx {
	int		 fd[4];
	pid_t		 pid;
	pthread_t	 thr;
	struct sockaddr_storage ss;
	socklen_t	 sslen;
	char		 path[PATH_MAX];
	int		 n;		/* a command, a number */
};

static volatile sig_atomic_t	caught;

static void
on_usr1(int sig)
{
	(void)sig;
	caught++;
}

static void
ctx_init(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->fd[0] = c->fd[1] = c->fd[2] = c->fd[3] = -1;
}

/* Violations dump core where limits allow: keep the tree clean. */
static void
fixture_setup(void)
{
	struct rlimit rl = { 0, 0 };

	setrlimit(RLIMIT_CORE, &rl);
}

static void
fixture_teardown(void)
{
	h_cleanup();
}

/* The report must not be there at all (tame(0), abort()). */
static void
assert_no_report(const struct outcome *o)
{
	ck_assert_msg(strstr(o->err, "tame:") == NULL,
	    "unexpected report on stderr: %s", o->err);
}

static int
read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len > 0) {
		if ((n = read(fd, p, len)) <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Send "ping" one way and "pong" back, with write/read and send/recv. */
static int
ping_pong(int a, int b)
{
	char buf[4];

	if (write(a, "ping", 4) != 4)
		return 40;
	if (read_full(b, buf, 4) == -1 || memcmp(buf, "ping", 4) != 0)
		return 41;
	if (send(b, "pong", 4, 0) != 4)
		return 42;
	if (recv(a, buf, 4, MSG_WAITALL) != 4 || memcmp(buf, "pong", 4) != 0)
		return 43;
	return 0;
}

static socklen_t
loopback(int family, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_loopback;
		return sizeof(*sin6);
	}
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sizeof(*sin);
}

/* A socket of type bound to the loopback address, port chosen by the kernel. */
static int
bound_socket(int family, int type, struct sockaddr_storage *ss,
    socklen_t *len)
{
	int one = 1, s;

	*len = loopback(family, ss);
	if ((s = socket(family, type, 0)) == -1)
		return -1;
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == -1 ||
	    bind(s, (struct sockaddr *)ss, *len) == -1 ||
	    getsockname(s, (struct sockaddr *)ss, len) == -1 ||
	    (type == SOCK_STREAM && listen(s, 4) == -1)) {
		close(s);
		return -1;
	}
	return s;
}

/* Connect to a listener, accept, and exchange bytes both ways. */
static int
tcp_exchange(int family, int lsn, const struct sockaddr_storage *ss,
    socklen_t len)
{
	int cl, sv, r;

	cl = socket(family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	if (cl == -1)
		return 30;
	if (connect(cl, (const struct sockaddr *)ss, len) == -1)
		return 31;
	if ((sv = accept4(lsn, NULL, NULL, SOCK_CLOEXEC)) == -1)
		return 32;
	if ((r = ping_pong(cl, sv)) != 0)
		return r;
	if (shutdown(cl, SHUT_WR) == -1)
		return 33;
	close(cl);
	close(sv);
	return 0;
}

static int
pty_open(int *master, int *slave)
{
	const char *name;
	int m, s;

	if ((m = posix_openpt(O_RDWR | O_NOCTTY)) == -1)
		return -1;
	if (grantpt(m) == -1 || unlockpt(m) == -1 ||
	    (name = ptsname(m)) == NULL ||
	    (s = open(name, O_RDWR | O_NOCTTY)) == -1) {
		close(m);
		return -1;
	}
	*master = m;
	*slave = s;
	return 0;
}

/* setup hook: a pseudo-terminal, opened before tame like a real program. */
static int
setup_pty(void *arg)
{
	struct ctx *c = arg;

	return pty_open(&c->fd[0], &c->fd[1]);
}

/*
 * MALLOC: memory, never executable.
 */

static int
body_malloc_large(void *arg)
{
	char *p, *q;
	int i;

	(void)arg;
	/* 64 MiB is far above the mmap threshold: mmap, then mremap, munmap */
	if ((p = malloc(64 << 20)) == NULL)
		return 1;
	memset(p, 0x5a, 64 << 20);
	if ((q = realloc(p, 128 << 20)) == NULL)
		return 2;
	if (q[(64 << 20) - 1] != 0x5a)
		return 3;
	free(q);
	/* many small blocks: brk */
	for (i = 0; i < 10000; i++) {
		if ((p = malloc(100)) == NULL)
			return 4;
		memset(p, 1, 100);
		if (i % 3)
			free(p);
	}
	if ((p = calloc(1 << 20, 4)) == NULL || p[12345] != 0)
		return 5;
	free(p);
	return 0;
}

START_TEST(test_malloc_large_blocks_work)
{
	struct outcome o = h_run(TAME_MALLOC, NULL, body_malloc_large, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_mmap_family(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p, *q;

	(void)arg;
	p = (char *)syscall(SYS_mmap, NULL, pg, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	p[0] = 1;
	if (syscall(SYS_mprotect, p, pg, PROT_READ) == -1)
		return 2;
	if (syscall(SYS_mprotect, p, pg, PROT_READ | PROT_WRITE) == -1)
		return 3;
	p[1] = 2;
	q = (char *)syscall(SYS_mremap, p, pg, 16 * pg, MREMAP_MAYMOVE);
	if (q == MAP_FAILED || q[0] != 1 || q[1] != 2)
		return 4;
	q[15 * pg] = 3;
	if (syscall(SYS_madvise, q, 16 * pg, MADV_DONTNEED) == -1)
		return 5;
	if (syscall(SYS_munmap, q, 16 * pg) == -1)
		return 6;
	/* and the glibc spellings */
	if ((p = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0)) == MAP_FAILED)
		return 7;
	if (mprotect(p, pg, PROT_READ | PROT_WRITE) == -1)
		return 8;
	p[0] = 1;
	if (munmap(p, pg) == -1)
		return 9;
	return 0;
}

START_TEST(test_mmap_mremap_mprotect_work)
{
	struct outcome o = h_run(TAME_MALLOC, NULL, body_mmap_family, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_mmap_needs_malloc)
{
	struct outcome o = h_run(TAME_RW, NULL, body_mmap_family, NULL);

	ck_assert_violation(o, "mmap", "malloc");
}
END_TEST

static int
body_mmap_exec(void *arg)
{
	void *p;

	(void)arg;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? 1 : REACHED;
}

/* W^X: all code is loaded before tame; no flag brings PROT_EXEC back. */
START_TEST(test_mmap_exec_kills_even_with_all)
{
	struct outcome o = h_run(TAME_ALL, NULL, body_mmap_exec, NULL);

	ck_assert_violation(o, "mmap", "not allowed");
}
END_TEST

static int
body_mprotect_exec(void *arg)
{
	void *p;

	(void)arg;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) == -1)
		return 2;
	return REACHED;
}

START_TEST(test_mprotect_exec_kills_even_with_all)
{
	struct outcome o = h_run(TAME_ALL, NULL, body_mprotect_exec, NULL);

	ck_assert_violation(o, "mprotect", "not allowed");
}
END_TEST

static void *
thread_sum(void *arg)
{
	long n = (long)arg, i, *v, sum = 0;

	/* a thread allocates in an arena of its own: mmap, mprotect */
	if ((v = malloc(n * sizeof(*v))) == NULL)
		return (void *)-1L;
	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = 0; i < n; i++)
		sum += v[i];
	free(v);
	return (void *)sum;
}

static int
body_threads(void *arg)
{
	pthread_t t[4];
	void *ret;
	int i;

	(void)arg;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, thread_sum, (void *)1000L) != 0)
			return 1 + i;
	for (i = 0; i < 4; i++) {
		if (pthread_join(t[i], &ret) != 0)
			return 10 + i;
		if ((long)ret != 999L * 1000 / 2)
			return 20 + i;
	}
	return 0;
}

/* clone3 is soft-denied with ENOSYS, so glibc falls back to clone. */
START_TEST(test_pthread_create_join_work_under_stdio)
{
	struct outcome o = h_run(TAME_MALLOC | TAME_RW, NULL, body_threads,
	    NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_raw_clone3(void *arg)
{
	struct clone_args ca;
	long r;

	(void)arg;
	/* a plain fork if it ever got through: make that visible */
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	errno = 0;
	r = syscall(SYS_clone3, &ca, sizeof(ca));
	if (r == 0)
		_exit(97);
	if (r > 0)
		return REACHED;
	return errno == ENOSYS ? 0 : 1;
}

/* Even PROC does not allow clone3: its flags live in memory (_i: ALL). */
START_TEST(test_raw_clone3_is_enosys)
{
	struct outcome o = h_run(_i ? TAME_ALL : TAME_STDIO, NULL,
	    body_raw_clone3, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_getrandom(void *arg)
{
	unsigned char buf[64];

	(void)arg;
	if (syscall(SYS_getrandom, buf, 32, 0) != 32)
		return 1;
	if (getrandom(buf, sizeof(buf), GRND_NONBLOCK) != sizeof(buf))
		return 2;
	return 0;
}

START_TEST(test_getrandom_works_under_malloc)
{
	struct outcome o = h_run(TAME_MALLOC, NULL, body_getrandom, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_getrandom_needs_malloc)
{
	struct outcome o = h_run(TAME_RW, NULL, body_getrandom, NULL);

	ck_assert_violation(o, "getrandom", "malloc");
}
END_TEST

/*
 * RW: I/O and housekeeping on descriptors already open.
 */

static int
body_pipe_io(void *arg)
{
	struct pollfd pfd;
	struct timeval tv = { 0, 0 };
	fd_set rs;
	char buf[8];
	int p[2], q[2], d;

	(void)arg;
	if (pipe(p) == -1)
		return 1;
	if (syscall(SYS_pipe2, q, O_CLOEXEC) == -1)
		return 2;
	if (write(p[1], "abc", 3) != 3)
		return 3;
	pfd.fd = p[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) != 1 || (pfd.revents & POLLIN) == 0)
		return 4;
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	if (select(p[0] + 1, &rs, NULL, NULL, &tv) != 1 || !FD_ISSET(p[0], &rs))
		return 5;
	if ((d = dup(p[0])) == -1)
		return 6;
	if (read(d, buf, 1) != 1 || buf[0] != 'a')
		return 7;
	if (dup2(p[0], q[0]) != q[0])
		return 8;
	if (read(q[0], buf, 1) != 1 || buf[0] != 'b')
		return 9;
	if (dup3(p[0], d, O_CLOEXEC) != d)
		return 10;
	if (read(d, buf, 1) != 1 || buf[0] != 'c')
		return 11;
	if (close(d) == -1 || close(q[0]) == -1 || close(q[1]) == -1)
		return 12;
	if (close(p[1]) == -1 || read(p[0], buf, 1) != 0)
		return 13;
	return close(p[0]) == -1 ? 14 : 0;
}

/* The process's own signals as a descriptor: RW's, like a pipe. */
static int
body_signalfd(void *arg)
{
	struct signalfd_siginfo si;
	sigset_t set;
	int fd;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1)
		return 1;
	if ((fd = signalfd(-1, &set, SFD_CLOEXEC)) == -1)
		return 2;
	if (raise(SIGUSR1) != 0)
		return 3;
	if (read(fd, &si, sizeof(si)) != sizeof(si) ||
	    si.ssi_signo != SIGUSR1)
		return 4;
	return 0;
}

START_TEST(test_signalfd_works_under_rw)
{
	struct outcome o = h_run(TAME_RW, NULL, body_signalfd, NULL);

	ck_assert_exit(o, 0);
	/* without rw the line cannot be written: SIGSYS alone */
	o = h_run(TAME_MALLOC, NULL, body_signalfd, NULL);
	ck_assert_signal(o, SIGSYS);
	o = h_run(TAME_MALLOC | TAME_RW, NULL, body_signalfd, NULL);
	ck_assert_exit(o, 0);
}
END_TEST

/* msync and mincore only touch the process's own mappings. */
static int
body_msync_mincore(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char vec[1];
	char *p;

	(void)arg;
	if ((p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		return 1;
	p[0] = 1;
	if (mincore(p, pg, vec) == -1 || (vec[0] & 1) == 0)
		return 2;
	return msync(p, pg, MS_SYNC) == -1 ? 3 : 0;
}

START_TEST(test_msync_mincore_work_under_malloc)
{
	struct outcome o = h_run(TAME_MALLOC, NULL, body_msync_mincore, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * Advisory locks on descriptors already open are RW's: flock and the
 * POSIX and OFD record locks of fcntl (sqlite, dpkg, mail spools).
 */
static int
body_locks(void *arg)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = *(int *)arg;

	if (flock(fd, LOCK_EX | LOCK_NB) == -1 || flock(fd, LOCK_UN) == -1)
		return 1;
	if (fcntl(fd, F_SETLK, &fl) == -1 || fcntl(fd, F_GETLK, &fl) == -1)
		return 2;
	fl.l_type = F_UNLCK;
	if (fcntl(fd, F_SETLKW, &fl) == -1)
		return 3;
	fl.l_type = F_RDLCK;
	fl.l_pid = 0;
	if (fcntl(fd, F_OFD_SETLK, &fl) == -1 || fcntl(fd, F_OFD_GETLK,
	    &fl) == -1)
		return 4;
	return 0;
}

static int
body_flock_only(void *arg)
{
	flock(*(int *)arg, LOCK_EX | LOCK_NB);
	return REACHED;
}

static int
body_setlk_only(void *arg)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	fcntl(*(int *)arg, F_SETLK, &fl);
	return REACHED;
}

static int
body_setlk_pledged(void *arg)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (pledge("stdio rpath", NULL) == -1)
		return 100;
	/* stdio without flock: OpenBSD's locks are flock's */
	fcntl(*(int *)arg, F_SETLK, &fl);
	return REACHED;
}

START_TEST(test_locks_work_under_rw)
{
	char path[] = "/var/tmp/tame-lock.XXXXXX";
	struct outcome o;
	int fd;

	ck_assert_int_ge(fd = mkstemp(path), 0);
	unlink(path);
	o = h_run(TAME_RW, NULL, body_locks, &fd);
	ck_assert_exit(o, 0);
	/* without rw: SIGSYS, and no line (write(2) is rw's) */
	o = h_run(TAME_MALLOC, NULL, body_flock_only, &fd);
	ck_assert_signal(o, SIGSYS);
	ck_assert_str_eq(o.err, "");
	o = h_run(TAME_MALLOC, NULL, body_setlk_only, &fd);
	ck_assert_signal(o, SIGSYS);
	/* with rw but not flock (pledge's stdio has it): the line */
	o = h_run(H_NO_TAME, NULL, body_setlk_pledged, &fd);
	ck_assert_signal(o, SIGSYS);
	ck_assert_msg(strstr(o.err, "fcntl F_SETLK ") != NULL,
	    "the line should name F_SETLK: %s", o.err);
	close(fd);
}
END_TEST

START_TEST(test_pipe_dup_poll_select_work_under_rw)
{
	struct outcome o = h_run(TAME_RW, NULL, body_pipe_io, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/* setup hook: an anonymous file, made before tame (no path flag needed). */
static int
setup_memfd(void *arg)
{
	struct ctx *c = arg;

	return (c->fd[0] = memfd_create("t_proc_net", MFD_CLOEXEC)) == -1;
}

static int
body_lseek(void *arg)
{
	struct ctx *c = arg;
	char buf[8];

	if (write(c->fd[0], "hello", 5) != 5)
		return 1;
	if (lseek(c->fd[0], 1, SEEK_SET) != 1)
		return 2;
	if (read(c->fd[0], buf, 4) != 4 || memcmp(buf, "ello", 4) != 0)
		return 3;
	if (lseek(c->fd[0], 0, SEEK_END) != 5)
		return 4;
	if (pread(c->fd[0], buf, 2, 0) != 2 || memcmp(buf, "he", 2) != 0)
		return 5;
	return 0;
}

START_TEST(test_lseek_read_write_work_under_rw)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	o = h_run(TAME_RW, setup_memfd, body_lseek, &c);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_fcntl(void *arg)
{
	int p[2], fl, fd;

	(void)arg;
	if (pipe(p) == -1)
		return 1;
	if ((fl = fcntl(p[0], F_GETFL)) == -1)
		return 2;
	if (fcntl(p[0], F_SETFL, fl | O_NONBLOCK) == -1 ||
	    (fcntl(p[0], F_GETFL) & O_NONBLOCK) == 0)
		return 3;
	if (fcntl(p[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(p[0], F_GETFD) != FD_CLOEXEC)
		return 4;
	if ((fd = fcntl(p[0], F_DUPFD_CLOEXEC, 100)) < 100 ||
	    fcntl(fd, F_GETFD) != FD_CLOEXEC)
		return 5;
	if ((fd = fcntl(p[0], F_DUPFD, 200)) < 200)
		return 6;
	return 0;
}

START_TEST(test_fcntl_housekeeping_works_under_rw)
{
	struct outcome o = h_run(TAME_RW, NULL, body_fcntl, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
setup_sealable(void *arg)
{
	struct ctx *c = arg;

	c->fd[0] = memfd_create("t_proc_net", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	return c->fd[0] == -1 || pipe(&c->fd[1]) == -1;
}

/*
 * fcntl's commands on the process's own descriptors, as real programs
 * use them: a pipe's buffer (bash asks before writing a here-document),
 * a memfd's seals, whom SIGIO would go to, the lease held; then a seal
 * really holds, and the pipe really grew.
 */
static int
body_fcntl_own(void *arg)
{
	struct ctx *c = arg;
	struct f_owner_ex owner;
	int size;

	if ((size = fcntl(c->fd[1], F_GETPIPE_SZ)) <= 0)
		return 1;
	if (fcntl(c->fd[1], F_SETPIPE_SZ, 2 * size) < 2 * size ||
	    fcntl(c->fd[1], F_GETPIPE_SZ) < 2 * size)
		return 2;
	if (fcntl(c->fd[0], F_GET_SEALS) != 0 ||
	    fcntl(c->fd[0], F_ADD_SEALS, F_SEAL_GROW) == -1 ||
	    fcntl(c->fd[0], F_GET_SEALS) != F_SEAL_GROW)
		return 3;
	if (write(c->fd[0], "x", 1) != -1 || errno != EPERM)
		return 4;	/* the seal holds: the memfd cannot grow */
	if (fcntl(c->fd[1], F_GETSIG) != 0 ||
	    fcntl(c->fd[1], F_GETOWN_EX, &owner) == -1)
		return 5;
	if (fcntl(c->fd[0], F_GETLEASE) != F_UNLCK)
		return 6;
	return 0;
}

START_TEST(test_fcntl_own_descriptors_work_under_rw)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	o = h_run(TAME_RW, setup_sealable, body_fcntl_own, &c);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_fcntl_cmd(void *arg)
{
	struct ctx *c = arg;

	fcntl(c->fd[0], c->n, c->n == F_NOTIFY ? DN_CREATE : F_RDLCK);
	return REACHED;
}

/*
 * A lease holds back other processes' opens (PROC); dnotify watches what
 * others do in a directory, refused whatever the flags: each dies with
 * its line, and under PROC the lease is taken.
 */
START_TEST(test_fcntl_lease_needs_proc_and_notify_kills)
{
	char path[] = "/tmp/t_proc_net.XXXXXX";
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	ck_assert_int_ne(c.fd[0] = mkstemp(path), -1);
	unlink(path);
	c.n = F_SETLEASE;
	o = h_run(TAME_STDIO, NULL, body_fcntl_cmd, &c);
	ck_assert_signal(o, SIGSYS);
	ck_assert_msg(h_reported(o.err, "fcntl", "proc"), "no report: %s",
	    o.err);
	o = h_run(TAME_STDIO | TAME_PROC, NULL, body_fcntl_cmd, &c);
	ck_assert_exit(o, REACHED);
	ck_assert_int_ne(c.fd[0] = open("/tmp", O_RDONLY | O_DIRECTORY), -1);
	c.n = F_NOTIFY;
	o = h_run(TAME_ALL, NULL, body_fcntl_cmd, &c);
	ck_assert_signal(o, SIGSYS);
	ck_assert_msg(h_reported(o.err, "fcntl", NULL), "no report: %s",
	    o.err);
}
END_TEST

static int
body_setown(void *arg)
{
	struct ctx *c = arg;

	if (fcntl(c->fd[0], F_SETOWN, getpid()) == -1)
		return 1;
	return REACHED;
}

/*
 * F_SETOWN directs SIGIO/SIGURG at a process or group: in pledge it needs
 * proc, here it is outside the table altogether.  The socket is shared
 * with the untamed test process, which sees that no owner was set.
 */
START_TEST(test_fcntl_setown_kills)
{
	struct ctx c;
	struct outcome o;
	int sv[2];

	ctx_init(&c);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	c.fd[0] = sv[0];
	o = h_run(TAME_STDIO, NULL, body_setown, &c);
	ck_assert_signal(o, SIGSYS);
	ck_assert_msg(h_reported(o.err, "fcntl", NULL), "no report: %s", o.err);
	ck_assert_int_eq(fcntl(sv[0], F_GETOWN), 0);
}
END_TEST

static int
body_fionread(void *arg)
{
	int p[2], n = -1;

	(void)arg;
	if (pipe(p) == -1)
		return 1;
	if (write(p[1], "12345", 5) != 5)
		return 2;
	if (ioctl(p[0], FIONREAD, &n) == -1)
		return 3;
	if (n != 5)
		return 4;
	n = 1;
	if (ioctl(p[0], FIONBIO, &n) == -1)
		return 5;
	return 0;
}

START_TEST(test_ioctl_fionread_works_under_rw)
{
	struct outcome o = h_run(TAME_RW, NULL, body_fionread, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_isatty(void *arg)
{
	struct ctx *c = arg;

	errno = 0;
	if (isatty(c->fd[1]))
		return 1;
	return errno == ENOTTY ? 0 : 2;
}

/*
 * isatty() is TCGETS; libc and stdio probe it everywhere, so without
 * IOCTL it is answered "not a terminal" (on a real terminal), not a kill.
 */
START_TEST(test_isatty_without_ioctl_is_enotty)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	o = h_run(TAME_STDIO, setup_pty, body_isatty, &c);
	ck_assert_exit(o, 0);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/*
 * Without IOCTL the process sees no terminal: the read-only queries
 * (window size, process group, session) fail with ENOTTY, as isatty's
 * TCGETS does, instead of killing; curl asks for the window size of its
 * standard input whatever it is.
 */
static int
body_tty_queries(void *arg)
{
	struct ctx *c = arg;
	struct winsize ws;
	pid_t pg;

	if (ioctl(c->fd[1], TIOCGWINSZ, &ws) != -1 || errno != ENOTTY)
		return 1;
	if (ioctl(c->fd[1], TIOCGPGRP, &pg) != -1 || errno != ENOTTY)
		return 2;
	if (ioctl(c->fd[1], TIOCGSID, &pg) != -1 || errno != ENOTTY)
		return 3;
	return 0;
}

static int
body_tiocgwinsz(void *arg)
{
	struct ctx *c = arg;
	struct winsize ws;

	return ioctl(c->fd[1], TIOCGWINSZ, &ws) == 0 ? 0 : 1;
}

START_TEST(test_tty_queries_without_ioctl_see_no_terminal)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	o = h_run(TAME_STDIO, setup_pty, body_tty_queries, &c);
	ck_assert_exit(o, 0);
	ck_assert_str_eq(o.err, "");
	ctx_init(&c);
	o = h_run(TAME_STDIO | TAME_IOCTL, setup_pty, body_tiocgwinsz, &c);
	ck_assert_exit(o, 0);
}
END_TEST

/* Untamed parent: a UDP receiver and a sender the grandchild inherits. */
static void
udp_pair(struct ctx *c, int connected)
{
	struct timeval tv = { 5, 0 };	/* bounds a hang; no timing */
	int rx, tx;

	ctx_init(c);
	rx = bound_socket(AF_INET, SOCK_DGRAM, &c->ss, &c->sslen);
	ck_assert_int_ge(rx, 0);
	ck_assert_int_eq(setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv,
	    sizeof(tv)), 0);
	ck_assert_int_ge(tx = socket(AF_INET, SOCK_DGRAM, 0), 0);
	if (connected)
		ck_assert_int_eq(connect(tx, (struct sockaddr *)&c->ss,
		    c->sslen), 0);
	c->fd[0] = rx;
	c->fd[1] = tx;
}

static int
body_sendto_addr(void *arg)
{
	struct ctx *c = arg;

	if (sendto(c->fd[1], "x", 1, 0, (struct sockaddr *)&c->ss,
	    c->sslen) != 1)
		return 1;
	return 0;
}

/* An address makes sendto a network call: RW alone may only reply. */
START_TEST(test_sendto_with_address_needs_network)
{
	struct ctx c;
	struct outcome o;
	char b;

	udp_pair(&c, 0);
	o = h_run(TAME_RW, NULL, body_sendto_addr, &c);
	ck_assert_violation(o, "sendto", "inet");
	ck_assert(h_reported(o.err, "sendto", "unix"));
	ck_assert(h_reported(o.err, "sendto", "dnspath"));
	ck_assert_int_eq(recv(c.fd[0], &b, 1, MSG_DONTWAIT), -1);
	ck_assert_int_eq(errno, EAGAIN);
}
END_TEST

START_TEST(test_sendto_with_address_works_under_inet)
{
	struct ctx c;
	struct outcome o;
	char b = 0;

	udp_pair(&c, 0);
	o = h_run(TAME_INET, NULL, body_sendto_addr, &c);
	ck_assert_exit(o, 0);
	ck_assert_int_eq(recv(c.fd[0], &b, 1, 0), 1);
	ck_assert_int_eq(b, 'x');
}
END_TEST

static int
body_send_connected(void *arg)
{
	struct ctx *c = arg;

	return send(c->fd[1], "y", 1, 0) == 1 ? 0 : 1;
}

/* send() is sendto with a NULL address: plain I/O, RW is enough. */
START_TEST(test_send_without_address_works_under_rw)
{
	struct ctx c;
	struct outcome o;
	char b = 0;

	udp_pair(&c, 1);
	o = h_run(TAME_RW, NULL, body_send_connected, &c);
	ck_assert_exit(o, 0);
	ck_assert_int_eq(recv(c.fd[0], &b, 1, 0), 1);
	ck_assert_int_eq(b, 'y');
}
END_TEST

/*
 * IOCTL: the terminal set, on a pseudo-terminal opened before tame.
 */

static int
body_pty_ioctls(void *arg)
{
	struct ctx *c = arg;
	struct termios t;
	struct winsize ws = { .ws_row = 33, .ws_col = 101 }, got;

	if (!isatty(c->fd[1]))
		return 1;
	if (tcgetattr(c->fd[1], &t) == -1)
		return 2;
	t.c_lflag &= ~ECHO;
	if (tcsetattr(c->fd[1], TCSANOW, &t) == -1)
		return 3;
	if (tcgetattr(c->fd[1], &t) == -1 || (t.c_lflag & ECHO) != 0)
		return 4;
	if (ioctl(c->fd[1], TIOCSWINSZ, &ws) == -1)
		return 5;
	memset(&got, 0, sizeof(got));
	if (ioctl(c->fd[0], TIOCGWINSZ, &got) == -1)
		return 6;
	if (got.ws_row != 33 || got.ws_col != 101)
		return 7;
	return 0;
}

START_TEST(test_pty_termios_and_winsize_work_with_ioctl)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	o = h_run(TAME_STDIO | TAME_IOCTL, setup_pty, body_pty_ioctls, &c);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_tiocsti(void *arg)
{
	struct ctx *c = arg;
	char ch = 'x';

	if (ioctl(c->fd[1], TIOCSTI, &ch) == -1)
		return 1;
	return REACHED;
}

/*
 * TIOCSTI types into a terminal's input: never, whatever the flags.  The
 * terminal is the untamed process's, which sees that nothing was typed
 * (raw mode, so one character would be readable at once).
 */
START_TEST(test_tiocsti_kills_even_with_all)
{
	struct ctx c;
	struct outcome o;
	struct termios t;
	int n = -1;

	ctx_init(&c);
	ck_assert_int_eq(pty_open(&c.fd[0], &c.fd[1]), 0);
	ck_assert_int_eq(tcgetattr(c.fd[1], &t), 0);
	cfmakeraw(&t);
	ck_assert_int_eq(tcsetattr(c.fd[1], TCSANOW, &t), 0);
	o = h_run(TAME_ALL, NULL, body_tiocsti, &c);
	ck_assert_violation(o, "ioctl", "not allowed");
	ck_assert_msg(strstr(o.err, ": tame: ioctl TIOCSTI is not") != NULL,
	    "the line should name TIOCSTI: %s", o.err);
	ck_assert_int_eq(ioctl(c.fd[1], FIONREAD, &n), 0);
	ck_assert_int_eq(n, 0);
}
END_TEST

/*
 * tame(0): exit and exit_group only, and death without a word.
 */

static int
body_exit7(void *arg)
{
	(void)arg;
#ifdef __SANITIZE_ADDRESS__
	/* ASan's hook before a noreturn call needs sigaltstack (harness.c) */
	syscall(SYS_exit_group, 7);
#endif
	_exit(7);
}

START_TEST(test_tame0_exit_works)
{
	struct outcome o = h_run(0, NULL, body_exit7, NULL);

	ck_assert_exit(o, 7);
	ck_assert_str_eq(o.err, "");
}
END_TEST

static int
body_getpid(void *arg)
{
	(void)arg;
	syscall(SYS_getpid);
	getpid();
	return REACHED;
}

START_TEST(test_tame0_getpid_kills_silently)
{
	struct outcome o = h_run(0, NULL, body_getpid, NULL);

	ck_assert_signal(o, SIGSYS);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/* The same calls are in the base set of any nonzero tame: they return. */
START_TEST(test_getpid_works_under_any_flag)
{
	struct outcome o = h_run(TAME_PROC, NULL, body_getpid, NULL);

	ck_assert_exit(o, REACHED);
}
END_TEST

/*
 * INET: TCP and UDP on the loopback, never raw or packet sockets.
 */

static int
body_tcp_all_tamed(void *arg)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int family = *(int *)arg, lsn;

	if ((lsn = bound_socket(family, SOCK_STREAM, &ss, &len)) == -1)
		return 1;
	return tcp_exchange(family, lsn, &ss, len);
}

/* The tamed code makes the listener itself: socket, bind, listen. */
START_TEST(test_tcp_loopback_exchange_works_under_inet)
{
	int family = AF_INET;
	struct outcome o = h_run(TAME_STDIO | TAME_INET, NULL,
	    body_tcp_all_tamed, &family);

	ck_assert_exit(o, 0);
}
END_TEST

START_TEST(test_tcp6_loopback_exchange_works_under_inet)
{
	int family = AF_INET6;
	struct outcome o = h_run(TAME_STDIO | TAME_INET, NULL,
	    body_tcp_all_tamed, &family);

	ck_assert_exit(o, 0);
}
END_TEST

static int
setup_listener(void *arg)
{
	struct ctx *c = arg;

	c->fd[0] = bound_socket(AF_INET, SOCK_STREAM, &c->ss, &c->sslen);
	return c->fd[0] == -1;
}

static int
body_tcp_premade(void *arg)
{
	struct ctx *c = arg;

	return tcp_exchange(AF_INET, c->fd[0], &c->ss, c->sslen);
}

/* The usual server: bind before tame, accept after. */
START_TEST(test_tcp_accept_on_listener_made_before_tame)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	o = h_run(TAME_STDIO | TAME_INET, setup_listener, body_tcp_premade, &c);
	ck_assert_exit(o, 0);
}
END_TEST

static int
body_udp(void *arg)
{
	struct sockaddr_storage a, b, from;
	socklen_t alen, blen, flen = sizeof(from);
	char buf[8];
	int sa, sb;

	(void)arg;
	if ((sa = bound_socket(AF_INET, SOCK_DGRAM, &a, &alen)) == -1)
		return 1;
	if ((sb = bound_socket(AF_INET, SOCK_DGRAM, &b, &blen)) == -1)
		return 2;
	if (sendto(sa, "dgram", 5, 0, (struct sockaddr *)&b, blen) != 5)
		return 3;
	if (recvfrom(sb, buf, sizeof(buf), 0, (struct sockaddr *)&from,
	    &flen) != 5 || memcmp(buf, "dgram", 5) != 0)
		return 4;
	if (flen != alen || memcmp(&from, &a, alen) != 0)
		return 5;
	/* reply on a connected socket: send/recv */
	if (connect(sb, (struct sockaddr *)&from, flen) == -1)
		return 6;
	if (send(sb, "back", 4, 0) != 4)
		return 7;
	if (recv(sa, buf, sizeof(buf), 0) != 4 || memcmp(buf, "back", 4) != 0)
		return 8;
	return 0;
}

START_TEST(test_udp_loopback_works_under_inet)
{
	struct outcome o = h_run(TAME_STDIO | TAME_INET, NULL, body_udp, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_reuseaddr(void *arg)
{
	socklen_t len = sizeof(int);
	int one = 1, v = 0, s;

	(void)arg;
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return 1;
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == -1)
		return 2;
	if (getsockopt(s, SOL_SOCKET, SO_REUSEADDR, &v, &len) == -1 || v == 0)
		return 3;
	return 0;
}

START_TEST(test_setsockopt_reuseaddr_works_under_inet)
{
	struct outcome o = h_run(TAME_STDIO | TAME_INET, NULL, body_reuseaddr,
	    NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/* The socket() calls that no flag allows, and those one flag allows. */
struct sockcase {
	int		 domain, type, proto;
};

static int
body_socket(void *arg)
{
	const struct sockcase *sc = arg;
	long fd;

	fd = syscall(SYS_socket, sc->domain, sc->type, sc->proto);
	return fd >= 0 ? REACHED : 1;
}

static const struct sockcase never_sockets[] = {
	{ AF_INET, SOCK_RAW, IPPROTO_ICMP },
	{ AF_INET6, SOCK_RAW, IPPROTO_ICMPV6 },
	{ AF_INET, SOCK_RAW, IPPROTO_UDP },	/* raw, UDP's number */
	{ AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_TCP },
	{ AF_INET, SOCK_DGRAM, IPPROTO_ICMP },	/* unprivileged ping */
	{ AF_PACKET, SOCK_RAW, 0x0300 },	/* htons(ETH_P_ALL) */
	{ AF_PACKET, SOCK_DGRAM, 0x0300 },
};
#define NNEVER	(int)(sizeof(never_sockets) / sizeof(never_sockets[0]))

/*
 * Raw and packet sockets: opened before tame or not at all (ping).  The
 * loop runs each case under STDIO|INET, then again under TAME_ALL.
 */
START_TEST(test_raw_and_packet_sockets_kill_even_with_all)
{
	struct sockcase sc = never_sockets[_i % NNEVER];
	int flags = _i < NNEVER ? TAME_STDIO | TAME_INET : TAME_ALL;
	struct outcome o = h_run(flags, NULL, body_socket, &sc);
	const char *want = sc.domain == AF_PACKET ? "socket AF_PACKET " :
	    (sc.type & 0xf) == SOCK_RAW ? " SOCK_RAW" : " IPPROTO_ICMP ";

	ck_assert_violation(o, "socket", "not allowed");
	/* the line names the argument that decided */
	ck_assert_msg(strstr(o.err, want) != NULL, "the line should say %s: %s",
	    want, o.err);
}
END_TEST

START_TEST(test_unix_socket_under_inet_needs_unix)
{
	struct sockcase sc = { AF_UNIX, SOCK_STREAM, 0 };
	struct outcome o = h_run(TAME_STDIO | TAME_INET, NULL, body_socket,
	    &sc);

	ck_assert_violation(o, "socket", "unix");
}
END_TEST

START_TEST(test_inet_socket_under_unix_needs_inet)
{
	struct sockcase sc = { AF_INET, SOCK_STREAM, 0 };
	struct outcome o = h_run(TAME_STDIO | TAME_UNIX, NULL, body_socket,
	    &sc);

	ck_assert_violation(o, "socket", "inet");
}
END_TEST

/* _i 0: an AF_INET6 socket needs inet; _i 1: an AF_UNIX one needs unix. */
START_TEST(test_socket_needs_a_network_flag)
{
	struct sockcase sc = { _i ? AF_UNIX : AF_INET6, SOCK_DGRAM, 0 };
	struct outcome o = h_run(TAME_STDIO, NULL, body_socket, &sc);

	ck_assert_violation(o, "socket", _i ? "unix" : "inet");
}
END_TEST

/*
 * UNIX: local sockets, named, abstract and anonymous.
 */

static int
unix_exchange(const struct sockaddr_un *sun, socklen_t len)
{
	int lsn, cl, sv, r;

	if ((lsn = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return 1;
	if (bind(lsn, (const struct sockaddr *)sun, len) == -1)
		return 2;
	if (listen(lsn, 4) == -1)
		return 3;
	if ((cl = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return 4;
	if (connect(cl, (const struct sockaddr *)sun, len) == -1)
		return 5;
	if ((sv = accept(lsn, NULL, NULL)) == -1)
		return 6;
	if ((r = ping_pong(cl, sv)) != 0)
		return r;
	close(cl);
	close(sv);
	close(lsn);
	return 0;
}

static int
body_unix_path(void *arg)
{
	struct ctx *c = arg;
	struct sockaddr_un sun;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(c->path) >= sizeof(sun.sun_path))
		return 50;
	memcpy(sun.sun_path, c->path, strlen(c->path));
	return unix_exchange(&sun, sizeof(sun));
}

/*
 * Binding a path creates a name in the file system, yet it works under
 * STDIO|UNIX without CPATH: seccomp cannot see the path, and for these
 * flags no Landlock layer is installed.  DESIGN.md's CPATH list (O_CREAT,
 * mkdir, unlink, rename, link, symlink) does not name sockets, and
 * OpenBSD's unp_bind() asks namei for the unix promise, not cpath, so we
 * read it as intended: UNIX may create socket names.  Removing the name
 * is unlink, which does need CPATH, so the untamed test process checks
 * the name and cleans up.
 */
START_TEST(test_unix_path_socket_works_and_creates_name)
{
	struct ctx c;
	struct outcome o;
	struct stat st;
	int r;

	ctx_init(&c);
	snprintf(c.path, sizeof(c.path), "%s/sock", h_tmpdir());
	o = h_run(TAME_STDIO | TAME_UNIX, NULL, body_unix_path, &c);
	r = lstat(c.path, &st);
	h_cleanup();		/* a failed assertion skips the teardown */
	ck_assert_exit(o, 0);
	ck_assert_int_eq(r, 0);
	ck_assert(S_ISSOCK(st.st_mode));
}
END_TEST

/*
 * Flags only add: holding TMPPATH as well must not take away what UNIX
 * allows.  TMPPATH without CPATH brings a Landlock layer that handles
 * MAKE_SOCK and grants it beneath /tmp only, so unless the layer also
 * grants MAKE_SOCK to UNIX holders (semantics.md: "binding a path socket
 * also needs MAKE_SOCK if Landlock is active"), the same bind as above,
 * in /var/tmp, fails at step 2 with EACCES.
 */
START_TEST(test_unix_path_bind_not_narrowed_by_tmppath)
{
	struct ctx c;
	struct outcome o;
	struct stat st;
	int r;

	ctx_init(&c);
	snprintf(c.path, sizeof(c.path), "%s/sock", h_tmpdir());
	o = h_run(TAME_STDIO | TAME_UNIX | TAME_TMPPATH, NULL, body_unix_path,
	    &c);
	r = lstat(c.path, &st);
	h_cleanup();		/* a failed assertion skips the teardown */
	ck_assert_exit(o, 0);
	ck_assert_int_eq(r, 0);
	ck_assert(S_ISSOCK(st.st_mode));
}
END_TEST

static int
body_unix_abstract(void *arg)
{
	struct sockaddr_un sun;
	int n;

	(void)arg;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	n = snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1,
	    "t_proc_net.%ld", (long)getpid());
	return unix_exchange(&sun, offsetof(struct sockaddr_un, sun_path) +
	    1 + n);
}

START_TEST(test_unix_abstract_socket_works_under_unix)
{
	struct outcome o = h_run(TAME_STDIO | TAME_UNIX, NULL,
	    body_unix_abstract, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_socketpair(void *arg)
{
	int sv[2], r;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		return 1;
	if ((r = ping_pong(sv[0], sv[1])) != 0)
		return r;
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) == -1)
		return 2;
	return 0;
}

/* An anonymous connected pair reaches nobody new: RW is enough. */
START_TEST(test_socketpair_works_under_rw)
{
	struct outcome o = h_run(TAME_RW, NULL, body_socketpair, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * CMSG.
 */

static int
body_cmsg_unix(void *arg)
{
	int want = TAME_CMSG | TAME_UNIX | TAME_RW;

	(void)arg;
	if ((tame_flags_held() & want) != want)
		return 1;
	if (syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0) == -1)
		return 2;
	if (syscall(SYS_socket, AF_UNIX, SOCK_DGRAM, 0) == -1)
		return 3;
	return 0;
}

START_TEST(test_cmsg_implies_unix)
{
	struct outcome o = h_run(TAME_CMSG, NULL, body_cmsg_unix, NULL);

	ck_assert_exit(o, 0);
}
END_TEST



/*
 * PROC: other processes.  Signals to self stay in every nonzero set.
 */

static int
body_fork_marker(void *arg)
{
	struct ctx *c = arg;
	int st, fd;
	pid_t pid;

	if ((pid = fork()) == -1)
		return 1;
	if (pid == 0) {
		fd = open(c->path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		_exit(fd == -1 ? 2 : 5);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 3;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 4;
}

/* The fork child would have made a file: the file must not be there. */
START_TEST(test_fork_needs_proc)
{
	struct ctx c;
	struct outcome o;
	int gone;

	ctx_init(&c);
	snprintf(c.path, sizeof(c.path), "%s/forked", h_tmpdir());
	o = h_run(TAME_STDIO | TAME_WPATH | TAME_CPATH, NULL,
	    body_fork_marker, &c);
	gone = access(c.path, F_OK) == -1 && errno == ENOENT;
	h_cleanup();		/* a failed assertion skips the teardown */
	ck_assert_violation(o, "clone", "proc");
	ck_assert_msg(gone, "a child ran: %s existed", c.path);
}
END_TEST

START_TEST(test_fork_and_waitpid_work_with_proc)
{
	struct ctx c;
	struct outcome o;
	int there;

	ctx_init(&c);
	snprintf(c.path, sizeof(c.path), "%s/forked", h_tmpdir());
	o = h_run(TAME_STDIO | TAME_WPATH | TAME_CPATH | TAME_PROC, NULL,
	    body_fork_marker, &c);
	there = access(c.path, F_OK) == 0;
	h_cleanup();		/* a failed assertion skips the teardown */
	ck_assert_exit(o, 5);
	ck_assert_msg(there, "the child did not make %s", c.path);
}
END_TEST

#ifdef SYS_fork
static int
body_raw_fork(void *arg)
{
	long pid;

	(void)arg;
	if ((pid = syscall(SYS_fork)) == 0)
		_exit(0);
	return pid > 0 ? REACHED : 1;
}

START_TEST(test_raw_fork_needs_proc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_raw_fork, NULL);

	ck_assert_violation(o, "fork", "proc");
}
END_TEST
#endif

static int
body_wait(void *arg)
{
	int st;

	(void)arg;
	if (waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD)
		return REACHED;
	return 1;
}

START_TEST(test_wait_needs_proc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_wait, NULL);

	ck_assert_violation(o, "wait4", "proc");
}
END_TEST

static int
body_kill_other(void *arg)
{
	struct ctx *c = arg;

	return kill(c->pid, SIGTERM) == 0 ? REACHED : 1;
}

/* The sibling is a child of the untamed test process, like the tamee. */
START_TEST(test_kill_of_other_process_needs_proc)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	c.pid = sibling_start(NULL, NULL);
	o = h_run(TAME_STDIO, NULL, body_kill_other, &c);
	ck_assert_violation(o, "kill", "proc");
	ck_assert_int_eq(sibling_end(c.pid), SIGKILL);
}
END_TEST

START_TEST(test_kill_of_other_process_works_with_proc)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	c.pid = sibling_start(NULL, NULL);
	o = h_run(TAME_STDIO | TAME_PROC, NULL, body_kill_other, &c);
	ck_assert_exit(o, REACHED);
	ck_assert_int_eq(sibling_end(c.pid), SIGTERM);
}
END_TEST

static int
body_signal_self(void *arg)
{
	struct sigaction sa;

	(void)arg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) == -1)
		return 1;
	if (kill(getpid(), SIGUSR1) == -1 || caught != 1)
		return 2;
	if (raise(SIGUSR1) != 0 || caught != 2)
		return 3;
	if (syscall(SYS_tgkill, getpid(), gettid(), SIGUSR1) == -1 ||
	    caught != 3)
		return 4;
	if (syscall(SYS_tkill, gettid(), SIGUSR1) == -1 || caught != 4)
		return 5;
	return 0;
}

START_TEST(test_signal_to_self_works_without_proc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_signal_self, NULL);

	ck_assert_exit(o, 0);
	ck_assert_str_eq(o.err, "");
}
END_TEST

static int
body_abort(void *arg)
{
	(void)arg;
	abort();
}

START_TEST(test_abort_is_sigabrt_without_proc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_abort, NULL);

	ck_assert_signal(o, SIGABRT);
	assert_no_report(&o);
}
END_TEST

static int
body_abort_in_child(void *arg)
{
	int retame = *(int *)arg, st;
	pid_t pid;

	if ((pid = fork()) == -1)
		return 1;
	if (pid == 0) {
		if (retame && tame(TAME_STDIO) == -1)
			_exit(2);
		abort();
	}
	if (waitpid(pid, &st, 0) != pid)
		return 3;
	if (WIFSIGNALED(st))
		return WTERMSIG(st) == SIGABRT ? 0 : 100 + WTERMSIG(st);
	return 10 + WEXITSTATUS(st);
}

/*
 * The child has a new pid the filter never saw: the self check is made at
 * trap time, so abort() still raises SIGABRT there.  Exit 100 + n says the
 * child died of signal n instead (131 = SIGSYS).  _i 1: the child first
 * narrows itself to STDIO, dropping PROC.
 */
START_TEST(test_abort_in_forked_child_is_sigabrt)
{
	int retame = _i;
	struct outcome o = h_run(TAME_STDIO | TAME_PROC, NULL,
	    body_abort_in_child, &retame);

	ck_assert_exit(o, 0);
	assert_no_report(&o);
}
END_TEST

/*
 * No signal path through libtame's own syscall instruction: an attacker
 * who returns into it (the gate) with kill's or tgkill's number gets the
 * policy, as any other call site would.  _i: kill, tgkill, rt_sigqueueinfo.
 */
static int
body_gate_signal_other(void *arg)
{
	struct ctx *c = arg;
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGTERM;
	si.si_code = SI_QUEUE;
	switch (c->fd[0]) {
	case 0:
		tame__sys(SYS_kill, c->pid, SIGTERM, 0, 0, 0, 0);
		break;
	case 1:
		tame__sys(SYS_tgkill, c->pid, c->pid, SIGTERM, 0, 0, 0);
		break;
	case 2:
		tame__sys(SYS_rt_sigqueueinfo, c->pid, SIGTERM, (long)&si,
		    0, 0, 0);
		break;
	}
	return REACHED;
}

START_TEST(test_gate_cannot_signal_other_process)
{
	static const char *const call[] = { "kill", "tgkill",
	    "rt_sigqueueinfo" };
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	c.fd[0] = _i;
	c.pid = sibling_start(NULL, NULL);
	o = h_run(TAME_STDIO, NULL, body_gate_signal_other, &c);
	ck_assert_violation(o, call[_i], "proc");
	ck_assert_int_eq(sibling_end(c.pid), SIGKILL);
}
END_TEST

static void *
wait_for_usr1(void *arg)
{
	sigset_t set;
	int sig;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	return sigwait(&set, &sig) == 0 && sig == SIGUSR1 ? arg : NULL;
}

/* pthread_kill() of another thread: tgkill of this process. */
static int
body_pthread_kill(void *arg)
{
	pthread_t t;
	sigset_t set;
	void *r = NULL;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0 ||
	    pthread_create(&t, NULL, wait_for_usr1, &set) != 0)
		return 1;
	if (pthread_kill(t, SIGUSR1) != 0)
		return 2;
	if (pthread_join(t, &r) != 0 || r != &set)
		return 3;
	(void)arg;
	return 0;
}

START_TEST(test_pthread_kill_works_without_proc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_pthread_kill, NULL);

	ck_assert_exit(o, 0);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/* tkill names a thread of any process: another process's is ESRCH. */
static int
body_tkill_other(void *arg)
{
	struct ctx *c = arg;

	if (syscall(SYS_tkill, c->pid, SIGTERM) != -1 || errno != ESRCH)
		return 1;
	return 0;
}

START_TEST(test_tkill_of_other_process_is_esrch)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	c.pid = sibling_start(NULL, NULL);
	o = h_run(TAME_STDIO, NULL, body_tkill_other, &c);
	ck_assert_exit(o, 0);
	ck_assert_int_eq(sibling_end(c.pid), SIGKILL);
}
END_TEST

#ifndef PIDFD_SELF_THREAD
#define PIDFD_SELF_THREAD		(-10000)
#define PIDFD_SELF_THREAD_GROUP		(-10001)
#endif
#define PIDFD_SIGNAL_PROCESS_GROUP_	(1u << 2)

/* Does this kernel know PIDFD_SELF (Linux 6.15)?  Signal 0 sends none. */
static int
kernel_has_pidfd_self(void)
{
	return syscall(SYS_pidfd_send_signal, PIDFD_SELF_THREAD_GROUP, 0,
	    NULL, 0) == 0;
}

/* sigqueue() and PIDFD_SELF, to this process. */
static int
body_queue_self(void *arg)
{
	int has_self = *(int *)arg;
	struct sigaction sa;
	long r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) == -1)
		return 1;
	if (sigqueue(getpid(), SIGUSR1, (union sigval){ 0 }) == -1 ||
	    caught != 1)
		return 2;
	r = syscall(SYS_pidfd_send_signal, PIDFD_SELF_THREAD, SIGUSR1, NULL,
	    0);
	if (has_self ? r != 0 || caught != 2 : r != -1 || errno != EBADF)
		return 3;
	r = syscall(SYS_pidfd_send_signal, PIDFD_SELF_THREAD_GROUP, SIGUSR1,
	    NULL, 0);
	if (has_self ? r != 0 || caught != 3 : r != -1 || errno != EBADF)
		return 4;
	return 0;
}

START_TEST(test_signal_queued_to_self_works_without_proc)
{
	int has_self = kernel_has_pidfd_self();
	struct outcome o = h_run(TAME_STDIO, NULL, body_queue_self, &has_self);

	ck_assert_exit(o, 0);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/* PIDFD_SIGNAL_PROCESS_GROUP would widen PIDFD_SELF to the group. */
static int
body_pidfd_self_group(void *arg)
{
	(void)arg;
	syscall(SYS_pidfd_send_signal, PIDFD_SELF_THREAD_GROUP, SIGTERM, NULL,
	    PIDFD_SIGNAL_PROCESS_GROUP_);
	return REACHED;
}

START_TEST(test_pidfd_self_to_process_group_kills)
{
	struct outcome o = h_run(TAME_ALL, NULL, body_pidfd_self_group, NULL);

	ck_assert_signal(o, SIGSYS);
	ck_assert_msg(strstr(o.err, "pidfd_send_signal") != NULL, "%s",
	    o.err);
}
END_TEST

/*
 * A child forked under PROC that narrows to STDIO: its filter names its
 * own pid, so its parent is another process to it.
 */
static int
body_child_kills_parent(void *arg)
{
	struct sigaction sa;
	pid_t pid;
	int st;

	(void)arg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) == -1)
		return 1;
	if ((pid = fork()) == -1)
		return 2;
	if (pid == 0) {
		if (tame(TAME_STDIO) == -1 || raise(SIGUSR1) != 0 ||
		    caught != 1)
			_exit(3);
		kill(getppid(), SIGUSR1);
		_exit(4);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 5;
	if (caught != 0)
		return 6;	/* the parent was signalled */
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS ? 0 :
	    WIFSIGNALED(st) ? 100 + WTERMSIG(st) : 10 + WEXITSTATUS(st);
}

START_TEST(test_child_cannot_signal_parent_after_dropping_proc)
{
	struct outcome o = h_run(TAME_STDIO | TAME_PROC, NULL,
	    body_child_kills_parent, NULL);

	ck_assert_exit(o, 0);
	ck_assert_msg(h_reported(o.err, "kill", "proc"), "%s", o.err);
}
END_TEST

static int
body_setuid(void *arg)
{
	(void)arg;
	return setuid(getuid()) == 0 ? REACHED : 1;
}

static int
body_setresuid(void *arg)
{
	(void)arg;
	return setresuid(-1, -1, -1) == 0 ? REACHED : 1;
}

START_TEST(test_setuid_needs_proc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_setuid, NULL);

	ck_assert_violation(o, "setuid", "proc");
}
END_TEST

START_TEST(test_setresuid_needs_proc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_setresuid, NULL);

	ck_assert_violation(o, "setresuid", "proc");
}
END_TEST

/* Setting the ids one already has changes nothing, and PROC allows it. */
START_TEST(test_setuid_setresuid_work_with_proc)
{
	struct outcome o;

	o = h_run(TAME_STDIO | TAME_PROC, NULL, body_setuid, NULL);
	ck_assert_exit(o, REACHED);
	o = h_run(TAME_STDIO | TAME_PROC, NULL, body_setresuid, NULL);
	ck_assert_exit(o, REACHED);
}
END_TEST

/*
 * Threads: tame binds every thread, also those started before it.
 */

static void *
socket_on_cue(void *arg)
{
	struct ctx *c = arg;
	char b;
	int fd;

	if (read(c->fd[0], &b, 1) != 1)
		return (void *)1L;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	return (void *)(fd >= 0 ? (long)REACHED : 2L);
}

static int
setup_thread(void *arg)
{
	struct ctx *c = arg;

	if (pipe(c->fd) == -1)
		return 1;
	return pthread_create(&c->thr, NULL, socket_on_cue, c) != 0;
}

static int
body_cue_thread(void *arg)
{
	struct ctx *c = arg;
	void *ret;

	if (write(c->fd[1], "go", 1) != 1)
		return 3;
	if (pthread_join(c->thr, &ret) != 0)
		return 4;
	return (int)(long)ret;
}

START_TEST(test_thread_made_before_tame_is_bound)
{
	struct ctx c;
	struct outcome o;

	ctx_init(&c);
	o = h_run(TAME_STDIO, setup_thread, body_cue_thread, &c);
	ck_assert_violation(o, "socket", "inet");
}
END_TEST

/*
 * SIGSYS stays libtame's: a tamed process can look at it, not change it.
 * A change fails with EINVAL, as for SIGKILL, so a program that sets a
 * handler for every signal (procps' ps) goes on, and a violation after
 * it still kills.
 */

static int
body_ignore_sigsys(void *arg)
{
	(void)arg;
	if (signal(SIGSYS, SIG_IGN) != SIG_ERR)
		return REACHED;
	if (errno != EINVAL)
		return 1;
	socket(AF_INET, SOCK_STREAM, 0);
	return REACHED + 1;
}

static void
on_sigsys(int sig)
{
	(void)sig;
}

static int
body_catch_sigsys(void *arg)
{
	struct sigaction sa;

	(void)arg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigsys;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != -1)
		return REACHED;
	if (errno != EINVAL)
		return 1;
	socket(AF_INET, SOCK_STREAM, 0);
	return REACHED + 1;
}

/* ps sets a handler for every signal in a loop, past the refusals. */
static int
body_catch_every_signal(void *arg)
{
	struct sigaction sa;
	int sig;

	(void)arg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigsys;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++) {
		if (sigaction(sig, &sa, NULL) == 0)
			continue;
		if (errno != EINVAL)
			return 1;
		if (sig != SIGKILL && sig != SIGSTOP && sig != SIGSYS &&
		    (sig < 32 || sig >= SIGRTMIN))
			return 2;	/* glibc's own are 32 and 33 */
	}
	return 0;
}

START_TEST(test_ignoring_sigsys_is_einval)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_ignore_sigsys, NULL);

	ck_assert_violation(o, "socket", "inet");
}
END_TEST

START_TEST(test_catching_sigsys_is_einval_even_with_all)
{
	/* every flag that lets it make an AF_INET socket is left out */
	struct outcome o = h_run(TAME_ALL & ~(TAME_INET | TAME_DNSPATH), NULL,
	    body_catch_sigsys, NULL);

	ck_assert_violation(o, "socket", "inet");
}
END_TEST

START_TEST(test_handler_for_every_signal_goes_on)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_catch_every_signal,
	    NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_read_sigsys(void *arg)
{
	struct sigaction old;

	(void)arg;
	memset(&old, 0, sizeof(old));
	if (sigaction(SIGSYS, NULL, &old) == -1)
		return 1;
	/* libtame's handler is there, and takes siginfo */
	if ((old.sa_flags & SA_SIGINFO) == 0 || old.sa_handler == SIG_DFL ||
	    old.sa_handler == SIG_IGN)
		return 2;
	return 0;
}

START_TEST(test_reading_sigsys_disposition_works)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_read_sigsys, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_usr1_handler(void *arg)
{
	struct sigaction sa, old;

	(void)arg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &old) == -1)
		return 1;
	if (raise(SIGUSR1) != 0 || caught != 1)
		return 2;
	if (signal(SIGUSR1, SIG_IGN) == SIG_ERR || raise(SIGUSR1) != 0 ||
	    caught != 1)
		return 3;
	return 0;
}

START_TEST(test_other_signal_handlers_work)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_usr1_handler, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * No exec after tame, under any flags.
 */

static int
body_execve(void *arg)
{
	char *argv[] = { "true", NULL };
	extern char **environ;

	(void)arg;
	execve("/bin/true", argv, environ);
	return 1;
}

/* /bin/true would exit 0: death by SIGSYS shows it never started. */
START_TEST(test_execve_kills_even_with_all)
{
	struct outcome o = h_run(TAME_ALL, NULL, body_execve, NULL);

	ck_assert_violation(o, "execve", "not allowed");
}
END_TEST

static int
body_execveat(void *arg)
{
	char *argv[] = { "true", NULL };
	char *envp[] = { NULL };

	(void)arg;
	syscall(SYS_execveat, AT_FDCWD, "/bin/true", argv, envp, 0);
	return 1;
}

START_TEST(test_execveat_kills_even_with_all)
{
	struct outcome o = h_run(TAME_ALL, NULL, body_execveat, NULL);

	ck_assert_violation(o, "execveat", "not allowed");
}
END_TEST

/*
 * Calls the census of /usr/bin found real programs making that no flag
 * used to allow (issue 16).  Each works under the smallest set that
 * should allow it; t_bypass.c holds their dangerous neighbours.
 */

/* Page-aligned memory of the test's own, set up before tame. */
static char lock_page[1 << 16] __attribute__((aligned(1 << 16)));

/*
 * gpg, gpgsm and pinentry lock their keys' memory: MALLOC.  The calls
 * are made raw: ASan's mlock() family does nothing and returns 0.
 */
static int
body_mlock(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);

	(void)arg;
	if (syscall(SYS_mlock, lock_page, (size_t)pg) == -1)
		return 1;
	lock_page[0] = 1;
	if (syscall(SYS_munlock, lock_page, (size_t)pg) == -1)
		return 2;
	if (syscall(SYS_mlock2, lock_page + pg, (size_t)pg, 0) == -1 ||
	    syscall(SYS_mlock2, lock_page + 2 * pg, (size_t)pg,
	    MLOCK_ONFAULT) == -1)
		return 3;
	if (syscall(SYS_munlock, lock_page, 3 * (size_t)pg) == -1)
		return 4;
	if (syscall(SYS_mlockall, MCL_FUTURE) == -1 ||
	    syscall(SYS_munlockall) == -1)
		return 5;
	/* all of memory, as faulted: beyond RLIMIT_MEMLOCK, ENOMEM */
	if (syscall(SYS_mlockall, MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == -1 &&
	    errno != ENOMEM)
		return 6;
	if (syscall(SYS_munlockall) == -1)
		return 7;
	return 0;
}

START_TEST(test_mlock_works_under_malloc)
{
	struct outcome o = h_run(TAME_MALLOC, NULL, body_mlock, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static int
body_mlock_only(void *arg)
{
	(void)arg;
	syscall(SYS_mlock, lock_page, 4096);
	return REACHED;
}

START_TEST(test_mlock_needs_malloc)
{
	struct outcome o = h_run(TAME_RW, NULL, body_mlock_only, NULL);

	ck_assert_violation(o, "mlock", "malloc");
}
END_TEST

/* node --version reads its capability sets: any nonzero set. */
static int
body_capget(void *arg)
{
	struct __user_cap_header_struct hdr = {
		_LINUX_CAPABILITY_VERSION_3, 0
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	(void)arg;
	if (syscall(SYS_capget, &hdr, data) == -1)
		return 1;
	hdr.pid = getpid();
	if (syscall(SYS_capget, &hdr, data) == -1)
		return 2;
	/* the version probe: NULL data */
	hdr.version = 0;
	if (syscall(SYS_capget, &hdr, NULL) == -1 && errno != EINVAL)
		return 3;
	return hdr.version == _LINUX_CAPABILITY_VERSION_3 ? 0 : 4;
}

START_TEST(test_capget_works_under_any_flag)
{
	struct outcome o = h_run(TAME_RW, NULL, body_capget, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/* The scheduling of the process itself, by pid 0 or its own. */
static int
body_sched_self(void *arg)
{
	uint64_t attr[8];	/* struct sched_attr, SCHED_ATTR_SIZE_VER0 */
	struct sched_param sp;
	struct timespec ts;
	pid_t self = getpid(), pids[2] = { 0, self };
	int i;

	(void)arg;
	for (i = 0; i < 2; i++) {
		if (syscall(SYS_sched_getattr, pids[i], attr, 48, 0) == -1)
			return 1 + 10 * i;
		if (sched_getparam(pids[i], &sp) == -1)
			return 2 + 10 * i;
		if (sched_getscheduler(pids[i]) == -1)
			return 3 + 10 * i;
		if (sched_rr_get_interval(pids[i], &ts) == -1)
			return 4 + 10 * i;
	}
	if (sched_get_priority_max(SCHED_FIFO) == -1 ||
	    sched_get_priority_min(SCHED_FIFO) == -1)
		return 5;
	return 0;
}

START_TEST(test_sched_queries_of_self_work_without_proc)
{
	struct outcome o = h_run(TAME_RW, NULL, body_sched_self, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/* Another process's: PROC (the dying side is in t_bypass.c). */
static int
body_sched_other(void *arg)
{
	uint64_t attr[8];
	struct sched_param sp;
	struct timespec ts;
	pid_t other = getppid();

	(void)arg;
	if (syscall(SYS_sched_getattr, other, attr, 48, 0) == -1)
		return 1;
	if (sched_getparam(other, &sp) == -1)
		return 2;
	if (sched_getscheduler(other) == -1)
		return 3;
	if (sched_rr_get_interval(other, &ts) == -1)
		return 4;
	return 0;
}

START_TEST(test_sched_queries_of_other_work_with_proc)
{
	struct outcome o = h_run(TAME_PROC, NULL, body_sched_other, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/* gpg-agent makes itself undumpable: it only narrows. */
static int
body_undumpable(void *arg)
{
	(void)arg;
	if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 1)
		return 1;
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == -1)
		return 2;
	return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : 3;
}

START_TEST(test_undumpable_works_under_any_flag)
{
	struct outcome o = h_run(TAME_RW, NULL, body_undumpable, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * qemu asks to be killed early on a machine-check memory error, and
 * reads the policy back; a kernel without memory-failure handling
 * answers EINVAL, never a kill.
 */
static int
body_mce_kill(void *arg)
{
	(void)arg;
	if (prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) == -1)
		return errno == EINVAL ? 0 : 1;
	return prctl(PR_MCE_KILL_GET, 0, 0, 0, 0) == PR_MCE_KILL_EARLY ? 0 : 2;
}

/* qemu makes a sealable memfd: memory, under malloc */
static int
body_memfd(void *arg)
{
	char c = 0;
	int fd;

	(void)arg;
	if ((fd = (int)syscall(SYS_memfd_create, "test", MFD_CLOEXEC |
	    MFD_ALLOW_SEALING)) == -1)
		return 1;
	if (write(fd, "x", 1) != 1 || pread(fd, &c, 1, 0) != 1 || c != 'x')
		return 2;
	return close(fd) == 0 ? 0 : 3;
}

START_TEST(test_memfd_works_under_malloc)
{
	struct outcome o = h_run(TAME_STDIO, NULL, body_memfd, NULL);

	ck_assert_exit(o, 0);
	o = h_run(TAME_RW, NULL, body_memfd, NULL);
	ck_assert_violation(o, "memfd_create", "malloc");
}
END_TEST

START_TEST(test_mce_kill_policy_works_under_any_flag)
{
	struct outcome o = h_run(TAME_RW, NULL, body_mce_kill, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * libaudit's audit_open() (lastlog, login tools) takes
 * EPROTONOSUPPORT for a kernel without audit and goes on: under any
 * set, even every flag.
 */
static int
body_netlink_audit(void *arg)
{
	static const int types[] = { SOCK_RAW, SOCK_RAW | SOCK_CLOEXEC,
	    SOCK_DGRAM };
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (socket(AF_NETLINK, types[i], NETLINK_AUDIT) != -1)
			return REACHED;
		if (errno != EPROTONOSUPPORT)
			return 1 + (int)i;
	}
	return 0;
}

START_TEST(test_netlink_audit_is_eprotonosupport)
{
	struct outcome o = h_run(_i == 0 ? TAME_RW : TAME_ALL, NULL,
	    body_netlink_audit, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * man-db's libseccomp (apropos, man, mandb, lexgrog) asks seccomp what
 * the kernel offers: any nonzero set.  Strict mode is allowed too, since
 * it could only narrow; under a filter the kernel refuses it with
 * EINVAL, and nothing changes (t_bypass.c: the filter still kills).
 */
static int
body_seccomp_questions(void *arg)
{
	struct seccomp_notif_sizes sz;
	uint32_t action = SECCOMP_RET_KILL_PROCESS;

	(void)arg;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0)
		return 1;
	action = SECCOMP_RET_LOG;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0)
		return 2;
	memset(&sz, 0, sizeof(sz));
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz) != 0)
		return 3;
	if (sz.seccomp_notif == 0 || sz.seccomp_data == 0)
		return 4;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL) != -1 ||
	    errno != EINVAL)
		return 5;
	/* strict mode would have killed this (SIGKILL): it is not in force */
	return getppid() > 0 ? 0 : 6;
}

START_TEST(test_seccomp_questions_work_under_any_flag)
{
	struct outcome o = h_run(TAME_RW, NULL, body_seccomp_questions, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * libnuma's numa_available() (procps' ps and top) asks the NUMA policy:
 * any nonzero set.  A kernel without NUMA answers ENOSYS, not death.
 */
static int
body_get_mempolicy(void *arg)
{
	int mode = -1;

	(void)arg;
	if (syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0) == -1)
		return errno == ENOSYS ? 0 : 1;
	return mode == MPOL_DEFAULT ? 0 : 2;
}

START_TEST(test_get_mempolicy_works_under_any_flag)
{
	struct outcome o = h_run(TAME_RW, NULL, body_get_mempolicy, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

#ifndef __NR_set_mempolicy_home_node
#define __NR_set_mempolicy_home_node	450	/* Linux 5.17, every arch */
#endif

/*
 * NUMA placement of the process's own memory: MALLOC.  A range bound
 * to node 0 reads back so, and goes back to the default; the process's
 * policy too.  Kernels without NUMA answer ENOSYS, and set_mempolicy_
 * home_node is Linux 5.17's: ENOSYS before, not death.
 */
static int
body_set_mempolicy(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned long node0 = 1;
	int mode = -1;
	void *p;

	(void)arg;
	if (syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0) == -1)
		return errno == ENOSYS ? 0 : 1;
	if ((p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		return 2;
	if (syscall(SYS_mbind, p, pg, MPOL_PREFERRED, &node0,
	    8 * sizeof(node0), MPOL_MF_MOVE) == -1)
		return 3;
	*(volatile char *)p = 1;
	if (syscall(SYS_get_mempolicy, &mode, NULL, 0, p, MPOL_F_ADDR) == -1 ||
	    mode != MPOL_PREFERRED)
		return 4;
	/* a home node is for a range bound to nodes */
	if (syscall(SYS_mbind, p, pg, MPOL_BIND, &node0, 8 * sizeof(node0),
	    0) == -1)
		return 5;
	if (syscall(__NR_set_mempolicy_home_node, p, pg, 0, 0) == -1 &&
	    errno != ENOSYS)
		return 6;
	if (syscall(SYS_mbind, p, pg, MPOL_DEFAULT, NULL, 0, 0) == -1)
		return 10;
	if (syscall(SYS_set_mempolicy, MPOL_PREFERRED, &node0,
	    8 * sizeof(node0)) == -1)
		return 7;
	if (syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0) == -1 ||
	    mode != MPOL_PREFERRED)
		return 8;
	return syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0) == 0 ? 0 : 9;
}

START_TEST(test_set_mempolicy_works_under_malloc)
{
	struct outcome o = h_run(TAME_MALLOC, NULL, body_set_mempolicy, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * node allocates a protection key: MALLOC.  A CPU without protection
 * keys answers pkey_alloc with ENOSPC or EINVAL (ENOSYS: a kernel
 * without them), not death; pkey_mprotect with key -1 is mprotect
 * everywhere, and with a key the access it takes away is gone.
 */
static int
body_pkeys(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p;
	int key;

	(void)arg;
	if ((p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		return 1;
	p[0] = 1;
	if (syscall(SYS_pkey_mprotect, p, pg, PROT_READ, -1) == -1)
		return 2;
	if (p[0] != 1)
		return 3;
	if ((key = (int)syscall(SYS_pkey_alloc, 0, 0)) == -1)
		return errno == ENOSPC || errno == EINVAL || errno == ENOSYS ?
		    0 : 4;
	if (syscall(SYS_pkey_mprotect, p, pg, PROT_READ | PROT_WRITE,
	    key) == -1)
		return 5;
	p[0] = 2;
	if (syscall(SYS_pkey_mprotect, p, pg, PROT_READ | PROT_WRITE, -1) ==
	    -1 || syscall(SYS_pkey_free, key) == -1)
		return 6;
	return p[0] == 2 ? 0 : 7;
}

START_TEST(test_pkeys_work_under_malloc)
{
	struct outcome o;

	/* this process is not tamed: the kernel's own answer */
	if (syscall(SYS_pkey_mprotect, NULL, 0, PROT_READ, -1) == -1 &&
	    errno == ENOSYS) {
		printf("n/a: protection keys (pkey_mprotect is ENOSYS: a "
		    "kernel built without them, as arm64's before 6.12)\n");
		fflush(stdout);
		return;
	}
	o = h_run(TAME_MALLOC, NULL, body_pkeys, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

/*
 * sched_setattr of the process itself, by pid 0 or its own: PROC, as
 * sched_setscheduler (without it, t_bypass.c: it dies naming proc).
 */
static int
body_sched_setattr(void *arg)
{
	uint32_t attr[12];	/* struct sched_attr, SCHED_ATTR_SIZE_VER0 */
	pid_t pids[2] = { 0, getpid() };
	int i, policy[2] = { SCHED_BATCH, SCHED_OTHER };

	(void)arg;
	for (i = 0; i < 2; i++) {
		memset(attr, 0, sizeof(attr));
		attr[0] = 48;			/* size */
		attr[1] = (uint32_t)policy[i];	/* policy */
		if (syscall(SYS_sched_setattr, pids[i], attr, 0) == -1)
			return 1 + i;
		if (sched_getscheduler(0) != policy[i])
			return 3 + i;
	}
	return 0;
}

START_TEST(test_sched_setattr_works_with_proc)
{
	struct outcome o = h_run(TAME_PROC, NULL, body_sched_setattr, NULL);

	ck_assert_exit(o, 0);
}
END_TEST

static TCase *
tcase(Suite *s, const char *name)
{
	return h_tcase(s, name, TIMEOUT, fixture_setup, fixture_teardown);
}

static Suite *
proc_net_suite(void)
{
	Suite *s = suite_create("proc_net");
	TCase *tc;

	tc = tcase(s, "malloc");
	tcase_add_test(tc, test_malloc_large_blocks_work);
	tcase_add_test(tc, test_mmap_mremap_mprotect_work);
	tcase_add_test(tc, test_mmap_needs_malloc);
	tcase_add_test(tc, test_mmap_exec_kills_even_with_all);
	tcase_add_test(tc, test_mprotect_exec_kills_even_with_all);
	tcase_add_test(tc, test_pthread_create_join_work_under_stdio);
	tcase_add_loop_test(tc, test_raw_clone3_is_enosys, 0, 2);
	tcase_add_test(tc, test_getrandom_works_under_malloc);
	tcase_add_test(tc, test_getrandom_needs_malloc);

	tc = tcase(s, "rw");
	tcase_add_test(tc, test_pipe_dup_poll_select_work_under_rw);
	tcase_add_test(tc, test_signalfd_works_under_rw);
	tcase_add_test(tc, test_msync_mincore_work_under_malloc);
	tcase_add_test(tc, test_locks_work_under_rw);
	tcase_add_test(tc, test_lseek_read_write_work_under_rw);
	tcase_add_test(tc, test_fcntl_housekeeping_works_under_rw);
	tcase_add_test(tc, test_fcntl_setown_kills);
	tcase_add_test(tc, test_fcntl_own_descriptors_work_under_rw);
	tcase_add_test(tc, test_fcntl_lease_needs_proc_and_notify_kills);
	tcase_add_test(tc, test_ioctl_fionread_works_under_rw);
	tcase_add_test(tc, test_isatty_without_ioctl_is_enotty);
	tcase_add_test(tc, test_tty_queries_without_ioctl_see_no_terminal);
	tcase_add_test(tc, test_sendto_with_address_needs_network);
	tcase_add_test(tc, test_sendto_with_address_works_under_inet);
	tcase_add_test(tc, test_send_without_address_works_under_rw);

	tc = tcase(s, "ioctl");
	tcase_add_test(tc, test_pty_termios_and_winsize_work_with_ioctl);
	tcase_add_test(tc, test_tiocsti_kills_even_with_all);

	tc = tcase(s, "tame0");
	tcase_add_test(tc, test_tame0_exit_works);
	tcase_add_test(tc, test_tame0_getpid_kills_silently);
	tcase_add_test(tc, test_getpid_works_under_any_flag);

	tc = tcase(s, "inet");
	tcase_add_test(tc, test_tcp_loopback_exchange_works_under_inet);
	tcase_add_test(tc, test_tcp6_loopback_exchange_works_under_inet);
	tcase_add_test(tc, test_tcp_accept_on_listener_made_before_tame);
	tcase_add_test(tc, test_udp_loopback_works_under_inet);
	tcase_add_test(tc, test_setsockopt_reuseaddr_works_under_inet);
	tcase_add_loop_test(tc, test_raw_and_packet_sockets_kill_even_with_all,
	    0, 2 * NNEVER);
	tcase_add_test(tc, test_unix_socket_under_inet_needs_unix);
	tcase_add_loop_test(tc, test_socket_needs_a_network_flag, 0, 2);

	tc = tcase(s, "unix");
	tcase_add_test(tc, test_unix_path_socket_works_and_creates_name);
	tcase_add_test(tc, test_unix_path_bind_not_narrowed_by_tmppath);
	tcase_add_test(tc, test_unix_abstract_socket_works_under_unix);
	tcase_add_test(tc, test_socketpair_works_under_rw);
	tcase_add_test(tc, test_inet_socket_under_unix_needs_inet);

	tc = tcase(s, "cmsg");
	tcase_add_test(tc, test_cmsg_implies_unix);

	tc = tcase(s, "proc");
	tcase_add_test(tc, test_fork_needs_proc);
	tcase_add_test(tc, test_fork_and_waitpid_work_with_proc);
#ifdef SYS_fork
	tcase_add_test(tc, test_raw_fork_needs_proc);
#endif
	tcase_add_test(tc, test_wait_needs_proc);
	tcase_add_test(tc, test_kill_of_other_process_needs_proc);
	tcase_add_test(tc, test_kill_of_other_process_works_with_proc);
	tcase_add_test(tc, test_signal_to_self_works_without_proc);
	tcase_add_test(tc, test_abort_is_sigabrt_without_proc);
	tcase_add_loop_test(tc, test_abort_in_forked_child_is_sigabrt, 0, 2);
	tcase_add_loop_test(tc, test_gate_cannot_signal_other_process, 0, 3);
	tcase_add_test(tc, test_pthread_kill_works_without_proc);
	tcase_add_test(tc, test_tkill_of_other_process_is_esrch);
	tcase_add_test(tc, test_signal_queued_to_self_works_without_proc);
	tcase_add_test(tc, test_pidfd_self_to_process_group_kills);
	tcase_add_test(tc, test_child_cannot_signal_parent_after_dropping_proc);
	tcase_add_test(tc, test_setuid_needs_proc);
	tcase_add_test(tc, test_setresuid_needs_proc);
	tcase_add_test(tc, test_setuid_setresuid_work_with_proc);

	tc = tcase(s, "threads");
	tcase_add_test(tc, test_thread_made_before_tame_is_bound);

	tc = tcase(s, "sigsys");
	tcase_add_test(tc, test_ignoring_sigsys_is_einval);
	tcase_add_test(tc, test_catching_sigsys_is_einval_even_with_all);
	tcase_add_test(tc, test_handler_for_every_signal_goes_on);
	tcase_add_test(tc, test_reading_sigsys_disposition_works);
	tcase_add_test(tc, test_other_signal_handlers_work);

	tc = tcase(s, "census");
	tcase_add_test(tc, test_mlock_works_under_malloc);
	tcase_add_test(tc, test_mlock_needs_malloc);
	tcase_add_test(tc, test_capget_works_under_any_flag);
	tcase_add_test(tc, test_sched_queries_of_self_work_without_proc);
	tcase_add_test(tc, test_sched_queries_of_other_work_with_proc);
	tcase_add_test(tc, test_undumpable_works_under_any_flag);
	tcase_add_test(tc, test_mce_kill_policy_works_under_any_flag);
	tcase_add_test(tc, test_memfd_works_under_malloc);
	tcase_add_loop_test(tc, test_netlink_audit_is_eprotonosupport, 0, 2);
	tcase_add_test(tc, test_seccomp_questions_work_under_any_flag);
	tcase_add_test(tc, test_get_mempolicy_works_under_any_flag);
	tcase_add_test(tc, test_set_mempolicy_works_under_malloc);
	tcase_add_test(tc, test_pkeys_work_under_malloc);
	tcase_add_test(tc, test_sched_setattr_works_with_proc);

	tc = tcase(s, "exec");
	tcase_add_test(tc, test_execve_kills_even_with_all);
	tcase_add_test(tc, test_execveat_kills_even_with_all);

	return s;
}

TAME_TEST_MAIN(proc_net_suite)
