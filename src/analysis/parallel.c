/* parallel.c: a launch's blocks on several threads, merged in block order (parallel.h). */
#include "smemlab/analysis/parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_JOBS 256
#define CHUNKS_PER_JOB 16 /* small chunks even out blocks of unequal cost */

unsigned smem_parallel_jobs(unsigned jobs)
{
    if (!jobs) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n > 0 ? (unsigned)(n > MAX_JOBS ? MAX_JOBS : n) : 1;
    }
    return jobs > MAX_JOBS ? MAX_JOBS : jobs;
}

uint64_t smem_parallel_chunks(uint64_t nblocks, unsigned jobs)
{
    if (jobs <= 1 || nblocks <= 1)
        return 1;
    uint64_t n = (uint64_t)jobs * CHUNKS_PER_JOB;
    return nblocks < n ? nblocks : n;
}

struct chunk {
    uint64_t first, count;
    int ran, rc;
    struct smem_kernel_report k;
    struct smem_cta_result res;
    struct smem_error err;
};

struct pool {
    const struct smem_cta_program *p;
    const struct smem_launch *l;
    const struct smem_launch_options *o;
    const struct smem_parallel *par;
    struct chunk *chunks;
    uint64_t nchunks, next; /* the next chunk to take */
    int failed;
    pthread_mutex_t lock;
};

static void run_chunk(struct pool *pl, uint64_t i)
{
    struct chunk *c = &pl->chunks[i];
    struct smem_launch l = *pl->l;
    l.block_first = c->first;
    l.block_count = c->count;
    if (pl->par && pl->par->setup)
        pl->par->setup(pl->par->ctx, i, &l);
    c->rc = smem_launch_analyze(pl->p, &l, pl->o, &c->k, &c->res, &c->err);
    c->ran = 1;
}

static void *worker(void *arg)
{
    struct pool *pl = arg;
    for (;;) {
        pthread_mutex_lock(&pl->lock);
        uint64_t i = pl->failed ? pl->nchunks : pl->next++;
        pthread_mutex_unlock(&pl->lock);
        if (i >= pl->nchunks)
            return NULL;
        run_chunk(pl, i);
        if (pl->chunks[i].rc || !pl->chunks[i].res.complete) {
            /* chunks after it are not merged: take no more (those before it are all taken) */
            pthread_mutex_lock(&pl->lock);
            pl->failed = 1;
            pthread_mutex_unlock(&pl->lock);
        }
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int smem_launch_analyze_parallel(const struct smem_cta_program *p, const struct smem_launch *l,
                                 const struct smem_launch_options *o,
                                 const struct smem_parallel *par, struct smem_kernel_report *k,
                                 struct smem_cta_result *res, struct smem_error *err)
{
    uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t nblocks = l->sample_blocks && l->sample_blocks < total ? l->sample_blocks : total;
    unsigned nj = par ? smem_parallel_jobs(par->jobs) : 1;
    if (o->record || l->block_count)
        nj = 1; /* the trace is not merged; a slice is the caller's own split */
    uint64_t nchunks = smem_parallel_chunks(nblocks, nj);
    if (nchunks <= 1) {
        struct smem_launch one = *l;
        if (par && par->setup)
            par->setup(par->ctx, 0, &one);
        int rc = smem_launch_analyze(p, &one, o, k, res, err);
        if (par && par->merged)
            par->merged(par->ctx, 0);
        return rc;
    }
    double t0 = now_s();
    struct pool pl;
    memset(&pl, 0, sizeof pl);
    pl.p = p;
    pl.l = l;
    pl.o = o;
    pl.par = par;
    pl.nchunks = nchunks;
    pl.chunks = calloc(nchunks, sizeof *pl.chunks);
    if (!pl.chunks)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    for (uint64_t i = 0; i < nchunks; i++) {
        pl.chunks[i].first = nblocks * i / nchunks;
        pl.chunks[i].count = nblocks * (i + 1) / nchunks - pl.chunks[i].first;
    }
    if (nj > nchunks)
        nj = (unsigned)nchunks;
    pthread_mutex_init(&pl.lock, NULL);
    pthread_t tids[MAX_JOBS];
    unsigned started = 0;
    for (unsigned j = 0; j < nj; j++)
        if (pthread_create(&tids[started], NULL, worker, &pl) == 0)
            started++;
    if (!started)
        worker(&pl);
    for (unsigned j = 0; j < started; j++)
        pthread_join(tids[j], NULL);
    pthread_mutex_destroy(&pl.lock);
    /* merge in block order, up to the first chunk that failed or stopped incomplete */
    memset(res, 0, sizeof *res);
    res->complete = 1;
    res->blocks_total = total;
    int rc = 0;
    for (uint64_t i = 0; i < nchunks; i++) {
        struct chunk *c = &pl.chunks[i];
        if (c->rc) {
            *err = c->err;
            rc = -1;
            if (par && par->merged)
                par->merged(par->ctx, i);
            break;
        }
        if (smem_kernel_report_add(k, &c->k)) {
            rc = smem_error_set(err, NULL, 0, 0, "out of memory");
            break;
        }
        res->steps += c->res.steps;
        res->blocks_run += c->res.blocks_run;
        if (par && par->merged)
            par->merged(par->ctx, i);
        if (!c->res.complete) {
            res->complete = 0;
            res->unknown = c->res.unknown;
            res->unknown_block = c->res.unknown_block;
            break;
        }
    }
    for (uint64_t i = 0; i < nchunks; i++)
        smem_kernel_report_clear(&pl.chunks[i].k);
    free(pl.chunks);
    if (rc) {
        smem_kernel_report_clear(k);
        return -1;
    }
    k->complete = res->complete;
    k->blocks_run = res->blocks_run;
    k->blocks_total = total;
    k->steps = res->steps;
    k->seconds = now_s() - t0;
    return 0;
}
