// kernels.cu: kernels the analyzer never saw while it was built, measured on an H100 with Nsight
// Compute (tests/validate/run_device.sh) to check predictions on new ground: every width, odd
// tiles and pads, dynamic shared memory, swizzles, loops, divergence, indices read from shared
// memory, structs, partial vectors, atomics. One block each; out/in are device buffers.
#include <cuda_runtime.h>

extern "C" __global__ void v_dbl_tile33(double *out, const int *in)
{
    __shared__ double t[32][33];
    int x = threadIdx.x, y = threadIdx.y;
    t[y][x] = x + 0.5 * y;
    __syncthreads();
    out[y * 32 + x] = t[x][y];
}

extern "C" __global__ void v_dbl_halfswap(double *out, const int *in)
{
    // lanes 0-15 read even doubles, lanes 16-31 odd ones: whole-warp vs half-warp rule
    __shared__ double s[64];
    int l = threadIdx.x;
    s[l] = l;
    s[l + 32] = -l;
    __syncthreads();
    int i = l < 16 ? 2 * l : 2 * (l - 16) + 1;
    out[l] = s[i];
}

extern "C" __global__ void v_dbl_quarter(double *out, const int *in)
{
    __shared__ double s[256];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) s[i] = i;
    __syncthreads();
    out[l] = s[(l % 8) * 16 + l / 8];   // 8 lanes per column of 16-double rows
}

extern "C" __global__ void v_f4_halfsame(float4 *out, const int *in)
{
    // both half-warps read the same 16 float4s
    __shared__ float4 s[32];
    int l = threadIdx.x;
    s[l] = make_float4(l, l + 1, l + 2, l + 3);
    __syncthreads();
    out[l] = s[l % 16];
}

extern "C" __global__ void v_f4_stride3(float4 *out, const int *in)
{
    __shared__ float4 s[128];
    int l = threadIdx.x;
    for (int i = l; i < 128; i += 32) s[i] = make_float4(i, i, i, i);
    __syncthreads();
    out[l] = s[(l * 3) % 128];
}

extern "C" __global__ void v_f2_col(float2 *out, const int *in)
{
    __shared__ float2 s[32][16];
    int x = threadIdx.x, y = threadIdx.y;   // block 16 x 32
    s[y][x] = make_float2(x, y);
    __syncthreads();
    out[y * 16 + x] = s[(x * 2 + y) % 32][(y + x) % 16];
}

extern "C" __global__ void v_u8_col(unsigned char *out, const int *in)
{
    __shared__ unsigned char t[32][36];
    int x = threadIdx.x, y = threadIdx.y;
    t[y][x] = (unsigned char)(x + y);
    __syncthreads();
    out[y * 32 + x] = t[x][y];
}

extern "C" __global__ void v_u16_col(unsigned short *out, const int *in)
{
    __shared__ unsigned short t[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    t[y][x] = (unsigned short)(x * y);
    __syncthreads();
    out[y * 32 + x] = t[x][y];
}

extern "C" __global__ void v_odd_tile(float *out, const int *in)
{
    // block 24 x 20, tile [20][24+3]
    __shared__ float t[20][27];
    int x = threadIdx.x, y = threadIdx.y;
    t[y][x] = x - y;
    __syncthreads();
    int idx = y * 24 + x, r = idx % 20, c = idx / 20;
    out[idx] = t[r][c];
}

extern "C" __global__ void v_dyn_two(float *out, const int *in)
{
    extern __shared__ double dyn[];
    double *a = dyn;                       // 64 doubles
    int *b = (int *)(dyn + 64);            // 256 ints after them
    int l = threadIdx.x;                   // block 64
    a[l] = l;
    b[l * 4 % 256] = l;
    __syncthreads();
    out[l] = (float)(a[63 - l] + b[(l * 8) % 256]);
}

extern "C" __global__ void v_swizzle(float *out, const int *in)
{
    __shared__ float t[32 * 32];
    int x = threadIdx.x, y = threadIdx.y;   // block 32 x 8
    for (int j = 0; j < 32; j += 8) t[(y + j) * 32 + (x ^ (y + j))] = x + 32 * (y + j);
    __syncthreads();
    for (int j = 0; j < 32; j += 8) out[(y + j) * 32 + x] = t[x * 32 + ((y + j) ^ x)];
}

extern "C" __global__ void v_loop_stride(int *out, const int *in)
{
    __shared__ int s[1024];
    int l = threadIdx.x;                   // block 128
    for (int i = l; i < 1024; i += 128) s[i] = i;
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 6; k++) acc += s[(l * (2 * k + 1) * 4) % 1024];
    out[l] = acc;
}

extern "C" __global__ void v_divergent(int *out, const int *in)
{
    __shared__ int s[2048];
    int l = threadIdx.x;                   // block 64
    for (int i = l; i < 2048; i += 64) s[i] = i;
    __syncthreads();
    int v;
    if (l % 3 == 0) v = s[l * 2];
    else if (l % 3 == 1) v = s[l * 16 + 1];
    else v = s[(l * 33) % 2048];
    out[l] = v;
}

extern "C" __global__ void v_indirect(int *out, const int *in)
{
    __shared__ int idx[64];
    __shared__ int data[64 * 32];
    int l = threadIdx.x;                   // block 64
    idx[l] = (l * 7) % 64;
    for (int i = l; i < 64 * 32; i += 64) data[i] = i;
    __syncthreads();
    out[l] = data[idx[l] * 32 + (l & 1)];
}

struct Rec { float a; int b; double c; short d; };   // 24 bytes
extern "C" __global__ void v_struct(double *out, const int *in)
{
    __shared__ Rec r[64];
    int l = threadIdx.x;                   // block 64
    r[l].a = l; r[l].b = 2 * l; r[l].c = 0.5 * l; r[l].d = (short)l;
    __syncthreads();
    out[l] = r[63 - l].c + r[l].b + r[(l + 1) % 64].d;
}

extern "C" __global__ void v_int4_partial(int *out, const int *in)
{
    __shared__ int4 s[64];
    int l = threadIdx.x;                   // block 64
    s[l] = make_int4(l, l + 1, l + 2, l + 3);
    __syncthreads();
    int4 v = s[(l * 2) % 64];
    out[l] = v.x + v.w;
}

extern "C" __global__ void v_sgemm16(float *out, const int *in)
{
    __shared__ float As[16][16], Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;   // block 16 x 16
    float acc = 0;
    for (int k0 = 0; k0 < 64; k0 += 16) {
        As[ty][tx] = (float)(ty + k0 + tx);
        Bs[ty][tx] = (float)(tx - k0 - ty);
        __syncthreads();
        for (int k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    out[ty * 16 + tx] = acc;
}

extern "C" __global__ void v_warp_reduce(float *out, const int *in)
{
    __shared__ float part[32];
    int l = threadIdx.x;                   // block 1024
    float v = (float)(l % 17);
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((l & 31) == 0) part[l >> 5] = v;
    __syncthreads();
    if (l < 32) {
        v = part[l];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (l == 0) out[0] = v;
    }
}

extern "C" __global__ void v_hist_atomic(int *out, const int *in)
{
    __shared__ int h[64];
    int l = threadIdx.x;                   // block 256
    if (l < 64) h[l] = 0;
    __syncthreads();
    for (int i = 0; i < 4; i++) atomicAdd(&h[(l * 5 + i * 17) % 64], 1);
    __syncthreads();
    if (l < 64) out[l] = h[l];
}

extern "C" __global__ void v_bcast_mix(int *out, const int *in)
{
    __shared__ int s[512];
    int l = threadIdx.x;
    for (int i = l; i < 512; i += 32) s[i] = i;
    __syncthreads();
    out[l] = s[(l / 4) * 32] + s[(l & 7) * 64 + (l >> 3)];
}

extern "C" __global__ void v_dbl_bcast4(double *out, const int *in)
{
    __shared__ double s[64];
    int l = threadIdx.x;
    s[l] = l; s[l + 32] = l;
    __syncthreads();
    out[l] = s[(l / 4) * 8];
}

extern "C" __global__ void v_st_same_word(int *out, const int *in)
{
    // several lanes store to one word (a benign race on the value): what does a store cost?
    __shared__ int s[128];
    int l = threadIdx.x;
    s[l / 4] = 7;
    s[(l % 4) * 32 + 0] = l;
    __syncthreads();
    out[l] = s[l];
}

// ptxas merges neighbouring shared loads (and stores?) into 8- and 16-byte ones when it can prove
// the alignment: these probe when it does.
extern "C" __global__ void v_merge_row4(float *out, const int *in)
{
    __shared__ float s[32][32];
    int l = threadIdx.x, w = threadIdx.y;   // block 32 x 4
    for (int i = 0; i < 32; i += 4) s[i + w][l] = l * w + i;
    __syncthreads();
    float acc = 0;
#pragma unroll
    for (int k = 0; k < 32; k++) acc += s[w * 8 + (l & 7)][k];
    out[w * 32 + l] = acc;
}

extern "C" __global__ void v_merge_pair_odd(float *out, const int *in)
{
    __shared__ float s[1024];
    int l = threadIdx.x;                     // block 32
    for (int i = l; i < 1024; i += 32) s[i] = i;
    __syncthreads();
    int b = l * 6 + 1;                        // odd base: only 4-byte alignment provable
    out[l] = s[b] + s[b + 1] + s[b + 2];
}

extern "C" __global__ void v_merge_pair_even(float *out, const int *in)
{
    __shared__ float s[1024];
    int l = threadIdx.x;                     // block 32
    for (int i = l; i < 1024; i += 32) s[i] = i;
    __syncthreads();
    int b = l * 6;                            // 8-byte aligned pairs
    out[l] = s[b] * s[b + 1] + s[b + 2] * s[b + 3];
}

extern "C" __global__ void v_merge_store4(float *out, const int *in)
{
    __shared__ float s[32 * 33 * 4];
    int l = threadIdx.x;                     // block 32
    float *p = &s[l * 4 * 8];
    p[0] = l; p[1] = l + 1; p[2] = l + 2; p[3] = l + 3;
    __syncthreads();
    out[l] = s[l * 4 * 8 + (l & 3)];
}

extern "C" __global__ void v_merge_dbl2(double *out, const int *in)
{
    __shared__ double s[512];
    int l = threadIdx.x;                     // block 32
    for (int i = l; i < 512; i += 32) s[i] = i;
    __syncthreads();
    out[l] = s[l * 4] + s[l * 4 + 1];
}

extern "C" __global__ void v_merge_u16(unsigned short *out, const int *in)
{
    __shared__ unsigned short s[2048];
    int l = threadIdx.x;                     // block 32
    for (int i = l; i < 2048; i += 32) s[i] = (unsigned short)i;
    __syncthreads();
    out[l] = s[l * 8] + s[l * 8 + 1];
}

// ---- second batch: vector types, odd structs, unrolled loops, dynamic tiles ----------------
struct F3 { float x, y, z; };                 // 12-byte stride
extern "C" __global__ void v_float3_struct(float *out, const int *in)
{
    __shared__ F3 s[64];
    int l = threadIdx.x;                      // block 64
    s[l].x = l; s[l].y = 2 * l; s[l].z = 3 * l;
    __syncthreads();
    F3 v = s[(l * 5) % 64];
    out[l] = v.x + v.y + v.z;
}

extern "C" __global__ void v_double2_col(double *out, const int *in)
{
    __shared__ double2 t[16][17];
    int x = threadIdx.x, y = threadIdx.y;     // block 16 x 16
    t[y][x] = make_double2(x, y);
    __syncthreads();
    double2 v = t[x][y];
    out[y * 16 + x] = v.x - v.y;
}

extern "C" __global__ void v_char4_row(int *out, const int *in)
{
    __shared__ char4 s[32][33];
    int x = threadIdx.x, y = threadIdx.y;     // block 32 x 8
    for (int j = 0; j < 32; j += 8) s[y + j][x] = make_char4(x, y, j, 1);
    __syncthreads();
    int acc = 0;
    for (int j = 0; j < 32; j += 8) { char4 c = s[x][y + j]; acc += c.x + c.y + c.z + c.w; }
    out[y * 32 + x] = acc;
}

extern "C" __global__ void v_short2_stride(int *out, const int *in)
{
    __shared__ short2 s[512];
    int l = threadIdx.x;                      // block 64
    for (int i = l; i < 512; i += 64) s[i] = make_short2(i, -i);
    __syncthreads();
    short2 v = s[(l * 16) % 512];
    out[l] = v.x + v.y;
}

extern "C" __global__ void v_unroll_stencil(float *out, const int *in)
{
    __shared__ float s[256 + 8];
    int l = threadIdx.x;                      // block 256
    s[l + 4] = l;
    if (l < 4) { s[l] = 0; s[260 + l] = 0; }
    __syncthreads();
    float acc = 0;
#pragma unroll
    for (int k = -4; k <= 4; k++) acc += s[l + 4 + k] * (k + 5);
    out[l] = acc;
}

extern "C" __global__ void v_unroll_row_dot(float *out, const int *in)
{
    __shared__ float a[8][64];
    int l = threadIdx.x;                      // block 64
    for (int r = 0; r < 8; r++) a[r][l] = r * l;
    __syncthreads();
    float acc = 0;
#pragma unroll
    for (int k = 0; k < 16; k++) acc += a[l % 8][k + (l / 8) * 8 % 48];
    out[l] = acc;
}

extern "C" __global__ void v_dyn_tile_pad(float *out, const int *in)
{
    extern __shared__ float dt[];             // [24][24 + 1]
    int x = threadIdx.x, y = threadIdx.y;     // block 24 x 24
    dt[y * 25 + x] = x * 100 + y;
    __syncthreads();
    out[y * 24 + x] = dt[x * 25 + y];
}

extern "C" __global__ void v_xor_f4(float4 *out, const int *in)
{
    __shared__ float4 t[8][8];
    int x = threadIdx.x % 8, y = threadIdx.x / 8;   // block 64
    t[y][x ^ y] = make_float4(x, y, 0, 1);
    __syncthreads();
    out[threadIdx.x] = t[x][y ^ x];
}

extern "C" __global__ void v_loop_var_stride(int *out, const int *in)
{
    __shared__ int s[4096];
    int l = threadIdx.x;                      // block 32
    for (int i = l; i < 4096; i += 32) s[i] = i;
    __syncthreads();
    int acc = 0;
    for (int st = 1; st <= 32; st *= 2) acc += s[(l * st) % 4096];
    out[l] = acc;
}

extern "C" __global__ void v_branch_lanes(int *out, const int *in)
{
    __shared__ int s[1024];
    int l = threadIdx.x;                      // block 96
    for (int i = l; i < 1024; i += 96) s[i] = i;
    __syncthreads();
    int v = 0;
    if (l < 40) v = s[l * 8];                 // one warp whole, the next partly
    if ((l & 1) == 0) v += s[(l * 3) % 1024];
    out[l] = v;
}

extern "C" __global__ void v_perm_from_smem(float *out, const int *in)
{
    __shared__ int perm[256];
    __shared__ float data[256 * 2];
    int l = threadIdx.x;                      // block 256
    perm[l] = (l * 37 + 11) % 256;
    data[l] = l; data[l + 256] = -l;
    __syncthreads();
    int p = perm[perm[l]];
    out[l] = data[p * 2 % 512];
}

struct Mix { char c; double d; int i; };     // 24 bytes, padded
extern "C" __global__ void v_struct_mix(double *out, const int *in)
{
    __shared__ Mix m[32];
    int l = threadIdx.x;                      // block 32
    m[l].c = (char)l; m[l].d = l * 0.25; m[l].i = -l;
    __syncthreads();
    out[l] = m[31 - l].d + m[(l * 3) % 32].i + m[l].c;
}

extern "C" __global__ void v_transpose64_dbl(double *out, const int *in)
{
    __shared__ double t[32][32 + 1];
    int x = threadIdx.x, y = threadIdx.y;     // block 32 x 8
    for (int j = 0; j < 32; j += 8) t[y + j][x] = x + 32 * (y + j);
    __syncthreads();
    for (int j = 0; j < 32; j += 8) out[(y + j) * 32 + x] = t[x][y + j];
}

extern "C" __global__ void v_half_tile(unsigned short *out, const int *in)
{
    __shared__ unsigned short t[64][66];
    int x = threadIdx.x, y = threadIdx.y;     // block 64 x 4
    for (int j = 0; j < 64; j += 4) t[y + j][x] = (unsigned short)(x + y + j);
    __syncthreads();
    for (int j = 0; j < 64; j += 4) out[(y + j) * 64 + x] = t[x][y + j];
}

extern "C" __global__ void v_atomic_conflict(int *out, const int *in)
{
    __shared__ int h[256];
    int l = threadIdx.x;                      // block 128
    for (int i = l; i < 256; i += 128) h[i] = 0;
    __syncthreads();
    atomicAdd(&h[(l % 32) * 8], 1);           // 8-way bank conflict, distinct addresses
    atomicAdd(&h[l / 32], 1);                 // same address within a warp
    __syncthreads();
    out[l] = h[l] + h[l + 128];
}

extern "C" __global__ void v_ld_v2_partial(float *out, const int *in)
{
    __shared__ float2 s[64];
    int l = threadIdx.x;                      // block 64
    s[l] = make_float2(l, -l);
    __syncthreads();
    float2 v = s[(l * 3) % 64];
    out[l] = v.y;
}
