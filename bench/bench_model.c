/* bench_model.c: how fast the CPU side is: the bank model (requests costed per second) over a mix
 * of widths and patterns, the expression evaluator, and `smemlab pattern`'s whole engine. Each case
 * is checked against a known cost before it is timed. Run with `make bench`. */
#include "smemlab/model/banks.h"
#include "smemlab/model/expr.h"
#include "smemlab/model/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile unsigned long long sink; /* keeps results alive */
static const double budget = 0.25;       /* seconds a case */
static int failures;

static void expect(const char *what, unsigned long long got, unsigned long long want)
{
    if (got != want) {
        fprintf(stderr, "bench_model: %s costs %llu, expected %llu: not timing a wrong answer\n", what,
                got, want);
        failures++;
    }
}

/* ---- the bank model -------------------------------------------------------------------- */

#define NREQ 1024

struct mix {
    const char *name;
    unsigned width;
    unsigned stride; /* in elements; 0 = broadcast; ~0u = random addresses */
    unsigned expect; /* wavefronts per request, 0 = not checked (random) */
};

static const struct mix mixes[] = {
    {"4 B, stride 1", 4, 1, 1},       {"4 B, stride 2", 4, 2, 2},   {"4 B, stride 32", 4, 32, 32},
    {"4 B, broadcast", 4, 0, 1},      {"4 B, random", 4, ~0u, 0},   {"1 B, stride 1", 1, 1, 1},
    {"2 B, stride 64", 2, 64, 32},    {"8 B, stride 1", 8, 1, 2},   {"8 B, stride 16", 8, 16, 32},
    {"16 B, stride 1", 16, 1, 4},     {"16 B, stride 8", 16, 8, 32}, {"16 B, random", 16, ~0u, 0},
};

static uint64_t rng = 0x853c49e6748fea9bull;
static uint32_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

static double bench_mix(const struct mix *m, struct smem_request *reqs)
{
    struct smem_banks b = smem_banks_default();
    for (unsigned i = 0; i < NREQ; i++) {
        struct smem_request *r = &reqs[i];
        memset(r, 0, sizeof *r);
        r->active = 0xffffffffu;
        r->width = m->width;
        for (unsigned l = 0; l < SMEM_WARP; l++) {
            uint32_t e = m->stride == ~0u ? rnd() % 12288 : l * m->stride;
            r->addr[l] = (e + (m->stride == ~0u ? 0 : i % 4 * 32)) * m->width;
        }
    }
    if (m->expect)
        expect(m->name, smem_request_cost(&b, &reqs[0]).wavefronts, m->expect);
    unsigned long long n = 0, acc = 0;
    double t0 = now(), t;
    do {
        for (unsigned i = 0; i < NREQ; i++)
            acc += smem_request_cost(&b, &reqs[i]).wavefronts;
        n += NREQ;
    } while ((t = now() - t0) < budget);
    sink += acc;
    return n / t;
}

/* ---- the expression evaluator and the pattern engine ------------------------------------ */

struct pcase {
    const char *expr;
    unsigned bx, by, rows, cols, elem;
    unsigned long long expect_wf; /* for the whole block */
};

static const struct pcase pcases[] = {
    {"arr[tid*129]", 32, 1, 0, 0, 4, 1},
    {"arr[tid*2]", 1024, 1, 0, 0, 4, 64},
    {"tile[tx][ty]", 32, 32, 32, 32, 4, 1024},
    {"tile[tx][ty]", 32, 32, 32, 33, 4, 32},
    {"tile[(ty*bdx+tx)%bdy][(ty*bdx+tx)/bdy]", 32, 16, 16, 33, 4, 32},
    {"tile[tx*32+((ty+8)^tx)]", 32, 8, 0, 0, 4, 8},
    {"v[tid]", 256, 1, 0, 0, 16, 32},
};

static void bench_pattern(const struct pcase *c)
{
    struct smem_access *a;
    struct smem_diag d;
    if (smem_access_parse(c->expr, &a, &d)) {
        fprintf(stderr, "bench_model: %s: %s\n", c->expr, d.message);
        failures++;
        return;
    }
    struct smem_pattern p = smem_pattern_default();
    p.block[0] = c->bx;
    p.block[1] = c->by;
    p.shape[0] = c->rows;
    p.shape[1] = c->cols;
    p.elem_bytes = c->elem;
    static struct smem_pattern_result r;
    if (smem_pattern_eval(a, &p, &r, &d)) {
        fprintf(stderr, "bench_model: %s: %s\n", c->expr, d.message);
        failures++;
        smem_access_free(a);
        return;
    }
    expect(c->expr, r.wavefronts, c->expect_wf);

    /* The evaluator alone: index expressions of every warp of the block. */
    unsigned nw = smem_pattern_warps(&p), dims = smem_access_dims(a);
    static struct smem_lanes lanes[SMEM_MAX_WARPS];
    for (unsigned w = 0; w < nw; w++)
        smem_pattern_lanes(&p, w, &lanes[w]);
    unsigned long long threads = 0, acc = 0;
    uint32_t out[SMEM_WARP];
    double t0 = now(), t;
    do {
        for (unsigned w = 0; w < nw; w++)
            for (unsigned k = 0; k < dims; k++) {
                smem_access_eval(a, k, &lanes[w], out, &d);
                acc += out[lanes[w].count - 1];
            }
        threads += smem_pattern_threads(&p);
    } while ((t = now() - t0) < budget / 2);
    double eval_rate = threads / t;

    /* The whole engine: variables, evaluation, addresses, bank model, totals. */
    unsigned long long reqs = 0;
    t0 = now();
    do {
        smem_pattern_eval(a, &p, &r, &d);
        reqs += r.requests;
        acc += r.wavefronts;
    } while ((t = now() - t0) < budget / 2);
    sink += acc;
    char shape[24] = "";
    if (c->rows)
        snprintf(shape, sizeof shape, "[%u][%u]", c->rows, c->cols);
    printf("  %-38s %-8s %2u B %4ux%-3u %7.1f M threads/s %6.2f M requests/s\n", c->expr, shape, c->elem,
           c->bx, c->by, eval_rate / 1e6, reqs / t / 1e6);
    smem_access_free(a);
}

int main(void)
{
    static struct smem_request reqs[NREQ];
    double t_all = now();
    printf("bank model: smem_request_cost on 32 x 4-byte banks, full warps (%d requests a batch)\n", NREQ);
    double total = 0;
    unsigned n = sizeof mixes / sizeof mixes[0];
    for (unsigned i = 0; i < n; i++) {
        double rate = bench_mix(&mixes[i], reqs);
        total += 1.0 / rate;
        printf("  %-18s %8.2f M requests/s\n", mixes[i].name, rate / 1e6);
    }
    printf("  %-18s %8.2f M requests/s (harmonic mean: the mix in equal parts)\n", "mix", n / total / 1e6);

    printf("\npattern engine: expression evaluation (threads/s) and smem_pattern_eval (requests/s)\n");
    for (unsigned i = 0; i < sizeof pcases / sizeof pcases[0]; i++)
        bench_pattern(&pcases[i]);
    printf("\n%.1f s in all%s\n", now() - t_all, failures ? "; SOME CASES WERE WRONG" : "");
    return failures ? 1 : 0;
}
