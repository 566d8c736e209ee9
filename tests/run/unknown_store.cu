// unknown_store.cu: half a warp stores a value computed from shared memory nobody wrote. On a GPU
// those lanes store whatever the shared memory held; the emulator has no such value, so it writes
// the bits it has and reports the store (memory error "store of a value the emulator does not
// know", line 14, 16 times), never silently.
#include <cstdio>
__global__ void k(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 16)
        s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    // lanes 16-31 read shared memory nobody wrote
    int v = s[threadIdx.x] + 1;
    out[threadIdx.x] = v;
}
int main()
{
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    k<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("unknown_store %d\n", h[0]);
    return 0;
}
