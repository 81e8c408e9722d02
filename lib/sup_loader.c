/* SPDX-License-Identifier: ISC */
/*
 * sup_loader.c: is a file a shared object that runs as a program?
 *
 * Landlock's execute right, which unveil's x is, is checked at execve:
 * of the file exec'd and its interpreter.  The dynamic loader run as a
 * program ("ld.so PROGRAM", also glibc's libc.so.6 and musl's libc.so)
 * maps PROGRAM with mmap, which needs only read access: a file unveiled
 * without x would run.  Under unveil the supervisor refuses such an
 * image: at the exec where it reads the path, and at the image's first
 * call it sees (the loader stats the program before running any of its
 * code), so that a path rewritten between its look and the kernel's
 * gains nothing.
 *
 * A shared object is told from a program by its ELF headers alone: of
 * type ET_DYN, with no interpreter (a position-independent program
 * names one), and not marked DF_1_PIE (a static position-independent
 * program is).  A copy of the loader elsewhere is one too, and so is
 * musl's, which names no DT_SONAME.
 */
#include <sys/syscall.h>

#include <elf.h>
#include <stdint.h>
#include <string.h>

#include "sup_int.h"
#include "sys.h"

#define MAXPHDR		64
#define MAXDYN		512

static long
pread_at(int fd, void *buf, size_t len, uint64_t off)
{
	return tame__sys(SYS_pread64, fd, (long)buf, (long)len, (long)off, 0,
	    0);
}

/* The headers, as one shape for both classes. */
struct seg {
	uint32_t	 type;
	uint64_t	 off, size;
};

static int
segments(int fd, int wide, uint64_t phoff, int n, struct seg *s)
{
	Elf64_Phdr p64[MAXPHDR];
	Elf32_Phdr p32[MAXPHDR];
	size_t len = (size_t)n * (wide ? sizeof(p64[0]) : sizeof(p32[0]));
	int i;

	if (n > MAXPHDR || pread_at(fd, wide ? (void *)p64 : (void *)p32, len,
	    phoff) != (long)len)
		return -1;
	for (i = 0; i < n; i++) {
		s[i].type = wide ? p64[i].p_type : p32[i].p_type;
		s[i].off = wide ? p64[i].p_offset : p32[i].p_offset;
		s[i].size = wide ? p64[i].p_filesz : p32[i].p_filesz;
	}
	return 0;
}

/* Does the dynamic section at s mark a program (DT_FLAGS_1, DF_1_PIE)? */
static int
marked_pie(int fd, int wide, const struct seg *s)
{
	static char buf[MAXDYN * sizeof(Elf64_Dyn)];
	size_t len = s->size < sizeof(buf) ? (size_t)s->size : sizeof(buf);
	size_t i, n = len / (wide ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn));
	int64_t tag;
	uint64_t val;

	if (pread_at(fd, buf, len, s->off) != (long)len)
		return 0;
	for (i = 0; i < n; i++) {
		tag = wide ? ((Elf64_Dyn *)(void *)buf)[i].d_tag :
		    ((Elf32_Dyn *)(void *)buf)[i].d_tag;
		val = wide ? ((Elf64_Dyn *)(void *)buf)[i].d_un.d_val :
		    ((Elf32_Dyn *)(void *)buf)[i].d_un.d_val;
		if (tag == DT_NULL)
			break;
		if (tag == DT_FLAGS_1 && (val & DF_1_PIE))
			return 1;
	}
	return 0;
}

int
sup_is_loader(int fd)
{
	union {
		Elf64_Ehdr	 e64;
		Elf32_Ehdr	 e32;
	} h;
	struct seg s[MAXPHDR];
	const struct seg *dyn = NULL;
	int wide, n, i;

	if (pread_at(fd, &h, sizeof(h), 0) < (long)sizeof(h.e32) ||
	    memcmp(h.e64.e_ident, ELFMAG, SELFMAG) != 0)
		return 0;		/* a script: its interpreter is exec'd */
	wide = h.e64.e_ident[EI_CLASS] == ELFCLASS64;
	if ((wide ? h.e64.e_type : h.e32.e_type) != ET_DYN)
		return 0;
	n = wide ? h.e64.e_phnum : h.e32.e_phnum;
	if (segments(fd, wide, wide ? h.e64.e_phoff : h.e32.e_phoff, n,
	    s) != 0)
		return 1;		/* too odd to tell: as one */
	for (i = 0; i < n; i++) {
		if (s[i].type == PT_INTERP)
			return 0;	/* a program, with its loader */
		if (s[i].type == PT_DYNAMIC)
			dyn = &s[i];
	}
	/* no dynamic section at all: a static program, nothing to map */
	return dyn != NULL && !marked_pie(fd, wide, dyn);
}
