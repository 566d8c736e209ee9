// zfill.cu: cp.async with src-size below the copy (zero-fill): smemlab run prices such a copy by
// what it reads and writes (src/model/matrix.c's src-size rules) instead of as a whole copy. One
// warp a kernel, one cp.async a lane (16 bytes to shared at lane * 16), the shared bytes checked
// on the host. The H100's counts: tests/run/h100-zfill.csv (tests/test_run.c).
#include <cstdio>
#include <cstring>

// mode: 0 whole copies, 1 src-size 0 (zero-fill), 2 src-size 4, 3 src-size 0 on odd lanes,
// 4 src-size 8 (argv[1] "src8": no H100 row measured it, smemlab says its cost is an estimate);
// bcast: every lane reads the same 16 global bytes; cg: .cg (else .ca)
template <int MODE, int CG>
__global__ void copy16(const unsigned char *g, int bcast, unsigned *out)
{
    __shared__ __align__(128) unsigned smem[32 * 4];
    unsigned a = (unsigned)__cvta_generic_to_shared(&smem[threadIdx.x * 4]);
    const unsigned char *src = g + (bcast ? 0 : threadIdx.x * 16);
    unsigned n = MODE == 0 ? 16 : MODE == 1 ? 0 : MODE == 2 ? 4 : MODE == 4 ? 8 : (threadIdx.x & 1) ? 0 : 16;
    if (CG)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(a), "l"(src), "r"(n) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" :: "r"(a), "l"(src), "r"(n) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncwarp();
    for (int i = 0; i < 4; i++)
        out[threadIdx.x * 4 + i] = smem[threadIdx.x * 4 + i];
}

static int check(const char *name, const unsigned char *g, const unsigned *o, int mode, int bcast)
{
    int bad = 0;
    for (int l = 0; l < 32; l++) {
        unsigned n = mode == 0 ? 16 : mode == 1 ? 0 : mode == 2 ? 4 : mode == 4 ? 8 : (l & 1) ? 0 : 16;
        const unsigned char *b = (const unsigned char *)&o[l * 4];
        for (unsigned i = 0; i < 16; i++)
            bad += b[i] != (i < n ? g[(bcast ? 0 : l * 16) + i] : 0);
    }
    if (bad)
        printf("%s: %d bytes wrong\n", name, bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    unsigned char h[512];
    for (int i = 0; i < 512; i++)
        h[i] = (unsigned char)(i * 7 + 1);
    unsigned char *g;
    unsigned *o, ho[128];
    cudaMalloc(&g, sizeof h);
    cudaMalloc(&o, sizeof ho);
    cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
    int bad = 0;
    if (argc > 1 && !strcmp(argv[1], "src8")) { // .cg src-size 8: never measured, an estimate
        copy16<4, 1><<<1, 32>>>(g, 0, o);
        cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
        bad += check("copy16<4,1>", h, ho, 4, 0);
        printf("zfill src8 %s\n", bad ? "FAIL" : "PASS");
        return bad != 0;
    }
#define CASE(M, CG, B)                                                                         \
    copy16<M, CG><<<1, 32>>>(g, B, o);                                                         \
    cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);                                      \
    bad += check("copy16<" #M "," #CG "> bcast " #B, h, ho, M, B);
    CASE(0, 0, 1) // .ca whole copies of one global 16 bytes: the sources' hub
    CASE(1, 0, 1) // the same zero-filled: destinations only
    CASE(2, 0, 1) // src-size 4
    CASE(3, 0, 0) // zero-fill on odd lanes, contiguous sources
    CASE(0, 1, 0) // .cg whole copies
    CASE(1, 1, 0) // .cg zero-fill
    printf("zfill %s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
