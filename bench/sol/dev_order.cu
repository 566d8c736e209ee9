// dev_order.cu: development harness for issue 34's odd shapes (session 6): the any kind's picks with
// the last tile column first (kernels/sol_transpose.cu's ORDER -2) against the same kernels in the
// shipped column-major order (ORDER -1). Not part of the product.
//
// Why: where cols is not a multiple of the tile's width, the last tile column is a partial one whose
// tiles take the general path, and in the column-major grid they are the last blocks dispatched: their
// whole latency (load, barrier, store) comes after every other block has started, at the kernel's
// end. Dispatched first, it hides under the others. Timed the way the product times (dev_time.cuh)
// against cudaMemcpy of the same bytes, every output compared with its input. Build (repository root):
//   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o dev_order bench/sol/dev_order.cu
// run: ./dev_order [--sizes 4097x4097,...] [--dtypes f32,f16,f64] [--rounds 4] [--reps 30]
#include "../../kernels/sol_transpose.cu"

#include "dev_time.cuh"

#include <cstring>
#include <string>

/* the shipped picks (src/gpu/sol.c's any candidates as the H200 picks them), and each with ORDER -2 */
#define DEV_ANY(NAME, T, LPR, CG, NT, ORDER, CACHE, FAST, MODE, ROW0)                                               \
    extern "C" __global__ void __launch_bounds__(NT, 4) NAME(T *__restrict__ out, const T *__restrict__ in, int rows, \
                                                             int cols)                                               \
    {                                                                                                                \
        sol_tiled_any<T, LPR, CG, NT, CACHE, ORDER, FAST, MODE, 0, ROW0>(out, in, rows, cols);                       \
    }
DEV_ANY(dev_f32_raws, sol_u32, 16, 16, 256, -1, SOL_C5, true, 144, false)
DEV_ANY(dev_f32_raws_e, sol_u32, 16, 16, 256, -2, SOL_C5, true, 144, false)
DEV_ANY(dev_f16_64x128, sol_u16, 8, 16, 256, -1, SOL_ANY_F16_CACHE, SOL_ANY_F16_FAST, SOL_ANY_F16_MODE, SOL_ANY_F16_ROW0)
DEV_ANY(dev_f16_64x128_e, sol_u16, 8, 16, 256, -2, SOL_ANY_F16_CACHE, SOL_ANY_F16_FAST, SOL_ANY_F16_MODE, SOL_ANY_F16_ROW0)
DEV_ANY(dev_f64_raws64x32, sol_u64, 32, 16, 512, -1, SOL_C5, true, 144, false)
DEV_ANY(dev_f64_raws64x32_e, sol_u64, 32, 16, 512, -2, SOL_C5, true, 144, false)

template <typename T> __global__ void k_check(const T *out, const T *in, int rows, int cols, unsigned long long *bad)
{
    unsigned long long mine = 0;
    const long long n = (long long)rows * cols;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const int r = (int)(i / cols), c = (int)(i % cols);
        mine += out[(long long)c * rows + r] != in[i];
    }
    if (mine)
        atomicAdd(bad, mine);
}

struct method {
    std::string name;
    const void *fn; // nullptr: cudaMemcpy
    int nt, tile_r, tile_c;
};

template <typename T> static void run_size(dev_timer &tm, int rows, int cols, int rounds, int reps, int warm,
                                           unsigned long long *bad, const char *tname, const method *pair)
{
    std::vector<method> ms = {{"memcpy", nullptr, 0, 0, 0}, pair[0], pair[1]};
    const long long n = (long long)rows * cols;
    T *in, *out;
    CK(cudaMalloc(&in, n * sizeof(T) + 16));
    CK(cudaMalloc(&out, n * sizeof(T) + 16));
    dev_fill_words<<<tm.sms * 8, 256>>>((unsigned *)in, (n * sizeof(T) + 3) / 4, 7u);
    auto launch = [&](size_t k) {
        const method &m = ms[k];
        if (!m.fn) {
            CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice));
            return;
        }
        int r = rows, c = cols;
        void *args[] = {&out, &in, &r, &c};
        const long long down = (rows + m.tile_r - 1) / m.tile_r, across = (cols + m.tile_c - 1) / m.tile_c;
        CK(cudaLaunchKernel(m.fn, dim3((unsigned)(down * across)), dim3(m.nt), args, 0, 0));
    };
    auto poison = [&](size_t) { CK(cudaMemset(out, 0xFF, n * sizeof(T))); };
    auto check = [&](size_t k) {
        CK(cudaDeviceSynchronize());
        if (!ms[k].fn)
            return;
        CK(cudaMemset(bad, 0, 8));
        k_check<T><<<tm.sms * 8, 256>>>(out, in, rows, cols, bad);
        unsigned long long h;
        CK(cudaMemcpy(&h, bad, 8, cudaMemcpyDeviceToHost));
        if (h)
            printf("MISMATCH %s %s %dx%d: %llu elements differ\n", ms[k].name.c_str(), tname, rows, cols, h);
    };
    std::vector<std::vector<float>> times(ms.size());
    for (int r = 0; r < rounds; ++r)
        dev_time_round(tm, r, ms.size(), warm, reps, times, poison, launch, check);
    const double copy_med = dev_stats_of(times[0]).median;
    for (size_t k = 0; k < ms.size(); ++k) {
        const dev_stats st = dev_stats_of(times[k]);
        printf("transpose %s %dx%d %-22s median %.4f ms min %.4f max %.4f  %7.1f GB/s  x memcpy %.4f\n", tname, rows, cols,
               ms[k].name.c_str(), st.median, st.min, st.max, 2.0 * n * sizeof(T) / (st.median * 1e-3) / 1e9,
               copy_med / st.median);
    }
    fflush(stdout);
    CK(cudaFree(in));
    CK(cudaFree(out));
}

int main(int argc, char **argv)
{
    std::vector<std::pair<int, int>> sizes = {{4097, 4097}};
    std::string dtypes = "f32,f16,f64";
    int rounds = 4, reps = 30, warm = 5;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            sizes.clear();
            for (char *t = strtok(argv[++i], ","); t; t = strtok(nullptr, ",")) {
                int r, c;
                if (sscanf(t, "%dx%d", &r, &c) == 2)
                    sizes.push_back({r, c});
            }
        } else if (!strcmp(argv[i], "--dtypes") && i + 1 < argc)
            dtypes = argv[++i];
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: dev_order [--sizes 4097x4097,...] [--dtypes f32,f16,f64] [--rounds 4] [--reps 30]\n");
            return 2;
        }
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    dev_timer tm;
    dev_time_open(tm, p);
    unsigned long long *bad;
    CK(cudaMalloc(&bad, 8));
    printf("device %s, %d SMs, L2 %d B; rounds %d x %d calls, %d warm-ups\n", p.name, tm.sms, p.l2CacheSize, rounds, reps,
           warm);
    const method f32[2] = {{"any_f32_raws", (const void *)dev_f32_raws, 256, 64, 64},
                           {"any_f32_raws_e", (const void *)dev_f32_raws_e, 256, 64, 64}};
    const method f16[2] = {{"any_f16_64x128", (const void *)dev_f16_64x128, 256, 64, 128},
                           {"any_f16_64x128_e", (const void *)dev_f16_64x128_e, 256, 64, 128}};
    const method f64[2] = {{"any_f64_raws64x32", (const void *)dev_f64_raws64x32, 512, 64, 32},
                           {"any_f64_raws64x32_e", (const void *)dev_f64_raws64x32_e, 512, 64, 32}};
    for (auto &sz : sizes) {
        if (dtypes.find("f32") != std::string::npos)
            run_size<unsigned>(tm, sz.first, sz.second, rounds, reps, warm, bad, "f32", f32);
        if (dtypes.find("f16") != std::string::npos)
            run_size<unsigned short>(tm, sz.first, sz.second, rounds, reps, warm, bad, "f16", f16);
        if (dtypes.find("f64") != std::string::npos)
            run_size<unsigned long long>(tm, sz.first, sz.second, rounds, reps, warm, bad, "f64", f64);
    }
    return 0;
}
