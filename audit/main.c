/* SPDX-License-Identifier: ISC */
/*
 * tame-audit: which tame() flags does a program need?
 *
 * Runs the command under strace, classifies every call made after
 * tame() with libtame's own decision code, and prints the smallest
 * flag set with the evidence for each flag, or why the run cannot be
 * tamed; --check compares a program's own tame() calls with what it
 * did.  The command's standard input, output and error are its own: the
 * report goes to standard error after it ends, to -o file or to
 * --report-fd N.  Exit status: 0 done (and, with --check, clean), 1 an
 * error of the audit itself, 2 usage, 3 --check found violations, 4
 * --check found only flags not needed, 5 the run cannot be tamed as it
 * ran.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "imports.h"
#include "policy.h"
#include "profile_out.h"
#include "report.h"
#include "rerun.h"
#include "tame.h"
#include "trace.h"
#include "tree.h"
#include "view.h"
#include "options.h"
#include "hermetic.h"


/*
 * The log tame-audit makes for itself when not asked to keep one: gone
 * on every way out, errors included, or each failed audit (a command
 * not found, one that never reaches tame()) leaves a file in TMPDIR.
 */
#define MAXTEMP	8
static char	temp_logs[MAXTEMP][PATH_MAX];

static void
remove_temp_logs(void)
{
	int i;

	for (i = 0; i < MAXTEMP; i++)
		if (temp_logs[i][0] != '\0')
			unlink(temp_logs[i]);
}

/* A log of our own in TMPDIR, removed at exit. */
static const char *
temp_log(void)
{
	static int n;
	const char *dir = getenv("TMPDIR");
	int fd;

	if (n == 0)
		atexit(remove_temp_logs);
	if (n == MAXTEMP)
		errx(1, "too many runs");
	snprintf(temp_logs[n], PATH_MAX, "%s/tame-audit.XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	if ((fd = mkstemp(temp_logs[n])) == -1)
		err(1, "%s", temp_logs[n]);
	close(fd);
	return temp_logs[n++];
}

/* Name imports that could need a flag the suggestion lacks. */
static void
coverage_warnings(struct findings *f, const char *exe)
{
	struct elf_imports im;
	char list[512], flags[128];
	int missing;

	if (exe == NULL || elf_imports_read(exe, &im) == -1)
		return;
	if ((missing = coverage_unexercised(&im, f->flags, list,
	    sizeof(list))) != 0) {
		flags_text(missing, flags, sizeof(flags), 0);
		findings_warn(f, "%s imports %s: not called in this run; "
		    "other inputs may need %s", exe, list, flags);
	}
	if (f->nunexpressible == 0 && coverage_execs(&im, list,
	    sizeof(list)) > 0)
		findings_warn(f, "%s imports %s: an exec after tame() is a "
		    "violation, so tame() must follow the last one", exe,
		    list);
	elf_imports_free(&im);
}

static void
run_warnings(const struct audit *a, struct findings *f)
{
	const struct run *r;
	int i;

	for (i = 0; i < a->nruns; i++) {
		r = &a->runs[i];
		if (r->exited == 1 && r->status != 0)
			findings_warn(f, "%s exited with status %d: the "
			    "suggestion covers what it did", a->nruns > 1 ?
			    r->name : "the command", r->status);
		if (r->exited == 2)
			findings_warn(f, "%s was killed by %s: the suggestion "
			    "covers what it did before", a->nruns > 1 ?
			    r->name : "the command", r->signame);
		if (r->cut)
			findings_warn(f, "%s ends inside a call: the log is cut "
			    "off, and what came after is not counted",
			    r->name);
		if (r->malformed > 0)
			findings_warn(f, "%s: %ld line%s not understood, not "
			    "counted (first: %s)", r->name, r->malformed,
			    r->malformed == 1 ? "" : "s", r->first_bad);
	}
}

/*
 * Run the command under strace into log; from_exec for a static one.
 * warm: a run whose tame() loads these flags' name services first (as a
 * real tame() of them does), or 0.  out, err: where its output goes, or
 * -1 for ours.
 */
static int
trace_command(struct options *o, const char *log, int *from_exec, int warm,
    int out, int errfd)
{
	struct trace_opts t = { .out_fd = out, .err_fd = errfd,
	    .cold = warm == -1, .tree = warm == 0 && !o->ctx.checking };
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
		else if (warm > 0) {
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
	t.log = log;
	t.stack = o->where;
	t.timeout = o->timeout;
	in_view(o, &t);
	t.full_stat = o->hermetic && o->view.userns && !o->outside;
	if (trace_run(&t, &r) == -1 || (view_failed(o, &t, &r) &&
	    (t.full_stat = 0, trace_run(&t, &r)) == -1))
		err(1, "cannot run %s", strace);
	stop_if_asked(o, t.run, r.status);
	if (r.timed_out)
		errx(1, "%s did not finish within %d s and was killed%s%s",
		    o->argv[0], o->timeout, o->keep_log != NULL ?
		    "; its trace so far is in " : " (--keep-log keeps its "
		    "trace)", o->keep_log != NULL ? log : "");
	if (stat(log, &st) == -1 || st.st_size == 0)
		errx(1, "strace could not trace %s (see its message above; "
		    "ptrace may be forbidden here, e.g. by "
		    "kernel.yama.ptrace_scope)", o->argv[0]);
	return r.status;
}

static void
no_marker(const struct options *o, const struct run *r, int from_log)
{
	if (from_log)
		errx(1, "%s: no tame() marker in this log: record it with "
		    "tame-audit --keep-log, or trace a program run under "
		    "tame-exec with TAME_AUDIT=permissive", r->name);
	if (o->ctx.checking && o->flags == NULL)
		errx(1, "%s never called tame(): nothing to check; audit it "
		    "without --check, or give its flags with -f",
		    o->argv[0]);
	errx(1, "%s did not reach tame() (see the messages above)",
	    o->argv[0]);
}

/*
 * A log into the tree of programs, and into --profile's record of runs
 * (profile_out.h), which keeps a copy for later merges.
 */
static void
tree_add_log(struct options *o, const char *log)
{
	char msg[512];

	if (tree_read_log(&o->tree, log, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	if (o->profile != NULL && profile_record(o->profile, log, msg,
	    sizeof(msg)) == -1)
		errx(1, "%s", msg);
}

/*
 * Trace one run and read its log into a, as one more run; returns its
 * wait status.  Only the first run's log is the one --keep-log keeps.
 */
static int
traced_run(struct options *o, struct audit *a, int warm, int out, int errfd,
    int *from_exec)
{
	char msg[512];
	const char *log;
	int status;

	log = o->keep_log != NULL && warm == 0 ? o->keep_log : temp_log();
	status = trace_command(o, log, from_exec, warm, out, errfd);
	/* as the run went: its view may have failed, and gone (view_failed) */
	if (o->hermetic && o->view.userns) {
		if (!o->outside)
			a->foreign_id = o->foreign_id;
		a->layered = o->layered;
	}
	if (audit_read_log(a, log, *from_exec, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	/* the first run's programs, each on its own (tree.h) */
	if (warm == 0 && !o->ctx.checking && !*from_exec)
		tree_add_log(o, log);
	if (log != o->keep_log)
		unlink(log);
	if (a->runs[a->nruns - 1].markers == 0) {
		if (warm == 0 && !o->ctx.checking &&
		    (o->unreached = command_raised(o)) != NULL)
			return status;	/* a blocker, not an error */
		no_marker(o, &a->runs[a->nruns - 1], 0);
	}
	return status;
}

/* The same into a new audit of its own. */
static struct audit *
audited_run(struct options *o, int warm, int out, int errfd, int *from_exec,
    int *status)
{
	struct audit *a = audit_new();

	a->keep_frames = o->where;
	a->keep_before = warm > 0;	/* for same_way() */
	*status = traced_run(o, a, warm, out, errfd, from_exec);
	if (warm != 0)	/* a warmed run, --check's cold one */
		view_done(o, o->nextrun - 1);
	return a;
}

/* Why no run after the first is made (repeatable is 0). */
static const char *
no_second_run(const struct options *o)
{
	return o->once ? "--once makes one run only" :
	    "standard input cannot be read twice";
}

/*
 * --check: a declared getpw or dnspath that nothing after the marker
 * needed may still have been needed by the marker itself: tame() of it
 * loaded the name service (the nscd probe's AF_UNIX socket, the modules)
 * before its filter went in, and without it that loading comes later,
 * under the filter (wget: socket AF_UNIX needs unix or dnspath or getpw).
 * So the command runs again with its tame() warming nothing, and such a
 * flag stays "not needed" only where that run needed it no more.  The
 * second run's violations are not the program's: a real tame() warms.
 */
static void
check_cold(struct options *o, struct findings *f, int repeatable)
{
	struct findings fc;
	struct audit *c;
	int i, j, k, keep, fe = 0, status, devnull;

	for (i = k = 0; i < f->nunneeded; i++)
		if (f->unneeded[i].flag & (TAME_GETPW | TAME_DNSPATH))
			k++;
	if (k == 0)
		return;
	if (!repeatable) {
		findings_warn(f, "%s: getpw and dnspath were judged as the "
		    "run was made, with the name service loaded by tame(); "
		    "without them it loads later, and may need them",
		    no_second_run(o));
		return;
	}
	if ((devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		err(1, "/dev/null");
	rerun_stdin_rewind();
	c = audited_run(o, -1, devnull, devnull, &fe, &status);
	close(devnull);
	findings_make(c, &fc, 1, 0, 0);
	for (i = k = 0; i < f->nunneeded; i++) {
		const struct finding *u = &f->unneeded[i];

		keep = !(u->flag & (TAME_GETPW | TAME_DNSPATH));
		for (j = 0; j < fc.nunneeded && !keep; j++)
			keep = fc.unneeded[j].flag == u->flag &&
			    fc.unneeded[j].decl == u->decl;
		if (keep)
			f->unneeded[k++] = *u;
	}
	f->nunneeded = k;
	findings_free(&fc);
	audit_free(c);
}

/*
 * The name services a cold run used after the marker: a real tame() of
 * getpw or dnspath loads them before its filter goes in (tame(3)), so a
 * run under those flags does not make the calls loading them made here.
 * A flag counts when it answers some call as traced and the other does
 * not (the passwd files; the resolver's); calls both answer
 * (nsswitch.conf) count for both when nothing else tells them apart.
 * A soft denial under them (an O_PATH lookup's EACCES) is no use, except
 * to a call the program survives failing (verdict.c: need_benign), which
 * the suggestion is judged by too: glibc's nscd probe, whose connect
 * failed anyway, is no reason to warm the resolver for ls -l.
 */
static int
name_services(const struct audit *a)
{
	const struct need *nd;
	const int *alts;
	int i, k, n, any, g, d, only = 0, shared = 0;

	for (i = 0; i < a->nneeds; i++) {
		nd = &a->needs[i];
		alts = need_benign(nd) ? nd->alts : nd->exact;
		n = need_benign(nd) ? nd->nalts : nd->nexact;
		for (g = d = 0, k = 0; k < n; k++) {
			g |= alts[k] & TAME_GETPW;
			d |= alts[k] & TAME_DNSPATH;
		}
		any = g | d;
		if (g && d)
			shared |= any;
		else
			only |= any;
	}
	return only != 0 ? only : shared;
}

/*
 * Would the warm run's suggestion have done for the first run too?  A
 * run changes what the next one finds (cp opens the copy the first run
 * made without O_CREAT, and needs no cpath), so a second run may go
 * another way and need less than the program does.  Warming moves the
 * name service's calls before the filter, nothing else: every need of
 * the first run must be met by the warm run's flags, or be a call the
 * warm run made before its marker.  Returns the first need neither
 * does, or -1.
 */
static int
same_way(const struct audit *first, const struct audit *warm, int flags)
{
	const struct audit *b = warm->before;
	const struct need *nd;
	int i, j;

	for (i = 0; i < first->nneeds; i++) {
		nd = &first->needs[i];
		if (nd->count == 0 || (nd->nalts > 0 &&
		    cover_meets(nd, flags, 0)))
			continue;
		for (j = 0; b != NULL && j < b->nneeds; j++)
			if (strcmp(b->needs[j].what, nd->what) == 0 &&
			    (nd->module == NULL || (b->needs[j].module != NULL &&
			    strcmp(b->needs[j].module, nd->module) == 0)))
				break;
		if (b == NULL || j == b->nneeds)
			return i;
	}
	return -1;
}

/* Is a better than b: tameable first, then fewer flags granting less. */
static int
better(const struct findings *a, const struct findings *b)
{
	if (a->tameable != b->tameable)
		return a->tameable;
	if (!a->tameable)
		return a->nblockers < b->nblockers;
	return cover_cost(a->flags) < cover_cost(b->flags);
}

/*
 * Run the command again, untraced, under tame-exec -f with the
 * suggestion, and compare it with a run made before, ref: its wait
 * status, its output (out, errfd) and, in views, the files it left.
 * --verify compares with the audited run (verify_again); a decision,
 * with a plain run made for it (decide).  Returns 1 when the same; else
 * a blocker says how it was not.
 */
static int
verify(struct options *o, struct findings *f, int status, int out, int errfd,
    int ref)
{
	struct trace_opts t = { .out_fd = -1, .err_fd = -1 };
	char flags[256], tame_exec[PATH_MAX], diff[512];
	int got, same;

	if (trace_beside_self("tame-exec", tame_exec, sizeof(tame_exec)) == -1)
		errx(1, "cannot find tame-exec beside tame-audit: reinstall "
		    "the tame toolkit");
	flags_text(f->flags, flags, sizeof(flags), 0);
	t.tame_exec = tame_exec;
	t.flags = flags;
	t.argv = o->argv;
	t.timeout = o->timeout;
	in_view(o, &t);
	same = rerun_same(&t, status, out, errfd, diff, sizeof(diff), &got);
	stop_if_asked(o, t.run, got);
	if (same && t.view != NULL)
		same = view_same(&o->view, ref, t.run, diff, sizeof(diff));
	if (t.view != NULL)
		view_done(o, t.run);
	if (same)
		return 1;
	verdict_add(f, BLOCK_VERIFY, -1, xstrdup(diff), xstrdup("under the "
	    "suggestion the program went another way: audit it with other "
	    "input, or tame it by hand where its --check is clean"));
	return 0;
}

/*
 * Blockers that only a run decides (code, soft; only_survivable) are
 * decided by one when each run starts from the same files (view.h):
 * the command runs plainly, then under the suggestion, and is tameable
 * when the two end the same, with the same output and files (1).
 *
 * When the first run was made again outside any view (first_run_again),
 * the plain run must also end as that one did (status, out, errfd):
 * else its view shows this command another world (other users' files
 * as nobody's, or what the first run left), no run in one decides, and
 * diff says how (-1).
 */
static int
decide(struct options *o, struct findings *f, int status, int out, int errfd,
    char *diff, size_t len)
{
	struct trace_opts t = { .out_fd = -1, .err_fd = -1 };
	struct trace_result r;
	int pout, perr, same, ref;

	pout = rerun_capture();
	perr = rerun_capture();
	t.argv = o->argv;
	t.timeout = o->timeout;
	t.out_fd = pout;
	t.err_fd = perr;
	in_view(o, &t);
	ref = t.run;
	rerun_stdin_rewind();
	if (trace_run(&t, &r) == -1)
		err(1, "cannot run %s", o->argv[0]);
	(void)view_failed(o, &t, &r);	/* a later run: exits */
	stop_if_asked(o, t.run, r.status);
	if (o->first_outside && r.timed_out) {
		snprintf(diff, len, "in a view it did not finish within %d s",
		    o->timeout);
		same = -1;
	} else if (o->first_outside && !rerun_alike(status, out, errfd,
	    r.status, pout, perr, diff, len))
		same = -1;
	else
		same = !r.timed_out && verify(o, f, r.status, pout, perr, ref);
	view_done(o, ref);
	close(pout);
	close(perr);
	return same;
}

/*
 * --verify's run under the suggestion, compared with the audited run
 * (status, out, errfd) and, in views, its files.  After first_run_again
 * there are no first run's files to compare: decide() compares with a
 * plain run in a view, when that one ends as the first did; else the
 * run is made outside any view, as where there are none, and its
 * effects on files happen again.
 */
static int
verify_again(struct options *o, struct findings *f, int status, int out,
    int errfd)
{
	char diff[512];
	int same;

	if (!o->first_outside)
		return verify(o, f, status, out, errfd, 0);
	if ((same = decide(o, f, status, out, errfd, diff,
	    sizeof(diff))) != -1)
		return same;
	findings_warn(f, "--verify ran the command under the suggestion "
	    "outside any view, since in one it did not end as outside (%s): "
	    "its effects on files happened twice", diff);
	o->outside = 1;
	same = verify(o, f, status, out, errfd, 0);
	o->outside = 0;
	o->outside_runs++;
	return same;
}

/*
 * A run under the suggestion ended the same: the blockers (code, soft)
 * are lifted, noted in f->decided when no --verify asked for the run,
 * and the verdict is made again.
 */
static void
lift_blockers(const struct audit *a, struct findings *f, int by_default)
{
	int i;

	f->verified = 1;
	for (i = 0; i < f->nblockers; i++) {
		if (by_default)
			f->decided |= 1 << f->blockers[i].kind;
		free(f->blockers[i].detail);
		free(f->blockers[i].todo);
	}
	f->nblockers = 0;
	f->tameable = 1;
	verdict_make(a, f);
}

/*
 * The blockers are all ones a run decides.  In views, decide() (against
 * the first run: status, out, errfd); else say what would.
 */
static void
decide_or_say(struct options *o, struct findings *f, struct audit *a,
    int repeatable, int status, int out, int errfd)
{
	char diff[512];
	int k;

	if (o->hermetic && repeatable) {
		k = decide(o, f, status, out, errfd, diff, sizeof(diff));
		if (k == 1)
			lift_blockers(a, f, 1);
		else if (k == -1)
			findings_warn(f, "a run under the suggestion would "
			    "decide this, but in a view the command did not "
			    "end as it did outside one (%s): --verify makes "
			    "that run outside any view, where the command's "
			    "effects on files happen twice; as root, a view "
			    "shows every owner", diff);
		return;
	}
	if (o->once)
		findings_warn(f, "a run under the suggestion would decide "
		    "this: audit without --once");
	else if (!repeatable)
		findings_warn(f, "a run under the suggestion would decide "
		    "this, but standard input (a terminal) cannot be given "
		    "to it again: audit with input from a file or a pipe");
	else
		findings_warn(f, "a run under the suggestion would decide "
		    "this: --verify makes it, but here the command's effects "
		    "on files would happen twice (no hermetic view: %s)",
		    o->noview);
}

/*
 * Unprivileged, the view is a user namespace of our own ids, where other
 * users' files show the overflow owner (nobody): a first run that looked
 * at such an owner may have printed it.  Its output (held back in out
 * and errfd) and its files in the layered places go, and the command
 * runs again outside any view, for real (changes it made elsewhere,
 * repeats.c names).  The later runs are still each in a view, so their
 * effects on those files do not happen again; but their views start
 * from what the first run left, so decide() asks more of them.
 */
static struct audit *
first_run_again(struct options *o, struct audit *a, int out, int errfd,
    int *from_exec, int *ran)
{
	o->ctx.hermetic = 0;
	o->first_outside = 1;
	snprintf(o->noview, sizeof(o->noview), "the run in a user namespace "
	    "looked at files of other users, whose owners it sees as "
	    "nobody");
	warnx("no hermetic view for this command's first run: %s (%ld "
	    "time%s); it runs again outside one, and the later runs, each "
	    "in a view, start from what it left (tame-audit as root makes a "
	    "hermetic audit)", o->noview, a->foreign_seen,
	    a->foreign_seen == 1 ? "" : "s");
	audit_free(a);
	if (o->profile == NULL) {	/* the tree, from the new run only */
		tree_free(&o->tree);
		memset(&o->tree, 0, sizeof(o->tree));
	}
	if (ftruncate(out, 0) == -1 || ftruncate(errfd, 0) == -1 ||
	    lseek(out, 0, SEEK_SET) == -1 || lseek(errfd, 0, SEEK_SET) == -1)
		err(1, "the first run's output");
	view_done(o, 0);
	rerun_stdin_rewind();
	o->outside = 1;
	a = audited_run(o, 0, out, errfd, from_exec, ran);
	o->outside = 0;
	o->outside_runs++;
	stop_if_asked(o, 0, *ran);
	return a;
}

/* Where the report goes: -o file, --report-fd n, or standard error. */
static FILE *
report_stream(const struct options *o)
{
	FILE *out;

	if (o->output != NULL) {
		if ((out = fopen(o->output, "w")) == NULL)
			err(1, "%s", o->output);
		return out;
	}
	if (o->report_fd >= 0) {
		if ((out = fdopen(o->report_fd, "w")) == NULL)
			err(1, "--report-fd %d", o->report_fd);
		return out;
	}
	return stderr;
}

/*
 * Are all blockers (if any) answers the program may go on from: a soft
 * denial, a module that failed to load (Python falls back to its own
 * json)?  Then a run under the suggestion can decide; an exec or a call
 * no flag allows would only kill it.
 */
static int
only_survivable(const struct findings *f)
{
	int i;

	for (i = 0; i < f->nblockers; i++)
		if (f->blockers[i].kind != BLOCK_SOFT &&
		    f->blockers[i].kind != BLOCK_CODE)
			return 0;
	return 1;
}

/*
 * A line of the log not understood may be a call not counted: no run
 * with one is tameable with confidence.
 */
static void
unread_lines(const struct audit *a, struct findings *f)
{
	const struct run *r;
	char *detail;
	int i;

	for (i = 0; i < a->nruns; i++) {
		r = &a->runs[i];
		if (r->malformed == 0)
			continue;
		if (asprintf(&detail, "%s: %ld line%s not understood (first: "
		    "%s)", r->name, r->malformed, r->malformed == 1 ? "" : "s",
		    r->first_bad) == -1)
			err(1, NULL);
		verdict_add(f, BLOCK_LOG, -1, detail, xstrdup("the calls on "
		    "those lines are not counted, so no suggestion can be "
		    "trusted: keep the log (--keep-log) and report it"));
	}
}

int
main(int argc, char *argv[])
{
	struct options o;
	struct audit *a, *warm[3] = { NULL };
	struct findings f, fw[3];
	char msg[512], names[64];
	const char *more;
	int i, k = 0, w, ns = 0, from_exec = 0, status, out = -1, errfd = -1, best;
	int repeatable, ran = 0, wstatus, devnull = -1;
	FILE *rep;

	parse_options(argc, argv, &o);
	if (o.report_fd >= 0 && (o.report_fd <= 2 ||
	    fcntl(o.report_fd, F_SETFD, FD_CLOEXEC) == -1))
		errx(EXIT_USAGE, "--report-fd %d: %s", o.report_fd,
		    o.report_fd <= 2 ? "not one of the command's standard "
		    "descriptors (0, 1, 2)" : "not an open descriptor");
	repeatable = o.argv != NULL && !o.once && (rerun_stdin_repeatable() ||
	    rerun_stdin_record());
	if (o.verify && !repeatable)
		errx(EXIT_USAGE, "--verify runs the command twice: its "
		    "standard input must be a file, a pipe or /dev/null, not "
		    "a terminal");
	open_view(&o);
	a = audit_new();
	a->keep_frames = o.where;
	if (o.profile != NULL && profile_past_runs(o.profile, &o.tree, msg,
	    sizeof(msg)) == -1)
		errx(1, "%s", msg);
	for (i = 0; i < o.nlogs; i++) {
		if (audit_read_log(a, o.logs[i], 0, msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
		if (a->runs[a->nruns - 1].markers == 0)
			no_marker(&o, &a->runs[a->nruns - 1], 1);
		if (!o.ctx.checking)
			tree_add_log(&o, o.logs[i]);
	}
	if (o.argv != NULL && o.nlogs > 0) {
		/* --merge with a new run: one more log of the same audit */
		(void)traced_run(&o, a, 0, -1, -1, &from_exec);
		o.ctx.log_is_temporary = o.keep_log == NULL;
		rerun_stdin_recorded();
	} else if (o.argv != NULL) {
		audit_free(a);
		if (o.verify || (o.hermetic && o.view.userns)) {
			out = rerun_capture();
			errfd = rerun_capture();
		}
		a = audited_run(&o, 0, out, errfd, &from_exec, &ran);
		o.ctx.log_is_temporary = o.keep_log == NULL;
		rerun_stdin_recorded();
		if (a->foreign_seen > 0)
			a = first_run_again(&o, a, out, errfd, &from_exec,
			    &ran);
	}
	if (o.ctx.checking) {
		findings_make(a, &f, 1, 0, 0);
		if (o.argv != NULL && o.nlogs == 0 && !from_exec)
			check_cold(&o, &f, repeatable);
	} else {
		/* a run per name service a real tame() would warm */
		if (o.argv != NULL && o.nlogs == 0 && !from_exec)
			ns = name_services(a);
		if (ns != 0 && !repeatable)
			ns = -1;
		verdict_findings(a, &f, 0, ns > 0 ? ns : 0);
		best = -1;
		if (ns > 0 && (devnull = open("/dev/null", O_WRONLY |
		    O_CLOEXEC)) == -1)
			err(1, "/dev/null");
		/*
		 * Each nonempty subset of ns: at most three runs.  One that
		 * ended otherwise than the first, or went another way
		 * (same_way), found what an earlier run left: so would any
		 * after it, and none is made.
		 */
		for (k = 0, w = ns > 0 ? ns & -ns : 0; w != 0 && k < 3;
		    w = (w - ns) & ns, k++) {
			rerun_stdin_rewind();
			warm[k] = audited_run(&o, w, devnull, devnull,
			    &from_exec, &wstatus);
			verdict_findings(warm[k], &fw[k], w, ns & ~w);
			flags_text(w, names, sizeof(names), 0);
			more = k < 2 && ((w - ns) & ns) != 0 ?
			    ", nor another warmed run made" : "";
			if (wstatus != ran)
				findings_warn(&f, "the run with the name service "
				    "warmed for %s ended otherwise than the first "
				    "(a run changes what the next one finds?): "
				    "not used%s", names, more);
			else if (fw[k].tameable && (i = same_way(a, warm[k],
			    fw[k].flags)) >= 0)
				findings_warn(&f, "the run with the name service "
				    "warmed for %s went another way than the "
				    "first: its flags do not allow %s, which the "
				    "first needed (it found what the first run "
				    "made?): not used%s", names, a->needs[i].what,
				    more);
			else {
				if (better(&fw[k], best < 0 ? &f : &fw[best]))
					best = k;
				continue;
			}
			k++;
			break;
		}
		if (ns > 0)
			close(devnull);
		if (best >= 0) {
			o.ctx.log_is_temporary = 1;
			findings_free(&f);
			f = fw[best];
			audit_free(a);
			a = warm[best];
			warm[best] = NULL;
		}
		for (i = 0; i < k; i++)
			if (warm[i] != NULL) {
				findings_free(&fw[i]);
				audit_free(warm[i]);
			}
		if (ns < 0)
			findings_warn(&f, "%s: the run with the name service "
			    "warmed, as a real tame() of getpw or dnspath warms "
			    "it, was not made, and the suggestion may ask for "
			    "more than it needs", no_second_run(&o));
		if (o.verify && only_survivable(&f) && verify_again(&o, &f,
		    ran, out, errfd))
			lift_blockers(a, &f, 0);
		else if (!o.verify && !f.tameable && only_survivable(&f) &&
		    !from_exec && o.argv != NULL && o.nlogs == 0)
			decide_or_say(&o, &f, a, repeatable, ran, out, errfd);
	}
	if (out >= 0) {
		rerun_replay(out, 1);
		rerun_replay(errfd, 2);
	}
	if (from_exec && o.ctx.checking)
		findings_warn(&f, "%s is statically linked: tame-exec cannot "
		    "enforce flags on it; call tame() in the program itself",
		    o.argv[0]);
	else if (o.unreached != NULL)
		verdict_add(&f, BLOCK_UNREACHED, -1, xstrdup(o.argv[0]),
		    o.unreached);
	else if (from_exec) {
		verdict_add(&f, BLOCK_STATIC, -1, xstrdup(o.argv[0]),
		    xstrdup("it is statically linked: tame-exec cannot "
		    "enforce flags on it; call tame() in the program itself, "
		    "where the staircase says"));
	}
	close_view(&o, a, &f);
	run_warnings(a, &f);
	if (!o.ctx.checking)
		unread_lines(a, &f);
	if (!o.ctx.checking)
		coverage_warnings(&f, a->runs[0].exe);
	if (!o.ctx.checking && o.tree.nruns > 0) {
		tree_judge(&o.tree);
		o.ctx.tree = &o.tree;
	}
	if (o.profile != NULL && profile_write(o.profile, &o.tree, msg,
	    sizeof(msg)) == -1)
		errx(1, "%s", msg);
	if (!o.ctx.checking && !f.tameable && o.ctx.format == REPORT_FLAGS) {
		report_blockers(stderr, a, &f, o.argv != NULL ? o.argv[0] :
		    "the log");
		/* no flags: an old file must not still say some */
		if (o.output != NULL && (rep = fopen(o.output, "w")) != NULL)
			fclose(rep);
	} else {
		rep = report_stream(&o);
		report(rep, a, &f, &o.ctx);
		if (fflush(rep) == EOF || ferror(rep))
			err(1, "%s", o.output != NULL ? o.output :
			    o.report_fd >= 0 ? "--report-fd" : "stderr");
	}
	if (o.ctx.checking)
		status = f.nviolations > 0 ? EXIT_VIOLATION :
		    f.nunneeded > 0 ? EXIT_UNNEEDED : 0;
	else if (o.profile != NULL)
		status = 0;	/* the profile is the answer asked for */
	else
		status = f.tameable ? 0 : EXIT_UNTAMEABLE;
	findings_free(&f);
	audit_free(a);
	tree_free(&o.tree);
	free(o.logs);
	return status;
}
