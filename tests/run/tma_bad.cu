// tma_bad.cu: TMA tensor copies smemlab refuses, each stopping the kernel with a located message
// (tests/test_tma.c), and a map read from global memory, which works. `tma_bad MODE`:
//   global     a 2-D map copied to global memory and used from there: prints "global ok" (exit 0)
//   garbage    a "map" of 0xff bytes in global memory (no driver makes it)
//   rank       a 2-D map used by cp.async.bulk.tensor.3d
//   misaligned a destination 64 bytes off a 128-byte boundary
//   im2col     the im2col form
//   multicast  the .multicast::cluster form into ranks 0 and 1 of a cluster of one
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

__global__ void tma_kernel(const __grid_constant__ CUtensorMap pm, const CUtensorMap *gm, int mode,
                           unsigned short *out)
{
    __shared__ alignas(1024) unsigned short s[1024];
    __shared__ alignas(8) uint64_t bar;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(s), b = (uint32_t)__cvta_generic_to_shared(&bar);
    uint64_t m = mode <= 1 ? (uint64_t)gm : (uint64_t)&pm;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(512) : "memory");
        if (mode <= 1)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(base), "l"(m), "r"(0), "r"(0), "r"(b) : "memory");
        else if (mode == 2)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(base), "l"(m), "r"(0), "r"(0), "r"(0), "r"(b)
                         : "memory");
        else if (mode == 3)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(base + 64), "l"(m), "r"(0), "r"(0), "r"(b) : "memory");
        else if (mode == 4)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5], {%6};" ::"r"(base), "l"(m), "r"(0), "r"(0), "r"(0),
                         "r"(b), "h"((unsigned short)0) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(base), "l"(m), "r"(0), "r"(0),
                         "r"(b), "h"((unsigned short)3) : "memory");
    }
    uint32_t done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(b)
                     : "memory");
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        out[i] = s[i];
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"global", "garbage", "rank", "misaligned", "im2col", "multicast"};
    int mode = -1;
    for (int i = 0; i < 6; i++)
        if (argc > 1 && !strcmp(argv[1], modes[i]))
            mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: tma_bad global|garbage|rank|misaligned|im2col|multicast\n");
        return 2;
    }
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (!fn)
        return 1;
    unsigned short h[64 * 64], *g, *out;
    for (int i = 0; i < 64 * 64; i++)
        h[i] = (unsigned short)(i + 1);
    cudaMalloc(&g, sizeof h);
    cudaMalloc(&out, 512);
    cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
    CUtensorMap m, *gm;
    cuuint64_t dim[2] = {64, 64}, stride[1] = {128};
    cuuint32_t box[2] = {16, 16}, es[2] = {1, 1};
    ((PFN_cuTensorMapEncodeTiled_v12000)fn)(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, g, dim, stride, box, es,
                                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
                                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    cudaMalloc(&gm, sizeof m);
    if (mode == 1)
        cudaMemset(gm, 0xff, sizeof m);
    else
        cudaMemcpy(gm, &m, sizeof m, cudaMemcpyHostToDevice);
    tma_kernel<<<1, 32>>>(m, gm, mode, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("%s: %s\n", modes[mode], cudaGetErrorString(e));
        return 1;
    }
    unsigned short o[256];
    cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
    int ok = 1; // 32B swizzle, rows of 32 bytes: element (r, c) at r*16 + (c ^ 8*((r/4)%2)) in halves
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
            ok &= o[r * 16 + (c ^ (8 * ((r / 4) % 2)))] == h[r * 64 + c];
    printf("%s %s\n", modes[mode], ok ? "ok" : "wrong");
    return ok ? 0 : 1;
}
