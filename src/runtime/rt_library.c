/* rt_library.c: what the stand-in libraries (src/runtime/cublas/: cuBLAS; src/runtime/curand/: cuRAND) reach of the
 * runtime: device memory by its device address, the stop, and the record of their calls in the
 * report. They are separate shared objects linked against this one, so these are exported with
 * libcudart.map's __cuda prefix and nothing of the runtime's structures crosses. */
#include "rt_internal.h"

#include <string.h>

/* The host bytes behind [p, p + n) of memory the device reaches (device, pinned, registered,
 * managed memory, module variables): 0 with *host set, or -1 with why ("4 bytes past the end of a
 * 256-byte allocation at ...", "host memory the device cannot reach"). n == 0 is always 0. When
 * write, the library call writes through it: the allocation gets a new version (rt_touch); an
 * operand only read keeps its version, so that a repeated call can be proven (blas_common.c). */
RT_API int __cudaSmemlabLibraryBytes(const void *p, unsigned long long n, int write, void **host,
                                     char *why, unsigned long why_size);
RT_API int __cudaSmemlabLibraryBytes(const void *p, unsigned long long n, int write, void **host,
                                     char *why, unsigned long why_size)
{
    *host = NULL;
    if (!n)
        return 0;
    uint64_t a = (uint64_t)(uintptr_t)p;
    rt_lock();
    struct rt_alloc *al = rt_find(a, n);
    int rc = 0;
    if (al) {
        if (write)
            rt_touch(al);
        if (write && al->init) /* initcheck: the library call writes them */
            memset(al->init + (a - al->dev), 1, n);
        *host = al->host + (a - al->dev);
    } else if (rt_is_device_address(a) || rt_find(a, 1)) {
        rt_describe_address(a, (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n), why, why_size);
        rc = -1;
    } else {
        snprintf(why, why_size, "%s, which the device cannot reach (not cudaMalloc'd, pinned, "
                 "registered or managed)", p ? "host memory" : "a null pointer");
        rc = -1;
    }
    rt_unlock();
    return rc;
}

/* The version of the device allocation holding [p, p + n): it changes whenever something may have
 * written its bytes (rt_touch). 0 when p is not device memory: pinned, registered and managed
 * memory are written by host code directly, which no version sees. */
RT_API unsigned long long __cudaSmemlabLibraryVersion(const void *p, unsigned long long n);
RT_API unsigned long long __cudaSmemlabLibraryVersion(const void *p, unsigned long long n)
{
    rt_lock();
    struct rt_alloc *al = rt_find((uint64_t)(uintptr_t)p, n ? n : 1);
    unsigned long long v = al && (al->kind == RT_DEVICE || al->kind == RT_VARIABLE) ? al->version : 0;
    rt_unlock();
    return v;
}

/* The threads a launch may use (--jobs; 0: every core), for the libraries' own threads. */
RT_API unsigned __cudaSmemlabLibraryJobs(void);
RT_API unsigned __cudaSmemlabLibraryJobs(void)
{
    rt_lock(); /* start-up reads the options */
    unsigned j = rt_opt.jobs;
    rt_unlock();
    return j;
}

/* Stops the program as an unsupported call does: one sentence, the report, exit 3. */
RT_API void __cudaSmemlabLibraryStop(const char *sentence) __attribute__((noreturn));
RT_API void __cudaSmemlabLibraryStop(const char *sentence)
{
    rt_lock();
    rt_fatal("%s", sentence);
}

/* A library call returned an error status to the program (error: its name, "CURAND_STATUS_
 * TYPE_ERROR", a string literal of the library's; detail: why, copied): an API error of the call
 * the program made (the outermost frame of the backtrace in build/runtime/), with its site. */
RT_API void __cudaSmemlabLibraryApiError(const char *error, const char *detail);
RT_API void __cudaSmemlabLibraryApiError(const char *error, const char *detail)
{
    rt_lock();
    if (detail)
        rt_sanitize_note(detail);
    rt_sanitize_library_error(error);
    rt_unlock();
}

/* A call computed on the CPU, for the report: the library ("cuBLAS"), the call, its shape and
 * precision in words, the CPU time it took; repeat: a proven repeat, not computed again. */
RT_API void __cudaSmemlabLibraryCall(const char *library, const char *name, const char *shape,
                                     const char *precision, double seconds, int repeat);
RT_API void __cudaSmemlabLibraryCall(const char *library, const char *name, const char *shape,
                                     const char *precision, double seconds, int repeat)
{
    rt_lock();
    rt_report_library_call(library, name, shape, precision, seconds, repeat);
    rt_report_maybe_write();
    rt_unlock();
}
