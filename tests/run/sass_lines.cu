// sass_lines.cu: lines whose shared accesses ptxas changes (issue 33), each kernel checked on the
// host. smemlab counts them as the program's own SASS has them (src/sass/sass_lines.c); Nsight
// Compute's counts on the H200 are in tests/run/h200-sass-lines.csv, the SASS's opcodes in
// tests/run/h200-sass-lines-sass.txt.
//  swizzle_read:  one warp, a 64x64 16-bit tile stored with the 128-byte swizzle (16-byte chunk c
//                 of row r at chunk c ^ (r % 8)), each lane its own row (r and r + 32), one 4-byte
//                 word a load (inline PTX, as hand-written copies do), the four words of a chunk
//                 one after the other: ptxas makes one LDS.128 of each four.
//  swizzle_write: the same tile written so: four STS one after the other, one STS.128.
//  removed:       a word read twice with a compiler barrier between (an empty asm, no instruction):
//                 the PTX loads it twice, ptxas once.
//  hoisted:       a word read in a loop, a compiler barrier in its body: the PTX reads it every
//                 trip, ptxas before the loop.
#include <cstdio>
#include <cstdlib>

#define N 64

__device__ __forceinline__ unsigned lds32(unsigned addr)
{
    unsigned v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}

__device__ __forceinline__ void sts32(unsigned addr, unsigned v)
{
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v));
}

__global__ void swizzle_read(unsigned *out, const unsigned *in)
{
    __shared__ __align__(128) unsigned short tile[N * N];
    unsigned *w = reinterpret_cast<unsigned *>(tile);
    for (int i = threadIdx.x; i < N * N / 2; i += blockDim.x)
        w[i] = in[i];
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(tile), acc = 0;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int row = threadIdx.x + 32 * h;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            unsigned chunk = base + row * 128 + ((c ^ (row & 7)) << 4);
            unsigned a = lds32(chunk + 0);
            unsigned b = lds32(chunk + 4);
            unsigned d = lds32(chunk + 8);
            unsigned e = lds32(chunk + 12);
            acc = acc * 3 + (a ^ (b << 1) ^ (d << 2) ^ (e << 3));
        }
    }
    out[threadIdx.x] = acc;
}

__global__ void swizzle_write(unsigned *out, const unsigned *in)
{
    __shared__ __align__(128) unsigned short tile[N * N];
    const unsigned *w = reinterpret_cast<const unsigned *>(tile);
    unsigned base = (unsigned)__cvta_generic_to_shared(tile), v = in[threadIdx.x];
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int row = threadIdx.x + 32 * h;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            unsigned chunk = base + row * 128 + ((c ^ (row & 7)) << 4);
            sts32(chunk + 0, v + c + h);
            sts32(chunk + 4, v * 3 + c);
            sts32(chunk + 8, v * 5 + c);
            sts32(chunk + 12, v * 7 + c);
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < N * N / 2; i += blockDim.x)
        out[i] = w[i];
}

__global__ void removed(unsigned *out, const unsigned *in)
{
    __shared__ unsigned s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    unsigned a = s[(threadIdx.x * 5) % 256];
    asm volatile("" ::: "memory");
    unsigned b = s[(threadIdx.x * 5) % 256];
    out[blockIdx.x * 256 + threadIdx.x] = a * 3 + b;
}

__global__ void hoisted(unsigned *out, const unsigned *in, int n)
{
    __shared__ unsigned s[256];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    unsigned acc = 0;
    for (int i = 0; i < n; i++) {
        acc = acc * 7 + s[threadIdx.x ^ 1];
        asm volatile("" ::: "memory");
    }
    out[threadIdx.x] = acc;
}

static int fails = 0;

static void check(const char *what, const unsigned *got, const unsigned *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("%s: element %d is %u, not %u\n", what, i, got[i], want[i]);
            fails++;
            return;
        }
}

int main()
{
    const int words = N * N / 2, big = 2 * words;
    unsigned *hin = (unsigned *)malloc(big * sizeof(unsigned));
    unsigned *hout = (unsigned *)malloc(big * sizeof(unsigned));
    unsigned *want = (unsigned *)malloc(big * sizeof(unsigned));
    for (int i = 0; i < big; i++)
        hin[i] = (unsigned)(i * 2654435761u) >> 7;
    unsigned *in, *out;
    cudaMalloc(&in, big * sizeof(unsigned));
    cudaMalloc(&out, big * sizeof(unsigned));
    cudaMemcpy(in, hin, big * sizeof(unsigned), cudaMemcpyHostToDevice);

    swizzle_read<<<1, 32>>>(out, in);
    cudaMemcpy(hout, out, 32 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++) {
        unsigned acc = 0;
        for (int h = 0; h < 2; h++) {
            int row = t + 32 * h;
            for (int c = 0; c < 8; c++) {
                const unsigned *p = hin + row * 32 + (c ^ (row & 7)) * 4;
                acc = acc * 3 + (p[0] ^ (p[1] << 1) ^ (p[2] << 2) ^ (p[3] << 3));
            }
        }
        want[t] = acc;
    }
    check("swizzle_read", hout, want, 32);

    swizzle_write<<<1, 32>>>(out, in);
    cudaMemcpy(hout, out, words * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++)
        for (int h = 0; h < 2; h++) {
            int row = t + 32 * h;
            unsigned v = hin[t];
            for (int c = 0; c < 8; c++) {
                unsigned *p = want + row * 32 + (c ^ (row & 7)) * 4;
                p[0] = v + c + h;
                p[1] = v * 3 + c;
                p[2] = v * 5 + c;
                p[3] = v * 7 + c;
            }
        }
    check("swizzle_write", hout, want, words);

    removed<<<4, 256>>>(out, in);
    cudaMemcpy(hout, out, 4 * 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 256; t++) {
            unsigned a = hin[b * 256 + (t * 5) % 256];
            want[b * 256 + t] = a * 3 + a;
        }
    check("removed", hout, want, 4 * 256);

    hoisted<<<2, 256>>>(out, in, 10);
    cudaMemcpy(hout, out, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 256; t++) {
        unsigned acc = 0;
        for (int i = 0; i < 10; i++)
            acc = acc * 7 + hin[t ^ 1];
        want[t] = acc;
    }
    check("hoisted", hout, want, 256);

    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        fails++;
    }
    printf("sass_lines %s\n", fails ? "FAIL" : "PASS");
    cudaFree(in);
    cudaFree(out);
    free(hin);
    free(hout);
    free(want);
    return fails != 0;
}
