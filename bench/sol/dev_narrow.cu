// dev_narrow.cu: development harness for issue 34's narrow rows (session 6): 1048576 x 32 transposes
// whose output rows are written at staggered offsets. Not part of the product.
//
// The finding it tests (session 5, docs/speed-of-light.md): in back-to-back launches the DRAM takes
// the write-backs of the 32 output rows, 4 MB (f32) or 8 MB (f64) apart and all at the same offset
// at any moment, at 78-80 % of its peak against 82-84 % for a square transpose. Here a block moves a
// strip of W input rows x one column group of 32 bytes (8 f32 or 4 f64: one sector a row), so the
// input is read a sector a row per block, and block b = 4 t + g (G groups) takes strip
// s = (t - g D) mod S: at any moment group g writes its output rows D strips behind group g - 1, so
// the rows written together are no longer all at one offset. A line's other sectors are read by the
// other groups D, 2D, .. strips later, from L2 (the loads ask for the whole line: L2::128B). D = 0 is
// the same kernel without the stagger. Timed the way the product times (dev_time.cuh) against
// cudaMemcpy and the product's narrow kernels, every output checked. Build (repository root):
//   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o dev_narrow bench/sol/dev_narrow.cu
// run: ./dev_narrow [--rows 1048576] [--dtypes f32,f64] [--rounds 4] [--reps 30]
#include "../../kernels/sol_transpose.cu"

#include "dev_time.cuh"

#include <cstring>
#include <string>

/* T: unsigned (f32) or unsigned long long (f64); 32 columns; W rows a strip; NT threads */
template <typename T, int W, int NT>
__global__ void __launch_bounds__(NT) k_stagger(T *__restrict__ out, const T *__restrict__ in, int rows, int dstag)
{
    constexpr int COLS = 32, VE = 16 / (int)sizeof(T), EG = 32 / (int)sizeof(T), G = COLS / EG;
    constexpr int P = W + 4; /* row stride of the shared tile, in elements: conflict-free (smemlab run) */
    __shared__ __align__(16) T tile[EG * P];
    const int S = rows / W;
    const int t = (int)blockIdx.x / G, g = (int)blockIdx.x % G;
    const int s = ((t - g * dstag) % S + S) % S;
    const long long r0 = (long long)s * W;
    /* loads: 2 words (16 B) a row of the group, W rows */
    uint4 v[2 * W / NT];
#pragma unroll
    for (int k = 0; k < 2 * W / NT; ++k) {
        const int idx = threadIdx.x + k * NT, row = idx >> 1, h = idx & 1;
        const T *p = in + (r0 + row) * COLS + g * EG + h * VE;
        asm volatile("ld.global.nc.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(v[k].x), "=r"(v[k].y), "=r"(v[k].z), "=r"(v[k].w)
                     : "l"(p));
    }
#pragma unroll
    for (int k = 0; k < 2 * W / NT; ++k) {
        const int idx = threadIdx.x + k * NT, row = idx >> 1, h = idx & 1;
        const T *e = (const T *)&v[k];
#pragma unroll
        for (int j = 0; j < VE; ++j)
            tile[(h * VE + j) * P + row] = e[j];
    }
    __syncthreads();
    /* stores: EG output rows of W elements, 16 B a thread at a time */
#pragma unroll
    for (int k = 0; k < EG * W / VE / NT; ++k) {
        const int idx = threadIdx.x + k * NT, c = idx / (W / VE), q = idx % (W / VE);
        const uint4 w = *(const uint4 *)&tile[c * P + q * VE];
        *(uint4 *)(out + (long long)(g * EG + c) * rows + r0 + q * VE) = w;
    }
}

struct method {
    std::string name;
    const void *fn; // nullptr: cudaMemcpy
    int nt, kind;   // 0 memcpy, 1 product kernel (2-D grid of tile_r rows), 2 stagger
    int tile_r, w, d;
};

template <typename T> static void run(dev_timer &tm, int rows, int rounds, int reps, int warm, unsigned long long *bad,
                                      const char *tname)
{
    constexpr int G = (int)sizeof(T);
    std::vector<method> ms;
    ms.push_back({"memcpy", nullptr, 0, 0, 0, 0, 0});
    if (sizeof(T) == 4)
        ms.push_back({"narrow_f32", (const void *)sol_transpose_narrow_f32, 256, 1, 128, 0, 0});
    else
        ms.push_back({"narrow_f64_128x32", (const void *)sol_transpose_narrow_f64_128x32, 512, 1, 128, 0, 0});
    auto add = [&](const void *fn, int nt, int w, int d) {
        char buf[64];
        snprintf(buf, sizeof buf, "stagger_w%d_t%d_d%d", w, nt, d);
        cudaFuncAttributes a;
        CK(cudaFuncGetAttributes(&a, fn));
        int fit = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn, nt, 0));
        printf("  %-24s %d registers, %zu B shared, %d blocks a SM\n", buf, a.numRegs, a.sharedSizeBytes, fit);
        ms.push_back({buf, fn, nt, 2, 0, w, d});
    };
    for (int d : {0, 4, 16, 64, 256})
        add((const void *)k_stagger<T, 256, 256>, 256, 256, d);
    add((const void *)k_stagger<T, 512, 256>, 256, 512, 16);
    add((const void *)k_stagger<T, 128, 128>, 128, 128, 16);
    add((const void *)k_stagger<T, 128, 128>, 128, 128, 64);

    const int cols = 32;
    const long long n = (long long)rows * cols;
    T *in, *out;
    CK(cudaMalloc(&in, n * sizeof(T)));
    CK(cudaMalloc(&out, n * sizeof(T)));
    dev_fill_words<<<tm.sms * 8, 256>>>((unsigned *)in, n * sizeof(T) / 4, 7u);
    printf("buffers: in %p out %p\n", (void *)in, (void *)out);
    auto launch = [&](size_t k) {
        const method &m = ms[k];
        int r = rows, c = cols;
        if (m.kind == 0) {
            CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice));
        } else if (m.kind == 1) {
            void *args[] = {&out, &in, &r, &c};
            CK(cudaLaunchKernel(m.fn, dim3(1, (unsigned)(rows / m.tile_r)), dim3(m.nt), args, 0, 0));
        } else {
            int d = m.d;
            void *args[] = {&out, &in, &r, &d};
            CK(cudaLaunchKernel(m.fn, dim3((unsigned)(rows / m.w * G)), dim3(m.nt), args, 0, 0));
        }
    };
    auto poison = [&](size_t) { CK(cudaMemset(out, 0xFF, n * sizeof(T))); };
    auto check = [&](size_t k) {
        if (ms[k].kind == 0)
            CK(cudaDeviceSynchronize());
        else
            dev_transpose_check<T>(tm, out, in, rows, cols, bad, ms[k].name.c_str(), tname);
    };
    std::vector<std::vector<float>> times(ms.size());
    for (int r = 0; r < rounds; ++r)
        dev_time_round(tm, r, ms.size(), warm, reps, times, poison, launch, check);
    std::vector<std::string> names;
    for (const method &m : ms)
        names.push_back(m.name);
    char what[64];
    snprintf(what, sizeof what, "transpose %s %dx32", tname, rows);
    dev_report(what, names, times, 2.0 * n * sizeof(T));
    CK(cudaFree(in));
    CK(cudaFree(out));
}

int main(int argc, char **argv)
{
    int rows = 1048576, rounds = 4, reps = 30, warm = 5;
    std::string dtypes = "f32,f64";
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--rows") && i + 1 < argc)
            rows = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dtypes") && i + 1 < argc)
            dtypes = argv[++i];
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: dev_narrow [--rows 1048576] [--dtypes f32,f64] [--rounds 4] [--reps 30]\n");
            return 2;
        }
    }
    if (rows % 512) {
        fprintf(stderr, "dev_narrow: --rows must be a multiple of 512\n");
        return 2;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    dev_timer tm;
    dev_time_open(tm, p);
    unsigned long long *bad;
    CK(cudaMalloc(&bad, 8));
    printf("device %s, %d SMs, L2 %d B; rounds %d x %d calls, %d warm-ups\n", p.name, tm.sms, p.l2CacheSize, rounds, reps,
           warm);
    if (dtypes.find("f32") != std::string::npos)
        run<unsigned>(tm, rows, rounds, reps, warm, bad, "f32");
    if (dtypes.find("f64") != std::string::npos)
        run<unsigned long long>(tm, rows, rounds, reps, warm, bad, "f64");
    return 0;
}
