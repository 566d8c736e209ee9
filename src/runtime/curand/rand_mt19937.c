/* rand_mt19937.c: MT19937 (Matsumoto and Nishimura's Mersenne Twister) laid over the output as
 * NVIDIA's library lays it (measured on the H200 and with the toolkit's host generator:
 * tests/hw/curand/README.md). 8192 blocks, each a Mersenne Twister of its own: block 0 is the
 * generator seeded with the seed's low 32 bits (init_genrand), block b that sequence 2^2048 * b
 * steps on. Each round of a block is one twist of its 624 words; output index o belongs to lane
 * L = o / 65536 (8 numbers of every block), round L / 78 of block (o / 8) % 8192, and within the
 * round's 624 words to the one perm[(L % 78) * 8 + o % 8] names (one word of each 78 to lane 0,
 * the others 56 at a time, seven lanes wide). The jump is Horner's rule on the 624-word window
 * with the polynomial x^(2^2048) mod the recursion's characteristic polynomial, which the build
 * tool mt19937_jump.c computes and this file embeds; the blocks' first rounds are kept for the
 * last seeds asked (shared by generators; 2.5 MB per 1024 blocks). */
#include "rand.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DEG 19937
#define BLOCKS 8192

#ifdef SMEMLAB_MT19937_JUMP
__asm__(".section .rodata\n"
        ".balign 64\n"
        "smemlab_mt19937_jump:\n"
        ".incbin \"" SMEMLAB_MT19937_JUMP "\"\n"
        ".previous\n");
extern const unsigned char smemlab_mt19937_jump[] __asm__("smemlab_mt19937_jump");
static const unsigned char *const jump_poly = smemlab_mt19937_jump;
#else
static const unsigned char *const jump_poly = NULL;
#endif

int mt19937_available(void)
{
    return jump_poly != NULL;
}

static int poly_bit(int i)
{
    return jump_poly[i >> 3] >> (i & 7) & 1;
}

/* the jump is 8192 x 4 million word operations per seed, inside buffers of its own: left out of
   the sanitizers' instrumentation (an ASan build would spend half a minute on it) */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define PLAIN __attribute__((no_sanitize("address", "undefined")))
#endif
#endif
#ifndef PLAIN
#define PLAIN
#endif

/* x[m + 624] from x[m], x[m + 1], x[m + 397]: the recursion on the untempered words */
PLAIN static inline void advance(uint32_t *x, size_t m)
{
    uint32_t y = (x[m] & 0x80000000u) | (x[m + 1] & 0x7fffffffu);
    x[m + 624] = x[m + 397] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
}

static void twist(uint32_t s[624])
{
    for (int k = 0; k < 624; k++) {
        uint32_t y = (s[k] & 0x80000000u) | (s[(k + 1) % 624] & 0x7fffffffu);
        s[k] = s[(k + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
    }
}

static uint32_t temper(uint32_t y)
{
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* out = the window 2^2048 steps after base: Horner over the polynomial's coefficients, CHUNK
   at a time (the 2^CHUNK combinations of the window's first CHUNK shifts precomputed) */
#define CHUNK 6
struct jumper {
    uint32_t *work;                  /* 624 + CHUNK * chunks words */
    uint32_t table[1 << CHUNK][624];
    uint32_t ext[624 + CHUNK];
};

PLAIN static void jump(struct jumper *j, const uint32_t base[624], uint32_t out[624])
{
    memcpy(j->ext, base, 624 * sizeof *base);
    for (size_t k = 0; k < CHUNK; k++)
        advance(j->ext, k);
    memset(j->table[0], 0, sizeof j->table[0]);
    for (unsigned h = 1; h < 1u << CHUNK; h++) {
        unsigned top = 0;
        while (h >> (top + 1))
            top++;
        const uint32_t *a = j->table[h ^ (1u << top)], *e = j->ext + top;
        for (int k = 0; k < 624; k++)
            j->table[h][k] = a[k] ^ e[k];
    }
    int chunks = (DEG + CHUNK - 1) / CHUNK;
    size_t s = 0;
    memset(j->work, 0, 624 * sizeof *j->work);
    for (int c = chunks - 1; c >= 0; c--) {
        if (c != chunks - 1) {
            for (size_t k = 0; k < CHUNK; k++)
                advance(j->work, s + k);
            s += CHUNK;
        }
        unsigned h = 0;
        for (int k = 0; k < CHUNK; k++)
            if (c * CHUNK + k < DEG)
                h |= (unsigned)poly_bit(c * CHUNK + k) << k;
        if (h) {
            uint32_t *w = j->work + s;
            const uint32_t *t = j->table[h];
            for (int k = 0; k < 624; k++)
                w[k] ^= t[k];
        }
    }
    memcpy(out, j->work + s, 624 * sizeof *out);
}

/* the blocks' first rounds for recent seeds, made as far as asked */
#define CACHED 4
static struct cache {
    uint32_t seed;
    uint32_t made;   /* blocks 0..made-1 */
    uint32_t *first; /* BLOCKS x 624 */
    unsigned long used;
} cache[CACHED];
static unsigned long cache_clock;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int first_rounds(uint32_t seed, uint32_t upto, uint32_t *dst, uint32_t from, uint32_t count)
{
    pthread_mutex_lock(&cache_lock);
    struct cache *c = NULL;
    for (int i = 0; i < CACHED && !c; i++)
        if (cache[i].first && cache[i].seed == seed)
            c = &cache[i];
    if (!c) { /* the least recently used slot */
        c = &cache[0];
        for (int i = 1; i < CACHED; i++)
            if (!cache[i].first || (c->first && cache[i].used < c->used))
                c = &cache[i];
        if (!c->first && !(c->first = malloc((size_t)BLOCKS * 624 * sizeof *c->first))) {
            pthread_mutex_unlock(&cache_lock);
            return -1;
        }
        c->seed = seed;
        c->made = 0;
    }
    c->used = ++cache_clock;
    if (c->made < upto) {
        struct jumper *j = malloc(sizeof *j);
        uint32_t *work = j ? malloc((624 + CHUNK * (DEG / CHUNK + 1)) * sizeof *work) : NULL;
        if (!work) {
            free(j);
            pthread_mutex_unlock(&cache_lock);
            return -1;
        }
        j->work = work;
        if (!c->made) {
            uint32_t *s = c->first;
            s[0] = seed;
            for (uint32_t k = 1; k < 624; k++)
                s[k] = 1812433253u * (s[k - 1] ^ (s[k - 1] >> 30)) + k;
            twist(s);
            c->made = 1;
        }
        for (; c->made < upto; c->made++)
            jump(j, c->first + (size_t)(c->made - 1) * 624, c->first + (size_t)c->made * 624);
        free(work);
        free(j);
    }
    memcpy(dst, c->first + (size_t)from * 624, (size_t)count * 624 * sizeof *dst);
    pthread_mutex_unlock(&cache_lock);
    return 0;
}

/* which of a round's 624 words output i of the round is */
static uint16_t perm[624];

static void make_perm(void)
{
    if (perm[8])
        return;
    uint16_t special[8], rest[616];
    int n = 0;
    for (int t = 0; t < 8; t++)
        special[t] = (uint16_t)(78 * t + 7 * (5 * t % 8));
    for (int j = 0, t = 0; j < 624; j++) {
        if (t < 8 && j == special[t])
            t++;
        else
            rest[n++] = (uint16_t)j;
    }
    for (int i = 0; i < 624; i++) {
        int lane = i / 8, p = i % 8;
        perm[i] = i < 8 ? special[i] : rest[56 * ((lane - 1) / 7) + 7 * p + (lane - 1) % 7];
    }
}

struct mt19937 {
    uint32_t seed;
    uint32_t *s;    /* BLOCKS x 624: each block's current round */
    int32_t *round; /* -1: not taken yet */
};

struct mt19937 *mt19937_new(uint64_t seed)
{
    struct mt19937 *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->seed = (uint32_t)seed;
    m->s = malloc((size_t)BLOCKS * 624 * sizeof *m->s);
    m->round = malloc(BLOCKS * sizeof *m->round);
    if (!m->s || !m->round) {
        mt19937_free(m);
        return NULL;
    }
    for (int b = 0; b < BLOCKS; b++)
        m->round[b] = -1;
    make_perm();
    return m;
}

void mt19937_free(struct mt19937 *m)
{
    if (!m)
        return;
    free(m->s);
    free(m->round);
    free(m);
}

int mt19937_fill(struct mt19937 *m, uint64_t first, uint64_t n, uint32_t *out)
{
    if (!n)
        return 0;
    /* the blocks this range reaches, taken from the cache at their first round */
    uint64_t last = first + n - 1;
    uint32_t lo = 0, hi = BLOCKS;
    if (last - first < 65536 && (first >> 16) == (last >> 16)) { /* inside one lane */
        lo = (uint32_t)(first >> 3) & (BLOCKS - 1);
        hi = ((uint32_t)(last >> 3) & (BLOCKS - 1)) + 1;
    }
    uint32_t b0 = lo;
    while (b0 < hi && m->round[b0] >= 0)
        b0++;
    uint32_t b1 = b0;
    while (b1 < hi && m->round[b1] < 0)
        b1++;
    if (b0 < b1) { /* the untaken ones in one stretch (the rest, if any, one by one below) */
        if (first_rounds(m->seed, b1, m->s + (size_t)b0 * 624, b0, b1 - b0))
            return -1;
        for (uint32_t b = b0; b < b1; b++)
            m->round[b] = 0;
    }
    for (uint64_t o = first; o <= last; o++) {
        uint64_t lane = o >> 16;
        int32_t r = (int32_t)(lane / 78);
        uint32_t b = (uint32_t)(o >> 3) & (BLOCKS - 1);
        uint32_t *s = m->s + (size_t)b * 624;
        if (m->round[b] < 0 || m->round[b] > r) {
            if (first_rounds(m->seed, b + 1, s, b, 1))
                return -1;
            m->round[b] = 0;
        }
        while (m->round[b] < r) {
            twist(s);
            m->round[b]++;
        }
        out[o - first] = temper(s[perm[(lane % 78) * 8 + (o & 7)]]);
    }
    return 0;
}
