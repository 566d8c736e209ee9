/* pyload.c: loads, on the GPU through the driver API, the PTX that Numba-CUDA and cuda.core's NVRTC
 * made for tests/run/numba_shared.py and tests/run/cudacore_shared.py (PTX_DIR=dir of each writes
 * block_sum.ptx, transpose.ptx), and launches each kernel with the configuration and inputs the
 * script gives it under `smemlab run` (block_sum: 1000 floats i % 7, 8 blocks of 128, Numba's
 * arrays passed as its 7 words each: meminfo, parent, nitems, itemsize, data, shape, stride;
 * transpose: a 64x64 float matrix i * 0.5, 2x2 blocks of 32x8). Run under Nsight Compute to count
 * their shared-memory requests and wavefronts (run.sh). argv[1]: the folder of the PTX. Prints
 * each kernel's check against the host's result. */
#include <cuda.h>
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

/* the module of DIR/NAME and its first .entry (Numba's names are mangled) */
static CUfunction load(const char *dir, const char *name)
{
    char path[4096], entry[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("FAIL no %s\n", path);
        exit(1);
    }
    static char ptx[1 << 20];
    size_t n = fread(ptx, 1, sizeof ptx - 1, f);
    fclose(f);
    ptx[n] = 0;
    const char *e = strstr(ptx, ".entry ");
    if (!e || sscanf(e + 7, "%1023[^( \n]", entry) != 1) {
        printf("FAIL no .entry in %s\n", path);
        exit(1);
    }
    CUmodule m;
    CUfunction fn;
    char log[8192] = "";
    CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *v[] = {log, (void *)(size_t)sizeof log};
    CUresult r = cuModuleLoadDataEx(&m, ptx, 2, o, v);
    if (r) {
        printf("FAIL loading %s: %d %s\n", path, (int)r, log);
        exit(1);
    }
    OK(cuModuleGetFunction(&fn, m, entry));
    printf("%s: %s\n", name, entry);
    return fn;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    CUdevice dev;
    CUcontext ctx;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuDevicePrimaryCtxRetain(&ctx, dev));
    OK(cuCtxSetCurrent(ctx));
    int bad = 0;
    {
        enum { N = 1000, TPB = 128, NB = (N + TPB - 1) / TPB };
        static float x[N], out[NB], ref[NB];
        for (int i = 0; i < N; i++)
            x[i] = (float)(i % 7);
        for (int b = 0; b < NB; b++) /* the tree sum of exact small integers: any order is exact */
            for (int i = b * TPB; i < (b + 1) * TPB && i < N; i++)
                ref[b] += x[i];
        CUfunction f = load(dir, "block_sum.ptx");
        CUdeviceptr dx, dout;
        OK(cuMemAlloc(&dx, sizeof x));
        OK(cuMemAlloc(&dout, sizeof out));
        OK(cuMemcpyHtoD(dx, x, sizeof x));
        unsigned long long a[14] = {0, 0, N, 4, dx, N, 4, 0, 0, NB, 4, dout, NB, 4};
        void *p[14];
        for (int i = 0; i < 14; i++)
            p[i] = &a[i];
        OK(cuLaunchKernel(f, NB, 1, 1, TPB, 1, 1, 0, 0, p, NULL));
        OK(cuCtxSynchronize());
        OK(cuMemcpyDtoH(out, dout, sizeof out));
        int ok = !memcmp(out, ref, sizeof out);
        bad += !ok;
        printf("block_sum %s (%g %g ... %g)\n", ok ? "PASS" : "FAIL", out[0], out[1], out[NB - 1]);
    }
    {
        enum { N = 64 };
        static float a[N * N], out[N * N];
        for (int i = 0; i < N * N; i++)
            a[i] = i * 0.5f;
        CUfunction f = load(dir, "transpose.ptx");
        CUdeviceptr din, dout;
        OK(cuMemAlloc(&din, sizeof a));
        OK(cuMemAlloc(&dout, sizeof out));
        OK(cuMemcpyHtoD(din, a, sizeof a));
        int n = N;
        void *p[] = {&din, &dout, &n};
        OK(cuLaunchKernel(f, N / 32, N / 32, 1, 32, 8, 1, 0, 0, p, NULL));
        OK(cuCtxSynchronize());
        OK(cuMemcpyDtoH(out, dout, sizeof out));
        int ok = 1;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                ok &= out[i * N + j] == a[j * N + i];
        bad += !ok;
        printf("transpose %s\n", ok ? "PASS" : "FAIL");
    }
    return bad;
}
