/* fatbin.c: PTX out of a CUDA fatbinary. The layout is not documented by NVIDIA; this reads what
 * nvcc 13 writes (checked on its output; docs/run.md gives the fields):
 *   container: u32 magic 0xBA55ED50, u16 version, u16 header bytes, u64 bytes of entries
 *   entry:     u16 kind (1 PTX, 2 ELF), u16 version, u32 header bytes, u64 payload bytes,
 *              u32 compressed bytes (0: raw), u32 -, u32 PTX version, u32 arch (90),
 *              u32 name offset, u32 name bytes, u64 flags (0x2000 LZ4, 0x8000 zstd), u64 -,
 *              u64 uncompressed bytes; the payload follows the header. */
#include "smemlab/ptx/fatbin.h"

#include "unpack.h"

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
