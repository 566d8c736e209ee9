/* sol.h: the speed-of-light benchmarks (issue 7): matrix transpose and sums run at scale on the GPU
 * beside cudaMemcpy, cuBLAS geam, CUB DeviceReduce and torch, every result checked before it is
 * timed. The input functions and CPU references are pure; the runners take an open GPU. */
#ifndef SMEMLAB_SOL_H
#define SMEMLAB_SOL_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/gpu/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Inputs: element i of every input is a pure function of (i, seed), computed the same way by
 * the fill kernels (kernels/sol_transpose.cu, kernels/sol_reduce.cu) and torch (bench/sol/
 * torch_ref.py). Transpose values are bit patterns that stay exact through cuBLAS geam with alpha 1
 * and beta 0. */
uint32_t smem_sol_hash32(uint32_t x);
uint32_t smem_sol_mix(uint64_t i, uint32_t seed);
uint32_t smem_sol_val_f32(uint64_t i, uint32_t seed); /* bits of k/2^23 - 1, k < 2^24 */
uint16_t smem_sol_val_f16(uint64_t i, uint32_t seed); /* half bits, exponent < 16: |x| < 2 */
uint64_t smem_sol_val_f64(uint64_t i, uint32_t seed); /* bits of h/2^31 - 1 */
int32_t smem_sol_val_i32(uint64_t i, uint32_t seed);  /* reduce input: in [-128, 128) */
float smem_sol_val_rf32(uint64_t i, uint32_t seed);   /* reduce input: k/2^24 in [0, 1) */

/* The sums of the first n reduce inputs: exact (int64) and in float64. */
int64_t smem_sol_sum_i32(uint64_t n, uint32_t seed);
double smem_sol_sum_f32(uint64_t n, uint32_t seed);
/* The stated tolerance for a float32 sum of positive terms against the float64 reference:
 * |got - ref| <= SMEM_SOL_F32_RTOL * |ref|. Summing in float32 blocks of a few thousand terms and
 * then a tree leaves a relative error near sqrt(k) * 2^-24 (k terms per thread), well inside it;
 * int32 sums must be exact. */
#define SMEM_SOL_F32_RTOL 1e-5
int smem_sol_sum_f32_ok(double got, double ref);
int smem_sol_sum_i32_ok(int64_t got, int64_t ref); /* equal modulo 2^32, as an int32 sum wraps */

/* out (cols x rows) = transpose of in (rows x cols), elements of `elem` bytes (CPU reference). */
void smem_sol_transpose_cpu(void *out, const void *in, long long rows, long long cols, size_t elem);

/* ---- How smemlab launches its transpose (kernels/sol_transpose.cu) ------------------------------
 * out (cols x rows) = transpose of in (rows x cols), elements of elem bytes (2, 4 or 8), in and out the
 * device addresses (aligned to elem). The kernel is picked by shape and alignment:
 *   rows == 1 or cols == 1                      sol_transpose_copy_<t>   (a copy of the flat array)
 *   rows, cols multiples of 16/elem, in and out 16-byte aligned:
 *     cols <= 32 (tall-skinny)                  sol_transpose_narrow_<t> (tiles 32 columns wide)
 *     a row pitch (in or out) not a multiple of 128 bytes
 *                                               sol_transpose_big_<t>    (wider tiles)
 *     512 MB or more                            sol_transpose_large_<t>
 *     otherwise                                 sol_transpose_<t>
 * Tile shapes and the order tiles are walked in (row-major on a 2-D grid, or column-major on a 1-D
 * grid) differ by element size and kernel: src/gpu/sol.c's table, kept in step with the kernels'. 
 *   anything else                               sol_transpose_any_<t>    (16-byte words at memory's
 *                                                                          boundaries, shifted)
 * Every kernel takes (out, in, int rows, int cols). Returns 0, or -1 for an element size or a shape it
 * cannot launch (rows or cols below 1, rows x cols of 2^31 or more, more than 65535 tile rows on a
 * row-major grid). */
struct smem_sol_launch {
    char kernel[48];
    unsigned grid[3], block[3];
    int tile_rows, tile_cols; /* the tile (0 for the copy) */
};
int smem_sol_transpose_launch(size_t elem, long long rows, long long cols, uint64_t in, uint64_t out,
                              struct smem_sol_launch *l);
/* The launch of one kind of kernel whatever the shape ("" tiled, "big", "large", "narrow", "any",
 * "copy"): for tests that run every kernel on small matrices. -1 where the kind cannot take the shape
 * (the tiled kinds need the alignment above, the copy a row or a column). */
int smem_sol_transpose_launch_as(size_t elem, long long rows, long long cols, const char *kind, uint64_t in,
                                 uint64_t out, struct smem_sol_launch *l);

/* ---- Configuration per device (issue 34) ---------------------------------------------------------
 * A kind may have several compiled configurations (candidates: kernels/sol_transpose.cu's SOL_TILED /
 * SOL_ANY / SOL_COPY lines, src/gpu/sol.c's table). Candidate 0 is the one the H100's sweeps picked;
 * the bench measures the others against it at first use on a device and keeps the fastest where it
 * wins by more than a margin, cached per device, driver and kernel build (sol_bench.c). Kinds are
 * numbered 0 "" (tiled), 1 big, 2 large, 3 narrow, 4 any, 5 copy. */
#define SMEM_SOL_KINDS 6
#define SMEM_SOL_MAX_CANDIDATES 5
struct smem_sol_tuning {
    unsigned char pick[SMEM_SOL_KINDS][3];  /* candidate per kind and element size (f32, f16, f64 slots) */
    unsigned char known[SMEM_SOL_KINDS][3]; /* 0 not decided (candidate 0), 1 read from the cache, 2 measured */
    double ms[SMEM_SOL_KINDS][3][SMEM_SOL_MAX_CANDIDATES]; /* the candidates' medians when measured (0: none) */
};
const char *smem_sol_kind_name(int kind); /* "", "big", ...; NULL out of range */
int smem_sol_kind_index(const char *kind); /* -1 unknown */
/* Which kind smem_sol_transpose_launch takes for the shape and pointers; NULL for a bad element size
 * or shape. */
const char *smem_sol_transpose_kind(size_t elem, long long rows, long long cols, uint64_t in, uint64_t out);
/* How many candidates the kind has for the element size (0: unknown kind or size). */
int smem_sol_transpose_candidates(size_t elem, const char *kind);
/* The launch of candidate cand of a kind (launch_as is candidate 0); -1 as launch_as, or cand out of range. */
int smem_sol_transpose_launch_cand(size_t elem, long long rows, long long cols, const char *kind, int cand,
                                   uint64_t in, uint64_t out, struct smem_sol_launch *l);
/* smem_sol_transpose_launch with the picks of t (NULL: candidate 0 everywhere, which is what
 * smem_sol_transpose_launch does; a pick past the kind's candidates counts as 0). */
int smem_sol_transpose_launch_tuned(size_t elem, long long rows, long long cols, uint64_t in, uint64_t out,
                                    const struct smem_sol_tuning *t, struct smem_sol_launch *l);
/* The shape the candidates of a kind are measured on (a default size of that kind). 0, or -1. */
int smem_sol_tune_probe(size_t elem, const char *kind, long long *rows, long long *cols);
/* The candidate to keep from n median times (ms[0]: candidate 0): the fastest, if it is faster than
 * candidate 0 by more than margin (a fraction); else 0. Times <= 0 (failed or unverified) never win. */
int smem_sol_tune_pick(const double *ms, int n, double margin);
#define SMEM_SOL_TUNE_MARGIN 0.01
/* 64-bit FNV-1a of n bytes, continuing from h (start with 0xcbf29ce484222325). */
uint64_t smem_sol_fnv1a(const void *p, size_t n, uint64_t h);
/* One line of the cache (no newline): key, kind ("tiled" for ""), dtype, the picked kernel's name
 * and the candidates' medians in ms, tab-separated. key names the device, driver and kernel build
 * and has no tab or newline. 0, or -1 (bad argument or buffer too short). */
int smem_sol_tune_format(char *buf, size_t len, const char *key, int kind, size_t elem, const char *kernel,
                         const double *ms, int n);
/* Applies one cache line to t if its key is key (pick, known = 1, ms): 1 applied, 0 another key, a
 * blank or a # comment, -1 malformed or naming a kernel that is no candidate of this build. */
int smem_sol_tune_parse(const char *line, const char *key, struct smem_sol_tuning *t);

/* ---- Results ---------------------------------------------------------------------------------- */
enum smem_sol_dtype { SMEM_SOL_F32 = 0, SMEM_SOL_F16 = 1, SMEM_SOL_F64 = 2, SMEM_SOL_I32 = 3 };
const char *smem_sol_dtype_name(enum smem_sol_dtype t); /* "f32", "f16", "f64", "i32" */
size_t smem_sol_dtype_bytes(enum smem_sol_dtype t);
/* Parses "f32" | "f16" | "f64" | "i32"; -1 when unknown. */
int smem_sol_dtype_parse(const char *s);

struct smem_sol_row {
    char bench[12];     /* "transpose" | "reduce" */
    char dtype[4];
    long long rows, cols; /* reduce: rows = n, cols = 1 */
    char method[16];    /* transpose: smemlab memcpy cublas torch naive tile pad swizzle;
                           reduce: smemlab memcpy cub torch interleaved sequential */
    int reps;
    double median_ms, min_ms, max_ms;
    double gbps;        /* transpose, memcpy: (read + write bytes) / time; reduce: bytes read / time */
    double ratio_copy;  /* gbps / memcpy's gbps for the same case (0 when no memcpy row) */
    double ratio_peer;  /* best peer's median / this median (peers: cublas, torch, cub); 0 if none */
    int verified;       /* every element (transpose) / the sum (reduce) checked, before and after timing */
    char kernel[48];    /* our kernel's name (smemlab and the textbook variants), "" for peers */
    char note[128];     /* why a row is not verified, "" otherwise */
};

struct smem_sol_results {
    struct smem_sol_row *rows;
    size_t n, cap;
    struct smem_sol_tuning tuning; /* transpose: the candidates picked for this device (known != 0) */
};
void smem_sol_results_free(struct smem_sol_results *r);
/* Fills ratio_copy and ratio_peer of every row from the memcpy and peer rows of its case. */
void smem_sol_ratios(struct smem_sol_results *r);
/* Is this method a peer (what a user would otherwise pick)? */
int smem_sol_is_peer(const char *method);

/* ---- Runners ---------------------------------------------------------------------------------- */
struct smem_sol_opts {
    int reps;                 /* timed runs per method (median reported); at least 1 */
    int warmup;               /* untimed runs first */
    const char *kernel_dir;   /* holds sol_transpose.fatbin and sol_reduce.fatbin */
    const char *cub_lib;      /* libsmemlab_cub.so (CUB DeviceReduce), NULL = leave CUB out */
    int use_cublas;           /* load libcublas at run time for geam */
    const char *torch_script; /* bench/sol/torch_ref.py, NULL = leave torch out */
    const char *python;       /* interpreter for it ("python3" when NULL) */
    int baselines;            /* also the textbook variants (naive tile pad swizzle / interleaved
                                 sequential) */
    int pipelined;            /* transpose: our kernel is sol_transpose_pipelined_<t> on a persistent
                                 grid (1) or sol_transpose_<t>, one tile per block (0, default) */
    int tune;                 /* transpose: 0 candidate 0 everywhere (the H100's picks), 1 the cache's
                                 picks, measuring at first use what it lacks (default), 2 measure again */
    const char *tune_cache;   /* the cache file (appended to), NULL = none: measure on every run */
    int reduce_form;          /* reduce: enum smem_sol_reduce_form (smem_sol_reduce_launch_of) */
    void (*progress)(void *ctx, const char *msg); /* optional: one line per step */
    void *progress_ctx;
};
void smem_sol_opts_default(struct smem_sol_opts *o);

struct smem_sol_shape {
    long long rows, cols;
};

/* Runs every method on every (dtype, shape) and appends one row per method to res; rows whose
 * check failed have verified = 0 and a note. Returns SMEM_GPU_OK, or a gpu.h status with a sentence
 * in err when the GPU or a needed kernel fails (a missing optional peer is a progress note). */
int smem_sol_bench_transpose(struct smem_gpu *g, const struct smem_sol_opts *o,
                             const enum smem_sol_dtype *dtypes, size_t ndtypes,
                             const struct smem_sol_shape *shapes, size_t nshapes,
                             struct smem_sol_results *res, char *err, size_t errlen);
/* Ours' form of the sum (`bench reduce --form`): REGISTER the register form (sol_reduce_<dtype>: 1024
 * threads, 2 blocks a SM, the H100's) on every device; BULK the bulk-copy form (sol_reduce_bulk_<dtype>:
 * 256 threads, 4 blocks a SM, sm_90+ only); AUTO (the default) the bulk form on compute capability 9.0
 * and later, the register form before. Why: docs/speed-of-light.md, "Reduction" (on the H200 the bulk
 * form is ahead of the register form at every size in the product's conditions, session 6).
 * smem_sol_reduce_launch_of gives a form's kernel name infix (after "sol_reduce") and launch on a device
 * of compute capability cc_major.x. */
enum smem_sol_reduce_form { SMEM_SOL_REDUCE_AUTO, SMEM_SOL_REDUCE_REGISTER, SMEM_SOL_REDUCE_BULK };
struct smem_sol_reduce_launch {
    const char *infix; /* "" or "_bulk" */
    int threads, blocks_per_sm;
};
struct smem_sol_reduce_launch smem_sol_reduce_launch_of(int form, int cc_major);

/* Sums of n elements for each dtype (SMEM_SOL_I32, SMEM_SOL_F32) and n. */
int smem_sol_bench_reduce(struct smem_gpu *g, const struct smem_sol_opts *o,
                          const enum smem_sol_dtype *dtypes, size_t ndtypes, const long long *ns,
                          size_t nns, struct smem_sol_results *res, char *err, size_t errlen);

/* bench/sol/torch_ref.py in the source tree this library was built from. */
const char *smem_sol_default_torch_script(void);

/* The NVIDIA kernel-module version ("580.159.04") from /proc/driver/nvidia/version, or "" */
void smem_sol_driver_release(char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
