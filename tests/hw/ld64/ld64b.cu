// ld64b.cu: LDS.64 of 32 lanes, each lane's word from a table (one launch a pattern): how the H100
// serves paired 8-byte loads with words of one bank. Prints each pattern's name in launch order.
#include <cstdio>
#include <cstring>
typedef unsigned long long u64;
__global__ void ld64(u64 *o, const int *idx)
{
    __shared__ u64 s[256];
    for (int i = threadIdx.x; i < 256; i += 32)
        s[i] = i;
    __syncwarp();
    int w = idx[threadIdx.x];
    o[threadIdx.x] = s[w];
}
int main()
{
    int *d; u64 *o;
    cudaMalloc(&d, 32 * sizeof(int));
    cudaMalloc(&o, 32 * sizeof(u64));
    int n = 0;
    char names[64][48];
    int pats[64][32];
    // g lanes a word, words cycling through k words of one bank (stride 16 words = 128 bytes)
    int gs[] = {1, 2, 4, 8, 16};
    for (int gi = 0; gi < 5; gi++)
        for (int k = 2; k <= 4; k++) {
            if (gs[gi] * k > 32 && gs[gi] != 16) continue;
            snprintf(names[n], 48, "g%d_k%d", gs[gi], k);
            for (int l = 0; l < 32; l++) pats[n][l] = ((l / gs[gi]) % k) * 16;
            n++;
        }
    // g lanes a word, two words of DISTINCT banks alternating (control)
    for (int gi = 0; gi < 5; gi++) {
        snprintf(names[n], 48, "g%d_distinct", gs[gi]);
        for (int l = 0; l < 32; l++) pats[n][l] = ((l / gs[gi]) % 2);
        n++;
    }
    // half warp 0: pairs on w0/w16 alternating; half warp 1: one word w1
    snprintf(names[n], 48, "h0_g2k2_h1_one");
    for (int l = 0; l < 32; l++) pats[n][l] = l < 16 ? ((l / 2) % 2) * 16 : 1;
    n++;
    // pairs: first 8 pairs w0, next 8 pairs w16 (a word a half warp, pairs)
    snprintf(names[n], 48, "g2_halves");
    for (int l = 0; l < 32; l++) pats[n][l] = l < 16 ? 0 : 16;
    n++;
    // pairs on distinct words, two of them in one bank (w0, w16), the rest distinct banks
    snprintf(names[n], 48, "g2_one_clash");
    for (int l = 0; l < 32; l++) pats[n][l] = (l / 2) == 1 ? 16 : (l / 2);
    n++;
    // quads (g4) on distinct words, one clash
    snprintf(names[n], 48, "g4_one_clash");
    for (int l = 0; l < 32; l++) pats[n][l] = (l / 4) == 1 ? 16 : (l / 4);
    n++;
    for (int i = 0; i < n; i++) {
        cudaMemcpy(d, pats[i], sizeof pats[i], cudaMemcpyHostToDevice);
        ld64<<<1, 32>>>(o, d);
        cudaDeviceSynchronize();
        printf("%d %s", i, names[i]);
        for (int l = 0; l < 32; l++) printf(" %d", pats[i][l]);
        printf("\n");
    }
    return 0;
}
