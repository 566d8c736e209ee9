/* sanitizer_text.c: a run's findings in compute-sanitizer's layout (sanitizer_text.h), from the run's
 * JSON report. The records follow compute-sanitizer 2025.3's on the H200 (tests/run/h200-*.txt);
 * where smemlab knows less or otherwise, it says so in a line of the record's own indentation:
 * the SASS offset of "at KERNEL+0x..." is left out (smemlab runs the PTX), a host backtrace
 * keeps the program's own frame, and a record that stands for several thread accesses of one
 * instruction (smemlab keeps the first) says how many. */
#include "smemlab/report/sanitizer_text.h"

#include "smemlab/analysis/analyze.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "========= "
#define MAX_REPEATS 1000 /* an api error seen more often is printed this many times (counted all) */

unsigned smem_sanitizer_tool(const char *name)
{
    static const struct {
        const char *name;
        unsigned mask;
    } tools[] = {{"memcheck", SMEM_SANTEXT_MEMCHECK}, {"racecheck", SMEM_SANTEXT_RACECHECK},
                 {"synccheck", SMEM_SANTEXT_SYNCCHECK}, {"initcheck", SMEM_SANTEXT_INITCHECK},
                 {"all", SMEM_SANTEXT_ALL}};
    for (unsigned i = 0; i < sizeof tools / sizeof tools[0]; i++)
        if (name && !strcmp(name, tools[i].name))
            return tools[i].mask;
    return 0;
}

/* Demangled kernel signatures, once per symbol, in compute-sanitizer's spelling ("int *"). */
struct names {
    const char **sym;
    char **sig;
    unsigned n;
};

/* cu++filt's "sum(int const*, int**)" as compute-sanitizer spells it: "sum(const int *, int **)"
 * (a parameter's "T const" first as "const T", a space before its pointers) */
static char *sanitizer_spelling(const char *dem)
{
    size_t n = strlen(dem);
    char *out = malloc(2 * n + 8), *o = out;
    if (!out)
        return NULL;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = dem[i];
        if (c == '<')
            depth++;
        else if (c == '>')
            depth--;
        /* a parameter begins: after '(' or a top-level ", " */
        if ((c == '(' || (c == ',' && depth == 0)) && i + 1 < n) {
            *o++ = c;
            size_t j = i + 1;
            if (dem[j] == ' ')
                *o++ = dem[j++];
            size_t w = j; /* the type's words ("long long"): letters, digits, _, ::, spaces */
            while (w < n && ((dem[w] >= 'a' && dem[w] <= 'z') || (dem[w] >= 'A' && dem[w] <= 'Z') ||
                             (dem[w] >= '0' && dem[w] <= '9') || dem[w] == '_' || dem[w] == ':' ||
                             (dem[w] == ' ' && strncmp(dem + w, " const", 6))))
                w++;
            if (w > j && !strncmp(dem + w, " const", 6) &&
                (dem[w + 6] == '*' || dem[w + 6] == '&' || dem[w + 6] == ',' || dem[w + 6] == ')')) {
                memcpy(o, "const ", 6);
                o += 6;
                memcpy(o, dem + j, w - j);
                o += w - j;
                i = w + 5; /* past " const" */
            } else {
                i = j - 1;
            }
            continue;
        }
        if ((c == '*' || c == '&') && i && dem[i - 1] != ' ' && dem[i - 1] != '*' &&
            dem[i - 1] != '&' && dem[i - 1] != '(')
            *o++ = ' ';
        *o++ = c;
    }
    *o = 0;
    return out;
}

static void names_fill(struct names *nm, const struct smem_json *launches)
{
    unsigned n = smem_json_len(launches);
    nm->sym = calloc(n ? n : 1, sizeof *nm->sym);
    nm->sig = calloc(n ? n : 1, sizeof *nm->sig);
    nm->n = 0;
    if (!nm->sym || !nm->sig)
        return;
    for (unsigned i = 0; i < n; i++) {
        const char *s = smem_json_str(smem_json_at(launches, i), "symbol");
        unsigned k = 0;
        while (s && k < nm->n && strcmp(nm->sym[k], s))
            k++;
        if (s && k == nm->n)
            nm->sym[nm->n++] = s;
    }
    char **dem = calloc(nm->n ? nm->n : 1, sizeof *dem);
    if (!dem)
        return;
    smem_demangle(nm->sym, nm->n, dem);
    for (unsigned k = 0; k < nm->n; k++) {
        nm->sig[k] = sanitizer_spelling(dem[k] ? dem[k] : nm->sym[k]);
        free(dem[k]);
    }
    free(dem);
}

static const char *names_of(const struct names *nm, const char *sym, const char *dflt)
{
    for (unsigned k = 0; sym && k < nm->n; k++)
        if (!strcmp(nm->sym[k], sym) && nm->sig[k])
            return nm->sig[k];
    return dflt ? dflt : "?";
}

static void names_free(struct names *nm)
{
    for (unsigned k = 0; k < nm->n; k++)
        free(nm->sig[k]);
    free(nm->sig);
    free(nm->sym);
}

static unsigned long long num(const struct smem_json *j, const char *key)
{
    double v = smem_json_num(j, key, 0);
    return v > 0 && v < 1.8e19 ? (unsigned long long)v : 0;
}

/* an array's i-th number (0 when absent) */
static unsigned long long item(const struct smem_json *a, unsigned i)
{
    const struct smem_json *x = smem_json_at(a, i);
    return x && x->type == SMEM_JSON_NUMBER && x->number > 0 ? (unsigned long long)x->number : 0;
}

static void triple(FILE *f, const struct smem_json *a)
{
    fprintf(f, "(%llu,%llu,%llu)", item(a, 0), item(a, 1), item(a, 2));
}

/* 1,234,567 as compute-sanitizer writes a leak's bytes */
static const char *grouped(char *buf, size_t n, unsigned long long v)
{
    char d[32];
    int len = snprintf(d, sizeof d, "%llu", v), o = 0;
    for (int i = 0; i < len && (size_t)o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = 0;
    return buf;
}

/* "at SIG in FILE:LINE" (no SASS offset: smemlab runs the PTX) */
static void at(FILE *f, const char *sig, const char *file, unsigned line)
{
    fprintf(f, PREFIX "    at %s in %s:%u\n", sig, file && *file ? file : "?", line);
}

static void more(FILE *f, unsigned long long count, const char *what)
{
    if (count > 1)
        fprintf(f, PREFIX "    (smemlab: %llu %s; the first shown)\n", count, what);
}

/* The nearest allocation as compute-sanitizer words it, from smemlab's "N bytes after the end of
 * the S-byte allocation at 0xA (...)" / "N bytes before the ..." (compute-sanitizer counts an
 * address just past the end as 1 byte after it); else smemlab's own words. */
static void nearest_line(FILE *f, const char *near)
{
    unsigned long long d = 0, size = 0, base = 0;
    const char *p = near ? strstr(near, "-byte allocation at 0x") : NULL;
    const char *s = p;
    while (s && s > near && s[-1] >= '0' && s[-1] <= '9')
        s--;
    int after = near && strstr(near, " bytes after the end of the ") != NULL;
    int before = near && strstr(near, " bytes before the ") != NULL;
    if (p && (after || before) && !strstr(near, "freed") && sscanf(near, "%llu", &d) == 1 &&
        sscanf(s, "%llu", &size) == 1 && sscanf(p + strlen("-byte allocation at "), "%llx", &base) == 1) {
        char b[40];
        fprintf(f, PREFIX "    and is %llu bytes %s the nearest allocation at 0x%llx of size %s "
                          "bytes\n", after ? d + 1 : d, after ? "after" : "before", base,
                grouped(b, sizeof b, size));
        return;
    }
    if (near && *near)
        fprintf(f, PREFIX "    (smemlab: %s)\n", near);
}

/* A misaligned access inside an allocation, from smemlab's "N bytes into a S-byte allocation at
 * 0xA (...)": "and is inside the nearest allocation at 0xA of size S bytes" (compute-sanitizer's
 * words, the size grouped in thousands) */
static void inside_line(FILE *f, const char *near)
{
    unsigned long long d = 0, size = 0, base = 0;
    const char *p = near ? strstr(near, "-byte allocation at 0x") : NULL;
    const char *s = p;
    while (s && s > near && s[-1] >= '0' && s[-1] <= '9')
        s--;
    char b[40];
    if (p && strstr(near, " bytes into a") && !strstr(near, "freed") &&
        sscanf(near, "%llu", &d) == 1 && sscanf(s, "%llu", &size) == 1 &&
        sscanf(p + strlen("-byte allocation at "), "%llx", &base) == 1) {
        fprintf(f, PREFIX "    and is inside the nearest allocation at 0x%llx of size %s bytes\n",
                base, grouped(b, sizeof b, size));
        return;
    }
    if (near && *near)
        fprintf(f, PREFIX "    (smemlab: %s)\n", near);
}

/* a kernel's record ends with where the program launched it, when the launch says */
static void launch_frame(FILE *f, const char *frame)
{
    if (!frame)
        return;
    fprintf(f, PREFIX "    Saved host backtrace up to driver entry point at kernel launch time\n");
    fprintf(f, PREFIX "        Host Frame: %s\n", frame);
}

static void host_frame(FILE *f, const struct smem_json *x, const char *when)
{
    const char *frame = smem_json_str(x, "frame"), *site = smem_json_str(x, "site");
    fprintf(f, PREFIX "    Saved host backtrace up to driver entry point at %s\n", when);
    if (frame)
        fprintf(f, PREFIX "        Host Frame: %s\n", frame);
    else
        fprintf(f, PREFIX "        Host Frame: in %s\n", site ? site : "?");
}

/* the size of the shared access at line of kernel k (its sites), 0 when unknown */
static unsigned site_bytes(const struct smem_json *k, unsigned line, int write)
{
    const struct smem_json *sites = smem_json_get(k, "sites");
    for (unsigned i = 0; i < smem_json_len(sites); i++) {
        const struct smem_json *s = smem_json_at(sites, i);
        const char *op = smem_json_str(s, "op");
        if ((unsigned)smem_json_num(s, "line", 0) == line && op &&
            !strcmp(op, write ? "st" : "ld"))
            return (unsigned)smem_json_num(s, "bytes", 0);
    }
    return 0;
}

static const struct smem_json *kernel_named(const struct smem_json *doc, const char *symbol)
{
    const struct smem_json *ks = smem_json_get(doc, "kernels");
    for (unsigned i = 0; symbol && i < smem_json_len(ks); i++) {
        const char *s = smem_json_str(smem_json_at(ks, i), "symbol");
        if (s && !strcmp(s, symbol))
            return smem_json_at(ks, i);
    }
    return NULL;
}

struct counts {
    unsigned long long errors, races, leaks, leaked;
    unsigned long long unwritten_shared; /* records beyond initcheck: not in its ERROR SUMMARY */
};

/* One launch's memory error e. *shown: memcheck records of the launch so far (a GPU stops the
 * kernel at its first invalid access: memcheck reports that one; the others are named). */
static void memory_error(FILE *f, const struct smem_json *e, const char *sig, const char *frame,
                         unsigned tools, struct counts *c, unsigned *shown)
{
    const char *kind = smem_json_str(e, "kind");
    const char *file = smem_json_str(e, "file");
    unsigned line = (unsigned)smem_json_num(e, "line", 0);
    unsigned long long bytes = num(e, "bytes"), count = num(e, "count");
    unsigned long long addr = num(e, "address");
    if (!kind)
        return;
    if (!strncmp(kind, "uninitialized", 13)) {
        if (!(tools & SMEM_SANTEXT_INITCHECK))
            return;
        fprintf(f, PREFIX "Uninitialized __global__ memory read of size %llu bytes\n", bytes);
        at(f, sig, file, line);
        fprintf(f, PREFIX "    by thread ");
        triple(f, smem_json_get(e, "thread"));
        fprintf(f, " in block ");
        triple(f, smem_json_get(e, "block"));
        fprintf(f, "\n" PREFIX "    Address 0x%llx\n", addr);
        more(f, count, "thread accesses of bytes never written by this instruction in this launch");
        launch_frame(f, frame);
        fprintf(f, PREFIX "\n");
        c->errors += count ? count : 1;
        return;
    }
    if (!strcmp(kind, "invalid free") || !strcmp(kind, "double free")) {
        if (!(tools & SMEM_SANTEXT_MEMCHECK))
            return;
        if ((*shown)++) {
            fprintf(f, PREFIX "    (smemlab: and a %s at %s:%u: a GPU stops the kernel at its "
                              "first)\n", kind, file && *file ? file : "?", line);
            return;
        }
        fprintf(f, PREFIX "Malloc/Free Error encountered : %s\n", kind[0] == 'i'
                ? "Invalid pointer to device-side free" : "Device-side double free");
        at(f, sig, file, line);
        fprintf(f, PREFIX "    by thread ");
        triple(f, smem_json_get(e, "thread"));
        fprintf(f, " in block ");
        triple(f, smem_json_get(e, "block"));
        fprintf(f, "\n" PREFIX "    Address 0x%llx\n", addr);
        more(f, count, "thread frees by this instruction in this launch");
        c->errors++;
        return;
    }
    int misaligned = !strcmp(kind, "misaligned access");
    const char *access = misaligned ? smem_json_str(e, "access") : kind; /* load, store, atomic */
    const char *what = !access ? (misaligned ? "read" : NULL)
                       : !strcmp(access, "load") ? "read" : !strcmp(access, "store") ? "write"
                       : !strcmp(access, "atomic") ? "atomic" : NULL;
    const char *space = smem_json_str(e, "space");
    int global = !space || !strcmp(space, "global");
    if (!what || !(tools & SMEM_SANTEXT_MEMCHECK))
        return; /* smemlab's own kinds (a store of a value it does not know): not memcheck's */
    if ((*shown)++) {
        fprintf(f, PREFIX "    (smemlab: and an invalid %s of %llu bytes at %s:%u, 0x%llx, %llu "
                          "time%s: a GPU stops the kernel at its first)\n", what, bytes,
                file && *file ? file : "?", line, addr, count, count == 1 ? "" : "s");
        return;
    }
    fprintf(f, PREFIX "Invalid __%s__ %s of size %llu bytes\n", global ? "global" : space, what,
            bytes);
    at(f, sig, file, line);
    fprintf(f, PREFIX "    by thread ");
    triple(f, smem_json_get(e, "thread"));
    fprintf(f, " in block ");
    triple(f, smem_json_get(e, "block"));
    fprintf(f, "\n" PREFIX "    Access to 0x%llx is %s\n", addr,
            misaligned ? "misaligned" : "out of bounds");
    if (global && misaligned)
        inside_line(f, smem_json_str(e, "nearest"));
    else if (global && smem_json_str(e, "nearest") &&
             !strncmp(smem_json_str(e, "nearest"), "in the device heap", 17))
        fprintf(f, PREFIX "    and is located in the device heap\n");
    else if (global)
        nearest_line(f, smem_json_str(e, "nearest"));
    more(f, count, "thread accesses by this instruction in this launch");
    c->errors++; /* the GPU stops the kernel at its first fault: memcheck reports that one */
}

static void hazard(FILE *f, const struct smem_json *h, const struct smem_json *kernel,
                   const char *sig, const char *frame, unsigned tools, struct counts *c)
{
    const char *kind = smem_json_str(h, "kind"), *detail = smem_json_str(h, "detail");
    const char *file = smem_json_str(h, "file");
    const struct smem_json *lines = smem_json_get(h, "lines");
    unsigned l0 = (unsigned)item(lines, 0), l1 = (unsigned)item(lines, 1);
    unsigned long long count = num(h, "count");
    if (!kind || !detail)
        return;
    if (!strcmp(kind, "race")) {
        return; /* races(): grouped per launch as racecheck groups them */
    } else if (!strcmp(kind, "barrier") && (tools & SMEM_SANTEXT_SYNCCHECK)) {
        fprintf(f, PREFIX "Barrier error detected. Divergent thread(s) in warp.\n");
        at(f, sig, file, l0);
        if (l1 && l1 != l0)
            fprintf(f, PREFIX "    (smemlab: other threads of the block wait at line %u)\n", l1);
        launch_frame(f, frame);
        fprintf(f, PREFIX "\n");
        c->errors++;
    } else if (!strcmp(kind, "global-race") && (tools & SMEM_SANTEXT_RACECHECK)) {
        /* beyond racecheck (shared memory only): its layout, the threads and blocks said */
        const char *who = strstr(detail, ": ");
        fprintf(f, PREFIX "Error: Race reported between %s access at %s in %s:%u\n",
                !strncmp(detail, "write", 5) ? "Write" : "Read", sig, file ? file : "?", l0);
        fprintf(f, PREFIX "    and %s access at %s in %s:%u [%llu hazard%s]\n",
                strstr(detail, "-write") ? "Write" : "Read", sig, file ? file : "?", l1, count,
                count == 1 ? "" : "s");
        fprintf(f, PREFIX "    (smemlab: on __global__ memory at 0x%llx, %s; racecheck checks "
                          "shared memory only)\n", num(h, "device_address"), who ? who + 2 : "");
        fprintf(f, PREFIX "\n");
        c->races++;
    } else if (!strcmp(kind, "uninitialized-shared") && (tools & SMEM_SANTEXT_INITCHECK)) {
        /* beyond initcheck (global memory only): its layout for a shared read */
        unsigned bytes = site_bytes(kernel, l0, 0);
        fprintf(f, PREFIX "Uninitialized __shared__ memory read");
        if (bytes)
            fprintf(f, " of size %u bytes", bytes);
        fprintf(f, "\n");
        at(f, sig, file, l0);
        fprintf(f, PREFIX "    (smemlab: shared byte 0x%llx, which nothing in the block had "
                          "written; initcheck checks global memory only)\n",
                num(h, "address") + 0x400);
        more(f, count, "thread accesses by this instruction in this launch");
        launch_frame(f, frame);
        fprintf(f, PREFIX "\n");
        c->unwritten_shared++;
    } else if (!strcmp(kind, "oob") && (tools & SMEM_SANTEXT_MEMCHECK)) {
        int write = !strcmp(detail, "write");
        unsigned bytes = site_bytes(kernel, l0, write);
        fprintf(f, PREFIX "Invalid __shared__ %s", write ? "write" : "read");
        if (bytes)
            fprintf(f, " of size %u bytes", bytes);
        fprintf(f, "\n");
        at(f, sig, file, l0);
        /* the shared window's first byte is 0x400 on a Hopper GPU (smemlab counts from there) */
        fprintf(f, PREFIX "    Access to 0x%llx is out of bounds\n", num(h, "address") + 0x400);
        more(f, count, "accesses by this instruction in this launch");
        launch_frame(f, frame);
        fprintf(f, PREFIX "\n");
        c->errors++;
    }
}

/* A launch's races as racecheck prints them: a pair of accesses once whichever ran first (the
 * write named first), pairs with the same first access under one "Error" (one hazard displayed),
 * each other access an "and" line with its count. */
struct race {
    int w0, w1;
    unsigned l0, l1;
    unsigned long long count;
};

static void races(FILE *f, const struct smem_json *hz, const char *sig, const char *file,
                  struct counts *c)
{
    unsigned n = smem_json_len(hz), nr = 0;
    struct race *r = calloc(n ? n : 1, sizeof *r);
    if (!r)
        return;
    for (unsigned i = 0; i < n; i++) {
        const struct smem_json *h = smem_json_at(hz, i);
        const char *kind = smem_json_str(h, "kind"), *detail = smem_json_str(h, "detail");
        if (!kind || strcmp(kind, "race") || !detail)
            continue;
        const struct smem_json *lines = smem_json_get(h, "lines");
        struct race x = {!strncmp(detail, "write", 5), strstr(detail, "-write") != NULL,
                         (unsigned)item(lines, 0), (unsigned)item(lines, 1), num(h, "count")};
        if (!file)
            file = smem_json_str(h, "file");
        if ((!x.w0 && x.w1) || (x.w0 == x.w1 && x.l0 > x.l1)) {
            struct race y = {x.w1, x.w0, x.l1, x.l0, x.count};
            x = y;
        }
        unsigned k = 0;
        while (k < nr && !(r[k].w0 == x.w0 && r[k].w1 == x.w1 && r[k].l0 == x.l0 && r[k].l1 == x.l1))
            k++;
        if (k == nr)
            r[nr++] = x;
        else
            r[k].count += x.count;
    }
    for (unsigned k = 0; k < nr; k++) {
        unsigned j = 0;
        while (j < k && !(r[j].w0 == r[k].w0 && r[j].l0 == r[k].l0))
            j++;
        if (j < k)
            continue; /* printed under r[j] */
        fprintf(f, PREFIX "Error: Race reported between %s access at %s in %s:%u\n",
                r[k].w0 ? "Write" : "Read", sig, file ? file : "?", r[k].l0);
        for (unsigned m = k; m < nr; m++)
            if (r[m].w0 == r[k].w0 && r[m].l0 == r[k].l0)
                fprintf(f, PREFIX "    and %s access at %s in %s:%u [%llu hazard%s]\n",
                        r[m].w1 ? "Write" : "Read", sig, file ? file : "?", r[m].l1, r[m].count,
                        r[m].count == 1 ? "" : "s");
        fprintf(f, PREFIX "\n");
        c->races++;
    }
    free(r);
}

static int cmp_address(const void *x, const void *y)
{
    unsigned long long a = num(*(const struct smem_json *const *)x, "address");
    unsigned long long b = num(*(const struct smem_json *const *)y, "address");
    return a < b ? -1 : a > b;
}

static void host_findings(FILE *f, const struct smem_json *arr, unsigned tools, struct counts *c)
{
    unsigned n = smem_json_len(arr), nleaks = 0;
    const struct smem_json **leaks = calloc(n ? n : 1, sizeof *leaks);
    for (unsigned i = 0; i < n; i++) {
        const struct smem_json *x = smem_json_at(arr, i);
        const char *kind = smem_json_str(x, "kind");
        if (!kind)
            continue;
        if (!strcmp(kind, "leak")) {
            if (leaks)
                leaks[nleaks++] = x;
            continue;
        }
        if (!strcmp(kind, "uninitialized")) {
            if (!(tools & SMEM_SANTEXT_INITCHECK))
                continue;
            unsigned long long count = num(x, "count");
            char b[40];
            fprintf(f, PREFIX "Host API memory access error at host access to 0x%llx of size %s "
                              "bytes\n", num(x, "address"), grouped(b, sizeof b, num(x, "bytes")));
            fprintf(f, PREFIX "    Uninitialized access to 0x%llx on access by %s source\n",
                    num(x, "uninitialized_at"), smem_json_str(x, "call") ? smem_json_str(x, "call")
                                                                         : "?");
            host_frame(f, x, "error");
            more(f, count, "32-byte pieces of this call's sources never written");
            fprintf(f, PREFIX "\n");
            c->errors += count ? count : 1;
            continue;
        }
        if (!(tools & SMEM_SANTEXT_MEMCHECK))
            continue;
        if (smem_json_num(x, "code", 0) < 0)
            continue; /* a library's status (cuRAND's): not a CUDA API error, which is all
                         compute-sanitizer reports */
        unsigned long long count = num(x, "count");
        const char *msg = smem_json_str(x, "message"), *call = smem_json_str(x, "call");
        for (unsigned long long k = 0; k < count && k < MAX_REPEATS; k++) {
            fprintf(f, PREFIX "Program hit %s (error %.0f) due to \"%s\" on CUDA API call to %s.\n",
                    smem_json_str(x, "error") ? smem_json_str(x, "error") : "?",
                    smem_json_num(x, "code", 0), msg ? msg : "?", call ? call : "?");
            host_frame(f, x, "error");
            fprintf(f, PREFIX "\n");
        }
        c->errors += count;
    }
    if (leaks && (tools & SMEM_SANTEXT_MEMCHECK)) {
        qsort(leaks, nleaks, sizeof *leaks, cmp_address); /* compute-sanitizer's order */
        for (unsigned i = 0; i < nleaks; i++) {
            char b[40];
            const char *detail = smem_json_str(leaks[i], "detail");
            int heap = detail && !strcmp(detail, "device heap");
            fprintf(f, PREFIX "Leaked %s bytes at 0x%llx%s\n", grouped(b, sizeof b, num(leaks[i], "bytes")),
                    num(leaks[i], "address"), heap ? " on the device heap" : "");
            if (heap) /* compute-sanitizer names no frame; smemlab the kernel's line */
                fprintf(f, PREFIX "    (smemlab: made by malloc at %s:%.0f)\n",
                        smem_json_str(leaks[i], "file") ? smem_json_str(leaks[i], "file") : "?",
                        smem_json_num(leaks[i], "line", 0));
            else
                host_frame(f, leaks[i], "allocation time");
            fprintf(f, PREFIX "\n");
            c->leaks++;
            c->leaked += num(leaks[i], "bytes");
        }
        c->errors += nleaks;
    }
    free(leaks);
}

unsigned long long smem_sanitizer_text_write(FILE *f, const struct smem_json *doc, unsigned tools,
                                             int leak_check)
{
    struct counts c = {0, 0, 0, 0, 0};
    const struct smem_json *launches = smem_json_get(doc, "launches");
    struct names nm;
    names_fill(&nm, launches);
    fprintf(f, PREFIX "COMPUTE-SANITIZER\n");
    for (unsigned i = 0; i < smem_json_len(launches); i++) {
        const struct smem_json *l = smem_json_at(launches, i);
        const char *sym = smem_json_str(l, "symbol");
        const char *sig = names_of(&nm, sym, smem_json_str(l, "kernel"));
        const char *frame = smem_json_str(l, "host_frame");
        const struct smem_json *errs = smem_json_get(l, "memory_errors");
        unsigned shown = 0;
        for (unsigned e = 0; e < smem_json_len(errs); e++)
            memory_error(f, smem_json_at(errs, e), sig, frame, tools, &c, &shown);
        if (shown) { /* the end of the launch's memcheck record */
            launch_frame(f, frame);
            fprintf(f, PREFIX "\n");
        }
        const struct smem_json *hz = smem_json_get(l, "hazards");
        if (tools & SMEM_SANTEXT_RACECHECK)
            races(f, hz, sig, NULL, &c);
        for (unsigned h = 0; h < smem_json_len(hz); h++)
            hazard(f, smem_json_at(hz, h), kernel_named(doc, sym), sig, frame, tools, &c);
    }
    host_findings(f, smem_json_get(doc, "sanitizer"), tools, &c);
    names_free(&nm);
    if ((tools & SMEM_SANTEXT_MEMCHECK) && leak_check)
        fprintf(f, PREFIX "LEAK SUMMARY: %llu bytes leaked in %llu allocations\n", c.leaked,
                c.leaks);
    if ((tools & SMEM_SANTEXT_RACECHECK) && (tools == SMEM_SANTEXT_RACECHECK || c.races))
        fprintf(f, PREFIX "RACECHECK SUMMARY: %llu hazard%s displayed (%llu error%s, 0 warnings)\n",
                c.races, c.races == 1 ? "" : "s", c.races, c.races == 1 ? "" : "s");
    if (c.unwritten_shared) /* so that the summary stays compute-sanitizer's count */
        fprintf(f, PREFIX "(smemlab: %llu record%s of shared memory read unwritten above, not "
                          "counted below: initcheck checks global memory only)\n",
                c.unwritten_shared, c.unwritten_shared == 1 ? "" : "s");
    if (tools != SMEM_SANTEXT_RACECHECK)
        fprintf(f, PREFIX "ERROR SUMMARY: %llu error%s\n", c.errors, c.errors == 1 ? "" : "s");
    return c.errors + c.races;
}
