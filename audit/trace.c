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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"
#include "view.h"

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

static void
on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

int
trace_run(const struct trace_opts *o, struct trace_result *r)
{
	char *argv[64 + 1024], why[512];
	int k = 0, i, status, fd, report[2] = { -1, -1 };
	ssize_t n;
	struct sigaction sa, old_int, old_quit;
	pid_t pid, w;

	memset(r, 0, sizeof(*r));
	if (o->strace != NULL) {
		argv[k++] = (char *)o->strace;
		argv[k++] = "-f";
		argv[k++] = "-yy";
		argv[k++] = "-X";
		argv[k++] = "verbose";
		argv[k++] = "-s";
		argv[k++] = "256";
		if (o->stack)
			argv[k++] = "-k";
		if (o->full_stat) {
			argv[k++] = "-e";
			argv[k++] = "abbrev=!%%stat";
		}
		argv[k++] = "-o";
		argv[k++] = (char *)o->log;
		argv[k++] = "--";
	}
	if (o->tame_exec != NULL) {
		argv[k++] = (char *)o->tame_exec;
		argv[k++] = "-f";
		argv[k++] = (char *)o->flags;
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

	/* a run that cannot enter its view says why here, and runs nothing */
	if (o->view != NULL && pipe2(report, O_CLOEXEC) == -1)
		return -1;
	/* like system(): the command, not us, takes the terminal's ^C */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGQUIT, &sa, &old_quit);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		if (o->timeout > 0)
			setpgid(0, 0);	/* to end it and all it started */
		if ((o->out_fd >= 0 && dup2(o->out_fd, 1) == -1) ||
		    (o->err_fd >= 0 && dup2(o->err_fd, 2) == -1))
			_exit(127);
		/* under every flag, warm nothing (see tame(3)) */
		if (o->tree && o->tame_exec != NULL)
			setenv("TAME_EXEC_TREE", "1", 1);
		else
			unsetenv("TAME_EXEC_TREE");
		if (o->view != NULL) {
			/* the trace goes through the view to the real file */
			if (o->log != NULL && (fd = open(o->log, O_WRONLY |
			    O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) != -1)
				close(fd);
			if (view_enter(o->view, o->run, o->log, why,
			    sizeof(why)) == -1) {
				(void)write(report[1], why, strlen(why));
				_exit(127);
			}
		}
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
		fprintf(stderr, "tame-audit: %s: %s\n", argv[0],
		    strerror(errno));
		_exit(127);
	}
	if (report[1] != -1)
		close(report[1]);
	if (o->timeout > 0) {
		setpgid(pid, pid);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);
		timed_out = 0;
		alarm((unsigned)o->timeout);
	}
	while ((w = waitpid(pid, &status, 0)) == -1 && errno == EINTR) {
		if (timed_out) {
			kill(-pid, SIGKILL);
			r->timed_out = 1;
		}
	}
	alarm(0);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (report[0] != -1) {
		n = read(report[0], r->view_error, sizeof(r->view_error) - 1);
		r->view_error[n > 0 ? n : 0] = '\0';
		close(report[0]);
	}
	if (w == -1)
		return -1;
	r->status = status;
	return 0;
}
