/* SPDX-License-Identifier: ISC */
/*
 * imports.c: an ELF file's dynamic imports (see imports.h).
 *
 * The file is read whole into memory, and every structure is copied out
 * of it with memcpy() after a bounds check (get()).  That way neither a
 * lying offset nor a misaligned one can make us read outside the buffer
 * or dereference an unaligned pointer.
 *
 * The symbols come from the .dynsym section when there are section
 * headers.  The loader never looks at those, so they may be gone; then
 * we find the table the way ld.so does, through PT_DYNAMIC, and size it
 * from the hash tables, since the dynamic section does not say how many
 * symbols there are.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "imports.h"

/* Only files of the host's own class are read (see imports.h). */
#if UINTPTR_MAX > 0xffffffffUL
#define HOST_CLASS	ELFCLASS64
#define EW(type)	Elf64_##type
#define EW_ST_BIND(i)	ELF64_ST_BIND(i)
#else
#define HOST_CLASS	ELFCLASS32
#define EW(type)	Elf32_##type
#define EW_ST_BIND(i)	ELF32_ST_BIND(i)
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA	ELFDATA2LSB
#else
#define HOST_DATA	ELFDATA2MSB
#endif

/* DT_HASH words are 64 bits wide on these two, 32 everywhere else. */
#if defined(__s390x__) || defined(__alpha__)
typedef uint64_t	hash_word;
#else
typedef uint32_t	hash_word;
#endif

#define MAX_FILE	((size_t)1 << 30)	/* 1 GiB */

struct image {
	const unsigned char	*buf;
	size_t			 size;
	uint64_t		 phoff;		/* checked: the whole table is */
	uint64_t		 phnum;		/* inside the file */
	uint64_t		 shoff;		/* likewise */
	uint64_t		 shnum;
};

/* A string table, known to lie inside the file. */
struct strtab {
	uint64_t	 off;
	uint64_t	 size;
	int		 have;
};

/* What we want from the dynamic array. */
struct dyninfo {
	uint64_t	 off, size;	/* the array itself, inside the file */
	int		 have;
	uint64_t	 strtab, strsz, symtab, syment, hash, gnu_hash;
	int		 has_strtab, has_strsz, has_symtab, has_syment;
	int		 has_hash, has_gnu_hash;
};

struct list {
	char		**v;
	int		  n, max;
};

static int
range_ok(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

/* Copy len bytes at off out of the file, if they are all in it. */
static int
get(const struct image *im, uint64_t off, void *dst, size_t len)
{
	if (!range_ok(im, off, len))
		return -1;
	memcpy(dst, im->buf + off, len);
	return 0;
}

/* The string at idx of st, if it is NUL-terminated inside st. */
static const char *
str_at(const struct image *im, const struct strtab *st, uint64_t idx)
{
	const char	*s;

	if (!st->have || idx >= st->size)
		return NULL;
	s = (const char *)im->buf + st->off + idx;
	if (memchr(s, '\0', st->size - idx) == NULL)
		return NULL;
	return s;
}

static int
list_add(struct list *l, const char *s, size_t len)
{
	char	**nv;
	int	  nmax;

	if (l->n == l->max) {
		nmax = l->max ? l->max * 2 : 64;
		if ((nv = reallocarray(l->v, (size_t)nmax, sizeof(*nv))) == NULL)
			return -1;
		l->v = nv;
		l->max = nmax;
	}
	if ((l->v[l->n] = strndup(s, len)) == NULL)
		return -1;
	l->n++;
	return 0;
}

static void
list_free(struct list *l)
{
	int	 i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Read the whole file.  read() rather than mmap(): a file truncated
 * under us then just looks short, instead of raising SIGBUS.
 */
static int
read_file(const char *path, unsigned char **bufp, size_t *sizep)
{
	struct stat	 sb;
	unsigned char	*buf = NULL, *nb;
	size_t		 size = 0, cap;
	ssize_t		 n;
	int		 fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &sb) == -1)
		goto fail;
	if (S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > MAX_FILE) {
		errno = EFBIG;
		goto fail;
	}
	/* One byte spare, so that a file of the size stat gave ends with
	   one read returning 0, not with a realloc. */
	if (S_ISREG(sb.st_mode) && sb.st_size > 0)
		cap = (size_t)sb.st_size + 1;
	else
		cap = 65536;
	if ((buf = malloc(cap)) == NULL)
		goto fail;
	for (;;) {
		if (size == cap) {
			if (cap > MAX_FILE) {
				errno = EFBIG;
				goto fail;
			}
			cap = cap > MAX_FILE / 2 ? MAX_FILE + 1 : cap * 2;
			if ((nb = realloc(buf, cap)) == NULL)
				goto fail;
			buf = nb;
		}
		n = read(fd, buf + size, cap - size);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (n == 0)
			break;
		size += (size_t)n;
	}
	if (size > MAX_FILE) {
		errno = EFBIG;
		goto fail;
	}
	close(fd);
	*bufp = buf;
	*sizep = size;
	return 0;
fail:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return -1;
}

/*
 * The file offset of virtual address addr, through the PT_LOAD segment
 * holding it, and how many bytes of that segment's file image follow
 * (*avail, clipped to the file).
 */
static int
vaddr_to_off(const struct image *im, uint64_t addr, uint64_t *off,
    uint64_t *avail)
{
	EW(Phdr)	 ph;
	uint64_t	 i, delta, left;

	for (i = 0; i < im->phnum; i++) {
		if (get(im, im->phoff + i * sizeof(ph), &ph, sizeof(ph)) == -1)
			return -1;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr)
			continue;
		delta = addr - ph.p_vaddr;
		if (delta >= ph.p_filesz)
			continue;
		if (!range_ok(im, ph.p_offset, delta + 1))
			return -1;
		*off = ph.p_offset + delta;
		left = ph.p_filesz - delta;
		*avail = left < im->size - *off ? left : im->size - *off;
		return 0;
	}
	return -1;
}

/* The first section of this type: 1 found, 0 none, -1 unreadable. */
static int
find_section(const struct image *im, uint32_t type, EW(Shdr) *sh)
{
	uint64_t	 i;

	for (i = 0; i < im->shnum; i++) {
		if (get(im, im->shoff + i * sizeof(*sh), sh, sizeof(*sh)) == -1)
			return -1;
		if (sh->sh_type == type)
			return 1;
	}
	return 0;
}

/* The string table section that section sh links to. */
static int
linked_strtab(const struct image *im, const EW(Shdr) *sh, struct strtab *st)
{
	EW(Shdr)	 ss;

	if (sh->sh_link == 0 || sh->sh_link >= im->shnum)
		return -1;
	if (get(im, im->shoff + (uint64_t)sh->sh_link * sizeof(ss), &ss,
	    sizeof(ss)) == -1)
		return -1;
	if (ss.sh_type != SHT_STRTAB || !range_ok(im, ss.sh_offset, ss.sh_size))
		return -1;
	st->off = ss.sh_offset;
	st->size = ss.sh_size;
	st->have = 1;
	return 0;
}

static int
read_dyninfo(const struct image *im, struct dyninfo *di)
{
	EW(Dyn)		 d;
	uint64_t	 i;

	for (i = 0; i < di->size / sizeof(d); i++) {
		if (get(im, di->off + i * sizeof(d), &d, sizeof(d)) == -1)
			return -1;
		switch (d.d_tag) {
		case DT_NULL:
			return 0;
		case DT_STRTAB:
			di->strtab = d.d_un.d_ptr;
			di->has_strtab = 1;
			break;
		case DT_STRSZ:
			di->strsz = d.d_un.d_val;
			di->has_strsz = 1;
			break;
		case DT_SYMTAB:
			di->symtab = d.d_un.d_ptr;
			di->has_symtab = 1;
			break;
		case DT_SYMENT:
			di->syment = d.d_un.d_val;
			di->has_syment = 1;
			break;
		case DT_HASH:
			di->hash = d.d_un.d_ptr;
			di->has_hash = 1;
			break;
		case DT_GNU_HASH:
			di->gnu_hash = d.d_un.d_ptr;
			di->has_gnu_hash = 1;
			break;
		}
	}
	/* No DT_NULL: the array just ends with its segment. */
	return 0;
}

/*
 * DT_GNU_HASH only covers the symbols from symoffset on (the undefined
 * ones, which nobody looks up, come before), and its chains are laid
 * out in symbol order, each ending with an entry whose low bit is set.
 * So the last symbol is at the end of the chain that starts highest.
 * Returns 0 with the count, 1 when no symbol is hashed (then the table
 * says nothing: GNU ld writes symoffset 1 whatever precedes it), or -1.
 */
static int
gnu_hash_nsyms(const struct image *im, uint64_t addr, uint64_t *nsyms)
{
	uint32_t	 hdr[4], nbuckets, symoffset, b, maxb = 0, w;
	uint64_t	 off, avail, boff, coff, i, e;

	if (vaddr_to_off(im, addr, &off, &avail) == -1 ||
	    avail < sizeof(hdr) || get(im, off, hdr, sizeof(hdr)) == -1)
		return -1;
	nbuckets = hdr[0];
	symoffset = hdr[1];
	/* hdr[2] bloom words of the class's word size, then the buckets */
	boff = sizeof(hdr) + (uint64_t)hdr[2] * sizeof(EW(Addr));
	if (boff > avail || (uint64_t)nbuckets * sizeof(b) > avail - boff)
		return -1;
	for (i = 0; i < nbuckets; i++) {
		if (get(im, off + boff + i * sizeof(b), &b, sizeof(b)) == -1)
			return -1;
		if (b > maxb)
			maxb = b;
	}
	if (maxb == 0)
		return 1;
	if (maxb < symoffset)
		return -1;
	coff = boff + (uint64_t)nbuckets * sizeof(b);
	/* Terminates: each step moves 4 bytes on, and must stay in avail. */
	for (i = maxb;; i++) {
		e = coff + (i - symoffset) * sizeof(w);
		if (e > avail || avail - e < sizeof(w))
			return -1;
		if (get(im, off + e, &w, sizeof(w)) == -1)
			return -1;
		if (w & 1)
			break;
	}
	*nsyms = i + 1;
	return 0;
}

/*
 * Without section headers: the symbol table is at DT_SYMTAB, and its
 * length is nchain of DT_HASH, or what DT_GNU_HASH implies, or failing
 * both, the gap up to the string table (which ld puts right after it).
 */
static int
dyn_symtab(const struct image *im, const struct dyninfo *di,
    uint64_t *symoff, uint64_t *nsyms)
{
	hash_word	 hw[2];
	uint64_t	 off, avail, hoff, havail;
	int		 r;

	if (vaddr_to_off(im, di->symtab, &off, &avail) == -1)
		return -1;
	*symoff = off;
	if (di->has_hash) {
		if (vaddr_to_off(im, di->hash, &hoff, &havail) == -1 ||
		    havail < sizeof(hw) || get(im, hoff, hw, sizeof(hw)) == -1)
			return -1;
		*nsyms = hw[1];
		goto done;
	}
	if (di->has_gnu_hash) {
		if ((r = gnu_hash_nsyms(im, di->gnu_hash, nsyms)) == -1)
			return -1;
		if (r == 0)
			goto done;
	}
	if (di->has_strtab && di->strtab > di->symtab) {
		*nsyms = (di->strtab - di->symtab) / sizeof(EW(Sym));
		/* only a guess, so clip it rather than fail on it */
		if (*nsyms > avail / sizeof(EW(Sym)))
			*nsyms = avail / sizeof(EW(Sym));
		return 0;
	}
	return -1;
done:
	if (*nsyms > avail / sizeof(EW(Sym)))
		return -1;
	return 0;
}

static int
add_imports(const struct image *im, uint64_t symoff, uint64_t nsyms,
    const struct strtab *st, struct list *names)
{
	EW(Sym)		 sym;
	const char	*s;
	unsigned	 bind;
	uint64_t	 i;

	if (!range_ok(im, symoff, 0) ||
	    nsyms > (im->size - symoff) / sizeof(sym))
		return -1;
	/* Symbol 0 is the reserved null symbol. */
	for (i = 1; i < nsyms; i++) {
		if (get(im, symoff + i * sizeof(sym), &sym, sizeof(sym)) == -1)
			return -1;
		if (sym.st_shndx != SHN_UNDEF || sym.st_name == 0)
			continue;
		bind = EW_ST_BIND(sym.st_info);
		if (bind != STB_GLOBAL && bind != STB_WEAK)
			continue;
		if ((s = str_at(im, st, sym.st_name)) == NULL)
			return -1;
		/* .dynsym names carry no @VERSION (that is in .gnu.version),
		   but a hand-made file might. */
		if (*s == '\0' || *s == '@')
			continue;
		if (list_add(names, s, strcspn(s, "@")) == -1)
			return -2;
	}
	return 0;
}

/* Sort, and drop duplicates (a name may be imported at two versions). */
static void
sort_unique(struct list *l)
{
	int	 i, j;

	if (l->n == 0)
		return;
	qsort(l->v, (size_t)l->n, sizeof(*l->v), cmp_str);
	for (i = 1, j = 0; i < l->n; i++) {
		if (strcmp(l->v[i], l->v[j]) == 0)
			free(l->v[i]);
		else
			l->v[++j] = l->v[i];
	}
	l->n = j + 1;
}

/* 0, or -1 with errno ENOEXEC or ENOMEM (the caller cleans up). */
static int
parse(const struct image *img, struct elf_imports *out, struct list *names,
    struct list *needed)
{
	struct image	 im = *img;
	EW(Ehdr)	 eh;
	EW(Phdr)	 ph;
	EW(Shdr)	 sh0, sh;
	EW(Dyn)		 d;
	struct dyninfo	 di;
	struct strtab	 dynstr, symstr, secstr;
	uint64_t	 i, off, avail, symoff = 0, nsyms = 0;
	int		 interp = 0, r;

	memset(&di, 0, sizeof(di));
	memset(&dynstr, 0, sizeof(dynstr));
	memset(&secstr, 0, sizeof(secstr));

	if (get(&im, 0, &eh, sizeof(eh)) == -1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != HOST_CLASS ||
	    eh.e_ident[EI_DATA] != HOST_DATA)
		goto bad;

	/*
	 * Section headers first: with more than 0xff00 sections or 0xffff
	 * program headers, the real counts are in section header 0.
	 */
	im.shoff = eh.e_shoff;
	im.shnum = eh.e_shnum;
	im.phoff = eh.e_phoff;
	im.phnum = eh.e_phnum;
	if (im.shoff != 0) {
		if (eh.e_shentsize != sizeof(EW(Shdr)) ||
		    get(&im, im.shoff, &sh0, sizeof(sh0)) == -1)
			goto bad;
		if (im.shnum == 0)
			im.shnum = sh0.sh_size;
		if (im.phnum == PN_XNUM)
			im.phnum = sh0.sh_info;
	} else
		im.shnum = 0;
	if (im.shnum > im.size / sizeof(EW(Shdr)) ||
	    !range_ok(&im, im.shoff, im.shnum * sizeof(EW(Shdr))))
		goto bad;
	if (im.phoff == 0)
		im.phnum = 0;
	if (im.phnum != 0 && eh.e_phentsize != sizeof(EW(Phdr)))
		goto bad;
	if (im.phnum > im.size / sizeof(EW(Phdr)) ||
	    !range_ok(&im, im.phoff, im.phnum * sizeof(EW(Phdr))))
		goto bad;

	for (i = 0; i < im.phnum; i++) {
		if (get(&im, im.phoff + i * sizeof(ph), &ph, sizeof(ph)) == -1)
			goto bad;
		if (ph.p_type == PT_INTERP)
			interp = 1;
		else if (ph.p_type == PT_DYNAMIC && !di.have) {
			if (!range_ok(&im, ph.p_offset, ph.p_filesz))
				goto bad;
			di.off = ph.p_offset;
			di.size = ph.p_filesz;
			di.have = 1;
		}
	}
	out->is_dynamic = interp || di.have;
	/*
	 * No loader, no preload: a static-pie (PT_DYNAMIC, no PT_INTERP)
	 * is as static as tame-exec is concerned.  (So is a shared
	 * library, which is no program to run.)
	 */
	out->is_static = !interp &&
	    (eh.e_type == ET_EXEC || eh.e_type == ET_DYN);

	/*
	 * The .dynamic section, if any: where the dynamic array is when
	 * there is no PT_DYNAMIC, and a second way to its string table.
	 */
	if ((r = find_section(&im, SHT_DYNAMIC, &sh)) == -1)
		goto bad;
	if (r == 1) {
		if (!range_ok(&im, sh.sh_offset, sh.sh_size))
			goto bad;
		if (!di.have) {
			di.off = sh.sh_offset;
			di.size = sh.sh_size;
			di.have = 1;
		}
		(void)linked_strtab(&im, &sh, &secstr);
	}
	if (di.have && read_dyninfo(&im, &di) == -1)
		goto bad;
	if (di.has_syment && di.syment != sizeof(EW(Sym)))
		goto bad;

	if (di.has_strtab &&
	    vaddr_to_off(&im, di.strtab, &off, &avail) == 0) {
		if (di.has_strsz && di.strsz > avail)
			goto bad;
		dynstr.off = off;
		dynstr.size = di.has_strsz ? di.strsz : avail;
		dynstr.have = 1;
	} else if (secstr.have)
		dynstr = secstr;

	/* DT_NEEDED, in the order the loader will search them. */
	for (i = 0; di.have && i < di.size / sizeof(d); i++) {
		const char	*s;

		if (get(&im, di.off + i * sizeof(d), &d, sizeof(d)) == -1)
			goto bad;
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag != DT_NEEDED)
			continue;
		if ((s = str_at(&im, &dynstr, d.d_un.d_val)) == NULL)
			goto bad;
		if (list_add(needed, s, strlen(s)) == -1)
			goto nomem;
	}

	/* The imports: .dynsym if we have it, else through DT_SYMTAB. */
	if ((r = find_section(&im, SHT_DYNSYM, &sh)) == -1)
		goto bad;
	if (r == 1) {
		if (sh.sh_entsize != 0 && sh.sh_entsize != sizeof(EW(Sym)))
			goto bad;
		if (!range_ok(&im, sh.sh_offset, sh.sh_size) ||
		    linked_strtab(&im, &sh, &symstr) == -1)
			goto bad;
		symoff = sh.sh_offset;
		nsyms = sh.sh_size / sizeof(EW(Sym));
	} else if (di.has_symtab) {
		if (!dynstr.have ||
		    dyn_symtab(&im, &di, &symoff, &nsyms) == -1)
			goto bad;
		symstr = dynstr;
	}
	if (nsyms > 0) {
		if ((r = add_imports(&im, symoff, nsyms, &symstr, names)) == -2)
			goto nomem;
		if (r == -1)
			goto bad;
	}
	return 0;
bad:
	errno = ENOEXEC;
	return -1;
nomem:
	errno = ENOMEM;
	return -1;
}

int
elf_imports_read(const char *path, struct elf_imports *out)
{
	struct image	 im;
	struct list	 names, needed;
	unsigned char	*buf;
	size_t		 size;
	int		 saved;

	memset(out, 0, sizeof(*out));
	if (read_file(path, &buf, &size) == -1)
		return -1;
	memset(&im, 0, sizeof(im));
	im.buf = buf;
	im.size = size;
	memset(&names, 0, sizeof(names));
	memset(&needed, 0, sizeof(needed));
	if (parse(&im, out, &names, &needed) == -1) {
		saved = errno;
		list_free(&names);
		list_free(&needed);
		free(buf);
		memset(out, 0, sizeof(*out));
		errno = saved;
		return -1;
	}
	free(buf);
	sort_unique(&names);
	out->names = names.v;
	out->nnames = names.n;
	out->needed = needed.v;
	out->nneeded = needed.n;
	return 0;
}

void
elf_imports_free(struct elf_imports *ei)
{
	int	 i;

	if (ei == NULL)
		return;
	for (i = 0; i < ei->nnames; i++)
		free(ei->names[i]);
	free(ei->names);
	for (i = 0; i < ei->nneeded; i++)
		free(ei->needed[i]);
	free(ei->needed);
	memset(ei, 0, sizeof(*ei));
}

int
elf_imports_has(const struct elf_imports *ei, const char *name)
{
	if (ei->nnames == 0)
		return 0;
	return bsearch(&name, ei->names, (size_t)ei->nnames, sizeof(*ei->names),
	    cmp_str) != NULL;
}
