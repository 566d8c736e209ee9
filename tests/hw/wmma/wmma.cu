// wmma.cu: what the H100 does with wmma fragments in shared memory (issue 15).
//  ./wmma layout OUT.csv : every fragment kind sm_90 accepts (f16, bf16, tf32, s8, u8, f64; every
//      shape; row/col), loaded from shared memory whose element i holds i (two passes, low and
//      high byte), each lane's x[e] written out as (row, col) of the matrix: the fragment layouts.
//      Also checks wmma.mma on small integers (exact in every type) against a CPU product.
//  ./wmma count [KIND-PREFIX] : one launch per (kind, leading dimension, base offset): a warp does
//      exactly one load_matrix_sync (or store_matrix_sync) from shared memory and nothing else in
//      shared memory, for Nsight Compute to count (its SASS: cuobjdump -sass).
#include <cuda_bf16.h>
#include <mma.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace nvcuda;

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));          \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

// small integers 0..255 in each storage type, and back
template <class S> __device__ S enc(int v);
template <> __device__ half enc<half>(int v) { return __int2half_rn(v); }
template <> __device__ __nv_bfloat16 enc<__nv_bfloat16>(int v) { return __int2bfloat16_rn(v); }
template <> __device__ float enc<float>(int v) { return (float)v; }
template <> __device__ double enc<double>(int v) { return (double)v; }
template <> __device__ signed char enc<signed char>(int v) { return (signed char)v; }
template <> __device__ unsigned char enc<unsigned char>(int v) { return (unsigned char)v; }
template <> __device__ int enc<int>(int v) { return v; }
__device__ int dec(half x) { return __half2int_rn(x); }
__device__ int dec(__nv_bfloat16 x) { return __bfloat162int_rn(x); }
__device__ int dec(float x) { return (int)x; }
__device__ int dec(double x) { return (int)x; }
__device__ int dec(signed char x) { return (unsigned char)x; }
__device__ int dec(unsigned char x) { return x; }
__device__ int dec(int x) { return x; }

struct acc_tag {};
template <class Use> struct is_acc { static const bool v = false; };
template <> struct is_acc<wmma::accumulator> { static const bool v = true; };

// the matrix a fragment holds: A is MxK, B is KxN, C/D MxN
template <class Use, int M, int N, int K> struct dims;
template <int M, int N, int K> struct dims<wmma::matrix_a, M, N, K> { enum { R = M, C = K }; };
template <int M, int N, int K> struct dims<wmma::matrix_b, M, N, K> { enum { R = K, C = N }; };
template <int M, int N, int K> struct dims<wmma::accumulator, M, N, K> { enum { R = M, C = N }; };

template <class Use, int M, int N, int K, class T, class L> struct frag_t {
    typedef wmma::fragment<Use, M, N, K, T, L> type;
};
template <int M, int N, int K, class T> struct frag_t<wmma::accumulator, M, N, K, T, void> {
    typedef wmma::fragment<wmma::accumulator, M, N, K, T> type;
};

template <class F, class S> __device__ void load(F &f, const S *p, unsigned ldm, int col, wmma::accumulator *)
{
    wmma::load_matrix_sync(f, p, ldm, col ? wmma::mem_col_major : wmma::mem_row_major);
}
template <class F, class S, class U> __device__ void load(F &f, const S *p, unsigned ldm, int, U *)
{
    wmma::load_matrix_sync(f, p, ldm);
}

// layout: memory element i = i (pass 0: low byte, pass 1: high byte); out[lane][e] = x[e]
template <class Use, int M, int N, int K, class T, class L, class S>
__global__ void lay_k(int *out, unsigned ldm, int col, int pass, int nmem)
{
    extern __shared__ __align__(1024) unsigned char raw[];
    S *s = (S *)raw;
    for (int i = threadIdx.x; i < nmem; i += 32)
        s[i] = enc<S>(pass ? (i >> 8) & 255 : i & 255);
    __syncwarp();
    typename frag_t<Use, M, N, K, T, L>::type f;
    load(f, s, ldm, col, (Use *)0);
    for (int e = 0; e < f.num_elements; e++)
        out[threadIdx.x * f.num_elements + e] = dec(f.x[e]);
}

// counting: one load, nothing else in shared memory
template <class Use, int M, int N, int K, class T, class L, class S>
__global__ void ld_k(float *out, unsigned ldm, int col, unsigned off)
{
    extern __shared__ __align__(1024) unsigned char raw[];
    typename frag_t<Use, M, N, K, T, L>::type f;
    load(f, (const S *)(raw + off), ldm, col, (Use *)0);
    float acc = 0;
    for (int e = 0; e < f.num_elements; e++)
        acc += (float)f.x[e];
    out[threadIdx.x] = acc;
}

// counting: one store of an accumulator
template <int M, int N, int K, class T>
__global__ void st_k(const float *in, unsigned ldm, int col, unsigned off)
{
    extern __shared__ __align__(1024) unsigned char raw[];
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    for (int e = 0; e < f.num_elements; e++)
        f.x[e] = (T)in[threadIdx.x * f.num_elements + e];
    wmma::store_matrix_sync((T *)(raw + off), f, ldm, col ? wmma::mem_col_major : wmma::mem_row_major);
}

// mma on integers: D = A*B + C for values where every type is exact; written row-major to out
template <int M, int N, int K, class T, class S, class A>
__global__ void mma_k(const S *a, const S *b, const A *c, A *d)
{
    typename frag_t<wmma::matrix_a, M, N, K, T, wmma::row_major>::type fa;
    typename frag_t<wmma::matrix_b, M, N, K, T, wmma::col_major>::type fb;
    wmma::fragment<wmma::accumulator, M, N, K, A> fc;
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, K);
    wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

struct kind {
    const char *name; // type.use.shape.layout
    int use;          // 0 a, 1 b, 2 c
    int R, C, esz, col, acc;
    void (*lay)(int *, unsigned, int, int, int);
    void (*ld)(float *, unsigned, int, unsigned);
    void (*st)(const float *, unsigned, int, unsigned);
    int nelem;
};

#define U_a wmma::matrix_a
#define U_b wmma::matrix_b
#define U_c wmma::accumulator
#define NE(U, M, N, K, T, L) (int)(sizeof(typename frag_t<U, M, N, K, T, L>::type::element_type) ? \
                                   frag_t<U, M, N, K, T, L>::type::num_elements : 0)
#define KAB(tn, T, S, M, N, K, u, U, ln, L, isb)                                                 \
    {tn "." u ".m" #M "n" #N "k" #K "." ln, isb, dims<U, M, N, K>::R, dims<U, M, N, K>::C,     \
     (int)sizeof(S), ln[0] == 'c', 0, lay_k<U, M, N, K, T, L, S>, ld_k<U, M, N, K, T, L, S>, 0, \
     frag_t<U, M, N, K, T, L>::type::num_elements}
#define KC(tn, T, M, N, K, ln, c)                                                               \
    {tn ".c.m" #M "n" #N "k" #K "." ln, 2, M, N, (int)sizeof(T), c, 1,                          \
     lay_k<U_c, M, N, K, T, void, T>, ld_k<U_c, M, N, K, T, void, T>, st_k<M, N, K, T>,        \
     frag_t<U_c, M, N, K, T, void>::type::num_elements}
#define KAB4(tn, T, S, M, N, K)                                                                  \
    KAB(tn, T, S, M, N, K, "a", U_a, "row", wmma::row_major, 0),                                 \
    KAB(tn, T, S, M, N, K, "a", U_a, "col", wmma::col_major, 0),                                 \
    KAB(tn, T, S, M, N, K, "b", U_b, "row", wmma::row_major, 1),                                 \
    KAB(tn, T, S, M, N, K, "b", U_b, "col", wmma::col_major, 1)
#define KC2(tn, T, M, N, K) KC(tn, T, M, N, K, "row", 0), KC(tn, T, M, N, K, "col", 1)

typedef wmma::precision::tf32 tf32;
static const kind kinds[] = {
    KAB4("f16", half, half, 16, 16, 16), KAB4("f16", half, half, 32, 8, 16), KAB4("f16", half, half, 8, 32, 16),
    KC2("f16", half, 16, 16, 16), KC2("f16", half, 32, 8, 16), KC2("f16", half, 8, 32, 16),
    KC2("f32", float, 16, 16, 16), KC2("f32", float, 32, 8, 16), KC2("f32", float, 8, 32, 16),
    KAB4("bf16", __nv_bfloat16, __nv_bfloat16, 16, 16, 16), KAB4("bf16", __nv_bfloat16, __nv_bfloat16, 32, 8, 16),
    KAB4("bf16", __nv_bfloat16, __nv_bfloat16, 8, 32, 16),
    KAB4("tf32", tf32, float, 16, 16, 8), KC2("f32", float, 16, 16, 8),
    KAB4("s8", signed char, signed char, 16, 16, 16), KAB4("s8", signed char, signed char, 32, 8, 16),
    KAB4("s8", signed char, signed char, 8, 32, 16),
    KAB4("u8", unsigned char, unsigned char, 16, 16, 16), KAB4("u8", unsigned char, unsigned char, 32, 8, 16),
    KAB4("u8", unsigned char, unsigned char, 8, 32, 16),
    KC2("s32", int, 16, 16, 16), KC2("s32", int, 32, 8, 16), KC2("s32", int, 8, 32, 16),
    KAB4("f64", double, double, 8, 8, 4), KC2("f64", double, 8, 8, 4),
};
static const int nkinds = sizeof kinds / sizeof kinds[0];

static int do_layout(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "kind,ldm,lane,elem,row,col\n");
    int *d;
    CK(cudaMalloc(&d, 32 * 64 * sizeof(int)));
    int bad = 0;
    for (int k = 0; k < nkinds; k++) {
        const kind &q = kinds[k];
        int major = q.col ? q.C : q.R, minor = q.col ? q.R : q.C;
        int ldm = minor + 16 / q.esz * 2; // padded: the pad is never read
        int nmem = major * ldm;
        std::vector<int> lo(32 * q.nelem), hi(32 * q.nelem);
        for (int pass = 0; pass < 2; pass++) {
            q.lay<<<1, 32, nmem * q.esz>>>(d, ldm, q.col, pass, nmem);
            CK(cudaGetLastError());
            CK(cudaMemcpy(pass ? hi.data() : lo.data(), d, 32 * q.nelem * sizeof(int), cudaMemcpyDeviceToHost));
        }
        std::vector<int> seen(q.R * q.C, 0);
        for (int l = 0; l < 32; l++)
            for (int e = 0; e < q.nelem; e++) {
                int i = lo[l * q.nelem + e] | hi[l * q.nelem + e] << 8;
                int a = i / ldm, b = i % ldm, r = q.col ? b : a, c = q.col ? a : b;
                if (r >= q.R || c >= q.C) {
                    printf("FAIL %s lane %d x[%d]: memory element %d is outside the matrix\n", q.name, l, e, i);
                    bad++;
                    continue;
                }
                seen[r * q.C + c]++;
                fprintf(f, "%s,%d,%d,%d,%d,%d\n", q.name, ldm, l, e, r, c);
            }
        int missing = 0, maxdup = 0;
        for (int i = 0; i < q.R * q.C; i++) {
            missing += !seen[i];
            maxdup = seen[i] > maxdup ? seen[i] : maxdup;
        }
        printf("%s %s: %d elements a lane, matrix %dx%d, missing %d, most copies %d\n", missing ? "FAIL" : "PASS",
               q.name, q.nelem, q.R, q.C, missing, maxdup);
        bad += missing != 0;
    }
    fclose(f);
    CK(cudaFree(d));
    return bad;
}

// mma with small integers: exact in every type; checks D = A B + C (row-major) on the CPU
template <class S> static S mk(int v) { return (S)v; }
template <> half mk<half>(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 mk<__nv_bfloat16>(int v) { return __float2bfloat16((float)v); }
static double dv(half h) { return __half2float(h); }
static double dv(float h) { return h; }
static double dv(double h) { return h; }
static double dv(int h) { return h; }

template <int M, int N, int K, class T, class S, class A>
static int check_mma(const char *name, float (*cv)(S), int unsig)
{
    std::vector<S> a(M * K), b(K * N); // b col-major: b[n*K + k]
    std::vector<A> c(M * N), d(M * N);
    std::vector<double> ad(M * K), bd(K * N);
    unsigned x = 12345;
    for (int i = 0; i < M * K; i++) {
        x = x * 1103515245u + 12345u;
        int v = (int)(x >> 20 & 7) - 3;
        if (unsig)
            v = v + 3;
        a[i] = mk<S>(v);
        ad[i] = cv(a[i]);
    }
    for (int i = 0; i < K * N; i++) {
        x = x * 1103515245u + 12345u;
        int v = (int)(x >> 20 & 7) - 3;
        if (unsig)
            v = v + 3;
        b[i] = mk<S>(v);
        bd[i] = cv(b[i]);
    }
    for (int i = 0; i < M * N; i++)
        c[i] = mk<A>(i % 5 - 2);
    S *da, *db;
    A *dc, *dd;
    CK(cudaMalloc(&da, a.size() * sizeof(S)));
    CK(cudaMalloc(&db, b.size() * sizeof(S)));
    CK(cudaMalloc(&dc, c.size() * sizeof(A)));
    CK(cudaMalloc(&dd, d.size() * sizeof(A)));
    CK(cudaMemcpy(da, a.data(), a.size() * sizeof(S), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), b.size() * sizeof(S), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c.data(), c.size() * sizeof(A), cudaMemcpyHostToDevice));
    mma_k<M, N, K, T, S, A><<<1, 32>>>(da, db, dc, dd);
    CK(cudaGetLastError());
    CK(cudaMemcpy(d.data(), dd, d.size() * sizeof(A), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = dv(c[i * N + j]);
            for (int k = 0; k < K; k++)
                s += ad[i * K + k] * bd[j * K + k];
            if (dv(d[i * N + j]) != s)
                bad++;
        }
    printf("%s mma %s m%dn%dk%d: %d of %d wrong\n", bad ? "FAIL" : "PASS", name, M, N, K, bad, M * N);
    cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
    return bad != 0;
}
static float cv_h(half h) { return __half2float(h); }
static float cv_b(__nv_bfloat16 h) { return __bfloat162float(h); }
static float cv_f(float h) { return h; }
static float cv_d(double h) { return (float)h; }
static float cv_s(signed char h) { return h; }
static float cv_u(unsigned char h) { return h; }

static int do_mma(void)
{
    int bad = 0;
    bad += check_mma<16, 16, 16, half, half, float>("f16.f32", cv_h, 0);
    bad += check_mma<32, 8, 16, half, half, float>("f16.f32", cv_h, 0);
    bad += check_mma<8, 32, 16, half, half, float>("f16.f32", cv_h, 0);
    bad += check_mma<16, 16, 16, half, half, half>("f16.f16", cv_h, 0);
    bad += check_mma<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>("bf16", cv_b, 0);
    bad += check_mma<16, 16, 8, tf32, float, float>("tf32", cv_f, 0);
    bad += check_mma<16, 16, 16, signed char, signed char, int>("s8", cv_s, 0);
    bad += check_mma<32, 8, 16, unsigned char, unsigned char, int>("u8", cv_u, 1);
    bad += check_mma<8, 8, 4, double, double, double>("f64", cv_d, 0);
    return bad;
}

static const unsigned strides[] = {16, 32, 48, 64, 80, 128, 144, 256, 528};

static int do_count(const char *prefix)
{
    float *d;
    CK(cudaMalloc(&d, 32 * 64 * sizeof(float)));
    CK(cudaMemset(d, 0, 32 * 64 * sizeof(float)));
    for (int k = 0; k < nkinds; k++) {
        const kind &q = kinds[k];
        if (prefix && strncmp(q.name, prefix, strlen(prefix)))
            continue;
        int major = q.col ? q.C : q.R, rowbytes = (q.col ? q.R : q.C) * q.esz;
        for (int pass = 0; pass < (q.acc ? 2 : 1); pass++)
            for (unsigned si = 0; si < sizeof strides / sizeof strides[0]; si++) {
                unsigned sb = strides[si];
                if ((int)sb < rowbytes)
                    continue;
                for (unsigned off = 0; off <= 32; off += 32) {
                    if (off && sb != 144)
                        continue;
                    unsigned ldm = sb / q.esz, bytes = off + major * sb;
                    printf("LAUNCH %s %s ldm_bytes %u off %u\n", pass ? "st" : "ld", q.name, sb, off);
                    fflush(stdout);
                    if (pass)
                        q.st<<<1, 32, bytes>>>(d, ldm, q.col, off);
                    else
                        q.ld<<<1, 32, bytes>>>(d, ldm, q.col, off);
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                }
            }
    }
    printf("DONE\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "layout")) {
        int bad = do_layout(argv[2]);
        bad += do_mma();
        printf("%s: %d failures\n", bad ? "FAIL" : "ALL PASS", bad);
        return bad != 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "count"))
        return do_count(argc >= 3 ? argv[2] : NULL);
    fprintf(stderr, "usage: wmma layout OUT.csv | wmma count [KIND-PREFIX]\n");
    return 2;
}
