/* SPDX-License-Identifier: ISC */
/*
 * t_manpage.c: the man page and the policy table say the same thing.
 *
 * build/man/tame.3 carries lists generated from the table by
 * "tame-policy --mdoc".  This reads them back and holds them to the
 * table itself, linked in from libtame.a, so that neither the generator
 * nor a hand edit of the page can let the two drift apart.  Nothing is
 * tamed here.
 *
 * The per-flag lists are parsed as tame-policy.c promises: inside an
 * ".It Sy flag" entry, each sentence that has a colon is "label: name,
 * name*, ..." and every word after the colon must be a system call (or
 * the supervisor's, tame_ask, which the table names too).
 */
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "policy.h"

#define MAXNAMES	512
#define NAMELEN		160

struct nameset {
	int	n;
	char	name[MAXNAMES][NAMELEN];
	int	star[MAXNAMES];
};

static char	 page_path[PATH_MAX];
static char	*page;
static char	*lines[16384];
static int	 nlines;

/*
 * The page of this binary's own build (build/tests/t_manpage ->
 * build/man/tame.3): the lists depend on the architecture's calls, and
 * build-arm64/'s page is not build/'s.  Else from the top of the tree.
 */
static const char *
find_page(const char *rel)
{
	static char buf[2 * PATH_MAX];
	char self[PATH_MAX], *slash;
	ssize_t n;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL)
			*slash = '\0';
		/* build/tests/t_manpage -> build/... */
		snprintf(buf, sizeof(buf), "%s/../%s", self,
		    rel + strlen("build/"));
		if (access(buf, R_OK) == 0)
			return buf;
	}
	if (access(rel, R_OK) == 0)
		return rel;
	return NULL;
}

static char *
slurp(const char *path)
{
	FILE *f;
	char *buf;
	long len;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, len, f), len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static void
load_page(void)
{
	const char *p;
	char *s;

	p = find_page("build/man/tame.3");
	ck_assert_msg(p != NULL, "build/man/tame.3 is missing: run make");
	snprintf(page_path, sizeof(page_path), "%s", p);
	page = slurp(page_path);
	ck_assert_msg(page != NULL, "%s: %s", page_path, strerror(errno));
	for (nlines = 0, s = page; *s != '\0' && nlines < 16384; nlines++) {
		lines[nlines] = s;
		if ((s = strchr(s, '\n')) == NULL)
			break;
		*s++ = '\0';
	}
}

/* The line that is exactly want, at or after from; -1 if none. */
static int
find_line(const char *want, int from)
{
	int i;

	for (i = from; i < nlines; i++)
		if (strcmp(lines[i], want) == 0)
			return i;
	return -1;
}

/* The .Bl ... .El that follows the subsection title; *end is the .El. */
static int
list_after(const char *title, int *end)
{
	int ss, bl;

	ss = find_line(title, 0);
	ck_assert_msg(ss != -1, "%s: no \"%s\"", page_path, title);
	for (bl = ss + 1; bl < nlines && strncmp(lines[bl], ".Bl", 3); bl++)
		ck_assert_msg(strncmp(lines[bl], ".Ss", 3) != 0 &&
		    strncmp(lines[bl], ".Sh", 3) != 0,
		    "%s: no list under \"%s\"", page_path, title);
	*end = find_line(".El", bl);
	ck_assert_msg(bl < nlines && *end != -1, "%s: unclosed list under "
	    "\"%s\"", page_path, title);
	return bl;
}

static void
set_add(struct nameset *s, const char *name, int star)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0) {
			s->star[i] |= star;
			return;
		}
	ck_assert_int_lt(s->n, MAXNAMES);
	ck_assert_int_lt(strlen(name), NAMELEN);
	snprintf(s->name[s->n], NAMELEN, "%s", name);
	s->star[s->n++] = star;
}

static int
set_has(const struct nameset *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0)
			return i;
	return -1;
}

/* "missing: a b; extra: c" or "" when the sets are equal. */
static const char *
set_diff(const struct nameset *page_set, const struct nameset *table_set)
{
	static char buf[4096];
	int i;

	buf[0] = '\0';
	for (i = 0; i < table_set->n; i++)
		if (set_has(page_set, table_set->name[i]) == -1) {
			strncat(buf, " missing ", sizeof(buf) - strlen(buf) - 1);
			strncat(buf, table_set->name[i],
			    sizeof(buf) - strlen(buf) - 1);
		}
	for (i = 0; i < page_set->n; i++)
		if (set_has(table_set, page_set->name[i]) == -1) {
			strncat(buf, " extra ", sizeof(buf) - strlen(buf) - 1);
			strncat(buf, page_set->name[i],
			    sizeof(buf) - strlen(buf) - 1);
		}
	return buf;
}

static const char *
group_label(tame_atoms f)
{
	if (f == TAME__ALWAYS)
		return "always";
	if (f == TAME__BASE)
		return "base";
	return f <= TAME_ALL ? tame_flag_name((int)f) : NULL;
}

static int
composite(tame_atoms f)
{
	return f < TAME__BASE && (f & (f - 1)) != 0;
}

/* A flag's rows are keyed by its atoms (policy.h); BASE and ALWAYS as is. */
static tame_atoms
group_atoms(tame_atoms group)
{
	int i;

	for (i = 0; i < tame_nflagnames; i++)
		if ((tame_atoms)tame_flagnames[i].flag == group)
			return tame_flagnames[i].atoms;
	return group;
}

/* The table's answer: calls a group's own rows allow or hand to Landlock. */
/* Is the call of row i allowed in the group by a row after it? */
static int
allowed_after(int i, tame_atoms group)
{
	const struct tame_rule *q;
	int j;

	for (j = i + 1; j < tame_nrules; j++) {
		q = &tame_rules[j];
		if (q->nr == tame_rules[i].nr && (q->any & group_atoms(group)) != 0 &&
		    (q->action == TA_ALLOW || q->action == TA_LANDLOCK))
			return 1;
	}
	return 0;
}

static void
table_set(tame_atoms group, struct nameset *s)
{
	const struct tame_rule *r;
	int i, k, star;

	s->n = 0;
	if (composite(group))
		return;		/* only its parts have rows */
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if ((r->any & group_atoms(group)) == 0 ||
		    (r->action != TA_ALLOW && r->action != TA_LANDLOCK) ||
		    !tame_rule_tame_reaches(r))
			continue;
		set_add(s, r->name, 0);
	}
	/*
	 * an asterisk: some row there looks at the arguments, or a soft
	 * denial or trap that comes before an allowance takes some calls
	 */
	for (i = 0; i < tame_nrules; i++) {
		r = &tame_rules[i];
		if ((r->any & group_atoms(group)) == 0 || ((r->action == TA_ERRNO ||
		    r->action == TA_EMULATE) && !allowed_after(i, group)) ||
		    !tame_rule_tame_reaches(r))
			continue;
		/* libtame's own, marked, calls are listed apart, starred too */
		for (star = 0, k = 0; k < TAME_MAXCOND; k++)
			if (r->cond[k].op != TC_END)
				star = 1;
		if (star && (k = set_has(s, r->name)) != -1)
			s->star[k] = 1;
	}
}

/*
 * A name the table's rows give: a system call, or the supervisor's
 * (tame_ask, TAME_ASK_NR), which no kernel names.
 */
static int
table_name(const char *name)
{
	int i;

	if (tame_syscall_number(name) != -1)
		return 1;
	for (i = 0; i < tame_nrules; i++)
		if (tame_rules[i].nr == TAME_ASK_NR &&
		    strcmp(tame_rules[i].name, name) == 0)
			return 1;
	return 0;
}

/* Lines [from, to) of one entry: the names its lists give. */
static void
page_set(int from, int to, const char *label, struct nameset *s)
{
	char text[16384], *sent, *next, *colon, *tok, *save, *e;
	size_t len = 0;
	int i, star;

	s->n = 0;
	text[0] = '\0';
	for (i = from; i < to; i++) {
		/* a macro line ends whatever sentence came before it */
		const char *add = lines[i][0] == '.' ? "\n" : lines[i];

		ck_assert_int_lt(len + strlen(add) + 2, sizeof(text));
		len += snprintf(text + len, sizeof(text) - len, "%s%s",
		    len > 0 && add[0] != '\n' ? " " : "", add);
	}
	for (sent = text; sent != NULL && *sent != '\0'; sent = next) {
		next = strpbrk(sent, ".\n");
		while (next != NULL && *next == '.' && next[1] != ' ' &&
		    next[1] != '\n' && next[1] != '\0')
			next = strpbrk(next + 1, ".\n");
		if (next != NULL)
			*next++ = '\0';
		if ((colon = strchr(sent, ':')) == NULL)
			continue;	/* prose */
		for (tok = strtok_r(colon + 1, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save)) {
			tok += strspn(tok, " ");
			e = tok + strlen(tok);
			while (e > tok && e[-1] == ' ')
				*--e = '\0';
			star = e > tok && e[-1] == '*';
			if (star)
				e[-1] = '\0';
			ck_assert_msg(*tok != '\0' && strspn(tok,
			    "abcdefghijklmnopqrstuvwxyz0123456789_") ==
			    strlen(tok) && table_name(tok),
			    "entry %s: \"%s\" is not a system call", label, tok);
			set_add(s, tok, star);
		}
	}
}

/* Start and end lines of ".It Sy label" within the flag list. */
static int
entry(const char *label, int *end)
{
	char want[64];
	int bl, el, i, at = -1;

	bl = list_after(".Ss System calls by flag", &el);
	snprintf(want, sizeof(want), ".It Sy %s", label);
	for (i = bl + 1; i < el; i++)
		if (strcmp(lines[i], want) == 0) {
			ck_assert_msg(at == -1, "two entries for %s", label);
			at = i;
		}
	ck_assert_msg(at != -1, "%s: no entry \"%s\"", page_path, want);
	for (i = at + 1; i < el && strncmp(lines[i], ".It", 3) != 0; i++)
		;
	*end = i;
	return at + 1;
}

static void
check_group(tame_atoms group)
{
	struct nameset *want, *got;
	const char *label = group_label(group);
	int from, to, i, k;

	want = calloc(1, sizeof(*want));
	got = calloc(1, sizeof(*got));
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	from = entry(label, &to);
	table_set(group, want);
	page_set(from, to, label, got);
	ck_assert_msg(strcmp(set_diff(got, want), "") == 0,
	    "page and table differ for %s:%s", label, set_diff(got, want));
	for (i = 0; i < got->n; i++) {
		k = set_has(want, got->name[i]);
		ck_assert_msg(got->star[i] == want->star[k],
		    "%s: %s should %sbe starred", label, got->name[i],
		    want->star[k] ? "" : "not ");
	}
	free(want);
	free(got);
}

START_TEST(test_marker_replaced_once)
{
	char *tmpl, *p, path[PATH_MAX];
	const char *marker = ".\\\" @FLAG-LISTS@\n";
	int n = 0;

	load_page();
	ck_assert_msg(strstr(page, "@FLAG-LISTS@") == NULL,
	    "the marker survived into %s", page_path);
	/* build/man/tame.3 -> man/tame.3.in */
	snprintf(path, sizeof(path), "%.*s../../man/tame.3.in",
	    (int)(strrchr(page_path, '/') - page_path + 1), page_path);
	if ((tmpl = slurp(path)) == NULL)
		return;		/* installed tree: no template */
	for (p = tmpl; (p = strstr(p, marker)) != NULL; p += strlen(marker))
		if (p == tmpl || p[-1] == '\n')
			n++;
	ck_assert_msg(n == 1, "%s: the marker line appears %d times", path, n);
	free(tmpl);
}
END_TEST

START_TEST(test_always_and_base_match_table)
{
	load_page();
	check_group(TAME__ALWAYS);
	check_group(TAME__BASE);
}
END_TEST

START_TEST(test_every_flag_matches_table)
{
	int i;

	load_page();
	for (i = 0; i < tame_nflagnames; i++)
		check_group(tame_flagnames[i].flag);
}
END_TEST

/* Composite flags list nothing and name their parts. */
START_TEST(test_composites_name_their_parts)
{
	int i, j, from, to, k, found;

	load_page();
	for (i = 0; i < tame_nflagnames; i++) {
		if (!composite(tame_flagnames[i].flag))
			continue;
		from = entry(tame_flagnames[i].name, &to);
		for (j = 0; j < tame_nflagnames; j++) {
			if (composite(tame_flagnames[j].flag) ||
			    (tame_flagnames[i].flag &
			    tame_flagnames[j].flag) == 0)
				continue;
			for (found = 0, k = from; k < to; k++)
				if (strstr(lines[k], tame_flagnames[j].name))
					found = 1;
			ck_assert_msg(found, "entry %s does not name %s",
			    tame_flagnames[i].name, tame_flagnames[j].name);
		}
	}
}
END_TEST

/* Every Landlock path shows up in the entry of each flag that grants it. */
START_TEST(test_landlock_paths_listed)
{
	char want[300];
	tame_atoms bit;
	int i, k, from, to, found;

	load_page();
	for (i = 0; i < tame_nlpaths; i++) {
		for (bit = 1; bit != 0; bit <<= 1) {
			/* pledge's alone (vminfo, ps): pledge(3) lists them */
			if ((tame_lpaths[i].flag & bit) == 0 ||
			    group_label(bit) == NULL)
				continue;
			from = entry(group_label(bit), &to);
			snprintf(want, sizeof(want), ".Pa %s",
			    tame_lpaths[i].path);
			for (found = 0, k = from; k < to; k++)
				if (strncmp(lines[k], want, strlen(want)) == 0 &&
				    (lines[k][strlen(want)] == '\0' ||
				    lines[k][strlen(want)] == ' '))
					found = 1;
			ck_assert_msg(found, "entry %s does not list %s",
			    group_label(bit), tame_lpaths[i].path);
		}
	}
}
END_TEST

/* ".It Fn name" (plus " Pq Er ERRNO" for soft denials) per row. */
static void
check_rows(const char *title, int action)
{
	struct nameset *want, *got;
	char key[NAMELEN], name[64], err[64];
	const char *e;
	int bl, el, i;

	want = calloc(1, sizeof(*want));
	got = calloc(1, sizeof(*got));
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	for (i = 0; i < tame_nrules; i++) {
		/* rows tame() cannot reach are pledge(3)'s */
		if (tame_rules[i].action != action ||
		    !tame_rule_tame_reaches(&tame_rules[i]))
			continue;
		if (action == TA_ERRNO) {
			e = strerrorname_np(tame_rules[i].errnum);
			ck_assert_ptr_nonnull(e);
			snprintf(key, sizeof(key), "%s %s", tame_rules[i].name,
			    e);
		} else
			snprintf(key, sizeof(key), "%s", tame_rules[i].name);
		set_add(want, key, 0);
	}
	bl = list_after(title, &el);
	for (i = bl + 1; i < el; i++) {
		if (strncmp(lines[i], ".It", 3) != 0)
			continue;
		if (action == TA_ERRNO) {
			ck_assert_msg(sscanf(lines[i], ".It Fn %63s Pq Er %63s",
			    name, err) == 2, "%s: bad item \"%s\"", title,
			    lines[i]);
			snprintf(key, sizeof(key), "%s %s", name, err);
		} else
			ck_assert_msg(sscanf(lines[i], ".It Fn %63s", key) == 1,
			    "%s: bad item \"%s\"", title, lines[i]);
		set_add(got, key, 0);
	}
	ck_assert_msg(strcmp(set_diff(got, want), "") == 0,
	    "%s differ from the table:%s", title, set_diff(got, want));
	free(want);
	free(got);
}

START_TEST(test_soft_denials_match_table)
{
	load_page();
	check_rows(".Ss Soft denials", TA_ERRNO);
}
END_TEST

START_TEST(test_emulated_calls_match_table)
{
	load_page();
	check_rows(".Ss Emulated calls", TA_EMULATE);
}
END_TEST

/* A table without refused calls has no such section, not an empty one. */
START_TEST(test_refused_calls_match_table)
{
	int i, n;

	load_page();
	for (n = 0, i = 0; i < tame_nrules; i++)
		n += tame_rules[i].action == TA_DENY;
	if (n > 0)
		check_rows(".Ss Refused calls", TA_DENY);
	else
		ck_assert_msg(find_line(".Ss Refused calls", 0) == -1,
		    "%s: a \"Refused calls\" section, and no such row",
		    page_path);
}
END_TEST

/* mandoc -Tlint -Wwarning has nothing to say about any page. */
START_TEST(test_mandoc_lint_clean)
{
	static const char *const others[] = { "tame-exec.1", "tame-audit.1" };
	char cmd[4 * PATH_MAX + 64], other[PATH_MAX], out[4096];
	FILE *p;
	size_t i, n;
	int status, dir;

	if (system("command -v mandoc >/dev/null 2>&1") != 0) {
		fprintf(stderr, "t_manpage: mandoc not installed, lint "
		    "skipped\n");
		return;
	}
	load_page();
	dir = (int)(strrchr(page_path, '/') - page_path + 1);
	n = (size_t)snprintf(cmd, sizeof(cmd), "mandoc -Tlint -Wwarning '%s'",
	    page_path);
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		snprintf(other, sizeof(other), "%.*s%s", dir, page_path,
		    others[i]);
		ck_assert_msg(access(other, R_OK) == 0, "%s is missing", other);
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " '%s'", other);
	}
	snprintf(cmd + n, sizeof(cmd) - n, " 2>&1");
	ck_assert_ptr_nonnull(p = popen(cmd, "r"));
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	ck_assert_msg(n == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "%s:\n%s", cmd, out);
}
END_TEST

static Suite *
manpage_suite(void)
{
	Suite *s = suite_create("manpage");
	TCase *tc = tcase_create("manpage");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_marker_replaced_once);
	tcase_add_test(tc, test_always_and_base_match_table);
	tcase_add_test(tc, test_every_flag_matches_table);
	tcase_add_test(tc, test_composites_name_their_parts);
	tcase_add_test(tc, test_landlock_paths_listed);
	tcase_add_test(tc, test_soft_denials_match_table);
	tcase_add_test(tc, test_emulated_calls_match_table);
	tcase_add_test(tc, test_refused_calls_match_table);
	tcase_add_test(tc, test_mandoc_lint_clean);
	suite_add_tcase(s, tc);
	return s;
}

TAME_TEST_MAIN(manpage_suite)
