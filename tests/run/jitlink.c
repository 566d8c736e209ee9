/* jitlink.c: a C program that links PTX with nvJitLink (-lnvJitLink -lcuda), as cuda.core does for
 * Numba-CUDA: nvJitLinkCreate with -arch, nvJitLinkAddData (PTX), nvJitLinkComplete, the linked
 * cubin loaded with cuModuleLoadData and launched; bytes that are not PTX refused at
 * nvJitLinkAddData. Under `smemlab run` the nvJitLink is smemlab's stand-in
 * (build/runtime/libnvJitLink.so.13). Prints "jitlink PASS" when every answer is right. The
 * kernel: out[i] = 2 * in[i] through shared memory at twice the thread's index (a 2-way bank
 * conflict), 2 blocks of 64 threads. */
#include <cuda.h>
#include <nvJitLink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;

#define EXPECT(cond)                                                                             \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            printf("FAIL %s (line %d)\n", #cond, __LINE__);                                     \
            bad++;                                                                               \
        }                                                                                        \
    } while (0)

static const char ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry twice(.param .u64 out, .param .u64 in)\n"
    "{\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .f32 %f<3>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    .shared .align 4 .b32 tile[128];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mad.lo.u32 %r3, %r2, 64, %r1;\n"
    "    ld.param.u64 %rd1, [in];\n"
    "    mul.wide.u32 %rd2, %r3, 4;\n"
    "    add.u64 %rd3, %rd1, %rd2;\n"
    "    ld.global.f32 %f1, [%rd3];\n"
    "    mov.u32 %r4, tile;\n"
    "    shl.b32 %r5, %r1, 3;\n"
    "    add.u32 %r4, %r4, %r5;\n"
    "    st.shared.f32 [%r4], %f1;\n"
    "    bar.sync 0;\n"
    "    ld.shared.f32 %f2, [%r4];\n"
    "    add.f32 %f2, %f2, %f2;\n"
    "    ld.param.u64 %rd4, [out];\n"
    "    add.u64 %rd5, %rd4, %rd2;\n"
    "    st.global.f32 [%rd5], %f2;\n"
    "    ret;\n"
    "}\n";

int main(void)
{
    CUcontext ctx;
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    EXPECT(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS);
    EXPECT(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);

    const char *opts[] = {"-arch=sm_90"};
    nvJitLinkHandle h, junk;
    EXPECT(nvJitLinkCreate(&h, 1, opts) == NVJITLINK_SUCCESS);
    EXPECT(nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, ptx, sizeof ptx, "twice.ptx") ==
           NVJITLINK_SUCCESS);
    EXPECT(nvJitLinkComplete(h) == NVJITLINK_SUCCESS);
    size_t n = 0;
    EXPECT(nvJitLinkGetLinkedCubinSize(h, &n) == NVJITLINK_SUCCESS && n > 4);
    char *cubin = malloc(n ? n : 1);
    EXPECT(nvJitLinkGetLinkedCubin(h, cubin) == NVJITLINK_SUCCESS);
    EXPECT(!memcmp(cubin, "\177ELF", 4));
    EXPECT(nvJitLinkDestroy(&h) == NVJITLINK_SUCCESS && h == NULL);

    EXPECT(nvJitLinkCreate(&junk, 1, opts) == NVJITLINK_SUCCESS);
    EXPECT(nvJitLinkAddData(junk, NVJITLINK_INPUT_PTX, "not ptx", 8, "junk.ptx") !=
           NVJITLINK_SUCCESS);
    nvJitLinkDestroy(&junk);

    CUmodule m;
    CUfunction f;
    CUdeviceptr din, dout;
    float in[128], out[128];
    for (int i = 0; i < 128; i++)
        in[i] = (float)i - 0.25f;
    EXPECT(cuModuleLoadData(&m, cubin) == CUDA_SUCCESS);
    EXPECT(cuModuleGetFunction(&f, m, "twice") == CUDA_SUCCESS);
    EXPECT(cuMemAlloc(&din, sizeof in) == CUDA_SUCCESS);
    EXPECT(cuMemAlloc(&dout, sizeof out) == CUDA_SUCCESS);
    EXPECT(cuMemcpyHtoD(din, in, sizeof in) == CUDA_SUCCESS);
    void *args[] = {&dout, &din};
    EXPECT(cuLaunchKernel(f, 2, 1, 1, 64, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    EXPECT(cuMemcpyDtoH(out, dout, sizeof out) == CUDA_SUCCESS);
    for (int i = 0; i < 128; i++)
        EXPECT(out[i] == 2 * in[i]);
    free(cubin);
    printf("jitlink %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
