/* rand_mtgp.c: MTGP32 (Saito and Matsumoto's Mersenne Twister for graphic processors, period
 * 2^11213) as curand_mtgp32_kernel.h runs it, one state per block: a round gives 256 numbers,
 * number t from recursion and tempering on the 1024-word ring at the block's offset; the
 * parameter sets are the toolkit's (curand_mtgp32dc_p_11213.h, 200 sets), the seeding
 * curand_mtgp32_host.h's (mtgp32_init_state with seed + block + 1). Written here, sequentially:
 * a round reads only words it does not write (pos + 255 < 351). */
#include "rand.h"

#include <string.h>

#ifndef SMEMLAB_HAVE_MTGP32 /* a build without the CUDA toolkit has no parameter sets */
int mtgp_available(void)
{
    return 0;
}

void mtgp_init(struct mtgp *m, uint64_t seed, int block)
{
    (void)seed;
    memset(m, 0, sizeof *m);
    m->block = block;
}

void mtgp_round(struct mtgp *m, uint32_t out[256])
{
    (void)m;
    memset(out, 0, 256 * sizeof *out);
}
#else
#include <curand_mtgp32dc_p_11213.h>

int mtgp_available(void)
{
    return 1;
}

#define N_WORDS 351 /* MTGPDC_N: 11213 / 32 + 1 */

static const mtgp32_params_fast_t *params(int b)
{
    return &mtgp32dc_params_fast_11213[b];
}

void mtgp_init(struct mtgp *m, uint64_t seed, int block)
{
    const mtgp32_params_fast_t *p = params(block);
    uint32_t s = (uint32_t)(seed ^ (seed >> 32)) + (uint32_t)block + 1;
    int size = p->mexp / 32 + 1;
    uint32_t hidden = p->tbl[4] ^ (p->tbl[8] << 16), tmp = hidden;
    tmp += tmp >> 16;
    tmp += tmp >> 8;
    memset(m->s, (int)(tmp & 0xff), sizeof(uint32_t) * (size_t)size);
    m->s[0] = s;
    m->s[1] = hidden;
    for (int i = 1; i < size; i++)
        m->s[i] ^= 1812433253u * (m->s[i - 1] ^ (m->s[i - 1] >> 30)) + (uint32_t)i;
    m->offset = 0;
    m->block = block;
}

void mtgp_round(struct mtgp *m, uint32_t out[256])
{
    const mtgp32_params_fast_t *p = params(m->block);
    const mtgp32_params_fast_t *p0 = params(0);
    unsigned pos = (unsigned)p->pos, off = m->offset;
    for (unsigned t = 0; t < 256; t++) {
        uint32_t x1 = m->s[(t + off) & 1023], x2 = m->s[(t + off + 1) & 1023];
        uint32_t y = m->s[(t + off + pos) & 1023];
        uint32_t x = (x1 & p0->mask) ^ x2;
        x ^= x << p->sh1;
        y = x ^ (y >> p->sh2);
        uint32_t r = y ^ p->tbl[y & 0x0f];
        m->s[(t + off + N_WORDS) & 1023] = r;
        uint32_t T = m->s[(t + off + pos - 1) & 1023];
        T ^= T >> 16;
        T ^= T >> 8;
        out[t] = r ^ p->tmp_tbl[T & 0x0f];
    }
    m->offset = (off + 256) & 1023;
}
#endif
