// fatomic.cu: shared-memory atomics that ptxas makes a compare-and-swap loop on sm_90 (an LDS and
// an ATOMS.CAST.SPIN a round, until every lane's swap succeeded), beside the native ones
// (tests/test_run.c; the H100's counts: tests/run/h100-fatomic.csv). One kernel per case; every
// case checks its sums on the host. argv[1]: "all" (default).
#include <cstdio>

__global__ void fDistinct(float *out, int reps) // one warp, every lane its own word
{
    __shared__ float s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int r = 0; r < reps; r++)
        atomicAdd(&s[threadIdx.x], 1.0f);
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void fPairs(float *out, int reps) // one warp, two lanes a word
{
    __shared__ float s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int r = 0; r < reps; r++)
        atomicAdd(&s[threadIdx.x / 2], 1.0f);
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void fOne(float *out, int reps) // one warp, every lane one word
{
    __shared__ float s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int r = 0; r < reps; r++)
        atomicAdd(&s[0], 1.0f);
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void fStride(float *out, int reps) // one warp, 32 words 2 words apart: 2-way banks
{
    __shared__ float s[64];
    s[threadIdx.x] = 0;
    s[threadIdx.x + 32] = 0;
    __syncwarp();
    for (int r = 0; r < reps; r++)
        atomicAdd(&s[(threadIdx.x * 2) % 64], 1.0f);
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x * 2 % 64];
}

__global__ void fHalf(float *out, int reps) // half the lanes active
{
    __shared__ float s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    if (threadIdx.x & 1)
        for (int r = 0; r < reps; r++)
            atomicAdd(&s[threadIdx.x / 4], 1.0f);
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void iOne(float *out, int reps) // integers: a native ATOMS.ADD
{
    __shared__ int s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int r = 0; r < reps; r++)
        atomicAdd(&s[0], 1);
    __syncwarp();
    out[threadIdx.x] = (float)s[threadIdx.x];
}

__global__ void dDistinct(double *out, int reps) // f64, four lanes a word
{
    __shared__ double s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int r = 0; r < reps; r++)
        atomicAdd(&s[threadIdx.x / 4], 1.0);
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void fWarps(float *out, int reps) // 4 warps on the same 32 words: they contend
{
    __shared__ float s[64];
    if (threadIdx.x < 64)
        s[threadIdx.x] = 0;
    __syncthreads();
    for (int r = 0; r < reps; r++)
        atomicAdd(&s[threadIdx.x % 32], 1.0f);
    __syncthreads();
    if (threadIdx.x < 32)
        out[threadIdx.x] = s[threadIdx.x];
}

int main()
{
    float *o, h[128];
    double *od, hd[128];
    cudaMalloc(&o, sizeof h);
    cudaMalloc(&od, sizeof hd);
    int bad = 0;
    const int R = 4;
#define CASE(k, n, want)                                                                       \
    k<<<1, n>>>(o, R);                                                                         \
    cudaMemcpy(h, o, sizeof(float) * 32, cudaMemcpyDeviceToHost);                              \
    if (h[0] != (want)) {                                                                      \
        printf(#k ": %g, expected %g\n", h[0], (double)(want));                                \
        bad++;                                                                                 \
    }
    CASE(fDistinct, 32, R)
    CASE(fPairs, 32, 2 * R)
    CASE(fOne, 32, 32 * R)
    CASE(fStride, 32, R)
    CASE(fHalf, 32, 2 * R)
    CASE(iOne, 32, 32 * R)
    CASE(fWarps, 128, 4 * R)
    dDistinct<<<1, 32>>>(od, R);
    cudaMemcpy(hd, od, sizeof(double) * 32, cudaMemcpyDeviceToHost);
    if (hd[0] != 4.0 * R) {
        printf("dDistinct: %g\n", hd[0]);
        bad++;
    }
    printf("fatomic %s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
