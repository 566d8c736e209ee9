// square.cu: the documents' square tile (seeds 000, 003, 004; EXPERIMENTS rows 1-3): a 32x32 block
// writes its thread index into a 32x32 int tile in shared memory, syncs, and reads it back in row or
// column order. Launch: grid 1 (or many), block 32x32; the Dyn kernels take the tile as dynamic shared
// memory (4096 bytes; 4224 with the pad). Each block writes its own 1024 ints of out, so the same
// kernel can be counted on one block (as the documents did) and on thousands.

#define BDIMX 32
#define BDIMY 32
#define IPAD 1

// Row-major store, row-major read: lanes of a warp touch 32 consecutive words. 1 wavefront a request.
extern "C" __global__ void setRowReadRow(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.y][threadIdx.x];
}

// Column-major store and read: the lanes walk down a column, 32 words apart, all in one bank:
// 32-way conflicts on both the store and the load.
extern "C" __global__ void setColReadCol(int *out)
{
    __shared__ int tile[BDIMX][BDIMY];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.x][threadIdx.y] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

// The transpose: row-major store (free), column-major read (32-way conflict on the load only).
extern "C" __global__ void setRowReadCol(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

// The same transpose on a dynamic tile (launch's third argument = 4096 bytes): the index is
// computed by hand (row_idx, col_idx) and the cost is the same as the static tile's.
extern "C" __global__ void setRowReadColDyn(int *out)
{
    extern __shared__ int dtile[];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
    dtile[row_idx] = row_idx;
    __syncthreads();
    out[row_idx] = dtile[col_idx];
}

// One padding word per row: a column's words now step through the 32 banks. Conflict-free.
extern "C" __global__ void setRowReadColPad(int *out)
{
    __shared__ int tile[BDIMY][BDIMX + IPAD];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

// The padded dynamic tile (4224 bytes): three indices, the padded row and column positions in
// shared memory and the unpadded one in global memory. Conflict-free.
extern "C" __global__ void setRowReadColDynPad(int *out)
{
    extern __shared__ int dtile[];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int row_idx = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;
    unsigned int col_idx = threadIdx.x * (blockDim.x + IPAD) + threadIdx.y;
    unsigned int g_idx = threadIdx.y * blockDim.x + threadIdx.x;
    dtile[row_idx] = g_idx;
    __syncthreads();
    out[g_idx] = dtile[col_idx];
}
