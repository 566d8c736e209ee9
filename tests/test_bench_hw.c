/* test_bench_hw.c: the cross-check. `smemlab bench` counts every documents' kernel with Nsight
 * Compute (`ncu --csv`); on a compute-capability 9.0 GPU (the H100 of tests/hw, or an H200, which
 * gave identical counters) its requests and per-instruction wavefronts must equal the H100
 * measurements in tests/hw/h100-counters.csv, and every experiment must verify. Exits 77 without a
 * GPU, built kernels or ncu. */
#include "check.h"
#include "hwdata.h"
#include "smemlab/lab/experiments.h"
#include "smemlab/gpu/gpu.h"

#include <stdlib.h>
#include <sys/wait.h>

static char *field(char **p)
{
    char *s = *p, *c = strchr(s, ',');
    if (c) {
        *c = 0;
        *p = c + 1;
    } else {
        *p = s + strlen(s);
    }
    s[strcspn(s, "\r\n")] = 0;
    return s;
}

int main(void)
{
    char err[600];
    struct smem_gpu *g = NULL;
    if (smem_gpu_open(0, &g, err, sizeof err)) {
        printf("skipped: %s\n", err);
        return 77;
    }
    int cc90 = smem_gpu_info(g)->cc_major == 9 && smem_gpu_info(g)->cc_minor == 0;
    printf("%s, CC %d.%d\n", smem_gpu_info(g)->name, smem_gpu_info(g)->cc_major,
           smem_gpu_info(g)->cc_minor);
    smem_gpu_close(g);

    static char cmd[16384];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "'%s/smemlab' bench --no-time --format csv",
                                  SMEMLAB_BINARY_DIR);
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (e->hw_section && len + 100 < sizeof cmd)
            len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %s", e->name);
    }
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (!p)
        return CHECK_DONE();
    static char line[4096];
    unsigned rows = 0, counted = 0, compared = 0;
    int header = 1;
    while (fgets(line, sizeof line, p)) {
        if (header) {
            header = 0;
            continue;
        }
        char *s = line, *f[16];
        for (int k = 0; k < 16; k++)
            f[k] = field(&s);
        /* name,row,role,verified,pred x4,ld_requests,ld_wavefronts,st_requests,st_wavefronts,... */
        const struct smem_experiment *e = smem_experiment_find(f[0]);
        CHECK(e != NULL);
        if (!e)
            continue;
        rows++;
        if (strcmp(f[3], "yes"))
            fprintf(stderr, "%s: not verified\n", e->name);
        CHECK_STR(f[3], "yes");
        if (!f[8][0])
            continue; /* no counters */
        counted++;
        if (!cc90 || !e->hw_section)
            continue;
        compared++;
        long long want_ldr = hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "ld_inst");
        long long want_str = hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "st_inst");
        long long want_ldw = hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "ld_wf_sass");
        long long want_stw = hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "st_wf_sass");
        long long ldr = atoll(f[8]), ldw = atoll(f[9]), str = atoll(f[10]), stw = atoll(f[11]);
        if (ldr != want_ldr || ldw != want_ldw || str != want_str || stw != want_stw)
            fprintf(stderr, "%s: measured ld %lld/%lld st %lld/%lld, H100 (tests/hw %s/%s) ld "
                            "%lld/%lld st %lld/%lld\n",
                    e->name, ldr, ldw, str, stw, e->hw_section, e->hw_kernel, want_ldr, want_ldw,
                    want_str, want_stw);
        CHECK_EQ(ldr, want_ldr);
        CHECK_EQ(ldw, want_ldw);
        CHECK_EQ(str, want_str);
        CHECK_EQ(stw, want_stw);
    }
    int status = pclose(p);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (rc == 4) {
        printf("skipped: smemlab bench found no usable GPU or kernels\n");
        return 77;
    }
    CHECK_EQ(rc, 0);
    CHECK(rows > 60);
    printf("%u experiments verified, %u counted, %u compared with tests/hw\n", rows, counted,
           compared);
    if (!counted && !check_failures) {
        printf("skipped: no hardware counters (is ncu on PATH?)\n");
        return 77;
    }
    CHECK_EQ(counted, rows);
    return CHECK_DONE();
}
