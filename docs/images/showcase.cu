// showcase.cu: the input of docs/images/analyze-html.png, a page of `smemlab analyze --html`:
//   smemlab analyze docs/images/showcase.cu --block 32,8 --html analyze.html
// A transpose without padding, a float4 copy with a stride, a histogram of shared atomics and a
// reversal that forgot its barrier.
#define TILE 32

extern "C" __global__ void transpose(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    unsigned x = threadIdx.x, y = threadIdx.y;
    for (unsigned j = 0; j < TILE; j += 8)
        tile[y + j][x] = in[(y + j) * TILE + x];
    __syncthreads();
    for (unsigned j = 0; j < TILE; j += 8)
        out[(y + j) * TILE + x] = tile[x][y + j];
}

extern "C" __global__ void stride2(const float4 *in, float4 *out)
{
    __shared__ float4 v[512];
    unsigned t = threadIdx.y * 32 + threadIdx.x;
    v[t] = in[t];
    v[t + 256] = in[t + 256];
    __syncthreads();
    out[t] = v[(t * 2) % 512];
}

extern "C" __global__ void histogram(const unsigned *in, unsigned *out)
{
    __shared__ unsigned bins[64];
    unsigned t = threadIdx.y * 32 + threadIdx.x;
    if (t < 64)
        bins[t] = 0;
    __syncthreads();
    atomicAdd(&bins[(t * 4) % 64], 1u);
    __syncthreads();
    if (t < 64)
        out[t] = bins[t];
}

extern "C" __global__ void reverse(int *d)
{
    __shared__ int s[256];
    unsigned t = threadIdx.y * 32 + threadIdx.x;
    s[t] = d[t];
    d[t] = s[255 - t];
}
