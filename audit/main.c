/*
 * tame-audit: which tame() flags does a program need?
 *
 * Runs the command under strace, classifies every call made after
 * tame() with libtame's own decision code, and prints the smallest
 * flag set with the evidence for each flag; --check compares a program's
 * own tame() calls with what it did.  Exit status: 0 done (and, with
 * --check, clean), 1 an error of the audit itself, 2 usage, 3 --check
 * found violations, 4 --check found only flags not needed.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "imports.h"
#include "policy.h"
#include "report.h"
#include "tame.h"
#include "trace.h"

#define EXIT_USAGE	2
#define EXIT_VIOLATION	3
#define EXIT_UNNEEDED	4

struct options {
	struct report_ctx	 ctx;
	const char		*output;	/* -o */
	const char		*keep_log;
	const char		*flags;		/* --check -f */
	char			**logs;		/* --from-log, --merge */
	int			 nlogs;
	int			 where;
	int			 timeout;
	char			**argv;		/* the command */
};

/*
 * The log tame-audit makes for itself when not asked to keep one: gone
 * on every way out, errors included, or each failed audit (a command
 * not found, one that never reaches tame()) leaves a file in TMPDIR.
 */
static char	temp_log[PATH_MAX];

static void
remove_temp_log(void)
{
	if (temp_log[0] != '\0')
		unlink(temp_log);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: tame-audit [--json | --flags-only] [--where] [--timeout sec]\n"
	    "                  [--keep-log file] [-o file] -- command [arg ...]\n"
	    "       tame-audit --check [-f flags] [options] -- command [arg ...]\n"
	    "       tame-audit [options] --from-log log\n"
	    "       tame-audit [options] --merge log ... [-- command [arg ...]]\n");
	exit(EXIT_USAGE);
}

static void
parse_options(int argc, char *argv[], struct options *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "flags-only", no_argument, NULL, 'F' },
		{ "where", no_argument, NULL, 'w' },
		{ "check", no_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "keep-log", required_argument, NULL, 'k' },
		{ "from-log", required_argument, NULL, 'l' },
		{ "merge", no_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bad;
	char *end;
	int ch, merge = 0, flags;
	long t;

	memset(o, 0, sizeof(*o));
	o->logs = calloc((size_t)argc + 1, sizeof(*o->logs));
	if (o->logs == NULL)
		err(1, NULL);
again:
	while ((ch = getopt_long(argc, argv, "+f:o:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			o->ctx.format = REPORT_JSON;
			break;
		case 'F':
			o->ctx.format = REPORT_FLAGS;
			break;
		case 'w':
			o->where = 1;
			break;
		case 'c':
			o->ctx.checking = 1;
			break;
		case 'f':
			o->flags = optarg;
			break;
		case 't':
			errno = 0;
			t = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || t <= 0 || t > 86400) {
				warnx("--timeout: \"%s\" is not a number of "
				    "seconds from 1 to 86400", optarg);
				usage();
			}
			o->timeout = (int)t;
			break;
		case 'k':
			o->keep_log = optarg;
			break;
		case 'l':
			o->logs[o->nlogs++] = optarg;
			break;
		case 'm':
			merge = 1;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'V':
			printf("tame-audit %s\n", tame_version());
			exit(0);
		default:
			usage();
		}
	}
	/* --merge takes the operands before "--" as logs, options between */
	if (merge && optind < argc && strcmp(argv[optind - 1], "--") != 0 &&
	    argv[optind][0] != '-') {
		while (optind < argc && argv[optind][0] != '-')
			o->logs[o->nlogs++] = argv[optind++];
		if (optind < argc && strcmp(argv[optind], "--") != 0)
			goto again;
	}
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	if (optind < argc)
		o->argv = argv + optind;
	if (merge && o->nlogs == 0)
		usage();
	if (o->argv == NULL && o->nlogs == 0) {
		warnx("no command to audit");
		usage();
	}
	if (o->flags != NULL && !o->ctx.checking) {
		warnx("-f gives the flags to check: use it with --check");
		usage();
	}
	if (o->flags != NULL && tame_flags_parse(o->flags, &flags, &bad) == -1) {
		warnx("unknown flag name \"%.*s\" (known: malloc rw stdio rpath "
		    "wpath cpath tmppath inet unix dnspath getpw cmsg ioctl "
		    "proc)", (int)strcspn(bad, ", \t\n|"), bad);
		usage();
	}
	if (o->flags != NULL && o->argv == NULL) {
		warnx("-f needs a command to run under those flags");
		usage();
	}
	if (o->argv == NULL && (o->timeout || o->keep_log || o->where)) {
		warnx("--timeout, --keep-log and --where apply to a command run");
		usage();
	}
	o->ctx.argv = o->argv;
}

/* Name imports that could need a flag the suggestion lacks. */
static void
coverage_warnings(struct findings *f, const char *exe)
{
	struct elf_imports im;
	char list[512], flags[128];
	int missing;

	if (exe == NULL || elf_imports_read(exe, &im) == -1)
		return;
	if ((missing = coverage_unexercised(&im, f->flags, list,
	    sizeof(list))) != 0) {
		flags_text(missing, flags, sizeof(flags), 0);
		findings_warn(f, "%s imports %s: not called in this run; "
		    "other inputs may need %s", exe, list, flags);
	}
	if (f->nunexpressible == 0 && coverage_execs(&im, list,
	    sizeof(list)) > 0)
		findings_warn(f, "%s imports %s: an exec after tame() is a "
		    "violation, so tame() must follow the last one", exe,
		    list);
	elf_imports_free(&im);
}

static void
run_warnings(const struct audit *a, struct findings *f)
{
	const struct run *r;
	int i;

	for (i = 0; i < a->nruns; i++) {
		r = &a->runs[i];
		if (r->exited == 1 && r->status != 0)
			findings_warn(f, "%s exited with status %d: the "
			    "suggestion covers what it did", a->nruns > 1 ?
			    r->name : "the command", r->status);
		if (r->exited == 2)
			findings_warn(f, "%s was killed by %s: the suggestion "
			    "covers what it did before", a->nruns > 1 ?
			    r->name : "the command", r->signame);
		if (r->cut)
			findings_warn(f, "%s ends inside a call: the log is cut "
			    "off, and what came after is not counted",
			    r->name);
		if (r->malformed > 0)
			findings_warn(f, "%s: %ld line%s not understood, not "
			    "counted (first: %s)", r->name, r->malformed,
			    r->malformed == 1 ? "" : "s", r->first_bad);
	}
}

/* Run the command under strace into log; from_exec for a static one. */
static void
trace_command(struct options *o, const char *log, int *from_exec)
{
	struct trace_opts t = { 0 };
	struct trace_result r;
	struct elf_imports im;
	struct stat st;
	char strace[PATH_MAX], tame_exec[PATH_MAX], cmd[PATH_MAX];
	static char every[256];

	if (trace_find("strace", strace, sizeof(strace)) == -1)
		errx(1, "strace not found in PATH: install it "
		    "(Debian: apt-get install strace)");
	if (trace_find(o->argv[0], cmd, sizeof(cmd)) == -1)
		errx(1, "%s: %s", o->argv[0], errno == ENOENT ?
		    "command not found" : strerror(errno));
	*from_exec = 0;
	if (elf_imports_read(cmd, &im) == 0) {
		*from_exec = im.is_static;
		elf_imports_free(&im);
	}
	if (!*from_exec && (!o->ctx.checking || o->flags != NULL)) {
		if (trace_beside_self("tame-exec", tame_exec,
		    sizeof(tame_exec)) == -1)
			errx(1, "cannot find tame-exec beside tame-audit: "
			    "reinstall the tame toolkit");
		t.tame_exec = tame_exec;
		if (o->flags != NULL)
			t.flags = o->flags;
		else {
			/* every flag: the marker is what the audit needs */
			flags_text(TAME_ALL, every, sizeof(every), 0);
			t.flags = every;
			t.flags_all = 1;
		}
	}
	if (*from_exec && o->ctx.checking && o->flags != NULL)
		errx(1, "%s is statically linked: tame-exec cannot run it; "
		    "call tame() in the program and check it without -f",
		    o->argv[0]);
	t.strace = strace;
	t.argv = o->argv;
	t.log = log;
	t.stack = o->where;
	t.timeout = o->timeout;
	if (trace_run(&t, &r) == -1)
		err(1, "cannot run %s", strace);
	if (r.timed_out)
		errx(1, "%s did not finish within %d s and was killed%s%s",
		    o->argv[0], o->timeout, o->keep_log != NULL ?
		    "; its trace so far is in " : " (--keep-log keeps its "
		    "trace)", o->keep_log != NULL ? log : "");
	if (stat(log, &st) == -1 || st.st_size == 0)
		errx(1, "strace could not trace %s (see its message above; "
		    "ptrace may be forbidden here, e.g. by "
		    "kernel.yama.ptrace_scope)", o->argv[0]);
}

static void
no_marker(const struct options *o, const struct run *r, int from_log)
{
	if (from_log)
		errx(1, "%s: no tame() marker in this log: record it with "
		    "tame-audit --keep-log, or trace a program run under "
		    "tame-exec with TAME_AUDIT=permissive", r->name);
	if (o->ctx.checking && o->flags == NULL)
		errx(1, "%s never called tame(): nothing to check; audit it "
		    "without --check, or give its flags with -f",
		    o->argv[0]);
	errx(1, "%s did not reach tame() (see the messages above)",
	    o->argv[0]);
}

int
main(int argc, char *argv[])
{
	struct options o;
	struct audit *a;
	struct findings f;
	char log[PATH_MAX], msg[512];
	int i, fd, from_exec = 0, status;
	FILE *out = stdout;

	parse_options(argc, argv, &o);
	a = audit_new();
	a->keep_frames = o.where;
	for (i = 0; i < o.nlogs; i++) {
		if (audit_read_log(a, o.logs[i], 0, msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
		if (a->runs[a->nruns - 1].markers == 0)
			no_marker(&o, &a->runs[a->nruns - 1], 1);
	}
	if (o.argv != NULL) {
		if (o.keep_log != NULL)
			snprintf(log, sizeof(log), "%s", o.keep_log);
		else {
			snprintf(log, sizeof(log), "%s/tame-audit.XXXXXX",
			    getenv("TMPDIR") != NULL ? getenv("TMPDIR") :
			    "/tmp");
			if ((fd = mkstemp(log)) == -1)
				err(1, "%s", log);
			close(fd);
			snprintf(temp_log, sizeof(temp_log), "%s", log);
			atexit(remove_temp_log);
			o.ctx.log_is_temporary = 1;
		}
		trace_command(&o, log, &from_exec);
		if (audit_read_log(a, log, from_exec, msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
		if (o.ctx.log_is_temporary)
			unlink(log);
		if (a->runs[a->nruns - 1].markers == 0)
			no_marker(&o, &a->runs[a->nruns - 1], 0);
	}
	findings_make(a, &f, o.ctx.checking);
	if (from_exec)
		findings_warn(&f, "%s is statically linked: tame-exec cannot "
		    "enforce flags on it; call tame() in the program itself",
		    o.argv[0]);
	run_warnings(a, &f);
	if (!o.ctx.checking)
		coverage_warnings(&f, a->runs[0].exe);
	if (o.output != NULL && (out = fopen(o.output, "w")) == NULL)
		err(1, "%s", o.output);
	report(out, a, &f, &o.ctx);
	if (fflush(out) == EOF || ferror(out))
		err(1, "%s", o.output != NULL ? o.output : "stdout");
	status = 0;
	if (o.ctx.checking)
		status = f.nviolations > 0 ? EXIT_VIOLATION :
		    f.nunneeded > 0 ? EXIT_UNNEEDED : 0;
	findings_free(&f);
	audit_free(a);
	free(o.logs);
	return status;
}
