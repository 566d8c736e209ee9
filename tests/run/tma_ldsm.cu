// tma_ldsm.cu: advise's Hopper proposal for tests/advise/hopper.cu (CU_TENSOR_MAP_SWIZZLE_128B,
// the tile read as tile[r][c ^ ((r & 7) << 3)]) carried out with a real TMA copy, run whole:
// a 64 x 64 half tile (128-byte rows) loaded by cp.async.bulk.tensor from a map the host builds,
// then each of the 4 warps reads its 16 rows with ldmatrix.x4 at k = 0, 16, 32, 48.
//   launch 0: CU_TENSOR_MAP_SWIZZLE_NONE, the reads at tile[r][c]: 8-way, as advise found;
//   launch 1: CU_TENSOR_MAP_SWIZZLE_128B, the reads where the copy put the chunks.
// Both must read the same values (the host compares every lane's fragments), and `smemlab run`
// must price launch 1's ldmatrix at what advise predicted (64 wavefronts, against 512):
// tests/test_advise.c, test_hopper_proposal_runs; the H200 counted the same and read the same
// fragments both ways (tests/run/h200-tma-ldsm.txt). Needs sm_90a:
//   nvcc -cudart shared -gencode arch=compute_90a,code=sm_90a tma_ldsm.cu -o tma_ldsm
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

__global__ void tma_ldsm(const __grid_constant__ CUtensorMap map, int swz, unsigned *out)
{
    __shared__ __align__(1024) half tile[64][64];
    __shared__ __align__(8) uint64_t bar;
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    unsigned t = (unsigned)__cvta_generic_to_shared(tile), b = (unsigned)__cvta_generic_to_shared(&bar);
    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (tid == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(8192)
                     : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(t), "l"((uint64_t)&map), "r"(0), "r"(0),
                     "r"(b)
                     : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(b)
                     : "memory");
    for (unsigned k = 0; k < 4; k++) {
        unsigned row = warp * 16 + lane % 16, chunk = k * 2 + lane / 16, r[4];
        unsigned col = (swz ? chunk ^ (row & 7) : chunk) * 8;
        unsigned a = (unsigned)__cvta_generic_to_shared(&tile[row][col]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a));
        for (unsigned j = 0; j < 4; j++)
            out[(k * 4 + j) * 128 + tid] = r[j];
    }
}

int main()
{
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || !fn) {
        printf("no cuTensorMapEncodeTiled\nFAIL\n");
        return 1;
    }
    PFN_cuTensorMapEncodeTiled_v12000 encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    static half h[64 * 64];
    for (int i = 0; i < 64 * 64; i++)
        h[i] = __float2half((float)((i * 37) % 1021) - 500.0f);
    half *g;
    unsigned *out[2];
    cudaMalloc(&g, sizeof h);
    cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
    static unsigned got[2][16 * 128];
    for (int s = 0; s < 2; s++) {
        CUtensorMap m;
        cuuint64_t dim[2] = {64, 64}, stride[1] = {128};
        cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
        CUresult r = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, dim, stride, box, es,
                            CU_TENSOR_MAP_INTERLEAVE_NONE,
                            s ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (r != CUDA_SUCCESS) {
            printf("encode %d: %d\nFAIL\n", s, (int)r);
            return 1;
        }
        cudaMalloc(&out[s], sizeof got[s]);
        tma_ldsm<<<1, 128>>>(m, s, out[s]);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("launch %d: %s\nFAIL\n", s, cudaGetErrorString(e));
            return 1;
        }
        cudaMemcpy(got[s], out[s], sizeof got[s], cudaMemcpyDeviceToHost);
    }
    unsigned differ = 0;
    for (int i = 0; i < 16 * 128; i++)
        differ += got[0][i] != got[1][i];
    /* and the fragments are the tile's: lane l of matrix j holds row l / 4 of it, columns 2 (l % 4) */
    unsigned wrong = 0;
    for (unsigned k = 0; k < 4; k++)
        for (unsigned j = 0; j < 4; j++)
            for (unsigned tid = 0; tid < 128; tid++) {
                unsigned lane = tid % 32, warp = tid / 32;
                unsigned row = warp * 16 + (j & 1) * 8 + lane / 4, col = (k * 2 + j / 2) * 8 + lane % 4 * 2;
                unsigned short lo, hi;
                memcpy(&lo, &h[row * 64 + col], 2);
                memcpy(&hi, &h[row * 64 + col + 1], 2);
                wrong += got[1][(k * 4 + j) * 128 + tid] != (lo | (unsigned)hi << 16);
            }
    printf("fragments: %u differ between the layouts, %u differ from the tile\n%s\n", differ, wrong,
           differ || wrong ? "FAIL" : "PASS");
    return differ || wrong ? 1 : 0;
}
