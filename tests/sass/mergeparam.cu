// mergeparam.cu: mergelike.cu's merge_tail with the block's lengths given as parameters, so that
// `smemlab analyze --param` runs it to its end without a GPU (tests/test_sass.c). ptxas moves the
// read of lenB (line 24) above the branch of line 22 and merges it with the reads of lenA, startDA
// and startDB (read inside their branches in the PTX) into one LDS.128 that every warp executes: the census must flag lines 22, 24.
typedef unsigned int uint;

__global__ void merge_tail_p(uint *dst, uint a0, uint b0, uint la, uint lb)
{
    __shared__ uint s_key[256];
    __shared__ uint lenA, lenB, startDA, startDB;
    if (threadIdx.x == 0) {
        // mergeSort keeps startSrcA and startSrcB here too; this test reads
        // them from the parameters
        lenA = la;
        lenB = lb;
        startDA = a0 + b0;
        startDB = a0 + b0 + la;
    }
    s_key[threadIdx.x] = threadIdx.x;
    s_key[threadIdx.x + 128] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < lenA)
        dst[startDA + threadIdx.x] = s_key[threadIdx.x];
    if (threadIdx.x < lenB)
        dst[startDB + threadIdx.x] = s_key[lenA + threadIdx.x];
}
