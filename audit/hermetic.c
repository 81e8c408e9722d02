/* SPDX-License-Identifier: ISC */
/*
 * hermetic.c: tame-audit's runs, each in a view of its own (view.h;
 * tame-audit(1), HERMETIC RUNS): made when the command may run more
 * than once, each run numbered in it, the first run's changes applied
 * on every way out, and a stop asked for (SIGTERM, SIGHUP, ^C in a
 * later run) honoured with the files left as the first run left them.
 */
#include <sys/wait.h>

#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "hermetic.h"
#include "options.h"
#include "trace.h"
#include "tree.h"
#include "view.h"

/* SIGTERM or SIGHUP came while the command ran: stop after it */
static volatile sig_atomic_t stop_asked;

static void
on_stop(int sig)
{
	(void)sig;
	stop_asked = 1;
}

/*
 * On every way out (an error after the first run, say), the first run's
 * changes are applied and the layers go: nothing is left half-applied
 * or behind in TMPDIR.
 */
static struct options	*viewed;

/* No view can be made here, for o->noview: one line says so. */
static void
say_no_view(const struct options *o)
{
	warnx("no hermetic view here: %s; every run after the first sees "
	    "what the first left (tame-audit(1), HERMETIC RUNS)", o->noview);
}

/*
 * The run could not enter its view (r->view_error), and ran nothing.
 * The first: one line says why, there is no view from then on, and it
 * is to be run again outside one (returns 1).  A later one: an error.
 */
int
view_failed(struct options *o, struct trace_opts *t,
    const struct trace_result *r)
{
	if (r->view_error[0] == '\0')
		return 0;
	if (t->run != 0)
		errx(1, "run %d could not enter its view: %s", t->run,
		    r->view_error);
	snprintf(o->noview, sizeof(o->noview), "%s", r->view_error);
	say_no_view(o);
	drop_view(o);
	o->ctx.hermetic = 0;
	t->view = NULL;
	return 1;
}

#define NOT_ALL_APPLIED	"the first run's changes to files could not all be " \
	"applied from its view (%s); the rest are"

/*
 * The first run's changes to the real tree; none when it ran outside any
 * view (first_outside), where they happened as it ran.
 */
static int
apply_first(const struct options *o, char *why, size_t len)
{
	return o->first_outside ? 0 : view_apply(&o->view, 0, why, len);
}

void
view_done(struct options *o, int run)
{
	if (o->hermetic && (run != 0 || o->first_outside))
		view_drop(&o->view, run);
}

/* The view and its layers gone; o may be gone too after this. */
void
drop_view(struct options *o)
{
	view_close(&o->view);
	free(o->layered);
	o->layered = NULL;
	o->hermetic = 0;
	viewed = NULL;
}

/*
 * A later run ended by ^C, or SIGTERM or SIGHUP came: the files are left
 * as the first run left them, whole (view_apply holds the signals off),
 * and no report is made.
 */
void
stop_if_asked(struct options *o, int run, int status)
{
	char why[512];

	if (!o->hermetic || (!stop_asked && (run == 0 || !WIFSIGNALED(status) ||
	    WTERMSIG(status) != SIGINT)))
		return;
	if (apply_first(o, why, sizeof(why)) == -1)
		warnx("interrupted: " NOT_ALL_APPLIED, why);
	else
		warnx("interrupted: the files are as the first run left them "
		    "(the later runs' changes are gone); no report");
	drop_view(o);
	exit(130);
}

void
in_view(struct options *o, struct trace_opts *t)
{
	if (!o->hermetic || o->outside)
		return;
	t->view = &o->view;
	t->run = o->nextrun++;
}

char *
command_raised(const struct options *o)
{
	char cmd[PATH_MAX];

	if (o->argv == NULL || trace_find(o->argv[0], cmd, sizeof(cmd)) == -1)
		return NULL;
	return tree_raised_why(cmd);
}

/* The owner a user namespace shows for unmapped ids (usually 65534). */
static const char *
overflow_uid(void)
{
	static char id[16] = "65534";
	FILE *f;

	if ((f = fopen("/proc/sys/kernel/overflowuid", "r")) != NULL) {
		if (fgets(id, sizeof(id), f) == NULL)
			snprintf(id, sizeof(id), "65534");
		id[strcspn(id, "\n")] = '\0';
		fclose(f);
	}
	return id;
}

/* The places the view layers, for the audit (audit.h: layered). */
static char **
layered_places(const struct view *v)
{
	char **places = xcalloc((size_t)v->nm + 1, sizeof(*places));
	int k, n = 0;

	for (k = 0; k < v->nm; k++)
		if (v->m[k].layered)
			places[n++] = v->m[k].path;
	return places;
}

static void
view_at_exit(void)
{
	char why[512];

	if (viewed == NULL || !viewed->hermetic)
		return;
	if (viewed->nextrun > 0 && apply_first(viewed, why, sizeof(why)) == -1)
		warnx(NOT_ALL_APPLIED, why);
	drop_view(viewed);
}

/*
 * Each run in a view of its own (view.h) when the command may run more
 * than once; else one line says why not, and the runs go as before.
 */
void
open_view(struct options *o)
{
	char *raised;

	if (o->argv == NULL || o->nlogs > 0 || o->once) {
		o->ctx.hermetic = o->argv != NULL ? 0 : -1;
		return;
	}
	if (geteuid() != 0 && (raised = command_raised(o)) != NULL) {
		/* a user namespace would drop what it raises */
		snprintf(o->noview, sizeof(o->noview), "%s is set-ID or has "
		    "file capabilities, which a user namespace would not "
		    "honour", o->argv[0]);
		free(raised);
		warnx("no hermetic view for this command: %s", o->noview);
		return;
	}
	trace_find_self();	/* before our own mount namespace */
	if (view_open(&o->view, o->noview, sizeof(o->noview)) == -1) {
		say_no_view(o);
		return;
	}
	o->hermetic = o->ctx.hermetic = 1;
	viewed = o;
	atexit(view_at_exit);
	snprintf(o->foreign_id, sizeof(o->foreign_id), "id=%s",
	    overflow_uid());
	if (o->view.userns)
		o->layered = layered_places(&o->view);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
}

void
close_view(struct options *o, const struct audit *a, struct findings *f)
{
	char why[512], *list = NULL, *more;
	int i, runs = o->nextrun + o->outside_runs;

	if (!o->hermetic)
		return;
	for (i = 0; runs > 1 && i < a->nrepeats; i++) {
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
		findings_warn(f, "no view held back some of what the "
		    "command did, and each of its %d runs did it: %s%s "
		    "(--once makes one run)", runs, list,
		    a->more_repeats ? "; and more" : "");
		free(list);
	}
	if (apply_first(o, why, sizeof(why)) == -1)
		findings_warn(f, NOT_ALL_APPLIED, why);
	if (o->view.unlayered != NULL)
		findings_warn(f, "writes under %s are not held in the view: "
		    "later runs saw what earlier ones wrote there",
		    o->view.unlayered);
	drop_view(o);
}
