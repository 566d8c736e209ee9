// legacy_shfl.h: the book predates CUDA 9's _sync shuffles, which nvcc 13 requires; these map the
// old names onto the full-warp _sync forms (what the old ones did on a converged warp).
#pragma once
#define __shfl(v, l, ...) __shfl_sync(0xffffffffu, v, l, ##__VA_ARGS__)
#define __shfl_up(v, d, ...) __shfl_up_sync(0xffffffffu, v, d, ##__VA_ARGS__)
#define __shfl_down(v, d, ...) __shfl_down_sync(0xffffffffu, v, d, ##__VA_ARGS__)
#define __shfl_xor(v, m, ...) __shfl_xor_sync(0xffffffffu, v, m, ##__VA_ARGS__)
