// fixed_places.cu: loads from fixed places of shared memory (__shared__ scalars, fixed elements)
// whose SASS ptxas shapes in ways the PTX does not say: two lengths read on either side of a
// branch become one LDS.64 before it (cuda-samples' mergeSort), a read inside an if-converted
// block runs in every warp, a float3 is read as one LDS.128, three neighbouring scalars as one
// LDS.128 reaching past the last. smemlab follows the program's own SASS there (emu/cta_sass.c).
// Every kernel's result is checked on the host; the H100's counts: tests/run/h100-fixed-places.csv.
#include <cstdio>
#include <cstdlib>

typedef unsigned int uint;

// mergeSort's tail (tests/sass/mergelike.cu): lengths differ per block, so the warps entering
// each branch differ too
__global__ void merge_tail(uint *dst, const uint *src, const uint *lim)
{
    __shared__ uint s_key[256];
    __shared__ uint startA, startB, lenA, lenB, startDA, startDB;
    s_key[threadIdx.x] = 0;
    if (threadIdx.x == 0) {
        startA = lim[4 * blockIdx.x + 0];
        startB = lim[4 * blockIdx.x + 1];
        lenA = lim[4 * blockIdx.x + 2];
        lenB = lim[4 * blockIdx.x + 3];
        startDA = startA + startB;
        startDB = startDA + lenA;
    }
    __syncthreads();
    __syncthreads(); // (the zeros before the copies: a barrier of its own)
    if (threadIdx.x < lenA)
        s_key[threadIdx.x] = src[startA + threadIdx.x];
    if (threadIdx.x < lenB)
        s_key[threadIdx.x + 128] = src[1024 + startB + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < lenA)
        dst[blockIdx.x * 512 + startDA + threadIdx.x] = s_key[threadIdx.x];
    if (threadIdx.x < lenB)
        dst[blockIdx.x * 512 + startDB + threadIdx.x] = s_key[lenA + threadIdx.x];
}

// the same reads with a barrier between the two branches: nothing can move across it
__global__ void merge_fenced(uint *dst, const uint *lim)
{
    __shared__ uint s_key[256];
    __shared__ uint lenA, lenB;
    if (threadIdx.x == 0) {
        lenA = lim[4 * blockIdx.x + 2];
        lenB = lim[4 * blockIdx.x + 3];
    }
    s_key[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < lenA)
        dst[blockIdx.x * 512 + threadIdx.x] = s_key[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < lenB)
        dst[blockIdx.x * 512 + 256 + threadIdx.x] = s_key[lenA + threadIdx.x];
}

// float3 elements at fixed places: s[0] (16-byte aligned), s[5] (offset 60) and s[15] (the last)
__global__ void float3_reads(float *out)
{
    __shared__ float3 s[16];
    if (threadIdx.x < 16)
        s[threadIdx.x] = make_float3(threadIdx.x, 2.0f * threadIdx.x, 3.0f + blockIdx.x);
    __syncthreads();
    float3 v = s[0], w = s[5], z = s[15];
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        v.x + v.y + v.z + 10.0f * (w.x + w.y + w.z) + 100.0f * (z.x + z.y + z.z);
}

// three neighbouring scalars, the last ones of the block's shared memory
__shared__ int n0, n1, n2;
__global__ void scalars(int *out, int t)
{
    if (threadIdx.x == 0) {
        n0 = t + blockIdx.x;
        n1 = t + 1;
        n2 = t + 2;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = n0 + n2 * n1 + (int)threadIdx.x;
}

// a small guarded block reading a shared scalar: if-converted, the read may run in every warp
__global__ void guarded_scale(float *out, const float *in, const int *lim)
{
    __shared__ float scale;
    __shared__ int n;
    if (threadIdx.x == 0) {
        scale = in[blockIdx.x];
        n = lim[blockIdx.x];
    }
    __syncthreads();
    if (threadIdx.x < n)
        out[blockIdx.x * blockDim.x + threadIdx.x] = scale * threadIdx.x;
}

// a struct's fields at fixed places, some read by odd threads only
struct Params {
    int a, b, c, d;
    float e, f;
};
__global__ void struct_fields(int *out, const Params *p)
{
    __shared__ Params sp;
    if (threadIdx.x == 0)
        sp = p[blockIdx.x];
    __syncthreads();
    int v = sp.a + sp.c * (int)threadIdx.x;
    if (threadIdx.x & 1)
        v += sp.d + (int)sp.f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// dynamic shared memory: its first elements at fixed places, read in a loop between barriers
__global__ void dyn_loop(float *out, int iters)
{
    extern __shared__ float dyn[];
    float acc = 0;
    for (int i = 0; i < iters; i++) {
        if (threadIdx.x < 4)
            dyn[threadIdx.x] = (float)(i + threadIdx.x + blockIdx.x);
        __syncthreads();
        acc += dyn[0] * dyn[1] + dyn[2] - dyn[3];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main()
{
    const int blocks = 64;
    uint *hlim = (uint *)malloc(4 * blocks * sizeof(uint)), *hsrc = (uint *)malloc(2048 * sizeof(uint));
    for (int i = 0; i < 2048; i++)
        hsrc[i] = i * 3u + 1u;
    for (int b = 0; b < blocks; b++) {
        hlim[4 * b + 0] = (b * 37) % 128;       // startA
        hlim[4 * b + 1] = (b * 53) % 128;       // startB
        hlim[4 * b + 2] = (b * 29) % 129;       // lenA: 0..128
        hlim[4 * b + 3] = (b * 71 + 5) % 129;   // lenB
    }
    uint *src, *lim, *dst, *hdst = (uint *)malloc(blocks * 512 * sizeof(uint));
    float *fo, *hfo = (float *)malloc(blocks * 64 * sizeof(float));
    int *io, *hio = (int *)malloc(blocks * 64 * sizeof(int));
    cudaMalloc(&src, 2048 * sizeof(uint));
    cudaMalloc(&lim, 4 * blocks * sizeof(uint));
    cudaMalloc(&dst, blocks * 512 * sizeof(uint));
    cudaMalloc(&fo, blocks * 64 * sizeof(float));
    cudaMalloc(&io, blocks * 64 * sizeof(int));
    cudaMemcpy(src, hsrc, 2048 * sizeof(uint), cudaMemcpyHostToDevice);
    cudaMemcpy(lim, hlim, 4 * blocks * sizeof(uint), cudaMemcpyHostToDevice);
    int bad = 0;

    cudaMemset(dst, 0, blocks * 512 * sizeof(uint));
    merge_tail<<<blocks, 256>>>(dst, src, lim);
    cudaMemcpy(hdst, dst, blocks * 512 * sizeof(uint), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) {
        uint sa = hlim[4 * b], sb = hlim[4 * b + 1], la = hlim[4 * b + 2], lb = hlim[4 * b + 3];
        for (uint t = 0; t < la; t++)
            bad += hdst[b * 512 + sa + sb + t] != hsrc[sa + t];
        for (uint t = 0; t < lb; t++) { // s_key[la + t]: the second part's, or a zero
            uint i = la + t;
            bad += hdst[b * 512 + sa + sb + la + t] !=
                   (i >= 128 && i - 128 < lb ? hsrc[1024 + sb + i - 128] : 0u);
        }
    }

    cudaMemset(dst, 0, blocks * 512 * sizeof(uint));
    merge_fenced<<<blocks, 256>>>(dst, lim);
    cudaMemcpy(hdst, dst, blocks * 512 * sizeof(uint), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) {
        uint la = hlim[4 * b + 2], lb = hlim[4 * b + 3];
        for (uint t = 0; t < la; t++)
            bad += hdst[b * 512 + t] != t;
        for (uint t = 0; t < lb; t++)
            bad += hdst[b * 512 + 256 + t] != la + t;
    }

    float3_reads<<<blocks, 64>>>(fo);
    cudaMemcpy(hfo, fo, blocks * 64 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) {
        float want = (0 + 0 + 3.0f + b) + 10.0f * (5 + 10 + 3.0f + b) + 100.0f * (15 + 30 + 3.0f + b);
        for (int t = 0; t < 64; t++)
            bad += hfo[b * 64 + t] != want;
    }

    scalars<<<blocks, 64>>>(io, 7);
    cudaMemcpy(hio, io, blocks * 64 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < 64; t++)
            bad += hio[b * 64 + t] != 7 + b + 9 * 8 + t;

    float *hin = (float *)malloc(blocks * sizeof(float)), *fin;
    int *hn = (int *)malloc(blocks * sizeof(int)), *dn;
    for (int b = 0; b < blocks; b++) {
        hin[b] = 0.5f * b + 1.0f;
        hn[b] = (b * 41) % 97; // 0..96 of 96 threads
    }
    cudaMalloc(&fin, blocks * sizeof(float));
    cudaMalloc(&dn, blocks * sizeof(int));
    cudaMemcpy(fin, hin, blocks * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dn, hn, blocks * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(fo, 0, blocks * 64 * sizeof(float));
    guarded_scale<<<blocks / 2, 96>>>(fo, fin, dn);
    cudaMemcpy(hfo, fo, blocks * 64 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks / 2; b++)
        for (int t = 0; t < 96; t++)
            bad += hfo[b * 96 + t] != (t < hn[b] ? hin[b] * t : 0.0f);

    Params hp[64], *dp;
    for (int b = 0; b < blocks; b++)
        hp[b] = Params{b, 2 * b, 3 - b, 5 * b + 1, 0.25f * b, 1.5f * b};
    cudaMalloc(&dp, sizeof hp);
    cudaMemcpy(dp, hp, sizeof hp, cudaMemcpyHostToDevice);
    struct_fields<<<blocks, 64>>>(io, dp);
    cudaMemcpy(hio, io, blocks * 64 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < 64; t++)
            bad += hio[b * 64 + t] != hp[b].a + hp[b].c * t + ((t & 1) ? hp[b].d + (int)hp[b].f : 0);

    dyn_loop<<<blocks, 64, 64 * sizeof(float)>>>(fo, 5);
    cudaMemcpy(hfo, fo, blocks * 64 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) {
        float acc = 0;
        for (int i = 0; i < 5; i++) {
            float d0 = (float)(i + b), d1 = (float)(i + 1 + b), d2 = (float)(i + 2 + b), d3 = (float)(i + 3 + b);
            acc += d0 * d1 + d2 - d3;
        }
        for (int t = 0; t < 64; t++)
            bad += hfo[b * 64 + t] != acc;
    }

    printf("fixed_places %s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
