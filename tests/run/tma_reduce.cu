// tma_reduce.cu: TMA tensor reductions (cp.reduce.async.bulk.tensor.2d.global.shared::cta.<op>
// .tile.bulk_group), self-checking (tests/test_tma.c runs it under `smemlab run`). Several
// blocks reduce a box of their shared memory into the same tile of a 2D tensor, the box partly
// past the tensor's edges (those elements skipped): an f32 add through a 128-byte swizzled map
// (each block writes its box where the swizzle puts it), s32 min / max and u32 min / max
// (values of both signs), u32 and / or / xor, u32 inc / dec. The host computes what the tensor
// must hold (block after block; the values make the order irrelevant) and prints, per case, a
// checksum of the tensor and "ok" or "WRONG", then PASS or FAIL. Argument "bad": an f32 min,
// which the PTX ISA does not have (smemlab stops it, located; not run on a GPU).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

enum { ADD, MIN, MAX, AND, OR, XOR, INC, DEC };
static const char *const opname[] = {"add", "min", "max", "and", "or", "xor", "inc", "dec"};

#define RED(OP)                                                                                        \
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." OP ".tile.bulk_group"           \
                 " [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(src) : "memory")

__device__ static void reduce(uint64_t m, int c0, int c1, uint32_t src, int op)
{
    switch (op) {
    case ADD: RED("add"); break;
    case MIN: RED("min"); break;
    case MAX: RED("max"); break;
    case AND: RED("and"); break;
    case OR: RED("or"); break;
    case XOR: RED("xor"); break;
    case INC: RED("inc"); break;
    default: RED("dec"); break;
    }
}

// block b's value of box element (r, c): kind 0 f32, 1 signed, 2 unsigned, 3 bits, 4 small bounds
__host__ __device__ static uint32_t val(int kind, int b, int r, int c)
{
    if (kind == 0) {
        float f = 0.25f * (float)((b + 1) * ((r * 5 + c * 3) % 11 - 5));
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint32_t h = (uint32_t)(b * 977 + r * 131 + c * 17 + 7) * 2654435761u;
    if (kind == 1 || kind == 2)
        return h >> (b % 3 * 4); // both signs, several magnitudes
    if (kind == 3)
        return h;
    return (uint32_t)((b + r + c) % 5 + 2); // inc / dec bounds
}

// bx x by elements (4 bytes) at box origin (c0, c1); sw: 128-byte swizzle (rows of 128 bytes)
__global__ void __launch_bounds__(128) red2d(const __grid_constant__ CUtensorMap map, int op, int kind,
                                             int c0, int c1, int bx, int by, int sw)
{
    __shared__ alignas(1024) uint32_t s[32 * 16];
    for (int i = threadIdx.x; i < bx * by; i += blockDim.x) {
        int r = i / bx, c = i % bx;
        uint32_t byte = (uint32_t)(r * bx + c) * 4;
        if (sw)
            byte ^= ((byte >> 7) & 7) << 4;
        s[byte / 4] = val(kind, blockIdx.x, r, c);
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        reduce((uint64_t)&map, c0, c1, (uint32_t)__cvta_generic_to_shared(s), op);
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

static PFN_cuTensorMapEncodeTiled_v12000 encode;

static uint32_t host_op(int op, int kind, uint32_t g, uint32_t v)
{
    int32_t sg = (int32_t)g, sv = (int32_t)v;
    switch (op) {
    case ADD:
        if (kind == 0) {
            float a, b;
            memcpy(&a, &g, 4);
            memcpy(&b, &v, 4);
            a += b;
            memcpy(&g, &a, 4);
            return g;
        }
        return g + v;
    case MIN: return kind == 1 ? (uint32_t)(sv < sg ? sv : sg) : (v < g ? v : g);
    case MAX: return kind == 1 ? (uint32_t)(sv > sg ? sv : sg) : (v > g ? v : g);
    case AND: return g & v;
    case OR: return g | v;
    case XOR: return g ^ v;
    case INC: return g >= v ? 0 : g + 1;
    default: return g == 0 || g > v ? v : g - 1;
    }
}

// a cols x rows tensor of 4-byte elements, nb blocks reducing bx x by boxes at (c0, c1)
static int run_case(int op, int kind, int cols, int rows, int c0, int c1, int bx, int by, int sw, int nb)
{
    static uint32_t h[64 * 64], want[64 * 64];
    int n = cols * rows;
    for (int i = 0; i < n; i++)
        h[i] = kind == 0 ? 0x3f000000u * (uint32_t)(i % 2) // 0.0 or 0.5
               : kind == 4 ? (uint32_t)(i % 4)
                           : (uint32_t)(i * 40503u) ^ 0x5a5a5a5au;
    memcpy(want, h, sizeof(uint32_t) * n);
    for (int b = 0; b < nb; b++)
        for (int r = 0; r < by; r++)
            for (int c = 0; c < bx; c++)
                if (c0 + c < cols && c1 + r < rows) {
                    uint32_t *g = &want[(c1 + r) * cols + c0 + c];
                    *g = host_op(op, kind, *g, val(kind, b, r, c));
                }
    uint32_t *d;
    cudaMalloc(&d, sizeof(uint32_t) * n);
    cudaMemcpy(d, h, sizeof(uint32_t) * n, cudaMemcpyHostToDevice);
    CUtensorMap m;
    cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, stride[1] = {(cuuint64_t)cols * 4};
    cuuint32_t box[2] = {(cuuint32_t)bx, (cuuint32_t)by}, es[2] = {1, 1};
    CUtensorMapDataType dt = kind == 0 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                             : kind == 1 ? CU_TENSOR_MAP_DATA_TYPE_INT32 : CU_TENSOR_MAP_DATA_TYPE_UINT32;
    CUresult e = encode(&m, dt, 2, d, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                        sw ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (e != CUDA_SUCCESS) {
        printf("cuTensorMapEncodeTiled: %d\n", (int)e);
        return 0;
    }
    red2d<<<nb, 128>>>(m, op, kind, c0, c1, bx, by, sw);
    cudaError_t ce = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof(uint32_t) * n, cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (ce != cudaSuccess) {
        printf("%s: %s\n", opname[op], cudaGetErrorString(ce));
        return 0;
    }
    uint32_t sum = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        sum = sum * 31u + h[i];
        bad += h[i] != want[i];
    }
    static const char *const kn[] = {"f32", "s32", "u32", "b32", "u32"};
    printf("%s %s %dx%d tensor, %dx%d box at (%d, %d)%s, %d blocks: %08x %s\n", opname[op], kn[kind], cols,
           rows, bx, by, c0, c1, sw ? " swizzle 128B" : "", nb, sum, bad ? "WRONG" : "ok");
    return !bad;
}

int main(int argc, char **argv)
{
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || !fn) {
        printf("no cuTensorMapEncodeTiled\nFAIL\n");
        return 1;
    }
    encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    if (argc > 1 && !strcmp(argv[1], "bad")) // f32 min: not in the PTX ISA's table
        return run_case(MIN, 0, 40, 20, 0, 0, 32, 16, 1, 1) ? 0 : 1;
    int ok = 1;
    ok &= run_case(ADD, 0, 40, 20, 16, 8, 32, 16, 1, 4); // past the inner and the outer edge
    ok &= run_case(ADD, 0, 64, 32, 32, 16, 32, 16, 1, 3); // inside, swizzled
    ok &= run_case(MIN, 1, 12, 6, 4, 2, 8, 8, 0, 5);
    ok &= run_case(MAX, 1, 12, 6, 4, 2, 8, 8, 0, 5);
    ok &= run_case(MIN, 2, 12, 6, 4, 2, 8, 8, 0, 5);
    ok &= run_case(MAX, 2, 12, 6, 4, 2, 8, 8, 0, 5);
    ok &= run_case(AND, 3, 16, 4, 0, 0, 8, 4, 0, 3);
    ok &= run_case(OR, 3, 16, 4, 8, 1, 8, 4, 0, 3);
    ok &= run_case(XOR, 3, 16, 4, 4, 0, 8, 4, 0, 4);
    ok &= run_case(ADD, 2, 16, 4, 4, 0, 8, 4, 0, 6);
    ok &= run_case(INC, 4, 16, 4, 4, 0, 8, 4, 0, 1);
    ok &= run_case(DEC, 4, 16, 4, 4, 0, 8, 4, 0, 1);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
