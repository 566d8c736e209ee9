// cluster_dsmem.cu: thread-block clusters and distributed shared memory (sm_90a), self-checking.
// Each kernel is its own launch (Nsight Compute counts them one by one): the cluster's special
// registers (a 2x2 cluster through cudaLaunchKernelEx, __cluster_dims__, no cluster), loads of
// another CTA's shared memory (ld.shared::cluster through mapa, of the own CTA through mapa and
// through a plain shared::cta address, generic through cooperative groups' map_shared_rank),
// stores, atomics and reductions into another CTA (4-CTA clusters), st.async and red.async with
// the receiver's mbarrier transaction count, cp.async.bulk shared::cta -> shared::cluster, a
// remote mbarrier arrive (release.cluster) that publishes remote stores, barrier.cluster split
// into arrive.relaxed / wait, a TMA load multicast into 2 CTAs (each loading half the box, as
// CUTLASS does), and a read of another CTA's memory that races with its owner's store (its value
// is not printed). One line per kernel: its name, ok / FAIL and a hash of what it wrote; then
// PASS or FAIL. Recorded on an H200 as tests/run/h200-cluster-dsmem.txt (and the counters
// h200-cluster-dsmem-ncu.csv); tests/test_cluster.c replays it under `smemlab run`.
#include <cooperative_groups.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

#define N 128 /* threads a block */

__device__ static uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ static uint32_t mapa(uint32_t a, uint32_t r)
{
    uint32_t d;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r));
    return d;
}
__device__ static uint32_t ctarank()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ static uint32_t nctarank()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}
__device__ static void csync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
}
__device__ static uint32_t ld_cl(uint32_t a)
{
    uint32_t v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}
__device__ static void st_cl(uint32_t a, uint32_t v)
{
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__device__ static void mbar_init(uint32_t bar, uint32_t n)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(n) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ static void mbar_wait(uint32_t bar, uint32_t phase)
{
    uint32_t done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(bar), "r"(phase)
                     : "memory");
}

// every special register of the cluster, 16 words a block (thread 0)
__device__ static void sregs_of(uint32_t *out)
{
    uint32_t v[16];
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v[0]));
    asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(v[1]));
    asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(v[2]));
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v[3]));
    asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(v[4]));
    asm volatile("mov.u32 %0, %%nclusterid.z;" : "=r"(v[5]));
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[6]));
    asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[7]));
    asm volatile("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(v[8]));
    asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v[9]));
    asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v[10]));
    asm volatile("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v[11]));
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[12]));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[13]));
    asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }"
                 : "=r"(v[14]));
    v[15] = 0xc1u;
    uint32_t b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0)
        for (int i = 0; i < 16; i++)
            out[b * 16 + i] = v[i];
}
__global__ void sregs(uint32_t *out) { sregs_of(out); }
__global__ void __cluster_dims__(2, 1, 1) sregs_dims(uint32_t *out) { sregs_of(out); }

// the neighbour's words through ld.shared::cluster (mode 0: mapa to rank ^ 1; 1: mapa to the
// own rank; 2: the plain shared::cta address, the own CTA)
__global__ void __cluster_dims__(2, 1, 1) ld_remote(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    uint32_t t = threadIdx.x;
    buf[t] = blockIdx.x * 1000 + t;
    csync();
    out[blockIdx.x * N + t] = ld_cl(mapa(sa(&buf[t]), ctarank() ^ 1));
    csync();
}
__global__ void __cluster_dims__(2, 1, 1) ld_own_mapa(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    uint32_t t = threadIdx.x;
    buf[t] = blockIdx.x * 1000 + t;
    csync();
    out[blockIdx.x * N + t] = ld_cl(mapa(sa(&buf[t]), ctarank()));
    csync();
}
__global__ void __cluster_dims__(2, 1, 1) ld_own_cta(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    uint32_t t = threadIdx.x;
    buf[t] = blockIdx.x * 1000 + t;
    csync();
    out[blockIdx.x * N + t] = ld_cl(sa(&buf[t]));
    csync();
}
// cooperative groups: map_shared_rank (mapa.u64 and a generic load), cluster.sync()
__global__ void __cluster_dims__(2, 1, 1) ld_generic(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    cg::cluster_group c = cg::this_cluster();
    uint32_t t = threadIdx.x;
    buf[t] = blockIdx.x * 1000 + t;
    c.sync();
    uint32_t *o = c.map_shared_rank(buf, c.block_rank() ^ 1);
    out[blockIdx.x * N + t] = o[t] + c.num_blocks();
    c.sync();
}
// stores into the neighbour, then each reads its own
__global__ void __cluster_dims__(2, 1, 1) st_remote(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    uint32_t t = threadIdx.x;
    st_cl(mapa(sa(&buf[t]), ctarank() ^ 1), blockIdx.x * 1000 + t);
    csync();
    out[blockIdx.x * N + t] = buf[t];
    csync();
}
// 4 CTAs (cudaLaunchKernelEx): every thread adds to rank 0's counters (atom, red), generic too
__global__ void atom_remote(uint32_t *out)
{
    __shared__ uint32_t cnt[64];
    uint32_t t = threadIdx.x, r = ctarank();
    if (t < 64)
        cnt[t] = 0;
    csync();
    uint32_t a = mapa(sa(&cnt[t % 32]), 0), old;
    asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(a) : "memory");
    asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(a + 128), "r"(r + 1) : "memory");
    cg::cluster_group c = cg::this_cluster();
    atomicAdd(c.map_shared_rank(&cnt[t % 32], 0), 2u);
    csync();
    if (r == 0 && t < 64)
        out[blockIdx.x / 4 * 64 + t] = cnt[t];
    if (old > 1000000) /* never: every old value is below 48 */
        out[4000] = old;
    csync();
}
// st.async / red.async into the neighbour, completing on its mbarrier's transaction count
__global__ void __cluster_dims__(2, 1, 1) st_async(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    __shared__ alignas(8) uint64_t bar;
    uint32_t t = threadIdx.x, r = ctarank();
    if (t == 0) {
        mbar_init(sa(&bar), 1);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)),
                     "r"(N * 4)
                     : "memory");
    }
    csync();
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(
                     mapa(sa(&buf[t]), r ^ 1)),
                 "r"(blockIdx.x * 1000 + t), "r"(mapa(sa(&bar), r ^ 1))
                 : "memory");
    mbar_wait(sa(&bar), 0);
    out[blockIdx.x * N + t] = buf[t];
    csync();
}
__global__ void __cluster_dims__(2, 1, 1) red_async(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    __shared__ alignas(8) uint64_t bar;
    uint32_t t = threadIdx.x, r = ctarank();
    buf[t] = 7;
    if (t == 0) {
        mbar_init(sa(&bar), 1);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)),
                     "r"(N * 4)
                     : "memory");
    }
    csync();
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 "
                 "[%0], %1, [%2];" ::"r"(mapa(sa(&buf[t]), r ^ 1)),
                 "r"(blockIdx.x * 1000 + t), "r"(mapa(sa(&bar), r ^ 1))
                 : "memory");
    mbar_wait(sa(&bar), 0);
    out[blockIdx.x * N + t] = buf[t];
    csync();
}
// cp.async.bulk shared::cta -> shared::cluster: each CTA sends its words to the neighbour
__global__ void __cluster_dims__(2, 1, 1) bulk_s2s(uint32_t *out)
{
    __shared__ alignas(16) uint32_t src[N], dst[N];
    __shared__ alignas(8) uint64_t bar;
    uint32_t t = threadIdx.x, r = ctarank();
    src[t] = blockIdx.x * 1000 + t;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (t == 0) {
        mbar_init(sa(&bar), 1);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)),
                     "r"(N * 4)
                     : "memory");
    }
    csync();
    if (t == 0)
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], "
                     "%2, [%3];" ::"r"(mapa(sa(dst), r ^ 1)),
                     "r"(sa(src)), "r"(N * 4), "r"(mapa(sa(&bar), r ^ 1))
                     : "memory");
    mbar_wait(sa(&bar), 0);
    out[blockIdx.x * N + t] = dst[t];
    csync();
}
// the first warp of every CTA stores into rank 0's table and arrives on rank 0's mbarrier
// (release.cluster); rank 0 waits (acquire.cluster) and reads the table; barrier.cluster split
// into arrive.relaxed and wait around independent work
__global__ void mbar_remote(uint32_t *out)
{
    __shared__ uint32_t tab[4 * 32];
    __shared__ alignas(8) uint64_t bar;
    uint32_t t = threadIdx.x, r = ctarank(), n = nctarank();
    if (t == 0)
        mbar_init(sa(&bar), n * 32);
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    uint32_t w = t * 3 + 1; /* work between the arrive and the wait */
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    if (t < 32) {
        st_cl(mapa(sa(&tab[r * 32 + t]), 0), blockIdx.x * 1000 + t);
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(mapa(sa(&bar), 0))
                     : "memory");
    }
    if (r == 0) {
        mbar_wait(sa(&bar), 0);
        if (t < n * 32)
            out[blockIdx.x / n * N + t] = tab[t] + (w - t * 3 - 1);
    }
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    csync();
}
// a TMA load multicast into both CTAs of the cluster: rank r loads rows 8r .. 8r+7 of a 16 x 32
// u32 tensor for both (ctaMask 0b11), each CTA's barrier expecting the whole tile
__global__ void __cluster_dims__(2, 1, 1) tma_multicast(const __grid_constant__ CUtensorMap m,
                                                        uint32_t *out)
{
    __shared__ alignas(128) uint32_t tile[16 * 32];
    __shared__ alignas(8) uint64_t bar;
    uint32_t t = threadIdx.x, r = ctarank();
    if (t == 0) {
        mbar_init(sa(&bar), 1);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)),
                     "r"(16 * 32 * 4)
                     : "memory");
    }
    csync();
    if (t == 0)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(sa(&tile[r * 8 * 32])),
                     "l"((uint64_t)&m), "r"(0), "r"((int)(r * 8)), "r"(sa(&bar)), "h"((uint16_t)3)
                     : "memory");
    mbar_wait(sa(&bar), 0);
    for (uint32_t i = t; i < 16 * 32; i += N)
        out[blockIdx.x * 512 + i] = tile[i];
    csync();
}
// rank 0 rewrites its words (t + 1, then t + 2) while rank 1 reads them (no barrier between): a
// race; rank 1 finds one of the two
__global__ void __cluster_dims__(2, 1, 1) race(uint32_t *out)
{
    __shared__ uint32_t buf[N];
    uint32_t t = threadIdx.x, r = ctarank();
    buf[t] = t + 1;
    csync();
    uint32_t v = t + 1;
    if (r == 0)
        buf[t] = t + 2;
    else
        v = ld_cl(mapa(sa(&buf[t]), 0));
    out[blockIdx.x * N + t] = v == t + 1 || v == t + 2;
    csync();
}

static uint32_t *dev;
static uint32_t host[4096];
static int all_ok = 1;

static uint64_t fnv(const uint32_t *v, unsigned n)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned i = 0; i < n; i++)
        h = (h ^ v[i]) * 1099511628211ull;
    return h;
}

// after a launch: the words out, checked against want (NULL: only hashed)
static void report(const char *name, unsigned n, const uint32_t *want)
{
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("%s error %s\n", name, cudaGetErrorString(e));
        all_ok = 0;
        return;
    }
    cudaMemcpy(host, dev, n * 4, cudaMemcpyDeviceToHost);
    int ok = 1;
    unsigned bad = 0;
    for (unsigned i = 0; want && i < n; i++)
        if (host[i] != want[i]) {
            if (ok)
                bad = i;
            ok = 0;
        }
    printf("%s %s hash %016llx", name, ok ? "ok" : "FAIL", (unsigned long long)fnv(host, n));
    if (!ok)
        printf(" (word %u: %u, want %u)", bad, host[bad], want[bad]);
    printf("\n");
    all_ok &= ok;
    cudaMemset(dev, 0, sizeof host);
}

template <typename K, typename... A>
static void launch_ex(K k, dim3 grid, dim3 cl, A... args)
{
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cl.x;
    at[0].val.clusterDim.y = cl.y;
    at[0].val.clusterDim.z = cl.z;
    cfg.gridDim = grid;
    cfg.blockDim = dim3(N);
    cfg.attrs = at;
    cfg.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&cfg, k, args...);
    if (e != cudaSuccess)
        printf("cudaLaunchKernelEx: %s\n", cudaGetErrorString(e));
}

int main()
{
    static uint32_t want[4096];
    cudaMalloc(&dev, sizeof host);
    cudaMemset(dev, 0, sizeof host);

    // special registers: a 2x2x1 cluster of a 4x4x2 grid; __cluster_dims__(2,1,1); no cluster
    launch_ex(sregs, dim3(4, 4, 2), dim3(2, 2, 1), dev);
    for (unsigned z = 0; z < 2; z++)
        for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++) {
                uint32_t *v = &want[(x + 4 * (y + 4 * z)) * 16];
                uint32_t c[16] = {x / 2, y / 2, z, 2, 2, 2, x % 2, y % 2, 0, 2, 2, 1,
                                  x % 2 + 2 * (y % 2), 4, 1, 0xc1u};
                memcpy(v, c, sizeof c);
            }
    report("sregs_2x2", 32 * 16, want);
    sregs_dims<<<dim3(4), dim3(N)>>>(dev);
    for (unsigned x = 0; x < 4; x++) {
        uint32_t c[16] = {x / 2, 0, 0, 2, 1, 1, x % 2, 0, 0, 2, 1, 1, x % 2, 2, 1, 0xc1u};
        memcpy(&want[x * 16], c, sizeof c);
    }
    report("sregs_dims", 4 * 16, want);
    sregs<<<dim3(3, 2), dim3(N)>>>(dev);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 3; x++) {
            uint32_t c[16] = {x, y, 0, 3, 2, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0xc1u};
            memcpy(&want[(x + 3 * y) * 16], c, sizeof c);
        }
    report("sregs_none", 6 * 16, want);

    // loads: 4 blocks, clusters of 2
    for (unsigned b = 0; b < 4; b++)
        for (unsigned t = 0; t < N; t++)
            want[b * N + t] = (b ^ 1) * 1000 + t;
    ld_remote<<<4, N>>>(dev);
    report("ld_remote", 4 * N, want);
    ld_generic<<<4, N>>>(dev);
    for (unsigned i = 0; i < 4 * N; i++)
        want[i] += 2;
    report("ld_generic", 4 * N, want);
    for (unsigned b = 0; b < 4; b++)
        for (unsigned t = 0; t < N; t++)
            want[b * N + t] = b * 1000 + t;
    ld_own_mapa<<<4, N>>>(dev);
    report("ld_own_mapa", 4 * N, want);
    ld_own_cta<<<4, N>>>(dev);
    report("ld_own_cta", 4 * N, want);
    for (unsigned b = 0; b < 4; b++)
        for (unsigned t = 0; t < N; t++)
            want[b * N + t] = (b ^ 1) * 1000 + t;
    st_remote<<<4, N>>>(dev);
    report("st_remote", 4 * N, want);
    st_async<<<4, N>>>(dev);
    report("st_async", 4 * N, want);
    bulk_s2s<<<4, N>>>(dev);
    report("bulk_s2s", 4 * N, want);
    for (unsigned i = 0; i < 4 * N; i++)
        want[i] += 7;
    red_async<<<4, N>>>(dev);
    report("red_async", 4 * N, want);

    // atomics: 8 blocks, clusters of 4; rank 0 of each cluster writes its counters
    launch_ex(atom_remote, dim3(8), dim3(4, 1, 1), dev);
    for (unsigned c = 0; c < 2; c++)
        for (unsigned j = 0; j < 64; j++)
            want[c * 64 + j] = j < 32 ? 4 * 4 * 3 : 4 * (1 + 2 + 3 + 4);
    report("atom_remote", 2 * 64, want);

    // a remote mbarrier: 8 blocks, clusters of 4 (and of 2)
    for (unsigned cs = 2; cs <= 4; cs += 2) {
        launch_ex(mbar_remote, dim3(8), dim3(cs, 1, 1), dev);
        memset(want, 0, sizeof want);
        for (unsigned c = 0; c < 8 / cs; c++)
            for (unsigned t = 0; t < N; t++)
                want[c * N + t] = t < cs * 32 ? (c * cs + t / 32) * 1000 + t % 32 : 0;
        char name[32];
        snprintf(name, sizeof name, "mbar_remote_%u", cs);
        report(name, 8 / cs * N, want);
    }

    // a TMA load multicast into 2 CTAs
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        !fn) {
        printf("no cuTensorMapEncodeTiled\n");
        all_ok = 0;
    } else {
        static uint32_t g[16 * 32];
        for (unsigned i = 0; i < 16 * 32; i++)
            g[i] = i * 3 + 11;
        uint32_t *dg;
        cudaMalloc(&dg, sizeof g);
        cudaMemcpy(dg, g, sizeof g, cudaMemcpyHostToDevice);
        CUtensorMap m;
        cuuint64_t dim[2] = {32, 16}, stride[1] = {32 * 4};
        cuuint32_t box[2] = {32, 8}, es[2] = {1, 1};
        CUresult cr = ((PFN_cuTensorMapEncodeTiled_v12000)fn)(
            &m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, dg, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (cr != CUDA_SUCCESS) {
            printf("cuTensorMapEncodeTiled: %d\n", (int)cr);
            all_ok = 0;
        } else {
            tma_multicast<<<4, N>>>(m, dev);
            for (unsigned b = 0; b < 4; b++)
                memcpy(&want[b * 512], g, sizeof g);
            report("tma_multicast", 4 * 512, want);
        }
        cudaFree(dg);
    }

    // a race: only that it ran (every value read is one the owner wrote or had)
    race<<<2, N>>>(dev);
    for (unsigned i = 0; i < 2 * N; i++)
        want[i] = 1;
    report("race", 2 * N, want);

    printf("%s\n", all_ok ? "PASS" : "FAIL");
    return all_ok ? 0 : 1;
}
