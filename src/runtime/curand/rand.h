/* rand.h: the generators of the cuRAND stand-in (src/runtime/curand/), as curand_kernel.h
 * specifies them (state, step, skip-ahead), written here; the host library's layout of its
 * states over the output (rand_layout.c) and the distributions (rand_dist.c) on top. */
#ifndef SMEMLAB_RAND_H
#define SMEMLAB_RAND_H

#include <stdint.h>

/* ---- XORWOW (rand_xorwow.c) ---- */
struct xorwow { uint32_t d, v[5]; };
/* curand_init(seed, subsequence, offset): subsequences 2^67 apart */
void xorwow_init(struct xorwow *s, uint64_t seed, uint64_t subsequence, uint64_t offset);
void xorwow_skip(struct xorwow *s, uint64_t n);
static inline uint32_t xorwow_next(struct xorwow *s)
{
    uint32_t t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437;
    return s->v[4] + s->d;
}

/* ---- Philox4x32-10 (rand_philox.c): a 128-bit counter (subsequence in its upper 64 bits), a
 * 64-bit key (the seed); each counter value gives four outputs, x y z w ---- */
struct philox { uint32_t ctr[4], key[2], out[4]; unsigned idx; };
void philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);
void philox_init(struct philox *s, uint64_t seed, uint64_t subsequence, uint64_t offset);
static inline uint32_t philox_next(struct philox *s)
{
    uint32_t r = s->out[s->idx++];
    if (s->idx == 4) {
        s->idx = 0;
        if (!++s->ctr[0] && !++s->ctr[1] && !++s->ctr[2])
            ++s->ctr[3];
        philox_block(s->ctr, s->key, s->out);
    }
    return r;
}

/* ---- MRG32k3a (rand_mrg.c): L'Ecuyer's combined recursion; subsequences 2^76 apart ---- */
struct mrg { uint32_t s1[3], s2[3]; };
void mrg_init(struct mrg *s, uint64_t seed, uint64_t subsequence, uint64_t offset);
void mrg_skip(struct mrg *s, uint64_t n);
/* the combined value in (0, m1] (curand_MRG32k3a) */
static inline uint32_t mrg_step(struct mrg *s)
{
    const int64_t m1 = 4294967087LL, m2 = 4294944443LL;
    int64_t p1 = (1403580LL * s->s1[1] - 810728LL * s->s1[0]) % m1;
    if (p1 < 0)
        p1 += m1;
    s->s1[0] = s->s1[1];
    s->s1[1] = s->s1[2];
    s->s1[2] = (uint32_t)p1;
    int64_t p2 = (527612LL * s->s2[2] - 1370589LL * s->s2[0]) % m2;
    if (p2 < 0)
        p2 += m2;
    s->s2[0] = s->s2[1];
    s->s2[1] = s->s2[2];
    s->s2[2] = (uint32_t)p2;
    int64_t r = p1 - p2;
    if (r <= 0)
        r += m1;
    return (uint32_t)r;
}
/* curand(): 32 bits out of the combined value */
static inline uint32_t mrg_next(struct mrg *s)
{
    return (uint32_t)((double)mrg_step(s) * 1.000000048662);
}

/* ---- MTGP32 (rand_mtgp.c): one state per block, 256 numbers a round ---- */
struct mtgp { uint32_t s[1024]; unsigned offset; int block; };
int mtgp_available(void); /* 0: the build had no CUDA toolkit (no parameter sets) */
void mtgp_init(struct mtgp *m, uint64_t seed, int block);
void mtgp_round(struct mtgp *m, uint32_t out[256]);

/* ---- MT19937 (rand_mt19937.c): 8192 blocks 2^2048 steps apart, laid as NVIDIA's library
 * lays them; one stream of outputs, a call continuing the last ---- */
struct mt19937;
int mt19937_available(void); /* 0: the build had no jump polynomial */
struct mt19937 *mt19937_new(uint64_t seed);
void mt19937_free(struct mt19937 *m);
/* outputs first..first+n-1 (32 bits each); -1: out of memory */
int mt19937_fill(struct mt19937 *m, uint64_t first, uint64_t n, uint32_t *out);

/* ---- the host library's layout of its states over the output (rand_pseudo.c) ----
 * A pseudo generator keeps `states` states, state t on subsequence t of the seed. Output comes
 * in units (one draw; a Philox counter's four; the two draws of a Box-Muller pair, ...): unit e
 * (counted from the generator's offset) is made by state e % states; the first unit of a state
 * in a call starts e / states draws into its subsequence (counters for Philox: every earlier
 * unit took one), its next ones per_unit draws apart (XORWOW's seeded ordering: state t on
 * subsequence 0 of the seed + 3133713 t). Measured against NVIDIA's library
 * (tests/hw/curand/). */
struct rand_pseudo {
    int type;            /* curandRngType_t */
    uint64_t seed;
    uint32_t states;
    int seeded;          /* XORWOW's seeded ordering: state t is curand_init(seed + 3133713 t, 0, 0) */
    void *base;          /* each state at position 0, made on first use */
    uint64_t base_seed;
    uint32_t base_states;
    int base_seeded;
    void *live;          /* XORWOW's and MRG32k3a's states now, kept between calls */
    int live_ok;
    uint64_t live_next;  /* the unit they make next */
};
/* draws[k * per_unit + j]: the j-th draw of unit first + k, k < units (curand()'s 32 bits;
   MRG32k3a's combined value in (0, m1], which the caller forms) */
int rand_pseudo_draws(struct rand_pseudo *g, uint64_t first, uint64_t units, unsigned per_unit,
                      uint32_t *draws);
/* the seed, offset or ordering was set: states are made again from the offset */
void rand_pseudo_reset(struct rand_pseudo *g);
void rand_pseudo_free(struct rand_pseudo *g);

/* ---- distributions (rand_dist.c) ---- */
float rand_uniform(uint32_t x);
double rand_uniform_double_hq(uint32_t x, uint32_t y);
float rand_mrg_uniform(uint32_t raw);
double rand_mrg_uniform_double(uint32_t raw);
void rand_box_muller(uint32_t x, uint32_t y, float out[2]);
void rand_box_muller_double(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, double out[2]);
void rand_box_muller_mrg(uint32_t rx, uint32_t ry, float out[2]);
void rand_box_muller_mrg_double(uint32_t rx, uint32_t ry, double out[2]);
float rand_normal_icdf(uint32_t x);
double rand_normal_icdf_double(uint32_t x);
float rand_normal_icdf64(uint64_t x);
double rand_normal_icdf_double64(uint64_t x);

/* ---- Poisson (rand_poisson.c): the square histogram curandGeneratePoisson draws from ---- */
struct rand_poisson {
    double lambda;
    int inverse;            /* 0: the square histogram; 1: the inverse of the CDF */
    uint32_t shift, length; /* k = shift .. shift + length - 1 (the CDF's: 0 .. length - 1) */
    uint32_t *K;
    double *V;              /* the histogram's thresholds, or the CDF */
};
/* -1: out of memory */
int rand_poisson_make(struct rand_poisson *t, double lambda, int inverse);
uint32_t rand_poisson_draw(const struct rand_poisson *t, uint32_t x);
uint32_t rand_poisson_draw64(const struct rand_poisson *t, uint64_t x);
void rand_poisson_free(struct rand_poisson *t);

/* ---- Sobol (rand_sobol.c): direction vectors of the toolkit's tables (JOEKUO6, 20000
 * dimensions), embedded at build time; NULL when the build had no CUDA toolkit ---- */
#define SOBOL_DIMS 20000
const uint32_t *rand_sobol_vectors32(int scrambled);
const uint64_t *rand_sobol_vectors64(int scrambled);
const uint32_t *rand_sobol_scramble32(void);
const uint64_t *rand_sobol_scramble64(void);

#endif
