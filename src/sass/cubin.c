/* cubin.c: a cubin's functions (.text.<name> sections, decoded by decode.c) and the source line of
 * each instruction, from .debug_line: a DWARF line program (version 2 as ptxas writes it) whose
 * DW_LNE_set_address operands are relocated (.rela.debug_line) against the function symbols, so
 * each sequence belongs to one function section. Every offset is bounds-checked: a cubin is input. */
#include "smemlab/sass/sass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct elf {
    const uint8_t *d;
    size_t n;
    uint64_t shoff;
    unsigned shnum, shentsize, shstrndx;
};

struct shdr {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t align, entsize;
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int section(const struct elf *e, unsigned i, struct shdr *s)
{
    if (i >= e->shnum)
        return -1;
    const uint8_t *p = e->d + e->shoff + (uint64_t)i * e->shentsize;
    s->name = rd32(p);
    s->type = rd32(p + 4);
    s->flags = rd64(p + 8);
    s->addr = rd64(p + 16);
    s->offset = rd64(p + 24);
    s->size = rd64(p + 32);
    s->link = rd32(p + 40);
    s->info = rd32(p + 44);
    s->align = rd64(p + 48);
    s->entsize = rd64(p + 56);
    if (s->type != 8 /* SHT_NOBITS */ && (s->offset > e->n || s->size > e->n - s->offset))
        return -1;
    return 0;
}

static const char *sec_name(const struct elf *e, const struct shdr *s)
{
    struct shdr st;
    if (section(e, e->shstrndx, &st) || s->name >= st.size)
        return "";
    const char *p = (const char *)e->d + st.offset + s->name;
    if (!memchr(p, 0, st.size - s->name))
        return "";
    return p;
}

/* ---- DWARF line program ---------------------------------------------------------------------- */

struct cursor {
    const uint8_t *p, *end;
    int bad;
};

static uint64_t uleb(struct cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (c->p < c->end) {
        uint8_t b = *c->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            return v;
    }
    c->bad = 1;
    return 0;
}

static int64_t sleb(struct cursor *c)
{
    int64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    while (c->p < c->end) {
        b = *c->p++;
        if (shift < 64)
            v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
        shift += 7;
        if (!(b & 0x80)) {
            if (shift < 64 && (b & 0x40))
                v |= -(int64_t)((uint64_t)1 << shift);
            return v;
        }
    }
    c->bad = 1;
    return 0;
}

static uint8_t u8(struct cursor *c)
{
    if (c->p >= c->end) {
        c->bad = 1;
        return 0;
    }
    return *c->p++;
}

static const char *cstr(struct cursor *c)
{
    const char *s = (const char *)c->p;
    const uint8_t *z = memchr(c->p, 0, (size_t)(c->end - c->p));
    if (!z) {
        c->bad = 1;
        return "";
    }
    c->p = z + 1;
    return s;
}

struct row {
    unsigned sec;     /* section index of the function */
    uint64_t addr;
    uint32_t file, line;
    int end;          /* end of sequence */
};

struct rows {
    struct row *r;
    size_t n, cap;
};

static int push_row(struct rows *rs, struct row r)
{
    if (rs->n == rs->cap) {
        size_t nc = rs->cap ? rs->cap * 2 : 256;
        struct row *nr = realloc(rs->r, nc * sizeof *nr);
        if (!nr)
            return -1;
        rs->r = nr;
        rs->cap = nc;
    }
    rs->r[rs->n++] = r;
    return 0;
}

/* The section a relocated set_address operand at offset off of .debug_line points into. */
static int reloc_at(const struct elf *e, unsigned line_sec, uint64_t off, unsigned *sec,
                    uint64_t *value)
{
    for (unsigned i = 0; i < e->shnum; i++) {
        struct shdr s, sym;
        if (section(e, i, &s) || s.type != 4 /* SHT_RELA */ || s.info != line_sec ||
            section(e, s.link, &sym) || s.entsize < 24 || sym.entsize < 24)
            continue;
        for (uint64_t r = 0; r + 24 <= s.size; r += 24) {
            const uint8_t *p = e->d + s.offset + r;
            if (rd64(p) != off)
                continue;
            uint64_t symi = rd64(p + 8) >> 32;
            if ((symi + 1) * 24 > sym.size)
                return -1;
            const uint8_t *sp = e->d + sym.offset + symi * 24;
            *sec = rd16(sp + 6);
            *value = rd64(sp + 8) + rd64(p + 16);
            return 0;
        }
    }
    return -1;
}

static int file_index(struct smem_sass_module *m, const char *dir, const char *name)
{
    char path[1024];
    if (name[0] == '/' || !dir || !dir[0])
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/%s", dir, name);
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (!strcmp(m->files[i], path))
            return (int)i;
    char **nf = realloc(m->files, (m->nfiles + 1) * sizeof *nf);
    if (!nf)
        return -1;
    m->files = nf;
    if (!(m->files[m->nfiles] = strdup(path)))
        return -1;
    return (int)m->nfiles++;
}

/* One line-program unit at c (the whole .debug_line section, sec_off its start in the file). */
static int read_unit(const struct elf *e, unsigned line_sec, uint64_t sec_off, struct cursor *c,
                     struct smem_sass_module *m, struct rows *rs)
{
    const uint8_t *unit = c->p;
    if (c->end - c->p < 4)
        return -1;
    uint64_t len = rd32(c->p);
    c->p += 4;
    if (len == 0xffffffffu || len > (uint64_t)(c->end - c->p))
        return -1;
    struct cursor u = {c->p, c->p + len, 0};
    c->p += len;
    if (u.end - u.p < 6)
        return -1;
    unsigned version = rd16(u.p);
    u.p += 2;
    if (version < 2 || version > 4)
        return -1;
    uint64_t hlen = rd32(u.p);
    u.p += 4;
    if (hlen > (uint64_t)(u.end - u.p))
        return -1;
    const uint8_t *prog = u.p + hlen;
    uint8_t min_inst = u8(&u);
    if (version >= 4)
        (void)u8(&u);
    (void)u8(&u); /* default_is_stmt */
    int8_t line_base = (int8_t)u8(&u);
    uint8_t line_range = u8(&u), opcode_base = u8(&u);
    if (u.bad || !line_range || !opcode_base)
        return -1;
    uint8_t std_len[256] = {0};
    for (unsigned i = 1; i < opcode_base; i++)
        std_len[i] = u8(&u);
    const char *dirs[256];
    unsigned ndirs = 0;
    for (;;) {
        const char *d = cstr(&u);
        if (u.bad || !d[0])
            break;
        if (ndirs < 256)
            dirs[ndirs++] = d;
    }
    int files[1024];
    unsigned nfiles = 0;
    for (;;) {
        const char *f = cstr(&u);
        if (u.bad || !f[0])
            break;
        uint64_t dir = uleb(&u);
        (void)uleb(&u);
        (void)uleb(&u);
        int fi = file_index(m, dir >= 1 && dir <= ndirs ? dirs[dir - 1] : NULL, f);
        if (fi < 0)
            return -1;
        if (nfiles < 1024)
            files[nfiles++] = fi;
    }
    if (u.bad)
        return -1;
    u.p = prog;
    unsigned sec = 0;
    uint64_t addr = 0, file = 1;
    int64_t line = 1;
#define EMIT(endflag)                                                                              \
    do {                                                                                           \
        struct row r = {sec, addr,                                                                 \
                        file >= 1 && file <= nfiles ? (uint32_t)files[file - 1] : UINT32_MAX,      \
                        line > 0 ? (uint32_t)line : 0, endflag};                                   \
        if (push_row(rs, r))                                                                       \
            return -1;                                                                             \
    } while (0)
    while (u.p < u.end && !u.bad) {
        uint8_t op = u8(&u);
        if (op >= opcode_base) {
            unsigned adj = op - opcode_base;
            addr += (uint64_t)(adj / line_range) * min_inst;
            line += line_base + (int)(adj % line_range);
            EMIT(0);
            continue;
        }
        switch (op) {
        case 0: { /* extended */
            uint64_t n = uleb(&u);
            if (u.bad || n > (uint64_t)(u.end - u.p) || n == 0)
                return -1;
            const uint8_t *next = u.p + n;
            uint8_t sub = u8(&u);
            if (sub == 1) { /* end_sequence */
                EMIT(1);
                addr = 0;
                file = 1;
                line = 1;
            } else if (sub == 2) { /* set_address: relocated against the function symbol */
                uint64_t off = (uint64_t)(u.p - unit) + (uint64_t)(unit - (e->d + sec_off));
                uint64_t stored = n - 1 == 8 ? rd64(u.p) : n - 1 == 4 ? rd32(u.p) : 0;
                unsigned s2;
                uint64_t v;
                if (!reloc_at(e, line_sec, off, &s2, &v)) {
                    sec = s2;
                    addr = v + stored;
                } else {
                    sec = 0; /* unknown: its rows are not used */
                    addr = stored;
                }
            }
            u.p = next; /* define_file, NVIDIA's own: skipped */
            break;
        }
        case 1: EMIT(0); break;
        case 2: addr += uleb(&u) * min_inst; break;
        case 3: line += sleb(&u); break;
        case 4: file = uleb(&u); break;
        case 5: (void)uleb(&u); break;
        case 8: addr += (uint64_t)((255 - opcode_base) / line_range) * min_inst; break;
        case 9:
            if (u.end - u.p < 2)
                return -1;
            addr += rd16(u.p);
            u.p += 2;
            break;
        default: /* 6, 7, 10, 11: no operand; 12 and unknown: std_len operands */
            for (unsigned i = 0; i < std_len[op]; i++)
                (void)uleb(&u);
            break;
        }
    }
#undef EMIT
    return u.bad ? -1 : 0;
}

static void free_funcs(struct smem_sass_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        free(m->funcs[i].name);
        free(m->funcs[i].insns);
    }
    free(m->funcs);
}

void smem_sass_free(struct smem_sass_module *m)
{
    if (!m)
        return;
    free_funcs(m);
    for (uint32_t i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    free(m);
}

const struct smem_sass_func *smem_sass_find(const struct smem_sass_module *m, const char *symbol)
{
    for (uint32_t i = 0; m && i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, symbol))
            return &m->funcs[i];
    return NULL;
}

/* The registers a thread of the function whose symbol is sym uses: EIATTR_REGCOUNT (0x2f) of the
 * cubin's .nv.info section, an entry {format 0x04, attribute, u16 size 8, u32 symbol, u32 count}
 * (attributes of format 0x04 carry a u16 size; the others 2 bytes of value). 0 where none says. */
static uint32_t nv_info_regs(const struct elf *e, uint32_t sym)
{
    for (unsigned i = 0; i < e->shnum; i++) {
        struct shdr s;
        if (section(e, i, &s) || s.type != 0x70000000u /* SHT_CUDA_INFO */ ||
            strcmp(sec_name(e, &s), ".nv.info"))
            continue;
        const uint8_t *p = e->d + s.offset, *end = p + s.size;
        while (end - p >= 4) {
            uint8_t fmt = p[0], attr = p[1];
            uint16_t size = rd16(p + 2);
            if (fmt != 0x04) {
                p += 4;
                continue;
            }
            if ((uint64_t)(end - p - 4) < size)
                break;
            if (attr == 0x2f && size == 8 && rd32(p + 4) == sym)
                return rd32(p + 8);
            p += 4 + size;
        }
    }
    return 0;
}

int smem_sass_read(const uint8_t *data, size_t n, struct smem_sass_module **out,
                   struct smem_error *err)
{
    *out = NULL;
    if (n < 64 || memcmp(data, "\177ELF", 4) || data[4] != 2 || data[5] != 1)
        return smem_error_set(err, NULL, 0, 0, "the cubin is not a 64-bit little-endian ELF file");
    struct elf e = {data, n, rd64(data + 0x28), rd16(data + 0x3c), rd16(data + 0x3a),
                    rd16(data + 0x3e)};
    if (e.shentsize < 64 || e.shoff > n || (uint64_t)e.shnum * e.shentsize > n - e.shoff)
        return smem_error_set(err, NULL, 0, 0, "the cubin's section headers lie outside it");
    struct smem_sass_module *m = calloc(1, sizeof *m);
    if (!m)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    /* sm_XX from e_flags: ptxas 13 writes the architecture in bits 8..15 */
    m->arch = (unsigned)(rd32(data + 0x30) >> 8 & 0xff);
    int line_sec = -1;
    unsigned *func_sec = calloc(e.shnum ? e.shnum : 1, sizeof *func_sec);
    if (!func_sec) {
        free(m);
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    }
    for (unsigned i = 0; i < e.shnum; i++) {
        struct shdr s;
        if (section(&e, i, &s)) {
            free(func_sec);
            smem_sass_free(m);
            return smem_error_set(err, NULL, 0, 0, "the cubin's section %u lies outside it", i);
        }
        const char *name = sec_name(&e, &s);
        func_sec[i] = UINT32_MAX;
        if (!strcmp(name, ".debug_line"))
            line_sec = (int)i;
        if (strncmp(name, ".text.", 6) || s.type != 1 /* PROGBITS */)
            continue;
        struct smem_sass_func *nf = realloc(m->funcs, (m->nfuncs + 1) * sizeof *nf);
        if (!nf)
            goto oom;
        m->funcs = nf;
        struct smem_sass_func *f = &m->funcs[m->nfuncs];
        f->ninsns = (uint32_t)(s.size / 16);
        f->name = strdup(name + 6);
        f->insns = calloc(f->ninsns ? f->ninsns : 1, sizeof *f->insns);
        if (!f->name || !f->insns) {
            free(f->name);
            free(f->insns);
            goto oom;
        }
        for (uint32_t k = 0; k < f->ninsns; k++)
            smem_sass_decode(data + s.offset + 16 * (uint64_t)k, 16 * k, &f->insns[k]);
        f->regs = nv_info_regs(&e, s.info); /* a .text section's sh_info: its symbol */
        m->nfuncs++;
        if (smem_sass_fixed_bases(f))
            goto oom;
        func_sec[i] = m->nfuncs - 1;
    }
    if (line_sec >= 0) {
        struct shdr s;
        section(&e, (unsigned)line_sec, &s);
        struct cursor c = {data + s.offset, data + s.offset + s.size, 0};
        struct rows rs = {NULL, 0, 0};
        while (c.p < c.end) {
            if (read_unit(&e, (unsigned)line_sec, s.offset, &c, m, &rs)) {
                free(rs.r);
                free(func_sec);
                smem_sass_free(m);
                return smem_error_set(err, NULL, 0, 0, "the cubin's line table (.debug_line) "
                                      "cannot be read");
            }
        }
        /* each row holds from its address to the next row of its sequence */
        for (size_t r = 0; r + 1 < rs.n; r++) {
            const struct row *a = &rs.r[r], *b = &rs.r[r + 1];
            if (a->end || a->sec >= e.shnum || func_sec[a->sec] == UINT32_MAX)
                continue;
            struct smem_sass_func *f = &m->funcs[func_sec[a->sec]];
            uint64_t to = b->sec == a->sec ? b->addr : a->addr;
            for (uint64_t o = a->addr; o < to && o / 16 < f->ninsns; o += 16) {
                f->insns[o / 16].file = a->file;
                f->insns[o / 16].line = a->line;
            }
        }
        m->has_lines = rs.n > 0;
        free(rs.r);
    }
    free(func_sec);
    *out = m;
    return 0;
oom:
    free(func_sec);
    smem_sass_free(m);
    return smem_error_set(err, NULL, 0, 0, "out of memory");
}
