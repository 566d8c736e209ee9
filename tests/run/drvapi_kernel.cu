// drvapi_kernel.cu: the kernel drvapi.c loads from a file (built by test_run.c as a fatbinary,
// and as an sm_90 cubin with and without its PTX beside it). Each block reverses its 128 ints
// through shared memory.
extern "C" __global__ void reverse128(int *p)
{
    __shared__ int s[128];
    int t = threadIdx.x, *q = p + blockIdx.x * 128;
    s[t] = q[t];
    __syncthreads();
    q[t] = s[127 - t] + 1;
}
