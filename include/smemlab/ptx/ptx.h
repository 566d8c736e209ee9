/* ptx.h: a PTX module parsed into kernels, parameters, shared variables and decoded instructions
 * with their source lines. Hand-written, line-oriented; errors carry line:column. */
#ifndef SMEMLAB_PTX_H
#define SMEMLAB_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Value types of PTX instructions: PT_<id> of each row of types.def. */
enum smem_ptx_type {
#define TYPE(id, name, bytes, where) PT_##id,
#include "smemlab/ptx/types.def"
#undef TYPE
    PT_COUNT
};

enum smem_ptx_opk {
    OPK_NONE = 0,
    OPK_REG,   /* reg[0] */
    OPK_PAIR,  /* reg[0] | reg[1] (e.g. shfl's value|pred destination) */
    OPK_IMM,   /* imm (for floats: the bit pattern of the instruction's type) */
    OPK_SREG,  /* special register: imm holds enum smem_ptx_sreg */
    OPK_SYM,   /* the address of a symbol (sym) plus imm */
    OPK_ADDR,  /* memory operand [reg[0] or sym, + imm] */
    OPK_VEC,   /* {reg[0..count-1]}; a slot of -1 is the sink `_` */
    OPK_LABEL, /* branch target: imm = instruction index */
    OPK_SINK,  /* `_` */
    OPK_VECX   /* {5 to 8 registers} (mma / wmma fragments): count of them, the registers at
                  func->vregs[imm ..]; read them with smem_ptx_vec_reg */
};

enum smem_ptx_sreg {
    SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
    SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
    SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
    SR_LANEMASK_EQ, SR_LANEMASK_LT, SR_LANEMASK_LE, SR_LANEMASK_GT, SR_LANEMASK_GE,
    SR_CLOCK, SR_CLOCK64, SR_GLOBALTIMER, SR_DYN_SMEM, SR_TOTAL_SMEM,
    SR_CLUSTERID, SR_CLUSTER_CTARANK, SR_CLUSTER_NCTARANK,
    SR_ENVREG, /* %envreg0..31 (cooperative launches read them), %reserved_smem_offset_*
                  (cooperative groups' reserved shared memory): set by the driver, unknown */
    /* the thread-block cluster (SR_CLUSTERID is %clusterid.x) */
    SR_CLUSTERID_Y, SR_CLUSTERID_Z, SR_NCLUSTERID_X, SR_NCLUSTERID_Y, SR_NCLUSTERID_Z,
    SR_CLUSTER_CTAID_X, SR_CLUSTER_CTAID_Y, SR_CLUSTER_CTAID_Z, SR_CLUSTER_NCTAID_X,
    SR_CLUSTER_NCTAID_Y, SR_CLUSTER_NCTAID_Z, SR_IS_EXPLICIT_CLUSTER
};

struct smem_ptx_operand {
    uint8_t kind;  /* enum smem_ptx_opk */
    uint8_t neg;   /* a predicate operand written !%p */
    uint8_t count; /* OPK_VEC elements */
    uint8_t fdec;  /* OPK_IMM written as a decimal float (1.0, 2.5e-3): imm holds its bits in the
                      instruction's float type (f32 / f64), f64 bits where the type is not a float */
    int32_t reg[4];
    int32_t sym;   /* index into the function's symbols, -1 if none */
    int64_t imm;
};

/* Decoded opcodes, PO_<id> of each row of opcodes.def (the modifiers live in the instruction).
 * There: tex (tex, tld4, txq, suld, suq: ops[0] the destination; the rest is not read); sust,
 * sured (a surface store: no operand is read); vabsdiff4.d.a.b.add d, a, b, c (c + the sum of the
 * 4 bytes' |a - b|); barrier.cluster.arrive / .wait (mode MODE_CLUSTER_ARRIVE / _WAIT; tflags
 * SMEM_TF_RELAXED); mapa d, a, rank and getctarank d, a (space SP_SHARED with SMEM_TF_CLUSTER: a
 * 32-bit shared::cluster address, else generic); st.async [a], b, [mbar] and red.async.OP
 * [a], b, [mbar] (mode MODE_ATOM_*; a .shared::cluster address and the receiver's mbarrier);
 * ld / st / atom / red .shared::cluster: space SP_SHARED with SMEM_TF_CLUSTER. The matrix, barrier-object and tensor-core instructions
 * (OPF_TENSOR, ptx_tensor.c) are read only when smem_ptx_parse_opts is asked to (struct
 * smem_ptx_options.tensor_ops): ldmatrix (vec = matrices; ops: {d..}, [addr], space SP_SHARED or
 * SP_GENERIC), stmatrix (ops: [addr], {r..}), mbarrier (mode = MODE_MBAR_*; operands as the PTX
 * ISA writes them), mma.sync (ops d, a, b, c; shape_*, layout flags, type/type2/type3/type4),
 * wmma.load / store / mma (mode = MODE_WMMA_*), cp.async.bulk* and cp.reduce.async.bulk* (the bulk
 * copy engine, TMA: mode = MODE_BULK_*), wgmma (mode = MODE_WGMMA_*; mma_async: type D's, type2
 * A's, type3 B's). */
enum smem_ptx_opcode {
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp) PO_##id,
#include "smemlab/ptx/opcodes.def"
#undef OP
    PO_COUNT
};

/* What kind of instruction an opcode is (opcodes.def, class). */
enum smem_ptx_opclass { OPC_ARITH, OPC_MEMORY, OPC_BARRIER, OPC_WARP, OPC_CONTROL, OPC_MISC,
                        OPC_TEXTURE, OPC_TENSOR, OPC_ASYNC };

/* Flags of an opcode (opcodes.def, flags). */
#define OPF_NAME 0x1u     /* the parser reads its mnemonic as an instruction's first word */
#define OPF_DST 0x2u      /* ops[0] is written (the others only read their operands) */
#define OPF_LDST 0x4u     /* the ld/st family: ld, st, atom, red, ldu (a state space, an address) */
#define OPF_STORE 0x8u    /* of the ld/st family, those with no result (st, red) */
#define OPF_FP 0x10u      /* has a floating-point form computed by the emulator's fp arithmetic */
#define OPF_COLL 0x20u    /* a warp collective: its lanes exchange values, run together */
#define OPF_SYNC 0x40u    /* a thread stops here until others come (bar, bar.red) or for good */
#define OPF_SUSPEND 0x80u /* a thread may wait here on a phase (mbarrier) */
#define OPF_TENSOR 0x100u /* read only with smem_ptx_options.tensor_ops (ptx_tensor.c) */
#define OPF_LOAD 0x200u   /* of the ld/st family, the plain loads (ld, ldu) */
#define OPF_ATOMIC 0x400u /* of the ld/st family, the read-modify-writes (atom, red) */
#define OPF_CTABAR 0x800u /* a barrier of the block's threads (bar, bar.red, bar.arrive) */
#define OPF_ORDERS 0x1000u /* ptxas keeps a shared load on its side of it (smem_sass_ptx_clobbers;
                              st to shared or generic memory decides by its space) */

/* One opcode's row of opcodes.def; smem_ptx_ops[op] for any uint8_t op (zero past PO_COUNT: the
 * parser's 0xff for "no opcode yet" has no flags). */
struct smem_ptx_opinfo {
    const char *name; /* mnemonic */
    uint16_t flags;   /* OPF_* */
    uint8_t cls;      /* enum smem_ptx_opclass */
    uint8_t min_ops;  /* the fewest operands */
    int8_t mem_op;    /* the operand that is the address (ld/st family, cp.async), -1 none */
};
extern const struct smem_ptx_opinfo smem_ptx_ops[256];

static inline unsigned smem_op_flags(unsigned op) { return smem_ptx_ops[op & 0xffu].flags; }
/* the mnemonic of an opcode ("?" past the table) */
const char *smem_ptx_op_name(unsigned op);
/* class questions, from the table */
static inline int smem_op_writes_dst(unsigned op) { return (smem_op_flags(op) & OPF_DST) != 0; }
static inline int smem_op_is_ldst(unsigned op) { return (smem_op_flags(op) & OPF_LDST) != 0; }
static inline int smem_op_is_store(unsigned op) { return (smem_op_flags(op) & OPF_STORE) != 0; }
static inline int smem_op_is_load(unsigned op) { return (smem_op_flags(op) & OPF_LOAD) != 0; }
static inline int smem_op_is_atomic(unsigned op) { return (smem_op_flags(op) & OPF_ATOMIC) != 0; }
static inline int smem_op_is_collective(unsigned op) { return (smem_op_flags(op) & OPF_COLL) != 0; }
static inline int smem_op_is_tensor(unsigned op) { return (smem_op_flags(op) & OPF_TENSOR) != 0; }
static inline int smem_op_has_fp(unsigned op) { return (smem_op_flags(op) & OPF_FP) != 0; }
static inline int smem_op_is_cta_barrier(unsigned op) { return (smem_op_flags(op) & OPF_CTABAR) != 0; }
static inline int smem_op_orders_loads(unsigned op) { return (smem_op_flags(op) & OPF_ORDERS) != 0; }
/* a thread stops here: waits at a block barrier, or exits (not the collectives' warp sync) */
static inline int smem_op_stops_thread(unsigned op) { return (smem_op_flags(op) & OPF_SYNC) != 0; }
/* the operand that is the memory address of a ld/st-family instruction or cp.async, -1 none */
static inline int smem_op_mem_operand(unsigned op) { return smem_ptx_ops[op & 0xffu].mem_op; }

enum smem_ptx_space { SP_GENERIC = 0, SP_SHARED, SP_GLOBAL, SP_LOCAL, SP_PARAM, SP_CONST };

/* Comparison of setp/set/slct; boolean combiner of setp. */
enum smem_ptx_cmp {
    CMP_NONE = 0, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN
};
enum smem_ptx_boolop { BOP_NONE = 0, BOP_AND, BOP_OR, BOP_XOR };

/* Instruction modifiers folded into one field each. */
enum smem_ptx_mode {
    MODE_NONE = 0, MODE_LO, MODE_HI, MODE_WIDE,
    /* shfl */ MODE_UP, MODE_DOWN, MODE_BFLY, MODE_IDX,
    /* vote */ MODE_ALL, MODE_ANY, MODE_UNI, MODE_BALLOT,
    /* shf */ MODE_L_WRAP, MODE_L_CLAMP, MODE_R_WRAP, MODE_R_CLAMP,
    /* atom / red / redux */ MODE_ATOM_ADD, MODE_ATOM_INC, MODE_ATOM_DEC, MODE_ATOM_MIN,
    MODE_ATOM_MAX, MODE_ATOM_AND, MODE_ATOM_OR, MODE_ATOM_XOR, MODE_ATOM_EXCH, MODE_ATOM_CAS,
    /* prmt */ MODE_PRMT_F4E, MODE_PRMT_B4E, MODE_PRMT_RC8, MODE_PRMT_ECL, MODE_PRMT_ECR,
    MODE_PRMT_RC16,
    /* testp */ MODE_FINITE, MODE_INFINITE, MODE_NUMBER, MODE_NOTANUMBER, MODE_NORMAL,
    MODE_SUBNORMAL,
    /* cp.async (PO_CP_ASYNC): .ca / .cg; the group operations (PO_CP_ASYNC_WAIT) */
    MODE_CPA_CA, MODE_CPA_CG, MODE_CPA_COMMIT, MODE_CPA_WAIT_GROUP, MODE_CPA_WAIT_ALL,
    MODE_CPA_MBAR_ARRIVE,
    /* mbarrier */ MODE_MBAR_INIT, MODE_MBAR_INVAL, MODE_MBAR_ARRIVE, MODE_MBAR_ARRIVE_DROP,
    MODE_MBAR_EXPECT_TX, MODE_MBAR_COMPLETE_TX, MODE_MBAR_TEST_WAIT, MODE_MBAR_TRY_WAIT,
    MODE_MBAR_PENDING_COUNT,
    /* wmma */ MODE_WMMA_LOAD_A, MODE_WMMA_LOAD_B, MODE_WMMA_LOAD_C, MODE_WMMA_STORE_D, MODE_WMMA_MMA,
    /* cp.async.bulk (PO_CP_BULK): global -> shared with mbarrier::complete_tx [dst], [src], size,
       [mbar]; shared -> global .bulk_group [dst], [src], size; shared::cta -> shared::cluster;
       prefetch.L2 [src], size; commit_group; wait_group{.read} N; and the forms not emulated:
       .tensor (a tensor map's copies), cp.reduce.async.bulk, .multicast::cluster.
       The tensor forms (shape_m = the dimension, 1..5; tflags SMEM_TF_IM2COL / SMEM_TF_MULTICAST
       for the forms not emulated): TENSOR_G2S [dst], [map, {c0..}], [mbar] as ops[0], ops[1]
       (the map's address), ops[2 .. 1+dim] (the coordinates), ops[2+dim]; TENSOR_S2G
       [map, {c0..}], [src] as ops[0], ops[1 .. dim], ops[1+dim]; TENSOR_PREFETCH [map, {c0..}]
       as ops[0], ops[1 .. dim]; MODE_BULK_TENSOR: another direction. cp.reduce.async.bulk.tensor
       (tile): TENSOR_S2G with SMEM_TF_REDUCE and redop; MODE_BULK_REDUCE: the non-tensor
       reductions (not emulated) */
    MODE_BULK_G2S, MODE_BULK_S2G, MODE_BULK_S2S, MODE_BULK_PREFETCH, MODE_BULK_COMMIT,
    MODE_BULK_WAIT, MODE_BULK_TENSOR, MODE_BULK_REDUCE, MODE_BULK_MULTICAST,
    MODE_BULK_TENSOR_G2S, MODE_BULK_TENSOR_S2G, MODE_BULK_TENSOR_PREFETCH,
    /* wgmma (PO_WGMMA): .fence, .commit_group, .wait_group N, .mma_async d, a-desc | {a}, b-desc,
       scale-d {, imm-scale-a, imm-scale-b {, imm-trans-a}, imm-trans-b} (shape_n up to 256) */
    MODE_WGMMA_FENCE, MODE_WGMMA_COMMIT, MODE_WGMMA_WAIT, MODE_WGMMA_MMA,
    /* barrier.cluster (PO_BAR_CLUSTER) */ MODE_CLUSTER_ARRIVE, MODE_CLUSTER_WAIT
};

/* Flags of the matrix / barrier / async-copy instructions (struct smem_ptx_insn.tflags). */
#define SMEM_TF_TRANS 0x1u        /* ldmatrix / stmatrix .trans */
#define SMEM_TF_A_COL 0x2u        /* mma / wmma: A is .col (else .row) */
#define SMEM_TF_B_COL 0x4u        /* mma / wmma: B is .col */
#define SMEM_TF_PARITY 0x8u       /* mbarrier.test_wait / try_wait .parity: the operand is a phase parity */
#define SMEM_TF_CLUSTER 0x10u     /* .shared::cluster: the address may be another CTA's (its barrier) */
#define SMEM_TF_NOINC 0x20u       /* cp.async.mbarrier.arrive.noinc */
#define SMEM_TF_EXPECT_TX 0x40u   /* mbarrier.arrive.expect_tx */
#define SMEM_TF_NOCOMPLETE 0x80u  /* mbarrier.arrive.noComplete */
#define SMEM_TF_CACHE_HINT 0x100u /* .L2::cache_hint: the last operand is a cache policy (cp.async:
                                     ops[3] is the src-size only when nops is 5, or 4 without it) */
#define SMEM_TF_ACQUIRE 0x200u    /* .acquire (waits) */
#define SMEM_TF_RELEASE 0x400u    /* .release (arrives) */
#define SMEM_TF_RELAXED 0x800u    /* .relaxed */
#define SMEM_TF_XOR_POPC 0x1000u  /* mma .b1 .xor.popc */
#define SMEM_TF_AND_POPC 0x2000u  /* mma .b1 .and.popc */
#define SMEM_TF_IM2COL 0x4000u    /* cp.async.bulk.tensor .im2col / .im2col_no_offs */
#define SMEM_TF_MULTICAST 0x8000u /* cp.async.bulk.tensor .multicast::cluster */
#define SMEM_TF_SCOPE_CLUSTER 0x10000u /* .cluster scope (mbarrier, fences): orders the cluster */
#define SMEM_TF_PROXY_ASYNC 0x20000u /* fence.proxy.async, or fence.proxy.async::generic.release
                                       (generic to async): orders the generic proxy's writes before
                                       the async proxy (space: shared, global or none) */
#define SMEM_TF_REDUCE 0x40000u   /* cp.reduce.async.bulk.tensor (mode TENSOR_S2G): each element
                                     combined into global memory with redop */
#define SMEM_TF_SCOPE_CTA 0x80000u /* membar.cta, fence.<sem>.cta: orders the CTA only */
/* ld / st / atom / red: SMEM_TF_ACQUIRE (.acquire, .acq_rel), SMEM_TF_RELEASE (.release,
   .acq_rel), SMEM_TF_RELAXED (.relaxed); ld / st .volatile: vol (the ordering of global memory
   between threads: emu/global_race.c) */

enum smem_ptx_round { RND_NONE = 0, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI, RND_RPI,
                      RND_RNA /* nearest, ties away from zero (cvt to .tf32) */ };

/* Modifiers that change a result, kept for the emulator (struct smem_ptx_insn.mods). */
#define SMEM_MOD_APPROX 0x1u
#define SMEM_MOD_FULL 0x2u
#define SMEM_MOD_RELU 0x4u
#define SMEM_MOD_NAN 0x8u       /* min/max .NaN */
#define SMEM_MOD_XORSIGN 0x10u  /* min/max .xorsign.abs */
#define SMEM_MOD_SATFINITE 0x20u
#define SMEM_MOD_SHIFTAMT 0x40u /* bfind */
#define SMEM_MOD_NOFTZ 0x80u
#define SMEM_MOD_CC 0x100u      /* add.cc, sub.cc: the carry is not modelled */
#define SMEM_MOD_OOB 0x200u     /* fma .oob: OOB-NaN operands give 0 (not modelled) */
#define SMEM_MOD_TF32 0x400u    /* cvt.*.tf32.f32: the destination is a .tf32 in a .b32 */

#define SMEM_PTX_MAX_OPS 8
/* call [(r...),] f, (a...): ops[0].sym names f and ops[0].count is the number of return
 * parameters; ops[1..count] are they, ops[count+1..nops-1] the arguments (OPK_SYM each). A call
 * with more than fit, or through a register (a function pointer), has ops[0].imm = -1. */

struct smem_ptx_insn {
    uint8_t op;       /* enum smem_ptx_opcode */
    uint8_t type;     /* destination / operation type */
    uint8_t type2;    /* source type (cvt, set, slct) */
    uint8_t cmp;      /* enum smem_ptx_cmp */
    uint8_t boolop;   /* enum smem_ptx_boolop */
    uint8_t mode;     /* enum smem_ptx_mode */
    uint8_t space;    /* enum smem_ptx_space for memory ops; cvta: the space converted */
    uint8_t vec;      /* 1, 2 or 4 */
    uint8_t round;    /* enum smem_ptx_round */
    uint8_t sat, ftz, to; /* .sat, .ftz, cvta.to */
    uint8_t nops;
    uint8_t guard_neg;
    int32_t guard;    /* predicate register slot, -1 if none */
    uint32_t keep;    /* vector loads: components ptxas keeps (bit i = component i is used) */
    uint32_t mods;    /* SMEM_MOD_* */
    struct smem_ptx_operand ops[SMEM_PTX_MAX_OPS];
    uint32_t src_line;  /* PTX line of the instruction */
    uint32_t loc_file;  /* .loc file number (0 = none) */
    uint32_t loc_line;  /* source line (inlined code: the user's call site) */
    uint32_t loc_col;
    uint32_t inl_file, inl_line, inl_col; /* .loc ..., inlined_at (0 if none) */
    uint32_t chain;     /* inlined code: the frame (module->frames) of the line it is written on,
                           whose parents lead out to the kernel's own line (top_*);
                           SMEM_PTX_NO_FRAME when not inlined. loc_* is then the innermost line
                           outside the toolkit's headers (atomicAdd's caller, not the header) */
    uint32_t top_file, top_line, top_col; /* the kernel's own line (loc_* when not inlined) */
    int32_t call_target; /* PO_CALL: index of the callee in the module's functions, -1 extern */
    const char *call_name;
    uint8_t vol;        /* ld / st: 1 .volatile (warp-synchronous code relies on them), 2 .relaxed,
                           .acquire or .release (what one block may spin on, another writes) */
    /* matrix / barrier-object / tensor-core instructions (zero elsewhere) */
    uint8_t shape_m;          /* .m16n8k16: 16; ldmatrix .m8n8: 8 */
    uint16_t shape_n;         /* .m16n8k16: 8; wgmma .m64n256k16: 256 */
    uint16_t shape_k;         /* 16; 0 without a k */
    uint8_t type3, type4;     /* mma: B's and C's types (type: D's, type2: A's) */
    uint32_t tflags;          /* SMEM_TF_* */
    uint8_t in_recursion;     /* link.c: part of a recursive function's body, which every
                                 activation runs (lanes of a warp at different call depths run
                                 it together here; the GPU keeps call frames apart) */
    uint8_t redop;            /* cp.reduce.async.bulk.tensor: its operation, MODE_ATOM_ADD ..
                                 MODE_ATOM_XOR (the element type is the tensor map's) */
};

enum smem_ptx_symkind { SYM_SHARED, SYM_SHARED_EXTERN, SYM_PARAM, SYM_LOCAL, SYM_GLOBAL, SYM_CONST,
                        SYM_FUNC };

/* An element of a module variable's initializer that is the address of a symbol. */
struct smem_ptx_reloc {
    uint64_t offset;   /* byte offset of the element in the variable */
    char *sym;         /* the symbol whose address it holds */
    int64_t addend;
    uint8_t bytes;     /* element size */
    uint8_t generic;   /* written generic(sym) */
};

struct smem_ptx_symbol {
    char *name;
    uint8_t kind;      /* enum smem_ptx_symkind */
    uint8_t type;      /* declared element type */
    uint32_t align;
    uint64_t size;     /* bytes (0 for extern []) */
    uint64_t offset;   /* SYM_PARAM: byte offset in the parameter buffer */
    uint32_t decl_line;
    int module_level;  /* declared outside any function */
    /* module-level variables with an initializer (in module->globals only): its size bytes,
       and the elements that hold symbol addresses; NULL / 0 otherwise */
    uint8_t *init;
    struct smem_ptx_reloc *relocs;
    uint32_t nrelocs;
};

struct smem_ptx_func {
    char *name;            /* the mangled symbol */
    int is_entry;          /* .entry (kernel) vs .func */
    uint32_t decl_line;
    uint32_t nregs;        /* register slots */
    uint8_t *reg_type;     /* per slot */
    struct smem_ptx_symbol *syms;
    uint32_t nsyms;
    struct smem_ptx_insn *insns;
    uint32_t ninsns;
    uint32_t nparams;      /* the first nparams symbols are the parameters, in order */
    uint32_t nrets;        /* a .func's return parameters: symbols ret_sym[0..nrets-1] */
    int32_t ret_sym[4];
    uint64_t param_bytes;
    uint32_t maxntid[3], reqntid[3]; /* performance directives, 0 when absent */
    uint32_t reqnctapercluster[3];   /* cluster directives (__cluster_dims__), 0 when absent */
    uint32_t maxclusterrank;
    int explicitcluster;
    int32_t *vregs;        /* the registers of OPK_VECX operands */
    uint32_t nvregs;
    struct smem_error *error; /* the body could not be read (an unsupported instruction): why, and
                                 ninsns is 0; NULL when it was read */
    uint32_t error_file, error_line; /* the source line (.loc) it was at; line 0: unknown */
};

/* One step of an inline chain: a source position and the frame it was inlined into. */
#define SMEM_PTX_NO_FRAME 0xffffffffu
struct smem_ptx_frame {
    uint32_t file, line, col; /* .file number, source line and column */
    uint32_t parent;          /* the caller's frame, SMEM_PTX_NO_FRAME at the kernel's own line */
};

struct smem_ptx_module {
    char *name;            /* the name the parse was given (errors without a .loc name it) */
    char *version, *target;
    unsigned address_size;
    struct smem_ptx_func *funcs;
    uint32_t nfuncs;
    char **files;          /* .file N "path": files[N], NULL where undeclared */
    uint32_t nfiles;
    struct smem_ptx_frame *frames; /* inline chains (.loc ..., inlined_at), shared by insns */
    uint32_t nframes;
    struct smem_ptx_symbol *globals; /* module-level variables (shared ones included) */
    uint32_t nglobals;
};

/* Parses PTX text (len bytes, need not be NUL-terminated). name labels errors. Returns 0 and a
 * module to free with smem_ptx_free, or -1 with err filled (line:column of the fault).
 * A function that uses an instruction the emulator does not run yet (ldmatrix, stmatrix, mbarrier,
 * mma, wmma) keeps an error naming it and its line (func->error), as for any unsupported
 * instruction; smem_ptx_parse_opts with tensor_ops reads such functions whole. */
int smem_ptx_parse(const char *text, size_t len, const char *name, struct smem_ptx_module **out,
                   struct smem_error *err);

struct smem_ptx_options {
    int tensor_ops; /* read ldmatrix / stmatrix / mbarrier / mma / wmma into the body */
};
int smem_ptx_parse_opts(const char *text, size_t len, const char *name, const struct smem_ptx_options *opt,
                        struct smem_ptx_module **out, struct smem_error *err);

/* Register i of a vector operand (OPK_VEC or OPK_VECX) of an instruction of f; -1 for a sink. */
int32_t smem_ptx_vec_reg(const struct smem_ptx_func *f, const struct smem_ptx_operand *o, unsigned i);

/* The name of a matrix / barrier / tensor-core instruction for messages: "ldmatrix", "mma",
 * "mbarrier.try_wait", ...; NULL for the others. */
const char *smem_ptx_tensor_name(const struct smem_ptx_insn *in);
void smem_ptx_free(struct smem_ptx_module *m);

/* The function with this mangled name, or NULL. */
const struct smem_ptx_func *smem_ptx_find(const struct smem_ptx_module *m, const char *name);

/* The byte width of a type (PT_PRED: 1). */
unsigned smem_ptx_type_bytes(enum smem_ptx_type t);
/* the name of a type as PTX writes it after the dot ("" for PT_NONE or past the table) */
const char *smem_ptx_type_name(unsigned t);

#ifdef __cplusplus
}
#endif
#endif
