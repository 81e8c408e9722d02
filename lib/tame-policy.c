/*
 * tame-policy: print the policy table.  The man page's per-flag lists are
 * generated with --mdoc; --tsv gives one row per line for scripts.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "policy.h"

static void	print_mdoc(void);
static void	print_tsv(void);
static int	flag_rows(int flag, int action);

int
main(int argc, char *argv[])
{
	if (argc == 2 && strcmp(argv[1], "--mdoc") == 0)
		print_mdoc();
	else if (argc == 2 && strcmp(argv[1], "--tsv") == 0)
		print_tsv();
	else {
		fprintf(stderr, "usage: tame-policy --mdoc | --tsv\n");
		return 2;
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}

static const char *
flag_label(int f)
{
	if (f == TAME__ALWAYS)
		return "always";
	if (f == TAME__BASE)
		return "base";
	return tame_flag_name(f);
}

/* "rpath|wpath" for a set of single bits. */
static void
print_set(int set)
{
	const char *sep = "";
	int bit;

	for (bit = 1; bit != 0 && bit <= TAME__ALWAYS; bit <<= 1) {
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

	printf("syscall\tany\tall\taction\targs\twhy\n");
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		printf("%s\t", r->name);
		print_set(r->any);
		printf("\t");
		print_set(r->all);
		printf("\t%s", action_name(r));
		if (r->action == TA_ERRNO)
			printf(":%d", r->errnum);
		printf("\t%s\t%s\n", has_args(r) ? "checked" : "any", r->why);
	}
}

/* Does any row of flag (alone in .any or .all) have this action? */
static int
flag_rows(int flag, int action)
{
	int i, n = 0;

	for (i = 0; i < tame_nrules; i++)
		if ((tame_rules[i].any & flag) &&
		    tame_rules[i].action == action)
			n++;
	return n;
}

/*
 * One .It per flag (and for the base set), listing the calls its rows
 * allow; a call with an argument test is marked with an asterisk.
 */
static void
print_mdoc(void)
{
	static const int groups[] = { TAME__ALWAYS, TAME__BASE, TAME_MALLOC,
	    TAME_RW, TAME_RPATH, TAME_WPATH, TAME_CPATH, TAME_TMPPATH,
	    TAME_INET, TAME_UNIX, TAME_DNSPATH, TAME_GETPW, TAME_CMSG,
	    TAME_IOCTL, TAME_PROC };
	const struct tame_rule *r;
	size_t g;
	int i, j, dup;

	printf(".Bl -tag -width Ds\n");
	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		printf(".It Sy %s\n", flag_label(groups[g]));
		for (i = 0; i < tame_nrules; i++) {
			r = &tame_rules[i];
			if ((r->any & groups[g]) == 0 || r->action == TA_ERRNO ||
			    r->action == TA_EMULATE)
				continue;
			for (dup = 0, j = 0; j < i; j++)
				if (tame_rules[j].nr == r->nr &&
				    (tame_rules[j].any & groups[g]) &&
				    tame_rules[j].action == r->action)
					dup = 1;
			if (dup)
				continue;
			printf(".Fn %s%s\n", r->name, has_args(r) ||
			    r->all ? " *" : "");
		}
		if (flag_rows(groups[g], TA_ALLOW) == 0 &&
		    flag_rows(groups[g], TA_LANDLOCK) == 0)
			printf("No calls of its own; see above.\n");
	}
	printf(".El\n");
}
