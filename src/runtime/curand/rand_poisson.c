/* rand_poisson.c: curandGeneratePoisson's table for lambda below the normal approximation, as
 * NVIDIA's library builds it (measured with the toolkit's host generator and on the H200:
 * tests/hw/curand/README.md). The support is every k whose probability exp(k log(lambda) -
 * lambda - lgamma(k + 1)) is not 0 in double (shift = the first, length = their count); the
 * table is Marsaglia, Tsang and Wang's square histogram, which curand_poisson.h's
 * _curand_M2_double reads: u = x 2^-32 + 2^-32 (a 64-bit x: (x >> 11) 2^-53 + 2^-54),
 * j = floor(length u), k = u < V[j] ? j : K[j]. It is filled so: the larges (length p >= 1) on
 * a stack, highest index on top; passes over the indices in ascending order give each small one
 * not yet filled the top large, whose remainder, once below 1, leaves the stack and is filled
 * later in that pass or the next. The inverse of the CDF (MTGP32's and the Sobol generators'
 * method from a lambda on): the first k whose CDF, summed from 0 in double, is at least u. */
#include "rand.h"

#include <math.h>
#include <stdlib.h>

static double pmf(double lambda, double loglambda, uint32_t k)
{
    return exp(k * loglambda - lambda - lgamma(k + 1.0));
}

/* the inverse: CDF(k), summed from k = 0 on, until the probabilities past the mode are 0 */
static int make_inverse(struct rand_poisson *t, double lambda)
{
    double ll = log(lambda);
    uint32_t hi = (uint32_t)lambda;
    while (pmf(lambda, ll, hi + 1) > 0)
        hi++;
    t->V = malloc(((size_t)hi + 1) * sizeof *t->V);
    if (!t->V)
        return -1;
    double c = 0;
    for (uint32_t k = 0; k <= hi; k++)
        t->V[k] = c += pmf(lambda, ll, k);
    t->lambda = lambda;
    t->inverse = 1;
    t->shift = 0;
    t->length = hi + 1;
    return 0;
}

int rand_poisson_make(struct rand_poisson *t, double lambda, int inverse)
{
    t->K = NULL;
    t->V = NULL;
    if (inverse)
        return make_inverse(t, lambda);
    t->inverse = 0;
    double ll = log(lambda);
    /* the support: from below the mode down to the last non-zero one, and up likewise */
    uint32_t mode = (uint32_t)lambda, lo = mode, hi = mode;
    while (lo > 0 && pmf(lambda, ll, lo - 1) > 0)
        lo--;
    while (pmf(lambda, ll, hi + 1) > 0)
        hi++;
    uint32_t n = hi - lo + 1;
    double *p = malloc(n * sizeof *p);
    uint32_t *stack = malloc(n * sizeof *stack);
    unsigned char *state = calloc(n, 1); /* 1: on the stack, 2: filled */
    t->K = malloc(n * sizeof *t->K);
    t->V = malloc(n * sizeof *t->V);
    if (!p || !stack || !state || !t->K || !t->V) {
        free(p);
        free(stack);
        free(state);
        rand_poisson_free(t);
        return -1;
    }
    t->lambda = lambda;
    t->shift = lo;
    t->length = n;
    uint32_t top = 0;
    for (uint32_t j = 0; j < n; j++) {
        p[j] = pmf(lambda, ll, lo + j) * n;
        t->K[j] = j;
        t->V[j] = 2.0; /* never an alias */
        if (p[j] >= 1) {
            stack[top++] = j;
            state[j] = 1;
        }
    }
    for (int progress = 1; top && progress;) {
        progress = 0;
        for (uint32_t j = 0; j < n && top; j++) {
            if (state[j])
                continue;
            uint32_t g = stack[top - 1];
            t->K[j] = g;
            t->V[j] = (j + p[j]) / n;
            state[j] = 2;
            progress = 1;
            p[g] = p[g] + p[j] - 1;
            if (p[g] < 1) {
                top--;
                state[g] = 0;
            }
        }
    }
    free(p);
    free(stack);
    free(state);
    return 0;
}

static uint32_t draw(const struct rand_poisson *t, double u)
{
    if (t->inverse) { /* the first k with CDF(k) >= u (the last one if none) */
        uint32_t lo = 0, hi = t->length - 1;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (t->V[mid] >= u)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    }
    uint32_t j = (uint32_t)floor(t->length * u);
    if (j >= t->length) /* u = 1 */
        j = t->length - 1;
    return t->shift + (u < t->V[j] ? j : t->K[j]);
}

uint32_t rand_poisson_draw(const struct rand_poisson *t, uint32_t x)
{
    return draw(t, x * 2.3283064365386963e-10 + 2.3283064365386963e-10);
}

uint32_t rand_poisson_draw64(const struct rand_poisson *t, uint64_t x)
{
    return draw(t, (double)(x >> 11) * 1.1102230246251565e-16 + 1.1102230246251565e-16 / 2.0);
}

void rand_poisson_free(struct rand_poisson *t)
{
    free(t->K);
    free(t->V);
    t->K = NULL;
    t->V = NULL;
    t->length = 0;
}
