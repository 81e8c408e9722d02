/* SPDX-License-Identifier: ISC */
/*
 * report.c: the findings as text for people, or as one JSON object
 * (audit/schema.json) for programs.
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "policy.h"
#include "report.h"

/* Colour only on a terminal, and never when NO_COLOR is set. */
static int colour;

static const char *
bold(void)
{
	return colour ? "\033[1m" : "";
}

static const char *
plain(void)
{
	return colour ? "\033[0m" : "";
}

static void
flag_list(int flags, char *buf, size_t len)
{
	flags_text(flags, buf, len, 0);
}

/* "wpath+cpath or tmppath": what each alternative adds to held. */
static void
missing_text(const struct need *nd, int held, char *buf, size_t len)
{
	int have = tame_expand(held) & TAME_ALL, i, k, n = 0, add;
	const char *sep;

	buf[0] = '\0';
	for (i = 0; i < nd->nalts && (size_t)n < len; i++) {
		add = nd->alts[i] & ~have;
		if (i > 0)
			n += snprintf(buf + n, len - (size_t)n, " or ");
		for (sep = "", k = 0; k < tame_nflagnames; k++) {
			if (__builtin_popcount(tame_flagnames[k].flag) != 1 ||
			    !(add & tame_flagnames[k].flag) ||
			    (size_t)n >= len)
				continue;
			n += snprintf(buf + n, len - (size_t)n, "%s%s", sep,
			    tame_flagnames[k].name);
			sep = "+";
		}
	}
}

static const char *
exe_of(const struct audit *a)
{
	return a->nruns > 0 ? a->runs[0].exe : NULL;
}

static char *
source_of(const struct audit *a, const struct evidence *e)
{
	if (!a->keep_frames || e->frames == NULL || e->run != 0)
		return NULL;
	return where_resolve(exe_of(a), e->frames);
}

/* The command as a shell would need it typed: quoted where needed. */
static void
command_line(const struct report_ctx *c, char *buf, size_t len)
{
	const char *arg, *p;
	int i, n = 0;

	buf[0] = '\0';
	for (i = 0; c->argv != NULL && c->argv[i] != NULL &&
	    (size_t)n < len; i++) {
		arg = c->argv[i];
		if (i > 0)
			n += snprintf(buf + n, len - (size_t)n, " ");
		if (arg[0] != '\0' && arg[strspn(arg, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")] == '\0') {
			n += snprintf(buf + n, len - (size_t)n, "%s", arg);
			continue;
		}
		n += snprintf(buf + n, len - (size_t)n, "'");
		for (p = arg; *p != '\0' && (size_t)n < len; p++)
			n += snprintf(buf + n, len - (size_t)n, *p == '\'' ?
			    "'\\''" : "%c", *p);
		n += snprintf(buf + n, len - (size_t)n, "'");
	}
}

/* The calls after the marker, over every run. */
static long
calls_after_marker(const struct audit *a)
{
	long calls = 0;
	int i;

	for (i = 0; i < a->nruns; i++)
		calls += a->runs[i].calls;
	return calls;
}

/* ---- text ---- */

static void
text_evidence(FILE *f, const struct audit *a, const struct evidence *e,
    const char *indent)
{
	char *src = source_of(a, e);

	fprintf(f, "%s%s\n%s  (pid %d, log line %ld", indent, e->call, indent,
	    e->pid, e->line);
	if (a->nruns > 1)
		fprintf(f, " of %s", a->runs[e->run].name);
	fprintf(f, ")%s%s\n", src != NULL ? ", at " : "", src != NULL ? src :
	    "");
	free(src);
}

/* Why a soft denial's other answer leaves the program's way as traced. */
static const char *
benign_why(const struct need *nd)
{
	if (nd->failed)
		return "it failed in this run too";
	if (nd->makes_fd && !nd->fd_used)
		return "the descriptor it made was of no use in this run";
	return "--verify found the run the same";
}

static void
text_soft(FILE *f, const struct audit *a, const struct findings *fd)
{
	int i, w;

	for (w = 0, i = 0; i < fd->nsoft; i++) {
		const struct need *nd = &a->needs[fd->soft[i]];

		if (!fd->verified && !need_benign(nd))
			continue;	/* a blocker */
		if (w++ == 0)
			fprintf(f, "\nanswered with an error under these flags "
			    "(a soft denial), the program's way unchanged:\n");
		fprintf(f, "    %s (%ld calls): %s\n", nd->what, nd->count,
		    benign_why(nd));
		text_evidence(f, a, &nd->first, "        ");
	}
}

/* Each module of a ':' list (findings.load) as fmt prints one. */
static void
print_loads(FILE *f, const char *list, const char *fmt)
{
	const char *p, *end;

	for (p = list; p != NULL && *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		fprintf(f, fmt, (int)(end - p), p);
	}
}

void
json_str_list(FILE *f, const char *list, const char *sep)
{
	char *copy, *m, *save;
	int n = 0;

	if (list == NULL || (copy = strdup(list)) == NULL)
		return;
	for (m = strtok_r(copy, sep, &save); m != NULL;
	    m = strtok_r(NULL, sep, &save)) {
		fprintf(f, "%s", n++ ? ", " : "");
		json_str(f, m);
	}
	free(copy);
}

/* " -l MODULE" for each module of a ':' list, or "". */
static void
load_args(const char *list, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	buf[0] = '\0';
	if (f == NULL)
		return;
	print_loads(f, list, " -l %.*s");
	fclose(f);
}

void
promise_list(uint64_t set, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < tame_npromises && n < len; i++)
		if (set & ((uint64_t)1 << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			    n ? " " : "", tame_promises[i].name);
}

/* A marker's declaration: "stdio,rpath", or pledge's "stdio rpath". */
static void
declared_text(const struct decl *d, char *buf, size_t len)
{
	if (d->pledged)
		promise_list(d->promises, buf, len);
	else
		flag_list(d->flags, buf, len);
}

/*
 * What a call lacked under d: flags ("rpath or getpw"), or promises
 * ("promise rpath"), the smallest sets beyond what d declared.
 */
static void
decl_missing_text(const struct need *nd, const struct decl *d, char *buf,
    size_t len)
{
	char words[256];
	size_t n;
	int i;

	if (!d->pledged) {
		missing_text(nd, d->flags, buf, len);
		return;
	}
	n = (size_t)snprintf(buf, len, "promise ");
	if (nd->npalts == 0)
		snprintf(buf, len, "what no promise allows");
	for (i = 0; i < nd->npalts && n < len; i++) {
		promise_list(nd->palts[i] & ~d->promises, words,
		    sizeof(words));
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
		    i ? " or " : "", words);
	}
}

static void
unneeded_text(const struct finding *u, char *buf, size_t len)
{
	if (u->promise != 0)
		promise_list(u->promise, buf, len);
	else
		flag_list(u->flag, buf, len);
}

static int
any_pledged(const struct audit *a)
{
	int i;

	for (i = 0; i < a->ndecls; i++)
		if (a->decls[i].pledged)
			return 1;
	return 0;
}

static void
text_suggestion(FILE *f, const struct audit *a, const struct findings *fd,
    const struct report_ctx *c)
{
	char flags[256], cflags[512], cmd[1024], loads[PATH_MAX * 4];
	int bit, i;

	flag_list(fd->flags, flags, sizeof(flags));
	flags_text(fd->flags, cflags, sizeof(cflags), 1);
	command_line(c, cmd, sizeof(cmd));
	fprintf(f, "%ssuggested flags: %s%s\n", bold(), flags, plain());
	load_args(fd->load, loads, sizeof(loads));
	if (cmd[0] != '\0')
		fprintf(f, "    tame-exec -f %s%s -- %s\n", flags, loads, cmd);
	/* what the program loads on demand, loaded first */
	print_loads(f, fd->load, "    dlopen(\"%.*s\", RTLD_NOW);\n");
	fprintf(f, "    tame(%s);\n", cflags);
	promise_list(fd->promises, flags, sizeof(flags));
	if (fd->promises != 0)
		fprintf(f, "    pledge(\"%s\", NULL);\n", flags);
	fprintf(f, "\n");

	fprintf(f, "why each flag:\n");
	fprintf(f, "    stdio     the floor: memory and descriptors, whatever "
	    "the input\n");
	if (fd->floor_why >= 0)
		text_evidence(f, a, &a->needs[fd->floor_why].first,
		    "              ");
	for (bit = 1; bit <= TAME_PROC; bit <<= 1) {
		i = fd->why[__builtin_ctz((unsigned)bit)];
		if (!(fd->flags & bit) || (bit & TAME_STDIO))
			continue;
		flag_list(bit, flags, sizeof(flags));
		fprintf(f, "    %-9s ", flags);
		if (a->nruns > 1)
			fprintf(f, "[needed in %d of %d runs] ",
			    fd->runs_needing[__builtin_ctz((unsigned)bit)],
			    a->nruns);
		if (i < 0) {
			fprintf(f, "%s\n", (fd->warmed & bit) ? "the name "
			    "service, which tame() loads before its filter" :
			    "implied by another flag");
			continue;
		}
		fprintf(f, "%s\n", a->needs[i].what);
		text_evidence(f, a, &a->needs[i].first, "              ");
	}
	for (i = 0; i < fd->nties; i++) {
		flag_list(fd->ties[i], flags, sizeof(flags));
		fprintf(f, "    also minimal, granting more: %s\n", flags);
	}
	if (fd->exact != fd->flags) {
		flag_list(fd->exact, flags, sizeof(flags));
		fprintf(f, "    for every call to be answered as in this run: "
		    "%s\n", flags);
	}
	if (fd->warmed != 0) {
		flag_list(fd->warmed, flags, sizeof(flags));
		fprintf(f, "    (from a second run with the name service loaded "
		    "before the marker, as tame() under %s loads it)\n",
		    flags);
	}
	if (fd->decided)
		fprintf(f, "    (what only a run could decide, a run decided: "
		    "under these flags%s the command ended as it does "
		    "untamed, with the same output and files)\n",
		    fd->load != NULL ? ", the code it loads on demand loaded "
		    "before tame()," : "");
	else if (fd->verified)
		fprintf(f, "    (--verify: run again under these flags, it "
		    "ended the same, with the same output%s)\n",
		    c->hermetic == 1 ? " and files" : "");
	text_soft(f, a, fd);
}

/* "execve \"/bin/sh\"", or "get_mempolicy: no flag allows it" */
void
blocker_line(FILE *f, const struct audit *a, const struct blocker *b)
{
	const char *what = b->need >= 0 ? a->needs[b->need].what : NULL;

	if (what == NULL)
		fprintf(f, "%s", b->detail);
	else if (strstr(what, b->detail) != NULL)
		fprintf(f, "%s", what);
	else
		fprintf(f, "%s: %s", what, b->detail);
}

void
report_blockers(FILE *f, const struct audit *a, const struct findings *fd,
    const char *cmd)
{
	const struct blocker *b;
	int i;

	fprintf(f, "tame-audit: %s cannot be tamed as run:\n", cmd);
	for (i = 0; i < fd->nblockers; i++) {
		b = &fd->blockers[i];
		fprintf(f, "    %s: ", blocker_kind_name(b->kind));
		blocker_line(f, a, b);
		if (b->need >= 0)
			fprintf(f, " (pid %d, log line %ld)",
			    a->needs[b->need].first.pid,
			    a->needs[b->need].first.line);
		fprintf(f, ": %s\n", b->todo);
	}
}

static void
text_blockers(FILE *f, const struct audit *a, const struct findings *fd)
{
	const struct blocker *b;
	char flags[256];
	int i;

	fprintf(f, "%scannot be tamed as run%s: ", bold(), plain());
	for (i = 0; i < fd->nblockers; i++)
		fprintf(f, "%s%s", i ? ", " : "",
		    blocker_kind_name(fd->blockers[i].kind));
	fprintf(f, "\n");
	for (i = 0; i < fd->nblockers; i++) {
		b = &fd->blockers[i];
		fprintf(f, "    %-7s ", blocker_kind_name(b->kind));
		blocker_line(f, a, b);
		fputc('\n', f);
		if (b->need >= 0)
			text_evidence(f, a, &a->needs[b->need].first,
			    "            ");
		fprintf(f, "            what to do: %s\n", b->todo);
	}
	flag_list(fd->flags, flags, sizeof(flags));
	if (calls_after_marker(a) == 0)	/* nothing of it ran */
		fprintf(f, "\nno call of the program was seen after tame(): "
		    "there is no set to name, and no command line\n");
	else
		fprintf(f, "\nwithout the blockers, the rest of this run "
		    "needs %s; no command line is given, since it would not "
		    "run as audited\n", flags);
	text_soft(f, a, fd);
}

static void
text_staircase(FILE *f, const struct audit *a, const struct findings *fd)
{
	char flags[256], *src;
	const struct need *nd;
	const struct obs *o;
	int i;

	if (fd->nsteps == 0)
		return;
	fprintf(f, "\nwhere tame() can narrow (first run, in trace order):\n");
	for (i = 0; i < fd->nsteps; i++) {
		flag_list(fd->steps[i].flags, flags, sizeof(flags));
		fprintf(f, "    %-22s ", flags);
		if (fd->steps[i].after < 0) {
			fprintf(f, "from the marker on\n");
			continue;
		}
		o = &a->obs[fd->steps[i].after];
		nd = &a->needs[o->need];
		src = nd->last.line == o->line ? source_of(a, &nd->last) :
		    NULL;
		fprintf(f, "after the last %s%s%s (pid %d, log line %ld)\n",
		    nd->what, src != NULL ? ", " : "", src != NULL ? src : "",
		    o->pid, o->line);
		free(src);
	}
}

static void
text_unexpressible(FILE *f, const struct audit *a, const struct findings *fd)
{
	int i;

	if (fd->nunexpressible == 0)
		return;
	fprintf(f, "\n%sno flag allows these%s (tame() must come after them, "
	    "or not be called):\n", bold(), plain());
	for (i = 0; i < fd->nunexpressible; i++) {
		const struct need *nd = &a->needs[fd->unexpressible[i]];

		fprintf(f, "    %s: %s\n", nd->what, nd->reason);
		text_evidence(f, a, &nd->first, "        ");
	}
}

static void
text_check(FILE *f, const struct audit *a, const struct findings *fd)
{
	char flags[256], miss[256];
	const struct decl *d;
	int i;

	fprintf(f, "declared:\n");
	for (i = 0; i < a->ndecls; i++) {
		d = &a->decls[i];
		if (d->pledged) {
			promise_list(d->promises, flags, sizeof(flags));
			fprintf(f, "    pledge(\"%s\") by pid %d, log line "
			    "%ld\n", flags, d->pid, d->line);
			continue;
		}
		flags_text(d->flags, flags, sizeof(flags), 1);
		fprintf(f, "    tame(%s) by pid %d, log line %ld\n", flags,
		    d->pid, d->line);
	}
	if (fd->nviolations > 0)
		fprintf(f, "\n%sviolations%s (a real run dies at the first):\n",
		    bold(), plain());
	for (i = 0; i < fd->nviolations; i++) {
		const struct need *nd = &a->needs[fd->violations[i].need];

		d = &a->decls[fd->violations[i].decl];
		declared_text(d, flags, sizeof(flags));
		decl_missing_text(nd, d, miss, sizeof(miss));
		fprintf(f, "    %s needs %s (declared %s)\n", nd->what, miss,
		    flags);
		text_evidence(f, a, &nd->first, "        ");
	}
	if (fd->nunneeded > 0)
		fprintf(f, "\n%snot needed%s (nothing after the call used "
		    "them):\n", bold(), plain());
	for (i = 0; i < fd->nunneeded; i++) {
		d = &a->decls[fd->unneeded[i].decl];
		unneeded_text(&fd->unneeded[i], flags, sizeof(flags));
		fprintf(f, "    %s, declared by pid %d at log line %ld\n",
		    flags, d->pid, d->line);
	}
	fprintf(f, "\n%s%d violation%s, %d %s not needed%s\n", bold(),
	    fd->nviolations, fd->nviolations == 1 ? "" : "s", fd->nunneeded,
	    any_pledged(a) ? "flags or promises" : fd->nunneeded == 1 ?
	    "flag" : "flags", plain());
}

static void
text_header(FILE *f, const struct audit *a, const struct report_ctx *c)
{
	char cmd[1024];

	command_line(c, cmd, sizeof(cmd));
	fprintf(f, "tame-audit: %s%s%ld calls after %s in %d run%s\n",
	    cmd, cmd[0] != '\0' ? ": " : "", calls_after_marker(a),
	    any_pledged(a) ? "pledge()" : "tame()", a->nruns,
	    a->nruns == 1 ? "" : "s");
}

static void
text_warnings(FILE *f, const struct findings *fd)
{
	int i;

	if (fd->nwarnings > 0)
		fprintf(f, "\nwarnings:\n");
	for (i = 0; i < fd->nwarnings; i++)
		fprintf(f, "    %s\n", fd->warnings[i]);
}

/* ---- JSON ---- */

void
json_str(FILE *f, const char *s)
{
	const unsigned char *p;

	if (s == NULL) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void
json_flags(FILE *f, int flags)
{
	char buf[256], *p, *save = NULL;
	const char *sep = "";

	flag_list(flags, buf, sizeof(buf));
	fputc('[', f);
	if (strcmp(buf, "none") != 0)
		for (p = strtok_r(buf, ",", &save); p != NULL;
		    p = strtok_r(NULL, ",", &save)) {
			fprintf(f, "%s", sep);
			json_str(f, p);
			sep = ", ";
		}
	fputc(']', f);
}

static void
json_flags_or_null(FILE *f, int given, int flags)
{
	if (given)
		json_flags(f, flags);
	else
		fputs("null", f);
}

static void
json_evidence(FILE *f, const struct audit *a, const struct evidence *e)
{
	char *src = source_of(a, e);

	fprintf(f, "{\"call\": ");
	json_str(f, e->call);
	fprintf(f, ", \"pid\": %d, \"line\": %ld, \"run\": %d, \"source\": ",
	    e->pid, e->line, e->run);
	json_str(f, src);
	fputc('}', f);
	free(src);
}

static void
json_alts(FILE *f, const int *alts, int n)
{
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_flags(f, alts[i]);
	}
	fputc(']', f);
}

static void
json_blockers(FILE *f, const struct audit *a, const struct findings *fd)
{
	const struct blocker *b;
	int i;

	fprintf(f, ",\n  \"blockers\": [");
	for (i = 0; i < fd->nblockers; i++) {
		b = &fd->blockers[i];
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"call\": ", i ? "," : "",
		    blocker_kind_name(b->kind));
		json_str(f, b->need >= 0 ? a->needs[b->need].what : NULL);
		fprintf(f, ", \"detail\": ");
		json_str(f, b->detail);
		fprintf(f, ", \"todo\": ");
		json_str(f, b->todo);
		fprintf(f, ", \"count\": %ld, \"first\": ", b->need >= 0 ?
		    a->needs[b->need].count : 0);
		if (b->need >= 0)
			json_evidence(f, a, &a->needs[b->need].first);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fprintf(f, "%s]", i ? "\n  " : "");
}

static void
report_json(FILE *f, const struct audit *a, const struct findings *fd,
    const struct report_ctx *c)
{
	char flags[256], cflags[512], cmd[1024], loads[PATH_MAX * 4], *tx;
	const struct need *nd;
	int i, bit, n, suggested;

	flag_list(fd->flags, flags, sizeof(flags));
	flags_text(fd->flags, cflags, sizeof(cflags), 1);
	command_line(c, cmd, sizeof(cmd));
	fprintf(f, "{\n  \"schema\": \"tame-audit/2\",\n  \"command\": [");
	for (i = 0; c->argv != NULL && c->argv[i] != NULL; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_str(f, c->argv[i]);
	}
	fprintf(f, "],\n  \"tameable\": %s", c->checking || fd->tameable ?
	    "true" : "false");
	json_blockers(f, a, fd);
	fprintf(f, ",\n  \"warmed\": ");
	json_flags(f, fd->warmed);
	fprintf(f, ",\n  \"verified\": %s", fd->verified ? "true" : "false");
	fprintf(f, ",\n  \"hermetic\": %s", c->hermetic == 1 ? "true" :
	    c->hermetic == 0 ? "false" : "null");
	fprintf(f, ",\n  \"reproduced\": %s", c->reproduced == 1 ? "true" :
	    c->reproduced == 0 ? "false" : "null");
	fprintf(f, ",\n  \"decided\": [");
	for (i = n = 0; i < 16; i++)	/* the kinds of enum blocker_kind */
		if (fd->decided & (1 << i))
			fprintf(f, "%s\"%s\"", n++ ? ", " : "",
			    blocker_kind_name((enum blocker_kind)i));
	fputc(']', f);
	/*
	 * A run that cannot be tamed gets no set: "flags" is null, as the
	 * text report gives none, and what the rest of the run needs is
	 * under a name that says it is no suggestion.
	 */
	suggested = c->checking || fd->tameable;
	fprintf(f, ",\n  \"flags\": ");
	json_flags_or_null(f, suggested, fd->flags);
	fprintf(f, ",\n  \"flags_beside_blockers\": ");
	json_flags_or_null(f, !suggested, fd->flags);
	fprintf(f, ",\n  \"flags_exact\": ");
	json_flags_or_null(f, suggested, fd->exact);
	fprintf(f, ",\n  \"also_minimal\": [");
	for (i = 0; suggested && i < fd->nties; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_flags(f, fd->ties[i]);
	}
	load_args(fd->load, loads, sizeof(loads));
	if (asprintf(&tx, "tame-exec -f %s%s -- %s", flags, loads, cmd) == -1)
		tx = NULL;
	fprintf(f, "],\n  \"tame_exec\": ");
	json_str(f, cmd[0] != '\0' && (c->checking || fd->tameable) ? tx :
	    NULL);
	free(tx);
	fprintf(f, ",\n  \"load\": [");
	json_str_list(f, suggested ? fd->load : NULL, ":");
	fprintf(f, "]");
	fprintf(f, ",\n  \"c\": ");
	if (c->checking || fd->tameable)
		fprintf(f, "\"tame(%s)\"", cflags);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"pledge\": ");
	if ((c->checking || fd->tameable) && fd->promises != 0) {
		char words[512];

		promise_list(fd->promises, words, sizeof(words));
		json_str(f, words);
	} else
		fputs("null", f);
	fprintf(f, ",\n  \"evidence\": [");
	n = 0;
	for (bit = 1; bit <= TAME_PROC; bit <<= 1) {
		i = fd->why[__builtin_ctz((unsigned)bit)];
		if (!(fd->flags & bit) || (bit & TAME_STDIO) || i < 0)
			continue;
		flag_list(bit, flags, sizeof(flags));
		fprintf(f, "%s\n    {\"flag\": ", n++ ? "," : "");
		json_str(f, flags);
		fprintf(f, ", \"runs_needing\": %d, \"needs\": ",
		    fd->runs_needing[__builtin_ctz((unsigned)bit)]);
		json_str(f, a->needs[i].what);
		fprintf(f, ", \"first\": ");
		json_evidence(f, a, &a->needs[i].first);
		fputc('}', f);
	}
	fprintf(f, "%s],\n  \"unexpressible\": [", n ? "\n  " : "");
	for (i = 0; i < fd->nunexpressible; i++) {
		nd = &a->needs[fd->unexpressible[i]];
		fprintf(f, "%s\n    {\"needs\": ", i ? "," : "");
		json_str(f, nd->what);
		fprintf(f, ", \"reason\": ");
		json_str(f, nd->reason);
		fprintf(f, ", \"count\": %ld, \"first\": ", nd->count);
		json_evidence(f, a, &nd->first);
		fputc('}', f);
	}
	fprintf(f, "%s],\n  \"soft\": [", i ? "\n  " : "");
	for (i = 0; i < fd->nsoft; i++) {
		nd = &a->needs[fd->soft[i]];
		fprintf(f, "%s\n    {\"needs\": ", i ? "," : "");
		json_str(f, nd->what);
		fprintf(f, ", \"exact\": ");
		json_alts(f, nd->exact, nd->nexact);
		fprintf(f, ", \"count\": %ld, \"first\": ", nd->count);
		json_evidence(f, a, &nd->first);
		fputc('}', f);
	}
	fprintf(f, "%s],\n  \"staircase\": [", i ? "\n  " : "");
	for (i = 0; i < fd->nsteps; i++) {
		fprintf(f, "%s\n    {\"flags\": ", i ? "," : "");
		json_flags(f, fd->steps[i].flags);
		fprintf(f, ", \"after\": ");
		if (fd->steps[i].after < 0)
			fputs("null", f);
		else {
			nd = &a->needs[a->obs[fd->steps[i].after].need];
			fprintf(f, "{\"needs\": ");
			json_str(f, nd->what);
			fprintf(f, ", \"line\": %ld, \"pid\": %d, \"source\": ",
			    a->obs[fd->steps[i].after].line,
			    a->obs[fd->steps[i].after].pid);
			tx = nd->last.line == a->obs[fd->steps[i].after].line ?
			    source_of(a, &nd->last) : NULL;
			json_str(f, tx);
			free(tx);
			fputc('}', f);
		}
		fputc('}', f);
	}
	fprintf(f, "%s],\n  \"runs\": [", i ? "\n  " : "");
	for (i = 0; i < a->nruns; i++) {
		const struct run *r = &a->runs[i];

		fprintf(f, "%s\n    {\"log\": ", i ? "," : "");
		json_str(f, c->log_is_temporary ? NULL : r->name);
		fprintf(f, ", \"lines\": %ld, \"calls\": %ld, \"markers\": %d, "
		    "\"exit\": ", r->lines, r->calls, r->markers);
		if (r->exited == 1)
			fprintf(f, "%d", r->status);
		else
			fputs("null", f);
		fprintf(f, ", \"signal\": ");
		json_str(f, r->exited == 2 ? r->signame : NULL);
		fputc('}', f);
	}
	fprintf(f, "%s],\n  \"warnings\": [", i ? "\n  " : "");
	for (i = 0; i < fd->nwarnings; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		json_str(f, fd->warnings[i]);
	}
	fprintf(f, "%s]", i ? "\n  " : "");
	if (c->checking) {
		fprintf(f, ",\n  \"check\": {\n    \"declared\": [");
		for (i = 0; i < a->ndecls; i++) {
			if (a->decls[i].pledged) {
				promise_list(a->decls[i].promises, flags,
				    sizeof(flags));
				fprintf(f, "%s\n      {\"pledge\": ",
				    i ? "," : "");
				json_str(f, flags);
			} else {
				fprintf(f, "%s\n      {\"flags\": ",
				    i ? "," : "");
				json_flags(f, a->decls[i].flags);
			}
			fprintf(f, ", \"pid\": %d, \"line\": %ld}",
			    a->decls[i].pid, a->decls[i].line);
		}
		fprintf(f, "],\n    \"violations\": [");
		for (i = 0; i < fd->nviolations; i++) {
			char miss[256];

			nd = &a->needs[fd->violations[i].need];
			decl_missing_text(nd,
			    &a->decls[fd->violations[i].decl], miss,
			    sizeof(miss));
			fprintf(f, "%s\n      {\"needs\": ", i ? "," : "");
			json_str(f, nd->what);
			fprintf(f, ", \"missing\": ");
			json_str(f, miss);
			fprintf(f, ", \"declared\": %d, \"first\": ",
			    fd->violations[i].decl);
			json_evidence(f, a, &nd->first);
			fputc('}', f);
		}
		fprintf(f, "],\n    \"unneeded\": [");
		for (i = 0; i < fd->nunneeded; i++) {
			unneeded_text(&fd->unneeded[i], flags, sizeof(flags));
			fprintf(f, "%s{\"%s\": ", i ? ", " : "",
			    fd->unneeded[i].promise ? "promise" : "flag");
			json_str(f, flags);
			fprintf(f, ", \"declared\": %d}",
			    fd->unneeded[i].decl);
		}
		fprintf(f, "]\n  }");
	}
	if (c->tree != NULL)
		report_tree_json(f, c->tree);
	fprintf(f, "\n}\n");
}

/* The last line of a --profile report: what was written, how to use it. */
static void
text_profile(FILE *f, const struct report_ctx *c)
{
	fprintf(f, "\n%swrote %s: %d program%s listed", bold(), c->profile,
	    c->profile_listed, c->profile_listed == 1 ? "" : "s");
	if (c->profile_left > 0)
		fprintf(f, ", %d left out (a comment line each)",
		    c->profile_left);
	fprintf(f, "%s; it covers the runs it records (audit more runs into "
	    "it to cover more); run it: tame-exec --profile %s -- COMMAND\n",
	    plain(), c->profile);
}

void
report(FILE *f, const struct audit *a, const struct findings *fd,
    const struct report_ctx *c)
{
	char flags[256], loads[PATH_MAX * 4];

	colour = c->format == REPORT_TEXT && isatty(fileno(f)) &&
	    getenv("NO_COLOR") == NULL;
	switch (c->format) {
	case REPORT_FLAGS:		/* main() says the blockers instead */
		flag_list(fd->flags, flags, sizeof(flags));
		fprintf(f, "%s\n", flags);
		/* the flags alone would not do: say what else, apart */
		if (fd->load != NULL) {
			load_args(fd->load, loads, sizeof(loads));
			warnx("the command loads code on demand, which "
			    "tame-exec loads before tame() only when told: "
			    "give it%s too (tame-audit(1), --flags-only)",
			    loads);
		}
		return;
	case REPORT_PROMISES:		/* as --flags-only */
		promise_list(fd->promises, flags, sizeof(flags));
		fprintf(f, "%s\n", flags);
		return;
	case REPORT_JSON:
		report_json(f, a, fd, c);
		return;
	case REPORT_TEXT:
		break;
	}
	text_header(f, a, c);
	if (c->checking) {
		text_check(f, a, fd);
		text_unexpressible(f, a, fd);
	} else {
		if (fd->tameable)
			text_suggestion(f, a, fd, c);
		else
			text_blockers(f, a, fd);
		text_staircase(f, a, fd);
	}
	text_warnings(f, fd);
	if (c->tree != NULL)
		report_tree_text(f, c->tree, c);
	if (c->profile != NULL)
		text_profile(f, c);
}
