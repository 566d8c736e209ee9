// dev_time.cuh: what bench/sol's small dev harnesses (dev_reduce.cu, dev_copy.cu) share, timed the way
// `smemlab bench` times (src/gpu/sol_bench.c, harness.c): CUDA calls checked, the L2 filled with other
// lines before a method's round, warm-ups, each call alone between two events, rounds over the methods
// in alternating order, and the median, minimum and maximum of all a method's calls. Not part of the
// product.
#ifndef SMEMLAB_BENCH_SOL_DEV_TIME_CUH
#define SMEMLAB_BENCH_SOL_DEV_TIME_CUH

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                                                       \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

/* n words of p, each a function of (i, seed): fills an input, or the L2 with lines no method reads */
__global__ void dev_fill_words(unsigned *p, unsigned long long n, unsigned seed)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        p[i] = (unsigned)i * 2654435761u + seed;
}

struct dev_stats {
    double median, min, max;
};

static dev_stats dev_stats_of(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    const size_t h = v.size() / 2;
    return {v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]), v.front(), v.back()};
}

/* The L2 scrub buffer (twice the L2) and the device's SM count, set by dev_time_open. */
struct dev_timer {
    int sms;
    unsigned *scrub;
    unsigned long long scrub_words;
    cudaEvent_t e0, e1;
};

static void dev_time_open(dev_timer &t, const cudaDeviceProp &p)
{
    t.sms = p.multiProcessorCount;
    t.scrub_words = 2ULL * p.l2CacheSize / 4;
    CK(cudaMalloc(&t.scrub, t.scrub_words * 4));
    CK(cudaEventCreate(&t.e0));
    CK(cudaEventCreate(&t.e1));
    for (int w = 0; w < 200; ++w) /* clocks up before anything is timed */
        dev_fill_words<<<t.sms * 8, 256>>>(t.scrub, t.scrub_words, 0u);
    CK(cudaDeviceSynchronize());
}

/* Round r over nmethods: for each method k (in turn, reversed on odd rounds) before(k) runs (a poison
 * of the output), the L2 is scrubbed, launch(k) runs warm times untimed, then reps times each alone
 * between the events, appended to ms[k]; after(k) runs last (a check of the method's output). */
template <typename Before, typename Launch, typename After>
static void dev_time_round(dev_timer &t, int r, size_t nmethods, int warm, int reps, std::vector<std::vector<float>> &ms,
                           Before before, Launch launch, After after)
{
    for (size_t j = 0; j < nmethods; ++j) {
        const size_t k = (r % 2) ? nmethods - 1 - j : j;
        before(k);
        dev_fill_words<<<t.sms * 8, 256>>>(t.scrub, t.scrub_words, 1u + (unsigned)r);
        for (int w = 0; w < warm; ++w)
            launch(k);
        for (int i = 0; i < reps; ++i) {
            CK(cudaEventRecord(t.e0));
            launch(k);
            CK(cudaEventRecord(t.e1));
            CK(cudaEventSynchronize(t.e1));
            float ms_one;
            CK(cudaEventElapsedTime(&ms_one, t.e0, t.e1));
            ms[k].push_back(ms_one);
        }
        after(k);
    }
}

/* Elements of out (cols x rows) that are not the transpose of in (rows x cols) */
template <typename T> __global__ void dev_transpose_diff(const T *out, const T *in, int rows, int cols, unsigned long long *bad)
{
    unsigned long long mine = 0;
    const long long n = (long long)rows * cols;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const int r = (int)(i / cols), c = (int)(i % cols);
        mine += out[(long long)c * rows + r] != in[i];
    }
    if (mine)
        atomicAdd(bad, mine);
}

/* after(k) of a transpose harness: a "MISMATCH" line when method `name`'s output is not the transpose */
template <typename T>
static void dev_transpose_check(const dev_timer &t, const T *out, const T *in, int rows, int cols, unsigned long long *bad,
                                const char *name, const char *tname)
{
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(bad, 0, 8));
    dev_transpose_diff<T><<<t.sms * 8, 256>>>(out, in, rows, cols, bad);
    unsigned long long h;
    CK(cudaMemcpy(&h, bad, 8, cudaMemcpyDeviceToHost));
    if (h)
        printf("MISMATCH %s %s %dx%d: %llu elements differ\n", name, tname, rows, cols, h);
}

/* One line a method: "<what> <name> median .. min .. max .. GB/s x memcpy": method 0 is the copy,
 * bytes what a call moves (read plus written) */
static void dev_report(const char *what, const std::vector<std::string> &names, const std::vector<std::vector<float>> &times,
                       double bytes)
{
    const double copy_med = dev_stats_of(times[0]).median;
    for (size_t k = 0; k < names.size(); ++k) {
        const dev_stats st = dev_stats_of(times[k]);
        printf("%s %-28s median %.4f ms min %.4f max %.4f  %7.1f GB/s  x memcpy %.4f\n", what, names[k].c_str(), st.median,
               st.min, st.max, bytes / (st.median * 1e-3) / 1e9, copy_med / st.median);
    }
    fflush(stdout);
}

#endif
