// dev_tma.cu: development harness for issue 34's odd shapes (session 6): a transpose whose tiles come
// and go by the tensor memory accelerator (cp.async.bulk.tensor) although no row starts on 16 bytes.
// Not part of the product: `smemlab bench transpose` is.
//
// The idea. A tensor map needs a row pitch that is a multiple of 16 bytes; 4097 f32 elements are
// 16388 bytes. But K = 16 / sizeof(T) consecutive rows together are 16 * cols bytes: read the matrix
// as rows / K "super-rows" of K * cols elements, pitch 16 * cols bytes. Row r = K q + j is the run
// [j * cols, (j + 1) * cols) of super-row q, so a tile's rows r0 + j + K qq (qq < TH / K) are ONE box
// of the super-row map at element (j * cols + c0, r0 / K): K boxes a tile, at any element offset
// (the TMA takes unaligned coordinates; only the map's base and pitch must be 16-byte multiples). The
// output, cols rows of rows elements, is read the same way, so the transposed tile leaves by K box
// stores. Both sides 128-byte swizzled boxes of 8 rows x 128 bytes; the thread mapping below makes
// every shared access conflict-free (each warp reads 32 distinct banks and writes 32). Rows at and
// past rows - rows % TH and columns past cols - cols % TW (the edges; 1 row and 1 column at 4097^2)
// are moved by the first `edge` blocks with scalar loads and stores.
//
// Timed the way the product times (dev_time.cuh) against cudaMemcpy of the same bytes and the
// product's own any kernels (kernels/sol_transpose.cu, launched as src/gpu/sol.c's table launches
// them), every output compared element by element with its input. Build (repository root):
//   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o dev_tma bench/sol/dev_tma.cu
// run: ./dev_tma [--sizes 4097x4097,...] [--dtypes f32,f16] [--rounds 4] [--reps 30]
#include "../../kernels/sol_transpose.cu"

#include "dev_time.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstring>
#include <string>

static __device__ __forceinline__ unsigned tma_smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
static __device__ __forceinline__ void tma_bar_init(unsigned long long *b)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(tma_smem(b)) : "memory");
}
static __device__ __forceinline__ void tma_bar_expect(unsigned long long *b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(tma_smem(b)), "r"(bytes) : "memory");
}
static __device__ __forceinline__ void tma_bar_wait(unsigned long long *b, unsigned parity)
{
    asm volatile("{\n\t.reg .pred p;\n"
                 "TMA_WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
                 "@!p bra TMA_WAIT_%=;\n}" ::"r"(tma_smem(b)),
                 "r"(parity)
                 : "memory");
}
static __device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *m, int x, int y, unsigned long long *b)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                     tma_smem(dst)),
                 "l"((unsigned long long)m), "r"(x), "r"(y), "r"(tma_smem(b))
                 : "memory");
}
static __device__ __forceinline__ void tma_store(const CUtensorMap *m, int x, int y, const void *src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
                     (unsigned long long)m),
                 "r"(x), "r"(y), "r"(tma_smem(src))
                 : "memory");
}

/* One tile: T elements, TW = TH = 128 / sizeof(T) (f32 32x32, f16 64x64), K = 16 / sizeof(T) boxes
 * of 8 rows x 128 bytes each side. */
template <typename T> struct tma_shape {
    static constexpr int K = 16 / (int)sizeof(T);
    static constexpr int TW = 128 / (int)sizeof(T);
    static constexpr int TILE_BYTES = K * 1024;
};

/* the transposed tile: in (K boxes, swizzled) -> out (K boxes, swizzled), NT threads */
template <typename T, int NT> static __device__ __forceinline__ void tma_tile_transpose(const unsigned char *in, unsigned char *out)
{
    const int lane = threadIdx.x & 31;
    const int qq = lane >> 2, a = lane & 3;
    for (int w = threadIdx.x >> 5; w < 8; w += NT / 32) {
        if constexpr (sizeof(T) == 4) {
            /* warp w: the tile's columns 4w..4w+3 (out rows); lane (qq, j=a): input row j + 4qq */
            const int m = w;
#pragma unroll
            for (int s = 0; s < 4; ++s) {
                const int e = (a + s) & 3;
                const unsigned v = *(const unsigned *)(in + a * 1024 + qq * 128 + ((m ^ qq) << 4) + e * 4);
                *(unsigned *)(out + e * 1024 + m * 128 + ((qq ^ m) << 4) + a * 4) = v;
            }
        } else {
            /* f16: warp w = pp: out rows 8pp..8pp+7; lane (qq, a): input rows 8qq+2a, +1; 2x2 blocks */
            const int pp = w;
#pragma unroll
            for (int s = 0; s < 4; ++s) {
                const int b = (a + s) & 3;
                const int off = qq * 128 + ((pp ^ qq) << 4) + b * 4;
                const unsigned A = *(const unsigned *)(in + (2 * a) * 1024 + off);
                const unsigned B = *(const unsigned *)(in + (2 * a + 1) * 1024 + off);
                const int woff = pp * 128 + ((qq ^ pp) << 4) + a * 4;
                *(unsigned *)(out + (2 * b) * 1024 + woff) = __byte_perm(A, B, 0x5410);
                *(unsigned *)(out + (2 * b + 1) * 1024 + woff) = __byte_perm(A, B, 0x7632);
            }
        }
    }
}

/* The edges (rows >= ri, and columns >= ci of rows < ri), by blocks 0 .. edge - 1 */
template <typename T> static __device__ void tma_edges(T *out, const T *in, int rows, int cols, int ri, int ci, int edge)
{
    const long long n1 = (long long)(rows - ri) * cols, n2 = (long long)ri * (cols - ci);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n1 + n2; i += (long long)edge * blockDim.x) {
        int r, c;
        if (i < n1) {
            r = ri + (int)(i / cols);
            c = (int)(i % cols);
        } else {
            const long long k = i - n1;
            r = (int)(k % ri);
            c = ci + (int)(k / ri);
        }
        out[(long long)c * rows + r] = in[(long long)r * cols + c];
    }
}

/* Block b >= edge: tiles (b - edge) * per .. + per - 1 of the interior (ntr x ntc tiles, column-major
 * if order == 0, row-major otherwise), S tiles' boxes in flight. */
template <typename T, int NT, int S>
__global__ void __launch_bounds__(NT) k_tma(const __grid_constant__ CUtensorMap tin, const __grid_constant__ CUtensorMap tout,
                                            T *out, const T *in, int rows, int cols, int ntr, int ntc, int per, int edge,
                                            int order)
{
    using sh = tma_shape<T>;
    constexpr int K = sh::K, TW = sh::TW, TB = sh::TILE_BYTES;
    if ((int)blockIdx.x < edge) {
        tma_edges<T>(out, in, rows, cols, ntr * TW, ntc * TW, edge);
        return;
    }
    extern __shared__ unsigned char tma_dyn[];
    __shared__ unsigned long long bar[S];
    unsigned char *base = tma_dyn + ((1024 - (tma_smem(tma_dyn) & 1023)) & 1023);
    unsigned char *ins = base, *outs = base + S * TB;
    const int nt = ntr * ntc;
    const int t0 = ((int)blockIdx.x - edge) * per;
    const int n = min(per, nt - t0);
    auto corner = [&](int t, int &r0, int &c0) {
        const int tr = order == 0 ? t % ntr : t / ntc, tc = order == 0 ? t / ntr : t % ntc;
        r0 = tr * TW;
        c0 = tc * TW;
    };
    auto issue = [&](int i) {
        const int s = i % S;
        int r0, c0;
        corner(t0 + i, r0, c0);
        tma_bar_expect(&bar[s], TB);
#pragma unroll
        for (int j = 0; j < K; ++j)
            tma_load(ins + s * TB + j * 1024, &tin, j * cols + c0, r0 / K, &bar[s]);
    };
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s)
            tma_bar_init(&bar[s]);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        for (int i = 0; i < S && i < n; ++i)
            issue(i);
    }
    __syncthreads();
    for (int i = 0; i < n; ++i) {
        const int s = i % S;
        tma_bar_wait(&bar[s], (unsigned)(i / S) & 1u);
        if (threadIdx.x == 0)
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        __syncthreads();
        unsigned char *o = outs + (i & 1) * TB;
        tma_tile_transpose<T, NT>(ins + s * TB, o);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (threadIdx.x == 0) {
            int r0, c0;
            corner(t0 + i, r0, c0);
#pragma unroll
            for (int j = 0; j < K; ++j)
                tma_store(&tout, j * rows + r0, c0 / K, o + j * 1024);
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            if (i + S < n)
                issue(i + S);
        }
    }
    if (threadIdx.x == 0)
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

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

static PFN_cuTensorMapEncodeTiled_v12000 encode;

/* the super-row map of a rows x cols matrix of T at p */
template <typename T> static CUtensorMap super_map(void *p, int rows, int cols)
{
    using sh = tma_shape<T>;
    CUtensorMap m;
    const cuuint64_t dims[2] = {(cuuint64_t)sh::K * cols, (cuuint64_t)(rows / sh::K)};
    const cuuint64_t strides[1] = {16ull * cols};
    const cuuint32_t box[2] = {(cuuint32_t)sh::TW, 8}, es[2] = {1, 1};
    const CUresult r = encode(&m, sizeof(T) == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, p,
                              dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled: error %d (%d x %d)\n", (int)r, rows, cols);
        exit(2);
    }
    return m;
}

struct method {
    std::string name;
    const void *fn; // nullptr: cudaMemcpy
    int nt, kind;   // kind 0 memcpy, 1 product any kernel, 2 tma
    int tile_r, tile_c; // product kernel's tile
    int per, order, stages, smem;
};

template <typename T> static void run_size(dev_timer &tm, int rows, int cols, int rounds, int reps, int warm,
                                           unsigned long long *bad, const char *tname)
{
    using sh = tma_shape<T>;
    std::vector<method> ms;
    ms.push_back({"memcpy", nullptr, 0, 0, 0, 0, 0, 0, 0, 0});
    if (sizeof(T) == 4)
        ms.push_back({"any_f32_raws", (const void *)sol_transpose_any_f32_raws, 256, 1, 64, 64, 0, 0, 0, 0});
    else
        ms.push_back({"any_f16_64x128", (const void *)sol_transpose_any_f16_64x128, 256, 1, 64, 128, 0, 0, 0, 0});
    auto add = [&](const char *name, const void *fn, int nt, int stages, int per, int order) {
        const int smem = (stages + 2) * sh::TILE_BYTES + 1024;
        CK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        CK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
        int fit = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn, nt, smem));
        cudaFuncAttributes a;
        CK(cudaFuncGetAttributes(&a, fn));
        char buf[96];
        snprintf(buf, sizeof buf, "%s_t%d_s%d_p%d_%s", name, nt, stages, per, order ? "rm" : "cm");
        printf("  %-28s %d registers, %d B shared, %d blocks a SM\n", buf, a.numRegs, smem, fit);
        ms.push_back({buf, fn, nt, 2, 0, 0, per, order, stages, smem});
    };
    for (int order = 0; order < 2; ++order) {
        add("tma", (const void *)k_tma<T, 256, 2>, 256, 2, 4, order);
        add("tma", (const void *)k_tma<T, 256, 2>, 256, 2, 8, order);
        add("tma", (const void *)k_tma<T, 256, 3>, 256, 3, 8, order);
        add("tma", (const void *)k_tma<T, 256, 4>, 256, 4, 16, order);
    }
    add("tma", (const void *)k_tma<T, 128, 2>, 128, 2, 8, 0);
    add("tma", (const void *)k_tma<T, 128, 3>, 128, 3, 16, 0);
    add("tma", (const void *)k_tma<T, 256, 1>, 256, 1, 1, 0);
    add("tma", (const void *)k_tma<T, 256, 2>, 256, 2, 2, 0);

    const long long n = (long long)rows * cols;
    T *in, *out;
    CK(cudaMalloc(&in, n * sizeof(T) + 16));
    CK(cudaMalloc(&out, n * sizeof(T) + 16));
    dev_fill_words<<<tm.sms * 8, 256>>>((unsigned *)in, (n * sizeof(T) + 3) / 4, 7u);
    const CUtensorMap tin = super_map<T>(in, rows, cols), tout = super_map<T>(out, cols, rows);
    const int ntr = rows / sh::TW, ntc = cols / sh::TW;
    const int edge_elems = (int)((long long)(rows - ntr * sh::TW) * cols + (long long)ntr * sh::TW * (cols - ntc * sh::TW));
    const int edge = edge_elems ? (edge_elems + 2047) / 2048 : 0;
    auto launch = [&](size_t k) {
        const method &m = ms[k];
        if (m.kind == 0) {
            CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice));
            return;
        }
        if (m.kind == 1) {
            int r = rows, c = cols;
            void *args[] = {&out, &in, &r, &c};
            const long long down = (rows + m.tile_r - 1) / m.tile_r, across = (cols + m.tile_c - 1) / m.tile_c;
            CK(cudaLaunchKernel(m.fn, dim3((unsigned)(down * across)), dim3(m.nt), args, 0, 0));
            return;
        }
        int r = rows, c = cols, a = ntr, b = ntc, per = m.per, e = edge, o = m.order;
        void *args[] = {(void *)&tin, (void *)&tout, &out, &in, &r, &c, &a, &b, &per, &e, &o};
        const int blocks = edge + (ntr * ntc + m.per - 1) / m.per;
        CK(cudaLaunchKernel(m.fn, dim3((unsigned)blocks), dim3(m.nt), args, (size_t)m.smem, 0));
    };
    auto poison = [&](size_t) { CK(cudaMemset(out, 0xFF, n * sizeof(T))); };
    auto check = [&](size_t k) {
        CK(cudaDeviceSynchronize());
        if (ms[k].kind == 0)
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
        printf("transpose %s %dx%d %-28s median %.4f ms min %.4f max %.4f  %7.1f GB/s  x memcpy %.4f\n", tname, rows, cols,
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
    std::string dtypes = "f32,f16";
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
            fprintf(stderr, "usage: dev_tma [--sizes 4097x4097,...] [--dtypes f32,f16] [--rounds 4] [--reps 30]\n");
            return 2;
        }
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !encode) {
        fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
        return 2;
    }
    dev_timer tm;
    dev_time_open(tm, p);
    unsigned long long *bad;
    CK(cudaMalloc(&bad, 8));
    printf("device %s, %d SMs, L2 %d B; rounds %d x %d calls, %d warm-ups\n", p.name, tm.sms, p.l2CacheSize, rounds, reps,
           warm);
    for (auto &sz : sizes) {
        if (dtypes.find("f32") != std::string::npos)
            run_size<unsigned>(tm, sz.first, sz.second, rounds, reps, warm, bad, "f32");
        if (dtypes.find("f16") != std::string::npos)
            run_size<unsigned short>(tm, sz.first, sz.second, rounds, reps, warm, bad, "f16");
    }
    return 0;
}
