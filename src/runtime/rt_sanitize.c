/* rt_sanitize.c: where in the program a CUDA call was made, and the runtime and driver calls that
 * returned an error (docs/run.md, "Sanitizer findings"; a driver call records its own CUresult,
 * the runtime calls inside it nothing). A call site is the return address of the program's call
 * into smemlab's libraries (the first frame of a backtrace outside build/runtime/, skipping
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
    int python;         /* text is a Python script's file:line, given when captured */
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

static uint32_t capture(const char *python);

uint32_t rt_site_capture(void)
{
    return capture(NULL);
}

/* python: the script's file:line (rt_python_site), part of the site; NULL: none */
static uint32_t capture(const char *python)
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
    struct site s = {{0}, 0, NULL, NULL, python != NULL};
    for (int i = first; i < n && s.n < SITE_FRAMES; i++)
        s.pc[s.n++] = (uintptr_t)bt[i];
    Dl_info di; /* the entry point: the outermost frame of ours (no sibling calls: runtime.cmake) */
    if (dladdr(bt[first - 1], &di) && di.dli_sname)
        s.call = di.dli_sname;
    for (uint32_t i = 1; i < nsites; i++)
        if (sites[i].n == s.n && !memcmp(sites[i].pc, s.pc, sizeof s.pc) && sites[i].call == s.call &&
            sites[i].python == s.python && (!python || !strcmp(sites[i].text, python)))
            return i;
    if (python && !(s.text = strdup(python)))
        return 0;
    if (!nsites)
        nsites = 1;
    if (nsites >= cap_sites) {
        uint32_t nc = cap_sites ? cap_sites * 2 : 64;
        struct site *ns = realloc(sites, nc * sizeof *ns);
        if (!ns) {
            free(s.text);
            return 0;
        }
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

/* ---- a Python program's line --------------------------------------------------------------- */

/* The interpreter's C API, found in the process (python3 exports it), when there is one. */
static struct {
    int tried, ok;
    int (*initialized)(void);
    int (*finalizing)(void);
    int (*ensure)(void);
    void (*release)(int);
    void *(*tstate)(void);
    void *(*frame)(void *);
    void *(*back)(void *);
    void *(*code)(void *);
    int (*line)(void *);
    void *(*attr)(void *, const char *);
    const char *(*utf8)(void *);
    void (*decref)(void *);
} py;

static void *sym(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

static int python_api(void)
{
    if (!py.tried) {
        py.tried = 1;
        void *f[] = {sym("Py_IsInitialized"), sym("PyGILState_Ensure"), sym("PyGILState_Release"),
                     sym("PyThreadState_Get"), sym("PyThreadState_GetFrame"), sym("PyFrame_GetBack"),
                     sym("PyFrame_GetCode"), sym("PyFrame_GetLineNumber"),
                     sym("PyObject_GetAttrString"), sym("PyUnicode_AsUTF8"), sym("Py_DecRef")};
        py.ok = 1;
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            py.ok &= f[i] != NULL;
        if (py.ok) { /* (function pointers from dlsym: POSIX guarantees the conversion) */
            memcpy(&py.initialized, &f[0], sizeof f[0]);
            memcpy(&py.ensure, &f[1], sizeof f[1]);
            memcpy(&py.release, &f[2], sizeof f[2]);
            memcpy(&py.tstate, &f[3], sizeof f[3]);
            memcpy(&py.frame, &f[4], sizeof f[4]);
            memcpy(&py.back, &f[5], sizeof f[5]);
            memcpy(&py.code, &f[6], sizeof f[6]);
            memcpy(&py.line, &f[7], sizeof f[7]);
            memcpy(&py.attr, &f[8], sizeof f[8]);
            memcpy(&py.utf8, &f[9], sizeof f[9]);
            memcpy(&py.decref, &f[10], sizeof f[10]);
            void *fin = sym("Py_IsFinalizing");
            if (!fin)
                fin = sym("_Py_IsFinalizing");
            memcpy(&py.finalizing, &fin, sizeof fin);
        }
    }
    return py.ok && py.initialized() && !(py.finalizing && py.finalizing());
}

/* 1 for a file of the interpreter's packages or its own library, not the program's */
static int library_file(const char *f)
{
    return f[0] == '<' || strstr(f, "/site-packages/") || strstr(f, "/dist-packages/") ||
           strstr(f, "/lib/python3");
}

int rt_python_site(char *buf, size_t n)
{
    if (!python_api())
        return 0;
    buf[0] = 0;
    int g = py.ensure(); /* the calling thread may have let the lock go (ctypes, nogil) */
    void *fr = py.frame(py.tstate()); /* every frame and code object here: a new reference */
    char innermost[600] = "";
    while (fr && !buf[0]) {
        void *code = py.code(fr), *name = code ? py.attr(code, "co_filename") : NULL;
        const char *file = name ? py.utf8(name) : NULL;
        if (file) {
            const char *b = strrchr(file, '/');
            if (!innermost[0])
                snprintf(innermost, sizeof innermost, "%s:%d", b ? b + 1 : file, py.line(fr));
            if (!library_file(file))
                snprintf(buf, n, "%s:%d", b ? b + 1 : file, py.line(fr));
        }
        if (name)
            py.decref(name);
        if (code)
            py.decref(code);
        void *up = py.back(fr);
        py.decref(fr);
        fr = up;
    }
    if (fr)
        py.decref(fr);
    if (!buf[0] && innermost[0]) /* only the packages' code: its innermost line */
        snprintf(buf, n, "%s", innermost);
    py.release(g);
    return buf[0] != 0;
}

void rt_sanitize_note(const char *detail)
{
    snprintf(pending_detail, sizeof pending_detail, "%s", detail);
}

static _Thread_local unsigned driver_depth;

void rt_sanitize_driver_enter(void)
{
    driver_depth++;
}

int rt_sanitize_driver_leave(void)
{
    return driver_depth && --driver_depth == 0;
}

static void record(int err, const char *name, const char *call, uint32_t site);

void rt_sanitize_api_error(int err)
{
    if (driver_depth)
        return; /* inside a driver call: it records what it returns */
    uint32_t site = rt_site_capture();
    record(err, NULL, rt_site_call(site), site);
}

void rt_sanitize_api_error_named(int err, const char *name, const char *call, const char *python)
{
    record(err, name, call, capture(python));
}

static void record(int err, const char *name, const char *call, uint32_t site)
{
    char *detail = pending_detail[0] ? strdup(pending_detail) : NULL;
    pending_detail[0] = 0;
    for (uint32_t i = 0; i < napi_errors; i++) {
        struct rt_api_error *e = &api_errors[i];
        if (e->error == err && e->site == site && e->call == call && e->name == name) {
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

const struct rt_api_error *rt_sanitize_api_errors(uint32_t *n)
{
    *n = napi_errors;
    return api_errors;
}
