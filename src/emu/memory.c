/* memory.c: the block's memories as the instruction families reach them: shared, local and
 * parameter memory, and the launch's global memory (its regions, faults, access marks); an
 * address of a state space resolved to bytes and their known marks. */
#include "memory.h"
#include "global_race.h"

#include <stdlib.h>
#include <string.h>

/* The global region holding [a, a + n), or NULL. */
const struct smem_global_region *emu_region_of(struct block *b, uint64_t a, unsigned n)
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

int emu_cluster_resolve(struct block *b, uint64_t a, unsigned n, struct block **t, uint64_t *off)
{
    struct block *c = b;
    if (a >= CLUSTER_STEP) {
        uint64_t r = a / CLUSTER_STEP - 1;
        if (r >= b->cl->n)
            return -3;
        c = &b->cl->cta[r];
        a %= CLUSTER_STEP;
    }
    *t = c;
    a -= SHARED_WINDOW_BASE; /* below the window: wraps, out of range */
    if (a + n > c->smem_size || a > c->smem_size)
        return -1;
    if (c->gone)
        return -4;
    *off = a;
    return c == b ? 1 : 5;
}

/* Resolves an address of space sp to (memory, offset). Returns 1 shared, 2 local, 3 param,
 * 4 global (a region of the launch's global memory; *kn may be NULL: all known), 5 another CTA's
 * shared memory (b->remote is that CTA), 0 global/const (not modelled: no global memory given),
 * -1 out of range, -2 outside every global region, -3 a rank the cluster does not have, -4 a CTA
 * that has exited. sp may carry EMU_SP_CLUSTER (.shared::cluster); a generic address of the
 * shared window is one of the cluster's. */
int emu_resolve(struct block *b, uint32_t tid, unsigned sp, uint64_t a, unsigned n, uint8_t **mem,
                   uint8_t **kn, uint64_t *off)
{
    int cluster = (sp & EMU_SP_CLUSTER) != 0;
    sp &= ~EMU_SP_CLUSTER;
    if (sp == SP_GENERIC) {
        if (a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE) {
            sp = SP_SHARED;
            cluster = 1;
            a -= SHARED_GENERIC_BASE;
        } else if (a >= LOCAL_GENERIC_BASE && a < LOCAL_GENERIC_BASE + WINDOW_SIZE) {
            sp = SP_LOCAL;
            a -= LOCAL_GENERIC_BASE;
        } else if (a >= PARAM_GENERIC_BASE && a < PARAM_GENERIC_BASE + WINDOW_SIZE &&
                   !(b->gm && emu_region_of(b, a, n))) { /* a device allocation keeps its address */
            sp = SP_PARAM;
            a -= PARAM_GENERIC_BASE;
        } else if (b->gm) {
            sp = SP_GLOBAL;
        } else {
            return 0;
        }
    }
    if ((sp == SP_GLOBAL || sp == SP_CONST) && b->gm) {
        const struct smem_global_region *r = emu_region_of(b, a, n);
        if (!r)
            return -2;
        *mem = r->host;
        *kn = r->known;
        *off = a - r->base;
        return 4;
    }
    if (sp == SP_SHARED && cluster) {
        struct block *t;
        int r = emu_cluster_resolve(b, a, n, &t, off);
        if (r > 0) {
            *mem = t->smem;
            *kn = t->smem_known;
            b->remote = t;
        }
        return r;
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

/* An access outside the launch's global memory: reported, then a failure (faults_stop) or 0. */
int emu_global_fault(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                        unsigned kind, uint64_t a, unsigned n)
{
    unsigned sp = in->op == PO_CP_ASYNC || in->op == PO_CP_BULK ? SP_GLOBAL : in->space;
    return emu_space_fault(b, tid, pc, in, kind, sp, a, n);
}

int emu_space_fault(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    unsigned kind, unsigned space, uint64_t a, unsigned n)
{
    struct smem_global_fault f;
    static const char *const what[] = {"load", "store", "atomic"};
    memset(&f, 0, sizeof f);
    f.op = smem_op_is_atomic(in->op) ? SMEM_GFAULT_ATOM
           : in->op == PO_ST || kind == SMEM_GFAULT_STORE ? SMEM_GFAULT_STORE : SMEM_GFAULT_LOAD;
    f.kind = (uint8_t)(kind == SMEM_GFAULT_LOAD ? f.op : kind);
    f.space = (uint8_t)space;
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
    return emu_failf(b, pc, "%s %s of %u bytes at 0x%llx %s (thread (%u,%u,%u) of block "
                      "(%u,%u,%u))", space == SP_SHARED ? "shared" : space == SP_LOCAL ? "local"
                      : "global", what[f.op], n, (unsigned long long)a, why, tx, ty, tz,
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

/* The access marks of the region emu_resolve() found last (b->glast), if the caller keeps them. */
void emu_mark_global(struct block *b, int op, uint64_t off, unsigned n)
{
    const struct smem_global_memory *g = b->gm;
    if (g->read_marks && g->read_marks[b->glast] && op != PO_ST)
        set_marks(g->read_marks[b->glast] + off, n);
    if (g->write_marks && g->write_marks[b->glast] && !smem_op_is_load((unsigned)op))
        set_marks(g->write_marks[b->glast] + off, n);
}

void emu_mark_global_at(struct block *b, uint32_t tid, uint32_t pc, int op, uint64_t off,
                        unsigned n)
{
    emu_mark_global(b, op, off, n);
    if (b->gr)
        emu_grace_access(b, tid, pc, op, b->gm->regions[b->glast].base + off, n);
    const struct smem_global_memory *g = b->gm;
    uint8_t *im = g->init_marks ? g->init_marks[b->glast] : NULL;
    if (!im)
        return;
    if (!smem_op_is_load((unsigned)op)) {
        set_marks(im + off, n);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        if (!im[off + i]) {
            if (g->uninit) {
                struct smem_global_fault f;
                memset(&f, 0, sizeof f);
                f.kind = f.op = SMEM_GFAULT_LOAD;
                f.space = SP_GLOBAL;
                f.size = n;
                f.addr = g->regions[b->glast].base + off;
                f.block = b->bid;
                f.thread = tid;
                f.insn = pc;
                g->uninit(g->fault_ctx, &f);
            }
            return;
        }
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
    if (emu_resolve(b, tid, SP_GLOBAL, a, n, mem, kn, &off) != 4) {
        int rc = emu_global_fault(b, tid, pc, in, write ? SMEM_GFAULT_STORE : SMEM_GFAULT_LOAD, a, n);
        return rc ? -1 : -2;
    }
    emu_mark_global_at(b, tid, pc, write ? PO_ST : PO_LD, off, n);
    *mem += off;
    if (*kn)
        *kn += off;
    return 1;
}

/* n bytes of space sp at address a for thread tid, read into buf / kn (known) or written from
 * them (store): 0 done, 1 not modelled here (no global memory given: unknown), -1 failed
 * (located: outside every allocation, out of range). */
int emu_mem_bytes(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                  unsigned sp, uint64_t a, unsigned n, uint8_t *buf, uint8_t *kn, int store)
{
    uint8_t *mem = NULL, *mk = NULL;
    uint64_t off = 0;
    int r = emu_resolve(b, tid, sp, a, n, &mem, &mk, &off);
    if (r == -2)
        return emu_global_fault(b, tid, pc, in, store ? SMEM_GFAULT_STORE : SMEM_GFAULT_LOAD, a, n) ? -1 : 1;
    if (r < 0)
        return emu_failf(b, pc, "%u bytes at 0x%llx are outside the memory they address", n,
                          (unsigned long long)a);
    if (r == 0 || r == 3)
        return 1; /* global memory not given (analyze), or a parameter: not this path */
    if (r == 4)
        emu_mark_global_at(b, tid, pc, store ? PO_ST : PO_LD, off, n);
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

/* Fills the parameter buffer: given values, fake pointers for pointer parameters, else unknown. */
int emu_params_fill(struct block *b)
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

int emu_global_setup(struct block *b)
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

/* An access through a shared::cluster (or generic) address that the cluster cannot serve
 * (emu_resolve's -3, -4) or that is not aligned to its size: a located failure. */
int emu_remote_fault(struct block *b, uint32_t tid, uint32_t pc, uint64_t a, unsigned n, int where)
{
    const unsigned *bd = b->l->block;
    unsigned tx = tid % bd[0], ty = tid / bd[0] % bd[1], tz = tid / (bd[0] * bd[1]);
    uint64_t x = a >= SHARED_GENERIC_BASE ? a - SHARED_GENERIC_BASE : a;
    if (where == -3)
        return emu_failf(b, pc, "the shared::cluster address 0x%llx of thread (%u,%u,%u) of block "
                         "(%u,%u,%u) names CTA rank %llu, but its cluster has %u (mapa to a rank "
                         "outside the cluster?)", (unsigned long long)a, tx, ty, tz, b->ctaid[0],
                         b->ctaid[1], b->ctaid[2], (unsigned long long)(x / CLUSTER_STEP - 1),
                         b->cl->n);
    if (where == -4) {
        const struct block *t = &b->cl->cta[x / CLUSTER_STEP - 1];
        const struct smem_ptx_insn *e = &b->p->func->insns[t->gone_pc];
        return emu_failf(b, pc, "thread (%u,%u,%u) of block (%u,%u,%u) accesses the shared memory "
                         "of block (%u,%u,%u), rank %u of its cluster, which has exited (at line "
                         "%u): the PTX ISA leaves this undefined (a CTA must not exit while others "
                         "may access its shared memory: barrier.cluster before it exits)", tx, ty,
                         tz, b->ctaid[0], b->ctaid[1], b->ctaid[2], t->ctaid[0], t->ctaid[1],
                         t->ctaid[2], t->rank, e->loc_line ? e->loc_line : e->src_line);
    }
    return emu_failf(b, pc, "misaligned shared::cluster access: %u bytes at 0x%llx (thread "
                     "(%u,%u,%u) of block (%u,%u,%u))", n, (unsigned long long)a, tx, ty, tz,
                     b->ctaid[0], b->ctaid[1], b->ctaid[2]);
}

void emu_cluster_shadow(struct block *b, struct block *own, uint32_t pc, uint32_t off, unsigned n,
                        int write)
{
    if (!own->csh || off + (uint64_t)n > own->smem_size)
        return;
    uint32_t e = b->cl->sync + 1, r = b->rank, me = 1u << r;
    int reported = 0;
    for (unsigned i = 0; i < n; i++) {
        struct cl_shadow *x = &own->csh[off + i];
        if (x->epoch != e) {
            memset(x, 0, sizeof *x);
            x->epoch = e;
        }
        if (!reported && b->h && b->h->cluster_race) {
            /* an atomic races with another CTA's plain accesses, not with its atomics */
            struct smem_cta_cluster_race ev;
            memset(&ev, 0, sizeof ev);
            if (x->wr && x->wr != r + 1) { /* another CTA wrote it */
                ev.insn[0] = x->wpc;
                ev.write[0] = 1;
                ev.rank[0] = x->wr - 1u;
                reported = 1;
            } else if (write != 2 && (x->at & ~me)) { /* ... updated it atomically */
                ev.insn[0] = x->apc;
                ev.write[0] = 1;
                ev.rank[0] = x->arank != r ? x->arank : (uint32_t)__builtin_ctz(x->at & ~me);
                reported = 1;
            } else if (write && (x->rd & ~me)) { /* ... read it */
                ev.insn[0] = x->rpc;
                ev.rank[0] = x->rrank != r ? x->rrank : (uint32_t)__builtin_ctz(x->rd & ~me);
                reported = 1;
            }
            if (reported) {
                ev.insn[1] = pc;
                ev.write[1] = write != 0;
                ev.rank[1] = r;
                ev.owner = own->rank;
                ev.block = own->bid;
                ev.address = off + i;
                b->h->cluster_race(b->h->ctx, &ev);
            }
        }
        if (write == 2) {
            x->at |= (uint16_t)me;
            x->apc = pc;
            x->arank = (uint16_t)r;
        } else if (write) {
            x->wr = (uint16_t)(r + 1);
            x->wpc = pc;
        } else {
            x->rd |= (uint16_t)me;
            x->rpc = pc;
            x->rrank = (uint16_t)r;
        }
    }
}
