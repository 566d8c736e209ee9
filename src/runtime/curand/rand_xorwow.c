/* rand_xorwow.c: XORWOW (Marsaglia's xorshift with a Weyl sequence) as curand_kernel.h defines
 * it: the seed's salt and mixing, the step, and skip-ahead by GF(2) matrices, computed here from
 * the step (the 160-bit state is linear in it; d advances by 362437 a step). */
#include "rand.h"

#include <pthread.h>
#include <string.h>

#define XW_BITS 160
#define XW_POWERS 131 /* M^(2^k), k < 131: offsets below 2^64, subsequences (2^67 apart) below 2^64 */

typedef uint32_t xw_mat[XW_BITS][5]; /* row i: the image of state bit i */

static xw_mat *powers;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void apply(xw_mat m, const uint32_t in[5], uint32_t out[5])
{
    uint32_t r[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < XW_BITS; i++)
        if (in[i / 32] >> (i % 32) & 1)
            for (int k = 0; k < 5; k++)
                r[k] ^= m[i][k];
    memcpy(out, r, sizeof r);
}

static xw_mat table[XW_POWERS];

static void build(void)
{
    for (int i = 0; i < XW_BITS; i++) { /* one step of a single-bit state */
        struct xorwow s = {0, {0, 0, 0, 0, 0}};
        s.v[i / 32] = 1u << (i % 32);
        xorwow_next(&s);
        memcpy(table[0][i], s.v, sizeof s.v);
    }
    for (int k = 1; k < XW_POWERS; k++)
        for (int i = 0; i < XW_BITS; i++)
            apply(table[k - 1], table[k - 1][i], table[k][i]);
    powers = table;
}

static void jump(struct xorwow *s, uint64_t n, int shift)
{
    pthread_once(&once, build);
    for (int k = 0; n; k++, n >>= 1)
        if (n & 1)
            apply(powers[k + shift], s->v, s->v);
}

void xorwow_skip(struct xorwow *s, uint64_t n)
{
    jump(s, n, 0);
    s->d += 362437u * (uint32_t)n;
}

void xorwow_init(struct xorwow *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u, s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
    uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    s->d = 6615241u + t1 + t0;
    s->v[0] = 123456789u + t0;
    s->v[1] = 362436069u ^ t0;
    s->v[2] = 521288629u + t1;
    s->v[3] = 88675123u ^ t1;
    s->v[4] = 5783321u + t0;
    jump(s, subsequence, 67); /* d moves by a multiple of 2^32 */
    xorwow_skip(s, offset);
}
