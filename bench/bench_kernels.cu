// bench_kernels.cu: kernels of the emulator benchmark (bench/bench_emulator.c), built to PTX by
// bench/CMakeLists.txt when nvcc is found. Our own code, written for the benchmark.

// A 128x128-tile GEMM in the style of llm.c's matmul_forward_kernel4: out[M][N] = a[M][K] *
// b[N][K]^T. 256 threads (16 x 16) per block, each computing 8 x 8 outputs; K in steps of 32
// through shared memory (rows padded to 36 floats so the float4 reads of a warp spread over the
// banks), float4 global loads and shared loads, 256 FMAs per 16 shared loads.
#define GT 128
#define GK 32
#define GP 36

extern "C" __global__ void __launch_bounds__(256)
    gemm_tile128(float *__restrict__ out, const float *__restrict__ a, const float *__restrict__ b,
                 int K, int N)
{
    __shared__ __align__(16) float as[GT * GP];
    __shared__ __align__(16) float bs[GT * GP];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    const float *ab = a + (size_t)blockIdx.y * GT * K;
    const float *bb = b + (size_t)blockIdx.x * GT * K;
    float acc[8][8];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += GK) {
        __syncthreads();
        for (int i = 0; i < 4; i++) {
            int idx = t + 256 * i, row = idx >> 3, q = idx & 7;
            *(float4 *)&as[row * GP + q * 4] = *(const float4 *)&ab[(size_t)row * K + k0 + q * 4];
            *(float4 *)&bs[row * GP + q * 4] = *(const float4 *)&bb[(size_t)row * K + k0 + q * 4];
        }
        __syncthreads();
        for (int kk = 0; kk < GK; kk += 4) {
            float4 av[8], bv[8];
            for (int i = 0; i < 8; i++)
                av[i] = *(const float4 *)&as[(ty + 16 * i) * GP + kk];
            for (int j = 0; j < 8; j++)
                bv[j] = *(const float4 *)&bs[(tx + 16 * j) * GP + kk];
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++) {
                    acc[i][j] = fmaf(av[i].x, bv[j].x, acc[i][j]);
                    acc[i][j] = fmaf(av[i].y, bv[j].y, acc[i][j]);
                    acc[i][j] = fmaf(av[i].z, bv[j].z, acc[i][j]);
                    acc[i][j] = fmaf(av[i].w, bv[j].w, acc[i][j]);
                }
        }
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            out[(size_t)(blockIdx.y * GT + ty + 16 * i) * N + blockIdx.x * GT + tx + 16 * j] = acc[i][j];
}

// Many barriers: every trip stores, waits, reads a neighbour's word and waits again.
extern "C" __global__ void barrier_storm(float *__restrict__ out, int iters)
{
    __shared__ float s[256];
    float acc = (float)threadIdx.x;
    for (int i = 0; i < iters; i++) {
        s[threadIdx.x] = acc;
        __syncthreads();
        acc += s[(threadIdx.x + i) & 255];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
