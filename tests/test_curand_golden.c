/* test_curand_golden.c: smemlab's cuRAND stand-in gives the numbers the H200's cuRAND gives.
 * tests/hw/curand/curand_dump.c, the program that dumped NVIDIA's library on the H200 into
 * tests/hw/curand/golden/ (README.md there: device, driver, date), is built here with nvcc
 * -cudart shared and run under `smemlab run` (CURAND_DUMP_STANDIN=1: without what the stand-in
 * refuses by name); each record of the golden files is compared with the stand-in's: the status
 * of every call, good or bad; integers and uniform floats and doubles bit for bit; normal and
 * log-normal numbers within the bound docs/run.md states (the GPU's Box-Muller takes sine and
 * cosine from the SFU, the inverse CDF from its own erfcinv). A golden record the stand-in did
 * not produce must be one it refuses (Poisson of lambda 2000 on the 64-bit Sobol generators,
 * parts of the dynamic ordering) or come after one on the same generator. The report
 * lists the calls as cuRAND library steps, and the bad calls as API errors naming the call and
 * the status. The Philox dynamic-ordering records of `curand_dump OUT philoxdyn` (offsets up
 * to 2^48, golden/philoxdyn.bin.gz) are compared too. tests/run/curand.cu adds a kernel of its
 * own on the numbers, bad calls at their lines, a generation past its allocation and a call not
 * computed (both stop the program, named). Needs nvcc (else skipped, 77). */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct rec {
    char name[48];
    int32_t status;
    uint32_t es;
    uint64_t n, first, count;
    const unsigned char *data;
};

struct recs {
    struct rec *r;
    size_t n;
    unsigned char *buf;
};

static int load(const char *path, struct recs *out)
{
    size_t len = 0;
    out->buf = (unsigned char *)test_read_file(path, &len);
    out->r = NULL;
    out->n = 0;
    if (!out->buf)
        return -1;
    size_t cap = 0;
    for (size_t i = 0; i + 72 <= len;) {
        struct rec r;
        memset(&r, 0, sizeof r);
        memcpy(r.name, out->buf + i, 40);
        memcpy(&r.status, out->buf + i + 40, 4);
        memcpy(&r.es, out->buf + i + 44, 4);
        memcpy(&r.n, out->buf + i + 48, 8);
        memcpy(&r.first, out->buf + i + 56, 8);
        memcpy(&r.count, out->buf + i + 64, 8);
        r.data = out->buf + i + 72;
        i += 72 + r.count * r.es;
        if (i > len)
            return -1;
        if (out->n == cap) {
            cap = cap ? 2 * cap : 1024;
            out->r = realloc(out->r, cap * sizeof *out->r);
        }
        out->r[out->n++] = r;
    }
    return 0;
}

/* the stand-in's record of that name holding [first, first + count) */
static const struct rec *find(const struct recs *m, const struct rec *g)
{
    for (size_t i = 0; i < m->n; i++) {
        const struct rec *r = &m->r[i];
        if (!strcmp(r->name, g->name) && r->first <= g->first &&
            g->first + g->count <= r->first + r->count)
            return r;
    }
    for (size_t i = 0; i < m->n; i++) /* a status-only record */
        if (!strcmp(m->r[i].name, g->name))
            return &m->r[i];
    return NULL;
}

static int normal_kind(const char *name)
{
    const char *b = strrchr(name, '/');
    b = b ? b + 1 : name;
    return strstr(b, "norm") || strstr(b, "logn");
}

/* what the stand-in refuses by name (docs/run.md), and the calls after one on the same generator */
static int refused(const char *gen, const char *name)
{
    const char *b = strrchr(name, '/');
    b = b ? b + 1 : name;
    int pois_normal = !strncmp(b, "pois2000", 8); /* lambda 2000 */
    if (pois_normal && (!strncmp(name, "sobol64/", 8) || !strncmp(name, "ssobol64/", 9)))
        return 1;
    if (strncmp(name, "dynamic/", 8))
        return 0;
    return !strcmp(gen, "mtgp32") ||
           (!strcmp(gen, "xorwow") && (normal_kind(name) || pois_normal || !strncmp(b, "c_", 2)));
}

static const char *src = SMEMLAB_SOURCE_DIR;
static char bin[1024], smemlab[1024], outdir[1100];
static size_t exact_records, near_records, near_values, exact_near_values, status_records;
static size_t poisson_records, mt19937_records; /* of exact_records */
static double worst_float, worst_double;

static void compare(const char *gen)
{
    char cmd[4000], golden[1200], mine[1200];
    snprintf(golden, sizeof golden, "%s/%s.golden.bin", bin, gen);
    snprintf(cmd, sizeof cmd, "gzip -dc %s/tests/hw/curand/golden/%s.bin.gz > %s", src, gen, golden);
    CHECK_EQ(test_sh(cmd), 0);
    snprintf(mine, sizeof mine, "%s/%s.bin", outdir, gen);
    struct recs g, m;
    CHECK_EQ(load(golden, &g), 0);
    CHECK_EQ(load(mine, &m), 0);
    CHECK(g.n > 40);
    size_t bad = 0;
    for (size_t i = 0; i < g.n; i++) {
        const struct rec *gr = &g.r[i], *mr = find(&m, gr);
        if (!mr) {
            if (!refused(gen, gr->name) && bad++ < 10)
                fprintf(stderr, "  %s: %s: not produced\n", gen, gr->name);
            continue;
        }
        if (mr->status != gr->status) {
            if (bad++ < 10)
                fprintf(stderr, "  %s: %s: status %d, the H200's %d\n", gen, gr->name,
                        mr->status, gr->status);
            continue;
        }
        if (!gr->count) {
            status_records++;
            continue;
        }
        const unsigned char *md = mr->data + (gr->first - mr->first) * gr->es;
        int hash = strstr(gr->name, "#fnv") != NULL;
        if (!normal_kind(gr->name)) {
            if (memcmp(md, gr->data, gr->count * gr->es)) {
                if (bad++ < 10)
                    fprintf(stderr, "  %s: %s@%llu: numbers differ\n", gen, gr->name,
                            (unsigned long long)gr->first);
            } else {
                exact_records++;
                poisson_records += strstr(gr->name, "/pois") != NULL;
                mt19937_records += !strcmp(gen, "mt19937");
            }
            continue;
        }
        if (hash)
            continue;
        size_t off = 0;
        for (uint64_t k = 0; k < gr->count; k++) {
            double a, b, tol;
            if (gr->es == 4) {
                float fa, fb;
                memcpy(&fa, gr->data + 4 * k, 4);
                memcpy(&fb, md + 4 * k, 4);
                a = fa;
                b = fb;
                tol = 4e-6;
            } else {
                memcpy(&a, gr->data + 8 * k, 8);
                memcpy(&b, md + 8 * k, 8);
                tol = 1e-14;
            }
            double e = fabs(a - b) / fmax(1.0, fabs(a));
            if (gr->es == 4 && e > worst_float)
                worst_float = e;
            if (gr->es == 8 && e > worst_double)
                worst_double = e;
            off += !(e <= tol);
            exact_near_values += !memcmp(gr->data + gr->es * k, md + gr->es * k, gr->es);
            near_values++;
        }
        if (off) {
            if (bad++ < 10)
                fprintf(stderr, "  %s: %s@%llu: %zu numbers past the bound\n", gen, gr->name,
                        (unsigned long long)gr->first, off);
        } else {
            near_records++;
        }
    }
    CHECK_EQ(bad, 0);
    free(g.r);
    free(g.buf);
    free(m.r);
    free(m.buf);
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/curand", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    snprintf(outdir, sizeof outdir, "%s/dump", bin);
    mkdir(bin, 0755);
    mkdir(outdir, 0755);
    char cmd[4000];
    snprintf(cmd, sizeof cmd, "nvcc -cudart shared %s/tests/hw/curand/curand_dump.c -o "
             "%s/curand_dump -lcurand > %s/build.log 2>&1", src, bin, bin);
    CHECK_EQ(test_sh(cmd), 0);
    char *o, *e, args[1200];
    snprintf(args, sizeof args, "%s", outdir);
    setenv("CURAND_DUMP_STANDIN", "1", 1);
    CHECK_EQ(test_smemlab_run(smemlab, bin, "--format json -o curand.json", "curand_dump", args,
                              &o, &e), 0);
    static const char *const gens[] = {"xorwow", "mrg32k3a", "mtgp32", "mt19937", "philox", "sobol"};
    for (unsigned i = 0; i < 6; i++)
        compare(gens[i]);
    /* Philox's dynamic ordering at offsets up to 2^48 (curand_dump OUT philoxdyn) */
    free(o);
    free(e);
    snprintf(args, sizeof args, "%s philoxdyn", outdir);
    CHECK_EQ(test_smemlab_run(smemlab, bin, "", "curand_dump", args, &o, &e), 0);
    compare("philoxdyn");
    printf("records equal bit for bit: %zu; status-only records equal: %zu; normal records within "
           "the bound: %zu (%zu of %zu numbers bit-equal; worst relative error float %.3g, "
           "double %.3g)\n", exact_records, status_records, near_records, exact_near_values,
           near_values, worst_float, worst_double);
    printf("of them Poisson records %zu, MT19937 records %zu\n", poisson_records, mt19937_records);
    CHECK(exact_records > 1500);
    CHECK(poisson_records > 100);
    CHECK(mt19937_records > 100);
    CHECK(near_records > 500);
    /* the report: cuRAND calls as library steps, bad calls as API errors naming call and status */
    char *json = test_read_file("curand.json", NULL);
    CHECK(json != NULL);
    if (json) {
        EXPECT_IN(json, "\"curandGenerateNormal\"");
        EXPECT_IN(json, "cuRAND");
        EXPECT_IN(json, "CURAND_STATUS_LENGTH_NOT_MULTIPLE");
        EXPECT_IN(json, "CURAND_STATUS_TYPE_ERROR");
        free(json);
    }
    remove("curand.json");
    free(o);
    free(e);

    /* tests/run/curand.cu: a kernel of the program's own on the numbers; bad calls' statuses as
       API errors at their lines; a generation past the allocation, a call not computed */
    snprintf(cmd, sizeof cmd, "nvcc -lineinfo -g -cudart shared -arch=sm_90 %s/tests/run/curand.cu "
             "-o %s/curand -lcurand > %s/curand.log 2>&1", src, bin, bin);
    CHECK_EQ(test_sh(cmd), 0);
    CHECK_EQ(test_smemlab_run(smemlab, bin, "", "curand", "pi", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    EXPECT_IN(e, "curandGenerateUniform        n=131072 XORWOW offset=0");
    free(o);
    free(e);
    CHECK_EQ(test_smemlab_run(smemlab, bin, "", "curand", "errors", &o, &e), 0);
    EXPECT_IN(o, "6 of 6 calls returned cuRAND's status");
    EXPECT_IN(e, "curandGenerateNormal returned CURAND_STATUS_LENGTH_NOT_MULTIPLE at curand.cu:");
    EXPECT_IN(e, "curandGenerateLongLong returned CURAND_STATUS_TYPE_ERROR at curand.cu:");
    EXPECT_IN(e, "curandSetQuasiRandomGeneratorDimensions returned CURAND_STATUS_OUT_OF_RANGE");
    free(o);
    free(e);
    CHECK_EQ(test_smemlab_run(smemlab, bin, "", "curand", "oob", &o, &e), 3);
    EXPECT_IN(e, "curandGenerateUniform: the output at");
    CHECK(strstr(o, "not reached") == NULL);
    free(o);
    free(e);
    CHECK_EQ(test_smemlab_run(smemlab, bin, "", "curand", "refused", &o, &e), 3);
    EXPECT_IN(e, "curandGeneratePoisson is not supported (lambda 9000 on MTGP32");
    free(o);
    free(e);
    return CHECK_DONE();
}
