/* test_run_libs.c: `smemlab run` on programs that call cuBLAS (and cuRAND): the stand-in libraries
 * compute on the CPU, and the programs' own checks against a plain CPU reference (in the program,
 * tests/run/cublas.cu) pass; calls smemlab does not compute, and operands outside device memory,
 * stop the program naming the call; every call is listed in the report as a library step. Needs
 * nvcc (else skipped, exit 77): the programs are built here with nvcc -cudart shared. */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *src = SMEMLAB_SOURCE_DIR;
static char bin[1024], smemlab[1024];
static char SH[] = "sh", DASHC[] = "-c";

/* Runs a shell command with stdout and stderr to files; the exit status (128+N for signal N). */
static int run(const char *cmd, const char *out, const char *err)
{
    char *argv[] = {SH, DASHC, (char *)cmd, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int rc = posix_spawnp(&pid, "sh", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return -1;
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* Builds tests/run/NAME.cu into bin/NAME with nvcc flags, unless it is newer than its source. */
static int build(const char *name, const char *flags)
{
    char cu[1100], exe[1100], cmd[4000], log[1200];
    snprintf(cu, sizeof cu, "%s/tests/run/%s.cu", src, name);
    snprintf(exe, sizeof exe, "%s/%s", bin, name);
    snprintf(log, sizeof log, "%s.log", exe);
    struct stat sc, se;
    if (stat(exe, &se) == 0 && stat(cu, &sc) == 0 && se.st_mtime > sc.st_mtime)
        return 0;
    snprintf(cmd, sizeof cmd, "nvcc -lineinfo %s %s -o %s", flags, cu, exe);
    return run(cmd, log, log);
}

/* smemlab run OPTS bin/PROGRAM MODE: its exit status, stdout and stderr */
static int checks(const char *opts, const char *program, const char *mode, char **o, char **e)
{
    char cmd[3000], out[1100], err[1100];
    snprintf(cmd, sizeof cmd, "%s run %s %s/%s %s", smemlab, opts, bin, program, mode);
    snprintf(out, sizeof out, "%s/%s.%s.out", bin, program, mode);
    snprintf(err, sizeof err, "%s/%s.%s.err", bin, program, mode);
    int rc = run(cmd, out, err);
    *o = test_read_file(out, NULL);
    *e = test_read_file(err, NULL);
    if (!*o)
        *o = strdup("");
    if (!*e)
        *e = strdup("");
    return rc;
}

/* The handle calls llm.c's setup_main makes run, and the program's own kernel with them. */
static void test_cublas_handles_run(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "cublas", "handle", &o, &e), 0);
    EXPECT_IN(o, "handle PASS");
    free(o);
    free(e);
}

/* The GEMM family computes what the program's CPU reference computes: S/D/H, transposes, leading
 * dimensions, pointer modes, batches, GemmEx's f16 / bf16 / tf32; invalid arguments get cuBLAS's
 * statuses. Each call is in the report (JSON: library_calls), with its shape and precision; a
 * repeated call over unchanged device memory is a proven repeat, one after a write is not. */
static void test_cublas_gemm_family_computes(void)
{
    char *o, *e;
    CHECK_EQ(checks("--format json", "cublas", "gemm", &o, &e), 0);
    EXPECT_IN(o, "gemm PASS");
    CHECK(strstr(o, "line ") == NULL); /* no failed check of its own */
    EXPECT_IN(e, "\"library_calls\": [");
    EXPECT_IN(e, "\"name\": \"cublasSgemmStridedBatched\", \"shape\": \"m=9 n=7 k=5 op=NN batch=4\"");
    EXPECT_IN(e, "\"precision\": \"f32 x f32 -> f32: tf32 (CUBLAS_TF32_TENSOR_OP_MATH), fp32 accumulate\"");
    EXPECT_IN(e, "\"name\": \"cublasHgemm\"");
    EXPECT_IN(e, "\"name\": \"cublasGemmEx\"");
    /* the two 4x4x4 Sgemms of the same shape are one entry of two calls */
    EXPECT_IN(e, "\"shape\": \"m=4 n=4 k=4 op=NN batch=1\", \"precision\": \"f32 x f32 -> f32: fp32\", \"calls\": 2, \"repeats\": 0");
    /* the same Sgemm five times: the 2nd and 4th are proven repeats, the 3rd too (it follows a
       kernel that wrote C: C, dense, gets back what the call wrote); the 5th follows a copy into
       A: computed (and each result is checked in the program) */
    EXPECT_IN(e, "\"shape\": \"m=20 n=20 k=20 op=NN batch=1\", \"precision\": \"f32 x f32 -> f32: fp32\", \"calls\": 5, \"repeats\": 3");
    free(o);
    free(e);
}

/* Level 1 and 2 (axpy, scal, copy, swap, dot, nrm2, asum, amax, amin, gemv, ger) and geam, in
 * both pointer modes, with increments (negative too) and in-place geam; trsm, syrk, SgemmEx. */
static void test_cublas_level12_computes(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "cublas", "level12", &o, &e), 0);
    EXPECT_IN(o, "level12 PASS");
    CHECK(strstr(o, "line ") == NULL);
    EXPECT_IN(e, "cublasSgemv_v2               m=13 n=9 op=T ");
    EXPECT_IN(e, "cublasDtrsm_v2               m=7 n=5 side=L uplo=L op=N");
    EXPECT_IN(e, "cublasSsyrk_v2               n=6 k=4 uplo=L op=N");
    EXPECT_IN(e, "cublasSgemmEx ");
    EXPECT_IN(e, "cublasSdot_v2                n=50                                           2 ");
    free(o);
    free(e);
}

/* cublasLtMatmul as llm.c calls it: the heuristic's one algorithm, epilogues BIAS, GELU_AUX_BIAS
 * (the pre-GELU values in the auxiliary buffer), DGELU, BGRADB, a strided batch in FAST_TF32;
 * shapes that do not match give CUBLAS_STATUS_INVALID_VALUE. */
static void test_cublaslt_matmul_computes(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "cublas", "lt", &o, &e), 0);
    EXPECT_IN(o, "lt PASS");
    CHECK(strstr(o, "line ") == NULL);
    EXPECT_IN(e, "cublasLtMatmul               m=20 n=12 k=24 op=TN batch=1 +bias gelu aux");
    /* the BIAS matmul three times over unchanged memory: two proven repeats */
    char line[200]; /* the table's columns: shape, calls, repeats */
    snprintf(line, sizeof line, "%-46s %-7d %-8d", "m=20 n=12 k=24 op=TN batch=1 +bias", 3, 2);
    EXPECT_IN(e, line);
    EXPECT_IN(e, "m=8 n=6 k=10 op=NN batch=2");
    EXPECT_IN(e, "tf32 in, fp32 accumulate");
    free(o);
    free(e);
}

/* A call smemlab does not compute stops the program there with its name, exit 3, the launch
 * before it in the report; so does an operand that runs past its allocation. */
static void test_cublas_stops_named(void)
{
    char *o, *e;
    CHECK_EQ(checks("--format csv", "cublas", "unsupported", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cublasSgetrfBatched is not supported (cuBLAS runs NVIDIA's own kernels");
    EXPECT_IN(e, "twice");
    CHECK(strstr(o, "getrfBatched returned") == NULL);
    free(o);
    free(e);
    CHECK_EQ(checks("", "cublas", "outside", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cublasSgemm_v2: C at 0x");
    EXPECT_IN(e, "(6400 bytes) is 400 bytes into a 4000-byte allocation at 0x");
    EXPECT_IN(e, "2800 bytes past its end");
    CHECK(strstr(o, "gemm returned") == NULL);
    free(o);
    free(e);
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/run", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    CHECK_EQ(build("cublas", "-cudart shared -arch=sm_90 -O3 -lcublas -lcublasLt"), 0);
    RUN(test_cublas_handles_run);
    RUN(test_cublas_gemm_family_computes);
    RUN(test_cublas_level12_computes);
    RUN(test_cublaslt_matmul_computes);
    RUN(test_cublas_stops_named);
    return CHECK_DONE();
}
