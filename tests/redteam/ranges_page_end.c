/* SPDX-License-Identifier: ISC */
/*
 * ranges_page_end.c: a system call in the last bytes of a code page,
 * which the filter counts as outside the pledged image (issue 46, the
 * instruction-pointer ranges).
 *
 * With exec held and NULL execpromises, a call from outside the
 * executable mappings recorded at pledge() is judged as an exec'd
 * image's: unpledged.  The kernel reports the address after the system
 * call instruction, so one that ends a mapping reports the mapping's
 * end, which no range holds.  The attacker needs no new code: a page
 * mapped executable before the pledge, ending in a system call (the
 * return that cannot follow it is a fault its own handler turns into
 * one).  Tried after pledge("stdio exec", NULL) and after a later
 * pledge("stdio", NULL) that drops exec, which must leave nothing of
 * the earlier "outside: allow" behind.  The effects: socket(AF_INET)
 * connecting to the parent, a file created, SIGUSR1 sent to the parent.
 */
#include <sys/socket.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int			 tamed;		/* 0: control, 1, 2 pledges */
	const struct rt_listener *l;
	const char		*made;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	long pg = sysconf(_SC_PAGESIZE), s;
	unsigned char *page;
	uint64_t at;
	struct rt_regs r;

	rt_fault_returns();
	page = rt_code_page(rt_svc, rt_svc_len, 1);
	at = (uint64_t)(uintptr_t)page + (uint64_t)pg - rt_svc_len;
	if (a->tamed >= 1)
		rt_pledge("stdio exec", NULL);
	if (a->tamed >= 2)
		rt_pledge("stdio", NULL);
	r = (struct rt_regs){ SYS_socket, { AF_INET, SOCK_STREAM } };
	if ((s = rt_jump(at, &r)) >= 0) {
		r = (struct rt_regs){ SYS_connect, { s, (long)&a->l->addr,
		    sizeof(a->l->addr) } };
		rt_jump(at, &r);
	}
	r = (struct rt_regs){ SYS_openat, { AT_FDCWD, (long)a->made,
	    O_WRONLY | O_CREAT, 0600 } };
	rt_jump(at, &r);
	r = (struct rt_regs){ SYS_kill, { getppid(), SIGUSR1 } };
	rt_jump(at, &r);
	return 0;
}

/* What got out, as words; "" for nothing. */
static const char *
try(struct attempt *a)
{
	static char what[128];
	struct rt_kid k;

	unlink(a->made);
	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	what[0] = '\0';
	if (rt_connected((struct rt_listener *)a->l))
		strcat(what, ", socket(AF_INET) connected to the parent");
	if (rt_exists(a->made))
		strcat(what, ", a file was created");
	if (rt_got_usr1())
		strcat(what, ", the parent got SIGUSR1");
	return what[0] ? what + 2 : what;
}

int
main(int argc, char **argv)
{
	static const char *const label[] = { "untamed",
	    "pledge(\"stdio exec\", NULL)",
	    "pledge(\"stdio exec\", NULL) then pledge(\"stdio\", NULL)" };
	struct rt_listener l;
	struct attempt a = { 0 };
	const char *what;

	rt_init(argc, argv);
	rt_block_usr1();
	rt_listen_inet(&l);
	a.l = &l;
	a.made = rt_path("made");
	if (strcmp(what = try(&a), "socket(AF_INET) connected to the "
	    "parent, a file was created, the parent got SIGUSR1") != 0) {
		rt_na("untamed, calls from a page's last bytes did not all "
		    "work (%s)", what);
		return rt_finish();
	}
	for (a.tamed = 1; a.tamed <= 2; a.tamed++) {
		if (*(what = try(&a)) != '\0')
			rt_escaped("%s: from a system call ending a code page: "
			    "%s", label[a.tamed], what);
		else
			rt_held("%s: from a system call ending a code page, "
			    "nothing", label[a.tamed]);
	}
	return rt_finish();
}
