// Kernels of one shared access each, for test_layout_same: `smemlab advise` on each must propose
// the layout `smemlab pattern --advise` proposes for the same access (the expression beside it).
// The tiles are read unwritten: the read is the only access to the array.
#include <cuda_fp16.h>

// tile[tx][ty], float[32][32], block 32x32: the square's column read
__global__ void square(float* out) {
    __shared__ float tile[32][32];
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// tile[(ty*32+tx)%16][(ty*32+tx)/16], int[16][32], block 32x16: the rectangle's setRowReadCol
__global__ void rect(int* out) {
    __shared__ int tile[16][32];
    unsigned idx = threadIdx.y * 32 + threadIdx.x;
    out[idx] = tile[idx % 16][idx / 16];
}

// tile[(ty*24+tx)%16][(ty*24+tx)/16], int[16][24], block 24x16: a row that is not a power of two
__global__ void rect24(int* out) {
    __shared__ int tile[16][24];
    unsigned idx = threadIdx.y * 24 + threadIdx.x;
    out[idx] = tile[idx % 16][idx / 16];
}

// tile[tx][ty], float[32][48], block 32x32
__global__ void col48(float* out) {
    __shared__ float tile[32][48];
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// tile[tx][ty], int[24][24], block 24x24
__global__ void sq24(int* out) {
    __shared__ int tile[24][24];
    out[threadIdx.y * 24 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// tile[2*tx][ty], int[64][32], block 32x32
__global__ void pull(int* out) {
    __shared__ int tile[64][32];
    out[threadIdx.y * 32 + threadIdx.x] = tile[2 * threadIdx.x][threadIdx.y];
}

// tile[tx][ty], double[32][32] (--elem 8), block 32x32
__global__ void dbl(double* out) {
    __shared__ double tile[32][32];
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// tile[tx][ty], short[32][32] (--elem 2), block 32x32
__global__ void shorts(short* out) {
    __shared__ short tile[32][32];
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// tile[tx][ty], char[32][32] (--elem 1), block 32x32
__global__ void chars(char* out) {
    __shared__ char tile[32][32];
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// tile[lane%16][lane/16*8], half[64][32] (64-byte rows), one ldmatrix.x4, block 32
__global__ void ldsm64(unsigned* out) {
    __shared__ __align__(128) half tile[64][32];
    unsigned lane = threadIdx.x, r[4];
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[lane % 16][lane / 16 * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
    out[lane] = r[0] + r[1] + r[2] + r[3];
}

// tile[lane%16][lane/16*8], half[64][64] (128-byte rows), one ldmatrix.x4, block 32
__global__ void ldsm128(unsigned* out) {
    __shared__ __align__(128) half tile[64][64];
    unsigned lane = threadIdx.x, r[4];
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[lane % 16][lane / 16 * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
    out[lane] = r[0] + r[1] + r[2] + r[3];
}

// arr[tid*32], int[1024], block 32: 1-D (pattern has no rows: the swizzles are compared)
__global__ void stride32(int* out) {
    __shared__ int arr[1024];
    out[threadIdx.x] = arr[threadIdx.x * 32];
}

// arr[tid*8], int[256], block 32: 1-D
__global__ void stride8(int* out) {
    __shared__ int arr[256];
    out[threadIdx.x] = arr[threadIdx.x * 8];
}
