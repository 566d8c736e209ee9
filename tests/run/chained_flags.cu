// chained_flags.cu: blocks that wait for their predecessor's flag (ld.acquire.gpu / st.release.gpu),
// as CUB's decoupled look-back does (bench/programs/unseen5.txt's device scans and select sweeps).
// tests/test_run.c: such a kernel runs its blocks in order on one thread, so every block it waits
// for has run: the same thread-instructions under --jobs 2 as under --jobs 1, every run (they
// varied from run to run, as blocks spun on a flag another emulator thread had not yet written).
#include <cstdio>

__device__ unsigned load_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ void store_release(unsigned *p, unsigned v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// sums[b] = sums[b - 1] + the block's own sum (b + 1 for each of its threads, in shared memory)
__global__ void chained(unsigned *flags, unsigned *sums)
{
    __shared__ unsigned part[256];
    part[threadIdx.x] = blockIdx.x + 1;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        unsigned before = 0;
        if (blockIdx.x > 0) {
            while (load_acquire(&flags[blockIdx.x - 1]) == 0)
                ;
            before = sums[blockIdx.x - 1];
        }
        sums[blockIdx.x] = before + part[0];
        store_release(&flags[blockIdx.x], 1);
    }
}

int main()
{
    const unsigned n = 64;
    unsigned *flags, *sums, h[n];
    cudaMalloc(&flags, n * sizeof(unsigned));
    cudaMalloc(&sums, n * sizeof(unsigned));
    cudaMemset(flags, 0, n * sizeof(unsigned));
    chained<<<n, 256>>>(flags, sums);
    cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost);
    int ok = 1;
    for (unsigned b = 0; b < n; b++)
        ok &= h[b] == 256u * (b + 1) * (b + 2) / 2;
    printf("chained_flags %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
