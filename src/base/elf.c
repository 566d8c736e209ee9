/* elf.c: sections, needed libraries and defined symbols of a 64-bit little-endian ELF file, read
 * with every offset checked (the file is the user's, not ours). */
#include "smemlab/base/elf.h"
#include "smemlab/base/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct smem_elf {
    uint8_t *data;
    size_t size;
    uint64_t shoff;
    unsigned shnum, shentsize, shstrndx;
};

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int smem_elf_open(const char *path, struct smem_elf **out, struct smem_error *err)
{
    size_t n = 0;
    *out = NULL;
    char *d = smem_read_file(path, &n);
    if (!d)
        return smem_error_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
    const uint8_t *u = (const uint8_t *)d;
    if (n < 64 || memcmp(u, "\177ELF", 4) || u[4] != 2 || u[5] != 1) {
        free(d);
        return 1;
    }
    struct smem_elf *e = calloc(1, sizeof *e);
    if (!e) {
        free(d);
        return smem_error_set(err, path, 0, 0, "out of memory");
    }
    e->data = (uint8_t *)d;
    e->size = n;
    e->shoff = rd(u + 0x28, 8);
    e->shentsize = (unsigned)rd(u + 0x3a, 2);
    e->shnum = (unsigned)rd(u + 0x3c, 2);
    e->shstrndx = (unsigned)rd(u + 0x3e, 2);
    if (e->shentsize < 64 || e->shoff > n || (uint64_t)e->shnum * e->shentsize > n - e->shoff)
        e->shnum = 0; /* no usable section table: nothing to find */
    *out = e;
    return 0;
}

void smem_elf_close(struct smem_elf *e)
{
    if (!e)
        return;
    free(e->data);
    free(e);
}

/* Section i's header fields; 0 when i is out of range. */
static const uint8_t *shdr(const struct smem_elf *e, unsigned i)
{
    return i < e->shnum ? e->data + e->shoff + (uint64_t)i * e->shentsize : NULL;
}

static const uint8_t *sec_data(const struct smem_elf *e, const uint8_t *h, size_t *size)
{
    uint64_t type = rd(h + 4, 4), off = rd(h + 0x18, 8), sz = rd(h + 0x20, 8);
    if (type == 8 /* SHT_NOBITS */ || off > e->size || sz > e->size - off) {
        *size = 0;
        return NULL;
    }
    *size = (size_t)sz;
    return e->data + off;
}

/* The NUL-terminated string at offset off of a string table, or NULL. */
static const char *str_at(const uint8_t *tab, size_t tsize, uint64_t off)
{
    if (!tab || off >= tsize || !memchr(tab + off, 0, tsize - (size_t)off))
        return NULL;
    return (const char *)tab + off;
}

const uint8_t *smem_elf_section(const struct smem_elf *e, const char *name, size_t *size)
{
    *size = 0;
    const uint8_t *sh = shdr(e, e->shstrndx);
    size_t ssize;
    const uint8_t *strtab = sh ? sec_data(e, sh, &ssize) : NULL;
    for (unsigned i = 0; strtab && i < e->shnum; i++) {
        const uint8_t *h = shdr(e, i);
        const char *nm = str_at(strtab, ssize, rd(h, 4));
        if (nm && !strcmp(nm, name))
            return sec_data(e, h, size);
    }
    return NULL;
}

/* The first section of type t and its linked string table. */
static const uint8_t *find_typed(const struct smem_elf *e, unsigned t, size_t *size,
                                 const uint8_t **strtab, size_t *ssize)
{
    for (unsigned i = 0; i < e->shnum; i++) {
        const uint8_t *h = shdr(e, i);
        if (rd(h + 4, 4) != t)
            continue;
        const uint8_t *lh = shdr(e, (unsigned)rd(h + 0x28, 4));
        *strtab = lh ? sec_data(e, lh, ssize) : NULL;
        return sec_data(e, h, size);
    }
    return NULL;
}

const char *smem_elf_needed(const struct smem_elf *e, unsigned i)
{
    size_t size, ssize = 0;
    const uint8_t *strtab = NULL;
    const uint8_t *dyn = find_typed(e, 6 /* SHT_DYNAMIC */, &size, &strtab, &ssize);
    unsigned k = 0;
    for (size_t off = 0; dyn && off + 16 <= size; off += 16) {
        uint64_t tag = rd(dyn + off, 8);
        if (tag == 0)
            break;
        if (tag == 1 /* DT_NEEDED */ && k++ == i)
            return str_at(strtab, ssize, rd(dyn + off + 8, 8));
    }
    return NULL;
}

int smem_elf_defines(const struct smem_elf *e, const char *name)
{
    static const unsigned types[2] = {2 /* SHT_SYMTAB */, 11 /* SHT_DYNSYM */};
    for (int t = 0; t < 2; t++) {
        size_t size, ssize = 0;
        const uint8_t *strtab = NULL;
        const uint8_t *syms = find_typed(e, types[t], &size, &strtab, &ssize);
        for (size_t off = 0; syms && off + 24 <= size; off += 24) {
            uint64_t shndx = rd(syms + off + 6, 2);
            if (shndx == 0) /* SHN_UNDEF: a reference */
                continue;
            const char *nm = str_at(strtab, ssize, rd(syms + off, 4));
            if (nm && !strcmp(nm, name))
                return 1;
        }
    }
    return 0;
}

int smem_elf_is_dynamic(const struct smem_elf *e)
{
    size_t size, ssize;
    const uint8_t *strtab;
    return find_typed(e, 6, &size, &strtab, &ssize) != NULL;
}
