/* SPDX-License-Identifier: ISC */
/*
 * handover.h: a compiled first filter, from tame-exec's launcher to its
 * shim in the program it execs.
 *
 * The launcher compiles the filter for the process it is about to
 * become (exec keeps the pid) and leaves it in a sealed memfd, named by
 * TAME_EXEC_PROGRAM=<descriptor>; the shim reads it back and offers it
 * to tame() (lib/prebuilt.c), which takes it only for exactly the
 * target it was made for, and compiles otherwise.  Sets the build
 * precompiled are not handed over: the shim copies its own.
 *
 * The file: a header, the relocations, the instructions.  Nothing in it
 * is taken on trust beyond what the seals and these checks prove: that
 * nobody can change it any more, that this build wrote it, and that
 * every length and relocation is in range.
 */
#ifndef TAME_HANDOVER_H
#define TAME_HANDOVER_H

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "compile.h"
#include "policy.h"
#include "tame.h"
#include "tame_int.h"

#define HANDOVER_ENV		"TAME_EXEC_PROGRAM"
#define HANDOVER_MAGIC		"tame-prg"	/* 8 bytes, no NUL */
#define HANDOVER_VERSION	1
#define HANDOVER_GATE		0x1000ULL	/* placeholder: relocated */
/* Everything that could change the file once it is checked. */
#define HANDOVER_SEALS	(F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | \
			 F_SEAL_WRITE)

struct handover_header {
	char		 magic[8];
	uint32_t	 version;
	uint32_t	 size;		/* of the whole file */
	uint64_t	 build_id;	/* tame__build_id of the writer */
	int32_t		 held;		/* the tame_target it is for */
	int32_t		 landlock_ok;
	int32_t		 pid;
	int32_t		 changed;	/* the tame_prog's */
	uint16_t	 len;
	uint16_t	 nreloc;
	uint32_t	 reserved;	/* 0 */
};

/*
 * The target the shim's first tame(flags) will most likely compute in
 * the process this one execs: Landlock as this kernel has it, and no
 * AF_UNIX socket held where that call looks for one (a launcher holds
 * none).  Where the shim computes another, it compiles: a wrong guess
 * costs time, never the filter.  (Inline: the shim, which reads
 * handovers, links no part of this.)
 */
static inline void
handover_target(int flags, struct tame_target *t)
{
	t->held = tame_expand(flags);
	if (tame__nounix_considered(t->held))
		t->held |= TAME__NOUNIX;
	t->landlock_ok = tame_landlock_abi() > 0;
	t->pid = getpid();	/* exec keeps it */
}

/*
 * Write p, compiled for t with HANDOVER_GATE, to a new sealed memfd that
 * survives exec.  Returns its descriptor (never 0, 1 or 2), or -1 with
 * errno.
 */
int	handover_write(const struct tame_target *t, const struct tame_prog *p);

/*
 * Read what handover_write() left in fd into t and p, if it is that: a
 * memfd sealed against every change, of this build, for this process,
 * and well formed.  Returns 0; or -1 with *why saying what it is not,
 * when fd is no handover at all (not sealed, not ours: the caller must
 * leave it alone, it is somebody's descriptor); or 1 with *why, when it
 * is one that will not do (another build or process, malformed: the
 * caller closes it).
 */
int	handover_read(int fd, struct tame_target *t, struct tame_prog *p,
	    const char **why);

#endif /* TAME_HANDOVER_H */
