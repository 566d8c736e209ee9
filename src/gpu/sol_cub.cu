// sol_cub.cu: CUB DeviceReduce::Sum behind a C entry point, built by cmake/sol.cmake into
// libsmemlab_cub.so (nvcc, CUDA runtime linked statically) and loaded by smemlab with dlopen, so
// `smemlab bench reduce` can time CUB beside our kernel in the same process and context.
#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>

// tmp == 0: *tmp_bytes receives the scratch size and nothing runs. Returns a cudaError_t.
// Launches on the legacy default stream, the one smemlab's events are recorded on.
extern "C" int smem_cub_sum_i32(uint64_t in, uint64_t out, long long n, uint64_t tmp, size_t *tmp_bytes)
{
    return (int)cub::DeviceReduce::Sum(reinterpret_cast<void *>(tmp), *tmp_bytes,
                                       reinterpret_cast<const int *>(in), reinterpret_cast<int *>(out), n);
}

extern "C" int smem_cub_sum_f32(uint64_t in, uint64_t out, long long n, uint64_t tmp, size_t *tmp_bytes)
{
    return (int)cub::DeviceReduce::Sum(reinterpret_cast<void *>(tmp), *tmp_bytes,
                                       reinterpret_cast<const float *>(in), reinterpret_cast<float *>(out), n);
}
