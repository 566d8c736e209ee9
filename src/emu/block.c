/* block.c: the block's services every instruction family calls: a located failure, a stop on
 * data the analysis cannot know, special registers and symbol addresses. */
#include "block.h"

#include <stdarg.h>
#include <stdio.h>

int emu_failf(struct block *b, uint32_t insn, const char *fmt, ...)
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

int emu_fail(struct block *b, uint32_t insn, const char *msg)
{
    return emu_failf(b, insn, "%s", msg);
}

void emu_stop_unknown(struct block *b, uint32_t insn, const char *what)
{
    if (b->stopped)
        return;
    b->stopped = 1;
    b->unknown.insn = insn;
    b->unknown.what = what;
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
    case SR_CLUSTER_CTARANK: return b->rank;
    case SR_CLUSTER_NCTARANK: return b->cl->n;
    case SR_CLUSTERID: return b->cl_id[0];
    case SR_CLUSTERID_Y: return b->cl_id[1];
    case SR_CLUSTERID_Z: return b->cl_id[2];
    case SR_NCLUSTERID_X: return b->l->grid[0] / b->cl->dim[0];
    case SR_NCLUSTERID_Y: return b->l->grid[1] / b->cl->dim[1];
    case SR_NCLUSTERID_Z: return b->l->grid[2] / b->cl->dim[2];
    case SR_CLUSTER_CTAID_X: return b->cl_ctaid[0];
    case SR_CLUSTER_CTAID_Y: return b->cl_ctaid[1];
    case SR_CLUSTER_CTAID_Z: return b->cl_ctaid[2];
    case SR_CLUSTER_NCTAID_X: return b->cl->dim[0];
    case SR_CLUSTER_NCTAID_Y: return b->cl->dim[1];
    case SR_CLUSTER_NCTAID_Z: return b->cl->dim[2];
    case SR_IS_EXPLICIT_CLUSTER: return (uint64_t)b->cl->explicit_cluster;
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
