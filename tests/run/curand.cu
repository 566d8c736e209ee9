// curand.cu: cuRAND's host API under smemlab run, the cases test_curand_golden's dump does not
// make. Modes: "oob": a device generator asked for more numbers than the allocation holds (the
// program stops, naming the call); "refused": a call the stand-in does not compute (stops,
// named); "errors": bad calls, each returning cuRAND's status, which the report lists as API
// errors of the call at this file's lines; "pi": a pseudo and a quasi generator estimating pi in
// a kernel of its own (the numbers in device memory as a kernel reads them).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <curand.h>

__global__ void inside(const float *xy, int n, unsigned *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = xy[i], y = xy[n + i];
        if (x * x + y * y <= 1.0f)
            atomicAdd(count, 1u);
    }
}

static int pi(curandGenerator_t g, float *d, unsigned *c, int n)
{
    cudaMemset(c, 0, sizeof *c);
    if (curandGenerateUniform(g, d, 2 * (size_t)n) != CURAND_STATUS_SUCCESS)
        return 1;
    inside<<<(n + 255) / 256, 256>>>(d, n, c);
    unsigned h = 0;
    cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
    double est = 4.0 * h / n;
    printf("pi ~ %.4f\n", est);
    return est < 3.10 || est > 3.18;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "pi";
    curandGenerator_t g;
    float *d;
    unsigned *c;
    cudaMalloc(&d, 2 * 65536 * sizeof(float));
    cudaMalloc(&c, sizeof(unsigned));
    if (!strcmp(mode, "oob")) {
        curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10);
        curandGenerateUniform(g, d, 2 * 65536 + 1); // one number past the allocation
        printf("not reached\n");
        return 0;
    }
    if (!strcmp(mode, "refused")) {
        curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MTGP32);
        curandGeneratePoisson(g, c, 1, 9000.0); // past the lambdas measured for MTGP32
        printf("not reached\n");
        return 0;
    }
    if (!strcmp(mode, "errors")) {
        int bad = 0;
        curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW);
        bad += curandGenerateNormal(g, d, 3, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE;
        bad += curandGenerateLongLong(g, (unsigned long long *)d, 4) == CURAND_STATUS_TYPE_ERROR;
        bad += curandSetQuasiRandomGeneratorDimensions(g, 2) == CURAND_STATUS_TYPE_ERROR;
        bad += curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT) ==
               CURAND_STATUS_OUT_OF_RANGE;
        curandDestroyGenerator(g);
        curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32);
        bad += curandSetQuasiRandomGeneratorDimensions(g, 20001) == CURAND_STATUS_OUT_OF_RANGE;
        curandSetQuasiRandomGeneratorDimensions(g, 3);
        bad += curandGenerateUniform(g, d, 10) == CURAND_STATUS_LENGTH_NOT_MULTIPLE;
        curandDestroyGenerator(g);
        printf("%d of 6 calls returned cuRAND's status\n", bad);
        return bad == 6 ? 0 : 1;
    }
    int fail = 0;
    curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
    curandSetPseudoRandomGeneratorSeed(g, 42);
    fail += pi(g, d, c, 65536);
    curandDestroyGenerator(g);
    curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32);
    curandSetQuasiRandomGeneratorDimensions(g, 2);
    fail += pi(g, d, c, 65536);
    curandDestroyGenerator(g);
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail;
}
