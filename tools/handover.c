/* SPDX-License-Identifier: ISC */
/*
 * handover.c: a compiled first filter through a sealed memfd, from
 * tame-exec's launcher to its shim (handover.h says why and how).
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "handover.h"

#define RELOC_AT	sizeof(struct handover_header)
#define INSN_AT(n)	(RELOC_AT + (size_t)(n) * sizeof(struct tame_reloc))
#define FILE_SIZE(n, len) \
	(INSN_AT(n) + (size_t)(len) * sizeof(struct sock_filter))

/* Header, relocations and instructions: one write, one file. */
static unsigned char file[FILE_SIZE(TAME_MAXRELOC, TAME_MAXINSN)];

int
handover_write(const struct tame_target *t, const struct tame_prog *p)
{
	struct handover_header h = {
		.version = HANDOVER_VERSION,
		.build_id = tame__build_id,
		.held = t->held,
		.landlock_ok = t->landlock_ok,
		.pid = t->pid,
		.changed = p->changed,
		.len = (uint16_t)p->len,
		.nreloc = (uint16_t)p->nreloc,
	};
	size_t size = FILE_SIZE(p->nreloc, p->len);
	int fd, saved;

	memcpy(h.magic, HANDOVER_MAGIC, sizeof(h.magic));
	h.size = (uint32_t)size;
	memcpy(file, &h, sizeof(h));
	memcpy(file + RELOC_AT, p->reloc, (size_t)p->nreloc *
	    sizeof(p->reloc[0]));
	memcpy(file + INSN_AT(p->nreloc), p->insn, (size_t)p->len *
	    sizeof(p->insn[0]));

	/* not close-on-exec: the program the launcher becomes reads it */
	if ((fd = memfd_create("tame-exec filter", MFD_ALLOW_SEALING)) == -1)
		return -1;
	if (fd <= 2) {
		/* 0, 1 or 2 were closed: they must stay so for the program */
		saved = fd;
		fd = fcntl(saved, F_DUPFD, 3);
		close(saved);
		if (fd == -1)
			return -1;
	}
	if (write(fd, file, size) != (ssize_t)size ||
	    fcntl(fd, F_ADD_SEALS, HANDOVER_SEALS) == -1) {
		saved = errno != 0 ? errno : EIO;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int
handover_read(int fd, struct tame_target *t, struct tame_prog *p,
    const char **why)
{
	struct handover_header h;
	struct stat st;
	int i, seals;

	/* only a memfd (or shmem file) has seals; nobody can change it */
	if ((seals = fcntl(fd, F_GET_SEALS)) == -1 ||
	    (seals & HANDOVER_SEALS) != HANDOVER_SEALS) {
		*why = "not a memfd sealed against every change";
		return -1;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)sizeof(h) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h.magic, HANDOVER_MAGIC, sizeof(h.magic)) != 0) {
		*why = "no handed-over filter in it";
		return -1;
	}
	if (h.version != HANDOVER_VERSION || h.build_id != tame__build_id) {
		*why = "written by another build of libtame";
		return 1;
	}
	if (h.pid != getpid()) {
		*why = "made for another process";
		return 1;
	}
	if (h.len == 0 || h.len > TAME_MAXINSN || h.nreloc > TAME_MAXRELOC ||
	    h.reserved != 0 || h.size != FILE_SIZE(h.nreloc, h.len) ||
	    st.st_size != (off_t)h.size) {
		*why = "its lengths do not add up";
		return 1;
	}
	if (pread(fd, p->reloc, (size_t)h.nreloc * sizeof(p->reloc[0]),
	    RELOC_AT) != (ssize_t)(h.nreloc * sizeof(p->reloc[0])) ||
	    pread(fd, p->insn, (size_t)h.len * sizeof(p->insn[0]),
	    INSN_AT(h.nreloc)) != (ssize_t)(h.len * sizeof(p->insn[0]))) {
		*why = "cannot be read";
		return 1;
	}
	/* a relocation rewrites a compare's constant, nothing else */
	for (i = 0; i < h.nreloc; i++)
		if (p->reloc[i].at >= h.len ||
		    p->reloc[i].kind > TAME_RELOC_PID ||
		    p->insn[p->reloc[i].at].code != (BPF_JMP | BPF_JEQ |
		    BPF_K)) {
			*why = "a relocation points outside its compares";
			return 1;
		}
	t->held = h.held;
	t->landlock_ok = h.landlock_ok;
	t->pid = h.pid;
	p->len = h.len;
	p->nreloc = h.nreloc;
	p->changed = h.changed;
	return 0;
}
