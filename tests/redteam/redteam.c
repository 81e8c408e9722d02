/* SPDX-License-Identifier: ISC */
/*
 * redteam.c: the red-team cases' shared code (redteam.h says what each
 * part is for).  Nothing here calls into libtame but through pledge(),
 * tame() and unveil().
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <arpa/inet.h>

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "redteam.h"

struct rt_shared *rt_sh;

static const char *name = "redteam";
static char dir[PATH_MAX];
static pid_t owner;			/* the process that cleans up */
static int verbose;

/* What rt_finish() prints, and the verdict. */
static char lines[8192];
static int n_escaped, n_held, n_na, n_broken;

/* The child's ends of its two pipes (rt_spawn). */
static int kid_up = -1, kid_down = -1;

static void
line(const char *tag, const char *fmt, va_list ap)
{
	size_t n = strlen(lines);

	if (n + 8 >= sizeof(lines))
		return;
	n += (size_t)snprintf(lines + n, sizeof(lines) - n, "%s: ", tag);
	if (n < sizeof(lines))
		n += (size_t)vsnprintf(lines + n, sizeof(lines) - n, fmt, ap);
	if (n < sizeof(lines) - 1)
		strcat(lines, "\n");
	else
		lines[sizeof(lines) - 2] = '\n';
}

#define VERDICT(fn, tag, counter) \
void fn(const char *fmt, ...) \
{ \
	va_list ap; \
	va_start(ap, fmt); \
	line(tag, fmt, ap); \
	va_end(ap); \
	counter++; \
}
VERDICT(rt_escaped, "escaped", n_escaped)
VERDICT(rt_held, "held", n_held)
VERDICT(rt_na, "n/a", n_na)
VERDICT(rt_broken, "broken", n_broken)

void
rt_debug(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "%s[%d]: ", name, (int)getpid());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(p);
	return 0;
}

static void
cleanup(void)
{
	if (getpid() != owner || dir[0] == '\0')
		return;
	/* a test may have left files it cannot remove (immutable, 0000) */
	chmod(dir, 0700);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	dir[0] = '\0';
}

void
rt_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("error: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	cleanup();
	exit(3);
}

void
rt_init(int argc, char **argv)
{
	struct rlimit rl = { 0, 0 };
	const char *base, *p;
	char tmpl[PATH_MAX];

	(void)argc;
	if (argv[0] != NULL)
		name = (p = strrchr(argv[0], '/')) != NULL ? p + 1 : argv[0];
	verbose = getenv("REDTEAM_VERBOSE") != NULL;
	/* violations dump core where limits allow: none in the tree */
	setrlimit(RLIMIT_CORE, &rl);
	/* a connection refused or a pipe closed must not kill the parent */
	signal(SIGPIPE, SIG_IGN);
	/* any process of this user may read and write us (/proc/PID/mem),
	 * as with Yama off: only the sandbox may stand in the way */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	rt_sh = mmap(NULL, sizeof(*rt_sh), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rt_sh == MAP_FAILED)
		rt_fatal("mmap: %s", strerror(errno));
	/* not /tmp: tmppath grants it, and the cases are about the rest */
	if ((base = getenv("REDTEAM_TMP")) == NULL || *base == '\0')
		base = "/var/tmp";
	snprintf(tmpl, sizeof(tmpl), "%s/%s.XXXXXX", base, name);
	if (mkdtemp(tmpl) == NULL)
		rt_fatal("mkdtemp %s: %s", tmpl, strerror(errno));
	if (realpath(tmpl, dir) == NULL)
		rt_fatal("realpath %s: %s", tmpl, strerror(errno));
	owner = getpid();
	atexit(cleanup);
	srandom((unsigned)time(NULL) ^ (unsigned)getpid());
}

int
rt_finish(void)
{
	fputs(lines, stdout);
	fflush(stdout);
	cleanup();
	if (n_escaped)
		return RT_ESCAPED;
	if (n_broken)
		return RT_BROKEN;
	if (n_held)
		return RT_HELD;
	if (n_na)
		return RT_NA;
	printf("error: no verdict\n");
	return 3;
}

const char *
rt_dir(void)
{
	return dir;
}

const char *
rt_path(const char *fmt, ...)
{
	static char bufs[8][PATH_MAX];
	static int next;
	char *b = bufs[next++ % 8];
	va_list ap;
	int n;

	n = snprintf(b, PATH_MAX, "%s/", dir);
	va_start(ap, fmt);
	vsnprintf(b + n, (size_t)(PATH_MAX - n), fmt, ap);
	va_end(ap);
	return b;
}

int
rt_exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

int
rt_is_root(void)
{
	return geteuid() == 0;
}

const char *
rt_build(const char *what)
{
	static char bufs[4][PATH_MAX];
	static int next;
	char *b = bufs[next++ % 4], rel[PATH_MAX];
	const char *B = getenv("B");

	snprintf(rel, sizeof(rel), "%s/%s", B != NULL && *B ? B : "build",
	    what);
	if (realpath(rel, b) == NULL)
		snprintf(b, PATH_MAX, "%s", rel);
	return b;
}

/* ------------------------------------------------------------------ */
/* The secret.                                                         */
/* ------------------------------------------------------------------ */

static int
slurp(const char *path, char *buf, size_t max, size_t *len)
{
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, max);
	close(fd);
	if (n <= 0)
		return -1;
	*len = (size_t)n;
	return 0;
}

void
rt_secret(struct rt_secret *s, const char *path)
{
	int fd, i;

	memset(s, 0, sizeof(*s));
	if (path == NULL && rt_is_root() &&
	    slurp("/etc/shadow", s->data, sizeof(s->data), &s->len) == 0 &&
	    s->len >= 16) {
		strcpy(s->path, "/etc/shadow");
		strcpy(s->label, "/etc/shadow");
		return;
	}
	snprintf(s->path, sizeof(s->path), "%s",
	    path != NULL ? path : rt_path("secret"));
	snprintf(s->label, sizeof(s->label), "a 0600 file of its own");
	s->len = (size_t)snprintf(s->data, sizeof(s->data),
	    "secret of %s:", name);
	for (i = 0; i < 32; i++)
		s->data[s->len++] = "abcdefghijklmnopqrstuvwxyz012345"
		    [random() % 32];
	s->data[s->len++] = '\n';
	if ((fd = open(s->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1 || write(fd, s->data, s->len) != (ssize_t)s->len)
		rt_fatal("%s: %s", s->path, strerror(errno));
	close(fd);
}

int
rt_secret_in(const struct rt_secret *s, const void *buf, size_t n)
{
	size_t want = s->len < 16 ? s->len : 16;

	return n >= want && memmem(buf, n, s->data, want) != NULL;
}

/* ------------------------------------------------------------------ */
/* Children.                                                           */
/* ------------------------------------------------------------------ */

void
rt_spawn(struct rt_kid *k, int (*fn)(void *), void *arg)
{
	int up[2], down[2];

	memset(k, 0, sizeof(*k));
	memset(rt_sh, 0, sizeof(*rt_sh));
	if (pipe2(up, O_CLOEXEC) == -1 || pipe2(down, O_CLOEXEC) == -1)
		rt_fatal("pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((k->pid = fork()) == -1)
		rt_fatal("fork: %s", strerror(errno));
	if (k->pid == 0) {
		/* a group of its own: what it leaves running ends with it */
		setpgid(0, 0);
		close(up[0]);
		close(down[1]);
		kid_up = up[1];
		kid_down = down[0];
		_exit(fn(arg));
	}
	close(up[1]);
	close(down[0]);
	k->up = up[0];
	k->down = down[1];
}

/* Wait at most ms for fd to be readable: 1, or 0 on timeout. */
static int
readable(int fd, int ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int r;

	while ((r = poll(&p, 1, ms)) == -1 && errno == EINTR)
		;
	return r > 0;
}

int
rt_reap(struct rt_kid *k)
{
	struct timespec t0, t;
	long ms;
	pid_t r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (k->pid > 0) {
		r = waitpid(k->pid, &k->status, WNOHANG);
		if (r == k->pid)
			break;
		if (r == -1 && errno != EINTR) {
			k->status = -1;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = (t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms > RT_WAIT_MS) {
			rt_debug("child %d hung: killed", (int)k->pid);
			kill(-k->pid, SIGKILL);
			kill(k->pid, SIGKILL);
			waitpid(k->pid, &k->status, 0);
			break;
		}
		usleep(ms < 100 ? 1000 : 20000);
	}
	/*
	 * Its children may still run (an attacker scanning memory, a
	 * supervisor): they would keep the pipe to redteam.sh open.
	 */
	if (k->pid > 0)
		kill(-k->pid, SIGKILL);
	if (k->pid > 0)
		rt_debug("child ended: %s", rt_how(k->status));
	k->pid = 0;
	if (k->up >= 0)
		close(k->up);
	if (k->down >= 0)
		close(k->down);
	k->up = k->down = -1;
	return k->status;
}

int
rt_stopped(struct rt_kid *k)
{
	int i;
	pid_t r;

	for (i = 0; i < RT_WAIT_MS / 5; i++) {
		r = waitpid(k->pid, &k->status, WUNTRACED | WNOHANG);
		if (r == k->pid && WIFSTOPPED(k->status))
			return 1;
		if (r == k->pid) {
			k->pid = 0;		/* ended: reaped */
			return 0;
		}
		usleep(5000);
	}
	return 0;
}

int
rt_kill(struct rt_kid *k)
{
	if (k->pid > 0) {
		kill(k->pid, SIGKILL);
		/* a stopped child dies too once it is continued */
		kill(k->pid, SIGCONT);
	}
	return rt_reap(k);
}

const char *
rt_how(int status)
{
	static char b[4][64];
	static int next;
	char *s = b[next++ % 4];

	if (status == -1)
		snprintf(s, 64, "not waited for");
	else if (WIFEXITED(status))
		snprintf(s, 64, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(s, 64, "%s", sigabbrev_np(WTERMSIG(status)) != NULL ?
		    sigabbrev_np(WTERMSIG(status)) : "a signal");
	else
		snprintf(s, 64, "status %#x", status);
	if (WIFSIGNALED(status) && s[0] != 'a') {
		memmove(s + 3, s, strlen(s) + 1);
		memcpy(s, "SIG", 3);
	}
	return s;
}

int
rt_exited(int status, int code)
{
	return status != -1 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == code;
}

void
rt_ready(void)
{
	if (write(kid_up, "R", 1) != 1)
		_exit(RT_SETUP);
}

void
rt_await_go(void)
{
	char c;

	if (read(kid_down, &c, 1) != 1)
		_exit(RT_SETUP);	/* the parent is gone */
}

void
rt_tell(const void *buf, size_t n)
{
	const char *p = buf;
	ssize_t w;

	while (n > 0 && (w = write(kid_up, p, n)) > 0) {
		p += w;
		n -= (size_t)w;
	}
}

int
rt_heard(struct rt_kid *k)
{
	char c;

	if (!readable(k->up, RT_WAIT_MS) || read(k->up, &c, 1) != 1)
		return -1;
	return 0;
}

void
rt_go(struct rt_kid *k)
{
	if (write(k->down, "G", 1) != 1)
		rt_debug("go: the child is gone");
}

size_t
rt_listen(struct rt_kid *k, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;
	ssize_t r;

	while (got < n && readable(k->up, RT_WAIT_MS) &&
	    (r = read(k->up, p + got, n - got)) > 0)
		got += (size_t)r;
	return got;
}

size_t
rt_run(struct rt_kid *k, int (*fn)(void *), void *arg, void *buf, size_t n)
{
	size_t got;

	rt_spawn(k, fn, arg);
	got = rt_listen(k, buf, n);
	rt_reap(k);
	rt_check(k->status);
	return got;
}

void
rt_pledge(const char *promises, const char *execpromises)
{
	if (pledge(promises, execpromises) == -1) {
		rt_sh->err = errno;
		snprintf(rt_sh->note, sizeof(rt_sh->note), "pledge(%s%s%s, "
		    "%s%s%s): %s", promises ? "\"" : "",
		    promises ? promises : "NULL", promises ? "\"" : "",
		    execpromises ? "\"" : "",
		    execpromises ? execpromises : "NULL",
		    execpromises ? "\"" : "", strerror(errno));
		_exit(RT_NOPLEDGE);
	}
}

void
rt_tame(int flags)
{
	if (tame(flags) == -1) {
		rt_sh->err = errno;
		snprintf(rt_sh->note, sizeof(rt_sh->note), "tame(%#x): %s",
		    flags, strerror(errno));
		_exit(RT_NOPLEDGE);
	}
}

void
rt_unveil(const char *path, const char *perm)
{
	if (unveil(path, perm) == -1) {
		rt_sh->err = errno;
		snprintf(rt_sh->note, sizeof(rt_sh->note), "unveil(%s, %s): "
		    "%s", path ? path : "NULL", perm ? perm : "NULL",
		    strerror(errno));
		_exit(RT_NOPLEDGE);
	}
}

void
rt_two_dirs(void)
{
	if (mkdir(rt_path("visible"), 0755) == -1 ||
	    mkdir(rt_path("hidden"), 0755) == -1)
		rt_fatal("mkdir in %s: %s", dir, strerror(errno));
}

void
rt_hide(const char *promises)
{
	rt_unveil(rt_path("visible"), "rwc");
	if (promises != NULL)
		rt_pledge(promises, NULL);	/* locks unveil too */
	else
		rt_unveil(NULL, NULL);
}

const char *
rt_hide_label(const char *promises)
{
	static char b[4][160];
	static int next;
	char *s = b[next++ % 4];

	if (promises == NULL)
		snprintf(s, 160, "unveil(\"visible\", \"rwc\") alone");
	else
		snprintf(s, 160, "unveil(\"visible\", \"rwc\"), pledge(\"%s\")",
		    promises);
	return s;
}

void
rt_stdout_up(void)
{
	if (dup2(kid_up, 1) == -1)
		_exit(RT_SETUP);
}

void
rt_check(int status)
{
	static int said;

	if (!rt_exited(status, RT_NOPLEDGE))
		return;
	if (rt_sh->err == ENOSYS) {
		/* no seccomp filters or no Landlock: nothing to attack */
		rt_na("%s", rt_sh->note);
		exit(rt_finish());
	}
	if (rt_sh->err == EBUSY) {
		/* refused, and said why: nothing ran under it */
		if (!said++)
			rt_held("%s: refused, the attack never ran", rt_sh->note);
		return;
	}
	rt_fatal("%s", rt_sh->note);
}

int
rt_need_landlock(void)
{
	int abi = tame_landlock_abi();

	if (abi == 0)
		rt_na("Landlock (unveil needs it)");
	return abi;
}

static void *
waits(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

void
rt_second_thread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, waits, NULL) != 0)
		_exit(RT_SETUP);
}

/* ------------------------------------------------------------------ */
/* Effects.                                                            */
/* ------------------------------------------------------------------ */

void
rt_listen_inet(struct rt_listener *l)
{
	socklen_t len = sizeof(l->addr);

	memset(&l->addr, 0, sizeof(l->addr));
	l->addr.sin_family = AF_INET;
	l->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((l->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) == -1 ||
	    bind(l->fd, (struct sockaddr *)&l->addr, sizeof(l->addr)) == -1 ||
	    listen(l->fd, 64) == -1 ||
	    getsockname(l->fd, (struct sockaddr *)&l->addr, &len) == -1)
		rt_fatal("a listener on 127.0.0.1: %s", strerror(errno));
}

/*
 * A connection the child made is in the backlog once its connect()
 * returned, whether the child lives on or not: no waiting needed.
 */
int
rt_connected(struct rt_listener *l)
{
	int fd, n = 0;

	while ((fd = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC)) != -1) {
		close(fd);
		n++;
	}
	return n;
}

void
rt_block_usr1(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

int
rt_got_usr1(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	return sigtimedwait(&s, NULL, &zero) == SIGUSR1;
}

int
rt_cmd(char *const argv[], char *const env[], char *out, size_t outlen)
{
	extern char **environ;
	struct rt_kid k = { 0, -1, -1, 0 };
	char sink[256];
	int p[2], fd;
	size_t got = 0;
	ssize_t r;

	if (pipe2(p, O_CLOEXEC) == -1)
		rt_fatal("pipe: %s", strerror(errno));
	fflush(stdout);
	if ((k.pid = fork()) == -1)
		rt_fatal("fork: %s", strerror(errno));
	if (k.pid == 0) {
		if ((fd = open("/dev/null", O_RDWR)) != -1)
			dup2(fd, 0);
		dup2(p[1], 1);
		if (!verbose && fd != -1)
			dup2(fd, 2);
		execve(argv[0], argv, env != NULL ? env : environ);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		if (!readable(p[0], RT_WAIT_MS))
			break;
		if (out != NULL && got + 1 < outlen)
			r = read(p[0], out + got, outlen - got - 1);
		else
			r = read(p[0], sink, sizeof(sink));
		if (r <= 0)
			break;
		if (out != NULL && got + 1 < outlen)
			got += (size_t)r;
	}
	if (out != NULL && outlen > 0)
		out[got] = '\0';
	close(p[0]);
	return rt_reap(&k);
}

/* ------------------------------------------------------------------ */
/* Code.                                                               */
/* ------------------------------------------------------------------ */

#if defined(__x86_64__)
const unsigned char rt_svc[] = { 0x0f, 0x05 };
const unsigned char rt_svc_ret[] = { 0x0f, 0x05, 0xc3 };
/*
 * rt_jump(addr, regs): rbx keeps regs (a system call leaves it), the
 * target goes in r11 (the call clobbers it, but we jump first); the
 * return address is pushed as a call would, so that the found "ret"
 * comes back to 1:.
 */
__asm__(
	".text\n"
	".globl rt_jump\n"
	".type rt_jump, @function\n"
	"rt_jump:\n"
	"	push %rbx\n"
	"	mov %rsi, %rbx\n"
	"	mov %rdi, %r11\n"
	"	mov 0(%rbx), %rax\n"
	"	mov 8(%rbx), %rdi\n"
	"	mov 16(%rbx), %rsi\n"
	"	mov 24(%rbx), %rdx\n"
	"	mov 32(%rbx), %r10\n"
	"	mov 40(%rbx), %r8\n"
	"	mov 48(%rbx), %r9\n"
	"	lea 1f(%rip), %rcx\n"
	"	push %rcx\n"
	"	jmp *%r11\n"
	"1:\n"
	"	pop %rbx\n"
	"	ret\n"
	".size rt_jump, .-rt_jump\n");
#elif defined(__aarch64__)
const unsigned char rt_svc[] = { 0x01, 0x00, 0x00, 0xd4 };
const unsigned char rt_svc_ret[] = { 0x01, 0x00, 0x00, 0xd4,
    0xc0, 0x03, 0x5f, 0xd6 };
__asm__(
	".text\n"
	".globl rt_jump\n"
	".type rt_jump, %function\n"
	"rt_jump:\n"
	"	stp x29, x30, [sp, #-32]!\n"
	"	str x19, [sp, #16]\n"
	"	mov x19, x1\n"
	"	mov x16, x0\n"
	"	ldr x8, [x19, #0]\n"
	"	ldr x0, [x19, #8]\n"
	"	ldr x1, [x19, #16]\n"
	"	ldr x2, [x19, #24]\n"
	"	ldr x3, [x19, #32]\n"
	"	ldr x4, [x19, #40]\n"
	"	ldr x5, [x19, #48]\n"
	"	adr x30, 1f\n"
	"	br x16\n"
	"1:\n"
	"	ldr x19, [sp, #16]\n"
	"	ldp x29, x30, [sp], #32\n"
	"	ret\n"
	".size rt_jump, .-rt_jump\n");
#else
#error "the red-team cases know x86-64 and aarch64"
#endif
const size_t rt_svc_len = sizeof(rt_svc);
const size_t rt_svc_ret_len = sizeof(rt_svc_ret);

static int scan(struct rt_gadget *, int, const unsigned char *, size_t,
    int);

int
rt_gadgets(struct rt_gadget *g, int max)
{
	return scan(g, max, rt_svc_ret, rt_svc_ret_len, 0);
}

int
rt_svcs(struct rt_gadget *g, int max)
{
	return scan(g, max, rt_svc, rt_svc_len, 1);
}

/*
 * Every place in the executable mappings holding pat (at an instruction
 * boundary on aarch64); main_only: in the main program alone.
 */
static int
scan(struct rt_gadget *g, int max, const unsigned char *pat, size_t len,
    int main_only)
{
	char l[512], perm[8], *file, self[PATH_MAX] = "";
	unsigned long lo, hi, off;
	const unsigned char *p;
	const char *base;
	ssize_t sl;
	FILE *f;
	int n = 0, main_first;

	if ((sl = readlink("/proc/self/exe", self, sizeof(self) - 1)) > 0)
		self[sl] = '\0';
	if ((f = fopen("/proc/self/maps", "re")) == NULL)
		rt_fatal("/proc/self/maps: %s", strerror(errno));
	/*
	 * Two passes: the main program's mappings first (libtame is linked
	 * into it statically), then the libraries, the loader and the
	 * vDSO: a case that stops at the first way out stops sooner.
	 */
	for (main_first = 1; main_first >= main_only; main_first--) {
		rewind(f);
		while (fgets(l, sizeof(l), f) != NULL) {
			l[strcspn(l, "\n")] = '\0';
			if (sscanf(l, "%lx-%lx %7s %lx", &lo, &hi, perm,
			    &off) != 4 || perm[0] != 'r' || perm[2] != 'x')
				continue;	/* [vsyscall] is --x: not read */
			file = strchr(l, '/') ? strchr(l, '/') : strchr(l, '[');
			if ((file != NULL && strcmp(file, self) == 0) !=
			    main_first)
				continue;
			base = file == NULL ? "anonymous" :
			    strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
			for (p = (const unsigned char *)lo;
			    p + len <= (const unsigned char *)hi;
			    p += rt_svc_len == 4 ? 4 : 1) {
				if (memcmp(p, pat, len) != 0)
					continue;
				if (n == max)
					break;
				g[n].addr = (uint64_t)(uintptr_t)p;
				/* where it is in its file, as objdump shows */
				snprintf(g[n].where, sizeof(g[n].where),
				    "%s+%#lx", base, (unsigned long)
				    ((uintptr_t)p - lo + off));
				n++;
			}
		}
	}
	fclose(f);
	return n;
}

void *
rt_code_page(const void *code, size_t len, int at_end)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p;

	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		rt_fatal("mmap: %s", strerror(errno));
	/* traps everywhere else: int3 / brk #0 */
#if defined(__x86_64__)
	memset(p, 0xcc, pg);
#else
	for (size_t i = 0; i < pg; i += 4)
		memcpy(p + i, (const unsigned char[]){ 0x00, 0x00, 0x20,
		    0xd4 }, 4);
#endif
	memcpy(at_end ? p + pg - len : p, code, len);
	if (mprotect(p, pg, PROT_READ | PROT_EXEC) == -1 ||
	    mprotect(p + pg, pg, PROT_NONE) == -1)
		rt_fatal("mprotect: %s", strerror(errno));
	__builtin___clear_cache((char *)p, (char *)p + pg);
	return p;
}

/*
 * The "ret" a page's end cannot hold: back to the address rt_jump put
 * on the stack (x86-64) or in x30 (aarch64), the result register as the
 * call left it.  Any other fault is a real one.
 */
static void
on_segv(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t at = (uint64_t)(uintptr_t)si->si_addr;

	(void)sig;
#if defined(__x86_64__)
	uint64_t ip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];

	if (ip % pg == 0 && (at == ip || at == 0)) {
		uint64_t *sp = (uint64_t *)uc->uc_mcontext.gregs[REG_RSP];

		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)*sp;
		uc->uc_mcontext.gregs[REG_RSP] += 8;
		return;
	}
#else
	uint64_t ip = uc->uc_mcontext.pc;

	if (ip % pg == 0 && at == ip) {
		uc->uc_mcontext.pc = uc->uc_mcontext.regs[30];
		return;
	}
#endif
	_exit(RT_SETUP + 3);		/* a real fault */
}

void
rt_fault_returns(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) == -1)
		rt_fatal("sigaction: %s", strerror(errno));
}

int
rt_own_code(uint64_t *lo, uint64_t *hi)
{
	char l[512], perm[8], self[PATH_MAX];
	unsigned long a, b;
	ssize_t sl;
	FILE *f;
	int r = -1;

	if ((sl = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0 ||
	    (f = fopen("/proc/self/maps", "re")) == NULL)
		return -1;
	self[sl] = '\0';
	while (r == -1 && fgets(l, sizeof(l), f) != NULL) {
		l[strcspn(l, "\n")] = '\0';
		if (sscanf(l, "%lx-%lx %7s", &a, &b, perm) == 3 &&
		    perm[2] == 'x' && strchr(l, '/') != NULL &&
		    strcmp(strchr(l, '/'), self) == 0) {
			*lo = a;
			*hi = b;
			r = 0;
		}
	}
	fclose(f);
	return r;
}

/* ------------------------------------------------------------------ */
/* The attacker's own ELF images.                                      */
/* ------------------------------------------------------------------ */

#define HDRS		(sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr))
#define DATA_END	1152		/* code starts here */

void
rt_img_init(struct rt_image *im, uint64_t base)
{
	memset(im, 0, sizeof(*im));
	im->base = base;
	im->data = (HDRS + 15) & ~(size_t)15;
	im->len = DATA_END;
}

uint64_t
rt_img_data(struct rt_image *im, const void *p, size_t n)
{
	uint64_t at = im->base + im->data;

	if (im->data + n > DATA_END)
		rt_fatal("image: too much data");
	memcpy(im->buf + im->data, p, n);
	im->data = (im->data + n + 15) & ~(size_t)15;
	return at;
}

uint64_t
rt_img_str(struct rt_image *im, const char *s)
{
	return rt_img_data(im, s, strlen(s) + 1);
}

static void
emit(struct rt_image *im, const void *p, size_t n)
{
	if (im->len + n > sizeof(im->buf))
		rt_fatal("image: too much code");
	memcpy(im->buf + im->len, p, n);
	im->len += n;
}

uint64_t
rt_img_here(const struct rt_image *im)
{
	return im->base + im->len;
}

#if defined(__x86_64__)
/* movabs reg, imm64: rax rdi rsi rdx r10 r8 r9 */
static const unsigned char movabs[7][2] = {
	{ 0x48, 0xb8 }, { 0x48, 0xbf }, { 0x48, 0xbe }, { 0x48, 0xba },
	{ 0x49, 0xba }, { 0x49, 0xb8 }, { 0x49, 0xb9 },
};

static void
load(struct rt_image *im, int reg, uint64_t v)
{
	emit(im, movabs[reg], 2);
	emit(im, &v, 8);
}

void
rt_img_load(struct rt_image *im, long nr, int n, const uint64_t *a)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i == 0 && a[0] == RT_PREV)
			emit(im, (const unsigned char[]){ 0x48, 0x89, 0xc7 },
			    3);		/* mov %rax, %rdi */
		else
			load(im, i + 1, a[i]);
	}
	load(im, 0, (uint64_t)nr);
}

void
rt_img_goto(struct rt_image *im, uint64_t addr)
{
	int64_t rel = (int64_t)(addr - (rt_img_here(im) + 5));
	int32_t r32 = (int32_t)rel;

	if (addr < rt_img_here(im) + 5 ||
	    addr - im->base > sizeof(im->buf) - 64)
		rt_fatal("image: cannot go to %#lx", (unsigned long)addr);
	emit(im, (const unsigned char[]){ 0xe9 }, 1);
	emit(im, &r32, 4);
	while (rt_img_here(im) < addr)
		emit(im, (const unsigned char[]){ 0xcc }, 1);
}
#else
static void
load(struct rt_image *im, int reg, uint64_t v)
{
	uint32_t w;
	int hw;

	for (hw = 0; hw < 4; hw++) {
		w = (hw == 0 ? 0xd2800000u : 0xf2800000u) |
		    (uint32_t)hw << 21 |
		    (uint32_t)((v >> (16 * hw)) & 0xffff) << 5 | (uint32_t)reg;
		emit(im, &w, 4);
	}
}

void
rt_img_load(struct rt_image *im, long nr, int n, const uint64_t *a)
{
	int i;

	for (i = 0; i < n; i++)
		if (!(i == 0 && a[0] == RT_PREV))	/* x0 holds it */
			load(im, i, a[i]);
	load(im, 8, (uint64_t)nr);
}

void
rt_img_goto(struct rt_image *im, uint64_t addr)
{
	uint32_t w;
	int64_t rel = (int64_t)(addr - rt_img_here(im));

	if (addr < rt_img_here(im) + 4 || addr % 4 != 0 ||
	    addr - im->base > sizeof(im->buf) - 64)
		rt_fatal("image: cannot go to %#lx", (unsigned long)addr);
	w = 0x14000000u | (uint32_t)((rel / 4) & 0x3ffffff);
	emit(im, &w, 4);
	while (rt_img_here(im) < addr) {
		w = 0xd4200000u;		/* brk #0 */
		emit(im, &w, 4);
	}
}
#endif

void
rt_img_svc(struct rt_image *im)
{
	emit(im, rt_svc, rt_svc_len);
}

void
rt_img_call(struct rt_image *im, long nr, int n, ...)
{
	uint64_t a[6];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n && i < 6; i++)
		a[i] = va_arg(ap, uint64_t);
	va_end(ap);
	rt_img_load(im, nr, n, a);
	rt_img_svc(im);
}

void
rt_img_exit(struct rt_image *im)
{
	rt_img_call(im, SYS_exit_group, 1, RT_PREV);
}

int
rt_img_write(const struct rt_image *im, const char *path)
{
	unsigned char out[sizeof(im->buf)];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd;

	memcpy(out, im->buf, im->len);
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
#if defined(__x86_64__)
	eh.e_machine = EM_X86_64;
#else
	eh.e_machine = EM_AARCH64;
#endif
	eh.e_version = EV_CURRENT;
	eh.e_entry = im->base + DATA_END;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_offset = 0;
	ph.p_vaddr = ph.p_paddr = im->base;
	ph.p_filesz = ph.p_memsz = im->len;
	ph.p_align = 4096;
	memcpy(out, &eh, sizeof(eh));
	memcpy(out + sizeof(eh), &ph, sizeof(ph));
	if (path != NULL)
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	else
		fd = memfd_create("redteam-image", MFD_CLOEXEC);
	if (fd == -1)
		return -1;
	if (write(fd, out, im->len) != (ssize_t)im->len) {
		close(fd);
		return -1;
	}
	return fd;
}

const char *
rt_loader(void)
{
	static char interp[PATH_MAX];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, i;

	if ((fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		goto none;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff +
		    (uint64_t)i * eh.e_phentsize)) != sizeof(ph))
			goto none;
		if (ph.p_type == PT_INTERP && ph.p_filesz < sizeof(interp) &&
		    pread(fd, interp, ph.p_filesz, (off_t)ph.p_offset) ==
		    (ssize_t)ph.p_filesz) {
			close(fd);
			interp[ph.p_filesz] = '\0';
			return interp;
		}
	}
none:
	close(fd);
	return NULL;
}
