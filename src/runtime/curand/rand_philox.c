/* rand_philox.c: Philox4x32-10 (Salmon et al., 2011) as curand_philox4x32_x.h defines it: ten
 * rounds of two 32x32->64 multiplies, the key bumped by the Weyl constants between rounds. */
#include "rand.h"

static void round1(uint32_t c[4], const uint32_t k[2])
{
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
    uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    uint32_t r0 = hi1 ^ c[1] ^ k[0], r2 = hi0 ^ c[3] ^ k[1];
    c[0] = r0;
    c[1] = lo1;
    c[2] = r2;
    c[3] = lo0;
}

void philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k[2] = {key[0], key[1]};
    for (int r = 0; r < 10; r++) {
        if (r) {
            k[0] += 0x9E3779B9u;
            k[1] += 0xBB67AE85u;
        }
        round1(c, k);
    }
    for (int i = 0; i < 4; i++)
        out[i] = c[i];
}

/* skipahead_sequence(subsequence) adds to the counter's upper 64 bits, skipahead(offset) adds
   offset / 4 to the counter and starts offset % 4 words into its block */
void philox_init(struct philox *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    s->key[0] = (uint32_t)seed;
    s->key[1] = (uint32_t)(seed >> 32);
    uint64_t lo = offset / 4, hi = subsequence;
    s->ctr[0] = (uint32_t)lo;
    s->ctr[1] = (uint32_t)(lo >> 32);
    s->ctr[2] = (uint32_t)hi;
    s->ctr[3] = (uint32_t)(hi >> 32);
    s->idx = (unsigned)(offset % 4);
    philox_block(s->ctr, s->key, s->out);
}
