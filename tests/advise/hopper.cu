// hopper.cu: a tile of halves staged through shared memory and read by ldmatrix, the sm_80/sm_90
// pattern `smemlab advise` proposes a Hopper swizzle mode for (tests/test_advise.c, "hopper").
//   stage_ldsm:      a 64 x 64 half tile (128-byte rows) stored with 16-byte st.shared, then each
//                    of the 4 warps reads its 16 rows with ldmatrix.x4 at k = 0, 16, 32, 48: the
//                    8 rows of each matrix are one 16-byte column of 128-byte rows, 8-way.
//   stage_ldsm_128b: the same kernel written for the tile as a TMA copy writes it with
//                    CU_TENSOR_MAP_SWIZZLE_128B (16-byte chunk c of row r at c ^ (r % 8)): what
//                    advise's proposal predicts, analysed as code.
//   tma_ldsm:        the tile written by cp.async.bulk.tensor from a tensor map the host builds:
//                    `analyze` has no map, so advise must say it cannot re-analyse the reads.
#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

template <bool SWZ>
__device__ __forceinline__ unsigned chunk_of(unsigned row, unsigned chunk)
{
    return SWZ ? chunk ^ (row % 8) : chunk;
}

template <bool SWZ>
__device__ void stage_and_read(const uint4 *g, unsigned *out)
{
    __shared__ __align__(1024) half tile[64][64];
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    for (unsigned i = tid; i < 64 * 8; i += blockDim.x) { // 8 chunks of 16 bytes a row
        unsigned row = i / 8, chunk = i % 8;
        *(uint4 *)&tile[row][chunk_of<SWZ>(row, chunk) * 8] = g[i];
    }
    __syncthreads();
    unsigned acc = 0;
    for (unsigned k = 0; k < 4; k++) {
        unsigned row = warp * 16 + lane % 16, chunk = k * 2 + lane / 16, r[4];
        unsigned a = (unsigned)__cvta_generic_to_shared(&tile[row][chunk_of<SWZ>(row, chunk) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a));
        acc += r[0] ^ r[1] ^ r[2] ^ r[3];
    }
    out[tid] = acc;
}

__global__ void stage_ldsm(const uint4 *g, unsigned *out) { stage_and_read<false>(g, out); }
__global__ void stage_ldsm_128b(const uint4 *g, unsigned *out) { stage_and_read<true>(g, out); }

__global__ void tma_ldsm(const __grid_constant__ CUtensorMap map, unsigned *out)
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
    unsigned acc = 0;
    for (unsigned k = 0; k < 4; k++) {
        unsigned row = warp * 16 + lane % 16, chunk = k * 2 + lane / 16, r[4];
        unsigned a = (unsigned)__cvta_generic_to_shared(&tile[row][chunk * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a));
        acc += r[0] ^ r[1] ^ r[2] ^ r[3];
    }
    out[tid] = acc;
}
