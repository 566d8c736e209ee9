// wgmma.cu: wgmma.mma_async (sm_90a) under `smemlab run` (tests/test_run.c runs it; the H200's own
// outputs and counters are in tests/run/h200-wgmma.txt). Each case writes a 64 x K tile A and an
// N x K tile B to shared memory in the canonical layout of a swizzle mode and major-ness (the
// XOR on the absolute shared address, as TMA writes it), reads them back with wgmma through
// matrix descriptors (K steps advancing the start address, as CUTLASS does), and prints a hash
// of every thread's accumulator bits and whether D equals A*B+C as the host computes it. Cases
// whose descriptor does not describe how the tile was written must differ (a wrong product, but
// the H200's). Run: wgmma [dump-file|- [case]] (the dump: every case's D, as 32-bit words). The wgmma
// wrappers (one per shape and type) are written out below as CUTLASS writes its own.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define SMEM 49152

struct Lay {
    int W;     // swizzle width in bytes: 0 (none), 32, 64, 128
    int mn;    // 0 K-major, 1 MN-major
    int LBO, SBO;
    int off;   // byte offset of the tile in the shared buffer
    int bo;    // descriptor base offset field (read side only)
};

// The byte address of element (r, k) (r along M or N) of a tile at `start` (absolute shared
// address), in the canonical layouts of the PTX ISA; then the swizzle's XOR of address bits.
__host__ __device__ static uint32_t lay(uint32_t start, int r, int k, int e, const Lay &L)
{
    uint32_t pre;
    if (!L.mn) {
        int kb = k * e;
        if (L.W == 0)
            pre = start + (r % 8) * 16 + (r / 8) * L.SBO + kb % 16 + (kb / 16) * L.LBO;
        else
            pre = start + (r % 8) * L.W + (r / 8) * L.SBO + kb % L.W + (kb / L.W) * L.LBO;
    } else {
        int xb = r * e;
        if (L.W == 0)
            pre = start + xb % 16 + (xb / 16) * L.SBO + (k % 8) * 16 + (k / 8) * L.LBO;
        else
            pre = start + xb % L.W + (xb / L.W) * L.LBO + (k % 8) * L.W + (k / 8) * L.SBO;
    }
    uint32_t mask = L.W == 128 ? 7 : L.W == 64 ? 3 : L.W == 32 ? 1 : 0;
    return pre ^ (((pre >> 7) & mask) << 4);
}

__device__ static uint64_t desc(uint32_t start, const Lay &L)
{
    uint64_t lt = L.W == 128 ? 1 : L.W == 64 ? 2 : L.W == 32 ? 3 : 0;
    return (uint64_t)((start & 0x3FFFF) >> 4) | (uint64_t)((L.LBO & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((L.SBO & 0x3FFFF) >> 4) << 32 | (uint64_t)L.bo << 49 | lt << 62;
}

struct Params {
    int N, K, kiters, ea, eb;
    Lay wA, wB, rA, rB; // written, read
    int stepA, stepB;   // bytes the start address advances per K step
    int scale_d;
};

struct Op_f32_f16_n64 {
    static constexpr int NR = 32, RS = 0;
    typedef float T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, %35, %36, %37, %38;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
        (void)a; (void)da;
    }
};
struct Op_f32_bf16_n64 {
    static constexpr int NR = 32, RS = 0;
    typedef float T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, %35, %36, %37, %38;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
        (void)a; (void)da;
    }
};
struct Op_f16_f16_n64 {
    static constexpr int NR = 16, RS = 0;
    typedef uint32_t T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %18, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, %19, %20, %21, %22;\n}\n"
                     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
        (void)a; (void)da;
    }
};
struct Op_f32_tf32_n64 {
    static constexpr int NR = 32, RS = 0;
    typedef float T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, %35, %36;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
        (void)a; (void)da;
    }
};
struct Op_f32_e4m3_e5m2_n64 {
    static constexpr int NR = 32, RS = 0;
    typedef float T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, %35, %36;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
        (void)a; (void)da;
    }
};
struct Op_f16_e4m3_e4m3_n64 {
    static constexpr int NR = 16, RS = 0;
    typedef uint32_t T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %18, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k32.f16.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, %19, %20;\n}\n"
                     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
        (void)a; (void)da;
    }
};
struct Op_s32_s8_u8_n64 {
    static constexpr int NR = 32, RS = 0;
    typedef uint32_t T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p;\n}\n"
                     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
                     : "l"(da), "l"(db), "r"(scale_d));
        (void)a; (void)da;
    }
};
struct Op_f32_f16_n64_rs {
    static constexpr int NR = 32, RS = 1;
    typedef float T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %37, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, %38, %39, %40;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TB));
        (void)a; (void)da;
    }
};
struct Op_f32_bf16_n8 {
    static constexpr int NR = 4, RS = 0;
    typedef float T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, %7, %8, %9, %10;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
        (void)a; (void)da;
    }
};
struct Op_f32_f16_n256 {
    static constexpr int NR = 128, RS = 0;
    typedef float T;
    template <int SA, int SB, int TA, int TB>
    __device__ static void mma(T *d, uint64_t da, uint64_t db, int scale_d, const uint32_t *a)
    {
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %130, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, %131, %132, %133, %134;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                     : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
        (void)a; (void)da;
    }
};

template <class Op, int SA, int SB, int TA, int TB>
__global__ void __launch_bounds__(128) wgmma_kernel(Params p, const uint8_t *A, const uint8_t *B,
                                                    const uint32_t *C, uint32_t *D)
{
    __shared__ alignas(1024) uint8_t sm[SMEM];
    uint32_t base = (uint32_t)__cvta_generic_to_shared(sm);
    int tid = threadIdx.x, kt = p.K * p.kiters;
    for (int i = tid; i < SMEM / 4; i += 128)
        ((uint32_t *)sm)[i] = 0;
    __syncthreads();
    if (!Op::RS)
        for (int i = tid; i < 64 * kt * p.ea; i += 128) {
            int el = i / p.ea, m = el / kt, k = el % kt;
            sm[lay(base + p.wA.off, m, k, p.ea, p.wA) - base + i % p.ea] = A[i];
        }
    for (int i = tid; i < p.N * kt * p.eb; i += 128) {
        int el = i / p.eb, n = el / kt, k = el % kt;
        sm[lay(base + p.wB.off, n, k, p.eb, p.wB) - base + i % p.eb] = B[i];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    typename Op::T d[Op::NR];
    for (int i = 0; i < Op::NR; i++)
        memcpy(&d[i], &C[tid * Op::NR + i], 4);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int it = 0; it < p.kiters; it++) {
        uint32_t a[4] = {0, 0, 0, 0};
        if (Op::RS) { // 16-bit A fragment: value v at m = 16w + l/4 + 8((v/2)%2), k = 2(l%4) + v%2 + 8(v/4)
            int w = tid / 32, l = tid % 32;
            for (int v = 0; v < 8; v++) {
                int m = 16 * w + l / 4 + 8 * ((v / 2) % 2), k = it * p.K + 2 * (l % 4) + v % 2 + 8 * (v / 4);
                uint32_t h = A[(m * kt + k) * 2] | A[(m * kt + k) * 2 + 1] << 8;
                a[v / 2] |= h << (16 * (v % 2));
            }
        }
        uint64_t da = desc(base + p.rA.off + it * p.stepA, p.rA);
        uint64_t db = desc(base + p.rB.off + it * p.stepB, p.rB);
        Op::template mma<SA, SB, TA, TB>(d, da, db, it ? 1 : p.scale_d, a);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < Op::NR; i++)
        memcpy(&D[tid * Op::NR + i], &d[i], 4);
}

// ---- the host: inputs, the reference, the cases ---------------------------------------------

enum { F16, BF16, TF32, E4M3, E5M2, S8, U8, F32, S32 };

static uint32_t rng = 12345;
static uint32_t rnd() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static double f16v(uint32_t h)
{
    int s = h >> 15, e = h >> 10 & 31, m = h & 1023;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return s ? -v : v;
}
static double fp8v(uint32_t x, int e5)
{
    int s = x >> 7, eb = e5 ? 5 : 4, mb = 7 - eb, bias = e5 ? 15 : 7;
    int e = x >> mb & ((1 << eb) - 1), m = x & ((1 << mb) - 1);
    double v = e ? ldexp((1 << mb) + m, e - bias - mb) : ldexp(m, 1 - bias - mb);
    return s ? -v : v;
}
static double f32v(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double val(int t, const uint8_t *p)
{
    switch (t) {
    case F16: return f16v(p[0] | p[1] << 8);
    case BF16: return f32v((uint32_t)(p[0] | p[1] << 8) << 16);
    case TF32: { uint32_t u; memcpy(&u, p, 4); return f32v(u & 0xffffe000u); }
    case E4M3: return fp8v(p[0], 0);
    case E5M2: return fp8v(p[0], 1);
    case S8: return (int8_t)p[0];
    default: return p[0];
    }
}
static int esize(int t) { return t == F16 || t == BF16 ? 2 : t == TF32 ? 4 : 1; }
static void gen(int t, uint8_t *p)
{
    uint32_t r = rnd();
    int ex = (int)(r >> 8 & 7) - 4;
    switch (t) {
    case F16: { uint32_t h = (r >> 31) << 15 | (uint32_t)(15 + ex) << 10 | (r & 1023); p[0] = h; p[1] = h >> 8; break; }
    case BF16: { uint32_t h = (r >> 31) << 15 | (uint32_t)(127 + ex) << 7 | (r & 127); p[0] = h; p[1] = h >> 8; break; }
    case TF32: { uint32_t u = (r >> 31) << 31 | (uint32_t)(127 + ex) << 23 | (rnd() & 0x7fffff); memcpy(p, &u, 4); break; }
    case E4M3: { uint32_t x = r & 0xff; if ((x & 0x7f) == 0x7f) x ^= 1; p[0] = x; break; }
    case E5M2: { uint32_t x = r & 0xff; if ((x & 0x7c) == 0x7c) x &= 0xbb; p[0] = x; break; }
    default: p[0] = r & 0xff;
    }
}

struct Variant {
    const char *name;
    int ta, tb, td, n, k, nr;
    void (*launch)(int imm, const Params &, const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *);
};

#define IMMS(Op) \
    template <int SA, int SB, int TA, int TB> \
    static void go_##Op(const Params &p, const uint8_t *a, const uint8_t *b, const uint32_t *c, uint32_t *d) \
    { wgmma_kernel<Op, SA, SB, TA, TB><<<1, 128>>>(p, a, b, c, d); } \
    static void launch_##Op(int imm, const Params &p, const uint8_t *a, const uint8_t *b, const uint32_t *c, uint32_t *d) \
    { \
        switch (imm) { \
        case 0: go_##Op<1, 1, 0, 0>(p, a, b, c, d); break; \
        case 1: go_##Op<1, 1, 1, 1>(p, a, b, c, d); break; \
        case 2: go_##Op<1, 1, 0, 1>(p, a, b, c, d); break; \
        case 3: go_##Op<-1, 1, 0, 0>(p, a, b, c, d); break; \
        case 4: go_##Op<-1, -1, 0, 0>(p, a, b, c, d); break; \
        } \
    }
#define IMMS_K(Op) \
    static void launch_##Op(int imm, const Params &p, const uint8_t *a, const uint8_t *b, const uint32_t *c, uint32_t *d) \
    { \
        if (imm == 3) wgmma_kernel<Op, -1, 1, 0, 0><<<1, 128>>>(p, a, b, c, d); \
        else wgmma_kernel<Op, 1, 1, 0, 0><<<1, 128>>>(p, a, b, c, d); \
    }
IMMS(Op_f32_f16_n64)
IMMS(Op_f32_bf16_n64)
IMMS_K(Op_f16_f16_n64)
IMMS_K(Op_f32_tf32_n64)
IMMS_K(Op_f32_e4m3_e5m2_n64)
IMMS_K(Op_f16_e4m3_e4m3_n64)
IMMS_K(Op_s32_s8_u8_n64)
IMMS_K(Op_f32_f16_n64_rs)
IMMS_K(Op_f32_bf16_n8)
IMMS_K(Op_f32_f16_n256)

static const Variant variants[] = {
    {"m64n64k16.f32.f16", F16, F16, F32, 64, 16, 32, launch_Op_f32_f16_n64},
    {"m64n64k16.f32.bf16", BF16, BF16, F32, 64, 16, 32, launch_Op_f32_bf16_n64},
    {"m64n64k16.f16.f16", F16, F16, F16, 64, 16, 16, launch_Op_f16_f16_n64},
    {"m64n64k8.f32.tf32", TF32, TF32, F32, 64, 8, 32, launch_Op_f32_tf32_n64},
    {"m64n64k32.f32.e4m3.e5m2", E4M3, E5M2, F32, 64, 32, 32, launch_Op_f32_e4m3_e5m2_n64},
    {"m64n64k32.f16.e4m3", E4M3, E4M3, F16, 64, 32, 16, launch_Op_f16_e4m3_e4m3_n64},
    {"m64n64k32.s32.s8.u8", S8, U8, S32, 64, 32, 32, launch_Op_s32_s8_u8_n64},
    {"m64n64k16.f32.f16 RS", F16, F16, F32, 64, 16, 32, launch_Op_f32_f16_n64_rs},
    {"m64n8k16.f32.bf16", BF16, BF16, F32, 8, 16, 4, launch_Op_f32_bf16_n8},
    {"m64n256k16.f32.f16", F16, F16, F32, 256, 16, 128, launch_Op_f32_f16_n256},
};

struct Case {
    const char *name;
    int v, imm, kiters;
    Lay wA, wB, rA, rB;
    int stepA, stepB, scale_d;
    int expect; // 1 D = A*B+C, 0 D differs, -1 either (a measurement), -2 run alone only
};

#define B0 16384
#define K128(off) {128, 0, 0, 1024, off, 0}
static const Case cases[] = {
    // name, variant, immediates, K steps, A written, B written, A read, B read, steps, scale-d, expect
    {"f16 K 128B", 0, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"f16 K 64B", 0, 0, 2, {64, 0, 0, 512, 0, 0}, {64, 0, 0, 512, B0, 0}, {64, 0, 0, 512, 0, 0}, {64, 0, 0, 512, B0, 0}, 32, 32, 1, 1},
    {"f16 K 32B", 0, 0, 2, {32, 0, 2048, 256, 0, 0}, {32, 0, 2048, 256, B0, 0}, {32, 0, 1, 256, 0, 0}, {32, 0, 1, 256, B0, 0}, 2048, 2048, 1, 1},
    {"f16 K none", 0, 0, 2, {0, 0, 128, 512, 0, 0}, {0, 0, 1024, 128, B0, 0}, {0, 0, 128, 512, 0, 0}, {0, 0, 1024, 128, B0, 0}, 256, 2048, 1, 1},
    {"f16 MN 128B", 0, 1, 2, {128, 1, 0, 1024, 0, 0}, {128, 1, 0, 1024, B0, 0}, {128, 1, 0, 1024, 0, 0}, {128, 1, 0, 1024, B0, 0}, 2048, 2048, 1, 1},
    {"f16 MN 64B", 0, 1, 2, {64, 1, 512, 1024, 0, 0}, {64, 1, 2048, 512, B0, 0}, {64, 1, 512, 1024, 0, 0}, {64, 1, 2048, 512, B0, 0}, 2048, 1024, 1, 1},
    {"f16 MN 32B", 0, 1, 1, {32, 1, 256, 1024, 0, 0}, {32, 1, 256, 1024, B0, 0}, {32, 1, 256, 1024, 0, 0}, {32, 1, 256, 1024, B0, 0}, 0, 0, 1, 1},
    {"f16 MN none", 0, 1, 2, {0, 1, 1024, 128, 0, 0}, {0, 1, 1024, 128, B0, 0}, {0, 1, 1024, 128, 0, 0}, {0, 1, 1024, 128, B0, 0}, 2048, 2048, 1, 1},
    {"f16 A K 128B, B MN 64B", 0, 2, 2, K128(0), {64, 1, 2048, 512, B0, 0}, K128(0), {64, 1, 2048, 512, B0, 0}, 32, 1024, 1, 1},
    {"f16 tile at +128 B, 128B", 0, 0, 4, K128(128), K128(B0 + 384), K128(128), K128(B0 + 384), 32, 32, 1, 1},
    {"f16 scale-d 0", 0, 0, 1, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 0, 1},
    {"f16 scale-a -1", 0, 3, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"f16 scale-a,b -1", 0, 4, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"MISMATCH written 128B read 64B", 0, 0, 4, K128(0), K128(B0), {64, 0, 0, 1024, 0, 0}, K128(B0), 32, 32, 1, 0},
    {"MISMATCH written 64B read 128B", 0, 0, 2, {64, 0, 0, 512, 0, 0}, {64, 0, 0, 512, B0, 0}, {64, 0, 0, 512, 0, 0}, {128, 0, 0, 512, B0, 0}, 32, 32, 1, 0},
    {"MISMATCH written MN read K", 0, 0, 2, {128, 1, 0, 1024, 0, 0}, K128(B0), {128, 0, 0, 1024, 0, 0}, K128(B0), 2048, 32, 1, 0},
    {"MISMATCH written K none read 32B", 0, 0, 1, {0, 0, 128, 256, 0, 0}, K128(B0), {32, 0, 128, 256, 0, 0}, K128(B0), 0, 32, 1, 0},
    {"base offset 1, 128B", 0, 0, 1, K128(0), K128(B0), {128, 0, 0, 1024, 0, 1}, K128(B0), 32, 32, 1, -1},
    {"base offset 3, 64B, tile at +256", 0, 0, 1, {64, 0, 0, 512, 256, 0}, K128(B0), {64, 0, 0, 512, 256, 3}, K128(B0), 32, 32, 1, -1},
    {"K 128B LBO field 5", 0, 0, 2, K128(0), K128(B0), {128, 0, 80, 1024, 0, 0}, K128(B0), 32, 32, 1, -1},
    {"bf16 K 128B", 1, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"bf16 MN 64B", 1, 1, 2, {64, 1, 512, 1024, 0, 0}, {64, 1, 2048, 512, B0, 0}, {64, 1, 512, 1024, 0, 0}, {64, 1, 2048, 512, B0, 0}, 2048, 1024, 1, 1},
    {"f16 acc K 128B", 2, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"tf32 K 128B", 3, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"tf32 K 32B", 3, 0, 1, {32, 0, 0, 256, 0, 0}, {32, 0, 0, 256, B0, 0}, {32, 0, 0, 256, 0, 0}, {32, 0, 0, 256, B0, 0}, 0, 0, 1, 1},
    // e4m3 / e5m2: the H200 keeps 13 fraction bits (QGMMA), farther from A*B+C than this check's
    // tolerance, and the f16 chain overflows to infinity (h200-wgmma.txt): measurements
    {"e4m3 x e5m2 K 128B", 4, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, -1},
    {"e4m3 f16 acc K 64B", 5, 0, 2, {64, 0, 0, 512, 0, 0}, {64, 0, 0, 512, B0, 0}, {64, 0, 0, 512, 0, 0}, {64, 0, 0, 512, B0, 0}, 32, 32, 1, -1},
    {"s8 x u8 K 128B", 6, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"RS f16, B K 128B", 7, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 0, 32, 1, 1},
    {"n8 bf16 K 128B", 8, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    {"n256 f16 K 128B", 9, 0, 4, K128(0), K128(B0), K128(0), K128(B0), 32, 32, 1, 1},
    // run alone only (wgmma - 31): A's descriptor starts 160 KB past the tile, outside the block's
    // shared memory
    {"OUTSIDE A descriptor past the window", 0, 0, 1, K128(0), K128(B0), K128(163840), K128(B0), 32, 32, 1, -2},
};

int main(int argc, char **argv)
{
    FILE *dump = argc > 1 && strcmp(argv[1], "-") ? fopen(argv[1], "wb") : NULL;
    int only = argc > 2 ? atoi(argv[2]) : -1; // run this case alone
    uint8_t *dA, *dB;
    uint32_t *dC, *dD;
    cudaMalloc(&dA, 65536);
    cudaMalloc(&dB, 65536);
    cudaMalloc(&dC, 65536);
    cudaMalloc(&dD, 65536);
    int fails = 0;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const Case &c = cases[ci];
        if ((only >= 0 && (size_t)only != ci) || (only < 0 && c.expect == -2))
            continue;
        const Variant &v = variants[c.v];
        int ea = esize(v.ta), eb = esize(v.tb), kt = v.k * c.kiters;
        static uint8_t A[65536], B[65536];
        static uint32_t C[16384], D[16384];
        for (int i = 0; i < 64 * kt; i++)
            gen(v.ta, A + i * ea);
        for (int i = 0; i < v.n * kt; i++)
            gen(v.tb, B + i * eb);
        for (int i = 0; i < 128 * v.nr; i++) {
            uint32_t r = rnd();
            if (v.td == F32)
                C[i] = (r >> 31) << 31 | (uint32_t)(127 + (int)(r >> 8 & 3) - 2) << 23 | (r & 0x7fffff);
            else if (v.td == F16)
                C[i] = ((r >> 15 & 1) << 15 | (uint32_t)(13 + (r >> 10 & 3)) << 10 | (r & 1023)) |
                       ((r >> 31) << 15 | (uint32_t)(13 + (r >> 26 & 3)) << 10 | (r >> 16 & 1023)) << 16;
            else
                C[i] = (uint32_t)((int)(r % 2001) - 1000);
        }
        Params p = {v.n, v.k, c.kiters, ea, eb, c.wA, c.wB, c.rA, c.rB, c.stepA, c.stepB, c.scale_d};
        cudaMemcpy(dA, A, 65536, cudaMemcpyHostToDevice);
        cudaMemcpy(dB, B, 65536, cudaMemcpyHostToDevice);
        cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice);
        cudaMemset(dD, 0, sizeof D);
        v.launch(c.imm, p, dA, dB, dC, dD);
        cudaError_t err = cudaDeviceSynchronize();
        if (err != cudaSuccess) {
            printf("%-34s CUDA error: %s\n", c.name, cudaGetErrorString(err));
            return 1;
        }
        cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost);
        if (dump)
            fwrite(D, 4, 128 * v.nr, dump);
        // the reference: D = (scale-d ? C : 0) + sa*sb * A*B, per fragment element
        double sa = c.imm == 3 || c.imm == 4 ? -1 : 1, sb = c.imm == 4 ? -1 : 1;
        uint64_t h = 1469598103934665603ull;
        double worst = 0;
        for (int t = 0; t < 128; t++) {
            int w = t / 32, l = t % 32;
            for (int r = 0; r < v.nr; r++) {
                uint32_t x = D[t * v.nr + r];
                for (int b = 0; b < 4; b++)
                    h = (h ^ (x >> (8 * b) & 0xff)) * 1099511628211ull;
                int per = v.td == F16 ? 2 : 1;
                for (int q = 0; q < per; q++) {
                    int vi = r * per + q;
                    int m = 16 * w + l / 4 + 8 * ((vi / 2) % 2), n = 8 * (vi / 4) + 2 * (l % 4) + vi % 2;
                    uint32_t cb = C[t * v.nr + r];
                    double cv = v.td == F32 ? f32v(cb) : v.td == F16 ? f16v(cb >> (16 * q) & 0xffff) : (double)(int32_t)cb;
                    double got = v.td == F32 ? f32v(x) : v.td == F16 ? f16v(x >> (16 * q) & 0xffff) : (double)(int32_t)x;
                    double sum = c.scale_d ? cv : 0, mag = fabs(sum);
                    for (int k = 0; k < kt; k++) {
                        double pr = sa * sb * val(v.ta, A + (m * kt + k) * ea) * val(v.tb, B + (n * kt + k) * eb);
                        sum += pr;
                        mag += fabs(pr);
                    }
                    double e = fabs(got - sum) / (mag + 1e-30);
                    if (!(e <= worst))
                        worst = e;
                }
            }
        }
        double tol = v.td == S32 ? 0 : v.td == F16 ? 2e-3 : 2e-5;
        int same = worst <= tol;
        int ok = c.expect < 0 || same == c.expect;
        fails += !ok;
        printf("%-34s %-24s hash %016llx D %s A*B+C%s\n", c.name, v.name, (unsigned long long)h,
               same ? "=" : "!=", ok ? "" : "  (unexpected)");
    }
    if (dump)
        fclose(dump);
    printf(fails ? "FAIL\n" : "PASS\n");
    return fails != 0;
}
