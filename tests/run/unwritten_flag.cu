// unwritten_flag.cu: a flag computed from a register that is written only in range, as CUB's
// select/partition sweep computes its last tile's flags ("compare the item, or out of range"):
// NVVM makes `setp.gt %p1, item, pivot; setp.ge %p2, i, n; or.pred %p3, %p1, %p2; selp 1, 0, %p3`,
// whose result does not depend on the unwritten item past the end. The H100 gives 1 there.
#include <cstdio>
__global__ void flags(const int *in, int *out, int n, int pivot)
{
    int x;
    if (threadIdx.x < n)
        x = in[threadIdx.x];
    int f = 1;
    if (threadIdx.x < n)
        f = x > pivot;
    out[threadIdx.x] = f;
}
int main()
{
    const int n = 16, pivot = 5;
    int h[32], *din, *dout, r[32];
    for (int i = 0; i < 32; i++)
        h[i] = (i * 7) % 11;
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dout, sizeof r);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    flags<<<1, 32>>>(din, dout, n, pivot);
    cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += r[i] != (i < n ? h[i] > pivot : 1);
    printf("unwritten_flag %s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
