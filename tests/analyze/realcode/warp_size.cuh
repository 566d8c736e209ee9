// A header holding a kernel (compiled as CUDA) that uses warpSize, which nvcc writes as the PTX
// built-in constant WARP_SZ.
__global__ void lanes(float *out)
{
    __shared__ float s[64];
    int lane = threadIdx.x % warpSize;
    s[lane * 2] = 1.0f;
    __syncwarp();
    out[threadIdx.x] = s[(lane + 1) % warpSize];
}
