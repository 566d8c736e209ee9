/* test_sass.c: the SASS decoder against the H100's disassembly (tests/sass/vectors.tsv, the whole
 * of mergelike.cu's cubin: tests/sass/mergelike.golden.tsv, LDS addresses: fixed.golden.tsv,
 * registers written: regs.tsv, flagged branches: branches.tsv), loads through a register holding
 * the window's base (flag_loop.tsv), the
 * emulator following a kernel's SASS at fixed places (loads ptxas merges across a branch), and the
 * census: a plain kernel is not flagged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "smemlab/analysis/analyze.h"
#include "smemlab/analysis/census.h"
#include "smemlab/base/text.h"
#include "smemlab/sass/sass.h"

static unsigned class_of(const char *s)
{
    for (unsigned c = 0; c < SMEM_SASS_NCLASSES; c++)
        if (!strcmp(smem_sass_class_name(c), s))
            return c;
    return SMEM_SASS_UNKNOWN;
}

static void guard_of(const char *g, unsigned *pred, unsigned *neg)
{
    *neg = g[0] == '!';
    if (*neg)
        g++;
    if (g[0] == 'U')
        g++;
    *pred = !strcmp(g, "PT") ? SMEM_SASS_PT : (unsigned)atoi(g + 1);
}

/* Decodes the instruction whose two 64-bit halves are given in hex, at offset off. */
static void decode_hex(const char *lo, const char *hi, unsigned off, struct smem_sass_insn *in)
{
    uint64_t l = strtoull(lo, NULL, 16), h = strtoull(hi, NULL, 16);
    uint8_t enc[16];
    for (int i = 0; i < 8; i++) {
        enc[i] = (uint8_t)(l >> (8 * i));
        enc[8 + i] = (uint8_t)(h >> (8 * i));
    }
    smem_sass_decode(enc, off, in);
}

static void test_vectors_match_the_h100_listing(void)
{
    FILE *f = fopen("tests/sass/vectors.tsv", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || !strncmp(line, "lo\t", 3))
            continue;
        char lo[20], hi[20], cls[16], guard[8], target[20], file[200];
        unsigned off, width;
        if (sscanf(line, "%19s %19s %x %15s %u %7s %19s %199s", lo, hi, &off, cls, &width, guard,
                   target, file) != 8)
            continue;
        struct smem_sass_insn in;
        decode_hex(lo, hi, off, &in);
        unsigned pred, neg;
        guard_of(guard, &pred, &neg);
        unsigned want = class_of(cls);
        CHECK_EQ(in.cls, want);
        if (want == SMEM_SASS_LDS || want == SMEM_SASS_STS || want == SMEM_SASS_ATOMS ||
            want == SMEM_SASS_LDGSTS)
            CHECK_EQ(in.width, width);
        CHECK_EQ(in.guard, pred);
        CHECK_EQ(in.guard_neg, neg);
        if (want == SMEM_SASS_BRA && target[0] == '0')
            CHECK_EQ((unsigned)in.target, (unsigned)strtoul(target, NULL, 16));
        n++;
    }
    fclose(f);
    CHECK(n > 100);
}

static int sh(const char *cmd) { return system(cmd); }

static void test_mergelike_cubin_decodes_as_the_h100_listing(void)
{
    if (sh("ptxas --version 2>/dev/null | grep -q 'V13.0.88'")) {
        printf("  (skipped: the golden is of ptxas 13.0.88's code)\n");
        return;
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "nvcc -ptx -arch=sm_90 -lineinfo tests/sass/mergelike.cu -o "
             "%s/mergelike.ptx && ptxas -arch=sm_90 -lineinfo %s/mergelike.ptx -o "
             "%s/mergelike.cubin", SMEMLAB_BINARY_DIR, SMEMLAB_BINARY_DIR, SMEMLAB_BINARY_DIR);
    CHECK_EQ(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/mergelike.cubin", SMEMLAB_BINARY_DIR);
    size_t n = 0;
    char *data = smem_read_file(cmd, &n);
    CHECK(data != NULL);
    if (!data)
        return;
    struct smem_sass_module *m = NULL;
    struct smem_error err;
    CHECK_EQ(smem_sass_read((const uint8_t *)data, n, &m, &err), 0);
    FILE *f = fopen("tests/sass/mergelike.golden.tsv", "r");
    CHECK(f != NULL);
    char line[512];
    unsigned rows = 0;
    while (m && f && fgets(line, sizeof line, f)) {
        char fn[128], cls[16], guard[8];
        unsigned off, width, ln;
        if (line[0] == '#' || sscanf(line, "%127s %x %15s %u %7s %u", fn, &off, cls, &width,
                                     guard, &ln) != 6)
            continue;
        const struct smem_sass_func *sf = smem_sass_find(m, fn);
        CHECK(sf != NULL);
        if (!sf || off / 16 >= sf->ninsns)
            continue;
        const struct smem_sass_insn *in = &sf->insns[off / 16];
        unsigned pred, neg, want = class_of(cls);
        guard_of(guard, &pred, &neg);
        CHECK_EQ(in->cls == SMEM_SASS_UNKNOWN ? 99 : in->cls, want);
        if (want >= SMEM_SASS_LDS && want <= SMEM_SASS_ATOMS)
            CHECK_EQ(in->width, width);
        CHECK_EQ(in->guard, pred);
        CHECK_EQ(in->guard_neg, neg);
        CHECK_EQ(in->line, ln);
        rows++;
    }
    if (f)
        fclose(f);
    CHECK(rows > 100);
    smem_sass_free(m);
    free(data);
}

static const struct smem_site_report *site_at(const struct smem_kernel_report *k, unsigned line)
{
    for (uint32_t s = 0; s < k->nsites; s++)
        if (k->sites[s].line == line && k->sites[s].op == SMEM_ACC_LD)
            return &k->sites[s];
    return NULL;
}

/* mergeparam.cu: ptxas reads lenA, lenB, startDA and startDB (lines 22 to 25, two of them inside
 * branches in the PTX) as one LDS.128 before the first branch, in every warp. The emulator follows
 * the SASS there (sass/sass_fixed.c): one 16-byte request a warp on line 22 (4 warps of 128
 * threads), nothing of lines 24 and 25's fixed-place loads, and no line flagged; the site says
 * so. */
static void test_loads_merged_across_a_branch_follow_the_sass(void)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.sass_census = 1;
    o.block[0] = 128, o.block[1] = o.block[2] = 1;
    struct smem_param_arg pa[4] = {{"a0", "0"}, {"b0", "0"}, {"la", "100"}, {"lb", "60"}};
    o.params = pa;
    o.nparams = 4;
    struct smem_analysis *a = NULL;
    struct smem_error err;
    CHECK_EQ(smem_analyze_file("tests/sass/mergeparam.cu", &o, &a, &err), 0);
    if (!a)
        return;
    const struct smem_kernel_report *k = &a->kernels[0];
    CHECK_STR(k->sass_not_checked, "");
    const struct smem_site_report *r22 = site_at(k, 22), *r24 = site_at(k, 24),
                                  *r23 = site_at(k, 23), *r25 = site_at(k, 25);
    CHECK(r22 && r22->bytes == 16 && r22->t.requests == 4 && !r22->ptxas_differs[0] &&
          strstr(r22->sass_placed, "24"));
    CHECK(r24 == NULL);
    /* s_key's reads: 100 threads (4 warps) and 60 (2 warps) */
    CHECK(r23 && r23->t.requests == 4 && !r23->ptxas_differs[0]);
    CHECK(r25 && r25->t.requests == 2 && !r25->ptxas_differs[0]);
    smem_analysis_free(a);
    /* without the SASS: the PTX's own loads, 4 + 4 + 1 + 1 requests of lines 22 to 25's lengths */
    o.sass_census = 0;
    CHECK_EQ(smem_analyze_file("tests/sass/mergeparam.cu", &o, &a, &err), 0);
    if (!a)
        return;
    k = &a->kernels[0];
    r22 = site_at(k, 22);
    CHECK(r22 && r22->bytes != 16 && !r22->sass_placed[0]);
    smem_analysis_free(a);
}

/* The decoder's LDS address fields against the H100's listing of fixed_places.cu: [URb + imm]
 * with Ra = RZ at a fixed place, [Ra] otherwise (tests/sass/fixed.golden.tsv). */
static void test_lds_addresses_match_the_h100_listing(void)
{
    FILE *f = fopen("tests/sass/fixed.golden.tsv", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    unsigned n = 0, fixed = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char fn[200], lo[20], hi[20], mn[32], addr[64];
        unsigned off;
        /* the mnemonic may carry a guard: "@!P0 LDS" */
        char *tab[6];
        unsigned nt = 0;
        for (char *p = strtok(line, "\t\n"); p && nt < 6; p = strtok(NULL, "\t\n"))
            tab[nt++] = p;
        if (nt != 6)
            continue;
        snprintf(fn, sizeof fn, "%s", tab[0]);
        off = (unsigned)strtoul(tab[1], NULL, 16);
        snprintf(lo, sizeof lo, "%s", tab[2]);
        snprintf(hi, sizeof hi, "%s", tab[3]);
        snprintf(mn, sizeof mn, "%s", tab[4]);
        snprintf(addr, sizeof addr, "%s", tab[5]);
        struct smem_sass_insn in;
        decode_hex(lo, hi, off, &in);
        CHECK_EQ(in.cls, SMEM_SASS_LDS);
        const char *dot = strstr(mn, "LDS.");
        CHECK_EQ(in.width, dot ? (unsigned)atoi(dot + 4) / 8 : 4u);
        /* "[UR5]", "[UR4+0x3c]", "[R7]" */
        if (addr[1] == 'U') {
            unsigned ur = (unsigned)atoi(addr + 3);
            const char *plus = strchr(addr, '+');
            CHECK_EQ(in.ra, 255);
            CHECK_EQ(in.ur_used, 1);
            CHECK_EQ(in.ur, ur);
            CHECK_EQ(in.imm, plus ? (int32_t)strtol(plus + 1, NULL, 16) : 0);
            fixed++;
        } else {
            CHECK_EQ(in.ra, (unsigned)atoi(addr + 2));
            CHECK_EQ(in.ur_used, 0);
            CHECK_EQ(in.imm, 0);
        }
        n++;
    }
    fclose(f);
    CHECK_EQ(n, 25);
    CHECK_EQ(fixed, 21);
}

/* the plain tiled transposes, run to their end (their accesses inside bounds checks, branches in
 * the PTX, predicated or branched over in the SASS alike) */
static void transpose_options(struct smem_analyze_options *o, struct smem_param_arg *pa)
{
    smem_analyze_defaults(o);
    o->sass_census = 1;
    o->block[0] = 32, o->block[1] = 32, o->block[2] = 1;
    o->grid[0] = 2, o->grid[1] = 2, o->grid[2] = 1;
    pa[0].name = "width", pa[0].value = "64";
    pa[1].name = "height", pa[1].value = "64";
    o->params = pa;
    o->nparams = 2;
}

static void test_plain_transpose_is_not_flagged(void)
{
    struct smem_analyze_options o;
    struct smem_param_arg pa[2];
    transpose_options(&o, pa);
    struct smem_analysis *a = NULL;
    struct smem_error err;
    CHECK_EQ(smem_analyze_file("tests/hazards/transpose.cu", &o, &a, &err), 0);
    CHECK(a && a->nkernels == 2);
    for (uint32_t i = 0; a && i < a->nkernels; i++) {
        const struct smem_kernel_report *k = &a->kernels[i];
        CHECK_EQ(k->nsites, 2);
        CHECK_STR(k->sass_not_checked, "");
        CHECK_STR(k->sass_notes, "");
        for (uint32_t s = 0; s < k->nsites; s++)
            CHECK_STR(k->sites[s].ptxas_differs, "");
    }
    smem_analysis_free(a);
}

/* A cubin is input: every prefix and a flipped byte anywhere give a module or an error, never a
 * crash (run under ASan by `make test-asan`). */
static void test_damaged_cubins_are_refused_or_read(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/mergelike.cubin", SMEMLAB_BINARY_DIR);
    size_t n = 0;
    char *data = smem_read_file(path, &n);
    if (!data) {
        printf("  (skipped: no cubin from the test before)\n");
        return;
    }
    unsigned ok = 0, refused = 0;
    uint8_t *copy = malloc(n);
    CHECK(copy != NULL);
    for (size_t len = 0; copy && len <= n; len += len < 256 ? 1 : 61) {
        memcpy(copy, data, len);
        struct smem_sass_module *m = NULL;
        struct smem_error err;
        if (smem_sass_read(copy, len, &m, &err))
            refused++;
        else
            ok++;
        smem_sass_free(m);
    }
    for (size_t at = 0; copy && at < n; at += 7) {
        memcpy(copy, data, n);
        copy[at] ^= (uint8_t)(0x5a + at);
        struct smem_sass_module *m = NULL;
        struct smem_error err;
        if (smem_sass_read(copy, n, &m, &err))
            refused++;
        else
            ok++;
        smem_sass_free(m);
    }
    CHECK(refused > 0);
    CHECK(ok > 0);
    free(copy);
    free(data);
}

static void test_without_ptxas_sass_is_not_checked(void)
{
    setenv("SMEMLAB_PTXAS", "/nonexistent/ptxas", 1);
    struct smem_analyze_options o;
    struct smem_param_arg pa[2];
    transpose_options(&o, pa);
    struct smem_analysis *a = NULL;
    struct smem_error err;
    CHECK_EQ(smem_analyze_file("tests/hazards/transpose.cu", &o, &a, &err), 0);
    CHECK(a && a->nkernels == 2);
    for (uint32_t i = 0; a && i < a->nkernels; i++) {
        CHECK(a->kernels[i].nsites > 0);
        CHECK(strstr(a->kernels[i].sass_not_checked, "no ptxas") != NULL);
        for (uint32_t s = 0; s < a->kernels[i].nsites; s++)
            CHECK_STR(a->kernels[i].sites[s].ptxas_differs, "");
    }
    smem_analysis_free(a);
    unsetenv("SMEMLAB_PTXAS");
}

static void test_no_sass_is_said_once(void)
{
    struct smem_census *c = NULL;
    struct smem_kernel_report k;
    memset(&k, 0, sizeof k);
    /* a census without SASS says why, and marks no site */
    struct smem_cta_program p;
    memset(&p, 0, sizeof p);
    struct smem_ptx_func f;
    memset(&f, 0, sizeof f);
    f.name = (char *)"k";
    p.func = &f;
    c = smem_census_new(&p, NULL, "no ptxas found");
    smem_census_apply(c, &k);
    CHECK_STR(k.sass_not_checked, "no ptxas found");
    smem_census_free(c);
}

/* The registers instructions write (src/sass/regs.c) against the H100's listing of our cubins
 * (tests/sass/regs.tsv): the general register printed first (after predicates for SHFL, LOP3,
 * ATOM, ATOMG, QSPC) is the destination, covered for at least as many registers as the mnemonic
 * says; the uniform register printed first likewise; instructions that print none write none;
 * texture, CALL.ABS and BRX rows are refused (their writes are not known). */
static void test_register_writes_match_the_h100_listing(void)
{
    FILE *f = fopen("tests/sass/regs.tsv", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    unsigned n = 0, refused = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || !strncmp(line, "lo\t", 3))
            continue;
        char *tab[8];
        unsigned nt = 0;
        for (char *q = strtok(line, "\t\n"); q && nt < 8; q = strtok(NULL, "\t\n"))
            tab[nt++] = q;
        if (nt != 8)
            continue;
        struct smem_sass_insn in;
        decode_hex(tab[0], tab[1], 0, &in);
        struct smem_sass_dest d;
        int rc = smem_sass_writes(&in, &d);
        n++;
        if (!strcmp(tab[4], "unknown")) {
            CHECK_EQ(rc, -1);
            refused++;
            continue;
        }
        CHECK_EQ(rc, 0);
        if (rc) {
            fprintf(stderr, "  not known: %s %s\n", tab[2], tab[3]);
            continue;
        }
        if (!strcmp(tab[4], "-")) {
            CHECK_EQ(d.nr, 0);
        } else {
            CHECK_EQ(d.r, (unsigned)atoi(tab[4]));
            CHECK(d.nr >= (unsigned)atoi(tab[5]));
        }
        if (strcmp(tab[6], "-")) {
            CHECK_EQ(d.ur, (unsigned)atoi(tab[6]));
            CHECK(d.nur >= 1);
        }
    }
    fclose(f);
    CHECK(n > 400);
    CHECK_EQ(refused, 3);
}

/* BRA.DIV and BRA.U carry a flag in lo[32:34) that is not part of the offset: every one of our
 * cubins' goes where the H100's listing says (tests/sass/branches.tsv). */
static void test_flagged_branches_go_where_the_listing_says(void)
{
    FILE *f = fopen("tests/sass/branches.tsv", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        char lo[20], hi[20], mn[32], file[200];
        unsigned off, target;
        if (line[0] == '#' || sscanf(line, "%19s %19s %x %31s %x %199s", lo, hi, &off, mn, &target,
                                     file) != 6)
            continue;
        struct smem_sass_insn in;
        decode_hex(lo, hi, off, &in);
        CHECK_EQ(in.cls, SMEM_SASS_BRA);
        CHECK_EQ((unsigned)in.target, target);
        n++;
    }
    fclose(f);
    CHECK(n >= 8);
}

/* flag_loop's code (tests/sass/flag_loop.tsv) into a function; edit(k, &lo, &hi) may change an
 * instruction first. Returns the number of instructions. */
static uint32_t load_flag_loop(struct smem_sass_func *sf, struct smem_sass_insn *buf, uint32_t max,
                               void (*edit)(unsigned off, uint64_t *lo, uint64_t *hi))
{
    FILE *f = fopen("tests/sass/flag_loop.tsv", "r");
    CHECK(f != NULL);
    uint32_t n = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f) && n < max) {
        unsigned off;
        char lo[20], hi[20];
        if (line[0] == '#' || sscanf(line, "%x %19s %19s", &off, lo, hi) != 3)
            continue;
        uint64_t l = strtoull(lo, NULL, 16), h = strtoull(hi, NULL, 16);
        if (edit)
            edit(off, &l, &h);
        char ls[20], hs[20];
        snprintf(ls, sizeof ls, "%016llx", (unsigned long long)l);
        snprintf(hs, sizeof hs, "%016llx", (unsigned long long)h);
        decode_hex(ls, hs, off, &buf[n]);
        CHECK_EQ(buf[n].offset, 16 * n);
        n++;
    }
    if (f)
        fclose(f);
    sf->name = (char *)"flag_loop";
    sf->insns = buf;
    sf->ninsns = n;
    return n;
}

/* marked and window offset of the LDS at off (-1: not marked) */
static int fixed_at(const struct smem_sass_func *sf, unsigned off)
{
    const struct smem_sass_insn *in = &sf->insns[off / 16];
    CHECK_EQ(in->cls, SMEM_SASS_LDS);
    return in->ra_fixed ? in->imm : -1;
}

static void r9_from_ur6(unsigned off, uint64_t *lo, uint64_t *hi)
{
    (void)hi;
    if (off == 0x160) /* IMAD.U32 R9, RZ, RZ, UR4 -> UR6 (the parameters' descriptor) */
        *lo = (*lo & ~(0x3full << 32)) | 6ull << 32;
}

static void lds64_into_r8(unsigned off, uint64_t *lo, uint64_t *hi)
{
    if (off == 0x170) { /* LDS R4, [R9+0x4] -> LDS.64 R8, [R9+0x4]: it writes R8 and R9 */
        *lo = (*lo & ~(0xffull << 16)) | 8ull << 16;
        *hi = (*hi & ~(7ull << 9)) | 5ull << 9;
    }
}

static void mov_guarded(unsigned off, uint64_t *lo, uint64_t *hi)
{
    (void)hi;
    if (off == 0xa0) /* MOV R9, UR4 -> @P0 MOV R9, UR4: R9 unknown where P0 was false */
        *lo &= ~(0xfull << 12);
}

static void call_abs(unsigned off, uint64_t *lo, uint64_t *hi)
{
    if (off == 0x2b0) { /* a NOP -> CALL.ABS.NOINC R2 (tests/sass/regs.tsv): a call of another
                           function may write any register */
        *lo = 0x0000000002007343ull;
        *hi = 0x001fea0003c00000ull;
    }
}

/* Loads through a register holding the window's base (src/sass/regs.c): flag_loop's two LDS read
 * fixed places 4 and 0 through R9, set to the base on both paths to them; what would make R9 not
 * known on some path (another value, a load that may cover it, a guarded copy, a call) unmarks
 * the loads it reaches, and only those. */
static void test_register_base_loads(void)
{
    struct smem_sass_insn buf[64];
    struct smem_sass_func sf;
    CHECK_EQ(load_flag_loop(&sf, buf, 64, NULL), 56);
    CHECK_EQ(fixed_at(&sf, 0x170), -1); /* decoded alone: not known */
    CHECK_EQ(smem_sass_fixed_bases(&sf), 0);
    CHECK_EQ(fixed_at(&sf, 0x170), 4);
    CHECK_EQ(fixed_at(&sf, 0x1f0), 0);
    CHECK_EQ(sf.insns[0x170 / 16].ra, 9);

    load_flag_loop(&sf, buf, 64, r9_from_ur6);
    CHECK_EQ(smem_sass_fixed_bases(&sf), 0);
    CHECK_EQ(fixed_at(&sf, 0x170), -1);
    CHECK_EQ(fixed_at(&sf, 0x1f0), -1);

    load_flag_loop(&sf, buf, 64, lds64_into_r8);
    CHECK_EQ(smem_sass_fixed_bases(&sf), 0);
    CHECK_EQ(fixed_at(&sf, 0x170), 4);  /* it reads R9 before writing it */
    CHECK_EQ(sf.insns[0x170 / 16].width, 8);
    CHECK_EQ(fixed_at(&sf, 0x1f0), -1); /* thread 0's path reaches it with R9 loaded */

    load_flag_loop(&sf, buf, 64, mov_guarded);
    CHECK_EQ(smem_sass_fixed_bases(&sf), 0);
    CHECK_EQ(fixed_at(&sf, 0x170), 4);
    CHECK_EQ(fixed_at(&sf, 0x1f0), -1);

    load_flag_loop(&sf, buf, 64, call_abs);
    CHECK_EQ(smem_sass_fixed_bases(&sf), 0);
    CHECK_EQ(fixed_at(&sf, 0x170), -1);
    CHECK_EQ(fixed_at(&sf, 0x1f0), -1);
}

/* The base made in general registers (as dxtc's SASS does): S2R R4, SR_CgaCtaId; MOV R3, 0x400;
 * LEA R4, R4, R3, 0x18 (encodings of kernels/scale.cu's and kernels/alloc.cu's listings, registers
 * set through the fields regs.tsv checks), then LDS.128 R8, [R4+0x600]: window offset 0x600. A
 * shift other than 0x18, or 0x400 added twice, is another place or none. */
static void test_register_base_made_in_registers(void)
{
    static const char *const code[][2] = {
        {"0000000000047919", "000ea20000008800"}, /* S2R R4, SR_CgaCtaId */
        {"0000040000037802", "000fe20000000f00"}, /* MOV R3, 0x400 */
        {"0000000304047211", "004fe200078ec0ff"}, /* LEA R4, R4, R3, 0x18 */
        {"0006000004087984", "000e280000000c00"}, /* LDS.128 R8, [R4+0x600] */
        {"0000000304047211", "004fe200078ec0ff"}, /* LEA R4, R4, R3, 0x18: (base << 24) + 0x400 */
        {"0006000004087984", "000e280000000c00"}, /* LDS.128 R8, [R4+0x600]: not a place */
        {"000000000000794d", "000fea0003800000"}, /* EXIT */
    };
    struct smem_sass_insn buf[7];
    for (unsigned k = 0; k < 7; k++)
        decode_hex(code[k][0], code[k][1], 16 * k, &buf[k]);
    struct smem_sass_func sf = {(char *)"made", buf, 7, 0};
    CHECK_EQ(buf[2].opcode, 0x211);
    CHECK_EQ(buf[3].width, 16);
    CHECK_EQ(smem_sass_fixed_bases(&sf), 0);
    CHECK_EQ(fixed_at(&sf, 0x30), 0x600);
    CHECK_EQ(fixed_at(&sf, 0x50), -1);
}

int main(void)
{
    RUN(test_vectors_match_the_h100_listing);
    RUN(test_mergelike_cubin_decodes_as_the_h100_listing);
    RUN(test_loads_merged_across_a_branch_follow_the_sass);
    RUN(test_lds_addresses_match_the_h100_listing);
    RUN(test_plain_transpose_is_not_flagged);
    RUN(test_damaged_cubins_are_refused_or_read);
    RUN(test_without_ptxas_sass_is_not_checked);
    RUN(test_no_sass_is_said_once);
    RUN(test_register_writes_match_the_h100_listing);
    RUN(test_flagged_branches_go_where_the_listing_says);
    RUN(test_register_base_loads);
    RUN(test_register_base_made_in_registers);
    return CHECK_DONE();
}
