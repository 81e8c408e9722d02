/* SPDX-License-Identifier: ISC */
/*
 * verdict.c: will the suggestion run as the program ran?
 *
 * A trace shows one way through a program.  Under the suggested flags a
 * call may get another answer than it got in the trace, and then the
 * program may take a way nobody traced: tame-audit must not offer a
 * ready command line for that.  A run cannot be tamed as it ran when,
 * after the marker, it
 *
 *	execs			nothing can be executed after tame();
 *	loads code		an executable mapping is refused after
 *				tame() (gconv, dlopen, a perl or python
 *				native module, a JIT), and the program
 *				goes on without it, or dies: only a run
 *				can tell (--verify);
 *	makes a call no flag allows;
 *	gets another answer	a soft denial answers where the trace
 *				shows success (or another error), and no
 *				set of flags answers as traced: whether the
 *				program goes on the same way only a run can
 *				tell (--verify).
 *
 * Where some set of flags does answer a call as traced (a terminal query
 * that succeeded), that set is what the call needs: audit_sharpen() says
 * so before the cover is solved.  Two kinds of soft denial leave the
 * program's way as it was and stay loose: the traced call failed too,
 * so the program handles a failure there anyway; or the descriptor it
 * made was never of use (glibc's nscd socket whose connect failed).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "profile.h"

static const char *const kind_names[] = {
	[BLOCK_EXEC] = "exec",
	[BLOCK_CODE] = "code",
	[BLOCK_CALL] = "call",
	[BLOCK_SOFT] = "soft",
	[BLOCK_VERIFY] = "verify",
	[BLOCK_STATIC] = "static",
	[BLOCK_LOG] = "log",
	[BLOCK_UNREACHED] = "unreached",
	[BLOCK_TIMEOUT] = "timeout",
};

const char *
blocker_kind_name(enum blocker_kind k)
{
	return kind_names[k];
}

int
need_benign(const struct need *nd)
{
	return nd->failed || (nd->makes_fd && !nd->fd_used);
}

void
audit_sharpen(struct audit *a)
{
	struct need *nd;
	int i;

	for (i = 0; i < a->nneeds; i++) {
		nd = &a->needs[i];
		if (nd->nalts == 0 || nd->nexact == 0 || nd->code ||
		    need_benign(nd))
			continue;
		memcpy(nd->alts, nd->exact, (size_t)nd->nexact *
		    sizeof(nd->alts[0]));
		nd->nalts = nd->nexact;
		/* promises likewise (a chown that worked needs chown) */
		if (nd->npalts > 0 && nd->npexact > 0) {
			memcpy(nd->palts, nd->pexact, (size_t)nd->npexact *
			    sizeof(nd->palts[0]));
			nd->npalts = nd->npexact;
		}
	}
}

void
verdict_add(struct findings *f, enum blocker_kind kind, int need,
    char *detail, char *todo)
{
	f->blockers = xrealloc(f->blockers, ((size_t)f->nblockers + 1) *
	    sizeof(*f->blockers));
	f->blockers[f->nblockers++] = (struct blocker){ .kind = kind,
	    .need = need, .detail = detail, .todo = todo };
	f->tameable = 0;
}

static char *
text(const char *fmt, const char *arg, long n)
{
	char *s;

	if (asprintf(&s, fmt, arg, n) == -1)
		s = NULL;
	return s != NULL ? s : xstrdup(fmt);
}

static int
is_exec(const struct need *nd)
{
	return strncmp(nd->what, "execve", 6) == 0;
}

static const char *
errno_name(int e)
{
	const char *s = e != 0 ? strerrorname_np(e) : NULL;

	return s != NULL ? s : "an error";
}

/* "execve \"/bin/sh\"" to "/bin/sh"; else what it is. */
static char *
exec_target(const struct need *nd)
{
	const char *p = strchr(nd->what, '"'), *q;

	if (p == NULL || (q = strrchr(nd->what, '"')) == p)
		return xstrdup(nd->what);
	return strndup(p + 1, (size_t)(q - p - 1));
}

/* "EINVAL under every set of flags; 0 in this run" */
static char *
soft_detail(const struct need *nd)
{
	char *s;

	if (nd->err != 0) {
		if (asprintf(&s, "answered %s under any flags; %s in this run",
		    errno_name(nd->soft_err), errno_name(nd->err)) == -1)
			s = NULL;
	} else if (asprintf(&s, "answered %s under any flags; it succeeded in "
	    "this run", errno_name(nd->soft_err)) == -1)
		s = NULL;
	return s != NULL ? s : xstrdup(nd->what);
}

void
verdict_make(const struct audit *a, struct findings *f)
{
	const struct need *nd;
	int i;

	f->tameable = 1;
	for (i = 0; i < a->nneeds; i++) {
		nd = &a->needs[i];
		if (nd->code && !f->verified)
			verdict_add(f, BLOCK_CODE, i, xstrdup(nd->module != NULL ?
			    nd->module : "executable memory"), text("code "
			    "cannot be loaded after tame(): call tame() after "
			    "the last load (%s log line %ld), or do not tame "
			    "this program", a->nruns > 1 ?
			    a->runs[nd->last.run].name : "at", nd->last.line));
		else if (nd->nalts == 0 && is_exec(nd))
			verdict_add(f, BLOCK_EXEC, i, exec_target(nd),
			    xstrdup(nd->reason));
		else if (nd->nalts == 0)
			verdict_add(f, BLOCK_CALL, i, xstrdup("no flag allows "
			    "it"), xstrdup(nd->reason));
		else if (!f->verified && !cover_meets(nd, f->flags, 1) &&
		    !need_benign(nd))
			verdict_add(f, BLOCK_SOFT, i, soft_detail(nd),
			    xstrdup("the program may go another way on that "
			    "answer: --verify runs it again under the "
			    "suggestion to see"));
	}
}

/* Is m one item of the sep-separated list? */
static int
listed(const char *list, const char *m, char sep)
{
	size_t n = strlen(m);
	const char *p;

	for (p = list; p != NULL; p = (p = strchr(p, sep)) ? p + 1 : NULL)
		if (strncmp(p, m, n) == 0 && (p[n] == sep || p[n] == '\0'))
			return 1;
	return 0;
}

char *
verdict_modules(const struct audit *a, const struct findings *f, char sep,
    int only)
{
	const struct blocker *b;
	const char *m;
	char *list = NULL, *more;
	int i;

	for (i = 0; i < f->nblockers; i++) {
		b = &f->blockers[i];
		m = b->kind == BLOCK_CODE && b->need >= 0 ?
		    a->needs[b->need].module : NULL;
		if (m == NULL || !profile_module_ok(m)) {
			if (!only)
				continue;
			free(list);
			return NULL;
		}
		if (listed(list, m, sep))
			continue;	/* mapped more than once */
		if (asprintf(&more, "%s%s%s", list != NULL ? list : "",
		    list != NULL ? (char[]){ sep, '\0' } : "", m) == -1)
			err(1, NULL);
		free(list);
		list = more;
	}
	return list;
}

void
verdict_lift(const struct audit *a, struct findings *f)
{
	int i;

	f->verified = 1;
	for (i = 0; i < f->nblockers; i++) {
		free(f->blockers[i].detail);
		free(f->blockers[i].todo);
	}
	f->nblockers = 0;
	f->tameable = 1;
	verdict_make(a, f);
}

void
verdict_findings(struct audit *a, struct findings *f, int warmed, int cold)
{
	audit_sharpen(a);
	findings_make(a, f, 0, warmed, cold);
	verdict_make(a, f);
}
