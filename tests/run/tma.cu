// tma.cu: TMA tiled loads (cp.async.bulk.tensor.2d, each swizzle mode) feeding wgmma, and a TMA
// store back, self-checking (tests/test_tma.c runs it under `smemlab run`; the H200's own output
// is tests/run/h200-tma.txt). Each case loads a 64 x K f16 tile A and an 8 x K tile B (K-major)
// with tensor maps of one swizzle mode (cuTensorMapEncodeTiled through cudaGetDriverEntryPoint,
// the maps passed as __grid_constant__ parameters), waits on the mbarrier's transaction count,
// multiplies them with wgmma.mma_async m64n8k16 through matrix descriptors (K steps advancing
// the start address by 32 bytes, as CUTLASS does), and writes A back with a TMA store through a
// third map. A case whose descriptor for A names the swizzle the map used must give A*B exactly
// (small integers) and the store must give A back; the two cases whose descriptor names another
// swizzle ("mismatch") must give another product: a wrong one, the GPU's. Rows past the
// tensor's end (rows 60) arrive as zeros. Prints a hash of every case's D, then PASS or FAIL.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

#define SMEM 16384

__device__ static uint64_t desc(uint32_t start, uint32_t lbo, uint32_t sbo, int W)
{
    uint64_t lt = W == 128 ? 1 : W == 64 ? 2 : W == 32 ? 3 : 0;
    return (uint64_t)((start & 0x3FFFF) >> 4) | (uint64_t)((lbo & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFF) >> 4) << 32 | lt << 62;
}

__device__ static void tma_load(uint32_t dst, const CUtensorMap *m, int c0, int c1, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst), "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(bar)
                 : "memory");
}

__device__ static void tma_store(const CUtensorMap *m, int c0, int c1, uint32_t src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"((uint64_t)m), "r"(c0), "r"(c1), "r"(src) : "memory");
}

// W: the swizzle width the maps use (0 none, 32, 64, 128); Wr: the one A's descriptor names
__global__ void __launch_bounds__(128) tma_mma(const __grid_constant__ CUtensorMap mA,
                                               const __grid_constant__ CUtensorMap mB,
                                               const __grid_constant__ CUtensorMap mOut, int W, int Wr,
                                               float *D)
{
    __shared__ alignas(1024) uint8_t sm[SMEM];
    __shared__ alignas(8) uint64_t bar;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(sm), b = (uint32_t)__cvta_generic_to_shared(&bar);
    int tid = threadIdx.x;
    for (int i = tid; i < SMEM / 16; i += 128)
        reinterpret_cast<uint4 *>(sm)[i] = make_uint4(0, 0, 0, 0);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    uint32_t row = W ? W : 16, bytes = row * 72 * (W ? 1 : 2); // A's 64 rows and B's 8
    uint32_t tB = base + 8192;
    if (tid == 0) {
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&mA) : "memory");
        asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];"
                     ::"l"((uint64_t)&mB), "r"(0), "r"(0) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes)
                     : "memory");
        tma_load(base, &mA, 0, 0, b);
        tma_load(tB, &mB, 0, 0, b);
        if (!W) { // no swizzle: the second 8 columns of K as the next core matrices (LBO)
            tma_load(base + 1024, &mA, 8, 0, b);
            tma_load(tB + 128, &mB, 8, 0, b);
        }
    }
    uint32_t done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(b)
                     : "memory");
    float d[4] = {0, 0, 0, 0};
    int ksteps = W ? W / 32 : 1;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int ks = 0; ks < ksteps; ks++) {
        uint64_t da = W ? desc(base + 32 * ks, 16, 8 * Wr, Wr) : desc(base, 1024, 128, 0);
        uint64_t db = W ? desc(tB + 32 * ks, 16, 8 * W, W) : desc(tB, 128, 128, 0);
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "l"(da), "l"(db), "r"(1));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int v = 0; v < 4; v++)
        D[tid * 4 + v] = d[v];
    __syncthreads();
    if (tid == 0) {
        tma_store(&mOut, 0, 0, base);
        if (!W)
            tma_store(&mOut, 8, 0, base + 1024);
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

static PFN_cuTensorMapEncodeTiled_v12000 encode;

static int make_map(CUtensorMap *m, void *g, int rows, int W, int boxrows)
{
    cuuint64_t dim[2] = {64, (cuuint64_t)rows}, stride[1] = {128};
    cuuint32_t box[2] = {(cuuint32_t)(W ? W / 2 : 8), (cuuint32_t)boxrows}, es[2] = {1, 1};
    CUtensorMapSwizzle sw = W == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : W == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                            : W == 32 ? CU_TENSOR_MAP_SWIZZLE_32B : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUresult r = encode(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, dim, stride, box, es,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        printf("cuTensorMapEncodeTiled: %d\n", (int)r);
    return r == CUDA_SUCCESS;
}

static float av(int r, int k) { return (float)((r * 7 + k * 3) % 9 - 4); }
static float bv(int n, int k) { return (float)((n * 5 + k) % 7 - 3); }

int main()
{
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || !fn) {
        printf("no cuTensorMapEncodeTiled\nFAIL\n");
        return 1;
    }
    encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    static __half hA[64 * 64], hB[8 * 64], hOut[64 * 64];
    for (int r = 0; r < 64; r++)
        for (int k = 0; k < 64; k++)
            hA[r * 64 + k] = __float2half(av(r, k));
    for (int n = 0; n < 8; n++)
        for (int k = 0; k < 64; k++)
            hB[n * 64 + k] = __float2half(bv(n, k));
    __half *gA, *gB, *gOut;
    float *gD;
    cudaMalloc(&gA, sizeof hA);
    cudaMalloc(&gB, sizeof hB);
    cudaMalloc(&gOut, sizeof hOut);
    cudaMalloc(&gD, 128 * 4 * sizeof(float));
    cudaMemcpy(gA, hA, sizeof hA, cudaMemcpyHostToDevice);
    cudaMemcpy(gB, hB, sizeof hB, cudaMemcpyHostToDevice);
    static const struct {
        const char *name;
        int W, Wr, rows;
    } cases[] = {
        {"none", 0, 0, 64},          {"32B", 32, 32, 64},           {"64B", 64, 64, 64},
        {"128B", 128, 128, 64},      {"128B-rows60", 128, 128, 60}, {"mismatch-64B-as-128B", 64, 128, 64},
        {"mismatch-128B-as-32B", 128, 32, 64},
    };
    int ok = 1;
    for (const auto &c : cases) {
        CUtensorMap mA, mB, mOut;
        if (!make_map(&mA, gA, c.rows, c.W, 64) || !make_map(&mB, gB, 8, c.W, 8) ||
            !make_map(&mOut, gOut, c.rows, c.W, 64)) {
            ok = 0;
            continue;
        }
        cudaMemset(gOut, 0xff, sizeof hOut);
        cudaMemset(gD, 0, 128 * 4 * sizeof(float));
        tma_mma<<<1, 128>>>(mA, mB, mOut, c.W, c.Wr, gD);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("case %s: %s\n", c.name, cudaGetErrorString(e));
            ok = 0;
            continue;
        }
        float hD[512];
        cudaMemcpy(hD, gD, sizeof hD, cudaMemcpyDeviceToHost);
        cudaMemcpy(hOut, gOut, sizeof hOut, cudaMemcpyDeviceToHost);
        int K = c.W ? c.W / 2 : 16, equal = 1, stored = 1;
        uint64_t h = 1469598103934665603ull;
        for (int t = 0; t < 128; t++)
            for (int v = 0; v < 4; v++) {
                int w = t / 32, l = t % 32, m = 16 * w + l / 4 + 8 * (v / 2), n = 2 * (l % 4) + v % 2;
                float want = 0;
                for (int k = 0; k < K; k++)
                    want += (m < c.rows ? av(m, k) : 0.0f) * bv(n, k);
                float got = hD[t * 4 + v];
                equal &= got == want;
                uint32_t bits;
                memcpy(&bits, &got, 4);
                h = (h ^ bits) * 1099511628211ull;
            }
        for (int r = 0; r < c.rows; r++)
            for (int k = 0; k < K; k++)
                stored &= __half2float(hOut[r * 64 + k]) == av(r, k);
        int want_equal = c.W == c.Wr;
        printf("case %s write %d read %d rows %d: hash %016llx product %s, store %s\n", c.name, c.W,
               c.Wr, c.rows, (unsigned long long)h, equal ? "A*B" : "differs", stored ? "A" : "differs");
        if (equal != want_equal || !stored)
            ok = 0;
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
