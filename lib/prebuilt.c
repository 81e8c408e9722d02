/* SPDX-License-Identifier: ISC */
/*
 * prebuilt.c: a filter without compiling, where the build made it
 * already.  tools/precompile.c compiles the first filters of the flag
 * sets in lib/precompiled.sets, and the deltas of the narrowings listed
 * there, with placeholders for the process's own values; tame() of such
 * a set copies one and writes its pid in (tame_prog_relocate),
 * instead of reading the whole table and planning the tree: the larger
 * part of the call's own work.  t_oracle requires each to equal
 * tame_compile()'s program for the same targets, instruction for
 * instruction.
 */
#include <string.h>

#include "compile.h"

const struct tame_precompiled *
tame_precompiled_find(const struct tame_target *next,
    const struct tame_target *prev)
{
	const struct tame_precompiled *pc;
	int i;

	/*
	 * Compiled for one process: a pid of 0 (rows that never match) is
	 * not, nor a delta over a parent's filter (its rows for self differ).
	 */
	if (next->pid <= 0 || (prev != NULL && (prev->pid != next->pid ||
	    prev->landlock_ok != 1)))
		return NULL;
	for (i = 0; i < tame__nprecompiled; i++) {
		pc = &tame__precompiled[i];
		if (pc->held == next->held &&
		    pc->landlock_ok == next->landlock_ok &&
		    pc->prev_held == (prev != NULL ? prev->held :
		    TAME_PRE_FIRST))
			return pc;
	}
	return NULL;
}

int
tame_compile_fast(const struct tame_target *next,
    const struct tame_target *prev, struct tame_prog *out)
{
	const struct tame_precompiled *pc;

	pc = tame_precompiled_find(next, prev);
	if (pc == NULL)
		return tame_compile(next, prev, out);
	out->len = pc->len;
	out->changed = pc->changed;
	out->nreloc = pc->nreloc;
	memcpy(out->reloc, &tame__precompiled_reloc[pc->reloc_at],
	    (size_t)pc->nreloc * sizeof(out->reloc[0]));
	memcpy(out->insn, &tame__precompiled_insn[pc->insn_at],
	    (size_t)pc->len * sizeof(out->insn[0]));
	tame_prog_relocate(out, next->pid);
	return 0;
}
