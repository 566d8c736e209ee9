// dev_reduce.cu: development harness for issue 34's reduce (not part of the product: `smemlab bench
// reduce` is). Times kernels/sol_reduce.cu's shipped kernel, its software-pipelined and bulk-copy forms
// in several launch shapes, and CUB's DeviceReduce::Sum, each result checked against the host's exact
// references (src/gpu/sol.c), the way the product times them (bench/sol/dev_time.cuh). Build
// (repository root):
//   nvcc -O3 -arch=sm_90 -std=c++17 -I include -o dev_reduce bench/sol/dev_reduce.cu src/gpu/sol.c
// run: ./dev_reduce [--sizes 26,27,28] [--set 1|2] [--rounds 3] [--reps 30]
// (--set 1: the methods of session 5's first sweep, 2 (default): its second sweep's)
#include "../../kernels/sol_reduce.cu"

extern "C" {
#include "smemlab/gpu/sol.h"
}

#include <cub/device/device_reduce.cuh>

#include "dev_time.cuh"

#include <cstring>
#include <string>

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

struct method {
    std::string name;
    const void *fn; // a kernel, or nullptr for CUB
    int nt, per_sm;
};

static dev_timer g_tm;

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
    v.push_back({name, fn, nt, per_sm});
}

/* The methods of sweep 1 (11:38 UTC) or sweep 2 (11:41 UTC: shapes around sweep 1's best), then CUB */
template <typename T>
static std::vector<method> methods(int set)
{
    std::vector<method> ms;
    add<T>(ms, "ship_1024x4_2", (const void *)k_ship<T>, 1024, 2);
    if (set == 1) {
        add<T>(ms, "pipe_1024_u2_2", (const void *)k_pipe<T, 1024, 2, 2>, 1024, 2);
        add<T>(ms, "pipe_512_u4_2", (const void *)k_pipe<T, 512, 4, 2>, 512, 2);
        add<T>(ms, "pipe_512_u2_4", (const void *)k_pipe<T, 512, 2, 4>, 512, 4);
        add<T>(ms, "bulk_1024_s2_16k_2", (const void *)k_bulk<T, 1024, 2, 16384, 2>, 1024, 2);
        add<T>(ms, "bulk_512_s5_8k_2", (const void *)k_bulk<T, 512, 5, 8192, 2>, 512, 2);
        add<T>(ms, "bulk_256_s4_8k_4", (const void *)k_bulk<T, 256, 4, 8192, 4>, 256, 4);
        add<T>(ms, "bulk_256_s2_16k_4", (const void *)k_bulk<T, 256, 2, 16384, 4>, 256, 4);
        add<T>(ms, "bulk_128_s5_8k_5", (const void *)k_bulk<T, 128, 5, 8192, 5>, 128, 5);
        add<T>(ms, "bulk_256_s3_4k_8", (const void *)k_bulk<T, 256, 3, 4096, 8>, 256, 8);
    } else {
        add<T>(ms, "pipe_512_u4_2", (const void *)k_pipe<T, 512, 4, 2>, 512, 2);
        add<T>(ms, "bulk_256_s2_16k_4", (const void *)k_bulk<T, 256, 2, 16384, 4>, 256, 4);
        add<T>(ms, "bulk_256_s2_16k_5", (const void *)k_bulk<T, 256, 2, 16384, 5>, 256, 5);
        add<T>(ms, "bulk_256_s2_16k_6", (const void *)k_bulk<T, 256, 2, 16384, 6>, 256, 6);
        add<T>(ms, "bulk_256_s2_16k_4ef", (const void *)k_bulk<T, 256, 2, 16384, 4, true>, 256, 4);
        add<T>(ms, "bulk_256_s3_12k_4", (const void *)k_bulk<T, 256, 3, 12288, 4>, 256, 4);
        add<T>(ms, "bulk_512_s2_16k_3", (const void *)k_bulk<T, 512, 2, 16384, 3>, 512, 3);
        add<T>(ms, "bulk_128_s2_16k_6", (const void *)k_bulk<T, 128, 2, 16384, 6>, 128, 6);
        add<T>(ms, "bulk_256_s4_8k_4", (const void *)k_bulk<T, 256, 4, 8192, 4>, 256, 4);
    }
    ms.push_back({"cub", nullptr, 0, 0});
    return ms;
}

template <typename T>
static void run_dtype(const char *dn, const std::vector<int> &logs, int set, int rounds, int reps, int warm)
{
    std::vector<method> ms = methods<T>(set);
    const bool is_int = std::string(dn) == "i32";
    for (int lg : logs) {
        const long long n = 1LL << lg;
        T *in, *out, *partials;
        unsigned *ticket;
        CK(cudaMalloc(&in, n * sizeof(T)));
        CK(cudaMalloc(&out, sizeof(T)));
        CK(cudaMalloc(&partials, (size_t)g_tm.sms * 16 * sizeof(T)));
        CK(cudaMalloc(&ticket, sizeof(unsigned)));
        CK(cudaMemset(ticket, 0, sizeof(unsigned)));
        if (is_int)
            sol_fill_i32<<<g_tm.sms * 8, 256>>>((int *)in, n, 7u);
        else
            sol_fill_rf32<<<g_tm.sms * 8, 256>>>((float *)in, n, 7u);
        CK(cudaGetLastError());
        void *tmp = nullptr;
        size_t tmp_bytes = 0;
        CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, (int)n));
        CK(cudaMalloc(&tmp, tmp_bytes));
        const double ref = is_int ? (double)smem_sol_sum_i32((uint64_t)n, 7u) : smem_sol_sum_f32((uint64_t)n, 7u);
        auto launch = [&](size_t k) {
            const method &m = ms[k];
            if (!m.fn) {
                CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, (int)n));
                return;
            }
            void *args[] = {&in, &out, &partials, &ticket, (void *)&n};
            CK(cudaLaunchKernel(m.fn, dim3(g_tm.sms * m.per_sm), dim3(m.nt), args, 0, 0));
        };
        auto poison = [&](size_t) { CK(cudaMemset(out, 0xFF, sizeof(T))); };
        auto check = [&](size_t k) {
            T h;
            CK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
            const bool ok = is_int ? ((uint32_t)(int32_t)h == (uint32_t)(int64_t)ref) : smem_sol_sum_f32_ok((double)h, ref);
            if (!ok)
                printf("MISMATCH %s %s n=2^%d: %.9g against %.9g\n", ms[k].name.c_str(), dn, lg, (double)h, ref);
        };
        std::vector<std::vector<float>> times(ms.size());
        for (int r = 0; r < rounds; ++r)
            dev_time_round(g_tm, r, ms.size(), warm, reps, times, poison, launch, check);
        const double cub_med = dev_stats_of(times.back()).median; /* the last method is CUB */
        for (size_t k = 0; k < ms.size(); ++k) {
            const dev_stats st = dev_stats_of(times[k]);
            printf("reduce %s n=2^%d %-22s median %.4f ms min %.4f max %.4f  %.1f GB/s  cub/this %.4f\n", dn, lg,
                   ms[k].name.c_str(), st.median, st.min, st.max, n * sizeof(T) / (st.median * 1e-3) / 1e9,
                   cub_med / st.median);
        }
        fflush(stdout);
        CK(cudaFree(tmp));
        CK(cudaFree(in));
        CK(cudaFree(out));
        CK(cudaFree(partials));
        CK(cudaFree(ticket));
    }
}

int main(int argc, char **argv)
{
    std::vector<int> logs = {26, 27, 28};
    int set = 2, rounds = 3, reps = 30, warm = 5;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            logs.clear();
            for (char *t = strtok(argv[++i], ","); t; t = strtok(nullptr, ","))
                logs.push_back(atoi(t));
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc)
            set = atoi(argv[++i]) == 1 ? 1 : 2;
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: dev_reduce [--sizes 26,27,28] [--set 1|2] [--rounds 3] [--reps 30]\n");
            return 2;
        }
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    dev_time_open(g_tm, p);
    printf("device %s, %d SMs, L2 %d B; rounds %d x %d calls, %d warm-ups\n", p.name, g_tm.sms, p.l2CacheSize, rounds,
           reps, warm);
    run_dtype<int>("i32", logs, set, rounds, reps, warm);
    run_dtype<float>("f32", logs, set, rounds, reps, warm);
    return 0;
}
