// oob.cu: shared accesses outside the block's allocation (static + dynamic).
// Expected: oobStaticFar oob, oobStaticOne oob, oobDynamic oob (with --dyn-smem 128 and 64 threads),
// dynamicFits none (same kernel code, --dyn-smem 256), intoNextArray none (it stays inside the
// allocation: by address alone it is a valid access to the next array).
// smemlab analyze oob.cu --kernel oobDynamic --block 64 --dyn-smem 128

// Lanes 16-31 write past the end of s (up to 124 bytes past it).
__global__ void oobStaticFar(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x * 2] = threadIdx.x; // @oob-far
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// Lane 31 writes the one int just past the end of s.
__global__ void oobStaticOne(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x + 1] = threadIdx.x; // @oob-one
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// Every thread stores one float in the dynamic allocation: it needs blockDim.x * 4 bytes.
__global__ void oobDynamic(float *out)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = 1.0f; // @oob-dyn
    __syncthreads();
    out[threadIdx.x] = dyn[threadIdx.x];
}

// a[threadIdx.x + 32] is b[threadIdx.x]: wrong, but inside the allocation.
__global__ void intoNextArray(int *out)
{
    __shared__ int a[32];
    __shared__ int b[32];
    a[threadIdx.x + 32] = threadIdx.x; // @oob-next
    __syncthreads();
    out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *out = hz_buffer(64);
    HZ_RUN("oobStaticFar", oobStaticFar, 1, 32, 0, out);
    HZ_RUN("oobStaticOne", oobStaticOne, 1, 32, 0, out);
    HZ_RUN("oobDynamic", oobDynamic, 1, 64, 128, (float *)out);
    HZ_RUN("dynamicFits", oobDynamic, 1, 64, 256, (float *)out);
    HZ_RUN("intoNextArray", intoNextArray, 1, 32, 0, out);
    return 2;
}
#endif
