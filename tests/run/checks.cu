// checks.cu: smemlab run's own test program (tests/test_run.c runs it). One behaviour per mode,
// argv[1]; every mode checks its own results on the host and prints PASS, as a real program would.
//   api          the runtime API the issue lists: symbols, pinned / mapped / managed memory,
//                pitched 2-D copies, streams, events, errors, function attributes, occupancy
//   transpose    a 64x64 int transpose through a 32x33 padded tile, 4 blocks of 32x8
//   histogram    shared-memory atomics (256 bins), 8 blocks of 256
//   oob          a kernel that stores one element past its array and loads one before it
//   race         a missing __syncthreads(): a shared-memory race
//   hang         a launch, then a kernel that never ends (the first launch stays in the report)
//   unsupported  a launch, then a call smemlab does not emulate (cudaMallocArray)
//   crash        host code dereferences a device pointer
//   exit5        a launch, then exit status 5
//   assert       a device-side assert fails (the program sees cudaErrorAssert)
//   printf       device printf
//   templates    a templated kernel in three instantiations (int/256, float/128, double/64; the
//                last through cudaLaunchKernel), 100 KB of dynamic shared memory, occupancy
//                (cudaOccupancyMaxPotentialBlockSize), 3-D pitched memory (Malloc3D, Memset3D,
//                Memcpy3D), streams with flags, events without timing, cross-stream waits
//   diverge      a branch inside a loop with __syncthreads(): lanes of a warp take it different
//                numbers of times, yet after each barrier the warp is converged again (one
//                request per warp instruction), and a conditional swap as in a bitonic sort
//   trap         a kernel that executes trap: the program sees cudaErrorLaunchFailure, sticky
//   unknown      a kernel whose branch depends on an out-of-bounds (null) load: stopped, located
//   repeat       a timing loop: an out-of-place kernel (proven repeats) and an in-place one
//                (never skipped wrongly: its result must count every launch)
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(call)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__,          \
                    cudaGetErrorString(e_));                                                      \
            exit(2);                                                                              \
        }                                                                                         \
    } while (0)

static int failures;
#define EXPECT(cond)                                                                              \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "checks.cu:%d: expected %s\n", __LINE__, #cond);                     \
            failures++;                                                                           \
        }                                                                                         \
    } while (0)

__constant__ float coef[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__device__ int counter = 7;
__device__ int table[3] = {10, 20, 30};
__device__ __managed__ int managed_val = 11;

__global__ void useSymbols(float *out)
{
    int t = threadIdx.x;
    out[t] = coef[t % 4] + (float)counter + (float)table[t % 3] + (float)managed_val;
}

__global__ void bump()
{
    atomicAdd(&counter, 1);
}

__global__ void scalePitched(float *p, size_t pitch, int w, int h, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)p + y * pitch);
        row[x] *= s;
    }
}

__global__ void addMapped(const int *host_in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = host_in[i] + managed_val;
}

// more than 48 KB of dynamic shared memory: needs cudaFuncSetAttribute
__global__ void bigSmem(int *out)
{
    extern __shared__ int big[];
    int t = threadIdx.x;
    for (int i = t; i < 16384; i += blockDim.x)
        big[i] = i;
    __syncthreads();
    out[t] = big[16383 - t];
}

#define TILE 32
__global__ void transposePad(int *out, const int *in, int w, int h)
{
    __shared__ int tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void histogram(const unsigned char *data, int n, unsigned *bins)
{
    __shared__ unsigned local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void offByOne(int *a, int n)
{
    int i = threadIdx.x;
    a[i + 1] = i;          // thread n-1 writes a[n]: one past the end
    if (i == 0)
        a[0] = a[i - 1];   // reads a[-1]: one before the start
}

__global__ void racy(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[63 - threadIdx.x]; // no __syncthreads(): another warp's element
}

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) {
    }
}

__global__ void checked(int *a)
{
    assert(a[threadIdx.x] >= 0);
}

__global__ void say(int n)
{
    if (threadIdx.x < 2)
        printf("block %d thread %d of %d: %s %.2f %lld\n", blockIdx.x, threadIdx.x, n, "hello",
               0.25 * threadIdx.x, 1ll << 40);
}

__global__ void scale(float *out, const float *in, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * s;
}

__global__ void bumpAll(int *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] += 1;
}

__global__ void sumInto(int *sum, const float *in)
{
    atomicAdd(sum, (int)in[blockIdx.x * blockDim.x + threadIdx.x]);
}

__global__ void fillAll(float *a, float v)
{
    a[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// one block's sum through shared memory, for any element type and block size
template <typename T, int BS>
__global__ void blockSum(const T *in, T *out)
{
    __shared__ T s[BS];
    s[threadIdx.x] = in[blockIdx.x * BS + threadIdx.x];
    __syncthreads();
    for (int k = BS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

// 100 KB of dynamic shared memory, reversed
__global__ void reverseBig(float *out, int n)
{
    extern __shared__ float big100[];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        big100[i] = (float)i;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = big100[n - 1 - i];
}

__global__ void trapper(const int *a)
{
    if (a[threadIdx.x] < 0)
        __trap();
}

__global__ void branchOnNull(const int *a, int *out)
{
    if (a[threadIdx.x] > 0)
        out[threadIdx.x] = 1;
}

template <typename T, int BS>
static void sums(int blocks, T *h_out)
{
    T h[4 * BS];
    for (int i = 0; i < blocks * BS; i++)
        h[i] = (T)i / (T)4;
    T *d_in, *d_out;
    CK(cudaMalloc(&d_in, blocks * BS * sizeof(T)));
    CK(cudaMalloc(&d_out, blocks * sizeof(T)));
    CK(cudaMemcpy(d_in, h, blocks * BS * sizeof(T), cudaMemcpyHostToDevice));
    if (sizeof(T) == 8) { // the launch nvcc's <<<>>> does not make: cudaLaunchKernel itself
        void *args[] = {&d_in, &d_out};
        CK(cudaLaunchKernel((const void *)blockSum<T, BS>, dim3(blocks), dim3(BS), args, 0, 0));
    } else {
        blockSum<T, BS><<<blocks, BS>>>(d_in, d_out);
    }
    CK(cudaMemcpy(h_out, d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
}

static int mode_templates()
{
    int si[2];
    float sf[2];
    double sd[2];
    sums<int, 256>(2, si);
    sums<float, 128>(2, sf);
    sums<double, 64>(2, sd);
    // sum of i/4 over a block: integer division for int
    long long ei0 = 0, ei1 = 0;
    for (int i = 0; i < 256; i++) {
        ei0 += i / 4;
        ei1 += (256 + i) / 4;
    }
    EXPECT(si[0] == ei0 && si[1] == ei1);
    EXPECT(sf[0] == 2032.0f && sf[1] == 6128.0f);
    EXPECT(sd[0] == 504.0 && sd[1] == 1528.0);

    // occupancy: the block size the runtime suggests, and blocks per SM at 100 KB
    int min_grid = 0, bs = 0;
    CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &bs, blockSum<int, 256>, 0, 0));
    EXPECT(bs == 1024 && min_grid == 264); // as the H100 answered
    const int N = 100 * 1024 / 4;
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reverseBig, 1024, N * 4));
    EXPECT(per_sm == 0); // more dynamic shared memory than the kernel may have: none fits (H100)
    float *d_rev;
    CK(cudaMalloc(&d_rev, N * sizeof(float)));
    reverseBig<<<1, 1024, N * 4>>>(d_rev, N);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue); // > 48 KB without the attribute
    CK(cudaFuncSetAttribute(reverseBig, cudaFuncAttributeMaxDynamicSharedMemorySize, N * 4));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reverseBig, 1024, N * 4));
    EXPECT(per_sm == 2); // 228 KB per SM, 1 KB reserved per block (H100: 2)
    reverseBig<<<1, 1024, N * 4>>>(d_rev, N);
    CK(cudaGetLastError());
    static float h_rev[100 * 1024 / 4];
    CK(cudaMemcpy(h_rev, d_rev, sizeof h_rev, cudaMemcpyDeviceToHost));
    EXPECT(h_rev[0] == (float)(N - 1) && h_rev[N - 1] == 0.0f);

    // 3-D pitched memory: Malloc3D, Memset3D, Memcpy3D back to the host
    cudaExtent ext = make_cudaExtent(20 * sizeof(int), 3, 2);
    cudaPitchedPtr pp;
    CK(cudaMalloc3D(&pp, ext));
    EXPECT(pp.pitch >= 20 * sizeof(int) && pp.ysize == 3);
    CK(cudaMemset3D(pp, 0x01, ext));
    int h3[2][3][20];
    memset(h3, 0, sizeof h3);
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = pp;
    cp.dstPtr = make_cudaPitchedPtr(h3, 20 * sizeof(int), 20 * sizeof(int), 3);
    cp.extent = ext;
    cp.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&cp));
    EXPECT(h3[0][0][0] == 0x01010101 && h3[1][2][19] == 0x01010101);
    CK(cudaFree(pp.ptr));

    // streams with flags and priorities, an event without timing, a wait across streams
    cudaStream_t s1, s2;
    int lo = 0, hi = 0;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithPriority(&s2, cudaStreamDefault, hi));
    cudaEvent_t ev;
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    CK(cudaMemsetAsync(d_rev, 0, 64, s1));
    CK(cudaEventRecord(ev, s1));
    CK(cudaStreamWaitEvent(s2, ev, 0));
    CK(cudaMemcpyAsync(h_rev, d_rev, 64, cudaMemcpyDeviceToHost, s2));
    CK(cudaStreamSynchronize(s2));
    EXPECT(cudaEventQuery(ev) == cudaSuccess && cudaStreamQuery(s1) == cudaSuccess);
    EXPECT(h_rev[0] == 0.0f && h_rev[15] == 0.0f);
    CK(cudaEventDestroy(ev));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFree(d_rev));
    printf("templates %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

__global__ void divergeLoop(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned s[128];
    s[threadIdx.x] = in[threadIdx.x];
    for (unsigned it = 2; it < n; it <<= 1) {
        __syncthreads();
        unsigned a = s[threadIdx.x];
        if (a & it) // some lanes of each warp, different ones each time
            s[threadIdx.x] = a + 1;
    }
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// one block's bitonic sort of 256 keys (128 threads, a compare-and-swap each per step)
__global__ void bitonic256(unsigned *keys)
{
    __shared__ unsigned k[256];
    unsigned t = threadIdx.x;
    k[t] = keys[t];
    k[t + 128] = keys[t + 128];
    for (unsigned size = 2; size <= 256; size <<= 1)
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * t - (t & (stride - 1));
            unsigned up = (pos & size) == 0 || size == 256;
            unsigned a = k[pos], b = k[pos + stride];
            if ((a > b) == up) {
                k[pos] = b;
                k[pos + stride] = a;
            }
        }
    __syncthreads();
    keys[t] = k[t];
    keys[t + 128] = k[t + 128];
}

static int mode_diverge()
{
    unsigned h[256], *d_in, *d_out;
    for (int i = 0; i < 256; i++)
        h[i] = (unsigned)i * 2654435761u;
    CK(cudaMalloc(&d_in, sizeof h));
    CK(cudaMalloc(&d_out, sizeof h));
    CK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
    divergeLoop<<<1, 128>>>(d_in, d_out, 64);
    unsigned got[128];
    CK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++) {
        unsigned a = h[i];
        for (unsigned it = 2; it < 64; it <<= 1)
            if (a & it)
                a++;
        EXPECT(got[i] == a);
    }
    bitonic256<<<1, 128>>>(d_in);
    CK(cudaMemcpy(h, d_in, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 1; i < 256; i++)
        EXPECT(h[i - 1] <= h[i]);
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    printf("diverge %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

static int mode_repeat()
{
    const int N = 1 << 14;
    float *in, *out;
    int *cnt;
    CK(cudaMalloc(&in, N * sizeof(float)));
    CK(cudaMalloc(&out, N * sizeof(float)));
    CK(cudaMalloc(&cnt, N * sizeof(int)));
    CK(cudaMemset(cnt, 0, N * sizeof(int)));
    static float h[1 << 14];
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    CK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    for (int r = 0; r < 20; r++) {
        scale<<<N / 256, 256>>>(out, in, 2.0f);
        bumpAll<<<N / 256, 256>>>(cnt);
    }
    h[0] = -1;
    CK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice)); /* new input: must run again */
    scale<<<N / 256, 256>>>(out, in, 3.0f);
    static float ho[1 << 14];
    static int hc[1 << 14];
    CK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hc, cnt, sizeof hc, cudaMemcpyDeviceToHost));
    EXPECT(ho[0] == -3.0f && ho[N - 1] == 3.0f * (N - 1));
    EXPECT(hc[0] == 20 && hc[N - 1] == 20);
    /* another kernel overwrites the output between two repeats: the second is still a repeat
       (its input is unchanged) but its writes must be put back */
    scale<<<N / 256, 256>>>(out, in, 3.0f);
    fillAll<<<N / 256, 256>>>(out, 7.0f);
    scale<<<N / 256, 256>>>(out, in, 3.0f);
    CK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
    EXPECT(ho[0] == -3.0f && ho[5] == 15.0f);
    /* a zeroed accumulator summed into with atomics, five times: an in-place update whose
       repeats are proven (the bytes it read, 0, are as they were) */
    int *sum, hs = 0;
    CK(cudaMalloc(&sum, sizeof(int)));
    for (int r = 0; r < 5; r++) {
        CK(cudaMemset(sum, 0, sizeof(int)));
        sumInto<<<N / 256, 256>>>(sum, in);
    }
    CK(cudaMemcpy(&hs, sum, sizeof hs, cudaMemcpyDeviceToHost));
    EXPECT(hs == (N - 1) * N / 2 - 1 - 0); /* in[0] is -1 now */
    /* managed memory the host writes between two launches: never proven by versions */
    float *min, *mout;
    CK(cudaMallocManaged(&min, 256 * sizeof(float)));
    CK(cudaMallocManaged(&mout, 256 * sizeof(float)));
    for (int i = 0; i < 256; i++)
        min[i] = (float)i;
    scale<<<1, 256>>>(mout, min, 2.0f);
    CK(cudaDeviceSynchronize());
    EXPECT(mout[3] == 6.0f);
    min[3] = 10.0f;
    scale<<<1, 256>>>(mout, min, 2.0f);
    CK(cudaDeviceSynchronize());
    EXPECT(mout[3] == 20.0f);
    printf("repeat %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

static int mode_api()
{
    int n = 0;
    CK(cudaGetDeviceCount(&n));
    EXPECT(n == 1);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.major == 9 && prop.minor == 0 && prop.multiProcessorCount == 132);
    EXPECT(prop.sharedMemPerBlockOptin == 232448 && prop.warpSize == 32);
    int v = 0;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    EXPECT(v == 233472);
    EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaSuccess);
    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    EXPECT(rt == 13000 && drv >= rt);
    EXPECT(!strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration"));
    EXPECT(!strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory"));

    // symbols: initializers, copies both ways, addresses
    float *d_out;
    CK(cudaMalloc(&d_out, 32 * sizeof(float)));
    useSymbols<<<1, 32>>>(d_out);
    CK(cudaGetLastError());
    bump<<<1, 1>>>();
    float h_out[32];
    CK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++) {
        const float c[4] = {1.5f, 2.5f, 3.5f, 4.5f};
        const int tb[3] = {10, 20, 30};
        EXPECT(h_out[t] == c[t % 4] + 7.0f + (float)tb[t % 3] + 11.0f);
    }
    int cnt = 0;
    CK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
    EXPECT(cnt == 8);
    const float nc[4] = {-1.f, -2.f, -3.f, -4.f};
    CK(cudaMemcpyToSymbol(coef, nc, sizeof nc));
    managed_val = 100; // the host writes the managed variable directly
    useSymbols<<<1, 32>>>(d_out);
    bump<<<1, 1>>>();
    CK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    EXPECT(h_out[1] == -2.f + 8.0f + 20.0f + 100.0f);
    int *p_counter = nullptr;
    size_t sz = 0;
    CK(cudaGetSymbolAddress((void **)&p_counter, counter));
    CK(cudaGetSymbolSize(&sz, table));
    EXPECT(p_counter != nullptr && sz == 3 * sizeof(int));
    CK(cudaMemcpy(&cnt, p_counter, sizeof cnt, cudaMemcpyDeviceToHost));
    EXPECT(cnt == 9);

    // pitched memory, 2-D copies, a stream, events
    const int W = 70, H = 5;
    float *d_p;
    size_t pitch;
    CK(cudaMallocPitch(&d_p, &pitch, W * sizeof(float), H));
    EXPECT(pitch >= W * sizeof(float) && pitch % 256 == 0);
    float h[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            h[y][x] = (float)(y * W + x);
    cudaStream_t s;
    cudaEvent_t e0, e1;
    CK(cudaStreamCreate(&s));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0, s));
    CK(cudaMemcpy2DAsync(d_p, pitch, h, W * sizeof(float), W * sizeof(float), H,
                         cudaMemcpyHostToDevice, s));
    scalePitched<<<dim3(3, H), 32, 0, s>>>(d_p, pitch, W, H, 2.0f);
    CK(cudaMemcpy2DAsync(h, W * sizeof(float), d_p, pitch, W * sizeof(float), H,
                         cudaMemcpyDeviceToHost, s));
    CK(cudaEventRecord(e1, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventSynchronize(e1));
    float ms = -1;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    EXPECT(ms >= 0);
    EXPECT(h[4][69] == 2.0f * (4 * W + 69));
    CK(cudaStreamDestroy(s));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));

    // pinned, mapped and managed memory reached by a kernel
    int *h_in, *d_view, *m_out;
    CK(cudaHostAlloc(&h_in, 64 * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < 64; i++)
        h_in[i] = i;
    CK(cudaHostGetDevicePointer((void **)&d_view, h_in, 0));
    CK(cudaMallocManaged(&m_out, 64 * sizeof(int)));
    addMapped<<<2, 32>>>(d_view, m_out, 64);
    CK(cudaDeviceSynchronize());
    EXPECT(m_out[63] == 163);
    cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, m_out));
    EXPECT(pa.type == cudaMemoryTypeManaged);
    CK(cudaPointerGetAttributes(&pa, d_p));
    EXPECT(pa.type == cudaMemoryTypeDevice);
    CK(cudaFreeHost(h_in));
    CK(cudaFree(m_out));
    int *h_pinned;
    CK(cudaMallocHost(&h_pinned, 16));
    CK(cudaMemset(d_p, 0, 16));
    CK(cudaMemcpy(h_pinned, d_p, 16, cudaMemcpyDefault));
    EXPECT(h_pinned[3] == 0);
    CK(cudaFreeHost(h_pinned));

    // launch errors: a bad configuration, too much dynamic shared memory without the attribute
    useSymbols<<<1, 2048>>>(d_out);
    cudaError_t bad = cudaGetLastError(); // CUDA 13 on an H100: invalid value
    if (bad != cudaErrorInvalidValue)
        fprintf(stderr, "checks.cu:%d: 2048 threads a block: %s\n", __LINE__, cudaGetErrorName(bad));
    EXPECT(bad == cudaErrorInvalidValue);
    int *d_big;
    CK(cudaMalloc(&d_big, 256 * sizeof(int)));
    bigSmem<<<1, 256, 65536>>>(d_big);
    EXPECT(cudaGetLastError() != cudaSuccess);
    CK(cudaFuncSetAttribute(bigSmem, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    bigSmem<<<1, 256, 65536>>>(d_big);
    CK(cudaGetLastError());
    int hb[256];
    CK(cudaMemcpy(hb, d_big, sizeof hb, cudaMemcpyDeviceToHost));
    EXPECT(hb[5] == 16383 - 5);
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, transposePad));
    EXPECT(fa.sharedSizeBytes == 32 * 33 * 4);
    CK(cudaFuncGetAttributes(&fa, bigSmem));
    EXPECT(fa.maxDynamicSharedSizeBytes == 65536);
    int blocks = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, transposePad, 256, 0));
    EXPECT(blocks == 8);
    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    EXPECT(total_b > free_b && free_b > 0);
    CK(cudaFree(d_big));
    CK(cudaFree(d_p));
    CK(cudaFree(d_out));
    CK(cudaDeviceReset());
    printf("api %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

static int mode_transpose()
{
    const int W = 64, H = 64;
    int h_in[W * H], h_out[W * H];
    for (int i = 0; i < W * H; i++)
        h_in[i] = i * 7 + 1;
    int *d_in, *d_out;
    CK(cudaMalloc(&d_in, sizeof h_in));
    CK(cudaMalloc(&d_out, sizeof h_out));
    CK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    transposePad<<<dim3(W / TILE, H / TILE), dim3(TILE, 8)>>>(d_out, d_in, W, H);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            EXPECT(h_out[x * H + y] == h_in[y * W + x]);
    printf("transpose %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

static int mode_histogram()
{
    const int N = 8 * 256 * 4;
    static unsigned char h[N];
    unsigned ref[256] = {0}, got[256];
    for (int i = 0; i < N; i++) {
        h[i] = (unsigned char)((i * 37u) ^ (i >> 3));
        ref[h[i]]++;
    }
    unsigned char *d;
    unsigned *bins;
    CK(cudaMalloc(&d, N));
    CK(cudaMalloc(&bins, sizeof got));
    CK(cudaMemcpy(d, h, N, cudaMemcpyHostToDevice));
    CK(cudaMemset(bins, 0, sizeof got));
    histogram<<<8, 256>>>(d, N, bins);
    CK(cudaMemcpy(got, bins, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(!memcmp(got, ref, sizeof got));
    printf("histogram %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "api";
    if (!strcmp(m, "api"))
        return mode_api();
    if (!strcmp(m, "transpose"))
        return mode_transpose();
    if (!strcmp(m, "histogram"))
        return mode_histogram();
    if (!strcmp(m, "repeat"))
        return mode_repeat();
    if (!strcmp(m, "templates"))
        return mode_templates();
    if (!strcmp(m, "diverge"))
        return mode_diverge();
    if (!strcmp(m, "printf")) {
        say<<<2, 32>>>(7);
        CK(cudaDeviceSynchronize());
        printf("printf done\n");
        return 0;
    }
    int *d;
    CK(cudaMalloc(&d, 64 * sizeof(int)));
    CK(cudaMemset(d, 0, 64 * sizeof(int)));
    if (!strcmp(m, "oob")) {
        offByOne<<<1, 64>>>(d, 64);
        CK(cudaDeviceSynchronize());
        printf("oob done\n");
    } else if (!strcmp(m, "race")) {
        racy<<<1, 64>>>(d);
        CK(cudaDeviceSynchronize());
        printf("race done\n");
    } else if (!strcmp(m, "hang")) {
        racy<<<1, 64>>>(d); // recorded before: the report keeps it
        CK(cudaDeviceSynchronize());
        printf("hang: spinning\n"); // test_run kills the program once it reads this
        fflush(stdout);
        spin<<<1, 32>>>(d);
        CK(cudaDeviceSynchronize());
        printf("hang: not reached\n");
    } else if (!strcmp(m, "unsupported")) {
        racy<<<1, 64>>>(d); // recorded before: the report keeps it
        cudaArray_t arr;
        cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
        cudaMallocArray(&arr, &desc, 16, 16);
        printf("unsupported: not reached\n");
    } else if (!strcmp(m, "crash")) {
        racy<<<1, 64>>>(d);
        printf("crash: reading a device pointer on the host\n");
        fflush(stdout);
        volatile int x = d[3];
        printf("crash: not reached %d\n", x);
    } else if (!strcmp(m, "exit5")) {
        racy<<<1, 64>>>(d);
        CK(cudaDeviceSynchronize());
        return 5;
    } else if (!strcmp(m, "assert")) {
        CK(cudaMemset(d, 0xff, 4)); // a[0] = -1: the assert fails in thread 0
        checked<<<1, 32>>>(d);
        cudaError_t e = cudaDeviceSynchronize();
        printf("assert: %s\n", cudaGetErrorName(e));
        return e == cudaErrorAssert ? 0 : 1;
    } else if (!strcmp(m, "trap")) {
        CK(cudaMemset(d, 0xff, 4)); // a[0] = -1: thread 0 traps
        trapper<<<1, 32>>>(d);
        cudaError_t e = cudaDeviceSynchronize();
        cudaError_t after = cudaMemset(d, 0, 4); // sticky: the context is lost, as on a GPU
        printf("trap: %s, then %s\n", cudaGetErrorName(e), cudaGetErrorName(after));
        return e == cudaErrorLaunchFailure && after == cudaErrorLaunchFailure ? 0 : 1;
    } else if (!strcmp(m, "unknown")) {
        racy<<<1, 64>>>(d);
        branchOnNull<<<1, 32>>>(nullptr, d);
        CK(cudaDeviceSynchronize());
        printf("unknown: not reached\n");
    } else {
        fprintf(stderr, "checks: unknown mode %s\n", m);
        return 2;
    }
    return 0;
}
