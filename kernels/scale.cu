// scale.cu: at-scale versions of the documents' experiments, for timing (EXPERIMENTS rows 12, 13,
// 21). One block of the documents takes microseconds of launch overhead and nothing else; these
// kernels fill the GPU (thousands of blocks) and repeat the shared-memory work `reps` times inside
// the kernel, so the time measured is the time of the shared-memory pipeline. Every kernel writes a
// result per thread (or per block) that the bench checks against a CPU reference before timing.

// ---- The square and rectangle tiles at scale ---------------------------------------------------
// Each repetition stores the tile once (the variant's store pattern, value idx + r), syncs, then
// reads it TILE_K times with the variant's load pattern shifted by k words along the read direction
// (a shift that keeps every lane's bank distance, so the conflict degree is the documents'),
// accumulating into acc: TILE_K independent loads let the pipeline overlap them.
// out[blockIdx.x * threads + idx] = acc. Shared bytes per block and rep: threads * 4 * (1 + TILE_K).
#define TILE_K 16
// The rectangle's transposed coordinates of the linear index (seed 004's irow, icol).
#define IROW (idx / blockDim.y)
#define ICOL (idx % blockDim.y)

#define SCALE_TILE(NAME, WORDS, ST, LD)                                                            \
    extern "C" __global__ void NAME(int *out, int reps)                                            \
    {                                                                                              \
        __shared__ int tile[WORDS];                                                                \
        unsigned int tx = threadIdx.x, ty = threadIdx.y;                                           \
        unsigned int idx = ty * blockDim.x + tx;                                                   \
        int acc = 0;                                                                               \
        for (int r = 0; r < reps; ++r) {                                                           \
            tile[ST] = idx + r;                                                                    \
            __syncthreads();                                                                       \
            _Pragma("unroll") for (unsigned int k = 0; k < TILE_K; ++k) acc += tile[LD];           \
            __syncthreads();                                                                       \
        }                                                                                          \
        out[blockIdx.x * blockDim.x * blockDim.y + idx] = acc;                                     \
    }

// Square, block 32x32, tile 32x32 (33 words a row when padded).
SCALE_TILE(scaleSquareRowRow, 32 * 32, ty * 32 + tx, ty * 32 + ((tx + k) & 31))
SCALE_TILE(scaleSquareColCol, 32 * 32, tx * 32 + ty, tx * 32 + ((ty + k) & 31))
SCALE_TILE(scaleSquareRowCol, 32 * 32, ty * 32 + tx, tx * 32 + ((ty + k) & 31))
SCALE_TILE(scaleSquareRowColPad, 32 * 33, ty * 33 + tx, tx * 33 + ((ty + k) & 31))
// Rectangle, block 32x16, tile [16][32] (32 + IPAD words a row), or [32][16] for ColCol.
SCALE_TILE(scaleRectRowRow, 16 * 32, ty * 32 + tx, ty * 32 + ((tx + k) & 31))
SCALE_TILE(scaleRectColCol, 32 * 16, tx * 16 + ty, tx * 16 + ((ty + k) & 15))
SCALE_TILE(scaleRectRowCol, 16 * 32, ty * 32 + tx, ICOL * 32 + ((IROW + k) & 31))
SCALE_TILE(scaleRectRowColPad1, 16 * 33, ty * 33 + tx, ICOL * 33 + ((IROW + k) & 31))
SCALE_TILE(scaleRectRowColPad2, 16 * 34, ty * 34 + tx, ICOL * 34 + ((IROW + k) & 31))

// ---- n-way bank-conflict probes ---------------------------------------------------------------
// Every warp reads buf[lane * N + rows * 32]: with 4-byte words, stride N costs gcd(N, 32) = N
// wavefronts (N = 1, 2, 4, 8, 16, 32). PROBE_K independent loads per repetition, load k one bank row
// (32 words) further than load k - 1, and the base moved by (r & 7) rows each repetition: whole
// rows keep every lane's bank, and loads 128 bytes apart cannot be merged by ptxas into one wider
// load (with p[k], ptxas turned the stride-2 loads into LDS.64 and stride >= 4 into LDS.128, which
// is another pattern). buf[w] = w. out[global thread] = acc. Bytes per thread and rep: PROBE_K x
// access size. Launch: grid 2112 (16 per SM on an H100), block 1024.
#define PROBE_K 16
#define PROBE_WORDS (8 * 32 + 32 * 32 + PROBE_K * 32)

#define PROBE32(N)                                                                                 \
    extern "C" __global__ void smemRead32_way##N(int *out, int reps)                               \
    {                                                                                              \
        __shared__ int buf[PROBE_WORDS];                                                           \
        for (unsigned int i = threadIdx.x; i < PROBE_WORDS; i += blockDim.x)                       \
            buf[i] = i;                                                                            \
        __syncthreads();                                                                           \
        const int *base = buf + (threadIdx.x & 31) * N;                                            \
        int acc = 0;                                                                               \
        for (int r = 0; r < reps; ++r) {                                                           \
            const int *p = base + (r & 7) * 32;                                                    \
            _Pragma("unroll") for (int k = 0; k < PROBE_K; ++k) acc += p[k * 32];                  \
        }                                                                                          \
        out[blockIdx.x * blockDim.x + threadIdx.x] = acc;                                          \
    }

PROBE32(1)
PROBE32(2)
PROBE32(4)
PROBE32(8)
PROBE32(16)
PROBE32(32)

// 16-byte loads (LDS.128): int4 element j holds words 4j..4j+3. Stride N int4s: 1 is the ideal 4
// wavefronts a request (the peak: one instruction moves 512 bytes), 2, 4 and 8 are 2-, 4- and 8-way.
// Shift k int4s per load, base moved by (r & 7) * 8 int4s (32 words). All four words are summed so
// that ptxas keeps the whole 16-byte load.
#define PROBE128(N)                                                                                \
    extern "C" __global__ void smemRead128_way##N(int *out, int reps)                              \
    {                                                                                              \
        __shared__ int4 buf4[PROBE_WORDS / 4];                                                     \
        int *words = (int *)buf4;                                                                  \
        for (unsigned int i = threadIdx.x; i < PROBE_WORDS; i += blockDim.x)                       \
            words[i] = i;                                                                          \
        __syncthreads();                                                                           \
        const int4 *base = buf4 + (threadIdx.x & 31) * N;                                          \
        int4 acc = make_int4(0, 0, 0, 0);                                                          \
        for (int r = 0; r < reps; ++r) {                                                           \
            const int4 *p = base + (r & 7) * 8;                                                    \
            _Pragma("unroll") for (int k = 0; k < PROBE_K; ++k)                                    \
            {                                                                                      \
                int4 v = p[k];                                                                     \
                acc.x += v.x;                                                                      \
                acc.y += v.y;                                                                      \
                acc.z += v.z;                                                                      \
                acc.w += v.w;                                                                      \
            }                                                                                      \
        }                                                                                          \
        out[blockIdx.x * blockDim.x + threadIdx.x] = acc.x + acc.y + acc.z + acc.w;                \
    }

PROBE128(1)
PROBE128(2)
PROBE128(4)
PROBE128(8)

// ---- Reductions at scale -------------------------------------------------------------------------
// reduce.cu's three kernels, each block reducing its 1024 values `reps` times (value v + r in rep
// r), so the shared-memory steps, not the one global read, take the time. out[block] = the sum over
// reps of the block sums (wrapping 32-bit). Shared bytes per block and rep: 4096 (fill) +
// 1023 x 12 (two loads and a store per addition) + 4 (thread 0 reads the sum) = 16376.
// Launch: grid 2112, block 1024.
extern "C" __global__ void reduceRep_interleaved(const int *__restrict__ in, int *__restrict__ out,
                                                 int reps)
{
    __shared__ int cache[1024];
    unsigned int tid = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + tid], total = 0;
    for (int r = 0; r < reps; ++r) {
        cache[tid] = v + r;
        __syncthreads();
        for (unsigned int i = 1; i < blockDim.x; i *= 2) {
            unsigned int index = 2 * i * tid;
            if (index < blockDim.x)
                cache[index] += cache[index + i];
            __syncthreads();
        }
        if (tid == 0)
            total += cache[0];
    }
    if (tid == 0)
        out[blockIdx.x] = total;
}

extern "C" __global__ void reduceRep_interleaved_divergent(const int *__restrict__ in,
                                                           int *__restrict__ out, int reps)
{
    __shared__ int cache[1024];
    unsigned int tid = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + tid], total = 0;
    for (int r = 0; r < reps; ++r) {
        cache[tid] = v + r;
        __syncthreads();
        for (unsigned int i = 1; i < blockDim.x; i *= 2) {
            if (tid % (2 * i) == 0)
                cache[tid] += cache[tid + i];
            __syncthreads();
        }
        if (tid == 0)
            total += cache[0];
    }
    if (tid == 0)
        out[blockIdx.x] = total;
}

extern "C" __global__ void reduceRep_sequential(const int *__restrict__ in, int *__restrict__ out,
                                                int reps)
{
    __shared__ int cache[1024];
    unsigned int tid = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + tid], total = 0;
    for (int r = 0; r < reps; ++r) {
        cache[tid] = v + r;
        __syncthreads();
        for (unsigned int i = blockDim.x / 2; i > 0; i >>= 1) {
            if (tid < i)
                cache[tid] += cache[tid + i];
            __syncthreads();
        }
        if (tid == 0)
            total += cache[0];
    }
    if (tid == 0)
        out[blockIdx.x] = total;
}
