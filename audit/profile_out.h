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

/* The runs recorded beside file, into t.  0, or -1 with a message. */
int	profile_past_runs(const char *file, struct tree *t, char *err,
	    size_t errlen);

/* Keep a copy of log beside file for later merges.  0, or -1. */
int	profile_record(const char *file, const char *log, char *err,
	    size_t errlen);

/* Write file from t's judged programs (atomically).  0, or -1. */
int	profile_write(const char *file, const struct tree *t, char *err,
	    size_t errlen);

#endif /* AUDIT_PROFILE_OUT_H */
