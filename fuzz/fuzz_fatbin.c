/* fuzz_fatbin.c: libFuzzer target for the fatbinary reader and its decompressors: any input must be
 * read or refused with a message, never read or written out of bounds. The first byte picks what
 * the rest is: 0 a fatbinary section as nvcc writes it; 1 and 2 the payload of a PTX entry
 * compressed with Zstandard or LZ4, wrapped here in a well-formed container. */
#include "smemlab/ptx/fatbin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void read_it(const uint8_t *fat, size_t n)
{
    struct smem_error err;
    memset(&err, 0, sizeof err);
    struct smem_fatbin_entry *es = NULL;
    unsigned ne = 0;
    if (smem_fatbin_list(fat, n, &es, &ne, &err) == 0)
        free(es);
    else if (!err.msg[0])
        abort();
    size_t len = 0;
    unsigned arch = 0;
    int no_ptx = 0;
    memset(&err, 0, sizeof err);
    char *ptx = smem_fatbin_ptx(fat, n, 90, &arch, &len, &no_ptx, &err);
    if (ptx) {
        if (strlen(ptx) != len)
            abort();
        free(ptx);
    } else if (!err.msg[0]) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    unsigned mode = data[0] % 3;
    data++;
    size--;
    if (mode == 0) {
        read_it(data, size);
        return 0;
    }
    /* a container holding one PTX entry whose payload is the input, claimed to decompress to
       up to 64 KB */
    size_t hdr = 16, ehdr = 64, total = hdr + ehdr + size;
    uint8_t *fat = calloc(total ? total : 1, 1);
    if (!fat)
        return 0;
    put(fat, SMEM_FATBIN_MAGIC, 4);
    put(fat + 4, 1, 2);
    put(fat + 6, hdr, 2);
    put(fat + 8, ehdr + size, 8);
    uint8_t *e = fat + hdr;
    put(e, SMEM_FATBIN_PTX, 2);
    put(e + 2, 0x101, 2);
    put(e + 4, ehdr, 4);
    put(e + 8, size, 8);
    put(e + 16, size, 4);
    put(e + 28, 90, 4);
    put(e + 40, mode == 1 ? 0x8011 : 0x2011, 8);
    put(e + 56, 65536, 8);
    memcpy(e + ehdr, data, size);
    read_it(fat, total);
    free(fat);
    return 0;
}
