// mergeprog.cu: mergelike.cu's kernels as a program for `smemlab run` (tests/cli/sass_cli.sh): the
// census there reads the program's own sm_90 code from its fatbinary. Prints PASS when what
// merge_tail wrote matches a CPU reference (each block writes a part of dst of its own).
#include <cstdio>
#include "mergelike.cu"

int main()
{
    const unsigned blocks = 4, n = 4096;
    uint h_lim[4 * blocks], h_src[n], h_dst[n];
    for (unsigned i = 0; i < n; i++)
        h_src[i] = 3 * i + 1;
    for (unsigned b = 0; b < blocks; b++) { /* startA, startB, lenA, lenB */
        h_lim[4 * b + 0] = 256 * b;
        h_lim[4 * b + 1] = 256 * b;
        h_lim[4 * b + 2] = 128; /* s_key[lenA + t] is then the second half, all written */
        h_lim[4 * b + 3] = 60 + 5 * b;
    }
    uint *d_lim, *d_src, *d_dst;
    cudaMalloc(&d_lim, sizeof h_lim);
    cudaMalloc(&d_src, sizeof h_src);
    cudaMalloc(&d_dst, sizeof h_dst);
    cudaMemcpy(d_lim, h_lim, sizeof h_lim, cudaMemcpyHostToDevice);
    cudaMemcpy(d_src, h_src, sizeof h_src, cudaMemcpyHostToDevice);
    cudaMemset(d_dst, 0, sizeof h_dst);
    merge_tail<<<blocks, 128>>>(d_dst, d_src, d_lim);
    if (cudaMemcpy(h_dst, d_dst, sizeof h_dst, cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    /* block b: dst[512b + t] = src[256b + t] (t < 128), dst[512b + 128 + t] = src[1024 + 256b + t]
       (t < lenB) */
    unsigned bad = 0;
    for (unsigned b = 0; b < blocks; b++) {
        for (unsigned t = 0; t < 128; t++)
            bad += h_dst[512 * b + t] != h_src[256 * b + t];
        for (unsigned t = 0; t < h_lim[4 * b + 3]; t++)
            bad += h_dst[512 * b + 128 + t] != h_src[1024 + 256 * b + t];
    }
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
