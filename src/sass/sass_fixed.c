/* sass_fixed.c: loads from fixed places of shared memory as the kernel's own SASS has them.
 *
 * A load from a fixed place ([symbol + imm]: a __shared__ scalar, a fixed element) is read by
 * every lane at one address, so its cost is one wavefront and only two things decide its count:
 * how many of them ptxas made one instruction of, and where that instruction runs. ptxas decides
 * both by heuristics PTX does not state (cuda-samples' mergeSort: two lengths read on either side
 * of a branch become one LDS.64 before it; a read inside an if-converted block runs in every
 * warp; dxtc: a float3 read as one LDS.128), but its SASS says what it did: an LDS whose address
 * is [URb + imm] with Ra = RZ reads the fixed window offset imm (decode.c), and so does
 * one whose Ra the register dataflow proves to hold the window's base plus a constant, folded into
 * imm (ra_fixed, regs.c). So, with the SASS at hand:
 *
 *  - units: the PTX's unguarded fixed-place loads, each alone or as the SASS model groups them
 *    (sass_model.c), with their window range and source lines;
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
#include "smemlab/sass/sass_fixed.h"

#include <stdlib.h>

#include "smemlab/base/text.h"
#include "smemlab/sass/flow.h"

#define NEAR 8

#define ULINES 4

struct unit {
    uint32_t lead;       /* the instruction whose site carries it */
    uint32_t interval;   /* barriers before it in the PTX's order */
    int32_t bprev, bnext; /* the PTX's barriers before and after it (-1 none) */
    const char *path[ULINES]; /* its instructions' lines (the first ULINES distinct ones) */
    uint32_t line[ULINES];
    unsigned nlines;
    int64_t start;       /* window range */
    unsigned width;
    int partial;         /* a vector load some of whose components nothing reads */
    int32_t sass;        /* the matched LDS, -1 none, -2 several */
};


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

static int between_clean(const struct smem_ptx_func *f, uint32_t from, uint32_t to)
{
    for (uint32_t q = from + 1; q < to; q++)
        if (smem_sass_ptx_clobbers(&f->insns[q]))
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
        if (smem_sass_ptx_clobbers(in))
            return -1;
    }
    return -1;
}

/* How near (in lines) the fixed-place LDS s is to unit x when it covers x's bytes in x's barrier
 * interval; UINT32_MAX when it is not such an LDS. */
/* The PTX barrier p and the SASS barrier q (-1: none, the function's start or end) are on one
 * source line. */
static int same_barrier(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                        const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                        int32_t p, int32_t q)
{
    if (p < 0 || q < 0)
        return p < 0 && q < 0;
    const char *path;
    uint32_t line;
    smem_sass_ptx_line(m, &f->insns[p], &path, &line);
    const struct smem_sass_insn *x = &sf->insns[q];
    return line && x->line == line && x->file < sm->nfiles &&
           smem_same_source(path, sm->files[x->file]);
}

/* Where a unit's LDS may lie: WHERE_ANY anywhere (the PTX and the SASS have different numbers of
 * barriers), WHERE_POS in its barrier interval counted in program order, WHERE_LINES in any
 * interval between barriers on the same two lines as its own (ptxas lays out copies of a block
 * in another order than the PTX: CUB's select sweep) */
enum { WHERE_ANY, WHERE_POS, WHERE_LINES };

struct where {
    const struct smem_ptx_module *m;
    const struct smem_ptx_func *f;
    const uint32_t *sint;
    const int32_t *sprev, *snext;
    int mode;
    int32_t interval; /* WHERE_LINES: the SASS's interval looked in */
};

static unsigned covering(const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                         const struct where *w, const struct unit *u, uint32_t s)
{
    const struct smem_sass_insn *x = &sf->insns[s];
    /* a fixed place: [URb + imm], or [Ra + imm] with Ra the window's base (ra_fixed) */
    if (x->cls != SMEM_SASS_LDS || (x->ra != 255 && !x->ra_fixed) || !x->width ||
        x->guard != SMEM_SASS_PT || x->guard_neg || !x->line || x->file >= sm->nfiles ||
        x->imm > u->start || (int64_t)x->imm + x->width < u->start + (int64_t)u->width ||
        (w->mode == WHERE_POS && w->sint[s] != u->interval) ||
        (w->mode == WHERE_LINES && w->sint[s] != (uint32_t)w->interval))
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

/* The LDS unit x is counted as, where w says it may lie: the fixed-place ones covering its bytes
 * on the nearest line within NEAR of its own; -1 none, -2 several that differ. */
static int32_t pick(const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                    const struct where *w, const struct unit *x0, const uint8_t *scond,
                    int by_interval)
{
    int32_t best = -1;
    unsigned bestd = UINT32_MAX, ties = 0, bestkey = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t s = 0; s < sf->ninsns; s++) {
            unsigned d = covering(sm, sf, w, x0, s);
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
            unsigned key = by_interval ? (x->imm == x0->start && x->width == x0->width) * 256u +
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
    return best < 0 ? -1 : ties ? -2 : best;
}

int smem_sass_fixed_places(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                           const uint32_t *sym_offset, const struct smem_sass_module *sm,
                           const struct smem_sass_func *sf, struct smem_sass_merge *merge,
                           int32_t *hoist, uint8_t *placed, int32_t *sass_of)
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
    uint8_t *target = smem_sass_ptx_targets(f), *pcond = smem_sass_ptx_conditional(f, 0);
    uint8_t *scond = malloc(sf->ninsns ? sf->ninsns : 1), *grouped = calloc(n, 1);
    uint32_t *sint = NULL;
    int32_t *sprev = NULL, *snext = NULL;
    int rc = -1;
    if (!u || !unit_of || !target || !pcond || !scond || !grouped ||
        smem_sass_conditional(sf, scond))
        goto done;
    /* barrier intervals, counted in program order on both sides: ptxas moves no load across a
       barrier, so where both have as many barriers a load's LDS lies in its interval */
    uint32_t pbars = 0, sbars = 0;
    for (uint32_t k = 0; k < n; k++) {
        unsigned op = f->insns[k].op;
        pbars += smem_op_is_cta_barrier(op);
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
    sprev = malloc((sf->ninsns ? sf->ninsns : 1) * sizeof *sprev);
    snext = malloc((sf->ninsns ? sf->ninsns : 1) * sizeof *snext);
    if (!sprev || !snext)
        goto done;
    for (uint32_t k = 0, last = UINT32_MAX; k < sf->ninsns; k++) {
        sprev[k] = last == UINT32_MAX ? -1 : (int32_t)last;
        if (sf->insns[k].cls == SMEM_SASS_BAR)
            last = k;
    }
    for (uint32_t k = sf->ninsns, next = UINT32_MAX; k-- > 0;) {
        snext[k] = next == UINT32_MAX ? -1 : (int32_t)next;
        if (sf->insns[k].cls == SMEM_SASS_BAR)
            next = k;
    }
    /* units: fixed-place loads, alone or as the model grouped them (all members fixed too) */
    uint32_t nu = 0, pint = 0;
    int32_t pbar = -1;
    for (uint32_t k = 0; k < n; k++) {
        unit_of[k] = UINT32_MAX;
        const struct smem_ptx_insn *in = &f->insns[k];
        unsigned bop = in->op;
        uint32_t here = pint;
        int32_t before = pbar;
        if (smem_op_is_cta_barrier(bop)) {
            pint++;
            pbar = (int32_t)k;
        }
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
        x->bprev = before;
        x->bnext = -1;
        for (uint32_t q = k + 1; q < n && x->bnext < 0; q++)
            if (smem_op_is_cta_barrier(f->insns[q].op))
                x->bnext = (int32_t)q;
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
        smem_sass_ptx_line(m, &f->insns[k], &path, &ln);
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
        struct where w = {m, f, sint, sprev, snext, by_interval ? WHERE_POS : WHERE_ANY, -1};
        int32_t best = pick(sm, sf, &w, &u[i], scond, by_interval);
        if (best == -1 && by_interval) {
            /* none in its interval: ptxas may lay out its copies of the block elsewhere. Every
               interval between barriers on the unit's two barriers' lines must then have the same
               LDS for it (else which copy is the PTX's is not known) */
            w.mode = WHERE_LINES;
            int32_t any = -1;
            for (uint32_t t = 0; t <= sbars && best != -2; t++) {
                uint32_t s0 = 0;
                while (s0 < sf->ninsns && sint[s0] != t)
                    s0++;
                if (s0 == sf->ninsns || !same_barrier(m, f, sm, sf, u[i].bprev, sprev[s0]) ||
                    !same_barrier(m, f, sm, sf, u[i].bnext, snext[s0]))
                    continue;
                w.interval = (int32_t)t;
                int32_t c = pick(sm, sf, &w, &u[i], scond, by_interval);
                if (c < 0 || (any >= 0 && (sf->insns[c].imm != sf->insns[any].imm ||
                                           sf->insns[c].width != sf->insns[any].width ||
                                           scond[c] != scond[any])))
                    best = -2;
                else if (any < 0)
                    best = any = c;
            }
            if (best == -2)
                best = -1; /* counted from the PTX, as with no LDS */
        }
        u[i].sass = best;
    }
    /* groups: the units of one LDS in one of the PTX's barrier intervals (units of ptxas's copies
       of a block, each in its own interval, may share one) */
    for (uint32_t s = 0; s < sf->ninsns; s++) {
      for (;;) {
        uint32_t first = UINT32_MAX, count = 0;
        int ok = 1;
        for (uint32_t i = 0; i < nu; i++)
            if (u[i].sass == (int32_t)s && !grouped[i] &&
                (first == UINT32_MAX || !by_interval || u[i].interval == u[first].interval)) {
                if (first == UINT32_MAX)
                    first = i; /* units are in instruction order */
                count++;
                grouped[i] = 1;
            }
        if (!count)
            break;
        uint32_t lead = u[first].lead, in_int = u[first].interval;
        for (uint32_t k = lead + 1; count > 1 && k < n && ok; k++)
            if (unit_of[k] != UINT32_MAX && u[unit_of[k]].sass == (int32_t)s &&
                (!by_interval || u[unit_of[k]].interval == in_int) && !between_clean(f, lead, k))
                ok = 0;
        if (!ok)
            continue;
        const struct smem_sass_insn *x = &sf->insns[s];
        /* a vector ptxas was expected to cut to its used components is one LDS too */
        int widen = count > 1 || x->width != u[first].width || u[first].partial;
        sass_of[lead] = (int32_t)s; /* matched: counted as that LDS, changed or not */
        if (widen) {
            for (uint32_t k = lead; k < n; k++)
                if (unit_of[k] != UINT32_MAX && u[unit_of[k]].sass == (int32_t)s &&
                    (!by_interval || u[unit_of[k]].interval == in_int))
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
    }
    rc = 0;
done:
    free(sint);
    free(sprev);
    free(snext);
    free(u);
    free(unit_of);
    free(target);
    free(pcond);
    free(scond);
    free(grouped);
    return rc;
}
