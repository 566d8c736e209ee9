/* cta_internal.h: what the parts of the CTA emulator share (cta.c runs blocks, cta_prepare.c builds
 * the program, cta_alu.c computes): the block's state, value conversions and operand access. Private
 * to src/emu/. */
#ifndef SMEMLAB_EMU_CTA_INTERNAL_H
#define SMEMLAB_EMU_CTA_INTERNAL_H

#include "smemlab/emu/cta.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define SHARED_GENERIC_BASE 0x00007e0000000000ull /* generic addresses of the shared window */
/* The shared address of the block's first byte: an H100 reserves the window's first 1 KB, so a
 * kernel's shared variables start at 0x400 (mov.u32 %r, sm gives 0x400). Requests, sites and
 * variables speak of offsets from here. */
#define SHARED_WINDOW_BASE 0x400u
#define LOCAL_GENERIC_BASE 0x00007d0000000000ull  /* generic addresses of local memory */
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
                  L_MBAR /* waits at mbarrier.try_wait for a phase, or polled test_wait (cta_async.c) */ };

struct lane {
    uint32_t pc;
    uint8_t state;
    uint32_t bar_id, bar_count; /* L_BAR: the barrier and its thread count (0 = whole block) */
    uint32_t wsync;             /* __syncwarp()s passed */
    int bar_pred;               /* bar.red: this thread's predicate */
    uint64_t callarg[2];        /* the last values stored to call parameters param0 / param1 */
};

struct pending {
    uint64_t key; /* site << 32 | k */
    uint32_t idx;
    uint32_t gen; /* the flush generation it belongs to: older entries are empty */
};

struct block {
    const struct smem_cta_program *p;
    /* a 64-bit shared min / max's lanes so far (cta.c, minmax_rounds): the request, the lanes
       seen and those whose operand or word was not known, each lane's operand and the word it
       found */
    const struct smem_access *mm_req;
    uint32_t mm_seen, mm_unknown;
    uint64_t mm_v[32], mm_old[32];
    const struct smem_launch *l;
    const struct smem_cta_hooks *h;
    struct smem_error *err;
    uint32_t bid, ctaid[3];
    uint32_t nthreads, nwarps, nregs;
    /* registers, per warp with the lanes side by side (cta.c, "the warp loop"): register r of
       lane l of warp w is R[(w * nregs + r) * 32 + l]; bit l of K[w * nregs + r]: it is known */
    uint64_t *R;
    uint32_t *K;
    uint64_t *sr;              /* one lane's registers for the per-thread semantics (lane_in) */
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
    struct emu_tensor *tensor; /* cta_async.c: per thread mbarrier waits and cp.async groups */
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
    /* warp-level memory instructions (cta.c, warp_mem): ld/st.shared through a register or a
       symbol; ld/st/atom/red of global memory under analyze (no global memory: unknown data) */
    F_LDS, F_STS, F_GLOBAL
};
/* fast kinds that emu_warp_alu computes (below: memory and branches, run by the warp loop) */
#define F_IS_ALU(k) ((k) != F_NONE && (k) != F_BRA && (k) < F_MOVX)


/* Byte widths by type (types.def), inlined: the hot path asks for them on every instruction. */
static const uint8_t type_bytes_tab[PT_COUNT] = {
#define TYPE(id, name, bytes, where) [PT_##id] = (bytes),
#include "smemlab/ptx/types.def"
#undef TYPE
};
#define TBYTES(t) ((unsigned)type_bytes_tab[(t) < PT_COUNT ? (t) : 0])

/* ---- values ------------------------------------------------------------------------------- */

static inline uint64_t mask_bytes(unsigned b)
{
    return b >= 8 ? ~0ull : ((1ull << (8 * b)) - 1ull);
}

static inline int64_t sext(uint64_t v, unsigned b)
{
    if (b >= 8)
        return (int64_t)v;
    unsigned sh = 64 - 8 * b;
    return (int64_t)(v << sh) >> sh;
}

static inline int is_signed(unsigned t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }
static inline int is_float(unsigned t)
{
    return t == PT_F32 || t == PT_F64 || t == PT_F16 || t == PT_BF16;
}

static inline float f32_of(uint64_t v)
{
    float f;
    uint32_t u = (uint32_t)v;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline float half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
    if (e == 0) {
        if (!m) {
            u = s;
        } else { /* subnormal */
            e = 127 - 15 + 1;
            while (!(m & 0x400)) {
                m <<= 1;
                e--;
            }
            u = s | (e << 23) | ((m & 0x3ff) << 13);
        }
    } else if (e == 31) {
        u = s | 0x7f800000u | (m << 13);
    } else {
        u = s | ((e + 127 - 15) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t float_to_half(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t s = (u >> 16) & 0x8000u;
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    uint32_t m = u & 0x7fffffu;
    if (((u >> 23) & 0xff) == 0xff)
        return (uint16_t)(s | 0x7c00u | (m ? 0x200u : 0));
    if (e >= 31)
        return (uint16_t)(s | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)s;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (hm & 1u)))
            hm++;
        return (uint16_t)(s | hm);
    }
    uint32_t hm = m >> 13, rem = m & 0x1fffu;
    uint32_t r = s | ((uint32_t)e << 10) | hm;
    if (rem > 0x1000u || (rem == 0x1000u && (hm & 1u)))
        r++;
    return (uint16_t)r;
}

static inline float bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* A float operand of type t as a double (exact for f16/bf16/f32). */
static inline double fval(uint64_t v, unsigned t)
{
    switch (t) {
    case PT_F32: return (double)f32_of(v);
    case PT_F16: return (double)half_to_float((uint16_t)v);
    case PT_BF16: return (double)bf16_to_float((uint16_t)v);
    default: return f64_of(v);
    }
}

static inline uint64_t fbits(double d, unsigned t)
{
    switch (t) {
    case PT_F32: return bits_f32((float)d);
    case PT_F16: return float_to_half((float)d);
    case PT_BF16: return float_to_bf16((float)d);
    default: return bits_f64(d);
    }
}

static inline double round_int(double d, unsigned r)
{
    switch (r) {
    case RND_RZI: case RND_RZ: return trunc(d);
    case RND_RMI: case RND_RM: return floor(d);
    case RND_RPI: case RND_RP: return ceil(d);
    default: return nearbyint(d);
    }
}

/* Lane tid's executions of site s in the current barrier interval. */
static inline uint32_t *emu_kcount(const struct block *b, uint32_t tid, uint32_t s)
{
    return &b->kcount[(size_t)s * b->nthreads + tid];
}

/* ---- memory bytes (cta.c, cta_warp.c) ------------------------------------------------------ */

/* the n (1, 2, 4 or 8) bytes at p, little-endian host */
static inline uint64_t load_n(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t t; memcpy(&t, p, 2); return t; }
    case 4: { uint32_t t; memcpy(&t, p, 4); return t; }
    default: { uint64_t t; memcpy(&t, p, 8); return t; }
    }
}

static inline void store_n(uint8_t *p, unsigned n, uint64_t v)
{
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* whether none of the n (1, 2, 4 or 8) bytes at p is 0 */
static inline int all_nonzero(const uint8_t *p, unsigned n)
{
    uint64_t x = load_n(p, n);
    uint64_t ones = 0x0101010101010101ull >> (64 - 8 * n), highs = ones << 7;
    return ((x - ones) & ~x & highs) == 0;
}

/* kn may be NULL: global memory whose every byte is known */
static inline void mem_read(const uint8_t *mem, const uint8_t *kn, uint64_t off, unsigned n,
                            uint64_t *v, int *known)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 1 || n == 2 || n == 4 || n == 8) {
        uint64_t x = load_n(mem + off, n);
        if (kn && !all_nonzero(kn + off, n))
            *known = 0;
        *v = x;
        return;
    }
#endif
    uint64_t r = 0;
    for (unsigned i = 0; i < n && i < 8; i++) {
        r |= (uint64_t)mem[off + i] << (8 * i);
        if (kn && !kn[off + i])
            *known = 0;
    }
    *v = r;
}

static inline void mem_write(uint8_t *mem, uint8_t *kn, uint64_t off, unsigned n, uint64_t v,
                             int known)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 1 || n == 2 || n == 4 || n == 8) {
        store_n(mem + off, n, v);
        if (kn)
            store_n(kn + off, n, known ? 0x0101010101010101ull : 0);
        return;
    }
#endif
    for (unsigned i = 0; i < n && i < 8; i++) {
        mem[off + i] = (uint8_t)(v >> (8 * i));
        if (kn)
            kn[off + i] = (uint8_t)known;
    }
}

/* cta.c: special registers and symbol addresses of thread tid of block b. */
uint64_t emu_sreg_value(const struct block *b, uint32_t tid, unsigned sr, int *known);
uint64_t emu_sym_addr(const struct block *b, int32_t s);

/* ---- operands --------------------------------------------------------------------------------- */
static inline uint64_t src(const struct block *b, uint32_t tid, const uint64_t *R, const uint8_t *K,
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

static inline void dst(uint64_t *R, uint8_t *K, int32_t reg, uint64_t v, int known, unsigned bytes)
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


/* cta_fp.c: floating-point arithmetic (f16x2/bf16x2 lane by lane), comparisons, conversions. */
int emu_fp_arith(const struct smem_ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *r);
int emu_fp_compare(unsigned cmp, unsigned t, int ftz, uint64_t a, uint64_t b);
int emu_fp_testp(unsigned mode, unsigned t, uint64_t a);
int emu_fp_is_negative(unsigned t, int ftz, uint64_t a);
uint64_t emu_fp_one(unsigned t);
uint64_t emu_fp_cvt(const struct smem_ptx_insn *in, uint64_t v, uint64_t v2);
/* atom.add / red.add on a float type: old + v as the atomic unit computes it */
uint64_t emu_fp_atom_add(unsigned t, int shared, uint64_t old, uint64_t v);

static inline int is_fp(unsigned t) { return is_float(t) || t == PT_F16X2 || t == PT_BF16X2; }

/* cta_alu.c: one arithmetic, logic, comparison or conversion instruction of thread tid. 0 done, -1
 * not modelled (the caller refuses it with its location). */
int emu_exec_alu(struct block *b, uint32_t tid, const struct smem_ptx_insn *in, uint64_t *R,
                 uint8_t *K);

/* cta.c, for cta_tensor.c and cta_async.c: one lane through the per-thread semantics
 * (lane_exec); a located failure; a data-dependent stop; the lanes `ex` of warp w joining the
 * request of each site of pc with their shared offsets (one lookup when they are at the same
 * execution of the site); the request (site, k) of warp w, created on first use. */
int emu_lane_exec(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                  const struct smem_ptx_insn *in);
int emu_fail(struct block *b, uint32_t insn, const char *msg);
void emu_stop_unknown(struct block *b, uint32_t insn, const char *what);
int emu_warp_record(struct block *b, uint32_t w, uint32_t pc, uint32_t ex, const uint32_t *off);
struct smem_access *emu_request(struct block *b, uint32_t site, uint32_t k, uint32_t warp);
/* n bytes of space sp at address a for thread tid, read into buf / kn (known) or written from
 * them (store): 0 done, 1 not modelled here (no global memory given: unknown), -1 failed
 * (located: outside every allocation, out of range). For cta_wmma.c. */
int emu_mem_bytes(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                  unsigned sp, uint64_t a, unsigned n, uint8_t *buf, uint8_t *kn, int store);

/* cta.c, for cta_warp.c: lane tid's part in site's request (addr_known: whether addr means
 * anything); the global region holding [a, a + n) (NULL: none; b->glast becomes it); the
 * access marks of region b->glast (what a proven repeat compares and copies). */
int emu_record(struct block *b, uint32_t tid, uint32_t site, uint32_t addr, int addr_known, int oob);
const struct smem_global_region *emu_region_of(struct block *b, uint64_t a, unsigned n);
void emu_mark_global(struct block *b, int op, uint64_t off, unsigned n);
/* A store of n bytes at device address a that holds a value the emulator does not know, in a
 * region taken as all known: given to the launch's fault sink (SMEM_GFAULT_UNKNOWN_VALUE). */
void emu_unknown_store(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                       uint64_t a, unsigned n);

/* cta_warp.c: the warp-level forms the warp loop runs for lanes `ex` of warp w at pc (cta.c,
 * run_group). emu_warp_alu: the fast kinds of cta_prepare.c that compute (F_IS_ALU), always done.
 * emu_warp_mem: ld/st.shared (F_LDS, F_STS) and global memory (F_GLOBAL); emu_warp_exec: the
 * other instructions with a warp-level form (F_WARP). Both: 1 done, 0 not this path (the lane
 * path runs each lane: unknown or bad addresses, faults, ...), -1 error (located). */
void emu_warp_alu(struct block *b, uint32_t w, const struct smem_ptx_insn *in, uint8_t fk, uint32_t ex);
int emu_warp_mem(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                 uint32_t ex, uint8_t fk);
int emu_warp_exec(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                  uint32_t ex);

/* The warp-level handler of an instruction family (opcodes.def, warp): lanes `ex` of warp w at
 * pc. 1 done, 0 not this path (the lane path runs it), -1 error (located). Lanes that wait at an
 * mbarrier are left in L_MBAR. */
typedef int emu_warp_fn(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                        uint32_t ex);
/* cta_tensor.c: ldmatrix / stmatrix; mma.sync. cta_wmma.c: wmma. cta_async.c: cp.async, its
 * groups (and cp.async.mbarrier.arrive), mbarrier. cta_bulk.c: cp.async.bulk. */
emu_warp_fn emu_exec_matrix, emu_exec_mma, emu_exec_wmma, emu_exec_cp_async,
    emu_exec_cp_async_wait, emu_exec_mbarrier_op, emu_exec_bulk;
/* What the per-thread semantics (cta.c, lane_exec) do with an opcode (opcodes.def, lane):
 * nothing; the thread exits; refused (barrier.cluster, bar.arrive); trap; a texture or surface;
 * call (vprintf, __assertfail); a block barrier; a memory access; arithmetic (cta_alu.c, which
 * refuses what it does not compute). */
enum lane_kind { LK_NOTHING, LK_EXIT, LK_CLUSTER, LK_ARRIVE, LK_TRAP, LK_TEX, LK_CALL, LK_BAR,
                 LK_MEM, LK_ALU };

int emu_global_span(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    uint64_t a, unsigned n, int write, uint8_t **mem, uint8_t **kn);
/* cta_async.c, between rounds of the block's warps: lanes whose mbarrier phase has completed run
 * on (1: some did); 0 none; -1 every live thread waits on an mbarrier phase that cannot complete
 * (a located failure). */
int emu_tensor_wake(struct block *b);
void emu_tensor_reset(struct block *b); /* a new block */
void emu_tensor_free(struct block *b);

#endif
