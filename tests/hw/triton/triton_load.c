/* triton_load.c: launches Triton 3.9's tutorial kernels (vector add, fused softmax, layer norm
 * forward) from the cubins Triton compiled for sm_90a (its cache: NAME.cubin beside NAME.ptx), on
 * the GPU, through the driver API, with the configurations `smemlab run python3 ...` launched
 * them with (docs/run.md's scripts: add 3x128, softmax 64x128 + 16 B dynamic shared memory,
 * layer norm 32x256 + 4096 B): run under Nsight Compute to count their shared-memory requests and
 * wavefronts. argv[1]: the folder holding add_kernel.cubin, softmax_kernel.cubin,
 * _layer_norm_fwd.cubin. Prints each kernel's check (the results against the host's). */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

static CUfunction load(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cubin", dir, name);
    CUmodule m;
    CUfunction f;
    OK(cuModuleLoad(&m, path));
    OK(cuModuleGetFunction(&f, m, name));
    return f;
}

static CUdeviceptr up(const float *h, size_t n)
{
    CUdeviceptr d;
    OK(cuMemAlloc(&d, n * 4));
    OK(cuMemcpyHtoD(d, h, n * 4));
    return d;
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
    CUdeviceptr none = 0;
    srand(1);

    /* vector add: 3000 floats, 3 blocks of 128 threads (BLOCK=1024) */
    {
        enum { N = 3000 };
        static float x[N], y[N], o[N];
        for (int i = 0; i < N; i++)
            x[i] = rand() / (float)RAND_MAX, y[i] = rand() / (float)RAND_MAX;
        CUdeviceptr dx = up(x, N), dy = up(y, N), dout = up(o, N);
        unsigned n = N;
        void *a[] = {&dx, &dy, &dout, &n, &none, &none};
        OK(cuLaunchKernel(load(dir, "add_kernel"), 3, 1, 1, 128, 1, 1, 0, NULL, a, NULL));
        OK(cuMemcpyDtoH(o, dout, sizeof o));
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += o[i] != x[i] + y[i];
        printf("add_kernel %s\n", bad ? "FAIL" : "PASS");
    }
    /* fused softmax: 64 rows of 781, one block of 128 threads a row (BLOCK=1024) */
    {
        enum { R = 64, C = 781 };
        static float x[R * C], o[R * C];
        for (int i = 0; i < R * C; i++)
            x[i] = rand() / (float)RAND_MAX;
        CUdeviceptr dx = up(x, R * C), dout = up(o, R * C);
        unsigned c = C;
        void *a[] = {&dout, &dx, &c, &c, &c, &none, &none};
        OK(cuLaunchKernel(load(dir, "softmax_kernel"), R, 1, 1, 128, 1, 1, 16, NULL, a, NULL));
        OK(cuMemcpyDtoH(o, dout, sizeof o));
        double worst = 0;
        for (int r = 0; r < R; r++) {
            double s = 0;
            for (int i = 0; i < C; i++)
                s += o[r * C + i];
            worst = fmax(worst, fabs(s - 1));
        }
        printf("softmax_kernel %s (rows sum to 1 within %.1e)\n", worst < 1e-5 ? "PASS" : "FAIL",
               worst);
    }
    /* layer norm forward: 32 rows of 1000, one block of 256 threads a row (BLOCK_SIZE=1024,
       num_warps=8) */
    {
        enum { R = 32, C = 1000 };
        static float x[R * C], y[R * C], w[C], b[C], mean[R], rstd[R];
        for (int i = 0; i < R * C; i++)
            x[i] = rand() / (float)RAND_MAX - 0.5f;
        for (int i = 0; i < C; i++)
            w[i] = rand() / (float)RAND_MAX, b[i] = rand() / (float)RAND_MAX;
        CUdeviceptr dx = up(x, R * C), dy = up(y, R * C), dw = up(w, C), db = up(b, C);
        CUdeviceptr dm = up(mean, R), dr = up(rstd, R);
        unsigned c = C;
        float eps = 1e-5f;
        void *a[] = {&dx, &dy, &dw, &db, &dm, &dr, &c, &c, &eps, &none, &none};
        OK(cuLaunchKernel(load(dir, "_layer_norm_fwd"), R, 1, 1, 256, 1, 1, 4096, NULL, a, NULL));
        OK(cuMemcpyDtoH(y, dy, sizeof y));
        double worst = 0;
        for (int r = 0; r < R; r++) {
            double mu = 0, var = 0;
            for (int i = 0; i < C; i++)
                mu += x[r * C + i];
            mu /= C;
            for (int i = 0; i < C; i++)
                var += (x[r * C + i] - mu) * (x[r * C + i] - mu);
            var /= C;
            for (int i = 0; i < C; i++)
                worst = fmax(worst, fabs((x[r * C + i] - mu) / sqrt(var + 1e-5) * w[i] + b[i] -
                                         y[r * C + i]));
        }
        printf("_layer_norm_fwd %s (within %.1e)\n", worst < 1e-4 ? "PASS" : "FAIL", worst);
    }
    return 0;
}
