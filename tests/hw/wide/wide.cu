// wide.cu: 8- and 16-byte shared-memory requests of known per-lane addresses, for Nsight Compute.
// One block of one warp per launch.  Each launch executes exactly one measured shared
// instruction of the op under test (LDS.64 / LDS.128 / STS.64 / STS.128; check with cuobjdump):
//   ld<W>: fill the 32 KB buffer with 4-byte stores (these count as STS, not LDS), sync, then one
//          W-byte load at byte offset c_off[p][lane] by the lanes in c_mask[p]; the value is
//          checked against the host's copy of the buffer.
//   st<W>: one W-byte store at c_off[p][lane] by the lanes in c_mask[p] (each lane stores its own
//          tagged value, or, with same=1, all lanes the same bits), sync, then copy the buffer out
//          with 4-byte loads (these count as LDS, not STS); the host checks that every stored
//          element holds the whole value of one of the lanes that stored to it.
// Usage: wide GROUP   (GROUP = ld4 ld8 ld16 st4 st8 st16 same llmc all); the launch order is printed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#ifndef PATFILE
#define PATFILE "patterns.h"
#endif
#include PATFILE

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

#define NWORDS 8192   // 32 KB of shared memory

__constant__ unsigned short c_off[NPAT][32];
__constant__ unsigned c_mask[NPAT];

__host__ __device__ inline unsigned fillword(unsigned i)
{
    unsigned x = i * 0x9E3779B9u + 0x7F4A7C15u;
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}

__host__ __device__ inline unsigned tagword(unsigned lane, unsigned comp, int same)
{
    return same ? 0x5A5A0000u + comp : 0xA0000000u | (lane << 8) | comp;
}

template <int W> struct vec;
template <> struct vec<4> { typedef unsigned t; };
template <> struct vec<8> { typedef uint2 t; };
template <> struct vec<16> { typedef uint4 t; };

__device__ __forceinline__ unsigned mk(unsigned *, unsigned l, int same) { return tagword(l, 0, same); }
__device__ __forceinline__ uint2 mk(uint2 *, unsigned l, int same)
{
    return make_uint2(tagword(l, 0, same), tagword(l, 1, same));
}
__device__ __forceinline__ uint4 mk(uint4 *, unsigned l, int same)
{
    return make_uint4(tagword(l, 0, same), tagword(l, 1, same), tagword(l, 2, same), tagword(l, 3, same));
}

template <int W>
__global__ void __launch_bounds__(32) ld_wide(int p, unsigned *out)
{
    typedef typename vec<W>::t T;
    __shared__ __align__(16) unsigned smem[NWORDS];
    const unsigned lane = threadIdx.x;
    for (unsigned i = lane; i < NWORDS; i += 32)
        smem[i] = fillword(i);
    __syncthreads();
    if (c_mask[p] >> lane & 1u) {
        T v = *reinterpret_cast<const T *>(reinterpret_cast<const char *>(smem) + c_off[p][lane]);
        *reinterpret_cast<T *>(out + lane * 4) = v;
    }
}

template <int W>
__global__ void __launch_bounds__(32) st_wide(int p, int same, unsigned *out)
{
    typedef typename vec<W>::t T;
    __shared__ __align__(16) unsigned smem[NWORDS];
    const unsigned lane = threadIdx.x;
    if (c_mask[p] >> lane & 1u) {
        T *dst = reinterpret_cast<T *>(reinterpret_cast<char *>(smem) + c_off[p][lane]);
        *dst = mk((T *)0, lane, same);
    }
    __syncthreads();
    for (unsigned i = lane; i < NWORDS; i += 32)
        out[i] = smem[i];
}

// ---- llm.c dev/cuda/matmul_forward.cu: matmul_forward_kernel4 with its ld_vec/st_vec helpers.
// Third-party code is not committed: fetch karpathy/llm.c and copy those three definitions into
// llmc_kernel4.cuh beside this file, then build with -DWITH_LLMC (run.sh does it when present).
#ifdef WITH_LLMC
#include "llmc_kernel4.cuh"
#endif

static std::vector<unsigned> host_fill()
{
    std::vector<unsigned> h(NWORDS);
    for (unsigned i = 0; i < NWORDS; i++)
        h[i] = fillword(i);
    return h;
}

static int run_ld(int p, unsigned *d_out)
{
    static std::vector<unsigned> hf = host_fill();
    int W = pat_width[p];
    std::vector<unsigned> h(32 * 4);
    CK(cudaMemset(d_out, 0xEE, 32 * 16));
    if (W == 4)
        ld_wide<4><<<1, 32>>>(p, d_out);
    else if (W == 8)
        ld_wide<8><<<1, 32>>>(p, d_out);
    else
        ld_wide<16><<<1, 32>>>(p, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_out, 32 * 16, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int l = 0; l < 32; l++) {
        if (!(pat_mask[p] >> l & 1))
            continue;
        for (int c = 0; c < W / 4; c++)
            if (h[l * 4 + c] != hf[pat_off[p][l] / 4 + c])
                bad++;
    }
    printf("LAUNCH ld%d %s %s\n", W, pat_name[p], bad ? "FAIL" : "PASS");
    return bad != 0;
}

static int run_st(int p, int same, unsigned *d_out)
{
    int W = pat_width[p];
    std::vector<unsigned> h(NWORDS);
    CK(cudaMemset(d_out, 0xEE, NWORDS * 4));
    if (W == 4)
        st_wide<4><<<1, 32>>>(p, same, d_out);
    else if (W == 8)
        st_wide<8><<<1, 32>>>(p, same, d_out);
    else
        st_wide<16><<<1, 32>>>(p, same, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_out, NWORDS * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    char winners[512] = "";
    size_t wl = 0;
    for (int l = 0; l < 32; l++) {
        if (!(pat_mask[p] >> l & 1))
            continue;
        unsigned a = pat_off[p][l];
        int first = 1;   // report each element once
        for (int m = 0; m < l; m++)
            if ((pat_mask[p] >> m & 1) && pat_off[p][m] == a)
                first = 0;
        if (!first)
            continue;
        int won = -1;
        for (int m = 0; m < 32 && won < 0; m++) {
            if (!(pat_mask[p] >> m & 1) || pat_off[p][m] != a)
                continue;
            int ok = 1;
            for (int c = 0; c < W / 4; c++)
                if (h[a / 4 + c] != tagword(m, c, same))
                    ok = 0;
            if (ok)
                won = m;
        }
        if (won < 0)
            bad++;
        int nwr = 0;
        for (int m = 0; m < 32; m++)
            if ((pat_mask[p] >> m & 1) && pat_off[p][m] == a)
                nwr++;
        if (nwr > 1 && !same && wl < sizeof winners - 16)
            wl += snprintf(winners + wl, sizeof winners - wl, " %u:%d", a, won);
    }
    printf("LAUNCH st%d%s %s %s%s%s\n", W, same ? "same" : "", pat_name[p], bad ? "FAIL" : "PASS",
           wl ? " winners(byte:lane)" : "", winners);
    return bad != 0;
}

#ifdef WITH_LLMC
static int run_llmc()
{
    const int BT = 128, C = 32, OC = 128;
    std::vector<float> inp(BT * C), w(OC * C), b(OC), out(BT * OC);
    for (int i = 0; i < BT * C; i++) inp[i] = (float)((fillword(i) % 2001) - 1000) / 1000.f;
    for (int i = 0; i < OC * C; i++) w[i] = (float)((fillword(i + 99991) % 2001) - 1000) / 1000.f;
    for (int i = 0; i < OC; i++) b[i] = (float)((fillword(i + 7) % 2001) - 1000) / 1000.f;
    float *di, *dw, *db, *dout;
    CK(cudaMalloc(&di, inp.size() * 4)); CK(cudaMalloc(&dw, w.size() * 4));
    CK(cudaMalloc(&db, b.size() * 4)); CK(cudaMalloc(&dout, out.size() * 4));
    CK(cudaMemcpy(di, inp.data(), inp.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dw, w.data(), w.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xFF, out.size() * 4));
    matmul_forward_kernel4<<<dim3(1, 1), dim3(16, 16)>>>(dout, di, dw, db, C, OC);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    double err = 0, ref2 = 0;
    for (int r = 0; r < BT; r++)
        for (int o = 0; o < OC; o++) {
            double s = b[o];
            for (int c = 0; c < C; c++) s += (double)inp[r * C + c] * w[o * C + c];
            err += (out[r * OC + o] - s) * (out[r * OC + o] - s);
            ref2 += s * s;
        }
    double rel = err / ref2;
    printf("LAUNCH llmc matmul_forward_kernel4 %s rel_err2=%.3g\n", rel < 1e-10 && rel == rel ? "PASS" : "FAIL", rel);
    return !(rel < 1e-10);
}
#else
static int run_llmc() { printf("LAUNCH llmc skipped (no llmc_kernel4.cuh)\n"); return 0; }
#endif

int main(int argc, char **argv)
{
    const char *g = argc > 1 ? argv[1] : "all";
    CK(cudaMemcpyToSymbol(c_off, pat_off, sizeof pat_off));
    CK(cudaMemcpyToSymbol(c_mask, pat_mask, sizeof pat_mask));
    unsigned *d_out;
    CK(cudaMalloc(&d_out, NWORDS * 4));
    int fails = 0, all = !strcmp(g, "all");
    for (int W = 4; W <= 16; W *= 2) {
        char name[8];
        snprintf(name, sizeof name, "ld%d", W);
        if (all || !strcmp(g, name))
            for (int p = 0; p < NPAT; p++)
                if (pat_width[p] == W) fails += run_ld(p, d_out);
    }
    for (int W = 4; W <= 16; W *= 2) {
        char name[8];
        snprintf(name, sizeof name, "st%d", W);
        if (all || !strcmp(g, name))
            for (int p = 0; p < NPAT; p++)
                if (pat_width[p] == W) fails += run_st(p, 0, d_out);
    }
    if (all || !strcmp(g, "same"))
        for (int s = 0; s < NSAME; s++)
            for (int p = 0; p < NPAT; p++)
                if (!strcmp(pat_name[p], same_names[s])) fails += run_st(p, 1, d_out);
    if (all || !strcmp(g, "llmc"))
        fails += run_llmc();
    printf("DONE %s fails=%d\n", g, fails);
    return fails ? 1 : 0;
}
