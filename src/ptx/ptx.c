/* ptx.c: the PTX parser. One pass over the text with a cursor that knows its line and column;
 * directives and instructions are decoded into struct smem_ptx_insn so the emulator never looks at
 * text again. Every fault is reported with line:column and never crashes (fuzzed).
 * One parser for one grammar: its cursor, tables and symbol scopes are shared by every section
 * below, and splitting it would only export them (the matrix / tensor-core instructions'
 * modifiers, which need none of that, are decoded in ptx_tensor.c; what an opcode is, in the
 * opcode table, opcodes.def). */
#include "smemlab/ptx/ptx.h"

#include "opcodes.h"
#include "ptx_tensor.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDENT 4096 /* CUTLASS 3 kernels' mangled names reach 1,348 characters (example 49) */
#define MAX_REGS (1u << 20)     /* register slots per function: far beyond any real kernel */
#define MAX_INSNS (1u << 22)
#define MAX_SYMS (1u << 16)
#define MAX_FILES 4096

struct reg_range { /* %r<26> declares %r0..%r25 at slots base.. */
    char *prefix;
    uint32_t count, base;
    uint8_t type;
    uint8_t single; /* a plain name, not a %name<N> range */
    uint8_t dead;   /* declared in a { } scope that has closed: no longer visible */
    uint32_t depth; /* the scope depth it was declared at (1: the function body) */
};

struct frame_slot { /* open-addressing hash entry */
    uint32_t file, line, col, parent, val;
    uint8_t used;
};

struct fixup { /* a branch whose label is resolved once the body is read */
    uint32_t insn, opnd;
    char *label;
    uint32_t line, col;
    uint32_t scope; /* the { } block it is in: its label is that block's, or an enclosing one's */
};

struct label {
    char *name;
    uint32_t insn;
    uint32_t scope; /* the { } block it is defined in (0: the function body) */
};

struct parser {
    const char *p, *end;
    const char *name;
    uint32_t line;
    const char *line_start;
    struct smem_error *err;
    const char *text; /* start of the input, to place errors */
    struct smem_ptx_module *m;
    /* the function being read */
    struct smem_ptx_func *f;
    struct reg_range *ranges;
    uint32_t nranges, cap_ranges;
    uint32_t depth; /* { } scope depth in the function body being read */
    /* the { } blocks of the body: the current one, each one's enclosing block (labels are
       scoped: inline asm of CUTLASS repeats LAB_WAIT / DONE in blocks of one function) */
    uint32_t scope, nscopes, cap_scopes;
    uint32_t *scope_parent;
    struct fixup *fixups;
    uint32_t nfixups, cap_fixups;
    struct label *labels;
    uint32_t nlabels, cap_labels;
    uint32_t cap_insns, cap_syms, cap_vregs;
    int tensor_ops; /* read ldmatrix / stmatrix / mbarrier / mma / wmma (smem_ptx_parse_opts) */
    uint32_t loc_file, loc_line, loc_col, inl_file, inl_line, inl_col;
    uint32_t inl_frame;          /* the chain of the current .loc (SMEM_PTX_NO_FRAME: none) */
    uint32_t cap_frames;
    struct frame_slot *ftab;     /* (file, line, col, parent) -> frame index */
    struct frame_slot *ptab;     /* (file, line, col) -> the frame that position was inlined in */
    uint32_t ftab_cap, ftab_n, ptab_cap, ptab_n;
};

/* ---- helpers ---------------------------------------------------------------------------- */

static unsigned col_of(const struct parser *ps, const char *at)
{
    return at >= ps->line_start ? (unsigned)(at - ps->line_start) + 1 : 1;
}

static int fail_at(struct parser *ps, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_at(struct parser *ps, const char *at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* place the error from the text itself: the cursor may have moved past `at` */
    unsigned line = 1;
    const char *ls = ps->text;
    if (at < ps->text || at > ps->end)
        at = ps->p;
    for (const char *q = ps->text; q < at; q++)
        if (*q == '\n') {
            line++;
            ls = q + 1;
        }
    return smem_error_set(ps->err, ps->name, line, (unsigned)(at - ls) + 1, "%s", msg);
}

static int grow(void **buf, uint32_t *cap, uint32_t need, size_t elem, uint32_t max)
{
    if (need <= *cap)
        return 0;
    if (need > max)
        return -1;
    uint32_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc = nc > max / 2 ? max : nc * 2;
    void *nb = realloc(*buf, (size_t)nc * elem);
    if (!nb)
        return -1;
    memset((char *)nb + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *buf = nb;
    *cap = nc;
    return 0;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Skips blanks, newlines and comments; fails on bytes that are not PTX text. */
static int skip_ws(struct parser *ps)
{
    while (ps->p < ps->end) {
        unsigned char c = (unsigned char)*ps->p;
        if (c == '\n') {
            ps->p++;
            ps->line++;
            ps->line_start = ps->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ps->p++;
        } else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '/') {
            while (ps->p < ps->end && *ps->p != '\n')
                ps->p++;
        } else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '*') {
            const char *start = ps->p;
            ps->p += 2;
            while (ps->p + 1 < ps->end && !(ps->p[0] == '*' && ps->p[1] == '/')) {
                if (*ps->p == '\n') {
                    ps->line++;
                    ps->line_start = ps->p + 1;
                }
                ps->p++;
            }
            if (ps->p + 1 >= ps->end)
                return fail_at(ps, start, "unterminated comment");
            ps->p += 2;
        } else if (c == 0 || (c < 32) || c >= 127) {
            char hex[8];
            snprintf(hex, sizeof hex, "0x%02x", c);
            return fail_at(ps, ps->p, "unexpected byte %s: this is not PTX text", hex);
        } else {
            return 0;
        }
    }
    return 0;
}

static int is_ident_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static int is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

/* Reads an identifier or directive word ([.%$_a-zA-Z][.$_:a-zA-Z0-9]*) into buf. */
static int read_word(struct parser *ps, char *buf, size_t size)
{
    const char *s = ps->p;
    if (ps->p >= ps->end || !is_ident_start((unsigned char)*ps->p))
        return fail_at(ps, s, "expected a name");
    ps->p++;
    /* "::" belongs to names like .shared::cta; a single ':' ends a label */
    while (ps->p < ps->end && (is_ident_char((unsigned char)*ps->p) ||
                               (*ps->p == ':' && ps->p + 1 < ps->end && ps->p[1] == ':'))) {
        ps->p += *ps->p == ':' ? 2 : 1;
    }
    size_t n = (size_t)(ps->p - s);
    if (n >= size || n >= MAX_IDENT)
        return fail_at(ps, s, "name too long");
    memcpy(buf, s, n);
    buf[n] = 0;
    return 0;
}

/* Skips to just past the next ';' (for directives we only need to step over). */
static int skip_statement(struct parser *ps)
{
    const char *s = ps->p;
    while (ps->p < ps->end && *ps->p != ';') {
        if (*ps->p == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        }
        ps->p++;
    }
    if (ps->p >= ps->end)
        return fail_at(ps, s, "missing ';' at end of statement");
    ps->p++;
    return 0;
}

static int expect(struct parser *ps, char c)
{
    if (skip_ws(ps))
        return -1;
    if (ps->p >= ps->end || *ps->p != c) {
        char what[4] = {'\'', c, '\'', 0};
        return fail_at(ps, ps->p < ps->end ? ps->p : ps->end, "expected %s", what);
    }
    ps->p++;
    return 0;
}

static int peek(struct parser *ps, char c)
{
    if (skip_ws(ps))
        return -1;
    return ps->p < ps->end && *ps->p == c;
}

/* Integer literal: decimal, 0x hex, 0 octal, with optional sign and U suffix. */
static int read_int(struct parser *ps, int64_t *out)
{
    const char *s = ps->p;
    int neg = 0;
    if (ps->p < ps->end && (*ps->p == '-' || *ps->p == '+'))
        neg = *ps->p++ == '-';
    if (ps->p >= ps->end || !isdigit((unsigned char)*ps->p))
        return fail_at(ps, s, "expected a number");
    uint64_t v = 0;
    int base = 10;
    if (*ps->p == '0' && ps->p + 1 < ps->end && (ps->p[1] == 'x' || ps->p[1] == 'X')) {
        base = 16;
        ps->p += 2;
    } else if (*ps->p == '0' && ps->p + 1 < ps->end && isdigit((unsigned char)ps->p[1])) {
        base = 8;
        ps->p++;
    }
    int digits = 0;
    while (ps->p < ps->end && isxdigit((unsigned char)*ps->p)) {
        int c = (unsigned char)*ps->p, d = isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10);
        if (d >= base)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return fail_at(ps, s, "number too large");
        v = v * (uint64_t)base + (uint64_t)d;
        ps->p++;
        digits++;
    }
    if (!digits && base == 16)
        return fail_at(ps, s, "expected hex digits");
    if (ps->p < ps->end && (*ps->p == 'U' || *ps->p == 'u'))
        ps->p++;
    if (ps->p < ps->end && is_ident_char((unsigned char)*ps->p))
        return fail_at(ps, s, "malformed number");
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

/* ---- tables ------------------------------------------------------------------------------ */

static uint8_t type_of(const char *s) { return ptx_type_of(s, TYW_REG); }

static const struct {
    const char *name;
    uint8_t sreg;
} sreg_names[] = {
    {"%tid.x", SR_TID_X},         {"%tid.y", SR_TID_Y},         {"%tid.z", SR_TID_Z},
    {"%ntid.x", SR_NTID_X},       {"%ntid.y", SR_NTID_Y},       {"%ntid.z", SR_NTID_Z},
    {"%ctaid.x", SR_CTAID_X},     {"%ctaid.y", SR_CTAID_Y},     {"%ctaid.z", SR_CTAID_Z},
    {"%nctaid.x", SR_NCTAID_X},   {"%nctaid.y", SR_NCTAID_Y},   {"%nctaid.z", SR_NCTAID_Z},
    {"%laneid", SR_LANEID},       {"%warpid", SR_WARPID},       {"%nwarpid", SR_NWARPID},
    {"%smid", SR_SMID},           {"%nsmid", SR_NSMID},         {"%gridid", SR_GRIDID},
    {"%lanemask_eq", SR_LANEMASK_EQ}, {"%lanemask_lt", SR_LANEMASK_LT},
    {"%lanemask_le", SR_LANEMASK_LE}, {"%lanemask_gt", SR_LANEMASK_GT},
    {"%lanemask_ge", SR_LANEMASK_GE}, {"%clock", SR_CLOCK},     {"%clock64", SR_CLOCK64},
    {"%globaltimer", SR_GLOBALTIMER}, {"%dynamic_smem_size", SR_DYN_SMEM},
    {"%total_smem_size", SR_TOTAL_SMEM}, {"%clusterid.x", SR_CLUSTERID},
    {"%cluster_ctarank", SR_CLUSTER_CTARANK}, {"%cluster_nctarank", SR_CLUSTER_NCTARANK},
    {"%clusterid.y", SR_CLUSTERID_Y}, {"%clusterid.z", SR_CLUSTERID_Z},
    {"%nclusterid.x", SR_NCLUSTERID_X}, {"%nclusterid.y", SR_NCLUSTERID_Y},
    {"%nclusterid.z", SR_NCLUSTERID_Z}, {"%cluster_ctaid.x", SR_CLUSTER_CTAID_X},
    {"%cluster_ctaid.y", SR_CLUSTER_CTAID_Y}, {"%cluster_ctaid.z", SR_CLUSTER_CTAID_Z},
    {"%cluster_nctaid.x", SR_CLUSTER_NCTAID_X}, {"%cluster_nctaid.y", SR_CLUSTER_NCTAID_Y},
    {"%cluster_nctaid.z", SR_CLUSTER_NCTAID_Z}, {"%is_explicit_cluster", SR_IS_EXPLICIT_CLUSTER},
};

static const struct {
    const char *name;
    uint8_t cmp;
} cmp_names[] = {
    {"eq", CMP_EQ},   {"ne", CMP_NE},   {"lt", CMP_LT},   {"le", CMP_LE},   {"gt", CMP_GT},
    {"ge", CMP_GE},   {"lo", CMP_LO},   {"ls", CMP_LS},   {"hi", CMP_HI},   {"hs", CMP_HS},
    {"equ", CMP_EQU}, {"neu", CMP_NEU}, {"ltu", CMP_LTU}, {"leu", CMP_LEU}, {"gtu", CMP_GTU},
    {"geu", CMP_GEU}, {"num", CMP_NUM}, {"nan", CMP_NAN},
};

/* The ordering of a memory instruction's .relaxed / .acquire / .release / .acq_rel */
static uint32_t sem_flags(const char *part)
{
    return !strcmp(part, "acquire") ? SMEM_TF_ACQUIRE : !strcmp(part, "release") ? SMEM_TF_RELEASE
         : !strcmp(part, "acq_rel") ? SMEM_TF_ACQUIRE | SMEM_TF_RELEASE : SMEM_TF_RELAXED;
}

/* Modifiers that do not change what the emulator computes (cache hints, scopes, orderings). */
static const char *const ignored_mods[] = {
    "approx", "full", "volatile", "relaxed", "acquire", "release", "acq_rel", "weak", "mmio",
    "sys", "gpu", "cta", "cluster", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "uni", "sync",
    "aligned", "relu", "noftz", "sc", "nan", "xorsign", "abs", "cc", "to", "uni", "L1",
    "shiftamt", "clamp", "wrap", "collector", "proxy", "async", "alias", "noinc", "bulk_group",
    "sem", "oob", "satfinite", "ftz", "sat", NULL,
};

/* ---- registers and symbols --------------------------------------------------------------- */

static int add_reg_range(struct parser *ps, const char *at, const char *prefix, uint32_t count,
                         uint8_t type, int single)
{
    struct smem_ptx_func *f = ps->f;
    if (count == 0 || count > MAX_REGS || f->nregs + count > MAX_REGS)
        return fail_at(ps, at, "too many registers declared (%s)", prefix);
    /* The same declaration in a scope that has closed (inline asm's `{ .reg .pred p; ... }`, once
     * per use) gets the same registers back: nothing outside the scope can read them. */
    for (uint32_t i = 0; i < ps->nranges; i++) {
        struct reg_range *q = &ps->ranges[i];
        if (!strcmp(q->prefix, prefix) && q->count == count && q->type == type &&
            q->single == single && (q->dead || q->depth == ps->depth)) {
            q->dead = 0;
            q->depth = ps->depth;
            return 0;
        }
    }
    if (grow((void **)&ps->ranges, &ps->cap_ranges, ps->nranges + 1, sizeof *ps->ranges, MAX_SYMS))
        return fail_at(ps, at, "too many register declarations");
    struct reg_range *r = &ps->ranges[ps->nranges++];
    r->prefix = dupn(prefix, strlen(prefix));
    r->count = count;
    r->base = f->nregs;
    r->type = type;
    r->single = (uint8_t)single;
    r->dead = 0;
    r->depth = ps->depth;
    uint8_t *nt = realloc(f->reg_type, f->nregs + count);
    if (!r->prefix || !nt)
        return fail_at(ps, at, "out of memory");
    f->reg_type = nt;
    memset(nt + f->nregs, type, count);
    f->nregs += count;
    return 0;
}

/* Slot of a register name, or -1. A range %r<N> matches %r0..%r(N-1); a plain name matches itself
 * (stored as a range of count 1 whose prefix is the full name). Names of closed scopes are not
 * visible; of two visible ones the later (the innermost scope's) wins. */
static int32_t find_reg(const struct parser *ps, const char *name)
{
    size_t n = strlen(name);
    int32_t best = -1;
    size_t best_len = 0;
    for (uint32_t i = 0; i < ps->nranges; i++) {
        const struct reg_range *r = &ps->ranges[i];
        if (r->dead)
            continue;
        size_t pl = strlen(r->prefix);
        if (pl > n || memcmp(r->prefix, name, pl))
            continue;
        if (r->single) {
            if (pl == n && pl >= best_len) {
                best = (int32_t)r->base;
                best_len = pl;
            }
            continue;
        }
        /* range: the rest must be a decimal index below count */
        const char *d = name + pl;
        if (!*d || !isdigit((unsigned char)*d) || (d[0] == '0' && d[1]))
            continue;
        uint64_t idx = 0;
        for (; *d && isdigit((unsigned char)*d) && idx < MAX_REGS; d++)
            idx = idx * 10 + (uint64_t)(*d - '0');
        if (*d || idx >= r->count)
            continue;
        if (pl >= best_len) {
            best = (int32_t)(r->base + idx);
            best_len = pl;
        }
    }
    return best;
}

static int32_t find_sym(const struct parser *ps, const char *name)
{
    const struct smem_ptx_func *f = ps->f;
    for (uint32_t i = f ? f->nsyms : 0; i-- > 0;)
        if (!strcmp(f->syms[i].name, name))
            return (int32_t)i;
    return -1;
}

static int add_sym(struct parser *ps, const char *at, struct smem_ptx_symbol *s)
{
    struct smem_ptx_func *f = ps->f;
    if (grow((void **)&f->syms, &ps->cap_syms, f->nsyms + 1, sizeof *f->syms, MAX_SYMS)) {
        free(s->name);
        s->name = NULL;
        return fail_at(ps, at, "too many symbols");
    }
    f->syms[f->nsyms++] = *s;
    return 0;
}

/* ---- declarations ------------------------------------------------------------------------ */

/* One scalar of an initializer: a number, a float (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX, decimal) or a
 * symbol's address (name, generic(name), either + offset). Written at *pos. */
static int init_scalar(struct parser *ps, struct smem_ptx_symbol *sym, unsigned elem,
                       uint64_t *pos, uint64_t *cap)
{
    if (skip_ws(ps))
        return -1;
    const char *at = ps->p;
    if (*pos + elem > *cap) {
        uint64_t nc = *cap ? *cap * 2 : 64;
        while (nc < *pos + elem)
            nc *= 2;
        if (nc > (1ull << 30))
            return fail_at(ps, at, "initializer too large");
        uint8_t *nb = realloc(sym->init, (size_t)nc);
        if (!nb)
            return fail_at(ps, at, "out of memory");
        memset(nb + *cap, 0, (size_t)(nc - *cap));
        sym->init = nb;
        *cap = nc;
    }
    uint64_t bits = 0;
    if (ps->p + 2 < ps->end && ps->p[0] == '0' && (ps->p[1] == 'f' || ps->p[1] == 'F' ||
                                                 ps->p[1] == 'd' || ps->p[1] == 'D')) {
        int dbl = ps->p[1] == 'd' || ps->p[1] == 'D';
        ps->p += 2;
        unsigned digits = 0;
        while (ps->p < ps->end && isxdigit((unsigned char)*ps->p) && digits < 16) {
            int c = (unsigned char)*ps->p++;
            bits = bits << 4 | (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
            digits++;
        }
        if (digits != (dbl ? 16u : 8u))
            return fail_at(ps, at, "malformed float literal");
        if (elem == 8 && !dbl) { /* a float literal for a double: convert */
            float f;
            uint32_t u = (uint32_t)bits;
            memcpy(&f, &u, 4);
            double d = f;
            memcpy(&bits, &d, 8);
        } else if (elem == 4 && dbl) {
            double d;
            memcpy(&d, &bits, 8);
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        }
    } else if (ps->p < ps->end && (isdigit((unsigned char)*ps->p) || *ps->p == '-' ||
                                   *ps->p == '+')) {
        const char *q = ps->p + (*ps->p == '-' || *ps->p == '+');
        while (q < ps->end && isdigit((unsigned char)*q))
            q++;
        if (q < ps->end && (*q == '.' || *q == 'e' || *q == 'E')) { /* decimal float */
            char num[64];
            size_t n = 0;
            while (ps->p < ps->end && n < sizeof num - 1 &&
                   (isdigit((unsigned char)*ps->p) || strchr("+-.eE", *ps->p)))
                num[n++] = *ps->p++;
            num[n] = 0;
            double d = strtod(num, NULL);
            if (elem == 4) {
                float f = (float)d;
                uint32_t u;
                memcpy(&u, &f, 4);
                bits = u;
            } else {
                memcpy(&bits, &d, 8);
            }
        } else {
            int64_t v;
            if (read_int(ps, &v))
                return -1;
            bits = (uint64_t)v;
        }
    } else {
        char w[MAX_IDENT + 1];
        int generic = 0;
        if (read_word(ps, w, sizeof w))
            return -1;
        if (!strcmp(w, "generic")) {
            generic = 1;
            if (expect(ps, '(') || skip_ws(ps) || read_word(ps, w, sizeof w) || expect(ps, ')'))
                return -1;
        }
        int64_t add = 0;
        if (skip_ws(ps))
            return -1;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) {
            int neg = *ps->p++ == '-';
            if (skip_ws(ps) || read_int(ps, &add))
                return -1;
            if (neg)
                add = -add;
        }
        struct smem_ptx_reloc *nr = realloc(sym->relocs, (sym->nrelocs + 1) * sizeof *nr);
        if (!nr)
            return fail_at(ps, at, "out of memory");
        sym->relocs = nr;
        struct smem_ptx_reloc *r = &nr[sym->nrelocs];
        r->offset = *pos;
        r->sym = dupn(w, strlen(w));
        r->addend = add;
        r->bytes = (uint8_t)elem;
        r->generic = (uint8_t)generic;
        if (!r->sym)
            return fail_at(ps, at, "out of memory");
        sym->nrelocs++;
    }
    for (unsigned i = 0; i < elem && i < 8; i++)
        sym->init[*pos + i] = (uint8_t)(bits >> (8 * i));
    *pos += elem;
    return 0;
}

static int init_value(struct parser *ps, struct smem_ptx_symbol *sym, unsigned elem,
                      uint64_t *pos, uint64_t *cap, int depth)
{
    if (skip_ws(ps))
        return -1;
    if (ps->p < ps->end && *ps->p == '{') {
        if (depth > 8)
            return fail_at(ps, ps->p, "initializer nested too deeply");
        ps->p++;
        for (;;) {
            if (init_value(ps, sym, elem, pos, cap, depth + 1) || skip_ws(ps))
                return -1;
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            return expect(ps, '}');
        }
    }
    return init_scalar(ps, sym, elem, pos, cap);
}

/* `= value` of a module variable: its bytes into sym->init (sym->size of them; an unsized array
 * takes its size from the initializer). */
static int read_init(struct parser *ps, struct smem_ptx_symbol *sym, unsigned elem)
{
    uint64_t pos = 0, cap = 0;
    const char *at = ps->p;
    if (!elem || elem > 8)
        return fail_at(ps, at, "initializer for a type of %u bytes", elem);
    if (init_value(ps, sym, elem, &pos, &cap, 0))
        return -1;
    if (!sym->size) {
        sym->size = pos;
        if (sym->kind == 0xff)
            sym->kind = 0;
    }
    if (pos > sym->size)
        return fail_at(ps, at, "initializer larger than '%s'", sym->name);
    if (cap < sym->size) {
        uint8_t *nb = realloc(sym->init, (size_t)(sym->size ? sym->size : 1));
        if (!nb)
            return fail_at(ps, at, "out of memory");
        memset(nb + cap, 0, (size_t)(sym->size - cap));
        sym->init = nb;
    }
    return 0;
}

/* Reads `[.align N] [.vN] .type name[dims] [= {...}]` after the state space word; fills sym. */
static int read_var_decl_inner(struct parser *ps, struct smem_ptx_symbol *sym, int allow_init)
{
    char w[MAX_IDENT + 1];
    unsigned vec = 1;
    memset(sym, 0, sizeof *sym);
    sym->align = 0;
    for (;;) {
        if (skip_ws(ps))
            return -1;
        if (ps->p < ps->end && *ps->p == '.') {
            const char *at = ps->p;
            if (read_word(ps, w, sizeof w))
                return -1;
            if (!strcmp(w, ".align")) {
                int64_t a;
                if (skip_ws(ps) || read_int(ps, &a))
                    return -1;
                if (a <= 0 || a > 4096 || (a & (a - 1)))
                    return fail_at(ps, at, "bad alignment");
                sym->align = (uint32_t)a;
            } else if (!strcmp(w, ".v2") || !strcmp(w, ".v4") || !strcmp(w, ".v8")) {
                vec = (unsigned)(w[2] - '0');
            } else if (type_of(w + 1) != PT_NONE) {
                sym->type = type_of(w + 1);
            } else if (!strcmp(w, ".attribute")) {
                /* .attribute(.managed) / (.unified(...)): where the memory lives, not its layout */
                if (expect(ps, '('))
                    return -1;
                int depth = 1;
                while (ps->p < ps->end && depth && *ps->p != ';' && *ps->p != '\n') {
                    depth += *ps->p == '(' ? 1 : *ps->p == ')' ? -1 : 0;
                    ps->p++;
                }
                if (depth)
                    return fail_at(ps, at, "unterminated .attribute(...)");
            } else if (!strcmp(w, ".ptr") || !strcmp(w, ".global") || !strcmp(w, ".shared") ||
                       !strcmp(w, ".const") || !strcmp(w, ".local")) {
                /* .param .u64 .ptr .global .align 1 name: a kernel pointer attribute */
            } else {
                return fail_at(ps, at, "unexpected '%s' in a declaration", w);
            }
            continue;
        }
        break;
    }
    if (!sym->type) {
        return fail_at(ps, ps->p, "declaration without a type");
    }
    const char *at = ps->p;
    if (read_word(ps, w, sizeof w))
        return -1;
    sym->name = dupn(w, strlen(w));
    if (!sym->name)
        return fail_at(ps, at, "out of memory");
    sym->decl_line = ps->line;
    uint64_t count = vec, elem = smem_ptx_type_bytes(sym->type);
    int unsized = 0;
    while (peek(ps, '[') == 1) {
        ps->p++;
        if (peek(ps, ']') == 1) {
            ps->p++;
            unsized = 1;
            continue;
        }
        int64_t d;
        if (skip_ws(ps) || read_int(ps, &d) || expect(ps, ']'))
            return -1;
        if (d < 0 || (uint64_t)d > (1ull << 40) / (count ? count : 1))
            return fail_at(ps, at, "array dimension out of range in '%s'", sym->name);
        count *= (uint64_t)d;
    }
    sym->size = unsized ? 0 : count * elem;
    if (!sym->align)
        sym->align = (uint32_t)(elem * vec > 0 ? elem * vec : 1);
    if (unsized)
        sym->kind = 0xff; /* caller decides: extern [] */
    if (peek(ps, '=') == 1) {
        if (!allow_init)
            return fail_at(ps, ps->p, "initializer not allowed here");
        ps->p++;
        if (read_init(ps, sym, (unsigned)elem))
            return -1;
        if (expect(ps, ';'))
            return -1;
        return 1; /* statement consumed */
    }
    return 0;
}

static void free_init(struct smem_ptx_symbol *sym)
{
    for (uint32_t i = 0; i < sym->nrelocs; i++)
        free(sym->relocs[i].sym);
    free(sym->relocs);
    free(sym->init);
    sym->relocs = NULL;
    sym->nrelocs = 0;
    sym->init = NULL;
}

static int read_var_decl(struct parser *ps, struct smem_ptx_symbol *sym, int allow_init)
{
    int r = read_var_decl_inner(ps, sym, allow_init);
    if (r < 0) {
        free(sym->name);
        sym->name = NULL;
        free_init(sym);
    }
    return r;
}

/* .reg .type names ; */
static int read_reg_decl(struct parser *ps)
{
    char w[MAX_IDENT + 1];
    uint8_t type = PT_NONE;
    unsigned vec = 1;
    for (;;) {
        if (skip_ws(ps))
            return -1;
        if (ps->p < ps->end && *ps->p == '.') {
            const char *at = ps->p;
            if (read_word(ps, w, sizeof w))
                return -1;
            if (!strcmp(w, ".v2") || !strcmp(w, ".v4"))
                vec = (unsigned)(w[2] - '0');
            else if ((type = type_of(w + 1)) == PT_NONE)
                return fail_at(ps, at, "unknown register type '%s'", w);
            continue;
        }
        break;
    }
    (void)vec;
    if (!type)
        return fail_at(ps, ps->p, "register declaration without a type");
    for (;;) {
        const char *at = ps->p;
        if (skip_ws(ps) || read_word(ps, w, sizeof w))
            return -1;
        if (peek(ps, '<') == 1) {
            ps->p++;
            int64_t n;
            if (skip_ws(ps) || read_int(ps, &n) || expect(ps, '>'))
                return -1;
            if (n <= 0 || n > (int64_t)MAX_REGS)
                return fail_at(ps, at, "absurd register count for '%s'", w);
            if (add_reg_range(ps, at, w, (uint32_t)n, type, 0))
                return -1;
        } else {
            if (add_reg_range(ps, at, w, 1, type, 1))
                return -1;
        }
        if (peek(ps, ',') == 1) {
            ps->p++;
            continue;
        }
        return expect(ps, ';');
    }
}

/* ---- operands ---------------------------------------------------------------------------- */

static int read_reg_operand(struct parser *ps, int32_t *slot)
{
    char w[MAX_IDENT + 1];
    const char *at = ps->p;
    if (read_word(ps, w, sizeof w))
        return -1;
    if (!strcmp(w, "_")) {
        *slot = -1;
        return 0;
    }
    *slot = find_reg(ps, w);
    if (*slot < 0)
        return fail_at(ps, at, "undeclared register '%s'", w);
    return 0;
}

static int read_float_imm(struct parser *ps, int64_t *out)
{
    /* 0fXXXXXXXX (f32 bits) or 0dXXXXXXXXXXXXXXXX (f64 bits) */
    const char *s = ps->p;
    int is_d = ps->p[1] == 'd' || ps->p[1] == 'D';
    ps->p += 2;
    uint64_t v = 0;
    int n = 0;
    while (ps->p < ps->end && isxdigit((unsigned char)*ps->p) && n < 17) {
        int c = (unsigned char)*ps->p++;
        v = v * 16 + (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
        n++;
    }
    if (n != (is_d ? 16 : 8))
        return fail_at(ps, s, "malformed floating-point literal");
    *out = (int64_t)v;
    return 0;
}

/* A decimal float literal (digits with a '.' or an exponent: 1.0, -0.5, 2e-3), as the PTX ISA allows
 * beside 0f / 0d bits: inline asm passes it through (createpolicy.fractional's fraction, written
 * `1.0` in hand-written policies; any float instruction). 1 read (f64 bits in *out), 0 not one
 * (nothing consumed), -1 failed. */
static int read_decimal_float(struct parser *ps, int64_t *out)
{
    const char *s = ps->p, *q = s;
    if (q < ps->end && (*q == '-' || *q == '+'))
        q++;
    int digits = 0, dot = 0, expo = 0;
    while (q < ps->end && isdigit((unsigned char)*q))
        q++, digits++;
    if (q < ps->end && *q == '.') {
        dot = 1;
        for (q++; q < ps->end && isdigit((unsigned char)*q); q++)
            digits++;
    }
    if (digits && q < ps->end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < ps->end && (*e == '-' || *e == '+'))
            e++;
        if (e < ps->end && isdigit((unsigned char)*e)) {
            expo = 1;
            for (q = e; q < ps->end && isdigit((unsigned char)*q); q++)
                ;
        }
    }
    if (!digits || !(dot || expo))
        return 0;
    if (q < ps->end && is_ident_char((unsigned char)*q))
        return fail_at(ps, s, "malformed floating-point literal");
    char buf[80];
    if ((size_t)(q - s) >= sizeof buf)
        return fail_at(ps, s, "floating-point literal too long");
    memcpy(buf, s, (size_t)(q - s));
    buf[q - s] = 0;
    double d = strtod(buf, NULL);
    memcpy(out, &d, sizeof d);
    ps->p = q;
    return 1;
}

/* The instruction's decimal float literals in its own type: f32 bits for .f32, f64 bits kept for
 * .f64 and where the type is not a float (createpolicy's .b64 fraction); .f16 / .bf16 refused. */
static int convert_decimal_floats(struct parser *ps, const char *at, struct smem_ptx_insn *in)
{
    for (unsigned i = 0; i < in->nops; ++i) {
        struct smem_ptx_operand *o = &in->ops[i];
        if (o->kind != OPK_IMM || !o->fdec)
            continue;
        double d;
        memcpy(&d, &o->imm, sizeof d);
        if (in->type == PT_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, sizeof u);
            o->imm = (int64_t)u;
        } else if (in->type == PT_F16 || in->type == PT_BF16 || in->type == PT_F16X2 || in->type == PT_BF16X2) {
            return fail_at(ps, at, "a decimal floating-point literal in a .%s instruction is not supported (write it "
                                   "as 0f / 0x bits)",
                           smem_ptx_type_name(in->type));
        }
    }
    return 0;
}

static int read_operand(struct parser *ps, struct smem_ptx_operand *o)
{
    char w[MAX_IDENT + 1];
    memset(o, 0, sizeof *o);
    o->sym = -1;
    o->reg[0] = o->reg[1] = o->reg[2] = o->reg[3] = -1;
    if (skip_ws(ps))
        return -1;
    if (ps->p >= ps->end)
        return fail_at(ps, ps->end, "missing operand");
    const char *at = ps->p;
    char c = *ps->p;
    if (c == '!') {
        ps->p++;
        o->neg = 1;
        if (skip_ws(ps))
            return -1;
        at = ps->p;
        c = ps->p < ps->end ? *ps->p : 0;
    }
    if (c == '[') { /* memory operand */
        ps->p++;
        o->kind = OPK_ADDR;
        if (skip_ws(ps))
            return -1;
        if (ps->p < ps->end && (isdigit((unsigned char)*ps->p) || *ps->p == '-')) {
            if (read_int(ps, &o->imm))
                return -1;
        } else {
            const char *wat = ps->p;
            if (read_word(ps, w, sizeof w))
                return -1;
            if (w[0] == '%' || find_reg(ps, w) >= 0) { /* inline asm names registers freely */
                o->reg[0] = find_reg(ps, w);
                if (o->reg[0] < 0)
                    return fail_at(ps, wat, "undeclared register '%s'", w);
            } else {
                o->sym = find_sym(ps, w);
                if (o->sym < 0)
                    return fail_at(ps, wat, "unknown symbol '%s'", w);
            }
            if (skip_ws(ps))
                return -1;
            if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) {
                int neg = *ps->p == '-';
                ps->p++;
                if (skip_ws(ps) || read_int(ps, &o->imm))
                    return -1;
                if (neg)
                    o->imm = -o->imm;
            }
        }
        return expect(ps, ']');
    }
    if (c == '{') { /* vector */
        ps->p++;
        o->kind = OPK_VEC;
        for (;;) {
            if (o->count >= 128) /* wgmma .m64n256 f32: 128 accumulators */
                return fail_at(ps, at, "vector of more than 128 elements");
            if (o->count >= 4) { /* a fragment of mma / wmma / wgmma: its registers go to the pool */
                struct smem_ptx_func *f = ps->f;
                if (!f || grow((void **)&f->vregs, &ps->cap_vregs, f->nvregs + 5, sizeof *f->vregs, MAX_INSNS))
                    return fail_at(ps, at, "vector of more than 4 elements here");
                if (o->count == 4) {
                    o->kind = OPK_VECX;
                    o->imm = f->nvregs;
                    memcpy(f->vregs + f->nvregs, o->reg, 4 * sizeof o->reg[0]);
                    f->nvregs += 4;
                }
            }
            int32_t r;
            if (skip_ws(ps) || read_reg_operand(ps, o->count < 4 ? &o->reg[o->count] : &r))
                return -1;
            if (o->count >= 4)
                ps->f->vregs[ps->f->nvregs++] = r;
            o->count++;
            if (peek(ps, ',') == 1) {
                ps->p++;
                continue;
            }
            return expect(ps, '}');
        }
    }
    if (c == '-' || c == '+' || isdigit((unsigned char)c)) {
        o->kind = OPK_IMM;
        if (c == '0' && ps->p + 1 < ps->end &&
            (ps->p[1] == 'f' || ps->p[1] == 'F' || ps->p[1] == 'd' || ps->p[1] == 'D'))
            return read_float_imm(ps, &o->imm);
        int r = read_decimal_float(ps, &o->imm);
        if (r)
            return r < 0 ? -1 : (o->fdec = 1, 0);
        return read_int(ps, &o->imm);
    }
    if (read_word(ps, w, sizeof w))
        return -1;
    if (!strcmp(w, "_")) {
        o->kind = OPK_SINK;
        return 0;
    }
    if (!strcmp(w, "WARP_SZ")) { /* PTX's built-in constant: the warp size */
        o->kind = OPK_IMM;
        o->imm = 32;
        return 0;
    }
    if (w[0] == '%' || find_reg(ps, w) >= 0) {
        for (size_t i = 0; i < sizeof sreg_names / sizeof sreg_names[0]; i++)
            if (!strcmp(w, sreg_names[i].name)) {
                o->kind = OPK_SREG;
                o->imm = sreg_names[i].sreg;
                return 0;
            }
        if ((!strncmp(w, "%envreg", 7) && isdigit((unsigned char)w[7])) ||
            !strncmp(w, "%reserved_smem_offset_", 22)) {
            o->kind = OPK_SREG;
            o->imm = SR_ENVREG;
            return 0;
        }
        o->reg[0] = find_reg(ps, w);
        if (o->reg[0] < 0)
            return fail_at(ps, at, "undeclared register '%s'", w);
        o->kind = OPK_REG;
        if (peek(ps, '|') == 1) {
            ps->p++;
            if (skip_ws(ps) || read_reg_operand(ps, &o->reg[1]))
                return -1;
            o->kind = OPK_PAIR;
        }
        return 0;
    }
    /* a symbol or a label */
    o->sym = find_sym(ps, w);
    if (o->sym >= 0) {
        o->kind = OPK_SYM;
        if (skip_ws(ps))
            return -1;
        if (ps->p < ps->end && *ps->p == '+') {
            ps->p++;
            if (skip_ws(ps) || read_int(ps, &o->imm))
                return -1;
        }
        return 0;
    }
    /* a function's address (mov.u64 %rd1, kernel; a device-side launch, a function pointer):
     * a symbol of its own, which the emulator gives a fake global address */
    for (uint32_t i = 0; i < ps->m->nfuncs; i++)
        if (ps->m->funcs[i].name && !strcmp(ps->m->funcs[i].name, w)) {
            struct smem_ptx_symbol s;
            memset(&s, 0, sizeof s);
            s.name = dupn(w, strlen(w));
            s.kind = SYM_FUNC;
            if (!s.name || add_sym(ps, at, &s))
                return -1;
            o->sym = (int32_t)(ps->f->nsyms - 1);
            o->kind = OPK_SYM;
            return 0;
        }
    o->kind = OPK_LABEL;
    if (grow((void **)&ps->fixups, &ps->cap_fixups, ps->nfixups + 1, sizeof *ps->fixups, MAX_INSNS))
        return fail_at(ps, at, "too many branches");
    struct fixup *fx = &ps->fixups[ps->nfixups++];
    fx->insn = ps->f->ninsns;
    fx->opnd = 0xffffffffu; /* set by caller */
    fx->label = dupn(w, strlen(w));
    fx->line = ps->line;
    fx->col = col_of(ps, at);
    fx->scope = ps->scope;
    return fx->label ? 0 : fail_at(ps, at, "out of memory");
}

/* ---- instructions ------------------------------------------------------------------------ */

static int is_ignored_mod(const char *m)
{
    if (strstr(m, "::"))
        return 1;
    for (int i = 0; ignored_mods[i]; i++)
        if (!strcmp(m, ignored_mods[i]))
            return 1;
    return 0;
}

/* cp.async.bulk's modifiers (after "cp.async"): which copy, and the forms not emulated. */
/* cp.async.bulk's modifiers (after "async"); reduce: cp.reduce.async.bulk.tensor, whose
 * operation (.add .. .xor) goes to in->redop. */
static int decode_bulk(struct parser *ps, const char *at, struct smem_ptx_insn *in, char **save, int reduce)
{
    static const char *const rops[] = {"add", "inc", "dec", "min", "max", "and", "or", "xor"};
    static const uint8_t rmode[] = {MODE_ATOM_ADD, MODE_ATOM_INC, MODE_ATOM_DEC, MODE_ATOM_MIN,
                                    MODE_ATOM_MAX, MODE_ATOM_AND, MODE_ATOM_OR, MODE_ATOM_XOR};
    char *part;
    int dst = 0, src = 0; /* 1 shared::cta / shared, 2 shared::cluster, 3 global */
    int tensor = 0, multicast = 0, prefetch = 0;
    in->op = PO_CP_BULK;
    in->mode = 0;
    while ((part = strtok_r(NULL, ".", save))) {
        int sp = !strcmp(part, "global") ? 3 : !strcmp(part, "shared::cluster") ? 2
                 : !strcmp(part, "shared::cta") || !strcmp(part, "shared") ? 1 : 0;
        size_t k = 0;
        while (reduce && k < sizeof rops / sizeof rops[0] && strcmp(part, rops[k]))
            k++;
        if (sp) {
            if (!dst)
                dst = sp;
            else
                src = sp;
        } else if (reduce && k < sizeof rops / sizeof rops[0]) {
            in->redop = rmode[k];
        } else if (!strcmp(part, "bulk")) {
            continue;
        } else if (!strcmp(part, "tensor")) {
            tensor = 1;
        } else if (part[0] >= '1' && part[0] <= '5' && !strcmp(part + 1, "d")) {
            tensor = 1;
            in->shape_m = (uint8_t)(part[0] - '0');
        } else if (!strcmp(part, "multicast::cluster")) {
            multicast = 1;
        } else if (!strcmp(part, "im2col") || !strcmp(part, "im2col_no_offs")) {
            in->tflags |= SMEM_TF_IM2COL;
        } else if (!strcmp(part, "tile")) {
            continue;
        } else if (!strcmp(part, "prefetch")) {
            prefetch = 1;
        } else if (!strcmp(part, "commit_group")) {
            in->mode = MODE_BULK_COMMIT;
        } else if (!strcmp(part, "wait_group")) {
            in->mode = MODE_BULK_WAIT;
        } else if (!strcmp(part, "L2::cache_hint")) {
            in->tflags |= SMEM_TF_CACHE_HINT;
        } else if (!strcmp(part, "read") || !strcmp(part, "L2") || !strcmp(part, "bulk_group") ||
                   strstr(part, "::")) {
            continue; /* mbarrier::complete_tx::bytes, cp_mask, im2col, tile, ... */
        } else {
            return fail_at(ps, at, "unsupported cp.async.bulk modifier '.%s'", part);
        }
    }
    if (reduce) {
        if (!tensor || !in->shape_m)
            return fail_at(ps, at, "cp.reduce.async.bulk.tensor: the dimension (.1d to .5d) is missing");
        if (!in->redop)
            return fail_at(ps, at, "cp.reduce.async.bulk.tensor: the operation (.add, .min, .max, "
                                   ".inc, .dec, .and, .or, .xor) is missing");
        if (dst != 3 || src != 1 || multicast || prefetch)
            return fail_at(ps, at, "cp.reduce.async.bulk.tensor: only .global.shared::cta exists");
        in->mode = MODE_BULK_TENSOR_S2G;
        in->tflags |= SMEM_TF_REDUCE;
        return 0;
    }
    if (tensor) {
        if (multicast)
            in->tflags |= SMEM_TF_MULTICAST;
        if (!in->shape_m)
            return fail_at(ps, at, "cp.async.bulk.tensor: the dimension (.1d to .5d) is missing");
        in->mode = prefetch ? MODE_BULK_TENSOR_PREFETCH
                   : dst && dst < 3 && src == 3 ? MODE_BULK_TENSOR_G2S
                   : dst == 3 && src == 1 ? MODE_BULK_TENSOR_S2G : MODE_BULK_TENSOR;
        return 0;
    }
    if (!in->mode && multicast)
        in->mode = MODE_BULK_MULTICAST;
    if (!in->mode && prefetch)
        in->mode = MODE_BULK_PREFETCH;
    if (!in->mode) {
        if (dst == 3 && src == 1)
            in->mode = MODE_BULK_S2G;
        else if (dst && dst < 3 && src == 3)
            in->mode = MODE_BULK_G2S;
        else if (dst == 2 && src == 1)
            in->mode = MODE_BULK_S2S;
        else
            return fail_at(ps, at, "cp.async.bulk: unknown direction");
    }
    return 0;
}

/* cp.async.bulk.tensor's operands (the tile forms; ptx.h, MODE_BULK_TENSOR_*): [dst], then
 * [map, {c0, ..}] (the map a register or symbol, + an offset), then [mbar] or [src], then
 * .multicast::cluster's ctaMask; what follows (a cache policy) is not read. */
static int read_tensor_operands(struct parser *ps, struct smem_ptx_insn *in)
{
    char w[MAX_IDENT + 1];
    unsigned dim = in->shape_m;
    in->nops = 0;
    if (in->mode == MODE_BULK_TENSOR_G2S) {
        if (read_operand(ps, &in->ops[in->nops++]) || expect(ps, ','))
            return -1;
    }
    struct smem_ptx_operand *m = &in->ops[in->nops++];
    memset(m, 0, sizeof *m);
    m->kind = OPK_ADDR;
    m->sym = -1;
    m->reg[0] = m->reg[1] = m->reg[2] = m->reg[3] = -1;
    if (expect(ps, '[') || skip_ws(ps))
        return -1;
    const char *wat = ps->p;
    if (read_word(ps, w, sizeof w))
        return -1;
    if (w[0] == '%' || find_reg(ps, w) >= 0) {
        m->reg[0] = find_reg(ps, w);
        if (m->reg[0] < 0)
            return fail_at(ps, wat, "undeclared register '%s'", w);
    } else {
        m->sym = find_sym(ps, w);
        if (m->sym < 0)
            return fail_at(ps, wat, "unknown symbol '%s'", w);
    }
    if (skip_ws(ps))
        return -1;
    if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) {
        int neg = *ps->p == '-';
        ps->p++;
        if (skip_ws(ps) || read_int(ps, &m->imm))
            return -1;
        if (neg)
            m->imm = -m->imm;
    }
    if (expect(ps, ',') || expect(ps, '{'))
        return -1;
    for (unsigned i = 0;; i++) {
        if (i >= dim)
            return fail_at(ps, ps->p, "cp.async.bulk.tensor.%ud: more than %u coordinates", dim, dim);
        if (read_operand(ps, &in->ops[in->nops++]))
            return -1;
        if (peek(ps, ',') == 1) {
            ps->p++;
            continue;
        }
        if (expect(ps, '}'))
            return -1;
        if (i + 1 != dim)
            return fail_at(ps, ps->p, "cp.async.bulk.tensor.%ud: %u coordinates, not %u", dim, i + 1, dim);
        break;
    }
    if (expect(ps, ']'))
        return -1;
    if (in->mode != MODE_BULK_TENSOR_PREFETCH) {
        if (expect(ps, ',') || read_operand(ps, &in->ops[in->nops++]))
            return -1;
        if (in->ops[in->nops - 1].kind != OPK_ADDR)
            return fail_at(ps, ps->p, "cp.async.bulk.tensor: expected a [%s] operand",
                           in->mode == MODE_BULK_TENSOR_G2S ? "mbarrier" : "source");
    }
    if ((in->tflags & SMEM_TF_MULTICAST) && in->mode == MODE_BULK_TENSOR_G2S &&
        (in->nops >= SMEM_PTX_MAX_OPS || expect(ps, ',') || read_operand(ps, &in->ops[in->nops++])))
        return in->nops >= SMEM_PTX_MAX_OPS
                   ? fail_at(ps, ps->p, "cp.async.bulk.tensor.%ud.multicast::cluster: more operands "
                             "than the emulator reads", dim)
                   : -1; /* the ctaMask */
    return skip_statement(ps);
}

static int decode_mods(struct parser *ps, const char *at, struct smem_ptx_insn *in, char *opname)
{
    char *save = NULL, *part = strtok_r(opname, ".", &save);
    size_t i;
    in->op = ptx_op_of(part);
    if (ptx_tensor_first(part)) {
        char why[300];
        const char *msg = ptx_tensor_decode(part, &save, in, why, sizeof why);
        return msg ? fail_at(ps, at, "%s", msg) : 0;
    }
    if (!strcmp(part, "cp")) {
        part = strtok_r(NULL, ".", &save);
        if (part && !strcmp(part, "reduce")) { /* cp.reduce.async.bulk: not emulated; .tensor */
            in->op = PO_CP_BULK;
            in->mode = MODE_BULK_REDUCE;
            if (!save || !strstr(save, ".tensor."))
                return 0;
            part = strtok_r(NULL, ".", &save);
            if (!part || strcmp(part, "async"))
                return fail_at(ps, at, "unsupported instruction 'cp.reduce.%s'", part ? part : "");
            return decode_bulk(ps, at, in, &save, 1);
        }
        if (!part || strcmp(part, "async"))
            return fail_at(ps, at, "unsupported instruction 'cp.%s'", part ? part : "");
        char *rest = save ? save : (char *)"";
        if (!strncmp(rest, "bulk", 4))
            return decode_bulk(ps, at, in, &save, 0);
        in->op = PO_CP_ASYNC;
        in->space = SP_SHARED;
        while ((part = strtok_r(NULL, ".", &save))) {
            if (!strcmp(part, "commit_group") || !strcmp(part, "wait_group") || !strcmp(part, "wait_all")) {
                in->op = PO_CP_ASYNC_WAIT;
                in->mode = part[0] == 'c' ? MODE_CPA_COMMIT : part[5] == 'g' ? MODE_CPA_WAIT_GROUP
                                                                            : MODE_CPA_WAIT_ALL;
            } else if (!strcmp(part, "mbarrier") || !strcmp(part, "arrive")) {
                in->op = PO_CP_ASYNC_WAIT;
                in->mode = MODE_CPA_MBAR_ARRIVE;
            } else if (!strcmp(part, "noinc")) {
                in->tflags |= SMEM_TF_NOINC;
            } else if (!strcmp(part, "ca") || !strcmp(part, "cg")) {
                in->mode = part[1] == 'a' ? MODE_CPA_CA : MODE_CPA_CG;
            } else if (!strcmp(part, "L2::cache_hint")) {
                in->tflags |= SMEM_TF_CACHE_HINT;
            } else if (!strcmp(part, "shared::cluster")) {
                in->tflags |= SMEM_TF_CLUSTER;
            } else if (!strcmp(part, "b64") || !strcmp(part, "shared") || !strcmp(part, "global") ||
                       strstr(part, "::")) {
                continue; /* shared::cta, L2::128B prefetch sizes */
            } else {
                return fail_at(ps, at, "unsupported cp.async modifier '.%s'", part);
            }
        }
        if (in->op == PO_CP_ASYNC && !in->mode)
            return fail_at(ps, at, "cp.async needs .ca or .cg");
        return 0;
    }
    if (in->op == 0xff)
        return fail_at(ps, at, "unsupported instruction '%s'", part);
    if (in->op == PO_TEX || in->op == PO_SURF_ST)
        return 0; /* geometry, channel and type modifiers: nothing the emulator uses */
    in->vec = 1;
    int ntypes = 0;
    while ((part = strtok_r(NULL, ".", &save))) {
        uint8_t t = type_of(part);
        if (t != PT_NONE) {
            if (in->op == PO_VABSDIFF4 && ntypes == 2 && t != in->type2)
                return fail_at(ps, at, "vabsdiff4 with operands of two types is not modelled");
            if (ntypes == 0)
                in->type = t;
            else
                in->type2 = t;
            ntypes++;
            continue;
        }
        if (in->op == PO_VABSDIFF4) {
            if (!strcmp(part, "add")) { in->mode = MODE_WIDE; continue; } /* the sum of the bytes */
            return fail_at(ps, at, "vabsdiff4 without .add (a byte-select mask or .max/.min "
                                   "merge) is not modelled");
        }
        if ((in->op == PO_SETP || in->op == PO_SET || in->op == PO_SLCT) && !in->cmp) {
            for (i = 0; i < sizeof cmp_names / sizeof cmp_names[0]; i++)
                if (!strcmp(part, cmp_names[i].name))
                    in->cmp = cmp_names[i].cmp;
            if (in->cmp)
                continue;
        }
        if (in->op == PO_SETP || in->op == PO_SET) {
            if (!strcmp(part, "and")) { in->boolop = BOP_AND; continue; }
            if (!strcmp(part, "or")) { in->boolop = BOP_OR; continue; }
            if (!strcmp(part, "xor")) { in->boolop = BOP_XOR; continue; }
        }
        if (!strcmp(part, "async") && (in->op == PO_ST || in->op == PO_RED)) {
            in->op = in->op == PO_ST ? PO_ST_ASYNC : PO_RED_ASYNC; /* into another CTA */
            continue;
        }
        if (in->op == PO_ATOM || in->op == PO_RED || in->op == PO_REDUX || in->op == PO_BAR ||
            in->op == PO_BAR_RED || in->op == PO_RED_ASYNC) {
            static const char *const an[] = {"add", "inc", "dec", "min", "max", "and", "or",
                                             "xor", "exch", "cas", NULL};
            int k;
            for (k = 0; an[k] && strcmp(part, an[k]); k++)
                ;
            if (an[k]) {
                in->mode = (uint8_t)(MODE_ATOM_ADD + k);
                continue;
            }
            if ((in->op == PO_BAR || in->op == PO_BAR_RED) && !strcmp(part, "popc")) {
                in->mode = MODE_ATOM_ADD;
                continue;
            }
        }
        if (!strcmp(part, "volatile") && (in->op == PO_LD || in->op == PO_ST)) {
            in->vol = 1;
            continue;
        }
        if ((!strcmp(part, "relaxed") || !strcmp(part, "acquire") || !strcmp(part, "release")) &&
            (in->op == PO_LD || in->op == PO_ST)) {
            in->vol = 2;
            in->tflags |= sem_flags(part);
            continue;
        }
        if ((in->op == PO_ATOM || in->op == PO_RED) &&
            (!strcmp(part, "relaxed") || !strcmp(part, "acquire") || !strcmp(part, "release") ||
             !strcmp(part, "acq_rel"))) {
            in->tflags |= sem_flags(part);
            continue;
        }
        if (in->op == PO_MEMBAR && !strcmp(part, "cta")) {
            in->tflags |= SMEM_TF_SCOPE_CTA;
            continue;
        }
        if (!strcmp(part, "lo")) { in->mode = MODE_LO; continue; }
        if (!strcmp(part, "hi")) { in->mode = MODE_HI; continue; }
        if (!strcmp(part, "wide")) { in->mode = MODE_WIDE; continue; }
        if (in->op == PO_SHFL) {
            if (!strcmp(part, "up")) { in->mode = MODE_UP; continue; }
            if (!strcmp(part, "down")) { in->mode = MODE_DOWN; continue; }
            if (!strcmp(part, "bfly")) { in->mode = MODE_BFLY; continue; }
            if (!strcmp(part, "idx")) { in->mode = MODE_IDX; continue; }
        }
        if (in->op == PO_VOTE) {
            if (!strcmp(part, "all")) { in->mode = MODE_ALL; continue; }
            if (!strcmp(part, "any")) { in->mode = MODE_ANY; continue; }
            if (!strcmp(part, "uni")) { in->mode = MODE_UNI; continue; }
            if (!strcmp(part, "ballot")) { in->mode = MODE_BALLOT; continue; }
        }
        if (in->op == PO_BMSK || in->op == PO_SZEXT) {
            if (!strcmp(part, "clamp")) { in->mode = MODE_L_CLAMP; continue; }
            if (!strcmp(part, "wrap")) { in->mode = MODE_L_WRAP; continue; }
        }
        if (in->op == PO_CVT && !strcmp(part, "tf32")) {
            /* the destination type: a tf32 lives in a .b32 register */
            if (in->type != PT_NONE)
                return fail_at(ps, at, "cvt to .tf32 must name .tf32 first");
            in->type = PT_B32;
            in->mods |= SMEM_MOD_TF32;
            ntypes++;
            continue;
        }
        if (!strcmp(part, "rna")) { in->round = RND_RNA; continue; }
        if (in->op == PO_SHF) {
            if (!strcmp(part, "l")) { in->mode = in->mode == MODE_R_CLAMP ? MODE_L_CLAMP : MODE_L_WRAP; continue; }
            if (!strcmp(part, "r")) { in->mode = MODE_R_WRAP; continue; }
            if (!strcmp(part, "clamp")) {
                in->mode = (in->mode == MODE_L_WRAP || in->mode == MODE_L_CLAMP) ? MODE_L_CLAMP : MODE_R_CLAMP;
                continue;
            }
            if (!strcmp(part, "wrap"))
                continue;
        }
        if (in->op == PO_PRMT) {
            static const char *const pm[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL};
            int k;
            for (k = 0; pm[k] && strcmp(part, pm[k]); k++)
                ;
            if (pm[k]) {
                in->mode = (uint8_t)(MODE_PRMT_F4E + k);
                continue;
            }
        }
        if (in->op == PO_TESTP) {
            static const char *const tp[] = {"finite", "infinite", "number", "notanumber",
                                             "normal", "subnormal", NULL};
            int k;
            for (k = 0; tp[k] && strcmp(part, tp[k]); k++)
                ;
            if (tp[k]) {
                in->mode = (uint8_t)(MODE_FINITE + k);
                continue;
            }
        }
        if (in->op == PO_BAR && !strcmp(part, "cluster")) {
            in->op = PO_BAR_CLUSTER;
            continue;
        }
        if (in->op == PO_BAR_CLUSTER && (!strcmp(part, "arrive") || !strcmp(part, "wait"))) {
            in->mode = part[0] == 'a' ? MODE_CLUSTER_ARRIVE : MODE_CLUSTER_WAIT;
            continue;
        }
        if (in->op == PO_BAR_CLUSTER && !strcmp(part, "relaxed")) {
            in->tflags |= SMEM_TF_RELAXED;
            continue;
        }
        if (in->op == PO_BAR_CLUSTER &&
            (!strcmp(part, "aligned") || !strcmp(part, "release") || !strcmp(part, "acquire")))
            continue;
        if (in->op == PO_BAR) {
            if (!strcmp(part, "warp")) { in->op = PO_BAR_WARP; continue; }
            if (!strcmp(part, "arrive")) { in->op = PO_BAR_ARRIVE; continue; }
            if (!strcmp(part, "red")) { in->op = PO_BAR_RED; continue; }
            if (!strcmp(part, "sync") || !strcmp(part, "cta") || !strcmp(part, "aligned"))
                continue;
        }
        if (!strcmp(part, "shared") || !strncmp(part, "shared::", 8)) {
            if (!strcmp(part, "shared::cluster") && in->op != PO_CVTA)
                in->tflags |= SMEM_TF_CLUSTER; /* distributed shared memory: any CTA's */
            in->space = SP_SHARED;
            continue;
        }
        if (!strcmp(part, "global")) { in->space = SP_GLOBAL; continue; }
        if (!strcmp(part, "local")) { in->space = SP_LOCAL; continue; }
        if (!strcmp(part, "param") || !strncmp(part, "param::", 7)) { in->space = SP_PARAM; continue; }
        if (!strcmp(part, "const")) { in->space = SP_CONST; continue; }
        if (!strcmp(part, "to") && in->op == PO_CVTA) { in->to = 1; continue; }
        if (!strcmp(part, "v2")) { in->vec = 2; continue; }
        if (!strcmp(part, "v4")) { in->vec = 4; continue; }
        if (!strcmp(part, "v8"))
            return fail_at(ps, at, "unsupported vector width '.%s'", part);
        if (!strcmp(part, "rn")) { in->round = RND_RN; continue; }
        if (!strcmp(part, "rz")) { in->round = RND_RZ; continue; }
        if (!strcmp(part, "rm")) { in->round = RND_RM; continue; }
        if (!strcmp(part, "rp")) { in->round = RND_RP; continue; }
        if (!strcmp(part, "rni")) { in->round = RND_RNI; continue; }
        if (!strcmp(part, "rzi")) { in->round = RND_RZI; continue; }
        if (!strcmp(part, "rmi")) { in->round = RND_RMI; continue; }
        if (!strcmp(part, "rpi")) { in->round = RND_RPI; continue; }
        if (!strcmp(part, "sat")) { in->sat = 1; continue; }
        if (!strcmp(part, "ftz")) { in->ftz = 1; continue; }
        if (in->op == PO_MATCH && (!strcmp(part, "any") || !strcmp(part, "all"))) {
            in->mode = part[1] == 'n' ? MODE_ANY : MODE_ALL;
            continue;
        }
        if (in->op == PO_MEMBAR && !strcmp(part, "async")) {
            in->tflags |= SMEM_TF_PROXY_ASYNC; /* fence.proxy.async: both directions */
            continue;
        }
        if (in->op == PO_MEMBAR && !strcmp(part, "async::generic")) {
            in->tflags |= SMEM_TF_RELAXED; /* a mark until .release; the .acquire form (async to
                                               generic) keeps it: nothing reads it on a fence */
            continue;
        }
        if (in->op == PO_MEMBAR && !strcmp(part, "release") && (in->tflags & SMEM_TF_RELAXED)) {
            in->tflags = (in->tflags & ~SMEM_TF_RELAXED) | SMEM_TF_PROXY_ASYNC; /* generic to async */
            continue;
        }
        if (in->op == PO_MEMBAR || in->op == PO_PREFETCH || in->op == PO_NOP ||
            (in->op == PO_SETMAXNREG && (!strcmp(part, "inc") || !strcmp(part, "dec"))))
            continue; /* fences and hints: every modifier is about ordering or caching */
        {
            /* modifiers that change the result: kept for the emulator */
            static const struct {
                const char *name;
                uint32_t bit;
            } rm[] = {{"approx", SMEM_MOD_APPROX}, {"full", SMEM_MOD_FULL}, {"relu", SMEM_MOD_RELU},
                      {"NaN", SMEM_MOD_NAN}, {"xorsign", SMEM_MOD_XORSIGN}, {"abs", SMEM_MOD_XORSIGN},
                      {"satfinite", SMEM_MOD_SATFINITE}, {"shiftamt", SMEM_MOD_SHIFTAMT},
                      {"noftz", SMEM_MOD_NOFTZ}, {"cc", SMEM_MOD_CC}, {"oob", SMEM_MOD_OOB}};
            size_t k;
            for (k = 0; k < sizeof rm / sizeof rm[0] && strcmp(part, rm[k].name); k++)
                ;
            if (k < sizeof rm / sizeof rm[0]) {
                in->mods |= rm[k].bit;
                continue;
            }
        }
        if (is_ignored_mod(part))
            continue;
        return fail_at(ps, at, "unsupported instruction modifier '.%s'", part);
    }
    if (in->op == PO_LD && in->space == SP_PARAM && in->type == PT_NONE)
        return fail_at(ps, at, "ld.param without a type");
    if (in->op == PO_VABSDIFF4 && in->mode != MODE_WIDE)
        return fail_at(ps, at, "vabsdiff4 without .add (a byte-select mask or .max/.min merge) is "
                               "not modelled");
    return 0;
}

/* ( item [, item ...] ) or ( ): calls item for each, the cursor at the item's first character. */
static int read_list(struct parser *ps, int (*item)(struct parser *, void *), void *ctx)
{
    if (expect(ps, '('))
        return -1;
    if (peek(ps, ')') == 1) {
        ps->p++;
        return 0;
    }
    for (;;) {
        if (skip_ws(ps) || item(ps, ctx))
            return -1;
        if (peek(ps, ',') == 1) {
            ps->p++;
            continue;
        }
        return expect(ps, ')');
    }
}

/* A call's ( name, ... ) list of parameter symbols; a name that is no symbol of the function
 * (a register, a literal) or more than fit clear fits. */
struct call_list {
    int32_t *syms;
    unsigned n;
    int *fits;
};

static int call_list_item(struct parser *ps, void *ctx)
{
    struct call_list *cl = ctx;
    char w[MAX_IDENT + 1];
    if (read_word(ps, w, sizeof w))
        return -1;
    int32_t sym = find_sym(ps, w);
    if (sym < 0 || cl->n >= SMEM_PTX_MAX_OPS - 1)
        *cl->fits = 0;
    else
        cl->syms[cl->n++] = sym;
    return 0;
}

static int read_call_list(struct parser *ps, int32_t *syms, unsigned *n, int *fits)
{
    struct call_list cl = {syms, 0, fits};
    int rc = read_list(ps, call_list_item, &cl);
    *n = cl.n;
    return rc;
}

/* Reads one instruction (the opcode word is in opname, the cursor after it). */
static int read_insn(struct parser *ps, const char *at, char *opname, int32_t guard, int guard_neg)
{
    struct smem_ptx_func *f = ps->f;
    if (grow((void **)&f->insns, &ps->cap_insns, f->ninsns + 1, sizeof *f->insns, MAX_INSNS))
        return fail_at(ps, at, "too many instructions");
    struct smem_ptx_insn *in = &f->insns[f->ninsns];
    memset(in, 0, sizeof *in);
    for (unsigned k = 0; k < SMEM_PTX_MAX_OPS; k++) { /* unused operands name no register */
        in->ops[k].reg[0] = in->ops[k].reg[1] = in->ops[k].reg[2] = in->ops[k].reg[3] = -1;
        in->ops[k].sym = -1;
    }
    in->guard = guard;
    in->guard_neg = (uint8_t)guard_neg;
    in->src_line = ps->line;
    in->loc_file = ps->loc_file;
    in->loc_line = ps->loc_line;
    in->loc_col = ps->loc_col;
    in->inl_file = ps->inl_file;
    in->inl_line = ps->inl_line;
    in->inl_col = ps->inl_col;
    in->chain = ps->inl_frame;
    in->call_target = -1;
    char namecopy[MAX_IDENT + 1];
    snprintf(namecopy, sizeof namecopy, "%s", opname);
    if (decode_mods(ps, at, in, namecopy))
        return -1;
    if (smem_op_is_tensor(in->op) && !ps->tensor_ops)
        return fail_at(ps, at, "unsupported instruction '%s' (read, but the emulator does not run %s yet)",
                       opname, smem_ptx_tensor_name(in));
    if (in->op == PO_CALL) {
        /* call[.uni] [(ret),] func, (args) [, proto]; */
        char w[MAX_IDENT + 1];
        int32_t rs[SMEM_PTX_MAX_OPS], as[SMEM_PTX_MAX_OPS];
        unsigned nr = 0, na = 0;
        int fits = 1;
        if (skip_ws(ps))
            return -1;
        if (peek(ps, '(') == 1) {
            if (read_call_list(ps, rs, &nr, &fits) || expect(ps, ','))
                return -1;
        }
        if (skip_ws(ps))
            return -1;
        const char *nat = ps->p;
        if (read_word(ps, w, sizeof w))
            return -1;
        if (peek(ps, ',') == 1) {
            ps->p++;
            if (peek(ps, '(') == 1 && read_call_list(ps, as, &na, &fits))
                return -1;
        }
        if (w[0] == '%' || nr + na + 1 > SMEM_PTX_MAX_OPS)
            fits = 0;
        in->call_name = NULL;
        for (uint32_t i = 0; i < ps->m->nfuncs; i++)
            if (!strcmp(ps->m->funcs[i].name, w))
                in->call_target = (int32_t)i;
        in->ops[0].kind = OPK_NONE;
        in->ops[0].imm = 0;
        /* remember the name in a symbol so the emulator can name it in an error */
        struct smem_ptx_symbol s;
        memset(&s, 0, sizeof s);
        s.name = dupn(w, strlen(w));
        s.kind = SYM_FUNC;
        if (!s.name || add_sym(ps, nat, &s))
            return -1;
        in->ops[0].sym = (int32_t)(f->nsyms - 1);
        in->call_name = f->syms[f->nsyms - 1].name;
        in->nops = 1;
        if (fits) {
            in->ops[0].count = (uint8_t)nr;
            for (unsigned i = 0; i < nr + na; i++) {
                struct smem_ptx_operand *o = &in->ops[in->nops++];
                memset(o, 0, sizeof *o);
                o->kind = OPK_SYM;
                o->reg[0] = o->reg[1] = o->reg[2] = o->reg[3] = -1;
                o->sym = i < nr ? rs[i] : as[i - nr];
            }
        } else {
            in->ops[0].imm = -1;
        }
        if (skip_statement(ps))
            return -1;
        f->ninsns++;
        return 0;
    }
    if (in->op == PO_CP_BULK && (in->mode == MODE_BULK_TENSOR_G2S || in->mode == MODE_BULK_TENSOR_S2G ||
                                 in->mode == MODE_BULK_TENSOR_PREFETCH) &&
        !(in->tflags & SMEM_TF_IM2COL)) {
        if (read_tensor_operands(ps, in))
            return -1;
        f->ninsns++;
        return 0;
    }
    if (in->op == PO_CP_BULK && (in->mode == MODE_BULK_TENSOR || in->mode == MODE_BULK_REDUCE ||
                                 in->mode == MODE_BULK_TENSOR_G2S || in->mode == MODE_BULK_TENSOR_S2G ||
                                 in->mode == MODE_BULK_TENSOR_PREFETCH)) {
        /* [dst], [tensorMap, {coords}], [mbar]{, im2col offsets ...} of a form not emulated (it
           stops where it executes), so its operands are not read */
        if (skip_statement(ps))
            return -1;
        f->ninsns++;
        return 0;
    }
    if (in->op == PO_TEX || in->op == PO_SURF_ST) {
        /* tex.2d.v4.f32.f32 {%f1, ...}, [tex, {coords}]; only the destination matters */
        if (in->op == PO_TEX) {
            if (read_operand(ps, &in->ops[0]))
                return -1;
            in->nops = 1;
        }
        if (skip_statement(ps))
            return -1;
        f->ninsns++;
        return 0;
    }
    if (peek(ps, ';') == 1) {
        ps->p++;
        if (smem_ptx_ops[in->op].min_ops)
            return fail_at(ps, at, "'%s' needs %u operands, found none", opname,
                           (unsigned)smem_ptx_ops[in->op].min_ops);
        f->ninsns++;
        return 0;
    }
    for (;;) {
        if (in->nops >= SMEM_PTX_MAX_OPS)
            return fail_at(ps, ps->p, "too many operands");
        uint32_t fx_before = ps->nfixups;
        if (read_operand(ps, &in->ops[in->nops]))
            return -1;
        if (ps->nfixups > fx_before)
            ps->fixups[ps->nfixups - 1].opnd = in->nops;
        in->nops++;
        if (peek(ps, ',') == 1) {
            ps->p++;
            continue;
        }
        if (expect(ps, ';'))
            return -1;
        break;
    }
    unsigned need = smem_ptx_ops[in->op].min_ops;
    if (in->nops < need)
        return fail_at(ps, at, "'%s' needs %u operands, found %u", opname, need, in->nops);
    if (convert_decimal_floats(ps, at, in))
        return -1;
    if (smem_op_mem_operand(in->op) >= 0 && in->ops[smem_op_mem_operand(in->op)].kind != OPK_ADDR)
        return fail_at(ps, at, "'%s' needs a memory operand [address]", opname);
    if (in->op == PO_BRA && in->ops[0].kind != OPK_LABEL)
        return fail_at(ps, at, "'%s' needs a label", opname);
    if (smem_op_is_tensor(in->op)) {
        char why[300];
        const char *msg = ptx_tensor_check_operands(in, why, sizeof why);
        if (msg)
            return fail_at(ps, at, "%s", msg);
    }
    if (in->op == PO_CP_ASYNC && (in->nops < 3 || in->ops[1].kind != OPK_ADDR || in->ops[2].kind != OPK_IMM ||
                                  (in->ops[2].imm != 4 && in->ops[2].imm != 8 && in->ops[2].imm != 16)))
        return fail_at(ps, at, "cp.async needs [dst], [src], a size of 4, 8 or 16");
    if (in->op == PO_CP_ASYNC && in->mode == MODE_CPA_CG && in->ops[2].imm != 16)
        return fail_at(ps, at, "cp.async.cg copies 16 bytes only");
    if (smem_op_is_ldst(in->op) && !smem_ptx_type_bytes(in->type))
        return fail_at(ps, at, "'%s' needs a type", opname);
    f->ninsns++;
    return 0;
}

/* ---- inline chains -------------------------------------------------------------------- */

static uint32_t slot_hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    h = (h ^ a) * 0x100000001B3ull;
    h = (h ^ b) * 0x100000001B3ull;
    h = (h ^ c) * 0x100000001B3ull;
    h = (h ^ d) * 0x100000001B3ull;
    return (uint32_t)(h ^ (h >> 29));
}

/* The slot of key in tab (capacity a power of two, or 0), growing it at half full; NULL: no memory. */
static struct frame_slot *slot_of(struct frame_slot **tab, uint32_t *cap, uint32_t *n, uint32_t a,
                                  uint32_t b, uint32_t c, uint32_t d)
{
    if (2 * (*n + 1) > *cap) {
        uint32_t nc = *cap ? *cap * 2 : 256;
        struct frame_slot *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return NULL;
        for (uint32_t i = 0; i < *cap; i++) {
            struct frame_slot *o = &(*tab)[i];
            if (!o->used)
                continue;
            uint32_t j = slot_hash(o->file, o->line, o->col, o->parent) & (nc - 1);
            while (nt[j].used)
                j = (j + 1) & (nc - 1);
            nt[j] = *o;
        }
        free(*tab);
        *tab = nt;
        *cap = nc;
    }
    uint32_t j = slot_hash(a, b, c, d) & (*cap - 1);
    while ((*tab)[j].used && !((*tab)[j].file == a && (*tab)[j].line == b && (*tab)[j].col == c &&
                               (*tab)[j].parent == d))
        j = (j + 1) & (*cap - 1);
    struct frame_slot *sl = &(*tab)[j];
    if (!sl->used) {
        sl->used = 1;
        sl->file = a;
        sl->line = b;
        sl->col = c;
        sl->parent = d;
        sl->val = SMEM_PTX_NO_FRAME;
        (*n)++;
    }
    return sl;
}

/* The one frame (file, line, col) inlined into parent; SMEM_PTX_NO_FRAME when out of memory. */
static uint32_t frame_intern(struct parser *ps, uint32_t file, uint32_t line, uint32_t col,
                             uint32_t parent)
{
    struct smem_ptx_module *m = ps->m;
    struct frame_slot *sl = slot_of(&ps->ftab, &ps->ftab_cap, &ps->ftab_n, file, line, col, parent);
    if (!sl)
        return SMEM_PTX_NO_FRAME;
    if (sl->val == SMEM_PTX_NO_FRAME) {
        if (grow((void **)&m->frames, &ps->cap_frames, m->nframes + 1, sizeof *m->frames, MAX_INSNS))
            return SMEM_PTX_NO_FRAME;
        m->frames[m->nframes] = (struct smem_ptx_frame){file, line, col, parent};
        sl->val = m->nframes++;
    }
    return sl->val;
}

/* A .loc at (file, line, col), inlined at (a, b, c) or not (a = b = c = 0 and inlined = 0): the
 * chain of the code that follows. The caller's own chain is the one its position had when it was
 * last named by a .loc (nvcc names the outer frame's position before the inner one's). */
static void loc_chain(struct parser *ps, uint32_t file, uint32_t line, uint32_t col, int inlined,
                      uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t caller = SMEM_PTX_NO_FRAME;
    if (inlined) {
        struct frame_slot *up = slot_of(&ps->ptab, &ps->ptab_cap, &ps->ptab_n, a, b, c, 0);
        caller = frame_intern(ps, a, b, c, up ? up->val : SMEM_PTX_NO_FRAME);
    }
    struct frame_slot *me = slot_of(&ps->ptab, &ps->ptab_cap, &ps->ptab_n, file, line, col, 0);
    if (me)
        me->val = caller;
    ps->inl_frame = caller == SMEM_PTX_NO_FRAME ? caller : frame_intern(ps, file, line, col, caller);
}

/* ---- function bodies ------------------------------------------------------------------- */

static int read_loc(struct parser *ps)
{
    int64_t file, line, col = 0;
    if (skip_ws(ps) || read_int(ps, &file) || skip_ws(ps) || read_int(ps, &line))
        return -1;
    if (skip_ws(ps))
        return -1;
    if (ps->p < ps->end && isdigit((unsigned char)*ps->p) && read_int(ps, &col))
        return -1;
    if (file < 0 || line < 0 || col < 0 || file > MAX_FILES || line > 100000000 || col > 100000000)
        return fail_at(ps, ps->p, "bad .loc");
    ps->inl_file = ps->inl_line = ps->inl_col = 0;
    int inlined = 0;
    /* optional: , function_name LABEL, inlined_at F L C */
    while (peek(ps, ',') == 1) {
        char w[MAX_IDENT + 1];
        ps->p++;
        if (skip_ws(ps) || read_word(ps, w, sizeof w))
            return -1;
        if (!strcmp(w, "function_name")) {
            if (skip_ws(ps) || read_word(ps, w, sizeof w))
                return -1;
        } else if (!strcmp(w, "inlined_at")) {
            int64_t a, b, c;
            if (skip_ws(ps) || read_int(ps, &a) || skip_ws(ps) || read_int(ps, &b) ||
                skip_ws(ps) || read_int(ps, &c))
                return -1;
            if (a < 0 || a > MAX_FILES || b < 0 || b > 100000000 || c < 0 || c > 100000000)
                return fail_at(ps, ps->p, "bad inlined_at");
            ps->inl_file = (uint32_t)a;
            ps->inl_line = (uint32_t)b;
            ps->inl_col = (uint32_t)c;
            inlined = 1;
        } else {
            return fail_at(ps, ps->p, "unexpected '%s' in .loc", w);
        }
    }
    if (line == 0 && (uint32_t)file == ps->loc_file)
        return 0; /* compiler-made code: keep the last real line */
    loc_chain(ps, (uint32_t)file, (uint32_t)line, (uint32_t)col, inlined, ps->inl_file,
              ps->inl_line, ps->inl_col);
    ps->loc_file = (uint32_t)file;
    ps->loc_line = (uint32_t)line;
    ps->loc_col = (uint32_t)col;
    return 0;
}

static int read_body(struct parser *ps)
{
    struct smem_ptx_func *f = ps->f;
    char w[MAX_IDENT + 1];
    int depth = 1;
    ps->depth = 1;
    ps->scope = 0;
    ps->nscopes = 1;
    if (grow((void **)&ps->scope_parent, &ps->cap_scopes, 1, sizeof *ps->scope_parent, MAX_INSNS))
        return fail_at(ps, ps->p, "out of memory");
    ps->scope_parent[0] = 0;
    ps->loc_file = ps->loc_line = ps->loc_col = 0;
    ps->inl_file = ps->inl_line = ps->inl_col = 0;
    ps->inl_frame = SMEM_PTX_NO_FRAME;
    while (depth > 0) {
        if (skip_ws(ps))
            return -1;
        if (ps->p >= ps->end)
            return fail_at(ps, ps->end, "unexpected end of file inside '%s' (truncated PTX?)", f->name);
        const char *at = ps->p;
        char c = *ps->p;
        if (c == '{') {
            ps->p++;
            depth++;
            ps->depth = (uint32_t)depth;
            if (grow((void **)&ps->scope_parent, &ps->cap_scopes, ps->nscopes + 1,
                     sizeof *ps->scope_parent, MAX_INSNS))
                return fail_at(ps, at, "too many { } blocks");
            ps->scope_parent[ps->nscopes] = ps->scope;
            ps->scope = ps->nscopes++;
            continue;
        }
        if (c == '}') {
            ps->p++;
            depth--;
            ps->depth = (uint32_t)depth;
            ps->scope = ps->scope_parent[ps->scope];
            for (uint32_t i = 0; i < ps->nranges; i++)
                if (ps->ranges[i].depth > ps->depth)
                    ps->ranges[i].dead = 1; /* the scope closed: its names go out of sight */
            continue;
        }
        if (c == ';') {
            ps->p++;
            continue;
        }
        int32_t guard = -1;
        int guard_neg = 0;
        if (c == '@') {
            ps->p++;
            if (ps->p < ps->end && *ps->p == '!') {
                guard_neg = 1;
                ps->p++;
            }
            if (read_reg_operand(ps, &guard))
                return -1;
            if (guard < 0)
                return fail_at(ps, at, "bad guard predicate");
            if (skip_ws(ps))
                return -1;
            at = ps->p;
        }
        if (read_word(ps, w, sizeof w))
            return -1;
        if (guard < 0 && peek(ps, ':') == 1) { /* label */
            ps->p++;
            if (grow((void **)&ps->labels, &ps->cap_labels, ps->nlabels + 1, sizeof *ps->labels,
                     MAX_INSNS))
                return fail_at(ps, at, "too many labels");
            ps->labels[ps->nlabels].name = dupn(w, strlen(w));
            ps->labels[ps->nlabels].insn = f->ninsns;
            ps->labels[ps->nlabels].scope = ps->scope;
            if (!ps->labels[ps->nlabels].name)
                return fail_at(ps, at, "out of memory");
            ps->nlabels++;
            continue;
        }
        if (w[0] == '.' && guard < 0) {
            if (!strcmp(w, ".reg")) {
                if (read_reg_decl(ps))
                    return -1;
            } else if (!strcmp(w, ".loc")) {
                if (read_loc(ps))
                    return -1;
            } else if (!strcmp(w, ".shared") || !strcmp(w, ".local") || !strcmp(w, ".param") ||
                       !strcmp(w, ".const") || !strcmp(w, ".global")) {
                struct smem_ptx_symbol s;
                int r = read_var_decl(ps, &s, 1);
                if (r < 0)
                    return -1;
                free_init(&s); /* a function's variables keep no initializer */
                if (r == 0 && expect(ps, ';')) {
                    free(s.name);
                    return -1;
                }
                s.kind = w[1] == 's' ? (s.kind == 0xff ? SYM_SHARED_EXTERN : SYM_SHARED)
                         : w[1] == 'l' ? SYM_LOCAL
                         : w[1] == 'p' ? SYM_LOCAL /* call-sequence parameters behave as locals */
                         : w[1] == 'c' ? SYM_CONST
                                       : SYM_GLOBAL;
                if (add_sym(ps, at, &s))
                    return -1;
            } else if (!strcmp(w, ".pragma") || !strcmp(w, ".maxnreg") || !strcmp(w, ".section") ||
                       !strcmp(w, ".callprototype")) { /* the signature of an indirect call */
                if (skip_statement(ps))
                    return -1;
            } else {
                return fail_at(ps, at, "unexpected directive '%s' in a function body", w);
            }
            continue;
        }
        if (w[0] == '.' || w[0] == '%' || w[0] == '$')
            return fail_at(ps, at, "expected an instruction, found '%s'", w);
        if (read_insn(ps, at, w, guard, guard_neg))
            return -1;
    }
    /* resolve branch labels */
    for (uint32_t i = 0; i < ps->nfixups; i++) {
        struct fixup *fx = &ps->fixups[i];
        uint32_t k = ps->nlabels;
        for (uint32_t sc = fx->scope;; sc = ps->scope_parent[sc]) { /* the innermost block's */
            for (k = 0; k < ps->nlabels &&
                        (ps->labels[k].scope != sc || strcmp(ps->labels[k].name, fx->label));
                 k++)
                ;
            if (k < ps->nlabels || sc == 0)
                break;
        }
        if (k == ps->nlabels)
            return smem_error_set(ps->err, ps->name, fx->line, fx->col,
                                  "unknown label or symbol '%s'", fx->label);
        if (fx->opnd < SMEM_PTX_MAX_OPS)
            f->insns[fx->insn].ops[fx->opnd].imm = ps->labels[k].insn;
    }
    return 0;
}

static void reset_func_state(struct parser *ps)
{
    for (uint32_t i = 0; i < ps->nranges; i++)
        free(ps->ranges[i].prefix);
    for (uint32_t i = 0; i < ps->nfixups; i++)
        free(ps->fixups[i].label);
    for (uint32_t i = 0; i < ps->nlabels; i++)
        free(ps->labels[i].name);
    ps->nranges = ps->nfixups = ps->nlabels = 0;
    ps->cap_insns = ps->cap_syms = ps->cap_vregs = 0;
}

/* One ".param .type [.ptr ...] name" of a parameter list, read into s. */
static int read_param_decl(struct parser *ps, struct smem_ptx_symbol *s)
{
    char w[MAX_IDENT + 1];
    const char *at = ps->p;
    if (read_word(ps, w, sizeof w))
        return -1;
    if (strcmp(w, ".param") && strcmp(w, ".reg"))
        return fail_at(ps, at, "expected .param, found '%s'", w);
    return read_var_decl(ps, s, 0) ? -1 : 0;
}

/* Parameter list: ( .param .type [.ptr ...] name [, ...] ) */
static int param_item(struct parser *ps, void *ctx)
{
    struct smem_ptx_func *f = ps->f;
    const char *at = ps->p;
    struct smem_ptx_symbol s;
    (void)ctx;
    if (read_param_decl(ps, &s))
        return -1;
    s.kind = SYM_PARAM;
    uint64_t a = s.align ? s.align : 1;
    f->param_bytes = (f->param_bytes + a - 1) / a * a;
    s.offset = f->param_bytes;
    f->param_bytes += s.size;
    if (add_sym(ps, at, &s))
        return -1;
    f->nparams++;
    return 0;
}

/* A .func's return parameters, at most 4 kept (later added as symbols after the parameters). */
struct rets {
    struct smem_ptx_symbol *s;
    uint32_t n;
};

static int ret_item(struct parser *ps, void *ctx)
{
    struct rets *r = ctx;
    struct smem_ptx_symbol s;
    if (read_param_decl(ps, &s))
        return -1;
    s.kind = SYM_LOCAL; /* inlined, the caller's return parameter stands for it */
    if (r->n < 4)
        r->s[r->n++] = s;
    else
        free(s.name);
    return 0;
}

static int read_rets(struct parser *ps, struct smem_ptx_symbol *rets, uint32_t *n)
{
    struct rets r = {rets, 0};
    int rc = read_list(ps, ret_item, &r);
    if (rc) {
        for (uint32_t i = 0; i < r.n; i++)
            free(rets[i].name);
        r.n = 0;
    }
    *n = r.n;
    return rc;
}

/* A function whose body cannot be read (an unsupported instruction, say) keeps its error and is
 * skipped to its closing brace, so the other functions of the module are still read: the report
 * says why for that kernel and goes on with the others. Errors that leave nothing to recover from
 * (out of memory, the text ends inside the body) stay fatal. */
static int recover_body(struct parser *ps, struct smem_ptx_func *f, const char *body)
{
    if (!ps->err || strstr(ps->err->msg, "out of memory") || strstr(ps->err->msg, "end of file"))
        return -1;
    int depth = 1;
    const char *q = body;
    uint32_t line = 0;
    for (const char *l = ps->text; l < body; l++) /* the body's first line, from the text */
        line += *l == '\n';
    line++;
    const char *line_start = body;
    while (q < ps->end && depth > 0) {
        if (*q == '\n') {
            line++;
            line_start = q + 1;
        } else if (*q == '/' && q + 1 < ps->end && q[1] == '/') {
            while (q < ps->end && *q != '\n')
                q++;
            continue;
        } else if (*q == '/' && q + 1 < ps->end && q[1] == '*') {
            q += 2;
            while (q + 1 < ps->end && !(q[0] == '*' && q[1] == '/')) {
                if (*q == '\n') {
                    line++;
                    line_start = q + 1;
                }
                q++;
            }
            q += 2;
            continue;
        } else if (*q == '{') {
            depth++;
        } else if (*q == '}') {
            depth--;
        }
        q++;
    }
    if (depth > 0)
        return -1;
    f->error = malloc(sizeof *f->error);
    if (!f->error)
        return -1;
    *f->error = *ps->err;
    f->error_file = ps->loc_file; /* where in the user's source: the last .loc (its .file */
    f->error_line = ps->loc_line; /* directive may come later in the module) */
    f->ninsns = 0;
    ps->p = q;
    ps->line = line;
    ps->line_start = line_start;
    return 0;
}

static int read_function(struct parser *ps, int is_entry)
{
    char w[MAX_IDENT + 1];
    struct smem_ptx_module *m = ps->m;
    struct smem_ptx_func *nf = realloc(m->funcs, (m->nfuncs + 1) * sizeof *m->funcs);
    if (!nf)
        return fail_at(ps, ps->p, "out of memory");
    m->funcs = nf;
    struct smem_ptx_func *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    ps->f = f;
    reset_func_state(ps);
    if (skip_ws(ps))
        return -1;
    struct smem_ptx_symbol rets[4];
    uint32_t nrets = 0;
    if (!is_entry && peek(ps, '(') == 1) { /* return parameters: symbols after the parameters */
        if (read_rets(ps, rets, &nrets))
            return -1;
    }
    const char *at = ps->p;
    int bad = skip_ws(ps);
    at = ps->p;
    if (!bad)
        bad = read_word(ps, w, sizeof w);
    if (!bad) {
        f->name = dupn(w, strlen(w));
        f->is_entry = is_entry;
        f->decl_line = ps->line;
        m->nfuncs++; /* counted now so it is freed on error */
        if (!f->name)
            bad = fail_at(ps, at, "out of memory");
    }
    for (uint32_t i = 0; !bad && i + 1 < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, f->name) && m->funcs[i].ninsns)
            bad = fail_at(ps, at, "function '%s' defined twice", f->name);
    if (bad || (peek(ps, '(') == 1 && read_list(ps, param_item, NULL))) {
        for (uint32_t i = 0; i < nrets; i++) /* the return parameters are no symbols yet */
            free(rets[i].name);
        return -1;
    }
    for (uint32_t i = 0; i < nrets; i++) {
        f->ret_sym[i] = (int32_t)f->nsyms;
        if (add_sym(ps, at, &rets[i])) {
            for (uint32_t j = i + 1; j < nrets; j++)
                free(rets[j].name);
            return -1;
        }
        f->nrets++;
    }
    /* performance directives, then a body or ';' (a prototype) */
    for (;;) {
        if (skip_ws(ps))
            return -1;
        if (ps->p >= ps->end)
            return fail_at(ps, ps->end, "unexpected end of file after '%s'", f->name);
        if (*ps->p == ';') {
            ps->p++;
            return 0;
        }
        if (*ps->p == '{') {
            ps->p++;
            /* module-level symbols visible in this function */
            for (uint32_t i = 0; i < m->nglobals; i++) {
                struct smem_ptx_symbol s = m->globals[i];
                s.name = dupn(s.name, strlen(s.name));
                s.init = NULL; /* the module's copy owns the initializer */
                s.relocs = NULL;
                s.nrelocs = 0;
                if (!s.name || add_sym(ps, ps->p, &s))
                    return -1;
            }
            const char *body = ps->p;
            if (read_body(ps) == 0)
                return 0;
            return recover_body(ps, f, body);
        }
        const char *dat = ps->p;
        if (read_word(ps, w, sizeof w))
            return -1;
        if (!strcmp(w, ".maxntid") || !strcmp(w, ".reqntid")) {
            uint32_t *d = w[1] == 'm' ? f->maxntid : f->reqntid;
            for (int k = 0; k < 3; k++) {
                int64_t v;
                if (skip_ws(ps) || read_int(ps, &v))
                    return -1;
                d[k] = v > 0 && v <= 1024 ? (uint32_t)v : 0;
                if (peek(ps, ',') != 1)
                    break;
                ps->p++;
            }
        } else if (!strcmp(w, ".reqnctapercluster") || !strcmp(w, ".maxclusterrank")) {
            /* __cluster_dims__(x, y, z): the cluster every launch must have */
            int req = w[1] == 'r';
            for (int k = 0; k < (req ? 3 : 1); k++) {
                int64_t v;
                if (skip_ws(ps) || read_int(ps, &v))
                    return -1;
                uint32_t u = v > 0 && v <= 1024 ? (uint32_t)v : 0;
                if (req)
                    f->reqnctapercluster[k] = u;
                else
                    f->maxclusterrank = u;
                if (peek(ps, ',') != 1)
                    break;
                ps->p++;
            }
        } else if (!strcmp(w, ".explicitcluster")) {
            f->explicitcluster = 1;
        } else if (!strcmp(w, ".minnctapersm") || !strcmp(w, ".maxnreg") ||
                   !strcmp(w, ".maxnctapersm") || !strcmp(w, ".noreturn") ||
                   !strcmp(w, ".pragma")) {
            while (skip_ws(ps) == 0 && ps->p < ps->end && *ps->p != '{' && *ps->p != ';' &&
                   *ps->p != '.')
                ps->p++;
        } else {
            return fail_at(ps, dat, "unexpected '%s' before a function body", w);
        }
    }
}

static int read_module_var(struct parser *ps, const char *space, const char *at)
{
    struct smem_ptx_module *m = ps->m;
    struct smem_ptx_symbol s;
    struct smem_ptx_func *saved = ps->f;
    ps->f = NULL;
    int r = read_var_decl(ps, &s, 1);
    ps->f = saved;
    if (r < 0)
        return -1;
    if (r == 0 && expect(ps, ';')) {
        free(s.name);
        return -1;
    }
    s.kind = !strcmp(space, ".shared") ? (s.kind == 0xff ? SYM_SHARED_EXTERN : SYM_SHARED)
             : !strcmp(space, ".const") ? SYM_CONST
                                        : SYM_GLOBAL;
    s.module_level = 1;
    struct smem_ptx_symbol *ng = realloc(m->globals, (m->nglobals + 1) * sizeof *ng);
    if (!ng || m->nglobals >= MAX_SYMS) {
        free(s.name);
        free_init(&s);
        return fail_at(ps, at, "too many module variables");
    }
    m->globals = ng;
    m->globals[m->nglobals++] = s;
    return 0;
}

static int read_file_directive(struct parser *ps)
{
    int64_t n;
    if (skip_ws(ps) || read_int(ps, &n) || expect(ps, '"'))
        return -1;
    const char *s = ps->p;
    while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\n')
        ps->p++;
    if (ps->p >= ps->end || *ps->p != '"')
        return fail_at(ps, s, "unterminated file name");
    size_t len = (size_t)(ps->p - s);
    ps->p++;
    if (n < 0 || n > MAX_FILES)
        return fail_at(ps, s, "bad .file number");
    struct smem_ptx_module *m = ps->m;
    if ((uint32_t)n >= m->nfiles) {
        char **nfl = realloc(m->files, (size_t)(n + 1) * sizeof *nfl);
        if (!nfl)
            return fail_at(ps, s, "out of memory");
        memset(nfl + m->nfiles, 0, (size_t)((uint32_t)n + 1 - m->nfiles) * sizeof *nfl);
        m->files = nfl;
        m->nfiles = (uint32_t)n + 1;
    }
    free(m->files[n]);
    m->files[n] = dupn(s, len);
    /* optional ", timestamp, size" */
    while (skip_ws(ps) == 0 && ps->p < ps->end && *ps->p == ',') {
        ps->p++;
        int64_t dummy;
        if (skip_ws(ps) || read_int(ps, &dummy))
            return -1;
    }
    return 0;
}

/* A .section block (debug info): skipped whole, braces balanced. */
static int skip_section(struct parser *ps)
{
    while (ps->p < ps->end && *ps->p != '{' && *ps->p != '\n')
        ps->p++;
    if (skip_ws(ps))
        return -1;
    if (ps->p >= ps->end || *ps->p != '{')
        return 0;
    int depth = 0;
    do {
        if (*ps->p == '{')
            depth++;
        else if (*ps->p == '}')
            depth--;
        else if (*ps->p == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        }
        ps->p++;
    } while (depth > 0 && ps->p < ps->end);
    if (depth)
        return fail_at(ps, ps->end, "unterminated .section");
    return 0;
}

static int is_system_file(const char *path)
{
    return path && (strstr(path, "/targets/") || strstr(path, "/crt/") ||
                    (strstr(path, "/include/") && strstr(path, "cuda")));
}

/* Inlined code: top_* is the kernel's own line (the outermost frame of its chain), loc_* the
 * innermost line outside the toolkit's headers (atomicAdd and __shfl_sync are attributed to the
 * user's line that calls them). */
static void resolve_locations(struct smem_ptx_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        struct smem_ptx_func *f = &m->funcs[i];
        for (uint32_t k = 0; k < f->ninsns; k++) {
            struct smem_ptx_insn *in = &f->insns[k];
            in->top_file = in->loc_file;
            in->top_line = in->loc_line;
            in->top_col = in->loc_col;
            uint32_t fr = in->chain, steps = 0;
            if (fr >= m->nframes)
                continue;
            int user = 0;
            for (;;) {
                const struct smem_ptx_frame *q = &m->frames[fr];
                if (!user && !(q->file < m->nfiles && is_system_file(m->files[q->file]))) {
                    in->loc_file = q->file;
                    in->loc_line = q->line;
                    in->loc_col = q->col;
                    user = 1;
                }
                if (q->parent >= m->nframes || steps++ > m->nframes)
                    break;
                fr = q->parent;
            }
            in->top_file = m->frames[fr].file;
            in->top_line = m->frames[fr].line;
            in->top_col = m->frames[fr].col;
        }
    }
}

/* ptxas drops the components of a vector load that nothing reads (hw/README item 7). */
static void mark_vector_keep(struct smem_ptx_func *f)
{
    uint8_t *used = calloc(f->nregs ? f->nregs : 1, 1);
    if (!used)
        return;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        int has_dest = smem_op_writes_dst(in->op);
        if (in->guard >= 0)
            used[in->guard] = 1;
        for (unsigned o = has_dest ? 1 : 0; o < in->nops; o++) {
            const struct smem_ptx_operand *op = &in->ops[o];
            for (int r = 0; r < 4; r++)
                if (op->reg[r] >= 0 && (uint32_t)op->reg[r] < f->nregs)
                    used[op->reg[r]] = 1;
        }
    }
    for (uint32_t k = 0; k < f->ninsns; k++) {
        struct smem_ptx_insn *in = &f->insns[k];
        in->keep = (1u << in->vec) - 1u;
        if ((in->op == PO_LD || in->op == PO_LDU) && in->vec > 1 && in->nops > 0 &&
            in->ops[0].kind == OPK_VEC) {
            in->keep = 0;
            for (unsigned c = 0; c < in->ops[0].count; c++) {
                int32_t r = in->ops[0].reg[c];
                if (r >= 0 && (uint32_t)r < f->nregs && used[r])
                    in->keep |= 1u << c;
            }
        }
    }
    free(used);
}

int smem_ptx_parse(const char *text, size_t len, const char *name, struct smem_ptx_module **out,
                   struct smem_error *err)
{
    return smem_ptx_parse_opts(text, len, name, NULL, out, err);
}

int smem_ptx_parse_opts(const char *text, size_t len, const char *name, const struct smem_ptx_options *opt,
                        struct smem_ptx_module **out, struct smem_error *err)
{
    struct parser ps;
    memset(&ps, 0, sizeof ps);
    ps.tensor_ops = opt && opt->tensor_ops;
    ps.p = text;
    ps.end = text + len;
    ps.name = name ? name : "<ptx>";
    ps.line = 1;
    ps.line_start = text;
    ps.text = text;
    ps.err = err;
    ps.m = calloc(1, sizeof *ps.m);
    *out = NULL;
    if (ps.m && !(ps.m->name = strdup(ps.name))) {
        free(ps.m);
        ps.m = NULL;
    }
    if (!ps.m)
        return smem_error_set(err, ps.name, 0, 0, "out of memory");
    char w[MAX_IDENT + 1];
    int rc = 0, seen_version = 0;
    while (rc == 0) {
        if ((rc = skip_ws(&ps)))
            break;
        if (ps.p >= ps.end)
            break;
        const char *at = ps.p;
        if (*ps.p != '.') {
            rc = fail_at(&ps, at, "expected a directive");
            break;
        }
        if ((rc = read_word(&ps, w, sizeof w)))
            break;
        if (!strcmp(w, ".version")) {
            const char *s = ps.p;
            if ((rc = skip_ws(&ps)))
                break;
            s = ps.p;
            while (ps.p < ps.end && (isdigit((unsigned char)*ps.p) || *ps.p == '.'))
                ps.p++;
            if (ps.p == s) {
                rc = fail_at(&ps, s, "expected a version number");
                break;
            }
            free(ps.m->version);
            ps.m->version = dupn(s, (size_t)(ps.p - s));
            seen_version = 1;
        } else if (!strcmp(w, ".target")) {
            if ((rc = skip_ws(&ps)))
                break;
            const char *s = ps.p;
            while (ps.p < ps.end && *ps.p != '\n' && *ps.p != '/')
                ps.p++;
            free(ps.m->target);
            ps.m->target = dupn(s, (size_t)(ps.p - s));
        } else if (!strcmp(w, ".address_size")) {
            int64_t a;
            if ((rc = skip_ws(&ps)) || (rc = read_int(&ps, &a)))
                break;
            if (a != 32 && a != 64) {
                rc = fail_at(&ps, at, "address size must be 32 or 64");
                break;
            }
            ps.m->address_size = (unsigned)a;
        } else if (!strcmp(w, ".file")) {
            rc = read_file_directive(&ps);
        } else if (!strcmp(w, ".section")) {
            rc = skip_section(&ps);
        } else if (!strcmp(w, ".visible") || !strcmp(w, ".extern") || !strcmp(w, ".weak") ||
                   !strcmp(w, ".common")) {
            continue; /* linkage: the next word says what is declared */
        } else if (!strcmp(w, ".entry") || !strcmp(w, ".func")) {
            if (!seen_version) {
                rc = fail_at(&ps, at, "missing .version before the first function");
                break;
            }
            rc = read_function(&ps, w[1] == 'e');
        } else if (!strcmp(w, ".shared") || !strcmp(w, ".global") || !strcmp(w, ".const")) {
            rc = read_module_var(&ps, w, at);
        } else if (!strcmp(w, ".pragma")) {
            rc = skip_statement(&ps);
        } else {
            rc = fail_at(&ps, at, "unknown directive '%s'", w);
        }
    }
    if (rc == 0 && !seen_version)
        rc = smem_error_set(err, ps.name, 1, 1, "not PTX: no .version directive");
    if (rc == 0) {
        resolve_locations(ps.m);
        for (uint32_t i = 0; i < ps.m->nfuncs; i++)
            mark_vector_keep(&ps.m->funcs[i]);
    }
    ps.f = NULL;
    reset_func_state(&ps);
    free(ps.ranges);
    free(ps.fixups);
    free(ps.labels);
    free(ps.scope_parent);
    free(ps.ftab);
    free(ps.ptab);
    if (rc) {
        smem_ptx_free(ps.m);
        return -1;
    }
    *out = ps.m;
    return 0;
}

void smem_ptx_free(struct smem_ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        struct smem_ptx_func *f = &m->funcs[i];
        free(f->name);
        free(f->reg_type);
        for (uint32_t k = 0; k < f->nsyms; k++)
            free(f->syms[k].name);
        free(f->syms);
        free(f->insns);
        free(f->vregs);
        free(f->error);
    }
    free(m->funcs);
    for (uint32_t i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    for (uint32_t i = 0; i < m->nglobals; i++) {
        free(m->globals[i].name);
        free_init(&m->globals[i]);
    }
    free(m->globals);
    free(m->frames);
    free(m->version);
    free(m->target);
    free(m->name);
    free(m);
}

const struct smem_ptx_func *smem_ptx_find(const struct smem_ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name) && (m->funcs[i].ninsns || m->funcs[i].is_entry))
            return &m->funcs[i];
    return NULL;
}
