/* test_cublas_ex.c: the GEMMs tutorial programs check their kernels against beyond S/D/H
 * (tests/run/cublas_ex.cu, under `smemlab run`): int8 (s8 -> s32, s8 -> f32), complex (Cgemm,
 * Zgemm, Cgemm3m, CgemmEx, GemmEx c32 / c64, strided and pointer-array batches, conjugate
 * transposes), grouped batches, level-2/3 routines (symv, trmv, gbmv, hemv, herk, symm, trmm, dgmm,
 * tpttr, DotEx): each result equal to the program's plain CPU reference; the status
 * of every bad call equal to what the H200's cuBLAS returned for it (tests/hw/cublas/); an operand
 * rewritten with the same bytes between identical calls makes a repeat proven by bytes, one
 * rewritten with other bytes is computed. Needs nvcc (else skipped, exit 77). */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char bin[1024], smemlab[1024];

static int ex(const char *opts, const char *mode, char **o, char **e)
{
    return test_smemlab_run(smemlab, bin, opts, "cublas_ex", mode, o, e);
}

static void test_int8_gemms_compute(void)
{
    char *o, *e;
    CHECK_EQ(ex("--format json", "int8", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    CHECK(strstr(o, "line ") == NULL);
    EXPECT_IN(e, "\"precision\": \"s8 x s8 -> s32: s8 in, s32 accumulate (exact, modulo 2^32)\"");
    EXPECT_IN(e, "\"precision\": \"s8 x s8 -> f32: s8 in, fp32 accumulate\"");
    EXPECT_IN(e, "\"name\": \"cublasGemmStridedBatchedEx\", \"shape\": \"m=8 n=12 k=16 op=TN batch=3\"");
    free(o);
    free(e);
}

static void test_complex_gemms_compute(void)
{
    char *o, *e;
    CHECK_EQ(ex("", "complex", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    CHECK(strstr(o, "line ") == NULL);
    EXPECT_IN(e, "cublasCgemm3m ");
    EXPECT_IN(e, "cublasZgemmBatched ");
    EXPECT_IN(e, "cublasCgemmStridedBatched    m=5 n=4 k=6 op=NN batch=3");
    EXPECT_IN(e, "c64 x c64 -> c64: complex fp64");
    free(o);
    free(e);
}

static void test_grouped_gemm_computes(void)
{
    char *o, *e;
    CHECK_EQ(ex("", "grouped", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    EXPECT_IN(e, "cublasSgemmGroupedBatched    m=5 n=2 k=6 op=TN batch=1");
    free(o);
    free(e);
}

/* level-2/3 routines beyond the GEMMs against the program's plain references */
static void test_routines_compute(void)
{
    char *o, *e;
    CHECK_EQ(ex("", "routines", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    CHECK(strstr(o, "line ") == NULL);
    EXPECT_IN(e, "cublasStrmm_v2               m=4 n=3 side=L uplo=L op=T");
    EXPECT_IN(e, "cublasZherk_v2               n=4 k=3 uplo=U op=C");
    EXPECT_IN(e, "cublasDotEx ");
    free(o);
    free(e);
}

/* every "status LABEL N" line equal to the H200's, in order */
static void test_statuses_equal_h200(void)
{
    char *o, *e, path[1200];
    CHECK_EQ(ex("", "status", &o, &e), 0);
    snprintf(path, sizeof path, "%s/tests/hw/cublas/h200-2026-11-29-cublas_ex-status.txt", SMEMLAB_SOURCE_DIR);
    char *want = test_read_file(path, NULL);
    CHECK(want != NULL);
    if (!want)
        return;
    char got[8192] = "";
    size_t used = 0;
    for (char *l = o; l && *l;) {
        char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);
        if (!strncmp(l, "status ", 7) && used + len < sizeof got) {
            memcpy(got + used, l, len);
            used += len;
            got[used] = 0;
        }
        l += len;
    }
    CHECK(strstr(want, "status int8_odd_sizes 15\n") != NULL); /* the file is what it says */
    CHECK_EQ(strcmp(got, want), 0);
    if (strcmp(got, want))
        fprintf(stderr, "statuses here:\n%s\non the H200:\n%s", got, want);
    free(want);
    free(o);
    free(e);
}

/* rounds 1 and 2 rewrite A with the same bytes: proven repeats; round 3 with others: computed
 * (and checked in the program); then C scaled in place by a kernel between two identical calls:
 * put back from the copy (a repeat) where C is dense, computed where ldc leaves gaps (8 calls, 3
 * repeats); SMEMLAB_RUN_MEMO=0 computes every call */
static void test_rewritten_operand_repeats(void)
{
    char *o, *e, line[200];
    CHECK_EQ(ex("", "rewrite", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    snprintf(line, sizeof line, "%-46s %-7d %-8d", "m=48 n=48 k=48 op=NN batch=1", 8, 3);
    EXPECT_IN(e, line);
    free(o);
    free(e);
    setenv("SMEMLAB_RUN_MEMO", "0", 1);
    CHECK_EQ(ex("", "rewrite", &o, &e), 0);
    unsetenv("SMEMLAB_RUN_MEMO");
    EXPECT_IN(o, "PASS");
    snprintf(line, sizeof line, "%-46s %-7d %-8d", "m=48 n=48 k=48 op=NN batch=1", 8, 0);
    EXPECT_IN(e, line);
    free(o);
    free(e);
}

int main(void)
{
    if (test_sh("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/run", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    char cmd[4000];
    snprintf(cmd, sizeof cmd, "nvcc -lineinfo -cudart shared -arch=sm_90 -O2 %s/tests/run/cublas_ex.cu "
             "-o %s/cublas_ex -lcublas > %s/cublas_ex.log 2>&1", SMEMLAB_SOURCE_DIR, bin, bin);
    CHECK_EQ(test_sh(cmd), 0);
    RUN(test_int8_gemms_compute);
    RUN(test_complex_gemms_compute);
    RUN(test_grouped_gemm_computes);
    RUN(test_routines_compute);
    RUN(test_statuses_equal_h200);
    RUN(test_rewritten_operand_repeats);
    return CHECK_DONE();
}
