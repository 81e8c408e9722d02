/* SPDX-License-Identifier: ISC */
/*
 * gate_openat2.c: a "syscall; ret" found in the process's own code,
 * jumped to with openat2's registers, where no Landlock layer stands
 * behind the filter (issue 46, the gate).
 *
 * libtame's SIGSYS handler makes the calls it emulates through one
 * system call instruction, and the filter lets calls from that address
 * through.  Code inside the process can jump there with registers of its
 * own.  Where a Landlock layer backs the filter the damage is bounded by
 * the layer (gate_stat.c, gate_sendfd.c); where none does, nothing is:
 *
 *  - pledge("stdio exec", "stdio"): no layer is made while exec is held;
 *  - a first pledge("stdio") in a process with a second thread: no layer
 *    binds threads that already run.
 *
 * The attacker scans its executable mappings for every "syscall; ret"
 * (as an exploit would: no symbol of libtame is used) and tries each in
 * a fresh child: openat2 (then openat) of the secret, its bytes sent to
 * the parent, and of a new file in the scratch directory.  The parent
 * compares the bytes with the secret and looks for the file.
 */
#include <sys/syscall.h>
#include <linux/openat2.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	const char		*promises, *execpromises;
	int			 threaded;	/* a second thread at pledge */
	int			 tamed;		/* 0: the control */
	uint64_t		 gadget;
	const struct rt_secret	*secret;
	const char		*made;
};

/* open through the gadget: openat2, and openat where that fails */
static long
open_through(uint64_t g, const char *path, int flags)
{
	/* openat2 refuses a mode without O_CREAT */
	struct open_how how = { .flags = (uint64_t)flags,
	    .mode = flags & O_CREAT ? 0600 : 0 };
	struct rt_regs r2 = { SYS_openat2, { AT_FDCWD, (long)path,
	    (long)&how, sizeof(how) } };
	struct rt_regs r1 = { SYS_openat, { AT_FDCWD, (long)path, flags,
	    0600 } };
	long fd;

	if ((fd = rt_jump(g, &r2)) >= 0)
		return fd;
	return rt_jump(g, &r1);
}

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	char buf[4096];
	long fd;
	ssize_t n;

	if (a->threaded)
		rt_second_thread();
	if (a->tamed)
		rt_pledge(a->promises, a->execpromises);
	if ((fd = open_through(a->gadget, a->secret->path, O_RDONLY)) >= 0 &&
	    (n = read((int)fd, buf, sizeof(buf))) > 0)
		rt_tell(buf, (size_t)n);
	fd = open_through(a->gadget, a->made, O_WRONLY | O_CREAT);
	rt_sh->ret = fd;
	return 0;
}

/* One try: did the secret come out, was the file made? */
static int
try(struct attempt *a, char *what, size_t len)
{
	struct rt_kid k;
	char buf[4096];
	size_t n;
	int read_it, made;

	unlink(a->made);
	rt_spawn(&k, attack, a);
	n = rt_listen(&k, buf, sizeof(buf));
	rt_reap(&k);
	read_it = rt_secret_in(a->secret, buf, n);
	made = rt_exists(a->made);
	snprintf(what, len, "%s%s%s", read_it ? "read " : "",
	    read_it ? a->secret->label : "", read_it && made ?
	    " and created a file" : made ? "created a file" : "");
	rt_check(k.status);
	return read_it || made;
}

static void
variant(const char *label, struct attempt *a, const struct rt_gadget *g,
    int n)
{
	char what[PATH_MAX + 64];
	int i;

	/* the control: untamed, the first gadget opens and creates */
	a->tamed = 0;
	a->gadget = g[0].addr;
	if (!try(a, what, sizeof(what)) || !strstr(what, "and created")) {
		rt_na("%s: untamed, openat2/openat through a \"syscall; "
		    "ret\" did not read and create (%s)", label, what);
		return;
	}
	a->tamed = 1;
	for (i = 0; i < n; i++) {
		a->gadget = g[i].addr;
		if (try(a, what, sizeof(what))) {
			rt_escaped("%s: openat2 through the \"syscall; ret\" "
			    "at %s %s", label, g[i].where, what);
			return;
		}
	}
	rt_held("%s: none of %d \"syscall; ret\" opened or created", label,
	    n);
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct rt_secret secret;
	struct attempt a = { 0 };
	int n;

	rt_init(argc, argv);
	rt_secret(&secret, NULL);
	a.secret = &secret;
	a.made = rt_path("made");
	if ((n = rt_gadgets(g, RT_MAXGADGETS)) == 0) {
		rt_na("no \"syscall; ret\" in this process's code");
		return rt_finish();
	}
	a.promises = "stdio exec";
	a.execpromises = "stdio";
	variant("pledge(\"stdio exec\", \"stdio\")", &a, g, n);
	a.promises = "stdio";
	a.execpromises = NULL;
	a.threaded = 1;
	variant("two threads at pledge(\"stdio\")", &a, g, n);
	return rt_finish();
}
