// tma_dims.cu: TMA tiled loads of every rank (cp.async.bulk.tensor.1d .. .5d) and TMA stores of
// them back, without a swizzle and with the 32-byte one, a box partly past the tensor's end in its
// outer dimensions, self-checking (tests/test_tma.c runs it under `smemlab run`; not measured on a
// GPU: the placement it checks is the one the H200 showed for 2-D boxes, rows of the inner box, or
// of the swizzle's span, one after the other over every outer dimension, the XOR on the absolute
// address; out-of-bounds elements zero, a store writing only those inside). Prints one line a
// rank and swizzle, then PASS or FAIL.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

#define C0 8 // the box's origin
#define C1 1
#define C2 1
#define C3 0
#define C4 1
static const int DIM[5] = {16, 4, 3, 2, 2}, BOX[5] = {8, 2, 2, 2, 2}, C[5] = {C0, C1, C2, C3, C4};

template <int R>
__global__ void dims(const __grid_constant__ CUtensorMap m, const __grid_constant__ CUtensorMap mo,
                     unsigned bytes, unsigned short *out)
{
    __shared__ alignas(1024) unsigned short s[1024];
    __shared__ alignas(8) uint64_t bar;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(s), b = (uint32_t)__cvta_generic_to_shared(&bar);
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = 0xffff;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
        uint64_t a = (uint64_t)&m;
        if (R == 1)
            asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2}], [%3];" ::"r"(base), "l"(a), "r"(C0), "r"(b) : "memory");
        if (R == 2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(base), "l"(a), "r"(C0), "r"(C1), "r"(b) : "memory");
        if (R == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(base), "l"(a), "r"(C0), "r"(C1), "r"(C2),
                         "r"(b) : "memory");
        if (R == 4)
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(base), "l"(a), "r"(C0), "r"(C1),
                         "r"(C2), "r"(C3), "r"(b) : "memory");
        if (R == 5)
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(base), "l"(a), "r"(C0), "r"(C1),
                         "r"(C2), "r"(C3), "r"(C4), "r"(b) : "memory");
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
    if (threadIdx.x == 0) { // the same box back to the second tensor
        uint64_t a = (uint64_t)&mo;
        if (R == 1)
            asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];"
                         ::"l"(a), "r"(C0), "r"(base) : "memory");
        if (R == 2)
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(a), "r"(C0), "r"(C1), "r"(base) : "memory");
        if (R == 4)
            asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                         ::"l"(a), "r"(C0), "r"(C1), "r"(C2), "r"(C3), "r"(base) : "memory");
        if (R == 3)
            asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                         ::"l"(a), "r"(C0), "r"(C1), "r"(C2), "r"(base) : "memory");
        if (R == 5)
            asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
                         ::"l"(a), "r"(C0), "r"(C1), "r"(C2), "r"(C3), "r"(C4), "r"(base) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

int main()
{
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (!fn)
        return 1;
    int n = 1;
    for (int d = 0; d < 5; d++)
        n *= DIM[d];
    static unsigned short h[16 * 4 * 3 * 2 * 2], back[16 * 4 * 3 * 2 * 2];
    for (int i = 0; i < n; i++)
        h[i] = (unsigned short)(i + 1);
    unsigned short *g, *go, *out;
    cudaMalloc(&g, sizeof h);
    cudaMalloc(&go, sizeof h);
    cudaMalloc(&out, 2048);
    cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
    int ok = 1;
    for (int sw = 0; sw <= 1; sw++)
        for (int r = 1; r <= 5; r++) {
            cuuint64_t dim[5], stride[4];
            cuuint32_t box[5], es[5] = {1, 1, 1, 1, 1};
            cuuint64_t st = 2;
            for (int d = 0; d < r; d++) {
                dim[d] = DIM[d];
                box[d] = BOX[d];
                if (d)
                    stride[d - 1] = st;
                st *= DIM[d];
            }
            CUtensorMap m, mo;
            auto enc = (PFN_cuTensorMapEncodeTiled_v12000)fn;
            CUtensorMapSwizzle s = sw ? CU_TENSOR_MAP_SWIZZLE_32B : CU_TENSOR_MAP_SWIZZLE_NONE;
            if (enc(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, r, g, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    s, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS ||
                enc(&mo, CU_TENSOR_MAP_DATA_TYPE_UINT16, r, go, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    s, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
                printf("rank %d swizzle %d: encode failed\n", r, sw);
                ok = 0;
                continue;
            }
            unsigned rows = 1;
            for (int d = 1; d < r; d++)
                rows *= BOX[d];
            unsigned pitch = sw ? 32 : 16;
            cudaMemset(go, 0, sizeof h);
            void (*k)(CUtensorMap, CUtensorMap, unsigned, unsigned short *) =
                r == 1 ? dims<1> : r == 2 ? dims<2> : r == 3 ? dims<3> : r == 4 ? dims<4> : dims<5>;
            k<<<1, 64>>>(m, mo, rows * 16, out);
            if (cudaDeviceSynchronize() != cudaSuccess) {
                printf("rank %d swizzle %d: launch failed\n", r, sw);
                ok = 0;
                continue;
            }
            unsigned short o[1024];
            cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
            cudaMemcpy(back, go, sizeof back, cudaMemcpyDeviceToHost);
            int good = 1, stored = 1, inside = 0;
            static unsigned short want[1024];
            for (int i = 0; i < 1024; i++)
                want[i] = 0xffff;
            for (unsigned row = 0; row < rows; row++) {
                int e[5] = {0, 0, 0, 0, 0}, rest = (int)row, in = 1, lin = 0, mul = 1;
                for (int d = 1; d < r; d++) {
                    e[d] = rest % BOX[d];
                    rest /= BOX[d];
                }
                for (int d = 1; d < r; d++)
                    in &= C[d] + e[d] < DIM[d];
                for (int d = 0; d < r; d++) {
                    lin += (C[d] + e[d]) * mul;
                    mul *= DIM[d];
                }
                for (int x = 0; x < 8; x++) {
                    unsigned a = row * pitch + 2 * x; // the shared window is 1024-aligned
                    if (sw)
                        a ^= ((a >> 7) & 1) << 4;
                    want[a / 2] = in ? h[lin + x] : 0;
                    if (in) {
                        stored &= back[lin + x] == h[lin + x];
                        inside++;
                    }
                }
            }
            for (int i = 0; i < 1024; i++)
                good &= o[i] == want[i];
            int zeros = 0;
            for (int i = 0; i < n; i++)
                zeros += back[i] == 0;
            stored &= zeros == n - inside;
            printf("rank %d swizzle %d: %u rows, load %s, store %s\n", r, sw ? 32 : 0, rows,
                   good ? "as placed" : "differs", stored ? "back" : "differs");
            ok &= good && stored;
        }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
