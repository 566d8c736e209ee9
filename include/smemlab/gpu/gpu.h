/* gpu.h: a small, general door to the GPU through the CUDA driver API, which is loaded with dlopen
 * ("libcuda.so.1") at run time, never linked: a program using it starts and works without a GPU and
 * learns, through a status and a sentence, that there is none. The library never prints. */
#ifndef SMEMLAB_GPU_H
#define SMEMLAB_GPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status of every call: 0 = success; the rest say why not (smem_gpu_error() has the sentence). */
enum smem_gpu_status {
    SMEM_GPU_OK = 0,
    SMEM_GPU_NO_DRIVER = 1, /* libcuda.so.1 cannot be loaded, or lacks a needed function */
    SMEM_GPU_NO_DEVICE = 2, /* the driver is there but reports no usable device */
    SMEM_GPU_FAILED = 3,    /* a driver call failed (the sentence names it and the CUDA error) */
    SMEM_GPU_INVALID = 4    /* a request the device cannot honour (e.g. too much shared memory) */
};

/* The device, as the driver reports it. */
struct smem_gpu_info {
    char name[256];
    int device;                 /* ordinal */
    int driver_version;         /* e.g. 13000 for CUDA 13.0 */
    int cc_major, cc_minor;     /* compute capability */
    int sms;                    /* multiprocessors */
    int sm_clock_khz;           /* the SM clock the driver reports (CU_DEVICE_ATTRIBUTE_CLOCK_RATE) */
    int mem_clock_khz, bus_width_bits;
    int smem_per_block;         /* default limit per block (48 KB) */
    int smem_per_block_optin;   /* the most a block may opt in to */
    int smem_per_sm;            /* per multiprocessor */
    int smem_reserved_per_block;/* the driver's own share of each block's allocation */
    int max_threads_per_block, max_threads_per_sm, max_blocks_per_sm, regs_per_sm, warp_size;
    int l2_bytes;
    unsigned long long total_mem;
    int bank_bytes;             /* shared-memory bank width (cuCtxGetSharedMemConfig), 0 unknown */
};

/* The peak shared-memory bandwidth in bytes per second: SMs x 128 bytes a clock x SM clock
 * (32 banks x 4 bytes a clock each, per SM). */
double smem_gpu_peak_smem_bandwidth(const struct smem_gpu_info *info);

/* Handles. Pointers on the device are 64-bit integers, as in the driver API. */
struct smem_gpu;
typedef struct smem_gpu_module_s *smem_gpu_module;
typedef struct smem_gpu_function_s *smem_gpu_function;
typedef struct smem_gpu_event_s *smem_gpu_event;
typedef uint64_t smem_gpu_ptr;

/* Loads the driver, initialises it and makes device `device`'s primary context current on the
 * calling thread. On failure *out is NULL and err holds one sentence. */
int smem_gpu_open(int device, struct smem_gpu **out, char *err, size_t errlen);
void smem_gpu_close(struct smem_gpu *g);
const struct smem_gpu_info *smem_gpu_info(const struct smem_gpu *g);
/* The sentence describing the last failure on g ("" when none). */
const char *smem_gpu_error(const struct smem_gpu *g);

/* Modules: a fatbin, cubin or PTX file (the driver JIT-compiles PTX for newer GPUs). */
int smem_gpu_module_load(struct smem_gpu *g, const char *path, smem_gpu_module *mod);
void smem_gpu_module_unload(struct smem_gpu *g, smem_gpu_module mod);
int smem_gpu_function_get(struct smem_gpu *g, smem_gpu_module mod, const char *name,
                          smem_gpu_function *fn);

struct smem_gpu_func_attrs {
    int static_smem;      /* bytes of static shared memory */
    int max_dynamic_smem; /* the dynamic limit currently set */
    int num_regs, max_threads_per_block, local_bytes;
    int carveout;         /* preferred carveout, percent (-1 = no preference) */
};
int smem_gpu_function_attrs(struct smem_gpu *g, smem_gpu_function fn,
                            struct smem_gpu_func_attrs *attrs);
/* Preferred shared-memory carveout: percent (0-100) of the SM's maximum shared memory, or -1 for
 * no preference; the driver rounds up to a size the SM supports. Today's cudaFuncSetCacheConfig. */
int smem_gpu_set_carveout(struct smem_gpu *g, smem_gpu_function fn, int percent);
/* Blocks of `threads` threads and `dyn_smem` bytes that fit on one SM (occupancy calculator). */
int smem_gpu_occupancy(struct smem_gpu *g, smem_gpu_function fn, unsigned threads, size_t dyn_smem,
                       int *blocks_per_sm);

/* Device memory. */
int smem_gpu_alloc(struct smem_gpu *g, size_t bytes, smem_gpu_ptr *ptr);
void smem_gpu_free(struct smem_gpu *g, smem_gpu_ptr ptr);
int smem_gpu_upload(struct smem_gpu *g, smem_gpu_ptr dst, const void *src, size_t bytes);
int smem_gpu_download(struct smem_gpu *g, void *dst, smem_gpu_ptr src, size_t bytes);
int smem_gpu_memset(struct smem_gpu *g, smem_gpu_ptr dst, unsigned char byte, size_t bytes);

/* Launches fn on the default stream. args[i] points at the value of parameter i, as for
 * cuLaunchKernel. A dynamic shared-memory size above the function's current limit raises the limit
 * (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) first; a block needing more shared memory
 * (static + dynamic) than the device allows a block is refused with SMEM_GPU_INVALID. Asynchronous:
 * errors of the kernel itself surface at the next smem_gpu_sync. */
int smem_gpu_launch(struct smem_gpu *g, smem_gpu_function fn, const unsigned grid[3],
                    const unsigned block[3], unsigned dyn_smem, void **args);
int smem_gpu_sync(struct smem_gpu *g);

/* Events on the default stream, for timing. */
int smem_gpu_event_create(struct smem_gpu *g, smem_gpu_event *ev);
void smem_gpu_event_destroy(struct smem_gpu *g, smem_gpu_event ev);
int smem_gpu_event_record(struct smem_gpu *g, smem_gpu_event ev);
/* Waits for `stop`, then gives the milliseconds between the two events. */
int smem_gpu_event_elapsed(struct smem_gpu *g, smem_gpu_event start, smem_gpu_event stop, float *ms);

#ifdef __cplusplus
}
#endif
#endif
