/* SPDX-License-Identifier: ISC */
/*
 * tame-policy: print the policy table.  The man page's per-flag lists are
 * generated with --mdoc; --tsv gives one row per line for scripts.
 *
 * The --mdoc output is parsed back by tests/t_manpage.c, which holds it
 * to the table.  Inside an entry of the per-flag list, every sentence
 * that contains a colon is "label: name, name, ..." and nothing else;
 * prose in an entry never contains a colon.
 */
#include <ctype.h>
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "policy.h"

#define WRAP	72		/* text line length for the lists */

static void	print_mdoc(void);
static void	print_pledge_mdoc(void);
static void	print_tsv(void);

int
main(int argc, char *argv[])
{
	if (argc == 2 && strcmp(argv[1], "--mdoc") == 0)
		print_mdoc();
	else if (argc == 2 && strcmp(argv[1], "--pledge-mdoc") == 0)
		print_pledge_mdoc();
	else if (argc == 2 && strcmp(argv[1], "--tsv") == 0)
		print_tsv();
	else {
		fprintf(stderr, "usage: tame-policy --mdoc | --pledge-mdoc | "
		    "--tsv\n");
		return 2;
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}

/*
 * The table's rows are keyed by atoms (policy.h); tame(3) speaks of the
 * public flags that hold them.  BASE, ALWAYS and state stay as they are.
 */
static tame_atoms
flags_of(tame_atoms set)
{
	tame_atoms out = set & TAME__INTERNAL;
	int i, f;

	for (i = 0; i < tame_nflagnames; i++) {
		f = tame_flagnames[i].flag;
		if ((f & (f - 1)) == 0 && (tame_flagnames[i].atoms & set))
			out |= (tame_atoms)f;
	}
	return out;
}

/* A row tame() can reach (tame_rule_tame_reaches), asked once a row. */
static int
tame_row(const struct tame_rule *r)
{
	static signed char reached[4096];
	int i = (int)(r - tame_rules);

	if (i >= (int)sizeof(reached))
		errx(1, "%d rows: raise reached[]", tame_nrules);
	if (reached[i] == 0)
		reached[i] = tame_rule_tame_reaches(r) ? 1 : -1;
	return reached[i] > 0;
}

#define ANY(r)	flags_of((r)->any)
#define ALL(r)	flags_of((r)->all)

/* pledge's words for a set of atoms: "stdio rpath". */
static void
print_promises(tame_atoms set)
{
	const char *sep = "";
	int i;

	for (i = 0; i < tame_npromises; i++)
		if (tame_promises[i].atoms & set) {
			printf("%s%s", sep, tame_promises[i].name);
			sep = " ";
		}
}

static const char *
flag_label(tame_atoms f)
{
	if (f == TAME__ALWAYS)
		return "always";
	if (f == TAME__BASE)
		return "base";
	return f <= TAME_ALL ? tame_flag_name((int)f) : NULL;
}

/* "rpath|wpath" for a set of single bits. */
static void
print_set(tame_atoms set)
{
	const char *sep = "";
	tame_atoms bit;

	for (bit = 1; bit <= TAME__ALWAYS; bit <<= 1) {
		if ((set & bit) == 0 || flag_label(bit) == NULL)
			continue;
		printf("%s%s", sep, flag_label(bit));
		sep = "|";
	}
}

static const char *
action_name(const struct tame_rule *r)
{
	switch (r->action) {
	case TA_ERRNO:
		return "errno";
	case TA_EMULATE:
		return "emulate";
	case TA_LANDLOCK:
		return "landlock";
	case TA_DENY:
		return "deny";
	}
	return "allow";
}

static int
has_args(const struct tame_rule *r)
{
	return r->cond[0].op != TC_END;
}

static void
print_tsv(void)
{
	const struct tame_rule *r;
	int i;

	printf("syscall\tany\tall\taction\targs\twhy\tpromises\n");
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		printf("%s\t", r->name);
		print_set(ANY(r));
		printf("\t");
		print_set(ALL(r));
		printf("\t%s", action_name(r));
		if (r->action == TA_ERRNO)
			printf(":%d", r->errnum);
		printf("\t%s\t%s\t", has_args(r) ? "checked" : "any", r->why);
		print_promises(r->any);
		printf("\n");
	}
}

/* Made only by libtame itself, marked (policy.h, TAME_MARK)? */
static int
is_gate(const struct tame_rule *r)
{
	return tame_rule_marked(r);
}

/* Does the row test arguments? */
static int
tests_args(const struct tame_rule *r)
{
	return r->cond[0].op != TC_END;
}

/* Does a row after row i allow the same call in the group? */
static int
allowed_later(int i, tame_atoms group)
{
	const struct tame_rule *r = &tame_rules[i], *q;
	int j;

	for (j = i + 1; j < tame_nrules; j++) {
		q = &tame_rules[j];
		if (q->nr == r->nr && (ANY(q) & group) != 0 &&
		    (q->action == TA_ALLOW || q->action == TA_LANDLOCK))
			return 1;
	}
	return 0;
}

/*
 * A call is starred in a group when any row that allows or refuses it
 * there looks at its arguments, or a soft denial or trap that comes
 * first takes some of its calls (SIGSYS's action).
 */
static int
starred(int nr, tame_atoms group)
{
	const struct tame_rule *r;
	int i;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->nr != nr || (ANY(r) & group) == 0 || !tame_row(r))
			continue;
		if (r->action != TA_ALLOW && r->action != TA_LANDLOCK &&
		    r->action != TA_DENY && !allowed_later(i, group))
			continue;
		if (tests_args(r))
			return 1;
	}
	return 0;
}

/* Which list of a group's entry a row belongs to. */
enum kind {
	K_ALLOW,		/* allowed by the group alone */
	K_WITH,			/* allowed together with ALL(r) */
	K_LANDLOCK,		/* passed to a Landlock layer */
	K_GATE,			/* only from libtame's own code */
};

static enum kind
row_kind(const struct tame_rule *r)
{
	if (is_gate(r))
		return K_GATE;
	if (r->action == TA_LANDLOCK)
		return K_LANDLOCK;
	if (ALL(r) != 0)
		return K_WITH;
	return K_ALLOW;
}

static int
row_listed(const struct tame_rule *r, tame_atoms group)
{
	/* a row that needs unveil's lock too is unveil(3)'s, no flag's */
	return (ANY(r) & group) != 0 && tame_row(r) &&
	    !(r->all & TAME__UNVEILED) &&
	    (r->action == TA_ALLOW || r->action == TA_LANDLOCK);
}

/*
 * Names of the public flags in set: "rw and unix"; with whole, a
 * composite name stands for its bits ("stdio").
 */
static void
flag_words(tame_atoms set, int whole, const char *conj, char *buf, size_t len)
{
	const char *names[16];
	tame_atoms left = set, f;
	int i, n = 0;

	for (i = 0; i < tame_nflagnames && whole; i++) {
		f = tame_flagnames[i].flag;
		if ((f & (f - 1)) != 0 && (left & f) == f) {
			names[n++] = tame_flagnames[i].name;
			left &= ~f;
		}
	}
	for (i = 0; i < tame_nflagnames && n < 16; i++) {
		f = tame_flagnames[i].flag;
		if ((f & (f - 1)) == 0 && (left & f) == f) {
			names[n++] = tame_flagnames[i].name;
			left &= ~f;
		}
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strncat(buf, i == n - 1 ? conj : ", ",
			    len - strlen(buf) - 1);
		strncat(buf, names[i], len - strlen(buf) - 1);
	}
}

/* A wrapped, comma-separated list of words; ends the sentence. */
struct list {
	int	col;
	int	n;
};

static void
list_begin(struct list *l, const char *label)
{
	printf("%s:", label);
	l->col = (int)strlen(label) + 1;
	l->n = 0;
}

static void
list_add(struct list *l, const char *word, int star)
{
	int w = (int)strlen(word) + (star ? 1 : 0);

	if (l->n > 0) {
		putchar(',');
		l->col++;
	}
	if (l->col + 1 + w + 1 > WRAP) {
		putchar('\n');
		l->col = 0;
	} else {
		putchar(' ');
		l->col++;
	}
	printf("%s%s", word, star ? "*" : "");
	l->col += w;
	l->n++;
}

static void
list_end(struct list *l)
{
	(void)l;
	printf(".\n");
}

/* One list of a group's entry: the rows of one kind (and one .all). */
static void
print_kind(tame_atoms group, enum kind kind, tame_atoms all, const char *label)
{
	const struct tame_rule *r;
	struct list l = { 0, 0 };
	int i, j, seen, any = 0;

	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (!row_listed(r, group) || row_kind(r) != kind ||
		    (kind == K_WITH && ALL(r) != all))
			continue;
		for (seen = 0, j = 0; j < i && !seen; j++)
			seen = tame_rules[j].nr == r->nr &&
			    row_listed(&tame_rules[j], group) &&
			    row_kind(&tame_rules[j]) == kind &&
			    (kind != K_WITH || ALL(&tame_rules[j]) == all);
		if (seen)
			continue;
		if (!any++)
			list_begin(&l, label);
		list_add(&l, r->name, starred(r->nr, group));
	}
	if (any)
		list_end(&l);
}

/* ".Pa a ," ".Pa b" "and" ".Pa c ." */
static void
print_paths(tame_atoms group, int rights, const char *lead)
{
	int i, n = 0, k = 0;

	for (i = 0; i < tame_nlpaths; i++)
		if ((tame_lpaths[i].flag & group) &&
		    tame_lpaths[i].rights == rights)
			n++;
	if (n == 0)
		return;
	printf("%s\n", lead);
	for (i = 0; i < tame_nlpaths; i++) {
		if ((tame_lpaths[i].flag & group) == 0 ||
		    tame_lpaths[i].rights != rights)
			continue;
		k++;
		if (k == n && n > 1)
			printf("and\n");
		printf(".Pa %s%s\n", tame_lpaths[i].path,
		    k == n ? " ." : n > 2 ? " ," : "");
	}
}

static void
print_group(tame_atoms group, tame_atoms implies)
{
	char words[128];
	int i, j, dup, lists = 0;

	printf(".It Sy %s\n", flag_label(group));
	if ((group & (group - 1)) != 0 && group < TAME__BASE) {
		flag_words(group, 0, " and ", words, sizeof(words));
		printf("Shorthand for %s.\n", words);
		return;
	}
	if (group == TAME__ALWAYS)
		printf("Kept under any flags, even by\n.Fn tame 0 .\n");
	else if (group == TAME__BASE)
		printf("Included in every nonzero set of flags.\n");
	if (implies != 0) {
		flag_words(implies, 1, " and ", words, sizeof(words));
		printf("Implies %s.\n", words);
	}

	for (i = 0; i < tame_nrules; i++)
		if (row_listed(&tame_rules[i], group))
			lists++;
	if (lists == 0)
		printf("No system calls of its own.\n");
	print_kind(group, K_ALLOW, 0, "Allows");
	/* one list per distinct set of companion flags, in table order */
	for (i = 0; i < tame_nrules; i++) {
		const struct tame_rule *r = &tame_rules[i];
		char label[160];

		if (!row_listed(r, group) || row_kind(r) != K_WITH)
			continue;
		for (dup = 0, j = 0; j < i && !dup; j++)
			dup = row_listed(&tame_rules[j], group) &&
			    row_kind(&tame_rules[j]) == K_WITH &&
			    ALL(&tame_rules[j]) == ALL(r);
		if (dup)
			continue;
		flag_words(ALL(r), 1, " and ", words, sizeof(words));
		if (ALL(r) & TAME__NOUNIX)
			snprintf(label, sizeof(label), "While the process "
			    "holds no AF_UNIX socket");
		else if (ALL(r) & TAME__THREADED)
			snprintf(label, sizeof(label), "In a process that "
			    "had other threads at its first tame()");
		else
			snprintf(label, sizeof(label), "Together with %s",
			    words);
		print_kind(group, K_WITH, ALL(r), label);
	}
	print_kind(group, K_LANDLOCK, 0, "Confined by Landlock");
	print_kind(group, K_GATE, 0, "From within libtame only");
	print_paths(group, TL_READ,
	    "Without rpath, opens for reading and stat may reach");
	print_paths(group, TL_RW,
	    "Without rpath and wpath, opens for reading and writing may reach");
	print_paths(group, TL_FULL, "Without wpath and cpath, files may be\n"
	    "read, written, created and removed beneath");
}

static const char *
ordinal(int arg)
{
	static const char *word[] = { "first", "second", "third", "fourth",
	    "fifth", "sixth" };

	return arg >= 0 && arg < 6 ? word[arg] : "some";
}

static void
print_value(uint32_t v)
{
	if (v < 256)
		printf("%u", v);
	else
		printf("0x%x", v);
}

/* "when the second argument is 0x5401 and ..." */
static void
print_conds(const struct tame_rule *r)
{
	const struct tame_cond *c;
	int k, j;

	for (k = 0; k < TAME_MAXCOND && r->cond[k].op != TC_END; k++) {
		c = &r->cond[k];
		printf(k == 0 ? ",\nwhen " : "\nand ");
		switch (c->op) {
		case TC_NULL:
			/* a pointer, or an unsigned long that must be 0 */
			printf("the %s argument is 0 (NULL)", ordinal(c->arg));
			continue;
		case TC_NOTNULL:
			printf("the %s argument is not NULL", ordinal(c->arg));
			continue;
		case TC_WITHIN:
			printf("the %s argument claims no atom not held",
			    ordinal(c->arg));
			continue;
		case TC_SELF:
			printf("the %s argument is the process's own pid",
			    ordinal(c->arg));
			continue;
		}
		printf("the %s argument ", ordinal(c->arg));
		if (c->mask == 0xffffffffu && c->nval == 1 &&
		    c->val[0] == TAME_MARK) {
			printf("is libtame's marker");
			continue;
		}
		if (c->mask != 0xffffffffu && c->nval == 1 &&
		    c->val[0] == c->mask) {
			printf("has bits 0x%x set", c->mask);
			continue;
		}
		if (c->mask != 0xffffffffu && c->nval == 1 && c->val[0] == 0) {
			printf("has bits 0x%x clear", c->mask);
			continue;
		}
		if (c->mask != 0xffffffffu)
			printf("masked with 0x%x ", c->mask);
		printf("is ");
		for (j = 0; j < c->nval; j++) {
			if (j > 0)
				printf(j == c->nval - 1 ? " or " : ",");
			if (j > 0 && j < c->nval - 1)
				printf(j % 6 == 0 ? "\n" : " ");
			print_value(c->val[j]);
		}
	}
}

/*
 * A reason from the table as mdoc: one sentence a line, the first word
 * capitalised when it is a plain word, and "name()" as .Fn.
 */
static void
print_text(const char *s)
{
	const char *w, *end;
	size_t len, id;
	int bol = 1, first = 1;
	char last = '\0';

	for (w = s; *w != '\0'; w = end + strspn(end, " ")) {
		len = strcspn(w, " ");
		end = w + len;
		id = strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (id > 0 && strncmp(w + id, "()", 2) == 0) {
			/* raise(), abort(): self only */
			if (!bol)
				putchar('\n');
			printf(".Fn %.*s", (int)id, w);
			if (len > id + 2)
				printf(" %.*s", (int)(len - id - 2), w + id + 2);
			/* the last word: the full stop closes the macro */
			last = w[len - 1];
			if (end[strspn(end, " ")] == '\0' && last != '.' &&
			    last != '?' && last != '!') {
				printf(" .");
				last = '.';
			}
			putchar('\n');
			bol = 1;
			first = 0;
			continue;
		} else {
			if (!bol)
				putchar(' ');
			else if (*w == '.' || *w == '\'')
				printf("\\&");
			if (first && id == len && *w >= 'a' && *w <= 'z') {
				putchar(*w - 'a' + 'A');
				printf("%.*s", (int)len - 1, w + 1);
			} else
				printf("%.*s", (int)len, w);
			bol = 0;
			/* a new sentence starts on a new line */
			if (w[len - 1] == '.' || w[len - 1] == '?' ||
			    w[len - 1] == '!') {
				putchar('\n');
				bol = 1;
			}
		}
		first = 0;
		last = w[len - 1];
	}
	if (last != '.' && last != '?' && last != '!') {
		if (bol)
			printf("\\&");
		putchar('.');
		bol = 0;
	}
	if (!bol)
		putchar('\n');
}

/* Who a row applies to: "With any nonzero flags", "With getpw or dnspath" */
static void
print_who(const struct tame_rule *r)
{
	char words[128];

	if (ANY(r) & TAME__ALWAYS)
		printf("Always");
	else if (ANY(r) & TAME__BASE)
		printf("With any nonzero flags");
	else {
		flag_words(ANY(r), 1, " or ", words, sizeof(words));
		printf("With %s", words);
	}
	if (ALL(r) & ~(TAME__UNVEILED | TAME__NOUNIX)) {
		flag_words(ALL(r), 1, " and ", words, sizeof(words));
		printf(" together with %s", words);
	}
	/* the states, in words */
	if (r->all & TAME__NOUNIX)
		printf(", holding no AF_UNIX socket");
	if (r->all & TAME__UNVEILED)
		printf(", once unveil is locked");
}

/* Has the table any row with this action? */
static int
any_rows(int action)
{
	int i;

	for (i = 0; i < tame_nrules; i++)
		if (tame_rules[i].action == action && tame_row(&tame_rules[i]))
			return 1;
	return 0;
}

/* One .It per row of the action, with who, when and why. */
static void
print_rows(int action)
{
	const struct tame_rule *r;
	const char *e;
	int i;

	printf(".Bl -tag -width Ds\n");
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if (r->action != action || !tame_row(r))
			continue;
		printf(".It Fn %s", r->name);
		if (action == TA_ERRNO) {
			e = strerrorname_np(r->errnum);
			if (e != NULL)
				printf(" Pq Er %s", e);
			else
				printf(" Pq error %d", r->errnum);
		}
		printf("\n");
		if (action == TA_DENY && (ANY(r) & TAME__BASE) && ALL(r) == 0)
			printf("Under any flags");	/* tame(0): no report */
		else
			print_who(r);
		print_conds(r);
		printf(".\n");
		print_text(r->why);
	}
	printf(".El\n");
}

static void
print_mdoc(void)
{
	int i;

	printf(".Ss System calls by flag\n"
	    "Each entry lists the system calls, by their Linux names,\n"
	    "that a flag adds to those of the flags it implies.\n"
	    "An asterisk marks a call that is allowed only for some values\n"
	    "of its arguments, as the flag descriptions above explain.\n"
	    "Calls listed as made from within libtame only are those the\n"
	    ".Dv SIGSYS\n"
	    "handler makes again, marked, once it has checked them\n"
	    ".Pq see Sx Emulated calls :\n"
	    "the filter lets a marked call through only where the kernel\n"
	    "still judges it, or where it harms no one but the caller.\n"
	    "The paths an entry names are granted by that check, which reads\n"
	    "the path the program passed, and confined by a Landlock layer;\n"
	    "any other path is a violation.\n");
	printf(".Bl -tag -width Ds\n");
	print_group(TAME__ALWAYS, 0);
	print_group(TAME__BASE, 0);
	for (i = 0; i < tame_nflagnames; i++)
		print_group(tame_flagnames[i].flag, tame_flagnames[i].implies);
	printf(".El\n");

	printf(".Ss Soft denials\n"
	    "These calls fail with the error shown instead of ending the\n"
	    "process, because libc or a common program tries them and copes\n"
	    "with the failure.\n"
	    "A soft denial applies only where no flag held allows the call.\n");
	print_rows(TA_ERRNO);

	printf(".Ss Emulated calls\n"
	    "The filter cannot decide these calls from their registers, so it\n"
	    "traps them, and the\n"
	    ".Dv SIGSYS\n"
	    "handler in libtame makes the call itself if it is harmless,\n"
	    "or reports a violation if not.\n"
	    "A trap applies only where no flag held allows the call outright.\n");
	print_rows(TA_EMULATE);

	if (!any_rows(TA_DENY))
		return;		/* a section with an empty list: none */
	printf(".Ss Refused calls\n"
	    "These calls are violations whatever the flags: no flag allows\n"
	    "them, and each entry gives the reason, which\n"
	    ".Xr tame-audit 1\n"
	    "quotes for a run that makes one.\n");
	print_rows(TA_DENY);
}

/*
 * pledge(3)'s list of promises: per promise what it is for, what it
 * grants on Linux where that differs from OpenBSD, the calls its rows
 * let through (an asterisk: only with some arguments, or checked in the
 * handler), and the paths it grants.  The same table as tame(3)'s.
 */
static void
print_pledge_mdoc(void)
{
	const struct tame_promise *p;
	const struct tame_rule *r;
	struct list l;
	int i, j, k, any, seen, star;

	printf(".Bl -tag -width Ds\n");
	for (i = 0; i < tame_npromises; i++) {
		p = &tame_promises[i];
		printf(".It Sy %s\n%c%s.\n", p->name,
		    toupper((unsigned char)p->what[0]), p->what + 1);
		if (p->here[0] != '\0')
			printf("On Linux: %s.\n", p->here);
		any = 0;
		for (j = 0; j < tame_nrules; j++) {
			r = &tame_rules[j];
			if (!(r->any & p->atoms) || r->action == TA_DENY ||
			    r->action == TA_ERRNO)
				continue;
			for (seen = 0, k = 0; k < j && !seen; k++)
				seen = tame_rules[k].nr == r->nr &&
				    (tame_rules[k].any & p->atoms) &&
				    tame_rules[k].action != TA_DENY &&
				    tame_rules[k].action != TA_ERRNO;
			if (seen)
				continue;
			if (tame_rule_marked(r))
				continue;	/* libtame's own calls */
			for (star = r->action == TA_EMULATE, k = 0;
			    k < TAME_MAXCOND; k++)
				if (r->cond[k].op != TC_END)
					star = 1;
			if (!any++)
				list_begin(&l, "Allows");
			list_add(&l, r->name, star);
		}
		if (any)
			list_end(&l);
		print_paths(p->atoms, TL_READ, "Reads");
		print_paths(p->atoms, TL_RW, "Reads and writes");
		print_paths(p->atoms, TL_FULL, "Reads, writes, creates and "
		    "removes beneath");
	}
	printf(".El\n");
}
