// launch.cu: launches every kernel of kernels.cu once (one block) for Nsight Compute to count.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include "kernels.cu"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

struct L { const char *name; void *fn; dim3 block; unsigned dyn; };

int main()
{
    void *out, *in;
    CK(cudaMalloc(&out, 1 << 24));
    CK(cudaMalloc(&in, 1 << 24));
    CK(cudaMemset(out, 0, 1 << 24));
    CK(cudaMemset(in, 0, 1 << 24));
    L ls[] = {
        {"v_dbl_tile33", (void *)v_dbl_tile33, dim3(32, 32), 0},
        {"v_dbl_halfswap", (void *)v_dbl_halfswap, dim3(32), 0},
        {"v_dbl_quarter", (void *)v_dbl_quarter, dim3(32), 0},
        {"v_f4_halfsame", (void *)v_f4_halfsame, dim3(32), 0},
        {"v_f4_stride3", (void *)v_f4_stride3, dim3(32), 0},
        {"v_f2_col", (void *)v_f2_col, dim3(16, 32), 0},
        {"v_u8_col", (void *)v_u8_col, dim3(32, 32), 0},
        {"v_u16_col", (void *)v_u16_col, dim3(32, 32), 0},
        {"v_odd_tile", (void *)v_odd_tile, dim3(24, 20), 0},
        {"v_dyn_two", (void *)v_dyn_two, dim3(64), 64 * 8 + 256 * 4},
        {"v_swizzle", (void *)v_swizzle, dim3(32, 8), 0},
        {"v_loop_stride", (void *)v_loop_stride, dim3(128), 0},
        {"v_divergent", (void *)v_divergent, dim3(64), 0},
        {"v_indirect", (void *)v_indirect, dim3(64), 0},
        {"v_struct", (void *)v_struct, dim3(64), 0},
        {"v_int4_partial", (void *)v_int4_partial, dim3(64), 0},
        {"v_sgemm16", (void *)v_sgemm16, dim3(16, 16), 0},
        {"v_warp_reduce", (void *)v_warp_reduce, dim3(1024), 0},
        {"v_hist_atomic", (void *)v_hist_atomic, dim3(256), 0},
        {"v_bcast_mix", (void *)v_bcast_mix, dim3(32), 0},
        {"v_dbl_bcast4", (void *)v_dbl_bcast4, dim3(32), 0},
        {"v_st_same_word", (void *)v_st_same_word, dim3(32), 0},
        {"v_merge_row4", (void *)v_merge_row4, dim3(32, 4), 0},
        {"v_merge_pair_odd", (void *)v_merge_pair_odd, dim3(32), 0},
        {"v_merge_pair_even", (void *)v_merge_pair_even, dim3(32), 0},
        {"v_merge_store4", (void *)v_merge_store4, dim3(32), 0},
        {"v_merge_dbl2", (void *)v_merge_dbl2, dim3(32), 0},
        {"v_merge_u16", (void *)v_merge_u16, dim3(32), 0},
        {"v_float3_struct", (void *)v_float3_struct, dim3(64), 0},
        {"v_double2_col", (void *)v_double2_col, dim3(16, 16), 0},
        {"v_char4_row", (void *)v_char4_row, dim3(32, 8), 0},
        {"v_short2_stride", (void *)v_short2_stride, dim3(64), 0},
        {"v_unroll_stencil", (void *)v_unroll_stencil, dim3(256), 0},
        {"v_unroll_row_dot", (void *)v_unroll_row_dot, dim3(64), 0},
        {"v_dyn_tile_pad", (void *)v_dyn_tile_pad, dim3(24, 24), 24 * 25 * 4},
        {"v_xor_f4", (void *)v_xor_f4, dim3(64), 0},
        {"v_loop_var_stride", (void *)v_loop_var_stride, dim3(32), 0},
        {"v_branch_lanes", (void *)v_branch_lanes, dim3(96), 0},
        {"v_perm_from_smem", (void *)v_perm_from_smem, dim3(256), 0},
        {"v_struct_mix", (void *)v_struct_mix, dim3(32), 0},
        {"v_transpose64_dbl", (void *)v_transpose64_dbl, dim3(32, 8), 0},
        {"v_half_tile", (void *)v_half_tile, dim3(64, 4), 0},
        {"v_atomic_conflict", (void *)v_atomic_conflict, dim3(128), 0},
        {"v_ld_v2_partial", (void *)v_ld_v2_partial, dim3(64), 0},
    };
    for (auto &k : ls) {
        void *args[] = {&out, &in};
        CK(cudaLaunchKernel(k.fn, dim3(1), k.block, args, k.dyn, 0));
        CK(cudaDeviceSynchronize());
        printf("launched %s\n", k.name);
    }
    return 0;
}
