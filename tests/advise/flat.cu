// A tile indexed through a flat pointer with its own row length: padding the declaration moves
// nothing, so the layout's prediction fails its proof (the best pad compiled) and advise compiles
// every pad instead.
__global__ void flat(int* out) {
    __shared__ int tile[32][32];
    int* t = &tile[0][0];
    int tx = threadIdx.x, ty = threadIdx.y;
    t[ty * 32 + tx] = tx;
    __syncthreads();
    out[ty * 32 + tx] = t[tx * 32 + ty];
}
