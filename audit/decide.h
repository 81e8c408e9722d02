/* SPDX-License-Identifier: ISC */
/*
 * decide.h: what runs after the audited one decide (runs.h), each in a
 * view: the name service warmed as tame() warms it, --check's run with
 * nothing warmed, and a run under the suggestion (--verify's, or one
 * that decides code and soft blockers by default).
 */
#ifndef AUDIT_DECIDE_H
#define AUDIT_DECIDE_H

#include "audit.h"
#include "options.h"
#include "runs.h"

/*
 * The suggestion into f, from the audited run *a (first: how it ended)
 * or from a run with the name service warmed that does better, which
 * then takes *a's place; then the blockers a run under it decides.
 */
void	decide_suggestion(struct options *o, struct audit **a,
	    struct findings *f, const struct run_out *first, int from_exec);

/*
 * --check: the findings of a program's own tame() calls into f, a
 * declared getpw or dnspath "not needed" only where a run with nothing
 * warmed needed it no more either.
 */
void	decide_check(struct options *o, struct audit *a, struct findings *f,
	    int from_exec);

/*
 * What the warmed runs are judged by, for a single program here and for
 * each program of a tree (tree_warm.h):
 *
 * decide_name_services: the name services (TAME_GETPW, TAME_DNSPATH) a
 * run used after its marker, which a real tame() of them would have
 * loaded before its filter; 0 for none.
 *
 * decide_same_way: would the warmed run's flags have done for the cold
 * run too (each need met by them, or a call the warmed run made before
 * its marker)?  The first need neither does, or -1.
 *
 * decide_better: is a better than b (tameable first, then fewer flags
 * granting less)?
 */
int	decide_name_services(const struct audit *a);
int	decide_same_way(const struct audit *cold, const struct audit *warm,
	    int flags);
int	decide_better(const struct findings *a, const struct findings *b);

#endif /* AUDIT_DECIDE_H */
