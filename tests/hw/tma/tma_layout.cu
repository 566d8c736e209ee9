// tma_layout.cu: where a TMA tiled load (cp.async.bulk.tensor.2d) puts each element of its box in
// shared memory, under each swizzle mode, for inner boxes narrower than the swizzle span, for
// destinations off the 1024-byte pattern boundary, with element strides and with boxes partly
// outside the tensor. The tensor is 2-D UINT16, 256 columns x 64 rows, element (r, c) holding
// r * 256 + c + 1; shared memory is filled with 0xffff first. For each case one line
// "case sw box0 box1 es1 dstoff c0 c1 rc" and one line of the 1024 16-bit words from the
// 1024-aligned base (hex). Needs an sm_90 GPU. `tma_layout N` runs case N alone (0, 1, ...;
// "end" past the last): run each in its own process, e.g.
//   for i in $(seq 0 80); do ./tma_layout $i || break; done
// because its first run on an H200 (driver 580.159.04, 2026-11-29, all cases in one process)
// stopped at the first box partly past the tensor's end (case 0 8 4 1 0 250 60: "an illegal
// instruction was encountered", every later launch failing). Run one case a process on the H200
// the same day: tests/run/h200-tma-layout.txt.gz (78 cases; every box at column 250 or -3 stops
// with that error, the others land as src/model/tensormap.c places them: rows of the swizzle's
// span whatever the inner box), replayed by tests/test_tma.c.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

__global__ void load(const __grid_constant__ CUtensorMap tm, int c0, int c1, unsigned dstoff,
                     unsigned nbytes, unsigned short *out)
{
    extern __shared__ unsigned char raw[];
    __shared__ alignas(8) uint64_t bar;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(raw);
    uint32_t a = (base + 1023) & ~1023u;
    unsigned short *s = (unsigned short *)(raw + (a - base));
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = 0xffff;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(nbytes)
                     : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(a + dstoff),
                     "l"((uint64_t)&tm), "r"(c0), "r"(c1), "r"(b)
                     : "memory");
    }
    uint32_t done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(b)
                     : "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        out[i] = s[i];
}

static PFN_cuTensorMapEncodeTiled_v12000 encode;
static unsigned short *tensor, *out;

static int only = -1, index_ = 0;

static void run(unsigned sw, unsigned box0, unsigned box1, unsigned es1, unsigned dstoff, int c0,
                int c1)
{
    if (only >= 0 && index_++ != only)
        return;
    CUtensorMap m;
    cuuint64_t dim[2] = {256, 64}, stride[1] = {512};
    cuuint32_t box[2] = {box0, box1}, es[2] = {1, es1};
    CUresult r = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, tensor, dim, stride, box, es,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)sw,
                        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    printf("case %u %u %u %u %u %d %d %d\n", sw, box0, box1, es1, dstoff, c0, c1, (int)r);
    static unsigned short h[1024];
    for (int i = 0; i < 1024; i++)
        h[i] = 0xeeee;
    if (r == CUDA_SUCCESS) {
        unsigned rows = (box1 + es1 - 1) / es1;
        cudaMemset(out, 0, 2048);
        load<<<1, 128, 4096>>>(m, c0, c1, dstoff, box0 * rows * 2, out);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("error %s\n", cudaGetErrorString(e));
            return;
        }
        cudaMemcpy(h, out, 2048, cudaMemcpyDeviceToHost);
    }
    for (int i = 0; i < 1024; i++)
        printf("%04x%c", h[i], i == 1023 ? '\n' : ' ');
}

int main(int argc, char **argv)
{
    if (argc > 1)
        only = atoi(argv[1]);
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    if (!encode)
        return 1;
    static unsigned short h[256 * 64];
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < 256; c++)
            h[r * 256 + c] = (unsigned short)(r * 256 + c + 1);
    cudaMalloc(&tensor, sizeof h);
    cudaMalloc(&out, 2048);
    cudaMemcpy(tensor, h, sizeof h, cudaMemcpyHostToDevice);
    cudaFuncSetAttribute(load, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096);
    static const unsigned spans[4] = {256, 32, 64, 128}; // none: any inner box up to 256 bytes
    for (unsigned sw = 0; sw <= 3; sw++)
        for (unsigned bytes = 16; bytes <= spans[sw] && bytes <= 128; bytes *= 2) {
            unsigned box0 = bytes / 2, box1 = 1024 / bytes < 16 ? 1024 / bytes : 16;
            if (box1 * bytes > 1024)
                box1 = 1024 / bytes;
            run(sw, box0, box1 / 2, 1, 0, 8, 3);    // a box at (8, 3), dst on the boundary
            run(sw, box0, box1 / 2, 1, 128, 8, 3);  // dst 128 bytes past it
            run(sw, box0, box1 / 2, 1, 384, 8, 3);  // 384
            run(sw, box0, box1 / 2, 1, 0, 250, 60); // partly past both ends
            run(sw, box0, box1 / 2, 1, 0, -3, -2);  // partly before both
            run(sw, box0, box1 / 2, 2, 0, 0, 0);    // every second row
        }
    if (only >= 0 && only >= index_) {
        printf("end\n");
        return 1;
    }
    printf("done\n");
    return 0;
}
