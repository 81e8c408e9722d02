/* SPDX-License-Identifier: ISC */
/*
 * floor.c: tame() replaced by the cheapest seccomp filter there is, one
 * RET ALLOW, for the benchmarks only.  Linked with ports/cat/cat.c it
 * makes cat-floor: what any filter at all costs a whole cat process on
 * this machine (attaching it, the slower system call entry, releasing
 * it at exit), the floor under tame-cat's ratio.  Linked with
 * tools/preload.c it is tame-exec's floor's shim: a filter the launcher
 * hands over is read as the real shim reads it, and not used.
 */
#include "compile.h"
#include "config.h"

void
tame__offer(const struct tame_target *t, const struct tame_prog *p)
{
	(void)t;
	(void)p;
}

int
tame(int flags)
{
	(void)flags;
	return config_load_allow1();
}
