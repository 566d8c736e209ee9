/* cta.h: the CTA emulator. Runs every thread of each block of a launch through a kernel's PTX and
 * reports each warp-level shared-memory request (the lanes that execute one shared instruction for
 * the k-th time), barrier releases and what it could not know. */
#ifndef SMEMLAB_CTA_H
#define SMEMLAB_CTA_H

#include <stdint.h>

#include "smemlab/model/banks.h"
#include "smemlab/base/error.h"
#include "smemlab/ptx/ptx.h"
#include "smemlab/sass/sass.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_MAX_THREADS 1024
#define SMEM_MAX_SMEM_PER_BLOCK (227u * 1024u) /* opt-in limit of Hopper (H100) */

/* What a shared access does. Atomics, async copies (LDGSTS) and the matrix loads and stores
 * (LDSM, STSM) are counted apart from loads and stores, as Nsight Compute counts them. */
enum smem_access_op { SMEM_ACC_LD = 0, SMEM_ACC_ST = 1, SMEM_ACC_ATOM = 2, SMEM_ACC_CP_ASYNC = 3,
                      SMEM_ACC_LDSM = 4, SMEM_ACC_STSM = 5,
                      SMEM_ACC_GMMA = 6 /* wgmma's reads of A and B (HGMMA, QGMMA, IGMMA): a
                                           request a warp, its wavefronts in count */ };

/* One shared-memory access site: one SASS instruction the PTX instruction becomes (a vector load
 * of which ptxas keeps only some components becomes several). */
struct smem_cta_site {
    uint32_t insn;          /* instruction index in the function */
    uint32_t offset;        /* byte offset of this part within the instruction's vector */
    uint8_t width;          /* bytes per lane: 1, 2, 4, 8 or 16 */
    uint8_t op;             /* enum smem_access_op */
    uint8_t generic;        /* reached through a generic address */
    uint8_t cas;            /* atom/red.shared add of f32, f64, f16x2, bf16x2, u64/s64, and / or /
                               xor of 64 bits: ptxas makes it a compare-and-swap loop on sm_90
                               (LDS + ATOMS.CAST.SPIN a round; analysis/launch.c); 2: a 64-bit
                               integer add at a fixed address, which ptxas sums over the warp
                               first (one lane's loop); 3: a 64-bit min / max, whose loop ends
                               where the word already holds a value as good: its rounds depend
                               on the values, which the emulator works out (smem_access) */
    const char *file;       /* source file (NULL if the PTX has no line info) */
    uint32_t line, col;     /* source line (0 if unknown) */
    uint32_t ptx_line;      /* line of the instruction in the PTX */
    /* the instruction whose access this is (its lines); insn, where the request is made, differs
       only for a hoisted site (below) */
    uint32_t src_insn;
    /* set from the kernel's own SASS (src/sass/sass_fixed.c): 1 the access's grouping or width is
       the SASS's (a fixed-place LDS covering other loads too); 2 also hoisted: ptxas runs the LDS
       before the branch over it, so the request is made there (insn is the branch) by every
       lane reaching it, at the fixed window offset `at`; 3 a load whose addresses later loads
       of its line read again, which ptxas serves from its registers (they make no request) */
    uint8_t sass_placed;
    uint32_t at;
    /* 1 + the index of the kernel's SASS LDS this fixed-place load was matched to (its count is
       that instruction's, changed or not: the census leaves both out); 0 none */
    uint32_t sass_insn;
    /* a SASS-placed access: the bytes of it the program's own loads read, a bit each (ptxas may
       read more: a float3 as LDS.128); the hazards look at these alone. 0: every byte */
    uint16_t used;
    /* where the line's SASS differs from the PTX beyond the above (src/sass/sass_lines.c): 0 the
       access counts in both figures; 1 the SASS's only (a wider access ptxas made of this and
       other scalar accesses: each lane's address rounded down to a multiple of `round`, its
       bytes the members' own, which the hazards see through their sites); 2 the PTX's only (a
       member of such a group, or a load ptxas serves from registers: priced into the site's
       `ptx_*` figures and seen by the hazards, no request of the kernel's counts) */
    uint8_t figure;
    uint8_t round;
    /* a SASS-only load ptxas runs before its loop (figure 1): a lane's executions of it make one
       request until its address changes or the request is reported (emu/request.c) */
    uint8_t once;
};

/* A variable placed in the block's shared window. */
struct smem_cta_var {
    const char *name;       /* PTX name (mangled for demoted statics) */
    uint32_t offset, size;  /* size 0 + dynamic: the whole dynamic allocation */
    int dynamic;            /* extern __shared__ */
};

/* A kernel prepared for emulation: its sites and shared layout (read-only for callers). */
struct smem_cta_program {
    const struct smem_ptx_module *module;
    const struct smem_ptx_func *func;
    struct smem_cta_site *sites;
    uint32_t nsites;
    uint32_t *site_of_insn;  /* first site of each instruction, UINT32_MAX if none */
    struct smem_cta_var *vars;
    uint32_t nvars;
    uint32_t static_smem;    /* bytes of static shared memory */
    uint32_t dyn_offset;     /* where dynamic shared memory starts */
    uint8_t *param_is_ptr;   /* per parameter: a pointer (its value flows into an address) */
    uint32_t *local_offset;  /* per symbol: offset of a local or shared one in its window */
    uint32_t local_size;     /* bytes of local memory per thread */
    uint8_t *fast;           /* per instruction: a fast-path kind for common integer ops, or 0 */
    /* per instruction: NULL, or for an add / sub ptxas fuses with the mul of its source into an
       FFMA (ptx/sass_fma.c), the same instruction written as an fma of the mul's sources */
    struct smem_ptx_insn **fused_at;
    struct smem_ptx_insn *fused;
    uint32_t nfused;
    /* per instruction: the instruction whose site carries its shared access when ptxas merges
       it into a wider one (the SASS model's groups and the SASS's own, src/sass/sass_fixed.c),
       else -1 */
    int32_t *merged_into;
    struct smem_ptx_func *flat; /* the kernel with its calls inlined (smemlab/ptx/link.h), which
                                   func then points at; NULL when it calls nothing to inline */
};

/* A warp-level shared-memory request. Addresses are byte offsets in the block's shared window. */
struct smem_access {
    uint32_t site;
    uint32_t block;         /* linear block index */
    uint32_t warp;          /* warp in the block */
    uint32_t interval;      /* barrier intervals the block had completed when this ran */
    uint32_t active;        /* lanes in the request */
    uint32_t unknown;       /* lanes whose address depends on data the analysis cannot know */
    uint32_t oob;           /* lanes whose access falls outside the block's shared allocation */
    uint32_t same;          /* stores: lanes that wrote the value the bytes already held (both
                               known); racecheck does not count such a write as a second write */
    uint32_t wsync[SMEM_WARP]; /* per lane: __syncwarp()s it had passed (warp-level ordering) */
    uint32_t addr[SMEM_WARP];
    uint8_t width, op;
    /* SMEM_ACC_LDSM / STSM: the matrices (1, 2, 4; lanes 0 .. 8*count-1 give the rows; the
       other lanes' addresses repeat them); SMEM_ACC_CP_ASYNC: 1 for .cg (bypass); SMEM_ACC_GMMA:
       the request's wavefronts (its addresses are not given: the 16-byte chunks the wgmma read
       come to the hazards as `landed` reads) */
    uint8_t count;
    /* SMEM_ACC_CP_ASYNC: the low 32 bits of each lane's global source address (the cost of a
       copy depends on its lines, sectors and banks; one warp's sources lie within 4 GB) */
    uint32_t src[SMEM_WARP];
    /* SMEM_ACC_CP_ASYNC: the lanes whose src-size is below the copy's size (0: zero-fill) and, for
       them, the bytes read (the rest of the copy is zeros) */
    uint32_t partial;
    uint8_t src_size[SMEM_WARP];
    /* SMEM_ACC_ATOM of a site with cas 3 (64-bit min / max): per lane, the rounds of ptxas's
       loop it takes part in (an LDS each) in src_size[], and the swaps it tries (an ATOMS each)
       in src[] */
    /* 1: no request but where a cp.async's bytes land for the hazards (its thread's
       cp.async.wait_group / wait_all / cp.async.mbarrier.arrive): a write by that lane there,
       then (the copy was reported as a request, and a write, when it was issued); with
       SMEM_ACC_GMMA: 16-byte chunks a wgmma read, a read there */
    uint8_t landed;
};

/* A barrier release (bar.sync / __syncthreads). */
struct smem_cta_barrier {
    uint32_t block;
    uint32_t interval;      /* the interval this barrier closes */
    uint32_t id;            /* barrier resource (0 for __syncthreads) */
    uint32_t insn_a, insn_b; /* two of the instructions threads waited at (equal if one) */
    uint32_t arrived;       /* threads that waited */
    uint32_t expected;      /* threads the barrier expected */
    uint32_t exited;        /* threads of the block that had exited */
    int divergent;          /* threads waited at different instructions */
};

/* Something the emulation could not know; it stops the block's run (never guessed). */
struct smem_cta_unknown {
    uint32_t insn;          /* the instruction whose outcome depended on unknown data */
    const char *what;       /* "branch", "shared address", "loop bound", ... */
};

/* An access to global memory outside every region of the launch's global memory (below). */
enum smem_global_fault_kind { SMEM_GFAULT_LOAD = 0, SMEM_GFAULT_STORE = 1, SMEM_GFAULT_ATOM = 2,
                              SMEM_GFAULT_MISALIGNED = 3, SMEM_GFAULT_READONLY = 4,
                              /* not a fault: a store, inside a region whose bytes are all taken as
                                 known (known NULL), of a value the emulator does not know (an
                                 unwritten register, shared memory read before any write, %clock):
                                 its bits are written anyway and the access goes on */
                              SMEM_GFAULT_UNKNOWN_VALUE = 5,
                              /* a kernel's free of a pointer no malloc returned, of a block freed
                                 already (addr the pointer, size 0) */
                              SMEM_GFAULT_BAD_FREE = 6, SMEM_GFAULT_DOUBLE_FREE = 7 };
struct smem_global_fault {
    uint8_t kind;           /* enum smem_global_fault_kind */
    uint8_t op;             /* enum smem_global_fault_kind of the access: load, store or atom */
    uint8_t space;          /* enum smem_ptx_space the instruction names (global, const, generic) */
    uint32_t size;          /* bytes accessed */
    uint64_t addr;          /* the device address */
    uint32_t block;         /* linear block index */
    uint32_t thread;        /* linear thread index in the block */
    uint32_t insn;          /* the instruction */
};

/* A wgmma read an operand through a matrix descriptor whose swizzle is not the one the TMA load
 * that wrote those bytes used (cta_wgmma.c, the layout check; swizzles in the tensor map's
 * numbering: 0 none, 1 32B, 2 64B, 3 128B). */
struct smem_cta_layout {
    uint32_t block;         /* linear block index */
    uint32_t insn;          /* the wgmma.mma_async */
    uint32_t tma_insn;      /* the cp.async.bulk.tensor that wrote the first chunk read otherwise */
    uint32_t address;       /* that chunk's byte offset in the block's shared window */
    char operand;           /* 'A' or 'B' */
    uint8_t read_swizzle;   /* the descriptor's */
    uint8_t mn;             /* the operand read MN-major (imm-trans 1), else K-major */
    uint8_t written_swizzle; /* the tensor map's */
};

/* A wgmma read an operand byte that a generic-proxy write (st / atom / red / stmatrix on shared
 * memory, a cp.async landing) left with no fence.proxy.async by the writing thread since: the
 * PTX ISA requires one before the async proxy (wgmma) reads it (cta_wgmma.c, the proxy-fence
 * check; docs/analyzer.md). */
struct smem_cta_proxy_fence {
    uint32_t block;         /* linear block index */
    uint32_t insn;          /* the wgmma.mma_async */
    uint32_t write_insn;    /* the write */
    uint32_t thread;        /* the writing thread (linear in the block) */
    uint32_t address;       /* the byte's offset in the block's shared window */
    char operand;           /* 'A' or 'B' */
};

/* One warp's access to the shared memory of another CTA of its cluster (distributed shared
 * memory), as the H200 counts it (tests/run/h200-cluster-dsmem-ncu.csv): one request per
 * warp-level execution (smsp__sass_inst_executed_op_dshared_<op>), the bytes its lanes move
 * (l1tex__t_bytes_pipe_lsu_mem_dshared_op_<op>; l1tex__m_xbar2l1tex_read_bytes_mem_dshared is
 * these, twice them for atomics). An access of the own CTA through a shared::cluster address is
 * an ordinary shared one (a request of its site), as there. */
enum smem_dshared_op { SMEM_DSH_LD = 0, SMEM_DSH_ST, SMEM_DSH_ATOM /* atom, red */,
                       SMEM_DSH_STAS /* st.async */, SMEM_DSH_REDAS /* red.async */,
                       SMEM_DSH_TMA_ST /* cp.async.bulk shared::cta -> shared::cluster */,
                       SMEM_DSH_NOPS };
struct smem_dshared {
    uint32_t insn;          /* the instruction */
    uint32_t block;         /* linear index of the block that accesses */
    uint32_t target_block;  /* ... and of the block whose memory it is (the first lane's) */
    uint32_t warp;
    uint32_t lanes;         /* the lanes that access another CTA */
    uint32_t bytes;
    uint8_t op;             /* enum smem_dshared_op */
};

/* Two CTAs of a cluster access one shared byte of one of them with no barrier.cluster and no
 * mbarrier phase completing in the cluster between the two, at least one writing (a race over
 * distributed shared memory; emu/memory.c, emu_cluster_shadow). */
struct smem_cta_cluster_race {
    uint32_t insn[2];       /* the earlier access's instruction, then the later's (as run) */
    uint8_t write[2];
    uint32_t rank[2];       /* the CTAs that accessed, by rank in the cluster */
    uint32_t owner;         /* ... and the one whose memory it is */
    uint32_t block;         /* the owner's linear block index */
    uint32_t address;       /* the byte's offset in the owner's shared window */
};

/* Two threads of a launch accessed one byte of global memory, at least one writing, not both
 * atomically nor both strongly, with nothing ordering them (emu/global_race.c: a barrier of their
 * block, a release their block made that the other's acquired, the kernel's boundaries); only
 * with smem_global_memory.races. */
struct smem_cta_global_race {
    uint32_t insn[2];       /* the earlier access's instruction, then the later's (as run) */
    uint8_t write[2];
    uint32_t thread[2];     /* linear thread index in its block */
    uint32_t block[2];      /* linear block index */
    uint64_t address;       /* the device address of the first byte both accessed */
};

struct smem_cta_hooks {
    void *ctx;
    void (*access)(void *ctx, const struct smem_access *a);
    void (*barrier)(void *ctx, const struct smem_cta_barrier *b);
    void (*layout)(void *ctx, const struct smem_cta_layout *e); /* may be NULL */
    void (*dshared)(void *ctx, const struct smem_dshared *e); /* may be NULL */
    void (*cluster_race)(void *ctx, const struct smem_cta_cluster_race *e); /* may be NULL */
    void (*proxy_fence)(void *ctx, const struct smem_cta_proxy_fence *e); /* may be NULL */
    void (*global_race)(void *ctx, const struct smem_cta_global_race *e); /* may be NULL */
};

/* Global memory for a launch (the differential tests; `smemlab run`): device address ranges backed
 * by host buffers. ld/st/atom/red on .global and .const addresses, and generic addresses outside
 * the shared and local windows, read and write them; nothing else changes. Without one (analyze),
 * global memory is unknown: loads give unknown values and stores are dropped. */
struct smem_global_region {
    uint64_t base, size;    /* device addresses [base, base + size) */
    uint8_t *host;          /* the size bytes behind them */
    uint8_t *known;         /* optional, per byte: 0 = a value the analysis cannot know; NULL: all
                               known (stores of unknown values then write their bits anyway) */
    int readonly;           /* constant memory: a store or atomic is a fault */
    int heap;               /* additive: the device heap: only its live blocks may be accessed
                               (smem_global_memory.heap_live), else a fault */
};

/* Where the caller placed a module-level .global or .const variable (by its PTX name). */
struct smem_global_symbol {
    const char *name;
    uint64_t addr;
};

struct smem_global_memory {
    const struct smem_global_region *regions; /* any order; they must not overlap */
    unsigned nregions;
    const struct smem_global_symbol *symbols; /* unlisted variables keep an address in no region */
    unsigned nsymbols;
    /* An access outside every region (or misaligned, or a store to a read-only region) touches no
     * host memory and is given to fault (if set). faults_stop: it then fails the run with a
     * located message (kind, size, address, thread, block); else a load gives an unknown value
     * and a store is dropped. */
    int faults_stop;
    void (*fault)(void *ctx, const struct smem_global_fault *f);
    void *fault_ctx;
    /* optional, one per region (NULL entries allowed): per-byte marks the emulator sets to 1
       when the launch reads (read_marks) or writes (write_marks) the byte; plain stores of 1,
       so blocks run on several threads may share them (smemlab run proves with them that a
       repeated launch would do what an earlier one did) */
    uint8_t *const *read_marks;
    uint8_t *const *write_marks;
    /* optional (initcheck), one per region (NULL entries: every byte taken as written): per-byte
       marks, 1 once something wrote the byte; a load that finds a byte of its access unmarked is
       given to uninit (its thread, block, instruction, address and size; ctx fault_ctx), a store
       or an atomic marks its bytes (plain stores of 1, as write_marks) */
    uint8_t *const *init_marks;
    void (*uninit)(void *ctx, const struct smem_global_fault *f);
    /* optional: device printf. A call to vprintf gives the format's device address and the
       thread's argument buffer (from the buffer's start to the end of the thread's local memory,
       whatever the format needs of it; NULL and 0 when the call passed none). */
    void (*print)(void *ctx, uint32_t block, uint32_t thread, uint64_t format,
                  const uint8_t *args, size_t nargs);
    void *print_ctx;
    /* optional: look for races on global memory between the launch's threads (emu/global_race.c),
       given to the hooks' global_race; its blocks must run in one smem_cta_run (no slices) */
    int races;
    /* optional: the device heap of kernels' malloc / free (ctx heap_ctx). dmalloc: thread's
       malloc(size) at instruction insn, the block's address (0: NULL); dfree: 0 done (or NULL),
       1 no block starts at p (a fault SMEM_GFAULT_BAD_FREE), 2 freed already
       (SMEM_GFAULT_DOUBLE_FREE); heap_live: 1 when [a, a + n) lies in a live block of the region
       marked heap (else the access is a fault). Without dmalloc a call to malloc is refused. */
    uint64_t (*dmalloc)(void *ctx, uint32_t insn, uint64_t size);
    int (*dfree)(void *ctx, uint64_t p);
    int (*heap_live)(void *ctx, uint64_t a, unsigned n);
    void *heap_ctx;
};

struct smem_param_value {
    int set;                /* given by the user */
    uint64_t bits;
};

struct smem_launch {
    unsigned block[3], grid[3];
    /* thread-block cluster dimensions (the grid divides by them; at most 16 blocks); 0: the
       kernel's .reqnctapercluster, else none (clusters of one). The blocks of a cluster run
       together; sample_blocks, block_first / block_count count whole clusters (below) */
    unsigned cluster[3];
    uint32_t dyn_smem;
    const struct smem_param_value *params; /* indexed like the kernel's parameters; may be NULL */
    unsigned nparams;
    uint64_t max_steps;     /* thread-instructions per block; 0 = default (200 million) */
    unsigned sample_blocks; /* 0 = every block; else this many, spread over the grid */
    const struct smem_global_memory *global; /* NULL: global memory unknown (analyze) */
    /* optional: the whole parameter buffer (the PTX parameter layout), every byte known; it
     * overrides params */
    const uint8_t *param_buf;
    uint64_t param_buf_size;
    /* optional: run only blocks [block_first, block_first + block_count) of those the launch
       runs (the grid's linear block indices; with sample_blocks, the sample's), so a caller can
       spread one launch over several threads; 0: every block. With clusters of C blocks, blocks
       are counted cluster by cluster (index = cluster * C + rank) and a slice runs the clusters
       whose first block it holds; a sample is of whole clusters */
    uint64_t block_first, block_count;
};

struct smem_cta_result {
    uint64_t steps;          /* thread-instructions executed */
    uint64_t blocks_run;
    uint64_t blocks_total;
    int complete;            /* every thread of every block analysed ran to its end */
    struct smem_cta_unknown unknown; /* when !complete: why */
    uint32_t unknown_block;
};

/* Prepares func of m for emulation with dyn_smem bytes of dynamic shared memory. */
int smem_cta_prepare(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                     uint32_t dyn_smem, struct smem_cta_program **out, struct smem_error *err);
/* The same, with ptxas's sm_90 code of the module (NULL: none): where it shows what ptxas made
 * of the kernel's loads from fixed places of shared memory (merged wider, or run before the
 * branch over them), the sites follow it (docs/analyzer.md, "Fixed places from the SASS"). */
int smem_cta_prepare_sass(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                          uint32_t dyn_smem, const struct smem_sass_module *sass,
                          struct smem_cta_program **out, struct smem_error *err);
void smem_cta_program_free(struct smem_cta_program *p);

/* Checks a launch against a real GPU's limits (1024 threads, 227 KB shared memory per block). */
int smem_cta_check_launch(const struct smem_cta_program *p, const struct smem_launch *l,
                          struct smem_error *err);

/* Runs the launch. Returns 0 (res->complete says whether every thread ran to its end) or -1 with
 * err (unsupported instruction, step budget exhausted, deadlock), located at the PTX line. */
int smem_cta_run(const struct smem_cta_program *p, const struct smem_launch *l,
                 const struct smem_cta_hooks *hooks, struct smem_cta_result *res,
                 struct smem_error *err);

#ifdef __cplusplus
}
#endif
#endif
