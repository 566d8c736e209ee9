// atomic64.cu: shared-memory atomics beyond f32/f64 add that ptxas may make a compare-and-swap
// loop on sm_90 (LDS + ATOMS.CAST.SPIN a round): 64-bit integer add, min, max, and, or, xor;
// f16, f16x2 and bf16x2 add; and, for comparison, 64-bit exchange and CAS and 32-bit min (native
// ATOMS). One warp a kernel, R rounds of one atomic a lane; every result checked on the host.
// The H100's counts: tests/run/h100-atomic64.csv (tests/test_run.c). argv[1]: "all" (default:
// every kernel, as measured) or "modelled" (those smemlab counts as the H100: not min64 / max64,
// whose loop ends early where the word already holds the result, nor the scalar f16 add, a
// generic ATOM of another form).
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
typedef unsigned long long u64;
#define R 4

__global__ void add64(u64 *o) // four lanes a word
{
    __shared__ u64 s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicAdd(&s[threadIdx.x / 4], 1ull);
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void add64One(u64 *o) // every lane one word
{
    __shared__ u64 s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicAdd(&s[0], 1ull);
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void add64Distinct(u64 *o) // every lane its own word (2 banks a word)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicAdd(&s[threadIdx.x], 1ull);
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void min64(u64 *o)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = ~0ull;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicMin(&s[threadIdx.x / 4], (u64)(100 + threadIdx.x + i));
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void max64(u64 *o)
{
    __shared__ long long s[64];
    s[threadIdx.x] = -1000;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicMax(&s[threadIdx.x / 4], (long long)(threadIdx.x + i));
    __syncwarp();
    o[threadIdx.x] = (u64)s[threadIdx.x];
}
__global__ void and64(u64 *o)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = ~0ull;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicAnd(&s[threadIdx.x / 4], ~(1ull << (threadIdx.x % 4 * R + i)));
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void or64(u64 *o)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicOr(&s[threadIdx.x / 4], 1ull << (threadIdx.x % 4 * R + i));
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void xor64(u64 *o)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicXor(&s[threadIdx.x / 4], 1ull << (threadIdx.x % 4 * R + i));
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void exch64(u64 *o)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicExch(&s[threadIdx.x / 4], (u64)(threadIdx.x / 4 * 10 + 1));
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void cas64(u64 *o)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = 0;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicCAS(&s[threadIdx.x], (u64)i, (u64)i + 1);
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}
__global__ void min32(u64 *o)
{
    __shared__ int s[64];
    s[threadIdx.x] = 1 << 30;
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicMin(&s[threadIdx.x / 4], (int)(100 + threadIdx.x + i));
    __syncwarp();
    o[threadIdx.x] = (u64)s[threadIdx.x];
}
__global__ void half1(u64 *o)
{
    __shared__ __half s[64];
    s[threadIdx.x] = __float2half(0.0f);
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicAdd(&s[threadIdx.x / 4], __float2half(1.0f));
    __syncwarp();
    o[threadIdx.x] = (u64)__half2float(s[threadIdx.x]);
}
__global__ void half2add(u64 *o)
{
    __shared__ __half2 s[64];
    s[threadIdx.x] = __floats2half2_rn(0.0f, 0.0f);
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicAdd(&s[threadIdx.x / 4], __floats2half2_rn(1.0f, 2.0f));
    __syncwarp();
    o[threadIdx.x] = (u64)__high2float(s[threadIdx.x]);
}
__global__ void bf162add(u64 *o)
{
    __shared__ __nv_bfloat162 s[64];
    s[threadIdx.x] = __floats2bfloat162_rn(0.0f, 0.0f);
    __syncwarp();
    for (int i = 0; i < R; i++)
        atomicAdd(&s[threadIdx.x / 4], __floats2bfloat162_rn(1.0f, 2.0f));
    __syncwarp();
    o[threadIdx.x] = (u64)__high2float(s[threadIdx.x]);
}

int main(int argc, char **argv)
{
    int all = argc < 2 || strcmp(argv[1], "modelled") != 0;
    u64 *o, h[32];
    cudaMalloc(&o, sizeof h);
    int bad = 0;
#define CASE(k, want)                                                                          \
    k<<<1, 32>>>(o);                                                                           \
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);                                        \
    if (h[0] != (u64)(want)) {                                                                 \
        printf(#k ": %llu, expected %llu\n", h[0], (u64)(want));                               \
        bad++;                                                                                 \
    }
    CASE(add64, 4 * R)
    CASE(add64One, 32 * R)
    CASE(add64Distinct, R)
    if (all) {
        CASE(min64, 100)
        CASE(max64, 3 + R - 1)
    }
    CASE(and64, ~0ull << (4 * R))
    CASE(or64, (1ull << (4 * R)) - 1)
    CASE(xor64, (1ull << (4 * R)) - 1)
    CASE(exch64, 1)
    CASE(cas64, R)
    CASE(min32, 100)
    if (all) {
        CASE(half1, 4 * R)
    }
    CASE(half2add, 8 * R)
    CASE(bf162add, 8 * R)
    printf("atomic64 %s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
