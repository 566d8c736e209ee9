/* rt_progress.c: a line on the terminal while a long launch runs ("smemlab run: bitonicMergeShared
 * (its launch 57), grid 1024x1x1, block 512x1x1, 12 s"), erased when it ends. The program is
 * held in the launch meanwhile, so its own output cannot come between. The launch asks for one
 * only when `smemlab run` found its stderr a terminal (SMEMLAB_RUN_PROGRESS=1) or was given
 * --progress (rt_opt.progress), and not for a kernel that prints. At the bottom of the runtime's
 * stack: it calls nothing else in it. */
#include "rt_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FIRST_AFTER_S 1.0 /* a launch shorter than this shows nothing */

static _Atomic int visible; /* a line is on the terminal now (rt_progress_erase) */

struct rt_progress {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop, shown;
    char what[300];
    struct timespec t0;
};

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void *ticker(void *arg)
{
    struct rt_progress *pg = arg;
    pthread_mutex_lock(&pg->lock);
    for (double wait = FIRST_AFTER_S; !pg->stop; wait = 1.0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)wait;
        while (!pg->stop && pthread_cond_timedwait(&pg->cond, &pg->lock, &until) == 0)
            ;
        if (pg->stop)
            break;
        fprintf(stderr, "\r\033[Ksmemlab run: %s, %.0f s", pg->what, since(&pg->t0));
        fflush(stderr);
        pg->shown = 1;
        visible = 1; /* not chained: clang refuses an _Atomic assignment's value as an int */
    }
    pthread_mutex_unlock(&pg->lock);
    return NULL;
}

struct rt_progress *rt_progress_start(unsigned long long launch, const char *kernel,
                                      const unsigned grid[3], const unsigned block[3])
{
    struct rt_progress *pg = calloc(1, sizeof *pg);
    if (!pg)
        return NULL;
    snprintf(pg->what, sizeof pg->what, "%.120s (its launch %llu), grid %ux%ux%u, block %ux%ux%u",
             kernel, launch, grid[0], grid[1], grid[2], block[0], block[1], block[2]);
    clock_gettime(CLOCK_MONOTONIC, &pg->t0);
    pthread_mutex_init(&pg->lock, NULL);
    pthread_cond_init(&pg->cond, NULL);
    if (pthread_create(&pg->thread, NULL, ticker, pg)) {
        pthread_cond_destroy(&pg->cond);
        pthread_mutex_destroy(&pg->lock);
        free(pg);
        return NULL;
    }
    return pg;
}

void rt_progress_erase(void)
{
    if (!visible)
        return;
    fputs("\r\033[K", stderr); /* the line erased: the terminal as the program left it */
    fflush(stderr);
    visible = 0;
}

void rt_progress_stop(struct rt_progress *pg)
{
    if (!pg)
        return;
    pthread_mutex_lock(&pg->lock);
    pg->stop = 1;
    pthread_cond_signal(&pg->cond);
    pthread_mutex_unlock(&pg->lock);
    pthread_join(pg->thread, NULL);
    if (pg->shown)
        rt_progress_erase();
    pthread_cond_destroy(&pg->cond);
    pthread_mutex_destroy(&pg->lock);
    free(pg);
}
