/* test_tc_numeric.c: the tensor-core sums of src/emu/tc_numeric.c against the H100's registers.
 * Source: tests/hw/h100-mma-fp.txt, the dump of tests/hw/mma/mma_fp.cu (tests/hw/mma/run_fp.sh)
 * on an NVIDIA H100 80GB HBM3, driver 580.159.04, CUDA 13.0, 2026-11-24 03:58 UTC: 14 forms
 * (mma.sync f16 -> f32 and f16 -> f16 .m16n8k16, bf16 .m16n8k16, f16 / bf16 / tf32 .m16n8k8, tf32
 * .m16n8k4, e4m3 / e5m2 / e4m3.e5m2 .m16n8k32; wmma.mma f16 -> f32, f16 -> f16, bf16 .m16n16k16,
 * tf32 .m16n16k8) x 7 input sets (rand, wide, cancel, subn, over, special, ties), each launch's
 * A, B, C and D in hex. Every one of the 16128 D elements must be the model's, bit for bit; the
 * sum of before (exact, rounded once) is checked to differ, so the data can tell them apart.
 * No GPU or nvcc needed (the same data under `smemlab run`: test_tensor.c). */
#include "check.h"
#include "testfile.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smemlab/emu/tc_numeric.h"

static const char *src = SMEMLAB_SOURCE_DIR;

static int type_of(const char *s, size_t n)
{
    static const char *names[] = {"f16", "bf16", "tf32", "f32", "e4m3", "e5m2"};
    for (int t = 0; t < 6; t++)
        if (strlen(names[t]) == n && !strncmp(names[t], s, n))
            return t;
    return -1;
}

static unsigned hex_width(int t)
{
    return t == SMEM_TC_E4M3 || t == SMEM_TC_E5M2 ? 2 : t == SMEM_TC_F16 || t == SMEM_TC_BF16 ? 4 : 8;
}

/* n elements of w hex digits each; 0 ok */
static int read_hex(const char *h, size_t len, unsigned w, uint32_t *out, unsigned n)
{
    if (len != (size_t)w * n)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        char b[9];
        memcpy(b, h + (size_t)i * w, w);
        b[w] = 0;
        char *end;
        out[i] = (uint32_t)strtoul(b, &end, 16);
        if (*end)
            return -1;
    }
    return 0;
}

/* the value of bits x of type t as a double (exact); NaN for NaN */
static double value_of(int t, uint32_t x)
{
    int neg, e, f, eb, bias;
    uint32_t m;
    if (t == SMEM_TC_E4M3 || t == SMEM_TC_E5M2) {
        x = smem_tc_fp8_to_f16(x, t == SMEM_TC_E5M2);
        t = SMEM_TC_F16;
    }
    if (t == SMEM_TC_TF32)
        x &= 0xffffe000u;
    f = t == SMEM_TC_F16 ? 10 : t == SMEM_TC_BF16 ? 7 : 23;
    eb = t == SMEM_TC_F16 ? 5 : 8;
    bias = t == SMEM_TC_F16 ? 15 : 127;
    neg = (int)(x >> (f + eb) & 1);
    e = (int)(x >> f & ((1u << eb) - 1));
    m = x & ((1u << f) - 1);
    double v;
    if (e == (1 << eb) - 1)
        v = m ? NAN : INFINITY;
    else
        v = e ? ldexp(1.0 + ldexp(m, -f), e - bias) : ldexp(m, 1 - bias - f);
    return neg ? -v : v;
}

/* smemlab's sum before this model: products exact, summed in double with C, rounded once (RN) */
static uint32_t exact_once(int ta, const uint32_t *a, int tb, const uint32_t *b, unsigned k, int tc,
                           uint32_t c, int td)
{
    double s = 0;
    for (unsigned i = 0; i < k; i++)
        s += value_of(ta, a[i]) * value_of(tb, b[i]);
    s += value_of(tc, c);
    float x = (float)s;
    uint32_t u;
    memcpy(&u, &x, 4);
    if (td == SMEM_TC_F32)
        return x != x ? 0x7fffffffu : u;
    return 0xffffffffu; /* f16: not compared */
}

struct form_count {
    char name[64];
    unsigned n, same, before;
};

static void test_every_measured_register(void)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/tests/hw/h100-mma-fp.txt", src);
    char *text = test_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text)
        return;
    static uint32_t A[16 * 32], B[32 * 16], C[256], D[256];
    struct form_count forms[16];
    unsigned nforms = 0, launches = 0, total = 0, same = 0, before = 0, f32_total = 0, bad_lines = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        /* "<mma|wmma>.m16n8k16.<d>.<a>.<b>.<c> <set> <A|B|C|D> <hex>" */
        char name[64], set[16], what[4];
        int off = 0;
        if (sscanf(line, "%63s %15s %3s %n", name, set, what, &off) != 3 || !off) {
            bad_lines++;
            line = nl ? nl + 1 : NULL;
            continue;
        }
        const char *hex = line + off;
        char *p[6] = {0};
        char copy[64];
        strcpy(copy, name);
        unsigned np = 0;
        for (char *t = strtok(copy, "."); t && np < 6; t = strtok(NULL, "."))
            p[np++] = t;
        unsigned M = 0, N = 0, K = 0;
        int ok = np == 6 && sscanf(p[1], "m%un%uk%u", &M, &N, &K) == 3 && M <= 16 && N <= 16 && K <= 32;
        int wmma = ok && !strcmp(p[0], "wmma");
        int td = ok ? type_of(p[2], strlen(p[2])) : -1, ta = ok ? type_of(p[3], strlen(p[3])) : -1;
        int tb = ok ? type_of(p[4], strlen(p[4])) : -1, tc = ok ? type_of(p[5], strlen(p[5])) : -1;
        if (!ok || td < 0 || ta < 0 || tb < 0 || tc < 0) {
            bad_lines++;
            line = nl ? nl + 1 : NULL;
            continue;
        }
        size_t hl = strlen(hex);
        int rc = what[0] == 'A' ? read_hex(hex, hl, hex_width(ta), A, M * K)
               : what[0] == 'B' ? read_hex(hex, hl, hex_width(tb), B, K * N)
               : what[0] == 'C' ? read_hex(hex, hl, hex_width(tc), C, M * N)
                                : read_hex(hex, hl, hex_width(td), D, M * N);
        if (rc) {
            bad_lines++;
        } else if (what[0] == 'D') {
            launches++;
            unsigned fi = 0;
            while (fi < nforms && strcmp(forms[fi].name, name))
                fi++;
            if (fi == nforms && nforms < 16) {
                snprintf(forms[nforms].name, sizeof forms[nforms].name, "%s", name);
                forms[nforms].n = forms[nforms].same = forms[nforms].before = 0;
                nforms++;
            }
            for (unsigned i = 0; i < M; i++)
                for (unsigned j = 0; j < N; j++) {
                    uint32_t col[32];
                    for (unsigned k = 0; k < K; k++)
                        col[k] = B[k * N + j];
                    /* wmma tf32 .m16n16k8 is two HMMA.1684 (SASS): blocks of 4 */
                    uint32_t got = smem_tc_dot((unsigned)ta, A + i * K, (unsigned)tb, col, K,
                                               wmma && ta == SMEM_TC_TF32 ? 4 : 0, (unsigned)tc,
                                               C[i * N + j], (unsigned)td);
                    int eq = got == D[i * N + j];
                    if (!eq && total - same < 5)
                        fprintf(stderr, "%s %s (%u,%u): model %08x, H100 %08x\n", name, set, i, j,
                                got, D[i * N + j]);
                    total++;
                    same += eq;
                    if (td == SMEM_TC_F32) {
                        f32_total++;
                        before += exact_once(ta, A + i * K, tb, col, K, tc, C[i * N + j], td) == D[i * N + j];
                    }
                    if (fi < nforms) {
                        forms[fi].n++;
                        forms[fi].same += eq;
                    }
                }
        }
        line = nl ? nl + 1 : NULL;
    }
    CHECK_EQ(bad_lines, 0u);
    CHECK_EQ(nforms, 14u);
    CHECK_EQ(launches, 98u);
    CHECK_EQ(total, 16128u);
    CHECK_EQ(same, total);
    for (unsigned f = 0; f < nforms; f++)
        CHECK_EQ(forms[f].same, forms[f].n);
    /* the data tells the models apart: an exact sum rounded once misses many f32 registers */
    printf("f32 registers the exact-sum-rounded-once model matches: %u of %u\n", before, f32_total);
    CHECK(before < f32_total - 1000);
    free(text);
}

/* every e4m3 / e5m2 value converts to the f16 of the same value (NaN to NaN) */
static void test_fp8_to_f16(void)
{
    unsigned exact = 0, nans = 0;
    for (uint32_t x = 0; x < 256; x++)
        for (int e5 = 0; e5 < 2; e5++) {
            uint32_t h = smem_tc_fp8_to_f16(x, e5);
            double want, got = value_of(SMEM_TC_F16, h);
            int s = (int)(x >> 7), ex = e5 ? (int)(x >> 2 & 31) : (int)(x >> 3 & 15);
            int m = e5 ? (int)(x & 3) : (int)(x & 7), mb = e5 ? 2 : 3, bias = e5 ? 15 : 7;
            if (e5 && ex == 31)
                want = m ? NAN : INFINITY;
            else if (!e5 && ex == 15 && m == 7)
                want = NAN;
            else
                want = ex ? ldexp(1.0 + ldexp(m, -mb), ex - bias) : ldexp(m, 1 - bias - mb);
            if (s)
                want = -want;
            if (want != want) {
                nans += got != got;
            } else {
                exact += got == want && signbit(got) == signbit(want);
            }
        }
    CHECK_EQ(exact + nans, 512u);
    CHECK_EQ(nans, 2u + 6u); /* e4m3 0x7f 0xff; e5m2 0x7d-0x7f, 0xfd-0xff */
}

/* what the model says on hand-made sums, each a rule the measured data showed (see the file) */
static void test_rules(void)
{
    /* C = 1 (f32) and one f16 product -2^-26: aligned to 2^0 with 25 bits the product is half a
     * unit, cut to nothing: 1 (an exact sum cut to f32 would give 1 - 2^-24, 0x3f7fffff) */
    uint32_t one16 = 0x3c00, c1 = 0x3f800000u;
    uint32_t a[1] = {0x8400 /* -2^-14 */}, b[1] = {0x0c00 /* 2^-12 */};
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, a, SMEM_TC_F16, b, 1, SMEM_TC_F32, c1, SMEM_TC_F32), 0x3f800000u);
    /* a product of -2^-23 is 4 units of that grid, kept whole: 1 - 2^-23 */
    b[0] = 0x1800; /* 2^-9 */
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, a, SMEM_TC_F16, b, 1, SMEM_TC_F32, c1, SMEM_TC_F32), 0x3f7ffffeu);
    /* f16 C and D: 1 - 2^-23 rounds to nearest, 1 */
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, a, SMEM_TC_F16, b, 1, SMEM_TC_F16, one16, SMEM_TC_F16), 0x3c00u);
    /* -0 x x + -0 is +0 (measured: special row 5) */
    uint32_t nz = 0x8000, x = 0x3c00;
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, &nz, SMEM_TC_F16, &x, 1, SMEM_TC_F32, 0x80000000u, SMEM_TC_F32), 0u);
    /* a zero times 2^127 sets no exponent: C survives whole (bf16; special rows 7-15) */
    uint32_t z = 0, big = 0x7f00, cc = 0x3dfe5b83u;
    CHECK_EQ(smem_tc_block(SMEM_TC_BF16, &z, SMEM_TC_BF16, &big, 1, SMEM_TC_F32, cc, SMEM_TC_F32), cc);
    /* NaN canonical, inf x 0 NaN, inf - inf NaN, inf of its sign */
    uint32_t nan16 = 0x7e01, inf16 = 0x7c00, ninf16 = 0xfc00;
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, &nan16, SMEM_TC_F16, &x, 1, SMEM_TC_F32, 0, SMEM_TC_F32), 0x7fffffffu);
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, &inf16, SMEM_TC_F16, &z, 1, SMEM_TC_F16, 0, SMEM_TC_F16), 0x7fffu);
    uint32_t ai[2] = {inf16, ninf16}, bi[2] = {x, x};
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, ai, SMEM_TC_F16, bi, 2, SMEM_TC_F32, 0, SMEM_TC_F32), 0x7fffffffu);
    CHECK_EQ(smem_tc_block(SMEM_TC_F16, &ninf16, SMEM_TC_F16, &x, 1, SMEM_TC_F32, 0, SMEM_TC_F32), 0xff800000u);
    /* past the largest f32: infinite (bf16 2^127 x 4 + 0) */
    uint32_t four = 0x4080;
    CHECK_EQ(smem_tc_block(SMEM_TC_BF16, &big, SMEM_TC_BF16, &four, 1, SMEM_TC_F32, 0, SMEM_TC_F32), 0x7f800000u);
    /* tf32 ignores the 13 low bits of its f32 */
    uint32_t t1 = 0x3f801fffu, t2 = 0x3f800000u;
    CHECK_EQ(smem_tc_block(SMEM_TC_TF32, &t1, SMEM_TC_TF32, &t2, 1, SMEM_TC_F32, 0, SMEM_TC_F32), 0x3f800000u);
}

int main(void)
{
    RUN(test_every_measured_register);
    RUN(test_fp8_to_f16);
    RUN(test_rules);
    return CHECK_DONE();
}
