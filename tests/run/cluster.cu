// cluster.cu: launches with thread-block clusters as the runtime API takes them
// (cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension, __cluster_dims__,
// cudaFuncSetAttribute for non-portable sizes and required cluster dimensions,
// cudaOccupancyMaxActiveClusters / MaxPotentialClusterSize), one line per answer: the error each
// launch returns and whether every block ran. Run on an H200 it recorded tests/run/h200-cluster.txt;
// test_run.c checks smemlab run --device h200 prints the same lines.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void mark(int *a)
{
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0)
        a[b] += 1;
}

__global__ void __cluster_dims__(2, 1, 1) pairs(int *a)
{
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0)
        a[b] += 1;
}

__global__ void big(int *a)
{
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        a[blockIdx.x] += s[1];
}

static int *dev;

// every block of the grid ran exactly once: 1, else 0
static int ran(unsigned n)
{
    static int h[4096];
    cudaMemcpy(h, dev, n * sizeof(int), cudaMemcpyDeviceToHost);
    int ok = 1;
    for (unsigned i = 0; i < n; i++)
        ok &= h[i] == 1;
    cudaMemset(dev, 0, 4096 * sizeof(int));
    return ok;
}

template <typename K>
static void ex(const char *name, K k, dim3 grid, dim3 block, unsigned cx, unsigned cy, unsigned cz)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cfg.gridDim = grid;
    cfg.blockDim = block;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cx;
    at[0].val.clusterDim.y = cy;
    at[0].val.clusterDim.z = cz;
    cfg.attrs = at;
    cfg.numAttrs = cx ? 1 : 0;
    cudaError_t e = cudaLaunchKernelEx(&cfg, k, dev);
    cudaError_t l = cudaGetLastError();
    cudaDeviceSynchronize();
    printf("%s %d %d ran %d\n", name, (int)e, (int)l, ran(grid.x * grid.y * grid.z));
}

template <typename K>
static void occ(const char *name, K k, unsigned block, size_t smem, unsigned cx)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cfg.gridDim = dim3(cx * 16, 1, 1);
    cfg.blockDim = dim3(block, 1, 1);
    cfg.dynamicSmemBytes = smem;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cx;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&n, k, &cfg);
    cudaGetLastError();
    printf("%s %d %d\n", name, (int)e, n);
}

int main()
{
    cudaMalloc(&dev, 4096 * sizeof(int));
    cudaMemset(dev, 0, 4096 * sizeof(int));
    int v = 0;
    cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0);
    printf("attr_cluster_launch %d\n", v);

    ex("no_cluster", mark, dim3(8), dim3(64), 0, 0, 0);
    ex("c2_g8", mark, dim3(8), dim3(64), 2, 1, 1);
    ex("c1_g7", mark, dim3(7), dim3(64), 1, 1, 1);
    ex("c2_g7", mark, dim3(7), dim3(64), 2, 1, 1);
    ex("c3_g9", mark, dim3(9), dim3(64), 3, 1, 1);
    ex("c2x2_g4x4", mark, dim3(4, 4), dim3(64), 2, 2, 1);
    ex("c2x2_g4x3", mark, dim3(4, 3), dim3(64), 2, 2, 1);
    ex("c1x1x2_g2x2x4", mark, dim3(2, 2, 4), dim3(64), 1, 1, 2);
    ex("c0_g8", mark, dim3(8), dim3(64), 0, 1, 1);
    ex("c2x0_g8", mark, dim3(8), dim3(64), 2, 0, 1);
    ex("c8_g16", mark, dim3(16), dim3(64), 8, 1, 1);
    ex("c4x2_g16x2", mark, dim3(16, 2), dim3(64), 4, 2, 1);
    ex("c16_g32_portable", mark, dim3(32), dim3(64), 16, 1, 1);
    ex("c9_g18_portable", mark, dim3(18), dim3(64), 9, 1, 1);
    ex("c12_g24_portable", mark, dim3(24), dim3(64), 12, 1, 1);
    cudaError_t e = cudaFuncSetAttribute(mark, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    printf("set_nonportable %d\n", (int)e);
    ex("c16_g32", mark, dim3(32), dim3(64), 16, 1, 1);
    ex("c12_g24", mark, dim3(24), dim3(64), 12, 1, 1);
    ex("c8x2_g16x2", mark, dim3(16, 2), dim3(64), 8, 2, 1);
    ex("c17_g34", mark, dim3(34), dim3(64), 17, 1, 1);
    ex("c32_g32", mark, dim3(32), dim3(64), 32, 1, 1);
    ex("c16_g32_b1024", mark, dim3(32), dim3(1024), 16, 1, 1);
    e = cudaFuncSetAttribute(mark, cudaFuncAttributeNonPortableClusterSizeAllowed, 2);
    printf("set_nonportable_2 %d\n", (int)e);
    cudaGetLastError();
    e = cudaFuncSetAttribute(mark, cudaFuncAttributeNonPortableClusterSizeAllowed, 0);
    printf("set_nonportable_0 %d\n", (int)e);
    ex("c16_g32_again_portable", mark, dim3(32), dim3(64), 16, 1, 1);

    // the kernel compiled with __cluster_dims__(2, 1, 1)
    cudaFuncAttributes fa;
    e = cudaFuncGetAttributes(&fa, pairs);
    printf("pairs_attrs %d must_be_set %d required %d %d %d nonportable %d\n", (int)e,
           fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight,
           fa.requiredClusterDepth, fa.nonPortableClusterSizeAllowed);
    e = cudaFuncGetAttributes(&fa, mark);
    printf("mark_attrs %d must_be_set %d required %d %d %d nonportable %d\n", (int)e,
           fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight,
           fa.requiredClusterDepth, fa.nonPortableClusterSizeAllowed);
    pairs<<<8, 64>>>(dev);
    e = cudaGetLastError();
    cudaDeviceSynchronize();
    printf("pairs_g8 %d ran %d\n", (int)e, ran(8));
    pairs<<<7, 64>>>(dev);
    e = cudaGetLastError();
    cudaDeviceSynchronize();
    printf("pairs_g7 %d ran %d\n", (int)e, ran(7));
    ex("pairs_ex_c2", pairs, dim3(8), dim3(64), 2, 1, 1);
    ex("pairs_ex_c4", pairs, dim3(8), dim3(64), 4, 1, 1);
    ex("pairs_ex_c1", pairs, dim3(8), dim3(64), 1, 1, 1);
    e = cudaFuncSetAttribute(pairs, cudaFuncAttributeRequiredClusterWidth, 4);
    printf("pairs_set_width %d\n", (int)e);
    cudaGetLastError();

    // required cluster dimensions set at run time
    e = cudaFuncSetAttribute(big, cudaFuncAttributeRequiredClusterWidth, 4);
    printf("set_width4 %d\n", (int)e);
    cudaGetLastError();
    e = cudaFuncSetAttribute(big, cudaFuncAttributeRequiredClusterHeight, 1);
    printf("set_height1 %d\n", (int)e);
    cudaGetLastError();
    e = cudaFuncSetAttribute(big, cudaFuncAttributeRequiredClusterDepth, 1);
    printf("set_depth1 %d\n", (int)e);
    cudaGetLastError();
    e = cudaFuncGetAttributes(&fa, big);
    printf("big_attrs %d must_be_set %d required %d %d %d\n", (int)e, fa.clusterDimMustBeSet,
           fa.requiredClusterWidth, fa.requiredClusterHeight, fa.requiredClusterDepth);
    big<<<8, 64, 256>>>(dev);
    e = cudaGetLastError();
    cudaDeviceSynchronize();
    printf("big_g8 %d ran %d\n", (int)e, ran(8));
    big<<<6, 64, 256>>>(dev);
    e = cudaGetLastError();
    cudaDeviceSynchronize();
    printf("big_g6 %d ran %d\n", (int)e, ran(6));
    e = cudaFuncSetAttribute(big, cudaFuncAttributeClusterDimMustBeSet, 1);
    printf("set_must_be_set %d\n", (int)e);
    cudaGetLastError();
    e = cudaFuncSetAttribute(big, cudaFuncAttributeRequiredClusterWidth, 0);
    printf("set_width0 %d\n", (int)e);
    cudaGetLastError();

    // occupancy
    cudaFuncSetAttribute(mark, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
    for (unsigned c = 1; c <= 16; c++) {
        char n[64];
        snprintf(n, sizeof n, "occ_mark_b1024_c%u", c);
        occ(n, mark, 1024, 0, c);
    }
    for (unsigned c = 1; c <= 16; c++) {
        char n[64];
        snprintf(n, sizeof n, "occ_mark_b64_c%u", c);
        occ(n, mark, 64, 0, c);
    }
    for (unsigned c = 1; c <= 8; c++) {
        char n[64];
        snprintf(n, sizeof n, "occ_big_200k_c%u", c);
        occ(n, big, 128, 200 * 1024, c);
    }
    occ("occ_mark_c17", mark, 64, 0, 17);
    occ("occ_pairs_c2", pairs, 64, 0, 2);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(64);
    cfg.blockDim = dim3(128);
    int n = -1;
    e = cudaOccupancyMaxPotentialClusterSize(&n, mark, &cfg);
    printf("potential_mark %d %d\n", (int)e, n);
    cudaFuncSetAttribute(mark, cudaFuncAttributeNonPortableClusterSizeAllowed, 0);
    e = cudaOccupancyMaxPotentialClusterSize(&n, mark, &cfg);
    printf("potential_mark_portable %d %d\n", (int)e, n);
    printf("done\n");
    return 0;
}
