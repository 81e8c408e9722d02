/* SPDX-License-Identifier: ISC */
/*
 * parse.c: strace 6.1 logs to events (see parse.h, and auditor.md
 * section 2 for the grammar and its traps).
 *
 * The one hard part is finding where things end: a string may hold
 * ") = ", a comment may hold anything, brackets of four kinds nest, and
 * an fd decoration (-y, -yy) is delimited by < and > but holds "->" and
 * nested decorations ("0</dev/null<char 1:3>>").  skip() knows all of
 * these, and everything else is built on it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

struct pending {
	int		 pid;
	char		*text;		/* "NAME(partial args" */
	size_t		 len;
	long		 lineno;	/* where it began */
};

struct st_parser {
	struct pending	*pend;
	int		 npend, maxpend;
	char		*buf;		/* the event's joined text */
	size_t		 bufmax;
	long		 lineno;
	int		 lastpid;	/* for -k frames */
	char		 err[256];
};

struct st_parser *
st_new(void)
{
	return calloc(1, sizeof(struct st_parser));
}

void
st_free(struct st_parser *p)
{
	int i;

	if (p == NULL)
		return;
	for (i = 0; i < p->npend; i++)
		free(p->pend[i].text);
	free(p->pend);
	free(p->buf);
	free(p);
}

const char *
st_error(const struct st_parser *p)
{
	return p->err;
}

void
st_skip_line(struct st_parser *p)
{
	p->lineno++;
}

int
st_pending(const struct st_parser *p)
{
	return p->npend;
}

static int
fail(struct st_parser *p, const char *why)
{
	snprintf(p->err, sizeof(p->err), "line %ld: %s", p->lineno, why);
	return -1;
}

/*
 * Does a '<' at i open an fd decoration?  It follows a value, or the
 * comment -X verbose writes after one: "-100 /\* AT_FDCWD *\/</srv/[x>".
 */
static int
opens_decoration(const char *s, size_t i)
{
	return i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_' ||
	    s[i - 1] == ']' || s[i - 1] == ')' || s[i - 1] == '>' ||
	    (i > 1 && s[i - 1] == '/' && s[i - 2] == '*'));
}

/*
 * Past one decoration that opens at s[i] == '<': nested ones count, a
 * '>' after '-' is an arrow.  Returns the index after it, or len.
 */
static size_t
skip_decoration(const char *s, size_t len, size_t i)
{
	int depth = 0;

	for (; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len)
			i++;
		else if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && (i == 0 || s[i - 1] != '-') &&
		    --depth == 0)
			return i + 1;
	}
	return len;
}

/*
 * From just inside a string, the index of its closing quote (or len):
 * the first '"' not escaped by an odd run of backslashes.  memchr()
 * does the walking; strings (write's data) are most of a log.
 */
static size_t
string_end(const char *s, size_t len, size_t i)
{
	const char *q;
	size_t k;

	while (i < len && (q = memchr(s + i, '"', len - i)) != NULL) {
		i = (size_t)(q - s);
		for (k = i; k > 0 && s[k - 1] == '\\'; k--)
			;
		if ((i - k) % 2 == 0)
			return i;
		i++;
	}
	return len;
}

/*
 * From i, the index of the first top-level ',' or closing bracket (or
 * len): strings, comments, nested brackets and decorations are passed
 * over whole.
 */
static size_t
skip(const char *s, size_t len, size_t i)
{
	/* the characters that can start or end something */
	static const unsigned char stop[256] = {
		['"'] = 1, ['/'] = 1, ['<'] = 1, ['('] = 1, ['['] = 1,
		['{'] = 1, [')'] = 1, [']'] = 1, ['}'] = 1, [','] = 1,
	};
	int depth = 0;

	while (i < len) {
		/* most of a log is plain text between those: pass it fast */
		while (i < len && !stop[(unsigned char)s[i]])
			i++;
		if (i >= len)
			break;
		switch (s[i]) {
		case '"':
			i = string_end(s, len, i + 1) + 1;
			continue;
		case '/':
			if (i + 1 < len && s[i + 1] == '*') {
				const char *end = NULL;
				size_t k;

				for (k = i + 2; k + 1 < len && end == NULL; k++)
					if (s[k] == '*' && s[k + 1] == '/')
						end = s + k;
				i = end != NULL ? (size_t)(end - s) + 2 : len;
				continue;
			}
			break;
		case '<':
			if (opens_decoration(s, i)) {
				i = skip_decoration(s, len, i);
				continue;
			}
			break;
		case '(':
		case '[':
		case '{':
			depth++;
			break;
		case ')':
		case ']':
		case '}':
			if (depth == 0)
				return i;
			depth--;
			break;
		case ',':
			if (depth == 0)
				return i;
			break;
		}
		i++;
	}
	return len;
}

int
st_arg(const char *args, size_t len, int n, const char **arg, size_t *alen)
{
	size_t i = 0, end;
	int k;

	for (k = 0; ; k++) {
		while (i < len && args[i] == ' ')
			i++;
		end = skip(args, len, i);
		if (k == n) {
			while (end > i && args[end - 1] == ' ')
				end--;
			if (end == i && (end >= len || args[end] != ','))
				return -1;	/* no such argument */
			*arg = args + i;
			*alen = end - i;
			return 0;
		}
		if (end >= len || args[end] != ',')
			return -1;
		i = end + 1;
	}
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One escape at s[i] == '\\': its byte in *c, the index after it. */
static size_t
unescape(const char *s, size_t len, size_t i, char *c)
{
	static const char from[] = "ntrvfab\\\"'?", to[] = "\n\t\r\v\f\a\b\\\"'?";
	const char *f;
	int v, k;

	if (++i >= len) {
		*c = '\\';
		return i;
	}
	if (s[i] == 'x') {
		for (v = 0, k = 0, i++; k < 2 && i < len && hexval(s[i]) >= 0;
		    k++, i++)
			v = v * 16 + hexval(s[i]);
		*c = (char)v;
		return i;
	}
	if (s[i] >= '0' && s[i] <= '7') {
		for (v = 0, k = 0; k < 3 && i < len && s[i] >= '0' &&
		    s[i] <= '7'; k++, i++)
			v = v * 8 + (s[i] - '0');
		*c = (char)v;
		return i;
	}
	f = s[i] != '\0' ? strchr(from, s[i]) : NULL;
	*c = f != NULL ? to[f - from] : s[i];
	return i + 1;
}

/*
 * Decode escaped text from a[*i] up to its end: a closing quote, or for
 * a decoration its closing '>' or a decoration nested in it.  Returns
 * the length written to out (NUL-terminated), or -1 when the end never
 * comes or out is too small; *i is left at the end.
 */
static long
decode(const char *a, size_t len, size_t *i, int decoration, char *out,
    size_t outlen)
{
	size_t k = *i, n = 0;
	const char *q;
	char c;

	if (!decoration && (q = memchr(a + k, '"', len - k)) != NULL &&
	    memchr(a + k, '\\', (size_t)(q - a) - k) == NULL) {
		/* no escapes: most paths, in one copy */
		n = (size_t)(q - a) - k;
		if (n + 1 > outlen)
			return -1;
		memcpy(out, a + k, n);
		out[n] = '\0';
		*i = (size_t)(q - a);
		return (long)n;
	}
	while (k < len && (decoration ? a[k] != '<' && !(a[k] == '>' &&
	    a[k - 1] != '-') : a[k] != '"')) {
		if (a[k] == '\\')
			k = unescape(a, len, k, &c);
		else
			c = a[k++];
		if (n + 1 >= outlen)
			return -1;
		out[n++] = c;
	}
	*i = k;
	if (k >= len)
		return -1;
	out[n] = '\0';
	return (long)n;
}

long
st_string(const char *a, size_t len, char *out, size_t outlen, int *truncated)
{
	size_t i = 0;
	long n;

	*truncated = 0;
	while (i < len && a[i] == ' ')
		i++;
	if (i >= len || a[i] != '"' || outlen == 0)
		return -1;
	i++;
	if ((n = decode(a, len, &i, 0, out, outlen)) == -1)
		return -1;
	*truncated = len - i >= 4 && strncmp(a + i + 1, "...", 3) == 0;
	return n;
}

long
st_decoration(const char *a, size_t len, char *out, size_t outlen)
{
	size_t i;

	for (i = 0; i < len && !(a[i] == '<' && opens_decoration(a, i)); i++)
		if (a[i] == '"' || a[i] == ',')
			return -1;	/* a string or a list, not an fd */
	if (i >= len || outlen == 0)
		return -1;
	i++;
	return decode(a, len, &i, 1, out, outlen);
}

/* One term of a number: "0x41", "-1", "AT_FDCWD", each maybe decorated
 * and commented.  Returns the index after it, or 0 on failure. */
static size_t
term(const char *a, size_t len, size_t i, long long *v)
{
	char num[32], *end;
	size_t k;

	while (i < len && a[i] == ' ')
		i++;
	if (len - i >= 8 && strncmp(a + i, "AT_FDCWD", 8) == 0) {
		*v = -100;
		i += 8;
	} else if (i < len && a[i] >= '1' && a[i] <= '9') {
		/* a plain decimal, most numbers: read in place */
		unsigned long long u = 0;
		size_t k0 = i;

		while (i < len && a[i] >= '0' && a[i] <= '9' && i - k0 < 19)
			u = u * 10 + (unsigned)(a[i++] - '0');
		if (i < len && (isxdigit((unsigned char)a[i]) || a[i] == 'x'))
			return 0;	/* not a decimal after all */
		*v = (long long)u;
	} else if (len - i > 2 && a[i] == '0' && a[i + 1] == 'x' &&
	    isxdigit((unsigned char)a[i + 2])) {
		/* hex, as -X verbose prints flags and addresses */
		unsigned long long u = 0;
		size_t k0 = i += 2;

		while (i < len && isxdigit((unsigned char)a[i]) && i - k0 < 16)
			u = u * 16 + (unsigned)hexval(a[i++]);
		if (i < len && isxdigit((unsigned char)a[i]))
			return 0;
		*v = (long long)u;
	} else {
		for (k = 0; i < len && k < sizeof(num) - 1 &&
		    (isxdigit((unsigned char)a[i]) || a[i] == 'x' ||
		    a[i] == 'X' || (a[i] == '-' && k == 0)); k++, i++)
			num[k] = a[i];
		num[k] = '\0';
		if (k == 0)
			return 0;
		if (k < 10 && num[0] >= '0' && num[0] <= '9' &&
		    (k == 1 || num[0] != '0') &&
		    strspn(num, "0123456789") == k) {
			/* small decimals, most numbers: no strtoll */
			for (*v = 0, end = num; *end != '\0'; end++)
				*v = *v * 10 + (*end - '0');
			goto tail;
		}
		if (k > 2 && k <= 18 && num[0] == '0' && num[1] == 'x' &&
		    strspn(num + 2, "0123456789abcdef") == k - 2) {
			unsigned long long u = 0;

			for (end = num + 2; *end != '\0'; end++)
				u = u * 16 + (unsigned)hexval(*end);
			*v = (long long)u;	/* beyond LLONG_MAX: as strtoull */
			goto tail;
		}
		errno = 0;
		*v = strtoll(num, &end, 0);
		if (*end != '\0' || errno != 0) {
			errno = 0;	/* beyond a long long: unsigned */
			*v = (long long)strtoull(num, &end, 0);
			if (*end != '\0' || errno != 0)
				return 0;
		}
	}
tail:
	for (;;) {
		while (i < len && a[i] == ' ')
			i++;
		if (i < len && a[i] == '<')
			i = skip_decoration(a, len, i);
		/* -yy's "3</memfd:x>(deleted)": a file with no name left */
		else if (len - i >= 9 && memcmp(a + i, "(deleted)", 9) == 0)
			i += 9;
		else if (len - i >= 2 && a[i] == '/' && a[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(a[i] == '*' &&
			    a[i + 1] == '/'); i++)
				;
			i = i + 1 < len ? i + 2 : len;
		} else
			return i;
	}
}

int
st_number(const char *a, size_t len, long long *v)
{
	long long t;
	size_t i = 0;

	*v = 0;
	for (;;) {
		if ((i = term(a, len, i, &t)) == 0)
			return -1;
		*v |= t;
		if (i >= len)
			return 0;
		if (a[i] != '|')
			return -1;
		i++;
	}
}

static int
grow(char **buf, size_t *max, size_t need)
{
	char *n;

	if (need <= *max)
		return 0;
	if ((n = realloc(*buf, need * 2)) == NULL)
		return -1;
	*buf = n;
	*max = need * 2;
	return 0;
}

static struct pending *
find_pending(struct st_parser *p, int pid)
{
	int i;

	for (i = 0; i < p->npend; i++)
		if (p->pend[i].pid == pid)
			return &p->pend[i];
	return NULL;
}

static void
drop_pending(struct st_parser *p, struct pending *e)
{
	free(e->text);
	*e = p->pend[--p->npend];
}

/* "NAME(" + partial arguments, until the call resumes. */
static int
add_pending(struct st_parser *p, int pid, const char *s, size_t len)
{
	struct pending *e;

	if ((e = find_pending(p, pid)) != NULL)
		drop_pending(p, e);	/* its resumption was never seen */
	if (p->npend == p->maxpend) {
		int n = p->maxpend ? p->maxpend * 2 : 8;
		struct pending *np = realloc(p->pend, n * sizeof(*np));

		if (np == NULL)
			return fail(p, "out of memory");
		p->pend = np;
		p->maxpend = n;
	}
	e = &p->pend[p->npend];
	if ((e->text = malloc(len + 1)) == NULL)
		return fail(p, "out of memory");
	memcpy(e->text, s, len);
	e->text[len] = '\0';
	e->len = len;
	e->pid = pid;
	e->lineno = p->lineno;
	p->npend++;
	return 0;
}

static int
is_name_char(int c)
{
	return isalnum(c) || c == '_';
}

/* The result after " = ": "?", "0", "3</x>", "-1 ENOENT (...)", ... */
static int
parse_result(struct st_parser *p, const char *s, size_t len,
    struct st_event *ev)
{
	size_t i = 0, k;

	while (i < len && s[i] == ' ')
		i++;
	if (i < len && s[i] == '?') {
		ev->returned = 0;
		i++;
	} else {
		for (k = i; k < len && s[k] != ' '; k++)
			if (s[k] == '<')
				k = skip_decoration(s, len, k) - 1;
		if (st_number(s + i, k - i, &ev->ret) == -1)
			return fail(p, "a result that is no number");
		ev->returned = 1;
		i = k;
	}
	while (i < len && s[i] == ' ')
		i++;
	/* an error name: capitals, digits, underscores, "?" */
	for (k = 0; i < len && k < sizeof(ev->err) - 1 && (isupper(
	    (unsigned char)s[i]) || isdigit((unsigned char)s[i]) ||
	    s[i] == '_' || s[i] == '?') && (k > 0 || s[i] == 'E'); i++, k++)
		ev->err[k] = s[i];
	ev->err[k] = '\0';
	return 0;
}

/* A complete "NAME(args) = result" into ev; text must stay alive. */
static int
parse_call(struct st_parser *p, const char *s, size_t len,
    struct st_event *ev)
{
	size_t i, end;

	for (i = 0; i < len && is_name_char((unsigned char)s[i]); i++)
		;
	if (i == 0 || i >= sizeof(ev->name) || i >= len || s[i] != '(')
		return fail(p, "no system call name and '('");
	memcpy(ev->name, s, i);
	ev->name[i] = '\0';
	/* the arguments end at the top-level ')'; note the first six */
	ev->nargs = 0;
	for (end = i + 1; ; end++) {
		size_t from = end, to;

		while (from < len && s[from] == ' ')
			from++;
		end = skip(s, len, from);
		for (to = end; to > from && s[to - 1] == ' '; to--)
			;
		if (ev->nargs < 6 && (to > from || (end < len &&
		    s[end] == ','))) {
			ev->argv[ev->nargs] = s + from;
			ev->argl[ev->nargs++] = to - from;
		}
		if (end >= len || s[end] != ',')
			break;
	}
	if (end >= len || s[end] != ')')
		return fail(p, "the arguments never close");
	ev->kind = ST_CALL;
	ev->args = s + i + 1;
	ev->args_len = end - i - 1;
	for (i = end + 1; i < len && s[i] == ' '; i++)
		;
	if (i >= len || s[i] != '=')
		return fail(p, "no '=' after the arguments");
	return parse_result(p, s + i + 1, len - i - 1, ev);
}

int
st_pid(const char *line, size_t len, size_t *body)
{
	size_t i = 0, k;
	int pid = 0;

	/* "PID  body" with -f; "[pid N] body" on stderr */
	if (len > 5 && line[0] == '[' && strncmp(line, "[pid ", 5) == 0)
		for (i = 5; i < len && line[i] == ' '; i++)
			;
	/* a pid is at most 2^22: a number of ten digits is no prefix */
	for (k = i; k < len && line[k] >= '0' && line[k] <= '9'; k++)
		pid = pid >= 0 && pid < 100000000 ?
		    pid * 10 + (line[k] - '0') : -1;
	if (k > i && k < len && pid >= 0 &&
	    (line[k] == ' ' || line[k] == ']')) {
		for (k += line[k] == ']'; k < len && line[k] == ' '; k++)
			;
		*body = k;
		return pid;
	}
	*body = 0;
	return 0;
}

/* "<... NAME resumed>rest": join with the pending "NAME(partial". */
static int
resumed(struct st_parser *p, int pid, const char *s, size_t len,
    struct st_event *ev)
{
	struct pending *e;
	const char *name = s + 5, *close;
	size_t nlen, rest;
	long begun;

	if ((close = memchr(s, '>', len)) == NULL ||
	    (size_t)(close - s) < 13 ||
	    strncmp(close - 8, " resumed", 8) != 0)
		return fail(p, "a resumption without its name");
	nlen = (size_t)(close - 8 - name);
	if ((e = find_pending(p, pid)) == NULL)
		return fail(p, "a call resumed that never began");
	if (e->len <= nlen || strncmp(e->text, name, nlen) != 0 ||
	    e->text[nlen] != '(')
		return fail(p, "a call resumed under another name");
	rest = len - (size_t)(close + 1 - s);
	if (grow(&p->buf, &p->bufmax, e->len + rest + 1) == -1)
		return fail(p, "out of memory");
	memcpy(p->buf, e->text, e->len);
	memcpy(p->buf + e->len, close + 1, rest);
	p->buf[e->len + rest] = '\0';
	begun = e->lineno;
	drop_pending(p, e);
	if (parse_call(p, p->buf, strlen(p->buf), ev) == -1)
		return -1;
	ev->begun = begun;
	return 0;
}

/* "+++ exited with N +++", "+++ killed by SIG (core dumped) +++", ... */
static int
ending(struct st_parser *p, int pid, const char *s, size_t len,
    struct st_event *ev)
{
	struct pending *e;
	char sig[32];
	int n;

	if (len < 8 || strncmp(s + len - 4, " +++", 4) != 0)
		return fail(p, "an unclosed '+++' line");
	if (sscanf(s, "+++ exited with %d +++", &ev->status) == 1) {
		ev->kind = ST_EXITED;
		return 1;
	}
	if (sscanf(s, "+++ killed by %31[A-Z0-9] %n", sig, &n) == 1) {
		ev->kind = ST_KILLED;
		snprintf(ev->name, sizeof(ev->name), "%s", sig);
		ev->core = strstr(s, "(core dumped)") != NULL;
		return 1;
	}
	if (sscanf(s, "+++ superseded by execve in pid %d +++",
	    &ev->status) == 1) {
		/* the execve began under the thread's pid: it is ours now */
		if ((e = find_pending(p, ev->status)) != NULL)
			e->pid = pid;
		ev->kind = ST_SUPERSEDED;
		return 1;
	}
	return fail(p, "a '+++' line of no known kind");
}

int
st_line(struct st_parser *p, const char *line, size_t len,
    struct st_event *ev)
{
	const char *s = line;
	size_t k;
	int pid;

	p->lineno++;
	memset(ev, 0, sizeof(*ev));
	ev->lineno = ev->begun = p->lineno;
	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	if (len >= 3 && strncmp(line, " > ", 3) == 0) {
		ev->kind = ST_FRAME;	/* -k: a frame of the event before */
		ev->pid = p->lastpid;
		ev->args = line + 3;
		ev->args_len = len - 3;
		return 1;
	}
	pid = st_pid(line, len, &k);
	s = line + k;
	len -= k;
	ev->pid = p->lastpid = pid;
	if (len == 0)
		return 0;
	if (len >= 4 && (strncmp(s, "--- ", 4) == 0 ||
	    strncmp(s, "+++ ", 4) == 0)) {
		/* sscanf() and strstr() below stop at a NUL, not at len */
		if (grow(&p->buf, &p->bufmax, len + 1) == -1)
			return fail(p, "out of memory");
		memcpy(p->buf, s, len);
		p->buf[len] = '\0';
		s = p->buf;
	}
	if (len >= 4 && strncmp(s, "--- ", 4) == 0) {
		ev->kind = ST_SIGNAL;
		for (k = 4; k < len && k - 4 < sizeof(ev->name) - 1 &&
		    s[k] != ' '; k++)
			ev->name[k - 4] = s[k];
		ev->name[k - 4] = '\0';
		if (strcmp(ev->name, "stopped") == 0)
			sscanf(s, "--- stopped by %31[A-Z0-9]", ev->name);
		ev->args = s + k;
		ev->args_len = len - k;
		return 1;
	}
	if (len >= 4 && strncmp(s, "+++ ", 4) == 0)
		return ending(p, pid, s, len, ev);
	/*
	 * "????(" is a stop whose registers strace could not read: the
	 * thread was killed at its entry (qemu's threads at exit_group),
	 * and no call ran.  Nothing to count.
	 */
	if (len >= 5 && strncmp(s, "\?\?\?\?(", 5) == 0)
		return 0;
	if (len >= 5 && strncmp(s, "<... ", 5) == 0)
		return resumed(p, pid, s, len, ev) == -1 ? -1 : 1;
	if (len >= 16 && strncmp(s + len - 16, "<unfinished ...>", 16) == 0) {
		for (k = 0; k < len && is_name_char((unsigned char)s[k]); k++)
			;
		if (k == 0 || k >= len || s[k] != '(')
			return fail(p, "an unfinished line without a call");
		return add_pending(p, pid, s, len - 16) == -1 ? -1 : 0;
	}
	if (grow(&p->buf, &p->bufmax, len + 1) == -1)
		return fail(p, "out of memory");
	memcpy(p->buf, s, len);
	p->buf[len] = '\0';
	return parse_call(p, p->buf, len, ev) == -1 ? -1 : 1;
}

/*
 * The number after "key=" in a structure or named-argument text, up to
 * the next ',' or '}' outside a comment.
 */
int
st_field(const char *text, size_t len, const char *key, long long *v)
{
	size_t k = strlen(key), i, j;
	long long x;
	int comment;

	for (i = 0; i + k <= len; i++) {
		if (memcmp(text + i, key, k) != 0 ||
		    (i > 0 && text[i - 1] != '{' && text[i - 1] != ' '))
			continue;
		for (j = i + k, comment = 0; j < len; j++) {
			if (j + 1 < len && text[j] == '/' && text[j + 1] == '*')
				comment = 1;
			else if (j + 1 < len && text[j] == '*' &&
			    text[j + 1] == '/')
				comment = 0;
			else if (!comment && (text[j] == ',' || text[j] == '}'))
				break;
		}
		if (st_number(text + i + k, j - i - k, &x) == -1)
			return -1;
		*v = x;
		return 0;
	}
	return -1;
}

int
st_split(const char *args, size_t len, const char **arg, size_t *alen,
    int max)
{
	size_t i = 0, end, e;
	int k;

	for (k = 0; k < max; k++) {
		while (i < len && args[i] == ' ')
			i++;
		end = skip(args, len, i);
		for (e = end; e > i && args[e - 1] == ' '; e--)
			;
		if (e == i && (end >= len || args[end] != ','))
			return k;	/* no more arguments */
		arg[k] = args + i;
		alen[k] = e - i;
		if (end >= len || args[end] != ',')
			return k + 1;
		i = end + 1;
	}
	return k;
}
