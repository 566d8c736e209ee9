// harness.cuh: host side for running a tests/hazards kernel under compute-sanitizer (built only with
// -DHAZARD_MAIN; smemlab's analyzer never sees it). Usage: ./prog KERNEL -> exit 0 after the launch.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define HZ_CHECK(call)                                                                            \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

// A zeroed device buffer of n ints (also used as float/char storage).
static int *hz_buffer(size_t n)
{
    int *p = nullptr;
    HZ_CHECK(cudaMalloc(&p, n * sizeof(int)));
    HZ_CHECK(cudaMemset(p, 0, n * sizeof(int)));
    return p;
}

static void hz_finish(const char *name)
{
    HZ_CHECK(cudaGetLastError());
    HZ_CHECK(cudaDeviceSynchronize());
    printf("%s: launched and finished\n", name);
}

#define HZ_RUN(want, kernel, grid, block, dyn, ...)                                               \
    if (!strcmp(argv[1], want)) {                                                                 \
        kernel<<<grid, block, dyn>>>(__VA_ARGS__);                                                \
        hz_finish(want);                                                                          \
        return 0;                                                                                 \
    }
