/* cases.h: the differential suite's combinations. Each combination (an opcode with one type and one
 * set of modifiers, or one warp collective, atomic or memory access form) is one PTX kernel; each
 * thread reads its operands from a global input buffer, runs the instruction and writes the result
 * bits to a global output buffer. The same code makes the kernels and inputs for the H100
 * (diffgen) and for the replay on the emulator (test_diff), so the golden outputs need no inputs
 * beside them. */
#ifndef SMEMLAB_TESTS_DIFF_CASES_H
#define SMEMLAB_TESTS_DIFF_CASES_H

#include <stddef.h>
#include <stdint.h>

#define DIFF_MAX_IN 6
#define DIFF_MAX_OUT 8
#define DIFF_POISON 0xEE /* every output byte before the kernel runs, on both sides */
#define DIFF_IN_BASE 0x0000020000000000ull  /* where the replay places the buffers */
#define DIFF_OUT_BASE 0x0000030000000000ull

/* How an operand's values are drawn. */
enum diff_cls {
    C_I8, C_I16, C_I32, C_I64, C_SHIFT, C_SMALL, C_DIV16, C_DIV32, C_DIV64, C_ZERO,
    C_F16, C_BF16, C_F32, C_F64, C_F16X2, C_BF16X2, C_F32TRIG, C_F32EX2, C_PRED,
    C_SEL,        /* prmt selectors */
    C_SHFLB,      /* shfl lane operand, per lane */
    C_SHFLB_W,    /* shfl lane operand, the same in a warp */
    C_SHFLC,      /* shfl clamp/segment operand, the same in a warp */
    C_WPRED,      /* predicates in per-warp patterns (all, none, one, random, ...) */
    C_BPRED,      /* predicates in per-block patterns */
    C_MATCH32, C_MATCH64, /* values with many equal lanes in a warp */
    C_WARPK,      /* 1..32, the same in a warp: the lanes that take part */
    C_I32W,       /* random, the same in a warp */
    C_COUNT
};

/* Output formats (for the approximate checks; bits are compared otherwise). */
enum diff_fmt { DF_B = 0, DF_PRED, DF_F16, DF_BF16, DF_F32, DF_F64, DF_F16X2, DF_BF16X2 };

/* Flags. */
#define DIFF_UNDEF_OK 1u    /* outputs the emulator calls unknown are undefined on the GPU too */
#define DIFF_SHARED 2u      /* the kernel has a shared array sm ($S: this thread's 16 bytes) */
#define DIFF_LOCAL 4u       /* the kernel has a local array lm */
#define DIFF_CANCEL 8u      /* float add/fma: a third of the cases cancel (rounding of tiny results) */
#define DIFF_B128 16u       /* the kernel declares .b128 registers %q0, %q1 */

/* Tolerances of approximate instructions (tests/diff/README.md gives each bound's source). */
enum diff_tol {
    TOL_EXACT = 0, TOL_RCP_F32, TOL_SQRT_F32, TOL_RSQRT_F32, TOL_RCP_F64, TOL_RSQRT_F64,
    TOL_SIN, TOL_COS, TOL_LG2, TOL_EX2_F32, TOL_EX2_F16, TOL_EX2_BF16, TOL_TANH_F32, TOL_TANH_F16,
    TOL_TANH_BF16, TOL_DIV_APPROX, TOL_DIV_FULL, TOL_RSQRT_F64FTZ, TOL_COUNT
};

struct diff_combo {
    char name[64];           /* the instruction as written, e.g. "add.rz.ftz.f32" (unique) */
    char kname[72];          /* the kernel's name */
    const char *group;       /* the PTX module it lives in */
    char prelude[400];       /* module-level declarations before the kernel (or "") */
    char body[1400];         /* instructions, with $-placeholders (cases.c) */
    unsigned nin, nout;
    uint8_t cls[DIFF_MAX_IN];
    uint8_t inw[DIFF_MAX_IN];   /* operand register: 1 pred, 2, 4 or 8 bytes */
    uint8_t outw[DIFF_MAX_OUT]; /* result: 1 (a predicate, stored as a byte), 2, 4 or 8 bytes */
    uint8_t outfmt[DIFF_MAX_OUT];
    uint8_t outmem[DIFF_MAX_OUT]; /* the body stores this output itself ($O<j>: its address) */
    unsigned ncases;
    unsigned block[3], grid[3];
    unsigned dyn_smem;
    unsigned flags;
    unsigned tol;            /* enum diff_tol */
};

struct diff_set {
    struct diff_combo *c;
    unsigned n, cap;
};

/* Every combination, in a fixed order. 0, or -1 out of memory. */
int diff_build(struct diff_set *s);
void diff_free(struct diff_set *s);

/* The groups (modules), in order of first appearance; returns how many (at most max). */
unsigned diff_groups(const struct diff_set *s, const char **out, unsigned max);

/* The PTX module of a group: its kernels, in order. malloc'd text (NULL: out of memory). */
char *diff_module_ptx(const struct diff_set *s, const char *group);
/* One combination's kernel alone, as a module. */
char *diff_kernel_ptx(const struct diff_combo *c);

/* Input and output buffer sizes, and the inputs (deterministic per combination name). */
size_t diff_in_size(const struct diff_combo *c);
size_t diff_out_size(const struct diff_combo *c);
void diff_inputs(const struct diff_combo *c, uint8_t *in);
/* Where output j of case i lies in the output buffer. */
size_t diff_out_offset(const struct diff_combo *c, unsigned j, unsigned i);

/* FNV-1a of the kernel text, the inputs and the layout: the golden data's check that it was made
 * from the same combination. */
uint64_t diff_hash(const struct diff_combo *c);

#endif
