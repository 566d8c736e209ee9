// ldsm.cu: ldmatrix / stmatrix / cp.async shared-memory requests of known per-lane addresses, for
// Nsight Compute. One block of one warp per launch; each launch executes exactly one measured
// LDSM, STSM or LDGSTS (check with cuobjdump: run.sh does).
//   ldsm.xN[.trans]: fill the 48 KB buffer with 4-byte stores (STS), sync, one
//       ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 with lane l's row address at off[l]
//       (lanes 8N..31 too: the ISA says they are ignored, the patterns test it); every fragment
//       register of every lane is checked against the ISA's layout computed on the host.
//   stsm.xN[.trans]: fill, sync, one stmatrix with lane l's registers tagged (lane, register),
//       sync, copy the buffer out with 4-byte loads (LDS); the host checks every 2-byte element
//       against the ISA's layout (an element written by several lanes must hold one of them).
//   cpasync.{ca,cg}.S[.zfill]: fill, sync, lane l (mask) copies S bytes from global goff[l] to
//       shared off[l] (.zfill: src-size 0, the S bytes become zeros), commit, wait_all, sync, copy
//       out; checked byte for byte. cpasync.{ca,cg}.S.src4: src-size 4 (4 bytes read, the rest zeros);
//       cpasync.cg.16.zfill: .cg with src-size 0; cpasync.{ca,cg}.S.zmix: src-size 0 on the lanes whose
//       global offset has bit 0 set (the offset is the rest), S on the others. A destination written by several lanes prints which
//       lanes' bytes landed there (WIN lines).
// Usage: ldsm PATTERNS GROUP   (GROUP: a kind such as "ldsm.x4", a prefix with a star "cpasync*", or "all"; "probe" runs
// one launch of each kind). Prints "LAUNCH kind name PASS|FAIL" per launch, in order.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

#define NBYTES (48 * 1024)
#define NWORDS (NBYTES / 4)

struct Pat {
    unsigned short off[32];  // shared byte offsets
    unsigned short goff[32]; // global byte offsets (cp.async)
    unsigned mask;           // cp.async: lanes that copy
};

__host__ __device__ inline unsigned fillword(unsigned i)
{
    unsigned x = i * 0x9E3779B9u + 0x7F4A7C15u;
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}
__host__ __device__ inline unsigned tag(unsigned lane, unsigned reg)
{
    return ((0x80u | lane << 2 | reg) << 16) | (0x40u | lane << 2 | reg); // two distinct halves
}

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void fill(unsigned *smem)
{
    for (unsigned i = threadIdx.x; i < NWORDS; i += 32)
        smem[i] = fillword(i);
    __syncthreads();
}

template <int X, int T>
__global__ void __launch_bounds__(32) ldsm_k(Pat p, unsigned *out)
{
    __shared__ __align__(1024) unsigned smem[NWORDS];
    fill(smem);
    unsigned a = smem_addr(smem) + p.off[threadIdx.x];
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (X == 1 && !T)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    if (X == 1 && T)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    if (X == 2 && !T)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    if (X == 2 && T)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    if (X == 4 && !T)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    if (X == 4 && T)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[threadIdx.x * 4 + 0] = r0;
    out[threadIdx.x * 4 + 1] = r1;
    out[threadIdx.x * 4 + 2] = r2;
    out[threadIdx.x * 4 + 3] = r3;
}

template <int X, int T>
__global__ void __launch_bounds__(32) stsm_k(Pat p, unsigned *out)
{
    __shared__ __align__(1024) unsigned smem[NWORDS];
    fill(smem);
    unsigned a = smem_addr(smem) + p.off[threadIdx.x];
    unsigned l = threadIdx.x, r0 = tag(l, 0), r1 = tag(l, 1), r2 = tag(l, 2), r3 = tag(l, 3);
    if (X == 1 && !T)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(r0) : "memory");
    if (X == 1 && T)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(a), "r"(r0) : "memory");
    if (X == 2 && !T)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(r0), "r"(r1) : "memory");
    if (X == 2 && T)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(r0), "r"(r1) : "memory");
    if (X == 4 && !T)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    if (X == 4 && T)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    __syncthreads();
    for (unsigned i = threadIdx.x; i < NWORDS; i += 32)
        out[i] = smem[i];
}

// ZF: 0 the whole copy; 1 src-size 0 (zero-fill); 2 src-size 4 (the first 4 bytes read, the rest
// zeros); 3 per lane: src-size 0 where bit 0 of the lane's global offset is set, else S (a register)
template <int S, int CG, int ZF>
__global__ void __launch_bounds__(32) cpasync_k(Pat p, const unsigned char *g, unsigned *out)
{
    __shared__ __align__(1024) unsigned smem[NWORDS];
    fill(smem);
    if (p.mask >> threadIdx.x & 1u) {
        unsigned a = smem_addr(smem) + p.off[threadIdx.x];
        const unsigned char *src = g + (p.goff[threadIdx.x] & ~1u);
        unsigned zsz = (p.goff[threadIdx.x] & 1u) ? 0u : (unsigned)S; // ZF 3: per-lane src-size
        if (ZF == 3 && CG)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(a), "l"(src), "r"(zsz) : "memory");
        else if (ZF == 3)
            asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" :: "r"(a), "l"(src), "n"(S), "r"(zsz) : "memory");
        else if (ZF && CG)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(a), "l"(src), "n"(ZF == 1 ? 0 : 4) : "memory");
        else if (ZF)
            asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" :: "r"(a), "l"(src), "n"(S), "n"(ZF == 1 ? 0 : 4) : "memory");
        else if (CG)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a), "l"(src) : "memory");
        else
            asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(a), "l"(src), "n"(S) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    for (unsigned i = threadIdx.x; i < NWORDS; i += 32)
        out[i] = smem[i];
}

// ---------------------------------------------------------------------------------------------
static unsigned short half_at(const std::vector<unsigned> &w, unsigned byte)
{
    return (unsigned short)(w[byte / 4] >> (8 * (byte & 2)));
}

struct Entry {
    std::string kind, name;
    Pat p;
};

static std::vector<unsigned> host_fill()
{
    std::vector<unsigned> h(NWORDS);
    for (unsigned i = 0; i < NWORDS; i++)
        h[i] = fillword(i);
    return h;
}

static int dumped_ld = 0, dumped_st = 0;

static int run_ldsm(const Entry &e, int X, int T, unsigned *d_out, FILE *dump)
{
    static std::vector<unsigned> hf = host_fill();
    std::vector<unsigned> h(128);
    CK(cudaMemset(d_out, 0xEE, 512));
#define L(x, t) if (X == x && T == t) ldsm_k<x, t><<<1, 32>>>(e.p, d_out);
    L(1, 0) L(1, 1) L(2, 0) L(2, 1) L(4, 0) L(4, 1)
#undef L
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_out, 512, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int m = 0; m < X; m++)
        for (int t = 0; t < 32; t++) {
            unsigned lo, hi;
            if (!T) { // row t/4, columns 2(t%4), +1
                unsigned row = e.p.off[8 * m + t / 4];
                lo = half_at(hf, row + 4 * (t % 4));
                hi = half_at(hf, row + 4 * (t % 4) + 2);
            } else { // column t/4 of rows 2(t%4), +1
                lo = half_at(hf, e.p.off[8 * m + 2 * (t % 4)] + 2 * (t / 4));
                hi = half_at(hf, e.p.off[8 * m + 2 * (t % 4) + 1] + 2 * (t / 4));
            }
            if (h[t * 4 + m] != (lo | hi << 16))
                bad++;
        }
    if (dump && (bad || dumped_ld < 2)) { // raw registers, to settle the layout if the check fails
        dumped_ld++;
        fprintf(dump, "ldsm %s %s bad=%d regs:", e.kind.c_str(), e.name.c_str(), bad);
        for (int i = 0; i < 128; i++) fprintf(dump, " %08x", h[i]);
        fprintf(dump, "\n");
    }
    printf("LAUNCH %s %s %s\n", e.kind.c_str(), e.name.c_str(), bad ? "FAIL" : "PASS");
    return bad != 0;
}

static int run_stsm(const Entry &e, int X, int T, unsigned *d_out, FILE *dump)
{
    static std::vector<unsigned> hf = host_fill();
    std::vector<unsigned> h(NWORDS);
    CK(cudaMemset(d_out, 0xEE, NBYTES));
#define L(x, t) if (X == x && T == t) stsm_k<x, t><<<1, 32>>>(e.p, d_out);
    L(1, 0) L(1, 1) L(2, 0) L(2, 1) L(4, 0) L(4, 1)
#undef L
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_out, NBYTES, cudaMemcpyDeviceToHost));
    // candidates per 2-byte element: which (lane, reg, half) the ISA puts there
    std::vector<std::vector<unsigned short>> cand(NBYTES / 2);
    for (int m = 0; m < X; m++)
        for (int t = 0; t < 32; t++)
            for (int hh = 0; hh < 2; hh++) {
                unsigned v = tag(t, m), half = hh ? v >> 16 : v & 0xffff, byte;
                if (!T)
                    byte = e.p.off[8 * m + t / 4] + 4 * (t % 4) + 2 * hh;
                else
                    byte = e.p.off[8 * m + 2 * (t % 4) + hh] + 2 * (t / 4);
                cand[byte / 2].push_back((unsigned short)half);
            }
    int bad = 0;
    for (unsigned b = 0; b < NBYTES; b += 2) {
        unsigned short got = half_at(h, b);
        if (cand[b / 2].empty()) {
            if (got != half_at(hf, b)) bad++;
        } else {
            int ok = 0;
            for (unsigned short c : cand[b / 2]) ok |= c == got;
            if (!ok) bad++;
        }
    }
    if (dump && (bad || dumped_st < 2)) {
        dumped_st++;
        fprintf(dump, "stsm %s %s bad=%d written:", e.kind.c_str(), e.name.c_str(), bad);
        for (unsigned b = 0; b < NBYTES; b += 2)
            if (half_at(h, b) != half_at(hf, b)) fprintf(dump, " %u=%04x", b, half_at(h, b));
        fprintf(dump, "\n");
    }
    printf("LAUNCH %s %s %s\n", e.kind.c_str(), e.name.c_str(), bad ? "FAIL" : "PASS");
    return bad != 0;
}

static int run_cpasync(const Entry &e, int S, int CG, int ZF, const unsigned char *d_g,
                       const std::vector<unsigned char> &hg, unsigned *d_out)
{
    static std::vector<unsigned> hf = host_fill();
    std::vector<unsigned> h(NWORDS);
    CK(cudaMemset(d_out, 0xEE, NBYTES));
    if (ZF == 3) {
        if (CG) cpasync_k<16, 1, 3><<<1, 32>>>(e.p, d_g, d_out);
        else if (S == 4) cpasync_k<4, 0, 3><<<1, 32>>>(e.p, d_g, d_out);
        else if (S == 8) cpasync_k<8, 0, 3><<<1, 32>>>(e.p, d_g, d_out);
        else cpasync_k<16, 0, 3><<<1, 32>>>(e.p, d_g, d_out);
    } else if (ZF == 2) {
        if (CG) cpasync_k<16, 1, 2><<<1, 32>>>(e.p, d_g, d_out);
        else if (S == 8) cpasync_k<8, 0, 2><<<1, 32>>>(e.p, d_g, d_out);
        else if (S == 16) cpasync_k<16, 0, 2><<<1, 32>>>(e.p, d_g, d_out);
    } else if (ZF && CG) {
        cpasync_k<16, 1, 1><<<1, 32>>>(e.p, d_g, d_out);
    } else if (ZF) {
        if (S == 4) cpasync_k<4, 0, 1><<<1, 32>>>(e.p, d_g, d_out);
        if (S == 8) cpasync_k<8, 0, 1><<<1, 32>>>(e.p, d_g, d_out);
        if (S == 16) cpasync_k<16, 0, 1><<<1, 32>>>(e.p, d_g, d_out);
    } else if (CG) {
        cpasync_k<16, 1, 0><<<1, 32>>>(e.p, d_g, d_out);
    } else {
        if (S == 4) cpasync_k<4, 0, 0><<<1, 32>>>(e.p, d_g, d_out);
        if (S == 8) cpasync_k<8, 0, 0><<<1, 32>>>(e.p, d_g, d_out);
        if (S == 16) cpasync_k<16, 0, 0><<<1, 32>>>(e.p, d_g, d_out);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_out, NBYTES, cudaMemcpyDeviceToHost));
    std::vector<int> want(NBYTES, -1); // -1: fill; else candidate byte (last writer wins is not defined: any)
    std::vector<std::vector<int>> cand(NBYTES);
    for (int l = 0; l < 32; l++)
        if (e.p.mask >> l & 1)
            for (int k = 0; k < S; k++)
                cand[e.p.off[l] + k].push_back(ZF == 1 || (ZF == 2 && k >= 4) || (ZF == 3 && (e.p.goff[l] & 1)) ? 0
                                               : hg[(e.p.goff[l] & ~1) + k]);
    const unsigned char *hb = (const unsigned char *)h.data(), *fb = (const unsigned char *)hf.data();
    int bad = 0;
    for (int b = 0; b < NBYTES; b++) {
        if (cand[b].empty()) {
            if (hb[b] != fb[b]) bad++;
        } else {
            int ok = 0;
            for (int c : cand[b]) ok |= c == hb[b];
            if (!ok) bad++;
        }
    }
    // a destination written by several lanes: which lanes' bytes it holds ("WIN kind name dst lanes"),
    // to tell which copy the hardware keeps (lanes whose S bytes all equal what landed)
    for (int l = 0; l < 32 && !ZF; l++) {
        if (!(e.p.mask >> l & 1))
            continue;
        int first = 1, dup = 0;
        for (int m = 0; m < 32; m++)
            if (m != l && (e.p.mask >> m & 1) && e.p.off[m] == e.p.off[l]) {
                dup = 1;
                first &= m > l;
            }
        if (!dup || !first)
            continue;
        printf("WIN %s %s %u", e.kind.c_str(), e.name.c_str(), (unsigned)e.p.off[l]);
        for (int m = 0; m < 32; m++)
            if ((e.p.mask >> m & 1) && e.p.off[m] == e.p.off[l] && !memcmp(hb + e.p.off[l], &hg[e.p.goff[m]], S))
                printf(" %d", m);
        printf("\n");
    }
    printf("LAUNCH %s %s %s\n", e.kind.c_str(), e.name.c_str(), bad ? "FAIL" : "PASS");
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: ldsm PATTERNS GROUP [DUMPFILE]\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    std::string g = argv[2];
    FILE *dump = argc > 3 ? fopen(argv[3], "a") : NULL;
    std::vector<Entry> es;
    char kind[64], name[128];
    while (fscanf(f, "%63s %127s", kind, name) == 2) {
        Entry e;
        e.kind = kind; e.name = name;
        unsigned v;
        for (int l = 0; l < 32; l++) { if (fscanf(f, "%u", &v) != 1) return 3; e.p.off[l] = (unsigned short)v; }
        for (int l = 0; l < 32; l++) { if (fscanf(f, "%u", &v) != 1) return 3; e.p.goff[l] = (unsigned short)v; }
        if (fscanf(f, "%x", &v) != 1) return 3;
        e.p.mask = v;
        es.push_back(e);
    }
    fclose(f);
    unsigned *d_out;
    unsigned char *d_g;
    CK(cudaMalloc(&d_out, NBYTES));
    CK(cudaMalloc(&d_g, 65536));
    std::vector<unsigned char> hg(65536);
    for (int i = 0; i < 65536; i++) hg[i] = (unsigned char)(fillword(i + 12345) >> 7);
    CK(cudaMemcpy(d_g, hg.data(), 65536, cudaMemcpyHostToDevice));
    int fails = 0, n = 0;
    std::vector<std::string> seen;
    for (const Entry &e : es) {
        if (g == "probe") {
            int dup = 0;
            for (auto &s : seen) dup |= s == e.kind;
            if (dup) continue;
            seen.push_back(e.kind);
        } else if (g != "all") {
            if (g.back() == '*' ? e.kind.compare(0, g.size() - 1, g, 0, g.size() - 1) != 0 : e.kind != g)
                continue;
        }
        const char *k = e.kind.c_str();
        n++;
        if (!strncmp(k, "ldsm.x", 6) || !strncmp(k, "stsm.x", 6)) {
            int X = k[6] - '0', T = strstr(k, ".trans") != NULL;
            fails += k[0] == 'l' ? run_ldsm(e, X, T, d_out, dump) : run_stsm(e, X, T, d_out, dump);
        } else if (!strncmp(k, "cpasync.", 8)) {
            int CG = !strncmp(k + 8, "cg", 2), S = atoi(k + 11);
            int ZF = strstr(k, "zfill") ? 1 : strstr(k, "src4") ? 2 : strstr(k, "zmix") ? 3 : 0;
            fails += run_cpasync(e, S, CG, ZF, d_g, hg, d_out);
        } else {
            printf("LAUNCH %s %s UNKNOWN-KIND\n", k, e.name.c_str());
            fails++;
        }
    }
    if (dump) fclose(dump);
    printf("DONE %s launches=%d fails=%d\n", g.c_str(), n, fails);
    return fails ? 1 : 0;
}
