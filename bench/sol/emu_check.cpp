// emu_check.cpp: runs the transpose kernels of kernels/sol_transpose.cu on the CPU, every thread of
// every block (cooperative threads on ucontext; __syncthreads and warp shuffles emulated exactly),
// launched as smem_sol_transpose_launch (src/gpu/sol.c) says, and compares each output with a CPU
// transpose of random bits. Every global access is checked against the bounds and alignment of its
// buffer, and every output byte must be written exactly once. No GPU needed: a check of the index
// arithmetic (all four paths, odd shapes, misaligned pointers) before any device time is spent.
//   gcc -std=gnu11 -I include -c -o /tmp/sol.o src/gpu/sol.c
//   g++ -std=c++17 -O1 -I include -o /tmp/emu_check bench/sol/emu_check.cpp /tmp/sol.o && /tmp/emu_check
// (--quick: aligned pointers only; --only NAME: the kernels whose names contain NAME). Not part of the
// product or of ctest: the GPU tests
// run the same kernels on the device.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <ucontext.h>
#include <algorithm>
#include <map>
#include <vector>

extern "C" {
#include "smemlab/gpu/sol.h"
}

// ---- The CUDA surface the kernel file uses, on the host ----------------------------------------
struct uint4 {
    unsigned x, y, z, w;
};
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
struct emu_dim3 {
    unsigned x, y, z;
};
static emu_dim3 threadIdx, blockIdx, blockDim, gridDim;

#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __launch_bounds__(...)
#define SOL_DYNAMIC_SHARED extern
#define SOL_LD16_L2_256B(p) (*(const uint4 *)(p))
#define SOL_ST16V(p, w) (*(uint4 *)(p) = (w))
#define SOL_PREFETCH_L2(p) ((void)(p)) /* the address is checked (SOL_CHECK_ACCESS) before it */
/* cp.async (checked in sol_cp16): per thread, landing in shared memory as late as the kernel lets them
 * (g_cp_late: at the thread's wait, cp.async.wait_all) or at once (the hardware may land them at any
 * time in between): the late mode finds a tile read before its copies were waited for, the immediate
 * one a buffer refilled while other threads still read it (the threads of a block run in turn between
 * barriers). Every kernel that copies runs in both. (The waits for groups, cp.async.wait_group, and
 * the bulk copies' mbarriers were emulated too while kernels/sol_transpose.cu had forms that used them,
 * up to commit 745f1de.) */
static void emu_cp_async(uint4 *dst, const void *src);
static void emu_cp_wait();
#define SOL_CP_ASYNC16(dst, src, hint256) emu_cp_async((dst), (src))
#define SOL_CP_ASYNC_WAIT() emu_cp_wait()

static void emu_access(const void *p, size_t bytes, int store);
#define SOL_CHECK_ACCESS(p, bytes, store) emu_access((const void *)(p), (bytes), (store))

static inline uint4 __ldg(const uint4 *p) { return *p; }
static inline uint4 __ldcs(const uint4 *p) { return *p; }
static inline uint4 __ldcg(const uint4 *p) { return *p; }
static inline void __stcs(uint4 *p, uint4 v) { *p = v; }
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh)
{
    return (unsigned)((((uint64_t)hi << 32) | lo) >> (sh & 31));
}
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    const uint64_t b = ((uint64_t)y << 32) | x;
    unsigned r = 0;
    for (int n = 0; n < 4; ++n)
        r |= (unsigned)((b >> (8 * ((s >> (4 * n)) & 7))) & 0xFF) << (8 * n);
    return r;
}
static inline unsigned __float_as_uint(float f)
{
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}
static inline long long __double_as_longlong(double d)
{
    long long u;
    memcpy(&u, &d, 8);
    return u;
}
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    unsigned long long o = *p;
    *p += v;
    return o;
}

// Cooperative threads: one ucontext per thread of the block; a barrier returns to the scheduler.
static ucontext_t g_sched;
static std::vector<ucontext_t> g_ctx;
static std::vector<std::vector<char>> g_stacks;
static std::vector<int> g_state; // 0 runnable, 1 at a barrier, 2 exited, 3 at a warp shuffle
static int g_cur;
static void (*g_body)();

static void __syncthreads()
{
    g_state[g_cur] = 1;
    swapcontext(&g_ctx[g_cur], &g_sched);
}

/* A shuffle waits for the live threads of its warp only (whole warps may skip a block's shuffles
 * and go on to a barrier, as in the general any path's store phase inside the pipelined loop). */
static void emu_warp_sync()
{
    g_state[g_cur] = 3;
    swapcontext(&g_ctx[g_cur], &g_sched);
}

static std::vector<unsigned> g_slot;
static unsigned emu_shfl(unsigned v, int delta, int width)
{
    const int t = g_cur, lane = t % 32, base = lane & ~(width - 1), src = lane + delta;
    g_slot[t] = v;
    emu_warp_sync(); // every thread of a warp takes part in each of its shuffles in these kernels
    const unsigned got = (src < base || src >= base + width) ? v : g_slot[t - lane + src];
    emu_warp_sync();
    return got;
}
static unsigned __shfl_up_sync(unsigned, unsigned v, int delta, int width) { return emu_shfl(v, -delta, width); }
/* __shfl_sync: lane src (mod width) of the caller's group of width lanes */
static unsigned __shfl_sync(unsigned, unsigned v, int src, int width)
{
    const int t = g_cur, lane = t % 32, base = lane & ~(width - 1);
    return emu_shfl(v, base + (src & (width - 1)) - lane, width);
}
static unsigned __shfl_down_sync(unsigned, unsigned v, int delta, int width) { return emu_shfl(v, delta, width); }

struct emu_cp {
    uint4 *dst;
    uint4 v;
};
static bool g_cp_late, g_cp_used;
static std::vector<std::vector<emu_cp>> g_cp; /* per thread: copies not landed yet */
static void emu_cp_async(uint4 *dst, const void *src)
{
    g_cp_used = true;
    if (!g_cp_late) {
        *dst = *(const uint4 *)src;
        return;
    }
    g_cp[g_cur].push_back({dst, *(const uint4 *)src});
}
static void emu_cp_wait()
{
    for (auto &c : g_cp[g_cur])
        *c.dst = c.v;
    g_cp[g_cur].clear();
}

#include "../../kernels/sol_transpose.cu"

// ---- Buffers with bounds, and write counts ------------------------------------------------------
struct buf {
    const unsigned char *lo, *hi;
    std::vector<unsigned char> *writes; // per byte, NULL for the input
};
static std::vector<buf> g_bufs;
static long long g_bad_access;

static void emu_access(const void *p, size_t bytes, int store)
{
    const unsigned char *c = (const unsigned char *)p;
    for (auto &b : g_bufs)
        if (c >= b.lo && c + bytes <= b.hi) {
            if ((uintptr_t)c % bytes) {
                if (g_bad_access++ < 5)
                    fprintf(stderr, "  misaligned %zu-byte access at offset %td\n", bytes, c - b.lo);
            }
            if (store) {
                if (!b.writes) {
                    if (g_bad_access++ < 5)
                        fprintf(stderr, "  store into the input at offset %td\n", c - b.lo);
                    return;
                }
                for (size_t i = 0; i < bytes; ++i)
                    ++(*b.writes)[c - b.lo + i];
            }
            return;
        }
    if (g_bad_access++ < 5)
        fprintf(stderr, "  %s of %zu bytes outside every buffer\n", store ? "store" : "load", bytes);
}

static void entry()
{
    g_body();
    g_state[g_cur] = 2;
}

template <typename T>
static void (*g_kern)(T *, const T *, int, int);
template <typename T>
static T *g_out;
template <typename T>
static const T *g_in;
static int g_rows, g_cols;

template <typename T>
static void body()
{
    g_kern<T>(g_out<T>, g_in<T>, g_rows, g_cols);
}

template <typename T>
static void run_grid(void (*k)(T *, const T *, int, int), const smem_sol_launch &l, T *out, const T *in, int rows,
                     int cols)
{
    g_kern<T> = k;
    g_out<T> = out;
    g_in<T> = in;
    g_rows = rows;
    g_cols = cols;
    g_body = body<T>;
    const int nt = (int)l.block[0];
    g_ctx.assign(nt, ucontext_t());
    g_stacks.assign(nt, std::vector<char>(1 << 16));
    g_state.assign(nt, 0);
    g_slot.assign(nt, 0);
    g_cp.assign(nt, std::vector<emu_cp>());
    blockDim = {l.block[0], l.block[1], l.block[2]};
    gridDim = {l.grid[0], l.grid[1], l.grid[2]};
    for (unsigned by = 0; by < l.grid[1]; ++by)
        for (unsigned bx = 0; bx < l.grid[0]; ++bx) {
            blockIdx = {bx, by, 0};
            for (int t = 0; t < nt; ++t) {
                getcontext(&g_ctx[t]);
                g_ctx[t].uc_stack.ss_sp = g_stacks[t].data();
                g_ctx[t].uc_stack.ss_size = g_stacks[t].size();
                g_ctx[t].uc_link = &g_sched;
                makecontext(&g_ctx[t], entry, 0);
                g_state[t] = 0;
            }
            /* run every runnable thread until it waits or exits; then release the warps whose live
             * threads all wait at a shuffle, else, when every live thread waits at a barrier, the
             * barrier; neither: the threads wait for each other (a barrier one skipped) */
            for (;;) {
                for (int t = 0; t < nt; ++t) {
                    if (g_state[t] != 0)
                        continue;
                    g_cur = t;
                    threadIdx = {(unsigned)t, 0, 0};
                    swapcontext(&g_sched, &g_ctx[t]);
                }
                int live = 0, at_bar = 0;
                bool released = false;
                for (int w = 0; w < nt; w += 32) {
                    int lw = 0, sh = 0;
                    for (int t = w; t < nt && t < w + 32; ++t) {
                        lw += g_state[t] != 2;
                        sh += g_state[t] == 3;
                        at_bar += g_state[t] == 1;
                    }
                    live += lw;
                    if (sh && sh == lw) {
                        for (int t = w; t < nt && t < w + 32; ++t)
                            if (g_state[t] == 3)
                                g_state[t] = 0;
                        released = true;
                    }
                }
                if (!live)
                    break;
                if (!released && at_bar == live) {
                    for (int t = 0; t < nt; ++t)
                        if (g_state[t] == 1)
                            g_state[t] = 0;
                    released = true;
                }
                if (!released) {
                    if (g_bad_access++ < 5)
                        fprintf(stderr, "  block %u: threads wait at different barriers or shuffles\n", bx);
                    break;
                }
            }
            for (int t = 0; t < nt; ++t)
                if (!g_cp[t].empty()) {
                    if (g_bad_access++ < 5)
                        fprintf(stderr, "  block %u: thread %d exits with copies never waited for\n", bx, t);
                    g_cp[t].clear();
                }
        }
}

struct kern_names {
    const char *name;
    void *fn;
};
#define K(n) {#n, (void *)n}
static const kern_names g_names[] = {
    K(sol_transpose_f32),        K(sol_transpose_f16),        K(sol_transpose_f64),
    K(sol_transpose_narrow_f32), K(sol_transpose_narrow_f16), K(sol_transpose_narrow_f64),
    K(sol_transpose_big_f32),    K(sol_transpose_big_f16),    K(sol_transpose_big_f64),
    K(sol_transpose_large_f32),  K(sol_transpose_large_f16),  K(sol_transpose_large_f64),
    K(sol_transpose_any_f32),    K(sol_transpose_any_f16), K(sol_transpose_any_f64),
    K(sol_transpose_copy_f32),   K(sol_transpose_copy_f16),   K(sol_transpose_copy_f64),
    /* issue 34's candidates (src/gpu/sol.c's tables, candidates 1 and 2) */
    K(sol_transpose_any_f16_64x128), K(sol_transpose_narrow_f64_128x32), K(sol_transpose_copy_f32_t1024),
    K(sol_transpose_copy_f16_t1024), K(sol_transpose_copy_f64_t1024), K(sol_transpose_f32_64x128),
    K(sol_transpose_large_f16_cm), K(sol_transpose_big_f16_cm), K(sol_transpose_big_f16_64x256),
    K(sol_transpose_any_f32_shfl),
    /* session 4's (cp.async: copied at once here) */
    K(sol_transpose_narrow_f32_t128), K(sol_transpose_narrow_f32_a), K(sol_transpose_narrow_f32_256x32a),
    K(sol_transpose_narrow_f64_64x32t128), K(sol_transpose_narrow_f64_a), K(sol_transpose_narrow_f64_128x32a),
    K(sol_transpose_f64_t128), K(sol_transpose_f64_a), K(sol_transpose_f64_64x64), K(sol_transpose_f64_64x64a),
    K(sol_transpose_large_f64_a), K(sol_transpose_large_f64_32x128), K(sol_transpose_large_f64_128x32),
    K(sol_transpose_large_f64_32x32), K(sol_transpose_any_f32_raw), K(sol_transpose_any_f64_raw),
    /* session 5's */
    K(sol_transpose_any_f64_raw64x32), K(sol_transpose_any_f32_raws), K(sol_transpose_any_f64_raws64x32),
};

static const char *g_only; /* --only NAME: the kernels whose names contain NAME, no others */
static uint32_t g_rng = 12345;
static unsigned char rnd() { return (unsigned char)((g_rng = g_rng * 1664525u + 1013904223u) >> 24); }

// One case: rows x cols of T, the input and output shifted by in_off / out_off elements from a
// 256-byte boundary. Returns 1 if the output is the transpose, every byte written once, no access out
// of bounds.
template <typename T>
static int one(int rows, int cols, int in_off, int out_off, std::string *kernel, const char *kind = nullptr,
               int cand = 0)
{
    const size_t n = (size_t)rows * cols, bytes = n * sizeof(T);
    unsigned char *ibuf = (unsigned char *)aligned_alloc(256, bytes + 512), *obuf = (unsigned char *)aligned_alloc(256, bytes + 512);
    T *in = (T *)(ibuf + in_off * sizeof(T)), *out = (T *)(obuf + out_off * sizeof(T));
    for (size_t i = 0; i < bytes; ++i)
        ((unsigned char *)in)[i] = rnd();
    memset(out, 0xA5, bytes);
    std::vector<unsigned char> writes(bytes, 0);
    g_bufs = {{(const unsigned char *)in, (const unsigned char *)in + bytes, nullptr},
              {(const unsigned char *)out, (const unsigned char *)out + bytes, &writes}};
    g_bad_access = 0;
    smem_sol_launch l;
    int ok = 0;
    const int st = kind ? smem_sol_transpose_launch_cand(sizeof(T), rows, cols, kind, cand, (uint64_t)(uintptr_t)in,
                                                         (uint64_t)(uintptr_t)out, &l)
                        : smem_sol_transpose_launch(sizeof(T), rows, cols, (uint64_t)(uintptr_t)in,
                                                    (uint64_t)(uintptr_t)out, &l);
    if (kind && st) {
        free(ibuf);
        free(obuf);
        *kernel = "";
        return 1; /* this kind does not take this shape */
    }
    if (st == 0 && g_only && !strstr(l.kernel, g_only)) {
        free(ibuf);
        free(obuf);
        *kernel = "";
        return 1; /* --only: not this kernel */
    }
    if (st == 0) {
        *kernel = l.kernel;
        void *fn = nullptr;
        for (auto &k : g_names)
            if (!strcmp(k.name, l.kernel))
                fn = k.fn;
        if (fn) {
            /* the kernel's cp.async copies land late, then at once (g_cp_late; a kernel without any runs once) */
            ok = 1;
            g_cp_used = false;
            for (int pass = 0; pass < (g_cp_used ? 2 : 1) && ok; ++pass) {
                g_cp_late = pass == 0;
                if (pass) {
                    memset(out, 0xA5, bytes);
                    std::fill(writes.begin(), writes.end(), 0);
                }
                run_grid<T>((void (*)(T *, const T *, int, int))fn, l, out, in, rows, cols);
                g_cp_late = false;
                long long wrong = 0, twice = 0, never = 0;
                for (int r = 0; r < rows; ++r)
                    for (int c = 0; c < cols; ++c)
                        wrong += memcmp(&out[(size_t)c * rows + r], &in[(size_t)r * cols + c], sizeof(T)) != 0;
                for (size_t i = 0; i < bytes; ++i) {
                    twice += writes[i] > 1;
                    never += writes[i] == 0;
                }
                if (wrong || twice || never || g_bad_access) {
                    fprintf(stderr, "  %s (copies %s): %lld elements wrong, %lld bytes written twice or more, %lld never\n",
                            l.kernel, pass == 0 ? "late" : "at once", wrong, twice, never);
                    ok = 0;
                }
            }
        } else {
            fprintf(stderr, "  no kernel %s\n", l.kernel);
        }
    } else {
        *kernel = "(no launch)";
    }
    free(ibuf);
    free(obuf);
    return ok;
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1},     {1, 7},     {7, 1},      {1, 1000},  {1000, 1},  {2, 2},
                                    {3, 5},     {16, 16},   {64, 64},    {128, 96},  {77, 131},  {33, 35},
                                    {256, 200}, {130, 258}, {300, 32},   {300, 16},  {257, 32},  {520, 8},
                                    {1000, 24}, {31, 1000}, {136, 72},   {67, 4097}, {4097, 67}, {256, 33},
                                    {129, 130}, {300, 31},  {2, 1000},   {1000, 2},  {65, 257},  {512, 128},
                                    {100, 63},  {70, 127},  {90, 126},   {50, 31},   {40, 190},  {33, 253},
                                    {127, 62},  {61, 125},  {45, 94},
                                    /* several tiles inside the matrix (the any path's interior tiles) */
                                    {331, 269}, {203, 517}, {517, 203}, {300, 300}, {197, 392}};
    bool quick = false;
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            g_only = argv[++i];
    int fails = 0, cases = 0;
    for (auto &s : shapes)
        for (int off = 0; off < (quick ? 1 : 4); ++off) {
            const int in_off = off & 1, out_off = off >> 1;
            std::string k32, k16, k64;
            const int a = one<sol_u32>(s[0], s[1], in_off, out_off, &k32);
            const int b = one<sol_u16>(s[0], s[1], in_off, out_off, &k16);
            const int c = one<sol_u64>(s[0], s[1], in_off, out_off, &k64);
            cases += 3;
            fails += !a + !b + !c;
            printf("%5dx%-5d in+%d out+%d  f32 %-4s %-26s f16 %-4s %-26s f64 %-4s %s\n", s[0], s[1], in_off, out_off,
                   a ? "ok" : "FAIL", k32.c_str(), b ? "ok" : "FAIL", k16.c_str(), c ? "ok" : "FAIL", k64.c_str());
            fflush(stdout);
        }
    /* every kind of kernel on every shape it takes (the launcher alone picks "large" only from 512 MB) */
    static const char *const kinds[] = {"", "big", "large", "narrow", "any", "copy"};
    for (auto &s : shapes)
        for (const char *k : kinds) {
            std::string k32, k16, k64;
            const int a = one<sol_u32>(s[0], s[1], 0, 0, &k32, k);
            const int b = one<sol_u16>(s[0], s[1], 0, 0, &k16, k);
            const int c = one<sol_u64>(s[0], s[1], 0, 0, &k64, k);
            cases += (k32 != "") + (k16 != "") + (k64 != "");
            fails += !a + !b + !c;
            if (!a || !b || !c)
                printf("%5dx%-5d as '%s': f32 %s f16 %s f64 %s\n", s[0], s[1], k, a ? "ok" : "FAIL", b ? "ok" : "FAIL",
                       c ? "ok" : "FAIL");
        }
    /* every candidate past the first (issue 34), in and out 0 or 1 element off their allocation */
    for (auto &s : shapes)
        for (const char *k : kinds)
            for (int off = 0; off < (quick ? 1 : 4); ++off)
                for (int cand = 1; cand < SMEM_SOL_MAX_CANDIDATES; ++cand) {
                    const int in_off = off & 1, out_off = off >> 1;
                    std::string k32, k16, k64;
                    const bool c32 = cand < smem_sol_transpose_candidates(4, k),
                               c16 = cand < smem_sol_transpose_candidates(2, k),
                               c64 = cand < smem_sol_transpose_candidates(8, k);
                    const int a = !c32 || one<sol_u32>(s[0], s[1], in_off, out_off, &k32, k, cand);
                    const int b = !c16 || one<sol_u16>(s[0], s[1], in_off, out_off, &k16, k, cand);
                    const int c = !c64 || one<sol_u64>(s[0], s[1], in_off, out_off, &k64, k, cand);
                    cases += (k32 != "") + (k16 != "") + (k64 != "");
                    fails += !a + !b + !c;
                    if (!a || !b || !c)
                        printf("%5dx%-5d in+%d out+%d as '%s' candidate %d: f32 %s f16 %s f64 %s\n", s[0], s[1], in_off,
                               out_off, k, cand, a ? "ok" : "FAIL", b ? "ok" : "FAIL", c ? "ok" : "FAIL");
                }
    printf("%s: %d of %d cases failed\n", fails ? "FAIL" : "PASS", fails, cases);
    return fails != 0;
}
