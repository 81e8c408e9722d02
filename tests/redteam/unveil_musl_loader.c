/* SPDX-License-Identifier: ISC */
/*
 * unveil_musl_loader.c: a program run through musl's loader from a
 * directory unveiled without x (issue 46, unveil's unmediated calls).
 *
 * unveil_ldso.c's way with the other C library: musl's loader is its
 * libc.so, run as a program ("ld-musl-ARCH.so.1 PROGRAM").  The
 * supervisor tells a loader by its ELF headers (sup_loader.c): ET_DYN,
 * no PT_INTERP, and a DT_SONAME; musl's libc.so has no DT_SONAME, and
 * passes for a program, at the exec and at the image's first call
 * alike.  The attacker writes its own program (a dynamic ET_DYN of a few
 * hundred bytes, no library) into visible/, unveiled "rwc"; the loader's
 * directory is unveiled "rx".  The parent reads the program's line.
 */
#include <sys/stat.h>

#include <elf.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

#define LINE	"crafted program ran\n"

struct attempt {
	int		 tamed;
	int		 direct;	/* execve the program itself */
	const char	*promises;	/* NULL: unveil alone */
	const char	*loader, *loader_dir;
};

/* A dynamic ET_DYN that musl's loader maps and runs: write, exit_group. */
static int
craft(const char *path)
{
	static unsigned char b[0x400];
	Elf64_Ehdr *e = (void *)b;
	Elf64_Phdr *p = (void *)(b + 64);
	Elf64_Dyn *d = (void *)(b + 0x100);
	uint32_t *hash = (void *)(b + 0x1c0);
	unsigned char code[] = { 0xbf, 1, 0, 0, 0,	/* mov $1, %edi */
	    0x48, 0x8d, 0x35, 0, 0, 0, 0,		/* lea line(%rip), %rsi */
	    0xba, sizeof(LINE) - 1, 0, 0, 0,		/* mov $len, %edx */
	    0xb8, 1, 0, 0, 0, 0x0f, 0x05,		/* write */
	    0xbf, 42, 0, 0, 0, 0xb8, 0xe7, 0, 0, 0, 0x0f, 0x05 };
	int32_t rel = 0x300 - (0x240 + 12);
	int fd, ok;

	memcpy(e->e_ident, ELFMAG, SELFMAG);
	e->e_ident[EI_CLASS] = ELFCLASS64;
	e->e_ident[EI_DATA] = ELFDATA2LSB;
	e->e_ident[EI_VERSION] = EV_CURRENT;
	e->e_type = ET_DYN;
	e->e_machine = EM_X86_64;
	e->e_version = EV_CURRENT;
	e->e_entry = 0x240;
	e->e_phoff = 64;
	e->e_ehsize = 64;
	e->e_phentsize = sizeof(Elf64_Phdr);
	e->e_phnum = 2;
	p[0].p_type = PT_LOAD;
	p[0].p_flags = PF_R | PF_W | PF_X;
	p[0].p_filesz = p[0].p_memsz = sizeof(b);
	p[0].p_align = 0x1000;
	p[1].p_type = PT_DYNAMIC;
	p[1].p_flags = PF_R | PF_W;
	p[1].p_offset = p[1].p_vaddr = 0x100;
	p[1].p_filesz = p[1].p_memsz = 6 * sizeof(Elf64_Dyn);
	p[1].p_align = 8;
	d[0].d_tag = DT_HASH;	d[0].d_un.d_ptr = 0x1c0;
	d[1].d_tag = DT_SYMTAB;	d[1].d_un.d_ptr = 0x1e0;
	d[2].d_tag = DT_STRTAB;	d[2].d_un.d_ptr = 0x200;
	d[3].d_tag = DT_STRSZ;	d[3].d_un.d_val = 1;
	d[4].d_tag = DT_SYMENT;	d[4].d_un.d_val = sizeof(Elf64_Sym);
	d[5].d_tag = DT_NULL;
	hash[0] = hash[1] = 1;		/* one bucket, one chain: symbol 0 */
	memcpy(b + 0x300, LINE, sizeof(LINE) - 1);
	memcpy(code + 8, &rel, sizeof(rel));
	memcpy(b + 0x240, code, sizeof(code));
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755)) == -1)
		return -1;
	ok = write(fd, b, sizeof(b)) == (ssize_t)sizeof(b);
	close(fd);
	return ok ? 0 : -1;
}

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	const char *prog = rt_path("visible/prog");
	char *direct[] = { (char *)prog, NULL };
	char *via[] = { (char *)a->loader, (char *)prog, NULL };

	rt_stdout_up();
	if (a->tamed) {
		rt_unveil(a->loader_dir, "rx");
		rt_unveil(rt_path("visible"), "rwc");
		if (a->promises != NULL)
			rt_pledge(a->promises, NULL);
		else
			rt_unveil(NULL, NULL);
	}
	if (craft(prog) == -1)
		return RT_SETUP;
	if (a->direct)
		execv(direct[0], direct);
	else
		execv(via[0], via);
	return 127;
}

static int
ran(struct attempt *a)
{
	struct rt_kid k;
	char out[256] = "";

	rt_run(&k, attack, a, out, sizeof(out) - 1);
	return strstr(out, LINE) != NULL;
}

int
main(int argc, char **argv)
{
	static const char *const promises[] = { NULL,
	    "stdio rpath wpath cpath proc exec" };
	struct attempt a = { 0 };
	char loader[PATH_MAX], real[PATH_MAX];
	glob_t g = { 0 };
	size_t i;

	rt_init(argc, argv);
#if !defined(__x86_64__)
	rt_na("the crafted program is x86-64's");
	return rt_finish();
#endif
	if (glob("/lib/ld-musl-*.so.1", 0, NULL, &g) != 0 ||
	    snprintf(loader, sizeof(loader), "%s", g.gl_pathv[0]) >=
	    (int)sizeof(loader) || realpath(loader, real) == NULL) {
		globfree(&g);
		rt_na("no musl loader (/lib/ld-musl-*.so.1) here");
		return rt_finish();
	}
	globfree(&g);
	if (!rt_need_landlock())
		return rt_finish();
	a.loader = loader;
	a.loader_dir = dirname(real);
	rt_two_dirs();
	if (!ran(&a)) {
		rt_na("untamed, %s PROGRAM did not run it", a.loader);
		return rt_finish();
	}
	a.tamed = 1;
	for (i = 0; i < 2; i++) {
		a.promises = promises[i];
		a.direct = 1;
		if (ran(&a)) {
			rt_broken("%s: visible/ was unveiled without x, yet "
			    "its program ran", rt_hide_label(a.promises));
			continue;
		}
		a.direct = 0;
		if (ran(&a))
			rt_escaped("%s: %s ran visible/prog, unveiled without "
			    "x (an execve of it fails)", rt_hide_label(
			    a.promises), a.loader);
		else
			rt_held("%s: %s did not run visible/prog",
			    rt_hide_label(a.promises), a.loader);
	}
	return rt_finish();
}
