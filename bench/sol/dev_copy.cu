// dev_copy.cu: development harness for issue 34's copy kind (a transpose with one row or one column is
// a copy). Not part of the product: `smemlab bench transpose` is. Times the copy kernels
// (kernels/sol_transpose.cu's sol_copy_body: registers, NT threads, U words a thread; this file's
// sol_copy_bulk_body: the bulk copy engine, one chunk of NT*U words a block) against cuMemcpyDtoD
// (cudaMemcpy), the way the product times them (the L2 filled with other lines before each method's
// round, warm-ups, each call alone between two events, rounds in alternating order, the median of all
// calls), every output compared with its input word for word. Build (repository root):
//   nvcc -O3 -arch=sm_90 -std=c++17 -o dev_copy bench/sol/dev_copy.cu
// run: ./dev_copy [--mb 134,268,537] [--rounds 4] [--reps 30]
#include "../../kernels/sol_transpose.cu"

#include "dev_time.cuh"

#include <cstring>
#include <string>

/* rows == 1 or cols == 1 by the bulk copy engine (issue 34, session 5; sm_90+; measured here on the
 * H200 and not shipped: 0.96-0.99 of cudaMemcpy where the register kernel of 1024 threads is 1.00;
 * docs/speed-of-light.md, "Session 5"; in kernels/sol_transpose.cu up to commit 745f1de): the same
 * work as sol_copy_body (block b copies words NT*U*b ..), but thread 0 alone moves the block's NT*U words:
 * one bulk copy from global to shared memory (cp.async.bulk, completed on the block's mbarrier), one
 * back to global (cp.async.bulk.global.shared::cta, a bulk group it waits to have read the tile
 * before the block ends). No register holds a byte, so a SM keeps as many bytes in flight as its
 * shared memory has blocks for (NT*U*16 bytes each). Unaligned pointers, the words past a block's
 * whole chunk and the n % VEC elements after the last word: sol_copy_body's way. Elsewhere (sm_80)
 * sol_copy_body itself. */
template <typename T, int NT, int U>
static __device__ __forceinline__ void sol_copy_bulk_body(T *__restrict__ out, const T *__restrict__ in, long long n)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const int VEC = SOL_WORD_ELEMS(T);
    __shared__ __align__(128) uint4 chunk[NT * U];
    __shared__ __align__(8) unsigned long long full;
    if ((((size_t)in | (size_t)out) & 15) != 0) {
        sol_copy_body<T, NT, U, SOL_CACHE_DEFAULT>(out, in, n);
        return;
    }
    const long long nw = n / VEC, first = (long long)blockIdx.x * NT * U;
    const long long words = nw - first < NT * U ? (nw - first > 0 ? nw - first : 0) : NT * U;
    if (threadIdx.x == 0 && words > 0) {
        const unsigned bar = (unsigned)__cvta_generic_to_shared(&full), dst = (unsigned)__cvta_generic_to_shared(chunk);
        const unsigned bytes = (unsigned)(words * 16);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                     "l"(in + first * VEC), "r"(bytes), "r"(bar)
                     : "memory");
        unsigned done;
        do {
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done)
                         : "r"(bar)
                         : "memory");
        } while (!done);
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(out + first * VEC), "r"(dst),
                     "r"(bytes)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    if (blockIdx.x == gridDim.x - 1)
        for (long long e = nw * VEC + threadIdx.x; e < n; e += NT)
            sol_st1(out + e, sol_ld1(in + e));
#else
    sol_copy_body<T, NT, U, SOL_CACHE_DEFAULT>(out, in, n);
#endif
}

template <int NT, int U>
__global__ void __launch_bounds__(NT) k_reg(unsigned *out, const unsigned *in, long long n)
{
    sol_copy_body<unsigned, NT, U, SOL_CACHE_DEFAULT>(out, in, n);
}

template <int NT, int U>
__global__ void __launch_bounds__(NT) k_bulk(unsigned *out, const unsigned *in, long long n)
{
    sol_copy_bulk_body<unsigned, NT, U>(out, in, n);
}

__global__ void k_diff(const unsigned *a, const unsigned *b, unsigned long long n, unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        mine += a[i] != b[i];
    if (mine)
        atomicAdd(bad, mine);
}

struct method {
    std::string name;
    const void *fn; // nullptr: cudaMemcpy
    int nt, words_per_block;
};

static void add(std::vector<method> &v, const char *name, const void *fn, int nt, int u)
{
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, fn));
    int fit = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn, nt, 0));
    printf("  %-16s %4d threads, %3d words a thread, %2d blocks a SM fit, %d registers, %zu B shared\n", name, nt, u,
           fit, a.numRegs, a.sharedSizeBytes);
    v.push_back({name, fn, nt, nt * u});
}

int main(int argc, char **argv)
{
    std::vector<long long> mbs = {134, 268, 537};
    int rounds = 4, reps = 30, warm = 5;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--mb") && i + 1 < argc) {
            mbs.clear();
            for (char *t = strtok(argv[++i], ","); t; t = strtok(nullptr, ","))
                mbs.push_back(atoll(t));
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: dev_copy [--mb 134,268,537] [--rounds 4] [--reps 30]\n");
            return 2;
        }
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    dev_timer tm;
    dev_time_open(tm, p);
    unsigned long long *bad;
    CK(cudaMalloc(&bad, 8));
    printf("device %s, %d SMs, L2 %d B; rounds %d x %d calls, %d warm-ups\n", p.name, tm.sms, p.l2CacheSize, rounds,
           reps, warm);
    std::vector<method> ms;
    ms.push_back({"memcpy", nullptr, 0, 0});
    add(ms, "reg_256x2", (const void *)k_reg<256, 2>, 256, 2);
    add(ms, "reg_1024x2", (const void *)k_reg<1024, 2>, 1024, 2);
    add(ms, "reg_256x4", (const void *)k_reg<256, 4>, 256, 4);
    add(ms, "reg_128x8", (const void *)k_reg<128, 8>, 128, 8);
    add(ms, "bulk_32x32", (const void *)k_bulk<32, 32>, 32, 32);     // 16 KB a block
    add(ms, "bulk_32x64", (const void *)k_bulk<32, 64>, 32, 64);     // 32 KB
    add(ms, "bulk_64x32", (const void *)k_bulk<64, 32>, 64, 32);     // 32 KB
    add(ms, "bulk_32x16", (const void *)k_bulk<32, 16>, 32, 16);     // 8 KB
    add(ms, "bulk_128x8", (const void *)k_bulk<128, 8>, 128, 8);     // 16 KB
    for (long long mb : mbs) {
        const long long n = mb * 1000000 / 4 + 3; /* + 3: the elements after the last word */
        unsigned *in, *out;
        CK(cudaMalloc(&in, n * 4));
        CK(cudaMalloc(&out, n * 4));
        dev_fill_words<<<tm.sms * 8, 256>>>(in, n, 7u);
        auto launch = [&](size_t k) {
            const method &m = ms[k];
            if (!m.fn) {
                CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice));
                return;
            }
            const long long per_block = (long long)m.words_per_block * 4;
            void *args[] = {&out, &in, (void *)&n};
            CK(cudaLaunchKernel(m.fn, dim3((unsigned)((n + per_block - 1) / per_block)), dim3(m.nt), args, 0, 0));
        };
        auto poison = [&](size_t) { CK(cudaMemset(out, 0xFF, n * 4)); };
        auto check = [&](size_t k) {
            CK(cudaMemset(bad, 0, 8));
            k_diff<<<tm.sms * 8, 256>>>(in, out, n, bad);
            unsigned long long h;
            CK(cudaMemcpy(&h, bad, 8, cudaMemcpyDeviceToHost));
            if (h)
                printf("MISMATCH %s %lld MB: %llu words differ\n", ms[k].name.c_str(), mb, h);
        };
        std::vector<std::vector<float>> times(ms.size());
        for (int r = 0; r < rounds; ++r)
            dev_time_round(tm, r, ms.size(), warm, reps, times, poison, launch, check);
        const double copy_med = dev_stats_of(times[0]).median; /* method 0 is cudaMemcpy */
        for (size_t k = 0; k < ms.size(); ++k) {
            const dev_stats st = dev_stats_of(times[k]);
            printf("copy %lld MB %-12s median %.4f ms min %.4f max %.4f  %.1f GB/s  x memcpy %.4f\n", mb,
                   ms[k].name.c_str(), st.median, st.min, st.max, 2.0 * n * 4 / (st.median * 1e-3) / 1e9,
                   copy_med / st.median);
        }
        fflush(stdout);
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
    return 0;
}
