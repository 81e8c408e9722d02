/* SPDX-License-Identifier: ISC */
/*
 * tree_warm.h: each program of a process tree judged as a single program
 * is, the name service warmed as tame() warms it.
 *
 * A real tame() of getpw or dnspath loads its name service (the NSS
 * modules, the resolver's files) before its filter goes in, so a program
 * tamed with getpw does not make, after its tame(), the calls the
 * audited run (cold: every flag, nothing warmed) saw it make: id reads
 * /etc/passwd there and would seem to need rpath.  A single program is
 * traced again warmed (decide.h); a tree's programs the same way: where
 * some program used a name service after its marker, the whole command
 * runs again as a tree, in a view, the shim's tame() warming that
 * service in every image (one run for each set of services a program
 * used: getpw, dnspath, or both).  A program's warmed calls are its answer
 * where that run ended as the first did, its flags meet every need of
 * its cold calls or the need was met before its marker (the warming
 * moved it), and it does better; else its cold calls are, never
 * suggesting a flag whose tame() would warm what that run did not.
 * --profile keeps the warmed runs beside the audit's own and merges
 * them as it merges those.
 */
#ifndef AUDIT_TREE_WARM_H
#define AUDIT_TREE_WARM_H

#include "audit.h"
#include "options.h"
#include "runs.h"

/*
 * After the audited run's findings, while its views are open: the
 * warmed tree runs, each program's answer chosen; what could not be
 * done into f's warnings.  The tree is judged again by tree_judge().
 */
void	tree_warm(struct options *o, struct findings *f,
	    const struct run_out *first, int from_exec);

/* The warmed trees let go. */
void	tree_warm_free(struct options *o);

#endif /* AUDIT_TREE_WARM_H */
