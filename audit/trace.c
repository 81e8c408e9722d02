/* SPDX-License-Identifier: ISC */
/*
 * trace.c: run the command under strace, its log to a file.
 *
 * An unmodified program runs as tame-exec would run it, with every
 * flag: tame-exec's preload calls tame() once the dynamic loader is
 * done, and TAME_AUDIT=permissive (honoured only under a tracer) makes
 * that call leave its marker in the log without installing a filter.
 * Everything after the marker is the program's own, and nothing stops
 * it at the first call its flags would refuse.  That run loads no name
 * service module early ("permissive-cold"): a program suggested fewer
 * flags would not either, and the audit must see those loads.  A program
 * that calls tame() itself runs directly, under TAME_AUDIT=permissive:
 * each of its calls leaves a marker with the flags it declared, and
 * loads what that call would.
 *
 * strace writes to a file (-o), never to the command's stderr:
 *	-f	every process and thread
 *	-yy	descriptors with their paths and socket endpoints
 *	-X verbose	numbers with their names: the number decides
 *	-s 256	enough of each string (paths are never cut)
 *	-k	with --where only: each call's stack (20 to 35x slower)
 */
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/capability.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rerun.h"
#include "trace.h"
#include "view.h"

/* Where argv holds the log's path, which the child fills in. */
#define LOG_ARG	8

/*
 * strace -V lists its optional features; "stack-trace=" (libunwind or
 * libdw) is what -k needs.  Without it strace refuses -k before it runs
 * anything, and the audit would only see an empty log.
 */
int
trace_has_stacks(const char *strace)
{
	char buf[4096];
	size_t len = 0;
	ssize_t n;
	pid_t pid;
	int p[2], status;

	if (pipe(p) == -1)
		return -1;
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		execl(strace, strace, "-V", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (len < sizeof(buf) - 1 &&
	    (n = read(p[0], buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	return strstr(buf, "stack-trace=") != NULL;
}

/* name in PATH (or name itself when it has a '/'), into out. */
int
trace_find(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;
	size_t n;

	if (strchr(name, '/') != NULL) {
		snprintf(out, len, "%s", name);
		if (stat(out, &st) == -1)
			return -1;
		if (S_ISDIR(st.st_mode) || access(out, X_OK) == -1) {
			errno = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
			return -1;
		}
		return 0;
	}
	if (path == NULL || *path == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchr(p, ':');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n == 0)
			snprintf(out, len, "./%s", name);
		else
			snprintf(out, len, "%.*s/%s", (int)n, p, name);
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
		if (end == NULL)
			break;
	}
	errno = ENOENT;
	return -1;
}

/*
 * Our own directory, read once, before the hermetic view's mount
 * namespace (view.h): in a chroot (a guest of the kernel matrix) a
 * namespace made after our exec names our executable from the real root
 * ("/newroot/..."), which is no path in ours.
 */
static char	self_dir[PATH_MAX];

void
trace_find_self(void)
{
	ssize_t n;
	char *slash;

	if ((n = readlink("/proc/self/exe", self_dir, sizeof(self_dir) - 1))
	    == -1) {
		self_dir[0] = '\0';
		return;
	}
	self_dir[n] = '\0';
	if ((slash = strrchr(self_dir, '/')) != NULL)
		*slash = '\0';
	else
		self_dir[0] = '\0';
}

/* A file beside our own executable (tame-exec, installed together). */
int
trace_beside_self(const char *name, char *out, size_t len)
{
	if (self_dir[0] == '\0')
		trace_find_self();
	if (self_dir[0] == '\0')
		return -1;
	snprintf(out, len, "%s/%s", self_dir, name);
	return access(out, X_OK);
}

static volatile sig_atomic_t timed_out;
volatile pid_t	trace_running;
volatile sig_atomic_t	trace_stop;

static void
on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static const int	stop_sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };

void
trace_stop_signals(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaddset(set, stop_sigs[i]);
}

void
trace_on_stops(void (*handler)(int))
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaction(stop_sigs[i], &sa, NULL);
}

void
trace_end(void)
{
	pid_t pid = trace_running;

	if (pid > 0)
		kill(pid, SIGKILL);
}

/*
 * strace writes its log by a path, and the log is a descriptor of ours
 * (a memfd: nothing of it is left in any directory, whatever ends us).
 * Outside a view, strace opens ours, /proc/PID/fd/N of tame-audit.  In
 * a view, a process of the run's own namespaces holds it, since strace
 * sees neither our PID namespace nor, from a user namespace, may open
 * our descriptors; and a descriptor strace inherited would pass on to
 * the command.  The holder, a child of the run's first process (not of
 * strace's, which waits for all its children), has no capabilities
 * (else strace, without any, may not look at it), and goes once strace
 * has opened the log (its first line is written); the PID namespace's
 * end ends it otherwise.  Into path, the /proc path, by the pid the
 * holder reads in /proc (which PID namespace /proc shows is its
 * mount's).
 */
static int
hold_log(int fd, char *path, size_t len)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
	    0 };
	struct __user_cap_data_struct none[2];
	struct stat st;
	char self[32];
	ssize_t n;
	int p[2];

	if (pipe(p) == -1)
		return -1;
	switch (fork()) {
	case -1:
		return -1;
	case 0:
		n = readlink("/proc/self", self, sizeof(self) - 1);
		(void)write(p[1], self, n > 0 ? (size_t)n : 0);
		memset(none, 0, sizeof(none));
		(void)syscall(SYS_capset, &hdr, none);
		if (fd > 0)
			(void)close_range(0, (unsigned)fd - 1, 0);
		(void)close_range((unsigned)fd + 1, ~0U, 0);
		while (fstat(fd, &st) == 0 && st.st_size == 0)
			usleep(2000);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], self, sizeof(self) - 1);
	close(p[0]);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	snprintf(path, len, "/proc/%s/fd/%d", self, fd);
	return 0;
}

/* A message on the run's report socket: its type, and what it carries. */
static void
say(int to, char type, const void *data, size_t len)
{
	char buf[600];

	buf[0] = type;
	if (len > sizeof(buf) - 1)
		len = sizeof(buf) - 1;
	memcpy(buf + 1, data, len);
	(void)send(to, buf, len + 1, MSG_NOSIGNAL);
}

/* The child cannot make the run: why, before anything ran. */
static void
give_up(int report, const char *why)
{
	if (report >= 0)
		say(report, 'E', why, strlen(why));
	else
		fprintf(stderr, "tame-audit: %s\n", why);
	_exit(127);
}

/* The command (or strace), in the run's last process. */
static void
exec_command(const struct trace_opts *o, char **argv)
{
	if (o->strace == NULL)
		unsetenv("TAME_AUDIT");	/* a real run: --verify */
	else
		setenv("TAME_AUDIT", (o->tame_exec != NULL &&
		    o->flags_all) || o->cold ? "permissive-cold" :
		    "permissive", 1);
	if (o->strace == NULL && o->tame_exec == NULL)
		execvp(argv[0], argv);	/* the command as a shell would */
	else
		execv(argv[0], argv);
	fprintf(stderr, "tame-audit: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The log's path into argv: in a view, a holder's; else ours. */
static void
log_path(const struct trace_opts *o, char **argv, char *path, size_t len,
    int report, pid_t ours)
{
	if (o->strace == NULL)
		return;
	if (report < 0)
		snprintf(path, len, "/proc/%ld/fd/%d", (long)ours, o->log_fd);
	else if (hold_log(o->log_fd, path, len) == -1)
		give_up(report, "a holder for strace's log: cannot fork");
	argv[LOG_ARG] = path;
}

/*
 * The first process of the run's PID namespace: it mounts a /proc of
 * the namespace's own (no process outside the run, ours included, is in
 * it: /proc/PID/root leads nowhere out of the view), says the run is
 * under way, runs the command, reaps every orphan, and sends the
 * command's wait status.  Its end ends every process left in the
 * namespace: a run in a view leaves nothing behind.
 */
static void
init_child(const struct trace_opts *o, char **argv, int report)
{
	char path[64], why[300];
	pid_t cmd, w;
	int status = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL) == -1 && !o->view->userns) {
		snprintf(why, sizeof(why), "a /proc of the run's own: %s",
		    strerror(errno));
		give_up(report, why);
	}
	log_path(o, argv, path, sizeof(path), report, 0);
	say(report, 'R', "", 0);
	if ((cmd = fork()) == -1)
		give_up(report, "fork");
	if (cmd == 0) {
		close(report);
		exec_command(o, argv);
	}
	while ((w = waitpid(-1, &status, 0)) != cmd)
		if (w == -1 && errno != EINTR)
			break;
	say(report, 'S', &status, sizeof(status));
	_exit(0);
}

/*
 * The run's child, in a view: it enters the view, and makes its first
 * process that of a new PID namespace (init_child), then waits for it.
 */
static void
view_child(const struct trace_opts *o, char **argv, int report)
{
	char why[512];
	pid_t init;
	int status;

	if (view_enter(o->view, report, why, sizeof(why)) == -1)
		give_up(report, why);
	if (o->view_file != NULL && view_write(o->view_file, o->view_text,
	    why, sizeof(why)) == -1)
		give_up(report, why);
	if (unshare(CLONE_NEWPID) == -1) {
		snprintf(why, sizeof(why), "no PID namespace for us: %s",
		    strerror(errno));
		give_up(report, why);
	}
	if ((init = fork()) == -1)
		give_up(report, "fork");
	if (init == 0)
		init_child(o, argv, report);
	while (waitpid(init, &status, 0) == -1 && errno == EINTR)
		;
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/* In the run's child: its streams, its view, and the command. */
static void
child(const struct trace_opts *o, char **argv, int report, pid_t parent,
    const sigset_t *mask)
{
	char path[64];

	trace_on_stops(SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* to end it and all it started; a terminal's reader stays ours */
	if (o->timeout > 0 && o->view == NULL && !isatty(0))
		setpgid(0, 0);
	if ((o->in_fd >= 0 && dup2(o->in_fd, 0) == -1) ||
	    (o->out_fd >= 0 && dup2(o->out_fd, 1) == -1) ||
	    (o->err_fd >= 0 && dup2(o->err_fd, 2) == -1))
		_exit(127);
	rerun_close_std();
	/* its processes that do not exec hold nothing else of ours */
	rerun_close_ours(report, o->strace != NULL ? o->log_fd : -1);
	if (o->view != NULL)
		view_child(o, argv, report);
	log_path(o, argv, path, sizeof(path), -1, parent);
	exec_command(o, argv);
}

/*
 * The run's report, from its child: the layers' descriptor ('L'), why
 * it could not be made ('E'), that it is under way ('R'), the command's
 * wait status ('S').  first: until 'R' or 'E' (or the end), waiting.
 */
static void
read_report(int from, struct trace_result *r, int first, int *status,
    int *got_status)
{
	char buf[sizeof(r->view_error) + 1], ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = { buf, sizeof(buf) - 1 };
	struct msghdr msg;
	struct cmsghdr *c;
	ssize_t n;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = &io;
		msg.msg_iovlen = 1;
		msg.msg_control = ctl;
		msg.msg_controllen = sizeof(ctl);
		while ((n = recvmsg(from, &msg, (first ? 0 : MSG_DONTWAIT) |
		    MSG_CMSG_CLOEXEC)) == -1 && errno == EINTR && first)
			;
		if (n <= 0)
			return;
		c = CMSG_FIRSTHDR(&msg);
		if (c != NULL && c->cmsg_type == SCM_RIGHTS) {
			if (r->layers >= 0)
				close(r->layers);
			memcpy(&r->layers, CMSG_DATA(c), sizeof(int));
		} else if (buf[0] == 'E') {
			buf[n] = '\0';
			snprintf(r->view_error, sizeof(r->view_error), "%s",
			    buf + 1);
		} else if (buf[0] == 'S' && n == 1 + (ssize_t)sizeof(int)) {
			memcpy(status, buf + 1, sizeof(int));
			*got_status = 1;
		}
		if (first && (buf[0] == 'R' || buf[0] == 'E'))
			return;
	}
}

int
trace_run(const struct trace_opts *o, struct trace_result *r)
{
	char *argv[64 + 1024], load[PATH_MAX * 4], *m, *save;
	int k = 0, i, status, told = 0, report[2] = { -1, -1 };
	struct sigaction sa;
	sigset_t stops, mask;
	pid_t pid, w, parent = getpid();

	memset(r, 0, sizeof(*r));
	r->layers = -1;
	if (o->strace != NULL) {
		argv[k++] = (char *)o->strace;
		argv[k++] = "-f";
		argv[k++] = "-yy";
		argv[k++] = "-X";
		argv[k++] = "verbose";
		argv[k++] = "-s";
		argv[k++] = "256";
		argv[k++] = "-o";
		argv[k++] = NULL;	/* LOG_ARG: the child's holder */
		if (o->stack)
			argv[k++] = "-k";
		argv[k++] = "--";
	}
	if (o->tame_exec != NULL && o->profile != NULL) {
		argv[k++] = (char *)o->tame_exec;
		argv[k++] = "--profile";
		argv[k++] = (char *)o->profile;
		argv[k++] = "--";
	} else if (o->tame_exec != NULL) {
		argv[k++] = (char *)o->tame_exec;
		/* every program of the tree marked and tamed (tree.h) */
		if (o->tree)
			argv[k++] = "--tree";
		argv[k++] = "-f";
		argv[k++] = (char *)o->flags;
		if (o->load != NULL) {
			if (strlen(o->load) >= sizeof(load)) {
				errno = E2BIG;
				return -1;
			}
			strcpy(load, o->load);
			for (m = strtok_r(load, ":", &save); m != NULL &&
			    k < 64 + 512; m = strtok_r(NULL, ":", &save)) {
				argv[k++] = "-l";
				argv[k++] = m;
			}
		}
		argv[k++] = "--";
	}
	for (i = 0; o->argv[i] != NULL && k < (int)(sizeof(argv) /
	    sizeof(argv[0])) - 1; i++)
		argv[k++] = o->argv[i];
	if (o->argv[i] != NULL) {
		errno = E2BIG;
		return -1;
	}
	argv[k] = NULL;

	if (o->view != NULL && socketpair(AF_UNIX, SOCK_SEQPACKET |
	    SOCK_CLOEXEC, 0, report) == -1)
		return -1;
	/* a stop asked for before the run began: no run (trace_stop) */
	trace_stop_signals(&stops);
	sigprocmask(SIG_BLOCK, &stops, &mask);
	pid = trace_stop ? 0 : fork();
	if (pid == 0 && trace_stop)
		r->stopped = 1;
	else if (pid == 0)
		child(o, argv, report[1], parent, &mask);
	else if (pid > 0)
		trace_running = pid;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (pid <= 0) {
		if (report[0] != -1) {
			close(report[0]);
			close(report[1]);
		}
		return pid == -1 ? -1 : 0;
	}
	if (report[1] != -1) {
		close(report[1]);
		read_report(report[0], r, 1, &status, &told);
	}
	if (o->started != NULL && r->view_error[0] == '\0')
		o->started();
	if (o->timeout > 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);
		timed_out = 0;
		alarm((unsigned)o->timeout);
	}
	while ((w = waitpid(pid, &status, 0)) == -1 && errno == EINTR) {
		if (timed_out && !r->timed_out) {
			/* a view's run ends whole with its child */
			if (o->view != NULL || kill(-pid, SIGKILL) == -1)
				kill(pid, SIGKILL);
			r->timed_out = 1;
		}
	}
	alarm(0);
	trace_running = 0;
	r->status = status;
	if (report[0] != -1) {
		told = 0;
		read_report(report[0], r, 0, &status, &told);
		if (told)
			r->status = status;
		close(report[0]);
	}
	return w == -1 ? -1 : 0;
}
