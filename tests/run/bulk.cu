// bulk.cu: bulk copies (cp.async.bulk, sm_90) under `smemlab run` (tests/test_run.c runs it).
// Each block copies 1024 floats of `in` to shared memory with two bulk copies that complete
// transaction bytes on an mbarrier, reverses them through shared memory, and writes them back
// with a shared -> global bulk copy. Mode "race" reads the tile before waiting on the barrier.
// The program checks its output and prints PASS.
#include <cstdint>
#include <cstdio>
#include <cstring>

__device__ static uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__global__ void reverse_bulk(const float *in, float *out, int race)
{
    __shared__ alignas(16) float tile[1024];
    __shared__ alignas(16) float back[1024];
    __shared__ alignas(8) uint64_t bar;
    const float *src = in + blockIdx.x * 1024;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem_addr(&bar)));
        asm volatile("fence.proxy.async.shared::cta;");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 4096;" ::"r"(smem_addr(&bar)));
        for (int half = 0; half < 2; half++)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                         "[%0], [%1], 2048, [%2];"
                         ::"r"(smem_addr(tile + half * 512)), "l"(src + half * 512),
                           "r"(smem_addr(&bar)) : "memory");
    }
    float early = race ? tile[threadIdx.x] : 0.0f; // before the wait: a race with the copy
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0;\n"
                 " @!p bra W;\n}" ::"r"(smem_addr(&bar)) : "memory");
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        back[1023 - i] = tile[i] + early * 0.0f;
    asm volatile("fence.proxy.async.shared::cta;");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 4096;"
                     ::"l"(out + blockIdx.x * 1024), "r"(smem_addr(back)) : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

int main(int argc, char **argv)
{
    int race = argc > 1 && !strcmp(argv[1], "race");
    const int blocks = 4, n = blocks * 1024;
    float *h = new float[n], *d_in, *d_out;
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    reverse_bulk<<<blocks, 128>>>(d_in, d_out, race);
    cudaError_t e = cudaMemcpy(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 2;
    }
    int bad = 0;
    for (int b = 0; b < blocks; b++)
        for (int i = 0; i < 1024; i++)
            if (h[b * 1024 + i] != (float)(b * 1024 + 1023 - i) && bad++ < 5)
                printf("out[%d] = %g\n", b * 1024 + i, h[b * 1024 + i]);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
