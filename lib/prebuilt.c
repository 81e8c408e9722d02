/* SPDX-License-Identifier: ISC */
/*
 * prebuilt.c: a filter without compiling, where one was made already.
 * tools/precompile.c compiles at build time the first filters of the
 * flag sets in lib/precompiled.sets, and the deltas of the narrowings
 * listed there, with placeholders for the process's own values; tame()
 * of such a set copies one and writes its gate and pid in
 * (tame_prog_relocate), instead of reading the whole table and planning
 * the tree: the larger part of the call's own work.  tame-exec's
 * launcher does the same for any other set, for the process it execs
 * (tools/handover.c), and offers it here.  t_oracle requires both kinds
 * to equal tame_compile()'s program for the same targets, instruction
 * for instruction.
 */
#include <string.h>

#include "compile.h"

/* The one program offered for this process's first filter (compile.h). */
static struct {
	struct tame_target	 target;
	const struct tame_prog	*prog;
} offered;

void
tame__offer(const struct tame_target *t, const struct tame_prog *p)
{
	if (p != NULL)
		offered.target = *t;
	offered.prog = p;
}

int
tame__offer_pending(void)
{
	return offered.prog != NULL;
}

/* A program made elsewhere, copied into out and made this process's. */
static void
copy_relocated(struct tame_prog *out, int len, int changed, int nreloc,
    const struct tame_reloc *reloc, const struct sock_filter *insn,
    uint64_t gate, int pid)
{
	out->len = len;
	out->changed = changed;
	out->nreloc = nreloc;
	memcpy(out->reloc, reloc, (size_t)nreloc * sizeof(out->reloc[0]));
	memcpy(out->insn, insn, (size_t)len * sizeof(out->insn[0]));
	tame_prog_relocate(out, gate, pid);
}

/*
 * The offered program, where it was made for exactly this first filter:
 * everything a program depends on is in the target (compile.h), and the
 * placeholders for the gate are rewritten as in a precompiled one.
 */
static int
take_offered(const struct tame_target *next, const struct tame_target *prev,
    uint64_t gate, struct tame_prog *out)
{
	const struct tame_prog *p = offered.prog;

	if (p == NULL || prev != NULL || next->pid <= 0 ||
	    offered.target.held != next->held ||
	    offered.target.landlock_ok != next->landlock_ok ||
	    offered.target.pid != next->pid)
		return -1;
	offered.prog = NULL;		/* once */
	copy_relocated(out, p->len, p->changed, p->nreloc, p->reloc, p->insn,
	    gate, next->pid);
	return 0;
}

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
    const struct tame_target *prev, uint64_t gate, struct tame_prog *out)
{
	const struct tame_precompiled *pc = tame_precompiled_find(next, prev);

	if (pc == NULL && take_offered(next, prev, gate, out) == 0)
		return 0;
	if (pc == NULL)
		return tame_compile(next, prev, gate, out);
	copy_relocated(out, pc->len, pc->changed, pc->nreloc,
	    &tame__precompiled_reloc[pc->reloc_at],
	    &tame__precompiled_insn[pc->insn_at], gate, next->pid);
	return 0;
}
