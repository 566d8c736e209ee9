/* fatbin.c: PTX out of a CUDA fatbinary. The layout is not documented by NVIDIA; this reads what
 * nvcc 13 writes (checked on its output; docs/run.md gives the fields):
 *   container: u32 magic 0xBA55ED50, u16 version, u16 header bytes, u64 bytes of entries
 *   entry:     u16 kind (1 PTX, 2 ELF), u16 version, u32 header bytes, u64 payload bytes,
 *              u32 compressed bytes (0: raw), u32 -, u32 PTX version, u32 arch (90),
 *              u32 name offset, u32 name bytes, u64 flags (0x2000 LZ4, 0x8000 zstd), u64 -,
 *              u64 uncompressed bytes; the payload follows the header. */
#include "smemlab/ptx/fatbin.h"

#include "unpack.h"

#include "smemlab/base/elf.h"

#include <stdlib.h>
#include <string.h>

#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define MAX_PTX_BYTES (1ull << 31) /* a 2 GB PTX file is no program's */

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

uint64_t smem_fatbin_container_size(const uint8_t *p)
{
    if (rd(p, 4) != SMEM_FATBIN_MAGIC)
        return 0;
    uint64_t h = rd(p + 6, 2), body = rd(p + 8, 8);
    if (h < 16 || body > (1ull << 40))
        return 0;
    return h + body;
}

static int add_entry(struct smem_fatbin_entry **out, unsigned *count, unsigned *cap,
                     const struct smem_fatbin_entry *e)
{
    if (*count == *cap) {
        unsigned nc = *cap ? *cap * 2 : 8;
        struct smem_fatbin_entry *ne = realloc(*out, nc * sizeof *ne);
        if (!ne)
            return -1;
        *out = ne;
        *cap = nc;
    }
    (*out)[(*count)++] = *e;
    return 0;
}

int smem_fatbin_list(const uint8_t *data, size_t n, struct smem_fatbin_entry **out,
                     unsigned *count, struct smem_error *err)
{
    unsigned cap = 0;
    size_t pos = 0;
    *out = NULL;
    *count = 0;
    while (pos < n) {
        if (n - pos < 16 || rd(data + pos, 4) != SMEM_FATBIN_MAGIC) {
            /* containers are 8-byte aligned: zero padding may follow one */
            if (data[pos] == 0) {
                pos++;
                continue;
            }
            if (*count)
                break; /* something else after the containers */
            free(*out);
            *out = NULL;
            return smem_error_set(err, "fatbin", 0, 0, "no fatbinary container at offset %zu "
                                  "(magic 0x%08llx, expected 0xba55ed50)", pos,
                                  n - pos >= 4 ? (unsigned long long)rd(data + pos, 4) : 0ull);
        }
        uint64_t h = rd(data + pos + 6, 2), body = rd(data + pos + 8, 8);
        if (h < 16 || h > n - pos || body > n - pos - h) {
            free(*out);
            *out = NULL;
            return smem_error_set(err, "fatbin", 0, 0, "fatbinary container at offset %zu claims "
                                  "%llu bytes, %zu are there", pos,
                                  (unsigned long long)(h + body), n - pos);
        }
        const uint8_t *q = data + pos + h, *end = q + body;
        while ((size_t)(end - q) >= 16) {
            uint64_t eh = rd(q + 4, 4), psize = rd(q + 8, 8);
            if (eh < 16 || eh > (uint64_t)(end - q) || psize > (uint64_t)(end - q) - eh) {
                free(*out);
                *out = NULL;
                return smem_error_set(err, "fatbin", 0, 0, "fatbinary entry at offset %zu runs "
                                      "past its container", (size_t)(q - data));
            }
            struct smem_fatbin_entry e;
            memset(&e, 0, sizeof e);
            e.kind = (unsigned)rd(q, 2);
            e.payload = q + eh;
            e.stored = psize;
            e.size = psize;
            if (eh >= 32)
                e.arch = (unsigned)rd(q + 28, 4);
            if (eh >= 48)
                e.flags = rd(q + 40, 8);
            uint64_t comp = eh >= 20 ? rd(q + 16, 4) : 0;
            if (e.flags & (FLAG_LZ4 | FLAG_ZSTD)) {
                e.compression = e.flags & FLAG_ZSTD ? SMEM_FATBIN_ZSTD : SMEM_FATBIN_LZ4;
                e.stored = comp && comp <= psize ? comp : psize;
                e.size = eh >= 64 ? rd(q + 56, 8) : 0;
            }
            if (eh >= 40) {
                uint64_t no = rd(q + 32, 4), nl = rd(q + 36, 4);
                if (no < eh && nl <= eh - no) {
                    size_t k = nl < sizeof e.name ? (size_t)nl : sizeof e.name - 1;
                    memcpy(e.name, q + no, k);
                    e.name[k] = 0;
                    e.name[strcspn(e.name, " ")] = 0; /* nvcc pads it with a blank */
                }
            }
            if (add_entry(out, count, &cap, &e)) {
                free(*out);
                *out = NULL;
                return smem_error_set(err, "fatbin", 0, 0, "out of memory");
            }
            q += eh + psize;
        }
        pos += (size_t)(h + body);
    }
    if (!*count && !*out)
        *out = malloc(sizeof **out); /* an empty list is still a list */
    return 0;
}

/* Python (python3, python3.12, pypy3): its CUDA comes with the extension modules it loads
 * (cuda-python, Triton), which find the stand-ins on LD_LIBRARY_PATH. */
static int interpreter(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return !strncmp(b, "python", 6) || !strncmp(b, "pypy", 4);
}

/* The cubin (ELF) entry for exactly sm_<arch> in data[0..n), decompressed (malloc'd, *len
 * bytes), or NULL with err (none for that architecture, or it cannot be decompressed). */
uint8_t *smem_fatbin_cubin(const uint8_t *data, size_t n, unsigned arch, size_t *len,
                           struct smem_error *err)
{
    struct smem_fatbin_entry *es;
    unsigned ne;
    if (smem_fatbin_list(data, n, &es, &ne, err))
        return NULL;
    int best = -1;
    for (unsigned i = 0; i < ne && best < 0; i++)
        if (es[i].kind == SMEM_FATBIN_ELF && es[i].arch == arch)
            best = (int)i;
    if (best < 0) {
        free(es);
        smem_error_set(err, "fatbin", 0, 0, "the fatbinary holds no sm_%u code", arch);
        return NULL;
    }
    struct smem_fatbin_entry e = es[best];
    free(es);
    if (e.size > MAX_PTX_BYTES) {
        smem_error_set(err, "fatbin", 0, 0, "sm_%u code of %llu bytes: too large", arch,
                       (unsigned long long)e.size);
        return NULL;
    }
    uint8_t *out = malloc(e.size ? (size_t)e.size : 1);
    if (!out) {
        smem_error_set(err, "fatbin", 0, 0, "out of memory");
        return NULL;
    }
    const char *why = NULL;
    long r = (long)e.size;
    if (e.compression == SMEM_FATBIN_RAW)
        memcpy(out, e.payload, (size_t)e.size);
    else
        r = e.compression == SMEM_FATBIN_ZSTD
                ? smem_zstd_decode(e.payload, (size_t)e.stored, out, (size_t)e.size, &why)
                : smem_lz4_decode(e.payload, (size_t)e.stored, out, (size_t)e.size, &why);
    if (r < 0) {
        free(out);
        smem_error_set(err, "fatbin", 0, 0, "the sm_%u code cannot be decompressed: %s", arch,
                       why ? why : "corrupt");
        return NULL;
    }
    *len = (size_t)r;
    return out;
}

char *smem_fatbin_ptx(const uint8_t *data, size_t n, unsigned max_arch, unsigned *arch,
                      size_t *len, int *no_ptx, struct smem_error *err)
{
    struct smem_fatbin_entry *es;
    unsigned ne;
    *no_ptx = 0;
    if (smem_fatbin_list(data, n, &es, &ne, err))
        return NULL;
    int best = -1;
    for (unsigned i = 0; i < ne; i++) {
        if (es[i].kind != SMEM_FATBIN_PTX)
            continue;
        if (best < 0) {
            best = (int)i;
            continue;
        }
        unsigned a = es[i].arch, b = es[best].arch;
        int a_ok = a <= max_arch, b_ok = b <= max_arch;
        if ((a_ok && !b_ok) || (a_ok && b_ok && a > b) || (!a_ok && !b_ok && a < b))
            best = (int)i;
    }
    if (best < 0) {
        free(es);
        *no_ptx = 1;
        smem_error_set(err, "fatbin", 0, 0, "the fatbinary holds no PTX, only code for real GPUs "
                       "(SASS): rebuild with -arch=sm_90 (or -gencode arch=compute_90,"
                       "code=compute_90) so the binary carries PTX");
        return NULL;
    }
    struct smem_fatbin_entry e = es[best];
    free(es);
    if (e.size > MAX_PTX_BYTES) {
        smem_error_set(err, "fatbin", 0, 0, "PTX entry of %llu bytes: too large",
                       (unsigned long long)e.size);
        return NULL;
    }
    char *text = malloc((size_t)e.size + 1);
    if (!text) {
        smem_error_set(err, "fatbin", 0, 0, "out of memory");
        return NULL;
    }
    size_t got = 0;
    const char *why = NULL;
    if (e.compression == SMEM_FATBIN_RAW) {
        memcpy(text, e.payload, (size_t)e.size);
        got = (size_t)e.size;
    } else {
        long r = e.compression == SMEM_FATBIN_ZSTD
                     ? smem_zstd_decode(e.payload, (size_t)e.stored, (uint8_t *)text,
                                        (size_t)e.size, &why)
                     : smem_lz4_decode(e.payload, (size_t)e.stored, (uint8_t *)text,
                                       (size_t)e.size, &why);
        if (r < 0) {
            free(text);
            smem_error_set(err, "fatbin", 0, 0, "the PTX of %s (compute_%u) cannot be "
                           "decompressed: %s; rebuild with -no-compress",
                           e.name[0] ? e.name : "the program", e.arch, why ? why : "corrupt");
            return NULL;
        }
        got = (size_t)r;
    }
    text[got] = 0;
    got = strlen(text); /* raw entries are padded with NULs */
    if (arch)
        *arch = e.arch;
    if (len)
        *len = got;
    return text;
}

int smem_fatbin_unwrap(const void *wrapper, const uint8_t **data, size_t *n,
                       struct smem_error *err)
{
    const uint8_t *w = wrapper;
    if (!w || rd(w, 4) != SMEM_FATBIN_WRAPPER_MAGIC)
        return smem_error_set(err, "fatbin", 0, 0, "__cudaRegisterFatBinary was given no "
                              "fatbinary wrapper (magic 0x466243b1)");
    const uint8_t *c;
    memcpy(&c, w + 8, sizeof c);
    uint64_t size = c ? smem_fatbin_container_size(c) : 0;
    if (!size)
        return smem_error_set(err, "fatbin", 0, 0, "the fatbinary wrapper points at no "
                              "fatbinary container (magic 0xba55ed50)");
    *data = c;
    *n = (size_t)size;
    return 0;
}

/* ---- the executable, before it runs ------------------------------------------------------- */

/* CUDA libraries that run NVIDIA's own precompiled kernels (SASS only) or need a real driver.
 * cuBLAS and cuRAND are not among them: `smemlab run` has stand-ins for libcublas.so.13,
 * libcublasLt.so.13 (src/runtime/cublas/) and libcurand.so.10 (src/runtime/curand/) that compute
 * on the CPU; nor is the driver, libcuda.so.1 (src/runtime/driver/: its calls of initialisation,
 * devices, contexts, modules, memory, launches, tensor maps and entry points run, the others stop
 * the program, named); nor nvJitLink (src/runtime/jitlink/ links PTX); nor NVRTC, a compiler
 * that needs no GPU: the PTX it makes is loaded through the driver stand-in. */
static const char *const unsupported_libs[] = {
    "libcudnn", "libcufft", "libcusparse", "libcusolver", "libnccl", "libnvjpeg", "libnpp",
    "libcutensor", NULL};

/* 1 when the sm_<arch> cubin of the containers has a code section (.text.<kernel>), or cannot be
 * read (then it is taken to have one) */
static int cubin_has_code(const uint8_t *fat, size_t n, unsigned arch)
{
    size_t len = 0;
    uint8_t *cubin = smem_fatbin_cubin(fat, n, arch, &len, NULL);
    if (!cubin)
        return 1;
    int code = 0;
    for (size_t i = 0; i + 6 <= len && !code; i++)
        code = !memcmp(cubin + i, ".text.", 6);
    free(cubin);
    return code;
}

enum smem_program_kind smem_program_check(const char *path, struct smem_error *err)
{
    struct smem_elf *e = NULL;
    int r = smem_elf_open(path, &e, err);
    if (r < 0)
        return SMEM_PROGRAM_UNREADABLE;
    if (r > 0)
        return SMEM_PROGRAM_NOT_ELF;
    enum smem_program_kind kind = SMEM_PROGRAM_OK;
    const char *cudart = NULL, *lib = NULL;
    int driver = 0;
    for (unsigned i = 0; smem_elf_needed(e, i); i++) {
        const char *n = smem_elf_needed(e, i);
        if (!strncmp(n, "libcudart.so", 12))
            cudart = n;
        if (!strcmp(n, "libcuda.so.1"))
            driver = 1;
        for (unsigned k = 0; unsupported_libs[k] && !lib; k++)
            if (!strncmp(n, unsupported_libs[k], strlen(unsupported_libs[k])) &&
                (n[strlen(unsupported_libs[k])] == '.' || n[strlen(unsupported_libs[k])] == '_' ||
                 n[strlen(unsupported_libs[k])] == '6'))
                lib = n;
    }
    size_t fsize = 0;
    const uint8_t *fat = smem_elf_section(e, ".nv_fatbin", &fsize);
    if (lib) {
        kind = SMEM_PROGRAM_LIBRARY;
        smem_error_set(err, path, 0, 0, "the program needs %s, whose kernels NVIDIA ships as "
                       "SASS only: smemlab run cannot emulate them", lib);
    } else if (!cudart && ((fat && !driver) || smem_elf_defines(e, "cudaMalloc") ||
                           smem_elf_defines(e, "__cudaRegisterFatBinary"))) {
        /* (a driver API program nvcc compiled keeps an empty fatbinary and defines neither: its
           kernels come in the modules it loads, e.g. PTX from NVRTC) */
        kind = SMEM_PROGRAM_STATIC_CUDART;
        smem_error_set(err, path, 0, 0, "the program is linked with the static CUDA runtime "
                       "(nvcc's default): rebuild with -cudart shared (CMake: set "
                       "CUDA_RUNTIME_LIBRARY Shared) so that smemlab's libcudart.so.13 can stand "
                       "in for it");
    } else if (cudart && strcmp(cudart, "libcudart.so.13") != 0) {
        kind = SMEM_PROGRAM_OTHER_CUDART;
        smem_error_set(err, path, 0, 0, "the program is linked against %s; smemlab run stands in "
                       "for CUDA 13's libcudart.so.13: rebuild it with nvcc 13", cudart);
    } else if (!cudart && (driver || interpreter(path))) {
        kind = SMEM_PROGRAM_OK; /* the driver API only; or CUDA through extension modules */
    } else if (!cudart) {
        kind = SMEM_PROGRAM_NOT_CUDA;
        smem_error_set(err, path, 0, 0, "not a CUDA program: it carries no fatbinary and does not "
                       "use libcudart");
    } else if (fat && !driver) {
        /* (a driver API program's own fatbinary may hold nothing to run: nvcc compiling a host
           file; its kernels come in the modules it loads) */
        struct smem_fatbin_entry *es = NULL;
        unsigned n = 0, ptx = 0, elf = 0;
        if (smem_fatbin_list(fat, fsize, &es, &n, NULL) == 0) {
            for (unsigned i = 0; i < n; i++) {
                ptx += es[i].kind == SMEM_FATBIN_PTX;
                /* a cubin with no code (nvcc links one into a program of .cpp files that only
                   call libraries: cuda-samples' simpleCUBLAS) has nothing to run */
                elf += es[i].kind == SMEM_FATBIN_ELF && cubin_has_code(fat, fsize, es[i].arch);
            }
        }
        free(es);
        size_t rsize = 0;
        if (elf && !ptx && smem_elf_section(e, "__nv_relfatbin", &rsize) && rsize) {
            /* nvcc -rdc=true: the registered fatbinary is nvlink's (SASS); each object's PTX
               sits apart, its calls across files unresolved */
            kind = SMEM_PROGRAM_NO_PTX;
            smem_error_set(err, path, 0, 0, "the program is built with relocatable device code "
                           "(nvcc -rdc=true or -dc; CMake: CUDA_SEPARABLE_COMPILATION ON), whose "
                           "device functions are linked across files by nvlink as SASS: smemlab "
                           "run does not link PTX across files; rebuild without -rdc (each "
                           "kernel's device functions in its own file)");
        } else if (elf && !ptx) {
            kind = SMEM_PROGRAM_NO_PTX;
            smem_error_set(err, path, 0, 0, "the program carries SASS only, no PTX: rebuild with "
                           "-arch=sm_90 (or -gencode arch=compute_90,code=compute_90) so the "
                           "binary carries PTX");
        }
    }
    smem_elf_close(e);
    return kind;
}
