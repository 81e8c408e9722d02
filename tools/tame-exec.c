/* SPDX-License-Identifier: ISC */
/*
 * tame-exec: run an unmodified, dynamically linked program tamed.
 *
 * tame-exec cannot tame itself and then exec (tame forbids exec), so it
 * preloads libtame-preload.so into CMD; the shim's constructor calls
 * tame() once the dynamic loader has mapped everything.  glibc ignores a
 * preload it cannot load and runs the program untamed, so tame-exec first
 * proves the shim will load: CMD must be a dynamically linked ELF of this
 * machine's class and architecture (or a script whose interpreter is).
 *
 * With --profile, CMD is the root of a tree: the shim goes into every
 * program of it, and tames those the profile lists (preload.c).
 *
 * What tame-exec tells the shim goes by TAME_EXEC_* variables, and only
 * what its own command line says: every TAME_EXEC_* of its caller is
 * removed first (set_environment), so that no environment a caller
 * inherited can give the shim other flags, promises or paths.
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <linux/seccomp.h>

#include <elf.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "exe.h"
#include "sys.h"
#include "policy.h"
#include "profile.h"
#include "tame.h"
#include "tame_int.h"

#define PRELOAD_NAME	"libtame-preload.so"

static void	usage(void) __attribute__((noreturn));
static void	help(void) __attribute__((noreturn));
static int	check(int);
static void	refuse_privileged(const char *, const char *);
static int	dump_bpf(const char *, int);
static int	find_command(const char *, char *, size_t);
static void	require_dynamic(const char *, const char *, int);
static int	find_preload(char *, size_t);
static void	run_profile(const char *, char *[]) __attribute__((noreturn));
static char	*add_module(char *, const char *);
static char	*add_unveil(char *, const char *);
static void	set_environment(const char *, const char *const []);
static const char *assign(const char *, const char *);
static void	print_insn(int, const struct sock_filter *);

int
main(int argc, char *argv[])
{
	static char tameflags[32];
	char cmd[PATH_MAX], preload[PATH_MAX];
	const char *fstr = "stdio", *bad = NULL, *profile = NULL;
	const char *promises = NULL, *vars[6];
	char *load = NULL, *unveils = NULL;
	tame_atoms atoms;
	int flags, i, n = 0, checking = 0, fset = 0, tree = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc) {
			if (fset) {
				warnx("-f given twice (\"%s\", \"%s\"): give "
				    "one list, as -f stdio,rpath", fstr,
				    argv[i + 1]);
				usage();
			}
			fstr = argv[++i];
			fset = 1;
		} else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
			if (promises != NULL) {
				warnx("-p given twice: give one list, as "
				    "-p \"stdio rpath\"");
				usage();
			}
			promises = argv[++i];
		} else if (strcmp(argv[i], "-v") == 0 && i + 1 < argc) {
			unveils = add_unveil(unveils, argv[++i]);
		} else if ((strcmp(argv[i], "-l") == 0 ||
		    strcmp(argv[i], "--load") == 0) && i + 1 < argc)
			load = add_module(load, argv[++i]);
		else if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
			profile = argv[++i];
		else if (strcmp(argv[i], "--check") == 0)
			checking = 1;
		else if (strcmp(argv[i], "--tree") == 0)
			tree = 1;
		else if (strcmp(argv[i], "--dump-bpf") == 0 && i + 1 < argc)
			return dump_bpf(argv[i + 1], 0);
		else if (strcmp(argv[i], "--dump-bpf-raw") == 0 &&
		    i + 1 < argc)
			return dump_bpf(argv[i + 1], 1);
		else if (strcmp(argv[i], "-V") == 0 ||
		    strcmp(argv[i], "--version") == 0) {
			printf("tame-exec %s\n", tame_version());
			return 0;
		} else if (strcmp(argv[i], "--help") == 0)
			help();
		else if (argv[i][0] == '-') {
			warnx("%s: %s", argv[i], i + 1 >= argc &&
			    (strcmp(argv[i], "-f") == 0 ||
			    strcmp(argv[i], "-p") == 0 ||
			    strcmp(argv[i], "-v") == 0 ||
			    strcmp(argv[i], "-l") == 0 ||
			    strcmp(argv[i], "--load") == 0 ||
			    strcmp(argv[i], "--profile") == 0 ||
			    strncmp(argv[i], "--dump-bpf", 10) == 0) ?
			    "needs a value" : "unknown option");
			usage();
		} else
			break;
	}
	if (i >= argc && !checking)
		usage();
	if (profile != NULL && (fset || checking || load != NULL)) {
		warnx("--profile gives each program of the tree its own flags "
		    "and modules: it cannot go with %s", fset ? "-f" :
		    checking ? "--check" : "-l");
		usage();
	}
	if (checking && load != NULL) {
		warnx("-l loads modules into a command: --check runs none");
		usage();
	}
	if (promises != NULL && (fset || profile != NULL || checking)) {
		warnx("-p gives pledge's promises: it cannot go with %s",
		    fset ? "-f, tame's flags" : profile != NULL ? "--profile" :
		    "--check");
		usage();
	}
	if (tree && (profile != NULL || promises != NULL || checking)) {
		warnx("--tree carries -f's flags to every program of the tree "
		    "(tame-audit's): it cannot go with %s", profile != NULL ?
		    "--profile" : promises != NULL ? "-p" : "--check");
		usage();
	}
	if (unveils != NULL && (profile != NULL || checking)) {
		warnx("-v unveils paths for one command: it cannot go with %s",
		    profile != NULL ? "--profile" : "--check");
		usage();
	}
	if (promises != NULL &&
	    tame__promises_parse(promises, &atoms, &bad) == -1) {
		warnx("unknown promise \"%.*s\" (pledge(3) lists them)",
		    (int)strcspn(bad, " \t\n"), bad);
		usage();
	}
	if (profile != NULL)
		run_profile(profile, argv + i);
	if (tame_flags_parse(fstr, &flags, &bad) == -1) {
		warnx("unknown flag name \"%.*s\" (known: malloc rw stdio rpath "
		    "wpath cpath tmppath inet unix dnspath getpw cmsg ioctl "
		    "proc)", (int)strcspn(bad, ", \t\n|"), bad);
		usage();
	}
	if (checking)
		return check(fset ? flags : TAME_ALL);

	/* as the shell says: 127 when there is none, 126 when it won't run */
	if (find_command(argv[i], cmd, sizeof(cmd)) == -1)
		err(errno == ENOENT || errno == ENOTDIR ? 127 : 126, "%s",
		    argv[i]);
	require_dynamic(argv[i], cmd, 0);
	refuse_privileged(argv[i], cmd);
	if (find_preload(preload, sizeof(preload)) == -1)
		errx(1, "cannot find %s beside tame-exec; reinstall libtame",
		    PRELOAD_NAME);

	snprintf(tameflags, sizeof(tameflags), "TAME_EXEC_FLAGS=%#x", flags);
	vars[n++] = tameflags;
	/* -p: the shim pledges these instead (the flags stay its check) */
	if (promises != NULL)
		vars[n++] = assign("TAME_EXEC_PLEDGE", promises);
	if (unveils != NULL)
		vars[n++] = assign("TAME_EXEC_UNVEIL", unveils);
	if (load != NULL)
		vars[n++] = assign("TAME_EXEC_LOAD", load);
	if (tree)
		vars[n++] = "TAME_EXEC_TREE=1";
	vars[n] = NULL;
	set_environment(preload, vars);
	/* a setuid CMD must not gain privilege, or glibc drops the preload */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		err(1, "prctl(PR_SET_NO_NEW_PRIVS)");
	execv(cmd, argv + i);
	err(126, "%s", cmd);
}

/*
 * -v perm:path: one line "perm:path" more in the list the shim unveils
 * (TAME_EXEC_UNVEIL); perm is a mix of r, w, x and c, or empty.  A bad
 * one is a usage error here, not a failure in the command.
 */
static char *
add_unveil(char *list, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t old = list != NULL ? strlen(list) : 0;
	char *grown;

	if (colon == NULL || colon[1] == '\0' ||
	    strspn(arg, "rwxc") != (size_t)(colon - arg)) {
		warnx("-v %s: give perm:path, perm of r, w, x and c "
		    "(\"r:/etc\", \"rwc:/tmp\", \":/hidden\")", arg);
		usage();
	}
	if (strchr(arg, '\n') != NULL)
		errx(2, "-v: a path with a newline cannot be unveiled");
	if ((grown = realloc(list, old + strlen(arg) + 2)) == NULL)
		err(1, "-v");
	snprintf(grown + old, strlen(arg) + 2, "%s%s", old ? "\n" : "", arg);
	return grown;
}

/*
 * A module to load (-l, a profile's load=) is a file that exists; else
 * exit 1, the message starting with where it was named (printf's FMT).
 */
static void
module_is_file(const char *module, const char *fmt, ...)
{
	char where[2 * PATH_MAX + 32];
	struct stat st;
	va_list ap;
	int found, saved;

	if ((found = stat(module, &st) == 0) && S_ISREG(st.st_mode))
		return;
	saved = errno;
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	errno = saved;
	if (!found)
		err(1, "%s", where);
	errx(1, "%s: not a regular file (a shared object to load)", where);
}

/*
 * -l MODULE: a shared object the command loads on demand (iconv's gconv
 * converters, a plugin), which the shim loads before tame() so that the
 * command's own dlopen() finds it mapped (preload.c).  Checked here, so
 * that a wrong path is said before anything runs: absolute, a regular
 * file, and no ':' (the list's separator in TAME_EXEC_LOAD).  Returns
 * list with module added.
 */
static char *
add_module(char *list, const char *module)
{
	char *more;

	if (module[0] != '/' || strchr(module, ':') != NULL)
		errx(2, "-l %s: give the module's absolute path, without ':'",
		    module);
	module_is_file(module, "-l %s", module);
	if (asprintf(&more, "%s%s%s", list != NULL ? list : "",
	    list != NULL ? ":" : "", module) == -1)
		err(1, NULL);
	free(list);
	return more;
}

/*
 * Each line names the program that runs when its path is executed, as
 * the shim finds itself (/proc/self/exe): a line through a symbolic link
 * (/bin/sort on Debian, python3), of a script, or of no file at all
 * would tame nothing and say nothing, so the profile is refused there.
 */
static void
check_lines(const char *file, const struct profile *p)
{
	struct exe x;
	char *copy, *m, *save;
	int i;

	for (i = 0; i < p->n; i++) {
		const struct profile_entry *e = &p->e[i];

		if (e->load != NULL && (copy = strdup(e->load)) != NULL) {
			for (m = strtok_r(copy, ",", &save); m != NULL;
			    m = strtok_r(NULL, ",", &save))
				module_is_file(m, "%s:%d: load=%s", file,
				    e->line, m);
			free(copy);
		}
		if (exe_find(AT_FDCWD, e->path, 0, &x) == -1)
			errx(1, "%s:%d: %s: %s: a profile lists programs "
			    "that run; correct the line or remove it", file,
			    e->line, e->path, strerror(errno));
		exe_close(&x);
		if (strcmp(x.path, e->path) != 0)
			errx(1, "%s:%d: %s is not a program's real path: an "
			    "exec of it runs %s (%s), which this line would "
			    "leave untamed; a profile names what /proc/PID/exe "
			    "shows: write %s", file, e->line, e->path, x.path,
			    x.script ? "a script's interpreter" :
			    "a symbolic link is on the way", x.path);
	}
}

/*
 * --profile FILE: the profile read and checked before anything runs,
 * then CMD with the shim and TAME_EXEC_PROFILE, the profile's absolute
 * path, for every program of the tree to read as it starts: so it must
 * be a regular file.  CMD itself, if listed, is checked as -f checks it,
 * and as the shim's exec wrappers check the programs of the tree (the
 * dynamic loader run as a command by the program it runs).  No
 * no_new_privs here: a program the profile does not list runs as it
 * would, set-user-ID ones with their privileges.
 */
static void
run_profile(const char *file, char *argv[])
{
	static char var[sizeof("TAME_EXEC_PROFILE=") + PATH_MAX];
	const char *vars[] = { var, NULL };
	char abs[PATH_MAX], cmd[PATH_MAX], preload[PATH_MAX], prog[PATH_MAX];
	char why[PATH_MAX + 600];
	const char *untamed;
	struct profile p = { 0 };
	struct stat st;
	struct exe x;
	int loaded;

	if (stat(file, &st) == -1)
		err(1, "%s", file);
	if (!S_ISREG(st.st_mode))
		errx(1, "%s: not a regular file (every program of the tree "
		    "reads the profile again as it starts)", file);
	if (profile_read(file, &p, why, sizeof(why)) == -1)
		errx(1, "%s", why);
	check_lines(file, &p);
	if (realpath(file, abs) == NULL)
		err(1, "%s", file);
	if (find_command(argv[0], cmd, sizeof(cmd)) == -1)
		err(errno == ENOENT || errno == ENOTDIR ? 127 : 126, "%s",
		    argv[0]);
	/* the shim must load in it: no no_new_privs, so no set-ID one */
	if (exe_find(AT_FDCWD, cmd, 0, &x) == 0) {
		if (profile_find(&p, x.path) != NULL)
			require_dynamic(argv[0], cmd, 0);
		exe_close(&x);
	}
	if ((untamed = exe_refused(&p, AT_FDCWD, cmd, 0, argv, prog,
	    &loaded)) != NULL)
		errx(126, "%s is listed in %s but %s: %s; not run", prog, abs,
		    untamed, loaded ? "the dynamic loader would run it untamed" :
		    "it would run untamed");
	profile_free(&p);
	if (find_preload(preload, sizeof(preload)) == -1)
		errx(1, "cannot find %s beside tame-exec; reinstall libtame",
		    PRELOAD_NAME);
	snprintf(var, sizeof(var), "TAME_EXEC_PROFILE=%s", abs);
	set_environment(preload, vars);
	execv(cmd, argv);
	err(126, "%s", cmd);
}

/*
 * A set-user-ID, set-group-ID or file-capability program is installed to
 * run with privileges.  tame-exec sets no_new_privs (or glibc would drop
 * the preload), so the program would run without them: refuse, plainly,
 * rather than run it in a way nobody asked for.
 */
static void
refuse_privileged(const char *name, const char *path)
{
	struct stat st;
	ssize_t n;

	if (stat(path, &st) == -1)
		err(126, "%s", path);
	if (st.st_mode & (S_ISUID | S_ISGID))
		errx(126, "%s is set-%s-ID: under tame-exec it would run "
		    "without the privileges it is installed with; tame it in "
		    "its source instead", name,
		    (st.st_mode & S_ISUID) ? "user" : "group");
	n = getxattr(path, "security.capability", NULL, 0);
	if (n > 0)
		errx(126, "%s has file capabilities: under tame-exec it would "
		    "run without them; tame it in its source instead", name);
}

static void
usage_to(FILE *f)
{
	fprintf(f, "usage: tame-exec [-f flags] [--tree] [-v perm:path ...] "
	    "[-l module ...] [--] command [arg ...]\n"
	    "       tame-exec -p promises [-v perm:path ...] [-l module ...] "
	    "[--] command [arg ...]\n"
	    "       tame-exec --profile file [--] command [arg ...]\n"
	    "       tame-exec [-f flags] --check | -V | --version | --help\n"
	    "       tame-exec --dump-bpf | --dump-bpf-raw flags\n");
}

static void
usage(void)
{
	usage_to(stderr);
	exit(2);
}

/* --help: the usage and what each option does, on standard output. */
static void
help(void)
{
	usage_to(stdout);
	printf("\n"
	    "Run command tamed: the shim calls tame(flags) in it once the "
	    "loader is done.\n\n"
	    "  -f flags         the flags, commas, spaces or | between "
	    "(default stdio):\n"
	    "                   malloc rw stdio rpath wpath cpath tmppath "
	    "inet unix\n"
	    "                   dnspath getpw cmsg ioctl proc\n"
	    "  -p promises      pledge's promises instead, spaces between "
	    "(\"stdio rpath\");\n"
	    "                   the shim calls pledge(promises, NULL): "
	    "see pledge(3)\n"
	    "  -v perm:path     unveil path (perm: r w x c, or none) in "
	    "command before\n"
	    "                   it is tamed or pledged; other paths are "
	    "hidden: repeatable\n"
	    "  -l, --load module\n"
	    "                   a shared object command loads on demand "
	    "(a gconv\n"
	    "                   converter, a plugin), loaded before tame(): "
	    "repeatable\n"
	    "  --profile file   tame each program of the tree by its line "
	    "in file\n"
	    "                   (PATH FLAGS; tame-audit --profile writes "
	    "one)\n"
	    "  --tree           every program command starts gets the shim "
	    "and flags too,\n"
	    "                   each naming itself in a trace first "
	    "(tame-audit's)\n"
	    "  --check          what this kernel can enforce of flags\n"
	    "  --dump-bpf flags, --dump-bpf-raw flags\n"
	    "                   the filter tame(flags) would install\n"
	    "  -V, --version    the version\n"
	    "  --help           this text\n\n"
	    "A violation kills command with SIGSYS (status 159 in a shell) "
	    "after one line\non standard error.  Exit status: command's; 1 "
	    "error, 2 usage, 126 cannot run,\n127 not found.  See "
	    "tame-exec(1).\n");
	exit(0);
}

/* Like execvp's search, but we need the file itself to inspect it. */
static int
find_command(const char *name, char *out, size_t len)
{
	const char *path, *p, *end;
	size_t n;

	if (strchr(name, '/') != NULL) {
		snprintf(out, len, "%s", name);
		return access(name, X_OK);
	}
	if ((path = getenv("PATH")) == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchr(p, ':');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		snprintf(out, len, "%.*s%s%s", (int)n, n ? p : ".", "/", name);
		if (access(out, X_OK) == 0) {
			struct stat st;

			if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
				return 0;
		}
		if (end == NULL)
			break;
	}
	errno = ENOENT;
	return -1;
}

/* CMD, or its #! interpreter, must be a dynamic ELF of this machine. */
static void
require_dynamic(const char *name, const char *path, int depth)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	char buf[PATH_MAX], *interp, *end;
	off_t off;
	ssize_t n;
	int fd, i, dynamic = 0;

	/* closed before the exec: no O_CLOEXEC, which costs musl a fcntl */
	if ((fd = open(path, O_RDONLY)) == -1)
		err(126, "%s", path);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n >= 2 && buf[0] == '#' && buf[1] == '!' && depth == 0) {
		buf[n] = '\0';
		interp = buf + 2 + strspn(buf + 2, " \t");
		end = interp + strcspn(interp, " \t\n");
		*end = '\0';
		close(fd);
		require_dynamic(name, interp, 1);
		return;
	}
	if (n < (ssize_t)sizeof(eh) || memcmp(buf, ELFMAG, SELFMAG) != 0)
		errx(126, "%s: not an ELF executable or script", name);
	memcpy(&eh, buf, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EXE_MACHINE)
		errx(126, "%s: built for another architecture; the preloaded "
		    "shim could not load and it would run untamed", name);
	/* the program headers, from the first read when they are in it */
	for (i = 0; i < eh.e_phnum; i++) {
		off = (off_t)eh.e_phoff + (off_t)i * eh.e_phentsize;
		if (off + (off_t)sizeof(ph) <= n)
			memcpy(&ph, buf + off, sizeof(ph));
		else if (pread(fd, &ph, sizeof(ph), off) != sizeof(ph))
			errx(126, "%s: truncated ELF file", name);
		if (ph.p_type == PT_INTERP)
			dynamic = 1;
	}
	close(fd);
	if (!dynamic)
		errx(1, "%s is statically linked: tame-exec can only tame "
		    "dynamically linked programs; call tame() in the program "
		    "itself", name);
}

/*
 * LD_PRELOAD (the shim first, then whatever was preloaded already) and
 * vars, the mode's "TAME_EXEC_NAME=value" (NULL after the last), in a new
 * environ without any TAME_EXEC_* of the caller's: a variable tame-exec
 * did not set for this command (an outer tame-exec's, a tree's, one an
 * attacker put in an environment passed on) would give the shim other
 * flags, promises, paths or modules, or switch it to another mode; none
 * is taken from the caller.  A new environ, not setenv(), which would
 * allocate: a launcher that runs before every tamed command should not
 * pay for malloc's first system calls and page faults (only a huge
 * environment does).
 */
static void
set_environment(const char *preload, const char *const vars[])
{
	static char ldpreload[2 * PATH_MAX + 16], *small[256];
	const char *old = getenv("LD_PRELOAD");
	size_t n = 0, nvars = 0, i, j;
	char **env;

	if (snprintf(ldpreload, sizeof(ldpreload), "LD_PRELOAD=%s%s%s",
	    preload, old != NULL && *old != '\0' ? ":" : "",
	    old != NULL ? old : "") >= (int)sizeof(ldpreload))
		errx(1, "LD_PRELOAD is too long");
	while (environ[n] != NULL)
		n++;
	while (vars[nvars] != NULL)
		nvars++;
	env = n + nvars + 2 <= sizeof(small) / sizeof(small[0]) ? small :
	    calloc(n + nvars + 2, sizeof(*env));
	if (env == NULL)
		err(1, "calloc");
	for (i = j = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0 &&
		    strncmp(environ[i], "TAME_EXEC_", 10) != 0)
			env[j++] = environ[i];
	env[j++] = ldpreload;
	for (i = 0; i < nvars; i++)
		env[j++] = (char *)vars[i];
	env[j] = NULL;
	environ = env;
}

/* "NAME=value", for the environment: exit 1 without memory. */
static const char *
assign(const char *name, const char *value)
{
	char *s;

	if (asprintf(&s, "%s=%s", name, value) == -1)
		err(1, "%s", name);
	return s;
}

/* The shim beside us (build tree) or in ../lib/tame (installed). */
static int
find_preload(char *out, size_t len)
{
	static const char *where[] = { "", "/../lib/tame" };
	char self[PATH_MAX - 64], *slash;
	ssize_t n;
	size_t i;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		return -1;
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(out, len, "%s%s/%s", self, where[i], PRELOAD_NAME);
		if (access(out, R_OK) == 0)
			return 0;
	}
	return -1;
}

/*
 * Does the kernel know this system call?  Asked with arguments it
 * refuses (a bad pointer, a bad descriptor): only ENOSYS means no.
 */
static int
kernel_has(long nr, long a0, long a1, long a2, long a3)
{
	long r = syscall(nr, a0, a1, a2, a3);

	if (r >= 0)
		close((int)r);
	return !(r == -1 && errno == ENOSYS);
}

#ifndef SYS_openat2
#define SYS_openat2		437
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal	424
#endif
#define PIDFD_SELF_PROCESS	(-10001)	/* PIDFD_SELF_THREAD_GROUP */

/*
 * What this kernel can enforce of flags (every flag without -f): exit 1
 * when a flag asked for cannot be confined as tame(3) documents it.
 * The lines other than the flags' are what the kernel gives that
 * tame(3) relies on, the same facts as doc/kernels.md's table of kernels.
 */
static int
check(int flags)
{
	int abi = tame_landlock_abi(), ok = 1, want;
	FILE *f;
	char line[256];
	struct utsname u;

	printf("libtame %s\n", tame_version());
	if (uname(&u) == 0)
		printf("kernel: %s %s\n", u.release, u.machine);
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == -1 && errno == EINVAL) {
		printf("seccomp filters: missing (tame() fails with ENOSYS)\n");
		ok = 0;
	} else if ((f = fopen("/proc/sys/kernel/seccomp/actions_avail",
	    "r")) != NULL) {
		if (fgets(line, sizeof(line), f) != NULL)
			printf("seccomp filters: yes (%.*s)\n",
			    (int)strcspn(line, "\n"), line);
		fclose(f);
	} else
		printf("seccomp filters: yes\n");
	/* the flags whose grants are paths: Landlock confines them */
	want = tame_flags_unconfined(flags & (TAME_TMPPATH | TAME_GETPW |
	    TAME_DNSPATH));
	if (abi > 0)
		printf("Landlock: ABI %d: tmppath, getpw, dnspath and the base "
		    "set's files (time zone, locale) are confined to their "
		    "paths\n", abi);
	else if (tame_flags_unconfined(TAME_ALL) == 0)
		printf("Landlock: missing: tmppath, getpw, dnspath and the base "
		    "set's files (time zone, locale) are confined to their "
		    "paths by the SIGSYS handler (openat2 resolve flags; "
		    "symlinks within /tmp and the granted directories only)\n");
	else {
		printf("Landlock: missing, openat2: missing (Linux before 5.6): "
		    "tmppath, getpw, dnspath and the base "
		    "set's files (time zone, locale) grant nothing (their "
		    "calls fail with EACCES; other paths still kill)\n"
		    "Hint: boot Linux 5.6 or later, ideally with "
		    "CONFIG_SECURITY_LANDLOCK=y and landlock in the lsm= "
		    "list\n");
		if (want & TAME_TMPPATH)
			printf("tmppath: cannot be confined here: nothing "
			    "beneath /tmp can be used\n");
		if (want & TAME_GETPW)
			printf("getpw: cannot be confined here: the passwd and "
			    "group files cannot be read\n");
		if (want & TAME_DNSPATH)
			printf("dnspath: cannot be confined here: the resolver's "
			    "files cannot be read\n");
		if (want != 0)
			ok = 0;
	}
	printf("openat2: %s\n", kernel_has(SYS_openat2, -1, 0, 0, 0) ?
	    "yes (Linux 5.6)" : "missing (Linux 5.6)");
	/* signal 0 to this process by PIDFD_SELF: EBADF before 6.15 */
	printf("PIDFD_SELF: %s\n", syscall(SYS_pidfd_send_signal,
	    PIDFD_SELF_PROCESS, 0, NULL, 0) == 0 ? "yes (Linux 6.15)" :
	    "missing (Linux 6.15: raise() by pidfd_send_signal fails with "
	    "EBADF, as untamed)");
	printf("signal scoping: %s\n", abi >= 6 ? "yes (Landlock ABI 6): "
	    "without proc and cpath, Landlock also keeps signals to this "
	    "process" : "missing (Landlock ABI 6): the filter alone keeps "
	    "signals to this process");
	/*
	 * The first tame() enters a Landlock domain, which alone keeps the
	 * /proc/PID/mem of other processes closed to rpath and wpath: the
	 * filter cannot see a path, and the kernel's ptrace check lets a
	 * process reach others of its user.  Where the first call can
	 * enter none (no Landlock; cpath on ABI 1), they are open.
	 */
	if (tame__domain_kind(tame_expand(flags), abi) == TAME_DOMAIN_NONE &&
	    (flags & (TAME_RPATH | TAME_WPATH)))
		printf("rpath, wpath: %s, /proc/PID/mem of "
		    "another process the kernel lets this user trace (its "
		    "own user's, or any as root) can be read under rpath and "
		    "written under wpath\n", abi == 0 ? "without Landlock" :
		    "with cpath, Landlock ABI 1 enters no domain (it cannot "
		    "keep renames across directories in one)");
	printf("descriptor passing: without cmsg, sending SCM_RIGHTS kills "
	    "and received descriptors are closed (checked by the SIGSYS "
	    "handler)\n");
	return ok ? 0 : 1;
}

static void
print_ret(uint32_t k)
{
	switch (k & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		printf("ret ALLOW\n");
		break;
	case SECCOMP_RET_KILL_PROCESS:
		printf("ret KILL_PROCESS\n");
		break;
	case SECCOMP_RET_TRAP:
		printf("ret TRAP(%u)\t; %s\n", k & SECCOMP_RET_DATA,
		    (k & SECCOMP_RET_DATA) == TAME_TRAP_EMULATE ?
		    "emulated by the handler" : "violation: report, die");
		break;
	case SECCOMP_RET_ERRNO:
		printf("ret ERRNO(%u)\t; %s\n", k & SECCOMP_RET_DATA,
		    strerror((int)(k & SECCOMP_RET_DATA)));
		break;
	default:
		printf("ret 0x%08x\n", k);
	}
}

/* One instruction, with absolute jump targets, as in bpf_dbg. */
static void
print_insn(int pc, const struct sock_filter *f)
{
	static const char *field[] = { "nr", "arch", "ip.lo", "ip.hi" };
	const char *op = NULL;

	printf("%04d: ", pc);
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		if (f->k < 16)
			printf("ld %s\n", field[f->k / 4]);
		else
			printf("ld arg%u.%s\n", (f->k - 16) / 8,
			    (f->k - 16) % 8 ? "hi" : "lo");
		return;
	case BPF_ALU | BPF_AND | BPF_K:
		printf("and #0x%x\n", f->k);
		return;
	case BPF_JMP | BPF_JA:
		printf("ja %04u\n", pc + 1 + f->k);
		return;
	case BPF_RET | BPF_K:
		print_ret(f->k);
		return;
	case BPF_JMP | BPF_JEQ | BPF_K:
		op = "jeq";
		break;
	case BPF_JMP | BPF_JGE | BPF_K:
		op = "jge";
		break;
	case BPF_JMP | BPF_JGT | BPF_K:
		op = "jgt";
		break;
	}
	if (op == NULL)
		printf("code=0x%02x jt=%u jf=%u k=0x%08x\n", f->code, f->jt,
		    f->jf, f->k);
	else
		printf("%s #0x%x\tjt %04d jf %04d\n", op, f->k,
		    pc + 1 + f->jt, pc + 1 + f->jf);
}

/*
 * The program tame(flags) would install as its first filter, with
 * Landlock available, for users to read or to feed to their own tools.
 */
static int
dump_bpf(const char *fstr, int raw)
{
	static struct tame_prog p;
	struct tame_target t = { 0 };
	const char *bad;
	int flags, i;

	if (tame_flags_parse(fstr, &flags, &bad) == -1) {
		warnx("unknown flag name \"%.*s\"",
		    (int)strcspn(bad, ", \t\n|"), bad);
		usage();
	}
	t.held = tame_expand(flags);
	t.landlock_ok = 1;
	t.pid = getpid();		/* as tame() would compile it here */
	if (tame_compile(&t, NULL, &p) == -1)
		err(1, "compile");
	if (raw) {
		if (fwrite(p.insn, sizeof(p.insn[0]), p.len, stdout) !=
		    (size_t)p.len)
			err(1, "stdout");
		return 0;
	}
	printf("# tame(%s): %d instructions\n", fstr, p.len);
	for (i = 0; i < p.len; i++)
		print_insn(i, &p.insn[i]);
	return 0;
}
