/* sass_lines.c: a line's shared loads and stores as the kernel's own SASS has them, where ptxas
 * changed them beyond what the SASS model (sass_model.c) and the fixed places (sass_fixed.c,
 * sass_reread.c) already follow (issue 33; docs/analyzer.md, "Lines counted as their SASS").
 *
 * ptxas tracks addresses better than the PTX shows: hand-written copies (inline `ld.shared.b32`)
 * compute each word's address in a register of its own, `add %r12, %r10, 4`, which the SASS model
 * does not merge (its members share one base register), and ptxas makes one LDS.128 of four such
 * loads; an empty `asm volatile("" ::: "memory")` stops the front end, not ptxas, from reusing a
 * loaded value. Nothing here is assumed from the PTX alone: each source line's SASS instructions
 * are counted by class and width, and a change is made only where the line's SASS shows it.
 *
 * Addresses: in each stretch of straight code (no branch target inside; loads end it at what may
 * write shared memory or order it, stores at any shared access too) every register holds a root
 * plus a constant: add / sub of an immediate moves the constant, mov / cvt / cvta keep both, an
 * add of two registers adds their constants to a new root made of both roots, anything else
 * makes a new root. Merged: n = W / w scalar accesses of w bytes, one guard, one root, at
 * constants o, o + w, ..., o + W - w, each on a line whose SASS has fewer w-byte instructions of
 * its class than its PTX has (one fewer a member), and one of them on a line whose SASS has more
 * W-byte ones than its PTX (one more a group): one access of W bytes made at the first of them,
 * each lane's address rounded down to a multiple of W (ptxas proved it aligned). Hoisted: a
 * loop-invariant load of a loop that writes no shared memory, whose line's loads the SASS has
 * only outside loops: once a loop entry. Removed: in a region (through conditional branches) an
 * access of the root, constant and width of an earlier unguarded one of its kind, nothing between
 * writing (loads) or reading (stores) shared memory, where the lines lack as many instructions:
 * no request. Checked on the H200: tests/run/sass_lines.cu (tests/run/h200-sass-lines.csv), and
 * Rodinia's srad_v2 (bench/programs/README.md, "Rodinia"). */
#include "smemlab/sass/sass_lines.h"

#include <stdlib.h>
#include <string.h>

#include "smemlab/base/text.h"
#include "smemlab/sass/flow.h"

enum { K_LD, K_ST, NK };
#define NW 5 /* widths 1, 2, 4, 8, 16 */

struct lcount {
    const char *path;
    uint32_t line;
    int np[NK][NW], ns[NK][NW]; /* the PTX's accesses, the SASS's instructions, by width */
};

struct lines {
    struct lcount *l;
    unsigned n, cap;
};

static int wslot(unsigned w)
{
    switch (w) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    default: return -1;
    }
}

static int line_of(struct lines *ls, const char *path, uint32_t line)
{
    for (unsigned i = 0; i < ls->n; i++)
        if (ls->l[i].line == line && smem_same_source(ls->l[i].path, path))
            return (int)i;
    if (ls->n == ls->cap) {
        unsigned nc = ls->cap ? ls->cap * 2 : 32;
        struct lcount *nl = realloc(ls->l, nc * sizeof *nl);
        if (!nl)
            return -1;
        ls->l = nl;
        ls->cap = nc;
    }
    memset(&ls->l[ls->n], 0, sizeof *ls->l);
    ls->l[ls->n].path = path;
    ls->l[ls->n].line = line;
    return (int)ls->n++;
}

/* A shared load or store the rules look at: scalar, not volatile, not changed already. */
static int candidate(const struct smem_ptx_insn *in, const struct smem_sass_merge *merge,
                     const uint8_t *placed, uint32_t k)
{
    if (in->space != SP_SHARED || in->vec != 1 || in->vol || merge[k].leader >= 0 || placed[k] ||
        in->nops != 2)
        return 0;
    if (wslot(smem_ptx_type_bytes(in->type)) < 0)
        return 0;
    if (in->op == PO_LD || in->op == PO_LDU)
        return in->ops[0].kind == OPK_REG && in->ops[1].kind == OPK_ADDR;
    if (in->op == PO_ST)
        return in->ops[0].kind == OPK_ADDR &&
               (in->ops[1].kind == OPK_REG || in->ops[1].kind == OPK_IMM);
    return 0;
}

static int kind_of(const struct smem_ptx_insn *in) { return in->op == PO_ST ? K_ST : K_LD; }

/* Ends a stretch for the accesses of kind kd. */
static int ends(const struct smem_ptx_insn *in, int kd)
{
    if (in->op == PO_BRA || in->op == PO_RET || in->op == PO_EXIT || in->op == PO_CALL)
        return 1;
    if (kd == K_ST && (in->space == SP_SHARED || in->space == SP_GENERIC) &&
        (in->op == PO_LD || in->op == PO_LDU || in->op == PO_ATOM || in->op == PO_RED ||
         in->op == PO_CP_ASYNC))
        return 1;
    if (kd == K_ST && in->op == PO_ST)
        return in->space == SP_GENERIC;
    return smem_sass_ptx_clobbers(in);
}

/* A register's value in the stretch: root + off. Roots: 1<<40 | reg (its value where the stretch
 * starts), 2<<40 | k (made by instruction k), 3<<40 | sym (a symbol's address), 4<<40 | hash (a
 * sum of two roots). */
struct val {
    uint64_t root;
    int64_t off;
};

static struct val reg_val(const struct val *v, const uint8_t *set, int32_t r)
{
    if (r >= 0 && set[r])
        return v[r];
    struct val x = {1ull << 40 | (uint32_t)r, 0};
    return x;
}

static struct val operand_val(const struct val *v, const uint8_t *set, const struct smem_ptx_operand *o,
                              uint32_t k, int *imm)
{
    struct val x = {2ull << 40 | k, 0};
    *imm = 0;
    if (o->kind == OPK_REG)
        return reg_val(v, set, o->reg[0]);
    if (o->kind == OPK_IMM) {
        *imm = 1;
        x.root = 0;
        x.off = o->imm;
        return x;
    }
    if (o->kind == OPK_SYM) {
        x.root = 3ull << 40 | (uint32_t)o->sym;
        x.off = o->imm;
    }
    return x;
}

static void set_dst(const struct smem_ptx_func *f, const struct smem_ptx_insn *in, uint32_t k,
                    struct val *v, uint8_t *set)
{
    if (in->op == PO_ST || in->op == PO_RED || in->op == PO_BRA || in->op == PO_BAR || !in->nops)
        return;
    const struct smem_ptx_operand *d = &in->ops[0];
    if (d->kind == OPK_VEC || d->kind == OPK_PAIR) {
        for (unsigned c = 0; c < 4; c++)
            if (d->reg[c] >= 0 && (uint32_t)d->reg[c] < f->nregs) {
                v[d->reg[c]].root = 2ull << 40 | k;
                v[d->reg[c]].off = (int64_t)c;
                set[d->reg[c]] = 1;
            }
        return;
    }
    if (d->kind != OPK_REG || d->reg[0] < 0 || (uint32_t)d->reg[0] >= f->nregs)
        return;
    struct val x = {2ull << 40 | k, 0};
    int ia = 0, ib = 0;
    switch (in->op) {
    case PO_MOV: case PO_CVT: case PO_CVTA:
        if (in->nops >= 2 && in->ops[1].kind != OPK_SREG) {
            struct val a = operand_val(v, set, &in->ops[1], k, &ia);
            if (!ia)
                x = a;
        }
        break;
    case PO_ADD: case PO_SUB:
        if (in->nops >= 3 && smem_ptx_type_bytes(in->type) >= 4 && in->sat == 0) {
            struct val a = operand_val(v, set, &in->ops[1], k, &ia);
            struct val b = operand_val(v, set, &in->ops[2], k, &ib);
            if (in->op == PO_SUB) {
                if (ib)
                    x = (struct val){a.root, a.off - b.off};
                break;
            }
            if (ib)
                x = (struct val){a.root, a.off + b.off};
            else if (ia)
                x = (struct val){b.root, a.off + b.off};
            else {
                uint64_t lo = a.root < b.root ? a.root : b.root, hi = a.root ^ b.root ^ lo;
                uint64_t h = (lo * 0x9E3779B97F4A7C15ull) ^ (hi + 0x632BE59BD9B4E019ull);
                h ^= h >> 29;
                x = (struct val){4ull << 40 | (h & 0xffffffffffull), a.off + b.off};
            }
        }
        break;
    default:
        break;
    }
    v[d->reg[0]] = x;
    set[d->reg[0]] = 1;
}

static struct val addr_val(const struct val *v, const uint8_t *set, const struct smem_ptx_insn *in)
{
    const struct smem_ptx_operand *a = in->op == PO_ST ? &in->ops[0] : &in->ops[1];
    struct val x;
    if (a->reg[0] >= 0)
        x = reg_val(v, set, a->reg[0]);
    else {
        x.root = 3ull << 40 | (uint32_t)a->sym;
        x.off = 0;
    }
    x.off += a->imm;
    return x;
}

struct acc {
    uint32_t k;
    struct val a;
    int li;        /* its line */
    unsigned w;
};

/* 1 when instruction in writes register r (its destination), or may. */
static int writes(const struct smem_ptx_insn *in, int32_t r)
{
    if (in->op == PO_CALL)
        return 1;
    if (in->op == PO_ST || in->op == PO_RED || in->op == PO_BRA || in->op == PO_BAR || !in->nops)
        return 0;
    const struct smem_ptx_operand *d = &in->ops[0];
    if (d->kind == OPK_VECX)
        return 1;
    if (d->kind != OPK_REG && d->kind != OPK_PAIR && d->kind != OPK_VEC)
        return 0;
    for (unsigned c = 0; c < 4; c++)
        if (d->reg[c] == r)
            return 1;
    return 0;
}

/* The SASS's loads of a line and width: 1 when there are some and none lies in a loop (between a
 * backward branch's target and the branch). */
static int sass_outside_loops(const struct smem_sass_func *sf, const struct smem_sass_module *sm,
                              const uint8_t *inloop, const char *path, uint32_t line, unsigned w)
{
    unsigned some = 0;
    for (uint32_t k = 0; k < sf->ninsns; k++) {
        const struct smem_sass_insn *s = &sf->insns[k];
        if (s->cls != SMEM_SASS_LDS || s->width != w || s->line != line || s->file >= sm->nfiles ||
            !smem_same_source(sm->files[s->file], path))
            continue;
        if (inloop[k])
            return 0;
        some++;
    }
    return some != 0;
}

/* Per SASS instruction: 1 inside a loop (from a backward branch's target to the branch). NULL:
 * out of memory. */
static uint8_t *sass_loops(const struct smem_sass_func *sf)
{
    uint8_t *in = calloc(sf->ninsns ? sf->ninsns : 1, 1);
    for (uint32_t j = 0; in && j < sf->ninsns; j++) {
        const struct smem_sass_insn *b = &sf->insns[j];
        if (b->cls != SMEM_SASS_BRA || b->target < 0 || b->target > (int64_t)b->offset)
            continue;
        for (uint32_t k = j + 1; k-- > 0 && (int64_t)sf->insns[k].offset >= b->target;)
            in[k] = 1;
    }
    return in;
}

static int hoisted(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                   const struct smem_sass_func *sf, const struct smem_sass_module *sm,
                   const struct smem_sass_merge *merge, const uint8_t *placed,
                   const uint8_t *target, struct smem_sass_line_change *out)
{
    uint8_t *inloop = NULL;
    for (uint32_t b = 0; b < f->ninsns; b++) {
        const struct smem_ptx_insn *br = &f->insns[b];
        if (br->op != PO_BRA || !br->nops || br->ops[0].kind != OPK_LABEL || br->ops[0].imm < 0 ||
            (uint64_t)br->ops[0].imm > b)
            continue;
        uint32_t h = (uint32_t)br->ops[0].imm, inner = 0;
        int clean = 1;
        for (uint32_t q = h; q <= b && clean; q++) {
            const struct smem_ptx_insn *in = &f->insns[q];
            clean = !smem_sass_ptx_clobbers(in) && in->op != PO_CALL && in->op != PO_RET &&
                    in->op != PO_EXIT;
            /* an inner loop: its loads are its own */
            if (q < b && in->op == PO_BRA && in->nops && in->ops[0].kind == OPK_LABEL &&
                in->ops[0].imm >= (int64_t)h && (uint64_t)in->ops[0].imm <= q)
                inner = 1;
        }
        if (!clean || inner)
            continue;
        /* the loads of straight code from the loop's start */
        for (uint32_t k = h; k < b; k++) {
            const struct smem_ptx_insn *in = &f->insns[k];
            if (k > h && target[k])
                break;
            if (in->op == PO_BRA)
                break;
            if (!candidate(in, merge, placed, k) || kind_of(in) != K_LD || out[k].kind ||
                in->guard >= 0)
                continue;
            const struct smem_ptx_operand *a = &in->ops[1];
            int moves = 0;
            for (uint32_t q = h; q <= b && !moves; q++)
                moves = a->reg[0] >= 0 && writes(&f->insns[q], a->reg[0]);
            if (moves)
                continue;
            const char *path;
            uint32_t ln;
            smem_sass_ptx_line(m, in, &path, &ln);
            unsigned w = smem_ptx_type_bytes(in->type);
            if (!inloop && !(inloop = sass_loops(sf)))
                return -1;
            if (!ln || !sass_outside_loops(sf, sm, inloop, path, ln, w))
                continue;
            out[k].kind = SMEM_SASS_LINE_HOISTED;
            out[k].leader = (int32_t)k;
            /* the loop's other loads of its address (straight code or not: nothing in the loop
               writes shared memory) */
            for (uint32_t q = h; q < b; q++) {
                const struct smem_ptx_insn *o = &f->insns[q];
                if (q == k || !candidate(o, merge, placed, q) || kind_of(o) != K_LD || out[q].kind ||
                    smem_ptx_type_bytes(o->type) != w || o->ops[1].reg[0] != a->reg[0] ||
                    o->ops[1].sym != a->sym || o->ops[1].imm != a->imm)
                    continue;
                out[q].kind = SMEM_SASS_LINE_REMOVED;
                out[q].leader = (int32_t)k;
            }
        }
    }
    free(inloop);
    return 0;
}

int smem_sass_line_changes(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                           const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                           const struct smem_sass_merge *merge, const uint8_t *placed,
                           struct smem_sass_line_change *out)
{
    for (uint32_t k = 0; k < f->ninsns; k++) {
        out[k].kind = SMEM_SASS_LINE_KEEP;
        out[k].width = 0;
        out[k].leader = -1;
    }
    if (!sf || !sm || !sm->has_lines)
        return 0;
    for (uint32_t k = 0; k < sf->ninsns; k++)
        if (sf->insns[k].cls == SMEM_SASS_UNKNOWN)
            return 0; /* the census says why the kernel is not checked */
    struct lines ls = {NULL, 0, 0};
    int32_t *lof = malloc((f->ninsns ? f->ninsns : 1) * sizeof *lof);
    struct val *v = malloc((f->nregs ? f->nregs : 1) * sizeof *v);
    uint8_t *set = calloc(f->nregs ? f->nregs : 1, 1);
    uint8_t *target = smem_sass_ptx_targets(f);
    struct acc *acc = malloc((f->ninsns ? f->ninsns : 1) * sizeof *acc);
    int32_t *again = malloc((f->ninsns ? f->ninsns : 1) * sizeof *again);
    int rc = -1;
    if (!lof || !v || !set || !target || !acc || !again)
        goto done;
    /* the PTX's shared loads and stores of each line, by width (a merged group once, at its
       leader), and the SASS's */
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        lof[k] = -1;
        if (in->space != SP_SHARED || (in->op != PO_LD && in->op != PO_LDU && in->op != PO_ST))
            continue;
        unsigned w = merge[k].leader >= 0 ? merge[k].width
                                          : smem_ptx_type_bytes(in->type) * (in->vec ? in->vec : 1);
        const char *path;
        uint32_t ln;
        smem_sass_ptx_line(m, in, &path, &ln);
        int li = ln ? line_of(&ls, path, ln) : -2;
        if (li == -1)
            goto done;
        lof[k] = li;
        if (li >= 0 && (merge[k].leader < 0 || merge[k].leader == (int32_t)k) && wslot(w) >= 0)
            ls.l[li].np[kind_of(in)][wslot(w)]++;
    }
    for (uint32_t k = 0; k < sf->ninsns; k++) {
        const struct smem_sass_insn *s = &sf->insns[k];
        int kd = s->cls == SMEM_SASS_LDS ? K_LD : s->cls == SMEM_SASS_STS ? K_ST : -1;
        if (kd < 0 || !s->line || s->file >= sm->nfiles || wslot(s->width) < 0 ||
            (s->guard == SMEM_SASS_PT && s->guard_neg))
            continue;
        int li = line_of(&ls, sm->files[s->file], s->line);
        if (li < 0)
            goto done;
        ls.l[li].ns[kd][wslot(s->width)]++;
    }
    /* what each line's SASS has beyond its PTX: W-byte instructions (+) and w-byte ones it lacks */
    for (int kd = 0; kd < NK; kd++) {
        uint32_t start = 0;
        while (start < f->ninsns) {
            uint32_t n = 0, end = start;
            memset(set, 0, f->nregs ? f->nregs : 1);
            for (; end < f->ninsns; end++) {
                const struct smem_ptx_insn *in = &f->insns[end];
                if (end > start && target[end])
                    break;
                if (candidate(in, merge, placed, end) && kind_of(in) == kd && lof[end] >= 0) {
                    acc[n].k = end;
                    acc[n].a = addr_val(v, set, in);
                    acc[n].li = lof[end];
                    acc[n].w = smem_ptx_type_bytes(in->type);
                    n++;
                }
                set_dst(f, in, end, v, set);
                if (ends(in, kd)) {
                    end++;
                    break;
                }
            }
            /* merged: groups of n consecutive constants of one root, guard and width */
            for (unsigned W = 16; W >= 8; W /= 2)
                for (uint32_t i = 0; i < n; i++) {
                    const struct acc *a = &acc[i];
                    const struct smem_ptx_insn *ia = &f->insns[a->k];
                    unsigned per = W / a->w;
                    if (out[a->k].kind || per < 2 || per > 16)
                        continue;
                    uint32_t grp[16];
                    unsigned got = 1;
                    grp[0] = i;
                    for (unsigned e = 1; e < per; e++) {
                        uint32_t j;
                        for (j = 0; j < n; j++) {
                            const struct acc *b = &acc[j];
                            const struct smem_ptx_insn *ib = &f->insns[b->k];
                            if (!out[b->k].kind && b->w == a->w && b->a.root == a->a.root &&
                                b->a.off == a->a.off + (int64_t)(e * a->w) &&
                                ib->guard == ia->guard && ib->guard_neg == ia->guard_neg)
                                break;
                        }
                        if (j == n)
                            break;
                        grp[got++] = j;
                    }
                    if (got != per)
                        continue;
                    /* the lines: each member's lacks one w-byte instruction, one has a W-byte
                       one more than its PTX */
                    int ok = 1, wide = -1;
                    for (unsigned e = 0; e < per && ok; e++) {
                        struct lcount *L = &ls.l[acc[grp[e]].li];
                        int need = 0;
                        for (unsigned q = 0; q < per; q++)
                            need += acc[grp[q]].li == acc[grp[e]].li;
                        ok = L->np[kd][wslot(a->w)] - L->ns[kd][wslot(a->w)] >= need;
                        if (wide < 0 && L->ns[kd][wslot(W)] > L->np[kd][wslot(W)])
                            wide = acc[grp[e]].li;
                    }
                    if (!ok || wide < 0)
                        continue;
                    uint32_t lead = acc[grp[0]].k;
                    for (unsigned e = 1; e < per; e++)
                        if (acc[grp[e]].k < lead)
                            lead = acc[grp[e]].k;
                    for (unsigned e = 0; e < per; e++) {
                        struct smem_sass_line_change *c = &out[acc[grp[e]].k];
                        c->kind = SMEM_SASS_LINE_MERGED;
                        c->leader = (int32_t)lead;
                        ls.l[acc[grp[e]].li].np[kd][wslot(a->w)]--;
                    }
                    out[lead].width = (uint8_t)W;
                    ls.l[wide].np[kd][wslot(W)]++;
                }
            start = end > start ? end : start + 1;
        }
    }
    /* hoisted: a load in a loop (a backward branch's span) that nothing in the loop may write
       or order, of a place no instruction of the loop changes, reached from the loop's start by
       straight code, where the SASS has loads of its line and width, none inside a loop */
    if (hoisted(m, f, sf, sm, merge, placed, target, out))
        goto done;
    /* removed: per region (straight code between labels, through conditional branches: a lane
       at an instruction of it has run the region's earlier instructions it did not branch
       over), an access of what an earlier access of its kind read
       or wrote, with nothing between that may write (loads) or read (stores) shared memory or
       order it. The earlier one makes the request, as ptxas's one instruction does (a store:
       the later value selected into it). Applied where each line of the region's such accesses
       lacks as many instructions of their width in its SASS as it has of them, else none
       (ptxas moved them, out of a loop say: the census says so). */
    for (int kd = 0; kd < NK; kd++) {
        uint32_t start = 0;
        while (start < f->ninsns) {
            uint32_t n = 0, end = start, first = 0; /* acc[first..n): since the last clobber */
            memset(set, 0, f->nregs ? f->nregs : 1);
            for (; end < f->ninsns; end++) {
                const struct smem_ptx_insn *in = &f->insns[end];
                if (end > start && target[end])
                    break;
                if (candidate(in, merge, placed, end) && kind_of(in) == kd && lof[end] >= 0 &&
                    !out[end].kind) {
                    acc[n].k = end;
                    acc[n].a = addr_val(v, set, in);
                    acc[n].li = lof[end];
                    acc[n].w = smem_ptx_type_bytes(in->type);
                    again[n] = -1;
                    for (uint32_t j = first; j < n; j++) {
                        const struct smem_ptx_insn *ia = &f->insns[acc[j].k];
                        if (again[j] < 0 && acc[j].w == acc[n].w && acc[j].a.root == acc[n].a.root &&
                            acc[j].a.off == acc[n].a.off && ia->guard < 0) {
                            again[n] = (int32_t)j;
                            ls.l[acc[n].li].np[kd][wslot(acc[n].w)]--;
                            break;
                        }
                    }
                    n++;
                }
                set_dst(f, in, end, v, set);
                if (in->op == PO_BRA && in->guard >= 0)
                    continue; /* the region goes on where the branch is not taken */
                if (in->op == PO_BRA || in->op == PO_RET || in->op == PO_EXIT || in->op == PO_CALL) {
                    end++;
                    break;
                }
                if (ends(in, kd))
                    first = n;
            }
            int ok = 1;
            for (uint32_t i = 0; i < n; i++)
                if (again[i] >= 0) {
                    const struct lcount *L = &ls.l[acc[i].li];
                    ok &= L->np[kd][wslot(acc[i].w)] >= L->ns[kd][wslot(acc[i].w)];
                }
            for (uint32_t i = 0; i < n; i++)
                if (again[i] >= 0) {
                    if (!ok) {
                        ls.l[acc[i].li].np[kd][wslot(acc[i].w)]++;
                        continue;
                    }
                    out[acc[i].k].kind = SMEM_SASS_LINE_REMOVED;
                    out[acc[i].k].leader = (int32_t)acc[again[i]].k;
                }
            start = end > start ? end : start + 1;
        }
    }
    rc = 0;
done:
    free(ls.l);
    free(lof);
    free(v);
    free(set);
    free(target);
    free(acc);
    free(again);
    return rc;
}
