// mma_fp.cu: the floating-point sums of the H100's tensor cores (issue 15): mma.sync f16 / bf16 /
// tf32 / e4m3 / e5m2 and wmma.mma f16 / bf16 / tf32, one warp a launch, on inputs chosen to tell
// models of the sum apart (random, wide exponent ranges, cancellation, subnormals, overflow,
// zeros / infinities / NaN, exact ties of f16 rounding). mma.sync's fragments are given register
// by register as the PTX ISA lays them out; wmma's are loaded from global memory (A row-major, B
// column-major, C and D row-major).
//   mma_fp check   the exact-sum cases (scenario "ties", f32 results): D equals the exact sum,
//                  which confirms every fragment layout (PASS / FAIL per form)
//   mma_fp dump    every case: A, B, C and D of each launch in hex (one line each, row-major;
//                  B k-major), the golden data tests/hw/h100-mma-fp.txt
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <mma.h>
#include <type_traits>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));          \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

using namespace nvcuda;

enum { T_F16, T_BF16, T_TF32, T_F32, T_E4M3, T_E5M2 };
enum { M16816_F32, M16816_F16, M16816_BF16, M1688_F16, M1688_BF16,
       M1688_TF32, M1684_TF32, M16832_E4M3, M16832_E5M2, M16832_E4E5, W16_F16_F32, W16_F16_F16,
       W16_BF16, W8_TF32, NFORMS };
struct form { const char *name; int M, N, K, ta, tb, tc, td, wmma; };
static const form forms[NFORMS] = {
    {"mma.m16n8k16.f32.f16.f16.f32", 16, 8, 16, T_F16, T_F16, T_F32, T_F32, 0},
    {"mma.m16n8k16.f16.f16.f16.f16", 16, 8, 16, T_F16, T_F16, T_F16, T_F16, 0},
    {"mma.m16n8k16.f32.bf16.bf16.f32", 16, 8, 16, T_BF16, T_BF16, T_F32, T_F32, 0},
    {"mma.m16n8k8.f32.f16.f16.f32", 16, 8, 8, T_F16, T_F16, T_F32, T_F32, 0},
    {"mma.m16n8k8.f32.bf16.bf16.f32", 16, 8, 8, T_BF16, T_BF16, T_F32, T_F32, 0},
    {"mma.m16n8k8.f32.tf32.tf32.f32", 16, 8, 8, T_TF32, T_TF32, T_F32, T_F32, 0},
    {"mma.m16n8k4.f32.tf32.tf32.f32", 16, 8, 4, T_TF32, T_TF32, T_F32, T_F32, 0},
    {"mma.m16n8k32.f32.e4m3.e4m3.f32", 16, 8, 32, T_E4M3, T_E4M3, T_F32, T_F32, 0},
    {"mma.m16n8k32.f32.e5m2.e5m2.f32", 16, 8, 32, T_E5M2, T_E5M2, T_F32, T_F32, 0},
    {"mma.m16n8k32.f32.e4m3.e5m2.f32", 16, 8, 32, T_E4M3, T_E5M2, T_F32, T_F32, 0},
    {"wmma.m16n16k16.f32.f16.f16.f32", 16, 16, 16, T_F16, T_F16, T_F32, T_F32, 1},
    {"wmma.m16n16k16.f16.f16.f16.f16", 16, 16, 16, T_F16, T_F16, T_F16, T_F16, 1},
    {"wmma.m16n16k16.f32.bf16.bf16.f32", 16, 16, 16, T_BF16, T_BF16, T_F32, T_F32, 1},
    {"wmma.m16n16k8.f32.tf32.tf32.f32", 16, 16, 8, T_TF32, T_TF32, T_F32, T_F32, 1},
};
enum { S_RAND, S_WIDE, S_CANCEL, S_SUBN, S_OVER, S_SPECIAL, S_TIES, NSCEN };
static const char *scen_name[NSCEN] = {"rand", "wide", "cancel", "subn", "over", "special", "ties"};

static int bits_of(int t) { return t == T_E4M3 || t == T_E5M2 ? 8 : t == T_F16 || t == T_BF16 ? 16 : 32; }

// ---- the kernels --------------------------------------------------------------------------
// mma.sync: per lane A[8], B[4], C[4] registers in, D[4] out
__global__ void mma_k(int f, const unsigned *A, const unsigned *B, const unsigned *C, unsigned *D)
{
    const unsigned l = threadIdx.x;
    const unsigned *a = A + l * 8, *b = B + l * 4, *c = C + l * 4;
    unsigned d[4] = {0, 0, 0, 0};
#define MMA_4_2_4(S)                                                                               \
    asm volatile(S " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                    \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                  \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]),    \
                   "r"(c[1]), "r"(c[2]), "r"(c[3]))
    switch (f) {
    case M16816_F32: MMA_4_2_4("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"); break;
    case M16816_F16:
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                     : "=r"(d[0]), "=r"(d[1])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
        break;
    case M16816_BF16: MMA_4_2_4("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"); break;
    case M1688_F16:
    case M1688_BF16:
        if (f == M1688_F16)
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                         : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                         : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        else
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                         : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                         : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        break;
    case M1688_TF32: MMA_4_2_4("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"); break;
    case M1684_TF32:
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
        break;
    case M16832_E4M3: MMA_4_2_4("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"); break;
    case M16832_E5M2: MMA_4_2_4("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"); break;
    case M16832_E4E5: MMA_4_2_4("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32"); break;
    }
    for (int i = 0; i < 4; i++)
        D[l * 4 + i] = d[i];
}

// wmma: A (16 x K row-major), B (K x 16 column-major), C and D (16 x 16 row-major) in global memory
template <typename T, typename Acc, int K>
__device__ void wmma_run(const void *A, const void *B, const void *C, void *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, K, T, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, K, T, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, K, Acc> c;
    typedef typename std::conditional<std::is_same<T, wmma::precision::tf32>::value, float, T>::type E;
    wmma::load_matrix_sync(a, (const E *)A, K);
    wmma::load_matrix_sync(b, (const E *)B, K);
    wmma::load_matrix_sync(c, (const Acc *)C, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync((Acc *)D, c, 16, wmma::mem_row_major);
}

__global__ void wmma_k(int f, const void *A, const void *B, const void *C, void *D)
{
    switch (f) {
    case W16_F16_F32: wmma_run<half, float, 16>(A, B, C, D); break;
    case W16_F16_F16: wmma_run<half, half, 16>(A, B, C, D); break;
    case W16_BF16: wmma_run<__nv_bfloat16, float, 16>(A, B, C, D); break;
    case W8_TF32: wmma_run<wmma::precision::tf32, float, 8>(A, B, C, D); break;
    }
}

// ---- the host: inputs, fragments (PTX ISA; g = lane / 4, t = lane % 4) ---------------------
static unsigned long long rng = 0x2545f4914f6cdd1dull;
static unsigned long long next_rand(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double unif(void) { return (double)(next_rand() >> 11) / 9007199254740992.0; }
static int irange(int lo, int hi) { return lo + (int)(next_rand() % (unsigned long long)(hi - lo + 1)); }

// the bits of v in type t, rounded to nearest even (tf32: an f32 whose 13 low bits are random)
static unsigned enc(int t, double v)
{
    float x = (float)v;
    unsigned u;
    switch (t) {
    case T_F16: { __half h = __double2half(v); unsigned short s; memcpy(&s, &h, 2); return s; }
    case T_BF16: { __nv_bfloat16 h = __double2bfloat16(v); unsigned short s; memcpy(&s, &h, 2); return s; }
    case T_E4M3: return __nv_cvt_double_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
    case T_E5M2: return __nv_cvt_double_to_fp8(v, __NV_NOSAT, __NV_E5M2);
    case T_TF32: memcpy(&u, &x, 4); return std::isfinite(x) ? (u & 0xffffe000u) | (unsigned)(next_rand() & 0x1fff) : u;
    default: memcpy(&u, &x, 4); return u;
    }
}
static unsigned enc_nan(int t) { return t == T_E4M3 ? 0x7f : t == T_E5M2 ? 0x7e : t == T_F16 ? 0x7e00 : t == T_BF16 ? 0x7fc0 : 0x7fc00000; }
static unsigned enc_inf(int t, int neg)
{
    unsigned u = t == T_E4M3 ? 0x7e /* no inf: its largest, 448 */ : t == T_E5M2 ? 0x7c : t == T_F16 ? 0x7c00 : t == T_BF16 ? 0x7f80 : 0x7f800000;
    return neg ? u | 1u << (bits_of(t) - 1) : u;
}
static unsigned enc_zero(int t, int neg) { return neg ? 1u << (bits_of(t) - 1) : 0; }
// a random value with exponent in [lo, hi] and a random sign
static double rval(int lo, int hi) { return (next_rand() & 1 ? -1 : 1) * ldexp(1 + unif(), irange(lo, hi)); }
static int emax(int t) { return t == T_F16 ? 15 : t == T_E4M3 ? 8 : t == T_E5M2 ? 15 : 127; }
static int emin(int t) { return t == T_F16 ? -14 : t == T_E4M3 ? -6 : t == T_E5M2 ? -14 : -126; }

static unsigned Am[16][32], Bm[32][16], Cm[16][16], Dm[16][16];

static void make_inputs(const form &q, int s)
{
    int ta = q.ta, tb = q.tb, tc = q.tc, wide = ta == T_BF16 || ta == T_TF32;
    for (int i = 0; i < q.M; i++)
        for (int k = 0; k < q.K; k++) {
            double v;
            switch (s) {
            case S_RAND: v = rval(-4, 4); break;
            case S_WIDE: v = rval(emin(ta), wide ? 40 : emax(ta)); break;
            case S_CANCEL: v = k < 2 ? fabs(rval(5, 7)) : rval(-6, 0); break;
            case S_SUBN: v = (next_rand() & 1) ? rval(emin(ta) - (ta == T_E4M3 ? 3 : ta == T_E5M2 ? 2 : 10), emin(ta) - 1)
                                               : rval(emin(ta), emin(ta) + 3);
                break;
            case S_OVER: v = rval(wide ? 60 : emax(ta) - 3, wide ? 64 : emax(ta)); break;
            case S_SPECIAL: v = i >= 7 ? rval(-12, -4) : rval(-4, 4); break;
            default: v = (double)irange(0, ta == T_E5M2 ? 7 : 15); break;
            }
            Am[i][k] = enc(ta, v);
        }
    if (s == S_CANCEL)
        for (int i = 0; i < q.M; i++)
            Am[i][1] = Am[i][0];
    for (int k = 0; k < q.K; k++)
        for (int j = 0; j < q.N; j++) {
            double v;
            switch (s) {
            case S_RAND: v = rval(-4, 4); break;
            case S_WIDE: v = rval(emin(tb), wide ? 40 : emax(tb)); break;
            case S_CANCEL: v = k < 2 ? rval(5, 7) : rval(-6, 0); break;
            case S_SUBN: v = wide ? (j < q.N / 2 ? rval(100, 126) : rval(-12, 0)) : rval(emin(tb), emax(tb)); break;
            case S_OVER: v = rval(wide ? 60 : emax(tb) - 3, wide ? 64 : emax(tb)); break;
            case S_SPECIAL: v = k == 0 ? fabs(rval(wide ? 126 : emax(tb), wide ? 127 : emax(tb))) : rval(-4, 0); break;
            default: v = (double)irange(-15, 15); if (tb == T_E5M2) v = (double)irange(-7, 7); break;
            }
            Bm[k][j] = enc(tb, v);
        }
    if (s == S_CANCEL)
        for (int j = 0; j < q.N; j++)
            Bm[1][j] = Bm[0][j] ^ 1u << (bits_of(tb) - 1);
    for (int i = 0; i < q.M; i++)
        for (int j = 0; j < q.N; j++) {
            double v;
            switch (s) {
            case S_RAND: v = rval(-4, 6); break;
            case S_WIDE: v = rval(emin(tc), tc == T_F16 ? 15 : 30); break;
            case S_CANCEL: v = rval(-8, 0); break;
            case S_SUBN: v = (next_rand() & 1) ? rval(emin(tc) - 8, emin(tc) - 1) : rval(emin(tc), emin(tc) + 2); break;
            case S_OVER: v = tc == T_F16 ? rval(12, 15) : (next_rand() & 1) ? rval(126, 127) : rval(0, 10); break;
            case S_SPECIAL: v = i >= 7 ? rval(-10, -4) : rval(-4, 4); break;
            default: v = (double)irange(-100, 100); break;
            }
            Cm[i][j] = enc(tc, v);
        }
    if (s == S_SPECIAL) {
        // row 0: a NaN; 1: an infinity; 2: +inf and -inf; 3: inf x 0 in even columns; 4: zeros and
        // C +-0; 5: -0 and C -0; 6: every other A zero; 7..15: A[.][0] zero against a large B[0][.]
        Am[0][3] = enc_nan(ta);
        Am[1][2] = enc_inf(ta, 0);
        Am[2][0] = enc_inf(ta, 0);
        Am[2][1] = enc_inf(ta, 1);
        Am[3][q.K - 1] = enc_inf(ta, 1);
        for (int j = 0; j < q.N; j += 2)
            Bm[q.K - 1][j] = enc_zero(tb, j & 2);
        for (int k = 0; k < q.K; k++) {
            Am[4][k] = enc_zero(ta, 0);
            Am[5][k] = enc_zero(ta, 1);
            if (k % 2 == 0)
                Am[6][k] = enc_zero(ta, k & 2);
        }
        for (int j = 0; j < q.N; j++) {
            Cm[4][j] = j % 2 ? enc_zero(tc, j & 2) : Cm[4][j];
            Cm[5][j] = enc_zero(tc, 1);
        }
        for (int i = 7; i < q.M; i++)
            Am[i][0] = enc_zero(ta, i & 1);
    }
}

// the registers of lane l as the PTX ISA lays the fragments out
static unsigned elem_reg(const form &q, char which, unsigned l, int r)
{
    unsigned g = l / 4, t = l % 4, eb = which == 'a' ? bits_of(q.ta) : which == 'b' ? bits_of(q.tb) : bits_of(which == 'c' ? q.tc : q.td);
    unsigned per = 32 / eb, reg = 0;
    for (unsigned e = 0; e < per; e++) {
        unsigned v;
        if (which == 'a') {
            unsigned row, col;
            if (q.M * q.K * eb / 1024 == 2) { row = g + 8 * r; col = per * t + e; } // 2 registers
            else { row = g + 8 * (r % 2); col = per * t + e + 4 * per * (r / 2); }
            v = Am[row][col];
        } else if (which == 'b') {
            v = Bm[per * t + e + 4 * per * r][g];
        } else {
            unsigned i = per == 1 ? r : 2 * r + e; // c0..c3
            v = Cm[g + 8 * (i / 2)][2 * t + i % 2];
        }
        reg |= v << (eb * e);
    }
    return reg;
}

static unsigned dec_d(const form &q, unsigned l, unsigned r, unsigned reg)
{
    unsigned g = l / 4, t = l % 4;
    if (q.td == T_F32) {
        Dm[g + 8 * (r / 2)][2 * t + r % 2] = reg;
    } else {
        Dm[g + 8 * r][2 * t] = reg & 0xffff;
        Dm[g + 8 * r][2 * t + 1] = reg >> 16;
    }
    return 0;
}

static void run(const form &q)
{
    static unsigned A[32 * 8], B[32 * 4], C[32 * 4], D[32 * 4];
    unsigned *dA, *dB, *dC, *dD;
    CK(cudaMalloc(&dA, 4096)); CK(cudaMalloc(&dB, 4096)); CK(cudaMalloc(&dC, 4096)); CK(cudaMalloc(&dD, 4096));
    if (!q.wmma) {
        unsigned na = q.M * q.K * bits_of(q.ta) / 1024, nb = q.K * q.N * bits_of(q.tb) / 1024;
        unsigned nc = q.M * q.N * bits_of(q.tc) / 1024, nd = q.M * q.N * bits_of(q.td) / 1024;
        memset(A, 0, sizeof A); memset(B, 0, sizeof B); memset(C, 0, sizeof C);
        for (unsigned l = 0; l < 32; l++) {
            for (unsigned r = 0; r < na; r++) A[l * 8 + r] = elem_reg(q, 'a', l, r);
            for (unsigned r = 0; r < nb; r++) B[l * 4 + r] = elem_reg(q, 'b', l, r);
            for (unsigned r = 0; r < nc; r++) C[l * 4 + r] = elem_reg(q, 'c', l, r);
        }
        CK(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice));
        mma_k<<<1, 32>>>((int)(&q - forms), dA, dB, dC, dD);
        CK(cudaGetLastError());
        CK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
        for (unsigned l = 0; l < 32; l++)
            for (unsigned r = 0; r < nd; r++)
                dec_d(q, l, r, D[l * 4 + r]);
    } else {
        // memory images: A row-major (16 x K), B column-major (column j: K elements), C, D row-major
        unsigned char ha[4096], hb[4096], hc[4096], hd[4096];
        unsigned ea = bits_of(q.ta) / 8, ec = bits_of(q.tc) / 8;
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < q.K; k++) {
                memcpy(ha + (i * q.K + k) * ea, &Am[i][k], ea);
                memcpy(hb + (i * q.K + k) * ea, &Bm[k][i], ea);
            }
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++)
                memcpy(hc + (i * 16 + j) * ec, &Cm[i][j], ec);
        CK(cudaMemcpy(dA, ha, 4096, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hb, 4096, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dC, hc, 4096, cudaMemcpyHostToDevice));
        wmma_k<<<1, 32>>>((int)(&q - forms), dA, dB, dC, dD);
        CK(cudaGetLastError());
        CK(cudaMemcpy(hd, dD, 4096, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++) {
                unsigned v = 0;
                memcpy(&v, hd + (i * 16 + j) * ec, ec);
                Dm[i][j] = v;
            }
    }
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
}

static void print_mat(const form &q, int s, const char *what, int t, int rows, int cols, unsigned (*m)[16],
                      unsigned (*m32)[32])
{
    printf("%s %s %s", q.name, scen_name[s], what);
    int w = bits_of(t) / 4;
    putchar(' ');
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            printf("%0*x", w, m ? m[i][j] : m32[i][j]);
    putchar('\n');
}

int main(int argc, char **argv)
{
    int dump = argc > 1 && !strcmp(argv[1], "dump"), check = argc > 1 && !strcmp(argv[1], "check");
    if (!dump && !check) {
        fprintf(stderr, "usage: mma_fp check|dump\n");
        return 2;
    }
    int bad = 0, checked = 0;
    for (int f = 0; f < NFORMS; f++)
        for (int s = 0; s < NSCEN; s++) {
            const form &q = forms[f];
            make_inputs(q, s);
            run(q);
            if (dump) {
                print_mat(q, s, "A", q.ta, q.M, q.K, NULL, Am);
                printf("%s %s B ", q.name, scen_name[s]);
                for (int k = 0; k < q.K; k++)
                    for (int j = 0; j < q.N; j++)
                        printf("%0*x", bits_of(q.tb) / 4, Bm[k][j]);
                putchar('\n');
                print_mat(q, s, "C", q.tc, q.M, q.N, Cm, NULL);
                print_mat(q, s, "D", q.td, q.M, q.N, Dm, NULL);
            }
            if (check && s == S_TIES && q.td == T_F32) { // small integers: every sum exact in f32
                int wrong = 0;
                for (int i = 0; i < q.M; i++)
                    for (int j = 0; j < q.N; j++) {
                        double want, x;
                        float fc, fd;
                        if (q.tc == T_F32) memcpy(&fc, &Cm[i][j], 4);
                        else { __half h; unsigned short u = (unsigned short)Cm[i][j]; memcpy(&h, &u, 2); fc = __half2float(h); }
                        want = fc;
                        for (int k = 0; k < q.K; k++) {
                            double a, b;
                            unsigned ua = Am[i][k], ub = Bm[k][j];
                            auto val = [](int t, unsigned u) -> double {
                                if (t == T_F16) { __half h; unsigned short s = (unsigned short)u; memcpy(&h, &s, 2); return __half2float(h); }
                                if (t == T_BF16) { __nv_bfloat16 h; unsigned short s = (unsigned short)u; memcpy(&h, &s, 2); return __bfloat162float(h); }
                                if (t == T_E4M3 || t == T_E5M2) { __half_raw h = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)u, t == T_E4M3 ? __NV_E4M3 : __NV_E5M2); __half hh(h); return __half2float(hh); }
                                float x; unsigned v = u & 0xffffe000u; memcpy(&x, &v, 4); return x;
                            };
                            a = val(q.ta, ua);
                            b = val(q.tb, ub);
                            want += a * b;
                        }
                        memcpy(&fd, &Dm[i][j], 4);
                        x = fd;
                        if (x != want && wrong++ < 3)
                            printf("  %s (%d,%d): %.9g, expected %.9g\n", q.name, i, j, x, want);
                    }
                printf("%s %s\n", q.name, wrong ? "FAIL" : "PASS");
                bad += wrong != 0;
                checked++;
            }
        }
    if (check)
        printf("%d forms, %d failed\n", checked, bad);
    return bad ? 1 : 0;
}
