// rect.cu: the documents' rectangular tile (seeds 000, 003, 004; EXPERIMENTS row 5): block 32x16,
// tile[16][32] ints. A warp's 32 threads span two 16-element columns of the transposed view, so the
// plain column read is 16-way; one padding word per row (IPAD 1) leaves 2-way, two (IPAD 2) none.
// Launch: grid 1 (or many), block 32x16; Dyn kernels: dynamic shared memory 2048 bytes,
// (32 + IPAD) x 16 x 4 with the pad. Each block writes its own 512 ints of out.

#define BDIMX 32
#define BDIMY 16

// Row-major store and read: conflict-free.
extern "C" __global__ void setRowReadRow(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.y][threadIdx.x];
}

// The book's second version: the row and column recomputed from the linear index (irow, icol over
// blockDim.x). The same addresses as setRowReadRow, so the same cost (extra: no H100 counterpart).
extern "C" __global__ void setRowReadRow2(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.x;
    unsigned int icol = idx % blockDim.x;
    tile[irow][icol] = idx;
    __syncthreads();
    out[idx] = tile[irow][icol];
}

// Column-major on a [32][16] tile: lanes are 16 words apart, two banks for 32 lanes: 16-way on the
// store and the load.
extern "C" __global__ void setColReadCol(int *out)
{
    __shared__ int tile[BDIMX][BDIMY];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.x][threadIdx.y] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

// The book's second version: column-major through the transposed coordinates on a [16][32] tile
// (tile[icol][irow], 32 words apart): 16-way on both (extra: no H100 counterpart).
extern "C" __global__ void setColReadCol2(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    tile[icol][irow] = idx;
    __syncthreads();
    out[idx] = tile[icol][irow];
}

// The transpose of the rectangle: row-major store, read at (icol, irow) of the linear index taken
// over blockDim.y. 16-way loads, free stores.
extern "C" __global__ void setRowReadCol(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[icol][irow];
}

// The same on a dynamic tile (2048 bytes), index computed by hand (col_idx). Same cost.
extern "C" __global__ void setRowReadColDyn(int *out)
{
    extern __shared__ int dtile[];
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    unsigned int col_idx = icol * blockDim.x + irow;
    dtile[idx] = idx;
    __syncthreads();
    out[idx] = dtile[col_idx];
}

// Static padding. A row of 32 + IPAD words: with IPAD 1 the two half-warps' columns land one bank
// apart and overlap (2-way); with IPAD 2 they interleave (conflict-free).
#define RECT_PAD(IPAD)                                                                             \
    extern "C" __global__ void setRowReadColPad##IPAD(int *out)                                    \
    {                                                                                              \
        __shared__ int tile[BDIMY][BDIMX + IPAD];                                                  \
        out += blockIdx.x * blockDim.x * blockDim.y;                                               \
        unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;                                 \
        unsigned int irow = idx / blockDim.y;                                                      \
        unsigned int icol = idx % blockDim.y;                                                      \
        tile[threadIdx.y][threadIdx.x] = idx;                                                      \
        __syncthreads();                                                                           \
        out[idx] = tile[icol][irow];                                                               \
    }

// Dynamic padding ((32 + IPAD) x 16 x 4 bytes): the three indices of seed 003, row_idx and col_idx
// in the padded tile, idx in global memory. Same costs as the static pads.
#define RECT_DYNPAD(IPAD)                                                                          \
    extern "C" __global__ void setRowReadColDynPad##IPAD(int *out)                                 \
    {                                                                                              \
        extern __shared__ int dtile[];                                                             \
        out += blockIdx.x * blockDim.x * blockDim.y;                                               \
        unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;                                 \
        unsigned int irow = idx / blockDim.y;                                                      \
        unsigned int icol = idx % blockDim.y;                                                      \
        unsigned int row_idx = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;                    \
        unsigned int col_idx = icol * (blockDim.x + IPAD) + irow;                                  \
        dtile[row_idx] = idx;                                                                      \
        __syncthreads();                                                                           \
        out[idx] = dtile[col_idx];                                                                 \
    }

RECT_PAD(1)
RECT_PAD(2)
RECT_DYNPAD(1)
RECT_DYNPAD(2)
