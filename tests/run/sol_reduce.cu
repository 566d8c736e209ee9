// sol_reduce.cu: kernels/sol_reduce.cu's sums (the bulk-copy form, sm_90+, `bench reduce`'s default
// there, issue 34, and the register form, the default before sm_90) on lengths and alignments that reach every path: fewer elements than
// one 16-byte word, a start off the 16-byte boundary (the head), words past the last whole chunk,
// elements after the last word (the tail), more chunks than blocks, fewer chunks than blocks.
// Launched as src/gpu/sol.c's smem_sol_reduce_launch_of says (bulk: 256 threads, 4 blocks a SM;
// register: 1024 threads, 2 a SM); each launch twice (the ticket must be left 0). Values are k / 256,
// k < 64 (f32) and integers in [-128, 128) (i32), so every partial sum is exact in any order and the check is ==.
// Prints one line a case and "PASS" / "FAIL n" last; exit 0 only when every case is right.
#include "../../kernels/sol_reduce.cu"

#include <cstdio>
#include <cstdlib>

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            printf("CUDA error %s at line %d: %s\n", #call, __LINE__, cudaGetErrorString(e_));     \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

typedef void (*kern_i)(const int *, int *, int *, unsigned *, long long);
typedef void (*kern_f)(const float *, float *, float *, unsigned *, long long);

static int fails;

template <typename T, typename K>
static void one(const char *name, K k, int threads, int per_sm, int sms, const T *dev, const T *host, long long off,
                long long n, T *out, T *partials, unsigned *ticket)
{
    double want = 0;
    for (long long i = 0; i < n; ++i)
        want += (double)host[off + i];
    for (int rep = 0; rep < 2; ++rep) {
        const T *in = dev + off;
        void *args[] = {&in, &out, &partials, &ticket, &n};
        CK(cudaLaunchKernel((const void *)k, dim3(sms * per_sm), dim3(threads), args, 0, 0));
        CK(cudaDeviceSynchronize());
        T got;
        CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
        const bool ok = (double)got == want;
        fails += !ok;
        if (rep == 1 || !ok)
            printf("%-22s offset %lld n %7lld: %.6f %s\n", name, off, n, (double)got, ok ? "ok" : "WRONG");
    }
}

int main(int argc, char **argv)
{
    const int sms = argc > 1 ? atoi(argv[1]) : 4; /* the grid of a device with this many SMs */
    const long long cap = 140000;
    int *hi = (int *)malloc(cap * sizeof(int));
    float *hf = (float *)malloc(cap * sizeof(float));
    for (long long i = 0; i < cap; ++i) {
        hi[i] = (int)((unsigned)(i * 2654435761u) >> 24) - 128;
        hf[i] = (float)((unsigned)(i * 40503u) & 63u) / 256.0f; /* sums < 2^15: exact */
    }
    int *di, *oi, *pi;
    float *df, *of, *pf;
    unsigned *ticket;
    CK(cudaMalloc(&di, cap * sizeof(int)));
    CK(cudaMalloc(&df, cap * sizeof(float)));
    CK(cudaMalloc(&oi, 4));
    CK(cudaMalloc(&of, 4));
    CK(cudaMalloc(&pi, sms * 4 * sizeof(int)));
    CK(cudaMalloc(&pf, sms * 4 * sizeof(float)));
    CK(cudaMalloc(&ticket, 4));
    CK(cudaMemset(ticket, 0, 4));
    CK(cudaMemcpy(di, hi, cap * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(df, hf, cap * sizeof(float), cudaMemcpyHostToDevice));
    /* (offset, n): 1, 3 and 4 elements; a misaligned start; one chunk of 16 KB (4096 elements) and
     * more; more chunks than blocks (sms 4: 16 bulk blocks; 139990 elements are 34 chunks) */
    const long long cases[][2] = {{0, 1}, {1, 3}, {0, 4}, {3, 4099}, {0, 16384}, {2, 16389}, {1, 100003}, {0, 131072},
                                  {3, 139990}};
    for (const auto &c : cases) {
        one<int>("sol_reduce_bulk_i32", (kern_i)sol_reduce_bulk_i32, SOL_RED_BULK_THREADS, SOL_RED_BULK_BLOCKS_PER_SM,
                 sms, di, hi, c[0], c[1], oi, pi, ticket);
        one<float>("sol_reduce_bulk_f32", (kern_f)sol_reduce_bulk_f32, SOL_RED_BULK_THREADS,
                   SOL_RED_BULK_BLOCKS_PER_SM, sms, df, hf, c[0], c[1], of, pf, ticket);
    }
    for (const auto &c : cases) {
        one<int>("sol_reduce_i32", (kern_i)sol_reduce_i32, SOL_RED_THREADS, SOL_RED_BLOCKS_PER_SM, sms, di, hi, c[0],
                 c[1], oi, pi, ticket);
        one<float>("sol_reduce_f32", (kern_f)sol_reduce_f32, SOL_RED_THREADS, SOL_RED_BLOCKS_PER_SM, sms, df, hf, c[0],
                   c[1], of, pf, ticket);
    }
    if (fails)
        printf("FAIL %d\n", fails);
    else
        printf("PASS\n");
    return fails ? 1 : 0;
}
