/* tour_more.c: the tour's rows that are not a table of costs: the transposed outputs of small tiles
 * (row 6), what Kepler's 8-byte bank mode would change (row 7), static allocation sizes and the
 * blocks per SM they allow (row 14), and where the GPU-only rows (15, 21) are measured. */
#include "tour_kernels.h"

#include "cli.h"
#include "smemlab/model/banks.h"
#include "smemlab/lab/experiments.h"
#include "smemlab/lab/predict.h"

#include <stdio.h>
#include <string.h>

/* Row 6: the output array of a tile kernel, from its CPU reference (what the GPU must print). */
static void print_tile_output(const char *name, unsigned rows, unsigned cols)
{
    const struct smem_experiment *e = smem_experiment_find(name);
    struct smem_exp_data in, out;
    if (!e || smem_exp_data_alloc(e, &in))
        return;
    if (smem_exp_data_alloc(e, &out)) {
        smem_exp_data_free(e, &in);
        return;
    }
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    smem_exp_fill_inputs(e, &in, &rng);
    smem_exp_data_copy(e, &out, &in);
    if (e->reference && !e->reference(e, &out) && out.bufs[0]) {
        const int *o = out.bufs[0];
        printf("  %s (block %ux%u): out[] row by row, first %u x %u\n", name, e->block[0], e->block[1],
               rows, cols);
        for (unsigned r = 0; r < rows; r++) {
            printf("   ");
            for (unsigned c = 0; c < cols; c++)
                printf(" %4d", o[r * e->block[0] + c]);
            printf("\n");
        }
    }
    smem_exp_data_free(e, &in);
    smem_exp_data_free(e, &out);
}

static unsigned cost(unsigned bank_bytes, unsigned width, unsigned stride_elems)
{
    struct smem_banks b = {32, bank_bytes};
    struct smem_request r;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.width = width;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = l * stride_elems * width;
    return smem_request_cost(&b, &r).wavefronts;
}

void tour_more(void)
{
    printf("== Small tiles printed (EXPERIMENTS.md row 6; seed 004's iprintf mode): each thread writes\n"
           "   the value it read, so a transposed read shows transposed indices\n\n");
    print_tile_output("square/setRowReadCol", 4, 8);
    print_tile_output("rect/setRowReadCol", 4, 8);
    printf("\n== Bank size (row 7; seeds 003, 004): cudaDeviceGetSharedMemConfig is gone; every GPU since\n"
           "   Volta has 32 banks of 4 bytes. Kepler's 8-byte mode (--bank-bytes 8) would change:\n\n");
    printf("  %-26s %14s %14s\n", "one warp request", "4-byte banks", "8-byte banks");
    static const struct { const char *what; unsigned width, stride; } rows[] = {
        {"int arr[tid]", 4, 1},     {"int arr[tid*2]", 4, 2},     {"int arr[tid*32]", 4, 32},
        {"int arr[tid*33]", 4, 33}, {"double arr[tid]", 8, 1},    {"double arr[tid*2]", 8, 2},
        {"double arr[tid*16]", 8, 16}, {"double arr[tid*17]", 8, 17},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        printf("  %-26s %14u %14u\n", rows[i].what, cost(4, rows[i].width, rows[i].stride),
               cost(8, rows[i].width, rows[i].stride));
    char dir[4096];
    if (!cli_kernels_dir(dir, sizeof dir)) {
        struct smem_predictor *p = smem_predictor_new(dir);
        printf("\n== Static allocation (row 14; seed 002): bytes of __shared__ per block, from the PTX, and\n"
               "   blocks per SM that shared memory alone allows on an H100 (228 KB per SM, 1 KB\n"
               "   reserved per block, at most 32 blocks; threads and registers may allow fewer)\n\n");
        static const char *const names[] = {"alloc/MyKernel", "alloc/SomeKernel",
                                            "square/setRowReadColPad", "carveout/carveoutChase"};
        for (size_t i = 0; p && i < sizeof names / sizeof names[0]; i++) {
            const struct smem_experiment *e = smem_experiment_find(names[i]);
            struct smem_prediction r;
            struct smem_error err;
            if (!e || smem_predict(p, e, 1, &r, &err))
                continue;
            unsigned per = r.static_smem + e->dyn_smem + 1024, blocks = 228u * 1024u / per;
            printf("  %-26s %6u static + %5u dynamic bytes -> %2u blocks per SM%s\n", names[i],
                   r.static_smem, e->dyn_smem, blocks > 32 ? 32 : blocks,
                   blocks > 32 ? " (the 32-block limit, not memory)" : "");
        }
        smem_predictor_free(p);
    }
    printf("\n== Rows 15 (L1/shared carveout) and 21 (timing at scale) need a GPU: `smemlab bench` runs\n"
           "   carveout/carveoutChase at carveouts of 0-100%% and times every experiment at scale;\n"
           "   one-block launches take 5-7 us whatever their conflicts (launch overhead, which is\n"
           "   all the documents' timing tables measure).\n\n");
}
