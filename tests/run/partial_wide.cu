// partial_wide.cu: a block of 17x2 threads reads a float4 per row from shared memory. Its warps
// hold 17 + 15 threads of two rows, so Nsight Compute's count of the 16-byte loads (3 wavefronts
// a warp) is below the ideal (4 passes): a request without any bank conflict.
#include <cstdio>
__global__ void rows(const float4 *in, float4 *out)
{
    __shared__ float4 tile[2];
    if (threadIdx.x == 0)
        tile[threadIdx.y] = in[threadIdx.y];
    __syncthreads();
    float4 v = tile[threadIdx.y];
    out[threadIdx.y * blockDim.x + threadIdx.x] = v;
}
int main()
{
    float4 h[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}}, r[34];
    float4 *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    rows<<<1, dim3(17, 2)>>>(in, out);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    int ok = 1;
    for (int i = 0; i < 34; i++)
        ok &= r[i].x == h[i / 17].x && r[i].w == h[i / 17].w;
    printf("partial_wide %s\n", ok ? "PASS" : "FAIL");
    cudaFree(in);
    cudaFree(out);
    return !ok;
}
