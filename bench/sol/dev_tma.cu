// dev_tma.cu: development harness for issue 34's odd shapes (session 6): a transpose whose tiles come
// and go by the tensor memory accelerator (cp.async.bulk.tensor) although no row starts on 16 bytes.
// Not part of the product: `smemlab bench transpose` is.
//
// A tensor map needs a row pitch that is a multiple of 16 bytes; 4097 f32 elements are 16388 bytes.
// But K = 16 / sizeof(T) consecutive rows together are 16 * cols bytes: read the matrix as rows / K
// "super-rows" of K * cols elements, pitch 16 * cols bytes. Row r = K q + j is the run
// [j * cols, (j + 1) * cols) of super-row q, so a tile's rows of class j (r0 + j + K qq) are one box of
// the super-row map. The output (cols rows of rows elements) is read the same way.
//
// What the H200 refuses (measured: `--probe`, bench/results/h200-2026-11-29-s6-probe/): a box whose
// inner coordinate is not a multiple of 16 bytes, even wholly inside the tensor ("an illegal
// instruction was encountered"), where the same box at 16 bytes runs. So every box here starts on 16 bytes:
//  - loads: class j's box starts delta_j = (j * cols) mod K elements left of the tile's first column
//    and is TW + K wide (144 bytes, no swizzle), 9 super-rows tall (the row block above too, below);
//  - stores: out row c (class j' = c mod K of the output's super-rows) is written from column
//    r0 - delta'_j' (delta'_j' = (j' * rows) mod K), TW wide: each tile owns a sheared range of every
//    output row, which needs input rows r0 - K + 1 .. r0 + TW - 1 (hence the 9th super-row).
// Tile row 0 (its output would start left of column 0), the rows past the last whole tile row and
// the columns past the last whole tile column are moved by the first `edge` blocks with scalar loads
// and stores, under the same ownership. Shared accesses: conflict-free when cols is odd (smemlab run).
//
// Timed the way the product times (dev_time.cuh) against cudaMemcpy of the same bytes and the
// product's own any kernels (kernels/sol_transpose.cu, launched as src/gpu/sol.c's table launches
// them), every output compared element by element with its input. Build (repository root):
//   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o dev_tma bench/sol/dev_tma.cu
// run: ./dev_tma [--sizes 4097x4097,...] [--dtypes f32,f16] [--rounds 4] [--reps 30] [--probe] [--set 1|2]
//   --probe: one box at inner offsets of 16 and 4 bytes, wholly inside a 64 x 64 map: the first runs,
//            the second the H200 refuses (the process ends on the illegal instruction)
//   --set 1: square tiles with rings (session 6's call 2); --set 2 (default): taller tiles (call 3)
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

/* --probe: one box of 32 x 8 words at inner coordinate x of a 64 x 64 map of words (pitch 256 bytes),
 * wholly inside the tensor; the first word it brought lands in *got. */
__global__ void k_probe(const __grid_constant__ CUtensorMap m, int x, unsigned *got)
{
    __shared__ __align__(128) unsigned box[32 * 8];
    __shared__ unsigned long long bar;
    if (threadIdx.x != 0)
        return;
    tma_bar_init(&bar);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    tma_bar_expect(&bar, sizeof box);
    tma_load(box, &m, x, 0, &bar);
    tma_bar_wait(&bar, 0);
    *got = box[0];
}

/* ---- Aligned boxes (the form the H200 takes) ---------------------------------------------------- */

/* A tile: TH rows x TW columns (TW = 128 / sizeof(T): one 128-byte run a row), TH a multiple of 32.
 * Loads: K boxes of (TW + K) x (TH / K + 1) (144-byte rows, no swizzle), class j at IB * j bytes
 * (128-aligned). Stores: K boxes of TH x 8 (no swizzle), class j' at OB * j'. */
template <typename T, int TH> struct tmaa_shape {
    static constexpr int K = 16 / (int)sizeof(T);
    static constexpr int TW = 128 / (int)sizeof(T);
    static constexpr int IW = TW + K;                           /* the load box's width, elements */
    static constexpr int IH = TH / K + 1;                       /* its height, super-rows */
    static constexpr int IB = (IH * IW * (int)sizeof(T) + 127) / 128 * 128;
    static constexpr int IN_BYTES = K * IB;                     /* a stage */
    static constexpr int IN_TX = K * IH * IW * (int)sizeof(T);  /* the bytes the boxes deliver */
    static constexpr int OB = (TW / K) * TH * (int)sizeof(T);   /* a store box */
    static constexpr int OUT_BYTES = K * OB;
};

/* The tile (r0, c0) in shared memory: in (loaded boxes) -> out (store boxes). dl = delta_j, dlo =
 * delta'_j' (each K entries); NT threads. Out row (j', pp) is output row c0 + j' + K pp from column
 * r0 - dlo[j']; input row r sits in class (r - r0) mod K, super-row (r - r0 + K) div K of the box. */
template <typename T, int NT, int TH>
static __device__ __forceinline__ void tmaa_tile(const unsigned char *in, unsigned char *out, const int *dl, const int *dlo)
{
    using sh = tmaa_shape<T, TH>;
    constexpr int K = sh::K, TW = sh::TW, IW = sh::IW;
    const int lane = threadIdx.x & 31;
    for (int row = threadIdx.x >> 5; row < TW; row += NT / 32) {
        const int jo = row % K, pp = row / K, d = dlo[jo];
        const int c = jo + K * pp; /* the tile's column */
        unsigned char *orow = out + jo * sh::OB + pp * TH * (int)sizeof(T);
        if constexpr (sizeof(T) == 4) {
#pragma unroll
            for (int w = lane; w < TH; w += 32) {
                const int x = w - d + K; /* r - r0 + K, >= 1 */
                const int j = x % K, q = x / K;
                *(T *)(orow + w * 4) = *(const T *)(in + j * sh::IB + (q * IW + c + dl[j]) * 4);
            }
        } else {
#pragma unroll
            for (int u = lane; u < TH / 2; u += 32) {
                const int x0 = 2 * u - d + K, x1 = x0 + 1;
                const int j0 = x0 % K, q0 = x0 / K, j1 = x1 % K, q1 = x1 / K;
                const unsigned a = *(const unsigned short *)(in + j0 * sh::IB + (q0 * IW + c + dl[j0]) * 2);
                const unsigned b = *(const unsigned short *)(in + j1 * sh::IB + (q1 * IW + c + dl[j1]) * 2);
                *(unsigned *)(orow + u * 4) = a | (b << 16);
            }
        }
    }
}

/* What the tiles do not own, by blocks 0 .. edge - 1: for each column c < ci the rows r with
 * r + delta'(c mod K) < TH (tile row 0) or >= ntr TH; every row of the columns >= ci. */
template <typename T, int TH>
static __device__ void tmaa_edges(T *out, const T *in, int rows, int cols, int ntr, int ci, int edge)
{
    constexpr int K = 16 / (int)sizeof(T);
    const int rrem = rows - ntr * TH;
    const long long per = TH + rrem, n1 = (long long)ci * per, n2 = (long long)(cols - ci) * rows;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n1 + n2; i += (long long)edge * blockDim.x) {
        int r, c;
        if (i < n1) {
            c = (int)(i / per);
            const int k = (int)(i % per);
            const int d = (int)(((long long)(c % K) * rows) % K);
            r = k < TH - d ? k : k + (ntr - 1) * TH;
        } else {
            c = ci + (int)((i - n1) / rows);
            r = (int)((i - n1) % rows);
        }
        out[(long long)c * rows + r] = in[(long long)r * cols + c];
    }
}

/* Block b >= edge: tiles (b - edge) * per .. of tile rows 1 .. ntr - 1 (ntr = rows / TH; x ntc tile
 * columns, column-major), S stages of input in flight, two of output. */
template <typename T, int NT, int S, int TH>
__global__ void __launch_bounds__(NT) k_tmaa(const __grid_constant__ CUtensorMap tin, const __grid_constant__ CUtensorMap tout,
                                             T *out, const T *in, int rows, int cols, int ntr, int ntc, int per, int edge)
{
    using sh = tmaa_shape<T, TH>;
    constexpr int K = sh::K, TW = sh::TW;
    if ((int)blockIdx.x < edge) {
        tmaa_edges<T, TH>(out, in, rows, cols, ntr, ntc * TW, edge);
        return;
    }
    extern __shared__ unsigned char tma_dyn[];
    __shared__ unsigned long long bar[S];
    __shared__ int dl[K], dlo[K];
    unsigned char *base = tma_dyn + ((1024 - (tma_smem(tma_dyn) & 1023)) & 1023);
    unsigned char *ins = base, *outs = base + S * sh::IN_BYTES;
    if (threadIdx.x < K) {
        dl[threadIdx.x] = (int)(((long long)threadIdx.x * cols) % K);
        dlo[threadIdx.x] = (int)(((long long)threadIdx.x * rows) % K);
    }
    const int down = ntr - 1, nt = down * ntc;
    const int t0 = ((int)blockIdx.x - edge) * per;
    const int n = min(per, nt - t0);
    auto corner = [&](int t, int &r0, int &c0) {
        r0 = (1 + t % down) * TH;
        c0 = (t / down) * TW;
    };
    auto issue = [&](int i) {
        const int s = i % S;
        int r0, c0;
        corner(t0 + i, r0, c0);
        tma_bar_expect(&bar[s], sh::IN_TX);
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int d = (int)(((long long)j * cols) % K);
            tma_load(ins + s * sh::IN_BYTES + j * sh::IB, &tin, j * cols + c0 - d, r0 / K - 1, &bar[s]);
        }
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
        unsigned char *o = outs + (i & 1) * sh::OUT_BYTES;
        tmaa_tile<T, NT, TH>(ins + s * sh::IN_BYTES, o, dl, dlo);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (threadIdx.x == 0) {
            int r0, c0;
            corner(t0 + i, r0, c0);
#pragma unroll
            for (int j = 0; j < K; ++j)
                tma_store(&tout, j * rows + r0 - dlo[j], c0 / K, o + j * sh::OB);
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            if (i + S < n)
                issue(i + S);
        }
    }
    if (threadIdx.x == 0)
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

static PFN_cuTensorMapEncodeTiled_v12000 encode;

/* the aligned forms' maps: loads (TW + K) x (TH / K + 1) without a swizzle, stores TH x 8 */
template <typename T, int TH> static CUtensorMap super_map_a(void *p, int rows, int cols, bool load)
{
    using sh = tmaa_shape<T, TH>;
    CUtensorMap m;
    const cuuint64_t dims[2] = {(cuuint64_t)sh::K * cols, (cuuint64_t)(rows / sh::K)};
    const cuuint64_t strides[1] = {16ull * cols};
    const cuuint32_t box[2] = {(cuuint32_t)(load ? sh::IW : TH), (cuuint32_t)(load ? sh::IH : sh::TW / sh::K)};
    const cuuint32_t es[2] = {1, 1};
    const CUresult r = encode(&m, sizeof(T) == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, p,
                              dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled: error %d (%d x %d)\n", (int)r, rows, cols);
        exit(2);
    }
    return m;
}

/* --probe: the same box at inner offsets of 16 bytes (must work: the word at column 4) and of 4 bytes
 * (the H200 stops it: the process ends there, on the checked synchronisation) */
static int run_probe()
{
    unsigned *mat, *got;
    CK(cudaMalloc(&mat, 64 * 64 * 4));
    CK(cudaMalloc(&got, 4));
    std::vector<unsigned> h(64 * 64);
    for (size_t i = 0; i < h.size(); ++i)
        h[i] = (unsigned)i;
    CK(cudaMemcpy(mat, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    CUtensorMap m;
    const cuuint64_t dims[2] = {64, 64}, strides[1] = {256};
    const cuuint32_t box[2] = {32, 8}, es[2] = {1, 1};
    if (encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, mat, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled failed\n");
        return 2;
    }
    for (int x : {4, 1}) {
        printf("probe: a 32 x 8 box of 4-byte words at column %d (inner offset %d bytes) ...\n", x, 4 * x);
        fflush(stdout);
        CK(cudaMemset(got, 0xFF, 4));
        k_probe<<<1, 32>>>(m, x, got);
        CK(cudaDeviceSynchronize());
        unsigned g;
        CK(cudaMemcpy(&g, got, 4, cudaMemcpyDeviceToHost));
        printf("probe: column %d: ran, first word %u (%s)\n", x, g, g == (unsigned)x ? "right" : "WRONG");
    }
    return 0;
}

struct method {
    std::string name;
    const void *fn; // nullptr: cudaMemcpy
    int nt, kind;   // kind 0 memcpy, 1 product any kernel, 3 aligned boxes
    int tile_r, tile_c; // product kernel's tile; the aligned form's TH
    int per, stages, smem;
    int ntr, edge;      // the aligned form's tile rows and edge blocks
    CUtensorMap tin, tout;
};

template <typename T, int TH> static void add_tmaa(std::vector<method> &ms, const void *fn, int nt, int stages, int per, int rows,
                                                   int cols, T *in, T *out)
{
    using sa = tmaa_shape<T, TH>;
    method m{};
    const int smem = stages * sa::IN_BYTES + 2 * sa::OUT_BYTES + 1024;
    CK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    int fit = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn, nt, smem));
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, fn));
    char buf[96];
    snprintf(buf, sizeof buf, "tmaa%dx%d_t%d_s%d_p%d", TH, sa::TW, nt, stages, per);
    const int ntr = rows / TH, ntc = cols / sa::TW;
    const long long edge_elems = (long long)ntc * sa::TW * (TH + rows - ntr * TH) + (long long)(cols - ntc * sa::TW) * rows;
    m.name = buf;
    m.fn = fn;
    m.nt = nt;
    m.kind = 3;
    m.tile_r = TH;
    m.tile_c = sa::TW;
    m.per = per;
    m.stages = stages;
    m.smem = smem;
    m.ntr = ntr;
    m.edge = (int)((edge_elems + 2047) / 2048);
    m.tin = super_map_a<T, TH>(in, rows, cols, true);
    m.tout = super_map_a<T, TH>(out, cols, rows, false);
    printf("  %-28s %d registers, %d B shared, %d blocks a SM; %d x %d tiles, %lld elements (%.2f %%) by %d edge blocks\n",
           buf, a.numRegs, smem, fit, ntr - 1, ntc, edge_elems, 100.0 * edge_elems / ((double)rows * cols), m.edge);
    ms.push_back(m);
}

template <typename T> static void run_size(dev_timer &tm, int rows, int cols, int rounds, int reps, int warm,
                                           unsigned long long *bad, const char *tname, int set)
{
    const long long n = (long long)rows * cols;
    T *in, *out;
    CK(cudaMalloc(&in, n * sizeof(T) + 16));
    CK(cudaMalloc(&out, n * sizeof(T) + 16));
    dev_fill_words<<<tm.sms * 8, 256>>>((unsigned *)in, (n * sizeof(T) + 3) / 4, 7u);
    std::vector<method> ms;
    {
        method m{};
        m.name = "memcpy";
        ms.push_back(m);
        m.kind = 1;
        m.nt = 256;
        if (sizeof(T) == 4) {
            m.name = "any_f32_raws";
            m.fn = (const void *)sol_transpose_any_f32_raws;
            m.tile_r = 64;
            m.tile_c = 64;
        } else {
            m.name = "any_f16_64x128";
            m.fn = (const void *)sol_transpose_any_f16_64x128;
            m.tile_r = 64;
            m.tile_c = 128;
        }
        ms.push_back(m);
    }
    if (set == 1) {
        /* session 6, call 2: square tiles (TH = TW), rings of S stages over per tiles a block */
        constexpr int TW = tmaa_shape<T, 32>::TW;
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 256, 2, TW>, 256, 2, 4, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 256, 2, TW>, 256, 2, 8, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 256, 3, TW>, 256, 3, 8, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 256, 3, TW>, 256, 3, 16, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 256, 4, TW>, 256, 4, 16, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 128, 2, TW>, 128, 2, 8, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 128, 3, TW>, 128, 3, 16, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 512, 3, TW>, 512, 3, 8, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 256, 1, TW>, 256, 1, 1, rows, cols, in, out);
        add_tmaa<T, TW>(ms, (const void *)k_tmaa<T, 256, 2, TW>, 256, 2, 2, rows, cols, in, out);
    } else if (sizeof(T) == 4) {
        /* session 6, call 3 (set 2): taller tiles */
        add_tmaa<T, 32>(ms, (const void *)k_tmaa<T, 256, 2, 32>, 256, 2, 2, rows, cols, in, out);
        add_tmaa<T, 32>(ms, (const void *)k_tmaa<T, 256, 1, 32>, 256, 1, 1, rows, cols, in, out);
        add_tmaa<T, 64>(ms, (const void *)k_tmaa<T, 256, 1, 64>, 256, 1, 1, rows, cols, in, out);
        add_tmaa<T, 64>(ms, (const void *)k_tmaa<T, 256, 2, 64>, 256, 2, 2, rows, cols, in, out);
        add_tmaa<T, 64>(ms, (const void *)k_tmaa<T, 512, 1, 64>, 512, 1, 1, rows, cols, in, out);
        add_tmaa<T, 128>(ms, (const void *)k_tmaa<T, 256, 1, 128>, 256, 1, 1, rows, cols, in, out);
        add_tmaa<T, 128>(ms, (const void *)k_tmaa<T, 512, 1, 128>, 512, 1, 1, rows, cols, in, out);
        add_tmaa<T, 128>(ms, (const void *)k_tmaa<T, 256, 2, 128>, 256, 2, 2, rows, cols, in, out);
    } else {
        add_tmaa<T, 64>(ms, (const void *)k_tmaa<T, 256, 2, 64>, 256, 2, 2, rows, cols, in, out);
        add_tmaa<T, 64>(ms, (const void *)k_tmaa<T, 256, 1, 64>, 256, 1, 1, rows, cols, in, out);
        add_tmaa<T, 128>(ms, (const void *)k_tmaa<T, 256, 1, 128>, 256, 1, 1, rows, cols, in, out);
        add_tmaa<T, 128>(ms, (const void *)k_tmaa<T, 512, 1, 128>, 512, 1, 1, rows, cols, in, out);
        add_tmaa<T, 128>(ms, (const void *)k_tmaa<T, 256, 2, 128>, 256, 2, 2, rows, cols, in, out);
    }
    auto launch = [&](size_t k) {
        method &m = ms[k];
        if (m.kind == 0) {
            CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice));
            return;
        }
        int r = rows, c = cols;
        if (m.kind == 1) {
            void *args[] = {&out, &in, &r, &c};
            const long long down = (rows + m.tile_r - 1) / m.tile_r, across = (cols + m.tile_c - 1) / m.tile_c;
            CK(cudaLaunchKernel(m.fn, dim3((unsigned)(down * across)), dim3(m.nt), args, 0, 0));
            return;
        }
        int per = m.per;
        int a = m.ntr, b = cols / m.tile_c, e = m.edge;
        void *args[] = {(void *)&m.tin, (void *)&m.tout, &out, &in, &r, &c, &a, &b, &per, &e};
        const int blocks = m.edge + ((m.ntr - 1) * b + m.per - 1) / m.per;
        CK(cudaLaunchKernel(m.fn, dim3((unsigned)blocks), dim3(m.nt), args, (size_t)m.smem, 0));
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
    snprintf(what, sizeof what, "transpose %s %dx%d", tname, rows, cols);
    dev_report(what, names, times, 2.0 * n * sizeof(T));
    CK(cudaFree(in));
    CK(cudaFree(out));
}

int main(int argc, char **argv)
{
    std::vector<std::pair<int, int>> sizes = {{4097, 4097}};
    std::string dtypes = "f32,f16";
    int rounds = 4, reps = 30, warm = 5;
    bool probe = false;
    int set = 2;
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
        else if (!strcmp(argv[i], "--probe"))
            probe = true;
        else if (!strcmp(argv[i], "--set") && i + 1 < argc)
            set = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: dev_tma [--sizes 4097x4097,...] [--dtypes f32,f16] [--rounds 4] [--reps 30] [--probe] [--set 1|2]\n");
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
    if (probe)
        return run_probe();
    dev_timer tm;
    dev_time_open(tm, p);
    unsigned long long *bad;
    CK(cudaMalloc(&bad, 8));
    printf("device %s, %d SMs, L2 %d B; rounds %d x %d calls, %d warm-ups\n", p.name, tm.sms, p.l2CacheSize, rounds, reps,
           warm);
    for (auto &sz : sizes) {
        if (dtypes.find("f32") != std::string::npos)
            run_size<unsigned>(tm, sz.first, sz.second, rounds, reps, warm, bad, "f32", set);
        if (dtypes.find("f16") != std::string::npos)
            run_size<unsigned short>(tm, sz.first, sz.second, rounds, reps, warm, bad, "f16", set);
    }
    return 0;
}
