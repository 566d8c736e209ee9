/* test_blas_formats.c: the narrow float formats the cuBLAS stand-in rounds tensor-core inputs and
 * outputs to (src/runtime/cublas/blas.h): f16 and bf16 round to nearest even (subnormals, ties,
 * overflow to inf, NaN), tf32 to nearest with ties away from zero, as cvt.rna.tf32.f32. f16 is
 * checked against the compiler's own _Float16 conversion for a sweep of floats. */
#include "check.h"

#include "runtime/cublas/blas.h"

#include <math.h>
#include <stdint.h>

static void test_f16_edges(void)
{
    CHECK_EQ(f32_to_f16(1.0f), 0x3c00);
    CHECK_EQ(f32_to_f16(-0.0f), 0x8000);
    CHECK_EQ(f32_to_f16(65504.0f), 0x7bff);                /* the largest half */
    CHECK_EQ(f32_to_f16(65519.0f), 0x7bff);                /* below the midpoint to 65536 */
    CHECK_EQ(f32_to_f16(65520.0f), 0x7c00);                /* the midpoint: to even, inf */
    CHECK_EQ(f32_to_f16(1.0f + ldexpf(1, -11)), 0x3c00);   /* a tie: to even (1.0) */
    CHECK_EQ(f32_to_f16(1.0f + 3 * ldexpf(1, -11)), 0x3c02); /* a tie: to even (up) */
    CHECK_EQ(f32_to_f16(ldexpf(1, -24)), 0x0001);          /* the smallest subnormal */
    CHECK_EQ(f32_to_f16(ldexpf(1, -25)), 0x0000);          /* half of it: a tie, to even 0 */
    CHECK_EQ(f32_to_f16(ldexpf(3, -26)), 0x0001);          /* three quarters of it: up */
    CHECK_EQ(f32_to_f16(ldexpf(1, -14) - ldexpf(1, -25)), 0x0400); /* rounds up to the normal */
    CHECK_EQ(f32_to_f16(INFINITY), 0x7c00);
    CHECK_EQ(f32_to_f16(NAN) & 0x7e00, 0x7e00);
    /* every half converts to a float and back to itself */
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++)
        if ((h & 0x7c00) != 0x7c00 || !(h & 0x3ff)) /* NaNs aside */
            bad += f32_to_f16(f16_to_f32((uint16_t)h)) != h;
    CHECK_EQ(bad, 0);
}

static void test_f16_matches_the_compiler(void)
{
#ifdef __FLT16_MAX__
    int bad = 0;
    for (uint32_t u = 0; u < 0x80000000u; u += 0x1235) { /* a sweep of positive floats */
        float f = bits_f32(u);
        if (isnan(f))
            continue;
        __extension__ typedef _Float16 half; /* an extension: -pedantic would refuse it */
        half h = (half)f;
        uint16_t want;
        memcpy(&want, &h, 2);
        if (f32_to_f16(f) != want && bad++ < 5)
            fprintf(stderr, "  f16 of %a: 0x%04x, the compiler 0x%04x\n", (double)f,
                    f32_to_f16(f), want);
    }
    CHECK_EQ(bad, 0);
#else
    printf("  (no _Float16 in this compiler: the sweep is skipped)\n");
#endif
}

static void test_bf16_and_tf32(void)
{
    CHECK_EQ(f32_to_bf16(1.0f), 0x3f80);
    CHECK_EQ(f32_to_bf16(1.0f + ldexpf(1, -8)), 0x3f80);     /* a tie: to even */
    CHECK_EQ(f32_to_bf16(1.0f + 3 * ldexpf(1, -8)), 0x3f82); /* a tie: to even (up) */
    CHECK_EQ(f32_to_bf16(1.0f + ldexpf(1, -8) + ldexpf(1, -20)), 0x3f81);
    CHECK_EQ(f32_to_bf16(bits_f32(0x7f7f7fffu)), 0x7f7f); /* below the midpoint: the largest */
    CHECK_EQ(f32_to_bf16(bits_f32(0x7f7fffffu)), 0x7f80); /* the largest float: up, to inf */
    CHECK_EQ(f32_to_bf16(bits_f32(0x00008000u)), 0x0000); /* a subnormal tie: to even */
    CHECK(isnan(bf16_to_f32(f32_to_bf16(NAN))));
    CHECK(round_tf32(1.0f + ldexpf(1, -12)) == 1.0f);                 /* below the tie */
    CHECK(round_tf32(1.0f + ldexpf(1, -11)) == 1.0f + ldexpf(1, -10)); /* a tie: away */
    CHECK(round_tf32(-1.0f - ldexpf(1, -11)) == -1.0f - ldexpf(1, -10));
    CHECK(round_tf32(1.0f + 3 * ldexpf(1, -11)) == 1.0f + ldexpf(1, -9)); /* a tie: away */
    CHECK(isinf(round_tf32(INFINITY)));
}

int main(void)
{
    RUN(test_f16_edges);
    RUN(test_f16_matches_the_compiler);
    RUN(test_bf16_and_tf32);
    return CHECK_DONE();
}
