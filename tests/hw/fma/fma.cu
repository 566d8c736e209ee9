// fma.cu: which multiply-add pairs without a rounding modifier ptxas fuses into one FFMA / DFMA /
// HFMA2 on sm_90 (PTX: "mul/add ... may be optimized aggressively by the code generator"). Each
// pattern is chosen so that fused and unfused give different bits: a = b = 1 + 2^-12 (a*b =
// 1 + 2^-11 + 2^-24 is not a float), x = -1, y = 1. One thread; prints one line per result.
// smemlab's rule (src/ptx/sass_fma.c) must print the same as the H100 (tests/hw/h100-fma.txt).
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>

#define N 32
__global__ void k(const float *in, const double *din, const unsigned short *hin, float *out,
                  double *dout, unsigned short *hout, const int *flag)
{
    float b = in[1], x = in[2], y = in[3], c = in[4], b2 = in[5], na = in[6];
    float A[N]; // A[i] = a = 1 + 2^-12 for pattern i: distinct registers, so ptxas merges no two
    for (int i = 0; i < N; i++) A[i] = in[8 + i]; // products (nvcc's PTX never repeats one either)
    float r[N];
    for (int i = 0; i < N; i++) r[i] = 0;
    // 0 mul; add (one use)
    asm("{ .reg .f32 t0; mul.f32 t0, %1, %2; add.f32 %0, t0, %3; }" : "=f"(r[0]) : "f"(A[0]), "f"(b), "f"(x));
    // 1 mul; sub x - t
    asm("{ .reg .f32 t1; mul.f32 t1, %1, %2; sub.f32 %0, %3, t1; }" : "=f"(r[1]) : "f"(A[1]), "f"(b), "f"(y));
    // 2 mul; sub t - y
    asm("{ .reg .f32 t2; mul.f32 t2, %1, %2; sub.f32 %0, t2, %3; }" : "=f"(r[2]) : "f"(A[2]), "f"(b), "f"(y));
    // 3, 4 one mul used by two adds
    asm("{ .reg .f32 t3; mul.f32 t3, %2, %3; add.f32 %0, t3, %4; add.f32 %1, t3, %5; }" : "=f"(r[3]), "=f"(r[4]) : "f"(A[3]), "f"(b), "f"(x), "f"(c));
    // 5 mul.rn; add
    asm("{ .reg .f32 t5; mul.rn.f32 t5, %1, %2; add.f32 %0, t5, %3; }" : "=f"(r[5]) : "f"(A[5]), "f"(b), "f"(x));
    // 6 mul; add.rn
    asm("{ .reg .f32 t6; mul.f32 t6, %1, %2; add.rn.f32 %0, t6, %3; }" : "=f"(r[6]) : "f"(A[6]), "f"(b2), "f"(x));
    // 7, 8 mul used by an add and copied out (its product is needed)
    asm("{ .reg .f32 t7; mul.f32 t7, %2, %3; add.f32 %0, t7, %4; mov.f32 %1, t7; }" : "=f"(r[7]), "=f"(r[8]) : "f"(b), "f"(A[7]), "f"(x));
    // 9 mul.ftz; add.ftz
    asm("{ .reg .f32 t9; mul.ftz.f32 t9, %1, %2; add.ftz.f32 %0, t9, %3; }" : "=f"(r[9]) : "f"(A[9]), "f"(b), "f"(x));
    // 10 mul.ftz; add (mixed)
    asm("{ .reg .f32 t10; mul.ftz.f32 t10, %1, %2; add.f32 %0, t10, %3; }" : "=f"(r[10]) : "f"(b2), "f"(A[10]), "f"(x));
    // 11 mul copied out of the asm, the add in a branch
    float t11 = 0;
    asm("{ .reg .f32 t11; mul.f32 t11, %1, %2; mov.f32 %0, t11; }" : "=f"(t11) : "f"(A[11]), "f"(b));
    if (*flag) r[11] = t11 + x; else r[11] = t11 - x;
    // 12 mul.sat; add
    asm("{ .reg .f32 t12; mul.sat.f32 t12, %1, %2; add.f32 %0, t12, %3; }" : "=f"(r[12]) : "f"(A[12]), "f"(b), "f"(x));
    // 13, 14 C: a * b - y and x + a * b (what nvcc writes for them)
    r[13] = A[13] * b - y;
    float t14 = A[14] * b; r[14] = x + t14;
    // 15-18 an add of two products: t = a*b (residual +2^-24), u = na*b (-(a*b)): which is fused?
    asm("{ .reg .f32 t15, u15; mul.f32 t15, %1, %2; mul.f32 u15, %3, %2; add.f32 %0, t15, u15; }" : "=f"(r[15]) : "f"(A[15]), "f"(b), "f"(na));
    asm("{ .reg .f32 t16, u16; mul.f32 t16, %1, %2; mul.f32 u16, %3, %2; add.f32 %0, u16, t16; }" : "=f"(r[16]) : "f"(A[16]), "f"(b), "f"(na));
    asm("{ .reg .f32 t17, u17; mul.f32 u17, %3, %2; mul.f32 t17, %1, %2; add.f32 %0, t17, u17; }" : "=f"(r[17]) : "f"(A[17]), "f"(b), "f"(na));
    asm("{ .reg .f32 t18, u18; mul.f32 u18, %3, %2; mul.f32 t18, %1, %2; add.f32 %0, u18, t18; }" : "=f"(r[18]) : "f"(A[18]), "f"(b), "f"(na));
    // 19, 20 mul used by an add and a mul
    asm("{ .reg .f32 t19; mul.f32 t19, %2, %3; add.f32 %0, t19, %4; mul.f32 %1, t19, %5; }" : "=f"(r[19]), "=f"(r[20]) : "f"(A[19]), "f"(b), "f"(x), "f"(c));
    // 21 mul as an fma.rn's addend (nothing to fuse)
    asm("{ .reg .f32 t21; mul.f32 t21, %1, %2; fma.rn.f32 %0, %3, %3, t21; }" : "=f"(r[21]) : "f"(A[21]), "f"(b), "f"(y));
    // 22 sub of two products, the first fused: t - u
    asm("{ .reg .f32 t22, u22; mul.f32 t22, %1, %2; mul.f32 u22, %1, %2; sub.f32 %0, t22, u22; }" : "=f"(r[22]) : "f"(A[22]), "f"(b));
    // 23 sub.f32 with the product as both sources
    asm("{ .reg .f32 t23; mul.f32 t23, %1, %2; sub.f32 %0, t23, t23; }" : "=f"(r[23]) : "f"(A[23]), "f"(b));
    // 24 a product used by an add inside a loop over a loaded count
    float acc = x;
    for (int i = 0; i < *flag; i++) { float p; asm("mul.f32 %0, %1, %2;" : "=f"(p) : "f"(A[24]), "f"(b)); acc = acc + p; }
    r[24] = acc;
    for (int i = 0; i < N; i++) out[i] = r[i];
    // f64: A = B = 1 + 2^-27 (A*B = 1 + 2^-26 + 2^-54), X = -1
    double DA = din[0], DB = din[1], X = din[2], DA2 = din[3], d0, d1;
    asm("{ .reg .f64 td0; mul.f64 td0, %1, %2; add.f64 %0, td0, %3; }" : "=d"(d0) : "d"(DA), "d"(DB), "d"(X));
    asm("{ .reg .f64 td1; mul.f64 td1, %1, %2; sub.f64 %0, %3, td1; }" : "=d"(d1) : "d"(DA2), "d"(DB), "d"(X));
    dout[0] = d0; dout[1] = d1; dout[2] = din[4] * DB + X;
    // f16: h = 1 + 2^-6 (h*h = 1 + 2^-5 + 2^-12), hx = -1
    unsigned short h = hin[0], hx = hin[1], h2 = hin[2], h0, h1;
    asm("{ .reg .f16 th0; mul.f16 th0, %1, %1; add.f16 %0, th0, %2; }" : "=h"(h0) : "h"(h), "h"(hx));
    asm("{ .reg .f16 th1; mul.f16 th1, %1, %1; sub.f16 %0, %2, th1; }" : "=h"(h1) : "h"(h2), "h"(hx));
    hout[0] = h0; hout[1] = h1;
    // f16x2 (both halves h, -1) and bf16 (g = 1 + 2^-4: g*g = 1 + 2^-3 + 2^-8, gx = -1)
    unsigned hp = (unsigned)h | (unsigned)h << 16, hxp = (unsigned)hx | (unsigned)hx << 16, p0;
    asm("{ .reg .f16x2 tp0; mul.f16x2 tp0, %1, %1; add.f16x2 %0, tp0, %2; }" : "=r"(p0) : "r"(hp), "r"(hxp));
    unsigned short g = hin[3], gx = hin[4], g0;
    asm("{ .reg .b16 tg0; mul.bf16 tg0, %1, %1; add.bf16 %0, tg0, %2; }" : "=h"(g0) : "h"(g), "h"(gx));
    hout[2] = (unsigned short)p0; hout[3] = (unsigned short)(p0 >> 16); hout[4] = g0;
}

int main()
{
    float h[8 + N];
    unsigned ab = 0x3f800800u, nab = 0xbf800800u; // 1 + 2^-12, -(1 + 2^-12)
    memcpy(&h[0], &ab, 4); memcpy(&h[1], &ab, 4);
    h[2] = -1.0f; h[3] = 1.0f; h[4] = 1.5f;
    memcpy(&h[5], &ab, 4); memcpy(&h[6], &nab, 4); h[7] = 0;
    for (int i = 0; i < N; i++) memcpy(&h[8 + i], &ab, 4);
    double dh[5] = {1.0 + 0x1p-27, 1.0 + 0x1p-27, -1.0, 1.0 + 0x1p-27, 1.0 + 0x1p-27};
    unsigned short hh[5] = {0x3c10, 0xbc00, 0x3c10, 0x3f88, 0xbf80}; // f16 1 + 2^-6, -1; bf16 1 + 2^-4, -1
    int one = 1;
    float *din, *dout; double *ddin, *ddout; unsigned short *hdin, *hdout; int *df;
    cudaMalloc(&din, sizeof h); cudaMalloc(&dout, N * 4); cudaMalloc(&df, 4);
    cudaMalloc(&ddin, sizeof dh); cudaMalloc(&ddout, 3 * 8); cudaMalloc(&hdin, sizeof hh); cudaMalloc(&hdout, 10);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(ddin, dh, sizeof dh, cudaMemcpyHostToDevice);
    cudaMemcpy(hdin, hh, sizeof hh, cudaMemcpyHostToDevice);
    cudaMemcpy(df, &one, 4, cudaMemcpyHostToDevice);
    k<<<1, 1>>>(din, ddin, hdin, dout, ddout, hdout, df);
    float r[N]; double d[3]; unsigned short hr[5];
    cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
    cudaMemcpy(d, ddout, sizeof d, cudaMemcpyDeviceToHost);
    cudaMemcpy(hr, hdout, sizeof hr, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 25; i++) { unsigned u; memcpy(&u, &r[i], 4); printf("f32 %2d %08x %.10g\n", i, u, r[i]); }
    for (int i = 0; i < 3; i++) { unsigned long long u; memcpy(&u, &d[i], 8); printf("f64 %2d %016llx %.17g\n", i, u, d[i]); }
    for (int i = 0; i < 4; i++) printf("f16 %2d %04x\n", i, hr[i]);
    printf("bf16 0 %04x\n", hr[4]);
    return 0;
}
