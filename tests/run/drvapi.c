/* drvapi.c: a C program written against the CUDA driver API alone (linked with -lcuda), as
 * cuda-samples' *Drv programs and Python's bindings use it: a context, memory, copies and sets,
 * pointer attributes, the memory pool, streams and events, a module of PTX text held in a string
 * (cuModuleLoadData), its function and global, function attributes, launches with kernelParams,
 * with `extra` and with cuLaunchKernelEx, a library, and a module loaded from a file beside the
 * program (test_run.c builds them from drvapi_kernel.cu). A line per wrong answer; "drvapi PASS"
 * at the end when every answer was right. argv[1]: all (everything, the file
 * drvapi_kernel.fatbin), ptx (only the cubin drvapi_ptx/k.cubin, its PTX beside it), nop (only
 * the cubin drvapi_nop/k.cubin, no PTX beside it), cache (the bytes of drvapi_nop/k.cubin handed
 * to cuModuleLoadData, as Triton hands its cubins: their PTX is found in Triton's cache,
 * $TRITON_CACHE_DIR), clusters (as all, stopped at cuOccupancyMaxActiveClusters). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;

#define CHECK(call, want)                                                                        \
    do {                                                                                         \
        CUresult r_ = (call);                                                                    \
        if (r_ != (want)) {                                                                      \
            printf("FAIL %s: %d, want %d (line %d)\n", #call, (int)r_, (int)(want), __LINE__);  \
            bad++;                                                                               \
        }                                                                                        \
    } while (0)
#define OK(call) CHECK(call, CUDA_SUCCESS)
#define EXPECT(cond)                                                                             \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            printf("FAIL %s (line %d)\n", #cond, __LINE__);                                     \
            bad++;                                                                               \
        }                                                                                        \
    } while (0)

/* out[i] = a * in[i] through shared memory at twice the thread's index: every warp's store and
 * load of it is a 2-way bank conflict (2 wavefronts a request; 1 for a warp of 8 threads);
 * counter starts at 7 */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .global .align 4 .u32 counter = 7;\n"
    ".visible .entry scale(.param .u64 out, .param .u64 in, .param .u32 n, .param .f32 a)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .f32 %f<4>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    .shared .align 4 .b32 tile[512];\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    ld.param.u64 %rd2, [in];\n"
    "    ld.param.u32 %r1, [n];\n"
    "    ld.param.f32 %f1, [a];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mov.u32 %r3, %ctaid.x;\n"
    "    mov.u32 %r4, %ntid.x;\n"
    "    mad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "    setp.ge.u32 %p1, %r5, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    cvta.to.global.u64 %rd3, %rd2;\n"
    "    mul.wide.u32 %rd4, %r5, 4;\n"
    "    add.s64 %rd5, %rd3, %rd4;\n"
    "    ld.global.f32 %f2, [%rd5];\n"
    "    mul.f32 %f3, %f2, %f1;\n"
    "    shl.b32 %r6, %r2, 3;\n"
    "    mov.u32 %r7, tile;\n"
    "    add.u32 %r7, %r7, %r6;\n"
    "    st.shared.f32 [%r7], %f3;\n"
    "    ld.shared.f32 %f2, [%r7];\n"
    "    cvta.to.global.u64 %rd6, %rd1;\n"
    "    add.s64 %rd7, %rd6, %rd4;\n"
    "    st.global.f32 [%rd7], %f2;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

#define N 1000

/* the kernel of file `name` beside the program (argv0): each block of 128 reversed, plus one */
static void file_module(const char *argv0, const char *name, int from_memory)
{
    char path[4096];
    const char *slash = strrchr(argv0, '/');
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - argv0 + 1) : 0, argv0, name);
    CUmodule m;
    CUfunction f;
    CUdeviceptr d;
    int h[256], back[256];
    if (from_memory) {
        static char image[1 << 20];
        FILE *fp = fopen(path, "rb");
        size_t n = fp ? fread(image, 1, sizeof image, fp) : 0;
        if (fp)
            fclose(fp);
        EXPECT(n > 0 && n < sizeof image);
        OK(cuModuleLoadData(&m, image));
    } else {
        OK(cuModuleLoad(&m, path));
    }
    OK(cuModuleGetFunction(&f, m, "reverse128"));
    for (int i = 0; i < 256; i++)
        h[i] = i;
    OK(cuMemAlloc(&d, sizeof h));
    OK(cuMemcpyHtoD(d, h, sizeof h));
    void *args[] = {&d};
    OK(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    OK(cuMemcpyDtoH(back, d, sizeof back));
    for (int i = 0; i < 256; i++)
        EXPECT(back[i] == (i / 128) * 128 + 127 - i % 128 + 1);
    OK(cuMemFree(d));
    OK(cuModuleUnload(m));
    printf("file module ran\n");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr din, dout, dtmp;
    CUdeviceptr early;
    CHECK(cuMemAlloc(&early, 16), CUDA_ERROR_NOT_INITIALIZED);
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    CHECK(cuMemAlloc(&early, 16), CUDA_ERROR_INVALID_CONTEXT); /* no context yet */
    OK(cuCtxCreate(&ctx, NULL, 0, dev));
    if (strcmp(mode, "all") && strcmp(mode, "clusters")) {
        file_module(argv[0], !strcmp(mode, "ptx") ? "drvapi_ptx/k.cubin" : "drvapi_nop/k.cubin",
                    !strcmp(mode, "cache"));
        OK(cuCtxDestroy(ctx));
        printf("drvapi %s\n", bad ? "FAIL" : "PASS");
        return bad != 0;
    }

    /* memory, copies, sets */
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    OK(cuMemAlloc(&din, sizeof in));
    OK(cuMemAlloc(&dout, sizeof out));
    OK(cuMemAlloc(&dtmp, sizeof in));
    CHECK(cuMemAlloc(&early, 0), CUDA_ERROR_INVALID_VALUE);
    size_t freeb, total;
    OK(cuMemGetInfo(&freeb, &total));
    EXPECT(freeb < total && total > 0);
    OK(cuMemcpyHtoD(dtmp, in, sizeof in));
    OK(cuMemcpyDtoD(din, dtmp, sizeof in));
    unsigned u[4];
    OK(cuMemsetD32(dtmp, 0xdeadbeefu, 4));
    OK(cuMemsetD16(dtmp + 4, 0x1234, 1));
    OK(cuMemsetD8(dtmp + 8, 0x5a, 4));
    CHECK(cuMemsetD32(dtmp + 2, 0, 1), CUDA_ERROR_INVALID_VALUE); /* misaligned */
    OK(cuMemcpyDtoH(u, dtmp, sizeof u));
    EXPECT(u[0] == 0xdeadbeefu && u[1] == 0xdead1234u && u[2] == 0x5a5a5a5au &&
           u[3] == 0xdeadbeefu);
    void *pinned;
    OK(cuMemAllocHost(&pinned, 64));

    /* the device's memory pool (cuda.core allocates from it) */
    CUmemoryPool pool;
    CUdeviceptr fromp;
    cuuint64_t used = 0, thr = 1 << 20, thr2 = 0;
    OK(cuDeviceGetDefaultMemPool(&pool, dev));
    OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &thr));
    OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &thr2));
    EXPECT(thr2 == thr);
    OK(cuMemAllocFromPoolAsync(&fromp, 4096, pool, NULL));
    OK(cuMemsetD32Async(fromp, 7, 1024, NULL));
    OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    EXPECT(used == 4096); /* the pool's own allocations (cuMemAlloc's are not the pool's) */
    OK(cuMemFreeAsync(fromp, NULL));
    int least = 1, greatest = 1;
    OK(cuCtxGetStreamPriorityRange(&least, &greatest));
    EXPECT(least >= greatest);

    /* pointer attributes */
    unsigned type = 0;
    CUdeviceptr start = 0;
    size_t size = 0;
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dtmp + 8));
    EXPECT(type == CU_MEMORYTYPE_DEVICE);
    OK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, dtmp + 8));
    OK(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, dtmp + 8));
    EXPECT(start == dtmp && size == sizeof in);
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)pinned));
    EXPECT(type == CU_MEMORYTYPE_HOST);
    int ordinal = 5;
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void *data[] = {&ordinal};
    OK(cuPointerGetAttributes(1, attrs, data, (CUdeviceptr)in));
    EXPECT(ordinal == -2); /* memory the driver does not know */
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)in),
          CUDA_ERROR_INVALID_VALUE);

    /* the module of PTX text, its global and function */
    CUmodule mod;
    CUfunction f, nf;
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&f, mod, "scale"));
    CHECK(cuModuleGetFunction(&nf, mod, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    CUdeviceptr gp;
    size_t gbytes;
    unsigned counter = 0;
    OK(cuModuleGetGlobal(&gp, &gbytes, mod, "counter"));
    OK(cuMemcpyDtoH(&counter, gp, 4));
    EXPECT(gbytes == 4 && counter == 7);
    int v = 0;
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    EXPECT(v == 2048);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    EXPECT(v == 1024);
    size_t avail = 0;
    OK(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 1, 256));
    EXPECT(avail == 47104); /* the H200's answers (driver 580.159.04, 2026-11-29) */
    OK(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 8, 256));
    EXPECT(avail == 27136);
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    EXPECT(v == 64 * 1024);
    size_t off = 1, psize = 0;
    OK(cuFuncGetParamInfo(f, 3, &off, &psize));
    EXPECT(off == 20 && psize == 4);

    /* occupancy: the same answers with and without flags; the dynamic shared memory left to a
     * block beside 2048 B static (and the 1 KB reserved a block) of the SM's 228 KB */
    int nb = 0, nb2 = -1, grid = 0, block = 0, grid2 = -1, block2 = -1;
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f, 256, 0));
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb2, f, 256, 0, 0));
    EXPECT(nb > 0 && nb == nb2);
    OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0));
    OK(cuOccupancyMaxPotentialBlockSizeWithFlags(&grid2, &block2, f, NULL, 0, 0, 0));
    EXPECT(block > 0 && block % 32 == 0 && grid > 0 && grid == grid2 && block == block2);
    OK(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 1, 256));
    EXPECT(avail == 65536);
    OK(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 4, 256));
    EXPECT(avail == 56320);
    if (!strcmp(mode, "clusters")) { /* not modelled: stops the program, named */
        CUlaunchConfig lc = {0};
        int nc = 0;
        cuOccupancyMaxActiveClusters(&nc, f, &lc);
        printf("cuOccupancyMaxActiveClusters returned\n");
    }

    /* launches: kernelParams, in a stream between events */
    CUstream s;
    CUevent e0, e1;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    OK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    unsigned n = N;
    float a = 2.0f;
    void *args[] = {&dout, &din, &n, &a};
    OK(cuEventRecord(e0, s));
    OK(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, s, args, NULL));
    OK(cuEventRecord(e1, s));
    OK(cuStreamSynchronize(s));
    OK(cuEventSynchronize(e1));
    float ms = -1;
    OK(cuEventElapsedTime(&ms, e0, e1));
    EXPECT(ms >= 0);
    OK(cuMemcpyDtoHAsync(out, dout, sizeof out, s));
    OK(cuCtxSynchronize());
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == 2.0f * i);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_HANDLE);

    /* `extra`: the parameters packed as the PTX lays them out (8 + 8 + 4 + 4 bytes) */
    unsigned char buf[24];
    a = 3.0f;
    memcpy(buf, &dout, 8);
    memcpy(buf + 8, &din, 8);
    memcpy(buf + 16, &n, 4);
    memcpy(buf + 20, &a, 4);
    size_t bsize = sizeof buf;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bsize,
                     CU_LAUNCH_PARAM_END};
    OK(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, NULL, extra));
    OK(cuMemcpyDtoH(out, dout, sizeof out));
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == 3.0f * i);
    bsize = 20; /* ends before the last parameter: the H200 launches it all the same */
    OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));

    /* cuLaunchKernelEx, with a cluster of 2 */
    a = 4.0f;
    CUlaunchAttribute at;
    memset(&at, 0, sizeof at);
    at.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    at.value.clusterDim.x = 2;
    at.value.clusterDim.y = 1;
    at.value.clusterDim.z = 1;
    CUlaunchConfig lc;
    memset(&lc, 0, sizeof lc);
    lc.gridDimX = 4;
    lc.gridDimY = lc.gridDimZ = 1;
    lc.blockDimX = 256;
    lc.blockDimY = lc.blockDimZ = 1;
    lc.attrs = &at;
    lc.numAttrs = 1;
    OK(cuLaunchKernelEx(&lc, f, args, NULL));
    OK(cuMemcpyDtoH(out, dout, sizeof out));
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == 4.0f * i);
    lc.gridDimX = 3; /* the cluster does not divide the grid */
    CHECK(cuLaunchKernelEx(&lc, f, args, NULL), CUDA_ERROR_INVALID_CLUSTER_SIZE);

    /* a library: the same PTX, its kernel launched as a function */
    CUlibrary lib;
    CUkernel k;
    OK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
    OK(cuLibraryGetKernel(&k, lib, "scale"));
    a = 5.0f;
    OK(cuLaunchKernel((CUfunction)k, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    OK(cuMemcpyDtoH(out, dout, sizeof out));
    EXPECT(out[N - 1] == 5.0f * (N - 1));
    OK(cuLibraryUnload(lib));

    file_module(argv[0], "drvapi_kernel.fatbin", 0);

    OK(cuEventDestroy(e0));
    OK(cuEventDestroy(e1));
    OK(cuStreamDestroy(s));
    OK(cuMemFreeHost(pinned));
    OK(cuMemFree(din));
    OK(cuMemFree(dout));
    OK(cuMemFree(dtmp));
    OK(cuModuleUnload(mod));
    OK(cuCtxDestroy(ctx));
    printf("drvapi %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
