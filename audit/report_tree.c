/* SPDX-License-Identifier: ISC */
/*
 * report_tree.c: the programs of a process tree in the report (tree.h):
 * who started whom, and each program's answer, as text and as the JSON
 * "programs" array.  The whole command's verdict comes before it, as
 * for a single program.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

static void
text_answer(FILE *f, const struct tree *t, int i)
{
	const struct program *pr = &t->p[i];
	const struct blocker *b;
	const char *why;
	char flags[256];
	int k;

	if ((why = tree_not_judged(t, i)) != NULL) {
		fprintf(f, "not judged: %s\n", why);
		return;
	}
	if (pr->f.tameable) {
		flags_text(pr->f.flags, flags, sizeof(flags), 0);
		fprintf(f, "%s%s%s\n", flags, pr->load != NULL ? ", with what "
		    "it loads on demand loaded first: " : "", pr->load != NULL ?
		    pr->load : "");
		return;
	}
	if (tree_is_launcher(t, i)) {
		fprintf(f, "a launcher: it starts ");
		tree_print_starts(f, t, i);
		fprintf(f, " (runs untamed)");
	} else
		fprintf(f, "cannot be tamed as run");
	for (k = 0; k < pr->f.nblockers; k++) {
		b = &pr->f.blockers[k];
		if (b->kind == BLOCK_EXEC)
			continue;
		fprintf(f, "; %s: ", blocker_kind_name(b->kind));
		blocker_line(f, pr->a, b);
		if (b->kind == BLOCK_UNREACHED)
			fprintf(f, " (%s)", b->todo);
	}
	fputc('\n', f);
}

static void
text_program(FILE *f, const struct tree *t, int i, int depth)
{
	const struct program *pr = &t->p[i];
	int k;

	fprintf(f, "%*s%s, %d process%s: ", 4 + 4 * depth, "", pr->exe,
	    tree_processes(pr), tree_processes(pr) == 1 ? "" : "es");
	text_answer(f, t, i);
	for (k = 0; k < t->n; k++)
		if (t->p[k].starter == i && k != i)
			text_program(f, t, k, depth + 1);
}

/*
 * Shown when the command is more than one program: one program alone
 * has its answer above already.
 */
void
report_tree_text(FILE *f, const struct tree *t, const struct report_ctx *c)
{
	int i, tameable = 0;

	if (t->n < 2 && (t->n == 0 || !tree_is_launcher(t, 0)))
		return;
	for (i = 0; i < t->n; i++)
		tameable += t->p[i].f.tameable;
	fprintf(f, "\nprograms of the tree (%d, %d tameable), who started "
	    "whom:\n", t->n, tameable);
	for (i = 0; i < t->n; i++)
		if (t->p[i].starter < 0)
			text_program(f, t, i, 0);
	if (tameable > 0 && c->profile == NULL)
		fprintf(f, "    each with its own flags: tame-audit --profile "
		    "FILE -- COMMAND,\n    then tame-exec --profile FILE -- "
		    "COMMAND\n");
}

/* Is every blocker of pr a call some promise allows? */
static int
pledge_can(const struct program *pr)
{
	const struct blocker *b;
	int k;

	for (k = 0; k < pr->f.nblockers; k++) {
		b = &pr->f.blockers[k];
		if ((b->kind != BLOCK_CALL && b->kind != BLOCK_EXEC) ||
		    b->need < 0 || pr->a->needs[b->need].npalts <= 0)
			return 0;
	}
	return 1;
}

void
report_tree_json(FILE *f, const struct tree *t)
{
	const struct program *pr;
	const struct blocker *b;
	char words[512];
	int i, k, n;

	fprintf(f, ",\n  \"programs\": [");
	for (i = 0; i < t->n; i++) {
		pr = &t->p[i];
		fprintf(f, "%s\n    {\"exe\": ", i ? "," : "");
		json_str(f, pr->exe);
		fprintf(f, ", \"processes\": %d, \"started_by\": ",
		    tree_processes(pr));
		json_str(f, pr->starter >= 0 ? t->p[pr->starter].exe : NULL);
		fprintf(f, ", \"starts\": [");
		for (k = n = 0; k < t->n; k++)
			if (t->p[k].starter == i) {
				fprintf(f, "%s", n++ ? ", " : "");
				json_str(f, t->p[k].exe);
			}
		fprintf(f, "], \"launcher\": %s, \"tameable\": %s, "
		    "\"flags\": ", tree_is_launcher(t, i) ? "true" : "false",
		    pr->f.tameable ? "true" : "false");
		if (pr->f.tameable)
			json_flags(f, pr->f.flags);
		else
			fputs("null", f);
		/*
		 * pledge's words for the same; where tame() cannot, but only
		 * for calls a promise allows (exec, a pseudo-terminal),
		 * pledge() can: its words still; null otherwise
		 */
		fprintf(f, ", \"pledge\": ");
		promise_list(pr->f.promises, words, sizeof(words));
		json_str(f, pr->f.promises != 0 && (pr->f.tameable ||
		    pledge_can(pr)) ? words : NULL);
		fprintf(f, ", \"load\": [");
		json_str_list(f, pr->f.tameable ? pr->load : NULL, ",");
		fputc(']', f);
		fprintf(f, ", \"blockers\": [");
		for (k = 0; k < pr->f.nblockers; k++) {
			b = &pr->f.blockers[k];
			fprintf(f, "%s{\"kind\": \"%s\", \"call\": ", k ? ", " :
			    "", blocker_kind_name(b->kind));
			json_str(f, b->need >= 0 ? pr->a->needs[b->need].what :
			    NULL);
			fprintf(f, ", \"detail\": ");
			json_str(f, b->detail);
			fprintf(f, ", \"todo\": ");
			json_str(f, b->todo);
			fputc('}', f);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "%s]", i ? "\n  " : "");
}
