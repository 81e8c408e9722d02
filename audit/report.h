/* SPDX-License-Identifier: ISC */
/*
 * report.h: tame-audit's last stage.
 */
#ifndef AUDIT_REPORT_H
#define AUDIT_REPORT_H

#include <stdio.h>

#include "audit.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_FLAGS };

struct report_ctx {
	enum report_format	 format;
	char *const		*argv;		/* the command, or NULL */
	int			 checking;	/* --check */
	int			 log_is_temporary;
};

void	report(FILE *, const struct audit *, const struct findings *,
	    const struct report_ctx *);

/* The blockers, one line each: --flags-only's words on standard error. */
void	report_blockers(FILE *, const struct audit *, const struct findings *,
	    const char *cmd);

#endif /* AUDIT_REPORT_H */
