// cutlass_host.cu: the host calls CUTLASS's Hopper examples make beyond the runtime's basics (issue
// 29; bench/programs/cutlass.txt), each answer printed for tests/test_run.c:
//  - cudaOccupancyMaxActiveClusters as kernel_hardware_info.h asks it (the cluster shape, no
//    dynamic shared memory from CUTLASS; here dynamic shared memory keeps one block an SM, as
//    CUTLASS's 168 registers x 384 threads do): clusters of 2 and 8 -> 66 and 15 (the H200's,
//    tests/run/h200-cluster.txt, occ_big_200k_c2 / _c8);
//  - cudaLaunchKernelExC with ClusterDimension, PreferredClusterDimension and
//    ProgrammaticStreamSerialization, as cutlass/cluster_launch.hpp launches (every block runs);
//  - cuMemsetD32Async after cudaMalloc without cuInit (cutlass/workspace.h fill_workspace):
//    the runtime has initialised the driver.
// With the argument "unmeasured": a configuration the H200 was not measured in (3 blocks an SM),
// which smemlab run stops, named.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void mark(int *a)
{
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        a[blockIdx.x] += 1 + s[0];
}

static int clusters(unsigned c, size_t smem)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cfg.gridDim = dim3(c, 1, 1);
    cfg.blockDim = dim3(384, 1, 1);
    cfg.dynamicSmemBytes = smem;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = c;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&n, mark, &cfg);
    printf("clusters_c%u %d %d\n", c, (int)e, n);
    return e == cudaSuccess;
}

int main(int argc, char **argv)
{
    int ok = 1;
    int *dev = nullptr;
    cudaMalloc(&dev, 64 * sizeof(int));
    cudaMemset(dev, 0, 64 * sizeof(int));
    ok &= cudaFuncSetAttribute(mark, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024) == cudaSuccess;
    if (argc > 1 && !strcmp(argv[1], "unmeasured")) {
        clusters(4, 64 * 1024); // 3 blocks an SM
        return 0;
    }
    ok &= clusters(2, 200 * 1024);
    ok &= clusters(8, 200 * 1024);

    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[3];
    cfg.gridDim = dim3(8, 1, 1);
    cfg.blockDim = dim3(128, 1, 1);
    cfg.dynamicSmemBytes = 1024;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 2;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    at[1].id = cudaLaunchAttributePreferredClusterDimension;
    at[1].val.preferredClusterDim.x = 4;
    at[1].val.preferredClusterDim.y = 1;
    at[1].val.preferredClusterDim.z = 1;
    at[2].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[2].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = at;
    cfg.numAttrs = 3;
    void *args[] = {&dev};
    cudaError_t e = cudaLaunchKernelExC(&cfg, (const void *)mark, args);
    cudaError_t l = cudaGetLastError();
    cudaDeviceSynchronize();
    int h[8] = {0}, ran = 0;
    cudaMemcpy(h, dev, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++)
        ran += h[i] == 1;
    printf("launch_ex %d %d ran %d\n", (int)e, (int)l, ran);
    ok &= e == cudaSuccess && ran == 8;

    CUresult r = cuMemsetD32Async((CUdeviceptr)dev, 7u, 4, 0);
    cudaDeviceSynchronize();
    cudaMemcpy(h, dev, 4 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("memset_d32 %d %d %d %d\n", (int)r, h[0], h[1], h[3]);
    ok &= r == CUDA_SUCCESS && h[0] == 7 && h[3] == 7;
    cudaFree(dev);
    printf("cutlass_host %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
