/* SPDX-License-Identifier: ISC */
/*
 * unveil_xattr.c: extended attributes of a path unveil() hides (issue
 * 46, unveil's unmediated calls).
 *
 * Landlock does not mediate extended attributes.  Only visible/ is
 * unveiled; in hidden/, the attacker
 *  - sets a POSIX ACL (system.posix_acl_access) granting others read
 *    and write: the kernel folds it into the mode, 0640 becomes 0646;
 *  - sets user.redteam, where the file system has user attributes;
 *  - reads user.secret, which the parent sets after the child locked.
 * Tried with unveil alone and under the promises the calls need.
 */
#include <sys/stat.h>
#include <sys/xattr.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define ACL_VERSION	2
#define USER_OBJ	0x01
#define GROUP_OBJ	0x04
#define OTHER		0x20

struct attempt {
	int		 tamed;
	const char	*promises;
	const char	*file;
};

/* What the child read of user.secret. */
struct seen {
	char		 secret[64];
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct { uint32_t version; struct { uint16_t tag, perm; uint32_t id; }
	    e[3]; } acl = { ACL_VERSION, { { USER_OBJ, 6, ~0u },
	    { GROUP_OBJ, 4, ~0u }, { OTHER, 6, ~0u } } };
	struct seen s;

	memset(&s, 0, sizeof(s));
	if (a->tamed)
		rt_hide(a->promises);
	rt_ready();
	rt_await_go();
	setxattr(a->file, "system.posix_acl_access", &acl, sizeof(acl), 0);
	setxattr(a->file, "user.redteam", "set", 3, 0);
	getxattr(a->file, "user.secret", s.secret, sizeof(s.secret) - 1);
	rt_tell(&s, sizeof(s));
	return 0;
}

/* 1: the ACL took, 2: user.redteam was set, 4: user.secret read */
static int
try(struct attempt *a)
{
	struct rt_kid k;
	struct seen s;
	struct stat st;
	char secret[32], b[8];
	int r = 0;

	removexattr(a->file, "user.redteam");
	removexattr(a->file, "user.secret");
	if (chmod(a->file, 0640) == -1)
		rt_fatal("%s", a->file);
	memset(&s, 0, sizeof(s));
	rt_spawn(&k, attack, a);
	if (rt_heard(&k) == 0) {
		snprintf(secret, sizeof(secret), "s%ld", random());
		setxattr(a->file, "user.secret", secret, strlen(secret), 0);
		rt_go(&k);
		if (rt_listen(&k, &s, sizeof(s)) == sizeof(s) &&
		    strcmp(s.secret, secret) == 0)
			r |= 4;
	}
	rt_reap(&k);
	rt_check(k.status);
	if (stat(a->file, &st) == 0 && (st.st_mode & 0777) == 0646)
		r |= 1;
	if (getxattr(a->file, "user.redteam", b, sizeof(b)) == 3)
		r |= 2;
	return r;
}

static const char *
words(int r)
{
	static char b[160];

	snprintf(b, sizeof(b), "%s%s%s%s%s",
	    r & 1 ? "a POSIX ACL gave others rw on hidden/file" : "",
	    r & 1 && r & 6 ? ", " : "",
	    r & 2 ? "user.redteam was set" : "", r & 2 && r & 4 ? ", " : "",
	    r & 4 ? "user.secret was read" : "");
	return b;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL,
	    "stdio rpath wpath fattr" };
	struct attempt a = { 0 };
	int fd, can, r;
	size_t i;

	rt_init(argc, argv);
	rt_two_dirs();
	a.file = rt_path("hidden/file");
	if ((fd = open(a.file, O_WRONLY | O_CREAT, 0640)) == -1)
		rt_fatal("%s", a.file);
	close(fd);
	if ((can = try(&a)) == 0) {
		rt_na("untamed, neither ACLs nor user attributes work on this "
		    "file system");
		return rt_finish();
	}
	if (can != 7)
		rt_na("untamed, only %s (the file system's attributes)",
		    words(can));
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		if ((r = try(&a) & can) != 0)
			rt_escaped("%s: %s", rt_hide_label(a.promises),
			    words(r));
		else
			rt_held("%s: no attribute of hidden/file set or read",
			    rt_hide_label(a.promises));
	}
	return rt_finish();
}
