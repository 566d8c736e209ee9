// wgmma_bad.cu: wgmma.mma_async where the emulator must stop with a located message (tests/test_wgmma.c):
//   short   a block of 96 threads: warps 0..2 have no 4th warp to make a warpgroup with
//   skip    warp 3 of the warpgroup does not reach the wgmma its three others wait at
//   b1      the b1 form (.m64n8k256 .and.popc), which the emulator does not model
//   race    a thread of warp 1 writes into the tile after the barrier, before the wgmma reads it
//           (a race: --fail-on-hazard); norace: the same write before the barrier
// Not run on a GPU (each but norace is a program error there, or a form not emulated).
#include <cstdint>
#include <cstdio>
#include <cstring>

__global__ void wg(int mode, float *out)
{
    __shared__ alignas(1024) uint8_t sm[4096];
    uint32_t base = (uint32_t)__cvta_generic_to_shared(sm);
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        sm[i] = 0;
    if (mode == 4 && threadIdx.x == 44) // the thread that zeroed it
        sm[300] = 1;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (mode == 3 && threadIdx.x == 44) {
        sm[300] = 1; // row 10, k 6 of A and of B (no swizzle, K-major, LBO 128, SBO 256)
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    uint64_t d = (uint64_t)(base >> 4) | (uint64_t)(128 >> 4) << 16 | (uint64_t)(256 >> 4) << 32;
    float c[4] = {0, 0, 0, 0};
    if (mode == 2) {
        uint32_t r[4] = {0, 0, 0, 0};
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%0, %1, %2, %3}, %4, %4, 0;"
                     : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "l"(d));
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        c[0] = (float)r[0];
    } else if (mode != 1 || threadIdx.x / 32 != 3) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %4, 0, 1, 1, 0, 0;"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "l"(d));
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
    out[threadIdx.x] = c[0] + c[1] + c[2] + c[3];
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "";
    int mode = !strcmp(m, "short") ? 0 : !strcmp(m, "skip") ? 1 : !strcmp(m, "b1") ? 2
             : !strcmp(m, "race") ? 3 : !strcmp(m, "norace") ? 4 : -1;
    if (mode < 0) {
        printf("usage: wgmma_bad short|skip|b1|race|norace\n");
        return 2;
    }
    float *out;
    cudaMalloc(&out, 128 * sizeof(float));
    wg<<<1, mode == 0 ? 96 : 128>>>(mode, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
