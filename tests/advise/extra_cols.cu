// A tile declared flat as rows times a padded row, its pad a named constant, indexed by the same
// row expression (as siboehm's SGEMM kernel 8 writes Bs[BK * (BN + extraCols)]): advise shows the
// declared shape and proposes another extraCols, not an indexing the code does not have.
// Column reads of rows of 36 words: 4-way; extraCols = 1 makes them conflict-free.
#define BK 32
#define BN 32
__global__ void transposeExtraCol(const float *in, float *out)
{
    const int extraCols = 4;
    __shared__ float Bs[BK * (BN + extraCols)];
    Bs[threadIdx.y * (BN + extraCols) + threadIdx.x] = in[threadIdx.y * BN + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * BK + threadIdx.x] = Bs[threadIdx.x * (BN + extraCols) + threadIdx.y];
}
