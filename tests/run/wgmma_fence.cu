// wgmma_fence.cu: the proxy-fence check (docs/analyzer.md): wgmma reads shared memory through the
// async proxy, so a generic-proxy write of its operands (st.shared, cp.async) must be followed by
// fence.proxy.async of the writing thread before the barrier that orders it to the wgmma.
//   fenced      every thread zeroes the tile, fence.proxy.async, barrier, wgmma: clean
//   nofence     the same without the fence: a proxy-fence hazard (the wgmma's line, the store's)
//   late        thread 44 stores one byte of the tile after its fence (then the barrier): a hazard
//   global      the fence is fence.proxy.async.global, which does not order shared memory: a hazard
//   cpasync     cp.async fills the tile, wait_all, barrier, wgmma, no fence: a hazard (cp.async)
//   cpfenced    the same with fence.proxy.async after the wait: clean
// Each mode prints the sum of its accumulators (all zeros but where row 10, k 6 holds 1.0).
#include <cstdint>
#include <cstdio>
#include <cstring>

__global__ void wg(int mode, const uint8_t *src, float *out)
{
    __shared__ alignas(1024) uint8_t sm[4096];
    uint32_t base = (uint32_t)__cvta_generic_to_shared(sm);
    if (mode == 4 || mode == 5) {
        for (int i = threadIdx.x * 16; i < 4096; i += blockDim.x * 16)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(base + i), "l"(src + i) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
    } else {
        for (int i = threadIdx.x; i < 4096; i += blockDim.x)
            sm[i] = 0;
    }
    if (mode == 0 || mode == 2 || mode == 5)
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (mode == 3)
        asm volatile("fence.proxy.async.global;" ::: "memory");
    if (mode == 2 && threadIdx.x == 44)
        sm[300] = 1; // row 10, k 6 of A and of B (no swizzle, K-major, LBO 128, SBO 256)
    __syncthreads();
    uint64_t d = (uint64_t)(base >> 4) | (uint64_t)(128 >> 4) << 16 | (uint64_t)(256 >> 4) << 32;
    float c[4] = {0, 0, 0, 0};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %4, 0, 1, 1, 0, 0;"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "l"(d));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    out[threadIdx.x] = c[0] + c[1] + c[2] + c[3];
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"fenced", "nofence", "late", "global", "cpasync", "cpfenced"};
    const char *m = argc > 1 ? argv[1] : "";
    int mode = -1;
    for (int i = 0; i < 6; i++)
        if (!strcmp(m, modes[i]))
            mode = i;
    if (mode < 0) {
        printf("usage: wgmma_fence fenced|nofence|late|global|cpasync|cpfenced\n");
        return 2;
    }
    uint8_t *src;
    float *out, h[128];
    cudaMalloc(&src, 4096);
    cudaMemset(src, 0, 4096);
    cudaMalloc(&out, 128 * sizeof(float));
    wg<<<1, 128>>>(mode, src, out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    float s = 0;
    for (int i = 0; i < 128; i++)
        s += h[i];
    printf("%s sum %g: %s\n", m, s, cudaGetErrorString(e));
    return e != cudaSuccess;
}
