/* sol_transpose.cu: out-of-place matrix transpose at the memory system's limit (issues 7 and 16) for
 * 4-, 2- and 8-byte elements (f32, f16, f64 bit patterns), any rows x cols and any alignment, beside
 * the textbook variants it improves on (naive, tile, pad, swizzle), and the fill/check kernels that
 * verify every element. Over 600 lines: the bench, the tests, the dev harnesses and `smemlab analyze`
 * load all of these from one fatbin / one PTX file, and the paths share their helpers. */

/* Element types by size: a transpose moves bits, so f32/f16/f64 travel as unsigned integers (no
 * rounding, NaN payloads and signed zeros survive, and no header beyond the compiler is needed). */
typedef unsigned int sol_u32;
typedef unsigned short sol_u16;
typedef unsigned long long sol_u64;

/* ---- Our kernels ----------------------------------------------------------------------------
 * One transpose, four launch paths; the host picks one by shape and alignment
 * (smem_sol_transpose_launch in src/gpu/sol.c, the only place that launches them):
 *   sol_transpose_<t>         rows and cols multiples of VEC (elements per 16-byte word), both
 *                             pointers 16-byte aligned: every global access a 16-byte word.
 *   sol_transpose_narrow_<t>  the same, with tiles of 32 columns, for matrices of at most 32 columns
 *                             (tall-skinny): a 64-column tile would leave half its threads idle.
 *   sol_transpose_any_<t>     any other shape or alignment: still 16-byte words, read and written at
 *                             the 16-byte boundaries of memory rather than of the rows, and shifted
 *                             into place in registers (see sol_tiled_any; the `_raw` candidates copy
 *                             each aligned word once to shared memory and shift there,
 *                             sol_any_interior_raw).
 *   sol_transpose_copy_<t>    rows == 1 or cols == 1: the transpose is a copy of the flat array.
 * The tile kernels launch grid (tiles across, tiles down) of NT-thread blocks, one block a tile; the
 * copy a 1-D grid.
 *
 * The tile is TR x TC elements (TR = LPR * VEC rows, TC = CG * VEC columns). Load phase: every thread
 * reads whole 16-byte words along input rows (CG lanes read CG*16 contiguous bytes) and stores them to
 * shared memory as 16-byte words. Store phase: every thread reads a VEC x VEC block as VEC 16-byte
 * words down a column of words, transposes it in registers and writes VEC 16-byte words to VEC output
 * rows; LPR lanes in a row write LPR*16 contiguous bytes.
 *
 * Bank conflicts: 16-byte shared accesses are served a quarter-warp (8 lanes, 128 bytes) at a time,
 * so 8 lanes must touch 8 different 16-byte bank groups. Word (r, g) is stored at column
 * g ^ ((r/VEC) & 7) of its row (an XOR swizzle on the word index; sol_word_at for rows narrower than
 * 128 bytes): the row stores stay a permutation of consecutive groups and the column reads (8 lanes =
 * 8 consecutive row blocks i, same g) spread over groups g ^ i: conflict-free with no padding, so
 * 16-byte accesses stay 16-byte aligned. */

#define SOL_WORD_ELEMS(T) ((int)(16 / sizeof(T)))

/* A hook for the host-side emulation of these kernels (bench/sol/emu_check.cpp), which checks every
 * global access against the buffers' bounds and counts the writes of every byte; nothing on the GPU. */
#ifndef SOL_CHECK_ACCESS
#define SOL_CHECK_ACCESS(p, bytes, store) ((void)0)
#endif

/* Cache hints of the global accesses. SOL_CACHE_L2_256B asks the L2 to fetch the 256 bytes around
 * each load (ld.global.nc.L2::256B): where row segments start off the 128-byte lines, a line is shared
 * by two tiles, each asking for its own sectors of it, and DRAM then serves two part-line requests
 * for one line; with the hint the first fetch brings the whole neighbourhood and the second tile hits
 * L2 (10000x7000 f32: 0.953 -> 0.971 of the copy on the H100; docs/speed-of-light.md). It is one of
 * two inline PTX instructions here (the other, sol_st16v's store, keeps a 16-byte store whole).
 * Evict-first (SOL_CACHE_STREAM) looked faster only
 * while the L2 still held input lines from earlier runs; it and SOL_CACHE_L2 stay for the dev harness's
 * sweeps. */
enum { SOL_CACHE_DEFAULT = 0, SOL_CACHE_STREAM = 1, SOL_CACHE_L2 = 2, SOL_CACHE_STORE_STREAM = 3, SOL_CACHE_L2_256B = 5 };

/* The emulator (bench/sol/emu_check.cpp) defines its own; CACHE mode 4 is the dev harness's
 * (bench/sol/dev16.cu: L2::128B), never the shipped kernels'. */
#ifndef SOL_LD16_L2_256B
static __device__ __forceinline__ uint4 sol_ld16_l2_256b(const void *p)
{
    uint4 r;
    asm volatile("ld.global.nc.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(p));
    return r;
}
#define SOL_LD16_L2_256B(p) sol_ld16_l2_256b(p)
#endif
#ifndef SOL_LD16_HINTED
#define SOL_LD16_HINTED(cache, p) __ldg((const uint4 *)(p))
#endif

template <int CACHE>
static __device__ __forceinline__ uint4 sol_ld16(const void *p)
{
    SOL_CHECK_ACCESS(p, 16, 0);
    if constexpr (CACHE == SOL_CACHE_L2_256B)
        return SOL_LD16_L2_256B(p);
    else if constexpr (CACHE == 4)
        return SOL_LD16_HINTED(CACHE, p);
    else if constexpr (CACHE == SOL_CACHE_STREAM)
        return __ldcs((const uint4 *)p);
    else if constexpr (CACHE == SOL_CACHE_L2)
        return __ldcg((const uint4 *)p);
    else
        return __ldg((const uint4 *)p);
}

template <int CACHE>
static __device__ __forceinline__ void sol_st16(void *p, uint4 w)
{
    SOL_CHECK_ACCESS(p, 16, 1);
    if constexpr (CACHE == SOL_CACHE_STREAM || CACHE == SOL_CACHE_STORE_STREAM)
        __stcs((uint4 *)p, w);
    else
        *(uint4 *)p = w;
}

/* A 16-byte store that stays one: a plain store of a word assembled on several branches (sol_window_u)
 * was split into four 4-byte stores by the compiler (four times the store sectors under Nsight
 * Compute at 4097^2 f32). */
#ifndef SOL_ST16V
static __device__ __forceinline__ void sol_st16v_ptx(void *p, uint4 w)
{
    asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(w.x), "r"(w.y), "r"(w.z), "r"(w.w));
}
#define SOL_ST16V(p, w) sol_st16v_ptx((p), (w))
#endif
/* An L2 prefetch of the line holding p (prefetch.global.L2: no register waits for it); the emulator
 * checks the address instead. A template: a kernel file built with -Werror may leave it unused. */
#ifndef SOL_PREFETCH_L2
template <int UNUSED = 0>
static __device__ __forceinline__ void sol_prefetch_l2_ptx(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}
#define SOL_PREFETCH_L2(p) sol_prefetch_l2_ptx<>(p)
#endif
/* Asynchronous 16-byte copies from global to shared memory (cp.async.cg: L2 only, issue 34): the
 * word goes to shared memory without passing through a register, so the bytes a SM keeps in flight
 * are bounded by its shared memory rather than by the registers that would wait for them. dst and src
 * 16-byte aligned; SOL_CP_ASYNC_WAIT waits for all of this thread's copies (a __syncthreads after it
 * makes every thread's visible). The emulator copies at once. Templates: a kernel file built with
 * -Werror may leave them unused. */
#ifndef SOL_CP_ASYNC16
template <int HINT256 = 0>
static __device__ __forceinline__ void sol_cp_async16_ptx(void *dst, const void *src)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    if constexpr (HINT256)
        asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
}
template <int UNUSED = 0>
static __device__ __forceinline__ void sol_cp_async_wait_ptx()
{
    asm volatile("cp.async.wait_all;" ::: "memory");
}
#define SOL_CP_ASYNC16(dst, src, hint256) sol_cp_async16_ptx<(hint256)>((dst), (src))
#define SOL_CP_ASYNC_WAIT() sol_cp_async_wait_ptx<>()
#endif
template <int CACHE>
static __device__ __forceinline__ void sol_cp16(uint4 *dst, const void *src)
{
    SOL_CHECK_ACCESS(src, 16, 0);
    SOL_CP_ASYNC16(dst, src, CACHE == SOL_CACHE_L2_256B ? 1 : 0);
}

static __device__ __forceinline__ void sol_st16v(void *p, uint4 w)
{
    SOL_CHECK_ACCESS(p, 16, 1);
    SOL_ST16V(p, w);
}

template <typename T>
static __device__ __forceinline__ T sol_ld1(const T *p)
{
    SOL_CHECK_ACCESS(p, sizeof(T), 0);
    return *p;
}

template <typename T>
static __device__ __forceinline__ void sol_st1(T *p, T v)
{
    SOL_CHECK_ACCESS(p, sizeof(T), 1);
    *p = v;
}

/* VEC elements as one 16-byte word (element 0 in the low bytes). */
template <typename T>
static __device__ __forceinline__ uint4 sol_pack(const T *e)
{
    if constexpr (sizeof(T) == 4)
        return make_uint4(e[0], e[1], e[2], e[3]);
    else if constexpr (sizeof(T) == 2)
        return make_uint4(e[0] | ((unsigned)e[1] << 16), e[2] | ((unsigned)e[3] << 16), e[4] | ((unsigned)e[5] << 16),
                          e[6] | ((unsigned)e[7] << 16));
    else
        return make_uint4((unsigned)e[0], (unsigned)(e[0] >> 32), (unsigned)e[1], (unsigned)(e[1] >> 32));
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

/* sol_transpose_regs for 2-byte elements with one byte permute per 32-bit output part (32 for the
 * block): part m of output word k takes half (k & 1) of part k >> 1 of input words 2m and 2m+1. The
 * any path's fast tiles use it (the generic form compiles to shifts and masks). */
template <typename T>
static __device__ __forceinline__ void sol_transpose_regs_prmt(uint4 *v)
{
    if constexpr (sizeof(T) != 2) {
        sol_transpose_regs<T>(v);
    } else {
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
            const unsigned sel = (k & 1) ? 0x7632u : 0x5410u;
            v[k] = make_uint4(__byte_perm(a[0][k >> 1], a[1][k >> 1], sel), __byte_perm(a[2][k >> 1], a[3][k >> 1], sel),
                              __byte_perm(a[4][k >> 1], a[5][k >> 1], sel), __byte_perm(a[6][k >> 1], a[7][k >> 1], sel));
        }
    }
}

/* Elements s .. s+VEC-1 of the 2*VEC elements of x followed by y (0 <= s < VEC): a funnel shift by
 * s elements. s is a run-time value; the 32-bit words are picked by two rounds of selects on the
 * bits of the word offset q = s*size/4 (0..3), then funnel-shifted by the rest: 12 selects and 4
 * shifts (a chain of compares on q took 20 selects), nothing leaves the registers. */
template <typename T>
static __device__ __forceinline__ uint4 sol_window(uint4 x, uint4 y, int s)
{
    const int bytes = s * (int)sizeof(T), q = bytes >> 2, sh = (bytes & 3) * 8;
    const unsigned c[8] = {x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w};
    unsigned a[7], d[5];
#pragma unroll
    for (int k = 0; k < 7; ++k)
        a[k] = (q & 1) ? c[k + 1] : c[k];
#pragma unroll
    for (int k = 0; k < 5; ++k)
        d[k] = (q & 2) ? a[k + 2] : a[k];
    return make_uint4(__funnelshift_r(d[0], d[1], sh), __funnelshift_r(d[1], d[2], sh), __funnelshift_r(d[2], d[3], sh),
                      __funnelshift_r(d[3], d[4], sh));
}

/* The same window for a shift S known at compile time (0 <= S <= VEC): four funnel shifts at most,
 * or none where S moves whole 32-bit words. */
template <typename T, int S>
static __device__ __forceinline__ uint4 sol_window_ct(uint4 x, uint4 y)
{
    constexpr int bytes = S * (int)sizeof(T), q = bytes / 4, sh = (bytes % 4) * 8;
    static_assert(S >= 0 && bytes <= 16, "a window of two words");
    const unsigned c[9] = {x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w, 0u};
    if constexpr (sh == 0)
        return make_uint4(c[q], c[q + 1], c[q + 2], c[q + 3]);
    else
        return make_uint4(__funnelshift_r(c[q], c[q + 1], sh), __funnelshift_r(c[q + 1], c[q + 2], sh),
                          __funnelshift_r(c[q + 2], c[q + 3], sh), __funnelshift_r(c[q + 3], c[q + 4], sh));
}

/* sol_window for a shift s (0 <= s <= VEC) that is the same for every thread of the launch (it comes
 * from the kernel's parameters and compile-time indices alone): a branch to one of VEC + 1
 * compile-time windows, so no thread selects among words. */
template <typename T, int S = 0>
static __device__ __forceinline__ uint4 sol_window_u(uint4 x, uint4 y, int s)
{
    if constexpr (S == 16 / (int)sizeof(T)) {
        return y;
    } else {
        if (s == S)
            return sol_window_ct<T, S>(x, y);
        return sol_window_u<T, S + 1>(x, y, s);
    }
}

/* Lane l - 1's 16-byte word, within groups of `width` lanes (every lane of the warp takes part). */
static __device__ __forceinline__ uint4 sol_shfl_up16(uint4 w, int width)
{
    return make_uint4(__shfl_up_sync(0xFFFFFFFFu, w.x, 1, width), __shfl_up_sync(0xFFFFFFFFu, w.y, 1, width),
                      __shfl_up_sync(0xFFFFFFFFu, w.z, 1, width), __shfl_up_sync(0xFFFFFFFFu, w.w, 1, width));
}

/* The word of `in` that starts at element offset off (16-byte aligned in memory); elements outside
 * [0, n) read as 0, so neither end of the array is read past. */
template <typename T, int CACHE>
static __device__ __forceinline__ uint4 sol_ld16_in(const T *__restrict__ in, long long off, long long n)
{
    const int VEC = SOL_WORD_ELEMS(T);
    if (off >= 0 && off + VEC <= n)
        return sol_ld16<CACHE>(in + off);
    T e[16 / sizeof(T)];
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        e[j] = (off + j >= 0 && off + j < n) ? sol_ld1(in + off + j) : (T)0;
    return sol_pack<T>(e);
}

/* Elements lo .. hi-1 of word w to out[off + j] (a word that other tiles share). */
template <typename T>
static __device__ __forceinline__ void sol_st_part(T *__restrict__ out, long long off, uint4 w, int lo, int hi)
{
#pragma unroll
    for (int j = 0; j < SOL_WORD_ELEMS(T); ++j)
        if (j >= lo && j < hi)
            sol_st1(out + off + j, sol_word_elem<T>(w, j));
}

/* Which tile this block takes, of tiles_r x tiles_c. ORDER 0: grid (tiles_c, tiles_r), row-major
 * (consecutive blocks walk along a tile row, so the blocks in flight read whole input rows); 1: grid
 * (tiles_r, tiles_c), column-major; -1: column-major on a 1-D grid (no limit of 65535 tile columns);
 * G > 1: a 1-D grid, bands of G tile rows walked column by column.
 * A 2-D grid costs no division: the uncapped f32 tile kernel needs 42 registers with it, 48 with a
 * 1-D row-major one; under the register caps of the any kernels the 1-D column-major grid costs none. */
template <int ORDER>
static __device__ __forceinline__ void sol_tile_of_block(int tiles_r, int tiles_c, int &tr, int &tc)
{
    if constexpr (ORDER == 0) {
        tr = (int)blockIdx.y;
        tc = (int)blockIdx.x;
    } else if constexpr (ORDER == 1) {
        tr = (int)blockIdx.x;
        tc = (int)blockIdx.y;
    } else if constexpr (ORDER == -1) {
        tc = (int)blockIdx.x / tiles_r;
        tr = (int)blockIdx.x - tc * tiles_r;
    } else {
        const int L = (int)blockIdx.x, per = ORDER * tiles_c, grp = L / per, first = grp * ORDER;
        const int gs = tiles_r - first < ORDER ? tiles_r - first : ORDER, local = L - grp * per;
        tr = first + local % gs;
        tc = local / gs;
    }
}

/* Where word g of tile row r lives in shared memory (in 16-byte words), for a tile CG words wide:
 * row r at r*CG, its words XOR-swizzled by k = (r/VEC) & 7. A row narrower than 128 bytes (CG < 8)
 * shares a 128-byte line with the P = 8/CG rows of its group (all in one row block, so with one k):
 * the low bits of k swizzle the word, the high bits which slot of the line the row takes. Either
 * way, 8 lanes storing 8 consecutive words of a row (or of P rows) and 8 lanes reading word g of
 * 8 consecutive row blocks touch 8 different 16-byte bank groups. */
template <typename T, int CG>
static __device__ __forceinline__ int sol_word_at(int r, int g)
{
    const int k = (r / SOL_WORD_ELEMS(T)) & 7;
    if constexpr (CG >= 8) {
        return r * CG + (g ^ k);
    } else {
        constexpr int P = 8 / CG;
        static_assert(P <= 16 / sizeof(T), "a line's rows must share a row block");
        return (r & ~(P - 1)) * CG + ((r & (P - 1)) ^ (k / CG)) * CG + (g ^ (k & (CG - 1)));
    }
}

/* The tile's store phase, shared by the aligned and the any path: thread b takes block (i, g) (i = b
 * % LPR: rows i*VEC.., g: word column), reads it down the column and transposes it in registers, so
 * v[j] holds elements i*VEC .. i*VEC+VEC-1 of output row c0 + g*VEC + j. */
template <typename T, int LPR, int CG, bool PRMT = false>
static __device__ __forceinline__ void sol_tile_block(uint4 *v, const uint4 *tile, int i, int g)
{
    const int VEC = SOL_WORD_ELEMS(T);
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        v[j] = tile[sol_word_at<T, CG>(i * VEC + j, g)];
    if constexpr (PRMT)
        sol_transpose_regs_prmt<T>(v);
    else
        sol_transpose_regs<T>(v);
}

/* out (cols x rows) = transpose of in (rows x cols); rows and cols multiples of VEC, in and out
 * 16-byte aligned (the launcher checks). tile: TR*CG words of shared memory (static, or dynamic for
 * tiles over 48 KB). */
template <typename T, int LPR, int CG, int NT, int CACHE, int ORDER, bool ASYNC = false>
static __device__ __forceinline__ void sol_tiled_aligned_in(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                            int cols, uint4 *tile)
{
    constexpr int VEC = 16 / sizeof(T), TR = LPR * VEC, TC = CG * VEC, LOADS = TR * CG / NT, BLOCKS = LPR * CG / NT;
    static_assert(LOADS * NT == TR * CG && BLOCKS * NT == LPR * CG && BLOCKS >= 1, "tile and block do not match");
    int tr, tc;
    sol_tile_of_block<ORDER>((rows + TR - 1) / TR, (cols + TC - 1) / TC, tr, tc);
    const int r0 = tr * TR, c0 = tc * TC;
    if constexpr (ASYNC) {
        /* ASYNC (issue 34): each word straight to its place in the tile (cp.async), no register waits
         * for it; words outside the matrix are not loaded (the store phase never writes them) */
#pragma unroll
        for (int k = 0; k < LOADS; ++k) {
            const int idx = (int)threadIdx.x + k * NT, r = r0 + idx / CG, c = c0 + idx % CG * VEC;
            if (r < rows && c < cols)
                sol_cp16<CACHE>(&tile[sol_word_at<T, CG>(idx / CG, idx % CG)], in + (size_t)r * (size_t)cols + c);
        }
        SOL_CP_ASYNC_WAIT();
    } else {
        uint4 w[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; ++k) {
            const int idx = (int)threadIdx.x + k * NT, r = r0 + idx / CG, c = c0 + idx % CG * VEC;
            w[k] = make_uint4(0u, 0u, 0u, 0u);
            if (r < rows && c < cols)
                w[k] = sol_ld16<CACHE>(in + (size_t)r * (size_t)cols + c);
        }
#pragma unroll
        for (int k = 0; k < LOADS; ++k) {
            const int idx = (int)threadIdx.x + k * NT, r = idx / CG, g = idx % CG;
            tile[sol_word_at<T, CG>(r, g)] = w[k];
        }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCKS; ++k) {
        const int b = (int)threadIdx.x + k * NT, i = b % LPR, g = b / LPR;
        uint4 v[16 / sizeof(T)];
        sol_tile_block<T, LPR, CG>(v, tile, i, g);
        const int orow = c0 + g * VEC, ocol = r0 + i * VEC;
        if (ocol < rows) {
#pragma unroll
            for (int j = 0; j < VEC; ++j)
                if (orow + j < cols)
                    sol_st16<CACHE>(out + (size_t)(orow + j) * (size_t)rows + ocol, v[j]);
        }
    }
}

template <typename T, int LPR, int CG, int NT, int CACHE, int ORDER, bool ASYNC = false>
static __device__ __forceinline__ void sol_tiled_aligned(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                         int cols)
{
    __shared__ uint4 tile[LPR * CG * 16 / sizeof(T)];
    sol_tiled_aligned_in<T, LPR, CG, NT, CACHE, ORDER, ASYNC>(out, in, rows, cols, tile);
}

/* The same with the tile in dynamic shared memory (launch with TR*CG*16 bytes; the dev harness's
 * tiles over 48 KB). The emulator declares the array its own way. */
#ifndef SOL_DYNAMIC_SHARED
#define SOL_DYNAMIC_SHARED extern __shared__
#endif
template <typename T, int LPR, int CG, int NT, int CACHE, int ORDER>
static __device__ __forceinline__ void sol_tiled_aligned_dyn(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                             int cols)
{
    SOL_DYNAMIC_SHARED uint4 sol_dyn_tile[];
    sol_tiled_aligned_in<T, LPR, CG, NT, CACHE, ORDER>(out, in, rows, cols, sol_dyn_tile);
}

/* Any shape and alignment (in and out aligned to their element size). Rows that do not start on a
 * 16-byte boundary are still moved in 16-byte words, at the boundaries of memory:
 *   load: row r's segment [c0, c0 + TC) starts a elements past a boundary (a = (its address / elem)
 *   mod VEC, the same for the whole row). Lane g reads the aligned word that starts a elements before
 *   column c0 + g*VEC and the next one (the next lane's, so an L1 hit), and funnel-shifts the pair by
 *   a elements: the tile in shared memory is exactly the aligned path's.
 *   store: output row oc's segment starts b elements past a boundary. A tile owns the aligned words
 *   that start in [r0 - b, r0 + TR - b): lane i writes the word of tile elements i*VEC - b ..
 *   i*VEC - b + VEC - 1, the last b elements of lane i-1's block (a shuffle) and the first VEC - b of
 *   its own. Lane 0's first b come from the row block above the tile, which the tile loads too (VEC
 *   more rows, read again from L2): so every word a tile writes is whole, and words shared by two
 *   tiles exist only at the two ends of an output row (written element by element, ours only).
 * The extra row block and the second word per lane are the only extra reads, both L2 or L1 hits; the
 * shuffles need LPR to divide 32. */
/* The any path's tiles that lie inside the matrix (r0 > 0, r0 + TR < rows, c0 + TC <= cols: every
 * tile of a large matrix but its last tile column and its first and last tile rows), with nothing
 * to check: every word read exists (the pair's second word past a row's end is the next row's), every
 * word written is whole. The shifts are the same in every tile: row k of a row block starts
 * a_k = (in_mis + k*cols) mod VEC elements past a 16-byte boundary, and output column j of a block
 * b_j = (out_mis + j*rows) mod VEC (tiles and blocks start at multiples of VEC), so each is one
 * uniform branch to a compile-time window (sol_window_u) instead of selects in every thread.
 *   load: thread t takes word g = t % CG of the VEC rows of row block t / CG (one word per row of the
 *   block, so the k-th load of every thread has shift a_k), and threads t < VEC*CG one word of the
 *   row block above the tile (shift by row: the run-time window).
 *   store: thread t takes block (i, g) = (t % LPR, t / LPR) and the block above it, both read down
 *   the column and transposed in registers; the word it owns in output row j is the last b_j
 *   elements of the upper block's column and the first VEC - b_j of its own. No shuffle, no
 *   element-by-element read of the row block above. */
template <int WIDTH> static __device__ __forceinline__ uint4 sol_shfl_down16(uint4 w);

/* SHFL (issue 34, a candidate): the second word of each pair is the next lane's first (a shuffle
 * within the CG lanes of a row); only the row's last lane loads its own. Half the load instructions
 * and L1 wavefronts of the pair loads, for a shuffle per word. */
template <typename T, int LPR, int CG, int NT, int CACHE, bool SHFL = false>
static __device__ __forceinline__ void sol_any_interior(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                        int cols, int r0, int c0, int in_mis, int out_mis,
                                                        uint4 *tile)
{
    constexpr int VEC = 16 / sizeof(T);
    static_assert(LPR * CG == NT, "one word per thread per row of a row block, one block per thread");
    const int t = (int)threadIdx.x, cm = cols & (VEC - 1), rm = rows & (VEC - 1);
    const int rb = t / CG, g = t % CG;
    const T *src = in + ((size_t)(r0 + rb * VEC) * (size_t)cols + (size_t)(c0 + g * VEC));
    uint4 w[VEC];
    /* no branch between the loads: a branch per word (sol_window_u) made each load wait for the one
     * before it (ptxas does not hoist a load over a branch), a round trip per row: 0.85 of the copy
     * against 0.93 at 4097^2 f32 on the H100 (docs/speed-of-light.md). The selects of sol_window
     * take uniform shifts here. */
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
        const int a = (in_mis + k * cm) & (VEC - 1);
        const T *p = src + (size_t)k * (size_t)cols - a;
        const uint4 lo = sol_ld16<CACHE>(p);
        uint4 hi = lo;
        if constexpr (SHFL) {
            hi = sol_shfl_down16<CG>(lo);
            if (a && g == CG - 1)
                hi = sol_ld16<CACHE>(p + VEC);
        } else if (a) {
            hi = sol_ld16<CACHE>(p + VEC);
        }
        w[k] = sol_window<T>(lo, hi, a);
    }
    uint4 wa = make_uint4(0u, 0u, 0u, 0u);
    const bool above = t < VEC * CG;
    if (above) {
        const int a = (in_mis + rb * cm) & (VEC - 1);
        const T *p = in + ((size_t)(r0 - VEC + rb) * (size_t)cols + (size_t)(c0 + g * VEC)) - a;
        const uint4 lo = sol_ld16<CACHE>(p), hi = a ? sol_ld16<CACHE>(p + VEC) : lo;
        wa = sol_window<T>(lo, hi, a);
    }
#pragma unroll
    for (int k = 0; k < VEC; ++k)
        tile[sol_word_at<T, CG>(VEC + rb * VEC + k, g)] = w[k];
    if (above)
        tile[sol_word_at<T, CG>(rb, g)] = wa;
    __syncthreads();
    const int i = t % LPR, gs = t / LPR;
    uint4 v[VEC];
    sol_tile_block<T, LPR, CG, true>(v, tile, i + 1, gs);
    T *dst = out + ((size_t)(c0 + gs * VEC) * (size_t)rows + (size_t)(r0 + i * VEC));
    if ((out_mis | rm) == 0) {
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            sol_st16<CACHE>(dst + (size_t)j * (size_t)rows, v[j]);
    } else {
        uint4 u[VEC];
        sol_tile_block<T, LPR, CG, true>(u, tile, i, gs);
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            const int b = (out_mis + j * rm) & (VEC - 1);
            /* 2-byte elements: selects, not a branch to one of 9 windows per word (72 of them in
             * the code: instruction-cache misses under Nsight Compute) */
            const uint4 word = sizeof(T) == 2 ? (b ? sol_window<T>(u[j], v[j], VEC - b) : v[j])
                                              : sol_window_u<T>(u[j], v[j], VEC - b);
            sol_st16v(dst + (size_t)j * (size_t)rows - b, word);
        }
    }
}

/* sol_window for 2-byte elements and a shift s (0 <= s <= VEC) that is the same in every lane of the
 * warp: a branch to one of five word offsets, then four funnel shifts by 0 or 16 bits (sol_window's
 * selects take 12 instructions a word more). Only where s is warp-uniform: a branch that diverges
 * runs every path. */
template <typename T>
static __device__ __forceinline__ uint4 sol_window_w(uint4 x, uint4 y, int s)
{
    static_assert(sizeof(T) == 2, "2-byte elements");
    const unsigned sh = (unsigned)(s & 1) * 16u;
    switch (s >> 1) {
    case 0:
        return make_uint4(__funnelshift_r(x.x, x.y, sh), __funnelshift_r(x.y, x.z, sh), __funnelshift_r(x.z, x.w, sh),
                          __funnelshift_r(x.w, y.x, sh));
    case 1:
        return make_uint4(__funnelshift_r(x.y, x.z, sh), __funnelshift_r(x.z, x.w, sh), __funnelshift_r(x.w, y.x, sh),
                          __funnelshift_r(y.x, y.y, sh));
    case 2:
        return make_uint4(__funnelshift_r(x.z, x.w, sh), __funnelshift_r(x.w, y.x, sh), __funnelshift_r(y.x, y.y, sh),
                          __funnelshift_r(y.y, y.z, sh));
    case 3:
        return make_uint4(__funnelshift_r(x.w, y.x, sh), __funnelshift_r(y.x, y.y, sh), __funnelshift_r(y.y, y.z, sh),
                          __funnelshift_r(y.z, y.w, sh));
    default:
        return y;
    }
}

/* Lane l + 1's 16-byte word, within groups of WIDTH lanes (every lane of the warp takes part). A
 * template: a kernel file built with -Werror may leave it unused. */
template <int WIDTH>
static __device__ __forceinline__ uint4 sol_shfl_down16(uint4 w)
{
    const int width = WIDTH;
    return make_uint4(__shfl_down_sync(0xFFFFFFFFu, w.x, 1, width), __shfl_down_sync(0xFFFFFFFFu, w.y, 1, width),
                      __shfl_down_sync(0xFFFFFFFFu, w.z, 1, width), __shfl_down_sync(0xFFFFFFFFu, w.w, 1, width));
}

/* Word (r, g) to the tile; SWAP: odd words with their 8-byte halves swapped (two 8-byte stores). */
/* Which 8-byte half of word (r, g) holds its first half: g & 1 (SWAP), and with SW2 also bit 3 of g
 * and bit 3 of the row block r / VEC. SW2 (round 5, for tiles of 16 row blocks and 16 words a row):
 * the 16 lanes of a half-warp that store the 16 words of a row put word columns g and g ^ 8, the
 * same banks, in different halves, and the 16 that read row blocks i and i + 8 (the same swizzle
 * column) take different halves: 8-byte accesses without bank conflicts, as `smemlab analyze`
 * reports; the plain swap left both 2-way with 128x128 tiles. */
template <bool SW2>
static __device__ __forceinline__ int sol_half_swap(int r_block, int g)
{
    return SW2 ? ((g ^ (g >> 3) ^ (r_block >> 3)) & 1) : (g & 1);
}

template <typename T, int CG, bool SWAP, bool SW2 = false>
static __device__ __forceinline__ void sol_put_word(uint4 *tile, int r, int g, uint4 v)
{
    uint4 *d = &tile[sol_word_at<T, CG>(r, g)];
    if constexpr (SWAP) {
        sol_u64 *d8 = (sol_u64 *)d;
        const int sw = sol_half_swap<SW2>(r / SOL_WORD_ELEMS(T), g);
        d8[sw] = (sol_u64)v.x | ((sol_u64)v.y << 32);
        d8[sw ^ 1] = (sol_u64)v.z | ((sol_u64)v.w << 32);
    } else {
        *d = v;
    }
}

/* The interior tiles of the 2-byte any path with two threads to each of sol_any_interior's jobs
 * (NT = 2*LPR*CG; issue 16, round 3). sol_any_interior holds a VEC x VEC block and the one above it
 * in registers: for 8 x 8 blocks of 2-byte elements that is 64 registers of data, 80-104 in all, 5
 * warps a scheduler at 4097^2 and 0.84-0.88 of the copy on the H100 (capped at 64 it spilled); the
 * general path, at 64 registers, did 1600 instructions a warp (0.88-0.89). Here each thread does
 * half a block:
 *   load: thread t takes word g = t % CG of VEC/2 consecutive rows of the tile, so it has VEC/2
 *   loads (pairs of words) in flight; threads t < VEC*CG take one row of the row block above, as in
 *   sol_any_interior. Which rows: q*VEC/2 .. for q = t / CG (MODE bit 2 clear), or rows
 *   kh*VEC/2 .. of row block q % LPR, kh = q / LPR (bit 2 set), so that every lane of a warp has
 *   the same rows of its row block and so the same shifts, and the window is sol_window_w's uniform
 *   branch instead of selects.
 *   store: thread t takes columns p*VEC/2 .. p*VEC/2 + VEC/2 - 1 of block (i, g) = (t % LPR,
 *   (t / LPR) % CG) and of the block above it: VEC 8-byte shared loads (LDS.64) for each block, VEC/2
 *   output words. 8 lanes read word column g and the next 8 word column g + 1 of the same 8 row
 *   blocks: the same 16-byte bank groups, so they must take different halves of them. Bit 0 clear:
 *   p = (t / (LPR*CG)) ^ (g & 1), so the output columns, hence the shifts, differ between lanes
 *   (selects); bit 0 set: p = t / (LPR*CG), the same in the warp, and the load phase stores the two
 *   halves of odd words swapped (two 8-byte stores), so lanes read physical half p ^ (g & 1).
 *   MODE bit 1: the second word of each pair comes from the next lane by shuffle (the row's last
 *   lane loads it), not from a second load (L1 hits in the main).
 * Registers of data: 2 x VEC x 8 bytes (32) instead of 64. */
template <typename T, int LPR, int CG, int NT, int CACHE, int MODE, bool ROW0 = false>
static __device__ __forceinline__ void sol_any_interior_split(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                              int cols, int r0, int c0, int in_mis, int out_mis,
                                                              uint4 *tile)
{
    constexpr int VEC = 16 / sizeof(T), RK = VEC / 2;
    constexpr bool UNI = (MODE & 1) != 0, SHFL = (MODE & 2) != 0, UNI_LD = (MODE & 4) != 0;
    constexpr bool SW2 = UNI && (MODE & 8) != 0; /* sol_half_swap */
    static_assert(sizeof(T) == 2 && 2 * LPR * CG == NT, "2-byte elements, two threads a block");
    static_assert(!UNI_LD || CG >= 32 || (32 % CG == 0 && LPR % (32 / CG) == 0), "a warp's lanes share their rows' places");
    static_assert(!SHFL || (CG <= 32 && 32 % CG == 0), "a row's words in one warp");
    const int t = (int)threadIdx.x, cm = cols & (VEC - 1), rm = rows & (VEC - 1);
    const int q = t / CG, g = t % CG, row0 = UNI_LD ? (q % LPR) * VEC + (q / LPR) * RK : q * RK, k0 = row0 & (VEC - 1);
    const T *src = in + ((size_t)(r0 + row0) * (size_t)cols + (size_t)(c0 + g * VEC));
    uint4 lo[RK], hi[RK];
    int a[RK];
    /* every load before the first window: a branch between loads serialises them (sol_any_interior) */
#pragma unroll
    for (int k = 0; k < RK; ++k) {
        a[k] = (in_mis + (k0 + k) * cm) & (VEC - 1);
        const T *p = src + (size_t)k * (size_t)cols - a[k];
        lo[k] = sol_ld16<CACHE>(p);
        if constexpr (SHFL)
            hi[k] = (g == CG - 1 && a[k]) ? sol_ld16<CACHE>(p + VEC) : lo[k];
        else
            hi[k] = a[k] ? sol_ld16<CACHE>(p + VEC) : lo[k];
    }
    uint4 wa = make_uint4(0u, 0u, 0u, 0u);
    const bool above = t < VEC * CG;
    if (above && (!ROW0 || r0 > 0)) { /* ROW0: the first tile row has no row block above (zeros) */
        const int aa = (in_mis + q * cm) & (VEC - 1);
        const T *p = in + ((size_t)(r0 - VEC + q) * (size_t)cols + (size_t)(c0 + g * VEC)) - aa;
        const uint4 l = sol_ld16<CACHE>(p), h = aa ? sol_ld16<CACHE>(p + VEC) : l;
        wa = sol_window<T>(l, h, aa);
    }
    uint4 w[RK];
#pragma unroll
    for (int k = 0; k < RK; ++k) {
        uint4 h = hi[k];
        if constexpr (SHFL) {
            const uint4 nb = sol_shfl_down16<CG>(lo[k]);
            if (g != CG - 1)
                h = nb;
        }
        if constexpr (UNI_LD)
            w[k] = sol_window_w<T>(lo[k], h, a[k]);
        else
            w[k] = sol_window<T>(lo[k], h, a[k]);
    }
#pragma unroll
    for (int k = 0; k < RK; ++k)
        sol_put_word<T, CG, UNI, SW2>(tile, VEC + row0 + k, g, w[k]);
    if (above)
        sol_put_word<T, CG, UNI, SW2>(tile, q, g, wa);
    __syncthreads();
    const int i = t % LPR, gs = (t / LPR) % CG, hq = t / (LPR * CG);
    const int p = UNI ? hq : hq ^ (gs & 1); /* the logical half; physical: ph (v), phu (u) */
    const int ph = UNI ? p ^ sol_half_swap<SW2>(1 + i, gs) : p, phu = UNI ? p ^ sol_half_swap<SW2>(i, gs) : p;
    /* half ph (RK elements, two 32-bit words) of row k of the block (v) and of the block above (u) */
    unsigned v[VEC][2], u[VEC][2];
    const bool shifted = (out_mis | rm) != 0;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
        const sol_u64 x = *((const sol_u64 *)&tile[sol_word_at<T, CG>(VEC + i * VEC + k, gs)] + ph);
        v[k][0] = (unsigned)x;
        v[k][1] = (unsigned)(x >> 32);
        if (shifted) {
            const sol_u64 y = *((const sol_u64 *)&tile[sol_word_at<T, CG>(i * VEC + k, gs)] + phu);
            u[k][0] = (unsigned)y;
            u[k][1] = (unsigned)(y >> 32);
        }
    }
    T *dst = out + ((size_t)(c0 + gs * VEC + p * RK) * (size_t)rows + (size_t)(r0 + i * VEC));
#pragma unroll
    for (int jj = 0; jj < RK; ++jj) {
        /* column p*RK + jj of the block: part m holds rows 2m (low half) and 2m + 1 (high half) */
        const unsigned sel = (jj & 1) ? 0x7632u : 0x5410u;
        const uint4 vj = make_uint4(__byte_perm(v[0][jj >> 1], v[1][jj >> 1], sel), __byte_perm(v[2][jj >> 1], v[3][jj >> 1], sel),
                                    __byte_perm(v[4][jj >> 1], v[5][jj >> 1], sel), __byte_perm(v[6][jj >> 1], v[7][jj >> 1], sel));
        if (!shifted) {
            sol_st16<CACHE>(dst + (size_t)jj * (size_t)rows, vj);
        } else {
            const uint4 uj = make_uint4(__byte_perm(u[0][jj >> 1], u[1][jj >> 1], sel), __byte_perm(u[2][jj >> 1], u[3][jj >> 1], sel),
                                        __byte_perm(u[4][jj >> 1], u[5][jj >> 1], sel), __byte_perm(u[6][jj >> 1], u[7][jj >> 1], sel));
            const int b = (out_mis + (p * RK + jj) * rm) & (VEC - 1);
            uint4 word;
            if constexpr (UNI)
                word = sol_window_w<T>(uj, vj, VEC - b);
            else
                word = b ? sol_window<T>(uj, vj, VEC - b) : vj;
            T *const wp = dst + (size_t)jj * (size_t)rows - b;
            if (ROW0 && r0 == 0 && i == 0 && b != 0) {
                /* the first tile row: the word's first b elements end the output row before, which
                 * its last tile writes; ours are elements b .. VEC-1 */
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    if (e >= b)
                        sol_st1(wp + e, sol_word_elem<T>(word, e));
            } else {
                sol_st16v(wp, word);
            }
        }
    }
}

/* The input lines of the tile that block blockIdx.x + PF takes (1-D grid: ORDER -1), to L2 (issue
 * 16, round 4). The any kernel is latency-bound at 4097^2 (long-scoreboard stalls 10.3 of 18.7
 * cycles an instruction; registers cap it at 4 blocks of 8 warps a SM): a prefetch puts more
 * requests in flight without a register waiting for them, and the block that loads the tile PF
 * blocks later finds its lines in L2. Every address lies inside the tile's row segments (the first
 * line of a row from the segment's first element), so nothing outside the input is touched.
 * Measured on the H100 (docs/speed-of-light.md, round 4): slower at every distance, the farther the
 * slower (4097^2 f16: +1-2 % at PF 66, +15 % at 1056; 8191^2: +7 % to +34 %), so it ships off
 * (SOL_ANY_F16_PF 0) and stays for the dev harness. */
template <typename T, int TR, int TC, int NT, int PF>
static __device__ __forceinline__ void sol_prefetch_tile(const T *__restrict__ in, int rows, int cols, int tiles_r,
                                                         int tiles_c)
{
    constexpr int LINES = ((TC * (int)sizeof(T) + 127) / 128) + 1; /* lines a misaligned row segment spans */
    const int fb = (int)blockIdx.x + PF;
    if (fb >= tiles_r * tiles_c)
        return;
    const int ftc = fb / tiles_r, ftr = fb - ftc * tiles_r, fr0 = ftr * TR, fc0 = ftc * TC;
    const int cend = fc0 + TC < cols ? fc0 + TC : cols;
#pragma unroll
    for (int k0 = 0; k0 < TR * LINES; k0 += NT) {
        const int k = k0 + (int)threadIdx.x, r = fr0 + k / LINES, l = k % LINES;
        if ((TR * LINES % NT == 0 || k < TR * LINES) && r < rows) {
            const T *seg = in + (size_t)r * (size_t)cols, *first = seg + fc0, *end = seg + cend;
            const char *line = l == 0 ? (const char *)first : (const char *)((size_t)first & ~(size_t)127) + l * 128;
            if (line < (const char *)end) {
                SOL_CHECK_ACCESS(line, 1, 0);
                SOL_PREFETCH_L2(line);
            }
        }
    }
}

/* RAW (issue 34, MODE bit 4, 4- and 8-byte elements): the any path's interior tiles with every aligned
 * word of the input loaded once. sol_any_interior loads two aligned words for each word of the tile
 * (the second is the next lane's first) and shifts the pair in registers: at 4097^2 Nsight Compute
 * counted 42 % more L2 read sectors than at 4096^2 and twice the instructions. Here:
 *   load: row R of the tile (R = 0 .. TR + VEC - 1, input row r0 - VEC + R: the row block above the
 *   tile first, as in sol_any_interior) is copied as it lies in memory, from the aligned word at or
 *   before element c0 (a_R elements before it): CG words to the tile's swizzled layout and the
 *   (CG+1)-th, which holds the row's last a_R elements, to `extra`; all by cp.async (sol_cp16), so no
 *   register waits for them and the bytes in flight are bounded by shared memory.
 *   store: thread (i, g) reads words g and g + 1 of the VEC rows of its block and shifts each pair by
 *   a_R (the same in every lane: rows of a row block start at multiples of VEC), transposes the block
 *   in registers, then the block above, and writes whole output words as sol_any_interior does.
 * The shift moves from the load to the store phase; the global loads are one per aligned word (and one
 * per row for the extra word). Every word read lies inside the input: rows r0 - VEC .. r0 + TR - 1
 * with r0 >= TR (the interior), the extra word ends at most VEC - 1 elements past the row's end,
 * inside the next row, which exists (r0 + TR < rows). */
template <typename T, int LPR>
static __device__ __forceinline__ int sol_extra_at(int R)
{
    /* lanes i = 0 .. 7 read rows R = i*VEC + k (k fixed): consecutive words, no bank conflict */
    return (R % SOL_WORD_ELEMS(T)) * (LPR + 1) + R / SOL_WORD_ELEMS(T);
}

/* Word g (0 .. CG) of raw row R: the tile's swizzled layout, the (CG+1)-th word in `extra`. */
template <typename T, int LPR, int CG>
static __device__ __forceinline__ const uint4 *sol_raw_word(const uint4 *tile, const uint4 *extra, int R, int g)
{
    return g < CG ? &tile[sol_word_at<T, CG>(R, g)] : &extra[sol_extra_at<T, LPR>(R)];
}

template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __forceinline__ void sol_raw_block(uint4 *v, const uint4 *tile, const uint4 *extra, int R0, int g,
                                                     int a0, int cm)
{
    constexpr int VEC = 16 / sizeof(T);
    uint4 lo[VEC], hi[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
        lo[k] = *sol_raw_word<T, LPR, CG>(tile, extra, R0 + k, g);
        hi[k] = *sol_raw_word<T, LPR, CG>(tile, extra, R0 + k, g + 1);
    }
#pragma unroll
    for (int k = 0; k < VEC; ++k)
        v[k] = sol_window_u<T>(lo[k], hi[k], (a0 + k * cm) & (VEC - 1));
    sol_transpose_regs<T>(v);
}

/* The load half: the copies of tile (r0, c0)'s rows to tile and extra, issued, not waited for. */
template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __forceinline__ void sol_raw_load(const T *__restrict__ in, int cols, int r0, int c0, int in_mis,
                                                    uint4 *tile, uint4 *extra)
{
    constexpr int VEC = 16 / sizeof(T), TR = LPR * VEC, RWS = TR + VEC, WORDS = RWS * CG;
    constexpr int LOADS = (WORDS + NT - 1) / NT;
    static_assert(LPR * CG % NT == 0 && RWS <= NT, "whole blocks a thread, the extra words one a thread");
    const int t = (int)threadIdx.x, cm = cols & (VEC - 1);
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int idx = t + k * NT;
        if (WORDS % NT == 0 || idx < WORDS) {
            const int R = idx / CG, g = idx % CG, r = r0 - VEC + R, a = (in_mis + r * cm) & (VEC - 1);
            sol_cp16<CACHE>(&tile[sol_word_at<T, CG>(R, g)], in + ((size_t)r * (size_t)cols + (size_t)(c0 + g * VEC)) - a);
        }
    }
    if (t < RWS) {
        const int r = r0 - VEC + t, a = (in_mis + r * cm) & (VEC - 1);
        sol_cp16<CACHE>(&extra[sol_extra_at<T, LPR>(t)], in + ((size_t)r * (size_t)cols + (size_t)(c0 + CG * VEC)) - a);
    }
}

/* The store half, once the copies have landed and the block has synchronised. */
template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __forceinline__ void sol_raw_store(T *__restrict__ out, int rows, int cols, int r0, int c0,
                                                     int in_mis, int out_mis, const uint4 *tile, const uint4 *extra)
{
    constexpr int VEC = 16 / sizeof(T), BLOCKS = LPR * CG / NT;
    static_assert(BLOCKS * NT == LPR * CG, "whole blocks a thread");
    const int cm = cols & (VEC - 1), rm = rows & (VEC - 1);
    /* row r0 + i*VEC + k starts (in_mis + (r0 + k)*cm) mod VEC elements past a boundary, as does the
     * row VEC above it */
    const int a0 = (in_mis + r0 * cm) & (VEC - 1);
    /* BLOCKS > 1 (fewer threads than blocks, `_raw128`): one block after the other, so a thread's
     * registers are one block's and the copies of the whole tile were in flight at once */
#pragma unroll 1
    for (int k = 0; k < BLOCKS; ++k) {
        const int bk = (int)threadIdx.x + k * NT, i = bk % LPR, gs = bk / LPR;
        uint4 v[VEC];
        sol_raw_block<T, LPR, CG, NT, CACHE>(v, tile, extra, VEC + i * VEC, gs, a0, cm);
        T *dst = out + ((size_t)(c0 + gs * VEC) * (size_t)rows + (size_t)(r0 + i * VEC));
        if ((out_mis | rm) == 0) {
#pragma unroll
            for (int j = 0; j < VEC; ++j)
                sol_st16<CACHE>(dst + (size_t)j * (size_t)rows, v[j]);
        } else {
            uint4 u[VEC];
            sol_raw_block<T, LPR, CG, NT, CACHE>(u, tile, extra, i * VEC, gs, a0, cm);
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                const int b = (out_mis + j * rm) & (VEC - 1);
                sol_st16v(dst + (size_t)j * (size_t)rows - b, sol_window_u<T>(u[j], v[j], VEC - b));
            }
        }
    }
}

/* An element of lane src's `v` within groups of `width` lanes (every lane of the warp takes part):
 * 8-byte elements as two 32-bit shuffles, 4-byte ones as one. */
template <typename T>
static __device__ __forceinline__ T sol_shfl_elem(T v, int src, int width)
{
    if constexpr (sizeof(T) == 8)
        return (T)__shfl_sync(0xFFFFFFFFu, (unsigned)v, src, width) |
               ((T)__shfl_sync(0xFFFFFFFFu, (unsigned)(v >> 32), src, width) << 32);
    else
        return (T)__shfl_sync(0xFFFFFFFFu, (unsigned)v, src, width);
}

/* The output word of the SHFL store (below) for a shift B known at compile time: elements B .. VEC-1
 * are elements 0 .. VEC-B-1 of this lane's column word vj; elements 0 .. B-1 are the last B of the
 * column word of the block above: lane i - 1's vj (a shuffle), or for lane i = 0, whose block above
 * is the row block above the tile, which no lane computes, lane LPR - 1's element read from the raw
 * rows (its own last B elements go to no lane: lane 0 takes from it instead). col: the tile column
 * of vj; a0, cm: the raw rows' shifts, as sol_raw_block takes them. */
template <typename T, int LPR, int CG, int B>
static __device__ __forceinline__ uint4 sol_raw_word_shfl(uint4 vj, int i, const uint4 *tile, const uint4 *extra,
                                                          int col, int a0, int cm)
{
    constexpr int VEC = 16 / sizeof(T);
    T o[16 / sizeof(T)];
#pragma unroll
    for (int k = B; k < VEC; ++k)
        o[k] = sol_word_elem<T>(vj, k - B);
#pragma unroll
    for (int k = 0; k < B; ++k) {
        T mine = sol_word_elem<T>(vj, VEC - B + k);
        if (i == LPR - 1) {
            /* shared row R = VEC - B + k (tile row -B + k), tile column col: raw element col + a_R */
            const int R = VEC - B + k, c = col + ((a0 + R * cm) & (VEC - 1)), w = c / VEC;
            mine = ((const T *)sol_raw_word<T, LPR, CG>(tile, extra, R, w))[c % VEC];
        }
        o[k] = sol_shfl_elem<T>(mine, i == 0 ? LPR - 1 : i - 1, LPR);
    }
    return sol_pack<T>(o);
}

/* sol_raw_word_shfl for a shift b (0 <= b < VEC) the same in every lane of the warp: a branch to one of
 * VEC compile-time forms. */
template <typename T, int LPR, int CG, int B = 0>
static __device__ __forceinline__ uint4 sol_raw_word_shfl_u(uint4 vj, int i, const uint4 *tile, const uint4 *extra,
                                                            int col, int a0, int cm, int b)
{
    if constexpr (B == 16 / (int)sizeof(T) - 1) {
        return sol_raw_word_shfl<T, LPR, CG, B>(vj, i, tile, extra, col, a0, cm);
    } else {
        if (b == B)
            return sol_raw_word_shfl<T, LPR, CG, B>(vj, i, tile, extra, col, a0, cm);
        return sol_raw_word_shfl_u<T, LPR, CG, B + 1>(vj, i, tile, extra, col, a0, cm, b);
    }
}

/* The store half with each block computed once (SHFLST, MODE bit 128; issue 34, session 5):
 * sol_raw_store computes every block twice, as its own and as the upper neighbour of the block below
 * (2 x VEC shared reads, 2 x VEC windows and two transposes a thread). Here thread (i, gs) computes
 * its own block alone and takes the last b_j elements of the block above's column j from lane i - 1
 * (the LPR lanes of a tile column are consecutive lanes: i = t % LPR); lane 0's come from the row
 * block above the tile, read element by element by lane LPR - 1 (at most VEC - 1 elements a column).
 * Half the block registers, b_j shuffles a word (32-bit parts) instead of VEC shared reads and a
 * window and a transpose. Needs NT == LPR * CG (one block a thread) and every lane live. */
template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __forceinline__ void sol_raw_store_shfl(T *__restrict__ out, int rows, int cols, int r0, int c0,
                                                          int in_mis, int out_mis, const uint4 *tile,
                                                          const uint4 *extra)
{
    constexpr int VEC = 16 / sizeof(T);
    static_assert(NT == LPR * CG && LPR >= 2 && 32 % LPR == 0, "one block a thread, a tile column in one warp");
    const int cm = cols & (VEC - 1), rm = rows & (VEC - 1);
    const int a0 = (in_mis + r0 * cm) & (VEC - 1);
    const int t = (int)threadIdx.x, i = t % LPR, gs = t / LPR;
    uint4 v[VEC];
    sol_raw_block<T, LPR, CG, NT, CACHE>(v, tile, extra, VEC + i * VEC, gs, a0, cm);
    T *dst = out + ((size_t)(c0 + gs * VEC) * (size_t)rows + (size_t)(r0 + i * VEC));
    if ((out_mis | rm) == 0) {
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            sol_st16<CACHE>(dst + (size_t)j * (size_t)rows, v[j]);
    } else {
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            const int b = (out_mis + j * rm) & (VEC - 1);
            sol_st16v(dst + (size_t)j * (size_t)rows - b,
                      sol_raw_word_shfl_u<T, LPR, CG>(v[j], i, tile, extra, gs * VEC + j, a0, cm, b));
        }
    }
}

template <typename T, int LPR, int CG, int NT, int CACHE, bool SHFLST = false>
static __device__ __forceinline__ void sol_any_interior_raw(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                            int cols, int r0, int c0, int in_mis, int out_mis,
                                                            uint4 *tile, uint4 *extra)
{
    sol_raw_load<T, LPR, CG, NT, CACHE>(in, cols, r0, c0, in_mis, tile, extra);
    SOL_CP_ASYNC_WAIT();
    __syncthreads();
    if constexpr (SHFLST)
        sol_raw_store_shfl<T, LPR, CG, NT, CACHE>(out, rows, cols, r0, c0, in_mis, out_mis, tile, extra);
    else
        sol_raw_store<T, LPR, CG, NT, CACHE>(out, rows, cols, r0, c0, in_mis, out_mis, tile, extra);
}

/* The any path's general tile (edges, or every tile where FAST is off): bounds checked everywhere. */
template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __forceinline__ void sol_any_general(T *__restrict__ out, const T *__restrict__ in, int rows, int cols,
                                                       int r0, int c0, int in_mis, int out_mis, uint4 *tile)
{
    constexpr int VEC = 16 / sizeof(T), TR = LPR * VEC, WORDS = (TR + VEC) * CG;
    constexpr int LOADS = (WORDS + NT - 1) / NT, BLOCKS = (LPR * CG + NT - 1) / NT;
    const long long n = (long long)rows * cols;
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
    uint4 w[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int idx = (int)threadIdx.x + k * NT, r = r0 - VEC + idx / CG, g = idx % CG;
        const long long seg = (long long)r * cols + c0; /* element offset of (r, c0) */
        const int a = (int)((in_mis + seg) & (VEC - 1));
        const long long word = seg - a + (long long)g * VEC; /* this lane's aligned word */
        const bool live = (WORDS % NT == 0 || idx < WORDS) && r >= 0 && r < rows;
        uint4 lo = zero, hi = zero;
        if (live && c0 + g * VEC - a < cols)
            lo = sol_ld16_in<T, CACHE>(in, word, n);
        if (live && a != 0 && c0 + g * VEC - a + VEC < cols)
            hi = sol_ld16_in<T, CACHE>(in, word + VEC, n);
        w[k] = a ? sol_window<T>(lo, hi, a) : lo;
    }
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int idx = (int)threadIdx.x + k * NT;
        if (WORDS % NT == 0 || idx < WORDS)
            tile[sol_word_at<T, CG>(idx / CG, idx % CG)] = w[k];
    }
    __syncthreads();
    const int tmax = rows - r0 < TR ? rows - r0 : TR; /* tile elements t in [0, tmax) exist */
    const bool last = r0 + TR >= rows;
#pragma unroll
    for (int k = 0; k < BLOCKS; ++k) {
        const int b = (int)threadIdx.x + k * NT, i = b % LPR, g = b / LPR;
        if (BLOCKS * NT != LPR * CG && b >= LPR * CG)
            break;
        uint4 v[16 / sizeof(T)];
        sol_tile_block<T, LPR, CG>(v, tile, i + 1, g); /* block i is shared row block i + 1 */
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
            uint4 prev = sol_shfl_up16(v[j], LPR);
            const int oc = c0 + g * VEC + j;
            if (oc >= cols)
                continue;
            const long long o = (long long)oc * rows + r0; /* element offset of (oc, r0) in out */
            const int bs = (int)((out_mis + o) & (VEC - 1));
            if (i == 0 && bs != 0 && r0 > 0) {
                /* tile elements -VEC .. -1 of this column: the row block above, element by element */
                T e[16 / sizeof(T)];
#pragma unroll
                for (int m = 0; m < VEC; ++m) /* column oc - c0 = word g, element j */
                    e[m] = sol_word_elem<T>(tile[sol_word_at<T, CG>(m, g)], j);
                prev = sol_pack<T>(e);
            }
            /* this lane's aligned word: tile elements i*VEC - bs + e, e = 0 .. VEC-1; ours where
             * r0 + t >= 0 and t < tmax */
            const long long wo = o - bs + (long long)i * VEC;
            const uint4 word = bs ? sol_window<T>(prev, v[j], VEC - bs) : v[j];
            const int lo = bs - i * VEC - r0 > 0 ? bs - i * VEC - r0 : 0;
            const int hi = tmax - i * VEC + bs < VEC ? tmax - i * VEC + bs : VEC;
            if (lo == 0 && hi == VEC)
                sol_st16<CACHE>(out + wo, word);
            else if (lo < hi)
                sol_st_part<T>(out, wo, word, lo, hi);
            if (last && i == LPR - 1 && bs != 0) {
                /* the end of the output row: tile elements TR - bs + e, e < bs, that exist */
                const int hi2 = tmax - TR + bs < bs ? tmax - TR + bs : bs;
                if (hi2 > 0)
                    sol_st_part<T>(out, wo + VEC, sol_window<T>(v[j], zero, VEC - bs), 0, hi2);
            }
        }
    }
}

template <typename T, int LPR, int CG, int NT, int CACHE, int ORDER, bool FAST = true, int MODE = 0, int PF = 0,
          bool ROW0 = false>
static __device__ __forceinline__ void sol_tiled_any(T *__restrict__ out, const T *__restrict__ in, int rows, int cols)
{
    constexpr int VEC = 16 / sizeof(T), TR = LPR * VEC, TC = CG * VEC, WORDS = (TR + VEC) * CG;
    constexpr int BLOCKS = (LPR * CG + NT - 1) / NT;
    /* NT > LPR*CG (the 2-byte split interior path's launch): in the general path's store phase the
     * threads past LPR*CG, whole warps, have no block */
    static_assert(BLOCKS * NT == LPR * CG || (BLOCKS == 1 && LPR * CG % 32 == 0), "tile and block do not match");
    static_assert(32 % LPR == 0 && NT % 32 == 0, "a column of the tile must be lanes of one warp");
    /* shared row R holds tile row R - VEC: row block 0 is the one above the tile */
    __shared__ uint4 tile[WORDS];
    /* sol_any_interior_raw, 4- and 8-byte elements only: 2-byte elements lost on the H200 with every
     * store (sol_raw_store's registers: 114 at 64x128 tiles of 128 threads, 4 blocks a SM, 0.0324 ms at
     * 4097^2 against the split kernel's 0.0279; the gather and SHFL stores too, session 5), and their
     * raw forms were removed after commit 745f1de (`git show 745f1de:kernels/sol_transpose.cu`) */
    constexpr bool RAW = (MODE & 16) != 0 && sizeof(T) != 2;
    const int in_mis = (int)(((size_t)in / sizeof(T)) & (VEC - 1)), out_mis = (int)(((size_t)out / sizeof(T)) & (VEC - 1));
    int tr, tc;
    sol_tile_of_block<ORDER>((rows + TR - 1) / TR, (cols + TC - 1) / TC, tr, tc);
    const int r0 = tr * TR, c0 = tc * TC;
    static_assert(PF == 0 || ORDER == -1, "the prefetch follows the 1-D column-major grid");
    if constexpr (PF > 0)
        sol_prefetch_tile<T, TR, TC, NT, PF>(in, rows, cols, (rows + TR - 1) / TR, (cols + TC - 1) / TC);
    if constexpr (FAST && (LPR * CG == NT || (RAW && LPR * CG > NT))) {
        if (r0 > 0 && r0 + TR < rows && c0 + TC <= cols) {
            if constexpr (RAW) {
                __shared__ uint4 extra[TR + VEC];
                sol_any_interior_raw<T, LPR, CG, NT, CACHE, (MODE & 128) != 0>(
                    out, in, rows, cols, r0, c0, in_mis, out_mis, tile, extra);
                return;
            } else {
                /* MODE bit 1 for 4- and 8-byte elements: the shuffled second words (SHFL) */
                sol_any_interior<T, LPR, CG, NT, CACHE, (MODE & 2) != 0>(out, in, rows, cols, r0, c0, in_mis, out_mis,
                                                                        tile);
                return;
            }
        }
    } else if constexpr (FAST && sizeof(T) == 2 && LPR * CG < NT) {
        /* ROW0: the first tile row too (round 5; it took the general path), but for its first tile
         * when the input starts off a 16-byte boundary (row 0's first word would start before it) */
        if ((r0 > 0 || (ROW0 && (c0 > 0 || in_mis == 0))) && r0 + TR < rows && c0 + TC <= cols) {
            sol_any_interior_split<T, LPR, CG, NT, CACHE, MODE, ROW0>(out, in, rows, cols, r0, c0, in_mis, out_mis,
                                                                      tile);
            return;
        }
    }
    sol_any_general<T, LPR, CG, NT, CACHE>(out, in, rows, cols, r0, c0, in_mis, out_mis, tile);
}

/* rows == 1 or cols == 1: out = in, n elements. Each block copies NT*U words (U loads in flight per
 * thread); the last block also copies the n % VEC elements after the last whole word. Unaligned
 * pointers: element by element. */
template <typename T, int NT, int U, int CACHE>
static __device__ __forceinline__ void sol_copy_body(T *__restrict__ out, const T *__restrict__ in, long long n)
{
    const int VEC = SOL_WORD_ELEMS(T);
    const long long first = (long long)blockIdx.x * NT * U;
    if ((((size_t)in | (size_t)out) & 15) == 0) {
        const long long nw = n / VEC;
        uint4 w[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const long long k = first + threadIdx.x + u * NT;
            if (k < nw)
                w[u] = sol_ld16<CACHE>(in + k * VEC);
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const long long k = first + threadIdx.x + u * NT;
            if (k < nw)
                sol_st16<CACHE>(out + k * VEC, w[u]);
        }
        if (blockIdx.x == gridDim.x - 1)
            for (long long e = nw * VEC + threadIdx.x; e < n; e += NT)
                sol_st1(out + e, sol_ld1(in + e));
    } else {
#pragma unroll
        for (int u = 0; u < U * VEC; ++u) {
            const long long e = first * VEC + threadIdx.x + u * NT;
            if (e < n)
                sol_st1(out + e, sol_ld1(in + e));
        }
    }
}

/* ---- The pipelined schedule (--kernel pipelined; verified by the tests, slower on the H100: the
 * tuning log in docs/speed-of-light.md) ------------------------------------------------------- */

/* One 16-byte word of VEC elements, loaded with bounds checks. With vec set, rows and columns are
 * multiples of VEC and both pointers are 16-byte aligned, so a word is either wholly inside the
 * matrix or wholly outside it and one 16-byte load serves it. */
template <typename T>
static __device__ __forceinline__ uint4 sol_load_word(const T *__restrict__ in, int r, int c, int rows, int cols,
                                                      bool vec, bool stream)
{
    const int VEC = SOL_WORD_ELEMS(T);
    uint4 w = make_uint4(0u, 0u, 0u, 0u);
    if (r >= rows)
        return w;
    const T *p = in + (size_t)r * (size_t)cols + c;
    if (vec) {
        if (c < cols)
            w = stream ? sol_ld16<SOL_CACHE_STREAM>(p) : sol_ld16<SOL_CACHE_DEFAULT>(p);
        return w;
    }
    T e[16 / sizeof(T)];
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        e[j] = (c + j < cols) ? sol_ld1(p + j) : (T)0;
    return sol_pack<T>(e);
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
                sol_st16<SOL_CACHE_STREAM>(p, w);
            else
                sol_st16<SOL_CACHE_DEFAULT>(p, w);
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        if (c + j < cols)
            sol_st1(p + j, sol_word_elem<T>(w, j));
}

/* The three steps of one tile. TR x TC tile at (r0, c0) of the input; LOADS = TR*CG/NT words per
 * thread in, BLOCKS = LPR*CG/NT VEC x VEC blocks per thread out. */
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
        tile[sol_word_at<T, CG>(r, g)] = w[k];
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
        sol_tile_block<T, LPR, CG>(v, tile, i, g);
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            sol_store_word<T>(out, c0 + g * VEC + j, r0 + i * VEC, cols, rows, v[j], vec, STREAM);
    }
}

/* The same tiles, software-pipelined over a persistent grid (as many blocks as fit on the GPU at
 * once, any 1-D grid works): block b takes tiles b, b + gridDim.x, ... in row-major tile order. The
 * loads of a block's next tile are issued before it writes out the current one. */
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

/* ---- The shipped configurations -------------------------------------------------------------
 * Tile shapes (LPR x CG sixteen-byte words) and block sizes, per element size; src/gpu/sol.c's
 * launcher holds the same numbers (a mismatch leaves output unwritten, which the exact check
 * reports). Chosen from bench/sol/dev16.cu's sweeps on the H100 (docs/speed-of-light.md). */
#define SOL_TR_THREADS 256
#define SOL_TR_LPR 16
#define SOL_TR_CG 16
#define SOL_TR_STREAM false
/* f32 pipelined: 71 registers unbounded (3 blocks per SM); capped at 64 (4 blocks per SM, 64 KB in
 * flight per SM) it spills 8 bytes. f16 and f64 run as compiled (f16 spills heavily when capped). */
#define SOL_TR_PIPELINED_F32_MIN_BLOCKS 4

#define SOL_TILED(NAME, T, LPR, CG, NT, MINB, ORDER, CACHE)                                                           \
    extern "C" __global__ void __launch_bounds__(NT, MINB) NAME(T *__restrict__ out, const T *__restrict__ in,       \
                                                                int rows, int cols)                                  \
    {                                                                                                                 \
        sol_tiled_aligned<T, LPR, CG, NT, CACHE, ORDER>(out, in, rows, cols);                                         \
    }
#define SOL_TILED_A(NAME, T, LPR, CG, NT, MINB, ORDER, CACHE)                                                         \
    extern "C" __global__ void __launch_bounds__(NT, MINB) NAME(T *__restrict__ out, const T *__restrict__ in,       \
                                                                int rows, int cols)                                  \
    {                                                                                                                 \
        sol_tiled_aligned<T, LPR, CG, NT, CACHE, ORDER, true>(out, in, rows, cols);                                   \
    }
#define SOL_ANY(NAME, T, LPR, CG, NT, MINB, ORDER, CACHE, FAST, MODE, PF, ROW0)                                       \
    extern "C" __global__ void __launch_bounds__(NT, MINB) NAME(T *__restrict__ out, const T *__restrict__ in,       \
                                                                int rows, int cols)                                  \
    {                                                                                                                 \
        sol_tiled_any<T, LPR, CG, NT, CACHE, ORDER, FAST, MODE, PF, ROW0>(out, in, rows, cols);                       \
    }
#define SOL_COPY(NAME, T, NT, U)                                                                                      \
    extern "C" __global__ void __launch_bounds__(NT) NAME(T *__restrict__ out, const T *__restrict__ in, int rows,   \
                                                          int cols)                                                   \
    {                                                                                                                 \
        sol_copy_body<T, NT, U, SOL_CACHE_DEFAULT>(out, in, (long long)rows * cols);                                  \
    }

#define SOL_C0 SOL_CACHE_DEFAULT
#define SOL_C5 SOL_CACHE_L2_256B
/* The any kernels' register caps (blocks per SM), f16's cache hint, whether interior tiles take the
 * fast path and f16's split-path mode: picked from bench/sol/dev16.cu's sweeps on the H100
 * (bench/sol/pick_any.py; f32 and f64 at 4097x4097 in issue 16's round 2, f16 at 4097x4097 and
 * 8191x8191 in round 3; f16's tile in round 5: 128x128 tiles of 512 threads, 2 blocks a SM, against
 * 64x128 of 256 threads in mode 2: 0.5-1.5 % faster at 4097^2 in three interleaved product runs, 3-4 %
 * at 8191^2 in the sweeps; mode 15, whose 8-byte shared accesses are conflict-free at that tile, 1-1.3 %
 * faster than mode 7 at 8191^2 and 6001x5003; the run of record builds these defaults,
 * docs/speed-of-light.md). src/gpu/sol.c's cfg_any holds the same tiles. */
#ifndef SOL_ANY_F32_MINB
#define SOL_ANY_F32_MINB 4
#endif
#ifndef SOL_ANY_F16_MINB
#define SOL_ANY_F16_MINB 2
#endif
#ifndef SOL_ANY_F64_MINB
#define SOL_ANY_F64_MINB 6
#endif
#ifndef SOL_ANY_F16_CACHE
#define SOL_ANY_F16_CACHE SOL_C5
#endif
#ifndef SOL_ANY_F32_FAST
#define SOL_ANY_F32_FAST true
#endif
#ifndef SOL_ANY_F16_FAST
#define SOL_ANY_F16_FAST true
#endif
#ifndef SOL_ANY_F16_MODE
#define SOL_ANY_F16_MODE 15
#endif
/* f16's L2 prefetch distance in blocks (sol_prefetch_tile): 0, off; every distance measured slower
 * (round 4) */
#ifndef SOL_ANY_F16_PF
#define SOL_ANY_F16_PF 0
#endif
/* f16: the first tile row on the split interior path too (round 5; it took the general path: with
 * 128x128 tiles at 4097^2, 32 of the 1089 tiles) */
#ifndef SOL_ANY_F16_ROW0
#define SOL_ANY_F16_ROW0 true
#endif
#ifndef SOL_ANY_F64_FAST
#define SOL_ANY_F64_FAST true
#endif
/*        name                      type     LPR CG  NT MINB ORDER CACHE  (ORDER 0: row-major 2-D grid,
                                                                           -1: column-major 1-D grid) */
SOL_TILED(sol_transpose_f32,        sol_u32, 16, 16, 256, 1, 0, SOL_C0)
SOL_TILED(sol_transpose_f16,        sol_u16, 16, 16, 256, 1, 0, SOL_C0)
SOL_TILED(sol_transpose_f64,        sol_u64, 16, 16, 256, 1, 0, SOL_C0)
SOL_TILED(sol_transpose_big_f32,    sol_u32, 16, 32, 512, 1, -1, SOL_C5)
SOL_TILED(sol_transpose_big_f16,    sol_u16, 16, 16, 256, 1, 0, SOL_C5)
SOL_TILED(sol_transpose_big_f64,    sol_u64, 32, 32, 512, 1, -1, SOL_C5)
SOL_TILED(sol_transpose_large_f32,  sol_u32, 16, 32, 512, 1, -1, SOL_C0)
SOL_TILED(sol_transpose_large_f16,  sol_u16, 16, 16, 256, 1, 0, SOL_C0)
SOL_TILED(sol_transpose_large_f64,  sol_u64, 32, 32, 512, 1, -1, SOL_C0)
SOL_TILED(sol_transpose_narrow_f32, sol_u32, 32, 8, 256, 1, 0, SOL_C0)
SOL_TILED(sol_transpose_narrow_f16, sol_u16, 32, 4, 128, 1, 0, SOL_C0)
SOL_TILED(sol_transpose_narrow_f64, sol_u64, 16, 16, 256, 1, 0, SOL_C0)
SOL_ANY(sol_transpose_any_f32,      sol_u32, 16, 16, 256, SOL_ANY_F32_MINB, -1, SOL_C5, SOL_ANY_F32_FAST, 0, 0, false)
SOL_ANY(sol_transpose_any_f16,      sol_u16, 16, 16, 512, SOL_ANY_F16_MINB, -1, SOL_ANY_F16_CACHE, SOL_ANY_F16_FAST, SOL_ANY_F16_MODE, SOL_ANY_F16_PF, SOL_ANY_F16_ROW0)
SOL_ANY(sol_transpose_any_f64,      sol_u64, 16, 16, 256, SOL_ANY_F64_MINB, -1, SOL_C5, SOL_ANY_F64_FAST, 0, 0, false)
SOL_COPY(sol_transpose_copy_f32,    sol_u32, 256, 2)
SOL_COPY(sol_transpose_copy_f16,    sol_u16, 256, 2)
SOL_COPY(sol_transpose_copy_f64,    sol_u64, 256, 2)

/* Candidates (issue 34): configurations that the bench measures beside the ones above at first use on
 * a device and keeps where they are faster there (src/gpu/sol.c's candidate tables name them, the
 * bench caches the pick per device, driver and fatbin: docs/speed-of-light.md, issue 34). On the H200
 * (4.8 TB/s against the H100's 3.35, the same 132 SMs, L2 and shared memory) dev16's sweeps found
 * these faster than the H100's picks: f16's any tile 64x128 of 256 threads at 4 blocks a SM (0.88-0.92
 * of the copy at 4097^2 against 0.83-0.87), f64's narrow tile 128x32 of 512 threads (0.943-0.954 against
 * 0.932-0.947 at 1048576x32) and the copy in blocks of 1024 threads (0.987-1.001 against 0.969-0.980
 * at 1 x 2^26); the H100's own sweeps had picked the kernels above. */
SOL_ANY(sol_transpose_any_f16_64x128, sol_u16, 8, 16, 256, 4, -1, SOL_ANY_F16_CACHE, SOL_ANY_F16_FAST, SOL_ANY_F16_MODE, SOL_ANY_F16_PF, SOL_ANY_F16_ROW0)
SOL_TILED(sol_transpose_narrow_f64_128x32, sol_u64, 64, 16, 512, 1, 0, SOL_C0)
SOL_COPY(sol_transpose_copy_f32_t1024, sol_u32, 1024, 2)
SOL_COPY(sol_transpose_copy_f16_t1024, sol_u16, 1024, 2)
SOL_COPY(sol_transpose_copy_f64_t1024, sol_u64, 1024, 2)
/* Not measured on the H200 before they were added (the first run of the bench there measures them):
 * the tiled f32 kernel's tile as the large kernel's (64x128, 512 threads, column-major: 8192^2 f32 was
 * 0.952 of the copy there), and column-major walks of f16's large (16384^2 f16: 0.954) and big
 * (10000x7000 f16: 0.947) tiles, the latter also 64x256 wide (32 KB, half the part-lines of a row). */
SOL_TILED(sol_transpose_f32_64x128, sol_u32, 16, 32, 512, 1, -1, SOL_C0)
/* the any kernels of f32 and f64 with the pair loads' second words shuffled (sol_any_interior's SHFL):
 * 4097^2 is 0.83 (f32) and 0.90 (f64) of the copy on the H200 at every tile, thread count and register
 * cap dev16 tried, with 42 % more L2 read sectors than the aligned 4096^2 (Nsight Compute) */
SOL_ANY(sol_transpose_any_f32_shfl, sol_u32, 16, 16, 256, SOL_ANY_F32_MINB, -1, SOL_C5, SOL_ANY_F32_FAST, 2, 0, false)
/* (f64's, sol_transpose_any_f64_shfl, lost to the raw kernel on the H200 in sessions 4 and 5: dropped) */
SOL_TILED(sol_transpose_large_f16_cm, sol_u16, 16, 16, 256, 1, -1, SOL_C0)
SOL_TILED(sol_transpose_big_f16_cm, sol_u16, 16, 16, 256, 1, -1, SOL_C5)
SOL_TILED(sol_transpose_big_f16_64x256, sol_u16, 8, 32, 256, 1, -1, SOL_C5)
/* Session 4's candidates (issue 34; their times on the H200 in docs/speed-of-light.md, session 4):
 *   - the bytes a SM keeps in flight: fewer threads a tile (more loads each) and the ASYNC forms
 *     (`_a`: cp.async straight to shared memory, no register waits) of the narrow, tiled f64
 *     (8192x4096) and large f64 (16384^2) kernels: within 1 % or slower on the H200, but tiled f64's
 *     64x64 column-major tile (`_64x64`, 2.7 % faster at 8192x4096: picked there);
 *   - large f64's tile shapes (16384^2: all within 0.5 % of the H100's; row-major and grouped orders,
 *     9 % slower, were dropped);
 *   - the any kernels that load each aligned word once (sol_any_interior_raw: `_raw`, picked for f32
 *     and f64 on the H200, 9.5 % and 3.7 % faster at 4097^2; `_raw128`, `_raw2`: more tiles in flight;
 *     `_rawg`: the gather store, also for f16). The last three lost on the H200 and were dropped in
 *     session 5; `_raw128`'s form (fewer threads than blocks) stays in sol_raw_store, the gather store
 *     (MODE bit 6, 64) and several tiles a block (`_raw2`: sol_any_raw_tiles, SOL_ANY_RAW) were removed
 *     after commit 745f1de (`git show 745f1de:kernels/sol_transpose.cu`). */
SOL_TILED(sol_transpose_narrow_f32_t128, sol_u32, 32, 8, 128, 1, 0, SOL_C0)
SOL_TILED_A(sol_transpose_narrow_f32_a, sol_u32, 32, 8, 256, 8, 0, SOL_C0)
SOL_TILED_A(sol_transpose_narrow_f32_256x32a, sol_u32, 64, 8, 256, 6, 0, SOL_C0)
SOL_TILED(sol_transpose_narrow_f64_64x32t128, sol_u64, 32, 16, 128, 1, 0, SOL_C0)
SOL_TILED_A(sol_transpose_narrow_f64_a, sol_u64, 32, 16, 256, 8, 0, SOL_C0)
SOL_TILED_A(sol_transpose_narrow_f64_128x32a, sol_u64, 64, 16, 256, 6, 0, SOL_C0)
SOL_TILED(sol_transpose_f64_t128, sol_u64, 16, 16, 128, 1, 0, SOL_C0)
SOL_TILED_A(sol_transpose_f64_a, sol_u64, 16, 16, 128, 16, 0, SOL_C0)
SOL_TILED(sol_transpose_f64_64x64, sol_u64, 32, 32, 512, 1, -1, SOL_C0)
SOL_TILED_A(sol_transpose_f64_64x64a, sol_u64, 32, 32, 512, 4, -1, SOL_C0)
SOL_TILED_A(sol_transpose_large_f64_a, sol_u64, 32, 32, 512, 4, -1, SOL_C0)
SOL_TILED(sol_transpose_large_f64_32x128, sol_u64, 16, 64, 512, 1, -1, SOL_C0)
SOL_TILED(sol_transpose_large_f64_128x32, sol_u64, 64, 16, 512, 1, -1, SOL_C0)
SOL_TILED(sol_transpose_large_f64_32x32, sol_u64, 16, 16, 256, 1, -1, SOL_C0)
SOL_ANY(sol_transpose_any_f32_raw, sol_u32, 16, 16, 256, SOL_ANY_F32_MINB, -1, SOL_C5, true, 16, 0, false)
SOL_ANY(sol_transpose_any_f64_raw, sol_u64, 16, 16, 256, SOL_ANY_F64_MINB, -1, SOL_C5, true, 16, 0, false)

/* ---- Session 5's any candidates (issue 34: odd shapes on the H200) ---------------------------------
 * f64's raw kernel (sol_any_interior_raw) at 64x32 tiles of 512 threads: 32 registers, 4 blocks a SM
 * (every warp slot), and the row block above each tile, loaded again from L2, 2/64 of its loads
 * instead of 2/32 (LPR <= 32: the general path's shuffles). 1.3 % faster than the 32x32 raw kernel at
 * 4097^2 on the H200. What lost there (docs/speed-of-light.md, session 5: odd shapes) was dropped: a
 * persistent raw kernel with a ring of cp.async tile buffers (f32 +13 %, f64 +11 %, f16 +18 %), wider,
 * taller or smaller f32 tiles, more blocks a SM by register caps (spills), f16's raw kernel (114
 * registers), f16's split kernel at 128x64, f64 at 64x64 or 256 threads, and the loads without the
 * L2::256B hint (within 1 %). */
SOL_ANY(sol_transpose_any_f64_raw64x32, sol_u64, 32, 16, 512, 4, -1, SOL_C5, true, 16, 0, false)
/* The raw kernels with the SHFL store (MODE bit 128, sol_raw_store_shfl: each block computed once, the
 * block above's last elements by shuffle): f32 at the raw kernel's 64x64 tiles, f64 at 64x32. 0.2-0.9 %
 * faster than the raw kernels in all 6 tuner measurements on the H200 (9 % and 17 % fewer instructions);
 * picked for both. What lost there (docs/speed-of-light.md, session 5: raw store) was dropped: f32's at
 * 5 blocks a SM (48 registers, 4 bytes spilled; this template under another cap), and, their templates
 * removed after commit 745f1de (`git show 745f1de:kernels/sol_transpose.cu`), f16's raw kernel with
 * this store (88 registers; 80 under a cap, spilling: 20-30 % slower than the split kernel) and the rows
 * by bulk copies (MODE bit 256, sol_raw_load_bulk: f32 6 %, f64 3.5 %, f16 27 % slower) or by cp.async
 * words into the bulk form's padded rows (MODE bit 512: a tie). */
SOL_ANY(sol_transpose_any_f32_raws, sol_u32, 16, 16, 256, 4, -1, SOL_C5, true, 144, 0, false)
SOL_ANY(sol_transpose_any_f64_raws64x32, sol_u64, 32, 16, 512, 4, -1, SOL_C5, true, 144, 0, false)
/* ---- end of session 5's any candidates ---- */

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS, SOL_TR_PIPELINED_F32_MIN_BLOCKS)
sol_transpose_pipelined_f32(sol_u32 *__restrict__ out, const sol_u32 *__restrict__ in, int rows, int cols)
{
    sol_transpose_pipelined_body<sol_u32, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
}

extern "C" __global__ void __launch_bounds__(SOL_TR_THREADS)
sol_transpose_pipelined_f16(sol_u16 *__restrict__ out, const sol_u16 *__restrict__ in, int rows, int cols)
{
    sol_transpose_pipelined_body<sol_u16, SOL_TR_LPR, SOL_TR_CG, SOL_TR_THREADS, SOL_TR_STREAM>(out, in, rows, cols);
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
