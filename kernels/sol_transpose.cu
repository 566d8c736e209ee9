/* sol_transpose.cu: out-of-place matrix transpose at the memory system's limit (issue 7) for 4-, 2-
 * and 8-byte elements (f32, f16, f64 bit patterns), any rows x cols, beside the textbook variants it
 * improves on (naive, tile, pad, swizzle), and the fill/check kernels that verify every element. */

/* Element types by size: a transpose moves bits, so f32/f16/f64 travel as unsigned integers (no
 * rounding, NaN payloads and signed zeros survive, and no header beyond the compiler is needed). */
typedef unsigned int sol_u32;
typedef unsigned short sol_u16;
typedef unsigned long long sol_u64;

/* ---- Our best kernel ------------------------------------------------------------------------
 * The tile is TR x TC elements (TR = LPR * VEC rows, TC = CG * VEC columns, VEC = elements per
 * 16-byte word). Load phase: every thread reads whole 16-byte words along input rows (a warp reads
 * 512 contiguous bytes) and stores them to shared memory as 16-byte words. Store phase: every thread
 * reads a VEC x VEC block as VEC 16-byte words down a column of words, transposes it in registers and
 * writes VEC 16-byte words to VEC output rows; LPR lanes in a row write LPR*16 contiguous bytes.
 *
 * Bank conflicts: 16-byte shared accesses are served a quarter-warp (8 lanes, 128 bytes) at a time,
 * so 8 lanes must touch 8 different 16-byte bank groups. A row of the tile is CG*16 bytes (a multiple
 * of 128), so word (r, g) sits in bank group g mod 8; storing word (r, g) at column g ^ ((r/VEC) & 7)
 * (an XOR swizzle on the word index) keeps the row stores a permutation of 8 consecutive groups and
 * spreads the column reads (8 lanes = 8 consecutive row blocks i, same g) over groups g ^ i: both
 * conflict-free with no padding, so 16-byte accesses stay 16-byte aligned. */

#define SOL_WORD_ELEMS(T) ((int)(16 / sizeof(T)))

/* One 16-byte word of VEC elements, loaded with bounds checks. With vec set, rows and columns are
 * multiples of VEC and both pointers are 16-byte aligned, so a word is either wholly inside the
 * matrix or wholly outside it and one 16-byte load serves it. */
template <typename T>
static __device__ __forceinline__ uint4 sol_load_word(const T *__restrict__ in, int r, int c, int rows,
                                                      int cols, bool vec, bool stream)
{
    const int VEC = SOL_WORD_ELEMS(T);
    uint4 w = make_uint4(0u, 0u, 0u, 0u);
    if (r >= rows)
        return w;
    const T *p = in + (size_t)r * (size_t)cols + c;
    if (vec) {
        if (c < cols)
            w = stream ? __ldcs((const uint4 *)p) : __ldg((const uint4 *)p);
        return w;
    }
    T e[16 / sizeof(T)];
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        e[j] = (c + j < cols) ? p[j] : (T)0;
    if constexpr (sizeof(T) == 4)
        w = make_uint4(e[0], e[1], e[2], e[3]);
    else if constexpr (sizeof(T) == 2)
        w = make_uint4(e[0] | ((unsigned)e[1] << 16), e[2] | ((unsigned)e[3] << 16), e[4] | ((unsigned)e[5] << 16),
                       e[6] | ((unsigned)e[7] << 16));
    else
        w = make_uint4((unsigned)e[0], (unsigned)(e[0] >> 32), (unsigned)e[1], (unsigned)(e[1] >> 32));
    return w;
}

/* Element j of a 16-byte word, as T. */
template <typename T>
static __device__ __forceinline__ T sol_word_elem(uint4 w, int j)
{
    unsigned a[4] = {w.x, w.y, w.z, w.w};
    if constexpr (sizeof(T) == 4)
        return (T)a[j];
    else if constexpr (sizeof(T) == 2)
        return (T)(a[j >> 1] >> ((j & 1) * 16));
    else
        return (T)((sol_u64)a[2 * j] | ((sol_u64)a[2 * j + 1] << 32));
}

/* One 16-byte word to output row r, columns c..c+VEC-1, with bounds checks (see sol_load_word). */
template <typename T>
static __device__ __forceinline__ void sol_store_word(T *__restrict__ out, int r, int c, int rows, int cols,
                                                      uint4 w, bool vec, bool stream)
{
    const int VEC = SOL_WORD_ELEMS(T);
    if (r >= rows)
        return;
    T *p = out + (size_t)r * (size_t)cols + c;
    if (vec) {
        if (c < cols) {
            if (stream)
                __stcs((uint4 *)p, w);
            else
                *(uint4 *)p = w;
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        if (c + j < cols)
            p[j] = sol_word_elem<T>(w, j);
}

/* Transposes a VEC x VEC block held as VEC words (word j = row j) in registers: on return word k
 * holds column k. Indices are compile-time constants after unrolling, so everything stays in
 * registers. */
template <typename T>
static __device__ __forceinline__ void sol_transpose_regs(uint4 *v)
{
    if constexpr (sizeof(T) == 4) {
        uint4 a = v[0], b = v[1], c = v[2], d = v[3];
        v[0] = make_uint4(a.x, b.x, c.x, d.x);
        v[1] = make_uint4(a.y, b.y, c.y, d.y);
        v[2] = make_uint4(a.z, b.z, c.z, d.z);
        v[3] = make_uint4(a.w, b.w, c.w, d.w);
    } else if constexpr (sizeof(T) == 8) {
        uint4 a = v[0], b = v[1];
        v[0] = make_uint4(a.x, a.y, b.x, b.y);
        v[1] = make_uint4(a.z, a.w, b.z, b.w);
    } else {
        /* 8 x 8 halves: output word k, 32-bit part m holds (row 2m, col k) low and (row 2m+1, col k)
         * high; column k of row j is half (k & 1) of part k >> 1 of word j. */
        unsigned a[8][4];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            a[j][0] = v[j].x;
            a[j][1] = v[j].y;
            a[j][2] = v[j].z;
            a[j][3] = v[j].w;
        }
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            unsigned o[4];
#pragma unroll
            for (int m = 0; m < 4; ++m) {
                unsigned lo = (a[2 * m][k >> 1] >> ((k & 1) * 16)) & 0xFFFFu;
                unsigned hi = (a[2 * m + 1][k >> 1] >> ((k & 1) * 16)) & 0xFFFFu;
                o[m] = lo | (hi << 16);
            }
            v[k] = make_uint4(o[0], o[1], o[2], o[3]);
        }
    }
}

/* The three steps of one tile, shared by both schedules below. TR x TC tile at (r0, c0) of the
 * input; LOADS = TR*CG/NT words per thread in, BLOCKS = LPR*CG/NT VEC x VEC blocks per thread out. */
template <typename T, int LPR, int CG, int NT, bool STREAM>
static __device__ __forceinline__ void sol_tile_load(uint4 *w, const T *__restrict__ in, int r0, int c0, int rows,
                                                     int cols, bool vec)
{
    const int VEC = SOL_WORD_ELEMS(T), LOADS = LPR * VEC * CG / NT;
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        int idx = threadIdx.x + k * NT;
        w[k] = sol_load_word<T>(in, r0 + idx / CG, c0 + (idx % CG) * VEC, rows, cols, vec, STREAM);
    }
}

template <typename T, int LPR, int CG, int NT>
static __device__ __forceinline__ void sol_tile_stash(uint4 *tile, const uint4 *w)
{
    const int VEC = SOL_WORD_ELEMS(T), LOADS = LPR * VEC * CG / NT;
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        int idx = threadIdx.x + k * NT;
        int r = idx / CG, g = idx % CG;
        tile[r * CG + (g ^ ((r / VEC) & 7))] = w[k];
    }
}

template <typename T, int LPR, int CG, int NT, bool STREAM>
static __device__ __forceinline__ void sol_tile_write(T *__restrict__ out, const uint4 *tile, int r0, int c0, int rows,
                                                      int cols, bool vec)
{
    const int VEC = SOL_WORD_ELEMS(T), BLOCKS = LPR * CG / NT;
#pragma unroll
    for (int k = 0; k < BLOCKS; ++k) {
        int b = threadIdx.x + k * NT;
        int i = b % LPR, g = b / LPR;
        uint4 v[16 / sizeof(T)];
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            v[j] = tile[(i * VEC + j) * CG + (g ^ (i & 7))];
        sol_transpose_regs<T>(v);
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            sol_store_word<T>(out, c0 + g * VEC + j, r0 + i * VEC, cols, rows, v[j], vec, STREAM);
    }
}

/* out (cols x rows) = transpose of in (rows x cols), one tile per block. Grid (ceil(cols/TC),
 * ceil(rows/TR)), NT threads. STREAM marks loads and stores evict-first (ld/st.global.cs). */
template <typename T, int LPR, int CG, int NT, bool STREAM>
static __device__ __forceinline__ void sol_transpose_body(T *__restrict__ out, const T *__restrict__ in,
                                                          int rows, int cols)
{
    const int VEC = SOL_WORD_ELEMS(T), TR = LPR * VEC, TC = CG * VEC;
    __shared__ uint4 tile[LPR * 16 / sizeof(T) * CG];
    const int r0 = blockIdx.y * TR, c0 = blockIdx.x * TC;
    const bool vec = ((rows | cols) % VEC) == 0 && (((size_t)in | (size_t)out) & 15) == 0;
    uint4 w[LPR * 16 / sizeof(T) * CG / NT];
    sol_tile_load<T, LPR, CG, NT, STREAM>(w, in, r0, c0, rows, cols, vec);
    sol_tile_stash<T, LPR, CG, NT>(tile, w);
    __syncthreads();
    sol_tile_write<T, LPR, CG, NT, STREAM>(out, tile, r0, c0, rows, cols, vec);
}

/* The same tiles, software-pipelined over a persistent grid (as many blocks as fit on the GPU at
 * once, any 1-D grid works): block b takes tiles b, b + gridDim.x, ... in row-major tile order, so
 * the blocks in flight still sweep neighbouring tiles. The loads of a block's next tile are issued
 * before it writes out the current one, so every thread keeps its LOADS words in flight through the
 * write phase, where the one-tile schedule has none (bytes in flight, not bank conflicts, are what
 * separates a conflict-free transpose from a copy). */
template <typename T, int LPR, int CG, int NT, bool STREAM>
static __device__ __forceinline__ void sol_transpose_pipelined_body(T *__restrict__ out, const T *__restrict__ in,
                                                                    int rows, int cols)
{
    const int VEC = SOL_WORD_ELEMS(T), TR = LPR * VEC, TC = CG * VEC;
    __shared__ uint4 tile[LPR * 16 / sizeof(T) * CG];
    const bool vec = ((rows | cols) % VEC) == 0 && (((size_t)in | (size_t)out) & 15) == 0;
    const int tiles_c = (cols + TC - 1) / TC, tiles = tiles_c * ((rows + TR - 1) / TR);
    uint4 w[LPR * 16 / sizeof(T) * CG / NT];
    int t = blockIdx.x;
    if (t < tiles)
        sol_tile_load<T, LPR, CG, NT, STREAM>(w, in, t / tiles_c * TR, t % tiles_c * TC, rows, cols, vec);
    for (; t < tiles; t += gridDim.x) {
        sol_tile_stash<T, LPR, CG, NT>(tile, w);
        __syncthreads();
        const int next = t + gridDim.x;
        if (next < tiles)
            sol_tile_load<T, LPR, CG, NT, STREAM>(w, in, next / tiles_c * TR, next % tiles_c * TC, rows, cols, vec);
        sol_tile_write<T, LPR, CG, NT, STREAM>(out, tile, t / tiles_c * TR, t % tiles_c * TC, rows, cols, vec);
        __syncthreads(); /* the next stash overwrites the tile */
    }
}

/* The shipped configuration (bench/sol/dev.cu's sweeps on an H100; docs/speed-of-light.md): 256
 * threads, tiles of 16 x 16 sixteen-byte words (f32 64 x 64, f16 128 x 128, f64 32 x 32 elements),
 * plain loads and stores: evict-first hints looked faster only while the L2 still held input lines
 * from earlier runs, and lost once the bench scrubbed it.
 * sol_transpose_<t> (the default): grid (ceil(cols/TC), ceil(rows/TR)), one tile per block.
 * sol_transpose_pipelined_<t> (--kernel pipelined): a 1-D grid of SMs x resident blocks per SM (any
 * size works); verified by the tests, not yet timed on the H100. */
#define SOL_TR_THREADS 256
#define SOL_TR_LPR 16
#define SOL_TR_CG 16
#define SOL_TR_STREAM false
/* f32 pipelined: 71 registers unbounded (3 blocks per SM); capped at 64 (4 blocks per SM, 64 KB in
 * flight per SM) it spills 8 bytes. f16 and f64 run as compiled (f16 spills heavily when capped). */
#define SOL_TR_PIPELINED_F32_MIN_BLOCKS 4

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS)
sol_transpose_f32(sol_u32 *__restrict__ out, const sol_u32 *__restrict__ in, int rows, int cols)
{
    sol_transpose_body<sol_u32, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
}

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS, SOL_TR_PIPELINED_F32_MIN_BLOCKS)
sol_transpose_pipelined_f32(sol_u32 *__restrict__ out, const sol_u32 *__restrict__ in, int rows, int cols)
{
    sol_transpose_pipelined_body<sol_u32, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
}

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS)
sol_transpose_f16(sol_u16 *__restrict__ out, const sol_u16 *__restrict__ in, int rows, int cols)
{
    sol_transpose_body<sol_u16, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
}

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS)
sol_transpose_pipelined_f16(sol_u16 *__restrict__ out, const sol_u16 *__restrict__ in, int rows, int cols)
{
    sol_transpose_pipelined_body<sol_u16, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
}

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS)
sol_transpose_f64(sol_u64 *__restrict__ out, const sol_u64 *__restrict__ in, int rows, int cols)
{
    sol_transpose_body<sol_u64, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
}

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS)
sol_transpose_pipelined_f64(sol_u64 *__restrict__ out, const sol_u64 *__restrict__ in, int rows, int cols)
{
    sol_transpose_pipelined_body<sol_u64, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
}

/* ---- The textbook variants (32 x 32 tiles, 32 x 8 threads, each thread moves 4 elements) --------
 * Grid (ceil(cols/32), ceil(rows/32)), block (32, 8). After M. Harris, "An Efficient Matrix
 * Transpose in CUDA C/C++"; bounds-checked so any rows x cols works. */
#define SOL_T 32
#define SOL_BR 8

/* No shared memory: reads coalesced, writes strided by rows elements. */
template <typename T>
static __device__ __forceinline__ void sol_naive_body(T *__restrict__ out, const T *__restrict__ in, int rows, int cols)
{
    int x = blockIdx.x * SOL_T + threadIdx.x, y = blockIdx.y * SOL_T + threadIdx.y;
    for (int j = 0; j < SOL_T; j += SOL_BR)
        if (x < cols && y + j < rows)
            out[(size_t)x * rows + (y + j)] = in[(size_t)(y + j) * cols + x];
}

/* Where element (r, c) of the 32 x 32 tile lives, per layout:
 *  SOL_TILE    [32][32]: a column read hits one bank: 32 wavefronts a request for 4 and 8 bytes
 *              (ideal 1 and 2), 16 for 2 bytes (two lanes share a word).
 *  SOL_PAD     each row one 4-byte bank word longer (33 f32, 34 f16, 33 f64 = what 8-byte
 *              accesses, served a half-warp at a time, need), so a column walks the banks.
 *  SOL_SWIZZLE r*32 + (c ^ r): rows stay dense, a column visits 32 distinct columns. */
enum { SOL_TILE, SOL_PAD, SOL_SWIZZLE };

template <typename T, int LAYOUT>
static __device__ __forceinline__ int sol_tile_at(int r, int c)
{
    if (LAYOUT == SOL_PAD)
        return r * (SOL_T + (sizeof(T) == 2 ? 2 : 1)) + c;
    if (LAYOUT == SOL_SWIZZLE)
        return r * SOL_T + (c ^ r);
    return r * SOL_T + c;
}

/* Shared tile: reads and writes coalesced; the layout decides the bank conflicts. */
template <typename T, int LAYOUT>
static __device__ __forceinline__ void sol_tiled_body(T *__restrict__ out, const T *__restrict__ in, int rows, int cols)
{
    __shared__ T tile[SOL_T * (LAYOUT == SOL_PAD ? SOL_T + (sizeof(T) == 2 ? 2 : 1) : SOL_T)];
    int x = blockIdx.x * SOL_T + threadIdx.x, y = blockIdx.y * SOL_T + threadIdx.y;
    for (int j = 0; j < SOL_T; j += SOL_BR)
        if (x < cols && y + j < rows)
            tile[sol_tile_at<T, LAYOUT>(threadIdx.y + j, threadIdx.x)] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * SOL_T + threadIdx.x;
    y = blockIdx.x * SOL_T + threadIdx.y;
    for (int j = 0; j < SOL_T; j += SOL_BR)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[sol_tile_at<T, LAYOUT>(threadIdx.x, threadIdx.y + j)];
}

extern "C" __global__ void sol_transpose_naive_f32(sol_u32 *__restrict__ out, const sol_u32 *__restrict__ in, int rows, int cols)
{
    sol_naive_body<sol_u32>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_naive_f16(sol_u16 *__restrict__ out, const sol_u16 *__restrict__ in, int rows, int cols)
{
    sol_naive_body<sol_u16>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_naive_f64(sol_u64 *__restrict__ out, const sol_u64 *__restrict__ in, int rows, int cols)
{
    sol_naive_body<sol_u64>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_tile_f32(sol_u32 *__restrict__ out, const sol_u32 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u32, SOL_TILE>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_tile_f16(sol_u16 *__restrict__ out, const sol_u16 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u16, SOL_TILE>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_tile_f64(sol_u64 *__restrict__ out, const sol_u64 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u64, SOL_TILE>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_pad_f32(sol_u32 *__restrict__ out, const sol_u32 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u32, SOL_PAD>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_pad_f16(sol_u16 *__restrict__ out, const sol_u16 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u16, SOL_PAD>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_pad_f64(sol_u64 *__restrict__ out, const sol_u64 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u64, SOL_PAD>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_swizzle_f32(sol_u32 *__restrict__ out, const sol_u32 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u32, SOL_SWIZZLE>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_swizzle_f16(sol_u16 *__restrict__ out, const sol_u16 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u16, SOL_SWIZZLE>(out, in, rows, cols);
}
extern "C" __global__ void sol_transpose_swizzle_f64(sol_u64 *__restrict__ out, const sol_u64 *__restrict__ in, int rows, int cols)
{
    sol_tiled_body<sol_u64, SOL_SWIZZLE>(out, in, rows, cols);
}

/* ---- Inputs and the exact check ----------------------------------------------------------------
 * Element i of an input is a pure function of (i, seed), so the check recomputes what every output
 * element must be without reading the input buffer: a transpose that reads the wrong place, skips an
 * element or writes twice is caught, and so is a fill that went wrong. The host side (src/sol.c) has
 * the same functions for CPU references. Values are exact through cuBLAS geam (alpha 1, beta 0):
 * f32 = k/2^23 - 1 (k < 2^24), f64 = h/2^31 - 1, f16 = random bits with exponent < 16 (|x| < 2). */
static __device__ __forceinline__ unsigned sol_hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static __device__ __forceinline__ unsigned sol_mix(unsigned long long i, unsigned seed)
{
    return sol_hash32((unsigned)i + seed + sol_hash32((unsigned)(i >> 32)));
}

static __device__ __forceinline__ sol_u32 sol_val_f32(unsigned long long i, unsigned seed)
{
    return __float_as_uint((float)(sol_mix(i, seed) >> 8) * (1.0f / 8388608.0f) - 1.0f);
}

static __device__ __forceinline__ sol_u16 sol_val_f16(unsigned long long i, unsigned seed)
{
    return (sol_u16)(sol_mix(i, seed) & 0xBFFFu);
}

static __device__ __forceinline__ sol_u64 sol_val_f64(unsigned long long i, unsigned seed)
{
    return (sol_u64)__double_as_longlong((double)sol_mix(i, seed) * (1.0 / 2147483648.0) - 1.0);
}

static __device__ __forceinline__ sol_u32 sol_val(unsigned long long i, unsigned seed, sol_u32)
{
    return sol_val_f32(i, seed);
}
static __device__ __forceinline__ sol_u16 sol_val(unsigned long long i, unsigned seed, sol_u16)
{
    return sol_val_f16(i, seed);
}
static __device__ __forceinline__ sol_u64 sol_val(unsigned long long i, unsigned seed, sol_u64)
{
    return sol_val_f64(i, seed);
}

template <typename T>
static __device__ __forceinline__ void sol_fill_body(T *__restrict__ a, unsigned long long n, unsigned seed)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        a[i] = sol_val(i, seed, (T)0);
}

/* Adds to *bad the number of elements of out (cols x rows) that differ from the transpose of the
 * input sol_fill wrote for (rows x cols, seed). rows = 1 checks a plain copy. */
template <typename T>
static __device__ __forceinline__ void sol_check_body(const T *__restrict__ out, int rows, int cols, unsigned seed,
                                                      unsigned long long *__restrict__ bad)
{
    unsigned long long n = (unsigned long long)rows * (unsigned long long)cols, mine = 0;
    for (unsigned long long o = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; o < n;
         o += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long c = o / (unsigned)rows, r = o % (unsigned)rows;
        mine += out[o] != sol_val(r * (unsigned)cols + c, seed, (T)0);
    }
    if (mine)
        atomicAdd(bad, mine);
}

extern "C" __global__ void sol_fill_f32(sol_u32 *__restrict__ a, unsigned long long n, unsigned seed)
{
    sol_fill_body<sol_u32>(a, n, seed);
}
extern "C" __global__ void sol_fill_f16(sol_u16 *__restrict__ a, unsigned long long n, unsigned seed)
{
    sol_fill_body<sol_u16>(a, n, seed);
}
extern "C" __global__ void sol_fill_f64(sol_u64 *__restrict__ a, unsigned long long n, unsigned seed)
{
    sol_fill_body<sol_u64>(a, n, seed);
}
extern "C" __global__ void sol_check_f32(const sol_u32 *__restrict__ out, int rows, int cols, unsigned seed,
                                         unsigned long long *__restrict__ bad)
{
    sol_check_body<sol_u32>(out, rows, cols, seed, bad);
}
extern "C" __global__ void sol_check_f16(const sol_u16 *__restrict__ out, int rows, int cols, unsigned seed,
                                         unsigned long long *__restrict__ bad)
{
    sol_check_body<sol_u16>(out, rows, cols, seed, bad);
}
extern "C" __global__ void sol_check_f64(const sol_u64 *__restrict__ out, int rows, int cols, unsigned seed,
                                         unsigned long long *__restrict__ bad)
{
    sol_check_body<sol_u64>(out, rows, cols, seed, bad);
}
