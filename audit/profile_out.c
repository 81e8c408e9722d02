/* SPDX-License-Identifier: ISC */
/*
 * profile_out.c: tame-audit --profile (profile_out.h).  The runs are kept
 * compressed (gzip -1: a test suite's trace is large and compresses
 * sixfold) as FILE.runs/NNNN.log.gz, and the same audit's runs with the
 * name service warmed (tree_warm.h) as NNNN.warm-FLAGS.log.gz beside it; the
 * format of FILE itself is tools/profile.c's.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "profile.h"
#include "profile_out.h"
#include "tame.h"

#define RUNS_SUFFIX	".runs"
#define RUN_NAME	"%04d.log.gz"
#define WARM_NAME	"%04d.warm-%s.log.gz"

/* The number of this audit's run, for its warmed runs' names. */
static int this_run;

static void
runs_dir(const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", file, RUNS_SUFFIX);
}

/*
 * gzip -1c < in > out, or gzip -dc: 0, or -1 with a message.  -1: a
 * suite's log of 60 MB compresses sixfold in 0.5 s, where gzip's default
 * takes 1.2 s for eightfold, and the audit waits for it.
 */
static int
gzip_filter(int decompress, const char *in, const char *out, char *err,
    size_t errlen)
{
	int fin, fout, status;
	pid_t pid;

	if ((fin = open(in, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", in, strerror(errno));
		return -1;
	}
	if ((fout = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1) {
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
		close(fin);
		return -1;
	}
	if ((pid = fork()) == 0) {
		if (dup2(fin, 0) == -1 || dup2(fout, 1) == -1)
			_exit(127);
		execlp("gzip", "gzip", decompress ? "-dc" : "-1c", (char *)NULL);
		_exit(127);
	}
	close(fin);
	close(fout);
	if (pid == -1 || waitpid(pid, &status, 0) == -1 ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, errlen, "%s: gzip %s failed%s", in, decompress ?
		    "-d" : "", pid != -1 && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 127 ? " (is gzip installed?)" : "");
		unlink(out);
		return -1;
	}
	return 0;
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
is_run(const struct dirent *d)
{
	int n;
	char tail[16];

	return sscanf(d->d_name, "%d.log.g%15s", &n, tail) == 2 &&
	    strcmp(tail, "z") == 0;
}

/* A warmed run's file: the flags it warmed, or 0. */
static int
warmed_by(const char *name)
{
	char flags[64], tail[16];
	const char *bad;
	int n, set;

	if (sscanf(name, "%d.warm-%63[a-z,].log.g%15s", &n, flags,
	    tail) != 3 || strcmp(tail, "z") != 0 ||
	    tame_flags_parse(flags, &set, &bad) == -1)
		return 0;
	return set & (TAME_GETPW | TAME_DNSPATH);
}

static int
is_kept(const struct dirent *d)
{
	return is_run(d) || warmed_by(d->d_name) != 0;
}

int
profile_start(const char *file, int *removed, char *err, size_t errlen)
{
	struct profile old = { 0 };
	struct dirent **names;
	struct stat st;
	char dir[PATH_MAX], run[PATH_MAX * 2], why[PATH_MAX + 600];
	int n, i, r = 0;

	*removed = 0;
	if (stat(file, &st) == 0) {
		if (profile_read(file, &old, why, sizeof(why)) == -1) {
			snprintf(err, errlen, "%s (fix it or remove it: a "
			    "profile is merged into, not overwritten); nothing "
			    "was run", why);
			return -1;
		}
		profile_free(&old);
		return 0;
	}
	if (errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	runs_dir(file, dir, sizeof(dir));
	if ((n = scandir(dir, &names, is_kept, by_name)) == -1)
		return 0;
	for (i = 0; i < n; i++) {
		snprintf(run, sizeof(run), "%s/%s", dir, names[i]->d_name);
		if (r == 0 && unlink(run) == -1) {
			snprintf(err, errlen, "%s: %s (%s does not exist, so "
			    "the runs of an earlier profile are not merged)",
			    run, strerror(errno), file);
			r = -1;
		} else if (r == 0 && is_run(names[i]))
			(*removed)++;	/* a run, not its warmed runs */
		free(names[i]);
	}
	free(names);
	return r;
}

int
profile_past_runs(const char *file, struct tree *t, struct tree warmed[3],
    char *err, size_t errlen)
{
	struct dirent **names;
	struct tree *into;
	char dir[PATH_MAX], gz[PATH_MAX * 2], tmppath[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	int n, i, w, fd, r = 0;

	runs_dir(file, dir, sizeof(dir));
	if ((n = scandir(dir, &names, is_kept, by_name)) == -1)
		return errno == ENOENT ? 0 : (snprintf(err, errlen, "%s: %s",
		    dir, strerror(errno)), -1);
	snprintf(tmppath, sizeof(tmppath), "%s/tame-profile.XXXXXX",
	    tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/tmp");
	if ((fd = mkstemp(tmppath)) == -1) {
		snprintf(err, errlen, "%s: %s", tmppath, strerror(errno));
		r = -1;
	} else
		close(fd);
	for (i = 0; i < n; i++) {
		snprintf(gz, sizeof(gz), "%s/%s", dir, names[i]->d_name);
		w = warmed_by(names[i]->d_name);
		into = w == 0 ? t : &warmed[tree_warm_index(w)];
		into->keep_before = w != 0;
		if (r == 0 && (gzip_filter(1, gz, tmppath, err, errlen) == -1 ||
		    tree_read_log(into, tmppath, err, errlen) == -1))
			r = -1;
		if (r == 0) {	/* the evidence names the kept run */
			free(into->logs[into->nruns - 1]);
			into->logs[into->nruns - 1] = xstrdup(gz);
		}
		free(names[i]);
	}
	free(names);
	if (fd != -1)
		unlink(tmppath);
	return r;
}

int
profile_record(const char *file, const char *log, int warm, char *err,
    size_t errlen)
{
	char dir[PATH_MAX], out[PATH_MAX * 2], flags[64];
	struct stat st;
	int i;

	runs_dir(file, dir, sizeof(dir));
	if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (warm != 0) {	/* beside this audit's own run */
		flags_text(warm, flags, sizeof(flags), 0);
		snprintf(out, sizeof(out), "%s/" WARM_NAME, dir, this_run,
		    flags);
		return gzip_filter(0, log, out, err, errlen);
	}
	for (i = 1; i < 10000; i++) {
		snprintf(out, sizeof(out), "%s/" RUN_NAME, dir, i);
		if (stat(out, &st) == -1 && errno == ENOENT) {
			this_run = i;
			return gzip_filter(0, log, out, err, errlen);
		}
	}
	snprintf(err, errlen, "%s: 9999 runs recorded already: start "
	    "another profile", dir);
	return -1;
}

/* "# PATH: why" for a program left out. */
static void
left_out(FILE *f, const struct tree *t, int i)
{
	const struct program *pr = &t->p[i];
	const struct blocker *b;
	const char *why;
	int k;

	fprintf(f, "# %s: ", pr->exe);
	if ((why = tree_not_judged(t, i)) != NULL) {
		fprintf(f, "not judged: %s\n", why);
		return;
	}
	if (tree_is_launcher(t, i)) {
		fprintf(f, "a launcher, it starts ");
		tree_print_starts(f, t, i);
		fprintf(f, " (it execs, so it runs untamed)");
	} else
		fprintf(f, "cannot be tamed as run");
	for (k = 0; k < pr->f.nblockers; k++) {
		b = &pr->f.blockers[k];
		if (b->kind == BLOCK_EXEC)
			continue;
		fprintf(f, "; %s: ", blocker_kind_name(b->kind));
		if (b->need >= 0)
			fprintf(f, "%s", pr->a->needs[b->need].what);
		else
			fprintf(f, "%s", b->detail);
		if (b->kind == BLOCK_UNREACHED)
			fprintf(f, " (%s)", b->todo);
	}
	fputc('\n', f);
}

/*
 * What the user wrote in the file besides PATH FLAGS: whole comment
 * lines (ours, the header and the left-out programs, are written anew)
 * and a line's trailing comment, kept with its path.
 */
struct notes {
	char	**lines;	/* whole comment lines, in order */
	int	  nlines;
	char	**paths, **tails;	/* a line's path and its "# ..." */
	int	  ntails;
};

static int
ours(const char *line)
{
	static const char *const mine[] = { "# tame-exec --profile: ",
	    "# kept from the file: " };
	const char *colon;
	size_t i;

	for (i = 0; i < sizeof(mine) / sizeof(mine[0]); i++)
		if (strncmp(line, mine[i], strlen(mine[i])) == 0)
			return 1;
	if (strncmp(line, "# in ", 5) == 0 && strstr(line, RUNS_SUFFIX
	    "/ by tame-audit --profile") != NULL)
		return 1;
	/* "# PATH: a launcher, ...", "# PATH: cannot be tamed as run..." */
	return strncmp(line, "# /", 3) == 0 &&
	    (colon = strstr(line, ": ")) != NULL &&
	    (strncmp(colon, ": a launcher", 12) == 0 ||
	    strncmp(colon, ": cannot be tamed as run", 24) == 0 ||
	    strncmp(colon, ": not judged: ", 14) == 0 ||
	    strncmp(colon, ": a path a profile line cannot hold", 35) == 0);
}

static void
notes_read(const char *file, struct notes *n)
{
	char *line = NULL, *hash, *path;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	memset(n, 0, sizeof(*n));
	if ((f = fopen(file, "r")) == NULL)
		return;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		path = line + strspn(line, " \t");
		if ((hash = strchr(path, '#')) == NULL)
			continue;
		if (hash == path) {
			if (ours(path))
				continue;
			n->lines = xrealloc(n->lines, ((size_t)n->nlines + 1) *
			    sizeof(*n->lines));
			n->lines[n->nlines++] = xstrdup(path);
			continue;
		}
		path[strcspn(path, " \t")] = '\0';
		n->paths = xrealloc(n->paths, ((size_t)n->ntails + 1) *
		    sizeof(*n->paths));
		n->tails = xrealloc(n->tails, ((size_t)n->ntails + 1) *
		    sizeof(*n->tails));
		n->paths[n->ntails] = xstrdup(path);
		n->tails[n->ntails++] = xstrdup(hash);
	}
	free(line);
	fclose(f);
}

static void
notes_free(struct notes *n)
{
	int i;

	for (i = 0; i < n->nlines; i++)
		free(n->lines[i]);
	for (i = 0; i < n->ntails; i++) {
		free(n->paths[i]);
		free(n->tails[i]);
	}
	free(n->lines);
	free(n->paths);
	free(n->tails);
}

/* One line PATH FLAGS, with the comment the user gave it. */
static int
write_entry(FILE *f, const struct profile_entry *e, const struct notes *n)
{
	int i;

	for (i = 0; i < n->ntails && strcmp(n->paths[i], e->path) != 0; i++)
		;
	return profile_write_entry(f, e, i < n->ntails ? n->tails[i] : NULL);
}

int
profile_write(const char *file, const struct tree *t, int *listed,
    int *left, char *err, size_t errlen)
{
	struct profile old = { 0 };
	struct profile_entry e;
	struct notes notes;
	char tmp[PATH_MAX], why[512];
	struct stat st;
	FILE *f;
	int i, kept = 0, fd;

	*listed = *left = 0;

	if (stat(file, &st) == 0 && profile_read(file, &old, why,
	    sizeof(why)) == -1) {
		snprintf(err, errlen, "%s (fix it or remove it: a profile is "
		    "merged into, not overwritten)", why);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", file);
	if ((fd = mkstemp(tmp)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd != -1)
			close(fd);
		profile_free(&old);
		return -1;
	}
	fchmod(fd, 0644);
	notes_read(file, &notes);
	fprintf(f, "# tame-exec --profile: each program's least flags over "
	    "%d run%s recorded\n# in %s%s/ by tame-audit --profile.  One "
	    "line PATH FLAGS.\n", t->nruns, t->nruns == 1 ? "" : "s", file,
	    RUNS_SUFFIX);
	for (i = 0; i < notes.nlines; i++)
		fprintf(f, "%s\n", notes.lines[i]);
	for (i = 0; i < t->n; i++) {
		if (!t->p[i].f.tameable || !profile_path_ok(t->p[i].exe))
			continue;
		e = (struct profile_entry){ .path = t->p[i].exe,
		    .flags = t->p[i].f.flags, .load = t->p[i].load };
		if (write_entry(f, &e, &notes) == -1)
			break;
		(*listed)++;
	}
	for (i = 0; i < old.n; i++) {
		if (tree_program_find(t, old.e[i].path) >= 0)
			continue;
		if (kept++ == 0)
			fprintf(f, "# kept from the file: programs no recorded "
			    "run started\n");
		write_entry(f, &old.e[i], &notes);
		(*listed)++;
	}
	for (i = 0; i < t->n; i++) {
		if (t->p[i].f.tameable && profile_path_ok(t->p[i].exe))
			continue;
		if (t->p[i].f.tameable)
			fprintf(f, "# %s: a path a profile line cannot hold "
			    "(white space or '#')\n", t->p[i].exe);
		else
			left_out(f, t, i);
		(*left)++;
	}
	profile_free(&old);
	notes_free(&notes);
	if (fflush(f) == EOF || ferror(f) || fsync(fd) == -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		return -1;
	}
	fclose(f);
	if (rename(tmp, file) == -1) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
