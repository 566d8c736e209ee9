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

#endif
