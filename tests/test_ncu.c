/* test_ncu.c: the reader of `ncu --csv` output takes what Nsight Compute prints (preamble lines,
 * the program's own output, thousands separators) and rejects what it cannot trust. */
#include "check.h"
#include "smemlab/gpu/ncu.h"

static const char sample[] =
    "==PROF== Connected to process 4242 (/work/build/smemlab)\n"
    "some output of the program itself\n"
    "==PROF== Profiling \"setRowReadCol\" - 0: 0%....50%....100% - 1 pass\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
    "\"Metric Value\"\r\n"
    "\"0\",\"4242\",\"smemlab\",\"127.0.0.1\",\"setRowReadCol\",\"1\",\"7\",\"(32, 32, 1)\",\"(1, 1, 1)\","
    "\"0\",\"9.0\",\"Command line profiler metrics\",\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\","
    "\"\",\"1,024\"\r\n"
    "\"0\",\"4242\",\"smemlab\",\"127.0.0.1\",\"setRowReadCol\",\"1\",\"7\",\"(32, 32, 1)\",\"(1, 1, 1)\","
    "\"0\",\"9.0\",\"Command line profiler metrics\",\"smsp__sass_inst_executed_op_shared_ld.sum\","
    "\"inst\",\"32\"\r\n"
    "\"1\",\"4242\",\"smemlab\",\"127.0.0.1\",\"reduce_sequential(const int *, int *)\",\"1\",\"7\","
    "\"(1024, 1, 1)\",\"(1024, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
    "\"smsp__sass_inst_executed_op_shared_ld.sum\",\"inst\",\"74,752\"\n"
    "==PROF== Disconnected from process 4242\n";

static void test_reads_two_launches_with_separators(void)
{
    struct smem_ncu_launch ls[4];
    size_t n = 0;
    char err[200];
    CHECK_EQ(smem_ncu_parse(sample, sizeof sample - 1, ls, 4, &n, err, sizeof err), 0);
    CHECK_EQ(n, 2);
    CHECK_STR(ls[0].kernel, "setRowReadCol");
    CHECK_EQ(ls[0].id, 0);
    CHECK_EQ(smem_ncu_metric(&ls[0], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 1024);
    CHECK_EQ(smem_ncu_metric(&ls[0], "smsp__sass_inst_executed_op_shared_ld.sum"), 32);
    CHECK_EQ(smem_ncu_metric(&ls[0], "no_such_metric"), -1);
    CHECK_EQ(ls[1].id, 1);
    CHECK_STR(ls[1].kernel, "reduce_sequential(const int *, int *)");
    CHECK_EQ(smem_ncu_metric(&ls[1], "smsp__sass_inst_executed_op_shared_ld.sum"), 74752);
}

static void test_no_header_is_an_error(void)
{
    const char *t = "==PROF== Connected\n==ERROR== ERR_NVGPUCTRPERM - no permission\n";
    struct smem_ncu_launch ls[1];
    size_t n = 9;
    char err[200] = "";
    CHECK_EQ(smem_ncu_parse(t, strlen(t), ls, 1, &n, err, sizeof err), -1);
    CHECK_EQ(n, 0);
    CHECK(strstr(err, "header") != NULL);
}

static void test_bad_rows_are_errors(void)
{
    const char *head = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    const char *bad[] = {
        "\"0\",\"k\",\"m\",\"\"\n",                  /* a field missing */
        "\"x\",\"k\",\"m\",\"\",\"1\"\n",            /* ID not a number */
        "\"0\",\"k\",\"m\",\"\",\"n/a\"\n",          /* value not a number */
        "\"0\",\"k\",\"m\",\"\",\"1\n",              /* unterminated quote */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[400];
        snprintf(text, sizeof text, "%s%s", head, bad[i]);
        struct smem_ncu_launch ls[2];
        size_t n;
        char err[200];
        CHECK_EQ(smem_ncu_parse(text, strlen(text), ls, 2, &n, err, sizeof err), -1);
    }
}

static void test_more_launches_than_room_is_an_error(void)
{
    const char *t = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                    "\"0\",\"a\",\"m\",\"\",\"1\"\n\"1\",\"b\",\"m\",\"\",\"2\"\n";
    struct smem_ncu_launch ls[1];
    size_t n;
    char err[200];
    CHECK_EQ(smem_ncu_parse(t, strlen(t), ls, 1, &n, err, sizeof err), -1);
    CHECK_EQ(smem_ncu_parse(t, strlen(t) - 1, ls, 1, &n, err, sizeof err), -1);
}

int main(void)
{
    RUN(test_reads_two_launches_with_separators);
    RUN(test_no_header_is_an_error);
    RUN(test_bad_rows_are_errors);
    RUN(test_more_launches_than_room_is_an_error);
    return CHECK_DONE();
}
