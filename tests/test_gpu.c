/* test_gpu.c: the driver-API layer on a real GPU: device facts, a module from build/kernels, a
 * verified launch, the dynamic shared-memory opt-in and its refusal, carveout, occupancy, events.
 * Exits 77 (skipped) without a driver, a GPU or built kernels. */
#include "check.h"
#include "smemlab/gpu/gpu.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    char err[600];
    struct smem_gpu *g = NULL;
    int st = smem_gpu_open(0, &g, err, sizeof err);
    if (st == SMEM_GPU_NO_DRIVER || st == SMEM_GPU_NO_DEVICE) {
        printf("skipped: %s\n", err);
        return 77;
    }
    CHECK_EQ(st, SMEM_GPU_OK);
    if (st)
        return CHECK_DONE();
    const struct smem_gpu_info *in = smem_gpu_info(g);
    if (in->cc_major < 8) {
        printf("skipped: kernels are built for compute capability 8.0 and newer, %s is %d.%d\n",
               in->name, in->cc_major, in->cc_minor);
        smem_gpu_close(g);
        return 77;
    }
    const char *path = SMEMLAB_BINARY_DIR "/kernels/square.fatbin";
    if (access(path, R_OK)) {
        printf("skipped: %s not built (no nvcc)\n", path);
        smem_gpu_close(g);
        return 77;
    }
    printf("%s: CC %d.%d, %d SMs at %d MHz, %d B shared per SM, driver %d\n", in->name,
           in->cc_major, in->cc_minor, in->sms, in->sm_clock_khz / 1000, in->smem_per_sm,
           in->driver_version);
    CHECK(in->sms > 0 && in->sm_clock_khz > 0 && in->name[0]);
    CHECK(in->smem_per_block_optin >= in->smem_per_block && in->smem_per_block > 0);
    CHECK(smem_gpu_peak_smem_bandwidth(in) > 1e11);

    smem_gpu_module mod;
    smem_gpu_function fn, dyn, none;
    CHECK_EQ(smem_gpu_module_load(g, path, &mod), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_function_get(g, mod, "setRowReadCol", &fn), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_function_get(g, mod, "setRowReadColDyn", &dyn), SMEM_GPU_OK);
    CHECK(smem_gpu_function_get(g, mod, "noSuchKernel", &none) != SMEM_GPU_OK);
    CHECK(strstr(smem_gpu_error(g), "noSuchKernel") != NULL);
    CHECK(smem_gpu_module_load(g, "/no/such/file.fatbin", &mod) == SMEM_GPU_INVALID);

    struct smem_gpu_func_attrs fa;
    CHECK_EQ(smem_gpu_function_attrs(g, fn, &fa), SMEM_GPU_OK);
    CHECK_EQ(fa.static_smem, 4096); /* int tile[32][32] */

    /* The transpose, verified element by element, on a poisoned buffer. */
    smem_gpu_ptr out;
    int32_t host[1024];
    const unsigned grid[3] = {1, 1, 1}, block[3] = {32, 32, 1};
    void *args[] = {&out};
    CHECK_EQ(smem_gpu_alloc(g, sizeof host, &out), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_memset(g, out, 0xA5, sizeof host), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_launch(g, fn, grid, block, 0, args), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_sync(g), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_download(g, host, out, sizeof host), SMEM_GPU_OK);
    int bad = 0;
    for (int ty = 0; ty < 32; ty++)
        for (int tx = 0; tx < 32; tx++)
            bad += host[ty * 32 + tx] != tx * 32 + ty;
    CHECK_EQ(bad, 0);

    /* 64 KB of dynamic shared memory: above the 48 KB default, so the launch opts in. */
    CHECK_EQ(smem_gpu_memset(g, out, 0xA5, sizeof host), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_launch(g, dyn, grid, block, 65536, args), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_sync(g), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_download(g, host, out, sizeof host), SMEM_GPU_OK);
    bad = 0;
    for (int ty = 0; ty < 32; ty++)
        for (int tx = 0; tx < 32; tx++)
            bad += host[ty * 32 + tx] != tx * 32 + ty;
    CHECK_EQ(bad, 0);
    /* More than the device allows a block is refused, with the numbers. */
    CHECK_EQ(smem_gpu_launch(g, dyn, grid, block, (unsigned)in->smem_per_block_optin + 1, args),
             SMEM_GPU_INVALID);
    CHECK(strstr(smem_gpu_error(g), "allows at most") != NULL);

    CHECK_EQ(smem_gpu_set_carveout(g, fn, 50), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_set_carveout(g, fn, 101), SMEM_GPU_INVALID);
    int blocks = 0;
    CHECK_EQ(smem_gpu_occupancy(g, fn, 1024, 0, &blocks), SMEM_GPU_OK);
    CHECK(blocks >= 1);

    smem_gpu_event a, b;
    float ms = -1;
    CHECK_EQ(smem_gpu_event_create(g, &a), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_event_create(g, &b), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_event_record(g, a), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_launch(g, fn, grid, block, 0, args), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_event_record(g, b), SMEM_GPU_OK);
    CHECK_EQ(smem_gpu_event_elapsed(g, a, b, &ms), SMEM_GPU_OK);
    CHECK(ms > 0 && ms < 1000);
    smem_gpu_event_destroy(g, a);
    smem_gpu_event_destroy(g, b);
    smem_gpu_free(g, out);
    smem_gpu_module_unload(g, mod);
    smem_gpu_close(g);
    return CHECK_DONE();
}
