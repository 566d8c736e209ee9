/* test_cu_symbols.c: the driver stand-in's tables agree (src/runtime/driver/): every name
 * cuGetProcAddress can answer (CU_PROC, CU_PROC_PTDS) and every name smemlab implements (cu_impl.h)
 * is a name CUDA's cuda.h declares (CU_SYM, which libcuda.so.1 exports); each API's versions rise
 * with its names; the error table has CUDA_SUCCESS first and no value twice. */
#include "check.h"
#include "runtime/driver/cu_abi.h"

static const char *const syms[] = {
#define CU_SYM(n) #n,
#define CU_PROC(a, v, n)
#define CU_PROC_PTDS(a, v, n)
#include "runtime/driver/cu_symbols.inc"
#undef CU_SYM
#undef CU_PROC
#undef CU_PROC_PTDS
};
static const struct {
    const char *api;
    int version, ptds;
    const char *name;
} procs[] = {
#define CU_SYM(n)
#define CU_PROC(a, v, n) {#a, v, 0, #n},
#define CU_PROC_PTDS(a, v, n) {#a, v, 1, #n},
#include "runtime/driver/cu_symbols.inc"
#undef CU_SYM
#undef CU_PROC
#undef CU_PROC_PTDS
};
static const char *const impls[] = {
#define CU_IMPL(ret, name, params, args) #name,
#include "runtime/driver/cu_impl.h"
#undef CU_IMPL
};
static const struct {
    int value;
    const char *name;
} errs[] = {
#define CU_ERR(v, n, t) {v, #n},
#include "runtime/driver/cu_errors.inc"
#undef CU_ERR
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static int declared(const char *n)
{
    for (size_t i = 0; i < N(syms); i++)
        if (!strcmp(syms[i], n))
            return 1;
    return 0;
}

static void every_name_is_declared(void)
{
    CHECK(N(syms) > 600);
    for (size_t i = 0; i < N(procs); i++)
        if (!declared(procs[i].name)) {
            check_failures++;
            fprintf(stderr, "  cuGetProcAddress answers %s, which cuda.h does not declare\n",
                    procs[i].name);
        }
    for (size_t i = 0; i < N(impls); i++)
        if (!declared(impls[i])) {
            check_failures++;
            fprintf(stderr, "  cu_impl.h implements %s, which cuda.h does not declare\n", impls[i]);
        }
    check_count += (int)(N(procs) + N(impls));
}

static void versions_rise(void)
{
    for (size_t i = 1; i < N(procs); i++)
        if (!strcmp(procs[i].api, procs[i - 1].api) && procs[i].ptds == procs[i - 1].ptds)
            CHECK(procs[i].version > procs[i - 1].version);
    /* what programs ask for, by hand from cudaTypedefs.h */
    int seen = 0;
    for (size_t i = 0; i < N(procs); i++) {
        if (!strcmp(procs[i].api, "cuMemAlloc") && procs[i].version == 3020)
            seen += !strcmp(procs[i].name, "cuMemAlloc_v2");
        if (!strcmp(procs[i].api, "cuGetProcAddress") && procs[i].version == 12000)
            seen += !strcmp(procs[i].name, "cuGetProcAddress_v2");
        if (!strcmp(procs[i].api, "cuTensorMapEncodeTiled"))
            seen += procs[i].version == 12000 && !strcmp(procs[i].name, "cuTensorMapEncodeTiled");
        if (!strcmp(procs[i].api, "cuMemcpyHtoD") && procs[i].ptds)
            seen += !strcmp(procs[i].name, "cuMemcpyHtoD_v2_ptds");
    }
    CHECK_EQ(seen, 4);
}

static void errors_once(void)
{
    CHECK_EQ(errs[0].value, CUDA_SUCCESS);
    CHECK_STR(errs[0].name, "CUDA_SUCCESS");
    for (size_t i = 1; i < N(errs); i++)
        CHECK(errs[i].value > errs[i - 1].value);
}

int main(void)
{
    RUN(every_name_is_declared);
    RUN(versions_rise);
    RUN(errors_once);
    return CHECK_DONE();
}
