/* driver.c: runs the differential suite on a GPU (built there: nvcc -o driver driver.c -lcuda).
 *
 *   driver BUNDLE_DIR OUT_DIR
 *
 * Reads BUNDLE_DIR/manifest.txt, inputs.bin and the <group>.ptx modules that diffgen wrote; loads
 * each module with cuModuleLoadDataEx (the driver's JIT), runs every kernel on its inputs with the
 * output buffer first filled with 0xEE, and appends the output buffers, in manifest order, to
 * OUT_DIR/outputs.bin. OUT_DIR/device.txt says which GPU, driver and date. */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char *s_ = NULL;                                                                 \
            cuGetErrorString(r_, &s_);                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?");            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)len + 1);
    if (!p || fread(p, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        free(p);
        return NULL;
    }
    p[len] = 0;
    fclose(f);
    if (n)
        *n = (size_t)len;
    return p;
}

struct mod {
    char group[64];
    CUmodule m;
};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: driver BUNDLE_DIR OUT_DIR\n");
        return 2;
    }
    char path[4096], line[1024];
    size_t nin = 0;
    snprintf(path, sizeof path, "%s/inputs.bin", argv[1]);
    char *inputs = slurp(path, &nin);
    snprintf(path, sizeof path, "%s/manifest.txt", argv[1]);
    FILE *man = fopen(path, "r");
    snprintf(path, sizeof path, "%s/outputs.bin", argv[2]);
    FILE *out = fopen(path, "wb");
    if (!inputs || !man || !out) {
        fprintf(stderr, "driver: cannot read the bundle in %s or write to %s\n", argv[1], argv[2]);
        return 1;
    }
    CK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char name[256];
    int drv = 0;
    CK(cuDeviceGetName(name, sizeof name, dev));
    CK(cuDriverGetVersion(&drv));
    CUdeviceptr din, dout;
    size_t cap = 64u << 20;
    CK(cuMemAlloc(&din, cap));
    CK(cuMemAlloc(&dout, cap));
    char *host = malloc(cap);
    struct mod mods[64];
    unsigned nmods = 0, ncombos = 0;
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    while (fgets(line, sizeof line, man)) {
        char kname[128], group[64], hash[32];
        unsigned nc, b[3], g[3], dyn;
        unsigned long long ioff, isz, osz;
        int pos = 0;
        if (sscanf(line, "%127s %63s %u %u %u %u %u %u %u %u %llu %llu %llu %31s %n", kname, group, &nc,
                   &b[0], &b[1], &b[2], &g[0], &g[1], &g[2], &dyn, &ioff, &isz, &osz, hash, &pos) < 14) {
            fprintf(stderr, "driver: bad manifest line: %s", line);
            return 1;
        }
        unsigned k;
        for (k = 0; k < nmods && strcmp(mods[k].group, group); k++)
            ;
        if (k == nmods) {
            snprintf(path, sizeof path, "%s/%s.ptx", argv[1], group);
            char *ptx = slurp(path, NULL);
            if (!ptx) {
                fprintf(stderr, "driver: cannot read %s\n", path);
                return 1;
            }
            char log[1 << 14] = "";
            CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
            void *val[2] = {log, (void *)(uintptr_t)sizeof log};
            double j0 = (double)clock() / CLOCKS_PER_SEC;
            CUresult r = cuModuleLoadDataEx(&mods[k].m, ptx, 2, opt, val);
            if (r != CUDA_SUCCESS) {
                fprintf(stderr, "driver: JIT of %s failed (%d): %s\n", group, (int)r, log);
                return 1;
            }
            printf("module %-10s JIT %.2f s\n", group, (double)clock() / CLOCKS_PER_SEC - j0);
            fflush(stdout);
            snprintf(mods[k].group, sizeof mods[k].group, "%s", group);
            nmods++;
            free(ptx);
        }
        CUfunction fn;
        CK(cuModuleGetFunction(&fn, mods[k].m, kname));
        if (isz > cap || osz > cap || ioff + isz > nin) {
            fprintf(stderr, "driver: %s: buffers too large\n", kname);
            return 1;
        }
        CK(cuMemcpyHtoD(din, inputs + ioff, isz));
        CK(cuMemsetD8(dout, 0xEE, osz));
        void *args[2] = {&din, &dout};
        if (dyn > 48 * 1024)
            CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn));
        CK(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], dyn, 0, args, NULL));
        CUresult r = cuCtxSynchronize();
        if (r != CUDA_SUCCESS) {
            const char *es = NULL;
            cuGetErrorString(r, &es);
            fprintf(stderr, "driver: %s (%s) failed: %s\n", kname, line + pos, es ? es : "?");
            return 1;
        }
        CK(cuMemcpyDtoH(host, dout, osz));
        if (fwrite(host, 1, osz, out) != osz)
            return 1;
        ncombos++;
    }
    fclose(out);
    snprintf(path, sizeof path, "%s/device.txt", argv[2]);
    FILE *d = fopen(path, "w");
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    fprintf(d, "device: %s\ndriver: CUDA %d.%d (cuDriverGetVersion %d)\ndate: %s\n", name,
            drv / 1000, drv % 1000 / 10, drv, date);
    fclose(d);
    printf("%u combinations run on %s in %.1f s CPU\n", ncombos, name,
           (double)clock() / CLOCKS_PER_SEC - t0);
    return 0;
}
