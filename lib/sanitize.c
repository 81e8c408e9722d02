/* SPDX-License-Identifier: ISC */
/*
 * sanitize.c: built only by make SANITIZE=1, and linked only into the
 * programs that tame themselves (the Makefile's "Sanitizers" block).
 *
 * AddressSanitizer's leak check runs at exit and stops the world first:
 * it clones a thread that ptrace-attaches to the others.  After tame()
 * both are violations, so a tamed program would die of SIGSYS on its
 * way out; under strace (tame-audit, the tests) the attach fails and the
 * check ends the program with a fatal error instead.  So these programs
 * start with the leak check off.
 *
 * Under tame-exec, the preload shim is the first library of the process
 * and ASan's runtime refuses to start anywhere but first, lest a library
 * before it take calls it must intercept.  The shim defines no function
 * of the C library but its exec family, posix_spawn, system and popen,
 * and passes each on to the next definition (dlsym RTLD_NEXT), which is
 * ASan's where it intercepts one (posix_spawn, posix_spawnp, popen): so
 * the ports skip that check.
 *
 * ASAN_OPTIONS in the environment still decides over both.
 */

/* ASan's runtime asks for this once, before main(). */
__attribute__((visibility("default"))) const char *
__asan_default_options(void)
{
	return "detect_leaks=0:verify_asan_link_order=0";
}
