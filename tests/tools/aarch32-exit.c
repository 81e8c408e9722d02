/* SPDX-License-Identifier: ISC */
/*
 * A 32-bit ARM (AArch32) program without any library: it writes
 * "aarch32\n" to its standard output and exits 0, both through the ARM
 * EABI system call entry (svc 0, number in r7: write 4, exit 1).
 * tests/t_bypass.c runs it on arm64: untamed, it shows that the CPU and
 * kernel run AArch32 programs at all; a tamed process cannot exec it
 * (no exec after tame()), nor can tame-exec run it.  Built by cross.mk with
 * arm-linux-gnueabihf-gcc -marm -nostdlib -static; not part of the
 * native build (the tools rule builds tests/tools/%.c with $(CC): this
 * file's name is listed in no TOOL_BINS).
 */

static long
arm_call(long nr, long a, long b, long c)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r7 __asm__("r7") = nr;

	__asm__ volatile("svc 0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7)
	    : "memory");
	return r0;
}

void
_start(void)
{
	static const char msg[] = "aarch32\n";

	arm_call(4, 1, (long)msg, sizeof(msg) - 1);	/* write */
	for (;;)
		arm_call(1, 0, 0, 0);			/* exit */
}
