/* sol_peers.h (private): what a user would otherwise pick, loaded at run time: cudaMemcpy's
 * driver twin, cuBLAS geam, CUB DeviceReduce (libsmemlab_cub.so, built by cmake/sol.cmake) and the
 * torch subprocess. Each is optional except the copy; none is linked. */
#ifndef SMEMLAB_SOL_PEERS_H
#define SMEMLAB_SOL_PEERS_H

#include <stddef.h>
#include <stdint.h>

struct sol_peers {
    void *cuda_lib;
    int (*memcpy_dtod)(uint64_t dst, uint64_t src, size_t bytes, void *stream);
    void *cublas_lib, *cublas;
    int (*cublas_destroy)(void *handle);
    int (*sgeam)(void *h, int ta, int tb, int m, int n, const float *alpha, const void *a, int lda,
                 const float *beta, const void *b, int ldb, void *c, int ldc);
    int (*dgeam)(void *h, int ta, int tb, int m, int n, const double *alpha, const void *a, int lda,
                 const double *beta, const void *b, int ldb, void *c, int ldc);
    void *cub_lib;
    int (*cub_sum_i32)(uint64_t in, uint64_t out, long long n, uint64_t tmp, size_t *tmp_bytes);
    int (*cub_sum_f32)(uint64_t in, uint64_t out, long long n, uint64_t tmp, size_t *tmp_bytes);
};

/* The copy (required): 0, or -1 with a sentence in err. */
int sol_peers_open_copy(struct sol_peers *p, char *err, size_t errlen);
/* cuBLAS: 0, or -1 with the reason in err (the bench then leaves cuBLAS out). */
int sol_peers_open_cublas(struct sol_peers *p, char *err, size_t errlen);
/* CUB from the library at path: 0, or -1 with the reason in err. */
int sol_peers_open_cub(struct sol_peers *p, const char *path, char *err, size_t errlen);
void sol_peers_close(struct sol_peers *p);

/* One geam transpose: out (cols x rows) = in (rows x cols)^T, row-major; elem 4 or 8. */
int sol_peers_geam(struct sol_peers *p, size_t elem, uint64_t out, uint64_t in, int rows, int cols);

/* Runs the torch script once with every case; calls line() for each result line it prints.
 * Returns the script's exit status (3: no torch or no CUDA device), or -1 when it cannot start. */
int sol_torch_run(const char *python, const char *script, int reps, int warmup, const char *transpose_specs,
                  const char *reduce_specs, void (*line)(void *ctx, const char *text), void *ctx);

#endif
