// patterns.cu: one warp, one shared-memory load per access pattern (seeds 001 and 002; EXPERIMENTS
// rows 10-12, 19, 20), named as in tests/hw/h100-patterns.csv (section C). Every kernel runs as one
// block of 32 threads: the warp fills a 16,640-byte buffer (4160 words, 130 conflict-free 4-byte
// stores), syncs, and each lane loads arr[EXPR] once and stores it to out[tid] (so the load stays).
// Params: out (32 x sizeof(T) bytes), p = the column/row of the tile patterns (5), seed = fill seed.

#define NW 4160 // 32-bit words in the buffer: 130 per lane

// The fill: a 32-bit mix of (i, seed), so every word differs and every run can use fresh data.
// src/experiments.c computes the same words for the CPU reference: keep the two in step.
static __device__ __forceinline__ unsigned int fill_word(unsigned int i, unsigned int seed)
{
    unsigned int x = i * 0x9E3779B1u ^ seed;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    x *= 0x297A2D39u;
    x ^= x >> 15;
    return x;
}

// A float in [1, 2) from the same mix: x + 1 is then exact and the same on the CPU.
static __device__ __forceinline__ unsigned int fill_float_word(unsigned int i, unsigned int seed)
{
    return (fill_word(i, seed) & 0x007FFFFFu) | 0x3F800000u;
}

// One load of type T at element index EXPR of the buffer viewed as T[].
#define PATTERN(NAME, T, EXPR)                                                                     \
    extern "C" __global__ void NAME(unsigned char *out, int p, unsigned int seed)                  \
    {                                                                                              \
        __shared__ __align__(16) unsigned int smem[NW];                                            \
        for (unsigned int i = threadIdx.x; i < NW; i += 32)                                        \
            smem[i] = fill_word(i, seed);                                                          \
        __syncthreads();                                                                           \
        const T *arr = (const T *)smem;                                                            \
        unsigned int tid = threadIdx.x;                                                            \
        (void)p;                                                                                   \
        ((T *)out)[tid] = arr[EXPR];                                                               \
    }

// Broadcast and multicast: every lane, or pairs of lanes, read one word (cost 1).
PATTERN(i32_bcast_0, int, 0)
PATTERN(i32_blockIdx, int, blockIdx.x)
PATTERN(i32_tid_div2, int, tid / 2)
// Stride 1, any offset, any permutation of the 32 banks: conflict-free.
PATTERN(i32_tid, int, tid)
PATTERN(f32_tid, float, tid)
PATTERN(i32_tid_plus71, int, tid + 71)
PATTERN(i32_permute, int, (tid * 5 + 3) % 32) // extra: seed 001's crossed "cinema seats"
// The stride rule: stride s costs gcd(s, 32); odd strides are free.
PATTERN(i32_stride2, int, tid * 2)
PATTERN(i32_stride3, int, tid * 3)
PATTERN(i32_stride4, int, tid * 4)
PATTERN(i32_stride5, int, tid * 5)
PATTERN(i32_stride6, int, tid * 6)
PATTERN(i32_stride7, int, tid * 7)
PATTERN(i32_stride8, int, tid * 8)
PATTERN(i32_stride16, int, tid * 16)
PATTERN(i32_stride17, int, tid * 17)
PATTERN(i32_stride31, int, tid * 31)
PATTERN(i32_stride32, int, tid * 32)
PATTERN(f32_stride32, float, tid * 32)
PATTERN(i32_stride33, int, tid * 33)
PATTERN(i32_stride64, int, tid * 64)
PATTERN(i32_stride128, int, tid * 128)
PATTERN(i32_stride129, int, tid * 129)
// Sub-word data: lanes that share a word share its bank slot (cost 1), unless the words differ.
PATTERN(u8_tid, unsigned char, tid)
PATTERN(u16_tid, unsigned short, tid)
PATTERN(u8_stride4, unsigned char, tid * 4)
PATTERN(u16_stride2, unsigned short, tid * 2)
PATTERN(u8_stride2, unsigned char, tid * 2)
PATTERN(u8_stride128, unsigned char, tid * 128)
PATTERN(u16_stride64, unsigned short, tid * 64)
// 8-byte accesses (LDS.64).
PATTERN(f64_tid, double, tid)
PATTERN(f64_stride2, double, tid * 2)
PATTERN(f64_stride16, double, tid * 16)
PATTERN(f64_stride17, double, tid * 17)
PATTERN(f64_bcast_0, double, 0)
PATTERN(f64_tid_div2, double, tid / 2)
// 16-byte accesses (LDS.128).
PATTERN(f4_tid, float4, tid)
PATTERN(f4_stride2, float4, tid * 2)
PATTERN(f4_stride8, float4, tid * 8)
PATTERN(f4_bcast_0, float4, 0)
PATTERN(f4_tid_div2, float4, tid / 2)
// A 32x32 int tile read down column p (lane = row) or along row p (lane = column): plain (32-way),
// padded to 33 words a row, or XOR-swizzled (element (r, c) stored at r*32 + (c ^ r)).
PATTERN(tile_col_plain, int, tid * 32 + p)
PATTERN(tile_col_pad33, int, tid * 33 + p)
PATTERN(tile_col_xor, int, tid * 32 + (p ^ tid))
PATTERN(tile_row_xor, int, p * 32 + (tid ^ p))

// Seed 002's struct pattern: arr[tid].x++ with a 4-word struct (16-byte stride: 4-way on the load
// and on the store) and with a fifth padding word (20-byte stride: conflict-free). The buffer holds
// floats in [1, 2); after a barrier every lane reads its x back (a second load).
struct Point4D {
    float x, y, z, w;
};
struct Point5 {
    float x, y, z, w, pad;
};

#define POINT_PATTERN(NAME, S)                                                                     \
    extern "C" __global__ void NAME(unsigned char *out, int p, unsigned int seed)                  \
    {                                                                                              \
        __shared__ __align__(16) unsigned int smem[NW];                                            \
        for (unsigned int i = threadIdx.x; i < NW; i += 32)                                        \
            smem[i] = fill_float_word(i, seed);                                                    \
        __syncthreads();                                                                           \
        S *arr = (S *)smem;                                                                        \
        unsigned int tid = threadIdx.x;                                                            \
        (void)p;                                                                                   \
        arr[tid].x++;                                                                              \
        __syncthreads();                                                                           \
        ((float *)out)[tid] = arr[tid].x;                                                          \
    }

POINT_PATTERN(point4d_x_inc, struct Point4D)
POINT_PATTERN(point5_x_inc, struct Point5)
