// One plain kernel and one template kernel nobody instantiates: the plain one is analysed, the
// template named on stderr.
template <int STRIDE>
__global__ void strided(float *x)
{
    __shared__ float s[32 * STRIDE];
    s[threadIdx.x * STRIDE] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[threadIdx.x];
}

__global__ void plain(float *x)
{
    __shared__ float s[32];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[31 - threadIdx.x];
}
