// The documents' square (block 32x32, int tile[32][32]): row write, column read. advise's tests:
// best pad 1, and the classic swizzle tile[r][c ^ r].
#define BDIMX 32
#define BDIMY 32

__global__ void setRowReadCol(int* out) {
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}
