// recursion.cu: recursive device functions under `smemlab run` (tests/test_run.c runs it; the
// H100's counts of every launch are in tests/run/h100-recursion.csv). Each kernel checks its
// results on the host; the program prints PASS.
//   depth    lane t recurses t % 32 times, then loads s[0]: the lanes reach the load at different
//            depths (the H100 issues one load per depth: they are never in one call frame)
//   uniform  every lane recurses 5 times, loading before and storing after each call (the sum
//            it returns equals what it stored last): the lanes stay together, one request a level
//   fib      two recursive calls per activation, shared-memory memo reads at every call
//   bisect   a struct parameter, a pointer and doubles through 40 levels; no shared memory
#include <cstdio>
#include <cstdlib>

__device__ __noinline__ int depth(const float *s, int n)
{
    return n <= 0 ? (int)s[0] : depth(s, n - 1) + 1;
}

__device__ __noinline__ int climb(const int *s, int *t, int level, int tid)
{
    if (level == 0)
        return 0;
    int v = s[(tid * 3 + level) % 256];                 // before the call: 3-strided, clean
    int r = climb(s, t, level - 1, tid) + v;
    t[tid * 2 + level * 128] = r;                       // after it: 2-strided, 2-way
    return r;
}

__device__ __noinline__ int fib(const int *memo, int n)
{
    if (n < 2)
        return memo[n];
    return fib(memo, n - 1) + fib(memo, n - 2);
}

struct Range { double lo, hi; };

__device__ __noinline__ void bisect(Range x, int *count, double *acc, int d)
{
    if (x.hi - x.lo < 1e-3 || d > 40) {
        (*count)++;
        *acc += x.lo;
        return;
    }
    double m = 0.5 * (x.lo + x.hi);
    Range a = {x.lo, m}, b = {m, x.hi};
    if ((x.lo * x.lo - 2.0) * (m * m - 2.0) <= 0)
        bisect(a, count, acc, d + 1);
    if ((m * m - 2.0) * (x.hi * x.hi - 2.0) <= 0)
        bisect(b, count, acc, d + 1);
}

__global__ void k_depth(int *out)
{
    __shared__ float s[32];
    s[threadIdx.x % 32] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = depth(s, threadIdx.x % 32);
}

__global__ void k_uniform(int *out)
{
    __shared__ int s[256], t[6 * 128];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        s[i] = i;
    __syncthreads();
    out[threadIdx.x] = climb(s, t, 5, threadIdx.x);
    __syncthreads();
    out[threadIdx.x] -= t[threadIdx.x * 2 + 5 * 128];   // the outermost level's stored sum: 0
}

__global__ void k_fib(int *out)
{
    __shared__ int memo[2];
    if (threadIdx.x < 2)
        memo[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = fib(memo, threadIdx.x % 10);
}

__global__ void k_bisect(int *count, double *acc)
{
    Range x = {0.0, 2.0 + threadIdx.x};
    int c = 0;
    double a = 0;
    bisect(x, &c, &a, 0);
    count[threadIdx.x] = c;
    acc[threadIdx.x] = a;
}

int main()
{
    const int n = 64;
    int *d, h[n], bad = 0;
    double *da, ha[n];
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&da, n * sizeof(double));

    k_depth<<<1, n>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (h[i] != 1 + i % 32 && bad++ < 5)
            printf("depth %d: %d\n", i, h[i]);

    k_uniform<<<1, n>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (h[i] != 0 && bad++ < 5)
            printf("uniform %d: %d\n", i, h[i]);

    k_fib<<<1, n>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    const int f[10] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34};
    for (int i = 0; i < n; i++)
        if (h[i] != f[i % 10] && bad++ < 5)
            printf("fib %d: %d\n", i, h[i]);

    k_bisect<<<1, n>>>(d, da);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(ha, da, sizeof ha, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if ((h[i] < 1 || ha[i] / h[i] < 1.40 || ha[i] / h[i] > 1.42) && bad++ < 5)
            printf("bisect %d: %d roots, mean %f\n", i, h[i], ha[i] / h[i]);

    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 2;
    }
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
