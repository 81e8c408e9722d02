/* SPDX-License-Identifier: ISC */
/*
 * hermetic.h: tame-audit's runs in views (hermetic.c).
 */
#ifndef AUDIT_HERMETIC_H
#define AUDIT_HERMETIC_H

#include "audit.h"
#include "options.h"
#include "trace.h"

/*
 * A view for the command's runs, when it may run more than once (not
 * --once, not logs alone); else one line says why not.  Sets
 * o->hermetic and o->ctx.hermetic.
 */
void	open_view(struct options *o);

/* Run t in a fresh view, numbered from the first run, 0. */
void	in_view(struct options *o, struct trace_opts *t);

/*
 * After run number run ended with status: a stop was asked for (or ^C
 * ended a later run)?  Then apply the first run's changes, say so, and
 * exit 130.
 */
void	stop_if_asked(struct options *o, int run, int status);

/*
 * After trace_run: the run could not enter its view?  The first run is
 * then to be made again outside one (1); a later one is an error.
 */
int	view_failed(struct options *o, struct trace_opts *t,
	    const struct trace_result *r);

/*
 * Run number run (not the first, unless it was made again outside) is
 * compared with no other from now on: its layers go at once, so that a
 * command that writes much holds no memory for each run until the end.
 */
void	view_done(struct options *o, int run);

/* Every run's layers thrown away, unapplied; no view after. */
void	drop_view(struct options *o);

/* The first run's changes applied, the other runs' gone; warnings in f. */
void	close_view(struct options *o, const struct audit *a,
	    struct findings *f);

/* Why the command gets no shim, when it is set-ID or has capabilities. */
char	*command_raised(const struct options *o);

#endif /* AUDIT_HERMETIC_H */
