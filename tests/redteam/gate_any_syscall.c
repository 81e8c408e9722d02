/* SPDX-License-Identifier: ISC */
/*
 * gate_any_syscall.c: every system call instruction of the program,
 * whatever follows it (issue 46, the gate: no trusted address).
 *
 * gate_openat2.c jumps to each "syscall; ret", from which the attacker
 * gets control back.  A filter that trusts any address at all can be
 * met from a system call instruction followed by anything: the call is
 * made, its effect stays, and whatever runs next may crash.  This tries
 * every system call instruction (and every byte pair that decodes as
 * one) in the program's own code, where libtame is linked: openat2 with
 * O_CREAT after pledge("stdio exec", "stdio"), where no Landlock layer
 * is made.  Each child runs in the scratch directory, with an alarm of
 * 5 s for code that loops; the parent looks for the files.
 */
#include <sys/syscall.h>
#include <linux/openat2.h>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	uint64_t	 at;
	const char	*made;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	struct open_how how = { .flags = O_WRONLY | O_CREAT, .mode = 0600 };
	struct rt_regs r = { SYS_openat2, { AT_FDCWD, (long)a->made,
	    (long)&how, sizeof(how) } };

	/* what runs after the call is anyone's guess: keep it here */
	if (chdir(rt_dir()) == -1)
		return RT_SETUP;
	alarm(5);
	if (a->tamed)
		rt_pledge("stdio exec", "stdio");
	rt_jump(a->at, &r);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct attempt a = { 0 };
	struct rt_kid k;
	int n, i;

	rt_init(argc, argv);
	a.made = rt_path("made");
	if ((n = rt_svcs(g, RT_MAXGADGETS)) == 0) {
		rt_na("no system call instruction in the program's code");
		return rt_finish();
	}
	/* the control: untamed, a "syscall; ret" makes the file */
	if (rt_gadgets(g + n, 1) == 1) {
		a.at = g[n].addr;
		rt_spawn(&k, attack, &a);
		rt_reap(&k);
	}
	if (!rt_exists(a.made)) {
		rt_na("untamed, openat2 through a system call instruction "
		    "made no file");
		return rt_finish();
	}
	unlink(a.made);
	a.tamed = 1;
	for (i = 0; i < n; i++) {
		a.at = g[i].addr;
		rt_spawn(&k, attack, &a);
		rt_reap(&k);
		rt_check(k.status);
		if (rt_exists(a.made)) {
			rt_escaped("pledge(\"stdio exec\", \"stdio\"): openat2 "
			    "from the system call instruction at %s created a "
			    "file", g[i].where);
			return rt_finish();
		}
	}
	rt_held("pledge(\"stdio exec\", \"stdio\"): none of %d system call "
	    "instructions of the program created a file", n);
	return rt_finish();
}
