// Tiles of odd shapes for advise's all-pads test: each kernel's `tile` is padded by every p in
// 0..32, compiled and analysed, and the prediction must match. Launch each with the block named.
#define TH 32
constexpr int TW = 48;
enum { ROWS24 = 16, COLS24 = 24 };

// float tile[32][48], block 32x32: row write, column read (stride 48 floats: 16-way).
__global__ void col48(float* out) {
    __shared__ float tile[TH][TW];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = tx;
    if (tx < TW - 32) tile[ty][32 + tx] = ty;
    __syncthreads();
    out[ty * 32 + tx] = tile[tx][ty] + tile[tx][ty + 16];
}

// double tile[32][32], block 32x32: 8-byte accesses, row write, column read.
__global__ void dbl(double* out) {
    __shared__ double tile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = tx;
    __syncthreads();
    out[ty * 32 + tx] = tile[tx][ty];
}

// int tile[64][32], block 32x32: loads pull two ways (strides C+p and 2(C+p)); no pad makes both
// conflict-free.
__global__ void pull(int* out) {
    __shared__ int tile[64][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = tx;
    tile[ty + 32][tx] = ty;
    __syncthreads();
    out[ty * 32 + tx] = tile[tx][ty] + tile[2 * tx][ty];
}

// short tile[32][32], block 32x32: 2-byte elements read by column.
__global__ void shorts(short* out) {
    __shared__ short tile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = (short)tx;
    __syncthreads();
    out[ty * 32 + tx] = tile[tx][ty];
}

// int tile[16][24], block 24x16: a row that is not a power of two, read by column.
__global__ void rect24(int* out) {
    __shared__ int tile[ROWS24][COLS24];
    unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[idx % ROWS24][idx / ROWS24];
}

// 16-byte aligned float tile[32][32], block 32x8: four consecutive floats of a row per thread.
// The compiler makes them one 16-byte load only when a row start is 16-byte aligned, so pads of
// another alignment compile to other instructions.
__global__ void vec(float* out) {
    __shared__ __align__(16) float tile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int i = ty; i < 32; i += 8) tile[i][tx] = i * 32 + tx;
    __syncthreads();
    float s = 0;
#pragma unroll
    for (int j = 0; j < 4; j++) s += tile[tx][4 * ty + j];
    out[ty * 32 + tx] = s;
}
