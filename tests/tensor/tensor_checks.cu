// tensor_checks.cu: ldmatrix, stmatrix, mma.sync, mbarrier and cp.async groups, each checked by the
// program itself against the PTX ISA's definitions computed on the host (our own code, written for
// smemlab's tests; it runs as well on a GPU: nvcc -arch=sm_90 -cudart shared). Usage:
//   tensor_checks MODE   MODE: ldsm stsm mma mbar | deadlock wmma race norace (expected to be
//                        refused or to show a hazard under smemlab run)
// Prints "MODE PASS" (exit 0) or what differs and "MODE FAIL" (exit 1).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// ---- ldmatrix: 4 matrices of 8 rows x 8 halves; row r of matrix m at a scattered place ----
// smem: 64 rows of 16 bytes (row k holds halves 8k .. 8k+7 = k*8 + c); lane l gives row perm(l).
__host__ __device__ inline unsigned perm_row(unsigned l) { return (l * 13 + 5) % 64; }

__global__ void ldsm_kernel(unsigned *out)
{
    __shared__ __align__(16) unsigned short s[64 * 8];
    unsigned l = threadIdx.x;
    for (unsigned i = l; i < 64 * 8; i += 32) s[i] = (unsigned short)i;
    __syncwarp();
    unsigned a = saddr(s) + perm_row(l) * 16;
    unsigned r[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
    for (int k = 0; k < 4; k++) out[(0 * 4 + k) * 32 + l] = r[k];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
    for (int k = 0; k < 4; k++) out[(1 * 4 + k) * 32 + l] = r[k];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
    for (int k = 0; k < 2; k++) out[(2 * 4 + k) * 32 + l] = r[k];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
    out[(3 * 4 + 0) * 32 + l] = r[0];
}

// the PTX ISA's fragment: without .trans, lane l holds row l/4, columns 2(l%4), 2(l%4)+1 of
// matrix k; with .trans, of the transposed matrix (row 2(l%4)+h, column l/4 as stored)
static unsigned expect_ldsm(unsigned l, unsigned k, int trans)
{
    unsigned v = 0;
    for (unsigned h = 0; h < 2; h++) {
        unsigned row = trans ? 2 * (l % 4) + h : l / 4, col = trans ? l / 4 : 2 * (l % 4) + h;
        unsigned srow = perm_row(8 * k + row);
        v |= (srow * 8 + col) << (16 * h);
    }
    return v;
}

static int check_ldsm(void)
{
    unsigned *d, h[16 * 32];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemset(d, 0, sizeof h));
    ldsm_kernel<<<1, 32>>>(d);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    struct { int form, count, trans; } f[4] = {{0, 4, 0}, {1, 4, 1}, {2, 2, 0}, {3, 1, 1}};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < f[i].count; k++)
            for (unsigned l = 0; l < 32; l++) {
                unsigned got = h[(f[i].form * 4 + k) * 32 + l], want = expect_ldsm(l, k, f[i].trans);
                if (got != want && bad++ < 5)
                    printf("ldmatrix form %d matrix %d lane %u: 0x%08x, expected 0x%08x\n", i, k, l, got, want);
            }
    CK(cudaFree(d));
    return bad;
}

// ---- stmatrix: every lane gives 4 registers; the rows land where the lanes say ----
__global__ void stsm_kernel(unsigned short *out, int trans)
{
    __shared__ __align__(16) unsigned short s[64 * 8];
    unsigned l = threadIdx.x;
    for (unsigned i = l; i < 64 * 8; i += 32) s[i] = 0xffff;
    __syncwarp();
    unsigned a = saddr(s) + perm_row(l) * 16, r[4];
    for (int k = 0; k < 4; k++) r[k] = (l * 4 + k) * 2 | ((l * 4 + k) * 2 + 1) << 16;
    if (trans)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(a), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    else
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(a), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    __syncwarp();
    for (unsigned i = l; i < 64 * 8; i += 32) out[i] = s[i];
}

static int check_stsm(void)
{
    unsigned short *d, h[64 * 8];
    int bad = 0;
    CK(cudaMalloc(&d, sizeof h));
    for (int trans = 0; trans < 2; trans++) {
        stsm_kernel<<<1, 32>>>(d, trans);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        unsigned short want[64 * 8];
        memset(want, 0xff, sizeof want);
        for (unsigned l = 0; l < 32; l++)
            for (unsigned k = 0; k < 4; k++)
                for (unsigned hh = 0; hh < 2; hh++) {
                    unsigned row = trans ? 2 * (l % 4) + hh : l / 4, col = trans ? l / 4 : 2 * (l % 4) + hh;
                    want[perm_row(8 * k + row) * 8 + col] = (unsigned short)((l * 4 + k) * 2 + hh);
                }
        for (int i = 0; i < 64 * 8; i++)
            if (h[i] != want[i] && bad++ < 5)
                printf("stmatrix%s: half %d is 0x%04x, expected 0x%04x\n", trans ? ".trans" : "", i, h[i], want[i]);
    }
    CK(cudaFree(d));
    return bad;
}

// ---- mma.sync: A (16 x K) row-major, B (K x 8) as B[k][n], C, D (16 x 8); fragments as the PTX
// ISA lays them out: g = lane / 4, t = lane % 4; a register holds `epr` elements ----
template <typename T> __device__ unsigned pack(const T *p, int epr, int stride)
{
    unsigned v = 0;
    for (int s = 0; s < epr; s++) {
        unsigned e;
        if (sizeof(T) == 1) e = (unsigned char)p[s * stride];
        else if (sizeof(T) == 2) e = *(const unsigned short *)&p[s * stride];
        else e = *(const unsigned *)&p[s * stride];
        v |= e << (32 / epr * s);
    }
    return v;
}

// A's register r of lane l: row g + 8 (r & 1), columns epr t + s + 4 epr (r >> 1)
template <typename T> __device__ void frag_a(const T *A, int K, int epr, unsigned *a, int na)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    for (int r = 0; r < na; r++)
        a[r] = pack(A + (g + 8 * (r & 1)) * K + epr * t + 4 * epr * (r >> 1), epr, 1);
}
// B's register r: rows k = epr t + s + 4 epr r, column g
template <typename T> __device__ void frag_b(const T *B, int epr, unsigned *b, int nb)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    for (int r = 0; r < nb; r++)
        b[r] = pack(B + (epr * t + 4 * epr * r) * 8 + g, epr, 8);
}

__global__ void mma_f16_f32(const half *A, const half *B, const float *C, float *D)
{
    unsigned a[4], b[2];
    frag_a(A, 16, 2, a, 4);
    frag_b(B, 2, b, 2);
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

__global__ void mma_bf16_f32(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *C, float *D)
{
    unsigned a[4], b[2];
    frag_a(A, 16, 2, a, 4);
    frag_b(B, 2, b, 2);
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

__global__ void mma_f16_f16_k8(const half *A, const half *B, const half *C, half *D)
{
    unsigned a[2], b[1];
    frag_a(A, 8, 2, a, 2);
    frag_b(B, 2, b, 1);
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    unsigned c[2], d[2];
    for (int i = 0; i < 2; i++) c[i] = pack(C + (g + 8 * i) * 8 + 2 * t, 2, 1);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) {
        unsigned short lo = (unsigned short)d[i], hi = (unsigned short)(d[i] >> 16);
        memcpy(&D[(g + 8 * i) * 8 + 2 * t], &lo, 2);
        memcpy(&D[(g + 8 * i) * 8 + 2 * t + 1], &hi, 2);
    }
}

__global__ void mma_tf32(const float *A, const float *B, const float *C, float *D)
{
    unsigned a[4], b[2];
    frag_a(A, 8, 1, a, 4);
    frag_b(B, 1, b, 2);
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

__global__ void mma_s8(const signed char *A, const signed char *B, const int *C, int *D, int sat)
{
    unsigned a[4], b[2];
    frag_a(A, 32, 4, a, 4);
    frag_b(B, 4, b, 2);
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    int c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    if (sat)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

template <typename T> static T *dev(const T *h, size_t n)
{
    T *d;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static unsigned rnd(unsigned *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }

// Inputs are small integers times powers of two: every sum is exact in f32 (and in f16 for the
// f16 accumulator), so D must equal the reference bit for bit whatever the order of the sums.
static int check_mma(void)
{
    int bad = 0;
    unsigned seed = 7;
    float fa[16 * 32], fb[32 * 8], fc[16 * 8], ref[16 * 8], got[16 * 8];
    half ha[16 * 16], hb[16 * 8], hc[16 * 8], hd[16 * 8];
    __nv_bfloat16 ba[16 * 16], bb[16 * 8];
    float *dC, *dD;
    CK(cudaMalloc(&dD, sizeof got));
    // f16 and bf16, f32 accumulators, k16
    for (int i = 0; i < 16 * 16; i++) fa[i] = (float)((int)(rnd(&seed) % 15) - 7) * 0.25f;
    for (int i = 0; i < 16 * 8; i++) fb[i] = (float)((int)(rnd(&seed) % 15) - 7) * 0.5f;
    for (int i = 0; i < 16 * 8; i++) fc[i] = (float)((int)(rnd(&seed) % 101) - 50);
    for (int i = 0; i < 16 * 16; i++) { ha[i] = __float2half(fa[i]); ba[i] = __float2bfloat16(fa[i]); }
    for (int i = 0; i < 16 * 8; i++) { hb[i] = __float2half(fb[i]); bb[i] = __float2bfloat16(fb[i]); }
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            float s = fc[m * 8 + n];
            for (int k = 0; k < 16; k++) s += fa[m * 16 + k] * fb[k * 8 + n];
            ref[m * 8 + n] = s;
        }
    dC = dev(fc, 16 * 8);
    for (int v = 0; v < 2; v++) {
        if (v == 0) {
            half *dA = dev(ha, 256), *dB = dev(hb, 128);
            mma_f16_f32<<<1, 32>>>(dA, dB, dC, dD);
            CK(cudaDeviceSynchronize());
            CK(cudaFree(dA)); CK(cudaFree(dB));
        } else {
            __nv_bfloat16 *dA = dev(ba, 256), *dB = dev(bb, 128);
            mma_bf16_f32<<<1, 32>>>(dA, dB, dC, dD);
            CK(cudaDeviceSynchronize());
            CK(cudaFree(dA)); CK(cudaFree(dB));
        }
        CK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 128; i++)
            if (got[i] != ref[i] && bad++ < 5)
                printf("mma %s: D[%d] = %g, expected %g\n", v ? "bf16" : "f16", i, got[i], ref[i]);
    }
    // f16 accumulators, k8
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 8; k++) ha[m * 8 + k] = __float2half(fa[m * 16 + k]);
    for (int i = 0; i < 128; i++) hc[i] = __float2half(fc[i]);
    {
        half *dA = dev(ha, 128), *dB = dev(hb, 64), *dHC = dev(hc, 128), *dHD;
        CK(cudaMalloc(&dHD, sizeof hd));
        mma_f16_f16_k8<<<1, 32>>>(dA, dB, dHC, dHD);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hd, dHD, sizeof hd, cudaMemcpyDeviceToHost));
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 8; n++) {
                float s = fc[m * 8 + n];
                for (int k = 0; k < 8; k++) s += fa[m * 16 + k] * fb[k * 8 + n];
                if (__half2float(hd[m * 8 + n]) != s && bad++ < 5)
                    printf("mma f16.f16 k8: D[%d][%d] = %g, expected %g\n", m, n, __half2float(hd[m * 8 + n]), s);
            }
        CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dHC)); CK(cudaFree(dHD));
    }
    // tf32, k8: the low 13 bits of an operand are not used (1 + 2^-20 counts as 1)
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 8; k++) fa[m * 8 + k] = (float)((int)(rnd(&seed) % 15) - 7) * 0.125f * (1.0f + 0x1p-20f);
    for (int i = 0; i < 64; i++) fb[i] = (float)((int)(rnd(&seed) % 15) - 7);
    {
        float *dA = dev(fa, 128), *dB = dev(fb, 64);
        mma_tf32<<<1, 32>>>(dA, dB, dC, dD);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 8; n++) {
                float s = fc[m * 8 + n];
                for (int k = 0; k < 8; k++) s += ((float)((int)lrintf(fa[m * 8 + k] / (1.0f + 0x1p-20f) * 8)) / 8) * fb[k * 8 + n];
                if (got[m * 8 + n] != s && bad++ < 5)
                    printf("mma tf32: D[%d][%d] = %g, expected %g\n", m, n, got[m * 8 + n], s);
            }
        CK(cudaFree(dA)); CK(cudaFree(dB));
    }
    // s8, k32: exact; with .satfinite the sums clamp; without, they wrap
    signed char ia[16 * 32], ib[32 * 8];
    int ic[16 * 8], id[16 * 8];
    for (int i = 0; i < 16 * 32; i++) ia[i] = (signed char)(rnd(&seed) & 0xff);
    for (int i = 0; i < 32 * 8; i++) ib[i] = (signed char)(rnd(&seed) & 0xff);
    for (int i = 0; i < 16 * 8; i++) ic[i] = (int)rnd(&seed) - (1 << 23);
    ic[0] = 2147483000; ic[1] = -2147483000; // near the ends: .satfinite clamps, else wraps
    {
        signed char *dA = dev(ia, 512), *dB = dev(ib, 256);
        int *dIC = dev(ic, 128), *dID;
        CK(cudaMalloc(&dID, sizeof id));
        for (int sat = 0; sat < 2; sat++) {
            mma_s8<<<1, 32>>>(dA, dB, dIC, dID, sat);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(id, dID, sizeof id, cudaMemcpyDeviceToHost));
            for (int m = 0; m < 16; m++)
                for (int n = 0; n < 8; n++) {
                    long long s = ic[m * 8 + n];
                    for (int k = 0; k < 32; k++) s += (long long)ia[m * 32 + k] * ib[k * 8 + n];
                    int want = sat ? (int)(s > 2147483647LL ? 2147483647LL : s < -2147483648LL ? -2147483648LL : s)
                                   : (int)(unsigned)(unsigned long long)s;
                    if (id[m * 8 + n] != want && bad++ < 5)
                        printf("mma s8%s: D[%d][%d] = %d, expected %d\n", sat ? " satfinite" : "", m, n, id[m * 8 + n], want);
                }
        }
        CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dIC)); CK(cudaFree(dID));
    }
    CK(cudaFree(dC)); CK(cudaFree(dD));
    return bad;
}

// ---- mbarrier: 128 threads, a barrier expecting 128 arrivals; three phases waited with
// try_wait.parity; test_wait with the state token; pending_count; expect_tx / complete_tx;
// arrive_drop lowers the count of the next phases ----
__global__ void mbar_kernel(int *out)
{
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int stage[128];
    unsigned b = saddr(&bar), tid = threadIdx.x;
    if (tid == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(128) : "memory");
    __syncthreads();
    int sum = 0;
    for (unsigned ph = 0; ph < 3; ph++) {
        stage[tid] = (int)(tid * 10 + ph);
        unsigned long long st;
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(b), "r"(ph & 1) : "memory");
        unsigned t2;
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(t2) : "r"(b), "l"(st) : "memory");
        sum += stage[(tid + 37) % 128] + (int)t2 * 1000; // what another thread wrote before it arrived
        __syncthreads();
    }
    // a transaction count: the phase waits for both the arrivals and the bytes
    if (tid == 0)
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(64) : "memory");
    __syncthreads();
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
    unsigned early;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(early) : "r"(b), "r"(1) : "memory");
    __syncthreads(); // every thread has arrived: only the 64 bytes are pending
    unsigned pend;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pend) : "l"(st));
    if (tid == 0)
        asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(64) : "memory");
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(b), "r"(1) : "memory");
    __syncthreads();
    // arrive_drop by the upper half: the next phase expects 64 arrivals
    if (tid >= 64)
        asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    else
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(b), "r"(0) : "memory");
    if (tid < 64)
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    if (tid < 64) {
        done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(b), "r"(1) : "memory");
    }
    out[tid] = sum;
    out[128 + tid] = (int)early;
    out[256 + tid] = (int)pend;
}

static int check_mbar(void)
{
    int *d, h[384], bad = 0;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemset(d, 0xff, sizeof h));
    mbar_kernel<<<1, 128>>>(d);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 128; t++) {
        int o = (t + 37) % 128, want = (o * 10 + 0) + (o * 10 + 1) + (o * 10 + 2) + 3000;
        if (h[t] != want && bad++ < 5)
            printf("mbarrier phases: thread %d sum %d, expected %d\n", t, h[t], want);
        if (h[128 + t] != 0 && bad++ < 5)
            printf("mbarrier: thread %d saw the transaction phase complete before its bytes\n", t);
    }
    CK(cudaFree(d));
    return bad;
}

// ---- refusals and hazards ----
__global__ void deadlock_kernel(int *out)
{
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = saddr(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(129) : "memory");
    __syncthreads();
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    unsigned done = 0;
    while (!done) // 129 arrivals expected, 128 threads: never
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(b), "r"(0) : "memory");
    out[threadIdx.x] = 1;
}

__global__ void wmma_kernel(const half *A, float *D)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, A, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

// thread t copies in[t] to s[t]; `ok`: waits before the barrier that publishes the copies; else
// reads its neighbour's destination after the barrier but before the neighbour waited: a race
__global__ void race_kernel(const int *in, int *out, int ok)
{
    __shared__ __align__(16) int s[128];
    unsigned t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(saddr(&s[t])), "l"(in + t) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    if (ok)
        asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    int v = s[(t + 1) % 128];
    if (!ok)
        asm volatile("cp.async.wait_all;" ::: "memory");
    out[t] = v;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int bad = 0;
    if (!strcmp(mode, "ldsm")) bad = check_ldsm();
    else if (!strcmp(mode, "stsm")) bad = check_stsm();
    else if (!strcmp(mode, "mma")) bad = check_mma();
    else if (!strcmp(mode, "mbar")) bad = check_mbar();
    else if (!strcmp(mode, "deadlock") || !strcmp(mode, "wmma") || !strcmp(mode, "race") || !strcmp(mode, "norace")) {
        int *d, *in, h[256];
        half *hA;
        CK(cudaMalloc(&d, sizeof h));
        CK(cudaMalloc(&in, 128 * sizeof(int)));
        CK(cudaMalloc(&hA, 256 * sizeof(half)));
        CK(cudaMemset(in, 0, 128 * sizeof(int)));
        CK(cudaMemset(hA, 0, 256 * sizeof(half)));
        if (mode[0] == 'd') deadlock_kernel<<<1, 128>>>(d);
        else if (mode[0] == 'w') wmma_kernel<<<1, 32>>>(hA, (float *)d);
        else race_kernel<<<1, 128>>>(in, d, mode[0] == 'n');
        cudaError_t e = cudaDeviceSynchronize();
        printf("%s: %s\n", mode, cudaGetErrorString(e));
        bad = e != cudaSuccess;
    } else {
        fprintf(stderr, "usage: tensor_checks ldsm|stsm|mma|mbar|deadlock|wmma|race|norace\n");
        return 2;
    }
    printf("%s %s\n", mode, bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
