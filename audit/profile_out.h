/* SPDX-License-Identifier: ISC */
/*
 * profile_out.h: tame-audit --profile FILE.  FILE is written from every
 * run recorded for it: the logs live beside it in FILE.runs/ (one file
 * a run), so that a later audit merges its run in as --merge merges
 * logs, and each program's flags are the least over all of them.  Lines
 * of FILE for programs no recorded run started (written by hand) stay.
 */
#ifndef AUDIT_PROFILE_OUT_H
#define AUDIT_PROFILE_OUT_H

#include <stddef.h>

#include "tree.h"

/*
 * Before anything runs: an existing file must read as a profile (else -1
 * with a message, and nothing is run or recorded); a file that does not
 * exist starts anew, so runs an earlier profile of that name left in
 * FILE.runs/ are removed (how many in *removed), not merged.  0, or -1.
 */
int	profile_start(const char *file, int *removed, char *err,
	    size_t errlen);

/*
 * The runs recorded beside file, into t, and those made with the name
 * service warmed into warmed[] (tree_warm_index()).  0, or -1 with a
 * message.
 */
int	profile_past_runs(const char *file, struct tree *t,
	    struct tree warmed[3], char *err, size_t errlen);

/*
 * Keep a copy of log beside file for later merges: the audit's own run
 * (warm 0), or a run of it with warm's name services warmed.  0, or -1.
 */
int	profile_record(const char *file, const char *log, int warm,
	    char *err, size_t errlen);

/*
 * Write file from t's judged programs (atomically): how many lines list
 * a program in *listed, how many programs are left out (a comment line
 * each) in *left.  0, or -1.
 */
int	profile_write(const char *file, const struct tree *t, int *listed,
	    int *left, char *err, size_t errlen);

#endif /* AUDIT_PROFILE_OUT_H */
