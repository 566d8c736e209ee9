// merge_calls.cu: which instructions keep ptxas from merging neighbouring shared loads into one
// LDS.128 (tests/test_run.c runs it under smemlab run; the H100's counts are
// tests/run/h100-merge-calls.csv). Each kernel loads s[k] in a loop unrolled by 4 and passes the
// value through one operation: IEEE f32/f64 division, square root and reciprocal and 64-bit
// integer division become calls of a slow-path subroutine in SASS, and the four loads stay four
// LDS (512 requests: 8 warps x 64); a multiplication, 32-bit division, expf keep one LDS.128
// (128 requests, 2 wavefronts each: a broadcast of 16 bytes); sinf's range reduction branches.
#include <cstdio>
#include <cstdint>
#define K(name, T, expr)                                                        \
    __global__ void name(const T *d, T *out, int n)                             \
    {                                                                           \
        __shared__ T s[256];                                                    \
        s[threadIdx.x] = (T)(1 + threadIdx.x);                                  \
        __syncthreads();                                                        \
        T dv = d[threadIdx.x], acc = 0;                                         \
        _Pragma("unroll 4") for (int k = 0; k < n; k++) { T v = s[k]; acc += (expr); } \
        out[threadIdx.x] = acc;                                                 \
    }
K(k_f32div, float, v / dv)
K(k_f32sqrt, float, sqrtf(v * dv))
K(k_f32rcp, float, 1.0f / (v + dv))
K(k_f32divfull, float, __fdiv_rn(v, dv))
K(k_f32plain, float, v * dv)
K(k_f64div, double, v / dv)
K(k_f64sqrt, double, sqrt(v * dv))
K(k_f64rcp, double, 1.0 / (v + dv))
K(k_u32div, uint32_t, v / dv)
K(k_u32rem, uint32_t, v % dv)
K(k_u64div, uint64_t, v / dv)
K(k_s64rem, int64_t, v % dv)
K(k_f32sinf, float, sinf(v * dv))
K(k_f32expf, float, expf(v * dv))
template <typename T> void go(void (*k)(const T *, T *, int))
{
    T h[256], *d, *o;
    for (int i = 0; i < 256; i++) h[i] = (T)(2 + i % 7);
    cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 256>>>(d, o, 64);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d); cudaFree(o);
}
int main()
{
    go<float>(k_f32div); go<float>(k_f32sqrt); go<float>(k_f32rcp); go<float>(k_f32divfull);
    go<float>(k_f32plain); go<double>(k_f64div); go<double>(k_f64sqrt); go<double>(k_f64rcp);
    go<uint32_t>(k_u32div); go<uint32_t>(k_u32rem); go<uint64_t>(k_u64div); go<int64_t>(k_s64rem);
    go<float>(k_f32sinf); go<float>(k_f32expf);
    printf("done\n");
    return 0;
}
