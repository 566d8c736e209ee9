/* test_sol_emu.c: kernels/sol_reduce.cu's sums without a GPU (issue 34). tests/run/sol_reduce.cu runs
 * the bulk-copy form (cp.async.bulk into a ring of shared-memory chunks, mbarrier phases; sm_90+,
 * `bench reduce`'s default there) and the register form (the default before sm_90) on lengths and alignments that reach every path (fewer than one
 * word, a misaligned head, words past the last chunk, a tail, more chunks than blocks over several
 * turns of the ring, fewer chunks than blocks), each launch twice, every sum compared exactly; under
 * `smemlab run --fail-on-hazard` on grids of 4 and 1 SMs: "PASS", exit 0, no hazard. Launch shapes
 * come from the kernel file's macros; test_sol checks src/gpu/sol.c's forms against the same
 * kernels' PTX. Needs nvcc (else skipped, exit 77). */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char bin[1024], smemlab[1024];

static void test_sums_on_every_path(void)
{
    char *o, *e;
    /* 4 SMs: 16 bulk blocks, up to 3 chunks a block; 1 SM: 4 blocks, up to 9 (the ring's parity
     * turns four times) */
    const char *const sms[] = {"4", "1"};
    for (size_t i = 0; i < sizeof sms / sizeof sms[0]; ++i) {
        CHECK_EQ(test_smemlab_run(smemlab, bin, "--fail-on-hazard", "sol_reduce", sms[i], &o, &e), 0);
        EXPECT_IN(o, "sol_reduce_bulk_f32    offset 3 n  139990: 17225.183594 ok");
        EXPECT_IN(o, "sol_reduce_bulk_i32    offset 1 n  100003: -50003.000000 ok");
        EXPECT_IN(o, "sol_reduce_i32         offset 2 n   16389: -8309.000000 ok");
        EXPECT_IN(o, "\nPASS\n");
        CHECK(strstr(o, "WRONG") == NULL);
        free(o);
        free(e);
    }
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/sol_emu", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "nvcc -cudart shared -arch=sm_90 -O2 -lineinfo %s/tests/run/sol_reduce.cu -o %s/sol_reduce > "
             "%s/sol_reduce.log 2>&1",
             SMEMLAB_SOURCE_DIR, bin, bin);
    CHECK_EQ(test_sh(cmd), 0);
    RUN(test_sums_on_every_path);
    return CHECK_DONE();
}
