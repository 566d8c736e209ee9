// grid_constant.cu: a __grid_constant__ parameter read through its address (cvta.param, then
// generic loads in a function that is not inlined), as CUTLASS reads its Params and a TMA its
// tensor map (tests/test_tma.c runs it under `smemlab run`). Prints ok when every thread read
// the value the host passed.
#include <cstdio>

struct P {
    int v[8];
};

__device__ __noinline__ int pick(const P *p, int i) { return p->v[i]; }

__global__ void k(const __grid_constant__ P p, int *out) { out[threadIdx.x] = pick(&p, threadIdx.x % 8); }

int main()
{
    P p;
    for (int i = 0; i < 8; i++)
        p.v[i] = i * 10;
    int *o, h[32];
    cudaMalloc(&o, sizeof h);
    k<<<1, 32>>>(p, o);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    int ok = 1;
    for (int i = 0; i < 32; i++)
        ok &= h[i] == (i % 8) * 10;
    printf("%s\n", ok ? "ok" : "wrong");
    return !ok;
}
