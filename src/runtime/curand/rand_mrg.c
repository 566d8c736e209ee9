/* rand_mrg.c: MRG32k3a's seeding (curand_kernel.h: 12345 in every word, the seed's halves
 * salted and multiplied in) and skip-ahead by powers of its two 3x3 transition matrices modulo
 * m1 and m2, computed here. */
#include "rand.h"

#include <pthread.h>

#define M1 4294967087ULL
#define M2 4294944443ULL
#define POWERS 140 /* A^(2^k): offsets below 2^64 and subsequences (2^76 apart) below 2^64 */

typedef uint64_t mat3[3][3];
static mat3 pw1[POWERS], pw2[POWERS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* a, b below 2^32: the product fits */
static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return a * b % m;
}

static void matmul(mat3 a, mat3 b, mat3 r, uint64_t m)
{
    mat3 t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            uint64_t s = 0;
            for (int k = 0; k < 3; k++)
                s = (s + mulmod(a[i][k], b[k][j], m)) % m;
            t[i][j] = s;
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = t[i][j];
}

static void build(void)
{
    /* s1' = (s1[1], s1[2], a12 s1[1] - a13n s1[0]); s2' = (s2[1], s2[2], a21 s2[2] - a23n s2[0]) */
    mat3 a1 = {{0, 1, 0}, {0, 0, 1}, {M1 - 810728, 1403580, 0}};
    mat3 a2 = {{0, 1, 0}, {0, 0, 1}, {M2 - 1370589, 0, 527612}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            pw1[0][i][j] = a1[i][j];
            pw2[0][i][j] = a2[i][j];
        }
    for (int k = 1; k < POWERS; k++) {
        matmul(pw1[k - 1], pw1[k - 1], pw1[k], M1);
        matmul(pw2[k - 1], pw2[k - 1], pw2[k], M2);
    }
}

static void apply(mat3 a, uint32_t v[3], uint64_t m)
{
    uint64_t r[3];
    for (int i = 0; i < 3; i++)
        r[i] = (mulmod(a[i][0], v[0], m) + mulmod(a[i][1], v[1], m) + mulmod(a[i][2], v[2], m)) % m;
    for (int i = 0; i < 3; i++)
        v[i] = (uint32_t)r[i];
}

static void jump(struct mrg *s, uint64_t n, int shift)
{
    pthread_once(&once, build);
    for (int k = 0; n; k++, n >>= 1)
        if (n & 1) {
            apply(pw1[k + shift], s->s1, M1);
            apply(pw2[k + shift], s->s2, M2);
        }
}

void mrg_skip(struct mrg *s, uint64_t n)
{
    jump(s, n, 0);
}

void mrg_init(struct mrg *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    for (int i = 0; i < 3; i++)
        s->s1[i] = s->s2[i] = 12345u;
    if (seed) {
        uint64_t x1 = (uint32_t)seed ^ 0x55555555u, x2 = (uint32_t)((seed >> 32) ^ 0xAAAAAAAAu);
        s->s1[0] = (uint32_t)mulmod(x1, s->s1[0], M1);
        s->s1[1] = (uint32_t)mulmod(x2, s->s1[1], M1);
        s->s1[2] = (uint32_t)mulmod(x1, s->s1[2], M1);
        s->s2[0] = (uint32_t)mulmod(x2, s->s2[0], M2);
        s->s2[1] = (uint32_t)mulmod(x1, s->s2[1], M2);
        s->s2[2] = (uint32_t)mulmod(x2, s->s2[2], M2);
    }
    jump(s, subsequence, 76);
    jump(s, offset, 0);
}
