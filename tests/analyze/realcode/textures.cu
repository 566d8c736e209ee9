// Texture and surface instructions parse; a fetched value is data the analysis cannot know.
__global__ void fetch_to_smem(cudaTextureObject_t t, float *out)
{
    __shared__ float s[256];
    s[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);  // the value is unknown, the address is not
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 2) % 256];
}

__global__ void fetch_index(cudaTextureObject_t t, float *out)
{
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    int i = tex1Dfetch<int>(t, threadIdx.x);             // an index read from a texture
    out[threadIdx.x] = s[i & 255];
}

__global__ void surface_store(cudaSurfaceObject_t sf)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    surf2Dwrite(s[63 - threadIdx.x], sf, threadIdx.x * 4, 0);
}
