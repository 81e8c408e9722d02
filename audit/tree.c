/* SPDX-License-Identifier: ISC */
/*
 * tree.c: the programs of a process tree, and each one's verdict
 * (tree.h).  The calls come in through log.c (tree_read_log); a program's
 * answer is the one tame-audit gives for a single program, from the same
 * findings and verdict code, over every process and run that ran it.
 */
#include <sys/stat.h>
#include <sys/xattr.h>

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imports.h"
#include "tame.h"
#include "tree.h"

int
tree_program_find(const struct tree *t, const char *exe)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->p[i].exe, exe) == 0)
			return i;
	return -1;
}

int
tree_program(struct tree *t, const char *exe, int starter)
{
	int i;

	if ((i = tree_program_find(t, exe)) >= 0)
		return i;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->p = xrealloc(t->p, (size_t)t->cap * sizeof(*t->p));
	}
	t->p[t->n] = (struct program){ .exe = xstrdup(exe), .a = audit_new(),
	    .starter = starter };
	return t->n++;
}

void
tree_process(struct tree *t, int i)
{
	t->p[i].processes++;
}

char *
tree_raised_why(const char *exe)
{
	struct stat st;

	if (stat(exe, &st) == 0 && (st.st_mode & (S_ISUID | S_ISGID)))
		return xstrdup("set-ID: the loader ignores LD_PRELOAD for it "
		    "when it changes the process's ids; call tame() in the "
		    "program itself");
	if (getxattr(exe, "security.capability", NULL, 0) > 0)
		return xstrdup("it has file capabilities: the loader ignores "
		    "LD_PRELOAD for it where they raise the process's; call "
		    "tame() in the program itself");
	return NULL;
}

/*
 * Why the shim was not in an image of exe: what the loader refuses to
 * preload into, else the environment that should have carried it.
 */
static char *
unreached_why(const char *exe)
{
	struct elf_imports im;
	char *raised;
	int is_static = 0;

	if (elf_imports_read(exe, &im) == 0) {
		is_static = im.is_static;
		elf_imports_free(&im);
	}
	if (is_static)
		return xstrdup("statically linked: no loader runs, so no shim "
		    "can be preloaded; call tame() in the program itself");
	if ((raised = tree_raised_why(exe)) != NULL)
		return raised;
	return xstrdup("started without the shim: the program that started "
	    "it cleared its environment, or is static and made the exec "
	    "itself");
}

void
tree_unreached(struct tree *t, const char *exe, int starter)
{
	int i = tree_program(t, exe, starter);

	if (t->p[i].unreached++ == 0)
		t->p[i].why = unreached_why(exe);
}

void
tree_killed(struct tree *t, const char *exe, int starter, const char *signal)
{
	int i = tree_program(t, exe, starter);

	if (t->p[i].killed++ == 0)
		t->p[i].killed_by = xstrdup(signal);
}

int
tree_print_starts(FILE *f, const struct tree *t, int i)
{
	int k, n;

	for (k = n = 0; k < t->n; k++)
		if (t->p[k].starter == i)
			fprintf(f, "%s%s", n++ ? ", " : "", t->p[k].exe);
	if (n == 0)
		fprintf(f, "programs");
	return n;
}

const char *
tree_not_judged(const struct tree *t, int i)
{
	const struct program *pr = &t->p[i];

	if (!pr->judged || pr->processes > 0 || pr->unreached > 0 ||
	    pr->killed == 0 || pr->f.nblockers == 0)
		return NULL;
	return pr->f.blockers[0].todo;
}

int
tree_is_launcher(const struct tree *t, int i)
{
	const struct findings *f = &t->p[i].f;
	int k;

	for (k = 0; t->p[i].judged && k < f->nblockers; k++)
		if (f->blockers[k].kind == BLOCK_EXEC)
			return 1;
	return 0;
}

/* A program every image of which was killed before it started. */
static char *
killed_why(const struct program *pr)
{
	char *why;

	if (asprintf(&why, "%s killed %s before its start, while the "
	    "loader still worked: nothing of it ran to judge; audit a run in "
	    "which it runs", pr->killed_by, pr->killed == 1 ? "its process" :
	    "each of its processes") == -1)
		err(1, NULL);
	return why;
}

/*
 * Each program's audit gets every run of the tree its calls came from (a
 * program that did not take part in one has no observations there), so
 * that its evidence names the right log; then the verdict a single
 * program gets, with the name service as its runs had it: cold, or
 * warmed as tame() warms it where tree_warm() found a warmed run better
 * (tree_warm.h).
 */
int
tree_warm_index(int warm)
{
	return warm == TAME_GETPW ? 0 : warm == TAME_DNSPATH ? 1 : 2;
}

void
tree_name_runs(struct tree *t, int i)
{
	struct program *pr = &t->p[i];
	const struct tree *from = pr->runs_of != NULL ? pr->runs_of : t;
	int r;

	pr->a->nruns = from->nruns;
	for (r = 0; r < from->nruns; r++) {
		free(pr->a->runs[r].name);
		free(pr->a->runs[r].exe);
		pr->a->runs[r].name = xstrdup(from->logs[r]);
		pr->a->runs[r].exe = xstrdup(pr->exe);
	}
}

void
tree_judge(struct tree *t)
{
	struct program *pr;
	int i;

	for (i = 0; i < t->n; i++) {
		pr = &t->p[i];
		if (pr->judged)
			findings_free(&pr->f);
		tree_name_runs(t, i);
		verdict_findings(pr->a, &pr->f, pr->warmed, pr->cold);
		if (pr->load != NULL)	/* a run decided its code blockers */
			verdict_lift(pr->a, &pr->f);
		if (pr->unreached > 0)
			verdict_add(&pr->f, BLOCK_UNREACHED, -1,
			    xstrdup(pr->exe), xstrdup(pr->why));
		else if (pr->processes == 0 && pr->killed > 0)
			verdict_add(&pr->f, BLOCK_UNREACHED, -1,
			    xstrdup(pr->exe), killed_why(pr));
		pr->judged = 1;
	}
}

void
tree_free(struct tree *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		free(t->p[i].exe);
		free(t->p[i].why);
		free(t->p[i].killed_by);
		free(t->p[i].load);
		if (t->p[i].judged)
			findings_free(&t->p[i].f);
		audit_free(t->p[i].a);
	}
	for (i = 0; i < t->nruns; i++)
		free(t->logs[i]);
	free(t->logs);
	free(t->p);
	*t = (struct tree){ 0 };
}
