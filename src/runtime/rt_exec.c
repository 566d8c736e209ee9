/* rt_exec.c: how a launch is executed: its blocks spread over the machine's cores, and repeated
 * launches skipped when that is provably safe.
 *
 * Blocks: spread over threads by smem_launch_analyze_parallel (analysis/parallel.h), each chunk
 * with its own fault sink, merged in block order, so the report does not depend on the number of
 * threads. A kernel with global atomics runs on one thread (the emulator's atomics are not atomic
 * across host threads).
 *
 * Repeated launches (programs time kernels in loops): a launch records, per byte of device
 * memory, what it read and what it wrote; the bytes it read are kept as they were before it ran
 * (from a copy of device memory taken before it, up to SNAP_MAX_BYTES; beyond that only when it
 * read nothing it wrote, so that memory still holds them), and the bytes it wrote as it wrote them.
 * The emulator is deterministic: a launch's writes are a function of its configuration, its
 * argument bytes and the bytes it reads. So a later launch of the same kernel with the same
 * configuration and argument bytes, over the same allocations, whose read bytes are equal to
 * those kept, would write exactly what was kept: it is skipped, the kept writes are applied, and
 * its report is the earlier one's. Anything else runs.
 *
 * The byte comparison costs a pass over what the launch read and a copy of what it wrote, which
 * in a timing loop over large buffers (llm.c's dev/cuda: 1,000 launches over 25 MB) is most of
 * the run. So device memory has versions (rt_touch: every copy, set and launch that may write an
 * allocation gives it a new one; host code cannot write device memory, which is PROT_NONE on the
 * host): a memo whose launch read and wrote disjoint bytes of device allocations only records
 * their versions after it, and while they are unchanged nothing has written those bytes since,
 * so its reads are as kept and its writes are still in place: the repeat is skipped without
 * looking at a byte. */
#define _GNU_SOURCE
#include "rt_internal.h"

#include "smemlab/analysis/census.h"

#include "smemlab/analysis/parallel.h"
#include "smemlab/report/run_report.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MEMO_MAX_BYTES (2ull << 30)   /* no memo for launches touching more than this */
#define MARK_MAX_BYTES (8ull << 30)   /* no access marks beyond this much device memory */
#define SNAP_MAX_BYTES (512ull << 20) /* a copy of device memory before each launch up to this */
#define MEMO_KERNEL_BYTES (1ull << 30) /* the bytes a kernel's memos keep, together, at most */

/* ---- faults: out-of-bounds global accesses, aggregated per instruction and kind ----------- */

struct fault_ctx {
    const struct smem_cta_program *p;
    const struct smem_launch *l;
    struct smem_memory_error *errs;
    uint32_t n, cap;
    uint64_t total;
};

static void on_fault(void *ctx, const struct smem_global_fault *f)
{
    struct fault_ctx *c = ctx;
    c->total++;
    for (uint32_t i = 0; i < c->n; i++)
        if (c->errs[i].insn == f->insn && c->errs[i].kind == f->kind) {
            c->errs[i].count++;
            return;
        }
    if (c->n == c->cap) {
        uint32_t nc = c->cap ? c->cap * 2 : 8;
        struct smem_memory_error *ne = realloc(c->errs, nc * sizeof *ne);
        if (!ne)
            return;
        c->errs = ne;
        c->cap = nc;
    }
    struct smem_memory_error *e = &c->errs[c->n++];
    memset(e, 0, sizeof *e);
    const struct smem_ptx_module *m = c->p->module;
    const struct smem_ptx_insn *in = &c->p->func->insns[f->insn];
    e->kind = f->kind;
    e->op = f->op;
    e->space = f->space == SP_SHARED || f->space == SP_LOCAL ? f->space : SP_GLOBAL;
    if (e->space == SP_LOCAL)
        e->addr = (uint32_t)e->addr; /* a 32-bit window, as the GPU's local addresses */
    e->file = in->loc_file < m->nfiles ? m->files[in->loc_file] : NULL;
    e->line = in->loc_line;
    e->insn = f->insn;
    e->addr = f->addr;
    e->bytes = f->size;
    e->count = 1;
    const unsigned *bd = c->l->block, *gd = c->l->grid;
    e->thread[0] = f->thread % bd[0];
    e->thread[1] = f->thread / bd[0] % bd[1];
    e->thread[2] = f->thread / (bd[0] * bd[1]);
    e->block[0] = f->block % gd[0];
    e->block[1] = f->block / gd[0] % gd[1];
    e->block[2] = f->block / (gd[0] * gd[1]);
    const struct rt_alloc *al;
    if (f->kind == SMEM_GFAULT_BAD_FREE || f->kind == SMEM_GFAULT_DOUBLE_FREE)
        snprintf(e->nearest, sizeof e->nearest, "%s", f->kind == SMEM_GFAULT_BAD_FREE
                 ? "free of a pointer no device-side malloc returned"
                 : "free of a device heap block freed already");
    else if (e->space == SP_GLOBAL && (al = rt_find(f->addr, 1)) && al->heap)
        snprintf(e->nearest, sizeof e->nearest, "in the device heap, outside every block "
                 "malloc returned that is still live");
    else if (e->space != SP_GLOBAL)
        snprintf(e->nearest, sizeof e->nearest, "%s", e->space == SP_SHARED
                 ? "in the block's shared memory" : f->kind == SMEM_GFAULT_MISALIGNED
                 ? "in the thread's local memory" : "outside the thread's local memory (its frame)");
    else if (f->kind == SMEM_MEMORY_UNINITIALIZED && (al = rt_find(f->addr, 1)))
        /* the allocation's site was named before the launch (rt_execute: not from here, where
           the blocks run on several threads) */
        snprintf(e->nearest, sizeof e->nearest, "%llu bytes into the %llu-byte allocation at 0x%llx "
                 "(%s at %s), never written", (unsigned long long)(f->addr - al->dev),
                 (unsigned long long)al->size, (unsigned long long)al->dev, rt_site_call(al->site),
                 rt_site_text(al->site));
    else
        rt_describe_address(f->addr, f->size, e->nearest, sizeof e->nearest);
}

/* initcheck: a load of bytes nothing wrote, a memory error of its own kind */
static void on_uninit(void *ctx, const struct smem_global_fault *f)
{
    struct smem_global_fault g = *f;
    g.kind = SMEM_MEMORY_UNINITIALIZED;
    on_fault(ctx, &g);
}

static void merge_faults(struct fault_ctx *into, const struct fault_ctx *from)
{
    into->total += from->total;
    for (uint32_t i = 0; i < from->n; i++) {
        const struct smem_memory_error *e = &from->errs[i];
        uint32_t j;
        for (j = 0; j < into->n; j++)
            if (into->errs[j].insn == e->insn && into->errs[j].kind == e->kind)
                break;
        if (j < into->n) {
            into->errs[j].count += e->count;
            continue;
        }
        if (into->n == into->cap) {
            uint32_t nc = into->cap ? into->cap * 2 : 8;
            struct smem_memory_error *ne = realloc(into->errs, nc * sizeof *ne);
            if (!ne)
                return;
            into->errs = ne;
            into->cap = nc;
        }
        into->errs[into->n++] = *e;
    }
}

/* ---- blocks on several threads (smem_launch_analyze_parallel): a fault sink per chunk ---- */

struct chunk_faults {
    struct fault_ctx faults;
    struct smem_global_memory gm;
};

struct exec_ctx {
    const struct smem_cta_program *p;
    const struct smem_launch *l;
    struct chunk_faults *c;
    struct fault_ctx all;
};

static void chunk_setup(void *ctx, uint64_t i, struct smem_launch *l)
{
    struct exec_ctx *e = ctx;
    struct chunk_faults *c = &e->c[i];
    c->faults.p = e->p;
    c->faults.l = e->l;
    c->gm = *l->global;
    c->gm.fault = on_fault;
    c->gm.fault_ctx = &c->faults;
    l->global = &c->gm;
}

static void chunk_merged(void *ctx, uint64_t i)
{
    struct exec_ctx *e = ctx;
    merge_faults(&e->all, &e->c[i].faults);
}

static int prints(const struct smem_ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (f->insns[i].op == PO_CALL && f->insns[i].call_name &&
            !strcmp(f->insns[i].call_name, "vprintf"))
            return 1;
    return 0;
}

int rt_kernel_prints(const struct smem_ptx_func *f)
{
    return prints(f);
}

/* 1 when the kernel may run its blocks on several threads: no global atomics or reductions, no
 * volatile or memory-model (.relaxed / .acquire / .release) loads and stores outside shared
 * memory (a block may spin on what another writes: CUB's decoupled look-back; in block order on
 * one thread every block it waits for has run, and its counts are the same each run), no printf
 * (whose lines then come in block order). */
static int parallel_safe(const struct smem_ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const struct smem_ptx_insn *in = &f->insns[i];
        if (smem_op_is_atomic(in->op) && in->space != SP_SHARED)
            return 0;
        if ((in->op == PO_LD || in->op == PO_ST) && in->vol && in->space != SP_SHARED &&
            in->space != SP_LOCAL && in->space != SP_PARAM)
            return 0;
    }
    return !prints(f) && !rt_heap_calls(f); /* the heap's blocks: one thread makes them */
}

static unsigned jobs(void)
{
    return smem_parallel_jobs(rt_opt.jobs);
}

/* ---- memo of the last launch of each kernel ----------------------------------------------- */

struct range {
    uint32_t region;
    uint64_t off, len;
    uint8_t *data;           /* the bytes (read: as they were; written: as written) */
};

struct rt_memo {
    unsigned grid[3], block[3], cluster[3];
    uint32_t dyn;
    uint8_t *params;
    uint64_t nparams;
    uint64_t generation;     /* of the allocation table */
    int priced, hazards;
    struct range *reads, *writes;
    uint32_t nreads, nwrites;
    /* the proof without bytes: reads and writes disjoint, all in device allocations (o1), and
       the versions of the regions touched as they were after it (or after its last repeat) */
    int o1;
    uint32_t ntouch, *treg;
    uint64_t *tver;
    uint64_t bytes;          /* kept in reads and writes */
    /* what the launch reported */
    struct smem_kernel_report k;
    struct smem_cta_result res;
    struct smem_memory_error *errs;
    uint32_t nerrs;
    uint64_t nfaults;
};

static void memo_free(struct rt_memo *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nreads; i++)
        free(m->reads[i].data);
    for (uint32_t i = 0; i < m->nwrites; i++)
        free(m->writes[i].data);
    free(m->reads);
    free(m->writes);
    free(m->treg);
    free(m->tver);
    free(m->params);
    smem_kernel_report_clear(&m->k);
    free(m->errs);
    free(m);
}

static int add_range(struct range **arr, uint32_t *n, uint32_t region, uint64_t off, uint64_t len,
                     const uint8_t *src)
{
    struct range *na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na)
        return -1;
    *arr = na;
    struct range *r = &na[*n];
    r->region = region;
    r->off = off;
    r->len = len;
    r->data = malloc(len ? (size_t)len : 1);
    if (!r->data)
        return -1;
    memcpy(r->data, src + off, (size_t)len);
    (*n)++;
    return 0;
}

/* Runs of marked bytes of one region into ranges: the bytes read as they were before the launch
 * (before: a copy of the region taken then, or NULL: then no byte may be both read and
 * written, and the region itself still holds them), the bytes written as they are now. -1: no
 * memo (a byte both read and written without a copy, out of memory, too large). */
/* The end of the run of marked bytes of mk from i (mk[i] marked), 8 bytes at a time where it can
 * (a region a launch reads or writes whole is megabytes of marks); with other, UINT64_MAX when
 * other marks a byte of the run. */
static uint64_t run_end(const uint8_t *mk, const uint8_t *other, uint64_t i, uint64_t n)
{
    uint64_t j = i;
    for (; j + 8 <= n; j += 8) {
        uint64_t a, b = 0;
        memcpy(&a, mk + j, 8);
        if (other)
            memcpy(&b, other + j, 8);
        if (((a - 0x0101010101010101ull) & ~a & 0x8080808080808080ull) || b)
            break; /* a byte unmarked, or marked by the other: byte by byte */
    }
    for (; j < n && mk[j]; j++)
        if (other && other[j])
            return UINT64_MAX;
    return j;
}

static int collect(struct rt_memo *m, uint32_t region, const struct smem_global_region *r,
                   const uint8_t *rd, const uint8_t *wr, const uint8_t *before, uint64_t *bytes)
{
    uint64_t n = r->size, i = 0;
    if (before) { /* reads and writes may overlap: two passes */
        for (int pass = 0; pass < 2; pass++) {
            const uint8_t *mk = pass ? wr : rd;
            i = 0;
            while (i < n) {
                while (i + 8 <= n) {
                    uint64_t a;
                    memcpy(&a, mk + i, 8);
                    if (a)
                        break;
                    i += 8;
                }
                if (i >= n)
                    break;
                if (!mk[i]) {
                    i++;
                    continue;
                }
                uint64_t j = run_end(mk, NULL, i, n);
                *bytes += j - i;
                if (*bytes > MEMO_MAX_BYTES)
                    return -1;
                if (add_range(pass ? &m->writes : &m->reads, pass ? &m->nwrites : &m->nreads,
                              region, i, j - i, pass ? r->host : before))
                    return -1;
                i = j;
            }
        }
        return 0;
    }
    while (i < n) {
        /* skip unmarked bytes a word at a time */
        while (i + 8 <= n) {
            uint64_t a, b;
            memcpy(&a, rd + i, 8);
            memcpy(&b, wr + i, 8);
            if (a | b)
                break;
            i += 8;
        }
        if (i >= n)
            break;
        if (!rd[i] && !wr[i]) {
            i++;
            continue;
        }
        if (rd[i] && wr[i])
            return -1;
        int reading = rd[i] != 0;
        const uint8_t *mk = reading ? rd : wr, *other = reading ? wr : rd;
        uint64_t j = run_end(mk, other, i, n);
        if (j == UINT64_MAX)
            return -1;
        *bytes += j - i;
        if (*bytes > MEMO_MAX_BYTES)
            return -1;
        if (add_range(reading ? &m->reads : &m->writes, reading ? &m->nreads : &m->nwrites,
                      region, i, j - i, r->host))
            return -1;
        i = j;
    }
    return 0;
}

static int same_key(const struct rt_memo *m, const struct smem_launch *l, uint64_t generation,
                    int price, int hazards)
{
    return m && !memcmp(m->grid, l->grid, sizeof m->grid) &&
           !memcmp(m->block, l->block, sizeof m->block) &&
           !memcmp(m->cluster, l->cluster, sizeof m->cluster) && m->dyn == l->dyn_smem &&
           m->nparams == l->param_buf_size && !memcmp(m->params, l->param_buf, (size_t)m->nparams) &&
           m->generation == generation && (m->priced || !price) && (m->hazards || !hazards);
}

static int reads_unchanged(const struct rt_memo *m, const struct smem_global_region *regs,
                           unsigned nreg)
{
    for (uint32_t i = 0; i < m->nreads; i++) {
        const struct range *r = &m->reads[i];
        if (r->region >= nreg || memcmp(regs[r->region].host + r->off, r->data, (size_t)r->len))
            return 0;
    }
    return 1;
}

/* Versions: regions of the memo's ranges, the o1 test, the check and the refresh. */
static int has_region(const uint32_t *a, uint32_t n, uint32_t r)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] == r)
            return 1;
    return 0;
}

static void memo_versions(struct rt_memo *m)
{
    for (uint32_t i = 0; i < m->ntouch; i++) {
        const struct rt_alloc *al = rt_region_alloc(m->treg[i]);
        m->tver[i] = al ? al->version : 0;
    }
}

static int versions_unchanged(const struct rt_memo *m)
{
    for (uint32_t i = 0; i < m->ntouch; i++) {
        const struct rt_alloc *al = rt_region_alloc(m->treg[i]);
        if (!al || al->version != m->tver[i])
            return 0;
    }
    return 1;
}

/* The regions the memo's ranges lie in, and whether it can be proven by versions: device
 * allocations only (host code writes host memory without telling anyone) and no byte both read
 * and written (collect lists each region's ranges in address order). -1: out of memory. */
static int memo_touch(struct rt_memo *m)
{
    uint32_t cap = m->nreads + m->nwrites;
    m->treg = malloc((cap ? cap : 1) * sizeof *m->treg);
    m->tver = malloc((cap ? cap : 1) * sizeof *m->tver);
    if (!m->treg || !m->tver)
        return -1;
    for (uint32_t i = 1; i < m->nreads; i++)
        assert(m->reads[i - 1].region < m->reads[i].region ||
               (m->reads[i - 1].region == m->reads[i].region &&
                m->reads[i - 1].off + m->reads[i - 1].len <= m->reads[i].off));
    for (uint32_t i = 1; i < m->nwrites; i++)
        assert(m->writes[i - 1].region < m->writes[i].region ||
               (m->writes[i - 1].region == m->writes[i].region &&
                m->writes[i - 1].off + m->writes[i - 1].len <= m->writes[i].off));
    m->o1 = 1;
    for (uint32_t i = 0; i < cap; i++) {
        const struct range *r = i < m->nreads ? &m->reads[i] : &m->writes[i - m->nreads];
        if (!has_region(m->treg, m->ntouch, r->region)) {
            m->treg[m->ntouch++] = r->region;
            const struct rt_alloc *al = rt_region_alloc(r->region);
            if (!al || (al->kind != RT_DEVICE && al->kind != RT_VARIABLE))
                m->o1 = 0;
        }
    }
    for (uint32_t i = 0, j = 0; m->o1 && i < m->nreads && j < m->nwrites;) {
        const struct range *a = &m->reads[i], *b = &m->writes[j];
        if (a->region != b->region) {
            if (a->region < b->region)
                i++;
            else
                j++;
        } else if (a->off + a->len <= b->off) {
            i++;
        } else if (b->off + b->len <= a->off) {
            j++;
        } else {
            m->o1 = 0; /* an in-place update: its repeat reads what it wrote */
        }
    }
    memo_versions(m);
    return 0;
}

static int copy_report(struct smem_kernel_report *to, const struct smem_kernel_report *from)
{
    memset(to, 0, sizeof *to);
    if (smem_kernel_report_add(to, from)) /* totals, sites and hazards, copied */
        return -1;
    to->complete = from->complete;
    return 0;
}

/* ---- the execution ------------------------------------------------------------------------ */

int rt_execute(struct rt_kernel *k, const struct smem_cta_program *p, const struct smem_launch *l0,
               int price, int hazards, struct rt_exec_result *out)
{
    memset(out, 0, sizeof *out);
    unsigned nreg = l0->global->nregions;
    const struct smem_global_region *regs = l0->global->regions;
    uint64_t gen = rt_alloc_generation();
    double t0 = rt_now();
    /* a repeat of one of the kernel's last launches? */
    static uint64_t clock;
    struct rt_memo *m = NULL;
    for (unsigned i = 0; i < RT_MEMOS; i++) {
        if (k->memo[i] && k->memo[i]->generation != gen) { /* other allocations: useless now */
            memo_free(k->memo[i]);
            k->memo[i] = NULL;
        }
        if (!m && k->memo[i] && same_key(k->memo[i], l0, gen, price, hazards)) {
            if (k->memo[i]->o1 && versions_unchanged(k->memo[i])) {
                m = k->memo[i]; /* nothing wrote its bytes since: its writes are in place */
                k->memo_used[i] = ++clock;
            } else if (reads_unchanged(k->memo[i], regs, nreg)) {
                m = k->memo[i];
                k->memo_used[i] = ++clock;
                for (uint32_t j = 0; j < m->nwrites; j++) {
                    const struct range *w = &m->writes[j];
                    memcpy(regs[w->region].host + w->off, w->data, (size_t)w->len);
                    rt_touch(rt_region_alloc(w->region));
                }
                memo_versions(m); /* its bytes are as after it again */
            }
        }
    }
    if (m) {
        assert(!prints(p->func)); /* a kernel that prints has no memo (below) */
        if (copy_report(&out->one, &m->k))
            return smem_error_set(&out->err, NULL, 0, 0, "out of memory"), out->rc = -1;
        if (!price) {
            smem_kernel_report_clear(&out->one);
        }
        out->res = m->res;
        if (m->nerrs) {
            out->errs = malloc(m->nerrs * sizeof *out->errs);
            if (out->errs) {
                memcpy(out->errs, m->errs, m->nerrs * sizeof *out->errs);
                out->nerrs = m->nerrs;
            }
        }
        out->nfaults = m->nfaults;
        out->memo_hit = 1;
        out->one.seconds = rt_now() - t0;
        return 0;
    }
    /* access marks, when memory allows (for the memo of this launch) */
    uint64_t total_bytes = 0;
    for (unsigned i = 0; i < nreg; i++)
        total_bytes += regs[i].size;
    uint8_t **rdm = NULL, **wrm = NULL, **inm = NULL;
    /* a kernel that prints is never skipped: its lines are part of what it does. A program with
       no device memory at all (nreg 0: a kernel that only uses shared memory, timed in a loop)
       has marks too: such a launch reads no byte, so a repeat is proven by its key alone */
    int marks = rt_opt.memo && total_bytes <= MARK_MAX_BYTES && !prints(p->func) &&
                !rt_heap_calls(p->func); /* a repeat would make no heap blocks */
    if (marks) {
        rdm = calloc(nreg ? nreg : 1, sizeof *rdm);
        wrm = calloc(nreg ? nreg : 1, sizeof *wrm);
        for (unsigned i = 0; rdm && wrm && i < nreg; i++) {
            rdm[i] = calloc(regs[i].size ? (size_t)regs[i].size : 1, 1);
            wrm[i] = calloc(regs[i].size ? (size_t)regs[i].size : 1, 1);
            if (!rdm[i] || !wrm[i])
                marks = 0;
        }
        if (!rdm || !wrm)
            marks = 0;
    }
    /* a copy of device memory as it was, so that a launch that reads what it writes (an
       in-place update) can be proven repeated too */
    uint8_t **before = NULL;
    if (marks && (before = calloc(nreg, sizeof *before))) {
        /* the regions the kernel's last launch wrote (the bytes a launch both reads and writes
           lie in those it writes; a region without a copy is still as it was where the launch
           did not write it), else all of them; up to SNAP_MAX_BYTES */
        int known = k->wgen == gen && k->wregs;
        uint64_t snap = 0;
        for (unsigned i = 0; i < nreg; i++) {
            int want = !known;
            for (uint32_t j = 0; known && j < k->nwregs && !want; j++)
                want = k->wregs[j] == i;
            if (!want || (!known && total_bytes > SNAP_MAX_BYTES) ||
                snap + regs[i].size > SNAP_MAX_BYTES)
                continue;
            before[i] = malloc(regs[i].size ? (size_t)regs[i].size : 1);
            if (before[i]) {
                memcpy(before[i], regs[i].host, (size_t)regs[i].size);
                snap += regs[i].size;
            }
        }
    }
    struct smem_global_memory gm = *l0->global;
    gm.read_marks = marks ? rdm : NULL;
    gm.write_marks = marks ? wrm : NULL;
    /* initcheck: the allocations' marks of what was written (--initcheck), their sites named
       here, before the blocks run on several threads */
    inm = rt_opt.initcheck ? calloc(nreg ? nreg : 1, sizeof *inm) : NULL;
    for (unsigned i = 0; inm && i < nreg; i++) {
        struct rt_alloc *al = rt_region_alloc(i);
        inm[i] = al ? al->init : NULL;
        if (al && al->init)
            rt_site_text(al->site);
    }
    gm.init_marks = inm;
    gm.uninit = inm ? on_uninit : NULL;
    struct smem_launch l = *l0;
    l.global = &gm;
    struct smem_launch_options lo;
    memset(&lo, 0, sizeof lo);
    lo.banks = smem_banks_default();
    lo.price = price;
    lo.hazards = hazards;
    lo.unwritten = hazards && rt_opt.initcheck; /* shared bytes nothing in the block wrote */
    /* chunks of blocks */
    uint64_t nblocks = (uint64_t)l.grid[0] * l.grid[1] * l.grid[2];
    uint64_t threads = nblocks * l.block[0] * l.block[1] * l.block[2];
    struct smem_parallel par;
    memset(&par, 0, sizeof par);
    par.jobs = jobs();
    if (!parallel_safe(p->func) || threads < 8192 || l.global->races)
        par.jobs = 1; /* (global races: one record of the launch's accesses, blocks in order) */
    struct exec_ctx ex;
    memset(&ex, 0, sizeof ex);
    ex.p = p;
    ex.l = &l;
    uint64_t nchunks = smem_parallel_chunks(nblocks, par.jobs);
    ex.c = calloc(nchunks, sizeof *ex.c);
    if (!ex.c) {
        out->rc = smem_error_set(&out->err, NULL, 0, 0, "out of memory");
        goto done;
    }
    par.setup = chunk_setup;
    par.merged = chunk_merged;
    par.ctx = &ex;
    out->rc = smem_launch_analyze_parallel(p, &l, &lo, &par, &out->one, &out->res, &out->err);
    for (unsigned i = 0; !out->rc && price && i < k->nprep; i++)
        if (k->prep[i].p == p) /* ptxas's SASS against the PTX, on the sites (census.h) */
            smem_census_apply(k->prep[i].census, &out->one);
    for (uint64_t i = 0; i < nchunks; i++)
        free(ex.c[i].faults.errs);
    free(ex.c);
    struct fault_ctx all = ex.all;
    out->res.blocks_total = nblocks;
    out->one.complete = out->res.complete;
    out->one.steps = out->res.steps;
    out->one.blocks_run = out->res.blocks_run;
    out->one.blocks_total = nblocks;
    out->errs = all.errs;
    out->nerrs = all.n;
    out->nfaults = all.total;
    /* what it may have written has new versions: the regions it wrote, when the marks say;
       otherwise every region */
    int touched = 0;
    if (marks) {
        free(k->wregs);
        k->wregs = malloc((nreg ? nreg : 1) * sizeof *k->wregs);
        k->nwregs = 0;
        k->wgen = gen;
        for (unsigned i = 0; i < nreg; i++) {
            const uint8_t *w = wrm[i];
            uint64_t n = regs[i].size, j = 0;
            for (; j + 8 <= n; j += 8) {
                uint64_t a;
                memcpy(&a, w + j, 8);
                if (a)
                    break;
            }
            while (j < n && !w[j])
                j++;
            if (j < n) {
                rt_touch(rt_region_alloc(i));
                if (k->wregs)
                    k->wregs[k->nwregs++] = i;
            }
        }
        touched = 1;
    }
    for (unsigned i = 0; !touched && i < nreg; i++)
        rt_touch(rt_region_alloc(i));
    /* the memo of this launch; with --initcheck only one that read no byte never written: a
       repeat of it reads the same bytes of the same allocations, still written (marks are never
       cleared), and writes what it wrote, already marked; a launch that read bytes never written
       may have written them since (out[i] += ...), so its repeats run */
    int uninit_read = 0;
    for (uint32_t i = 0; i < out->nerrs; i++)
        uninit_read |= out->errs[i].kind == SMEM_MEMORY_UNINITIALIZED;
    if (marks && !out->rc && out->res.complete && !uninit_read) {
        struct rt_memo *nm = calloc(1, sizeof *nm);
        uint64_t bytes = 0;
        int ok = nm != NULL;
        for (unsigned i = 0; ok && i < nreg; i++)
            ok = collect(nm, i, &regs[i], rdm[i], wrm[i], before ? before[i] : NULL, &bytes) == 0;
        if (ok)
            ok = memo_touch(nm) == 0;
        if (ok)
            nm->bytes = bytes;
        if (ok) {
            memcpy(nm->grid, l.grid, sizeof nm->grid);
            memcpy(nm->cluster, l.cluster, sizeof nm->cluster);
            memcpy(nm->block, l.block, sizeof nm->block);
            nm->dyn = l.dyn_smem;
            nm->nparams = l.param_buf_size;
            nm->params = malloc(nm->nparams ? (size_t)nm->nparams : 1);
            nm->generation = gen;
            nm->priced = price;
            nm->hazards = hazards;
            nm->res = out->res;
            ok = nm->params && copy_report(&nm->k, &out->one) == 0;
            if (ok)
                memcpy(nm->params, l.param_buf, (size_t)nm->nparams);
            if (ok && out->nerrs && (nm->errs = malloc(out->nerrs * sizeof *nm->errs))) {
                memcpy(nm->errs, out->errs, out->nerrs * sizeof *nm->errs);
                nm->nerrs = out->nerrs;
            }
            nm->nfaults = out->nfaults;
        }
        if (ok) { /* in the slot of the same configuration, else the least recently used */
            unsigned slot = 0;
            for (unsigned i = 0; i < RT_MEMOS; i++) {
                if (k->memo[i] && same_key(k->memo[i], l0, gen, price, hazards)) {
                    slot = i;
                    break;
                }
                if (!k->memo[i] || (k->memo[slot] && k->memo_used[i] < k->memo_used[slot]))
                    slot = i;
            }
            memo_free(k->memo[slot]);
            k->memo[slot] = nm;
            k->memo_used[slot] = ++clock;
            /* the kernel's memos within their budget: the least recently used go first */
            for (;;) {
                uint64_t kept = 0;
                unsigned lru = RT_MEMOS;
                for (unsigned i = 0; i < RT_MEMOS; i++) {
                    if (!k->memo[i])
                        continue;
                    kept += k->memo[i]->bytes;
                    if (i != slot && (lru == RT_MEMOS || k->memo_used[i] < k->memo_used[lru]))
                        lru = i;
                }
                if (kept <= MEMO_KERNEL_BYTES || lru == RT_MEMOS)
                    break;
                memo_free(k->memo[lru]);
                k->memo[lru] = NULL;
            }
        } else {
            memo_free(nm);
        }
    }
done:
    for (unsigned i = 0; before && i < nreg; i++)
        free(before[i]);
    free(before);
    for (unsigned i = 0; rdm && i < nreg; i++)
        free(rdm[i]);
    for (unsigned i = 0; wrm && i < nreg; i++)
        free(wrm[i]);
    free(rdm);
    free(wrm);
    free(inm);
    out->one.seconds = rt_now() - t0;
    return out->rc;
}
