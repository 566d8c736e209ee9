// What walsh.cu includes before walsh_kernel.cuh (as cuda-samples' fastWalshTransform does).
#pragma once
#define TILE 32
__device__ inline int swz(int i) { return i ^ 1; }
