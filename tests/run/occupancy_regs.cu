// occupancy_regs.cu: cub's DeviceRadixSort sizes its histogram grid from
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, which depends on the registers ptxas gives the
// kernel. For unsigned keys and int values (the instantiation of CCCL 3.0's
// example_device_sort_find_non_trivial_runs, measured on the H100: 1,584 blocks of 128 threads,
// 12 an SM on 132 SMs; bench/programs/h100-2026-11-24-unseen5-ncu.csv, launch 0) the kernel has
// 40 registers a thread. tests/test_run.c checks the grid smemlab run records, and the sort.
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>

int main()
{
    const int n = 100000;
    static unsigned hk[n];
    static int hv[n];
    for (int i = 0; i < n; i++) {
        hk[i] = (unsigned)(i * 2654435761u) % 1000u;
        hv[i] = i;
    }
    cub::DoubleBuffer<unsigned> keys;
    cub::DoubleBuffer<int> vals;
    cudaMalloc(&keys.d_buffers[0], n * sizeof(unsigned));
    cudaMalloc(&keys.d_buffers[1], n * sizeof(unsigned));
    cudaMalloc(&vals.d_buffers[0], n * sizeof(int));
    cudaMalloc(&vals.d_buffers[1], n * sizeof(int));
    cudaMemcpy(keys.Current(), hk, sizeof hk, cudaMemcpyHostToDevice);
    cudaMemcpy(vals.Current(), hv, sizeof hv, cudaMemcpyHostToDevice);
    size_t bytes = 0;
    void *tmp = nullptr;
    cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, vals, n);
    cudaMalloc(&tmp, bytes);
    cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, vals, n);
    static unsigned ok[n];
    static int ov[n];
    cudaMemcpy(ok, keys.Current(), sizeof ok, cudaMemcpyDeviceToHost);
    cudaMemcpy(ov, vals.Current(), sizeof ov, cudaMemcpyDeviceToHost);
    int good = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < n; i++) {
        good &= hk[ov[i]] == ok[i];
        if (i)
            good &= ok[i - 1] < ok[i] || (ok[i - 1] == ok[i] && ov[i - 1] < ov[i]); /* stable */
    }
    printf("occupancy_regs %s\n", good ? "PASS" : "FAIL");
    return good ? 0 : 1;
}
