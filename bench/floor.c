/* SPDX-License-Identifier: ISC */
/*
 * floor.c: tame() replaced by the cheapest seccomp filter there is, one
 * RET ALLOW, for the benchmarks only.  Linked with ports/cat/cat.c it
 * makes cat-floor: what any filter at all costs a whole cat process on
 * this machine (attaching it, the slower system call entry, releasing
 * it at exit), the floor under tame-cat's ratio.
 */
#include "config.h"

int
tame(int flags)
{
	(void)flags;
	return config_load_allow1();
}
