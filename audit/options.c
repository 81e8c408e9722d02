/* SPDX-License-Identifier: ISC */
/*
 * options.c: tame-audit's command line, read and checked (tame-audit(1)).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "policy.h"
#include "tame.h"

static void
usage_to(FILE *f)
{
	fprintf(f,
	    "usage: tame-audit [--json | --flags-only | --promises-only] [--where] [--verify | --once]\n"
	    "                  [--timeout sec] [--keep-log file]\n"
	    "                  [-o file | --report-fd n] -- command [arg ...]\n"
	    "       tame-audit --profile file [options] -- command [arg ...]\n"
	    "       tame-audit --check [-f flags] [options] -- command [arg ...]\n"
	    "       tame-audit [options] --from-log log\n"
	    "       tame-audit [options] --merge log ... [-- command [arg ...]]\n"
	    "       tame-audit --help | --version\n");
}

static void
usage(void)
{
	usage_to(stderr);
	exit(EXIT_USAGE);
}

/* --help: the usage and what each option does, on standard output. */
static void __attribute__((noreturn))
help(void)
{
	usage_to(stdout);
	printf("\n"
	    "Run command under strace and say which tame() flags it needs.\n\n"
	    "  --json           the report as one JSON object "
	    "(audit/schema.json)\n"
	    "  --flags-only     only the suggestion, as stdio,rpath\n"
	    "  --promises-only  only the suggestion as pledge's promises, as "
	    "\"stdio rpath\"\n"
	    "  --where          the source line of each piece of evidence\n"
	    "  --verify         run the suggestion once more, tamed, and "
	    "compare\n"
	    "  --once           one run only, yours, traced (no view, no "
	    "decision)\n"
	    "  --timeout sec    end the command after sec seconds\n"
	    "  --keep-log file  keep strace's log\n"
	    "  -o file          the report into file\n"
	    "  --report-fd n    the report on descriptor n (3 or more)\n"
	    "  --profile file   write or grow a profile of the tree's "
	    "programs\n"
	    "  --check [-f flags]  check the flags the program declares (or "
	    "flags)\n"
	    "  --from-log log   audit a log kept before\n"
	    "  --merge log ...  one suggestion over several logs\n\n"
	    "Exit status: 0 tameable (or --check clean), 1 error, 2 usage, 3 "
	    "--check\nviolations, 4 --check unneeded flags, 5 not tameable, "
	    "130 interrupted.\nSee tame-audit(1).\n");
	exit(0);
}

/* A decimal option argument from min to max, or usage. */
static int
number_arg(const char *arg, long min, long max, const char *opt,
    const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || *end != '\0' || end == arg || v < min || v > max) {
		warnx("%s: \"%s\" is not %s", opt, arg, what);
		usage();
	}
	return (int)v;
}

void
parse_options(int argc, char *argv[], struct options *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "flags-only", no_argument, NULL, 'F' },
		{ "promises-only", no_argument, NULL, 'P' },
		{ "where", no_argument, NULL, 'w' },
		{ "check", no_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "keep-log", required_argument, NULL, 'k' },
		{ "from-log", required_argument, NULL, 'l' },
		{ "merge", no_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "report-fd", required_argument, NULL, 'r' },
		{ "verify", no_argument, NULL, 'v' },
		{ "once", no_argument, NULL, '1' },
		{ "profile", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bad;
	int ch, merge = 0, flags, formats = 0;

	memset(o, 0, sizeof(*o));
	o->report_fd = -1;
	o->ctx.reproduced = -1;
	o->logs = calloc((size_t)argc + 1, sizeof(*o->logs));
	if (o->logs == NULL)
		err(1, NULL);
again:
	while ((ch = getopt_long(argc, argv, "+f:o:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			o->ctx.format = REPORT_JSON;
			formats |= 1;
			break;
		case 'F':
			o->ctx.format = REPORT_FLAGS;
			formats |= 2;
			break;
		case 'P':
			o->ctx.format = REPORT_PROMISES;
			formats |= 4;
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
			o->timeout = number_arg(optarg, 1, 86400, "--timeout",
			    "a number of seconds from 1 to 86400");
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
		case 'r':
			o->report_fd = number_arg(optarg, 0, INT_MAX,
			    "--report-fd", "a descriptor number");
			break;
		case 'v':
			o->verify = 1;
			break;
		case '1':
			o->once = 1;
			break;
		case 'p':
			o->profile = optarg;
			break;
		case 'V':
			printf("tame-audit %s\n", tame_version());
			exit(0);
		case 'h':
			help();
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
	if (formats & (formats - 1)) {
		warnx("--json, --flags-only and --promises-only are forms of "
		    "the report: give one");
		usage();
	}
	/* a log and a command are one run only when --merge says so */
	if (!merge && o->nlogs > 0 && o->argv != NULL) {
		warnx("--from-log audits a log, not a command: give the log "
		    "alone, or --merge LOG... -- COMMAND to add a run of it");
		usage();
	}
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
	if (o->argv == NULL && (o->timeout || o->keep_log || o->where ||
	    o->verify || o->once)) {
		warnx("--timeout, --keep-log, --where, --verify and --once "
		    "apply to a command run");
		usage();
	}
	if (o->verify && o->once) {
		warnx("--verify makes a second run, --once forbids one: give "
		    "one");
		usage();
	}
	if (o->verify && o->nlogs > 0) {
		warnx("--verify runs a suggestion in a view: not with --merge, "
		    "whose command run is the only one");
		usage();
	}
	if (o->verify && o->ctx.checking) {
		warnx("--verify runs a suggestion: not with --check");
		usage();
	}
	if (o->profile != NULL && o->ctx.checking) {
		warnx("--profile writes the flags of a tree's programs, "
		    "--check checks a program's own: give one");
		usage();
	}
	if (o->output != NULL && o->report_fd >= 0) {
		warnx("-o and --report-fd both say where the report goes: "
		    "give one");
		usage();
	}
	o->ctx.argv = o->argv;
}
