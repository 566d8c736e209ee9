// shared_counter.cu: a shared counter set with atomicExch and counted up with atomicAdd while
// threads loop on it (cuda-samples' simpleAttributes does this): the exchange's value is known
// whatever the uninitialised shared word held, so the loop's branch can be followed.
#include <cstdio>

__global__ void count_to(unsigned *out, unsigned target)
{
    __shared__ unsigned hit;
    atomicExch(&hit, 0);
    __syncthreads();
    while (hit < target)
        atomicAdd(&hit, 1);
    __syncthreads();
    // each thread adds only after seeing hit < target: at most target - 1 + blockDim.x
    out[blockIdx.x * blockDim.x + threadIdx.x] = hit >= target && hit < target + blockDim.x;
}

int main()
{
    const unsigned blocks = 3, threads = 256, n = blocks * threads;
    unsigned *d, h[blocks * threads];
    cudaMalloc(&d, sizeof h);
    count_to<<<blocks, threads>>>(d, 1000);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    unsigned bad = 0;
    for (unsigned i = 0; i < n; i++)
        bad += h[i] != 1;
    printf("%s (%u bad)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
