/* rt_module.c: the program's modules (one fatbinary per translation unit), its kernels and its
 * __device__ / __constant__ / __managed__ variables, as the host code registers them at start-up.
 * A module's PTX is read on first use (a launch, a symbol copy), not at start-up: programs that
 * carry many kernels and launch few do not pay for the others. */
#include "rt_internal.h"

#include "smemlab/base/signature.h"
#include "smemlab/ptx/fatbin.h"
#include "smemlab/analysis/census.h"
#include "smemlab/sass/sass.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static struct rt_module **mods;
static unsigned nmods;
static struct rt_kernel **kerns;
static unsigned nkerns;
static struct rt_var **vars;
static unsigned nvars;

/* pointer -> object maps (open addressing; the host stubs' and shadows' addresses) */
struct ptrmap {
    const void **keys;
    void **vals;
    size_t cap, n;
};
static struct ptrmap kmap, vmap;

static size_t hash_ptr(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static int map_put(struct ptrmap *m, const void *k, void *v)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        const void **nk = calloc(nc, sizeof *nk);
        void **nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i])
                continue;
            size_t h = hash_ptr(m->keys[i], nc);
            while (nk[h])
                h = (h + 1) & (nc - 1);
            nk[h] = m->keys[i];
            nv[h] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = nc;
    }
    /* a power of two (hash_ptr masks), at most half full (a probe always ends) */
    assert((m->cap & (m->cap - 1)) == 0 && (m->n + 1) * 2 <= m->cap);
    size_t h = hash_ptr(k, m->cap);
    while (m->keys[h] && m->keys[h] != k)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->n++;
    m->keys[h] = k;
    m->vals[h] = v;
    return 0;
}

static void *map_get(const struct ptrmap *m, const void *k)
{
    if (!m->cap || !k)
        return NULL;
    size_t h = hash_ptr(k, m->cap);
    while (m->keys[h]) {
        if (m->keys[h] == k)
            return m->vals[h];
        h = (h + 1) & (m->cap - 1);
    }
    return NULL;
}

static int push(void ***arr, unsigned *n, void *item)
{
    void **na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na)
        return -1;
    na[(*n)++] = item;
    *arr = na;
    return 0;
}

struct rt_module *rt_module_register(const void *wrapper)
{
    struct rt_module *m = calloc(1, sizeof *m);
    if (!m || push((void ***)&mods, &nmods, m))
        rt_fatal("out of memory registering a fatbinary");
    m->wrapper = wrapper;
    m->index = (int)nmods - 1;
    m->report_id = -1;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    if (smem_fatbin_unwrap(wrapper, &m->fatbin, &m->fatbin_size, &err)) {
        m->loaded = -1;
        snprintf(m->load_error, sizeof m->load_error, "%s", err.msg);
    }
    return m;
}

struct rt_module *rt_module_of_ptx(char *text, unsigned arch)
{
    struct rt_module *m = calloc(1, sizeof *m);
    if (!m || push((void ***)&mods, &nmods, m))
        rt_fatal("out of memory loading a module");
    m->index = (int)nmods - 1;
    m->report_id = -1;
    m->ptx_text = text;
    m->arch = arch;
    return m;
}

struct rt_kernel *rt_kernel_register(struct rt_module *m, const void *host_fun, const char *name)
{
    struct rt_kernel *k = calloc(1, sizeof *k);
    if (!k || push((void ***)&kerns, &nkerns, k) || !(k->symbol = strdup(name)) ||
        map_put(&kmap, host_fun, k))
        rt_fatal("out of memory registering kernel %s", name);
    k->mod = m;
    k->host_fun = host_fun;
    k->max_dyn_smem = -1;
    k->carveout = -1;
    k->report_id = -1;
    k->wanted = -1;
    return k;
}

struct rt_kernel *rt_kernel_of(const void *host_fun)
{
    return map_get(&kmap, host_fun);
}

struct rt_var *rt_var_register(struct rt_module *m, const void *host_var, void **managed_ptr,
                               const char *name, uint64_t size, int constant)
{
    struct rt_var *v = calloc(1, sizeof *v);
    if (!v || push((void ***)&vars, &nvars, v) || !(v->name = strdup(name)) ||
        map_put(&vmap, host_var, v))
        rt_fatal("out of memory registering variable %s", name);
    v->mod = m;
    v->host_var = host_var;
    v->managed_ptr = managed_ptr;
    v->size = size;
    v->constant = constant;
    return v;
}

struct rt_var *rt_var_of(const void *host_var)
{
    return map_get(&vmap, host_var);
}

/* Demangled names of the module's kernels, without parameter lists (as analyze names them). */
static void name_kernels(struct rt_module *m)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nkerns; i++)
        n += kerns[i]->mod == m && !kerns[i]->name;
    if (!n)
        return;
    const char **syms = calloc(n, sizeof *syms);
    char **dem = calloc(n, sizeof *dem);
    struct rt_kernel **ks = calloc(n, sizeof *ks);
    if (!syms || !dem || !ks) {
        free(syms);
        free(dem);
        free(ks);
        return;
    }
    unsigned j = 0;
    for (unsigned i = 0; i < nkerns; i++)
        if (kerns[i]->mod == m && !kerns[i]->name) {
            ks[j] = kerns[i];
            syms[j++] = kerns[i]->symbol;
        }
    smem_demangle(syms, n, dem);
    for (unsigned i = 0; i < n; i++) {
        ks[i]->name = smem_signature_name(dem[i] ? dem[i] : syms[i]);
        free(dem[i]);
    }
    free(syms);
    free(dem);
    free(ks);
}

static struct rt_var *registered(const struct rt_module *m, const char *name)
{
    for (unsigned i = 0; i < nvars; i++)
        if (vars[i]->mod == m && !strcmp(vars[i]->name, name))
            return vars[i];
    return NULL;
}

/* Every module-level __device__ / __constant__ variable gets memory, its initializer, and the
 * addresses of the symbols its initializer names. */
static int place_variables(struct rt_module *m)
{
    const struct smem_ptx_module *p = m->ptx;
    m->symbols = calloc(p->nglobals ? p->nglobals : 1, sizeof *m->symbols);
    if (!m->symbols)
        return -1;
    for (uint32_t i = 0; i < p->nglobals; i++) {
        const struct smem_ptx_symbol *s = &p->globals[i];
        if (s->kind != SYM_GLOBAL && s->kind != SYM_CONST)
            continue;
        struct rt_var *v = registered(m, s->name);
        uint64_t size = s->size ? s->size : (v ? v->size : 0);
        struct rt_alloc *al;
        if (v && v->managed_ptr) {
            void *mem = NULL;
            if (posix_memalign(&mem, 256, size ? (size_t)size : 1))
                return -1;
            memset(mem, 0, size ? (size_t)size : 1);
            al = rt_alloc_host(mem, size, RT_MANAGED);
            if (al)
                al->name = s->name;
            *v->managed_ptr = mem;
        } else {
            al = rt_alloc_device(size, RT_VARIABLE, s->name);
        }
        if (!al)
            return -1;
        al->readonly = s->kind == SYM_CONST;
        if (s->init && size)
            memcpy(al->host, s->init, (size_t)(s->size < size ? s->size : size));
        if (v)
            v->alloc = al;
        m->symbols[m->nsymbols].name = s->name;
        m->symbols[m->nsymbols].addr = al->dev;
        m->nsymbols++;
    }
    for (uint32_t i = 0; i < p->nglobals; i++) {
        const struct smem_ptx_symbol *s = &p->globals[i];
        if (!s->nrelocs)
            continue;
        struct rt_alloc *al = NULL;
        for (unsigned k = 0; k < m->nsymbols; k++)
            if (!strcmp(m->symbols[k].name, s->name))
                al = rt_find_base(m->symbols[k].addr);
        for (uint32_t r = 0; al && al->host && r < s->nrelocs; r++) {
            const struct smem_ptx_reloc *rl = &s->relocs[r];
            uint64_t addr = 0;
            for (unsigned k = 0; k < m->nsymbols; k++)
                if (!strcmp(m->symbols[k].name, rl->sym))
                    addr = m->symbols[k].addr + (uint64_t)rl->addend;
            for (unsigned b = 0; b < rl->bytes && rl->offset + b < al->size; b++)
                al->host[rl->offset + b] = (uint8_t)(addr >> (8 * b));
        }
    }
    return 0;
}

int rt_module_load(struct rt_module *m)
{
    if (m->loaded)
        return m->loaded > 0 ? 0 : -1;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    size_t len = m->ptx_text ? strlen(m->ptx_text) : 0; /* given: rt_module_of_ptx */
    int no_ptx = 0;
    if (!m->ptx_text)
        m->ptx_text = smem_fatbin_ptx(m->fatbin, m->fatbin_size, 90, &m->arch, &len, &no_ptx, &err);
    if (!m->ptx_text) {
        m->loaded = -1;
        snprintf(m->load_error, sizeof m->load_error, "%s", err.msg);
        return -1;
    }
    char name[96];
    snprintf(name, sizeof name, "<PTX of module %d, compute_%u>", m->index, m->arch);
    struct smem_ptx_options po = {.tensor_ops = 1}; /* ldmatrix, mma, mbarrier: emu/cta_tensor.c */
    if (smem_ptx_parse_opts(m->ptx_text, len, name, &po, &m->ptx, &err)) {
        char buf[560];
        m->loaded = -1;
        snprintf(m->load_error, sizeof m->load_error, "the program's PTX cannot be read: %s",
                 smem_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (place_variables(m)) {
        m->loaded = -1;
        snprintf(m->load_error, sizeof m->load_error, "out of memory placing the module's "
                 "variables");
        return -1;
    }
    name_kernels(m);
    m->loaded = 1;
    return 0;
}

int rt_kernel_resolve(struct rt_kernel *k)
{
    if (k->func)
        return 0;
    if (rt_module_load(k->mod))
        return -1;
    k->func = smem_ptx_find(k->mod->ptx, k->symbol);
    if (!k->func)
        return -1;
    return 0;
}

/* The module's SASS (rt_internal.h): the fatbinary's sm_90 cubin, else ptxas on the PTX. */
static const struct smem_sass_module *module_sass(struct rt_module *m)
{
    if (m->sass_loaded)
        return m->sass;
    m->sass_loaded = 1;
    if (getenv("SMEMLAB_NO_SASS")) {
        snprintf(m->sass_why, sizeof m->sass_why, "SMEMLAB_NO_SASS is set");
        return NULL;
    }
    struct smem_error err;
    size_t len = 0;
    uint8_t *cubin = m->fatbin ? smem_fatbin_cubin(m->fatbin, m->fatbin_size, 90, &len, &err) : NULL;
    if (!cubin && m->cubin && (cubin = malloc(m->cubin_size))) { /* the driver's module */
        memcpy(cubin, m->cubin, m->cubin_size);
        len = m->cubin_size;
    }
    if (cubin) {
        if (smem_sass_read(cubin, len, &m->sass, &err)) {
            m->sass = NULL;
            snprintf(m->sass_why, sizeof m->sass_why, "the program's sm_90 code cannot be read: "
                     "%.150s", err.msg);
        }
        free(cubin);
        return m->sass;
    }
    m->sass = smem_sass_of_ptx(m->ptx_text, strlen(m->ptx_text), m->sass_why,
                               sizeof m->sass_why);
    return m->sass;
}

uint32_t rt_kernel_regs(struct rt_kernel *k)
{
    const struct smem_sass_module *sm = k->mod ? module_sass(k->mod) : NULL;
    const struct smem_sass_func *f = sm ? smem_sass_find(sm, k->symbol) : NULL;
    return f ? f->regs : 0;
}

struct smem_cta_program *rt_kernel_program(struct rt_kernel *k, uint32_t dyn, struct smem_error *err)
{
    assert(k->func); /* rt_kernel_resolve first */
    for (unsigned i = 0; i < k->nprep; i++)
        if (k->prep[i].dyn_smem == dyn)
            return k->prep[i].p;
    struct smem_cta_program *p = NULL;
    if (smem_cta_prepare_sass(k->mod->ptx, k->func, dyn, module_sass(k->mod), &p, err))
        return NULL;
    struct rt_prepared *np = realloc(k->prep, (k->nprep + 1) * sizeof *np);
    if (!np) {
        smem_cta_program_free(p);
        smem_error_set(err, NULL, 0, 0, "out of memory");
        return NULL;
    }
    k->prep = np;
    k->prep[k->nprep].dyn_smem = dyn;
    k->prep[k->nprep].p = p;
    k->prep[k->nprep].census = smem_census_new(p, module_sass(k->mod), k->mod->sass_why);
    k->nprep++;
    return p;
}
