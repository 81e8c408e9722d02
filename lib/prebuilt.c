/*
 * prebuilt.c: the first filter without compiling, where the build made
 * it already.  tools/precompile.c compiles the first filters of the
 * flag sets in lib/precompiled.sets with placeholders for the process's
 * own values; the first tame() of such a set copies one and writes its
 * gate and pid in (tame_prog_relocate), instead of reading the whole
 * table and planning the tree: the larger part of a first call's own
 * work.  t_oracle requires each to equal tame_compile()'s program for
 * the same target, instruction for instruction.
 */
#include <string.h>

#include "compile.h"

const struct tame_precompiled *
tame_precompiled_find(const struct tame_target *next)
{
	int i;

	/* compiled for a pid: a pid of 0 (rows that never match) is not */
	for (i = 0; i < tame__nprecompiled && next->pid > 0; i++)
		if (tame__precompiled[i].held == next->held &&
		    tame__precompiled[i].landlock_ok == next->landlock_ok)
			return &tame__precompiled[i];
	return NULL;
}

int
tame_compile_first(const struct tame_target *next, uint64_t gate,
    struct tame_prog *out)
{
	const struct tame_precompiled *pc = tame_precompiled_find(next);

	if (pc == NULL)
		return tame_compile(next, NULL, gate, out);
	out->len = pc->len;
	out->changed = 1;
	out->nreloc = pc->nreloc;
	memcpy(out->reloc, pc->reloc, (size_t)pc->nreloc * sizeof(*pc->reloc));
	memcpy(out->insn, pc->insn, (size_t)pc->len * sizeof(*pc->insn));
	tame_prog_relocate(out, gate, next->pid);
	return 0;
}
