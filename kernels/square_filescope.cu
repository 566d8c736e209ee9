// square_filescope.cu: the documents' remark that a dynamic tile can be declared at file scope
// (EXPERIMENTS row 4, seeds 000 and 004): the same setRowReadColDyn as square.cu, with the
// `extern __shared__` array outside the kernel. Same code, same cost: 32-way loads, free stores.
// Launch: block 32x32, dynamic shared memory 4096 bytes.

extern __shared__ int tile[];

extern "C" __global__ void setRowReadColDyn(int *out)
{
    out += blockIdx.x * blockDim.x * blockDim.y;
    unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
    tile[row_idx] = row_idx;
    __syncthreads();
    out[row_idx] = tile[col_idx];
}
