/* block.h (private to emu/): the state of the block being run (its threads, registers per warp,
 * memories, pending requests), the fast kinds of the prepared program, and the services of
 * block.c every instruction family calls: a located failure, a stop on data the analysis cannot
 * know, special registers, symbol addresses and operands. The bottom of emu/'s stack. */
#ifndef SMEMLAB_EMU_BLOCK_H
#define SMEMLAB_EMU_BLOCK_H

#include "smemlab/emu/cta.h"
#include "values.h"

#define SHARED_GENERIC_BASE 0x00007e0000000000ull /* generic addresses of the shared window */
/* The shared address of the block's first byte: an H100 reserves the window's first 1 KB, so a
 * kernel's shared variables start at 0x400 (mov.u32 %r, sm gives 0x400). Requests, sites and
 * variables speak of offsets from here. */
#define SHARED_WINDOW_BASE 0x400u
/* A shared::cluster address (ours: the PTX ISA leaves mapa's numbers to the implementation): the
 * CTA of rank r's shared address x is (r + 1) * CLUSTER_STEP + x, and an address below
 * CLUSTER_STEP is the own CTA's (a shared::cta address is one of the cluster window). Generic:
 * SHARED_GENERIC_BASE + that. (docs/analyzer.md, "Thread-block clusters") */
#define CLUSTER_STEP 0x01000000u
#define CLUSTER_MAX 16u            /* CTAs of a cluster: 8 portable, 16 non-portable */
#define EMU_SP_CLUSTER 0x100u      /* emu_resolve: a .shared::cluster address (any CTA's) */
#define LOCAL_GENERIC_BASE 0x00007d0000000000ull  /* generic addresses of local memory */
#define PARAM_GENERIC_BASE 0x00007c0000000000ull  /* generic addresses of the kernel's parameters
                                                     (cvta.param: a __grid_constant__ tensor map) */
#define WINDOW_SIZE 0x0000000100000000ull
#define PTR_PARAM_BASE 0x0000100000000000ull      /* fake device pointers for pointer params */
#define PTR_PARAM_STEP 0x0000010000000000ull
#define GLOBAL_SYM_BASE 0x0000080000000000ull     /* addresses of module .global variables */
#define DEFAULT_MAX_STEPS 200000000ull
/* Pending requests of a warp beyond which a lane that opens another lets the other lanes run (and
 * the requests they complete are reported): the memory of a run does not grow with a loop's trip
 * count. Below it, lanes run one after the other to the next barrier, as they always did. */
#define PENDING_SOFT_CAP 1024u

enum lane_state { L_RUN = 0, L_BAR, L_WARP, L_EXIT,
                  L_MBAR /* waits at mbarrier.try_wait for a phase, or polled test_wait (cta_async.c) */,
                  L_WGMMA /* waits at wgmma.mma_async for the rest of its warpgroup (cta_wgmma.c) */,
                  L_CLUSTER /* waits at barrier.cluster.wait for the cluster (cta_cluster.c) */ };

struct lane {
    uint32_t pc;
    uint8_t state;
    uint32_t bar_id, bar_count; /* L_BAR: the barrier and its thread count (0 = whole block) */
    uint32_t wsync;             /* __syncwarp()s passed */
    int bar_pred;               /* bar.red: this thread's predicate */
    uint64_t callarg[2];        /* the last values stored to call parameters param0 / param1 */
    uint64_t callret;           /* malloc's result, for the ld.param of retval0 after the call */
    uint8_t cl_arrived;         /* barrier.cluster.arrive done, its wait not yet */
    uint32_t cl_phase;          /* ... in this phase of the cluster's barrier */
};

struct block;
/* The CTAs of one thread-block cluster, run together (cta.c): each its own struct block, in
 * rounds; a launch without clusters runs clusters of one. */
struct emu_cluster {
    struct block *cta;         /* n of them, by rank */
    uint32_t n;
    unsigned dim[3];
    int explicit_cluster;      /* launched with a cluster (%is_explicit_cluster) */
    uint32_t phase;            /* barrier.cluster phases completed */
    int final;                 /* nothing moved in a whole round: the deadlock is reported now */
    uint32_t sync;             /* barrier.cluster phases and mbarrier phases completed in the
                                  cluster: accesses in two of these epochs are ordered */
};

/* What one shared byte of a CTA saw in the cluster's current epoch (emu_cluster_shadow). */
struct cl_shadow {
    uint32_t epoch;            /* emu_cluster.sync + 1 when set; else stale */
    uint16_t wr;               /* the rank + 1 of its last writer, 0 none */
    uint16_t rd;               /* the ranks that read it */
    uint16_t at;               /* the ranks that updated it atomically */
    uint16_t rrank, arank;     /* the last reader's rank, the last atomic's */
    uint32_t wpc, rpc, apc;    /* the last write's, read's and atomic's instructions */
};

/* The accesses of the instruction being run to other CTAs' shared memory (request.c,
 * emu_dshared_flush): one request of the warp, as Nsight Compute counts op_dshared. */
struct dshared_acc {
    uint32_t lanes;
    uint32_t bytes;
    uint8_t op;                /* enum smem_dshared_op */
    uint32_t target;           /* the rank of the first lane's CTA */
};

struct pending {
    uint64_t key; /* site << 32 | k */
    uint32_t idx;
    uint32_t gen; /* the flush generation it belongs to: older entries are empty */
};

struct block {
    const struct smem_cta_program *p;
    /* a 64-bit shared min / max's lanes so far (cta_lane.c, minmax_rounds): the request, the lanes
       seen and those whose operand or word was not known, each lane's operand and the word it
       found */
    const struct smem_access *mm_req;
    uint32_t mm_seen, mm_unknown;
    uint64_t mm_v[32], mm_old[32];
    const struct smem_launch *l;
    const struct smem_cta_hooks *h;
    struct smem_error *err;
    uint32_t bid, ctaid[3];
    struct emu_cluster *cl;    /* the cluster it belongs to */
    uint32_t rank, cl_ctaid[3], cl_id[3]; /* %cluster_ctarank, %cluster_ctaid, %clusterid */
    int gone;                  /* every thread exited: its shared memory is gone */
    uint32_t gone_pc;          /* the instruction its last thread exited at */
    struct dshared_acc dsh;
    struct block *remote;      /* the CTA emu_resolve found an address of another CTA in */
    /* the latest access of another CTA to this one's shared memory (ld / st / atom / red): the
       cluster barrier's phase then, this CTA's mbarrier phases completed then, its instruction
       and block (rem_pc UINT32_MAX: none); the phases this CTA's threads have waited for
       (barrier.cluster.wait) and the phases of its own mbarriers completed (a remote arrive its
       threads wait on): an exit before either orders that access is reported (cta.c) */
    uint32_t rem_phase, rem_mb, rem_pc, rem_bid, rem_ctaid[3];
    uint32_t waited_upto, mb_done;
    struct cl_shadow *csh;     /* per byte of shared memory (a cluster of several CTAs whose
                                  kernel has mapa): races between its CTAs */
    uint32_t nthreads, nwarps, nregs;
    /* registers, per warp with the lanes side by side (cta.c, "the warp loop"): register r of
       lane l of warp w is R[(w * nregs + r) * 32 + l]; bit l of K[w * nregs + r]: it is known */
    uint64_t *R;
    uint32_t *K;
    uint64_t *sr;              /* one lane's registers for the per-thread semantics (emu_lane_in) */
    uint8_t *sk;
    struct lane *T;
    uint32_t *kcount;          /* per site per thread (the lanes side by side): executions of
                                  the site in the barrier interval (emu_kcount) */
    uint32_t *touched;         /* the sites whose request 0 the warp being run made (their
                                  lanes' counts are reset when it leaves the barrier) */
    uint8_t *tmark;            /* per site: in touched */
    uint32_t ntouched;
    uint8_t *smem, *smem_known;
    uint32_t smem_size;
    uint8_t *local, *local_known;
    uint32_t local_size;
    uint8_t *param, *param_known;
    uint64_t param_size;
    uint32_t interval;
    uint64_t steps, max_steps;
    /* the warp being run: its pending requests (rkey: each one's site << 32 | k) */
    struct smem_access *reqs;
    uint64_t *rkey;
    uint32_t nreqs, cap_reqs;
    int yield;                 /* a lane made the pending requests many: let the others catch up */
    struct pending *tab;
    uint32_t cap_tab;
    uint32_t gen;
    /* global memory given with the launch (NULL: unknown, as under analyze) */
    const struct smem_global_memory *gm;
    uint32_t *gorder;          /* its regions' indices by base address */
    uint32_t glast;            /* the region hit last */
    uint64_t *gsym;            /* per function symbol: the caller's address of a .global/.const
                                  variable, or 0 (keeps the fake address) */
    int stopped;               /* a data-dependent outcome stopped the run */
    struct smem_cta_unknown unknown;
    int failed;
    struct emu_async *async;   /* cta_async.c: per thread mbarrier waits and cp.async groups */
    /* cta_tma.c: per 16-byte chunk of shared memory, how the TMA load that wrote it last laid it
       out (the tensor map's swizzle + 1; 0: not a TMA's) and that load's instruction; NULL until
       a TMA load runs; tma_sum: a hash of the chunk's bytes as the load left them (bytes written
       otherwise since, by any instruction, make the record stale: emu_tma_current) */
    uint8_t *tma_sw;
    uint32_t *tma_pc, *tma_sum;
    /* request.c, the proxy-fence record (kernels with a wgmma only; pf_on 0 not yet known, 1
       off, 2 on): per shared byte, the generic-proxy write (st / atom / red / stmatrix, a
       cp.async landing) not yet followed by a fence.proxy.async of its thread: pf_pc the
       instruction + 1 (0: none, or an async-proxy write since), pf_stamp its thread << 20 | the
       thread's fence count then (low 20 bits); pf_fences: per thread, its fence.proxy.async count */
    int pf_on;
    uint32_t *pf_pc, *pf_stamp, *pf_fences;
    /* global_race.c (the launch's global memory has races on): the launch's record and the
       block's own part */
    struct emu_grace *gr;
    struct gr_block *grb;
};

/* Per instruction, a fast-path kind for the common integer operations (cta_prepare.c). */
enum fast_kind {
    F_NONE = 0, F_ADD32, F_SUB32, F_MUL32, F_MAD32, F_AND32, F_OR32, F_XOR32, F_SHL32, F_SHRU32,
    F_MOV32, F_ADD64, F_MULWIDE_U32, F_MULWIDE_S32, F_SETP_U32, F_SETP_S32, F_BRA,
    F_MOV64, F_SHL64, F_CVT_U64_U32, F_CVT_S64_S32, F_FMA_F32, F_ADD_F32, F_MUL_F32, F_SHRS32,
    F_MUL64, F_MAD64, F_ANDP, F_ORP, F_XORP, F_SUB_F32, F_ADD16, F_CVT_U32, F_NOTP, F_MOVP,
    F_DIV_U32, F_REM_U32, F_DIV_S32, F_REM_S32,
    F_FMA_F32Z, F_ADD_F32Z, F_SUB_F32Z, F_MUL_F32Z, /* .ftz (what --use_fast_math gives) */
    /* an add / sub that ptxas fuses with the mul of its source (ptx/sass_fma.c): program->
       fused_at[pc] holds it as fma.rn of the mul's sources a, b and its other source c, an
       operand's `neg` meaning its value negated (a * b - c, c - a * b) */
    F_FUSED,
    F_FP,    /* other floating-point arithmetic: cta_fp.c's function over the lanes (emu_warp_alu) */
    F_MOVX,  /* mov of a special register or a symbol's address (cta.c, per lane) */
    F_WARP,  /* selp, ld.param by name, bar.sync, ret / exit (cta_warp.c, emu_warp_exec) */
    /* warp-level memory instructions (cta_warp.c, emu_warp_mem): ld/st.shared through a register or a
       symbol; ld/st/atom/red of global memory under analyze (no global memory: unknown data) */
    F_LDS, F_STS, F_GLOBAL
};
/* fast kinds that emu_warp_alu computes (below: memory and branches, run by the warp loop) */
#define F_IS_ALU(k) ((k) != F_NONE && (k) != F_BRA && (k) < F_MOVX)


/* Lane tid's executions of site s in the current barrier interval. */
static inline uint32_t *emu_kcount(const struct block *b, uint32_t tid, uint32_t s)
{
    return &b->kcount[(size_t)s * b->nthreads + tid];
}

/* A located failure (the instruction's source line, else its PTX line): -1. */
int emu_failf(struct block *b, uint32_t insn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int emu_fail(struct block *b, uint32_t insn, const char *msg);
/* A data-dependent outcome (what) stops the run at insn: the report says so. */
void emu_stop_unknown(struct block *b, uint32_t insn, const char *what);
/* special registers and symbol addresses of thread tid of block b */
uint64_t emu_sreg_value(const struct block *b, uint32_t tid, unsigned sr, int *known);
uint64_t emu_sym_addr(const struct block *b, int32_t s);

/* ---- operands --------------------------------------------------------------------------------- */
static inline uint64_t op_src(const struct block *b, uint32_t tid, const uint64_t *R, const uint8_t *K,
                           const struct smem_ptx_operand *o, int *known)
{
    switch (o->kind) {
    case OPK_REG:
        if (!K[o->reg[0]])
            *known = 0;
        return R[o->reg[0]];
    case OPK_IMM:
        return (uint64_t)o->imm;
    case OPK_SREG: {
        int k;
        uint64_t v = emu_sreg_value(b, tid, (unsigned)o->imm, &k);
        if (!k)
            *known = 0;
        return v;
    }
    case OPK_SYM:
        return emu_sym_addr(b, o->sym) + (uint64_t)o->imm;
    default:
        *known = 0;
        return 0;
    }
}

static inline void op_dst(uint64_t *R, uint8_t *K, int32_t reg, uint64_t v, int known, unsigned bytes)
{
    if (reg < 0)
        return;
    R[reg] = v & mask_bytes(bytes ? bytes : 8);
    K[reg] = (uint8_t)known;
}

/* Effective address of a memory operand. */
static inline uint64_t ea(const struct block *b, const uint64_t *R, const uint8_t *K,
                   const struct smem_ptx_operand *o, int *known)
{
    uint64_t base = 0;
    if (o->reg[0] >= 0) {
        if (!K[o->reg[0]])
            *known = 0;
        base = R[o->reg[0]];
    } else if (o->sym >= 0) {
        base = emu_sym_addr(b, o->sym);
    }
    return base + (uint64_t)o->imm;
}

#endif
