// tma_rewrite.cu: the layout check follows the bytes (tests/test_tma.c). A TMA load writes A with
// a 64-byte swizzle; `tma_rewrite keep` then reads A through a 128-byte-swizzle descriptor (a
// layout hazard at the wgmma and the load), `tma_rewrite rewrite` first overwrites the tile with
// st.shared (fence.proxy.async, a barrier), so the wgmma reads bytes the program laid out itself:
// no layout hazard. Prints the mode and "done".
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

__global__ void __launch_bounds__(128) rewrite(const __grid_constant__ CUtensorMap mA, int again, float *D)
{
    __shared__ alignas(1024) uint8_t sm[16384];
    __shared__ alignas(8) uint64_t bar;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(sm), b = (uint32_t)__cvta_generic_to_shared(&bar);
    int tid = threadIdx.x;
    for (int i = tid; i < 16384 / 4; i += 128)
        reinterpret_cast<uint32_t *>(sm)[i] = 0;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (tid == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(4096) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(base), "l"((uint64_t)&mA), "r"(0), "r"(0), "r"(b)
                     : "memory");
    }
    uint32_t done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(b)
                     : "memory");
    if (again) { // the program lays the tile out again itself
        for (int i = tid; i < 8192 / 4; i += 128)
            reinterpret_cast<uint32_t *>(sm)[i] = 0x3c003c00u + (uint32_t)(i % 5);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    float d[4] = {0, 0, 0, 0};
    uint64_t da = (uint64_t)((base & 0x3FFFF) >> 4) | (uint64_t)1 << 16 | (uint64_t)(1024 >> 4) << 32 |
                  (uint64_t)1 << 62;                          // 128-byte swizzle, SBO 1024
    uint64_t db = (uint64_t)(((base + 12288) & 0x3FFFF) >> 4) | (uint64_t)1 << 16 |
                  (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
                 " wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db), "r"(1));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int v = 0; v < 4; v++)
        D[tid * 4 + v] = d[v];
}

int main(int argc, char **argv)
{
    int again = argc > 1 && !strcmp(argv[1], "rewrite");
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (!fn)
        return 1;
    static unsigned short h[64 * 64];
    for (int i = 0; i < 64 * 64; i++)
        h[i] = 0x3c00; // 1.0
    unsigned short *g;
    float *D;
    cudaMalloc(&g, sizeof h);
    cudaMalloc(&D, 512 * sizeof(float));
    cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
    CUtensorMap m;
    cuuint64_t dim[2] = {64, 64}, stride[1] = {128};
    cuuint32_t box[2] = {32, 64}, es[2] = {1, 1};
    ((PFN_cuTensorMapEncodeTiled_v12000)fn)(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, dim, stride, box, es,
                                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    rewrite<<<1, 128>>>(m, again, D);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s %s\n", again ? "rewrite" : "keep", e == cudaSuccess ? "done" : cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
