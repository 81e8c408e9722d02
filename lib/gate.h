/* SPDX-License-Identifier: ISC */
/*
 * gate.h: libtame's own system call instruction.
 *
 * The filter lets a few calls through only when they return to this one
 * address (seccomp_data.instruction_pointer): the violation report on
 * stderr, the paths tame() hands to Landlock, the handler's checked
 * calls.  Never a signal: those to self are allowed by their target.
 * The program's own calls of the same kind go through its own syscall
 * instructions and get the policy.
 */
#ifndef TAME_GATE_H
#define TAME_GATE_H

#include <stdint.h>

/* A raw system call: returns the result, or -errno. */
long	tame__gate(long nr, long a0, long a1, long a2, long a3, long a4,
	    long a5);

/* The address the kernel reports for a call made through the gate. */
uint64_t tame__gate_ip(void);

#endif /* TAME_GATE_H */
