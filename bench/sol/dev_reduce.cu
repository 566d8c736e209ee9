// dev_reduce.cu: development harness for issue 34's reduce (not part of the product: `smemlab bench
// reduce` is). Times kernels/sol_reduce.cu's shipped kernel, its software-pipelined and bulk-copy forms
// in several launch shapes, and CUB's DeviceReduce::Sum, each result checked against the host's exact
// references (src/gpu/sol.c), the way the product times them: the L2 filled with other lines before
// each method's round, warm-ups, then each call alone between two events; rounds in turn, the medians
// of all calls. Build (repository root): nvcc -O3 -arch=sm_90 -std=c++17 -I include -o dev_reduce
// bench/sol/dev_reduce.cu src/gpu/sol.c; run: ./dev_reduce [--sizes 26,27,28] [--rounds 3] [--reps 30]
#include "../../kernels/sol_reduce.cu"

extern "C" {
#include "smemlab/gpu/sol.h"
}

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

template <typename T>
__global__ void __launch_bounds__(1024) k_ship(const T *in, T *out, T *partials, unsigned *ticket, long long n)
{
    sol_reduce_body<T, 1024, 4, false, true>(in, out, partials, ticket, n);
}

template <typename T, int NT, int U, int MINB>
__global__ void __launch_bounds__(NT, MINB) k_pipe(const T *in, T *out, T *partials, unsigned *ticket, long long n)
{
    sol_reduce_pipe_body<T, NT, U>(in, out, partials, ticket, n);
}

template <typename T, int NT, int S, int C, int MINB, bool EF = false>
__global__ void __launch_bounds__(NT, MINB) k_bulk(const T *in, T *out, T *partials, unsigned *ticket, long long n)
{
    sol_reduce_bulk_body<T, NT, S, C, EF>(in, out, partials, ticket, n);
}

__global__ void k_scrub(unsigned *p, unsigned long long n, unsigned seed)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        p[i] = (unsigned)i * 2654435761u + seed;
}

typedef void (*kfn_t)(const void *, void *, void *, unsigned *, long long);

struct method {
    std::string name;
    const void *fn; // a kernel, or nullptr for CUB
    int nt, per_sm;
    std::vector<float> ms;
    double got;
};

static int g_sms;
static unsigned *g_scrub;
static unsigned long long g_scrub_words;

template <typename T>
static void add(std::vector<method> &v, const char *name, const void *fn, int nt, int per_sm)
{
    int fit = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn, nt, 0));
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, fn));
    printf("  %-28s %4d threads, %d a SM asked, %d fit, %d registers, %zu B static shared\n", name, nt, per_sm, fit,
           a.numRegs, a.sharedSizeBytes);
    if (fit < per_sm)
        per_sm = fit;
    v.push_back({name, fn, nt, per_sm, {}, 0});
}

template <typename T>
static void run_dtype(const char *dn, const std::vector<int> &logs, int rounds, int reps, int warm)
{
    std::vector<method> ms;
    add<T>(ms, "ship_1024x4_2", (const void *)k_ship<T>, 1024, 2);
    add<T>(ms, "pipe_512_u4_2", (const void *)k_pipe<T, 512, 4, 2>, 512, 2);
    add<T>(ms, "bulk_256_s2_16k_4", (const void *)k_bulk<T, 256, 2, 16384, 4>, 256, 4);
    add<T>(ms, "bulk_256_s2_16k_5", (const void *)k_bulk<T, 256, 2, 16384, 5>, 256, 5);
    add<T>(ms, "bulk_256_s2_16k_6", (const void *)k_bulk<T, 256, 2, 16384, 6>, 256, 6);
    add<T>(ms, "bulk_256_s2_16k_4ef", (const void *)k_bulk<T, 256, 2, 16384, 4, true>, 256, 4);
    add<T>(ms, "bulk_256_s3_12k_4", (const void *)k_bulk<T, 256, 3, 12288, 4>, 256, 4);
    add<T>(ms, "bulk_512_s2_16k_3", (const void *)k_bulk<T, 512, 2, 16384, 3>, 512, 3);
    add<T>(ms, "bulk_128_s2_16k_6", (const void *)k_bulk<T, 128, 2, 16384, 6>, 128, 6);
    add<T>(ms, "bulk_256_s4_8k_4", (const void *)k_bulk<T, 256, 4, 8192, 4>, 256, 4);
    ms.push_back({"cub", nullptr, 0, 0, {}, 0});
    for (int lg : logs) {
        const long long n = 1LL << lg;
        T *in, *out, *partials;
        unsigned *ticket;
        CK(cudaMalloc(&in, n * sizeof(T)));
        CK(cudaMalloc(&out, sizeof(T)));
        CK(cudaMalloc(&partials, (size_t)g_sms * 16 * sizeof(T)));
        CK(cudaMalloc(&ticket, sizeof(unsigned)));
        CK(cudaMemset(ticket, 0, sizeof(unsigned)));
        if (sizeof(T) == 4 && std::string(dn) == "i32")
            sol_fill_i32<<<g_sms * 8, 256>>>((int *)in, n, 7u);
        else
            sol_fill_rf32<<<g_sms * 8, 256>>>((float *)in, n, 7u);
        CK(cudaGetLastError());
        void *tmp = nullptr;
        size_t tmp_bytes = 0;
        CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, (int)n));
        CK(cudaMalloc(&tmp, tmp_bytes));
        const bool is_int = std::string(dn) == "i32";
        const double ref = is_int ? (double)smem_sol_sum_i32((uint64_t)n, 7u) : smem_sol_sum_f32((uint64_t)n, 7u);
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        auto launch = [&](method &m) {
            if (!m.fn) {
                CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, (int)n));
                return;
            }
            void *args[] = {&in, &out, &partials, &ticket, (void *)&n};
            CK(cudaLaunchKernel(m.fn, dim3(g_sms * m.per_sm), dim3(m.nt), args, 0, 0));
        };
        for (auto &m : ms)
            m.ms.clear();
        for (int r = 0; r < rounds; ++r)
            for (size_t k = 0; k < ms.size(); ++k) {
                method &m = ms[(r % 2) ? ms.size() - 1 - k : k];
                k_scrub<<<g_sms * 8, 256>>>(g_scrub, g_scrub_words, 1u + r);
                for (int w = 0; w < warm; ++w)
                    launch(m);
                for (int i = 0; i < reps; ++i) {
                    CK(cudaEventRecord(e0));
                    launch(m);
                    CK(cudaEventRecord(e1));
                    CK(cudaEventSynchronize(e1));
                    float t;
                    CK(cudaEventElapsedTime(&t, e0, e1));
                    m.ms.push_back(t);
                }
                T h;
                CK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
                m.got = (double)h;
                bool ok = is_int ? ((uint32_t)(int32_t)h == (uint32_t)(int64_t)ref)
                                 : smem_sol_sum_f32_ok((double)h, ref);
                if (!ok)
                    printf("MISMATCH %s %s n=2^%d: %.9g against %.9g\n", m.name.c_str(), dn, lg, (double)h, ref);
            }
        double cub_med = 0;
        std::vector<std::pair<double, std::string>> rows;
        for (auto &m : ms) {
            std::vector<float> v = m.ms;
            std::sort(v.begin(), v.end());
            double med = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
            if (!m.fn)
                cub_med = med;
            rows.push_back({med, m.name});
        }
        for (auto &m : ms) {
            std::vector<float> v = m.ms;
            std::sort(v.begin(), v.end());
            double med = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
            printf("reduce %s n=2^%d %-22s median %.4f ms min %.4f max %.4f  %.1f GB/s  cub/this %.4f\n", dn, lg,
                   m.name.c_str(), med, v.front(), v.back(), n * sizeof(T) / (med * 1e-3) / 1e9, cub_med / med);
        }
        fflush(stdout);
        CK(cudaFree(tmp));
        CK(cudaFree(in));
        CK(cudaFree(out));
        CK(cudaFree(partials));
        CK(cudaFree(ticket));
        CK(cudaEventDestroy(e0));
        CK(cudaEventDestroy(e1));
    }
}

int main(int argc, char **argv)
{
    std::vector<int> logs = {26, 27, 28};
    int rounds = 3, reps = 30, warm = 5;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            logs.clear();
            for (char *t = strtok(argv[++i], ","); t; t = strtok(nullptr, ","))
                logs.push_back(atoi(t));
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: dev_reduce [--sizes 26,27,28] [--rounds 3] [--reps 30]\n");
            return 2;
        }
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    g_scrub_words = 2ULL * p.l2CacheSize / 4;
    CK(cudaMalloc(&g_scrub, g_scrub_words * 4));
    printf("device %s, %d SMs, L2 %d B; rounds %d x %d calls, %d warm-ups\n", p.name, g_sms, p.l2CacheSize, rounds,
           reps, warm);
    for (int w = 0; w < 200; ++w) /* clocks up */
        k_scrub<<<g_sms * 8, 256>>>(g_scrub, g_scrub_words, 0u);
    CK(cudaDeviceSynchronize());
    run_dtype<int>("i32", logs, rounds, reps, warm);
    run_dtype<float>("f32", logs, rounds, reps, warm);
    return 0;
}
