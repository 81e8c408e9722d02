/* SPDX-License-Identifier: ISC */
/*
 * imports.h: what an ELF file imports from shared libraries.
 *
 * The auditor compares a run's trace with what the binary could have
 * done: "this binary imports connect, getaddrinfo: not called in this
 * run".  This reads the undefined dynamic symbols and the DT_NEEDED
 * libraries straight from the file, without running it or dlopen()ing
 * anything, and treats the file as hostile: a malformed file is an
 * error (ENOEXEC), never a crash.
 */
#ifndef AUDIT_IMPORTS_H
#define AUDIT_IMPORTS_H

/*
 * The undefined dynamic symbols (functions and objects) an ELF file
 * imports, and the libraries it names in DT_NEEDED.
 */
struct elf_imports {
	char	**names;	/* undefined .dynsym names, without @version,
				   sorted, unique */
	int	  nnames;
	char	**needed;	/* DT_NEEDED entries, in file order */
	int	  nneeded;
	int	  is_dynamic;	/* has a PT_INTERP or PT_DYNAMIC segment */
	int	  is_static;	/* no PT_INTERP: no loader runs, no
				   preload (static and static-pie) */
};

/*
 * Read path.  Returns 0, or -1 with errno set (ENOEXEC: not an ELF file
 * of this machine's class (ELFCLASS64 on 64-bit hosts) and byte order,
 * or malformed/truncated; EFBIG: larger than 1 GiB; other errno from
 * open/read).  Never crashes on hostile input: every offset and size
 * from the file is bounds-checked against the file size.  On failure
 * *out is left zeroed, so elf_imports_free() on it is harmless.
 */
int	elf_imports_read(const char *path, struct elf_imports *out);
void	elf_imports_free(struct elf_imports *);

/* Is name among the imports? (binary search) */
int	elf_imports_has(const struct elf_imports *, const char *name);

#endif /* AUDIT_IMPORTS_H */
