// minmax64.cu: 64-bit atomicMin / atomicMax on shared memory, which ptxas makes a loop on sm_90
// whose rounds depend on the values (emu/cta.c, minmax_rounds; analysis/launch.c). Written after
// the rule was worked out from tests/run/h100-atomic64.csv (min64, max64), as a held-out check: its
// counts were predicted here and committed before the H100 run (tests/run/h100-minmax64.csv). One
// warp a kernel (rounds forced by other warps are timing, not counted); results checked on the host.
#include <cstdio>
typedef unsigned long long u64;
typedef long long s64;

// P: 0 one word, values descending by lane (each lane improves it: 32 rounds for min)
//    1 one word, ascending (lane 0 improves, the rest leave after the second look)
//    2 eight words of four lanes, scrambled values, three calls
//    3 every lane its own word (one round)
//    4 words 0 and 16 (one bank) half a pass each
//    5 two words a lane pair apart, every other lane improving
template <int P>
__device__ u64 value(unsigned t, int i)
{
    switch (P) {
    case 0: return 1000 - t;
    case 1: return 1000 + t;
    case 2: return (u64)((t * 2654435761u + i * 40503u) % 97u);
    case 3: return 500 + t;
    case 4: return (u64)((t * 7 + i) % 13);
    default: return (t & 1) ? 50 + t : 900 - t;
    }
}
template <int P>
__device__ unsigned word(unsigned t)
{
    switch (P) {
    case 0: case 1: return 0;
    case 2: return t / 4;
    case 3: return t;
    case 4: return (t / 8) & 1 ? 16 : 0;
    default: return (t / 2) & 1;
    }
}

template <int P, int MAX>
__global__ void minmax(u64 *o)
{
    __shared__ u64 s[32];
    s[threadIdx.x] = MAX ? 0 : ~0ull;
    __syncwarp();
    for (int i = 0; i < (P == 2 || P == 4 ? 3 : 1); i++) {
        if (MAX)
            atomicMax(&s[word<P>(threadIdx.x)], value<P>(threadIdx.x, i));
        else
            atomicMin(&s[word<P>(threadIdx.x)], value<P>(threadIdx.x, i));
    }
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}

// signed max with negative values, four lanes a word
__global__ void smax(s64 *o)
{
    __shared__ s64 s[32];
    s[threadIdx.x] = -5000;
    __syncwarp();
    atomicMax(&s[threadIdx.x % 8], (s64)((int)(threadIdx.x * 37 % 29) - 20));
    __syncwarp();
    o[threadIdx.x] = s[threadIdx.x];
}

template <int P, int MAX>
static int check(u64 *d, const char *name)
{
    minmax<P, MAX><<<1, 32>>>(d);
    u64 h[32], want[32];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int w = 0; w < 32; w++)
        want[w] = MAX ? 0 : ~0ull;
    for (int i = 0; i < (P == 2 || P == 4 ? 3 : 1); i++)
        for (unsigned t = 0; t < 32; t++) {
            unsigned w = P == 0 || P == 1 ? 0 : P == 2 ? t / 4 : P == 3 ? t : P == 4 ? ((t / 8) & 1 ? 16 : 0) : (t / 2) & 1;
            u64 v = P == 0 ? 1000 - t : P == 1 ? 1000 + t : P == 2 ? (u64)((t * 2654435761u + i * 40503u) % 97u)
                    : P == 3 ? 500 + t : P == 4 ? (u64)((t * 7 + i) % 13) : ((t & 1) ? 50 + t : 900 - t);
            want[w] = MAX ? (v > want[w] ? v : want[w]) : (v < want[w] ? v : want[w]);
        }
    int bad = 0;
    for (int w = 0; w < 32; w++)
        bad += h[w] != want[w];
    if (bad)
        printf("%s: %d words wrong\n", name, bad);
    return bad;
}

int main()
{
    u64 *d;
    cudaMalloc(&d, 32 * sizeof(u64));
    int bad = 0;
    bad += check<0, 0>(d, "min desc");
    bad += check<1, 0>(d, "min asc");
    bad += check<2, 0>(d, "min scrambled");
    bad += check<3, 0>(d, "min own");
    bad += check<4, 0>(d, "min bank");
    bad += check<5, 0>(d, "min pairs");
    bad += check<0, 1>(d, "max desc");
    bad += check<1, 1>(d, "max asc");
    bad += check<2, 1>(d, "max scrambled");
    bad += check<4, 1>(d, "max bank");
    smax<<<1, 32>>>((s64 *)d);
    s64 h[32], want[32];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int w = 0; w < 32; w++)
        want[w] = -5000;
    for (unsigned t = 0; t < 32; t++) {
        s64 v = (int)(t * 37 % 29) - 20;
        if (v > want[t % 8])
            want[t % 8] = v;
    }
    for (int w = 0; w < 32; w++)
        bad += h[w] != want[w];
    printf("minmax64 %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
