// cluster_bad.cu: what a kernel of a cluster must not do, one case per run (the argument):
//   mapa_rank  mapa to rank 2 of a 2-CTA cluster, then a load through it
//   unaligned  a 4-byte ld.shared::cluster at an address 2 bytes off
//   exit_early rank 1 exits at once; rank 0 then stores into rank 1's shared memory (the PTX ISA:
//              undefined, a CTA's shared memory may be gone once it exits)
//   deadlock   rank 0's 64 threads arrive on its mbarrier of count 2 (32 phases complete) and
//              wait for the phase of parity 0, which needs 2 arrivals nobody makes
//   exit_ordered (not an error: exit 0) rank 0 stores into rank 1 and arrives on rank 1's
//              mbarrier, which rank 1 waits for before it exits: the store is ordered before
//              the exit (not run on the GPU)
// tests/test_cluster.c: `smemlab run` stops each with a located message, exit 3.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

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
__device__ static void csync()
{
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}

__global__ void __cluster_dims__(2, 1, 1) bad(int c, uint32_t *out)
{
    __shared__ uint32_t buf[64];
    __shared__ alignas(8) uint64_t bar;
    uint32_t t = threadIdx.x, r = ctarank(), v = 0;
    buf[t] = t;
    if (c == 0) { /* mapa_rank */
        csync();
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(mapa(sa(&buf[t]), r + 2)));
        csync();
    } else if (c == 1) { /* unaligned */
        csync();
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(mapa(sa(&buf[t]), r ^ 1) + 2));
        csync();
    } else if (c == 2) { /* exit_early */
        if (r == 1)
            return;
        for (int i = 0; i < 1000; i++)
            v += buf[(t + i) % 64];
        asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(mapa(sa(&buf[t]), 1)), "r"(v) : "memory");
    } else if (c == 4) { /* exit_ordered */
        if (t == 0)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 64;" ::"r"(sa(&bar)) : "memory");
        csync();
        if (r == 0) {
            asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(mapa(sa(&buf[t]), 1)), "r"(t) : "memory");
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(mapa(sa(&bar), 1))
                         : "memory");
        } else {
            uint32_t done = 0;
            while (!done)
                asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, "
                             "[%1], 0; selp.u32 %0, 1, 0, p; }"
                             : "=r"(done)
                             : "r"(sa(&bar))
                             : "memory");
            v = buf[t];
        }
    } else { /* deadlock */
        if (t == 0)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"(sa(&bar)) : "memory");
        csync();
        if (r == 0) {
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(&bar)) : "memory");
            uint32_t done = 0;
            while (!done)
                asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                             " selp.u32 %0, 1, 0, p; }"
                             : "=r"(done)
                             : "r"(sa(&bar))
                             : "memory");
        }
        csync();
    }
    out[blockIdx.x * 64 + t] = v;
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"mapa_rank", "unaligned", "exit_early", "deadlock",
                                        "exit_ordered"};
    int c = -1;
    for (int i = 0; i < 5; i++)
        if (argc > 1 && !strcmp(argv[1], names[i]))
            c = i;
    if (c < 0) {
        fprintf(stderr, "usage: cluster_bad mapa_rank|unaligned|exit_early|deadlock|exit_ordered\n");
        return 2;
    }
    uint32_t *dev;
    cudaMalloc(&dev, 4 * 64 * 4);
    bad<<<4, 64>>>(c, dev);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: %s\n", names[c], cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
