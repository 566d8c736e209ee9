// any_pipe.cuh: issue 16, round 5's cp.async-staged, software-pipelined f16 any kernel
// (sol_tiled_any_pipe), measured on the H100 and slower than the shipped kernel at every grid
// (docs/speed-of-light.md, round 5), so it is no part of kernels/sol_transpose.cu: bench/sol/dev16.cu
// times it (anypipe* variants) and bench/sol/emu_check.cpp checks it (-DEMU_ANY_F16_PIPE), both
// after including the kernel file, whose helpers it uses. Two of its pieces are copies of the kernel
// file's code (the split path's store phase and the general tile) taking the tile by pointer.

/* cp.async: a 16-byte copy from global to shared memory that holds no register while in flight
 * (cg: through L2 only; CACHE 5 adds the L2 256-byte prefetch hint), committed in groups and
 * waited for by group (all but the newest N). Templates: a kernel file built with -Werror may leave
 * them unused. The emulator copies at once and checks the global address. */
#ifndef SOL_CP_ASYNC16
template <int CACHE>
static __device__ __forceinline__ void sol_cp_async16_ptx(void *dst, const void *src)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    if constexpr (CACHE == SOL_CACHE_L2_256B)
        asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
}
template <int UNUSED = 0>
static __device__ __forceinline__ void sol_cp_async_commit_ptx()
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}
template <int N>
static __device__ __forceinline__ void sol_cp_async_wait_ptx()
{
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}
#define SOL_CP_ASYNC16(cache, dst, src) sol_cp_async16_ptx<cache>((dst), (src))
#define SOL_CP_ASYNC_COMMIT() sol_cp_async_commit_ptx<>()
#define SOL_CP_ASYNC_WAIT(n) sol_cp_async_wait_ptx<n>()
#endif

/* The store phase of sol_any_interior_split (the same code; MODE bit 3 adds the halves below): the
 * tile in shared memory (shared row R = tile row R - VEC) to the output, two threads a block. A copy:
 * made a function of the kernel file, the shipped kernels' SASS changed (scheduling alone). */
template <typename T, int LPR, int CG, int NT, int CACHE, int MODE>
static __device__ __forceinline__ void sol_split_store(T *__restrict__ out, int rows, int r0, int c0, int out_mis,
                                                       const uint4 *tile, int t)
{
    constexpr int VEC = 16 / sizeof(T), RK = VEC / 2;
    constexpr bool UNI = (MODE & 1) != 0;
    const int rm = rows & (VEC - 1);
    const int i = t % LPR, gs = (t / LPR) % CG, hq = t / (LPR * CG);
    const int p = UNI ? hq : hq ^ (gs & 1), ph = UNI ? hq ^ (gs & 1) : p; /* logical, physical half */
    /* half ph (RK elements, two 32-bit words) of row k of the block (v) and of the block above (u);
     * MODE bit 3: one 32-bit word of it at a time (part mh: output words 2mh, 2mh + 1), half the
     * registers of data for twice the shared loads (the pipelined kernel's loop state) */
    constexpr bool HALVES = (MODE & 8) != 0;
    const bool shifted = (out_mis | rm) != 0;
    T *dst = out + ((size_t)(c0 + gs * VEC + p * RK) * (size_t)rows + (size_t)(r0 + i * VEC));
#pragma unroll
    for (int mh = 0; mh < (HALVES ? 2 : 1); ++mh) {
        unsigned v[VEC][2], u[VEC][2];
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned *x = (const unsigned *)&tile[sol_word_at<T, CG>(VEC + i * VEC + k, gs)] + 2 * ph;
            const unsigned *y = (const unsigned *)&tile[sol_word_at<T, CG>(i * VEC + k, gs)] + 2 * ph;
            if constexpr (HALVES) {
                v[k][mh] = x[mh];
                if (shifted)
                    u[k][mh] = y[mh];
            } else {
                const sol_u64 xx = *(const sol_u64 *)x;
                v[k][0] = (unsigned)xx;
                v[k][1] = (unsigned)(xx >> 32);
                if (shifted) {
                    const sol_u64 yy = *(const sol_u64 *)y;
                    u[k][0] = (unsigned)yy;
                    u[k][1] = (unsigned)(yy >> 32);
                }
            }
        }
#pragma unroll
        for (int jj = HALVES ? 2 * mh : 0; jj < (HALVES ? 2 * mh + 2 : RK); ++jj) {
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
                sol_st16v(dst + (size_t)jj * (size_t)rows - b, word);
            }
        }
    }
}

/* The general path of sol_tiled_any (any tile, every access checked) on a tile given by pointer, for
 * the edge tiles: shared row R of tile ((TR + VEC) * CG words) holds tile row R - VEC. The same code
 * as sol_tiled_any's, copied for the reason given at sol_split_store. */
template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __forceinline__ void sol_any_general(T *__restrict__ out, const T *__restrict__ in, int rows, int cols,
                                                       long long n, int r0, int c0, int in_mis, int out_mis, uint4 *tile)
{
    constexpr int VEC = 16 / sizeof(T), TR = LPR * VEC, WORDS = (TR + VEC) * CG;
    constexpr int LOADS = (WORDS + NT - 1) / NT, BLOCKS = (LPR * CG + NT - 1) / NT;
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

/* Issue 16, round 5: the 2-byte any path with its input staged by cp.async, software-pipelined over
 * a grid of any size (block b takes tiles b, b + gridDim.x, ... in column-major order). The register
 * kernel (sol_tiled_any with the split interior path) is latency-bound at 4097^2 (long-scoreboard
 * stalls 10.3 of 18.7 cycles an instruction): its bytes in flight are the words its 64 registers
 * hold, only while a tile loads, and 4 blocks of 8 warps a SM is all the registers allow. Here a
 * block copies the next tile's words straight into shared memory (no register waits for them) while
 * it shifts and writes out the current one: two stages, one tile in flight a block all the time.
 *   stage: rows r0 - VEC .. r0 + TR - 1 of the input (the row block above the tile first), each as
 *   the CG + 1 aligned 16-byte words that cover its segment [c0, c0 + TC) (row R starts a_R elements
 *   past a boundary; the last word only where a_R != 0): (TR + VEC) * (CG + 1) words.
 *   shift: each thread reads its words g and g + 1 of its rows (as sol_any_interior_split's loads,
 *   from shared memory), funnel-shifts them by a_R, and once every thread has read, writes the
 *   swizzled tile over the same stage; then sol_split_store.
 * Edge tiles (sol_any_general) take the stage's memory as their tile and load for themselves. */
/* threadIdx.x read anew (a volatile read the compiler cannot hoist): in the pipelined loop, values
 * computed from it once before the loop (64-bit offsets of every cp.async, shifts, shared addresses)
 * stayed live across it and spilled; recomputed per tile they cost a few integer instructions. */
#ifndef SOL_TID
template <int UNUSED = 0>
static __device__ __forceinline__ int sol_tid_ptx()
{
    int t;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    return t;
}
#define SOL_TID() sol_tid_ptx<>()
#endif

/* sol_any_general as a call: inlined in the pipelined loop, its registers pushed the loop's state
 * into local memory (180 bytes of spills at 64 registers); edge tiles are few. */
template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __noinline__ void sol_any_general_call(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                         int cols, int r0, int c0, int in_mis, int out_mis, uint4 *tile)
{
    sol_any_general<T, LPR, CG, NT, CACHE>(out, in, rows, cols, (long long)rows * cols, r0, c0, in_mis, out_mis, tile);
}

template <typename T, int LPR, int CG, int NT, int CACHE>
static __device__ __forceinline__ void sol_stage_issue(uint4 *st, const T *__restrict__ in, int cols, int r0, int c0,
                                                       int in_mis)
{
    constexpr int VEC = 16 / sizeof(T), SW = CG + 1, STAGE = (LPR * VEC + VEC) * SW, ISSUE = (STAGE + NT - 1) / NT;
    const int cm = cols & (VEC - 1);
#pragma unroll
    for (int k = 0; k < ISSUE; ++k) {
        const int idx = SOL_TID() + k * NT, R = idx / SW, m = idx - R * SW;
        const int a = (in_mis + (R & (VEC - 1)) * cm) & (VEC - 1); /* row r0 - VEC + R's shift */
        if ((STAGE % NT == 0 || idx < STAGE) && (m < CG || a != 0)) {
            const T *src = in + ((size_t)(r0 - VEC + R) * (size_t)cols + (size_t)(c0 + m * VEC)) - a;
            SOL_CHECK_ACCESS(src, 16, 0);
            SOL_CP_ASYNC16(CACHE, &st[idx], src);
        }
    }
}

template <typename T, int LPR, int CG, int NT, int CACHE, int MODE>
static __device__ __forceinline__ void sol_tiled_any_pipe(T *__restrict__ out, const T *__restrict__ in, int rows,
                                                          int cols)
{
    constexpr int VEC = 16 / sizeof(T), RK = VEC / 2, TR = LPR * VEC, TC = CG * VEC, SW = CG + 1;
    constexpr int STAGE = (TR + VEC) * SW;
    constexpr bool UNI = (MODE & 1) != 0, UNI_LD = (MODE & 4) != 0;
    static_assert(sizeof(T) == 2 && 2 * LPR * CG == NT, "2-byte elements, two threads a block");
    static_assert(!UNI_LD || CG >= 32 || (32 % CG == 0 && LPR % (32 / CG) == 0), "a warp's lanes share their rows' places");
    static_assert(32 % LPR == 0 && NT % 32 == 0, "a column of the tile must be lanes of one warp");
    __shared__ uint4 stage[2][STAGE];
    const int in_mis = (int)(((size_t)in / sizeof(T)) & (VEC - 1)), out_mis = (int)(((size_t)out / sizeof(T)) & (VEC - 1));
    const int tiles_r = (rows + TR - 1) / TR, tiles = tiles_r * ((cols + TC - 1) / TC), cm = cols & (VEC - 1);
    int tt = (int)blockIdx.x;
    {
        const int tc = tt / tiles_r, r0 = (tt - tc * tiles_r) * TR, c0 = tc * TC;
        if (tt < tiles && r0 > 0 && r0 + TR < rows && c0 + TC <= cols)
            sol_stage_issue<T, LPR, CG, NT, CACHE>(stage[0], in, cols, r0, c0, in_mis);
        SOL_CP_ASYNC_COMMIT();
    }
    for (int s = 0; tt < tiles; tt += (int)gridDim.x, s ^= 1) {
        const int tn = tt + (int)gridDim.x;
        if (tn < tiles) {
            const int tc = tn / tiles_r, r0 = (tn - tc * tiles_r) * TR, c0 = tc * TC;
            if (r0 > 0 && r0 + TR < rows && c0 + TC <= cols)
                sol_stage_issue<T, LPR, CG, NT, CACHE>(stage[s ^ 1], in, cols, r0, c0, in_mis);
        }
        SOL_CP_ASYNC_COMMIT();
        SOL_CP_ASYNC_WAIT(1); /* every group but the newest: this tile's words are in */
        __syncthreads();
        const int tc = tt / tiles_r, r0 = (tt - tc * tiles_r) * TR, c0 = tc * TC;
        uint4 *const st = stage[s];
        if (r0 > 0 && r0 + TR < rows && c0 + TC <= cols) {
            const int t = SOL_TID(), q = t / CG, g = t % CG;
            const int row0 = UNI_LD ? (q % LPR) * VEC + (q / LPR) * RK : q * RK, k0 = row0 & (VEC - 1);
            uint4 w[RK];
#pragma unroll
            for (int k = 0; k < RK; ++k) {
                const int R = VEC + row0 + k, a = (in_mis + (k0 + k) * cm) & (VEC - 1);
                w[k] = sol_window<T>(st[R * SW + g], st[R * SW + g + 1], a);
            }
            uint4 wa = make_uint4(0u, 0u, 0u, 0u);
            const bool above = t < VEC * CG;
            if (above) {
                const int a = (in_mis + q * cm) & (VEC - 1);
                wa = sol_window<T>(st[q * SW + g], st[q * SW + g + 1], a);
            }
            __syncthreads(); /* every word read before the tile overwrites the stage */
#pragma unroll
            for (int k = 0; k < RK; ++k)
                sol_put_word<T, CG, UNI>(st, VEC + row0 + k, g, w[k]);
            if (above)
                sol_put_word<T, CG, UNI>(st, q, g, wa);
            __syncthreads();
            sol_split_store<T, LPR, CG, NT, CACHE, MODE>(out, rows, r0, c0, out_mis, st, t);
        } else {
            sol_any_general_call<T, LPR, CG, NT, CACHE>(out, in, rows, cols, r0, c0, in_mis, out_mis, st);
        }
        __syncthreads(); /* the stage is free for the tile after next */
    }
}

