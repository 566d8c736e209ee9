// mma_more.cu: the mma.sync forms sm_90 has beyond m16n8k16/k8 f16/bf16, tf32 and s8/u8 (issue 15):
// f64 (m8n8k4, m16n8k4, m16n8k8, m16n8k16), e4m3/e5m2 (m16n8k32, f32 accumulators), s4/u4
// (m8n8k32, m16n8k32, m16n8k64), s8 m8n8k16, b1 (m8n8k128, m16n8k128, m16n8k256; .xor / .and
// .popc). One warp a launch, the fragments given register by register (each lane's registers
// from the host, laid out as the PTX ISA documents), D written back register by register.
//   mma_more check   host reference on exact inputs (small integers): PASS / FAIL per form
//   mma_more dump    random inputs (fixed seeds), every D register in hex: compare two machines
//   mma_more inputs  the same random inputs, every A, B, C register in hex (host only)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));          \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

enum { F64_884, F64_1684, F64_1688, F64_16816, E4M3, E5M2, E4E5, S4_8832, S4_16832, S4_16864,
       U4_16864, S8_8816, B1X_88128, B1X_168128, B1X_168256, B1A_168256, NFORMS };
struct form { const char *name; int M, N, K, na, nb, nc, f64, kind; /* kind 0 int, 1 f64, 2 fp8, 3 b1 */ };
static const form forms[NFORMS] = {
    {"m8n8k4.f64", 8, 8, 4, 1, 1, 2, 1, 1},        {"m16n8k4.f64", 16, 8, 4, 2, 1, 4, 1, 1},
    {"m16n8k8.f64", 16, 8, 8, 4, 2, 4, 1, 1},      {"m16n8k16.f64", 16, 8, 16, 8, 4, 4, 1, 1},
    {"m16n8k32.f32.e4m3.e4m3.f32", 16, 8, 32, 4, 2, 4, 0, 2},
    {"m16n8k32.f32.e5m2.e5m2.f32", 16, 8, 32, 4, 2, 4, 0, 2},
    {"m16n8k32.f32.e4m3.e5m2.f32", 16, 8, 32, 4, 2, 4, 0, 2},
    {"m8n8k32.s32.s4.s4.s32", 8, 8, 32, 1, 1, 2, 0, 0},  {"m16n8k32.s32.s4.s4.s32", 16, 8, 32, 2, 1, 4, 0, 0},
    {"m16n8k64.s32.s4.s4.s32", 16, 8, 64, 4, 2, 4, 0, 0}, {"m16n8k64.s32.u4.u4.s32", 16, 8, 64, 4, 2, 4, 0, 0},
    {"m8n8k16.s32.s8.s8.s32", 8, 8, 16, 1, 1, 2, 0, 0},
    {"m8n8k128.s32.b1.b1.s32.xor.popc", 8, 8, 128, 1, 1, 2, 0, 3},
    {"m16n8k128.s32.b1.b1.s32.xor.popc", 16, 8, 128, 2, 1, 4, 0, 3},
    {"m16n8k256.s32.b1.b1.s32.xor.popc", 16, 8, 256, 4, 2, 4, 0, 3},
    {"m16n8k256.s32.b1.b1.s32.and.popc", 16, 8, 256, 4, 2, 4, 0, 3},
};

// per lane: a[16], b[8], c[8], d[8] 64-bit slots (f64 in one slot, 32-bit in the low half)
__global__ void mma_k(int f, const unsigned long long *A, const unsigned long long *B,
                      const unsigned long long *C, unsigned long long *D)
{
    const unsigned l = threadIdx.x;
    const unsigned long long *a = A + l * 16, *b = B + l * 8, *c = C + l * 8;
    unsigned long long *d = D + l * 8;
    unsigned ua[8], ub[4], uc[4], ud[4] = {0, 0, 0, 0};
    for (int i = 0; i < 8; i++) ua[i] = (unsigned)a[i];
    for (int i = 0; i < 4; i++) { ub[i] = (unsigned)b[i]; uc[i] = (unsigned)c[i]; }
    double da[8], db[4], dc[4], dd[4] = {0, 0, 0, 0};
    for (int i = 0; i < 8; i++) da[i] = __longlong_as_double(a[i]);
    for (int i = 0; i < 4; i++) { db[i] = __longlong_as_double(b[i]); dc[i] = __longlong_as_double(c[i]); }
    switch (f) {
    case F64_884:
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=d"(dd[0]), "=d"(dd[1]) : "d"(da[0]), "d"(db[0]), "d"(dc[0]), "d"(dc[1]));
        break;
    case F64_1684:
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=d"(dd[0]), "=d"(dd[1]), "=d"(dd[2]), "=d"(dd[3])
                     : "d"(da[0]), "d"(da[1]), "d"(db[0]), "d"(dc[0]), "d"(dc[1]), "d"(dc[2]), "d"(dc[3]));
        break;
    case F64_1688:
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=d"(dd[0]), "=d"(dd[1]), "=d"(dd[2]), "=d"(dd[3])
                     : "d"(da[0]), "d"(da[1]), "d"(da[2]), "d"(da[3]), "d"(db[0]), "d"(db[1]),
                       "d"(dc[0]), "d"(dc[1]), "d"(dc[2]), "d"(dc[3]));
        break;
    case F64_16816:
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};"
                     : "=d"(dd[0]), "=d"(dd[1]), "=d"(dd[2]), "=d"(dd[3])
                     : "d"(da[0]), "d"(da[1]), "d"(da[2]), "d"(da[3]), "d"(da[4]), "d"(da[5]), "d"(da[6]), "d"(da[7]),
                       "d"(db[0]), "d"(db[1]), "d"(db[2]), "d"(db[3]), "d"(dc[0]), "d"(dc[1]), "d"(dc[2]), "d"(dc[3]));
        break;
#define MMA4_2_4(STR)                                                                              \
    asm volatile(STR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                  \
                 : "=r"(ud[0]), "=r"(ud[1]), "=r"(ud[2]), "=r"(ud[3])                              \
                 : "r"(ua[0]), "r"(ua[1]), "r"(ua[2]), "r"(ua[3]), "r"(ub[0]), "r"(ub[1]),         \
                   "r"(uc[0]), "r"(uc[1]), "r"(uc[2]), "r"(uc[3]))
#define MMA2_1_4(STR)                                                                              \
    asm volatile(STR " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                              \
                 : "=r"(ud[0]), "=r"(ud[1]), "=r"(ud[2]), "=r"(ud[3])                              \
                 : "r"(ua[0]), "r"(ua[1]), "r"(ub[0]), "r"(uc[0]), "r"(uc[1]), "r"(uc[2]), "r"(uc[3]))
#define MMA1_1_2(STR)                                                                              \
    asm volatile(STR " {%0,%1}, {%2}, {%3}, {%4,%5};"                                              \
                 : "=r"(ud[0]), "=r"(ud[1]) : "r"(ua[0]), "r"(ub[0]), "r"(uc[0]), "r"(uc[1]))
    case E4M3: MMA4_2_4("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"); break;
    case E5M2: MMA4_2_4("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"); break;
    case E4E5: MMA4_2_4("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32"); break;
    case S4_8832: MMA1_1_2("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32"); break;
    case S4_16832: MMA2_1_4("mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32"); break;
    case S4_16864: MMA4_2_4("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32"); break;
    case U4_16864: MMA4_2_4("mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32"); break;
    case S8_8816: MMA1_1_2("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32"); break;
    case B1X_88128: MMA1_1_2("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc"); break;
    case B1X_168128: MMA2_1_4("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc"); break;
    case B1X_168256: MMA4_2_4("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc"); break;
    case B1A_168256: MMA4_2_4("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc"); break;
    }
    for (int i = 0; i < 4; i++)
        d[i] = f <= F64_16816 ? (unsigned long long)__double_as_longlong(dd[i]) : ud[i];
}

// ---- the host side: the PTX ISA's fragment layouts (g = lane / 4, t = lane % 4) ----
static unsigned ebits(const form &q)
{
    return q.kind == 1 ? 64 : q.kind == 2 ? 8 : q.kind == 3 ? 1 : strstr(q.name, ".s4") || strstr(q.name, ".u4") ? 4 : 8;
}
// element e of A register r of lane l: (row, col); of B: (k, n); C/D register i: (row, col)
static void a_pos(const form &q, unsigned l, unsigned r, unsigned e, unsigned *row, unsigned *col)
{
    unsigned g = l / 4, t = l % 4;
    if (q.kind == 1) { // f64: one element a register
        if (q.M == 8) { *row = g; *col = t; }
        else { *row = g + 8 * (r % 2); *col = t + 4 * (r / 2); }
        return;
    }
    unsigned per = 32 / ebits(q); // elements a register
    if (q.M == 8) { *row = g; *col = per * t + e; return; }
    if (q.na == 2) { *row = g + 8 * r; *col = per * t + e; return; }
    *row = g + 8 * (r % 2); *col = per * t + e + 4 * per * (r / 2);
}
static void b_pos(const form &q, unsigned l, unsigned r, unsigned e, unsigned *k, unsigned *n)
{
    unsigned g = l / 4, t = l % 4;
    if (q.kind == 1) { *k = t + 4 * r; *n = g; return; }
    unsigned per = 32 / ebits(q);
    *k = per * t + e + 4 * per * r;
    *n = g;
}
static void c_pos(const form &q, unsigned l, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = l / 4, t = l % 4;
    *row = g + 8 * (i / 2);
    *col = 2 * t + i % 2;
}

static double fp8(unsigned x, int e5)
{
    int s = x >> 7 & 1, ex, m;
    double v;
    if (e5) { ex = x >> 2 & 31; m = x & 3; v = ex ? ldexp(1 + m / 4.0, ex - 15) : ldexp(m / 4.0, -14); if (ex == 31) v = m ? NAN : INFINITY; }
    else { ex = x >> 3 & 15; m = x & 7; v = ex ? ldexp(1 + m / 8.0, ex - 7) : ldexp(m / 8.0, -6); if (ex == 15 && m == 7) v = NAN; }
    return s ? -v : v;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned long long next_rand(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static int run(int f, int exact, int dump, int inputs)
{
    const form &q = forms[f];
    static unsigned long long A[32 * 16], B[32 * 8], C[32 * 8], D[32 * 8];
    static double Am[16][256], Bm[256][8], Cm[16][8];
    memset(A, 0, sizeof A); memset(B, 0, sizeof B); memset(C, 0, sizeof C);
    unsigned eb = ebits(q), per = q.kind == 1 ? 1 : 32 / eb;
    for (unsigned l = 0; l < 32; l++) {
        for (int r = 0; r < q.na; r++) {
            unsigned long long reg = 0;
            for (unsigned e = 0; e < per; e++) {
                unsigned row, col, v;
                a_pos(q, l, r, e, &row, &col);
                double x;
                if (q.kind == 1) {
                    x = exact ? (double)((int)(next_rand() % 9) - 4) : ldexp((double)(next_rand() >> 11) / 9007199254740992.0 - 0.5, (int)(next_rand() % 9) - 4);
                    memcpy(&reg, &x, 8);
                } else {
                    v = (unsigned)next_rand() & ((1u << eb) - 1);
                    if (q.kind == 2 && exact) v = (v & 0x9f) | 0x20; /* exponents in a narrow range: every sum exact */
                    if (q.kind == 2) x = fp8(v, f == E5M2);
                    else if (q.kind == 3) x = v;
                    else x = strstr(q.name, ".u4") ? v : eb == 4 ? (double)((int)(v << 28) >> 28) : (double)(signed char)v;
                    if (q.kind == 2 && x != x) { v = 0; x = 0; }
                    reg |= (unsigned long long)v << (eb * e);
                }
                Am[row][col] = x;
            }
            A[l * 16 + r] = reg;
        }
        for (int r = 0; r < q.nb; r++) {
            unsigned long long reg = 0;
            for (unsigned e = 0; e < per; e++) {
                unsigned k, n, v;
                b_pos(q, l, r, e, &k, &n);
                double x;
                if (q.kind == 1) {
                    x = exact ? (double)((int)(next_rand() % 9) - 4) : ldexp((double)(next_rand() >> 11) / 9007199254740992.0 - 0.5, (int)(next_rand() % 9) - 4);
                    memcpy(&reg, &x, 8);
                } else {
                    v = (unsigned)next_rand() & ((1u << eb) - 1);
                    if (q.kind == 2 && exact) v = (v & 0x9f) | 0x20;
                    if (q.kind == 2) x = fp8(v, f == E5M2 || f == E4E5);
                    else if (q.kind == 3) x = v;
                    else x = strstr(q.name, ".u4") ? v : eb == 4 ? (double)((int)(v << 28) >> 28) : (double)(signed char)v;
                    if (q.kind == 2 && x != x) { v = 0; x = 0; }
                    reg |= (unsigned long long)v << (eb * e);
                }
                Bm[k][n] = x;
            }
            B[l * 8 + r] = reg;
        }
        for (int i = 0; i < q.nc; i++) {
            unsigned row, col;
            c_pos(q, l, i, &row, &col);
            int v = (int)(next_rand() % 17) - 8;
            if (q.kind == 1) { double x = exact ? v : ldexp((double)(next_rand() >> 11) / 9007199254740992.0, -2); memcpy(&C[l * 8 + i], &x, 8); Cm[row][col] = x; }
            else if (q.kind == 2) { float x = exact ? (float)v : (float)ldexp((double)(next_rand() >> 40) / 16777216.0, -3); unsigned u; memcpy(&u, &x, 4); C[l * 8 + i] = u; Cm[row][col] = x; }
            else { C[l * 8 + i] = (unsigned)v; Cm[row][col] = v; }
        }
    }
    if (inputs)
        for (unsigned l = 0; l < 32; l++) {
            printf("%s lane %2u", q.name, l);
            for (int r = 0; r < q.na; r++) printf(" a%d %016llx", r, A[l * 16 + r]);
            for (int r = 0; r < q.nb; r++) printf(" b%d %016llx", r, B[l * 8 + r]);
            for (int i = 0; i < q.nc; i++) printf(" c%d %016llx", i, C[l * 8 + i]);
            printf("\n");
        }
    unsigned long long *dA, *dB, *dC, *dD;
    CK(cudaMalloc(&dA, sizeof A)); CK(cudaMalloc(&dB, sizeof B)); CK(cudaMalloc(&dC, sizeof C)); CK(cudaMalloc(&dD, sizeof D));
    CK(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice));
    mma_k<<<1, 32>>>(f, dA, dB, dC, dD);
    CK(cudaGetLastError());
    CK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++)
        for (int i = 0; i < q.nc; i++) {
            unsigned row, col;
            c_pos(q, l, i, &row, &col);
            double want = Cm[row][col], got;
            if (q.kind == 3) {
                long long s = (long long)want;
                for (int k = 0; k < q.K; k++) {
                    int x = (int)Am[row][k], y = (int)Bm[k][col];
                    s += strstr(q.name, ".and") ? (x & y) : (x ^ y);
                }
                want = (double)(int)s;
            } else {
                for (int k = 0; k < q.K; k++)
                    want += Am[row][k] * Bm[k][col];
            }
            if (q.kind == 1) memcpy(&got, &D[l * 8 + i], 8);
            else if (q.kind == 2) { float x; unsigned u = (unsigned)D[l * 8 + i]; memcpy(&x, &u, 4); got = x; }
            else got = (double)(int)(unsigned)D[l * 8 + i];
            if (exact && got != want && bad++ < 3)
                printf("  %s lane %u d%d (%u,%u): %.17g, expected %.17g\n", q.name, l, i, row, col, got, want);
            if (dump && !inputs)
                printf("%s lane %2u d%d %016llx\n", q.name, l, i, D[l * 8 + i]);
        }
    if (exact)
        printf("%s %s\n", q.name, bad ? "FAIL" : "PASS");
    return bad != 0;
}

int main(int argc, char **argv)
{
    int inputs = argc > 1 && !strcmp(argv[1], "inputs");
    int dump = argc > 1 && (!strcmp(argv[1], "dump") || inputs);
    if (argc < 2 || (strcmp(argv[1], "check") && !dump)) {
        fprintf(stderr, "usage: mma_more check|dump|inputs\n");
        return 2;
    }
    int bad = 0;
    for (int f = 0; f < NFORMS; f++)
        bad += run(f, !dump, dump, inputs);
    if (!dump)
        printf("%d forms, %d failed\n", NFORMS, bad);
    return bad ? 1 : 0;
}
