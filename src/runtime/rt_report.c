/* rt_report.c: the run's record and its report file. The report is rewritten after launches
 * (at most about once a second, more rarely when writing it takes long), at exit, when the library
 * stops the program, and from the handlers of the signals a crash raises, so a program that dies
 * loses little or nothing of it. A status file beside it tells the CLI how things ended. */
#define _GNU_SOURCE /* dladdr, REG_RIP */
#include "rt_internal.h"

#include "smemlab/base/text.h"
#include "smemlab/report/report.h"
#include "smemlab/report/run_report.h"
#include "smemlab/runtime/run.h"

#include <assert.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static struct smem_run_report run;
static char *program, **argv_list;
static uint32_t cap_library;
static uint64_t cap_launches, conflicts, hazards, memory_errors, api_errors, leaks, failed;
static uint64_t uninit_copies; /* --initcheck: 32-byte pieces of copies' sources never written */
static double last_write, write_cost;
static volatile sig_atomic_t in_handler;
static int complete;

static void read_cmdline(void)
{
    if (program)
        return;
    FILE *f = fopen("/proc/self/cmdline", "rb");
    char buf[8192];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    unsigned count = 0;
    for (size_t i = 0; i < n; i++)
        count += buf[i] == 0;
    argv_list = calloc(count + 1, sizeof *argv_list);
    size_t pos = 0;
    unsigned k = 0;
    while (argv_list && pos < n && k < count) {
        argv_list[k++] = strdup(buf + pos);
        pos += strlen(buf + pos) + 1;
    }
    program = argv_list && k ? argv_list[0] : strdup("?");
    run.program = program;
    run.args = (const char *const *)(argv_list ? argv_list + 1 : NULL);
    run.nargs = k ? k - 1 : 0;
}


/* The wavefronts bank conflicts add to a launch's requests of one kind: the LSU pipeline's passes
 * beyond the ideal (docs/bank-model.md). Not Nsight Compute's per-instruction wavefronts minus the
 * ideal: for 8- and 16-byte loads of partial warps that count can be below the ideal (a block of
 * 17x2 threads reading a float4 per row: 3 wavefronts a warp, 4 passes), and the difference of
 * two unsigned counts wrapped to 2^64 - 1 "wavefronts beyond the ideal"
 * (tests/run/partial_wide.cu). */
static uint64_t excess(const struct smem_totals *t)
{
    int64_t passes = (int64_t)t->wavefronts + t->pipe_delta;
    return passes > (int64_t)t->ideal ? (uint64_t)(passes - (int64_t)t->ideal) : 0;
}

/* The report's module entry for m (the analysis the table writer knows). */
static uint32_t module_entry(struct rt_module *m)
{
    if (m->report_id >= 0)
        return (uint32_t)m->report_id;
    struct smem_run_module *nm = realloc(run.modules, (run.nmodules + 1) * sizeof *nm);
    if (!nm)
        rt_fatal("out of memory");
    run.modules = nm;
    struct smem_run_module *e = &nm[run.nmodules];
    memset(e, 0, sizeof *e);
    e->analysis.source = program;
    e->analysis.module = m->ptx;
    m->report_id = (int)run.nmodules++;
    return (uint32_t)m->report_id;
}

static uint32_t kernel_entry(struct rt_kernel *k, const struct smem_kernel_report *one)
{
    if (k->report_id >= 0)
        return (uint32_t)k->report_id;
    uint32_t mi = module_entry(k->mod);
    struct smem_analysis *a = &run.modules[mi].analysis;
    struct smem_kernel_report *nk = realloc(a->kernels, (a->nkernels + 1) * sizeof *nk);
    struct smem_run_kernel *rk = realloc(run.kernels, (run.nkernels + 1) * sizeof *rk);
    if (!nk)
        rt_fatal("out of memory");
    a->kernels = nk;
    if (!rk)
        rt_fatal("out of memory");
    run.kernels = rk;
    struct smem_kernel_report *s = &nk[a->nkernels];
    memset(s, 0, sizeof *s);
    s->symbol = k->symbol;
    s->name = k->name ? k->name : k->symbol;
    memcpy(s->block, one->block, sizeof s->block);
    memcpy(s->grid, one->grid, sizeof s->grid);
    s->static_smem = one->static_smem;
    s->dynamic_smem = one->dynamic_smem;
    s->complete = 1;
    for (unsigned i = 0; i < k->nprep; i++)
        if (k->prep[i].p->func == k->func)
            s->program = k->prep[i].p; /* for the hazards' file names; owned by the kernel */
    rk[run.nkernels].module = mi;
    rk[run.nkernels].kernel = a->nkernels++;
    rk[run.nkernels].launches = 0;
    k->report_id = (int)run.nkernels++;
    return (uint32_t)k->report_id;
}

void rt_report_launch(struct rt_kernel *k, struct smem_launch_record *lr,
                      struct smem_kernel_report *one)
{
    read_cmdline();
    uint32_t ki = kernel_entry(k, one);
    struct smem_run_kernel *rk = &run.kernels[ki];
    struct smem_kernel_report *sum = &run.modules[rk->module].analysis.kernels[rk->kernel];
    if (smem_kernel_report_add(sum, one))
        rt_fatal("out of memory");
    rk->launches++;
    /* the launch record owns the hazards; the sites were merged into the sums */
    one->hazards = NULL;
    one->nhazards = 0;
    smem_kernel_report_clear(one);
    if (run.nlaunches == cap_launches) {
        uint64_t nc = cap_launches ? cap_launches * 2 : 64;
        struct smem_launch_record *nl = realloc(run.launches, nc * sizeof *nl);
        if (!nl)
            rt_fatal("out of memory");
        run.launches = nl;
        cap_launches = nc;
    }
    lr->index = run.launches_total++;
    lr->kernel = ki;
    assert(ki < run.nkernels && run.nlaunches < cap_launches);
    run.launches[run.nlaunches++] = *lr;
    assert(run.nlaunches <= run.launches_total); /* the status file's recorded <= launches */
    conflicts += excess(&lr->ld) + excess(&lr->st) + excess(&lr->atom) + excess(&lr->ldsm) +
                 excess(&lr->stsm) +
                 /* a .cg copy's extra wavefronts for how its global sectors land are no bank
                    conflict (docs/bank-model.md, the keys rule) */
                 (lr->ldgsts.max_ways > 1 ? excess(&lr->ldgsts) : 0);
    failed += lr->error != NULL; /* a launch stopped before its end */
    for (uint32_t i = 0; i < lr->nhazards; i++)
        hazards += lr->hazards[i].count;
    for (uint32_t i = 0; i < lr->nerrors; i++)
        memory_errors += lr->errors[i].count;
}

/* "launch N (kernel, grid, block)" while one is emulated, else empty; written before the launch
 * starts, read by the signal handler */
static char running[400];
static volatile sig_atomic_t is_running;

void rt_report_running(const char *kernel, const unsigned grid[3], const unsigned block[3])
{
    if (!kernel) {
        is_running = 0;
        return;
    }
    snprintf(running, sizeof running, "launch %llu (%s, grid %ux%ux%u, block %ux%ux%u)",
             (unsigned long long)run.launches_total, kernel, grid[0], grid[1], grid[2], block[0],
             block[1], block[2]);
    is_running = 1;
}

void rt_report_count_launch(void)
{
    run.launches_total++;
}

#define MAX_LIBRARY_ENTRIES 4096 /* distinct calls listed; beyond that only the totals grow */

void rt_report_library_call(const char *library, const char *name, const char *shape,
                            const char *precision, double seconds, int repeat)
{
    run.library_calls_total++;
    run.library_seconds += seconds;
    for (uint32_t i = run.nlibrary_calls; i-- > 0;) { /* the latest first: loops repeat a call */
        struct smem_library_call *c = &run.library_calls[i];
        if (!strcmp(c->name, name) && !strcmp(c->shape, shape) &&
            !strcmp(c->precision, precision) && !strcmp(c->library, library)) {
            c->calls++;
            c->repeats += repeat != 0;
            c->seconds += seconds;
            return;
        }
    }
    if (run.nlibrary_calls == MAX_LIBRARY_ENTRIES)
        return;
    if (run.nlibrary_calls == cap_library) {
        uint32_t nc = cap_library ? cap_library * 2 : 16;
        struct smem_library_call *n = realloc(run.library_calls, nc * sizeof *n);
        if (!n)
            rt_fatal("out of memory");
        run.library_calls = n;
        cap_library = nc;
    }
    struct smem_library_call *c = &run.library_calls[run.nlibrary_calls];
    *c = (struct smem_library_call){strdup(library), strdup(name), strdup(shape),
                                    strdup(precision), 1, repeat != 0, seconds,
                                    run.launches_total};
    if (!c->library || !c->name || !c->shape || !c->precision)
        rt_fatal("out of memory");
    run.nlibrary_calls++;
}

/* The sanitizer's findings into the report: the API errors so far and, at the program's normal
 * end with --leak-check full, every allocation of the program's not freed (device, pitched, async,
 * managed, pinned; not module variables, not cudaHostRegister's memory, which the program owns).
 * Names sites through libdwfl: never from a signal handler (the findings of the last write stay). */
static void collect_findings(int final)
{
    uint32_t nerr;
    const struct rt_api_error *e = rt_sanitize_api_errors(&nerr);
    size_t nall = final && rt_opt.leak_check ? rt_alloc_count() : 0;
    size_t nheap = final && rt_opt.leak_check ? rt_heap_leaks(NULL, 0) : 0;
    struct rt_heap_leak *hl = nheap ? calloc(nheap, sizeof *hl) : NULL;
    nheap = hl ? rt_heap_leaks(hl, nheap) : 0;
    uint32_t nun;
    const struct rt_uninit_copy *u = rt_sanitize_uninit_copies(&nun);
    free(run.findings);
    run.findings = calloc(nerr + nall + nun + nheap + 1, sizeof *run.findings);
    run.nfindings = 0;
    api_errors = leaks = uninit_copies = 0;
    if (!run.findings) {
        free(hl);
        return;
    }
    for (uint32_t i = 0; i < nerr; i++, e++) {
        struct smem_run_finding *f = &run.findings[run.nfindings++];
        f->kind = "api error";
        f->call = e->call;
        f->site = rt_site_text(e->site);
        f->error = e->name ? e->name : rt_error_name((cudaError_t)e->error);
        f->code = e->error;
        f->message = e->name ? e->text : rt_error_text((cudaError_t)e->error);
        f->frame = rt_site_frame(e->site);
        f->detail = e->detail;
        f->count = e->count;
        api_errors += e->count;
    }
    for (uint32_t i = 0; i < nun; i++, u++) {
        struct smem_run_finding *f = &run.findings[run.nfindings++];
        f->kind = "uninitialized";
        f->call = u->call;
        f->site = rt_site_text(u->site);
        f->frame = rt_site_frame(u->site);
        f->address = u->src;
        f->bytes = u->bytes;
        f->uninit_at = u->first;
        f->count = u->pieces;
        uninit_copies += u->pieces;
    }
    for (size_t i = 0; i < nall; i++) {
        const struct rt_alloc *al = rt_alloc_at(i);
        if (al->freed || al->name || al->kind == RT_VARIABLE || al->kind == RT_REGISTERED)
            continue;
        struct smem_run_finding *f = &run.findings[run.nfindings++];
        f->kind = "leak";
        f->call = rt_site_call(al->site);
        f->site = rt_site_text(al->site);
        f->frame = rt_site_frame(al->site);
        f->address = al->dev;
        f->bytes = al->size;
        f->count = 1;
        leaks++;
    }
    /* blocks of the device heap a kernel's malloc made and nothing freed */
    static char (*sites)[300];
    free(sites);
    sites = nheap ? calloc(nheap, sizeof *sites) : NULL;
    for (size_t i = 0; sites && i < nheap; i++) {
        struct smem_run_finding *f = &run.findings[run.nfindings++];
        snprintf(sites[i], sizeof sites[i], "%s:%u", hl[i].file ? smem_base_name(hl[i].file) : "?",
                 hl[i].line);
        f->kind = "leak";
        f->call = "malloc";
        f->site = sites[i];
        f->detail = "device heap";
        f->address = hl[i].addr;
        f->bytes = hl[i].size;
        f->count = 1;
        leaks++;
    }
    free(hl);
}

static void write_status(const char *fatal, int crashed)
{
    if (!rt_opt.status_path[0])
        return;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", rt_opt.status_path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "runtime 1\nlaunches %llu\nrecorded %llu\nconflicts %llu\nhazards %llu\n"
               "memory_errors %llu\napi_errors %llu\nleaks %llu\nfailed %llu\ncomplete %d\n",
            (unsigned long long)run.launches_total, (unsigned long long)run.nlaunches,
            (unsigned long long)conflicts, (unsigned long long)hazards,
            (unsigned long long)(memory_errors + uninit_copies), (unsigned long long)api_errors,
            (unsigned long long)leaks, (unsigned long long)failed, complete);
    if (fatal) {
        fprintf(f, crashed ? "crashed " : "fatal ");
        for (const char *c = fatal; *c; c++)
            fputc(*c == '\n' ? ' ' : *c, f);
        fputc('\n', f);
    }
    if (fclose(f) == 0)
        rename(tmp, rt_opt.status_path);
}

static void write_to(FILE *f)
{
    if (rt_opt.format == 1)
        smem_run_report_json(f, &run);
    else if (rt_opt.format == 2)
        smem_run_report_csv(f, &run);
    else
        smem_run_report_table(f, &run);
}

/* The HTML pages (--html): each module's kernels as analyze draws them; a program of several
 * translation units gets PATH for the first and PATH.2.html, ... for the others. */
static void write_html(void)
{
    unsigned page = 0;
    for (uint32_t m = 0; m < run.nmodules; m++) {
        if (!run.modules[m].analysis.nkernels)
            continue;
        char path[4200];
        if (page++ == 0)
            snprintf(path, sizeof path, "%s", rt_opt.html_path);
        else
            snprintf(path, sizeof path, "%s.%u.html", rt_opt.html_path, page);
        FILE *f = fopen(path, "w");
        if (!f)
            continue;
        smem_run_report_html(f, &run, m); /* titled with the command line, its launches */
        fclose(f);
    }
}

/* final: the program is ending (exit, a fatal stop, a crash: the message in why). */
static void write_report(const char *why, int final, int crashed)
{
    const char *fatal = why;
    if (!rt_opt.records)
        return;
    read_cmdline();
    if (fatal && !run.stopped)
        run.stopped = strdup(fatal);
    if (!crashed)
        collect_findings(final && complete);
    double t0 = rt_now();
    if (rt_opt.report_path[0]) {
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.tmp", rt_opt.report_path);
        FILE *f = fopen(tmp, "w");
        if (f) {
            write_to(f);
            if (fclose(f) == 0)
                rename(tmp, rt_opt.report_path);
        }
    } else if (final && (run.launches_total || run.library_calls_total || run.nfindings)) {
        fflush(stdout);
        fputc('\n', stderr);
        write_to(stderr);
    }
    if (final && rt_opt.html_path[0])
        write_html();
    if (final && rt_opt.json_path[0]) {
        FILE *f = fopen(rt_opt.json_path, "w");
        if (f) {
            smem_run_report_json(f, &run);
            fclose(f);
        }
    }
    write_status(fatal, crashed);
    last_write = rt_now();
    write_cost = last_write - t0;
}

static void report_write(const char *fatal)
{
    write_report(fatal, 1, 0);
}

void rt_report_maybe_write(void)
{
    if (!rt_opt.report_path[0] && !rt_opt.status_path[0])
        return;
    double now = rt_now();
    /* at most once a second, and never more than a tenth of the time spent */
    if (now - last_write >= 1.0 && now - last_write >= 10 * write_cost)
        write_report(NULL, 0, 0);
}

static void at_exit(void)
{
    rt_lock();
    complete = 1;
    write_report(NULL, 1, 0);
    rt_unlock();
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    default: return "a signal";
    }
}

/* A crash: say where (a device pointer used by host code is named), keep the report, then die of
 * the same signal so the CLI and the shell see what the program did. Best effort: the heap may
 * be what broke. */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
    if (!in_handler) {
        in_handler = 1;
        char msg[900], where[300] = "";
        void *pc = NULL;
#if defined(__x86_64__)
        if (uc)
            pc = (void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#else
        (void)uc;
#endif
        Dl_info di;
        if (pc && dladdr(pc, &di) && di.dli_fname)
            snprintf(where, sizeof where, " at %s+0x%lx%s%s%s", di.dli_fname,
                     (unsigned long)((char *)pc - (char *)di.dli_fbase),
                     di.dli_sname ? " (" : "", di.dli_sname ? di.dli_sname : "",
                     di.dli_sname ? ")" : "");
        uint64_t a = (uint64_t)(uintptr_t)(si ? si->si_addr : NULL);
        if ((sig == SIGSEGV || sig == SIGBUS) && rt_is_device_address(a)) {
            char near[220];
            rt_describe_address(a, 1, near, sizeof near);
            snprintf(msg, sizeof msg, "the program was killed by %s%s: host code dereferenced "
                     "the device address 0x%llx (%s); copy device memory to the host with "
                     "cudaMemcpy first", signal_name(sig), where, (unsigned long long)a, near);
        } else if (sig == SIGSEGV || sig == SIGBUS) {
            snprintf(msg, sizeof msg, "the program was killed by %s%s, accessing address 0x%llx",
                     signal_name(sig), where, (unsigned long long)a);
        } else if (is_running) { /* inside the emulator: where in the program is the launch */
            snprintf(msg, sizeof msg, "the program was killed by %s while %s was being emulated "
                     "(a launch enters the report when it ends)", signal_name(sig), running);
        } else {
            snprintf(msg, sizeof msg, "the program was killed by %s%s", signal_name(sig), where);
        }
        if (sig != SIGINT && sig != SIGTERM)
            fprintf(stderr, "smemlab run: %s\n", msg);
        write_report(msg, 1, 1);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* the program's (or a preloaded tool's) own handler stays in charge */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_DFL)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
    atexit(at_exit);
    write_status(NULL, 0);
}

/* rt_state.c, below, starts and stops through these (it names nothing above it): handed over when
 * the library is loaded, before any call of the program's (its start-up code runs after the
 * constructors of the libraries it links). */
__attribute__((constructor)) static void hand_over(void)
{
    rt_state_hooks(install_handlers, report_write);
}
