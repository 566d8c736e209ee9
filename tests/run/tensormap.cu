// tensormap.cu: a program that builds tensor maps through the runtime's driver entry points, as
// CUTLASS and fast.cu do (cudaGetDriverEntryPointByVersion, no -lcuda), and prints what each
// cuTensorMapEncodeTiled / Im2col call returns: one line per case, "name rc". Run on an H200 it
// recorded tests/run/h200-tensormap.txt; test_run.c checks smemlab run prints the same lines.
// Every case changes one field of a valid map (a 2-D FLOAT16 tensor of 1000 x 500, rows of 2048
// bytes, a 64 x 32 box, 128B swizzle) or of a valid im2col map (NHWC 8 x 32 x 32 x 64 FLOAT16).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" // cudaGetDriverEntryPoint: programs still call it
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

static PFN_cuTensorMapEncodeTiled_v12000 tiled;
static PFN_cuTensorMapEncodeIm2col_v12000 im2col;
static char *dev;

struct T {
    CUtensorMapDataType dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    cuuint32_t rank = 2;
    size_t off = 0;
    cuuint64_t dim[5] = {1000, 500, 4, 4, 4};
    cuuint64_t stride[4] = {2048, 2048 * 500, 2048 * 500 * 4, 2048ull * 500 * 16};
    cuuint32_t box[5] = {64, 32, 1, 1, 1};
    cuuint32_t es[5] = {1, 1, 1, 1, 1};
    CUtensorMapInterleave il = CU_TENSOR_MAP_INTERLEAVE_NONE;
    CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_128B;
    CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
    CUtensorMapFloatOOBfill oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
    size_t mapoff = 0;
    void *addr = nullptr; // overrides dev + off when set
};

static unsigned char mapbuf[512] __attribute__((aligned(128)));

static void tile(const char *name, const T &t)
{
    CUtensorMap *m = (CUtensorMap *)(mapbuf + 128 + t.mapoff);
    CUresult r = tiled(m, t.dt, t.rank, t.addr ? t.addr : dev + t.off, t.dim, t.stride, t.box,
                       t.es, t.il, t.sw, t.l2, t.oob);
    printf("%s %d\n", name, (int)r);
}

struct I {
    CUtensorMapDataType dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    cuuint32_t rank = 4;
    cuuint64_t dim[5] = {64, 32, 32, 8, 2};
    cuuint64_t stride[4] = {128, 128 * 32, 128 * 32 * 32, 128ull * 32 * 32 * 8};
    int lo[3] = {-1, -1, -1}, hi[3] = {-1, -1, -1};
    cuuint32_t ch = 64, px = 128;
    cuuint32_t es[5] = {1, 1, 1, 1, 1};
    CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_128B;
    CUtensorMapFloatOOBfill oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

static void i2c(const char *name, const I &t)
{
    CUtensorMap m;
    CUresult r = im2col(&m, t.dt, t.rank, dev, t.dim, t.stride, t.lo, t.hi, t.ch, t.px, t.es,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, t.sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, t.oob);
    printf("%s %d\n", name, (int)r);
}

int main()
{
    setvbuf(stdout, nullptr, _IONBF, 0); // every line out before a crash
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                     cudaEnableDefault, &q);
    printf("entry cuTensorMapEncodeTiled@12000 %d %d %d\n", (int)e, (int)q, fn != nullptr);
    tiled = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &fn, 12000, cudaEnableDefault, &q);
    printf("entry cuTensorMapEncodeIm2col@12000 %d %d %d\n", (int)e, (int)q, fn != nullptr);
    im2col = (PFN_cuTensorMapEncodeIm2col_v12000)fn;
    if (!tiled || !im2col)
        return 1;
    fn = (void *)1;
    e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 11080, cudaEnableDefault, &q);
    printf("entry cuTensorMapEncodeTiled@11080 %d %d %d\n", (int)e, (int)q, fn != nullptr);
    fn = (void *)1;
    e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000, cudaEnableDefault, &q);
    printf("entry cuNoSuchFunction@13000 %d %d %d\n", (int)e, (int)q, fn != nullptr);
    e = cudaGetDriverEntryPointByVersion("cuGetProcAddress", &fn, 12000, cudaEnableDefault, &q);
    printf("entry cuGetProcAddress@12000 %d %d %d\n", (int)e, (int)q, fn != nullptr);
    e = cudaGetDriverEntryPointByVersion("cuDeviceGetAttribute", &fn, 13000, 4, &q);
    printf("entry flags4 %d\n", (int)e);
    // (a NULL funcPtr crashes CUDA 13's libcudart on the H200: not asked)
    e = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &q);
    printf("entry legacy %d %d %d\n", (int)e, (int)q, fn == (void *)tiled);
    cudaGetLastError();

    cudaMalloc(&dev, 64 << 20);
    T t;
    tile("ok", t);
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; tile("ok_sw_none", a); }
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_32B; a.box[0] = 16; tile("ok_sw32_box16", a); }
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_64B; a.box[0] = 32; tile("ok_sw64_box32", a); }
    { T a; a.box[0] = 32; tile("ok_sw128_box32", a); }
    { T a; a.rank = 5; a.box[2] = 2; a.box[3] = 2; a.box[4] = 2; tile("ok_rank5", a); }
    { T a; a.rank = 1; a.box[0] = 256; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; a.dim[0] = 1ull << 32; tile("ok_dim_2^32", a); }
    { T a; a.dim[0] = 8; tile("ok_box_past_tensor", a); }
    { T a; a.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; tile("ok_oob_nan_fp16", a); }
    { T a; a.rank = 0; tile("rank0", a); }
    { T a; a.rank = 6; tile("rank6", a); }
    { T a; a.dt = (CUtensorMapDataType)16; tile("dtype16", a); }
    { T a; a.off = 8; tile("addr_plus8", a); }
    { T a; a.off = 16; tile("ok_addr_plus16", a); }
    { T a; a.addr = (void *)0; tile("addr_null", a); }
    { T a; static char host[1 << 20] __attribute__((aligned(256))); a.addr = host; tile("addr_host", a); }
    { T a; a.dim[1] = 0; tile("dim1_0", a); }
    { T a; a.rank = 1; a.box[0] = 256; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; a.dim[0] = (1ull << 32) + 1; tile("dim0_2^32+1", a); }
    { T a; a.stride[0] = 2056; tile("stride_2056", a); }
    { T a; a.stride[0] = 1ull << 40; tile("stride_2^40", a); }
    { T a; a.stride[0] = (1ull << 40) - 16; tile("ok_stride_2^40-16", a); }
    { T a; a.stride[0] = 16; tile("stride_16_below_row", a); }
    { T a; a.stride[0] = 0; tile("stride_0", a); }
    { T a; a.box[1] = 257; tile("box1_257", a); }
    { T a; a.box[1] = 0; tile("box1_0", a); }
    { T a; a.box[0] = 4; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; tile("box0_8bytes", a); }
    { T a; a.box[0] = 24; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; tile("box0_48bytes", a); }
    { T a; a.es[0] = 0; tile("es0_0", a); }
    { T a; a.es[0] = 9; tile("es0_9", a); }
    { T a; a.es[1] = 0; tile("es1_0", a); }
    { T a; a.es[1] = 8; tile("ok_es1_8", a); }
    { T a; a.es[1] = 9; tile("es1_9", a); }
    { T a; a.es[1] = 3; a.box[1] = 31; tile("ok_es1_3_box31", a); }
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B; tile("sw4_atom32", a); }
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B; tile("sw5_flip", a); }
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B; tile("sw6_atom64", a); }
    { T a; a.sw = (CUtensorMapSwizzle)7; tile("sw7", a); }
    { T a; a.box[0] = 128; tile("sw128_box256bytes", a); }
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_64B; tile("sw64_box128bytes", a); }
    { T a; a.sw = CU_TENSOR_MAP_SWIZZLE_32B; a.box[0] = 32; tile("sw32_box64bytes", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_16B; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; a.box[0] = 8; tile("ok_il16_rank3", a); }
    { T a; a.il = CU_TENSOR_MAP_INTERLEAVE_16B; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; a.box[0] = 8; tile("il16_rank2", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B; a.sw = CU_TENSOR_MAP_SWIZZLE_32B; a.box[0] = 16; tile("ok_il32_sw32", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B; a.sw = CU_TENSOR_MAP_SWIZZLE_128B; a.box[0] = 16; tile("il32_sw128", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B; a.sw = CU_TENSOR_MAP_SWIZZLE_32B; a.box[0] = 16; a.off = 16; tile("il32_addr16", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_32B; a.sw = CU_TENSOR_MAP_SWIZZLE_32B; a.box[0] = 16; a.stride[0] = 2064; tile("il32_stride2064", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_16B; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; a.box[0] = 4; tile("il16_box0_8bytes", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_16B; a.sw = CU_TENSOR_MAP_SWIZZLE_128B; a.box[0] = 128; tile("il16_sw128_box256bytes", a); }
    { T a; a.rank = 3; a.il = CU_TENSOR_MAP_INTERLEAVE_16B; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; a.box[0] = 8; a.es[0] = 9; tile("il16_es0_9", a); }
    { T a; a.rank = 3; a.il = (CUtensorMapInterleave)3; tile("il3", a); }
    { T a; a.l2 = (CUtensorMapL2promotion)4; tile("l2_4", a); }
    { T a; a.oob = (CUtensorMapFloatOOBfill)2; tile("oob2", a); }
    { T a; a.dt = CU_TENSOR_MAP_DATA_TYPE_INT32; a.box[0] = 32; a.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; tile("oob_nan_int32", a); }
    { T a; a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B; a.dim[0] = 1024; a.box[0] = 128; tile("ok_u4x16_a16", a); }
    { T a; a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B; a.dim[0] = 1000; a.box[0] = 128; tile("u4x16_a16_dim1000", a); }
    { T a; a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B; a.dim[0] = 1024; a.box[0] = 64; tile("u4x16_a16_box64", a); }
    { T a; a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B; a.dim[0] = 1024; a.box[0] = 128; a.sw = CU_TENSOR_MAP_SWIZZLE_64B; tile("u4x16_a16_sw64", a); }
    { T a; a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B; a.dim[0] = 1024; a.box[0] = 128; a.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; tile("u4x16_a16_oob_nan", a); }
    { T a; a.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B; a.dim[0] = 999; a.box[0] = 32; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; tile("u4x16_a8_dim999", a); }
    { T a; a.mapoff = 64; tile("ok_map_align64", a); }
    { T a; a.mapoff = 32; tile("map_align32", a); }
    { T a; a.mapoff = 8; tile("map_align8", a); }

    I i;
    i2c("im2col_ok", i);
    { I a; a.rank = 3; a.dim[0] = 64; a.dim[1] = 1000; a.dim[2] = 8; a.lo[0] = -1; a.hi[0] = -1; i2c("im2col_ok_rank3", a); }
    { I a; a.rank = 2; i2c("im2col_rank2", a); }
    { I a; a.lo[1] = -129; i2c("im2col_lower_-129", a); }
    { I a; a.lo[1] = -128; i2c("im2col_ok_lower_-128", a); }
    { I a; a.hi[0] = 128; i2c("im2col_upper_128", a); }
    { I a; a.rank = 5; a.lo[2] = 16; i2c("im2col_rank5_lower16", a); }
    { I a; a.rank = 5; a.lo[2] = 15; i2c("im2col_ok_rank5_lower15", a); }
    { I a; a.lo[0] = 20; a.hi[0] = -20; i2c("im2col_empty", a); }
    { I a; a.lo[0] = 0; a.hi[0] = -31; i2c("im2col_ok_one_pixel", a); }
    { I a; a.lo[0] = 0; a.hi[0] = -32; i2c("im2col_zero_pixels", a); }
    { I a; a.ch = 257; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; i2c("im2col_channels257", a); }
    { I a; a.ch = 0; i2c("im2col_channels0", a); }
    { I a; a.px = 1025; i2c("im2col_pixels1025", a); }
    { I a; a.px = 0; i2c("im2col_pixels0", a); }
    { I a; a.ch = 128; i2c("im2col_sw128_256bytes", a); }
    { I a; a.ch = 4; a.sw = CU_TENSOR_MAP_SWIZZLE_NONE; i2c("im2col_channels_8bytes", a); }
    printf("done\n");
    return 0;
}
