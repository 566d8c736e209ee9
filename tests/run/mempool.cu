// Stream-ordered memory pools (cudaMemPool*, cudaMallocFromPoolAsync, the driver's cuMemPool*): every
// call's answer and every attribute read, one line each, for smemlab run to print as the H200 does
// (tests/run/h200-mempool.txt). A kernel reads and writes the pools' memory and checks it.
#include <cuda.h>
#include <cstdio>
#include <cstring>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

static void attrs(const char *tag, cudaMemPool_t p)
{
    static const cudaMemPoolAttr a[] = {
        cudaMemPoolReuseFollowEventDependencies, cudaMemPoolReuseAllowOpportunistic,
        cudaMemPoolReuseAllowInternalDependencies, cudaMemPoolAttrReleaseThreshold,
        cudaMemPoolAttrReservedMemCurrent, cudaMemPoolAttrReservedMemHigh,
        cudaMemPoolAttrUsedMemCurrent, cudaMemPoolAttrUsedMemHigh};
    for (unsigned i = 0; i < sizeof a / sizeof a[0]; i++) {
        unsigned long long v = 0;
        cudaError_t e = cudaMemPoolGetAttribute(p, a[i], &v);
        printf("%s attr %d %d %llu\n", tag, (int)a[i], (int)e, a[i] <= 3 ? v & 0xffffffffull : v);
    }
}

int main()
{
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    int supported = 0;
    printf("supported %d", (int)cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    printf(" %d\n", supported);

    // the default pool
    cudaMemPool_t def = nullptr, cur = nullptr;
    printf("default %d\n", (int)cudaDeviceGetDefaultMemPool(&def, 0));
    printf("current %d", (int)cudaDeviceGetMemPool(&cur, 0));
    printf(" same %d\n", cur == def);
    printf("default_bad_device %d\n", (int)cudaDeviceGetDefaultMemPool(&def, 7));
    cudaGetLastError();
    unsigned long long thr = ~0ull;
    printf("set_threshold %d\n", (int)cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr));
    attrs("default_empty", def);

    float *a = nullptr, *b = nullptr, *c = nullptr;
    printf("malloc_async %d", (int)cudaMallocAsync(&a, bytes, s));
    printf(" %d\n", (int)cudaMallocAsync(&b, bytes, s));
    float *h = new float[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    cudaMemcpyAsync(a, h, bytes, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(b, h, bytes, cudaMemcpyHostToDevice, s);

    // a pool of its own
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine = nullptr;
    printf("create %d\n", (int)cudaMemPoolCreate(&mine, &props));
    printf("from_pool %d\n", (int)cudaMallocFromPoolAsync(&c, bytes, mine, s));
    add<<<(n + 255) / 256, 256, 0, s>>>(a, b, c, n);
    cudaMemcpyAsync(h, c, bytes, cudaMemcpyDeviceToHost, s);
    printf("sync %d\n", (int)cudaStreamSynchronize(s));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != 2.0f * i;
    printf("kernel %s\n", bad ? "FAIL" : "PASS");
    attrs("default_two", def);
    attrs("mine_one", mine);

    // the access of its own device
    cudaMemAccessDesc d;
    d.location.type = cudaMemLocationTypeDevice;
    d.location.id = 0;
    d.flags = cudaMemAccessFlagsProtReadWrite;
    printf("set_access %d\n", (int)cudaMemPoolSetAccess(mine, &d, 1));
    cudaMemAccessFlags f = cudaMemAccessFlagsProtNone;
    printf("get_access %d", (int)cudaMemPoolGetAccess(&f, mine, &d.location));
    printf(" %d\n", (int)f);

    // the current pool changed: cudaMallocAsync draws from it
    printf("set_current %d\n", (int)cudaDeviceSetMemPool(0, mine));
    printf("current_now %d", (int)cudaDeviceGetMemPool(&cur, 0));
    printf(" mine %d\n", cur == mine);
    float *e = nullptr;
    printf("malloc_async_mine %d\n", (int)cudaMallocAsync(&e, 4096, s));
    cudaStreamSynchronize(s);
    attrs("mine_two", mine);
    printf("free_async %d", (int)cudaFreeAsync(e, s));
    printf(" %d", (int)cudaFreeAsync(c, s));
    printf(" %d", (int)cudaFreeAsync(a, s));
    printf(" %d\n", (int)cudaFreeAsync(b, s));
    printf("sync %d\n", (int)cudaStreamSynchronize(s));
    attrs("mine_freed", mine);
    attrs("default_freed", def);
    unsigned long long zero = 0;
    printf("reset_high %d\n", (int)cudaMemPoolSetAttribute(mine, cudaMemPoolAttrUsedMemHigh, &zero));
    unsigned long long one = 1;
    printf("reset_high_nonzero %d\n", (int)cudaMemPoolSetAttribute(mine, cudaMemPoolAttrUsedMemHigh, &one));
    cudaGetLastError();
    attrs("mine_reset", mine);
    printf("trim %d\n", (int)cudaMemPoolTrimTo(mine, 0));

    // bad arguments
    printf("attr_bad %d\n", (int)cudaMemPoolGetAttribute(mine, (cudaMemPoolAttr)99, &one));
    cudaGetLastError();
    printf("attr_null %d\n", (int)cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemHigh, nullptr));
    cudaGetLastError();
    props.allocType = cudaMemAllocationTypeInvalid;
    cudaMemPool_t p2 = nullptr;
    printf("create_bad_type %d\n", (int)cudaMemPoolCreate(&p2, &props));
    cudaGetLastError();
    props.allocType = cudaMemAllocationTypePinned;
    props.location.id = 3;
    printf("create_bad_device %d\n", (int)cudaMemPoolCreate(&p2, &props));
    cudaGetLastError();
    printf("destroy_default %d\n", (int)cudaMemPoolDestroy(def));
    cudaGetLastError();

    // destroying the current pool: the default is current again
    printf("destroy %d\n", (int)cudaMemPoolDestroy(mine));
    printf("current_after %d", (int)cudaDeviceGetMemPool(&cur, 0));
    printf(" default %d\n", cur == def);

    // the driver's names for the same pools
    CUmemoryPool dp = nullptr;
    printf("cu_default %d", (int)cuDeviceGetDefaultMemPool(&dp, 0));
    printf(" same %d\n", (cudaMemPool_t)dp == def);
    CUdeviceptr x = 0;
    printf("cu_alloc_from_pool %d\n", (int)cuMemAllocFromPoolAsync(&x, 1 << 16, dp, (CUstream)s));
    cuuint64_t used = 0;
    printf("cu_used %d", (int)cuMemPoolGetAttribute(dp, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    printf(" %llu\n", (unsigned long long)used);
    printf("cu_free_async %d\n", (int)cuMemFreeAsync(x, (CUstream)s));
    printf("cu_sync %d\n", (int)cuStreamSynchronize((CUstream)s));
    printf("cu_used_after %d", (int)cuMemPoolGetAttribute(dp, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    printf(" %llu\n", (unsigned long long)used);
    cudaStreamDestroy(s);
    delete[] h;
    printf("done %d\n", (int)cudaGetLastError());
    return 0;
}
