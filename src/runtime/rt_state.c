/* rt_state.c: what every entry point shares, at the bottom of the runtime's stack: the one lock,
 * start-up (the options the CLI passes through the environment), the last and sticky errors, and
 * the way the library stops a program it cannot run on. What start-up and a stop do above it (the
 * crash handlers, the report) comes through the hooks rt_report.c hands over (rt_state_hooks):
 * this file calls nothing above it by name. */
#define _GNU_SOURCE /* PTHREAD_MUTEX_RECURSIVE */
#include "rt_internal.h"

#include "smemlab/runtime/run.h"

#include <assert.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct rt_options rt_opt;
static regex_t kernel_re;
static pthread_mutex_t lock;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Thread_local cudaError_t last_error;
static cudaError_t sticky;
/* the layer above, handed over by rt_state_hooks before the program's first call */
static void (*on_start)(void), (*on_stop)(const char *why);

void rt_state_hooks(void (*started)(void), void (*stopping)(const char *why))
{
    on_start = started;
    on_stop = stopping;
}

double rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static void init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&lock, &a);
    pthread_mutexattr_destroy(&a);
    const char *v;
    rt_opt.hazards = !(v = env(SMEM_RUN_ENV_HAZARDS)) || strcmp(v, "0") != 0;
    rt_opt.max_steps = (v = env(SMEM_RUN_ENV_MAX_STEPS)) ? strtoull(v, NULL, 0) : 0;
    rt_opt.launches_per_kernel = (v = env(SMEM_RUN_ENV_LAUNCHES)) ? strtoull(v, NULL, 0) : 0;
    if ((v = env(SMEM_RUN_ENV_REPORT)))
        snprintf(rt_opt.report_path, sizeof rt_opt.report_path, "%s", v);
    if ((v = env(SMEM_RUN_ENV_STATUS)))
        snprintf(rt_opt.status_path, sizeof rt_opt.status_path, "%s", v);
    if ((v = env(SMEM_RUN_ENV_JSON)))
        snprintf(rt_opt.json_path, sizeof rt_opt.json_path, "%s", v);
    if ((v = env(SMEM_RUN_ENV_HTML)))
        snprintf(rt_opt.html_path, sizeof rt_opt.html_path, "%s", v);
    rt_opt.format = !(v = env(SMEM_RUN_ENV_FORMAT)) ? 0 : !strcmp(v, "json") ? 1
                    : !strcmp(v, "csv") ? 2 : 0;
    rt_opt.device = (v = env(SMEM_RUN_ENV_DEVICE)) && !strcmp(v, "h200");
    rt_opt.jobs = (v = env(SMEM_RUN_ENV_JOBS)) ? (unsigned)strtoul(v, NULL, 0) : 0;
    rt_opt.memo = !(v = env(SMEM_RUN_ENV_MEMO)) || strcmp(v, "0") != 0;
    rt_opt.progress = (v = env(SMEM_RUN_ENV_PROGRESS)) && !strcmp(v, "1");
    rt_opt.leak_check = (v = env(SMEM_RUN_ENV_LEAK_CHECK)) && !strcmp(v, "full");
    rt_opt.initcheck = (v = env(SMEM_RUN_ENV_INITCHECK)) && !strcmp(v, "1");
    rt_opt.global_races = (v = env(SMEM_RUN_ENV_GLOBAL_RACES)) && !strcmp(v, "1");
    if ((v = env(SMEM_RUN_ENV_KERNEL)))
        rt_opt.have_regex = regcomp(&kernel_re, v, REG_EXTENDED | REG_NOSUB) == 0;
    /* a child the program starts inherits the environment: only the program itself records */
    rt_opt.records = !(v = env(SMEM_RUN_ENV_PID)) || strtol(v, NULL, 10) == (long)getpid();
    assert(on_start && on_stop); /* rt_report.c's constructor ran when the library was loaded */
    if (on_start)
        on_start();
}

void rt_lock(void)
{
    pthread_once(&once, init);
    pthread_mutex_lock(&lock);
}

void rt_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

int rt_kernel_wanted(struct rt_kernel *k)
{
    if (k->wanted < 0)
        k->wanted = !rt_opt.have_regex ||
                    regexec(&kernel_re, k->name ? k->name : k->symbol, 0, NULL, 0) == 0 ||
                    regexec(&kernel_re, k->symbol, 0, NULL, 0) == 0;
    return k->wanted;
}

cudaError_t rt_error(cudaError_t e)
{
    if (e != cudaSuccess) {
        last_error = e;
        rt_lock(); /* (recursive: most callers hold it already) */
        rt_sanitize_api_error(e); /* the call returns it to the program: a finding */
        rt_unlock();
    }
    return e;
}

static int context_made;

void rt_context_made(void)
{
    context_made = 1;
}

int rt_context_exists(void)
{
    return context_made;
}

cudaError_t rt_call_begin(void)
{
    rt_lock();
    rt_context_made();
    return rt_sticky();
}

cudaError_t rt_call_end(cudaError_t e)
{
    rt_error(e);
    rt_unlock();
    return e;
}

cudaError_t rt_sticky(void)
{
    return sticky;
}

void rt_set_sticky(cudaError_t e)
{
    sticky = e;
}

void rt_fatal(const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    rt_progress_erase();
    fprintf(stderr, "smemlab run: %s\n", msg);
    if (on_stop)
        on_stop(msg);
    _exit(SMEM_RUN_EXIT_UNSUPPORTED); /* the program's atexit handlers would call CUDA again */
}

void rt_unsupported(const char *call, const char *why)
{
    rt_lock();
    if (why)
        rt_fatal("%s is not supported (%s)", call, why);
    rt_fatal("%s is not supported by smemlab run (see docs/run.md for what is)", call);
}

/* For the cuBLAS stand-ins (src/runtime/cublas/): the same stop, from another library. */
RT_API void __cudaSmemlabUnsupported(const char *call, const char *why) __attribute__((noreturn));
RT_API void __cudaSmemlabUnsupported(const char *call, const char *why)
{
    rt_unsupported(call, why);
}

/* ---- errors ------------------------------------------------------------------------------ */

static const struct {
    int value;
    const char *name, *text;
} errors[] = {
#define RT_ERR(v, n, t) {v, #n, t},
#include "rt_errors.inc"
#undef RT_ERR
};

const char *rt_error_name(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].value == e)
            return errors[i].name;
    return "unrecognized error code";
}

RT_API const char *cudaGetErrorName(cudaError_t e);
RT_API const char *cudaGetErrorName(cudaError_t e)
{
    return rt_error_name(e);
}

const char *rt_error_text(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].value == e)
            return errors[i].text;
    return "unrecognized error code";
}

RT_API const char *cudaGetErrorString(cudaError_t e);
RT_API const char *cudaGetErrorString(cudaError_t e)
{
    return rt_error_text(e);
}

RT_API cudaError_t cudaGetLastError(void);
RT_API cudaError_t cudaGetLastError(void)
{
    rt_lock();
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    if (sticky)
        e = sticky; /* a faulted context stays faulted */
    if (e)
        rt_sanitize_api_error(e); /* as compute-sanitizer counts: this call returned an error */
    rt_unlock();
    return e;
}

RT_API cudaError_t cudaPeekAtLastError(void);
RT_API cudaError_t cudaPeekAtLastError(void)
{
    rt_lock();
    cudaError_t e = sticky ? sticky : last_error;
    if (e)
        rt_sanitize_api_error(e);
    rt_unlock();
    return e;
}
