/* rt_sanitize.c: where in the program a CUDA call was made, and the runtime calls that returned an
 * error (docs/run.md, "Sanitizer findings"). A call site is the return address of the program's
 * call into smemlab's libraries (the first frame of a backtrace outside build/runtime/, skipping
 * CUDA's own inline wrappers such as cuda_runtime.h's cudaMalloc<T>), named as file:line from the
 * program's debug information through elfutils' libdwfl (nvcc -g: -lineinfo describes device code
 * only), else as binary+offset. Sites are interned: an allocation keeps a small number.
 * At the bottom of the runtime's stack beside rt_memory.c: it calls nothing of the runtime. */
#define _GNU_SOURCE /* dladdr */
#include "rt_internal.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SMEMLAB_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

#define SITE_FRAMES 4  /* program frames kept per site: CUDA's inline wrappers are skipped */
#define MAX_DEPTH 64

struct site {
    uintptr_t pc[SITE_FRAMES];
    unsigned n;
    const char *call;   /* the exported function the program called */
    char *text;         /* file:line or binary+0xoffset, once named */
};

static struct site *sites; /* sites[0] is "no site" */
static uint32_t nsites, cap_sites;
static char our_dir[4096];
static size_t our_dir_len;

static struct rt_api_error *api_errors;
static uint32_t napi_errors, cap_api_errors;
static char pending_detail[400];

static int ours(uintptr_t pc)
{
    if (!our_dir_len) {
        Dl_info self;
        if (dladdr((void *)(uintptr_t)&ours, &self) && self.dli_fname) {
            const char *slash = strrchr(self.dli_fname, '/');
            our_dir_len = slash ? (size_t)(slash - self.dli_fname) + 1 : 0;
            if (our_dir_len >= sizeof our_dir)
                our_dir_len = 0;
            memcpy(our_dir, self.dli_fname, our_dir_len);
        }
        if (!our_dir_len)
            our_dir_len = (size_t)-1; /* unknown: only this object counts as ours */
    }
    Dl_info di;
    if (!dladdr((void *)pc, &di) || !di.dli_fname)
        return 0;
    Dl_info self;
    if (dladdr((void *)(uintptr_t)&ours, &self) && self.dli_fbase == di.dli_fbase)
        return 1;
    return our_dir_len != (size_t)-1 && !strncmp(di.dli_fname, our_dir, our_dir_len) &&
           !strchr(di.dli_fname + our_dir_len, '/');
}

uint32_t rt_site_capture(void)
{
    void *bt[MAX_DEPTH];
    int n = backtrace(bt, MAX_DEPTH);
    int first = -1;
    for (int i = 1; i < n; i++) /* bt[0] is this function */
        if (!ours((uintptr_t)bt[i])) {
            first = i;
            break;
        }
    if (first < 0)
        return 0;
    struct site s = {{0}, 0, NULL, NULL};
    for (int i = first; i < n && s.n < SITE_FRAMES; i++)
        s.pc[s.n++] = (uintptr_t)bt[i];
    Dl_info di; /* the entry point: the outermost frame of ours (no sibling calls: runtime.cmake) */
    if (dladdr(bt[first - 1], &di) && di.dli_sname)
        s.call = di.dli_sname;
    for (uint32_t i = 1; i < nsites; i++)
        if (sites[i].n == s.n && !memcmp(sites[i].pc, s.pc, sizeof s.pc) && sites[i].call == s.call)
            return i;
    if (!nsites)
        nsites = 1;
    if (nsites >= cap_sites) {
        uint32_t nc = cap_sites ? cap_sites * 2 : 64;
        struct site *ns = realloc(sites, nc * sizeof *ns);
        if (!ns)
            return 0;
        sites = ns;
        cap_sites = nc;
    }
    sites[nsites] = s;
    return nsites++;
}

const char *rt_site_call(uint32_t id)
{
    return id && id < nsites && sites[id].call ? sites[id].call : "?";
}

#ifdef SMEMLAB_HAVE_LIBDW
static Dwfl *dwfl;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static Dwfl_Module *module_of(Dwarf_Addr a)
{
    for (int pass = 0; pass < 2; pass++) {
        if (!dwfl || pass) { /* (again after a dlopen: the maps changed) */
            if (dwfl)
                dwfl_end(dwfl);
            dwfl = dwfl_begin(&callbacks);
            if (!dwfl)
                return NULL;
            if (dwfl_linux_proc_report(dwfl, getpid()) != 0 || dwfl_report_end(dwfl, NULL, NULL)) {
                dwfl_end(dwfl);
                dwfl = NULL;
                return NULL;
            }
        }
        Dwfl_Module *m = dwfl_addrmodule(dwfl, a);
        if (m)
            return m;
    }
    return NULL;
}

/* 1 for CUDA's own headers (inline wrappers such as cudaMalloc<T>): not the program's line */
static int cuda_header(const char *file)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    size_t n = strlen(b);
    return !strncmp(b, "cuda", 4) &&
           ((n > 2 && !strcmp(b + n - 2, ".h")) || (n > 4 && !strcmp(b + n - 4, ".hpp")));
}
#endif

const char *rt_site_text(uint32_t id)
{
    if (!id || id >= nsites)
        return "?";
    struct site *s = &sites[id];
    if (s->text)
        return s->text;
    char buf[600] = "";
#ifdef SMEMLAB_HAVE_LIBDW
    for (unsigned i = 0; i < s->n && !buf[0]; i++) {
        Dwarf_Addr a = s->pc[i] - 1; /* inside the call instruction */
        Dwfl_Module *m = module_of(a);
        Dwfl_Line *l = m ? dwfl_module_getsrc(m, a) : NULL;
        int line = 0;
        const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
        if (!file || line <= 0)
            break; /* no line information there: not a frame of CUDA's headers either */
        if (!cuda_header(file)) {
            const char *b = strrchr(file, '/');
            snprintf(buf, sizeof buf, "%s:%d", b ? b + 1 : file, line);
        }
    }
#endif
    if (!buf[0]) { /* no line information (built without -g): the binary and the offset */
        Dl_info di;
        if (s->n && dladdr((void *)s->pc[0], &di) && di.dli_fname) {
            const char *b = strrchr(di.dli_fname, '/');
            snprintf(buf, sizeof buf, "%s+0x%lx", b ? b + 1 : di.dli_fname,
                     (unsigned long)(s->pc[0] - (uintptr_t)di.dli_fbase));
        } else {
            snprintf(buf, sizeof buf, "0x%lx", (unsigned long)(s->n ? s->pc[0] : 0));
        }
    }
    s->text = strdup(buf);
    return s->text ? s->text : "?";
}

void rt_sanitize_note(const char *detail)
{
    snprintf(pending_detail, sizeof pending_detail, "%s", detail);
}

static void api_error(int err, const char *name)
{
    uint32_t site = rt_site_capture();
    const char *call = rt_site_call(site);
    char *detail = pending_detail[0] ? strdup(pending_detail) : NULL;
    pending_detail[0] = 0;
    for (uint32_t i = 0; i < napi_errors; i++) {
        struct rt_api_error *e = &api_errors[i];
        if (e->error == err && e->name == name && e->site == site && e->call == call) {
            e->count++;
            free(detail);
            return;
        }
    }
    if (napi_errors == cap_api_errors) {
        uint32_t nc = cap_api_errors ? cap_api_errors * 2 : 16;
        struct rt_api_error *ne = realloc(api_errors, nc * sizeof *ne);
        if (!ne) {
            free(detail);
            return;
        }
        api_errors = ne;
        cap_api_errors = nc;
    }
    api_errors[napi_errors++] = (struct rt_api_error){err, call, site, 1, detail, name};
}

void rt_sanitize_api_error(int err)
{
    api_error(err, NULL);
}

void rt_sanitize_api_error_named(const char *name)
{
    api_error(-1, name);
}

const struct rt_api_error *rt_sanitize_api_errors(uint32_t *n)
{
    *n = napi_errors;
    return api_errors;
}
