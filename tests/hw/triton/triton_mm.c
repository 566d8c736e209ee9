/* triton_mm.c: launches Triton 3.9's tutorial matmul (03-matrix-multiplication's matmul_kernel,
 * compiled for sm_90a: wgmma, cp.async) on the GPU through the driver API, from the cubins Triton
 * made (`matmul_fp16.cubin`, `matmul_f32.cubin`: the fp16 and the tf32 variant, 128x128x128,
 * BLOCK 64x64x32, GROUP 8, 4 warps, 3 stages: 4 blocks of 128 threads), on the inputs
 * `smemlab run` ran them on (a_KIND.bin, b_KIND.bin: tests/hw/triton/README.md), with the dynamic
 * shared memory Triton asked for (24576 / 49152 B). Writes the result to OUTDIR/c_KIND.h200.bin
 * and compares it bit for bit with smemlab's (c_KIND.smemlab.bin), and with the product in double
 * precision. argv: the folder of those files, OUTDIR. */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK(x)                                                                                    \
    do {                                                                                         \
        CUresult r_ = (x);                                                                       \
        if (r_) {                                                                                \
            const char *s_ = "";                                                                 \
            cuGetErrorName(r_, &s_);                                                             \
            printf("FAIL %s: %s (line %d)\n", #x, s_, __LINE__);                                \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

enum { M = 128, N = 128, K = 128 };

static void *slurp(const char *dir, const char *name, size_t want)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    void *p = malloc(want ? want : 1);
    if (!f || !p || fread(p, 1, want, f) != want) {
        printf("FAIL cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    return p;
}

static float half_to_float(unsigned short h)
{
    unsigned s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    float v = e ? ldexpf((float)(m | 1024), (int)e - 25) : ldexpf((float)m, -24);
    return s ? -v : v;
}

static void run(const char *dir, const char *out, const char *kind, unsigned smem)
{
    int fp16 = !strcmp(kind, "fp16");
    size_t es = fp16 ? 2 : 4;
    char name[256];
    snprintf(name, sizeof name, "%s/matmul_%s.cubin", dir, kind);
    CUmodule mod;
    CUfunction f;
    OK(cuModuleLoad(&mod, name));
    OK(cuModuleGetFunction(&f, mod, "matmul_kernel"));
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
    snprintf(name, sizeof name, "a_%s.bin", kind);
    void *a = slurp(dir, name, (size_t)M * K * es);
    snprintf(name, sizeof name, "b_%s.bin", kind);
    void *b = slurp(dir, name, (size_t)K * N * es);
    snprintf(name, sizeof name, "c_%s.smemlab.bin", kind);
    float *cs = slurp(dir, name, (size_t)M * N * 4);
    float *c = calloc((size_t)M * N, 4);
    CUdeviceptr da, db, dc, none = 0;
    OK(cuMemAlloc(&da, (size_t)M * K * es));
    OK(cuMemAlloc(&db, (size_t)K * N * es));
    OK(cuMemAlloc(&dc, (size_t)M * N * 4));
    OK(cuMemcpyHtoD(da, a, (size_t)M * K * es));
    OK(cuMemcpyHtoD(db, b, (size_t)K * N * es));
    OK(cuMemsetD32(dc, 0, (size_t)M * N));
    /* the PTX's parameters: a, b, c, M, N, K, stride_am, stride_bk, stride_cm (the strides of 1
     * are Triton's constants), then its two scratch pointers */
    unsigned m = M, n = N, k = K, sam = K, sbk = N, scm = N;
    void *args[] = {&da, &db, &dc, &m, &n, &k, &sam, &sbk, &scm, &none, &none};
    OK(cuLaunchKernel(f, 4, 1, 1, 128, 1, 1, smem, NULL, args, NULL));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH(c, dc, (size_t)M * N * 4));
    snprintf(name, sizeof name, "%s/c_%s.h200.bin", out, kind);
    FILE *o = fopen(name, "wb");
    if (o) {
        fwrite(c, 4, (size_t)M * N, o);
        fclose(o);
    }
    unsigned same = 0;
    double worst = 0, worst_smemlab = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double r = 0;
            for (int t = 0; t < K; t++) {
                double x = fp16 ? half_to_float(((unsigned short *)a)[i * K + t])
                                : ((float *)a)[i * K + t];
                double y = fp16 ? half_to_float(((unsigned short *)b)[t * N + j])
                                : ((float *)b)[t * N + j];
                r += x * y;
            }
            float g = c[i * N + j];
            same += !memcmp(&g, &cs[i * N + j], 4);
            if (fabs(g - r) > worst)
                worst = fabs(g - r);
            if (fabs(g - cs[i * N + j]) > worst_smemlab)
                worst_smemlab = fabs(g - cs[i * N + j]);
        }
    printf("matmul_%s: max |GPU - exact| %.3g; bitwise equal to smemlab's %u / %u (max |GPU - "
           "smemlab| %.3g) %s\n", kind, worst, same, M * N, worst_smemlab,
           worst < (fp16 ? 1e-2 : 5e-2) ? "PASS" : "FAIL");
    free(a), free(b), free(c), free(cs);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".", *out = argc > 2 ? argv[2] : ".";
    CUdevice dev;
    CUcontext ctx;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuDevicePrimaryCtxRetain(&ctx, dev));
    OK(cuCtxSetCurrent(ctx));
    run(dir, out, "fp16", 24576);
    run(dir, out, "f32", 49152);
    return 0;
}
