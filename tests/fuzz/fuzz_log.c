/* SPDX-License-Identifier: ISC */
/*
 * fuzz_log.c: tame-audit past the parser: a whole log read as a run
 * (audit/log.c, which classifies every call through classify.c and
 * libtame's decision code), the findings made of it (cover.c,
 * findings.c), and both reports written (report.c).
 *
 * audit_read_log() reads a file, so the input is written to a memfd and
 * read through /proc/self/fd.  The same log is read twice, once as a
 * program that declares its flags with the marker and once as a static
 * program (from_exec), so both ways of starting a run are exercised,
 * and two runs are merged as with several logs.  The reports are made
 * as a suggestion or, for inputs of odd length, as a check (--check);
 * the JSON report must be well-formed JSON: the log's strings end up
 * in it.
 */
#include <sys/mman.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "report.h"

static void
fail(const char *what, const char *text)
{
	fprintf(stderr, "fuzz_log: %s\n%s\n", what, text != NULL ? text : "");
	abort();
}

/* ---- a small JSON well-formedness check (RFC 8259, no UTF-8 check) ---- */

static const char *json_value(const char *);

static const char *
ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *
json_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;	/* also the end of the text */
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			for (i = 1; i <= 4; i++)
				if (!isxdigit((unsigned char)p[i]))
					return NULL;
			p += 4;
		} else if (strchr("\"\\/bfnrt", *p) == NULL || *p == '\0')
			return NULL;
	}
	return p + 1;
}

static const char *
json_number(const char *p)
{
	const char *start;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		start = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == start)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		start = p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == start)
			return NULL;
	}
	return p;
}

/* "{...}" or "[...]": members separated by commas, no trailing one. */
static const char *
json_list(const char *p, char close, int keyed)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			if ((p = json_string(p)) == NULL)
				return NULL;
			if (*(p = ws(p)) != ':')
				return NULL;
			p = ws(p + 1);
		}
		if ((p = json_value(p)) == NULL)
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p != ',')
			return NULL;
		p = ws(p + 1);
	}
}

static const char *
json_value(const char *p)
{
	switch (*p) {
	case '{':
		return json_list(p, '}', 1);
	case '[':
		return json_list(p, ']', 0);
	case '"':
		return json_string(p);
	case 't':
		return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f':
		return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n':
		return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	}
	return json_number(p);
}

static void
json_check(const char *text)
{
	const char *end = json_value(ws(text));

	if (end == NULL || *ws(end) != '\0')
		fail("the JSON report is not well-formed JSON", text);
}

/* ---- the target ---- */

static void
check_audit(const struct audit *a)
{
	long i;

	for (i = 0; i < a->nobs; i++)
		if (a->obs[i].need < 0 || a->obs[i].need >= a->nneeds ||
		    a->obs[i].decl < -1 || a->obs[i].decl >= a->ndecls ||
		    a->obs[i].run < 0 || a->obs[i].run >= a->nruns)
			fail("an observation points nowhere", NULL);
	for (i = 0; i < a->ndecls; i++)
		if (a->decls[i].prev >= i || a->decls[i].prev < -1)
			fail("a marker narrows a later one", NULL);
	for (i = 0; i < a->nneeds; i++)
		if (a->needs[i].nalts < 0 || a->needs[i].nalts >
		    AUDIT_MAXALTS || a->needs[i].what == NULL)
			fail("a need without alternatives or words", NULL);
}

static void
reports(struct audit *a, int checking)
{
	static char *const argv[] = { "prog", "it's", NULL };
	struct report_ctx ctx = { .argv = argv, .checking = checking };
	struct findings f;
	char *text;
	size_t len;
	FILE *out;

	if (checking)
		findings_make(a, &f, checking, 0, 0);
	else
		verdict_findings(a, &f, 0, 0);
	for (ctx.format = REPORT_TEXT; ctx.format <= REPORT_FLAGS;
	    ctx.format++) {
		if ((out = open_memstream(&text, &len)) == NULL)
			abort();
		report(out, a, &f, &ctx);
		fclose(out);
		if (ctx.format == REPORT_JSON)
			json_check(text);
		free(text);
	}
	findings_free(&f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct audit *a;
	char err[512];
	int from_exec;

	if (fd == -1) {
		if ((fd = memfd_create("fuzz_log", MFD_CLOEXEC)) == -1)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) == -1 ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	a = audit_new();
	a->keep_frames = 1;
	for (from_exec = 0; from_exec < 2; from_exec++)
		if (audit_read_log(a, path, from_exec, err,
		    sizeof(err)) == -1 && err[0] == '\0')
			fail("a log refused without a message", NULL);
	check_audit(a);
	/* -k frames kept, but not resolved: that would run addr2line */
	a->keep_frames = 0;
	/* the exhaustive cover is most of the cost: one of the two modes */
	if (a->nruns > 0)
		reports(a, (int)(size & 1));
	audit_free(a);
	return 0;
}
