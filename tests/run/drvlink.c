/* drvlink.c: a C program that links PTX at run time through the driver API (-lcuda), as
 * Numba-CUDA does through cuda.core when nvJitLink is absent: cuLinkCreate with log buffers,
 * cuLinkAddData (PTX text), cuLinkComplete, the image loaded with cuModuleLoadData and launched;
 * then the same PTX from a file (cuLinkAddFile, cuModuleLoadDataEx). Prints every answer, one a
 * line ("NAME RESULT ..."), the errors the driver gives for bad input among them (PTX that is not
 * PTX, a link with nothing in it, a state destroyed twice), and "drvlink PASS" when the kernels'
 * results are right. argv[1]: all (the above), two (two PTX modules in one link), lib (a library
 * input). The kernel: out[i] = 2 * in[i] through shared memory at twice the thread's index (a
 * 2-way bank conflict: 2 wavefronts a warp's request), 4 blocks of 64 threads. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int bad;

#define SAY(name, call)                                                                          \
    do {                                                                                         \
        CUresult r_ = (call);                                                                    \
        const char *s_ = "?";                                                                    \
        cuGetErrorName(r_, &s_);                                                                 \
        printf("%s %s\n", name, s_);                                                             \
        if (r_ != CUDA_SUCCESS && !strncmp(name, "ok_", 3))                                     \
            bad++;                                                                               \
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

/* runs `twice` of module m on 256 floats */
static void launch(CUmodule m, const char *name)
{
    CUfunction f;
    CUdeviceptr din, dout;
    float in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)i + 0.5f;
    SAY("ok_get_function", cuModuleGetFunction(&f, m, "twice"));
    SAY("ok_alloc", cuMemAlloc(&din, sizeof in));
    SAY("ok_alloc", cuMemAlloc(&dout, sizeof out));
    SAY("ok_copy", cuMemcpyHtoD(din, in, sizeof in));
    void *args[] = {&dout, &din};
    SAY("ok_launch", cuLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
    SAY("ok_copy", cuMemcpyDtoH(out, dout, sizeof out));
    int wrong = 0;
    for (int i = 0; i < 256; i++)
        wrong += out[i] != 2 * in[i];
    printf("%s results %s\n", name, wrong ? "WRONG" : "right");
    bad += wrong != 0;
    cuMemFree(din);
    cuMemFree(dout);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    CUcontext ctx;
    SAY("ok_init", cuInit(0));
    SAY("ok_ctx", cuDevicePrimaryCtxRetain(&ctx, 0));
    SAY("ok_set", cuCtxSetCurrent(ctx));

    static char info[4096], error[4096];
    CUjit_option opt[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                          CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[] = {info, (void *)(uintptr_t)sizeof info, error, (void *)(uintptr_t)sizeof error};
    CUlinkState s;
    void *image = NULL;
    size_t size = 0;
    SAY("ok_link_create", cuLinkCreate(4, opt, val, &s));
    if (!strcmp(mode, "two") || !strcmp(mode, "lib")) {
        SAY("ok_add", cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx, sizeof ptx, "a.ptx", 0,
                                    NULL, NULL));
        if (!strcmp(mode, "two"))
            SAY("add_second", cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx, sizeof ptx, "b.ptx",
                                            0, NULL, NULL));
        else
            SAY("add_library", cuLinkAddData(s, CU_JIT_INPUT_LIBRARY, (void *)"!<arch>\n", 9,
                                             "libx.a", 0, NULL, NULL));
        SAY("complete", cuLinkComplete(s, &image, &size));
        SAY("destroy", cuLinkDestroy(s));
        printf("drvlink %s\n", bad ? "FAIL" : "PASS");
        return 0;
    }
    SAY("ok_add_ptx", cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx, sizeof ptx, "twice.ptx", 0,
                                    NULL, NULL));
    SAY("ok_complete", cuLinkComplete(s, &image, &size));
    printf("image %s, info log %s, info size written back %s\n",
           size > 4 && !memcmp(image, "\177ELF", 4) ? "a cubin" : "not a cubin",
           info[0] ? "written" : "empty", (uintptr_t)val[1] <= sizeof info ? "yes" : "no");
    CUmodule m;
    SAY("ok_load", cuModuleLoadData(&m, image)); /* before cuLinkDestroy, which frees the image */
    SAY("ok_destroy", cuLinkDestroy(s));
    launch(m, "data");

    /* the same PTX from a file, loaded with options */
    char path[] = "/tmp/drvlinkXXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, ptx, sizeof ptx - 1) != (ssize_t)(sizeof ptx - 1))
        bad++;
    if (fd >= 0)
        close(fd);
    CUlinkState s2;
    SAY("ok_link_create", cuLinkCreate(0, NULL, NULL, &s2));
    SAY("ok_add_file", cuLinkAddFile(s2, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
    SAY("ok_complete", cuLinkComplete(s2, &image, &size));
    CUmodule m2;
    char log[256] = "unwritten";
    CUjit_option lo[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *lv[] = {log, (void *)(uintptr_t)sizeof log};
    SAY("ok_load_ex", cuModuleLoadDataEx(&m2, image, 2, lo, lv));
    SAY("ok_destroy", cuLinkDestroy(s2));
    unlink(path);
    launch(m2, "file");

    /* bad input: each an error the driver returns (and smemlab reports, with this file's line) */
    CUlinkState s3, gone;
    SAY("ok_link_create", cuLinkCreate(4, opt, val, &s3));
    error[0] = 0;
    SAY("add_not_ptx", cuLinkAddData(s3, CU_JIT_INPUT_PTX, (void *)"not ptx", 8, "junk.ptx", 0,
                                     NULL, NULL));
    printf("error log after not_ptx %s\n", error[0] ? "written" : "empty");
    SAY("complete_empty", cuLinkComplete(s3, &image, &size));
    SAY("ok_destroy", cuLinkDestroy(s3));
    SAY("ok_link_create", cuLinkCreate(0, NULL, NULL, &gone));
    SAY("ok_destroy", cuLinkDestroy(gone));
    printf("drvlink %s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
