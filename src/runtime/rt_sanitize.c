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

#define SITE_FRAMES 6  /* program frames kept per site: CUDA's inline wrappers and nvcc's
                          launch stubs are skipped */
#define MAX_DEPTH 64

struct site {
    uintptr_t pc[SITE_FRAMES];
    unsigned n;
    const char *call;   /* the exported function the program called */
    char *text;         /* file:line or binary+0xoffset, once named */
    int python;         /* text is a Python script's file:line, given when captured */
    char *frame;        /* as compute-sanitizer's host frame: "main in x.cu:75 [0x1abd] in x" */
};

static struct site *sites; /* sites[0] is "no site" */
static uint32_t nsites, cap_sites;
static char our_dir[4096];
static size_t our_dir_len;

static const char **kernel_symbols; /* launched kernels' symbols (launch_stub) */
static uint32_t nkernel_symbols;
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
    struct site s = {{0}, 0, NULL, NULL, python != NULL, NULL};
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

/* 1 for CUDA's own headers (inline wrappers such as cudaMalloc<T>, crt/device_functions.h's
 * __cudaLaunchKernel_helper): not the program's line */
static int cuda_header(const char *file)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    size_t n = strlen(b);
    int header = (n > 2 && !strcmp(b + n - 2, ".h")) || (n > 4 && !strcmp(b + n - 4, ".hpp"));
    return header && (!strncmp(b, "cuda", 4) || strstr(file, "/crt/") ||
                      strstr(file, "/targets/x86_64-linux/include/"));
}
#endif

#ifdef SMEMLAB_HAVE_LIBDW
/* 1 for the code nvcc writes to launch a kernel: the stub file's __device_stub__ functions and
 * the host function named as the kernel (its mangled name is the kernel's symbol), which calls
 * them: compute-sanitizer's backtrace of a launch starts at the program's own call */
static int launch_stub(const char *file, const char *fn)
{
    size_t n = strlen(file);
    if ((n > 7 && !strcmp(file + n - 7, ".stub.c")) ||
        (fn && (!strncmp(fn, "__device_stub_", 14) || strstr(fn, "__cudaLaunchKernel"))))
        return 1;
    for (uint32_t i = 0; fn && i < nkernel_symbols; i++)
        if (!strcmp(fn, kernel_symbols[i]))
            return 1;
    return 0;
}

#endif

/* Names site s: its text (file:line, else binary+0xoffset) and its host frame. */
static void name_site(struct site *s)
{
    char buf[600] = "", func[300] = "";
    uintptr_t pc = s->n ? s->pc[0] : 0;
#ifdef SMEMLAB_HAVE_LIBDW
    for (unsigned i = 0; i < s->n && !buf[0]; i++) {
        Dwarf_Addr a = s->pc[i] - 1; /* inside the call instruction */
        Dwfl_Module *m = module_of(a);
        Dwfl_Line *l = m ? dwfl_module_getsrc(m, a) : NULL;
        int line = 0;
        const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
        if (!file || line <= 0)
            break; /* no line information there: not a frame of CUDA's headers either */
        const char *fn = dwfl_module_addrname(m, a);
        if (!cuda_header(file) && !launch_stub(file, fn)) {
            const char *b = strrchr(file, '/');
            snprintf(buf, sizeof buf, "%s:%d", b ? b + 1 : file, line);
            snprintf(func, sizeof func, "%s", fn ? fn : "");
            pc = s->pc[i];
        }
    }
    if (!func[0] && pc) { /* no line information: the function's name from the symbol table */
        Dwfl_Module *m = module_of(pc - 1);
        const char *fn = m ? dwfl_module_addrname(m, pc - 1) : NULL;
        snprintf(func, sizeof func, "%s", fn ? fn : "");
    }
#endif
    Dl_info di;
    int have = pc && dladdr((void *)pc, &di) && di.dli_fname;
    const char *bin = have ? strrchr(di.dli_fname, '/') : NULL;
    bin = bin ? bin + 1 : have ? di.dli_fname : "?";
    unsigned long off = have ? (unsigned long)(pc - (uintptr_t)di.dli_fbase) : (unsigned long)pc;
    /* the frame names the call instruction's last byte, as compute-sanitizer does (the same
       binary: [0x142b] where the return address is 0x142c, bench/programs' constantReadOnly) */
    unsigned long insn = off ? off - 1 : 0;
    char frame[1000];
    if (!buf[0]) { /* no line information (built without -g): the binary and the offset */
        if (have)
            snprintf(buf, sizeof buf, "%s+0x%lx", bin, off);
        else
            snprintf(buf, sizeof buf, "0x%lx", off);
        const char *fn = func[0] ? func : have && di.dli_sname ? di.dli_sname : "";
        snprintf(frame, sizeof frame, "%s%s[0x%lx] in %s", fn, fn[0] ? " " : "", insn, bin);
    } else {
        snprintf(frame, sizeof frame, "%s%sin %s [0x%lx] in %s", func, func[0] ? " " : "", buf,
                 insn, bin);
    }
    s->text = strdup(buf);
    s->frame = strdup(frame);
}

void rt_site_kernel_symbol(const char *symbol)
{
    for (uint32_t i = 0; i < nkernel_symbols; i++)
        if (kernel_symbols[i] == symbol || !strcmp(kernel_symbols[i], symbol))
            return;
    const char **n = realloc(kernel_symbols, (nkernel_symbols + 1) * sizeof *n);
    if (!n)
        return;
    kernel_symbols = n;
    kernel_symbols[nkernel_symbols++] = symbol;
}

const char *rt_site_text(uint32_t id)
{
    if (!id || id >= nsites)
        return "?";
    if (!sites[id].text)
        name_site(&sites[id]);
    return sites[id].text ? sites[id].text : "?";
}

const char *rt_site_frame(uint32_t id)
{
    if (!id || id >= nsites)
        return NULL;
    if (!sites[id].text)
        name_site(&sites[id]);
    return sites[id].frame;
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

static void record(int err, const char *name, const char *text, const char *call, uint32_t site);

void rt_sanitize_api_error(int err)
{
    if (driver_depth)
        return; /* inside a driver call: it records what it returns */
    uint32_t site = rt_site_capture();
    record(err, NULL, NULL, rt_site_call(site), site);
}

void rt_sanitize_api_error_named(int err, const char *name, const char *text, const char *call,
                                 const char *python)
{
    record(err, name, text, call, capture(python));
}

static void record(int err, const char *name, const char *text, const char *call, uint32_t site)
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
    api_errors[napi_errors++] = (struct rt_api_error){err, call, site, 1, detail, name, text};
}

static struct rt_uninit_copy *uninit;
static uint32_t nuninit, cap_uninit;

void rt_sanitize_uninit_copy(uint64_t src, uint64_t bytes, uint64_t first, uint64_t pieces)
{
    uint32_t site = rt_site_capture();
    const char *call = rt_site_call(site);
    for (uint32_t i = 0; i < nuninit; i++)
        if (uninit[i].site == site && uninit[i].call == call) {
            uninit[i].pieces += pieces;
            return;
        }
    if (nuninit == cap_uninit) {
        uint32_t nc = cap_uninit ? cap_uninit * 2 : 16;
        struct rt_uninit_copy *nu = realloc(uninit, nc * sizeof *nu);
        if (!nu)
            return;
        uninit = nu;
        cap_uninit = nc;
    }
    uninit[nuninit++] = (struct rt_uninit_copy){call, site, src, bytes, first, pieces};
}

const struct rt_uninit_copy *rt_sanitize_uninit_copies(uint32_t *n)
{
    *n = nuninit;
    return uninit;
}

/* A library's status (cuRAND's, through __cudaSmemlabLibraryApiError): error -1, its name. */
void rt_sanitize_library_error(const char *name)
{
    uint32_t site = rt_site_capture();
    record(-1, name, NULL, rt_site_call(site), site);
}

const struct rt_api_error *rt_sanitize_api_errors(uint32_t *n)
{
    *n = napi_errors;
    return api_errors;
}
