/* test_hazards_kernels.c: no false alarm on the correct kernels of kernels/ (the documents' square
 * and rectangle tiles, array reverse, reductions, access patterns): every kernel of each file is
 * emulated to its end with hazard tracking and must report none. Exits 77 when kernels/ is absent
 * (or nvcc is). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "smemlab/analysis/analyze.h"

#define KDIR SMEMLAB_SOURCE_DIR "/kernels/"

/* Each file with a launch every one of its kernels runs correctly under (the Dyn kernels get
 * enough dynamic shared memory for their padded tile). */
static const struct {
    const char *file;
    unsigned block[3], grid[3];
    uint32_t dyn;
    const char *params[2][2];
} correct[] = {
    {"square.cu", {32, 32, 1}, {2, 1, 1}, 4224, {{NULL, NULL}}},
    {"rect.cu", {32, 16, 1}, {2, 1, 1}, 2176, {{NULL, NULL}}},
    {"reverse.cu", {64, 1, 1}, {1, 1, 1}, 256, {{"n", "64"}}},
    {"reduce.cu", {1024, 1, 1}, {2, 1, 1}, 0, {{NULL, NULL}}},
    {"patterns.cu", {32, 1, 1}, {1, 1, 1}, 0, {{"p", "5"}, {"seed", "1"}}},
};

static void test_correct_kernels_have_no_hazard(void)
{
    for (size_t i = 0; i < sizeof correct / sizeof correct[0]; i++) {
        struct smem_analyze_options o;
        smem_analyze_defaults(&o);
        o.hazards = 1;
        memcpy(o.block, correct[i].block, sizeof o.block);
        memcpy(o.grid, correct[i].grid, sizeof o.grid);
        o.dyn_smem = correct[i].dyn;
        struct smem_param_arg pa[2];
        unsigned np = 0;
        for (int j = 0; j < 2 && correct[i].params[j][0]; j++) {
            pa[np].name = correct[i].params[j][0];
            pa[np].value = correct[i].params[j][1];
            np++;
        }
        o.params = pa;
        o.nparams = np;
        char path[512];
        snprintf(path, sizeof path, KDIR "%s", correct[i].file);
        struct smem_analysis *an = NULL;
        struct smem_error err;
        memset(&err, 0, sizeof err);
        int rc = smem_analyze_file(path, &o, &an, &err);
        if (rc) {
            char buf[1200];
            fprintf(stderr, "%s: %s\n", correct[i].file, smem_error_format(&err, buf, sizeof buf));
        }
        CHECK_EQ(rc, 0);
        if (rc)
            continue;
        CHECK(an->nkernels > 0);
        for (uint32_t k = 0; k < an->nkernels; k++) {
            const struct smem_kernel_report *r = &an->kernels[k];
            if (!r->complete)
                fprintf(stderr, "%s %s: incomplete: %s\n", correct[i].file, r->name, r->incomplete_why);
            CHECK(r->complete);
            for (uint32_t h = 0; h < r->nhazards; h++)
                fprintf(stderr, "%s %s: false alarm: %s (%s) lines %u, %u\n", correct[i].file,
                        r->name, smem_hazard_kind_name(r->hazards[h].kind), r->hazards[h].detail,
                        r->hazards[h].lines[0], r->hazards[h].lines[1]);
            CHECK_EQ(r->nhazards, 0);
        }
        smem_analysis_free(an);
    }
}

int main(void)
{
    struct stat st;
    if (stat(KDIR, &st) || !S_ISDIR(st.st_mode)) {
        printf("no kernels/ directory: skipped\n");
        return 77;
    }
    const char *nvcc = getenv("SMEMLAB_NVCC");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' --version >/dev/null 2>&1", nvcc && *nvcc ? nvcc : "nvcc");
    if (system(cmd)) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    RUN(test_correct_kernels_have_no_hazard);
    return CHECK_DONE();
}
