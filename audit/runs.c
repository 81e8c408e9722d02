/* SPDX-License-Identifier: ISC */
/*
 * runs.c: the runs of an audit (runs.h): whether they are made in views,
 * each run with its view, its log and its output, and a stop asked for
 * while one is under way.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "imports.h"
#include "options.h"
#include "profile_out.h"
#include "rerun.h"
#include "runs.h"
#include "tame.h"
#include "trace.h"
#include "tree.h"
#include "view.h"

/* A stop asked for: no run begins after it, the one under way ends. */
static void
on_stop(int sig)
{
	trace_stop = sig;
	trace_end();	/* the run is in a view: nothing of it is lost */
}

void
runs_stop_if_asked(void)
{
	const char *name;

	if (trace_stop == 0)
		return;
	name = sigabbrev_np(trace_stop);
	warnx("interrupted (SIG%s) during the audit's own runs, each in a "
	    "view: your files are untouched, and the command has not run "
	    "for you; no report", name != NULL ? name : "?");
	exit(130);
}

/*
 * One run only, the user's, traced in the real tree: say why, where the
 * user did not ask for it.
 */
static void
one_run(struct options *o, const char *why)
{
	snprintf(o->noview, sizeof(o->noview), "%.500s", why);
	if (o->verify)
		errx(1, "--verify makes a run in a view, and here %s", why);
	warnx("one run only, yours, traced (as with --once): %s "
	    "(tame-audit(1), HERMETIC RUNS)", why);
	o->once = 1;
	if (o->hermetic)
		view_close(&o->view);
	o->hermetic = o->ctx.hermetic = 0;
}

/*
 * A descriptor above 2 the command inherits that leads into the real
 * tree past any view: a file open for writing, or a directory (a run
 * could make files at it).  Its number, its path in path; or -1.
 */
static int
inherited_way_out(const struct options *o, char *path, size_t len)
{
	char link[64];
	struct dirent *e;
	struct stat st;
	ssize_t n;
	int fd, flags, found = -1;
	DIR *d;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return -1;
	while (found == -1 && (e = readdir(d)) != NULL) {
		fd = atoi(e->d_name);
		if (fd <= 2 || fd == dirfd(d) || fd == o->report_fd ||
		    (flags = fcntl(fd, F_GETFD)) == -1 ||
		    (flags & FD_CLOEXEC) || fstat(fd, &st) == -1)
			continue;
		flags = fcntl(fd, F_GETFL);
		if (S_ISDIR(st.st_mode) || ((S_ISREG(st.st_mode) ||
		    S_ISBLK(st.st_mode)) && (flags & O_ACCMODE) != O_RDONLY &&
		    !(flags & O_PATH))) {
			snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
			n = readlink(link, path, len - 1);
			path[n > 0 ? n : 0] = '\0';
			found = fd;
		}
	}
	closedir(d);
	return found;
}

char *
command_raised(const struct options *o)
{
	char cmd[PATH_MAX];

	if (o->argv == NULL || trace_find(o->argv[0], cmd, sizeof(cmd)) == -1)
		return NULL;
	return tree_raised_why(cmd);
}

void
runs_open(struct options *o)
{
	char why[PATH_MAX + 256], path[PATH_MAX], *raised;
	enum stdin_kind k;
	int fd;

	if (o->argv == NULL || o->nlogs > 0 || o->once) {
		o->ctx.hermetic = o->argv != NULL ? 0 : -1;
		return;
	}
	k = rerun_stdin_kind();
	if ((k == STDIN_TERMINAL || k == STDIN_OTHER) && o->verify)
		errx(EXIT_USAGE, "--verify runs the command twice: its "
		    "standard input must be a file, a pipe or /dev/null, not "
		    "%s", k == STDIN_TERMINAL ? "a terminal" : "a socket or "
		    "a device");
	if (k == STDIN_TERMINAL || k == STDIN_OTHER) {
		one_run(o, k == STDIN_TERMINAL ? "standard input is a "
		    "terminal, which cannot be given to a second run" :
		    "standard input (a socket or a device) cannot be given "
		    "to a second run");
		return;
	}
	if ((fd = inherited_way_out(o, path, sizeof(path))) != -1) {
		snprintf(why, sizeof(why), "descriptor %d, which the command "
		    "inherits, is %s, and a run in a view would change the "
		    "real tree through it", fd, path);
		one_run(o, why);
		return;
	}
	if (geteuid() != 0 && (raised = command_raised(o)) != NULL) {
		/* a user namespace would drop what it raises */
		free(raised);
		snprintf(why, sizeof(why), "%s is set-ID or has file "
		    "capabilities, which a user namespace would not honour",
		    o->argv[0]);
		one_run(o, why);
		return;
	}
	trace_find_self();	/* before any mount namespace of ours */
	if (view_open(&o->view, why, sizeof(why)) == -1) {
		one_run(o, why);
		return;
	}
	o->hermetic = o->ctx.hermetic = 1;
	trace_on_stops(on_stop);	/* for as long as runs in views go */
}

/*
 * The user's standard output and error one file (2>&1 into a file or a
 * pipe): a run in a view writes both into one capture, so that it
 * compares with what the user's run writes there.  A terminal is not
 * compared, and keeps them apart.
 */
int
runs_outputs_joined(void)
{
	struct stat a, b;

	return fstat(1, &a) == 0 && fstat(2, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino && !isatty(1);
}

/*
 * How a run in a view writes where the user's descriptor fd goes: into a
 * memfd where that is a regular file, /dev/null (what the run prints
 * still tells a deciding run whether the program went the same way) or
 * closed (the run closes it); else (a pipe, a terminal, a socket)
 * through a pipe to a drainer, which keeps 64 MiB, and for a pipe then
 * closes it.
 */
static void
capture_one(int fd, int *keep, int *to, pid_t *drainer)
{
	struct stat st;

	*to = *drainer = -1;
	if (rerun_std_closed(fd) || fstat(fd, &st) == -1 ||
	    S_ISREG(st.st_mode) || rerun_is_null(&st))
		*keep = rerun_capture();
	else
		*keep = rerun_drain(S_ISFIFO(st.st_mode), to, drainer);
}

void
runs_capture(struct run_out *ro)
{
	capture_one(1, &ro->out, &ro->to_out, &ro->drainer[0]);
	if (!runs_outputs_joined())
		capture_one(2, &ro->err, &ro->to_err, &ro->drainer[1]);
	else if ((ro->err = fcntl(ro->out, F_DUPFD_CLOEXEC, 0)) == -1 ||
	    (ro->to_out >= 0 && (ro->to_err = fcntl(ro->to_out,
	    F_DUPFD_CLOEXEC, 0)) == -1))
		err(1, "dup");
}

/* The run is over: its pipes' ends let go, its drainers done. */
static void
settle(struct run_out *ro)
{
	int i, k;

	if (ro->to_out >= 0)
		close(ro->to_out);
	if (ro->to_err >= 0)
		close(ro->to_err);
	ro->to_out = ro->to_err = -1;
	for (i = 0; i < 2; i++)
		if (ro->drainer[i] > 0) {
			k = rerun_drained(ro->drainer[i]);
			ro->cut |= (k != 0) << i;
			ro->closed |= (k == 2) << i;
			ro->drainer[i] = -1;
		}
	if (ro->cut & 1 && ro->err >= 0 && runs_outputs_joined())
		ro->cut |= 2;
}

/* The descriptors a run writes its output to. */
static void
outputs(const struct run_out *ro, struct trace_opts *t)
{
	t->out_fd = ro->to_out >= 0 ? ro->to_out : ro->out;
	t->err_fd = ro->to_err >= 0 ? ro->to_err : ro->err;
}

/* x against y: the whole, or as far as both go where one was cut. */
static int
same_kept(int x, int y, int cut, const char *what, char *diff, size_t len)
{
	struct stat sx, sy;

	if (x < 0 || y < 0)
		return 1;
	if (!cut)
		return rerun_same_range(x, 0, -1, y, what, 0, diff, len);
	if (fstat(x, &sx) == -1 || fstat(y, &sy) == -1)
		return 1;
	return sx.st_size <= sy.st_size ? rerun_same_range(x, 0, -1, y, what,
	    1, diff, len) : rerun_same_range(y, 0, -1, x, what, 1, diff, len);
}

int
runs_alike(const struct run_out *a, const struct run_out *b,
    const char *flags, char *diff, size_t len)
{
	char was[64], now[64], tail[200];

	if (a->status != b->status) {
		rerun_status_text(a->status, was, sizeof(was));
		rerun_status_text(b->status, now, sizeof(now));
		tail[0] = '\0';
		if (b->err >= 0)
			rerun_last_line(b->err, tail, sizeof(tail));
		snprintf(diff, len, "%s, then %s%s%s%s%s", was, now,
		    flags != NULL ? " under -f " : "", flags != NULL ? flags :
		    "", tail[0] != '\0' ? ": " : "", tail);
		return 0;
	}
	return same_kept(a->out, b->out, (a->cut | b->cut) & 1,
	    "standard output", diff, len) && same_kept(a->err, b->err,
	    (a->cut | b->cut) & 2, "standard error", diff, len);
}

void
runs_forget(struct run_out *ro)
{
	settle(ro);
	if (ro->out >= 0)
		close(ro->out);
	if (ro->err >= 0)
		close(ro->err);
	if (ro->layers >= 0)
		close(ro->layers);
	ro->out = ro->err = ro->layers = -1;
}

/* Run t in a fresh view, when the audit makes its runs in views. */
static void
in_view(const struct options *o, struct trace_opts *t)
{
	if (o->hermetic)
		t->view = &o->view;
}

/*
 * The log of a traced run: a memfd, nothing on disk; --keep-log's file
 * for the audited run.
 */
static int
log_for(const struct options *o, enum traced kind)
{
	int fd;

	if (kind != TRACED_FIRST || o->keep_log == NULL)
		return rerun_capture();
	if ((fd = open(o->keep_log, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1)
		err(1, "%s", o->keep_log);
	return fd;
}

/*
 * Run the command under strace into log; from_exec for a static one.
 * warm: the flags whose name services the program's tame() loads
 * first (as a real tame() of them does), for a warmed run.
 */
static void
trace_command(struct options *o, enum traced kind, int warm, int log,
    struct run_out *ro, int *from_exec)
{
	struct trace_opts t = { .cold = kind == TRACED_COLD, .log_fd = log,
	    .tree = (kind == TRACED_FIRST || kind == TRACED_WARM_TREE) &&
	    !o->ctx.checking };
	struct trace_result r;
	struct elf_imports im;
	struct stat st;
	char strace[PATH_MAX], tame_exec[PATH_MAX], cmd[PATH_MAX];
	static char every[256];

	if (trace_find("strace", strace, sizeof(strace)) == -1)
		errx(1, "strace not found in PATH: install it "
		    "(Debian: apt-get install strace)");
	if (o->where && trace_has_stacks(strace) == 0)
		errx(1, "--where needs strace's stack traces (-k), and %s "
		    "is built without them (no libunwind or libdw, as "
		    "Debian's arm64 strace)", strace);
	if (trace_find(o->argv[0], cmd, sizeof(cmd)) == -1)
		errx(1, "%s: %s", o->argv[0], errno == ENOENT ?
		    "command not found" : strerror(errno));
	*from_exec = 0;
	if (elf_imports_read(cmd, &im) == 0) {
		*from_exec = im.is_static;
		elf_imports_free(&im);
	}
	if (!*from_exec && (!o->ctx.checking || o->flags != NULL)) {
		if (trace_beside_self("tame-exec", tame_exec,
		    sizeof(tame_exec)) == -1)
			errx(1, "cannot find tame-exec beside tame-audit: "
			    "reinstall the tame toolkit");
		t.tame_exec = tame_exec;
		if (o->flags != NULL)
			t.flags = o->flags;
		else if (kind == TRACED_WARM || kind == TRACED_WARM_TREE) {
			flags_text(warm, every, sizeof(every), 0);
			t.flags = every;
		} else {
			/* every flag: the marker is what the audit needs */
			flags_text(TAME_ALL, every, sizeof(every), 0);
			t.flags = every;
			t.flags_all = 1;
		}
	}
	if (*from_exec && o->ctx.checking && o->flags != NULL)
		errx(1, "%s is statically linked: tame-exec cannot run it; "
		    "call tame() in the program and check it without -f",
		    o->argv[0]);
	t.strace = strace;
	t.argv = o->argv;
	outputs(ro, &t);
	t.stack = o->where;
	t.timeout = o->timeout;
	if (o->hermetic) {	/* else the one run reads ours, as it is */
		t.in_fd = rerun_stdin_next();
		t.started = rerun_stdin_start;
	} else
		t.in_fd = -1;
	in_view(o, &t);
	if (trace_run(&t, &r) == -1)
		err(1, "cannot run %s", strace);
	rerun_stdin_done(t.in_fd);
	settle(ro);
	runs_stop_if_asked();
	if (r.view_error[0] != '\0') {
		if (kind != TRACED_FIRST)
			errx(1, "a later run could not enter its view: %s",
			    r.view_error);
		/* it ran nothing: the audit is made of one run, yours */
		if (r.layers >= 0)
			close(r.layers);
		one_run(o, r.view_error);
		runs_forget(ro);
		trace_command(o, kind, warm, log, ro, from_exec);
		return;
	}
	ro->status = r.status;
	ro->layers = r.layers;
	/*
	 * The audited run cut short is reported for what it did until
	 * then (a blocker says so); a --check's cut run decides nothing.
	 */
	if (r.timed_out && kind == TRACED_FIRST && !o->ctx.checking)
		o->cut_short = 1;
	else if (r.timed_out)
		errx(1, "%s did not finish within %d s and was killed%s%s",
		    o->argv[0], o->timeout, o->keep_log != NULL &&
		    kind == TRACED_FIRST ? "; its trace so far is in " :
		    " (--keep-log keeps its trace)", o->keep_log != NULL &&
		    kind == TRACED_FIRST ? o->keep_log : "");
	if (fstat(log, &st) == -1 || st.st_size == 0)
		errx(1, "strace could not trace %s (see its message above; "
		    "ptrace may be forbidden here, e.g. by "
		    "kernel.yama.ptrace_scope)", o->argv[0]);
}

static void
no_marker(const struct options *o)
{
	if (o->ctx.checking && o->flags == NULL)
		errx(1, "%s never called tame(): nothing to check; audit it "
		    "without --check, or give its flags with -f",
		    o->argv[0]);
	errx(1, "%s did not reach tame() (see the messages above)",
	    o->argv[0]);
}

void
runs_tree_add_log(struct options *o, const char *log)
{
	char msg[512];

	if (tree_read_log(&o->tree, log, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	if (o->profile != NULL && profile_record(o->profile, log, 0, msg,
	    sizeof(msg)) == -1)
		errx(1, "%s", msg);
}

void
runs_discard(struct run_out *ro)
{
	if ((ro->out = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1 ||
	    (ro->err = fcntl(ro->out, F_DUPFD_CLOEXEC, 0)) == -1)
		err(1, "/dev/null");
}

int
runs_tree_warm(struct options *o, int warm, struct tree *into, int status)
{
	struct run_out ro = RUN_OUT_NONE;
	char msg[512], path[64];
	int log = rerun_capture(), from_exec, same;

	runs_discard(&ro);
	trace_command(o, TRACED_WARM_TREE, warm, log, &ro, &from_exec);
	runs_forget(&ro);
	if ((same = ro.status == status)) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", log);
		into->keep_before = 1;	/* for decide_same_way() */
		if (tree_read_log(into, path, msg, sizeof(msg)) == -1 ||
		    (o->profile != NULL && profile_record(o->profile, path,
		    warm, msg, sizeof(msg)) == -1))
			errx(1, "%s", msg);
	}
	close(log);
	return same;
}

struct audit *
runs_traced(struct options *o, struct audit *a, enum traced kind, int warm,
    struct run_out *ro, int *from_exec)
{
	char msg[512], path[64];
	int log = log_for(o, kind);

	if (a == NULL) {
		a = audit_new();
		a->keep_frames = o->where;
		a->keep_before = kind == TRACED_WARM;	/* for decide_same_way() */
	}
	trace_command(o, kind, warm, log, ro, from_exec);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", log);
	if (audit_read_log(a, path, *from_exec, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	/* the first run's programs, each on its own (tree.h) */
	if (kind == TRACED_FIRST && !o->ctx.checking && !*from_exec)
		runs_tree_add_log(o, path);
	close(log);
	if (a->runs[a->nruns - 1].markers == 0) {
		if (kind == TRACED_FIRST && !o->ctx.checking &&
		    (o->unreached = command_raised(o)) != NULL)
			return a;	/* a blocker, not an error */
		no_marker(o);
	}
	return a;
}

/* Run t, untraced, in a view: its status, output and layers into ro. */
static void
untraced(struct options *o, struct trace_opts *t, struct run_out *ro)
{
	struct trace_result r;

	runs_capture(ro);
	outputs(ro, t);
	t->argv = o->argv;
	t->timeout = o->timeout;
	t->in_fd = rerun_stdin_next();
	t->started = rerun_stdin_start;
	in_view(o, t);
	if (trace_run(t, &r) == -1)
		err(1, "cannot run %s", o->argv[0]);
	rerun_stdin_done(t->in_fd);
	settle(ro);
	runs_stop_if_asked();
	if (r.view_error[0] != '\0')
		errx(1, "a later run could not enter its view: %s",
		    r.view_error);
	ro->status = r.status;
	ro->layers = r.layers;
	ro->timed_out = r.timed_out;
}

int
runs_plainly(struct options *o, struct run_out *ro)
{
	struct trace_opts t = { .out_fd = -1, .err_fd = -1 };

	untraced(o, &t, ro);
	return ro->timed_out ? -1 : 0;
}

/* Does stream k of ref (1 its output, 2 its error) differ in noise too? */
static int
varies(const struct run_out *ref, const struct run_out *noise, int k)
{
	char skip[8];

	return noise != NULL && !same_kept(k == 1 ? ref->out : ref->err,
	    k == 1 ? noise->out : noise->err, (ref->cut | noise->cut) & k, "",
	    skip, sizeof(skip));
}

/*
 * Is run ro like ref?  noise, when not NULL, is a second run made as
 * ref was: an output or a file on which ref and noise disagree varies
 * by itself, and ro is not held to ref there.
 */
static int
judged_like(struct options *o, const struct run_out *ref,
    const struct run_out *ro, const struct run_out *noise, const char *names,
    char *diff, size_t len)
{
	if (ref->status != ro->status)
		return runs_alike(ref, ro, names, diff, len);
	if (!same_kept(ref->out, ro->out, (ref->cut | ro->cut) & 1,
	    "standard output", diff, len) && !varies(ref, noise, 1))
		return 0;
	if (!same_kept(ref->err, ro->err, (ref->cut | ro->cut) & 2,
	    "standard error", diff, len) && !varies(ref, noise, 2))
		return 0;
	return ro->layers < 0 || ref->layers < 0 ||
	    view_same(&o->view, ref->layers, ro->layers, noise != NULL ?
	    noise->layers : -1, diff, len);
}

/* Run t under tame-exec into ro. */
static void
tamed_run(struct options *o, struct trace_opts *t, struct run_out *ro)
{
	char tame_exec[PATH_MAX];

	if (trace_beside_self("tame-exec", tame_exec, sizeof(tame_exec)) == -1)
		errx(1, "cannot find tame-exec beside tame-audit: reinstall "
		    "the tame toolkit");
	t->tame_exec = tame_exec;
	untraced(o, t, ro);
}

/* t, set up to run under tame-exec, compared with ref: 1 the same. */
static int
tamed_like(struct options *o, struct trace_opts *t, const char *names,
    const struct run_out *ref, char *diff, size_t len)
{
	struct run_out ro = RUN_OUT_NONE;
	int same;

	tamed_run(o, t, &ro);
	if (ro.timed_out) {
		snprintf(diff, len, "did not finish within %d s", o->timeout);
		same = 0;
	} else
		same = judged_like(o, ref, &ro, NULL, names, diff, len);
	runs_forget(&ro);
	return same;
}

int
runs_tamed(struct options *o, int flags, const char *load,
    const struct run_out *ref, char *diff, size_t len)
{
	struct trace_opts t = { .out_fd = -1, .err_fd = -1, .load = load };
	char names[256];

	flags_text(flags, names, sizeof(names), 0);
	t.flags = names;
	return tamed_like(o, &t, names, ref, diff, len);
}

int
runs_profiled(struct options *o, const char *text, char *diff, size_t len)
{
	static const char file[] = "/tmp/.tame-audit-profile";
	struct trace_opts t = { .out_fd = -1, .err_fd = -1,
	    .view_file = file, .view_text = text };
	struct run_out plain = RUN_OUT_NONE, tamed = RUN_OUT_NONE;
	struct run_out again = RUN_OUT_NONE;
	int same = 0;

	untraced(o, &t, &plain);
	if (plain.timed_out) {
		snprintf(diff, len, "the plain run did not finish within %d s",
		    o->timeout);
		goto done;
	}
	t = (struct trace_opts){ .out_fd = -1, .err_fd = -1,
	    .view_file = file, .view_text = text, .profile = file };
	tamed_run(o, &t, &tamed);
	if (tamed.timed_out) {
		snprintf(diff, len, "did not finish within %d s", o->timeout);
		goto done;
	}
	if ((same = judged_like(o, &plain, &tamed, NULL, NULL, diff, len)))
		goto done;
	/*
	 * Another way: or the command's own (a suite's log that names a
	 * random port).  A second plain run tells them apart; what it
	 * disagrees on with the first is the command's, and left out.
	 */
	t = (struct trace_opts){ .out_fd = -1, .err_fd = -1,
	    .view_file = file, .view_text = text };
	untraced(o, &t, &again);
	if (!again.timed_out && again.status == plain.status)
		same = judged_like(o, &plain, &tamed, &again, NULL, diff, len);
done:
	runs_forget(&plain);
	runs_forget(&tamed);
	runs_forget(&again);
	return same;
}

void
runs_close(struct options *o, const struct audit *a, struct findings *f)
{
	char *list = NULL, *more;
	int i;

	if (!o->hermetic)
		return;
	for (i = 0; i < a->nrepeats; i++) {
		if (asprintf(&more, "%s%s%s", list != NULL ? list : "",
		    list != NULL ? "; " : "", a->repeats[i]) == -1)
			err(1, NULL);
		free(list);
		list = more;
	}
	for (i = 0; i < a->nlistens; i++)
		findings_warn(f, "the command listened on the socket %s "
		    "inside its view, out of reach of any process outside it: "
		    "if one was to connect, audit it with --once",
		    a->listens[i]);
	if (list != NULL) {
		findings_warn(f, "no view holds back some of what the "
		    "command did, so each of its runs did it: %s%s (--once "
		    "makes one run)", list, a->more_repeats ? "; and more" :
		    "");
		free(list);
	}
	for (i = 0; i < a->nrefused; i++)
		findings_warn(f, "in its view, the audited run got %s: a view "
		    "may make a call fail so where your run does not (%s%s%s"
		    "tame-audit(1), HERMETIC RUNS)", a->refused[i],
		    o->view.readonly != NULL ? "read-only in the views: " : "",
		    o->view.readonly != NULL ? o->view.readonly : "",
		    o->view.readonly != NULL ? "; " : "");
	view_close(&o->view);
	o->hermetic = 0;
}
