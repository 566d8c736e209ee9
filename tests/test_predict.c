/* test_predict.c: every experiment of the registry analysed from the PTX of kernels/; where the H100
 * measured the same kernel (tests/hw/h100-counters.csv), the prediction equals its counters. */
#include "check.h"
#include "hwdata.h"
#include "smemlab/lab/predict.h"

#include <stdlib.h>
#include <sys/stat.h>

static struct smem_predictor *pred;

static void test_registry_kernels_match_h100_counters(void)
{
    unsigned compared = 0;
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (!e->hw_section)
            continue;
        struct smem_prediction p;
        struct smem_error err;
        memset(&err, 0, sizeof err);
        int rc = smem_predict(pred, e, 16, &p, &err);
        if (rc) {
            char buf[1200];
            fprintf(stderr, "%s: %s\n", e->name, smem_error_format(&err, buf, sizeof buf));
        }
        CHECK(rc == 0);
        if (rc)
            continue;
        CHECK(p.complete);
        long long want[4] = {hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "ld_inst"),
                             hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "st_inst"),
                             hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "ld_wf_sass"),
                             hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "st_wf_sass")};
        long long got[4] = {(long long)p.ld.requests, (long long)p.st.requests,
                            (long long)p.ld.wavefronts, (long long)p.st.wavefronts};
        for (int k = 0; k < 4; k++) {
            if (got[k] != want[k])
                fprintf(stderr, "  %s (%s/%s) counter %d: smemlab %lld, H100 %lld\n", e->name,
                        e->hw_section, e->hw_kernel, k, got[k], want[k]);
            CHECK_EQ(got[k], want[k]);
        }
        compared++;
    }
    printf("  %u experiments compared with the H100\n", compared);
    CHECK(compared >= 20);
}

static void test_every_experiment_is_analysable(void)
{
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        struct smem_prediction p;
        struct smem_error err;
        memset(&err, 0, sizeof err);
        int rc = smem_predict(pred, e, 4, &p, &err);
        if (rc) {
            char buf[1200];
            fprintf(stderr, "%s: %s\n", e->name, smem_error_format(&err, buf, sizeof buf));
        }
        CHECK(rc == 0);
    }
}

int main(void)
{
    struct stat st;
    const char *dir = SMEMLAB_BINARY_DIR "/kernels";
    if (stat(dir, &st)) {
        printf("no built kernels (nvcc absent): skipped\n");
        return 77;
    }
    pred = smem_predictor_new(dir);
    RUN(test_registry_kernels_match_h100_counters);
    RUN(test_every_experiment_is_analysable);
    smem_predictor_free(pred);
    return CHECK_DONE();
}
