/* SPDX-License-Identifier: ISC */
/*
 * sys.c: a raw system call that returns -errno (sys.h).  In assembly so
 * that no errno, cancellation point or signal mask of libc's comes with
 * it: the SIGSYS handler and tame() in a process that may already be
 * tamed call it.
 */
#include "sys.h"

#if defined(__x86_64__)
__asm__(
	".text\n"
	".globl tame__sys\n"
	".hidden tame__sys\n"
	".type tame__sys, @function\n"
	"tame__sys:\n"
	"	movq %rdi, %rax\n"
	"	movq %rsi, %rdi\n"
	"	movq %rdx, %rsi\n"
	"	movq %rcx, %rdx\n"
	"	movq %r8, %r10\n"
	"	movq %r9, %r8\n"
	"	movq 8(%rsp), %r9\n"
	"	syscall\n"
	"	ret\n"
	".size tame__sys, .-tame__sys\n");
#elif defined(__aarch64__)
__asm__(
	".text\n"
	".globl tame__sys\n"
	".hidden tame__sys\n"
	".type tame__sys, %function\n"
	"tame__sys:\n"
	"	mov x8, x0\n"
	"	mov x0, x1\n"
	"	mov x1, x2\n"
	"	mov x2, x3\n"
	"	mov x3, x4\n"
	"	mov x4, x5\n"
	"	mov x5, x6\n"
	"	svc #0\n"
	"	ret\n"
	".size tame__sys, .-tame__sys\n");
#else
#error "libtame knows x86-64 and aarch64"
#endif
