/* experiments.c: the table of every experiment (kernels/, launch, arguments, H100 counterpart) and
 * the CPU references that define each kernel's correct output. Pure data and pure functions: the
 * only side effect is the host buffers smem_exp_data_alloc hands out.
 * Mostly data, one row per experiment, and the CPU reference of each kernel file beside the rows
 * that use it. */
#include "smemlab/lab/experiments.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The rows of EXPERIMENTS.md ---------------------------------------------------------------- */

static const struct smem_exp_row rows[] = {
    {1, "Square tile 32x32, block 32x32: setRowReadRow, setColReadCol, setRowReadCol", "000,003,004",
     "1 / 32 / 32 (ld) transactions per request"},
    {2, "Same with dynamic shared memory: setRowReadColDyn (row_idx, col_idx)", "000,003,004",
     "same cost as static; launch's third argument"},
    {3, "Padding, static and dynamic: setRowReadColPad, setRowReadColDynPad (IPAD 1)", "000,003,004",
     "conflict-free"},
    {4, "Kernel-scope vs file-scope extern __shared__ declaration", "000,004", "same code, same cost"},
    {5, "Rectangle 32x16, block 32x16: RowRow(2), ColCol(2), RowCol, Dyn, Pad and DynPad (IPAD 1, 2)",
     "000,003,004", "16-way; IPAD 1 leaves 2-way, IPAD 2 clean"},
    {6, "Print the output arrays of small tiles (the programs' iprintf mode)", "004",
     "the transposed indices, so the mapping is visible"},
    {7, "Bank-size query (cudaDeviceGetSharedMemConfig; Kepler's 8-byte mode)", "003,004",
     "today: 4-byte banks; what 8-byte mode would change"},
    {8, "Array reverse, static s[64] and dynamic extern s[], n = 64", "001",
     "correct result, conflict-free"},
    {9, "Several arrays in one dynamic allocation (int / float / char, and char + float)", "001,002",
     "sizes and alignment of each part; cost per part"},
    {10, "Bank mapping (cinema seats): stride 1, a permutation, stride 2, 8-way, broadcast, multicast",
     "001", "one picture each"},
    {11, "Sub-word data: char, short accesses", "001", "no conflict within a word"},
    {12, "Stride rule: stride s conflicts with gcd(s, 32) lanes; odd strides are free", "001",
     "table over s"},
    {13, "Reduction of 1024 values: interleaved (index = 2*i*tid) vs sequential", "001",
     "conflicts per step; time at scale"},
    {14, "Static allocation sizes (int i; float f_array[10] = 44 bytes per block) and occupancy", "002",
     "bytes per block, blocks per SM"},
    {15, "L1 / shared split: cudaFuncSetCacheConfig then, the shared-memory carveout now", "002",
     "effect on a shared-heavy kernel"},
    {16, "Race conditions: Racey (shared and global), read-modify-write i++", "002",
     "hazard reported; varying result"},
    {17, "Barrier: single-thread increments between __syncthreads() (2); barrier in divergent code",
     "001,002", "correct with barriers; divergence reported"},
    {18, "Atomics: atomicAdd from 2048 threads", "002", "always 2048"},
    {19, "Access-pattern table: arr[0], arr[blockIdx.x], arr[tid], arr[tid/2], arr[tid+71], *2, *3, "
         "*8, *128, *129",
     "002", "broadcast, multicast, 2/8/32-way, free"},
    {20, "struct Point4D 4-way conflict and the 5-word padded struct", "002",
     "4-way, then conflict-free"},
    {21, "Timing as the documents did (one block) and as it should be done (at scale)", "000,004",
     "launch overhead vs bank effect"},
};

size_t smem_exp_row_count(void)
{
    return sizeof rows / sizeof rows[0];
}

const struct smem_exp_row *smem_exp_row_at(size_t i)
{
    return i < smem_exp_row_count() ? &rows[i] : NULL;
}

/* ---- References ---------------------------------------------------------------------------------
 * Each reference receives the host copies of the arguments as they were before the launch and
 * writes what the outputs must hold after it. Arithmetic the GPU does on int wraps: it is done here
 * on uint32_t, which wraps the same way without undefined behaviour. */

static unsigned nthreads(const struct smem_experiment *e)
{
    return e->block[0] * e->block[1] * e->block[2];
}

static unsigned nblocks(const struct smem_experiment *e)
{
    return e->grid[0] * e->grid[1] * e->grid[2];
}

/* Word offsets of the tile kernels (square.cu, square_filescope.cu, rect.cu, scale.cu):
 * ROW = ty*P + tx, TCOL = tx*P + ty (tile[tx][ty]), RCOL = icol*P + irow with irow = idx / by,
 * icol = idx % by (the rectangle's transposed coordinates). */
enum tile_form { T_ROW, T_TCOL, T_RCOL };

struct tile_prog {
    const char *name;
    enum tile_form st, ld;
    unsigned pitch; /* words a row */
};

static const struct tile_prog tile_progs[] = {
    {"square/setRowReadRow", T_ROW, T_ROW, 32},
    {"square/setColReadCol", T_TCOL, T_TCOL, 32},
    {"square/setRowReadCol", T_ROW, T_TCOL, 32},
    {"square/setRowReadColDyn", T_ROW, T_TCOL, 32},
    {"square/setRowReadColPad", T_ROW, T_TCOL, 33},
    {"square/setRowReadColDynPad", T_ROW, T_TCOL, 33},
    {"square_filescope/setRowReadColDyn", T_ROW, T_TCOL, 32},
    {"rect/setRowReadRow", T_ROW, T_ROW, 32},
    {"rect/setRowReadRow2", T_ROW, T_ROW, 32},
    {"rect/setColReadCol", T_TCOL, T_TCOL, 16},
    {"rect/setColReadCol2", T_RCOL, T_RCOL, 32},
    {"rect/setRowReadCol", T_ROW, T_RCOL, 32},
    {"rect/setRowReadColDyn", T_ROW, T_RCOL, 32},
    {"rect/setRowReadColPad1", T_ROW, T_RCOL, 33},
    {"rect/setRowReadColDynPad1", T_ROW, T_RCOL, 33},
    {"rect/setRowReadColPad2", T_ROW, T_RCOL, 34},
    {"rect/setRowReadColDynPad2", T_ROW, T_RCOL, 34},
    /* At scale: loads shifted by k along the read direction (see scale.cu). */
    {"scale/scaleSquareRowRow", T_ROW, T_ROW, 32},
    {"scale/scaleSquareColCol", T_TCOL, T_TCOL, 32},
    {"scale/scaleSquareRowCol", T_ROW, T_TCOL, 32},
    {"scale/scaleSquareRowColPad", T_ROW, T_TCOL, 33},
    {"scale/scaleRectRowRow", T_ROW, T_ROW, 32},
    {"scale/scaleRectColCol", T_TCOL, T_TCOL, 16},
    {"scale/scaleRectRowCol", T_ROW, T_RCOL, 32},
    {"scale/scaleRectRowColPad1", T_ROW, T_RCOL, 33},
    {"scale/scaleRectRowColPad2", T_ROW, T_RCOL, 34},
};

static const struct tile_prog *tile_prog_of(const struct smem_experiment *e)
{
    for (size_t i = 0; i < sizeof tile_progs / sizeof tile_progs[0]; i++)
        if (!strcmp(tile_progs[i].name, e->name))
            return &tile_progs[i];
    return NULL;
}

/* Offset of thread (tx, ty) in form f; shift k moves along the read direction (scale.cu). */
static unsigned tile_offset(enum tile_form f, unsigned pitch, unsigned bx, unsigned by, unsigned tx,
                            unsigned ty, unsigned k)
{
    unsigned idx = ty * bx + tx;
    switch (f) {
    case T_ROW:
        return ty * pitch + (tx + k) % bx;
    case T_TCOL:
        return tx * pitch + (ty + k) % by;
    case T_RCOL:
    default:
        return (idx % by) * pitch + (idx / by + k) % bx; /* idx / by < bx */
    }
}

/* The largest tile any program here uses, in words (32 rows of 34). */
#define TILE_MAX_WORDS (34u * 32u)
#define TILE_K 16u /* loads per repetition in scale.cu */

/* owner[w] = the thread index stored at word w of the tile (-1 if none). */
static int tile_owners(const struct tile_prog *tp, unsigned bx, unsigned by, int *owner)
{
    for (unsigned w = 0; w < TILE_MAX_WORDS; w++)
        owner[w] = -1;
    for (unsigned ty = 0; ty < by; ty++)
        for (unsigned tx = 0; tx < bx; tx++) {
            unsigned w = tile_offset(tp->st, tp->pitch, bx, by, tx, ty, 0);
            if (w >= TILE_MAX_WORDS)
                return -1;
            owner[w] = (int)(ty * bx + tx);
        }
    return 0;
}

/* The documents' tile kernels: out[block * threads + idx] = the index stored where idx reads. */
static int ref_tile(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const struct tile_prog *tp = tile_prog_of(e);
    int owner[TILE_MAX_WORDS];
    unsigned bx = e->block[0], by = e->block[1], nt = nthreads(e);
    if (!tp || tile_owners(tp, bx, by, owner))
        return -1;
    int32_t *out = d->bufs[0];
    for (unsigned ty = 0; ty < by; ty++)
        for (unsigned tx = 0; tx < bx; tx++) {
            unsigned w = tile_offset(tp->ld, tp->pitch, bx, by, tx, ty, 0);
            if (w >= TILE_MAX_WORDS || owner[w] < 0)
                return -1;
            for (unsigned b = 0; b < nblocks(e); b++)
                out[(size_t)b * nt + ty * bx + tx] = owner[w];
        }
    return 0;
}

/* scale.cu tiles: acc = sum over reps r and shifts k of (owner of the k-th load word) + r. */
static int ref_scale_tile(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const struct tile_prog *tp = tile_prog_of(e);
    int owner[TILE_MAX_WORDS];
    unsigned bx = e->block[0], by = e->block[1], nt = nthreads(e);
    uint32_t reps = (uint32_t)d->vals[1];
    if (!tp || tile_owners(tp, bx, by, owner))
        return -1;
    int32_t *out = d->bufs[0];
    uint32_t rsum = reps * (reps - 1) / 2; /* wraps like the GPU's int */
    for (unsigned ty = 0; ty < by; ty++)
        for (unsigned tx = 0; tx < bx; tx++) {
            uint32_t per_rep = 0;
            for (unsigned k = 0; k < TILE_K; k++) {
                unsigned w = tile_offset(tp->ld, tp->pitch, bx, by, tx, ty, k);
                if (w >= TILE_MAX_WORDS || owner[w] < 0)
                    return -1;
                per_rep += (uint32_t)owner[w];
            }
            uint32_t acc = reps * per_rep + TILE_K * rsum;
            for (unsigned b = 0; b < nblocks(e); b++)
                out[(size_t)b * nt + ty * bx + tx] = (int32_t)acc;
        }
    return 0;
}

/* ---- patterns.cu --------------------------------------------------------------------------------*/

uint32_t smem_pattern_fill_word(uint32_t i, uint32_t seed)
{
    uint32_t x = (i * 0x9E3779B1u) ^ seed;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    x *= 0x297A2D39u;
    x ^= x >> 15;
    return x;
}

#define PATTERN_WORDS 4160u

enum pat_form { P_LIN, P_DIV2, P_PERM, P_COL_XOR, P_ROW_XOR, P_POINT };

struct pattern_prog {
    const char *kernel;
    unsigned bytes;     /* access size (element size of arr) */
    enum pat_form form; /* P_LIN: index = a*tid + b (a = b = 0: arr[0]) */
    unsigned a, b;      /* P_POINT: a = struct words */
};

static const struct pattern_prog pattern_progs[] = {
    {"i32_bcast_0", 4, P_LIN, 0, 0},
    {"i32_blockIdx", 4, P_LIN, 0, 0}, /* blockIdx.x = 0 on a grid of 1 */
    {"i32_tid_div2", 4, P_DIV2, 0, 0},
    {"i32_tid", 4, P_LIN, 1, 0},
    {"f32_tid", 4, P_LIN, 1, 0},
    {"i32_tid_plus71", 4, P_LIN, 1, 71},
    {"i32_permute", 4, P_PERM, 0, 0},
    {"i32_stride2", 4, P_LIN, 2, 0},
    {"i32_stride3", 4, P_LIN, 3, 0},
    {"i32_stride4", 4, P_LIN, 4, 0},
    {"i32_stride5", 4, P_LIN, 5, 0},
    {"i32_stride6", 4, P_LIN, 6, 0},
    {"i32_stride7", 4, P_LIN, 7, 0},
    {"i32_stride8", 4, P_LIN, 8, 0},
    {"i32_stride16", 4, P_LIN, 16, 0},
    {"i32_stride17", 4, P_LIN, 17, 0},
    {"i32_stride31", 4, P_LIN, 31, 0},
    {"i32_stride32", 4, P_LIN, 32, 0},
    {"f32_stride32", 4, P_LIN, 32, 0},
    {"i32_stride33", 4, P_LIN, 33, 0},
    {"i32_stride64", 4, P_LIN, 64, 0},
    {"i32_stride128", 4, P_LIN, 128, 0},
    {"i32_stride129", 4, P_LIN, 129, 0},
    {"u8_tid", 1, P_LIN, 1, 0},
    {"u16_tid", 2, P_LIN, 1, 0},
    {"u8_stride4", 1, P_LIN, 4, 0},
    {"u16_stride2", 2, P_LIN, 2, 0},
    {"u8_stride2", 1, P_LIN, 2, 0},
    {"u8_stride128", 1, P_LIN, 128, 0},
    {"u16_stride64", 2, P_LIN, 64, 0},
    {"f64_tid", 8, P_LIN, 1, 0},
    {"f64_stride2", 8, P_LIN, 2, 0},
    {"f64_stride16", 8, P_LIN, 16, 0},
    {"f64_stride17", 8, P_LIN, 17, 0},
    {"f64_bcast_0", 8, P_LIN, 0, 0},
    {"f64_tid_div2", 8, P_DIV2, 0, 0},
    {"f4_tid", 16, P_LIN, 1, 0},
    {"f4_stride2", 16, P_LIN, 2, 0},
    {"f4_stride8", 16, P_LIN, 8, 0},
    {"f4_bcast_0", 16, P_LIN, 0, 0},
    {"f4_tid_div2", 16, P_DIV2, 0, 0},
    {"tile_col_plain", 4, P_LIN, 32, ~0u},  /* b = p */
    {"tile_col_pad33", 4, P_LIN, 33, ~0u},  /* b = p */
    {"tile_col_xor", 4, P_COL_XOR, 0, 0},   /* tid*32 + (p ^ tid) */
    {"tile_row_xor", 4, P_ROW_XOR, 0, 0},   /* p*32 + (tid ^ p) */
    {"point4d_x_inc", 4, P_POINT, 4, 0},
    {"point5_x_inc", 4, P_POINT, 5, 0},
};

static const struct pattern_prog *pattern_prog_of(const struct smem_experiment *e)
{
    for (size_t i = 0; i < sizeof pattern_progs / sizeof pattern_progs[0]; i++)
        if (!strcmp(pattern_progs[i].kernel, e->kernel))
            return &pattern_progs[i];
    return NULL;
}

/* out[tid] = the bytes of arr[EXPR] in the filled buffer; for the Point kernels, x + 1. */
static int ref_pattern(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const struct pattern_prog *pp = pattern_prog_of(e);
    if (!pp)
        return -1;
    uint32_t p = (uint32_t)d->vals[1], seed = (uint32_t)d->vals[2];
    uint32_t words[PATTERN_WORDS];
    for (uint32_t i = 0; i < PATTERN_WORDS; i++) {
        uint32_t w = smem_pattern_fill_word(i, seed);
        words[i] = pp->form == P_POINT ? ((w & 0x007FFFFFu) | 0x3F800000u) : w;
    }
    unsigned char *out = d->bufs[0];
    for (uint32_t tid = 0; tid < 32; tid++) {
        uint32_t index;
        switch (pp->form) {
        case P_LIN:
            index = pp->a * tid + (pp->b == ~0u ? p : pp->b);
            break;
        case P_DIV2:
            index = tid / 2;
            break;
        case P_PERM:
            index = (tid * 5 + 3) % 32;
            break;
        case P_COL_XOR:
            index = tid * 32 + (p ^ tid);
            break;
        case P_ROW_XOR:
            index = p * 32 + (tid ^ p);
            break;
        case P_POINT:
        default: {
            float x;
            memcpy(&x, &words[tid * pp->a], 4);
            x += 1.0f;
            memcpy(out + 4 * tid, &x, 4);
            continue;
        }
        }
        size_t byte = (size_t)index * pp->bytes;
        if (byte + pp->bytes > sizeof words)
            return -1;
        memcpy(out + (size_t)tid * pp->bytes, (const unsigned char *)words + byte, pp->bytes);
    }
    return 0;
}

/* ---- reverse.cu, multi_dyn.cu, alloc.cu ---------------------------------------------------------*/

/* d[t] = d[n - 1 - t] for the n threads of the block. */
static int ref_reverse(const struct smem_experiment *e, struct smem_exp_data *d)
{
    int32_t *a = d->bufs[0];
    unsigned n = (unsigned)d->vals[1];
    if (n != nthreads(e) || n > e->args[0].count)
        return -1;
    for (unsigned t = 0; t < n / 2; t++) {
        int32_t x = a[t];
        a[t] = a[n - 1 - t];
        a[n - 1 - t] = x;
    }
    return 0;
}

/* out = in with each of its three packed parts (nI ints, nF floats, nC chars) reversed. */
static int ref_multi_arrays(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const unsigned char *in = d->bufs[0];
    unsigned char *out = d->bufs[1];
    unsigned ni = (unsigned)d->vals[2], nf = (unsigned)d->vals[3], nc = (unsigned)d->vals[4];
    if ((unsigned long long)ni * 4 + nf * 4ull + nc > e->args[0].count)
        return -1;
    for (unsigned i = 0; i < ni; i++)
        memcpy(out + 4 * i, in + 4 * (ni - 1 - i), 4);
    for (unsigned i = 0; i < nf; i++)
        memcpy(out + 4 * ni + 4 * i, in + 4 * ni + 4 * (nf - 1 - i), 4);
    for (unsigned i = 0; i < nc; i++)
        out[4 * ni + 4 * nf + i] = in[4 * ni + 4 * nf + (nc - 1 - i)];
    return 0;
}

/* outc = inc with its first char + 1; outf = inf with its first float + 1. */
static int ref_char_float(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const unsigned char *inc = d->bufs[0];
    const float *inf = d->bufs[1];
    unsigned char *outc = d->bufs[2];
    float *outf = d->bufs[3];
    unsigned nc = (unsigned)d->vals[4], nf = (unsigned)d->vals[5];
    if (nc != e->args[0].count || nf != e->args[1].count || nc == 0 || nf == 0)
        return -1;
    memcpy(outc, inc, nc);
    memcpy(outf, inf, (size_t)nf * 4);
    outc[0] = (unsigned char)(outc[0] + 1);
    outf[0] += 1.0f;
    return 0;
}

/* MyKernel: out[b*10 + t] = in[b*10 + 9 - t] + b. */
static int ref_static_alloc(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const float *in = d->bufs[0];
    float *out = d->bufs[1];
    for (unsigned b = 0; b < nblocks(e); b++)
        for (unsigned t = 0; t < 10; t++)
            out[b * 10 + t] = in[b * 10 + 9 - t] + (float)b;
    return 0;
}

/* SomeKernel: each block's n chars reversed. */
static int ref_dynamic_alloc(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const unsigned char *in = d->bufs[0];
    unsigned char *out = d->bufs[1];
    unsigned n = nthreads(e);
    for (unsigned b = 0; b < nblocks(e); b++)
        for (unsigned t = 0; t < n; t++)
            out[b * n + t] = in[b * n + n - 1 - t];
    return 0;
}

/* ---- reduce.cu and its at-scale version ---------------------------------------------------------*/

/* out[b] = the sum of block b's 1024 inputs (wrapping). */
static int ref_reduce(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const int32_t *in = d->bufs[0];
    int32_t *out = d->bufs[1];
    unsigned nt = nthreads(e);
    for (unsigned b = 0; b < nblocks(e); b++) {
        uint32_t s = 0;
        for (unsigned t = 0; t < nt; t++)
            s += (uint32_t)in[(size_t)b * nt + t];
        out[b] = (int32_t)s;
    }
    return 0;
}

/* out[b] = sum over reps r of (block sum + threads * r), wrapping. */
static int ref_reduce_rep(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const int32_t *in = d->bufs[0];
    int32_t *out = d->bufs[1];
    unsigned nt = nthreads(e);
    uint32_t reps = (uint32_t)d->vals[2];
    for (unsigned b = 0; b < nblocks(e); b++) {
        uint32_t s = 0, total = 0;
        for (unsigned t = 0; t < nt; t++)
            s += (uint32_t)in[(size_t)b * nt + t];
        for (uint32_t r = 0; r < reps; r++)
            total += s + nt * r;
        out[b] = (int32_t)total;
    }
    return 0;
}

/* ---- n-way probes --------------------------------------------------------------------------------*/

#define PROBE_K 16u

/* smemRead32_wayN: word w holds w; lane reads lane*N + (r&7)*32 + k*32. */
static int ref_probe32(const struct smem_experiment *e, struct smem_exp_data *d)
{
    int32_t *out = d->bufs[0];
    uint32_t reps = (uint32_t)d->vals[1], n = e->ways;
    unsigned nt = nthreads(e);
    for (unsigned t = 0; t < nt; t++) {
        uint32_t lane = t & 31, acc = 0;
        for (uint32_t r = 0; r < reps; r++)
            for (uint32_t k = 0; k < PROBE_K; k++)
                acc += lane * n + (r & 7) * 32 + k * 32;
        for (unsigned b = 0; b < nblocks(e); b++)
            out[(size_t)b * nt + t] = (int32_t)acc;
    }
    return 0;
}

/* smemRead128_wayN: int4 j holds words 4j..4j+3 = 16j + 6 summed; lane reads j = lane*N +
 * (r&7)*8 + k. */
static int ref_probe128(const struct smem_experiment *e, struct smem_exp_data *d)
{
    int32_t *out = d->bufs[0];
    uint32_t reps = (uint32_t)d->vals[1], n = e->ways;
    unsigned nt = nthreads(e);
    for (unsigned t = 0; t < nt; t++) {
        uint32_t lane = t & 31, acc = 0;
        for (uint32_t r = 0; r < reps; r++)
            for (uint32_t k = 0; k < PROBE_K; k++)
                acc += 16 * (lane * n + (r & 7) * 8 + k) + 6;
        for (unsigned b = 0; b < nblocks(e); b++)
            out[(size_t)b * nt + t] = (int32_t)acc;
    }
    return 0;
}

/* ---- hazards.cu ----------------------------------------------------------------------------------*/

/* divergentBarrier if it were correct (a barrier every thread reaches): out[t] = in[63 - t]. It is
 * never launched (SMEM_EXP_NO_GPU); the reference documents the intent. */
static int ref_divergent_barrier(const struct smem_experiment *e, struct smem_exp_data *d)
{
    const int32_t *in = d->bufs[0];
    int32_t *out = d->bufs[1];
    (void)e;
    for (unsigned t = 0; t < 64; t++)
        out[t] = in[63 - t];
    return 0;
}

/* syncIncrement: 2 in every block's slot. */
static int ref_sync_increment(const struct smem_experiment *e, struct smem_exp_data *d)
{
    int32_t *out = d->bufs[0];
    for (unsigned b = 0; b < nblocks(e); b++)
        out[b] = 2;
    return 0;
}

/* AtomicAdd / sharedAtomicAdd: result[0] grows by one per thread of the grid. */
static int ref_atomic_count(const struct smem_experiment *e, struct smem_exp_data *d)
{
    int32_t *out = d->bufs[0];
    out[0] = (int32_t)((uint32_t)out[0] + nthreads(e) * nblocks(e));
    return 0;
}

/* Racey: result[0] holds some thread's index: [0, blockDim.x). */
static const char *check_racey(const struct smem_experiment *e, const struct smem_exp_data *inputs,
                               const struct smem_exp_data *got, char *why, size_t n)
{
    const int32_t *r = got->bufs[0];
    (void)inputs;
    if (r[0] < 0 || (unsigned)r[0] >= e->block[0]) {
        snprintf(why, n, "result[0] = %d, not a thread index in [0, %u)", r[0], e->block[0]);
        return why;
    }
    return NULL;
}

/* rmwIncrement: each block's count lies in [1, threads]. */
static const char *check_rmw(const struct smem_experiment *e, const struct smem_exp_data *inputs,
                             const struct smem_exp_data *got, char *why, size_t n)
{
    const int32_t *r = got->bufs[0];
    (void)inputs;
    for (unsigned b = 0; b < nblocks(e); b++)
        if (r[b] < 1 || (unsigned)r[b] > nthreads(e)) {
            snprintf(why, n, "result[%u] = %d, outside [1, %u]", b, r[b], nthreads(e));
            return why;
        }
    return NULL;
}

/* ---- carveout.cu ---------------------------------------------------------------------------------*/

#define CHASE_ROWS 256u
#define CHASE_MAX_SMS 1024u
/* 12 blocks per SM of an H100: more than the most that fit (6 of 33 KB in 228 KB), so the maximum
 * resident count can show. */
#define CHASE_GRID 1584u
#define CHASE_REPS 256

/* out: every thread's chase result, exact; occ: every SM's current count back to 0, its maximum
 * resident blocks in [0, 32] (32 = the most blocks an SM can hold), at least one SM used. */
static const char *check_carveout(const struct smem_experiment *e,
                                  const struct smem_exp_data *inputs,
                                  const struct smem_exp_data *got, char *why, size_t n)
{
    const int32_t *in = inputs->bufs[0];
    const int32_t *out = got->bufs[1], *occ = got->bufs[2];
    uint32_t reps = (uint32_t)got->vals[3];
    unsigned nt = nthreads(e);
    for (unsigned b = 0; b < nblocks(e); b++)
        for (unsigned t = 0; t < nt; t++) {
            uint32_t lane = t & 31, row = (b + t / 32) % CHASE_ROWS;
            for (uint32_t r = 0; r < reps; r++)
                row = (uint32_t)in[row * 32 + lane] % CHASE_ROWS;
            if (out[(size_t)b * nt + t] != (int32_t)row) {
                snprintf(why, n, "out[%zu] = %d, expected %u", (size_t)b * nt + t,
                         out[(size_t)b * nt + t], row);
                return why;
            }
        }
    int used = 0;
    for (unsigned s = 0; s < CHASE_MAX_SMS; s++) {
        if (occ[2 * s] != 0 || occ[2 * s + 1] < 0 || occ[2 * s + 1] > 32) {
            snprintf(why, n, "occupancy counters of SM %u = (%d, %d): expected (0, 0..32)", s,
                     occ[2 * s], occ[2 * s + 1]);
            return why;
        }
        used |= occ[2 * s + 1] > 0;
    }
    if (!used) {
        snprintf(why, n, "no SM recorded a resident block");
        return why;
    }
    return NULL;
}

/* ---- The table -----------------------------------------------------------------------------------*/

#define OUT(nm, eb, cnt) {.name = nm, .kind = SMEM_ARG_BUFFER, .elem_bytes = eb, .count = cnt, .init = SMEM_INIT_POISON, .output = 1}
#define IN(nm, eb, cnt, ini) {.name = nm, .kind = SMEM_ARG_BUFFER, .elem_bytes = eb, .count = cnt, .init = ini}
#define INOUT(nm, eb, cnt, ini) {.name = nm, .kind = SMEM_ARG_BUFFER, .elem_bytes = eb, .count = cnt, .init = ini, .output = 1}
#define INT(nm, v) {.name = nm, .kind = SMEM_ARG_INT, .value = v, .mode = SMEM_INT_FIXED}
#define INT_RANDOM(nm, v) {.name = nm, .kind = SMEM_ARG_INT, .value = v, .mode = SMEM_INT_RANDOM}

#define DIM(x, y) {x, y, 1}

/* The documents' tile kernels: one block; out = one int per thread. */
#define SQUARE(stem, kern, dyn, hw, scl, rw, ...)                                                  \
    {.row = rw, .name = stem "/" kern, .seed = "000,003,004", .file = stem ".cu", .kernel = kern,  \
     .block = DIM(32, 32), .grid = DIM(1, 1), .dyn_smem = dyn, .nargs = 1,                         \
     .args = {OUT("out", 4, 1024)}, .role = SMEM_EXP_DOC, .hw_section = hw ? "A" : NULL,            \
     .hw_kernel = hw, .scale = scl, .reference = ref_tile, __VA_ARGS__}

#define RECT(kern, dyn, hw, scl, ...)                                                              \
    {.row = 5, .name = "rect/" kern, .seed = "000,003,004", .file = "rect.cu", .kernel = kern,     \
     .block = DIM(32, 16), .grid = DIM(1, 1), .dyn_smem = dyn, .nargs = 1,                         \
     .args = {OUT("out", 4, 512)}, .role = SMEM_EXP_DOC, .hw_section = hw ? "B" : NULL,             \
     .hw_kernel = hw, .scale = scl, .reference = ref_tile, __VA_ARGS__}

/* Section C: one warp; out holds 32 accesses of up to 16 bytes. */
#define PATTERN(kern, rw, ...)                                                               \
    {.row = rw, .name = "patterns/" kern, .seed = "001,002", .file = "patterns.cu",                \
     .kernel = kern, .block = DIM(32, 1), .grid = DIM(1, 1), .nargs = 3,                           \
     .args = {OUT("out", 1, 512), INT("p", 5), INT_RANDOM("seed", 0)}, .role = SMEM_EXP_DOC,       \
     .hw_section = "C", .hw_kernel = kern, .reference = ref_pattern, __VA_ARGS__}

/* A pattern kernel with no H100 row (added to complete a picture). */
#define PATTERN_NEW(kern, rw, ...)                                                                 \
    {.row = rw, .name = "patterns/" kern, .seed = "001,002", .file = "patterns.cu",                \
     .kernel = kern, .block = DIM(32, 1), .grid = DIM(1, 1), .nargs = 3,                           \
     .args = {OUT("out", 1, 512), INT("p", 5), INT_RANDOM("seed", 0)}, .role = SMEM_EXP_DOC,       \
     .flags = SMEM_EXP_EXTRA, .reference = ref_pattern, __VA_ARGS__}

/* At scale: square (8448 blocks of 32x32, as tests/hw Amany), rectangle (8448 of 32x16). */
#define SCALE_SQUARE_GRID 8448u
#define SCALE_TILE_REPS 16u
#define SCALE_TILE(kern, bx, by, what)                                                             \
    {.row = 21, .name = "scale/" kern, .seed = "000,004", .file = "scale.cu", .kernel = kern,      \
     .block = DIM(bx, by), .grid = DIM(SCALE_SQUARE_GRID, 1), .nargs = 2,                         \
     .args = {OUT("out", 4, (unsigned long long)SCALE_SQUARE_GRID * bx * by),                     \
              INT("reps", SCALE_TILE_REPS)},                                                       \
     .role = SMEM_EXP_SCALE,                                                                       \
     .smem_bytes = (unsigned long long)SCALE_SQUARE_GRID * SCALE_TILE_REPS * bx * by * 4ull *     \
                   (1 + TILE_K),                                                                   \
     .reference = ref_scale_tile, .shows = what}

/* n-way probes: 2112 blocks of 1024 threads (16 per SM on an H100, as hw/README item 10). */
#define PROBE_GRID 2112u
#define PROBE32_REPS 64u
#define PROBE128_REPS 16u
#define PROBE(kern, n, width, reps, ref)                                                           \
    {.row = 12, .also = {21}, .name = "scale/" kern, .seed = "001", .file = "scale.cu",            \
     .kernel = kern, .block = DIM(1024, 1), .grid = DIM(PROBE_GRID, 1), .nargs = 2,               \
     .args = {OUT("out", 4, PROBE_GRID * 1024ull), INT("reps", reps)}, .role = SMEM_EXP_SCALE,     \
     .smem_bytes = (unsigned long long)PROBE_GRID * 1024 * PROBE_K * reps * width, .ways = n,     \
     .reference = ref, .shows = #width "-byte loads, " #n "-way"}

#define REDUCE_GRID 1024u
#define REDUCE_REP_GRID 2112u
#define REDUCE_REPS 32u
#define REDUCE(kern, scl, ...)                                                               \
    {.row = 13, .name = "reduce/" kern, .seed = "001", .file = "reduce.cu", .kernel = kern,        \
     .block = DIM(1024, 1), .grid = DIM(REDUCE_GRID, 1), .nargs = 2,                               \
     .args = {IN("in", 4, REDUCE_GRID * 1024ull, SMEM_INIT_SMALL), OUT("out", 4, REDUCE_GRID)},     \
     .role = SMEM_EXP_DOC, .hw_section = "D", .hw_kernel = kern, .scale = scl,        \
     .reference = ref_reduce, __VA_ARGS__}
#define REDUCE_REP(kern, ...)                                                                \
    {.row = 13, .also = {21}, .name = "scale/" kern, .seed = "001", .file = "scale.cu",            \
     .kernel = kern, .block = DIM(1024, 1), .grid = DIM(REDUCE_REP_GRID, 1), .nargs = 3,          \
     .args = {IN("in", 4, REDUCE_REP_GRID * 1024ull, SMEM_INIT_SMALL),                             \
              OUT("out", 4, REDUCE_REP_GRID), INT("reps", REDUCE_REPS)},                           \
     .role = SMEM_EXP_SCALE, .smem_bytes = (unsigned long long)REDUCE_REP_GRID * REDUCE_REPS * 16376, \
     .reference = ref_reduce_rep, __VA_ARGS__}

static const struct smem_experiment table[] = {
    /* Rows 1-4: the square tile. */
    SQUARE("square", "setRowReadRow", 0, "setRowReadRow", "scale/scaleSquareRowRow", 1,
           .shows = "row store, row read: 1 wavefront per request"),
    SQUARE("square", "setColReadCol", 0, "setColReadCol", "scale/scaleSquareColCol", 1,
           .shows = "column store, column read: 32-way both"),
    SQUARE("square", "setRowReadCol", 0, "setRowReadCol", "scale/scaleSquareRowCol", 1,
           .shows = "row store (free), column read (32-way)"),
    SQUARE("square", "setRowReadColDyn", 4096, "setRowReadColDyn", "scale/scaleSquareRowCol", 2,
           .shows = "dynamic tile: same cost as the static one"),
    SQUARE("square", "setRowReadColPad", 0, "setRowReadColPad", "scale/scaleSquareRowColPad", 3,
           .shows = "one pad word a row: conflict-free"),
    SQUARE("square", "setRowReadColDynPad", 4224, "setRowReadColDynPad",
           "scale/scaleSquareRowColPad", 3, .shows = "dynamic padded tile: conflict-free"),
    SQUARE("square_filescope", "setRowReadColDyn", 4096, "setRowReadColDyn",
           "scale/scaleSquareRowCol", 4, .also = {2},
           .shows = "file-scope extern __shared__: same code, same cost (H100 row: kernel scope)"),
    /* Row 5: the rectangle. */
    RECT("setRowReadRow", 0, "setRowReadRow", "scale/scaleRectRowRow",
         .shows = "row store, row read: conflict-free"),
    RECT("setRowReadRow2", 0, NULL, "scale/scaleRectRowRow", .flags = SMEM_EXP_EXTRA,
         .shows = "the same through irow/icol: same cost"),
    RECT("setColReadCol", 0, "setColReadCol", "scale/scaleRectColCol",
         .shows = "column store and read on [32][16]: 16-way both"),
    RECT("setColReadCol2", 0, NULL, NULL, .flags = SMEM_EXP_EXTRA,
         .shows = "column store and read through icol/irow: 16-way both"),
    RECT("setRowReadCol", 0, "setRowReadCol", "scale/scaleRectRowCol",
         .shows = "row store, transposed read: 16-way loads"),
    RECT("setRowReadColDyn", 2048, "setRowReadColDyn", "scale/scaleRectRowCol",
         .shows = "dynamic tile: 16-way loads, same as static"),
    RECT("setRowReadColPad1", 0, "setRowReadColPad1", "scale/scaleRectRowColPad1",
         .shows = "IPAD 1: 2-way loads remain"),
    RECT("setRowReadColDynPad1", 2112, "setRowReadColDynPad1", "scale/scaleRectRowColPad1",
         .shows = "dynamic IPAD 1: 2-way loads"),
    RECT("setRowReadColPad2", 0, "setRowReadColPad2", "scale/scaleRectRowColPad2",
         .shows = "IPAD 2: conflict-free"),
    RECT("setRowReadColDynPad2", 2176, "setRowReadColDynPad2", "scale/scaleRectRowColPad2",
         .shows = "dynamic IPAD 2: conflict-free"),
    /* Row 3 (extra): the 32x32 tile read down a column, plain, padded, swizzled. */
    PATTERN("tile_col_plain", 3, .shows = "column of a 32x32 tile: 32-way", .flags = SMEM_EXP_EXTRA),
    PATTERN("tile_col_pad33", 3, .shows = "column of a 32x33 tile: free", .flags = SMEM_EXP_EXTRA),
    PATTERN("tile_col_xor", 3, .shows = "column of an XOR-swizzled tile: free", .flags = SMEM_EXP_EXTRA),
    PATTERN("tile_row_xor", 3, .shows = "row of an XOR-swizzled tile: free", .flags = SMEM_EXP_EXTRA),
    /* Row 7 (extra): wider accesses on 4-byte banks (what Kepler's 8-byte mode was about). */
    PATTERN("f64_tid", 7, .shows = "double arr[tid]: 2 wavefronts, no conflict", .flags = SMEM_EXP_EXTRA),
    PATTERN("f64_stride2", 7, .shows = "double arr[tid*2]: 2-way", .flags = SMEM_EXP_EXTRA),
    PATTERN("f64_stride16", 7, .shows = "double arr[tid*16]: 16-way", .flags = SMEM_EXP_EXTRA),
    PATTERN("f64_stride17", 7, .shows = "double arr[tid*17]: free", .flags = SMEM_EXP_EXTRA),
    PATTERN("f64_bcast_0", 7, .shows = "double arr[0]: broadcast", .flags = SMEM_EXP_EXTRA),
    PATTERN("f64_tid_div2", 7, .shows = "double arr[tid/2]: multicast", .flags = SMEM_EXP_EXTRA),
    PATTERN("f4_tid", 7, .shows = "float4 arr[tid]: 4 wavefronts, no conflict", .flags = SMEM_EXP_EXTRA),
    PATTERN("f4_stride2", 7, .shows = "float4 arr[tid*2]: 2-way", .flags = SMEM_EXP_EXTRA),
    PATTERN("f4_stride8", 7, .shows = "float4 arr[tid*8]: 8-way", .flags = SMEM_EXP_EXTRA),
    PATTERN("f4_bcast_0", 7, .shows = "float4 arr[0]: broadcast", .flags = SMEM_EXP_EXTRA),
    PATTERN("f4_tid_div2", 7, .shows = "float4 arr[tid/2]: multicast", .flags = SMEM_EXP_EXTRA),
    /* Row 8: reverse. */
    {.row = 8, .name = "reverse/staticReverse", .seed = "001", .file = "reverse.cu",
     .kernel = "staticReverse", .block = DIM(64, 1), .grid = DIM(1, 1), .nargs = 2,
     .args = {INOUT("d", 4, 64, SMEM_INIT_RANDOM), INT("n", 64)}, .role = SMEM_EXP_DOC,
     .hw_section = "E", .hw_kernel = "staticReverse", .reference = ref_reverse,
     .shows = "static s[64]: reversed, conflict-free"},
    {.row = 8, .name = "reverse/dynamicReverse", .seed = "001", .file = "reverse.cu",
     .kernel = "dynamicReverse", .block = DIM(64, 1), .grid = DIM(1, 1), .dyn_smem = 256,
     .nargs = 2, .args = {INOUT("d", 4, 64, SMEM_INIT_RANDOM), INT("n", 64)},
     .role = SMEM_EXP_DOC, .hw_section = "E", .hw_kernel = "dynamicReverse",
     .reference = ref_reverse, .shows = "dynamic s[] (n*4 bytes at launch): reversed, conflict-free"},
    /* Row 9: several arrays in one dynamic allocation. */
    {.row = 9, .name = "multi_dyn/multiArrays", .seed = "001", .file = "multi_dyn.cu",
     .kernel = "multiArrays", .block = DIM(64, 1), .grid = DIM(1, 1), .dyn_smem = 576, .nargs = 5,
     .args = {IN("in", 1, 576, SMEM_INIT_RANDOM), OUT("out", 1, 576), INT("nI", 64), INT("nF", 64),
              INT("nC", 64)},
     .role = SMEM_EXP_DOC, .reference = ref_multi_arrays,
     .shows = "int at 0, float at 256, char at 512 of one 576-byte allocation"},
    {.row = 9, .name = "multi_dyn/charFloat", .seed = "002", .file = "multi_dyn.cu",
     .kernel = "charFloat", .block = DIM(64, 1), .grid = DIM(1, 1), .dyn_smem = 320, .nargs = 6,
     .args = {IN("inc", 1, 64, SMEM_INIT_RANDOM), IN("inf", 4, 64, SMEM_INIT_UNIT_FLOAT),
              OUT("outc", 1, 64), OUT("outf", 4, 64), INT("sizeofCharArray", 64), INT("nF", 64)},
     .role = SMEM_EXP_DOC, .reference = ref_char_float,
     .shows = "char[64] then float[64] in one buffer: the float part must start 4-byte aligned"},
    /* Row 10: bank mapping. */
    PATTERN_NEW("i32_permute", 10, .shows = "a permutation of the 32 banks: free"),
    /* Row 19 (and 10, 12): the access-pattern table. */
    PATTERN("i32_bcast_0", 19, .shows = "arr[0]: broadcast", .also = {10}),
    PATTERN("i32_blockIdx", 19, .shows = "arr[blockIdx.x]: broadcast"),
    PATTERN("i32_tid", 19, .shows = "arr[tid]: free", .also = {10, 12}),
    PATTERN("f32_tid", 19, .shows = "float arr[tid]: free"),
    PATTERN("i32_tid_div2", 19, .shows = "arr[tid/2]: multicast", .also = {10}),
    PATTERN("i32_tid_plus71", 19, .shows = "arr[tid+71]: free"),
    PATTERN("i32_stride2", 19, .shows = "arr[tid*2]: 2-way", .also = {10, 12}),
    PATTERN("i32_stride3", 19, .shows = "arr[tid*3]: free", .also = {12}),
    PATTERN("i32_stride8", 19, .shows = "arr[tid*8]: 8-way", .also = {10, 12}),
    PATTERN("i32_stride128", 19, .shows = "arr[tid*128]: 32-way", .also = {12}),
    PATTERN("i32_stride129", 19, .shows = "arr[tid*129]: free", .also = {12}),
    /* Row 11: sub-word data. */
    PATTERN("u8_tid", 11, .shows = "char arr[tid]: 4 lanes a word, free"),
    PATTERN("u16_tid", 11, .shows = "short arr[tid]: 2 lanes a word, free"),
    PATTERN("u8_stride4", 11, .shows = "char arr[tid*4]: one byte a word, free"),
    PATTERN("u16_stride2", 11, .shows = "short arr[tid*2]: free"),
    PATTERN("u8_stride2", 11, .shows = "char arr[tid*2]: free", .flags = SMEM_EXP_EXTRA),
    PATTERN("u8_stride128", 11, .shows = "char arr[tid*128]: 32 words in one bank: 32-way",
            .flags = SMEM_EXP_EXTRA),
    PATTERN("u16_stride64", 11, .shows = "short arr[tid*64]: 32-way", .flags = SMEM_EXP_EXTRA),
    /* Row 12: the stride rule. */
    PATTERN("i32_stride4", 12, .shows = "stride 4: 4-way"),
    PATTERN("i32_stride5", 12, .shows = "stride 5: free"),
    PATTERN("i32_stride6", 12, .shows = "stride 6: 2-way"),
    PATTERN("i32_stride7", 12, .shows = "stride 7: free"),
    PATTERN("i32_stride16", 12, .shows = "stride 16: 16-way"),
    PATTERN("i32_stride17", 12, .shows = "stride 17: free"),
    PATTERN("i32_stride31", 12, .shows = "stride 31: free"),
    PATTERN("i32_stride32", 12, .shows = "stride 32: 32-way"),
    PATTERN("f32_stride32", 12, .shows = "float stride 32: 32-way"),
    PATTERN("i32_stride33", 12, .shows = "stride 33: free"),
    PATTERN("i32_stride64", 12, .shows = "stride 64: 32-way"),
    PROBE("smemRead32_way1", 1, 4, PROBE32_REPS, ref_probe32),
    PROBE("smemRead32_way2", 2, 4, PROBE32_REPS, ref_probe32),
    PROBE("smemRead32_way4", 4, 4, PROBE32_REPS, ref_probe32),
    PROBE("smemRead32_way8", 8, 4, PROBE32_REPS, ref_probe32),
    PROBE("smemRead32_way16", 16, 4, PROBE32_REPS, ref_probe32),
    PROBE("smemRead32_way32", 32, 4, PROBE32_REPS, ref_probe32),
    PROBE("smemRead128_way1", 1, 16, PROBE128_REPS, ref_probe128),
    PROBE("smemRead128_way2", 2, 16, PROBE128_REPS, ref_probe128),
    PROBE("smemRead128_way4", 4, 16, PROBE128_REPS, ref_probe128),
    PROBE("smemRead128_way8", 8, 16, PROBE128_REPS, ref_probe128),
    /* Row 13: reductions. */
    REDUCE("reduce_interleaved", "scale/reduceRep_interleaved", .shows = "index = 2*i*tid: 2-, 4-, ... way conflicts"),
    REDUCE("reduce_interleaved_divergent", "scale/reduceRep_interleaved_divergent", .shows = "tid % (2*i) == 0: few conflicts, many requests",
           .flags = SMEM_EXP_EXTRA),
    REDUCE("reduce_sequential", "scale/reduceRep_sequential", .shows = "cache[tid] += cache[tid + i]: conflict-free"),
    REDUCE_REP("reduceRep_interleaved", .shows = "interleaved, at scale"),
    REDUCE_REP("reduceRep_interleaved_divergent", .shows = "interleaved divergent, at scale",
               .flags = SMEM_EXP_EXTRA),
    REDUCE_REP("reduceRep_sequential", .shows = "sequential, at scale"),
    /* Row 14: allocation sizes. */
    {.row = 14, .name = "alloc/MyKernel", .seed = "002", .file = "alloc.cu", .kernel = "MyKernel",
     .block = DIM(32, 1), .grid = DIM(25, 1), .nargs = 2,
     .args = {IN("in", 4, 250, SMEM_INIT_UNIT_FLOAT), OUT("out", 4, 250)}, .role = SMEM_EXP_DOC,
     .reference = ref_static_alloc, .shows = "int i + float f_array[10] = 44 bytes per block"},
    {.row = 14, .name = "alloc/SomeKernel", .seed = "002", .file = "alloc.cu", .kernel = "SomeKernel",
     .block = DIM(23, 1), .grid = DIM(10, 1), .dyn_smem = 32, .nargs = 2,
     .args = {IN("in", 1, 230, SMEM_INIT_RANDOM), OUT("out", 1, 230)}, .role = SMEM_EXP_DOC,
     .reference = ref_dynamic_alloc, .shows = "<<<10, 23, 32>>>: 32 bytes of dynamic shared memory"},
    /* Row 15: the carveout. */
    {.row = 15, .name = "carveout/carveoutChase", .seed = "002", .file = "carveout.cu",
     .kernel = "carveoutChase", .block = DIM(256, 1), .grid = DIM(CHASE_GRID, 1),
     .dyn_smem = 32768, .nargs = 4,
     .args = {IN("in", 4, CHASE_ROWS * 32, SMEM_INIT_RANDOM), OUT("out", 4, CHASE_GRID * 256),
              INOUT("occ", 4, 2 * CHASE_MAX_SMS, SMEM_INIT_ZERO), INT("reps", CHASE_REPS)},
     .role = SMEM_EXP_SCALE, .flags = SMEM_EXP_CARVEOUT,
     .smem_bytes = (unsigned long long)CHASE_GRID * 256 * 4 * (CHASE_REPS + 32),
     .check = check_carveout,
     .shows = "32 KB a block: resident blocks per SM, and time, follow the carveout"},
    /* Rows 16-18: races, barriers, atomics. */
    {.row = 16, .name = "hazards/Racey", .seed = "002", .file = "hazards.cu", .kernel = "Racey",
     .block = DIM(1024, 1), .grid = DIM(1024, 1), .nargs = 1,
     .args = {OUT("result", 4, 1)}, .role = SMEM_EXP_DOC, .flags = SMEM_EXP_RACY,
     .check = check_racey, .shows = "write-write races on shared i and on result[0]"},
    {.row = 16, .name = "hazards/rmwIncrement", .seed = "002", .file = "hazards.cu",
     .kernel = "rmwIncrement", .block = DIM(100, 1), .grid = DIM(32, 1), .nargs = 1,
     .args = {OUT("result", 4, 32)}, .role = SMEM_EXP_DOC, .flags = SMEM_EXP_RACY,
     .check = check_rmw, .shows = "i++ from 100 threads: read-modify-write race, result < 100"},
    {.row = 17, .name = "hazards/syncIncrement", .seed = "002", .file = "hazards.cu",
     .kernel = "syncIncrement", .block = DIM(128, 1), .grid = DIM(4, 1), .nargs = 1,
     .args = {OUT("result", 4, 4)}, .role = SMEM_EXP_DOC, .reference = ref_sync_increment,
     .shows = "two single-thread increments between barriers: always 2"},
    {.row = 17, .name = "hazards/divergentBarrier", .seed = "001,002", .file = "hazards.cu",
     .kernel = "divergentBarrier", .block = DIM(64, 1), .grid = DIM(1, 1), .nargs = 2,
     .args = {IN("in", 4, 64, SMEM_INIT_RANDOM), OUT("out", 4, 64)}, .role = SMEM_EXP_DOC,
     .flags = SMEM_EXP_NO_GPU, .reference = ref_divergent_barrier,
     .shows = "__syncthreads() reached by half the threads: reported, never run (may hang)"},
    {.row = 18, .name = "hazards/AtomicAdd", .seed = "002", .file = "hazards.cu",
     .kernel = "AtomicAdd", .block = DIM(32, 1), .grid = DIM(64, 1), .nargs = 1,
     .args = {INOUT("result", 4, 1, SMEM_INIT_ZERO)}, .role = SMEM_EXP_DOC,
     .reference = ref_atomic_count, .shows = "atomicAdd from 2048 threads: always 2048"},
    {.row = 18, .name = "hazards/sharedAtomicAdd", .seed = "002", .file = "hazards.cu",
     .kernel = "sharedAtomicAdd", .block = DIM(1024, 1), .grid = DIM(2, 1), .nargs = 1,
     .args = {INOUT("result", 4, 1, SMEM_INIT_ZERO)}, .role = SMEM_EXP_DOC,
     .flags = SMEM_EXP_EXTRA, .reference = ref_atomic_count,
     .shows = "the same count through a shared-memory atomic: 2048"},
    /* Row 20: structs. */
    PATTERN("point4d_x_inc", 20, .shows = "Point4D arr[tid].x++: 4-way load and store"),
    PATTERN("point5_x_inc", 20, .shows = "5-word Point arr[tid].x++: conflict-free"),
    /* Row 21: the tiles at scale. */
    SCALE_TILE("scaleSquareRowRow", 32, 32, "square row/row at scale: conflict-free"),
    SCALE_TILE("scaleSquareColCol", 32, 32, "square col/col at scale: 32-way"),
    SCALE_TILE("scaleSquareRowCol", 32, 32, "square row/col at scale: 32-way loads"),
    SCALE_TILE("scaleSquareRowColPad", 32, 32, "square padded at scale: conflict-free"),
    SCALE_TILE("scaleRectRowRow", 32, 16, "rectangle row/row at scale: conflict-free"),
    SCALE_TILE("scaleRectColCol", 32, 16, "rectangle col/col at scale: 16-way"),
    SCALE_TILE("scaleRectRowCol", 32, 16, "rectangle row/col at scale: 16-way loads"),
    SCALE_TILE("scaleRectRowColPad1", 32, 16, "rectangle IPAD 1 at scale: 2-way loads"),
    SCALE_TILE("scaleRectRowColPad2", 32, 16, "rectangle IPAD 2 at scale: conflict-free"),
};

size_t smem_experiment_count(void)
{
    return sizeof table / sizeof table[0];
}

const struct smem_experiment *smem_experiment_at(size_t i)
{
    return i < smem_experiment_count() ? &table[i] : NULL;
}

const struct smem_experiment *smem_experiment_find(const char *name)
{
    for (size_t i = 0; i < smem_experiment_count(); i++)
        if (!strcmp(table[i].name, name))
            return &table[i];
    return NULL;
}

int smem_experiment_in_row(const struct smem_experiment *e, unsigned row)
{
    if (e->row == row)
        return 1;
    for (size_t i = 0; i < sizeof e->also / sizeof e->also[0]; i++)
        if (e->also[i] && e->also[i] == row)
            return 1;
    return 0;
}

/* ---- Buffers, inputs, verification --------------------------------------------------------------*/

unsigned long long smem_exp_arg_bytes(const struct smem_exp_arg *a)
{
    return a->kind == SMEM_ARG_BUFFER ? (unsigned long long)a->elem_bytes * a->count : 0;
}

unsigned long long smem_experiment_buffer_bytes(const struct smem_experiment *e)
{
    unsigned long long s = 0;
    for (unsigned i = 0; i < e->nargs; i++)
        s += smem_exp_arg_bytes(&e->args[i]);
    return s;
}

int smem_exp_data_alloc(const struct smem_experiment *e, struct smem_exp_data *d)
{
    memset(d, 0, sizeof *d);
    for (unsigned i = 0; i < e->nargs && i < SMEM_EXP_MAX_ARGS; i++) {
        const struct smem_exp_arg *a = &e->args[i];
        if (a->kind == SMEM_ARG_INT) {
            d->vals[i] = a->value;
            continue;
        }
        d->bufs[i] = calloc(1, (size_t)smem_exp_arg_bytes(a));
        if (!d->bufs[i]) {
            smem_exp_data_free(e, d);
            return -1;
        }
    }
    return 0;
}

void smem_exp_data_free(const struct smem_experiment *e, struct smem_exp_data *d)
{
    (void)e;
    for (unsigned i = 0; i < SMEM_EXP_MAX_ARGS; i++) {
        free(d->bufs[i]);
        d->bufs[i] = NULL;
    }
}

void smem_exp_data_copy(const struct smem_experiment *e, struct smem_exp_data *dst,
                        const struct smem_exp_data *src)
{
    for (unsigned i = 0; i < e->nargs && i < SMEM_EXP_MAX_ARGS; i++) {
        dst->vals[i] = src->vals[i];
        if (e->args[i].kind == SMEM_ARG_BUFFER && dst->bufs[i] && src->bufs[i])
            memcpy(dst->bufs[i], src->bufs[i], (size_t)smem_exp_arg_bytes(&e->args[i]));
    }
}

/* xorshift64*: small, fast, good enough for test data. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

void smem_exp_fill_inputs(const struct smem_experiment *e, struct smem_exp_data *d, uint64_t *rng)
{
    for (unsigned i = 0; i < e->nargs && i < SMEM_EXP_MAX_ARGS; i++) {
        const struct smem_exp_arg *a = &e->args[i];
        if (a->kind == SMEM_ARG_INT) {
            d->vals[i] = a->mode == SMEM_INT_RANDOM ? (int)(uint32_t)(rng_next(rng) >> 32) : a->value;
            continue;
        }
        size_t bytes = (size_t)smem_exp_arg_bytes(a);
        unsigned char *p = d->bufs[i];
        switch (a->init) {
        case SMEM_INIT_POISON:
            memset(p, SMEM_EXP_POISON, bytes);
            break;
        case SMEM_INIT_ZERO:
            memset(p, 0, bytes);
            break;
        case SMEM_INIT_RANDOM:
            for (size_t k = 0; k < bytes; k += 8) {
                uint64_t v = rng_next(rng);
                memcpy(p + k, &v, bytes - k < 8 ? bytes - k : 8);
            }
            break;
        case SMEM_INIT_SMALL:
            for (size_t k = 0; k + 4 <= bytes; k += 4) {
                int32_t v = (int32_t)((rng_next(rng) >> 33) % 1000);
                memcpy(p + k, &v, 4);
            }
            break;
        case SMEM_INIT_UNIT_FLOAT:
            for (size_t k = 0; k + 4 <= bytes; k += 4) {
                uint32_t w = (uint32_t)(rng_next(rng) >> 41) | 0x3F800000u; /* 23 random bits */
                memcpy(p + k, &w, 4);
            }
            break;
        }
    }
}

const char *smem_exp_verify(const struct smem_experiment *e, const struct smem_exp_data *inputs,
                            const struct smem_exp_data *got, char *why, size_t n)
{
    if (e->check)
        return e->check(e, inputs, got, why, n);
    if (!e->reference) {
        snprintf(why, n, "%s: no reference", e->name);
        return why;
    }
    struct smem_exp_data want;
    if (smem_exp_data_alloc(e, &want)) {
        snprintf(why, n, "%s: out of memory for the reference", e->name);
        return why;
    }
    smem_exp_data_copy(e, &want, inputs);
    const char *res = NULL;
    if (e->reference(e, &want)) {
        snprintf(why, n, "%s: the reference cannot handle this configuration", e->name);
        res = why;
    }
    for (unsigned i = 0; !res && i < e->nargs; i++) {
        const struct smem_exp_arg *a = &e->args[i];
        if (a->kind != SMEM_ARG_BUFFER || !a->output)
            continue;
        const unsigned char *w = want.bufs[i], *g = got->bufs[i];
        unsigned eb = a->elem_bytes;
        unsigned long long bad = 0, first = 0;
        for (unsigned long long k = 0; k < a->count; k++)
            if (memcmp(w + k * eb, g + k * eb, eb)) {
                if (!bad)
                    first = k;
                bad++;
            }
        if (bad) {
            unsigned long long wv = 0, gv = 0;
            memcpy(&wv, w + first * eb, eb < 8 ? eb : 8);
            memcpy(&gv, g + first * eb, eb < 8 ? eb : 8);
            snprintf(why, n, "%s: %s[%llu] = 0x%llx, expected 0x%llx (%llu of %llu elements differ)",
                     e->name, a->name, first, gv, wv, bad, a->count);
            res = why;
        }
    }
    smem_exp_data_free(e, &want);
    return res;
}
