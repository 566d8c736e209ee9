// ld64.cu: plain LDS.64 of 32 lanes, 8 or 16 lanes on each of two words of one bank (tests/hw/h100-ld64.csv)
#include <cstdio>
typedef unsigned long long u64;
template <int P>
__global__ void ld64(u64 *o)
{
    __shared__ u64 s[64];
    s[threadIdx.x] = threadIdx.x;
    s[threadIdx.x + 32] = threadIdx.x;
    __syncwarp();
    unsigned t = threadIdx.x, w;
    switch (P) {
    case 0: w = (t / 8) & 1 ? 16 : 0; break;   // 8 lanes a word, alternating, both half-warps
    case 1: w = (t & 1) ? 16 : 0; break;       // alternate lanes
    case 2: w = t < 16 ? 0 : 16; break;        // a word a half-warp
    case 3: w = 0; break;                      // broadcast
    case 4: w = t < 16 ? 0 : 1; break;         // distinct banks a half-warp
    case 5: w = (t / 8) & 1 ? 32 : 0; break;   // words 0 and 32 (one bank), 8 lanes each
    default: w = (t / 8) % 4 * 16; break;      // words 0,16,32,48 (one bank), 8 lanes each
    }
    o[blockIdx.x * 32 + t] = s[w];
}
int main()
{
    u64 *o;
    cudaMalloc(&o, 64 * sizeof(u64));
    ld64<0><<<1, 32>>>(o); ld64<1><<<1, 32>>>(o); ld64<2><<<1, 32>>>(o); ld64<3><<<1, 32>>>(o);
    ld64<4><<<1, 32>>>(o); ld64<5><<<1, 32>>>(o); ld64<6><<<1, 32>>>(o);
    cudaDeviceSynchronize();
    printf("ld64 done\n");
    return 0;
}
