// fixed_places2.cu: more loads from fixed places of shared memory, written after emu/cta_sass.c as
// a held-out check of it (predicted here first, then counted on the H100:
// tests/run/h100-fixed-places2.csv). Each kernel's result is checked on the host.
#include <cstdio>
#include <cstdlib>

struct P {
    float x, y, z, w;
};

// a struct array's fixed element read in a loop (the loop unrolled or not)
__global__ void loop_param(float *out, const P *in, int n)
{
    __shared__ P p[4];
    if (threadIdx.x < 4)
        p[threadIdx.x] = in[blockIdx.x * 4 + threadIdx.x];
    __syncthreads();
    float acc = 0;
    for (int i = 0; i < n; i++)
        acc += p[2].x * i + p[2].z;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// one shared scalar read on both sides of an if / else
__global__ void both_sides(int *out, const int *in)
{
    __shared__ int a, b;
    if (threadIdx.x == 0) {
        a = in[2 * blockIdx.x];
        b = in[2 * blockIdx.x + 1];
    }
    __syncthreads();
    int v;
    if (threadIdx.x % 3 == 0)
        v = a * 2;
    else
        v = a + b + (int)threadIdx.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// a double and an int beside it, and an array's first eight ints, then its ninth where t < k
__global__ void mixed(double *out, const int *in, int k)
{
    __shared__ double d;
    __shared__ int c;
    __shared__ int s[16];
    if (threadIdx.x < 16)
        s[threadIdx.x] = in[blockIdx.x * 16 + threadIdx.x];
    if (threadIdx.x == 0) {
        d = 0.5 * blockIdx.x;
        c = (int)blockIdx.x + 3;
    }
    __syncthreads();
    int sum = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        sum += s[i];
    if ((int)threadIdx.x < k)
        sum += s[8];
    out[blockIdx.x * blockDim.x + threadIdx.x] = d * c + sum;
}

// a flag read in a loop between barriers, set by thread 0
__global__ void flag_loop(int *out, const int *steps)
{
    __shared__ int flag, count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    int it = 0;
    do {
        __syncthreads();
        if (threadIdx.x == 0) {
            count++;
            flag = count < steps[blockIdx.x];
        }
        __syncthreads();
        it++;
    } while (flag);
    out[blockIdx.x * blockDim.x + threadIdx.x] = it * 100 + count;
}

int main()
{
    const int blocks = 32, threads = 128;
    int bad = 0;
    P hp[blocks * 4], *dp;
    for (int i = 0; i < blocks * 4; i++)
        hp[i] = P{0.5f * i, 1.0f * i, 2.0f + i, 3.0f};
    float *fo, *hfo = (float *)malloc(blocks * threads * sizeof(float));
    cudaMalloc(&dp, sizeof hp);
    cudaMalloc(&fo, blocks * threads * sizeof(float));
    cudaMemcpy(dp, hp, sizeof hp, cudaMemcpyHostToDevice);
    loop_param<<<blocks, threads>>>(fo, dp, 5);
    cudaMemcpy(hfo, fo, blocks * threads * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) {
        float acc = 0;
        for (int i = 0; i < 5; i++)
            acc += hp[b * 4 + 2].x * i + hp[b * 4 + 2].z;
        for (int t = 0; t < threads; t++)
            bad += hfo[b * threads + t] != acc;
    }

    int hin[blocks * 16], *din, *io, *hio = (int *)malloc(blocks * threads * sizeof(int));
    for (int i = 0; i < blocks * 16; i++)
        hin[i] = (i * 7) % 23 - 5;
    cudaMalloc(&din, sizeof hin);
    cudaMalloc(&io, blocks * threads * sizeof(int));
    cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
    both_sides<<<blocks, threads>>>(io, din);
    cudaMemcpy(hio, io, blocks * threads * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++) {
            int a = hin[2 * b], c = hin[2 * b + 1];
            bad += hio[b * threads + t] != (t % 3 == 0 ? a * 2 : a + c + t);
        }

    double *dd, *hd = (double *)malloc(blocks * threads * sizeof(double));
    cudaMalloc(&dd, blocks * threads * sizeof(double));
    mixed<<<blocks, threads>>>(dd, din, 40);
    cudaMemcpy(hd, dd, blocks * threads * sizeof(double), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++) {
            int sum = 0;
            for (int i = 0; i < 8; i++)
                sum += hin[b * 16 + i];
            if (t < 40)
                sum += hin[b * 16 + 8];
            bad += hd[b * threads + t] != 0.5 * b * (b + 3) + sum;
        }

    int hs[blocks], *ds;
    for (int b = 0; b < blocks; b++)
        hs[b] = 1 + b % 5;
    cudaMalloc(&ds, sizeof hs);
    cudaMemcpy(ds, hs, sizeof hs, cudaMemcpyHostToDevice);
    flag_loop<<<blocks, threads>>>(io, ds);
    cudaMemcpy(hio, io, blocks * threads * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++)
            bad += hio[b * threads + t] != hs[b] * 100 + hs[b];

    printf("fixed_places2 %s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
