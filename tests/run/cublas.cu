// cublas.cu: a program linked with -lcublas -lcublasLt, as llm.c's dev/cuda programs are
// (tests/test_run.c). argv[1]:
//   handle   creates both handles, sets the math mode, stream and workspace (what llm.c's
//            setup_main does), runs its own kernel and checks it, destroys the handles: PASS
//   gemm     the same, then cublasSgemm: smemlab run stops it there, naming the call (exit 3)
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cstdio>
#include <cstring>

__global__ void twice(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= 2.0f;
}

#define CKB(x)                                                                                 \
    do {                                                                                       \
        cublasStatus_t s_ = (x);                                                               \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                     \
            printf("%s: %s\n", #x, cublasGetStatusString(s_));                                 \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "handle";
    cublasHandle_t h;
    cublasLtHandle_t lt;
    CKB(cublasCreate(&h));
    CKB(cublasLtCreate(&lt));
    CKB(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    cublasMath_t mm;
    CKB(cublasGetMathMode(h, &mm));
    cudaStream_t st;
    cudaStreamCreate(&st);
    CKB(cublasSetStream(h, st));
    float *d;
    const int n = 1000;
    cudaMalloc(&d, n * sizeof(float));
    CKB(cublasSetWorkspace(h, d, n * sizeof(float)));
    float hst[n];
    for (int i = 0; i < n; i++)
        hst[i] = (float)i;
    cudaMemcpy(d, hst, sizeof hst, cudaMemcpyHostToDevice);
    twice<<<(n + 255) / 256, 256>>>(d, n);
    cudaMemcpy(hst, d, sizeof hst, cudaMemcpyDeviceToHost);
    int bad = mm != CUBLAS_TF32_TENSOR_OP_MATH;
    for (int i = 0; i < n; i++)
        bad += hst[i] != 2.0f * i;
    if (!strcmp(mode, "gemm")) {
        float one = 1.0f, zero = 0.0f;
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, 10, 10, &one, d, 10, d, 10, &zero, d + 100,
                    10);
        printf("gemm returned\n");
    }
    CKB(cublasLtDestroy(lt));
    CKB(cublasDestroy(h));
    printf("%s %s\n", mode, bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
