/* SPDX-License-Identifier: ISC */
/*
 * replay.h: the kernel's constant-action cache check, replayed in user
 * space (t_cache.c says what the kernel does and which instructions it
 * understands).  t_cache proves the compiled programs cached as the
 * table promises; bench/attach.c counts the steps the replay takes, a
 * part of what attaching a program costs.
 */
#ifndef TAME_REPLAY_H
#define TAME_REPLAY_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <stdint.h>

/*
 * The architecture's other (compat) entry point: the kernel replays a
 * filter for its numbers too, and tame()'s arch check kills them.
 */
#if defined(__x86_64__)
#define REPLAY_COMPAT_ARCH	AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define REPLAY_COMPAT_ARCH	AUDIT_ARCH_ARM
#endif

/*
 * seccomp_is_const_allow() on one (arch, nr): 1 if the program allows the
 * call whatever else it holds.  With steps not NULL, adds the number of
 * instructions the walk visited.
 */
int	replay_const_allow(const struct sock_filter *f, int len, uint32_t arch,
	    int nr, long *steps);

#endif
