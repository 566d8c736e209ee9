// Accesses written in inlined helpers (llm.c's ld_vec / st_vec style): each is reported at the
// kernel's own line that calls the helper, with the chain of helper lines.
__device__ __forceinline__ float4 ld_vec(const float *a) { return *reinterpret_cast<const float4 *>(a); }
__device__ __forceinline__ float4 twice(const float *a)
{
    float4 v = ld_vec(a);
    v.x *= 2;
    return v;
}
__global__ void gemm_like(float4 *out)
{
    __shared__ __align__(16) float s[512];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = twice(&s[threadIdx.x * 4]);
    out[threadIdx.x + 64] = ld_vec(&s[(threadIdx.x * 8) % 512]);
}
