// drvquery.cu: a program linked with -lcuda that asks the driver API what programs beside the
// runtime ask it (init, the device and its attributes, the primary context, cuGetProcAddress,
// error names), then launches a kernel through the runtime. One line per answer. argv[1]:
//   query    the answers (run on an H200 it recorded tests/run/h200-drvquery.txt; test_run.c
//            checks that smemlab run --device h200 prints the same, lines naming the driver
//            version and the machine's own facts aside)
//   errors   cuGetErrorName / String of every CUresult value 0..1000 the driver names
//   refused  then cuMemAllocManaged, which smemlab run does not provide: it stops, named (exit 3)
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void fill(int *a)
{
    a[threadIdx.x] = threadIdx.x * 3;
}

#define P(what, call)                                                                          \
    do {                                                                                       \
        CUresult r_ = (call);                                                                  \
        printf("%s %d\n", what, (int)r_);                                                      \
    } while (0)

int main(int argc, char **argv)
{
    setvbuf(stdout, nullptr, _IONBF, 0); // every line out before a crash
    const char *mode = argc > 1 ? argv[1] : "query";
    if (!strcmp(mode, "errors")) {
        for (int v = 0; v <= 1000; v++) {
            const char *n = nullptr, *s = nullptr;
            CUresult a = cuGetErrorName((CUresult)v, &n);
            CUresult b = cuGetErrorString((CUresult)v, &s);
            if (a == CUDA_SUCCESS)
                printf("%d\t%s\t%s\t%d\n", v, n, s ? s : "(null)", (int)b);
        }
        const char *n = (const char *)1;
        printf("unknown %d %d\n", (int)cuGetErrorName((CUresult)5000, &n), n == nullptr);
        return 0;
    }
    int count = -1, v = -1;
    CUdevice d = -1;
    P("count_before_init", cuDeviceGetCount(&count));
    P("version_before_init", cuDriverGetVersion(&v));
    printf("version_positive %d\n", v >= 13000);
    P("init_flags1", cuInit(1));
    P("init", cuInit(0));
    P("init_again", cuInit(0));
    P("version_null", cuDriverGetVersion(nullptr));
    P("count", cuDeviceGetCount(&count));
    printf("count_value %d\n", count);
    P("count_null", cuDeviceGetCount(nullptr));
    P("get0", cuDeviceGet(&d, 0));
    printf("device %d\n", (int)d);
    CUdevice d1;
    P("get1", cuDeviceGet(&d1, 1));
    P("get_neg", cuDeviceGet(&d1, -1));
    char name[256] = "";
    P("name", cuDeviceGetName(name, sizeof name, d));
    printf("name_value %s\n", name);
    P("name_bad_device", cuDeviceGetName(name, sizeof name, 5));
    size_t mem = 0;
    P("totalmem", cuDeviceTotalMem(&mem, d));
    printf("totalmem_gib %d\n", (int)(mem >> 30));
    for (int a = 0; a <= (int)CU_DEVICE_ATTRIBUTE_MAX + 1; a++) {
        int val = -7;
        CUresult r = cuDeviceGetAttribute(&val, (CUdevice_attribute)a, d);
        printf("attr %d %d %d\n", a, (int)r, r == CUDA_SUCCESS ? val : -7);
    }
    int val;
    P("attr_bad_device", cuDeviceGetAttribute(&val, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 3));
    P("attr_null", cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, d));

    CUcontext cur = (CUcontext)1, prim = nullptr, cur2 = nullptr;
    P("ctx_current_before", cuCtxGetCurrent(&cur));
    printf("ctx_current_before_null %d\n", cur == nullptr);
    unsigned flags = 99;
    int active = 99;
    P("primary_state", cuDevicePrimaryCtxGetState(d, &flags, &active));
    printf("primary_state_value %u %d\n", flags, active);
    P("primary_retain", cuDevicePrimaryCtxRetain(&prim, d));
    printf("primary_nonnull %d\n", prim != nullptr);
    P("primary_state2", cuDevicePrimaryCtxGetState(d, &flags, &active));
    printf("primary_state2_value %u %d\n", flags, active);
    P("ctx_set", cuCtxSetCurrent(prim));
    P("ctx_current", cuCtxGetCurrent(&cur2));
    printf("ctx_current_is_primary %d\n", cur2 == prim);
    CUdevice cd = -1;
    P("ctx_device", cuCtxGetDevice(&cd));
    printf("ctx_device_value %d\n", (int)cd);
    unsigned api = 0;
    P("ctx_api_version", cuCtxGetApiVersion(prim, &api));
    printf("ctx_api_version_value %u\n", api);
    P("ctx_sync", cuCtxSynchronize());

    void *fn = nullptr;
    CUdriverProcAddressQueryResult q = (CUdriverProcAddressQueryResult)9;
    P("proc_tiled", cuGetProcAddress("cuTensorMapEncodeTiled", &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    printf("proc_tiled_value %d %d\n", (int)q, fn != nullptr);
    P("proc_tiled_11080", cuGetProcAddress("cuTensorMapEncodeTiled", &fn, 11080, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    printf("proc_tiled_11080_value %d %d\n", (int)q, fn != nullptr);
    P("proc_none", cuGetProcAddress("cuNoSuchFunction", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    printf("proc_none_value %d %d\n", (int)q, fn != nullptr);
    P("proc_init", cuGetProcAddress("cuInit", &fn, 2000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    printf("proc_init_is_cuInit %d %d\n", (int)q, fn == (void *)&cuInit);
    P("proc_attr", cuGetProcAddress("cuDeviceGetAttribute", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    int warp = 0;
    if (fn)
        ((PFN_cuDeviceGetAttribute_v2000)fn)(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, d);
    printf("proc_attr_warp %d\n", warp);
    P("proc_totalmem_3020", cuGetProcAddress("cuDeviceTotalMem", &fn, 3020, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    printf("proc_totalmem_is_v2 %d\n", fn == (void *)&cuDeviceTotalMem_v2);
    P("proc_release_11000", cuGetProcAddress("cuDevicePrimaryCtxRelease", &fn, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    printf("proc_release_is_v2 %d\n", fn == (void *)&cuDevicePrimaryCtxRelease_v2);
    P("proc_flags8", cuGetProcAddress("cuInit", &fn, 13000, 8, &q));
    // (a NULL pfn crashes the H200's driver 580.159.04: not asked)

    const char *s = nullptr;
    P("errname", cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s));
    printf("errname_value %s\n", s);
    P("errstring", cuGetErrorString(CUDA_ERROR_NOT_INITIALIZED, &s));
    printf("errstring_value %s\n", s);

    int *a, h[32];
    cudaMalloc(&a, sizeof h);
    fill<<<1, 32>>>(a);
    cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += h[i] != i * 3;
    printf("kernel %s\n", bad ? "FAIL" : "PASS");
    P("ctx_current_after_runtime", cuCtxGetCurrent(&cur2));
    printf("ctx_current_after_runtime_is_primary %d\n", cur2 == prim);
    if (!strcmp(mode, "refused")) {
        CUdeviceptr p;
        CUresult r = cuMemAllocManaged(&p, 1024, CU_MEM_ATTACH_GLOBAL);
        printf("refused returned %d\n", (int)r);
    }
    P("primary_release", cuDevicePrimaryCtxRelease(d));
    printf("done\n");
    return 0;
}
