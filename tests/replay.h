/*
 * replay.h: the kernel's constant-action cache check, replayed in user
 * space (t_cache.c says what the kernel does and which instructions it
 * understands).  t_cache proves the compiled programs cached as the
 * table promises; bench/attach.c counts the steps the replay takes, a
 * part of what attaching a program costs.
 */
#ifndef TAME_REPLAY_H
#define TAME_REPLAY_H

#include <linux/filter.h>
#include <stdint.h>

/*
 * seccomp_is_const_allow() on one (arch, nr): 1 if the program allows the
 * call whatever else it holds.  With steps not NULL, adds the number of
 * instructions the walk visited.
 */
int	replay_const_allow(const struct sock_filter *f, int len, uint32_t arch,
	    int nr, long *steps);

#endif
