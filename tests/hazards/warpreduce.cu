// warpreduce.cu: the "unrolled last warp" reduction on volatile shared memory. The textbook version
// has no __syncwarp(): since Volta the lanes of a warp are not in lockstep, so lane 0 may read
// s[16] before or after lane 16 has written it (a race). __syncwarp() between each read and each
// write orders them. Putting one __syncwarp() after each `s[tid] += s[tid + k]` is not enough: in
// one statement lane t reads s[t + k] while lane t + k writes it.
// Expected: reduceWarpNoSync race, reduceWarpHalfSync race, reduceWarpSync none.
// smemlab analyze warpreduce.cu --kernel reduceWarpNoSync --block 256
#define BLOCK 256

__device__ void warpReduceNoSync(volatile int *s, int tid)
{
    s[tid] += s[tid + 32]; // @wr-32
    s[tid] += s[tid + 16]; // @wr-16
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__device__ void warpReduceHalfSync(volatile int *s, int tid)
{
    s[tid] += s[tid + 32]; __syncwarp();
    s[tid] += s[tid + 16]; __syncwarp();
    s[tid] += s[tid + 8];  __syncwarp();
    s[tid] += s[tid + 4];  __syncwarp();
    s[tid] += s[tid + 2];  __syncwarp();
    s[tid] += s[tid + 1];  __syncwarp();
}

__device__ void warpReduceSync(volatile int *s, int tid)
{
    int v = s[tid];
    v += s[tid + 32]; __syncwarp(); s[tid] = v; __syncwarp();
    v += s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp();
    v += s[tid + 8];  __syncwarp(); s[tid] = v; __syncwarp();
    v += s[tid + 4];  __syncwarp(); s[tid] = v; __syncwarp();
    v += s[tid + 2];  __syncwarp(); s[tid] = v; __syncwarp();
    v += s[tid + 1];  __syncwarp(); s[tid] = v;
}

// Loads the block's inputs and reduces them to s[0..63] with barriers between the steps.
__device__ int toLastWarp(int *s, const int *in)
{
    int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (int st = BLOCK / 2; st > 32; st >>= 1) {
        if (tid < st)
            s[tid] += s[tid + st];
        __syncthreads();
    }
    return tid;
}

__global__ void reduceWarpNoSync(const int *in, int *out)
{
    __shared__ int s[BLOCK];
    int tid = toLastWarp(s, in);
    if (tid < 32)
        warpReduceNoSync(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__global__ void reduceWarpHalfSync(const int *in, int *out)
{
    __shared__ int s[BLOCK];
    int tid = toLastWarp(s, in);
    if (tid < 32)
        warpReduceHalfSync(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__global__ void reduceWarpSync(const int *in, int *out)
{
    __shared__ int s[BLOCK];
    int tid = toLastWarp(s, in);
    if (tid < 32)
        warpReduceSync(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *in = hz_buffer(4 * BLOCK), *out = hz_buffer(4);
    HZ_RUN("reduceWarpNoSync", reduceWarpNoSync, 4, BLOCK, 0, in, out);
    HZ_RUN("reduceWarpHalfSync", reduceWarpHalfSync, 4, BLOCK, 0, in, out);
    HZ_RUN("reduceWarpSync", reduceWarpSync, 4, BLOCK, 0, in, out);
    return 2;
}
#endif
