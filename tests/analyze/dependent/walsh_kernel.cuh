// A header that is not self-contained: TILE and swz come from what walsh.cu includes first.
__global__ void walsh(float *x)
{
    __shared__ float s[TILE * 2];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[swz(threadIdx.x) * 2 % (TILE * 2)]; // even words: 2-way
}
