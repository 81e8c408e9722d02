/* SPDX-License-Identifier: ISC */
/*
 * id: print user and group identities.
 *
 *	id [-u | -g | -G] [-n] [-r] [user ...]
 *
 * Without options, as GNU id: "uid=0(root) gid=0(root) groups=0(root)",
 * with euid= and egid= when the effective ids of the process differ
 * from its real ones, and no "(name)" for an id without a name.  -u
 * prints the effective user id, -g the effective group id, -G every
 * group id (the real group, the effective one, then the supplementary
 * groups); -n prints names instead, -r real ids instead of effective
 * ones.  A user operand, a name or a number, shows that user and the
 * groups getgrouplist(3) finds for it instead of the process.
 *
 * Only the password and group databases are needed: once the options
 * are read, id tames to TAME_STDIO | TAME_GETPW, before the first
 * lookup (libtame loads the name service modules first).  When nothing
 * is to be looked up, a plain -u, -g or -G of the process itself, it
 * tames to TAME_STDIO alone.  Built with -DTAME_TEST_HOOK and run with
 * TAME_TEST_HOOK=1, it then tries to read /etc/hostname, which needs
 * TAME_RPATH.
 */
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

/* Whose ids to print: the process's, or a user's. */
struct ids {
	uid_t	 ruid, euid;
	gid_t	 rgid, egid;
	gid_t	*groups;	/* egid first, no duplicates */
	int	 ngroups;
};

static int	 Gflag, gflag, nflag, rflag, uflag;
static int	 full;		/* no -u, -g or -G: uid=0(root) ... */
static int	 rval;

static void	 narrow(int);
static void	 self_ids(struct ids *);
static int	 user_ids(const char *, struct ids *);
static void	 add_group(struct ids *, gid_t);
static void	 show(const struct ids *);
static void	 show_full(const struct ids *);
static void	 print_user(uid_t);
static void	 print_group(gid_t);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	struct ids ids;
	int ch, i;

	while ((ch = getopt(argc, argv, "Ggnru")) != -1) {
		switch (ch) {
		case 'G':
			Gflag = 1;
			break;
		case 'g':
			gflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 'r':
			rflag = 1;
			break;
		case 'u':
			uflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (Gflag + gflag + uflag > 1)
		errx(1, "cannot print \"only\" of more than one choice");
	if ((nflag || rflag) && Gflag + gflag + uflag == 0)
		errx(1, "cannot print only names or real IDs in default "
		    "format");

	full = Gflag + gflag + uflag == 0;

	/* names are looked up for operands, -n and the full format */
	narrow(argc > 0 || nflag || full);

	if (argc == 0) {
		self_ids(&ids);
		show(&ids);
	}
	for (i = 0; i < argc; i++) {
		if (user_ids(argv[i], &ids) == -1) {
			warnx("'%s': no such user", argv[i]);
			rval = 1;
			continue;
		}
		show(&ids);
		free(ids.groups);
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "write error");
	return rval;
}

static void
narrow(int lookups)
{
#ifndef NO_TAME
	if (tame(lookups ? TAME_STDIO | TAME_GETPW : TAME_STDIO) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	/* for the tests: the password files are all id may read */
	if (getenv("TAME_TEST_HOOK") != NULL)
		open("/etc/hostname", O_RDONLY);
#endif
#else
	(void)lookups;
#endif
}

/* The process: its real and effective ids and getgroups(2). */
static void
self_ids(struct ids *ids)
{
	gid_t *list;
	int i, n;

	ids->ruid = getuid();
	ids->euid = geteuid();
	ids->rgid = getgid();
	ids->egid = getegid();
	if ((n = getgroups(0, NULL)) == -1)
		err(1, "cannot get groups");
	if ((list = calloc(n + 1, sizeof(*list))) == NULL ||
	    (ids->groups = calloc(n + 1, sizeof(gid_t))) == NULL)
		err(1, NULL);
	if ((n = getgroups(n, list)) == -1)
		err(1, "cannot get groups");
	ids->ngroups = 0;
	add_group(ids, ids->egid);
	for (i = 0; i < n; i++)
		add_group(ids, list[i]);
	free(list);
}

/* A user by name, or else by number, and the groups it belongs to. */
static int
user_ids(const char *user, struct ids *ids)
{
	struct passwd *pw;
	gid_t *list = NULL;
	char *end, *name;
	unsigned long n;
	int i, count = 16;

	if ((pw = getpwnam(user)) == NULL) {
		errno = 0;
		n = strtoul(user, &end, 10);
		if (*user < '0' || *user > '9' || *end != '\0' || errno ||
		    n != (uid_t)n || (pw = getpwuid(n)) == NULL)
			return -1;
	}
	ids->ruid = ids->euid = pw->pw_uid;
	ids->rgid = ids->egid = pw->pw_gid;
	if ((name = strdup(pw->pw_name)) == NULL)
		err(1, NULL);
	/* getgrouplist says how many there are when the list is short */
	do {
		if ((list = reallocarray(list, count, sizeof(*list))) == NULL)
			err(1, NULL);
	} while (getgrouplist(name, ids->egid, list, &count) == -1);
	if ((ids->groups = calloc(count + 1, sizeof(gid_t))) == NULL)
		err(1, NULL);
	ids->ngroups = 0;
	add_group(ids, ids->egid);
	for (i = 0; i < count; i++)
		add_group(ids, list[i]);
	free(list);
	free(name);
	return 0;
}

static void
add_group(struct ids *ids, gid_t gid)
{
	int i;

	for (i = 0; i < ids->ngroups; i++)
		if (ids->groups[i] == gid)
			return;
	ids->groups[ids->ngroups++] = gid;
}

static void
show(const struct ids *ids)
{
	int i;

	if (uflag)
		print_user(rflag ? ids->ruid : ids->euid);
	else if (gflag)
		print_group(rflag ? ids->rgid : ids->egid);
	else if (Gflag) {
		/* the real group, the effective one, then the others */
		print_group(ids->rgid);
		if (ids->egid != ids->rgid) {
			putchar(' ');
			print_group(ids->egid);
		}
		for (i = 0; i < ids->ngroups; i++) {
			if (ids->groups[i] == ids->rgid ||
			    ids->groups[i] == ids->egid)
				continue;
			putchar(' ');
			print_group(ids->groups[i]);
		}
	} else {
		show_full(ids);
		return;
	}
	putchar('\n');
}

/* uid=0(root) gid=0(root) [euid=...] [egid=...] groups=0(root),... */
static void
show_full(const struct ids *ids)
{
	int i;

	fputs("uid=", stdout);
	print_user(ids->ruid);
	fputs(" gid=", stdout);
	print_group(ids->rgid);
	if (ids->euid != ids->ruid) {
		fputs(" euid=", stdout);
		print_user(ids->euid);
	}
	if (ids->egid != ids->rgid) {
		fputs(" egid=", stdout);
		print_group(ids->egid);
	}
	fputs(" groups=", stdout);
	for (i = 0; i < ids->ngroups; i++) {
		if (i > 0)
			putchar(',');
		print_group(ids->groups[i]);
	}
	putchar('\n');
}

/*
 * An id as a number (-u, -g, -G), a name (-n: without one, the number
 * and an error), or both as "number(name)" (the full format).
 */
static void
print_user(uid_t uid)
{
	struct passwd *pw;

	if (!nflag && !full) {
		printf("%lu", (unsigned long)uid);
		return;
	}
	if ((pw = getpwuid(uid)) != NULL && nflag)
		fputs(pw->pw_name, stdout);
	else if (pw != NULL)
		printf("%lu(%s)", (unsigned long)uid, pw->pw_name);
	else {
		printf("%lu", (unsigned long)uid);
		if (nflag) {
			warnx("cannot find name for user ID %lu",
			    (unsigned long)uid);
			rval = 1;
		}
	}
}

static void
print_group(gid_t gid)
{
	struct group *gr;

	if (!nflag && !full) {
		printf("%lu", (unsigned long)gid);
		return;
	}
	if ((gr = getgrgid(gid)) != NULL && nflag)
		fputs(gr->gr_name, stdout);
	else if (gr != NULL)
		printf("%lu(%s)", (unsigned long)gid, gr->gr_name);
	else {
		printf("%lu", (unsigned long)gid);
		if (nflag) {
			warnx("cannot find name for group ID %lu",
			    (unsigned long)gid);
			rval = 1;
		}
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-u | -g | -G] [-n] [-r] [user ...]\n",
	    program_invocation_short_name);
	exit(1);
}
