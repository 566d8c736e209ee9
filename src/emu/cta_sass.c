/* cta_sass.c: loads from fixed places of shared memory as the kernel's own SASS has them.
 *
 * A load from a fixed place ([symbol + imm]: a __shared__ scalar, a fixed element) is read by
 * every lane at one address, so its cost is one wavefront and only two things decide its count:
 * how many of them ptxas made one instruction of, and where that instruction runs. ptxas decides
 * both by heuristics PTX does not state (cuda-samples' mergeSort: two lengths read on either side
 * of a branch become one LDS.64 before it; a read inside an if-converted block runs in every
 * warp; dxtc: a float3 read as one LDS.128), but its SASS says what it did: an LDS whose address
 * is [URb + imm] with Ra = RZ reads the fixed window offset imm (src/sass/decode.c), and so does
 * one whose Ra the register dataflow proves to hold the window's base plus a constant, folded into
 * imm (ra_fixed, src/sass/regs.c). So, with the SASS at hand:
 *
 *  - units: the PTX's unguarded fixed-place loads, each alone or as the SASS model groups them
 *    (ptx/sass_model.c), with their window range and source lines;
 *  - each unit is matched to the fixed-place LDS covering its range in its barrier interval
 *    (where the PTX and the SASS have as many barriers: ptxas moves no load across one) on the
 *    nearest line, within 8 of one of its instructions' lines (ptxas's copies of one block, the
 *    same LDS in each, count as one); a unit with no such LDS, or with two different ones as
 *    near, is left as the PTX has it (the census then says how its line differs);
 *  - the units matched to one LDS become one group, its first unit the leader, with the LDS's
 *    width and offset, provided nothing between the leader and the others writes shared memory
 *    or waits at a barrier (else the match is not believed);
 *  - where that LDS runs in every warp but the leader's PTX runs inside a forward branch (straight
 *    code from the branch to the load: no label in between, nothing writing shared memory), the
 *    request is made at the branch, by every lane reaching it (the site is hoisted).
 *
 * The matches rest on the line table and the layout of the window (a unit's range must be the
 * LDS's offset exactly): where either disagrees nothing matches and nothing changes. Checked
 * against the H100: tests/run/fixed_places.cu (tests/run/h100-fixed-places.csv). */
#include "cta_sass.h"
#include "cta_internal.h"

#include <stdlib.h>
#include <string.h>

#include "smemlab/base/text.h"

#define NEAR 8

#define ULINES 4

struct unit {
    uint32_t lead;       /* the instruction whose site carries it */
    uint32_t interval;   /* barriers before it in the PTX's order */
    const char *path[ULINES]; /* its instructions' lines (the first ULINES distinct ones) */
    uint32_t line[ULINES];
    unsigned nlines;
    int64_t start;       /* window range */
    unsigned width;
    int partial;         /* a vector load some of whose components nothing reads */
    int32_t sass;        /* the matched LDS, -1 none, -2 several */
};


/* The line an instruction is written on (the innermost of inlined code), as the census has it. */
static void line_of(const struct smem_ptx_module *m, const struct smem_ptx_insn *in,
                    const char **path, uint32_t *line)
{
    uint32_t file = in->loc_file, ln = in->loc_line;
    if (in->chain < m->nframes) {
        file = m->frames[in->chain].file;
        ln = m->frames[in->chain].line;
    }
    *path = file < m->nfiles ? m->files[file] : NULL;
    *line = ln;
}

/* An unguarded whole load of [symbol + imm] in the shared window. */
static int fixed_load(const struct smem_ptx_func *f, const struct smem_ptx_insn *in)
{
    if ((in->op != PO_LD && in->op != PO_LDU) || in->space != SP_SHARED || in->nops != 2 ||
        in->guard >= 0 || in->ops[1].kind != OPK_ADDR || in->ops[1].reg[0] >= 0 ||
        in->ops[1].sym < 0 || (uint32_t)in->ops[1].sym >= f->nsyms)
        return 0;
    unsigned k = f->syms[in->ops[1].sym].kind;
    if (k != SYM_SHARED && k != SYM_SHARED_EXTERN)
        return 0;
    uint32_t all = (1u << in->vec) - 1u;
    return in->vec <= 1 || (in->keep & all) != 0; /* a vector: what ptxas keeps of it */
}

/* The window bytes a fixed-place load reads as ptxas keeps it: a vector's kept components from the
 * first to the last (ptxas drops unused ones: hw/README item 7, unless its LDS says otherwise). */
static void kept_range(const struct smem_ptx_insn *in, const uint32_t *sym_offset, int64_t *start,
                       unsigned *width, int *partial)
{
    unsigned esz = smem_ptx_type_bytes(in->type), n = in->vec > 1 ? in->vec : 1;
    uint32_t keep = n > 1 ? in->keep & ((1u << n) - 1u) : 1u;
    unsigned lo = 0, hi = n - 1;
    while (lo < n && !(keep >> lo & 1u))
        lo++;
    while (hi > lo && !(keep >> hi & 1u))
        hi--;
    *start = (int64_t)sym_offset[in->ops[1].sym] + in->ops[1].imm + (int64_t)lo * esz;
    *width = (hi - lo + 1) * esz;
    *partial = keep != (1u << n) - 1u;
}

static int64_t place_of(const struct smem_ptx_insn *in, const uint32_t *sym_offset)
{
    return (int64_t)sym_offset[in->ops[1].sym] + in->ops[1].imm;
}

/* What ptxas may not move a shared load across. */
static int clobbers(const struct smem_ptx_insn *in)
{
    switch (in->op) {
    case PO_ST: return in->space == SP_SHARED || in->space == SP_GENERIC;
    case PO_ATOM: case PO_RED: case PO_BAR: case PO_BAR_RED: case PO_BAR_ARRIVE:
    case PO_BAR_WARP: case PO_BAR_CLUSTER: case PO_CP_ASYNC: case PO_CP_BULK: case PO_CALL:
    case PO_STMATRIX: case PO_WMMA: case PO_MEMBAR: case PO_RET: case PO_EXIT: case PO_TRAP:
        return 1;
    default:
        return 0;
    }
}

static int between_clean(const struct smem_ptx_func *f, uint32_t from, uint32_t to)
{
    for (uint32_t q = from + 1; q < to; q++)
        if (clobbers(&f->insns[q]))
            return 0;
    return 1;
}

/* The guarded forward branch whose straight fall-through reaches `lead` (no label, no write of
 * shared memory in between) and jumps past it; -1 if there is none. */
static int32_t branch_over(const struct smem_ptx_func *f, const uint8_t *target, uint32_t lead)
{
    for (uint32_t q = lead; q-- > 0;) {
        const struct smem_ptx_insn *in = &f->insns[q];
        if (target[q + 1])
            return -1; /* lead (or what leads to it) is reached from elsewhere too */
        if (in->op == PO_BRA) {
            if (in->guard < 0 || in->nops < 1 || in->ops[0].kind != OPK_LABEL ||
                in->ops[0].imm <= (int64_t)lead)
                return -1;
            return (int32_t)q;
        }
        if (clobbers(in))
            return -1;
    }
    return -1;
}

/* How near (in lines) the fixed-place LDS s is to unit x when it covers x's bytes in x's barrier
 * interval; UINT32_MAX when it is not such an LDS. */
static unsigned covering(const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                         const uint32_t *sint, int by_interval, const struct unit *u, uint32_t s)
{
    const struct smem_sass_insn *x = &sf->insns[s];
    /* a fixed place: [URb + imm], or [Ra + imm] with Ra the window's base (ra_fixed) */
    if (x->cls != SMEM_SASS_LDS || (x->ra != 255 && !x->ra_fixed) || !x->width ||
        x->guard != SMEM_SASS_PT || x->guard_neg || !x->line || x->file >= sm->nfiles ||
        x->imm > u->start || (int64_t)x->imm + x->width < u->start + (int64_t)u->width ||
        (by_interval && sint[s] != u->interval))
        return UINT32_MAX;
    /* the nearest of the unit's instructions' lines */
    unsigned d = UINT32_MAX;
    for (unsigned j = 0; j < u->nlines; j++) {
        uint32_t ln = u->line[j];
        if (!smem_same_source(u->path[j], sm->files[x->file]))
            continue;
        unsigned dd = ln > x->line ? ln - x->line : x->line - ln;
        if (dd < d)
            d = dd;
    }
    return d;
}

int emu_sass_fixed(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                   const uint32_t *sym_offset, const struct smem_sass_module *sm,
                   const struct smem_sass_func *sf, struct sass_merge *merge, int32_t *hoist,
                   uint8_t *placed, int32_t *sass_of)
{
    uint32_t n = f->ninsns;
    for (uint32_t k = 0; k < n; k++) {
        hoist[k] = -1;
        placed[k] = 0;
        sass_of[k] = -1;
    }
    if (!sf || !sm->has_lines || !n)
        return 0;
    for (uint32_t k = 0; k < sf->ninsns; k++)
        if (sf->insns[k].cls == SMEM_SASS_UNKNOWN)
            return 0; /* the census says so; nothing rests on a SASS not read whole */
    struct unit *u = malloc(n * sizeof *u);
    uint32_t *unit_of = malloc(n * sizeof *unit_of);
    uint8_t *target = calloc(n + 1, 1), *pcond = sass_ptx_conditional(f, 0);
    uint8_t *scond = malloc(sf->ninsns ? sf->ninsns : 1);
    uint32_t *sint = NULL;
    int rc = -1;
    if (!u || !unit_of || !target || !pcond || !scond || smem_sass_conditional(sf, scond))
        goto done;
    for (uint32_t k = 0; k < n; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        for (unsigned o = 0; o < in->nops; o++)
            if (in->ops[o].kind == OPK_LABEL && in->ops[o].imm >= 0 && (uint64_t)in->ops[o].imm < n)
                target[in->ops[o].imm] = 1;
    }
    /* barrier intervals, counted in program order on both sides: ptxas moves no load across a
       barrier, so where both have as many barriers a load's LDS lies in its interval */
    uint32_t pbars = 0, sbars = 0;
    for (uint32_t k = 0; k < n; k++) {
        unsigned op = f->insns[k].op;
        pbars += op == PO_BAR || op == PO_BAR_RED || op == PO_BAR_ARRIVE;
    }
    for (uint32_t k = 0; k < sf->ninsns; k++)
        sbars += sf->insns[k].cls == SMEM_SASS_BAR;
    int by_interval = pbars == sbars;
    sint = calloc(sf->ninsns ? sf->ninsns : 1, sizeof *sint);
    if (!sint)
        goto done;
    for (uint32_t k = 0, b = 0; k < sf->ninsns; k++) {
        sint[k] = b;
        b += sf->insns[k].cls == SMEM_SASS_BAR;
    }
    /* units: fixed-place loads, alone or as the model grouped them (all members fixed too) */
    uint32_t nu = 0, pint = 0;
    for (uint32_t k = 0; k < n; k++) {
        unit_of[k] = UINT32_MAX;
        const struct smem_ptx_insn *in = &f->insns[k];
        unsigned bop = in->op;
        uint32_t here = pint;
        pint += bop == PO_BAR || bop == PO_BAR_RED || bop == PO_BAR_ARRIVE;
        int32_t lead = merge[k].leader >= 0 ? merge[k].leader : (int32_t)k;
        if (!fixed_load(f, in) || !fixed_load(f, &f->insns[lead]))
            continue;
        if ((uint32_t)lead != k) {
            if (unit_of[lead] != UINT32_MAX)
                unit_of[k] = unit_of[lead];
            continue;
        }
        struct unit *x = &u[nu];
        x->lead = k;
        x->interval = here;
        x->partial = 0;
        if (merge[k].leader >= 0) {
            x->start = place_of(in, sym_offset) + merge[k].offset;
            x->width = merge[k].width;
        } else {
            kept_range(in, sym_offset, &x->start, &x->width, &x->partial);
        }
        x->sass = -1;
        x->nlines = 0;
        unit_of[k] = nu++;
    }
    for (uint32_t k = 0; k < n; k++) {
        if (unit_of[k] == UINT32_MAX)
            continue;
        struct unit *x = &u[unit_of[k]];
        const char *path;
        uint32_t ln;
        line_of(m, &f->insns[k], &path, &ln);
        int have = !ln;
        for (unsigned j = 0; j < x->nlines && !have; j++)
            have = x->line[j] == ln && x->path[j] == path;
        if (!have && x->nlines < ULINES) {
            x->path[x->nlines] = path;
            x->line[x->nlines++] = ln;
        }
    }
    /* a group whose members are not all fixed places: none of it is a unit */
    for (uint32_t k = 0; k < n; k++)
        if (merge[k].leader >= 0 && unit_of[merge[k].leader] != UINT32_MAX &&
            !fixed_load(f, &f->insns[k]))
            u[unit_of[merge[k].leader]].sass = -2;
    /* each unit's LDS: the fixed-place ones covering its range, on its lines first */
    for (uint32_t i = 0; i < nu; i++) {
        if (u[i].sass == -2)
            continue;
        int32_t best = -1;
        unsigned bestd = UINT32_MAX, ties = 0, bestkey = 0;
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t s = 0; s < sf->ninsns; s++) {
                unsigned d = covering(sm, sf, sint, by_interval, &u[i], s);
                if (d > NEAR || (pass == 0 && d >= bestd)) {
                    continue;
                } else if (pass == 0) {
                    bestd = d; /* the nearest line */
                    continue;
                } else if (d != bestd) {
                    continue;
                }
                /* as near: the LDS reading exactly the unit's bytes, else the widest; several
                   different ones are believed only where the PTX and the SASS have as many
                   barriers (then every one lies in the unit's interval and each is an
                   instruction of its own: the others are matched by their own loads) */
                const struct smem_sass_insn *x = &sf->insns[s];
                unsigned key = by_interval ? (x->imm == u[i].start && x->width == u[i].width) * 256u +
                                                 x->width : 0;
                if (best < 0 || key > bestkey) {
                    best = (int32_t)s;
                    bestkey = key;
                    ties = 0;
                } else if (key == bestkey) {
                    /* ptxas's copies of one block (duplicated tails, unrolled code) are as good
                       as one */
                    const struct smem_sass_insn *y = &sf->insns[best];
                    ties += y->imm != x->imm || y->width != x->width || scond[best] != scond[s];
                }
            }
        u[i].sass = best < 0 ? -1 : ties ? -2 : best;
    }
    /* groups: the units of one LDS */
    for (uint32_t s = 0; s < sf->ninsns; s++) {
        uint32_t first = UINT32_MAX, count = 0;
        int ok = 1;
        for (uint32_t i = 0; i < nu; i++)
            if (u[i].sass == (int32_t)s) {
                if (first == UINT32_MAX)
                    first = i; /* units are in instruction order */
                count++;
            }
        if (!count)
            continue;
        uint32_t lead = u[first].lead;
        for (uint32_t k = lead + 1; count > 1 && k < n && ok; k++)
            if (unit_of[k] != UINT32_MAX && u[unit_of[k]].sass == (int32_t)s && !between_clean(f, lead, k))
                ok = 0;
        if (!ok)
            continue;
        const struct smem_sass_insn *x = &sf->insns[s];
        /* a vector ptxas was expected to cut to its used components is one LDS too */
        int widen = count > 1 || x->width != u[first].width || u[first].partial;
        sass_of[lead] = (int32_t)s; /* matched: counted as that LDS, changed or not */
        if (widen) {
            for (uint32_t k = lead; k < n; k++)
                if (unit_of[k] != UINT32_MAX && u[unit_of[k]].sass == (int32_t)s)
                    merge[k].leader = (int32_t)lead;
            merge[lead].width = x->width;
            merge[lead].offset = (int32_t)(x->imm - place_of(&f->insns[lead], sym_offset));
            placed[lead] = 1;
        }
        if (!scond[s] && pcond[lead]) {
            int32_t j = branch_over(f, target, lead);
            if (j >= 0 && !pcond[j]) {
                hoist[lead] = j;
                placed[lead] = 2;
                if (!widen) {
                    merge[lead].leader = (int32_t)lead;
                    merge[lead].width = x->width;
                    merge[lead].offset = (int32_t)(x->imm - place_of(&f->insns[lead], sym_offset));
                }
            }
        }
    }
    rc = 0;
done:
    free(sint);
    free(u);
    free(unit_of);
    free(target);
    free(pcond);
    free(scond);
    return rc;
}

/* Re-reads ptxas serves from registers (issue 14, cause 1a). CUB's raking scan reads a lane's
 * segment in the upsweep and again in the downsweep (the same line, the same base register, a
 * warp scan between); ptxas keeps the upsweep's values and drops the downsweep's LDS, but not
 * always: in a kernel of ours written alike it drops 2 of 32. So nothing is assumed: the line's
 * SASS says, offset by offset, how many LDS read [Ra + imm], and where it has fewer than the PTX
 * has loads of [Rb + imm], the later ones are the re-reads it dropped, each believed only where
 * an earlier load of that address reaches it by straight code (no label between) with no barrier,
 * fence, atomic, call or store that may write its bytes between and its base register unchanged.
 * Such a load makes no request (merge[k].leader = the earlier load; placed[earlier] = 3). */

#define REREAD_MAX 1024 /* loads on one line looked at */

/* 1 when instruction q writes register r (its destination operand), or may. */
static int writes_reg(const struct smem_ptx_insn *in, int32_t r)
{
    switch (in->op) {
    case PO_ST: case PO_RED: case PO_BRA: case PO_BAR: case PO_BAR_ARRIVE: case PO_BAR_WARP:
    case PO_MEMBAR: case PO_RET: case PO_EXIT:
        return 0;
    default:
        break;
    }
    if (in->op == PO_CALL)
        return 1;
    if (!in->nops)
        return 0;
    const struct smem_ptx_operand *o = &in->ops[0];
    switch (o->kind) {
    case OPK_REG: return o->reg[0] == r;
    case OPK_PAIR: return o->reg[0] == r || o->reg[1] == r;
    case OPK_VEC:
        for (unsigned c = 0; c < o->count && c < 4; c++)
            if (o->reg[c] == r)
                return 1;
        return 0;
    case OPK_VECX: return 1;
    default: return 0;
    }
}

/* A load of [base + imm] (bytes w) at b re-reads what the load at a read: see above. */
static int reread_clean(const struct smem_ptx_func *f, const uint8_t *target, uint32_t a,
                        uint32_t b, int32_t base, int64_t imm, unsigned w)
{
    for (uint32_t q = a + 1; q <= b; q++) {
        if (target[q])
            return 0; /* reached from elsewhere too */
        if (q == b)
            break;
        const struct smem_ptx_insn *in = &f->insns[q];
        if (writes_reg(in, base))
            return 0;
        if (in->op == PO_ST && in->space == SP_SHARED && in->nops >= 1 &&
            in->ops[0].kind == OPK_ADDR && in->ops[0].reg[0] == base && in->ops[0].sym < 0) {
            int64_t at = in->ops[0].imm;
            unsigned sw = smem_ptx_type_bytes(in->type) * (in->vec > 1 ? in->vec : 1);
            if (at + (int64_t)sw <= imm || imm + (int64_t)w <= at)
                continue; /* other bytes of the same segment */
            return 0;
        }
        if (clobbers(in))
            return 0;
    }
    return 1;
}

/* A load this rule looks at: an unguarded scalar ld.shared of [reg + imm], not grouped. */
static int reg_load(const struct smem_ptx_insn *in, const struct sass_merge *merge, uint32_t k)
{
    return (in->op == PO_LD || in->op == PO_LDU) && in->space == SP_SHARED && in->nops == 2 &&
           in->guard < 0 && in->vec <= 1 && in->ops[1].kind == OPK_ADDR && in->ops[1].reg[0] >= 0 &&
           in->ops[1].sym < 0 && merge[k].leader < 0;
}

int emu_sass_rereads(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                     const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                     struct sass_merge *merge, uint8_t *placed)
{
    uint32_t n = f->ninsns;
    if (!sf || !sm->has_lines || !n)
        return 0;
    for (uint32_t k = 0; k < sf->ninsns; k++)
        if (sf->insns[k].cls == SMEM_SASS_UNKNOWN)
            return 0;
    uint8_t *target = calloc(n + 1, 1), *done = calloc(n, 1);
    uint32_t *ld = malloc(REREAD_MAX * sizeof *ld), *drop = malloc(REREAD_MAX * sizeof *drop);
    int64_t *soff = malloc(REREAD_MAX * sizeof *soff);
    int rc = -1;
    if (!target || !done || !ld || !drop || !soff)
        goto out;
    for (uint32_t k = 0; k < n; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        for (unsigned o = 0; o < in->nops; o++)
            if (in->ops[o].kind == OPK_LABEL && in->ops[o].imm >= 0 && (uint64_t)in->ops[o].imm < n)
                target[in->ops[o].imm] = 1;
    }
    for (uint32_t k0 = 0; k0 < n; k0++) {
        if (done[k0] || !reg_load(&f->insns[k0], merge, k0))
            continue;
        const char *path;
        uint32_t line;
        line_of(m, &f->insns[k0], &path, &line);
        if (!line)
            continue;
        /* the PTX's shared loads of the line: all of this form, one base, one width */
        int32_t base = f->insns[k0].ops[1].reg[0];
        unsigned w = smem_ptx_type_bytes(f->insns[k0].type), nl = 0, ok = 1;
        for (uint32_t k = 0; k < n; k++) {
            const struct smem_ptx_insn *in = &f->insns[k];
            if ((in->op != PO_LD && in->op != PO_LDU) || in->space != SP_SHARED)
                continue;
            const char *pk;
            uint32_t lk;
            line_of(m, in, &pk, &lk);
            if (lk != line || pk != path)
                continue;
            done[k] = 1;
            if (!reg_load(in, merge, k) || in->ops[1].reg[0] != base ||
                smem_ptx_type_bytes(in->type) != w || nl == REREAD_MAX)
                ok = 0;
            else
                ld[nl++] = k;
        }
        /* the SASS's LDS of the line: one register base, that width, unguarded */
        unsigned ns = 0;
        int ra = -1;
        for (uint32_t s = 0; s < sf->ninsns && ok; s++) {
            const struct smem_sass_insn *x = &sf->insns[s];
            if (x->line != line || x->file >= sm->nfiles ||
                !smem_same_source(path, sm->files[x->file]))
                continue;
            if (x->cls != SMEM_SASS_LDS)
                continue;
            if (x->ra == 255 || x->ra_fixed || x->width != w || x->guard != SMEM_SASS_PT ||
                (ra >= 0 && x->ra != ra) || ns == REREAD_MAX) {
                ok = 0;
                break;
            }
            ra = x->ra;
            soff[ns++] = x->imm;
        }
        if (!ok || !ns || ns >= nl)
            continue; /* no evidence: as many LDS as loads (or more: ptxas's copies) */
        /* the SASS's offsets are the PTX's moved by one constant (ptxas may fold one into Ra) */
        int64_t pmin = INT64_MAX, smin = INT64_MAX;
        for (unsigned i = 0; i < nl; i++)
            if (f->insns[ld[i]].ops[1].imm < pmin)
                pmin = f->insns[ld[i]].ops[1].imm;
        for (unsigned i = 0; i < ns; i++)
            if (soff[i] < smin)
                smin = soff[i];
        int64_t shift = smin - pmin;
        /* offset by offset: as many or fewer LDS than loads, every LDS some load's offset */
        unsigned ndrop = 0;
        for (unsigned i = 0; i < ns && ok; i++) {
            unsigned have = 0;
            for (unsigned j = 0; j < nl; j++)
                have += f->insns[ld[j]].ops[1].imm + shift == soff[i];
            ok = have > 0;
        }
        for (unsigned i = 0; i < nl && ok; i++) {
            int64_t imm = f->insns[ld[i]].ops[1].imm;
            int first = 1, np = 0, nsa = 0;
            for (unsigned j = 0; j < nl; j++) {
                if (f->insns[ld[j]].ops[1].imm != imm)
                    continue;
                first &= j >= i;
                np++;
            }
            if (!first)
                continue; /* each offset once */
            for (unsigned j = 0; j < ns; j++)
                nsa += soff[j] == imm + shift;
            if (nsa > np) {
                ok = 0;
                break;
            }
            /* the last np - nsa loads of this offset are the ones dropped */
            int skip = nsa;
            for (unsigned j = 0; j < nl; j++) {
                if (f->insns[ld[j]].ops[1].imm != imm)
                    continue;
                if (skip-- > 0)
                    continue;
                drop[ndrop++] = j;
            }
        }
        if (!ok)
            continue;
        for (unsigned d = 0; d < ndrop; d++) {
            uint32_t b = ld[drop[d]];
            int64_t imm = f->insns[b].ops[1].imm;
            /* the nearest earlier load of the address that makes its request */
            int32_t a = -1;
            for (unsigned j = drop[d]; j-- > 0;)
                if (f->insns[ld[j]].ops[1].imm == imm && merge[ld[j]].leader < 0) {
                    a = (int32_t)ld[j];
                    break;
                }
            if (a < 0 || !reread_clean(f, target, (uint32_t)a, b, base, imm, w))
                continue;
            merge[b].leader = a;
            if (!placed[a])
                placed[a] = 3;
        }
    }
    rc = 0;
out:
    free(target);
    free(done);
    free(ld);
    free(drop);
    free(soff);
    return rc;
}
