/* cta.c: the CTA emulator. Warps run in lockstep up to the next barrier, one warp after the other
 * (values flow through shared memory as in a race-free program): the lanes at the lowest pc
 * execute each instruction together, the common ones in their warp-level forms (cta_warp.c), the
 * rest lane by lane through the per-thread semantics. A lane's k-th execution of a shared
 * instruction joins the warp's k-th request of it. Size (~1,400 lines): the execution core (block
 * state, requests, memory, the warp loop, collectives, barriers) shares its hot-path state and
 * static helpers; preparation is cta_prepare.c, arithmetic cta_alu.c and cta_fp.c. */
#include "cta_internal.h"


#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the block's machinery ---------------------------------------------------------------- */

static int block_fail(struct block *b, uint32_t insn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int block_fail(struct block *b, uint32_t insn, const char *fmt, ...)
{
    const struct smem_ptx_func *f = b->p->func;
    const struct smem_ptx_insn *in = insn < f->ninsns ? &f->insns[insn] : NULL;
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    b->failed = 1;
    if (in && in->loc_line && in->loc_file < b->p->module->nfiles && b->p->module->files[in->loc_file])
        return smem_error_set(b->err, b->p->module->files[in->loc_file], in->loc_line, in->loc_col,
                              "%s (kernel %s, PTX line %u)", msg, f->name, in->src_line);
    /* no source line: the PTX's own (its module's name and line) */
    return smem_error_set(b->err, in ? b->p->module->name : NULL, in ? in->src_line : 0, 0,
                          "%s (kernel %s)", msg, f->name);
}

static void stop_unknown(struct block *b, uint32_t insn, const char *what)
{
    if (b->stopped)
        return;
    b->stopped = 1;
    b->unknown.insn = insn;
    b->unknown.what = what;
}

static void flush_requests(struct block *b)
{
    for (uint32_t i = 0; i < b->nreqs; i++)
        if (b->h && b->h->access)
            b->h->access(b->h->ctx, &b->reqs[i]);
    b->nreqs = 0;
    b->gen++; /* every entry of the table is stale now */
}

static uint32_t table_slot(uint64_t key, uint32_t cap)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
}

/* Reports the requests of warp w that no lane can join any more: every lane still running (or
 * waiting at a warp collective) has executed their site more times than their k. Their order
 * among themselves is kept; the rest stay pending (the table is rebuilt). */
static void flush_complete(struct block *b, uint32_t w)
{
    uint32_t first = w * 32, last = first + 32 < b->nthreads ? first + 32 : b->nthreads;
    uint32_t live[32], nlive = 0, kept = 0;
    for (uint32_t t = first; t < last; t++)
        if (b->T[t].state == L_RUN || b->T[t].state == L_WARP)
            live[nlive++] = t;
    for (uint32_t i = 0; i < b->nreqs; i++) {
        uint32_t site = (uint32_t)(b->rkey[i] >> 32), k = (uint32_t)b->rkey[i];
        int done = 1;
        for (uint32_t j = 0; j < nlive && done; j++)
            if (*emu_kcount(b, live[j], site) <= k)
                done = 0;
        if (done) {
            if (b->h && b->h->access)
                b->h->access(b->h->ctx, &b->reqs[i]);
            continue;
        }
        if (kept != i) {
            b->reqs[kept] = b->reqs[i];
            b->rkey[kept] = b->rkey[i];
        }
        kept++;
    }
    b->nreqs = kept;
    b->gen++;
    uint32_t gen = b->gen + 1;
    for (uint32_t i = 0; i < kept; i++) {
        uint32_t h = table_slot(b->rkey[i], b->cap_tab);
        while (b->tab[h].gen == gen)
            h = (h + 1) & (b->cap_tab - 1);
        b->tab[h].key = b->rkey[i];
        b->tab[h].gen = gen;
        b->tab[h].idx = i;
    }
}

/* The request (site, k) of the current warp, created on first use. */
static struct smem_access *request_for(struct block *b, uint32_t site, uint32_t k, uint32_t warp)
{
    uint64_t key = (uint64_t)site << 32 | k;
    uint32_t gen = b->gen + 1; /* never 0: calloc'd entries are empty */
    if (b->nreqs * 2 + 2 > b->cap_tab) {
        uint32_t nc = b->cap_tab ? b->cap_tab * 2 : 256;
        struct pending *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return NULL;
        for (uint32_t i = 0; i < b->cap_tab; i++) {
            if (b->tab[i].gen != gen)
                continue;
            uint32_t h = (uint32_t)((b->tab[i].key * 0x9E3779B97F4A7C15ull) >> 40) & (nc - 1);
            while (nt[h].gen == gen)
                h = (h + 1) & (nc - 1);
            nt[h] = b->tab[i];
        }
        free(b->tab);
        b->tab = nt;
        b->cap_tab = nc;
    }
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (b->cap_tab - 1);
    while (b->tab[h].gen == gen) {
        if (b->tab[h].key == key)
            return &b->reqs[b->tab[h].idx];
        h = (h + 1) & (b->cap_tab - 1);
    }
    if (b->nreqs == b->cap_reqs) {
        uint32_t nc = b->cap_reqs ? b->cap_reqs * 2 : 64;
        struct smem_access *nr = realloc(b->reqs, nc * sizeof *nr);
        if (!nr)
            return NULL;
        b->reqs = nr;
        uint64_t *nk = realloc(b->rkey, nc * sizeof *nk);
        if (!nk)
            return NULL;
        b->rkey = nk;
        b->cap_reqs = nc;
    }
    if (b->nreqs >= PENDING_SOFT_CAP)
        b->yield = 1; /* this lane has run far ahead: the others catch up first */
    b->rkey[b->nreqs] = key;
    b->tab[h].key = key;
    b->tab[h].gen = gen;
    b->tab[h].idx = b->nreqs;
    struct smem_access *a = &b->reqs[b->nreqs++];
    if (k == 0 && !b->tmark[site]) {
        b->tmark[site] = 1;
        b->touched[b->ntouched++] = site;
    }
    memset(a, 0, sizeof *a);
    a->site = site;
    a->block = b->bid;
    a->warp = warp;
    a->interval = b->interval;
    a->width = b->p->sites[site].width;
    a->op = b->p->sites[site].op;
    return a;
}

/* Records lane tid's part in site's request; addr_known says whether addr means anything. */
static int record(struct block *b, uint32_t tid, uint32_t site, uint32_t addr, int addr_known,
                  int oob)
{
    uint32_t *kc = emu_kcount(b, tid, site);
    struct smem_access *a = request_for(b, site, (*kc)++, tid / 32);
    if (!a)
        return -1;
    uint32_t lane = tid % 32, bit = 1u << lane;
    a->active |= bit;
    a->addr[lane] = addr;
    a->wsync[lane] = b->T[tid].wsync;
    if (!addr_known)
        a->unknown |= bit;
    if (oob)
        a->oob |= bit;
    return 0;
}

uint64_t emu_sreg_value(const struct block *b, uint32_t tid, unsigned sr, int *known)
{
    const unsigned *bd = b->l->block;
    uint32_t x = tid % bd[0], y = (tid / bd[0]) % bd[1], z = tid / (bd[0] * bd[1]);
    *known = 1;
    switch (sr) {
    case SR_TID_X: return x;
    case SR_TID_Y: return y;
    case SR_TID_Z: return z;
    case SR_NTID_X: return bd[0];
    case SR_NTID_Y: return bd[1];
    case SR_NTID_Z: return bd[2];
    case SR_CTAID_X: return b->ctaid[0];
    case SR_CTAID_Y: return b->ctaid[1];
    case SR_CTAID_Z: return b->ctaid[2];
    case SR_NCTAID_X: return b->l->grid[0];
    case SR_NCTAID_Y: return b->l->grid[1];
    case SR_NCTAID_Z: return b->l->grid[2];
    case SR_LANEID: return tid % 32;
    case SR_WARPID: return tid / 32;
    case SR_NWARPID: return 64; /* warp slots of an SM: an H100 gives 64 */
    case SR_LANEMASK_EQ: return 1u << (tid % 32);
    case SR_LANEMASK_LT: return (1u << (tid % 32)) - 1u;
    case SR_LANEMASK_LE: return (uint32_t)((2ull << (tid % 32)) - 1u);
    case SR_LANEMASK_GT: return ~(uint32_t)((2ull << (tid % 32)) - 1u);
    case SR_LANEMASK_GE: return ~(uint32_t)((1u << (tid % 32)) - 1u);
    case SR_CLOCK: case SR_CLOCK64: case SR_GLOBALTIMER: return b->steps;
    case SR_DYN_SMEM: return b->l->dyn_smem;
    case SR_TOTAL_SMEM: return (b->smem_size + 127u) / 128u * 128u; /* allocated in 128-byte units */
    case SR_CLUSTER_CTARANK: return 0;
    case SR_CLUSTER_NCTARANK: return 1;
    default: *known = 0; return 0; /* %smid and friends: a property of the run, not the code */
    }
}

/* Address of symbol s (in its own state space, or a fake global address). */
uint64_t emu_sym_addr(const struct block *b, int32_t s)
{
    const struct smem_ptx_func *f = b->p->func;
    const struct smem_ptx_symbol *sym = &f->syms[s];
    if (sym->kind == SYM_SHARED || sym->kind == SYM_SHARED_EXTERN)
        return SHARED_WINDOW_BASE + b->p->local_offset[s]; /* its shared address */
    if (sym->kind == SYM_LOCAL)
        return b->p->local_offset[s]; /* its offset in the thread's local window */
    if (sym->kind == SYM_PARAM)
        return sym->offset;
    if (b->gsym && b->gsym[s])
        return b->gsym[s];
    return GLOBAL_SYM_BASE + (uint64_t)s * 0x100000ull;
}

/* ---- memory ------------------------------------------------------------------------------- */


/* The global region holding [a, a + n), or NULL. */
static const struct smem_global_region *region_of(struct block *b, uint64_t a, unsigned n)
{
    const struct smem_global_memory *g = b->gm;
    const struct smem_global_region *r;
    if (b->glast < g->nregions) {
        r = &g->regions[b->glast];
        if (a >= r->base && a - r->base < r->size && n <= r->size - (a - r->base))
            return r;
    }
    /* the last region whose base is <= a */
    uint32_t lo = 0, hi = g->nregions;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->regions[b->gorder[mid]].base <= a)
            lo = mid;
        else
            hi = mid;
    }
    if (!g->nregions)
        return NULL;
    r = &g->regions[b->gorder[lo]];
    if (a >= r->base && a - r->base < r->size && n <= r->size - (a - r->base)) {
        b->glast = b->gorder[lo];
        return r;
    }
    return NULL;
}

/* Resolves an address of space sp to (memory, offset). Returns 1 shared, 2 local, 3 param,
 * 4 global (a region of the launch's global memory; *kn may be NULL: all known), 0 global/const
 * (not modelled: no global memory given), -1 out of range, -2 outside every global region. */
static int resolve(struct block *b, uint32_t tid, unsigned sp, uint64_t a, unsigned n, uint8_t **mem,
                   uint8_t **kn, uint64_t *off)
{
    if (sp == SP_GENERIC) {
        if (a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE) {
            sp = SP_SHARED;
            a -= SHARED_GENERIC_BASE;
        } else if (a >= LOCAL_GENERIC_BASE && a < LOCAL_GENERIC_BASE + WINDOW_SIZE) {
            sp = SP_LOCAL;
            a -= LOCAL_GENERIC_BASE;
        } else if (b->gm) {
            sp = SP_GLOBAL;
        } else {
            return 0;
        }
    }
    if ((sp == SP_GLOBAL || sp == SP_CONST) && b->gm) {
        const struct smem_global_region *r = region_of(b, a, n);
        if (!r)
            return -2;
        *mem = r->host;
        *kn = r->known;
        *off = a - r->base;
        return 4;
    }
    if (sp == SP_SHARED) {
        a -= SHARED_WINDOW_BASE; /* below the window: wraps, out of range */
        if (a + n > b->smem_size || a > b->smem_size)
            return -1;
        *mem = b->smem;
        *kn = b->smem_known;
        *off = a;
        return 1;
    }
    if (sp == SP_LOCAL) {
        if (a + n > b->local_size || a > b->local_size)
            return -1;
        *mem = b->local + (size_t)tid * b->local_size;
        *kn = b->local_known + (size_t)tid * b->local_size;
        *off = a;
        return 2;
    }
    if (sp == SP_PARAM) {
        if (a + n > b->param_size || a > b->param_size)
            return -1;
        *mem = b->param;
        *kn = b->param_known;
        *off = a;
        return 3;
    }
    return 0;
}

static int is_shared_space(unsigned sp, uint64_t a)
{
    return sp == SP_SHARED ||
           (sp == SP_GENERIC && a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE);
}

/* An access outside the launch's global memory: reported, then a failure (faults_stop) or 0. */
static int global_fault(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                        unsigned kind, uint64_t a, unsigned n)
{
    struct smem_global_fault f;
    static const char *const what[] = {"load", "store", "atomic"};
    memset(&f, 0, sizeof f);
    f.op = in->op == PO_ATOM || in->op == PO_RED ? SMEM_GFAULT_ATOM
           : in->op == PO_ST || kind == SMEM_GFAULT_STORE ? SMEM_GFAULT_STORE : SMEM_GFAULT_LOAD;
    f.kind = (uint8_t)(kind == SMEM_GFAULT_LOAD ? f.op : kind);
    f.space = in->op == PO_CP_ASYNC || in->op == PO_CP_BULK ? SP_GLOBAL : in->space;
    f.size = n;
    f.addr = a;
    f.block = b->bid;
    f.thread = tid;
    f.insn = pc;
    if (b->gm->fault)
        b->gm->fault(b->gm->fault_ctx, &f);
    if (!b->gm->faults_stop)
        return 0;
    const unsigned *bd = b->l->block;
    unsigned tx = tid % bd[0], ty = tid / bd[0] % bd[1], tz = tid / (bd[0] * bd[1]);
    const char *why = kind == SMEM_GFAULT_MISALIGNED ? "misaligned"
                      : kind == SMEM_GFAULT_READONLY ? "to read-only memory"
                                                    : "outside every allocation";
    return block_fail(b, pc, "global %s of %u bytes at 0x%llx %s (thread (%u,%u,%u) of block "
                      "(%u,%u,%u))", what[f.op], n, (unsigned long long)a, why, tx, ty, tz,
                      b->ctaid[0], b->ctaid[1], b->ctaid[2]);
}

void emu_unknown_store(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                       uint64_t a, unsigned n)
{
    if (!b->gm || !b->gm->fault)
        return;
    struct smem_global_fault f;
    memset(&f, 0, sizeof f);
    f.op = SMEM_GFAULT_STORE;
    f.kind = SMEM_GFAULT_UNKNOWN_VALUE;
    f.space = in->space;
    f.size = n;
    f.addr = a;
    f.block = b->bid;
    f.thread = tid;
    f.insn = pc;
    b->gm->fault(b->gm->fault_ctx, &f);
}

static inline void set_marks(uint8_t *m, unsigned n)
{
    if (n == 1 || n == 2 || n == 4 || n == 8)
        store_n(m, n, 0x0101010101010101ull); /* the common widths without a call */
    else
        memset(m, 1, n);
}

/* The access marks of the region resolve() found last (b->glast), if the caller keeps them. */
static void mark_global(struct block *b, int op, uint64_t off, unsigned n)
{
    const struct smem_global_memory *g = b->gm;
    if (g->read_marks && g->read_marks[b->glast] && op != PO_ST)
        set_marks(g->read_marks[b->glast] + off, n);
    if (g->write_marks && g->write_marks[b->glast] && op != PO_LD && op != PO_LDU)
        set_marks(g->write_marks[b->glast] + off, n);
}

/* n bytes of global memory at device address a for thread tid (cta_bulk.c's bulk copies): 1 with
 * the host bytes and their known marks (*kn NULL: all known), marked read or written for the
 * launch; 0 without a global memory (analyze); -1 failed (outside every allocation: reported as
 * a fault of instruction pc, which stops the block where faults stop it), -2 reported only. */
int emu_global_span(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    uint64_t a, unsigned n, int write, uint8_t **mem, uint8_t **kn)
{
    uint64_t off = 0;
    if (!b->gm)
        return 0;
    if (resolve(b, tid, SP_GLOBAL, a, n, mem, kn, &off) != 4) {
        int rc = global_fault(b, tid, pc, in, write ? SMEM_GFAULT_STORE : SMEM_GFAULT_LOAD, a, n);
        return rc ? -1 : -2;
    }
    mark_global(b, write ? PO_ST : PO_LD, off, n);
    *mem += off;
    if (*kn)
        *kn += off;
    return 1;
}

/* cp.async [shared], [global], cp-size{, src-size} with a global memory: the copy, done at once
 * (the wait that follows orders nothing else in a race-free program). */
static int exec_cp_async_global(struct block *b, uint32_t tid, uint32_t pc,
                                const struct smem_ptx_insn *in, const uint64_t *R, const uint8_t *K,
                                uint8_t *smem, uint8_t *skn, uint64_t soff, unsigned n)
{
    int k = 1;
    uint64_t ga = ea(b, R, K, &in->ops[1], &k);
    unsigned srcn = n;
    if (in->nops >= 4) {
        int k2 = 1;
        uint64_t v = src(b, tid, R, K, &in->ops[3], &k2);
        if (!k2)
            k = 0;
        srcn = v < n ? (unsigned)v : n;
    }
    if (!k) {
        memset(skn + soff, 0, n);
        return 0;
    }
    uint8_t *gm = NULL, *gk = NULL;
    uint64_t goff = 0;
    if (srcn && resolve(b, tid, SP_GLOBAL, ga, srcn, &gm, &gk, &goff) != 4) {
        memset(skn + soff, 0, n);
        return global_fault(b, tid, pc, in, SMEM_GFAULT_LOAD, ga, srcn);
    }
    if (srcn)
        mark_global(b, PO_LD, goff, srcn);
    for (unsigned i = 0; i < n; i++) {
        smem[soff + i] = i < srcn ? gm[goff + i] : 0;
        skn[soff + i] = i < srcn ? (gk ? gk[goff + i] : 1) : 1;
    }
    return 0;
}

/* A 64-bit shared atomic min / max, which ptxas makes a loop on sm_90: each round the lanes still
 * waiting read their words (LDS); those whose value would still improve theirs try to swap it in
 * (ATOMS.CAST.SPIN.64, two passes of 16 lanes); in a pass, in each bank, the lowest lane trying
 * succeeds and the others find the bank busy (as for the other CAS loops, analysis/launch.c), and a
 * lane of the second pass whose word the first changed fails; a lane leaves when it succeeded or
 * its word holds a value as good as its own. The lanes of a request run here one after another in
 * lane order: each call replays the loop over the lanes so far (their operands, and the word each
 * found before any of them changed it) and stores every lane's rounds in a (loads in src_size[],
 * swaps tried in src[]: launch.c prices them). Measured: tests/run/h100-atomic64.csv (min64,
 * max64); held out in tests/run/h100-minmax64.csv (9 of 11 kernels; the two whose words share
 * banks fitted after it). */
static void minmax_rounds(struct block *b, struct smem_access *a, uint32_t lane, uint64_t v,
                          uint64_t old, int known, int is_min, int sg)
{
    uint32_t bit = 1u << lane, before = a->active & (bit - 1u);
    if (b->mm_req != a || b->mm_seen != before) { /* a new request (or one not seen whole) */
        b->mm_req = a;
        b->mm_seen = b->mm_unknown = 0;
    }
    b->mm_seen |= bit;
    b->mm_v[lane] = v;
    b->mm_old[lane] = old;
    if (!known)
        b->mm_unknown |= bit;
    if (b->mm_unknown) { /* the rounds depend on data the analysis cannot know */
        for (uint32_t l = 0; l < 32; l++)
            if (b->mm_seen >> l & 1u) {
                a->unknown |= 1u << l;
                a->src_size[l] = 1;
                a->src[l] = 1;
            }
        return;
    }
#define MM_BETTER(x, c) \
    (is_min ? (sg ? (int64_t)(x) < (int64_t)(c) : (x) < (c)) \
            : (sg ? (int64_t)(x) > (int64_t)(c) : (x) > (c)))
    uint64_t cur[32]; /* per lane: its word now (the first lane on a word keeps it) */
    uint32_t first[32], seen = b->mm_seen;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(seen >> l & 1u))
            continue;
        first[l] = l;
        for (uint32_t j = 0; j < l; j++)
            if ((seen >> j & 1u) && a->addr[j] == a->addr[l]) {
                first[l] = j;
                break;
            }
        if (first[l] == l)
            cur[l] = b->mm_old[l];
        a->src_size[l] = 0;
        a->src[l] = 0;
    }
    uint32_t pending = seen;
    for (unsigned round = 0; pending && round < 255; round++) {
        uint32_t trying = 0;
        for (uint32_t l = 0; l < 32; l++)
            if (pending >> l & 1u) {
                a->src_size[l]++;
                if (MM_BETTER(b->mm_v[l], cur[first[l]]))
                    trying |= 1u << l;
            }
        pending = trying;
        uint32_t done = 0, changed = 0; /* changed: words (their first lanes) swapped this round */
        for (uint32_t pass = 0; pass < 2; pass++) {
            uint32_t taken = 0;
            for (uint32_t l = pass * 16; l < pass * 16 + 16; l++) {
                if (!(trying >> l & 1u))
                    continue;
                a->src[l]++;
                uint32_t b0 = a->addr[l] / 4 % 32, banks = 1u << b0 | 1u << (b0 + 1) % 32;
                if (!(banks & taken) && !(changed >> first[l] & 1u)) {
                    done |= 1u << l;
                    changed |= 1u << first[l];
                    cur[first[l]] = b->mm_v[l];
                }
                taken |= banks;
            }
        }
        pending &= ~done;
    }
#undef MM_BETTER
}

/* ld / st / atom / red / cp.async for one thread. Returns 0, or -1 on a hard error. */
static int exec_mem(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    uint64_t *R, uint8_t *K)
{
    unsigned esz = TBYTES(in->type);
    int op = in->op;
    assert(smem_op_mem_operand(op) >= 0); /* lane_exec's LK_MEM: the ld/st family, cp.async */
    const struct smem_ptx_operand *mo = &in->ops[smem_op_mem_operand(op)];
    if (op == PO_CP_ASYNC) {
        esz = in->nops >= 3 ? (unsigned)in->ops[2].imm : 4;
    }
    if (mo->kind != OPK_ADDR)
        return block_fail(b, pc, "expected a memory operand");
    if (esz > 8 && op != PO_CP_ASYNC)
        return block_fail(b, pc, "unsupported instruction: %u-byte scalar accesses (.b128) are not "
                          "modelled", esz);
    if ((op == PO_ATOM || op == PO_RED) && in->vec > 1)
        return block_fail(b, pc, "unsupported instruction: vector atomics (.v2, .v4) are not "
                          "modelled");
    int aknown = 1;
    uint64_t a = ea(b, R, K, mo, &aknown);
    unsigned sp = in->space;
    unsigned total = esz * (op == PO_LD || op == PO_ST || op == PO_LDU ? in->vec : 1);
    if (op == PO_CP_ASYNC)
        total = esz;
    /* [reg+imm] in param space: an address taken of a kernel parameter (mov %rd, param; a
       __grid_constant__ struct indexed in a loop): read below like [param+imm] */
    if (sp == SP_PARAM && (mo->sym < 0 ? mo->reg[0] < 0 : (uint32_t)mo->sym >= b->p->func->nparams)) {
        /* call-sequence parameters: vprintf's two (for a printing caller), nothing else */
        if (op == PO_LD && in->ops[0].reg[0] >= 0)
            K[in->ops[0].reg[0]] = 0;
        if (op == PO_ST && mo->sym >= 0 && b->gm && b->gm->print) {
            const char *nm = b->p->func->syms[mo->sym].name;
            size_t nl = strlen(nm);
            int k = 1;
            if (nl >= 6 && !strncmp(nm + nl - 6, "param", 5) && (nm[nl - 1] == '0' || nm[nl - 1] == '1'))
                b->T[tid].callarg[nm[nl - 1] - '0'] = src(b, tid, R, K, &in->ops[1], &k);
        }
        return 0;
    }
    uint32_t site = b->p->site_of_insn[pc];
    int shared = is_shared_space(sp, a);
    if (sp == SP_GENERIC && !aknown) {
        stop_unknown(b, pc, "generic address");
        return 0;
    }
    uint64_t soff = (sp == SP_GENERIC ? a - SHARED_GENERIC_BASE : a) - SHARED_WINDOW_BASE;
    int oob = 0;
    uint8_t *mem = NULL, *kn = NULL;
    uint64_t off = 0;
    int where = 0;
    if (aknown) {
        where = resolve(b, tid, sp, a, total, &mem, &kn, &off);
        if (where == 4 && (a % (total > 16 ? 16 : total) ||
                           (b->gm->regions[b->glast].readonly &&
                            op != PO_LD && op != PO_LDU))) {
            /* misaligned, or a store to constant memory: the GPU faults */
            unsigned kind = a % (total > 16 ? 16 : total) ? SMEM_GFAULT_MISALIGNED
                                                          : SMEM_GFAULT_READONLY;
            mem = NULL;
            where = -2;
            if (global_fault(b, tid, pc, in, kind, a, total))
                return -1;
        } else if (where == -2) {
            mem = NULL;
            if (global_fault(b, tid, pc, in, SMEM_GFAULT_LOAD, a, total))
                return -1;
        }
        if (where < 0 && where != -2) {
            if (!shared)
                return block_fail(b, pc, "%s access out of range", sp == SP_LOCAL ? "local" : "parameter");
            oob = 1;
        }
        if (where == 4 && mem)
            mark_global(b, op, off, total);
    }
    if (shared && site != UINT32_MAX) {
        /* one request per SASS access this instruction becomes */
        for (uint32_t s = site; s < b->p->nsites && b->p->sites[s].insn == pc; s++) {
            if (aknown && (uint32_t)(soff + b->p->sites[s].offset) % b->p->sites[s].width &&
                op != PO_CP_ASYNC)
                return block_fail(b, pc, "misaligned shared access (address %s)", "not a multiple of its width");
            if (record(b, tid, s, (uint32_t)(soff + b->p->sites[s].offset), aknown, oob))
                return block_fail(b, pc, "out of memory");
        }
    }
    if (shared && !aknown && (op == PO_ST || op == PO_ATOM || op == PO_RED || op == PO_CP_ASYNC)) {
        /* a store to an unknown place: nothing in shared memory can be trusted any more */
        memset(b->smem_known, 0, b->smem_size);
    }
    switch (op) {
    case PO_LD: case PO_LDU: {
        const struct smem_ptx_operand *d = &in->ops[0];
        unsigned n = d->kind == OPK_VEC ? d->count : 1;
        for (unsigned c = 0; c < n; c++) {
            int32_t reg = d->kind == OPK_VEC ? d->reg[c] : d->reg[0];
            uint64_t v = 0;
            int known = aknown && mem && !oob;
            if (known)
                mem_read(mem, kn, off + (uint64_t)c * esz, esz, &v, &known);
            if (is_signed(in->type))
                v = (uint64_t)sext(v, esz);
            dst(R, K, reg, v, known, reg >= 0 ? TBYTES(b->p->func->reg_type[reg]) : 8);
        }
        return 0;
    }
    case PO_ST: {
        const struct smem_ptx_operand *s = &in->ops[1];
        unsigned n = s->kind == OPK_VEC ? s->count : 1;
        int same = shared && site != UINT32_MAX && mem && !oob && aknown;
        for (unsigned c = 0; c < n; c++) {
            int known = 1;
            uint64_t v;
            if (s->kind == OPK_VEC) {
                v = s->reg[c] >= 0 ? R[s->reg[c]] : 0;
                known = s->reg[c] >= 0 ? K[s->reg[c]] : 0;
            } else {
                v = src(b, tid, R, K, s, &known);
            }
            if (same) { /* does it store what is there already? */
                uint64_t old = 0;
                int ok = 1;
                mem_read(mem, kn, off + (uint64_t)c * esz, esz, &old, &ok);
                same = ok && known && ((old ^ v) & mask_bytes(esz)) == 0;
            }
            if (mem && !oob && aknown && where != 3)
                mem_write(mem, kn, off + (uint64_t)c * esz, esz, v, known);
        }
        for (uint32_t st = site; same && st < b->p->nsites && b->p->sites[st].insn == pc; st++) {
            struct smem_access *r = request_for(b, st, *emu_kcount(b, tid, st) - 1,
                                                tid / 32);
            if (r)
                r->same |= 1u << (tid % 32);
        }
        return 0;
    }
    case PO_CP_ASYNC:
        if (mem && !oob && aknown) {
            if (b->gm)
                return exec_cp_async_global(b, tid, pc, in, R, K, mem, kn, off, esz);
            memset(kn + off, 0, esz); /* data comes from global memory: unknown */
        }
        return 0;
    default: break;
    }
    /* atomics: read-modify-write */
    int vknown = 1;
    unsigned vi = op == PO_ATOM ? 2 : 1;
    uint64_t v = in->nops > vi ? src(b, tid, R, K, &in->ops[vi], &vknown) : 0;
    uint64_t old = 0;
    int oknown = aknown && mem && !oob;
    if (oknown)
        mem_read(mem, kn, off, esz, &old, &oknown);
    uint64_t m = mask_bytes(esz), nv = old;
    int sg = is_signed(in->type);
    switch (in->mode) {
    case MODE_ATOM_ADD:
        if (is_fp(in->type))
            nv = emu_fp_atom_add(in->type, where == 1, old, v);
        else
            nv = old + v;
        break;
    case MODE_ATOM_INC: nv = (old & m) >= (v & m) ? 0 : old + 1; break;
    case MODE_ATOM_DEC: nv = ((old & m) == 0 || (old & m) > (v & m)) ? v : old - 1; break;
    case MODE_ATOM_MIN:
        nv = sg ? (sext(old, esz) < sext(v, esz) ? old : v) : ((old & m) < (v & m) ? old : v);
        break;
    case MODE_ATOM_MAX:
        nv = sg ? (sext(old, esz) > sext(v, esz) ? old : v) : ((old & m) > (v & m) ? old : v);
        break;
    case MODE_ATOM_AND: nv = old & v; break;
    case MODE_ATOM_OR: nv = old | v; break;
    case MODE_ATOM_XOR: nv = old ^ v; break;
    case MODE_ATOM_EXCH: nv = v; break;
    case MODE_ATOM_CAS: {
        int k2 = 1;
        uint64_t nw = in->nops > 3 ? src(b, tid, R, K, &in->ops[3], &k2) : 0;
        vknown = vknown && k2;
        nv = (old & m) == (v & m) ? nw : old;
        break;
    }
    default: return block_fail(b, pc, "unsupported atomic operation");
    }
    /* an exchange's new value is its operand's, whatever the old one was (atomicExch(&s, 0)
       is how kernels commonly initialise a shared counter) */
    int nknown = in->mode == MODE_ATOM_EXCH ? vknown : oknown && vknown;
    if (mem && !oob && aknown)
        mem_write(mem, kn, off, esz, nv, nknown);
    if (shared && site != UINT32_MAX && b->p->sites[site].cas == 3 && esz == 8 &&
        (in->mode == MODE_ATOM_MIN || in->mode == MODE_ATOM_MAX)) {
        uint32_t *kc = emu_kcount(b, tid, site);
        struct smem_access *req = *kc ? emu_request(b, site, *kc - 1, tid / 32) : NULL;
        if (req)
            minmax_rounds(b, req, tid % 32, v, old, oknown && vknown, in->mode == MODE_ATOM_MIN, sg);
    }
    if (op == PO_ATOM)
        dst(R, K, in->ops[0].reg[0], sg ? (uint64_t)sext(old, esz) : old, oknown,
            in->ops[0].reg[0] >= 0 ? TBYTES(b->p->func->reg_type[in->ops[0].reg[0]]) : 8);
    return 0;
}

/* ---- the warp loop ------------------------------------------------------------------------ */

/* Registers live per warp with the lanes side by side: register r of lane l of warp w is
 * R[((size_t)w * nregs + r) * 32 + l], and bit l of K[w * nregs + r] says whether it is known.
 * A warp runs in lockstep: the lanes at the lowest pc execute each instruction together (the
 * fast kinds of cta_prepare.c as loops over the lanes, everything else lane by lane through the
 * per-thread semantics below). A request is still a lane's k-th execution of a site (record()),
 * so what the warp's lanes form does not depend on the order they run in. */

/* what the per-thread semantics do with each opcode (opcodes.def, lane) */
static const uint8_t lane_kind[256] = {
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp) [PO_##id] = lane,
#include "smemlab/ptx/opcodes.def"
#undef OP
};

/* One lane's view for the per-thread semantics: lane_in copies the registers instruction in
 * names (guard and operands) of lane l of warp w into the row b->sr / b->sk, lane_out back. */
static void lane_in(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_insn *in)
{
    const uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    const uint32_t *K = b->K + (size_t)w * b->nregs;
    if (in->guard >= 0) {
        b->sr[in->guard] = R[(size_t)in->guard * 32 + l];
        b->sk[in->guard] = (uint8_t)(K[in->guard] >> l & 1u);
    }
    for (unsigned o = 0; o < in->nops; o++)
        for (unsigned i = 0; i < 4; i++) {
            int32_t r = in->ops[o].reg[i];
            if (r >= 0) {
                b->sr[r] = R[(size_t)r * 32 + l];
                b->sk[r] = (uint8_t)(K[r] >> l & 1u);
            }
        }
}

static void lane_out(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_insn *in)
{
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs, bit = 1u << l;
    for (unsigned o = 0; o < in->nops; o++)
        for (unsigned i = 0; i < 4; i++) {
            int32_t r = in->ops[o].reg[i];
            if (r >= 0) {
                R[(size_t)r * 32 + l] = b->sr[r];
                K[r] = b->sk[r] ? K[r] | bit : K[r] & ~bit;
            }
        }
}

/* One instruction (not a branch, not a warp collective) for lane l of warp w at pc, with the
 * per-thread semantics. It may leave the lane waiting at a barrier or exited. */
static int lane_exec(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                     const struct smem_ptx_insn *in)
{
    uint32_t tid = w * 32 + l;
    struct lane *T = &b->T[tid];
    uint64_t *R = b->sr;
    uint8_t *K = b->sk;
    int rc = 0;
    lane_in(b, w, l, in);
    switch (lane_kind[in->op]) {
    case LK_NOTHING:
        return 0;
    case LK_EXIT:
        T->state = L_EXIT;
        return 0;
    case LK_CLUSTER:
        return block_fail(b, pc, "unsupported instruction: barrier.cluster (thread block clusters "
                                 "are not emulated)");
    case LK_TRAP:
        return block_fail(b, pc, "%s", in->call_name ? in->call_name /* smemlab's own trap */
                                       : "the kernel executes trap (an assertion failed?)");
    case LK_TEX:
        if (b->gm) /* a real launch: the texture's or surface's memory is not emulated */
            return block_fail(b, pc, "texture and surface instructions are not supported "
                                     "(the kernel reads or writes a texture or surface)");
        /* analyze: the fetched value is data the analysis cannot know */
        for (int r = 0; in->op == PO_TEX && r < 4; r++)
            if (in->ops[0].reg[r] >= 0 && (in->ops[0].kind == OPK_VEC || r == 0))
                K[in->ops[0].reg[r]] = 0;
        break;
    case LK_CALL:
        if (in->call_name && (!strcmp(in->call_name, "vprintf") ||
                              !strcmp(in->call_name, "__assertfail"))) {
            if (!strcmp(in->call_name, "__assertfail"))
                return block_fail(b, pc, "the kernel's assert() fails");
            if (b->gm && b->gm->print) { /* vprintf(format, arguments) */
                uint64_t args = T->callarg[1];
                const uint8_t *ab = NULL;
                size_t an = 0;
                if (args >= LOCAL_GENERIC_BASE && args - LOCAL_GENERIC_BASE < b->local_size) {
                    uint64_t off = args - LOCAL_GENERIC_BASE;
                    ab = b->local + (size_t)tid * b->local_size + off;
                    an = (size_t)(b->local_size - off);
                }
                b->gm->print(b->gm->print_ctx, b->bid, tid, T->callarg[0], ab, an);
            }
            return 0;
        }
        return block_fail(b, pc, "unsupported call to '%s' (device functions must be inlined)",
                          in->call_name ? in->call_name : "?");
    case LK_BAR: {
        int k = 1;
        uint64_t id = in->nops > 0 && in->op == PO_BAR ? src(b, tid, R, K, &in->ops[0], &k) : 0;
        uint64_t cnt = 0;
        if (in->op == PO_BAR && in->nops > 1)
            cnt = src(b, tid, R, K, &in->ops[1], &k);
        if (in->op == PO_BAR_RED) {
            /* bar.red.OP.TYPE d, a{, b}, {!}c: b, the number of threads */
            id = src(b, tid, R, K, &in->ops[1], &k);
            if (in->nops == 4)
                cnt = src(b, tid, R, K, &in->ops[2], &k);
            const struct smem_ptx_operand *po = &in->ops[in->nops - 1];
            int pk = 1;
            uint64_t pv = src(b, tid, R, K, po, &pk);
            if (!pk) {
                stop_unknown(b, pc, "barrier reduction input");
                return 0;
            }
            T->bar_pred = (pv != 0) != (po->neg != 0);
        }
        if (!k) {
            stop_unknown(b, pc, "barrier operand");
            return 0;
        }
        if (id > 15)
            return block_fail(b, pc, "barrier id out of range (0..15)");
        T->bar_id = (uint32_t)id;
        T->bar_count = (uint32_t)cnt;
        T->state = L_BAR;
        T->pc = pc;
        return 0;
    }
    case LK_ARRIVE:
        return block_fail(b, pc, "unsupported instruction 'bar.arrive'");
    case LK_MEM:
        /* (volatile accesses need nothing more: the warp's lanes do each access together, in
           lane order, as warp-synchronous code expects of a converged warp) */
        if ((in->space == SP_GLOBAL || in->space == SP_CONST) && !b->gm) {
            if (smem_op_writes_dst(in->op)) {
                const struct smem_ptx_operand *d = &in->ops[0];
                unsigned n = d->kind == OPK_VEC ? d->count : 1;
                for (unsigned c2 = 0; c2 < n; c2++) {
                    int32_t reg = d->kind == OPK_VEC ? d->reg[c2] : d->reg[0];
                    if (reg >= 0)
                        K[reg] = 0; /* global memory: unknown data */
                }
            }
            break;
        }
        rc = exec_mem(b, tid, pc, in, R, K);
        break;
    default: /* LK_ALU */
        if (emu_exec_alu(b, tid, in, R, K))
            return block_fail(b, pc, "unsupported instruction (its type or a modifier is not "
                              "modelled)");
        break;
    }
    lane_out(b, w, l, in);
    return rc;
}

static int exec_collective(struct block *b, uint32_t warp, uint32_t pc, uint32_t lanes)
{
    const struct smem_ptx_insn *in = &b->p->func->insns[pc];
    uint32_t base = warp * 32;
    uint64_t val[32];
    int vk[32];
    uint32_t nl = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (lanes >> l & 1u)
            nl++;
    (void)nl;
    if (in->op == PO_SHFL) {
        /* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            lane_in(b, warp, l, in);
            int k = 1;
            val[l] = src(b, tid, R, K, &in->ops[1], &k);
            vk[l] = k;
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            lane_in(b, warp, l, in);
            int k = 1;
            uint32_t bb = (uint32_t)src(b, tid, R, K, &in->ops[2], &k);
            uint32_t cc = (uint32_t)src(b, tid, R, K, &in->ops[3], &k);
            if (!k) {
                stop_unknown(b, pc, "shuffle lane");
                return 0;
            }
            /* the PTX ISA's pseudo-code: b[4:0], c[4:0] the clamp, c[12:8] the segment mask */
            int32_t segmask = (int32_t)((cc >> 8) & 0x1f), clamp = (int32_t)(cc & 0x1f);
            int32_t bval = (int32_t)(bb & 0x1f), lane_ = (int32_t)l;
            int32_t maxl = (lane_ & segmask) | (clamp & ~segmask), minl = lane_ & segmask, jj;
            int ok;
            switch (in->mode) {
            case MODE_UP: jj = lane_ - bval; ok = jj >= maxl; break;
            case MODE_DOWN: jj = lane_ + bval; ok = jj <= maxl; break;
            case MODE_BFLY: jj = lane_ ^ bval; ok = jj <= maxl; break;
            default: jj = minl | (bval & ~segmask); ok = jj <= maxl; break;
            }
            uint32_t j = ok ? (uint32_t)jj : l;
            if (j > 31)
                j = l;
            uint64_t v = val[j];
            int known = (lanes >> j & 1u) ? vk[j] : 0; /* a source lane not there: undefined */
            dst(R, K, in->ops[0].reg[0], v, known, 4);
            if (in->ops[0].kind == OPK_PAIR && in->ops[0].reg[1] >= 0)
                dst(R, K, in->ops[0].reg[1], ok ? 1 : 0, 1, 1);
            lane_out(b, warp, l, in);
        }
    } else if (in->op == PO_VOTE || in->op == PO_ACTIVEMASK || in->op == PO_MATCH ||
               in->op == PO_REDUX) {
        uint32_t ballot = 0;
        int allk = 1;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            lane_in(b, warp, l, in);
            int k = 1;
            val[l] = in->nops > 1 ? src(b, tid, R, K, &in->ops[1], &k) : 0;
            if (in->op == PO_VOTE && in->ops[1].neg)
                val[l] = !val[l];
            vk[l] = k;
            allk = allk && k;
            if (val[l] && in->op == PO_VOTE)
                ballot |= 1u << l;
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            lane_in(b, warp, l, in);
            uint64_t r = 0;
            int known = allk;
            if (in->op == PO_ACTIVEMASK) {
                r = lanes;
                known = 1;
            } else if (in->op == PO_VOTE) {
                switch (in->mode) {
                case MODE_ALL: r = ballot == lanes; break;
                case MODE_ANY: r = ballot != 0; break;
                case MODE_UNI: r = ballot == 0 || ballot == lanes; break;
                default: r = ballot; break;
                }
            } else if (in->op == PO_MATCH) {
                uint32_t same = 0;
                for (uint32_t j = 0; j < 32; j++)
                    if ((lanes >> j & 1u) && val[j] == val[l])
                        same |= 1u << j;
                r = in->mode == MODE_ALL ? (same == lanes ? lanes : 0) : same;
                if (in->mode == MODE_ALL && in->ops[0].kind == OPK_PAIR && in->ops[0].reg[1] >= 0)
                    dst(R, K, in->ops[0].reg[1], same == lanes, known, 1); /* match.all d|p */
            } else { /* redux.sync.op */
                uint64_t acc = in->mode == MODE_ATOM_AND ? ~0ull
                               : in->mode == MODE_ATOM_MIN ? ~0ull >> (is_signed(in->type) ? 33 : 32)
                                                           : 0;
                int first = 1;
                for (uint32_t j = 0; j < 32; j++) {
                    if (!(lanes >> j & 1u))
                        continue;
                    uint64_t v = val[j] & 0xffffffffu;
                    int64_t sv = (int32_t)v;
                    switch (in->mode) {
                    case MODE_ATOM_ADD: acc += v; break;
                    case MODE_ATOM_AND: acc &= v; break;
                    case MODE_ATOM_OR: acc |= v; break;
                    case MODE_ATOM_XOR: acc ^= v; break;
                    case MODE_ATOM_MIN:
                        if (first || (is_signed(in->type) ? sv < (int32_t)acc : v < (acc & 0xffffffffu))) acc = v;
                        break;
                    case MODE_ATOM_MAX:
                        if (first || (is_signed(in->type) ? sv > (int32_t)acc : v > (acc & 0xffffffffu))) acc = v;
                        break;
                    default: break;
                    }
                    first = 0;
                }
                r = acc;
            }
            dst(R, K, in->ops[0].reg[0], r, known, 4);
            lane_out(b, warp, l, in);
        }
    }
    /* __syncwarp advances the lanes' warp-level epoch (the caller moves them on) */
    if (in->op == PO_BAR_WARP)
        for (uint32_t l = 0; l < 32; l++)
            if (lanes >> l & 1u)
                b->T[base + l].wsync++;
    return 0;
}

/* ---- running a warp ----------------------------------------------------------------------- */

/* Writes back where lanes `act` of warp w stand: at pc, those still running. */
static void park(struct block *b, uint32_t w, uint32_t act, uint32_t pc)
{
    for (uint32_t l = 0; l < 32; l++)
        if ((act >> l & 1u) && b->T[w * 32 + l].state == L_RUN)
            b->T[w * 32 + l].pc = pc;
}

/* The fixed-place loads ptxas runs before the branch at pc (cta_sass.c): every lane reaching the
 * branch, guarded or not, reads there. */
static int record_hoisted(struct block *b, uint32_t w, uint32_t pc, uint32_t act)
{
    const struct smem_cta_program *p = b->p;
    for (uint32_t s = p->site_of_insn[pc]; s < p->nsites && p->sites[s].insn == pc; s++) {
        uint32_t at = p->sites[s].at;
        int oob = (uint64_t)at + p->sites[s].width > b->smem_size;
        for (uint32_t l = 0; l < 32; l++)
            if ((act >> l & 1u) && record(b, w * 32 + l, s, at, 1, oob))
                return block_fail(b, pc, "out of memory");
    }
    return 0;
}

/* the warp-level handler of each opcode's family (opcodes.def, warp) */
static emu_warp_fn *const warp_exec[256] = {
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp) [PO_##id] = warp,
#include "smemlab/ptx/opcodes.def"
#undef OP
};

/* Runs lanes `act` of warp w, all at pc, in lockstep: until they part, wait or exit when `act`
 * is every running lane of the warp (`alone`); else while their pc stays below `until`, the
 * lowest pc of the warp's other running lanes (the scheduler would pick them again, one
 * instruction at a time: it then merges the groups or picks the lanes to run next), and no
 * more than `cap` requests are pending. Leaves each lane's pc and state as they are then. */
static int run_group(struct block *b, uint32_t w, uint32_t pc, uint32_t act, int alone,
                     uint32_t until, uint32_t cap)
{
    const struct smem_ptx_func *f = b->p->func;
    const struct smem_ptx_insn *insns = f->insns;
    const uint8_t *fast = b->p->fast;
    const uint32_t ninsns = f->ninsns;
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    for (;;) {
        if (pc >= ninsns) { /* fell off the end */
            for (uint32_t l = 0; l < 32; l++)
                if (act >> l & 1u)
                    b->T[w * 32 + l].state = L_EXIT;
            return 0;
        }
        uint32_t n = (uint32_t)__builtin_popcount(act);
        if (__builtin_expect(b->steps + n > b->max_steps, 0)) {
            park(b, w, act, pc);
            return block_fail(b, pc,
                              "step budget of %llu thread-instructions exhausted in block %u (a "
                              "runaway loop? raise it with --max-steps)",
                              (unsigned long long)b->max_steps, b->bid);
        }
        b->steps += n;
        const struct smem_ptx_insn *in = &insns[pc];
        if (__builtin_expect(fast[pc] == F_BRA && b->p->site_of_insn[pc] != UINT32_MAX, 0) &&
            record_hoisted(b, w, pc, act))
            return -1;
        uint32_t ex = act;
        if (in->guard >= 0) {
            uint32_t unk = act & ~K[in->guard];
            if (unk) {
                if (in->op == PO_BRA)
                    stop_unknown(b, pc, "branch");
                else if (b->p->site_of_insn[pc] != UINT32_MAX)
                    stop_unknown(b, pc, "predicate of a shared access");
                else if (smem_op_flags(in->op) & (OPF_SYNC | OPF_COLL))
                    stop_unknown(b, pc, "predicate of a barrier or exit");
                if (b->stopped) {
                    park(b, w, act, pc);
                    return 0;
                }
                /* an ordinary instruction under an unknown predicate: its result is unknown */
                if (!smem_op_is_store(in->op) && in->nops > 0)
                    for (int r = 0; r < 4; r++)
                        if (in->ops[0].reg[r] >= 0)
                            K[in->ops[0].reg[r]] &= ~unk;
                ex &= ~unk;
            }
            const uint64_t *g = R + (size_t)in->guard * 32;
            uint32_t t = 0;
            for (uint32_t l = 0; l < 32; l++)
                t |= (uint32_t)(g[l] != 0) << l;
            ex &= in->guard_neg ? ~t : t;
        }
        uint32_t next = pc + 1;
        uint8_t fk = fast[pc];
        if (!ex) {
            /* every lane predicated off */
        } else if (fk == F_BRA) {
            uint32_t tgt = (uint32_t)in->ops[0].imm;
            if (ex == act) {
                next = tgt;
            } else { /* the lanes part */
                for (uint32_t l = 0; l < 32; l++)
                    if (act >> l & 1u)
                        b->T[w * 32 + l].pc = (ex >> l & 1u) ? tgt : pc + 1;
                return 0;
            }
        } else if (F_IS_ALU(fk)) {
            emu_warp_alu(b, w, fk == F_FUSED ? b->p->fused_at[pc] : in, fk, ex);
        } else if (fk == F_MOVX) { /* a special register or a symbol's address, lane by lane */
            int32_t d = in->ops[0].reg[0];
            uint64_t m = mask_bytes(TBYTES(f->reg_type[d]));
            uint32_t kk = 0;
            for (uint32_t l = 0; l < 32; l++)
                if (ex >> l & 1u) {
                    int k = 1;
                    R[(size_t)d * 32 + l] = src(b, w * 32 + l, NULL, NULL, &in->ops[1], &k) & m;
                    kk |= (uint32_t)k << l;
                }
            K[d] = (K[d] & ~ex) | kk;
        } else if (smem_op_is_collective(in->op)) {
            if (exec_collective(b, w, pc, ex))
                return -1;
            if (b->stopped) {
                park(b, w, act, pc);
                return 0;
            }
        } else {
            int done = 0;
            if (fk >= F_LDS && (done = emu_warp_mem(b, w, pc, in, ex, fk)) < 0)
                return -1;
            if (fk == F_WARP && (done = emu_warp_exec(b, w, pc, in, ex)) < 0)
                return -1;
            if (!done && warp_exec[in->op]) { /* the instruction's family, at the warp level */
                if ((done = warp_exec[in->op](b, w, pc, in, ex)) < 0)
                    return -1;
                if (b->stopped) {
                    park(b, w, act, pc);
                    return 0;
                }
            }
            for (uint32_t l = 0; l < 32 && !done; l++) {
                if (!(ex >> l & 1u))
                    continue;
                if (lane_exec(b, w, l, pc, in))
                    return -1;
                if (b->stopped) {
                    park(b, w, act, pc);
                    return 0;
                }
            }
            if (smem_op_flags(in->op) & (OPF_SYNC | OPF_SUSPEND)) { /* lanes may wait or exit */
                uint32_t still = 0;
                for (uint32_t l = 0; l < 32; l++)
                    if ((act >> l & 1u) && b->T[w * 32 + l].state == L_RUN)
                        still |= 1u << l;
                act = still;
                if (!act)
                    return 0;
            }
            if (b->yield) { /* many requests pending: the scheduler reports those complete */
                park(b, w, act, next);
                return 0;
            }
        }
        pc = next;
        if (!alone && (pc >= until || b->nreqs >= cap || smem_op_is_collective(in->op) ||
                       warp_exec[in->op])) {
            park(b, w, act, pc);
            return 0;
        }
    }
}

/* Runs every lane of a warp until all wait at a block barrier or have exited: the lanes at the
 * lowest pc first, together (reconverging where the others wait). When many requests stay
 * pending because lanes parked elsewhere could still join them, those lanes run ahead first
 * (the highest pc), so the memory of a run does not grow with a loop's trip count. */
static int run_warp(struct block *b, uint32_t w)
{
    uint32_t first = w * 32, last = first + 32 < b->nthreads ? first + 32 : b->nthreads;
    uint32_t cap = PENDING_SOFT_CAP;
    int ahead = 0;
    while (!b->stopped) {
        uint32_t run = 0, lo = UINT32_MAX, hi = 0;
        for (uint32_t t = first; t < last; t++)
            if (b->T[t].state == L_RUN) {
                run |= 1u << (t - first);
                lo = b->T[t].pc < lo ? b->T[t].pc : lo;
                hi = b->T[t].pc > hi ? b->T[t].pc : hi;
            }
        if (!run)
            break;
        uint32_t pick = ahead ? hi : lo, act = 0, until = UINT32_MAX;
        for (uint32_t t = first; t < last; t++)
            if ((run >> (t - first) & 1u) && b->T[t].pc == pick)
                act |= 1u << (t - first);
            else if ((run >> (t - first) & 1u) && b->T[t].pc < until)
                until = b->T[t].pc;
        if (ahead)
            until = 0; /* one instruction, then the highest pc again */
        if (run_group(b, w, pick, act, act == run, until, cap))
            return -1;
        if (b->yield || b->nreqs >= cap) {
            b->yield = 0;
            flush_complete(b, w);
            ahead = b->nreqs >= PENDING_SOFT_CAP / 2;
            cap = b->nreqs + PENDING_SOFT_CAP;
        }
    }
    flush_requests(b);
    /* every lane waits at the barrier (or has exited) and every request is reported: the warp
       leaves the barrier converged, so its lanes' next executions of a site are one request
       again, whichever lanes executed it how often before (a branch inside a loop) */
    uint32_t ns = b->p->nsites;
    if (b->ntouched * 4 < ns) { /* a few sites: only their counts */
        for (uint32_t i = 0; i < b->ntouched; i++)
            memset(emu_kcount(b, first, b->touched[i]), 0, (last - first) * sizeof *b->kcount);
    } else {
        for (uint32_t s = 0; s < ns; s++)
            memset(emu_kcount(b, first, s), 0, (last - first) * sizeof *b->kcount);
    }
    for (uint32_t i = 0; i < b->ntouched; i++)
        b->tmark[b->touched[i]] = 0;
    b->ntouched = 0;
    return 0;
}

/* All threads wait or have exited: release a barrier, or say why none can be. */
static int release_barrier(struct block *b, int *done)
{
    uint32_t waiting[16] = {0}, exited = 0, insn_a[16], insn_b[16], cnt[16] = {0};
    int div[16] = {0};
    *done = 0;
    for (uint32_t t = 0; t < b->nthreads; t++) {
        struct lane *T = &b->T[t];
        if (T->state == L_EXIT) {
            exited++;
        } else if (T->state == L_BAR) {
            uint32_t id = T->bar_id;
            if (!waiting[id]) {
                insn_a[id] = insn_b[id] = T->pc;
                cnt[id] = T->bar_count;
            } else if (T->pc != insn_a[id]) {
                insn_b[id] = T->pc;
                div[id] = 1;
            }
            waiting[id]++;
        }
    }
    if (exited == b->nthreads) {
        *done = 1;
        return 0;
    }
    for (uint32_t id = 0; id < 16; id++) {
        if (!waiting[id])
            continue;
        uint32_t expected = cnt[id] ? cnt[id] : b->nthreads;
        uint32_t live = b->nthreads - exited;
        if (waiting[id] < expected && waiting[id] < live)
            continue; /* others may still come (another barrier id first) */
        struct smem_cta_barrier ev;
        memset(&ev, 0, sizeof ev);
        ev.block = b->bid;
        ev.interval = b->interval;
        ev.id = id;
        ev.insn_a = insn_a[id];
        ev.insn_b = insn_b[id];
        ev.arrived = waiting[id];
        ev.expected = expected;
        ev.exited = exited;
        ev.divergent = div[id];
        if (b->h && b->h->barrier)
            b->h->barrier(b->h->ctx, &ev);
        b->interval++;
        /* bar.red: the reduction over the threads this barrier releases */
        uint32_t popc = 0, all = 1, any = 0;
        for (uint32_t u = 0; u < b->nthreads; u++)
            if (b->T[u].state == L_BAR && b->T[u].bar_id == id) {
                popc += (uint32_t)b->T[u].bar_pred;
                all &= (uint32_t)b->T[u].bar_pred;
                any |= (uint32_t)b->T[u].bar_pred;
            }
        for (uint32_t t = 0; t < b->nthreads; t++) {
            struct lane *T = &b->T[t];
            if (T->state == L_BAR && T->bar_id == id) {
                T->state = L_RUN;
                const struct smem_ptx_insn *in = &b->p->func->insns[T->pc];
                if (in->op == PO_BAR_RED) {
                    uint64_t r = in->mode == MODE_ATOM_ADD ? popc : in->mode == MODE_ATOM_AND ? all : any;
                    int32_t d = in->ops[0].reg[0];
                    if (d >= 0) {
                        size_t row = (size_t)(t / 32) * b->nregs + (uint32_t)d;
                        b->R[row * 32 + t % 32] = r & mask_bytes(TBYTES(b->p->func->reg_type[d]));
                        b->K[row] |= 1u << (t % 32);
                    }
                }
                T->pc++;
            }
        }
        return 0;
    }
    /* nobody can move: the barrier waits for threads that never come */
    for (uint32_t id = 0; id < 16; id++)
        if (waiting[id])
            return block_fail(b, insn_a[id],
                              "deadlock: threads wait at a barrier that %s never reach",
                              "the other threads");
    return block_fail(b, 0, "deadlock");
}

static int run_block(struct block *b)
{
    const struct smem_ptx_func *f = b->p->func;
    memset(b->T, 0, b->nthreads * sizeof *b->T);
    memset(b->K, 0, (size_t)b->nwarps * b->nregs * sizeof *b->K);
    memset(b->kcount, 0, (size_t)b->nthreads * b->p->nsites * sizeof *b->kcount);
    memset(b->tmark, 0, b->p->nsites ? b->p->nsites : 1);
    b->ntouched = 0;
    memset(b->smem_known, 0, b->smem_size);
    if (b->local_size)
        memset(b->local_known, 0, (size_t)b->nthreads * b->local_size);
    b->interval = 0;
    b->steps = 0;
    emu_tensor_reset(b);
    (void)f;
    for (;;) {
        for (uint32_t w = 0; w < b->nwarps; w++)
            if (run_warp(b, w))
                return -1;
        if (b->stopped)
            return 0;
        int done, woke = emu_tensor_wake(b); /* mbarrier waits whose phase completed */
        if (woke < 0)
            return -1;
        if (woke)
            continue;
        if (release_barrier(b, &done))
            return -1;
        if (done)
            return 0;
    }
}

/* Fills the parameter buffer: given values, fake pointers for pointer parameters, else unknown. */
static int fill_params(struct block *b)
{
    const struct smem_ptx_func *f = b->p->func;
    b->param_size = f->param_bytes;
    b->param = calloc(b->param_size ? b->param_size : 1, 1);
    b->param_known = calloc(b->param_size ? b->param_size : 1, 1);
    if (!b->param || !b->param_known)
        return -1;
    if (b->l->param_buf) {
        uint64_t n = b->l->param_buf_size < b->param_size ? b->l->param_buf_size : b->param_size;
        memcpy(b->param, b->l->param_buf, n);
        memset(b->param_known, 1, n);
        return 0;
    }
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct smem_ptx_symbol *s = &f->syms[i];
        unsigned n = s->size > 8 ? 8 : (unsigned)s->size;
        if (b->l->params && i < b->l->nparams && b->l->params[i].set) {
            mem_write(b->param, b->param_known, s->offset, n, b->l->params[i].bits, 1);
        } else if (b->p->param_is_ptr[i]) {
            mem_write(b->param, b->param_known, s->offset, n, PTR_PARAM_BASE + i * PTR_PARAM_STEP, 1);
        }
    }
    return 0;
}

/* The launch's global memory: its regions by base address, the placed variables' addresses. */
struct region_key {
    uint64_t base;
    uint32_t idx;
};

static int cmp_region_key(const void *x, const void *y)
{
    const struct region_key *a = x, *c = y;
    return a->base < c->base ? -1 : a->base > c->base;
}

static int global_setup(struct block *b)
{
    const struct smem_global_memory *g = b->l->global;
    b->gm = g;
    if (!g)
        return 0;
    const struct smem_ptx_func *f = b->p->func;
    b->gorder = malloc((g->nregions ? g->nregions : 1) * sizeof *b->gorder);
    b->gsym = calloc(f->nsyms ? f->nsyms : 1, sizeof *b->gsym);
    if (!b->gorder || !b->gsym)
        return -1;
    struct region_key *keys = malloc((g->nregions ? g->nregions : 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (uint32_t i = 0; i < g->nregions; i++) {
        keys[i].base = g->regions[i].base;
        keys[i].idx = i;
    }
    qsort(keys, g->nregions, sizeof *keys, cmp_region_key);
    for (uint32_t i = 0; i < g->nregions; i++)
        b->gorder[i] = keys[i].idx;
    free(keys);
    b->glast = UINT32_MAX;
    for (uint32_t s = 0; s < f->nsyms; s++) {
        if (f->syms[s].kind != SYM_GLOBAL && f->syms[s].kind != SYM_CONST)
            continue;
        for (unsigned k = 0; k < g->nsymbols; k++)
            if (g->symbols[k].name && !strcmp(g->symbols[k].name, f->syms[s].name))
                b->gsym[s] = g->symbols[k].addr;
    }
    return 0;
}

int smem_cta_run(const struct smem_cta_program *p, const struct smem_launch *l,
                 const struct smem_cta_hooks *hooks, struct smem_cta_result *res,
                 struct smem_error *err)
{
    memset(res, 0, sizeof *res);
    if (smem_cta_check_launch(p, l, err))
        return -1;
    struct block b;
    memset(&b, 0, sizeof b);
    b.p = p;
    b.l = l;
    b.h = hooks;
    b.err = err;
    b.nthreads = l->block[0] * l->block[1] * l->block[2];
    b.nwarps = (b.nthreads + 31) / 32;
    b.nregs = p->func->nregs ? p->func->nregs : 1;
    b.max_steps = l->max_steps ? l->max_steps : DEFAULT_MAX_STEPS;
    b.smem_size = l->dyn_smem ? p->dyn_offset + l->dyn_smem : p->static_smem;
    b.local_size = p->local_size;
    int rc = -1;
    b.R = malloc((size_t)b.nwarps * b.nregs * 32 * sizeof *b.R);
    b.K = malloc((size_t)b.nwarps * b.nregs * sizeof *b.K);
    b.sr = calloc(b.nregs, sizeof *b.sr);
    b.sk = calloc(b.nregs, 1);
    b.T = malloc(b.nthreads * sizeof *b.T);
    b.kcount = malloc((size_t)b.nthreads * (p->nsites ? p->nsites : 1) * sizeof *b.kcount);
    b.touched = malloc((p->nsites ? p->nsites : 1) * sizeof *b.touched);
    b.tmark = calloc(p->nsites ? p->nsites : 1, 1);
    b.smem = calloc(b.smem_size ? b.smem_size : 1, 1);
    b.smem_known = calloc(b.smem_size ? b.smem_size : 1, 1);
    if (b.local_size) {
        b.local = calloc((size_t)b.nthreads * b.local_size, 1);
        b.local_known = calloc((size_t)b.nthreads * b.local_size, 1);
    }
    if (!b.R || !b.K || !b.sr || !b.sk || !b.T || !b.kcount || !b.touched || !b.tmark ||
        !b.smem || !b.smem_known ||
        (b.local_size && (!b.local || !b.local_known)) || fill_params(&b) ||
        global_setup(&b)) {
        smem_error_set(err, NULL, 0, 0, "out of memory");
        goto out;
    }
    uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t nsample = l->sample_blocks && l->sample_blocks < total ? l->sample_blocks : total;
    uint64_t first = 0, nrun = nsample;
    if (l->block_count) { /* a slice of the blocks the launch runs */
        first = l->block_first < nsample ? l->block_first : nsample;
        nrun = l->block_count < nsample - first ? l->block_count : nsample - first;
    }
    res->blocks_total = total;
    res->complete = 1;
    for (uint64_t i = first; i < first + nrun; i++) {
        /* sampled blocks are spread evenly over the grid, first and last included */
        uint64_t bid = nsample == total ? i : (nsample > 1 ? i * (total - 1) / (nsample - 1) : 0);
        b.bid = (uint32_t)bid;
        b.ctaid[0] = (uint32_t)(bid % l->grid[0]);
        b.ctaid[1] = (uint32_t)(bid / l->grid[0] % l->grid[1]);
        b.ctaid[2] = (uint32_t)(bid / ((uint64_t)l->grid[0] * l->grid[1]));
        if (run_block(&b))
            goto out;
        res->steps += b.steps;
        res->blocks_run++;
        if (b.stopped) {
            flush_requests(&b);
            res->complete = 0;
            res->unknown = b.unknown;
            res->unknown_block = b.bid;
            break;
        }
    }
    rc = 0;
out:
    free(b.R);
    free(b.K);
    free(b.sr);
    free(b.sk);
    free(b.T);
    free(b.kcount);
    free(b.touched);
    free(b.tmark);
    free(b.smem);
    free(b.smem_known);
    free(b.local);
    free(b.local_known);
    free(b.param);
    free(b.param_known);
    free(b.reqs);
    free(b.rkey);
    free(b.tab);
    free(b.gorder);
    free(b.gsym);
    emu_tensor_free(&b);
    return rc;
}

/* ---- for cta_warp.c and cta_tensor.c ---------------------------------------------------------- */

int emu_lane_exec(struct block *b, uint32_t w, uint32_t l, uint32_t pc, const struct smem_ptx_insn *in)
{
    return lane_exec(b, w, l, pc, in);
}

int emu_fail(struct block *b, uint32_t insn, const char *msg)
{
    return block_fail(b, insn, "%s", msg);
}

void emu_stop_unknown(struct block *b, uint32_t insn, const char *what)
{
    stop_unknown(b, insn, what);
}

int emu_record(struct block *b, uint32_t tid, uint32_t site, uint32_t addr, int addr_known, int oob)
{
    return record(b, tid, site, addr, addr_known, oob);
}

const struct smem_global_region *emu_region_of(struct block *b, uint64_t a, unsigned n)
{
    return region_of(b, a, n);
}

void emu_mark_global(struct block *b, int op, uint64_t off, unsigned n)
{
    mark_global(b, op, off, n);
}

struct smem_access *emu_request(struct block *b, uint32_t site, uint32_t k, uint32_t warp)
{
    return request_for(b, site, k, warp);
}


int emu_mem_bytes(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                  unsigned sp, uint64_t a, unsigned n, uint8_t *buf, uint8_t *kn, int store)
{
    uint8_t *mem = NULL, *mk = NULL;
    uint64_t off = 0;
    int r = resolve(b, tid, sp, a, n, &mem, &mk, &off);
    if (r == -2)
        return global_fault(b, tid, pc, in, store ? SMEM_GFAULT_STORE : SMEM_GFAULT_LOAD, a, n) ? -1 : 1;
    if (r < 0)
        return block_fail(b, pc, "%u bytes at 0x%llx are outside the memory they address", n,
                          (unsigned long long)a);
    if (r == 0 || r == 3)
        return 1; /* global memory not given (analyze), or a parameter: not this path */
    if (r == 4)
        mark_global(b, store ? PO_ST : PO_LD, off, n);
    if (r == 4 && store && !mk)
        for (unsigned i = 0; i < n; i++)
            if (!kn[i]) {
                emu_unknown_store(b, tid, pc, in, a, n);
                break;
            }
    for (unsigned i = 0; i < n; i++) {
        if (store) {
            mem[off + i] = buf[i];
            if (mk)
                mk[off + i] = kn[i];
        } else {
            buf[i] = mem[off + i];
            kn[i] = mk ? mk[off + i] : 1;
        }
    }
    return 0;
}
