// The documents' rectangle (block 32x16, int tile[16][32]): row write, column read, and the
// conflict-free row/row kernel. advise's tests: best pad 2 (pad 1 leaves the loads 2-way).
#define BDIMX 32
#define BDIMY 16

__global__ void setRowReadRow(int* out) {
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.y][threadIdx.x];
}

__global__ void setRowReadCol(int* out) {
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[icol][irow];
}

// The same through dynamic shared memory: advise needs --row 32 (an extern array has no rows).
__global__ void setRowReadColDyn(int* out) {
    extern __shared__ int dtile[];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    dtile[idx] = idx;
    __syncthreads();
    out[idx] = dtile[icol * blockDim.x + irow];
}
