// globalrace.cu: planted races on global memory for smemlab run --global-races (docs/run.md,
// "Races on global memory"), one race per mode, and clean controls that order the same accesses
// by a barrier, atomics, a fence and a flag, release / acquire, or a kernel boundary.
// compute-sanitizer's racecheck covers shared memory only: its verdict on the H200
// (tests/run/h200-globalrace.txt) is "no hazard" for every mode; the program's results there
// show the clean controls' orders hold on a GPU. Build with -g and -lineinfo. Modes:
//   rw_block   thread t writes p[t], thread t+32 of the block reads it, no barrier (race)
//   sync_block the same with __syncthreads between (clean)
//   ww_grid    every block writes out[0] (race)
//   rw_grid    block 0 writes p[i], block 1 reads it (race)
//   atomic     every thread atomicAdd(out) (clean)
//   flag       block 0 writes data, __threadfence, a volatile flag; block 1 waits on the flag,
//              __threadfence, reads (clean)
//   acqrel     the same with st.release.gpu / ld.acquire.gpu (clean)
//   two_kernels  one kernel writes, the next reads (clean)
//   last_block every block writes its partial sum, __threadfence, atomicInc of a counter; the last
//              block to count reads them all (the programming guide's pattern: clean)
//   flag_nofence  the flag without the writer's __threadfence (race on the data)
//   flag_cta   the writer's fence is __threadfence_block, of the block's scope only (race)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void rw_block(int *p, int *out, int sync)
{
    int t = threadIdx.x;
    p[t] = t + 1; // WRITE
    if (sync)
        __syncthreads();
    out[t] = p[(t + 32) % 64]; // READ
}

__global__ void ww_grid(int *out)
{
    if (threadIdx.x == 0)
        out[0] = blockIdx.x; // WRITE by every block
}

__global__ void rw_grid(int *p, int *out)
{
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        p[t] = t + 1; // WRITE block 0
    else
        out[t] = p[t]; // READ block 1
}

__global__ void count(int *out)
{
    atomicAdd(out, 1);
}

__global__ void flag(int *data, volatile int *ready, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        __threadfence();
        *ready = 1;
    } else {
        long spins = 0;
        while (*ready == 0 && ++spins < (1L << 26))
            ;
        __threadfence();
        out[0] = spins < (1L << 26) ? data[0] : -1;
    }
}

__global__ void acqrel(int *data, int *ready, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 43;
        asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(ready), "r"(1) : "memory");
    } else {
        int r = 0;
        long spins = 0;
        do
            asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(ready) : "memory");
        while (r == 0 && ++spins < (1L << 26));
        out[0] = r ? data[0] : -1;
    }
}

__global__ void fill(int *p)
{
    p[threadIdx.x] = threadIdx.x + 1;
}

__global__ void readback(const int *p, int *out)
{
    out[threadIdx.x] = p[63 - threadIdx.x];
}

__global__ void last_block(int *partial, unsigned *count, int *out)
{
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = blockIdx.x + 1; // WRITE partial
        __threadfence();
        last = atomicInc(count, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            sum += partial[b]; // READ partials
        out[0] = sum;
    }
}

__global__ void flag_weak(int *data, volatile int *ready, int *out, int cta)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 44; // WRITE data
        if (cta)
            __threadfence_block();
        *ready = 1;
    } else {
        long spins = 0;
        while (*ready == 0 && ++spins < (1L << 26))
            ;
        __threadfence();
        out[0] = spins < (1L << 26) ? data[0] : -1; // READ data
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "sync_block";
    int *p = nullptr, *out = nullptr, *ready = nullptr, h[64];
    cudaMalloc(&p, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMalloc(&ready, sizeof(int));
    cudaMemset(p, 0, 64 * sizeof(int));
    cudaMemset(out, 0, 64 * sizeof(int));
    cudaMemset(ready, 0, sizeof(int));
    if (!strcmp(mode, "rw_block") || !strcmp(mode, "sync_block"))
        rw_block<<<1, 64>>>(p, out, !strcmp(mode, "sync_block"));
    else if (!strcmp(mode, "ww_grid"))
        ww_grid<<<4, 32>>>(out);
    else if (!strcmp(mode, "rw_grid"))
        rw_grid<<<2, 32>>>(p, out);
    else if (!strcmp(mode, "atomic"))
        count<<<4, 64>>>(out);
    else if (!strcmp(mode, "flag"))
        flag<<<2, 32>>>(p, ready, out);
    else if (!strcmp(mode, "acqrel"))
        acqrel<<<2, 32>>>(p, ready, out);
    else if (!strcmp(mode, "two_kernels")) {
        fill<<<1, 64>>>(p);
        readback<<<1, 64>>>(p, out);
    } else if (!strcmp(mode, "last_block")) {
        last_block<<<8, 32>>>(p, (unsigned *)ready, out);
    } else if (!strcmp(mode, "flag_nofence") || !strcmp(mode, "flag_cta")) {
        flag_weak<<<2, 32>>>(p, ready, out, !strcmp(mode, "flag_cta"));
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s: %s out[0]=%d out[1]=%d out[32]=%d\n", mode, cudaGetErrorName(e), h[0], h[1], h[32]);
    cudaFree(p);
    cudaFree(out);
    cudaFree(ready);
    return 0;
}
