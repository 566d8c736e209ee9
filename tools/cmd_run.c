/* cmd_run.c: `smemlab run PROGRAM [ARGS...]` and `smemlab run FILE.cu [NVCC_ARGS...] -- [ARGS...]`:
 * checks the executable, runs it with smemlab's libcudart.so.13 in place of CUDA's (through
 * LD_LIBRARY_PATH; the library writes the report), then prints the report and exits with the
 * program's status. The contract with the library: smemlab/runtime/run.h. */
#define _GNU_SOURCE /* mkdtemp, setenv in a C11 build */
#include "cli.h"
#include "smemlab/base/elf.h"
#include "smemlab/base/text.h"
#include "smemlab/ptx/fatbin.h"
#include "smemlab/report/ci_findings.h"
#include "smemlab/report/json_read.h"
#include "smemlab/report/sanitizer_text.h"
#include "smemlab/runtime/run.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void help(void)
{
    printf(
        "usage: smemlab run [options] [--] PROGRAM [ARGS...]\n"
        "       smemlab run [options] FILE.cu [NVCC_ARGS...] -- [ARGS...]\n\n"
        "Runs a CUDA program on the CPU: its host code natively, every kernel launch on smemlab's\n"
        "emulator over every block, with the program's real device memory, so its results and\n"
        "its own checks are what a GPU would give. No GPU and no driver are needed. Every launch\n"
        "is priced per source line as `analyze` prices a kernel (shared-memory requests,\n"
        "wavefronts, n-way bank conflicts, as an H100 counts them) and checked: races, barrier\n"
        "divergence, out-of-bounds shared accesses, global accesses outside every allocation.\n\n"
        "The program must be built with nvcc 13 and -cudart shared (CMake: CUDA_RUNTIME_LIBRARY\n"
        "Shared), for a virtual architecture it carries PTX for (-arch=sm_90 does). A FILE.cu is\n"
        "compiled first with nvcc -cudart shared -lineinfo -g -arch=sm_90 and NVCC_ARGS.\n\n"
        "options:\n"
        "  -o FILE              write the report to FILE (default: stderr, after the program)\n"
        "  --format table|json|csv   (default table)\n"
        "  --html OUT.html      also a page with SVG bank maps of each kernel's conflicting sites\n"
        "  --kernel REGEX       record only kernels whose name matches (all still run)\n"
        "  --launches N         record the first N launches of each kernel (default all)\n"
        "  --max-steps N        thread-instructions per block before a launch is stopped\n"
        "                       (default 2e8: a kernel that never ends)\n"
        "  --no-hazards         skip race / barrier tracking (faster)\n"
        "  --device h100|h200   the device the program is shown (default h100)\n"
        "  --jobs N             threads for a launch's blocks (default: every core)\n"
        "  --progress, --no-progress  a line on stderr while a launch over 1 s runs, erased\n"
        "                       after it (default: on when stderr is a terminal)\n"
        "  --fail-on-conflict   exit 1 when any recorded request has a bank conflict\n"
        "  --fail-on-hazard     exit 1 when any race, barrier divergence, oob shared access,\n"
        "                       wgmma layout mismatch or missing fence.proxy.async\n"
        "  --fail-on-memory-error  exit 1 when any global access falls outside every allocation\n"
        "  --leak-check full|no  report allocations not freed at exit, with the call that made\n"
        "                       them (default no, as compute-sanitizer's memcheck)\n"
        "  --fail-on-api-error  exit 1 when any runtime call returned an error\n"
        "  --fail-on-leak       exit 1 when any allocation was not freed (implies --leak-check full)\n"
        "  --initcheck          report reads of device memory nothing wrote (kernels and copies),\n"
        "                       as compute-sanitizer --tool initcheck (the program reads zeros)\n"
        "  --global-races       report races on global memory between a launch's threads (no\n"
        "                       barrier, release / acquire or atomic ordering them; beyond\n"
        "                       compute-sanitizer; a launch's blocks run on one thread)\n");
    printf(
        "  --sanitizer-text     the report in compute-sanitizer's layout (\"========= ...\") instead\n"
        "                       of the table, for scripts that parse it (docs/run.md)\n"
        "  --sanitizer-tool memcheck|racecheck|synccheck|initcheck|all   only that tool's records\n"
        "                       and summaries (implies --sanitizer-text; initcheck: --initcheck)\n"
        "  --sarif FILE, --junit FILE, --markdown FILE   also SARIF 2.1.0, JUnit XML (a test\n"
        "                       case a launch), a Markdown summary (docs/ci.md)\n"
        "  --findings-csv FILE  also every finding (conflicts, hazards, memory errors, API\n"
        "                       errors, leaks, uninitialized copies) as a CSV row each\n"
        "  --baseline REPORT    exit 1 only on what got worse than REPORT (a committed\n"
        "                       --format json report), each named; replaces the --fail-on checks\n"
        "  --source-root DIR    SARIF paths relative to DIR (a base name found once under it)\n"
        "  --fail-on-incomplete exit 1 when the report is not whole: a recorded launch failed\n"
        "                       (stopped before its end), or the program ended without its\n"
        "                       exit handlers (the last launches may be missing)\n\n"
        "exit: the program's status (128+N when killed by signal N); 1 a check asked for failed;\n"
        "2 usage; 3 the program cannot run here (static cudart, SASS only, an unsupported CUDA\n"
        "call, a kernel the emulator cannot run), with one sentence saying which.\n");
}

/* build/runtime/ beside the executable (lib/smemlab/ of an install), or $SMEMLAB_RUNTIME_DIR. */
static int runtime_dir(char *out, size_t n)
{
    const char *e = getenv("SMEMLAB_RUNTIME_DIR");
    if (e && *e)
        snprintf(out, n, "%s", e);
    else if (cli_private_dir("runtime", "", out, n))
        return -1;
    char lib[PATH_MAX + 32];
    snprintf(lib, sizeof lib, "%s/libcudart.so.13", out);
    return access(lib, R_OK) ? -1 : 0;
}

/* A sanitizer build of the library needs the sanitizer's runtime loaded first. */
static const char *sanitizer_preload(const char *dir)
{
    static char need[128];
    char lib[PATH_MAX + 32];
    snprintf(lib, sizeof lib, "%s/libcudart.so.13", dir);
    struct smem_elf *e = NULL;
    if (smem_elf_open(lib, &e, NULL) != 0)
        return NULL;
    const char *found = NULL;
    for (unsigned i = 0; smem_elf_needed(e, i); i++)
        if (!strncmp(smem_elf_needed(e, i), "libasan.so", 10)) {
            snprintf(need, sizeof need, "%s", smem_elf_needed(e, i));
            found = need;
        }
    smem_elf_close(e);
    return found;
}

static int compile(const char *cu, char **nvcc_args, int nargs, const char *out)
{
    const char *nvcc = getenv("SMEMLAB_NVCC");
    char **argv = calloc((size_t)nargs + 12, sizeof *argv);
    if (!argv)
        return -1;
    int k = 0;
    argv[k++] = (char *)(nvcc && *nvcc ? nvcc : "nvcc");
    argv[k++] = (char *)"-cudart";
    argv[k++] = (char *)"shared";
    argv[k++] = (char *)"-lineinfo";
    argv[k++] = (char *)"-g"; /* host lines: the sanitizer's call sites (device code unchanged) */
    argv[k++] = (char *)"-arch=sm_90";
    for (int i = 0; i < nargs; i++)
        argv[k++] = nvcc_args[i];
    argv[k++] = (char *)cu;
    argv[k++] = (char *)"-o";
    argv[k++] = (char *)out;
    argv[k] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(2, 1); /* the compiler's output is about the build: stderr */
        execvp(argv[0], argv);
        fprintf(stderr, "smemlab run: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(argv);
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

struct status {
    int runtime, complete, crashed;
    unsigned long long launches, recorded, conflicts, hazards, memory_errors, api_errors, leaks;
    unsigned long long failed;
    char fatal[1200];
};

static void read_status(const char *path, struct status *s)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1400];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *sp = strchr(line, ' ');
        if (!sp)
            continue;
        *sp++ = 0;
        unsigned long long v = strtoull(sp, NULL, 10);
        if (!strcmp(line, "runtime"))
            s->runtime = (int)v;
        else if (!strcmp(line, "complete"))
            s->complete = (int)v;
        else if (!strcmp(line, "launches"))
            s->launches = v;
        else if (!strcmp(line, "recorded"))
            s->recorded = v;
        else if (!strcmp(line, "conflicts"))
            s->conflicts = v;
        else if (!strcmp(line, "hazards"))
            s->hazards = v;
        else if (!strcmp(line, "memory_errors"))
            s->memory_errors = v;
        else if (!strcmp(line, "api_errors"))
            s->api_errors = v;
        else if (!strcmp(line, "leaks"))
            s->leaks = v;
        else if (!strcmp(line, "failed"))
            s->failed = v;
        else if (!strcmp(line, "fatal"))
            snprintf(s->fatal, sizeof s->fatal, "%s", sp);
        else if (!strcmp(line, "crashed"))
            s->crashed = 1; /* the library said where on stderr */
    }
    fclose(f);
}

/* The report, with the program's exit status where the library left a place for it (JSON). */
static int emit_report(const char *from, FILE *to, int fmt, const char *status_text)
{
    size_t len = 0;
    char *text = smem_read_file(from, &len);
    if (!text)
        return -1;
    const char *hole = fmt == FMT_JSON ? strstr(text, "\"exit_status\": null") : NULL;
    if (hole) {
        fwrite(text, 1, (size_t)(hole - text), to);
        fprintf(to, "\"exit_status\": %s", status_text);
        fputs(hole + strlen("\"exit_status\": null"), to);
    } else {
        fwrite(text, 1, len, to);
    }
    free(text);
    return 0;
}

/* --sanitizer-text: the library's JSON report as compute-sanitizer's text */
static int emit_sanitizer_text(const char *from, FILE *to, unsigned tools, int leak_check)
{
    struct smem_error err;
    struct smem_json *doc = smem_json_load(from, &err);
    if (!doc) {
        fprintf(stderr, "smemlab run: %s\n", err.msg);
        return -1;
    }
    smem_sanitizer_text_write(to, doc, tools, leak_check);
    smem_json_free(doc);
    return 0;
}

static volatile pid_t child_pid;

static void forward_signal(int sig)
{
    if (child_pid > 0)
        kill(child_pid, sig);
}

static void rm_tree(const char *dir, const char *const *files)
{
    char p[PATH_MAX + 64];
    for (unsigned i = 0; files[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
}

int cmd_run(int argc, char **argv)
{
    const char *out = NULL, *kernel = NULL, *device = NULL, *html = NULL;
    unsigned long long launches = 0, max_steps = 0, jobs = 0;
    int fmt = FMT_TABLE, hazards = 1, fail_conflict = 0, fail_hazard = 0, fail_memory = 0;
    int leak_check = 0, fail_api = 0, fail_leak = 0;
    int fail_incomplete = 0, initcheck = 0, global_races = 0;
    unsigned santools = 0; /* --sanitizer-text: compute-sanitizer's tools whose records to write */
    int progress = isatty(STDERR_FILENO); /* --progress / --no-progress */
    struct cli_ci ci = {0};
    int ci_opt;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help();
            return EXIT_OK;
        } else if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "-o") && v) {
            out = v;
            i++;
        } else if (!strcmp(a, "--format") && v) {
            if ((fmt = cli_parse_format(v)) < 0)
                return cli_usage_error("run", "--format %s: expected table, json or csv", v);
            i++;
        } else if (!strcmp(a, "--html") && v) {
            html = v;
            i++;
        } else if (!strcmp(a, "--kernel") && v) {
            kernel = v;
            i++;
        } else if (!strcmp(a, "--launches") && v) {
            if (cli_parse_uint(v, ~0ull, &launches))
                return cli_usage_error("run", "--launches %s: expected a count", v);
            i++;
        } else if (!strcmp(a, "--max-steps") && v) {
            if (cli_parse_uint(v, ~0ull, &max_steps) || !max_steps)
                return cli_usage_error("run", "--max-steps %s: expected a positive count", v);
            i++;
        } else if (!strcmp(a, "--jobs") && v) {
            if (cli_parse_uint(v, 256, &jobs) || !jobs)
                return cli_usage_error("run", "--jobs %s: expected a count", v);
            i++;
        } else if (!strcmp(a, "--device") && v) {
            if (strcmp(v, "h100") && strcmp(v, "h200"))
                return cli_usage_error("run", "--device %s: expected h100 or h200", v);
            device = v;
            i++;
        } else if (!strcmp(a, "--no-hazards")) {
            hazards = 0;
        } else if (!strcmp(a, "--progress")) {
            progress = 1;
        } else if (!strcmp(a, "--no-progress")) {
            progress = 0;
        } else if (!strcmp(a, "--fail-on-conflict")) {
            fail_conflict = 1;
        } else if (!strcmp(a, "--fail-on-hazard")) {
            fail_hazard = 1;
        } else if (!strcmp(a, "--fail-on-memory-error")) {
            fail_memory = 1;
        } else if (!strcmp(a, "--leak-check") && v) {
            if (strcmp(v, "full") && strcmp(v, "no"))
                return cli_usage_error("run", "--leak-check %s: expected full or no", v);
            leak_check = !strcmp(v, "full");
            i++;
        } else if (!strcmp(a, "--fail-on-api-error")) {
            fail_api = 1;
        } else if (!strcmp(a, "--fail-on-leak")) {
            fail_leak = leak_check = 1;
        } else if (!strcmp(a, "--initcheck")) {
            initcheck = 1;
        } else if (!strcmp(a, "--global-races")) {
            global_races = 1;
        } else if (!strcmp(a, "--sanitizer-text")) {
            santools = santools ? santools : SMEM_SANTEXT_ALL;
        } else if (!strcmp(a, "--sanitizer-tool") && v) {
            if (!(santools = smem_sanitizer_tool(v)))
                return cli_usage_error("run", "--sanitizer-tool %s: expected memcheck, racecheck, "
                                              "synccheck, initcheck or all", v);
            initcheck |= (santools & SMEM_SANTEXT_INITCHECK) && santools != SMEM_SANTEXT_ALL;
            i++;
        } else if ((ci_opt = cli_ci_option("run", argc, argv, &i, &ci)) != 0) {
            if (ci_opt < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--fail-on-incomplete")) {
            fail_incomplete = 1;
        } else if (a[0] == '-' && a[1]) {
            static const char *const valued[] = {"-o", "--format", "--kernel", "--html",
                                                 "--launches", "--max-steps", "--jobs",
                                                 "--device", "--leak-check", "--sanitizer-tool",
                                                 NULL};
            return cli_unknown_option("run", a, valued);
        } else {
            break;
        }
    }
    if (i >= argc)
        return cli_usage_error("run", "which program? (smemlab run PROGRAM [ARGS...] or "
                                      "smemlab run FILE.cu [NVCC_ARGS...] -- [ARGS...])");
    if (fail_hazard)
        hazards = 1;
    char rtdir[PATH_MAX];
    if (runtime_dir(rtdir, sizeof rtdir)) {
        fprintf(stderr, "smemlab run: smemlab's libcudart.so.13 is not in %s (build it with "
                        "make, or set SMEMLAB_RUNTIME_DIR)\n", rtdir);
        return EXIT_INPUT;
    }
    char tmpdir[] = "/tmp/smemlab-run-XXXXXX";
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "smemlab run: cannot create a temporary folder: %s\n", strerror(errno));
        return EXIT_INPUT;
    }
    static const char *const tmpfiles[] = {"report", "report.tmp", "status", "status.tmp",
                                           "program", "report.json", NULL};
    char report[PATH_MAX], status_path[PATH_MAX], exe[PATH_MAX], ci_json[PATH_MAX];
    snprintf(report, sizeof report, "%s/report", tmpdir);
    snprintf(status_path, sizeof status_path, "%s/status", tmpdir);
    /* the CI outputs read the JSON report: the one asked for, or one more */
    snprintf(ci_json, sizeof ci_json, "%s/%s", tmpdir, fmt == FMT_JSON ? "report" : "report.json");
    int rc = EXIT_INPUT;
    /* compile mode: FILE.cu NVCC_ARGS... -- ARGS... */
    const char *program = argv[i];
    char **pargs = argv + i;
    size_t pl = strlen(program);
    if (pl > 3 && !strcmp(program + pl - 3, ".cu")) {
        int j = i + 1;
        while (j < argc && strcmp(argv[j], "--"))
            j++;
        snprintf(exe, sizeof exe, "%s/program", tmpdir);
        int cr = compile(program, argv + i + 1, j - i - 1, exe);
        if (cr) {
            fprintf(stderr, "smemlab run: %s: nvcc failed (exit %d)\n", program, cr);
            goto done;
        }
        /* argv[0] of the program is the .cu's name without the extension */
        /* argv[0] of the program goes in the slot of "--" (or of the last word) */
        pargs = j < argc ? argv + j : argv + argc - 1;
        static char name[PATH_MAX];
        const char *base = smem_base_name(program);
        snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 3), base);
        pargs[0] = name;
        program = exe;
    }
    /* a bare name (python3) is looked for on PATH, as execvp will */
    static char found[2 * PATH_MAX + 2];
    const char *checked = program;
    if (!strchr(program, '/') && access(program, F_OK) != 0) {
        const char *path = getenv("PATH");
        for (const char *d = path; d && *d;) {
            const char *e = strchr(d, ':');
            size_t n = e ? (size_t)(e - d) : strlen(d);
            snprintf(found, sizeof found, "%.*s/%s", (int)n, n ? d : ".", program);
            if (access(found, X_OK) == 0) {
                checked = found;
                break;
            }
            d = e ? e + 1 : d + n;
        }
    }
    struct smem_error err;
    memset(&err, 0, sizeof err);
    enum smem_program_kind kind = smem_program_check(checked, &err);
    if (kind == SMEM_PROGRAM_UNREADABLE) {
        fprintf(stderr, "smemlab run: %s: %s\n", program, err.msg);
        goto done;
    }
    if (kind != SMEM_PROGRAM_OK && kind != SMEM_PROGRAM_NOT_ELF) {
        fprintf(stderr, "smemlab run: %s: %s\n", argv[i], err.msg);
        goto done;
    }
    /* the environment the library reads */
    const char *old_llp = getenv("LD_LIBRARY_PATH");
    size_t llp_n = strlen(rtdir) + (old_llp ? strlen(old_llp) : 0) + 2;
    char *llp = malloc(llp_n);
    if (!llp)
        goto done;
    snprintf(llp, llp_n, "%s%s%s", rtdir, old_llp && *old_llp ? ":" : "",
             old_llp ? old_llp : "");
    setenv("LD_LIBRARY_PATH", llp, 1);
    free(llp);
    const char *san = sanitizer_preload(rtdir);
    if (san) {
        const char *old_pre = getenv("LD_PRELOAD");
        char pre[4096];
        snprintf(pre, sizeof pre, "%s%s%s", san, old_pre && *old_pre ? ":" : "",
                 old_pre ? old_pre : "");
        setenv("LD_PRELOAD", pre, 1);
        /* the program's signals are the library's to report (its SIGSEGV handler names the
           device address a host dereference hit): the sanitizer keeps its hands off them */
        const char *old_asan = getenv("ASAN_OPTIONS");
        char asan[1024];
        snprintf(asan, sizeof asan, "detect_leaks=0:allow_user_segv_handler=1:handle_segv=0:"
                 "handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0%s%s",
                 old_asan && *old_asan ? ":" : "", old_asan ? old_asan : "");
        setenv("ASAN_OPTIONS", asan, 1);
    }
    setenv(SMEM_RUN_ENV_REPORT, report, 1);
    setenv(SMEM_RUN_ENV_STATUS, status_path, 1);
    if (santools)
        fmt = FMT_JSON; /* the library writes JSON; the CLI writes compute-sanitizer's text of it */
    setenv(SMEM_RUN_ENV_FORMAT, fmt == FMT_JSON ? "json" : fmt == FMT_CSV ? "csv" : "table", 1);
    setenv(SMEM_RUN_ENV_INITCHECK, initcheck ? "1" : "0", 1);
    setenv(SMEM_RUN_ENV_GLOBAL_RACES, global_races ? "1" : "0", 1);
    setenv(SMEM_RUN_ENV_HAZARDS, hazards ? "1" : "0", 1);
    setenv(SMEM_RUN_ENV_PROGRESS, progress ? "1" : "0", 1);
    setenv(SMEM_RUN_ENV_LEAK_CHECK, leak_check ? "full" : "no", 1);
    char num[32];
    if (kernel)
        setenv(SMEM_RUN_ENV_KERNEL, kernel, 1);
    if (launches) {
        snprintf(num, sizeof num, "%llu", launches);
        setenv(SMEM_RUN_ENV_LAUNCHES, num, 1);
    }
    if (max_steps) {
        snprintf(num, sizeof num, "%llu", max_steps);
        setenv(SMEM_RUN_ENV_MAX_STEPS, num, 1);
    }
    if (device)
        setenv(SMEM_RUN_ENV_DEVICE, device, 1);
    if (html) {
        char abs[PATH_MAX];
        if (html[0] != '/' && getcwd(abs, sizeof abs) && strlen(abs) + strlen(html) + 2 < sizeof abs) {
            strcat(abs, "/");
            strcat(abs, html);
            setenv(SMEM_RUN_ENV_HTML, abs, 1);
        } else {
            setenv(SMEM_RUN_ENV_HTML, html, 1);
        }
    }
    if (cli_ci_wanted(&ci) && fmt != FMT_JSON)
        setenv(SMEM_RUN_ENV_JSON, ci_json, 1);
    if (jobs) {
        snprintf(num, sizeof num, "%llu", jobs);
        setenv(SMEM_RUN_ENV_JOBS, num, 1);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "smemlab run: cannot start %s: %s\n", argv[i], strerror(errno));
        goto done;
    }
    if (pid == 0) {
        snprintf(num, sizeof num, "%ld", (long)getpid());
        setenv(SMEM_RUN_ENV_PID, num, 1);
        execvp(program, pargs);
        fprintf(stderr, "smemlab run: cannot run %s: %s\n", program, strerror(errno));
        _exit(127);
    }
    /* Ctrl-C and SIGTERM (a CI timeout) go to the program; we stay to print what it did */
    struct sigaction fwd, old_int, old_term;
    memset(&fwd, 0, sizeof fwd);
    fwd.sa_handler = forward_signal;
    child_pid = pid;
    sigaction(SIGINT, &fwd, &old_int);
    sigaction(SIGTERM, &fwd, &old_term);
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    struct status st;
    read_status(status_path, &st);
    char status_text[32];
    int pstatus;
    if (WIFSIGNALED(ws)) {
        pstatus = 128 + WTERMSIG(ws);
        snprintf(status_text, sizeof status_text, "%d", pstatus);
        if (!st.fatal[0] && !st.crashed)
            fprintf(stderr, "smemlab run: %s was killed by signal %d (%s)\n", argv[i],
                    WTERMSIG(ws), strsignal(WTERMSIG(ws)));
    } else {
        pstatus = WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
        snprintf(status_text, sizeof status_text, "%d", pstatus);
    }
    if (!st.runtime) {
        if (pstatus == 127 && kind == SMEM_PROGRAM_NOT_ELF) {
            rc = pstatus;
            goto done;
        }
        fprintf(stderr, "smemlab run: %s made no call to smemlab's libcudart.so.13 (not a CUDA "
                        "program, or one that finds CUDA's own libcudart through an RPATH or "
                        "dlopen)\n", argv[i]);
        rc = EXIT_INPUT;
        goto done;
    }
    /* the report: to -o FILE, or to stderr after the program's own output */
    if (access(report, R_OK) == 0) {
        FILE *to = out ? fopen(out, "w") : stderr;
        if (!to) {
            fprintf(stderr, "smemlab run: cannot write %s: %s\n", out, strerror(errno));
        } else {
            if (!out)
                fputc('\n', stderr);
            if (santools)
                emit_sanitizer_text(report, to, santools, leak_check);
            else
                emit_report(report, to, fmt, status_text);
            if (fmt == FMT_TABLE)
                fprintf(to, "\nexit status: %s%s\n", status_text,
                        st.fatal[0] ? " (stopped by smemlab)" : "");
            if (out && fclose(to))
                fprintf(stderr, "smemlab run: cannot write %s\n", out);
        }
    }
    struct smem_ci_checks checks = {fail_conflict, fail_hazard, fail_memory, fail_api, fail_leak};
    int ci_rc = cli_ci_wanted(&ci) ? cli_ci_run_outputs(&ci, ci_json, status_text, &checks, pargs)
                                   : EXIT_OK;
    if (st.fatal[0]) {
        rc = EXIT_INPUT; /* the library said why on stderr */
        goto done;
    }
    rc = pstatus;
    if (rc == 0 && ci_rc != EXIT_OK)
        rc = ci_rc; /* worse than the baseline, or an output not written */
    if (rc == 0 && !ci.baseline) {
        if (fail_conflict && st.conflicts) {
            fprintf(stderr, "smemlab run: --fail-on-conflict: %llu wavefronts beyond the ideal\n",
                    st.conflicts);
            rc = EXIT_CHECK;
        }
        if (fail_hazard && st.hazards) {
            fprintf(stderr, "smemlab run: --fail-on-hazard: %llu hazards\n", st.hazards);
            rc = EXIT_CHECK;
        }
        if (fail_memory && st.memory_errors) {
            fprintf(stderr, "smemlab run: --fail-on-memory-error: %llu accesses outside every "
                            "allocation\n", st.memory_errors);
            rc = EXIT_CHECK;
        }
        if (fail_api && st.api_errors) {
            fprintf(stderr, "smemlab run: --fail-on-api-error: %llu CUDA calls returned an "
                            "error\n", st.api_errors);
            rc = EXIT_CHECK;
        }
        if (fail_leak && st.leaks) {
            fprintf(stderr, "smemlab run: --fail-on-leak: %llu allocations not freed\n", st.leaks);
            rc = EXIT_CHECK;
        }
        if (fail_incomplete && (st.failed || !st.complete)) {
            if (st.failed)
                fprintf(stderr, "smemlab run: --fail-on-incomplete: %llu launch%s failed before "
                                "%s end\n", st.failed, st.failed == 1 ? "" : "es",
                        st.failed == 1 ? "its" : "their");
            else
                fprintf(stderr, "smemlab run: --fail-on-incomplete: the program ended without "
                                "its exit handlers: the report may miss its last launches\n");
            rc = EXIT_CHECK;
        }
    }
done:
    rm_tree(tmpdir, tmpfiles);
    return rc;
}
