/* blas_common.c: the operands of a cuBLAS call: their bytes through the runtime, the scalars in
 * either pointer mode, and the call's record in the report (blas.h). */
#include "blas.h"

#include <cblas.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *bytes(const char *call, const char *what, const void *p, uint64_t n, int write)
{
    void *host;
    char why[400], sentence[700];
    if (!n)
        return NULL;
    if (__cudaSmemlabLibraryBytes(p, n, write, &host, why, sizeof why) == 0)
        return host;
    snprintf(sentence, sizeof sentence, "%s: %s at %p (%llu bytes) is %s; on a GPU the call "
             "would read or write outside device memory", call, what, p, (unsigned long long)n, why);
    __cudaSmemlabLibraryStop(sentence);
}

void *blas_bytes(const char *call, const char *what, const void *p, uint64_t n)
{
    return bytes(call, what, p, n, 1);
}

const void *blas_in(const char *call, const char *what, const void *p, uint64_t n)
{
    return bytes(call, what, p, n, 0);
}

/* ---- proven repeats ---- */

/* A slot remembers a call's key, its operands' versions right after it, and a copy of the bytes
   it read and of those it wrote where it writes every byte of the operand's span (write 2), within
   MEMO_KEEP bytes for all slots: a later call with the same key repeats when each operand it reads
   has its version or, rewritten since (llm.c rewrites a GEMM's operands with the same values
   before every call of its timing loop), bytes equal to the copy; and each operand it writes still
   has its version (nothing wrote it since) or, rewritten since (llm.c scales a GEMM's output in
   place), is whole-span and gets the copy of what the call wrote back. */
#define MEMO_SLOTS 16
#define MEMO_OPS 8
#define MEMO_KEEP (1ull << 30)
static struct memo {
    void *key;
    size_t len;
    unsigned long long version[MEMO_OPS];
    void *copy[MEMO_OPS]; /* what operand i (read only) held, or NULL */
    uint64_t copy_n[MEMO_OPS];
    uint64_t used;
} memos[MEMO_SLOTS];
static uint64_t memo_clock, memo_kept;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

/* SMEMLAB_RUN_MEMO=0 turns proven repeats off for the libraries as for launches (docs/run.md) */
static int memo_on(void)
{
    const char *e = getenv("SMEMLAB_RUN_MEMO");
    return !(e && e[0] == '0' && !e[1]);
}

/* the operands' versions now, 0 when a repeat cannot be proven (not device memory, a written
   operand overlapping another) */
static int versions(const struct blas_operand *ops, unsigned nops, unsigned long long *v)
{
    if (nops > MEMO_OPS || !memo_on())
        return 0;
    for (unsigned i = 0; i < nops; i++) {
        uintptr_t a = (uintptr_t)ops[i].p;
        for (unsigned j = 0; j < nops; j++) {
            uintptr_t b = (uintptr_t)ops[j].p;
            if (i != j && (ops[i].write || ops[j].write) && ops[i].n && ops[j].n &&
                a < b + ops[j].n && b < a + ops[i].n)
                return 0;
        }
        v[i] = ops[i].n ? __cudaSmemlabLibraryVersion(ops[i].p, ops[i].n) : 1;
        if (!v[i])
            return 0;
    }
    return 1;
}

/* operand i's bytes on the host (it is in device memory: versions() said so), NULL if not */
static const void *host_of(const struct blas_operand *o)
{
    void *host;
    char why[200];
    return __cudaSmemlabLibraryBytes(o->p, o->n, 0, &host, why, sizeof why) == 0 ? host : NULL;
}

static struct memo *find(const void *key, size_t len)
{
    for (unsigned i = 0; i < MEMO_SLOTS; i++)
        if (memos[i].key && memos[i].len == len && !memcmp(memos[i].key, key, len))
            return &memos[i];
    return NULL;
}

static void drop_copies(struct memo *m)
{
    for (unsigned i = 0; i < MEMO_OPS; i++) {
        memo_kept -= m->copy[i] ? m->copy_n[i] : 0;
        free(m->copy[i]);
        m->copy[i] = NULL;
        m->copy_n[i] = 0;
    }
}

int blas_repeat(const void *key, size_t len, const struct blas_operand *ops, unsigned nops)
{
    unsigned long long v[MEMO_OPS];
    if (!versions(ops, nops, v))
        return 0;
    pthread_mutex_lock(&memo_lock);
    struct memo *m = find(key, len);
    int hit = m != NULL;
    unsigned restore = 0; /* written operands to put back from their copies */
    for (unsigned i = 0; hit && i < nops; i++) {
        if (m->version[i] == v[i])
            continue;
        const void *h;
        if (ops[i].write == 2 && m->copy[i] && m->copy_n[i] == ops[i].n) {
            restore |= 1u << i; /* rewritten since: it gets back what the call wrote */
            continue;
        }
        hit = !ops[i].write && m->copy[i] && m->copy_n[i] == ops[i].n &&
              (h = host_of(&ops[i])) && !memcmp(h, m->copy[i], ops[i].n);
    }
    if (hit) {
        for (unsigned i = 0; i < nops; i++) {
            void *h;
            char why[200];
            if ((restore >> i & 1) &&
                __cudaSmemlabLibraryBytes(ops[i].p, ops[i].n, 1, &h, why, sizeof why) == 0)
                memcpy(h, m->copy[i], ops[i].n);
        }
        if (restore && !versions(ops, nops, v)) /* the restored operands' new versions */
            m->len = 0; /* (cannot be: they were device memory a moment ago) forget the slot */
        memcpy(m->version, v, nops * sizeof *v); /* equal bytes: the next check is by version */
        m->used = ++memo_clock;
    }
    pthread_mutex_unlock(&memo_lock);
    return hit;
}

void blas_remember(const void *key, size_t len, const struct blas_operand *ops, unsigned nops)
{
    unsigned long long v[MEMO_OPS];
    if (!versions(ops, nops, v))
        return;
    pthread_mutex_lock(&memo_lock);
    struct memo *m = find(key, len);
    if (!m) { /* the least recently used slot */
        m = &memos[0];
        for (unsigned i = 1; i < MEMO_SLOTS; i++)
            if (memos[i].used < m->used)
                m = &memos[i];
        void *k = malloc(len);
        if (k) {
            free(m->key);
            drop_copies(m);
            m->key = memcpy(k, key, len);
            m->len = len;
        } else {
            m = NULL;
        }
    }
    if (m) {
        memcpy(m->version, v, nops * sizeof *v);
        m->used = ++memo_clock;
        drop_copies(m);
        for (unsigned i = 0; i < nops; i++) {
            const void *h;
            if (ops[i].write == 1 || memo_kept + ops[i].n > MEMO_KEEP || !(h = host_of(&ops[i])))
                continue;
            if ((m->copy[i] = malloc(ops[i].n))) {
                memcpy(m->copy[i], h, ops[i].n);
                m->copy_n[i] = ops[i].n;
                memo_kept += ops[i].n;
            }
        }
    }
    pthread_mutex_unlock(&memo_lock);
}

uint64_t blas_span(int64_t rows, int64_t cols, int64_t ld, unsigned elem)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    return ((uint64_t)(cols - 1) * (uint64_t)ld + (uint64_t)rows) * elem;
}

void blas_scalar(const char *call, const char *what, const struct stub_handle *h, const void *p,
                 unsigned elem, void *out)
{
    if (h->pointer_mode == PTR_DEVICE)
        p = blas_bytes(call, what, p, elem);
    memcpy(out, p, elem);
}

double blas_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void set_threads(void)
{
    unsigned jobs = __cudaSmemlabLibraryJobs();
    if (jobs)
        openblas_set_num_threads((int)jobs);
}

double blas_start(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, set_threads);
    return blas_now();
}

void blas_record(const char *name, double t0, const char *precision, const char *fmt, ...)
{
    char shape[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(shape, sizeof shape, fmt, ap);
    va_end(ap);
    __cudaSmemlabLibraryCall("cuBLAS", name, shape, precision, blas_now() - t0, 0);
}

void blas_record_call(const char *name, double t0, int repeat, const char *precision,
                      const char *fmt, ...)
{
    char shape[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(shape, sizeof shape, fmt, ap);
    va_end(ap);
    __cudaSmemlabLibraryCall("cuBLAS", name, shape, precision, blas_now() - t0, repeat);
}

float *blas_to_float(const void *p, int t, int64_t rows, int64_t cols, int64_t ld, int rnd)
{
    float *f = malloc((size_t)(rows * cols) * sizeof *f + 1);
    if (!f)
        return NULL;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            f[j * rows + i] = round_input((float)load_as(t, p, j * ld + i), rnd);
    return f;
}
