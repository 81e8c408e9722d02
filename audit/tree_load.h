/* SPDX-License-Identifier: ISC */
/*
 * tree_load.h: a tree's programs that load code on demand, as a single
 * program's code is decided (decide.h).
 *
 * A program of the tree whose only blockers are modules it mapped
 * executable after its start (iconv's gconv converters, a plugin) can be
 * tamed with those modules loaded first (a profile line's load=, which
 * the shim loads before tame()).  Whether it then runs as it ran is for
 * a run to decide: the command runs plainly and under a profile holding
 * every tameable program's line and those programs' lines with their
 * modules, each in a view; where the two end the same (status, output,
 * files), the programs are tameable with their modules; else they are
 * left out as before, and a warning says how the runs differed.
 */
#ifndef AUDIT_TREE_LOAD_H
#define AUDIT_TREE_LOAD_H

#include "audit.h"
#include "options.h"
#include "runs.h"

/*
 * After tree_warm(), while the views are open; the tree judged again
 * by tree_judge() keeps what was decided.
 */
void	tree_load(struct options *o, struct findings *f);

#endif /* AUDIT_TREE_LOAD_H */
