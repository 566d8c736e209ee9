/* test_sanitize.c: `smemlab run`'s sanitizer findings without a GPU (docs/run.md, "Sanitizer
 * findings"). tests/run/sanitize.cu plants one host-side fault per mode (leaks of every kind of
 * allocation, a double free, a free of a host pointer, copies and sets of freed memory, a copy past
 * an allocation's end, an error the program checks) and clean controls; compute-sanitizer's
 * memcheck --leak-check full ran each on an H200 (tests/run/h200-sanitize.txt: driver 580.159.04,
 * compute-sanitizer 2025.3.1, 2026-11-29). Every mode's findings here must be its verdicts there:
 * the same kinds, calls, errors, byte counts and program lines, no more, no fewer. Also: the
 * default (no leak check, as compute-sanitizer's), --fail-on-api-error / --fail-on-leak, a program
 * built without -g (binary+offset), a kernel reading freed memory (sanitize_kernel.cu: named use
 * after free with its host lines). Needs nvcc (else skipped, exit 77). */
#include "check.h"
#include "testfile.h"

#include "smemlab/report/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char *src = SMEMLAB_SOURCE_DIR;
static char bin[1024], smemlab[1024];

struct verdict {
    char kind[16];      /* "leak" or "api error" */
    char call[64];      /* api error: the call */
    char error[64];     /* api error: its name */
    unsigned long long bytes; /* leak */
    unsigned line;      /* the program's line (sanitize.cu) */
    int matched;
};

#define MAXV 8

static int sh(const char *cmd)
{
    int st = system(cmd);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* The verdicts of mode's section of the golden file (memcheck --leak-check full). */
static unsigned golden(const char *text, const char *mode, struct verdict *v)
{
    char head[128];
    snprintf(head, sizeof head, "=== mode %s: compute-sanitizer --tool memcheck --leak-check full",
             mode);
    const char *p = strstr(text, head);
    if (!p)
        return ~0u;
    p += strlen(head);
    const char *end = strstr(p, "=== exit");
    unsigned n = 0;
    while (p && p < end) {
        const char *nl = strchr(p, '\n');
        char line[600];
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)(len < 599 ? len : 599), p);
        const char *x;
        if ((x = strstr(line, "Leaked ")) && n < MAXV) {
            memset(&v[n], 0, sizeof v[n]);
            strcpy(v[n].kind, "leak");
            for (x += 7; *x && *x != ' '; x++)
                if (*x >= '0' && *x <= '9')
                    v[n].bytes = v[n].bytes * 10 + (unsigned)(*x - '0');
            n++;
        } else if ((x = strstr(line, "Program hit ")) && n < MAXV) {
            memset(&v[n], 0, sizeof v[n]);
            strcpy(v[n].kind, "api error");
            sscanf(x + 12, "%63s", v[n].error);
            const char *c = strstr(line, "API call to ");
            if (c)
                sscanf(c + 12, "%63[^.]", v[n].call);
            n++;
        } else if ((x = strstr(line, "in sanitize.cu:")) && n && !v[n - 1].line) {
            v[n - 1].line = (unsigned)atoi(x + 15); /* the first frame in the program's file */
        }
        p = nl ? nl + 1 : NULL;
    }
    return n;
}

/* Runs smemlab run OPTS PROGRAM MODE with a JSON report; its "sanitizer" array, or NULL. */
static struct smem_json *run_json(const char *opts, const char *prog, const char *mode, int *rc)
{
    char out[1200], cmd[8000];
    snprintf(out, sizeof out, "%s/%s.%s.json", bin, prog, mode);
    snprintf(cmd, sizeof cmd, "%s run %s --format json -o %s %s/%s %s > %s.log 2>&1", smemlab, opts,
             out, bin, prog, mode, out);
    *rc = sh(cmd);
    struct smem_error err;
    return smem_json_load(out, &err);
}

static void test_every_mode_as_compute_sanitizer_on_the_h200(void)
{
    static const char *const modes[] = {"clean", "leak_malloc", "leak_pitch", "leak_managed",
                                        "leak_async", "leak_host", "leak_hostalloc", "double_free",
                                        "bad_free", "uaf_memcpy", "uaf_memset", "oob_memcpy",
                                        "checked_error", NULL};
    char path[1200];
    snprintf(path, sizeof path, "%s/tests/run/h200-sanitize.txt", src);
    size_t len;
    char *text = test_read_file(path, &len);
    CHECK(text != NULL);
    if (!text)
        return;
    CHECK(strstr(text, "# device: NVIDIA H200") != NULL);
    for (int m = 0; modes[m]; m++) {
        struct verdict v[MAXV];
        unsigned nv = golden(text, modes[m], v);
        CHECK(nv != ~0u);
        if (nv == ~0u)
            continue;
        int rc;
        struct smem_json *j = run_json("--leak-check full", "sanitize", modes[m], &rc);
        CHECK(j != NULL);
        if (!j)
            continue;
        CHECK_EQ(rc, 0);
        const struct smem_json *f = smem_json_get(j, "sanitizer");
        unsigned nf = smem_json_len(f);
        if (nf != nv)
            fprintf(stderr, "mode %s: %u findings, compute-sanitizer %u\n", modes[m], nf, nv);
        CHECK_EQ(nf, nv);
        for (unsigned i = 0; i < nf; i++) {
            const struct smem_json *x = smem_json_at(f, i);
            const char *kind = smem_json_str(x, "kind"), *call = smem_json_str(x, "call");
            const char *error = smem_json_str(x, "error"), *file = smem_json_str(x, "file");
            unsigned line = (unsigned)smem_json_num(x, "line", 0);
            int found = 0;
            for (unsigned k = 0; k < nv && !found; k++) {
                if (v[k].matched || !kind || strcmp(kind, v[k].kind) || line != v[k].line ||
                    !file || strcmp(file, "sanitize.cu"))
                    continue;
                if (!strcmp(kind, "leak")
                        ? (unsigned long long)smem_json_num(x, "bytes", 0) == v[k].bytes
                        : call && error && !strcmp(call, v[k].call) && !strcmp(error, v[k].error))
                    found = v[k].matched = 1;
            }
            if (!found)
                fprintf(stderr, "mode %s: %s %s %s at %s:%u is not compute-sanitizer's\n",
                        modes[m], kind ? kind : "?", call ? call : "?", error ? error : "",
                        file ? file : "?", line);
            CHECK(found);
        }
        smem_json_free(j);
    }
    free(text);
}

/* The details: use after free and the double free name where the allocation was made and freed. */
static void test_details_name_the_allocation(void)
{
    static const struct {
        const char *mode, *detail;
    } cases[] = {
        {"double_free", "double free of the 256-byte allocation made at sanitize.cu:73, freed at "
                        "sanitize.cu:74"},
        {"uaf_memcpy", "use after free of the 256-byte allocation made at sanitize.cu:81, freed "
                       "at sanitize.cu:82"},
        {"uaf_memset", "use after free of the 256-byte allocation made at sanitize.cu:86, freed "
                       "at sanitize.cu:87"},
        {"oob_memcpy", "invalid pointer given to a copy: 512 bytes"},
        {"bad_free", "cudaFree of 0x"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int rc;
        struct smem_json *j = run_json("", "sanitize", cases[c].mode, &rc);
        CHECK(j != NULL);
        const struct smem_json *f = smem_json_at(smem_json_get(j, "sanitizer"), 0);
        const char *d = smem_json_str(f, "detail");
        if (!d || strncmp(d, cases[c].detail, strlen(cases[c].detail)))
            fprintf(stderr, "%s: detail %s\n", cases[c].mode, d ? d : "(none)");
        CHECK(d && !strncmp(d, cases[c].detail, strlen(cases[c].detail)));
        smem_json_free(j);
    }
}

/* Leaks only with --leak-check full (compute-sanitizer's default is no); the fail options. */
static void test_defaults_and_fail_options(void)
{
    int rc;
    struct smem_json *j = run_json("", "sanitize", "leak_malloc", &rc);
    CHECK(j && !smem_json_get(j, "sanitizer")); /* no finding: the key is absent */
    CHECK_EQ(rc, 0);
    smem_json_free(j);
    j = run_json("--fail-on-leak", "sanitize", "leak_host", &rc);
    CHECK_EQ(rc, 1);
    CHECK_EQ(smem_json_len(smem_json_get(j, "sanitizer")), 1);
    smem_json_free(j);
    j = run_json("--fail-on-leak --fail-on-api-error", "sanitize", "clean", &rc);
    CHECK_EQ(rc, 0);
    smem_json_free(j);
    j = run_json("--fail-on-api-error", "sanitize", "double_free", &rc);
    CHECK_EQ(rc, 1);
    smem_json_free(j);
    j = run_json("--fail-on-api-error", "sanitize", "leak_malloc", &rc);
    CHECK_EQ(rc, 0);
    smem_json_free(j);
    /* the table says it too, and the usage error is located */
    char cmd[8000], out[1200];
    snprintf(out, sizeof out, "%s/sanitize.table.txt", bin);
    snprintf(cmd, sizeof cmd, "%s run --leak-check full %s/sanitize leak_pitch > %s 2>&1", smemlab,
             bin, out);
    CHECK_EQ(sh(cmd), 0);
    size_t len;
    char *t = test_read_file(out, &len);
    CHECK(t && strstr(t, "leak: 2048 bytes at 0x"));
    CHECK(t && strstr(t, "made by cudaMallocPitch at sanitize.cu:58"));
    CHECK(t && strstr(t, "leak summary: 2048 bytes leaked in 1 allocation"));
    free(t);
    snprintf(cmd, sizeof cmd, "%s run --leak-check some %s/sanitize > %s 2>&1", smemlab, bin, out);
    CHECK_EQ(sh(cmd), 2);
    t = test_read_file(out, &len);
    CHECK(t && strstr(t, "--leak-check some: expected full or no"));
    free(t);
    snprintf(cmd, sizeof cmd, "%s run --sanitizer-tool memchek %s/sanitize > %s 2>&1", smemlab, bin,
             out);
    CHECK_EQ(sh(cmd), 2);
    t = test_read_file(out, &len);
    CHECK(t && strstr(t, "--sanitizer-tool memchek: expected memcheck, racecheck, synccheck, "
                         "initcheck or all"));
    free(t);
}

/* Without -g the program has no host lines: the site is the binary and the offset. */
static void test_without_debug_information(void)
{
    int rc;
    struct smem_json *j = run_json("", "sanitize_nog", "double_free", &rc);
    const struct smem_json *f = smem_json_at(smem_json_get(j, "sanitizer"), 0);
    const char *site = smem_json_str(f, "site");
    CHECK(site && !strncmp(site, "sanitize_nog+0x", 15));
    CHECK(f && !smem_json_str(f, "file"));
    CHECK(smem_json_str(f, "call") && !strcmp(smem_json_str(f, "call"), "cudaFree"));
    smem_json_free(j);
}

/* A kernel reading freed memory: a memory error named use after free, with the host lines. */
static void test_kernel_use_after_free(void)
{
    int rc;
    struct smem_json *j = run_json("--leak-check full", "sanitize_kernel", "uaf", &rc);
    const struct smem_json *l = smem_json_at(smem_json_get(j, "launches"), 0);
    const struct smem_json *e = smem_json_at(smem_json_get(l, "memory_errors"), 0);
    const char *near = smem_json_str(e, "nearest");
    CHECK(near && strstr(near, "use after free: 0 bytes into a freed 256-byte allocation"));
    CHECK(near && strstr(near, "made at sanitize_kernel.cu:20, freed at sanitize_kernel.cu:24"));
    CHECK(smem_json_num(e, "line", 0) == 12);
    CHECK(!smem_json_get(j, "sanitizer")); /* every call succeeded, nothing leaked */
    smem_json_free(j);
    j = run_json("--leak-check full", "sanitize_kernel", "clean", &rc);
    l = smem_json_at(smem_json_get(j, "launches"), 0);
    CHECK_EQ(smem_json_len(smem_json_get(l, "memory_errors")), 0);
    CHECK(!smem_json_get(j, "sanitizer"));
    smem_json_free(j);
}

/* The findings in every output: --findings-csv's rows, SARIF's rules at the program's line, JUnit's
 * test case (failing with --fail-on-api-error), the Markdown summary, the HTML page. */
static void test_findings_in_every_format(void)
{
    char cmd[16000], base[1200], path[1300];
    snprintf(base, sizeof base, "%s/formats", bin);
    snprintf(cmd, sizeof cmd, "%s run --findings-csv %s.csv --sarif %s.sarif --junit %s.xml "
             "--markdown %s.md --fail-on-api-error %s/sanitize double_free > %s.log 2>&1",
             smemlab, base, base, base, base, bin, base);
    CHECK_EQ(sh(cmd), 1);
    size_t len;
    snprintf(path, sizeof path, "%s.csv", base);
    char *t = test_read_file(path, &len);
    CHECK(t && !strncmp(t, "rule,kind,kernel,file,line,line2,detail,count,launch,fails,message\n",
                        67));
    CHECK(t && strstr(t, "\n\"api-error\",sanitizer,\"cudaFree\",\"sanitize.cu\",75,0,"
                         "\"cudaErrorInvalidValue\",1,-1,1,\"cudaFree returned"));
    free(t);
    snprintf(path, sizeof path, "%s.sarif", base);
    struct smem_error err;
    struct smem_json *j = smem_json_load(path, &err);
    const struct smem_json *res =
        smem_json_get(smem_json_at(smem_json_get(j, "runs"), 0), "results");
    int found = 0;
    for (unsigned i = 0; i < smem_json_len(res); i++) {
        const struct smem_json *r = smem_json_at(res, i);
        const struct smem_json *loc = smem_json_get(
            smem_json_at(smem_json_get(r, "locations"), 0), "physicalLocation");
        const char *rule = smem_json_str(r, "ruleId");
        const char *uri = smem_json_str(smem_json_get(loc, "artifactLocation"), "uri");
        found += rule && !strcmp(rule, "api-error") && uri && !strcmp(uri, "sanitize.cu") &&
                 smem_json_num(smem_json_get(loc, "region"), "startLine", 0) == 75;
    }
    CHECK_EQ(found, 1);
    smem_json_free(j);
    snprintf(path, sizeof path, "%s.xml", base);
    t = test_read_file(path, &len);
    CHECK(t && strstr(t, "name=\"sanitizer: runtime calls and allocations\">\n      <failure"));
    CHECK(t && strstr(t, "sanitize.cu:75: [api-error] cudaFree returned cudaErrorInvalidValue"));
    free(t);
    snprintf(path, sizeof path, "%s.md", base);
    t = test_read_file(path, &len);
    CHECK(t && strstr(t, "1 sanitizer finding"));
    CHECK(t && strstr(t, "### Sanitizer"));
    CHECK(t && strstr(t, "- **fails** `sanitize.cu:75` cudaFree returned cudaErrorInvalidValue"));
    free(t);
    /* the page: the memory errors of the kernel reading freed memory */
    snprintf(cmd, sizeof cmd, "%s run --html %s.html %s/sanitize_kernel uaf > %s.log 2>&1",
             smemlab, base, bin, base);
    CHECK_EQ(sh(cmd), 0);
    snprintf(path, sizeof path, "%s.html", base);
    t = test_read_file(path, &len);
    CHECK(t && strstr(t, "<h2 id='memory-errors'>Memory errors</h2>"));
    CHECK(t && strstr(t, "use after free: 0 bytes into a freed 256-byte allocation"));
    free(t);
}

/* --initcheck: a kernel's loads of bytes never written are memory errors of their own kind, with
 * the read's line, the allocation and the line that made it; a copy's source never written is a
 * finding of the sanitizer; without the option nothing is said (as before). */
static void test_initcheck_locates_the_read_and_the_allocation(void)
{
    int rc;
    struct smem_json *j = run_json("--initcheck", "initcheck", "partial", &rc);
    CHECK_EQ(rc, 0);
    const struct smem_json *l = smem_json_at(smem_json_get(j, "launches"), 0);
    const struct smem_json *e = smem_json_at(smem_json_get(l, "memory_errors"), 0);
    CHECK_EQ(smem_json_len(smem_json_get(l, "memory_errors")), 1);
    const char *kind = smem_json_str(e, "kind"), *near = smem_json_str(e, "nearest");
    CHECK(kind && !strcmp(kind, "uninitialized load"));
    CHECK_EQ(smem_json_num(e, "line", 0), 23);
    CHECK_EQ(smem_json_num(e, "count", 0), 32); /* threads 32-63 read the half never set */
    CHECK_EQ(smem_json_num(e, "bytes", 0), 4);
    CHECK(near && strstr(near, "128 bytes into the 256-byte allocation at 0x"));
    CHECK(near && strstr(near, "(cudaMalloc at initcheck.cu:57), never written"));
    smem_json_free(j);
    j = run_json("--initcheck", "initcheck", "d2d", &rc);
    const struct smem_json *f = smem_json_at(smem_json_get(j, "sanitizer"), 0);
    CHECK_EQ(smem_json_len(smem_json_get(j, "sanitizer")), 1);
    CHECK(smem_json_str(f, "kind") && !strcmp(smem_json_str(f, "kind"), "uninitialized"));
    CHECK(smem_json_str(f, "call") && !strcmp(smem_json_str(f, "call"), "cudaMemcpy"));
    CHECK_EQ(smem_json_num(f, "line", 0), 87);
    CHECK_EQ(smem_json_num(f, "count", 0), 8);
    CHECK_EQ(smem_json_num(f, "bytes", 0), 256);
    /* the copy's destination counts as written: the kernel that reads it is clean */
    l = smem_json_at(smem_json_get(j, "launches"), 0);
    CHECK_EQ(smem_json_len(smem_json_get(l, "memory_errors")), 0);
    smem_json_free(j);
    static const char *const clean[] = {"clean", "two_kernels", "managed", "managed_host"};
    for (unsigned i = 0; i < sizeof clean / sizeof clean[0]; i++) {
        j = run_json("--initcheck --fail-on-memory-error", "initcheck", clean[i], &rc);
        CHECK_EQ(rc, 0);
        CHECK(j && !smem_json_get(j, "sanitizer"));
        smem_json_free(j);
    }
    j = run_json("--fail-on-memory-error", "initcheck", "malloc", &rc); /* no --initcheck */
    CHECK_EQ(rc, 0);
    l = smem_json_at(smem_json_get(j, "launches"), 0);
    CHECK_EQ(smem_json_len(smem_json_get(l, "memory_errors")), 0);
    smem_json_free(j);
    j = run_json("--initcheck --fail-on-memory-error", "initcheck", "malloc", &rc);
    CHECK_EQ(rc, 1);
    smem_json_free(j);
}

int main(void)
{
    if (sh("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/sanitize", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    static const struct {
        const char *cu, *out, *flags;
    } progs[] = {{"sanitize", "sanitize", "-g"},
                 {"sanitize", "sanitize_nog", ""},
                 {"sanitize_kernel", "sanitize_kernel", "-g"},
                 {"initcheck", "initcheck", "-g"}};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        char cmd[4000];
        snprintf(cmd, sizeof cmd, "nvcc -lineinfo -arch=sm_90 -cudart shared %s -o %s/%s "
                 "%s/tests/run/%s.cu > %s/%s.log 2>&1", progs[i].flags, bin, progs[i].out, src,
                 progs[i].cu, bin, progs[i].out);
        if (sh(cmd) != 0) {
            fprintf(stderr, "nvcc failed: %s\n", cmd);
            return 1;
        }
    }
    RUN(test_every_mode_as_compute_sanitizer_on_the_h200);
    RUN(test_details_name_the_allocation);
    RUN(test_defaults_and_fail_options);
    RUN(test_without_debug_information);
    RUN(test_kernel_use_after_free);
    RUN(test_findings_in_every_format);
    RUN(test_initcheck_locates_the_read_and_the_allocation);
    return CHECK_DONE();
}
