// dev.cu: development harness for issue 7 (speed of light). Builds with nvcc on the GPU machine
// (bench/sol/run_dev.sh); times every transpose and reduction variant, a sweep of tile / unroll
// configurations of our kernels, cudaMemcpy D2D, cuBLAS geam, CUB DeviceReduce and torch (subprocess),
// after checking every result exactly (transposes: every element; sums: int exact, float to 1e-5).
// Not part of the product: `smemlab bench transpose|reduce` is (tools/bench_sol.c).
#include "../../kernels/sol_transpose.cu"
#include "../../kernels/sol_reduce.cu"

extern "C" {
#include "smemlab/gpu/sol.h"
}

#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                                                       \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)
#define CKB(call)                                                                                  \
    do {                                                                                           \
        cublasStatus_t s_ = (call);                                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)s_, __FILE__, __LINE__);            \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static int g_reps = 100, g_warm = 10;
static bool g_no_torch;
static FILE *g_csv;
static int g_sms;

// The tile configurations: the aligned path where rows and cols allow it (dev_tr), else the any path
// (dev_tra); bench/sol/dev16.cu sweeps both further.
template <typename T, int LPR, int CG, int NT, bool ST>
__global__ void __launch_bounds__(NT) dev_tr(T *__restrict__ out, const T *__restrict__ in, int rows, int cols)
{
    sol_tiled_aligned<T, LPR, CG, NT, ST ? SOL_CACHE_STREAM : SOL_CACHE_DEFAULT, 0>(out, in, rows, cols);
}

template <typename T, int LPR, int CG, int NT, bool ST>
__global__ void __launch_bounds__(NT) dev_tra(T *__restrict__ out, const T *__restrict__ in, int rows, int cols)
{
    sol_tiled_any<T, LPR, CG, NT, ST ? SOL_CACHE_STREAM : SOL_CACHE_DEFAULT, 0>(out, in, rows, cols);
}

// The shipped launch (kernel, grid and block by shape and alignment: src/gpu/sol.c).
template <typename T>
static void ship(T *o, const T *i, int r, int c, void *const *kernels)
{
    smem_sol_launch l;
    if (smem_sol_transpose_launch(sizeof(T), r, c, (uint64_t)(uintptr_t)i, (uint64_t)(uintptr_t)o, &l)) {
        fprintf(stderr, "no launch for %dx%d\n", r, c);
        exit(2);
    }
    static const char *const kinds[6] = {"narrow_", "any_", "copy_", "big_", "large_", ""};
    int k = 5;
    for (int j = 0; j < 5; ++j)
        if (strstr(l.kernel, kinds[j]))
            k = j;
    void *args[] = {&o, (void *)&i, &r, &c};
    CK(cudaLaunchKernel(kernels[k], dim3(l.grid[0], l.grid[1], l.grid[2]), dim3(l.block[0]), args, 0, 0));
}

template <typename T, int LPR, int CG, int NT, bool ST, int MINB>
__global__ void __launch_bounds__(NT, MINB) dev_trp(T *__restrict__ out, const T *__restrict__ in, int rows, int cols)
{
    sol_transpose_pipelined_body<T, LPR, CG, NT, ST>(out, in, rows, cols);
}

// Persistent grid: every SM full of blocks. Asked once per kernel, outside the timed region (a host
// call between the start event and the launch would be timed as idle GPU).
template <typename K>
static int occ_grid(K kernel, int threads)
{
    static std::map<const void *, int> grids; // one entry per kernel
    int &grid = grids[(const void *)kernel];
    if (!grid) {
        int per_sm = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
        grid = g_sms * (per_sm > 0 ? per_sm : 1);
    }
    return grid;
}

template <typename T, int NT, int U, bool ST, bool SH>
__global__ void __launch_bounds__(NT)
    dev_red(const T *__restrict__ in, T *__restrict__ out, T *__restrict__ partials, unsigned *__restrict__ ticket, long long n)
{
    sol_reduce_body<T, NT, U, ST, SH>(in, out, partials, ticket, n);
}

// Before each method's warm-up: ordinary stores over twice the L2, so no method starts with input
// lines an earlier one left behind (evict-first loads would keep hitting them run after run).
static int *g_scrub;
static size_t g_scrub_words;
static void scrub_l2() { sol_fill_i32<<<g_sms * 8, 256>>>(g_scrub, g_scrub_words, 1u); }

// A plain 16-byte grid-stride copy: what a simple streaming kernel gets, beside cudaMemcpy.
__global__ void dev_copy16(uint4 *__restrict__ out, const uint4 *__restrict__ in, size_t nw)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nw; i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

static double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Timing {
    double med, mn, mx;
};

static Timing time_it(const std::function<void()> &f)
{
    scrub_l2();
    for (int i = 0; i < g_warm; ++i)
        f();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t(g_reps);
    for (int i = 0; i < g_reps; ++i) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&t[i], a, b));
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return {median(t), *std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end())};
}

// ---------------------------------------------------------------------------------------------
// Transpose

template <typename T> struct Ty;
template <> struct Ty<sol_u32> {
    static constexpr const char *name = "f32";
    static void pipe(sol_u32 *o, const sol_u32 *i, int r, int c) { sol_transpose_pipelined_f32<<<occ_grid(sol_transpose_pipelined_f32, 256), 256>>>(o, i, r, c); }
    static void fill(sol_u32 *a, size_t n, unsigned s) { sol_fill_f32<<<g_sms * 8, 256>>>(a, n, s); }
    static void check(const sol_u32 *o, int r, int c, unsigned s, unsigned long long *bad) { sol_check_f32<<<g_sms * 8, 256>>>(o, r, c, s, bad); }
    static void best(sol_u32 *o, const sol_u32 *i, int r, int c, dim3)
    {
        static void *const k[6] = {(void *)sol_transpose_narrow_f32, (void *)sol_transpose_any_f32, (void *)sol_transpose_copy_f32, (void *)sol_transpose_big_f32, (void *)sol_transpose_large_f32, (void *)sol_transpose_f32};
        ship<sol_u32>(o, i, r, c, k);
    }
    static void naive(sol_u32 *o, const sol_u32 *i, int r, int c, dim3 g) { sol_transpose_naive_f32<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void tile(sol_u32 *o, const sol_u32 *i, int r, int c, dim3 g) { sol_transpose_tile_f32<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void pad(sol_u32 *o, const sol_u32 *i, int r, int c, dim3 g) { sol_transpose_pad_f32<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void swz(sol_u32 *o, const sol_u32 *i, int r, int c, dim3 g) { sol_transpose_swizzle_f32<<<g, dim3(32, 8)>>>(o, i, r, c); }
};
template <> struct Ty<sol_u16> {
    static constexpr const char *name = "f16";
    static void pipe(sol_u16 *o, const sol_u16 *i, int r, int c) { sol_transpose_pipelined_f16<<<occ_grid(sol_transpose_pipelined_f16, 256), 256>>>(o, i, r, c); }
    static void fill(sol_u16 *a, size_t n, unsigned s) { sol_fill_f16<<<g_sms * 8, 256>>>(a, n, s); }
    static void check(const sol_u16 *o, int r, int c, unsigned s, unsigned long long *bad) { sol_check_f16<<<g_sms * 8, 256>>>(o, r, c, s, bad); }
    static void best(sol_u16 *o, const sol_u16 *i, int r, int c, dim3)
    {
        static void *const k[6] = {(void *)sol_transpose_narrow_f16, (void *)sol_transpose_any_f16, (void *)sol_transpose_copy_f16, (void *)sol_transpose_big_f16, (void *)sol_transpose_large_f16, (void *)sol_transpose_f16};
        ship<sol_u16>(o, i, r, c, k);
    }
    static void naive(sol_u16 *o, const sol_u16 *i, int r, int c, dim3 g) { sol_transpose_naive_f16<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void tile(sol_u16 *o, const sol_u16 *i, int r, int c, dim3 g) { sol_transpose_tile_f16<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void pad(sol_u16 *o, const sol_u16 *i, int r, int c, dim3 g) { sol_transpose_pad_f16<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void swz(sol_u16 *o, const sol_u16 *i, int r, int c, dim3 g) { sol_transpose_swizzle_f16<<<g, dim3(32, 8)>>>(o, i, r, c); }
};
template <> struct Ty<sol_u64> {
    static constexpr const char *name = "f64";
    static void pipe(sol_u64 *o, const sol_u64 *i, int r, int c) { sol_transpose_pipelined_f64<<<occ_grid(sol_transpose_pipelined_f64, 256), 256>>>(o, i, r, c); }
    static void fill(sol_u64 *a, size_t n, unsigned s) { sol_fill_f64<<<g_sms * 8, 256>>>(a, n, s); }
    static void check(const sol_u64 *o, int r, int c, unsigned s, unsigned long long *bad) { sol_check_f64<<<g_sms * 8, 256>>>(o, r, c, s, bad); }
    static void best(sol_u64 *o, const sol_u64 *i, int r, int c, dim3)
    {
        static void *const k[6] = {(void *)sol_transpose_narrow_f64, (void *)sol_transpose_any_f64, (void *)sol_transpose_copy_f64, (void *)sol_transpose_big_f64, (void *)sol_transpose_large_f64, (void *)sol_transpose_f64};
        ship<sol_u64>(o, i, r, c, k);
    }
    static void naive(sol_u64 *o, const sol_u64 *i, int r, int c, dim3 g) { sol_transpose_naive_f64<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void tile(sol_u64 *o, const sol_u64 *i, int r, int c, dim3 g) { sol_transpose_tile_f64<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void pad(sol_u64 *o, const sol_u64 *i, int r, int c, dim3 g) { sol_transpose_pad_f64<<<g, dim3(32, 8)>>>(o, i, r, c); }
    static void swz(sol_u64 *o, const sol_u64 *i, int r, int c, dim3 g) { sol_transpose_swizzle_f64<<<g, dim3(32, 8)>>>(o, i, r, c); }
};

struct TrVariant {
    std::string name;
    std::function<void(void *, const void *, int, int)> f;
};

template <typename T, int LPR, int CG, int NT, bool ST>
static TrVariant tr_cfg()
{
    char nm[64];
    snprintf(nm, sizeof nm, "cfg_l%d_g%d_t%d%s", LPR, CG, NT, ST ? "_cs" : "");
    return {nm, [](void *o, const void *i, int r, int c) {
                const int VEC = 16 / sizeof(T);
                dim3 g((c + CG * VEC - 1) / (CG * VEC), (r + LPR * VEC - 1) / (LPR * VEC));
                if ((r | c) % VEC == 0)
                    dev_tr<T, LPR, CG, NT, ST><<<g, NT>>>((T *)o, (const T *)i, r, c);
                else
                    dev_tra<T, LPR, CG, NT, ST><<<g, NT>>>((T *)o, (const T *)i, r, c);
            }};
}

template <typename T, int LPR, int CG, int NT, bool ST, int MINB>
static TrVariant trp_cfg()
{
    char nm[64];
    snprintf(nm, sizeof nm, "pipe_l%d_g%d_t%d_m%d%s", LPR, CG, NT, MINB, ST ? "_cs" : "");
    return {nm, [](void *o, const void *i, int r, int c) {
                dev_trp<T, LPR, CG, NT, ST, MINB><<<occ_grid(dev_trp<T, LPR, CG, NT, ST, MINB>, NT), NT>>>((T *)o, (const T *)i, r, c);
            }};
}

template <typename T> static std::vector<TrVariant> sweep_variants();
template <> std::vector<TrVariant> sweep_variants<sol_u32>()
{
    return {tr_cfg<sol_u32, 16, 16, 256, true>(),        tr_cfg<sol_u32, 32, 16, 256, false>(),
            tr_cfg<sol_u32, 16, 32, 512, false>(),       trp_cfg<sol_u32, 16, 16, 256, false, 1>(),
            trp_cfg<sol_u32, 16, 16, 256, false, 5>(),   trp_cfg<sol_u32, 8, 16, 128, false, 8>(),
            trp_cfg<sol_u32, 16, 32, 512, false, 2>(),   trp_cfg<sol_u32, 32, 16, 256, false, 3>(),
            trp_cfg<sol_u32, 16, 16, 256, true, 4>(),    trp_cfg<sol_u32, 16, 8, 128, false, 8>()};
}
template <> std::vector<TrVariant> sweep_variants<sol_u16>()
{
    return {tr_cfg<sol_u16, 16, 16, 256, true>(), tr_cfg<sol_u16, 8, 16, 128, false>(),
            trp_cfg<sol_u16, 8, 16, 128, false, 4>(), trp_cfg<sol_u16, 16, 8, 128, false, 4>(),
            trp_cfg<sol_u16, 8, 8, 64, false, 8>()};
}
template <> std::vector<TrVariant> sweep_variants<sol_u64>()
{
    return {tr_cfg<sol_u64, 16, 16, 256, true>(), tr_cfg<sol_u64, 32, 16, 256, false>(),
            trp_cfg<sol_u64, 32, 16, 256, false, 3>(), trp_cfg<sol_u64, 16, 16, 128, false, 8>(),
            trp_cfg<sol_u64, 16, 32, 256, false, 3>()};
}

static void row(const char *bench, const char *dtype, long long a, long long b, const char *method, Timing t,
                double gbps, double ratio_copy, bool ok)
{
    printf("%-9s %-4s %6lld x %-6lld %-22s %9.3f ms (min %8.3f max %8.3f) %8.1f GB/s  %.4f of copy  %s\n", bench,
           dtype, a, b, method, t.med, t.mn, t.mx, gbps, ratio_copy, ok ? "PASS" : "FAIL");
    fflush(stdout);
    if (g_csv)
        fprintf(g_csv, "%s,%s,%lld,%lld,%s,%.5f,%.5f,%.5f,%.2f,%.4f,%s\n", bench, dtype, a, b, method, t.med, t.mn,
                t.mx, gbps, ratio_copy, ok ? "PASS" : "FAIL");
}

static int g_fail;

// Cases handed to the torch subprocess, with the copy time and reference of each.
struct TorchCase {
    std::string kind, dtype, spec;
    long long a, b;
    double copy_ms, ref, bytes;
};
static std::vector<TorchCase> g_torch;

template <typename T>
static void bench_transpose(cublasHandle_t hb, bool profile)
{
    struct Sz {
        int r, c;
    };
    std::vector<Sz> sizes = {{8192, 8192}, {16384, 16384}, {8192, 4096}, {10000, 7000}, {1000, 999}, {37, 4103}};
    if (profile)
        sizes = {{8192, 8192}, {10000, 7000}};
    unsigned long long *d_bad;
    CK(cudaMalloc(&d_bad, sizeof *d_bad));
    for (auto sz : sizes) {
        const int R = sz.r, C = sz.c;
        const size_t n = (size_t)R * C, bytes = n * sizeof(T);
        const unsigned seed = 0x5eed0000u + R * 31u + C;
        T *in, *out;
        CK(cudaMalloc(&in, bytes));
        CK(cudaMalloc(&out, bytes));
        Ty<T>::fill(in, n, seed);
        CK(cudaGetLastError());
        const int VEC = 16 / sizeof(T), TR = SOL_TR_LPR * VEC, TC = SOL_TR_CG * VEC;
        dim3 gb((C + TC - 1) / TC, (R + TR - 1) / TR), g32((C + 31) / 32, (R + 31) / 32);
        std::vector<TrVariant> vs;
        vs.push_back({"memcpy", [&](void *o, const void *i, int, int) { CK(cudaMemcpyAsync(o, i, bytes, cudaMemcpyDeviceToDevice)); }});
        if (!profile && bytes % 16 == 0)
            vs.push_back({"copykernel", [&](void *o, const void *i, int, int) {
                              dev_copy16<<<g_sms * 16, 256>>>((uint4 *)o, (const uint4 *)i, bytes / 16);
                          }});
        vs.push_back({"smemlab", [&](void *o, const void *i, int r, int c) { Ty<T>::best((T *)o, (const T *)i, r, c, gb); }});
        vs.push_back({"pipelined", [&](void *o, const void *i, int r, int c) { Ty<T>::pipe((T *)o, (const T *)i, r, c); }});
        if (!profile) {
            vs.push_back({"naive", [&](void *o, const void *i, int r, int c) { Ty<T>::naive((T *)o, (const T *)i, r, c, g32); }});
            vs.push_back({"tile", [&](void *o, const void *i, int r, int c) { Ty<T>::tile((T *)o, (const T *)i, r, c, g32); }});
        }
        vs.push_back({"pad", [&](void *o, const void *i, int r, int c) { Ty<T>::pad((T *)o, (const T *)i, r, c, g32); }});
        vs.push_back({"swizzle", [&](void *o, const void *i, int r, int c) { Ty<T>::swz((T *)o, (const T *)i, r, c, g32); }});
        {
            if (sizeof(T) == 4) {
                vs.push_back({"cublas", [&](void *o, const void *i, int r, int c) {
                                  const float one = 1.f, zero = 0.f;
                                  CKB(cublasSgeam(hb, CUBLAS_OP_T, CUBLAS_OP_N, r, c, &one, (const float *)i, c, &zero,
                                                  (const float *)o, r, (float *)o, r));
                              }});
            } else if (sizeof(T) == 8) {
                vs.push_back({"cublas", [&](void *o, const void *i, int r, int c) {
                                  const double one = 1.0, zero = 0.0;
                                  CKB(cublasDgeam(hb, CUBLAS_OP_T, CUBLAS_OP_N, r, c, &one, (const double *)i, c, &zero,
                                                  (const double *)o, r, (double *)o, r));
                              }});
            }
            if (!profile)
                for (auto &v : sweep_variants<T>())
                    vs.push_back(v);
        }
        double copy_ms = 0;
        for (auto &v : vs) {
            const bool is_copy = v.name == "memcpy" || v.name == "copykernel";
            auto check = [&]() {
                CK(cudaMemset(d_bad, 0, sizeof *d_bad));
                if (is_copy)
                    Ty<T>::check(out, 1, (int)n, seed, d_bad);
                else
                    Ty<T>::check(out, R, C, seed, d_bad);
                CK(cudaGetLastError());
                unsigned long long bad;
                CK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
                return bad;
            };
            CK(cudaMemset(out, 0xFF, bytes));
            v.f(out, in, R, C);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            unsigned long long bad = check();
            Timing t = {0, 0, 0};
            if (!profile) {
                t = time_it([&]() { v.f(out, in, R, C); });
                bad += check();
            }
            bool ok = bad == 0;
            if (!ok) {
                ++g_fail;
                fprintf(stderr, "MISMATCH %s %dx%d %s: %llu elements\n", Ty<T>::name, R, C, v.name.c_str(), bad);
            }
            if (v.name == "memcpy")
                copy_ms = t.med;
            double gbps = t.med > 0 ? 2.0 * bytes / (t.med * 1e-3) / 1e9 : 0;
            row("transpose", Ty<T>::name, R, C, v.name.c_str(), t, gbps, t.med > 0 ? copy_ms / t.med : 0, ok);
        }
        if (!profile) {
            char spec[96];
            snprintf(spec, sizeof spec, "%s:%dx%d:%u", Ty<T>::name, R, C, seed);
            g_torch.push_back({"transpose", Ty<T>::name, spec, R, C, copy_ms, 0, 2.0 * bytes});
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
    CK(cudaFree(d_bad));
}

// ---------------------------------------------------------------------------------------------
// Reduce

static unsigned h_hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
static unsigned h_mix(unsigned long long i, unsigned seed) { return h_hash32((unsigned)i + seed + h_hash32((unsigned)(i >> 32))); }

template <typename T> struct RTy;
template <> struct RTy<int> {
    static constexpr const char *name = "i32";
    static void fill(int *a, size_t n, unsigned s) { sol_fill_i32<<<g_sms * 8, 256>>>(a, n, s); }
    static double ref(size_t n, unsigned s)
    {
        long long acc = 0;
#pragma omp parallel for reduction(+ : acc)
        for (long long i = 0; i < (long long)n; ++i)
            acc += (int)(h_mix(i, s) & 0xFFu) - 128;
        return (double)acc;
    }
    static bool ok(double got, double ref) { return got == ref; }
    static void best(const int *i, int *o, int *p, unsigned *t, long long n) { sol_reduce_i32<<<g_sms * SOL_RED_BLOCKS_PER_SM, SOL_RED_THREADS>>>(i, o, p, t, n); }
    static void il(const int *i, int *o, long long n) { sol_reduce_interleaved_i32<<<(n + 1023) / 1024, 1024>>>(i, o, n); }
    static void sq(const int *i, int *o, long long n) { sol_reduce_sequential_i32<<<(n + 1023) / 1024, 1024>>>(i, o, n); }
};
template <> struct RTy<float> {
    static constexpr const char *name = "f32";
    static void fill(float *a, size_t n, unsigned s) { sol_fill_rf32<<<g_sms * 8, 256>>>(a, n, s); }
    static double ref(size_t n, unsigned s)
    {
        double acc = 0;
#pragma omp parallel for reduction(+ : acc)
        for (long long i = 0; i < (long long)n; ++i)
            acc += (double)(float)((h_mix(i, s) >> 8) * (1.0 / 16777216.0));
        return acc;
    }
    static bool ok(double got, double ref) { return std::fabs(got - ref) <= 1e-5 * std::fabs(ref); }
    static void best(const float *i, float *o, float *p, unsigned *t, long long n) { sol_reduce_f32<<<g_sms * SOL_RED_BLOCKS_PER_SM, SOL_RED_THREADS>>>(i, o, p, t, n); }
    static void il(const float *i, float *o, long long n) { sol_reduce_interleaved_f32<<<(n + 1023) / 1024, 1024>>>(i, o, n); }
    static void sq(const float *i, float *o, long long n) { sol_reduce_sequential_f32<<<(n + 1023) / 1024, 1024>>>(i, o, n); }
};

struct RedVariant {
    std::string name;
    std::function<void()> f;
};

template <typename T>
struct RedCtx {
    const T *in;
    T *out, *partials, *s0, *s1;
    unsigned *ticket;
    long long n;
};

template <typename T, int NT, int U, int BPS, bool ST, bool SH>
static RedVariant red_cfg(RedCtx<T> *c)
{
    char nm[64];
    snprintf(nm, sizeof nm, "cfg_t%d_u%d_b%d%s%s", NT, U, BPS, ST ? "_cs" : "", SH ? "_shfl" : "_tree");
    return {nm, [c]() { dev_red<T, NT, U, ST, SH><<<g_sms * BPS, NT>>>(c->in, c->out, c->partials, c->ticket, c->n); }};
}

// The documents' one-element-per-thread kernels, repeated over the partials until one value is left.
template <typename T>
static void multipass(void (*k)(const T *, T *, long long), RedCtx<T> *c)
{
    const T *src = c->in;
    long long m = c->n;
    T *bufs[2] = {c->s0, c->s1};
    int w = 0;
    while (m > 1) {
        T *dst = (m + 1023) / 1024 == 1 ? c->out : bufs[w];
        k(src, dst, m);
        src = dst;
        w ^= 1;
        m = (m + 1023) / 1024;
    }
}

template <typename T>
static void bench_reduce(bool profile)
{
    std::vector<long long> ns = {1LL << 26, 1LL << 27, 1LL << 28, 1000003};
    if (profile)
        ns = {1LL << 26};
    for (long long n : ns) {
        const size_t bytes = n * sizeof(T);
        const unsigned seed = 0xa11ce000u + (unsigned)(n & 0xFFFF) + (unsigned)(n >> 20);
        RedCtx<T> c;
        T *in, *copy;
        CK(cudaMalloc(&in, bytes));
        CK(cudaMalloc(&copy, bytes));
        CK(cudaMalloc(&c.out, sizeof(T)));
        CK(cudaMalloc(&c.partials, 64 * 1024 * sizeof(T)));
        CK(cudaMalloc(&c.s0, ((n + 1023) / 1024) * sizeof(T)));
        CK(cudaMalloc(&c.s1, ((n + 1023) / 1024) * sizeof(T)));
        CK(cudaMalloc(&c.ticket, sizeof(unsigned)));
        CK(cudaMemset(c.ticket, 0, sizeof(unsigned)));
        c.in = in;
        c.n = n;
        RTy<T>::fill(in, n, seed);
        CK(cudaGetLastError());
        const double ref = RTy<T>::ref(n, seed);
        size_t tmp_bytes = 0;
        CK(cub::DeviceReduce::Sum(nullptr, tmp_bytes, c.in, c.out, n));
        void *tmp;
        CK(cudaMalloc(&tmp, tmp_bytes));
        RedCtx<T> *cp = &c;
        std::vector<RedVariant> vs = {
            {"memcpy", [&]() { CK(cudaMemcpyAsync(copy, in, bytes, cudaMemcpyDeviceToDevice)); }},
            {"smemlab", [cp]() { RTy<T>::best(cp->in, cp->out, cp->partials, cp->ticket, cp->n); }},
            {"cub", [&, cp]() { CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, cp->in, cp->out, cp->n)); }},
            {"interleaved", [cp]() { multipass<T>(RTy<T>::il, cp); }},
            {"sequential", [cp]() { multipass<T>(RTy<T>::sq, cp); }},
        };
        if (!profile)
            for (RedVariant v : {red_cfg<T, 1024, 4, 2, false, false>(cp), red_cfg<T, 1024, 8, 2, false, true>(cp),
                                 red_cfg<T, 1024, 2, 2, false, true>(cp), red_cfg<T, 512, 4, 4, false, true>(cp),
                                 red_cfg<T, 512, 8, 4, false, true>(cp), red_cfg<T, 256, 8, 8, false, true>(cp),
                                 red_cfg<T, 1024, 4, 2, true, true>(cp), red_cfg<T, 256, 8, 8, true, false>(cp),
                                 red_cfg<T, 512, 4, 4, false, false>(cp), red_cfg<T, 1024, 4, 1, false, true>(cp),
                                 red_cfg<T, 1024, 8, 1, false, true>(cp)})
                vs.push_back(v);
        double copy_ms = 0;
        for (auto &v : vs) {
            const bool is_copy = v.name == "memcpy";
            bool ok;
            auto check = [&]() {
                if (is_copy)
                    return true; /* the copy is the yardstick; its bytes are checked by the transposes */
                T got;
                CK(cudaMemcpy(&got, c.out, sizeof got, cudaMemcpyDeviceToHost));
                bool good = RTy<T>::ok((double)got, ref);
                if (!good)
                    fprintf(stderr, "MISMATCH reduce %s n=%lld %s: got %.17g want %.17g\n", RTy<T>::name, n,
                            v.name.c_str(), (double)got, ref);
                return good;
            };
            CK(cudaMemset(c.out, 0xFF, sizeof(T)));
            v.f();
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            ok = check();
            Timing t = {0, 0, 0};
            if (!profile) {
                t = time_it(v.f);
                ok = check() && ok;
            }
            if (!ok)
                ++g_fail;
            if (is_copy)
                copy_ms = t.med;
            double gbps = t.med > 0 ? (is_copy ? 2.0 : 1.0) * bytes / (t.med * 1e-3) / 1e9 : 0;
            double copy_gbps = copy_ms > 0 ? 2.0 * bytes / (copy_ms * 1e-3) / 1e9 : 0;
            row("reduce", RTy<T>::name, n, 1, v.name.c_str(), t, gbps, copy_gbps > 0 ? gbps / copy_gbps : 0, ok);
        }
        printf("reduce    %-4s n=%lld reference %.17g\n", RTy<T>::name, n, ref);
        if (!profile) {
            char spec[96];
            snprintf(spec, sizeof spec, "%s:%lld:%u", RTy<T>::name, n, seed);
            g_torch.push_back({"reduce", RTy<T>::name, spec, n, 1, copy_ms, ref, (double)bytes});
        }
        CK(cudaFree(tmp));
        CK(cudaFree(in));
        CK(cudaFree(copy));
        CK(cudaFree(c.out));
        CK(cudaFree(c.partials));
        CK(cudaFree(c.s0));
        CK(cudaFree(c.s1));
        CK(cudaFree(c.ticket));
    }
}

int main(int argc, char **argv)
{
    bool profile = false;
    const char *csv = nullptr, *only = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--profile"))
            profile = true;
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            g_reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--no-torch"))
            g_no_torch = true;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    int drv = 0, rt = 0, clk = 0;
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    printf("device %s, %d SMs, SM clock %d MHz, L2 %d MB, driver %d, runtime %d, reps %d\n", p.name, g_sms,
           clk / 1000, p.l2CacheSize >> 20, drv, rt, g_reps);
    if (csv) {
        g_csv = fopen(csv, "w");
        fprintf(g_csv, "bench,dtype,a,b,method,median_ms,min_ms,max_ms,gbps,ratio_to_copy,verify\n");
    }
    g_scrub_words = 2 * (size_t)p.l2CacheSize / 4;
    CK(cudaMalloc(&g_scrub, g_scrub_words * 4));
    cublasHandle_t hb;
    CKB(cublasCreate(&hb));
    if (!only || !strcmp(only, "transpose")) {
        bench_transpose<sol_u32>(hb, profile);
        if (!profile) {
            bench_transpose<sol_u16>(hb, profile);
            bench_transpose<sol_u64>(hb, profile);
        }
    }
    if (!only || !strcmp(only, "reduce")) {
        bench_reduce<int>(profile);
        bench_reduce<float>(profile);
    }
    CKB(cublasDestroy(hb));
    if (!g_torch.empty() && !g_no_torch) {
        std::string tr, rd;
        for (auto &c : g_torch)
            (c.kind == "transpose" ? tr : rd) += (c.kind == "transpose" ? tr : rd).empty() ? c.spec : "," + c.spec;
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "python3 bench/sol/torch_ref.py --reps %d --transpose '%s' --reduce '%s'", g_reps,
                 tr.c_str(), rd.c_str());
        FILE *pp = popen(cmd, "r");
        char line[512];
        while (pp && fgets(line, sizeof line, pp)) {
            char kind[16], dt[8], val[64];
            long long a, b = 1;
            double ms, mn, mx;
            int ok = 0;
            if (sscanf(line, "transpose %7s %lld %lld %lf %lf %lf %d", dt, &a, &b, &ms, &mn, &mx, &ok) == 7)
                strcpy(kind, "transpose");
            else if (sscanf(line, "reduce %7s %lld %lf %lf %lf %63s", dt, &a, &ms, &mn, &mx, val) == 6)
                strcpy(kind, "reduce");
            else {
                fprintf(stderr, "torch: %s", line);
                continue;
            }
            for (auto &c : g_torch) {
                if (c.kind != kind || c.dtype != dt || c.a != a || c.b != b)
                    continue;
                if (c.kind == "reduce") {
                    double got = atof(val);
                    ok = c.dtype == "i32" ? got == c.ref : std::fabs(got - c.ref) <= 1e-5 * std::fabs(c.ref);
                    if (!ok)
                        fprintf(stderr, "MISMATCH torch reduce %s %lld: %s vs %.17g\n", dt, a, val, c.ref);
                }
                if (!ok)
                    ++g_fail;
                double gbps = c.bytes / (ms * 1e-3) / 1e9;
                double copy_gbps = (c.kind == "reduce" ? 2.0 * c.bytes : c.bytes) / (c.copy_ms * 1e-3) / 1e9;
                row(kind, dt, a, b, "torch", Timing{ms, mn, mx}, gbps, gbps / copy_gbps, ok);
            }
        }
        if (pp)
            printf("torch subprocess exit %d\n", pclose(pp));
    }
    if (g_csv)
        fclose(g_csv);
    printf("%s: %d failures\n", g_fail ? "FAIL" : "PASS", g_fail);
    return g_fail ? 1 : 0;
}
