/* SPDX-License-Identifier: ISC */
/*
 * report.h: tame-audit's last stage.
 */
#ifndef AUDIT_REPORT_H
#define AUDIT_REPORT_H

#include <stdio.h>

#include "audit.h"
#include "tree.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_FLAGS,
	REPORT_PROMISES };

struct report_ctx {
	enum report_format	 format;
	char *const		*argv;		/* the command, or NULL */
	int			 checking;	/* --check */
	int			 log_is_temporary;
	const struct tree	*tree;		/* the programs, or NULL */
	int			 hermetic;	/* 1: each run in a view (view.h);
						   0: not; -1: no run */
	int			 reproduced;	/* the user's run ended as the
						   audited one (plain.h): 1, 0;
						   -1: not compared */
	const char		*profile;	/* --profile's file, written */
	int			 profile_listed, profile_left;
};

void	report(FILE *, const struct audit *, const struct findings *,
	    const struct report_ctx *);

/* The blockers, one line each: --flags-only's words on standard error. */
void	report_blockers(FILE *, const struct audit *, const struct findings *,
	    const char *cmd);

/* "stdio rpath": pledge's words for a set of promises, or "". */
void	promise_list(uint64_t set, char *buf, size_t len);

/* report_tree.c: each program of a tree, with who started it. */
void	report_tree_text(FILE *, const struct tree *, const struct report_ctx *);
void	report_tree_json(FILE *, const struct tree *);

/* report.c's pieces that report_tree.c shares. */
void	json_str(FILE *, const char *);
/* The items of a list, sep between them, as JSON strings, ", " between. */
void	json_str_list(FILE *, const char *list, const char *sep);
void	json_flags(FILE *, int);
void	blocker_line(FILE *, const struct audit *, const struct blocker *);

#endif /* AUDIT_REPORT_H */
