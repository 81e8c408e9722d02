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
#include "decide.h"
#include "imports.h"
#include "options.h"
#include "plain.h"
#include "profile_out.h"
#include "report.h"
#include "rerun.h"
#include "runs.h"
#include "tame.h"
#include "trace.h"
#include "tree.h"
#include "tree_load.h"
#include "tree_warm.h"


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
		findings_warn(f, "%s imports %s: on other inputs their "
		    "calls may need %s, which this run's did not", exe, list,
		    flags);
	}
	if (f->nunexpressible == 0 && coverage_execs(&im, list,
	    sizeof(list)) > 0)
		findings_warn(f, "%s imports %s: an exec after tame() is a "
		    "violation, so tame() must follow the last one", exe,
		    list);
	elf_imports_free(&im);
}

static void
run_warnings(const struct audit *a, struct findings *f, int unreached)
{
	const struct run *r;
	int i;

	for (i = 0; i < a->nruns; i++) {
		r = &a->runs[i];
		/* the program never ran: its status is the refusal's */
		if (unreached && r->exited == 1 && r->status != 0)
			findings_warn(f, "%s ended with status %d without "
			    "running the program (it was not reached): there "
			    "is nothing to suggest", a->nruns > 1 ? r->name :
			    "the audited run", r->status);
		else if (r->exited == 1 && r->status != 0)
			findings_warn(f, "%s exited with status %d: the "
			    "suggestion covers what it did", a->nruns > 1 ?
			    r->name : "the command", r->status);
		if (r->exited == 2)
			findings_warn(f, "%s was killed by %s: the suggestion "
			    "covers what it did before", a->nruns > 1 ?
			    r->name : "the command", r->signame);
		if (r->cut)	/* a log of ours is a descriptor's path */
			findings_warn(f, "%s ends inside a call: the log is cut "
			    "off, and what came after is not counted",
			    strncmp(r->name, "/proc/", 6) == 0 ? "the run's log" :
			    r->name);
		if (r->malformed > 0)
			findings_warn(f, "%s: %ld line%s not understood, not "
			    "counted (first: %s)", r->name, r->malformed,
			    r->malformed == 1 ? "" : "s", r->first_bad);
	}
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
 * A line of the log not understood may be a call not counted: no run
 * with one is tameable with confidence.
 */
static void
unread_lines(const struct audit *a, struct findings *f, int cut_short)
{
	const struct run *r;
	char *detail;
	int i;

	for (i = 0; i < a->nruns; i++) {
		r = &a->runs[i];
		/* --timeout killed strace as it wrote: one line torn */
		if (r->malformed == 0 || (cut_short && r->malformed == 1))
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

/* A log given to read (--from-log, --merge) without a marker. */
static void
no_marker_in(const struct run *r)
{
	errx(1, "%s: no tame() marker in this log: record it with "
	    "tame-audit --keep-log, or trace a program run under tame-exec "
	    "with TAME_AUDIT=permissive", r->name);
}

/*
 * The user's run, after the audit's own (runs.h): where it did not end
 * as the audited run did, the verdict came from a run it did not
 * repeat, and the report says so.
 */
static int
users_run(struct options *o, const struct audit *a,
    const struct run_out *first, struct findings *f)
{
	struct plain p;

	if (a->served)
		warnx("the command listened for connections in the audited "
		    "run; your run of it starts now, in the real tree, and "
		    "waits for them again (--once audits one run of a "
		    "server, yours)");
	plain_run(o, first, &p);
	/* an unreached program's audited run did not run it: no match */
	if (o->unreached != NULL)
		p.compared = 0;
	o->ctx.reproduced = p.compared ? p.same : -1;
	if (p.interrupted)
		findings_warn(f, "%s; the audit was made before it began",
		    p.diff);
	else if (p.compared && !p.same)
		findings_warn(f, "your run of the command did not end as the "
		    "audited run did (%s): the verdict comes from a run that "
		    "yours did not repeat, in a view (tame-audit(1), HERMETIC "
		    "RUNS)%s; --once audits your run itself", p.diff,
		    o->view.userns ? "; unprivileged, a view shows other "
		    "users' files as owned by nobody, as root every owner" :
		    "");
	return p.interrupted;
}

/* The findings of a run, or of logs, into f; a may be replaced. */
static void
findings_of(struct options *o, struct audit **a, struct findings *f,
    const struct run_out *first, int from_exec)
{
	if (o->ctx.checking)
		decide_check(o, *a, f, from_exec);
	else
		decide_suggestion(o, a, f, first, from_exec);
	if (from_exec && o->ctx.checking)
		findings_warn(f, "%s is statically linked: tame-exec cannot "
		    "enforce flags on it; call tame() in the program itself",
		    o->argv[0]);
	else if (o->unreached != NULL)
		verdict_add(f, BLOCK_UNREACHED, -1, xstrdup(o->argv[0]),
		    o->unreached);
	else if (from_exec)
		verdict_add(f, BLOCK_STATIC, -1, xstrdup(o->argv[0]),
		    xstrdup("it is statically linked: tame-exec cannot "
		    "enforce flags on it; call tame() in the program itself, "
		    "where the staircase says"));
}

int
main(int argc, char *argv[])
{
	struct options o;
	struct run_out first = RUN_OUT_NONE;
	struct audit *a;
	struct findings f;
	char msg[512];
	int i, from_exec = 0, status, interrupted = 0;
	sigset_t stops, mask;
	FILE *rep;

	/*
	 * A stop (^C, SIGTERM) that comes before runs_open() has set how
	 * stops are met waits for it: else it would end tame-audit by the
	 * default action, without its word (under load, for as long as
	 * the view takes to open).
	 */
	trace_stop_signals(&stops);
	sigprocmask(SIG_BLOCK, &stops, &mask);
	rerun_guard_std();	/* before anything takes a closed 0, 1, 2 */
	parse_options(argc, argv, &o);
	if (o.report_fd >= 0 && (o.report_fd <= 2 ||
	    fcntl(o.report_fd, F_SETFD, FD_CLOEXEC) == -1))
		errx(EXIT_USAGE, "--report-fd %d: %s", o.report_fd,
		    o.report_fd <= 2 ? "one of the command's standard "
		    "descriptors (0, 1, 2), where the report would mix with "
		    "what it reads or writes; give 3 or more (3>&1)" :
		    "not an open descriptor");
	if (o.profile != NULL && profile_start(o.profile, &i, msg,
	    sizeof(msg)) == -1)
		errx(1, "%s", msg);
	if (o.profile != NULL && i > 0)
		warnx("%s does not exist: it starts anew with this run; the %d "
		    "run%s an earlier profile of that name recorded in %s.runs/ "
		    "%s removed", o.profile, i, i == 1 ? "" : "s", o.profile,
		    i == 1 ? "was" : "were");
	runs_open(&o);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	a = audit_new();
	a->keep_frames = o.where;
	if (o.profile != NULL && profile_past_runs(o.profile, &o.tree,
	    o.warmed, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	for (i = 0; i < o.nlogs; i++) {
		if (audit_read_log(a, o.logs[i], 0, msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
		if (a->runs[a->nruns - 1].markers == 0)
			no_marker_in(&a->runs[a->nruns - 1]);
		if (!o.ctx.checking)
			runs_tree_add_log(&o, o.logs[i]);
	}
	if (o.argv != NULL) {
		/* in a view its output is held, for the user's run to match */
		if (o.hermetic)
			runs_capture(&first);
		if (o.nlogs == 0) {	/* else one more run of the logs' */
			audit_free(a);
			a = NULL;
		}
		a = runs_traced(&o, a, TRACED_FIRST, 0, &first, &from_exec);
		o.ctx.log_is_temporary = o.keep_log == NULL;
	}
	findings_of(&o, &a, &f, &first, from_exec);
	tree_warm(&o, &f, &first, from_exec);
	if (!from_exec)
		tree_load(&o, &f);
	if (first.closed)
		findings_warn(&f, "the audited run's output to a pipe passed "
		    "%lld MiB: there it met a closed pipe, as if its reader "
		    "had had enough, and the suggestion covers the run up to "
		    "there (--once audits your run, with its real reader)",
		    (long long)(RERUN_KEEP >> 20));
	if (o.hermetic)
		interrupted = users_run(&o, a, &first, &f);
	runs_forget(&first);
	runs_close(&o, a, &f);
	run_warnings(a, &f, o.unreached != NULL);
	if (!o.ctx.checking) {
		unread_lines(a, &f, o.cut_short);
		coverage_warnings(&f, a->runs[0].exe);
	}
	if (!o.ctx.checking && o.tree.nruns > 0) {
		tree_judge(&o.tree);
		o.ctx.tree = &o.tree;
	}
	if (o.profile != NULL && profile_write(o.profile, &o.tree,
	    &o.ctx.profile_listed, &o.ctx.profile_left, msg,
	    sizeof(msg)) == -1)
		errx(1, "%s", msg);
	o.ctx.profile = o.profile;
	if (!o.ctx.checking && !f.tameable && (o.ctx.format == REPORT_FLAGS ||
	    o.ctx.format == REPORT_PROMISES)) {
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
	tree_warm_free(&o);
	free(o.logs);
	return interrupted ? 130 : status;
}
