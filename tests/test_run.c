/* test_run.c: `smemlab run` on whole programs, without a GPU. The programs of tests/hw/src (those
 * that measured tests/hw/h100-counters.csv on an H100 80GB HBM3, driver 580.159.04, 2026-11-22)
 * run to their own PASS and give every launch's shared-memory requests and wavefronts as the
 * H100 counted them; devinfo prints the device CSV the H100 printed; tests/run/checks.cu covers
 * the runtime API, memory errors, hazards, refusals and exit statuses, and its counting modes
 * give every launch's counts as Nsight Compute counted them on the H100 (tests/run/h100-checks.csv,
 * driver 580.159.04, ncu 2025.3.1, 2026-11-23). Needs nvcc (else skipped,
 * exit 77): the programs are built here with nvcc -cudart shared, as a user would. */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *src = SMEMLAB_SOURCE_DIR;
static char bin[1024], smemlab[1024];
static char SH[] = "sh", DASHC[] = "-c";


/* Runs argv with stdout and stderr to files; returns the exit status (128+N for signal N). */
static int run(char *const argv[], const char *out, const char *err)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return -1;
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* Builds tests/run or tests/hw/src program `name` into bin/out with extra nvcc flags, unless it
 * is newer than its source. Several at once: start them, then wait_builds(). */
static pid_t builds[16];
static unsigned nbuilds;

static void build(const char *dir, const char *name, const char *out, const char *flags)
{
    char cu[1100], exe[1100], inc[1100], cmd[8192];
    snprintf(cu, sizeof cu, "%s/%s/%s%s", src, dir, name, strchr(name, '.') ? "" : ".cu");
    snprintf(exe, sizeof exe, "%s/%s", bin, out);
    snprintf(inc, sizeof inc, "%s/%s", src, dir);
    struct stat sc, se;
    if (stat(exe, &se) == 0 && stat(cu, &sc) == 0 && se.st_mtime > sc.st_mtime)
        return;
    snprintf(cmd, sizeof cmd, "nvcc -lineinfo -I%s %s %s -o %s > %s.log 2>&1", inc, flags, cu, exe,
             exe);
    char *argv[] = {SH, DASHC, cmd, NULL};
    pid_t pid;
    if (posix_spawnp(&pid, "sh", NULL, NULL, argv, environ) == 0)
        builds[nbuilds++] = pid;
    if (nbuilds == 2) { /* two cores: two compilers at a time */
        int ws;
        waitpid(builds[0], &ws, 0);
        builds[0] = builds[1];
        nbuilds = 1;
    }
}

static void wait_builds(void)
{
    for (unsigned i = 0; i < nbuilds; i++) {
        int ws;
        waitpid(builds[i], &ws, 0);
    }
    nbuilds = 0;
}

/* One CSV field (quotes allowed) of line, into buf; returns the rest after the comma. */
static const char *field(const char *line, char *buf, size_t n)
{
    size_t k = 0;
    int q = 0;
    for (; *line && (q || (*line != ',' && *line != '\n')); line++) {
        if (*line == '"') {
            q = !q;
            continue;
        }
        if (k + 1 < n)
            buf[k++] = *line;
    }
    buf[k] = 0;
    return *line == ',' ? line + 1 : line;
}

/* The i-th field (0-based) of a CSV line. */
static long long num(const char *line, unsigned i, char *text, size_t n)
{
    char buf[256];
    for (unsigned k = 0; k <= i; k++)
        line = field(line, buf, sizeof buf);
    if (text && n) {
        size_t k = strlen(buf) < n - 1 ? strlen(buf) : n - 1;
        memcpy(text, buf, k);
        text[k] = 0;
    }
    return strtoll(buf, NULL, 10);
}

static char *next_line(char *s)
{
    char *nl = strchr(s, '\n');
    return nl ? nl + 1 : NULL;
}


/* After compare_with_h100(program, ..., row): H100 column hw_col (from 0) of csv's rows of `row`
 * against column run_col of the run's CSV, launch by launch, but for the kernels in skip (names,
 * NULL-terminated). Returns the launches compared. */
static unsigned compare_column(const char *program, const char *csv, const char *row, int hw_col,
                               int run_col, const char *what, const char *const *skip)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/h100-%s-%s.csv", bin, program, row);
    char *got = test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/tests/run/%s", src, csv);
    char *hw = test_read_file(path, NULL);
    CHECK(got && hw);
    unsigned n = 0;
    char *g = got ? next_line(got) : NULL;
    for (char *h = hw ? next_line(hw) : NULL; g && *g && h && *h; h = next_line(h)) {
        char prog[64], k[256];
        num(h, 0, prog, sizeof prog);
        if (strcmp(prog, row))
            continue;
        num(g, 1, k, sizeof k);
        int skipped = 0;
        for (int i = 0; skip && skip[i]; i++)
            skipped |= !strcmp(k, skip[i]);
        long long want = num(h, hw_col, NULL, 0), have = num(g, run_col, NULL, 0);
        if (!skipped) {
            if (want != have)
                fprintf(stderr, "  %s launch %u %s: %s %lld, H100 %lld\n", program, n, k, what,
                        have, want);
            CHECK_EQ(have, want);
            n++;
        }
        g = next_line(g);
    }
    free(got);
    free(hw);
    return n;
}

/* `smemlab run --format csv` of program (with args) against section of h100-counters.csv:
 * every launch, in order, equal in ld/st requests and (per-instruction) wavefronts. */
static void check_section(const char *program, const char *args, const char *section,
                          const char *expect_out)
{
    char exe[1100], csv[1100], out[1100], err[1100], cmd[4096];
    snprintf(exe, sizeof exe, "%s/%s", bin, program);
    snprintf(csv, sizeof csv, "%s/%s.%s.csv", bin, program, section);
    snprintf(out, sizeof out, "%s/%s.%s.out", bin, program, section);
    snprintf(err, sizeof err, "%s/%s.%s.err", bin, program, section);
    snprintf(cmd, sizeof cmd, "%s run --format csv -o %s %s %s", smemlab, csv, exe, args);
    char *argv[] = {SH, DASHC, cmd, NULL};
    int rc = run(argv, out, err);
    if (rc != 0)
        fprintf(stderr, "%s: exit %d\n", cmd, rc);
    CHECK_EQ(rc, 0);
    char *o = test_read_file(out, NULL);
    CHECK(o && strstr(o, expect_out));
    if (o && strstr(o, "FAIL"))
        fprintf(stderr, "%s printed FAIL:\n%s\n", program, o);
    CHECK(o && !strstr(o, "FAIL"));
    free(o);
    char *got = test_read_file(csv, NULL), hwpath[1100];
    snprintf(hwpath, sizeof hwpath, "%s/tests/hw/h100-counters.csv", src);
    char *hw = test_read_file(hwpath, NULL);
    CHECK(got && hw);
    if (!got || !hw) {
        free(got);
        free(hw);
        return;
    }
    char *g = next_line(got), *h = next_line(hw);
    unsigned matched = 0;
    for (; h && *h; h = next_line(h)) {
        char sec[64], kname[128];
        num(h, 0, sec, sizeof sec);
        if (strcmp(sec, section))
            continue;
        num(h, 1, kname, sizeof kname);
        long long ld = num(h, 2, NULL, 0), st = num(h, 3, NULL, 0), ldwf = num(h, 8, NULL, 0),
                  stwf = num(h, 9, NULL, 0);
        CHECK(g && *g);
        if (!g || !*g)
            break;
        char rk[256];
        num(g, 1, rk, sizeof rk);
        long long rld = num(g, 10, NULL, 0), rldwf = num(g, 11, NULL, 0),
                  rst = num(g, 13, NULL, 0), rstwf = num(g, 14, NULL, 0);
        int ok = strstr(rk, kname) && rld == ld && rst == st && rldwf == ldwf && rstwf == stwf;
        if (!ok)
            fprintf(stderr, "%s %s: run %s ld %lld/%lld st %lld/%lld, H100 %s ld %lld/%lld st "
                            "%lld/%lld\n", program, section, rk, rld, rldwf, rst, rstwf, kname, ld,
                    ldwf, st, stwf);
        CHECK(ok);
        matched++;
        g = next_line(g);
    }
    CHECK(matched > 0);
    CHECK(!g || !*g); /* no launch more than the H100 counted */
    free(got);
    free(hw);
}

static void test_hw_programs_count_as_the_h100(void)
{
    check_section("reverse", "", "E", "PASS");
    check_section("smem_square", "--profile", "A", "PASS");
    check_section("smem_rect", "--profile", "B", "PASS");
    check_section("smem_patterns", "", "C", "PASS");
    check_section("reduce", "--profile", "D", "PASS");
}

static void test_devinfo_prints_the_h100s_properties(void)
{
    char cmd[3000], out[1100], err[1100], hw[1100];
    snprintf(cmd, sizeof cmd, "%s run %s/devinfo", smemlab, bin);
    snprintf(out, sizeof out, "%s/devinfo.out", bin);
    snprintf(err, sizeof err, "%s/devinfo.err", bin);
    snprintf(hw, sizeof hw, "%s/tests/hw/h100-device.csv", src);
    char *argv[] = {SH, DASHC, cmd, NULL};
    CHECK_EQ(run(argv, out, err), 0);
    char *a = test_read_file(out, NULL), *b = test_read_file(hw, NULL);
    CHECK(a && b && !strcmp(a, b));
    free(a);
    free(b);
}

/* Runs `smemlab run OPTS checks MODE`; returns the status, with stdout and stderr in *o, *e. */
static int checks(const char *opts, const char *program, const char *mode, char **o, char **e)
{
    char cmd[3000], out[1100], err[1100];
    snprintf(cmd, sizeof cmd, "%s run %s %s/%s %s", smemlab, opts, bin, program, mode);
    snprintf(out, sizeof out, "%s/%s.%s.out", bin, program, mode);
    snprintf(err, sizeof err, "%s/%s.%s.err", bin, program, mode);
    char *argv[] = {SH, DASHC, cmd, NULL};
    int rc = run(argv, out, err);
    *o = test_read_file(out, NULL);
    *e = test_read_file(err, NULL);
    if (!*o)
        *o = strdup("");
    if (!*e)
        *e = strdup("");
    return rc;
}

/* Runs program under `smemlab run --format csv` (plus opts; without the SASS when no_sass) to its
 * exit 0, its report in bin/PROGRAM.TAG.csv; the report's text (NULL when missing), and the
 * program's stdout in *out when asked (else freed). */
static char *run_csv(const char *program, const char *opts, const char *tag, int no_sass,
                     char **out)
{
    char *o, *e, path[1100], all[1400];
    snprintf(path, sizeof path, "%s/%s.%s.csv", bin, program, tag);
    snprintf(all, sizeof all, "%s --format csv -o %s", opts, path);
    if (no_sass)
        setenv("SMEMLAB_NO_SASS", "1", 1);
    CHECK_EQ(checks(all, program, "", &o, &e), 0);
    if (no_sass)
        unsetenv("SMEMLAB_NO_SASS");
    free(e);
    if (out)
        *out = o;
    else
        free(o);
    return test_read_file(path, NULL);
}

static void test_runtime_api(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "checks", "api", &o, &e), 0);
    EXPECT_IN(o, "api PASS");
    EXPECT_IN(e, "bigSmem");
    free(o);
    free(e);
}

static void test_transpose_and_histogram_pass_with_their_counts(void)
{
    char *o, *e, path[1100];
    snprintf(path, sizeof path, "-o %s/transpose.csv --format csv", bin);
    CHECK_EQ(checks(path, "checks", "transpose", &o, &e), 0);
    EXPECT_IN(o, "transpose PASS");
    free(o);
    free(e);
    snprintf(path, sizeof path, "%s/transpose.csv", bin);
    char *csv = test_read_file(path, NULL);
    CHECK(csv != NULL);
    /* 4 blocks of 32x8 threads, 4 rows each way per warp through tile[32][33]: conflict-free */
    if (csv) {
        char *l = next_line(csv);
        CHECK(l && num(l, 10, NULL, 0) == 128 && num(l, 11, NULL, 0) == 128);
        CHECK(l && num(l, 13, NULL, 0) == 128 && num(l, 14, NULL, 0) == 128);
    }
    free(csv);
    snprintf(path, sizeof path, "-o %s/histogram.csv --format csv", bin);
    CHECK_EQ(checks(path, "checks", "histogram", &o, &e), 0);
    EXPECT_IN(o, "histogram PASS");
    free(o);
    free(e);
    snprintf(path, sizeof path, "%s/histogram.csv", bin);
    csv = test_read_file(path, NULL);
    if (csv) {
        char *l = next_line(csv);
        /* 8 blocks of 8 warps: one zeroing store, one load, 4 atomics per warp */
        CHECK(l && num(l, 10, NULL, 0) == 64 && num(l, 13, NULL, 0) == 64);
        CHECK(l && num(l, 16, NULL, 0) == 256);
    }
    free(csv);
}

static void test_printf_and_repeated_launches(void)
{
    char *o, *e, path[1100];
    CHECK_EQ(checks("", "checks", "printf", &o, &e), 0);
    EXPECT_IN(o, "block 0 thread 0 of 7: hello 0.00 1099511627776\n"
                 "block 0 thread 1 of 7: hello 0.25 1099511627776\n"
                 "block 1 thread 0 of 7: hello 0.00 1099511627776\n");
    EXPECT_IN(o, "printf done");
    free(o);
    free(e);
    /* 20 rounds of an out-of-place and an in-place kernel: the first kernel's repeats are
       proven and skipped, the second's are not (its result counts all 20) */
    snprintf(path, sizeof path, "-o %s/repeat.csv --format csv", bin);
    CHECK_EQ(checks(path, "checks", "repeat", &o, &e), 0);
    EXPECT_IN(o, "repeat PASS");
    free(o);
    free(e);
    snprintf(path, sizeof path, "%s/repeat.csv", bin);
    char *csv = test_read_file(path, NULL);
    unsigned scale_rep = 0, bump_rep = 0, sum_rep = 0, n = 0;
    for (char *l = csv ? next_line(csv) : NULL; l && *l; l = next_line(l), n++) {
        char k[64];
        num(l, 1, k, sizeof k);
        long long rep = num(l, 21, NULL, 0);
        if (!strcmp(k, "scale"))
            scale_rep += rep == 1;
        else if (!strcmp(k, "sumInto"))
            sum_rep += rep == 1;
        else
            bump_rep += rep == 1;
    }
    /* 20 + 20 + 1 (new input and factor), then the same scale again (a repeat proven by the
       versions of its memory), fill, scale (a repeat whose writes are put back: the program
       checks them), five sums into a zeroed accumulator, then two launches on managed memory (the host changed the second's input:
       not a repeat) */
    CHECK_EQ(n, 51);
    CHECK_EQ(scale_rep, 21);  /* 19 in the loop, the two after new input */
    CHECK_EQ(sum_rep, 4);     /* the zeroed accumulator: all but the first */
    CHECK_EQ(bump_rep, 0);
    free(csv);
}

/* The table a reader reads (issue 35): 1,000 alike launches of a template kernel in a timing loop
   are one row ("x1,000", the repeats proven), its whole name in a legend rather than cut
   mid-template, the inline chain with this file's helper first and libcu++'s swap folded, the
   columns named for what they hold; the HTML page titled with the program and its arguments, its
   counts grouped by thousands. */
static void test_launch_table_reads_cleanly(void)
{
    char *o, *e, opts[1200], path[1100];
    snprintf(opts, sizeof opts, "--html %s/report_table.html", bin);
    CHECK_EQ(checks(opts, "report_table", "", &o, &e), 0);
    EXPECT_IN(o, "report_table: 32 0");
    EXPECT_IN(e, "  x1,000: launches 0-999, 999 proven repeats\n");
    EXPECT_IN(e, "  [1] sgemmLikeTimingLoopKernelWithALongName<8, 128, 8>\n");
    EXPECT_IN(e, "  0      [1]    1x1x1");
    CHECK(!strstr(e, "  1      ")); /* no second row */
    EXPECT_IN(e, "avg wf/req worst request");
    EXPECT_IN(e, "inlined from report_table.cu:11:");
    EXPECT_IN(e, "through 1 frame of the CUDA toolkit's headers (innermost cuda/std/__utility/swap.h:");
    CHECK(!strstr(e, "inlined from swap.h"));
    snprintf(path, sizeof path, "%s/report_table.html", bin);
    char *html = test_read_file(path, NULL);
    CHECK(html != NULL);
    if (html) {
        EXPECT_IN(html, "<title>smemlab run: report_table</title>");
        EXPECT_IN(html, "4,000"); /* 1,000 launches of 4 loads: the kernel's sum, grouped */
        CHECK(!strstr(html, "smemlab analyze"));
        EXPECT_IN(html, ">worst request</th>");
        /* the launches, folded as in the table, before the kernels' sums */
        EXPECT_IN(html, "<h2 id='launches'>Launches</h2>");
        EXPECT_IN(html, "&#215;1,000, launches 0-999, 999 proven repeats");
    }
    free(html);
    free(o);
    free(e);
}

/* A block of 17x2 threads reading a float4 per row (tests/run/partial_wide.cu): no bank conflict,
   but Nsight Compute's count of such partial-warp 16-byte loads is below the ideal (4 wavefronts,
   ideal 5). --fail-on-conflict failed it with 18446744073709551615 "wavefronts beyond the ideal"
   (the difference of two unsigned counts); the conflicts are now the pipeline's passes beyond it. */
static void test_fewer_wavefronts_than_ideal_is_no_conflict(void)
{
    char *o, *e;
    CHECK_EQ(checks("--fail-on-conflict", "partial_wide", "", &o, &e), 0);
    EXPECT_IN(o, "partial_wide PASS");
    EXPECT_IN(e, "4 wavefronts (ideal 5)");
    CHECK(strstr(e, "beyond the ideal") == NULL);
    free(o);
    free(e);
    /* and a real conflict still fails it (checks histogram: bins that share banks) */
    CHECK_EQ(checks("--fail-on-conflict", "checks", "histogram", &o, &e), 1);
    EXPECT_IN(e, "wavefronts beyond the ideal");
    free(o);
    free(e);
}

/* A program with no device memory at all (Kobzol/hardware-effects-gpu's bank-conflicts: 1,000
   launches of a kernel that uses only shared memory): its repeats are proven too. They were not
   (no allocation: no access marks, so no memo), and every launch was emulated again. */
static void test_repeats_without_device_memory(void)
{
    char *o, *e, opts[1200], path[1100];
    snprintf(path, sizeof path, "%s/smem_only.csv", bin);
    snprintf(opts, sizeof opts, "-o %s --format csv", path);
    CHECK_EQ(checks(opts, "smem_only", "", &o, &e), 0);
    EXPECT_IN(o, "smem_only PASS");
    free(o);
    free(e);
    char *csv = test_read_file(path, NULL);
    CHECK(csv != NULL);
    unsigned n = 0, rep = 0;
    long long ld1 = -1, ld2 = -1, st1 = -1, wf1 = -1, wf2 = -1;
    for (char *l = csv ? next_line(csv) : NULL; l && *l; l = next_line(l), n++) {
        long long ld = num(l, 10, NULL, 0), st = num(l, 13, NULL, 0);
        rep += num(l, 21, NULL, 0) == 1;
        if (n == 30) { /* the other argument: emulated, other counts */
            ld2 = ld;
            wf2 = num(l, 11, NULL, 0);
            CHECK_EQ(num(l, 21, NULL, 0), 0);
            continue;
        }
        if (ld1 < 0)
            ld1 = ld, st1 = st, wf1 = num(l, 11, NULL, 0);
        CHECK_EQ(ld, ld1); /* a repeat reports what the launch it repeats counted */
        CHECK_EQ(st, st1);
        CHECK_EQ(num(l, 11, NULL, 0), wf1);
    }
    CHECK_EQ(n, 32);
    CHECK_EQ(rep, 30); /* 29 in the loop and the last */
    CHECK_EQ(ld1, 100); /* one warp, 100 read-modify-writes */
    CHECK_EQ(ld2, 100);
    CHECK_EQ(wf1, 100); /* offset 1: a word per bank */
    CHECK_EQ(wf2, 200); /* offset 2: words 0, 2, ..., 62: two a bank */
    free(csv);
}

/* Blocks that wait for their predecessor's flag (ld.acquire / st.release: CUB's decoupled
 * look-back) run in block order on one thread: under --jobs 2 the same thread-instructions as
 * under --jobs 1, in each of three runs (they varied, blocks spinning on a flag another emulator
 * thread had not written yet: 1,182,536 against 1,180,598 in one run before). */
static void test_blocks_waiting_on_flags_run_in_order(void)
{
    long long want = -1;
    for (int i = 0; i < 4; i++) {
        char *o = NULL, tag[16];
        snprintf(tag, sizeof tag, "%d", i);
        char *csv = run_csv("chained_flags", i ? "--jobs 2" : "--jobs 1", tag, 0, &o);
        EXPECT_IN(o, "chained_flags PASS");
        free(o);
        CHECK(csv != NULL);
        char *l = csv ? next_line(csv) : NULL;
        long long ins = l && *l ? num(l, 18, NULL, 0) : -2;
        CHECK(ins > 0);
        if (i == 0)
            want = ins;
        CHECK_EQ(ins, want);
        free(csv);
    }
}

/* A launch of about two seconds: with --progress a line names it while it runs ("smemlab run:
 * spin (its launch 1), grid 16x1x1, ...") and is erased after it, before the program's own stderr
 * goes on; without it (stderr is no terminal here) the program's stderr is its own. */
static void test_progress_line(void)
{
    char *o, *e;
    CHECK_EQ(checks("--progress --format csv -o /dev/null", "long_launch", "", &o, &e), 0);
    EXPECT_IN(o, "long_launch PASS");
    EXPECT_IN(e, "\r\033[Ksmemlab run: spin (its launch 1), grid 16x1x1, block 32x1x1, 1 s");
    const char *last = strstr(e, "long_launch stderr");
    CHECK(last != NULL);
    CHECK(last && last - e >= 4 && !strncmp(last - 4, "\r\033[K", 4)); /* erased, then the program's */
    free(o);
    free(e);
    CHECK_EQ(checks("--format csv -o /dev/null", "long_launch", "plain", &o, &e), 0);
    CHECK(strstr(e, "smemlab run:") == NULL);
    EXPECT_IN(e, "long_launch stderr");
    free(o);
    free(e);
}

/* A flag computed from a register written only in range (CUB's select / partition sweep: "compare
 * the item, or out of range", `or.pred` of an unknown and a known true): the known operand decides,
 * as on the H100; it was computed unknown and selp wrote 0, a silently wrong result (unseen5's
 * cub_device_partition_if, bench/programs/README.md). The program checks itself. */
static void test_a_known_operand_decides_a_predicate(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "unwritten_flag", "", &o, &e), 0);
    EXPECT_IN(o, "unwritten_flag PASS (0 wrong)");
    CHECK(strstr(e, "does not know") == NULL); /* every value known: nothing to report */
    free(o);
    free(e);
}

/* A store of a value the emulator does not know (shared memory nobody wrote) is reported, located,
 * never silently written: tests/run/unknown_store.cu, 16 lanes at line 14. */
static void test_unknown_values_stored_are_reported(void)
{
    char *o, *e, opts[1200], path[1100];
    snprintf(path, sizeof path, "%s/unknown_store.json", bin);
    snprintf(opts, sizeof opts, "-o %s --format json", path);
    CHECK_EQ(checks(opts, "unknown_store", "", &o, &e), 0);
    EXPECT_IN(o, "unknown_store 1");
    free(o);
    free(e);
    char *js = test_read_file(path, NULL);
    CHECK(js != NULL);
    if (js) {
        EXPECT_IN(js, "\"kind\": \"store of a value the emulator does not know\", \"file\": \"unknown_store.cu\", \"line\": 14");
        EXPECT_IN(js, "\"bytes\": 4, \"count\": 16, \"thread\": [16, 0, 0]");
    }
    free(js);
    CHECK_EQ(checks("--fail-on-memory-error", "unknown_store", "", &o, &e), 1);
    EXPECT_IN(e, "store of a value the emulator does not know of 4 bytes at unknown_store.cu:14");
    free(o);
    free(e);
}

/* Occupancy counts ptxas's registers (the program's sm_90 cubin): cub's radix-sort histogram
   kernel for unsigned keys has 40 a thread, 12 blocks of 128 an SM on the H100, and cub sizes its
   grid from that: 1,584 blocks on the H100 (bench/programs/h100-2026-11-24-unseen5-ncu.csv); with
   the 32 registers assumed before, 2,112. */
static void test_occupancy_counts_ptxas_registers(void)
{
    char *o, *e, opts[1200], path[1100];
    snprintf(path, sizeof path, "%s/occupancy_regs.csv", bin);
    snprintf(opts, sizeof opts, "-o %s --format csv", path);
    CHECK_EQ(checks(opts, "occupancy_regs", "", &o, &e), 0);
    EXPECT_IN(o, "occupancy_regs PASS");
    free(o);
    free(e);
    char *csv = test_read_file(path, NULL);
    CHECK(csv != NULL);
    char *l = csv ? next_line(csv) : NULL;
    CHECK(l && *l);
    if (l && *l) {
        char k[256];
        num(l, 1, k, sizeof k);
        CHECK(strstr(k, "DeviceRadixSortHistogramKernel") != NULL);
        CHECK_EQ(num(l, 2, NULL, 0), 1584);
        CHECK_EQ(num(l, 5, NULL, 0), 128);
    }
    free(csv);
}

/* One launch's CSV row of kernel `name` (the first), or NULL. */
static char *row_of(char *csv, const char *name)
{
    for (char *l = csv ? next_line(csv) : NULL; l && *l; l = next_line(l)) {
        char k[128];
        num(l, 1, k, sizeof k);
        if (!strcmp(k, name))
            return l;
    }
    return NULL;
}

/* ld requests, ld wavefronts, st requests, st wavefronts of a CSV row */
static void expect_counts(char *csv, const char *kernel, long long ld, long long ldwf,
                          long long st, long long stwf)
{
    char *l = row_of(csv, kernel);
    CHECK(l != NULL);
    if (!l) {
        fprintf(stderr, "  no launch of %s\n", kernel);
        return;
    }
    long long a = num(l, 10, NULL, 0), b = num(l, 11, NULL, 0), c = num(l, 13, NULL, 0),
              d = num(l, 14, NULL, 0);
    if (a != ld || b != ldwf || c != st || d != stwf)
        fprintf(stderr, "  %s: ld %lld/%lld st %lld/%lld, expected ld %lld/%lld st %lld/%lld\n",
                kernel, a, b, c, d, ld, ldwf, st, stwf);
    CHECK(a == ld && b == ldwf && c == st && d == stwf);
}

static void test_templates_big_dynamic_smem_3d_memory_and_streams(void)
{
    char *o, *e, path[1100];
    snprintf(path, sizeof path, "-o %s/templates.csv --format csv", bin);
    CHECK_EQ(checks(path, "checks", "templates", &o, &e), 0);
    EXPECT_IN(o, "templates PASS");
    free(o);
    free(e);
    snprintf(path, sizeof path, "%s/templates.csv", bin);
    char *csv = test_read_file(path, NULL);
    CHECK(csv != NULL);
    /* blockSum<T, BS>, 2 blocks: BS/32 warps store s[tid]; the tree steps k = BS/2 .. 1 run
       ceil(k/32) warps, each 2 loads and a store; thread 0 loads s[0]. 4-byte elements: one
       wavefront a request. int/256: 12 steps' warps, ld 2*(24+1), st 2*(8+12). float/128: 8,
       ld 2*(16+1), st 2*(4+8). double/64 (cudaLaunchKernel): 6 warps in steps; a full warp of
       8-byte elements is 2 wavefronts (k=32, and the 2 storing warps), half a warp or less 1:
       ld 2*13 requests, 2*(4+10+1) wavefronts; st 2*8 requests, 2*(4+2+5) wavefronts */
    expect_counts(csv, "blockSum<int, 256>", 50, 50, 40, 40);
    expect_counts(csv, "blockSum<float, 128>", 34, 34, 24, 24);
    expect_counts(csv, "blockSum<double, 64>", 26, 30, 16, 22);
    /* 100 KB of floats by 1024 threads: 25 rounds of 32 warps each way, conflict-free; the
       launch refused for want of cudaFuncSetAttribute is not a launch (nor on the GPU) */
    expect_counts(csv, "reverseBig", 800, 800, 800, 800);
    unsigned n = 0;
    for (char *l = csv ? next_line(csv) : NULL; l && *l; l = next_line(l))
        n++;
    CHECK_EQ(n, 4);
    free(csv);
}

/* `smemlab run --format csv PROGRAM MODE` against the H100's counts in tests/run/CSV: its rows
 * whose first column is ROW (launches first..last, in order), as Nsight Compute 2025.3.1 counted
 * them on an H100 80GB HBM3, driver 580.159.04 (tests/run/h100-device.txt), the same
 * program built with nvcc 13.0 -O3 -arch=sm_90 -lineinfo -cudart shared: shared ld/st requests
 * and wavefronts and atomics (-1 in the file: not measured). Kernels named in `bound` need only
 * stay at or below the H100's counts (and above 0 where it counts some); the others equal them,
 * and no launch is left over. Returns the launches compared. */
static unsigned compare_with_h100(const char *program, const char *mode, const char *csv,
                                  const char *row, const char *const *bound)
{
    char *o, *e, opts[1200], path[1100], hwpath[1100];
    snprintf(path, sizeof path, "%s/h100-%s-%s.csv", bin, program, row);
    snprintf(opts, sizeof opts, "--format csv -o %s", path);
    CHECK_EQ(checks(opts, program, mode, &o, &e), 0);
    free(o);
    free(e);
    snprintf(hwpath, sizeof hwpath, "%s/tests/run/%s", src, csv);
    char *got = test_read_file(path, NULL), *hw = test_read_file(hwpath, NULL);
    CHECK(got && hw);
    char *g = got ? next_line(got) : NULL;
    unsigned n = 0;
    for (char *h = hw ? next_line(hw) : NULL; h && *h; h = next_line(h)) {
        char prog[64], kname[256];
        num(h, 0, prog, sizeof prog);
        if (strcmp(prog, row))
            continue;
        num(h, 3, kname, sizeof kname);
        long long first = num(h, 1, NULL, 0), last = num(h, 2, NULL, 0);
        long long want[5] = {num(h, 6, NULL, 0), num(h, 8, NULL, 0), num(h, 7, NULL, 0),
                             num(h, 9, NULL, 0), num(h, 10, NULL, 0)};
        for (long long i = first; i <= last; i++) {
            CHECK(g && *g);
            if (!g || !*g)
                break;
            char rk[256];
            num(g, 1, rk, sizeof rk);
            long long have[5] = {num(g, 10, NULL, 0), num(g, 11, NULL, 0), num(g, 13, NULL, 0),
                                 num(g, 14, NULL, 0), num(g, 16, NULL, 0)};
            int exact = 1;
            for (int b = 0; bound && bound[b]; b++)
                if (!strcmp(rk, bound[b]))
                    exact = 0;
            int ok = strstr(kname, rk) != NULL;
            for (int c = 0; c < 5; c++)
                if (want[c] >= 0)
                    ok &= exact ? have[c] == want[c]
                                : have[c] <= want[c] && (!want[c] || have[c]);
            if (!ok)
                fprintf(stderr, "%s %s launch %lld: run %s ld %lld/%lld st %lld/%lld atom %lld, "
                                "H100 %s ld %lld/%lld st %lld/%lld atom %lld\n", program, row, i,
                        rk, have[0], have[1], have[2], have[3], have[4], kname, want[0], want[1],
                        want[2], want[3], want[4]);
            CHECK(ok);
            n++;
            g = next_line(g);
        }
    }
    CHECK(!g || !*g); /* no launch more than the H100 counted */
    free(got);
    free(hw);
    return n;
}

static void check_mode_as_the_h100(const char *mode)
{
    CHECK(compare_with_h100("checks", mode, "h100-checks.csv", mode, NULL) > 0);
}

static void test_checks_count_as_the_h100(void)
{
    check_mode_as_the_h100("templates");
    check_mode_as_the_h100("diverge");
    check_mode_as_the_h100("transpose");
    check_mode_as_the_h100("histogram");
    check_mode_as_the_h100("api");
}

static void test_out_of_bounds_global_accesses_are_reported(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "checks", "oob", &o, &e), 0);
    EXPECT_IN(o, "oob done");
    EXPECT_IN(e, "invalid store of 4 bytes at checks.cu:");
    EXPECT_IN(e, "0 bytes after the end of the 256-byte allocation");
    EXPECT_IN(e, "invalid load of 4 bytes at checks.cu:");
    EXPECT_IN(e, "4 bytes before the 256-byte allocation");
    EXPECT_IN(e, "thread (63,0,0) block (0,0,0), address 0x");
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-memory-error", "checks", "oob", &o, &e), 1);
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-memory-error", "checks", "transpose", &o, &e), 0);
    free(o);
    free(e);
}

static void test_hazards_and_checks_asked_for(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "checks", "race", &o, &e), 0);
    EXPECT_IN(e, "hazard: race");
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-hazard", "checks", "race", &o, &e), 1);
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-conflict", "checks", "histogram", &o, &e), 1);
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-conflict --fail-on-hazard", "checks", "transpose", &o, &e), 0);
    free(o);
    free(e);
}

static void test_bad_programs_stop_with_a_located_message(void)
{
    char *o, *e;
    /* a kernel that never ends: the step budget, located in the source; the launch before it
       stays in the report */
    CHECK_EQ(checks("--max-steps 100000", "checks", "hang", &o, &e), 3);
    EXPECT_IN(e, "step budget");
    EXPECT_IN(e, "checks.cu:");
    EXPECT_IN(e, "spin");
    EXPECT_IN(e, "  0      racy ");
    EXPECT_IN(e, "exit status: 3 (stopped by smemlab)");
    free(o);
    free(e);
    /* a call smemlab does not emulate: named, and the launch before it kept */
    CHECK_EQ(checks("", "checks", "unsupported", &o, &e), 3);
    EXPECT_IN(e, "cudaMallocArray is not supported");
    EXPECT_IN(e, "  0      racy ");
    free(o);
    free(e);
    /* a kernel that traps: located; the program sees cudaErrorLaunchFailure, sticky, and ends
       as it decides (here: status 0) */
    CHECK_EQ(checks("", "checks", "trap", &o, &e), 0);
    EXPECT_IN(o, "trap: cudaErrorLaunchFailure, then cudaErrorLaunchFailure");
    EXPECT_IN(e, "executes trap");
    EXPECT_IN(e, "checks.cu:");
    EXPECT_IN(e, "(failed)");
    free(o);
    free(e);
    /* the same with --fail-on-incomplete: the report is not whole (a launch stopped), exit 1;
       a program whose launches all ended keeps its status 0 */
    CHECK_EQ(checks("--fail-on-incomplete", "checks", "trap", &o, &e), 1);
    EXPECT_IN(e, "--fail-on-incomplete: 1 launch failed before its end");
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-incomplete", "checks", "exit5", &o, &e), 5);
    CHECK(!strstr(e, "--fail-on-incomplete"));
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-incomplete", "checks", "race", &o, &e), 0);
    free(o);
    free(e);
    /* a branch on a load from a null pointer: the load is reported (kind, size, line, thread,
       block, address), the launch stops located, exit 3, the launch before kept */
    CHECK_EQ(checks("", "checks", "unknown", &o, &e), 3);
    EXPECT_IN(e, "branchOnNull cannot be emulated");
    EXPECT_IN(e, "the branch depends on a value the emulator does not know");
    EXPECT_IN(e, "invalid load of 4 bytes at checks.cu:");
    EXPECT_IN(e, "thread (0,0,0) block (0,0,0), address 0x0:");
    EXPECT_IN(e, "  0      racy ");
    CHECK(!strstr(o, "not reached"));
    free(o);
    free(e);
    /* host code dereferencing a device pointer: the program's signal, the allocation named,
       and the report of the launch before it */
    CHECK_EQ(checks("", "checks", "crash", &o, &e), 139);
    EXPECT_IN(e, "dereferenced the device address");
    EXPECT_IN(e, "256-byte allocation");
    EXPECT_IN(e, "racy");
    free(o);
    free(e);
    /* killed (SIGTERM) inside a long launch: the report keeps the launch before and names the
       one being emulated */
    {
        char out[1100], err[1100], json[1100];
        snprintf(json, sizeof json, "%s/killed.json", bin);
        snprintf(out, sizeof out, "%s/killed.out", bin);
        snprintf(err, sizeof err, "%s/killed.err", bin);
        remove(json);
        /* started, then killed once it says it launches the spinning kernel (under ASan that
           takes seconds): not a fixed delay */
        char prog[1100];
        snprintf(prog, sizeof prog, "%s/checks", bin);
        char RUN[] = "run", MS[] = "--max-steps", BIG[] = "1000000000000", FMT[] = "--format",
             JS[] = "json", O[] = "-o", HANG[] = "hang";
        char *argv[] = {smemlab, RUN, MS, BIG, FMT, JS, O, json, prog, HANG, NULL};
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        pid_t pid;
        int spawned = posix_spawnp(&pid, smemlab, &fa, NULL, argv, environ) == 0;
        posix_spawn_file_actions_destroy(&fa);
        CHECK(spawned);
        for (int tries = 0; spawned && tries < 600; tries++) { /* up to 60 s */
            char *r = test_read_file(out, NULL);
            int ready = r && strstr(r, "hang: spinning");
            free(r);
            struct timespec ts = {0, ready ? 500000000 : 100000000}; /* then into the launch */
            nanosleep(&ts, NULL);
            if (ready)
                break;
        }
        if (spawned) {
            int ws;
            kill(pid, SIGTERM);
            while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
                ;
        }
        char *j = NULL;
        for (int tries = 0; tries < 200; tries++) {
            free(j);
            j = test_read_file(json, NULL);
            if (j && strstr(j, "\"stopped\""))
                break;
            struct timespec ts = {0, 100000000};
            nanosleep(&ts, NULL);
        }
        CHECK(j != NULL);
        if (j) {
            EXPECT_IN(j, "killed by SIGTERM while launch 1 (spin, grid 1x1x1, block 32x1x1) was "
                         "being emulated");
            EXPECT_IN(j, "\"kernel\": \"racy\"");
        }
        free(j);
    }
    /* the program's own exit status, and its failed assert seen by the program */
    CHECK_EQ(checks("", "checks", "exit5", &o, &e), 5);
    EXPECT_IN(e, "exit status: 5");
    free(o);
    free(e);
    CHECK_EQ(checks("", "checks", "assert", &o, &e), 0);
    EXPECT_IN(o, "assert: cudaErrorAssert");
    EXPECT_IN(e, "assert() fails");
    free(o);
    free(e);
    /* built with the static runtime, or with SASS only: refused before running */
    CHECK_EQ(checks("", "tiny_static", "", &o, &e), 3);
    EXPECT_IN(e, "rebuild with -cudart shared");
    CHECK(!strstr(o, "tiny"));
    free(o);
    free(e);
    /* SASS only: since the cuBLAS stand-ins (programs whose own cubins hold no code run), such a
       program is stopped at the launch of its first kernel, named as the source names it */
    CHECK_EQ(checks("", "tiny_sass", "", &o, &e), 3);
    EXPECT_IN(e, "rebuild with -arch=sm_90");
    EXPECT_IN(e, "kernel one cannot be emulated: the fatbinary holds no PTX");
    free(o);
    free(e);
    /* relocatable device code: its PTX is there but linked by nvlink as SASS; said so, not
       "SASS only" */
    CHECK_EQ(checks("", "tiny_rdc", "", &o, &e), 3);
    EXPECT_IN(e, "relocatable device code (nvcc -rdc=true");
    CHECK(!strstr(o, "tiny"));
    free(o);
    free(e);
    CHECK_EQ(checks("", "tiny", "", &o, &e), 0);
    EXPECT_IN(o, "tiny PASS");
    free(o);
    free(e);
    /* not a CUDA program */
    char cmd[2000], out[1100], err[1100];
    snprintf(cmd, sizeof cmd, "%s run /bin/true", smemlab);
    snprintf(out, sizeof out, "%s/true.out", bin);
    snprintf(err, sizeof err, "%s/true.err", bin);
    char *argv[] = {SH, DASHC, cmd, NULL};
    CHECK_EQ(run(argv, out, err), 3);
    e = test_read_file(err, NULL);
    CHECK(e && strstr(e, "not a CUDA program"));
    free(e);
}

/* Shared f32 / f64 atomic adds (tests/run/fatomic.cu), which ptxas makes a compare-and-swap
 * loop on sm_90 (LDS + ATOMS.CAST.SPIN a round, the SASS of the measured binary): rounds = the
 * most lanes in one bank, each round a load and an atomic; tests/run/h100-fatomic.csv (the H100,
 * 2026-11-24 05:25 UTC, with op_atom wavefronts in its last column): every counter of the one-warp
 * kernels equal, atom wavefronts too (2 a round a 4-byte word); fWarps, four warps on the same
 * words, only a lower bound (the H100's extra rounds are other warps' updates in between). */
static void test_shared_float_atomics_are_a_cas_loop(void)
{
    static const char *const bound[] = {"fWarps", NULL};
    CHECK_EQ(compare_with_h100("fatomic", "", "h100-fatomic.csv", "fatomic", bound), 8);
    CHECK_EQ(compare_column("fatomic", "h100-fatomic.csv", "fatomic", 11, 17, "atom wavefronts",
                            bound), 7);
    char *o, *e;
    CHECK_EQ(checks("--format json", "fatomic", "", &o, &e), 0);
    EXPECT_IN(o, "fatomic PASS");
    EXPECT_IN(e, "\"cas_loop\": true");
    free(o);
    free(e);
}

/* More shared atomics ptxas makes a compare-and-swap loop (tests/run/atomic64.cu): 64-bit integer
 * add / and / or / xor, 8-byte words in two passes of 16 lanes (lanes l and l + 16 on distinct
 * words in one bank both succeed in a round), and a 64-bit add at a fixed address summed over
 * the warp first (one lane's loop); f16x2 / bf16x2 adds through a generic address that comes from
 * cvta.shared (cuda_fp16.h's atomicAdd), the 32-bit loop; 64-bit exchange and CAS and 32-bit min
 * are native. Every counter equal to tests/run/h100-atomic64.csv (H100 80GB HBM3, driver
 * 580.159.04, ncu 2025.3.1, 2026-11-24 07:19 UTC), atom wavefronts too but for the f16x2 / bf16x2
 * loops (36 against 32: not modelled). Not run here: 64-bit min / max (the loop ends where the word
 * already holds the result: modelled since from the values, test_minmax64_rounds_from_the_values;
 * atomic64_all's min64 and max64 rows equal too) and the scalar f16 add (another form, not
 * modelled); their H100 counts are in the file too (atomic64_all). */
static void test_more_shared_atomics_are_cas_loops(void)
{
    CHECK_EQ(compare_with_h100("atomic64", "modelled", "h100-atomic64.csv", "atomic64", NULL), 11);
    /* native ATOMS, and the 16-bit pairs' loop: their wavefronts are not modelled */
    static const char *const native[] = {"exch64", "cas64", "min32", "half2add", "bf162add", NULL};
    CHECK_EQ(compare_column("atomic64", "h100-atomic64.csv", "atomic64", 11, 17, "atom wavefronts",
                            native), 6);
}

/* 64-bit shared atomicMin / atomicMax (tests/run/minmax64.cu): ptxas's loop ends where the word
 * already holds a value as good, so its rounds depend on the values; the emulator replays it on
 * them (cta_lane.c, minmax_rounds). Written after the rule was worked out from atomic64's min64 and
 * max64, its counts predicted before the H100 run (tests/run/h100-minmax64.csv, H100 80GB HBM3,
 * driver 580.159.04, ncu 2025.3.1, 2026-11-24 10:13 UTC, a second process equal): 11 kernels, every
 * LDS and ATOMS count and ATOMS wavefront equal (the two whose words share banks after fitting the
 * bank rule on them: 9 of 11 as predicted); LDS wavefronts too since the bank model gives Nsight
 * Compute's per-instruction count of paired LDS.64 with a conflict (docs/bank-model.md, "Two
 * wavefront counters": the loop's LDS.64 of two words in one bank, 3 a round, was 2 before). */
static void test_minmax64_rounds_from_the_values(void)
{
    CHECK_EQ(compare_with_h100("minmax64", "", "h100-minmax64.csv", "minmax64", NULL), 11);
    CHECK_EQ(compare_column("minmax64", "h100-minmax64.csv", "minmax64", 10, 16, "atom requests", NULL), 11);
    CHECK_EQ(compare_column("minmax64", "h100-minmax64.csv", "minmax64", 11, 17, "atom wavefronts", NULL), 11);
}

/* cp.async with a src-size below the copy (tests/run/zfill.cu): priced by what it reads and
 * writes (src/model/matrix.c's src-size rules, held out on the H100 in tests/hw/h100-ldsm8.csv);
 * a .ca zero-fill of 32 lanes whose sources are one global 16 bytes costs its destinations only
 * (4 wavefronts; the whole copies 32; before, 32 for both). Every launch's ld/st/atom and LDGSTS
 * requests and wavefronts equal tests/run/h100-zfill.csv (H100 80GB HBM3, driver 580.159.04,
 * ncu 2025.3.1, 2026-11-24 07:24 UTC). */
static void test_zero_fill_copies_as_the_h100(void)
{
    CHECK_EQ(compare_with_h100("zfill", "", "h100-zfill.csv", "zfill", NULL), 6);
    /* LDGSTS requests and wavefronts: the run's CSV columns 28 and 29 */
    CHECK_EQ(compare_column("zfill", "h100-zfill.csv", "zfill", 11, 28, "LDGSTS requests", NULL), 6);
    CHECK_EQ(compare_column("zfill", "h100-zfill.csv", "zfill", 12, 29, "LDGSTS wavefronts", NULL), 6);
    /* a .cg copy with src-size 8, which no measured rule establishes: the site and the table say
       its cost is an estimate; the measured kernels above never do */
    char *o, *e;
    CHECK_EQ(checks("--format json", "zfill", "src8", &o, &e), 0);
    EXPECT_IN(o, "zfill src8 PASS");
    EXPECT_IN(e, "\"estimate\": true");
    free(o);
    free(e);
    CHECK_EQ(checks("", "zfill", "src8", &o, &e), 0);
    EXPECT_IN(e, ": cp.async requests outside the established class of the measured rules");
    free(o);
    free(e);
    CHECK_EQ(checks("--format json", "zfill", "", &o, &e), 0);
    CHECK(strstr(e, "\"estimate\"") == NULL);
    free(o);
    free(e);
}

/* Loads from fixed places of shared memory follow the program's own SASS (sass/sass_fixed.c,
 * tests/run/fixed_places.cu): lengths read on either side of a branch merged into one LDS.64 before
 * it, a float3 and three neighbouring scalars read as one LDS.128, a struct's fields read by odd
 * threads merged with the rest before the branch. Every launch's ld/st requests and wavefronts
 * equal tests/run/h100-fixed-places.csv (H100 80GB HBM3, driver 580.159.04, ncu 2025.3.1,
 * 2026-11-24 09:18 UTC, built as here). Without the SASS (SMEMLAB_NO_SASS=1) the PTX's own loads
 * are counted and 6 of the 7 launches differ: what the SASS changes is what the H100 counts. */
static void test_fixed_places_follow_the_sass(void)
{
    CHECK_EQ(compare_with_h100("fixed_places", "", "h100-fixed-places.csv", "fixed_places", NULL), 7);
    char *o = NULL, *got = run_csv("fixed_places", "", "nosass", 1, &o), hwpath[1100];
    EXPECT_IN(o, "fixed_places PASS");
    free(o);
    snprintf(hwpath, sizeof hwpath, "%s/tests/run/h100-fixed-places.csv", src);
    char *hw = test_read_file(hwpath, NULL);
    CHECK(got && hw);
    unsigned equal = 0, n = 0;
    char *g = got ? next_line(got) : NULL;
    for (char *h = hw ? next_line(hw) : NULL; g && *g && h && *h; h = next_line(h), g = next_line(g)) {
        equal += num(g, 10, NULL, 0) == num(h, 6, NULL, 0) && num(g, 11, NULL, 0) == num(h, 8, NULL, 0);
        n++;
    }
    CHECK_EQ(n, 7);
    CHECK_EQ(equal, 1); /* dyn_loop: the PTX's loads are the SASS's there */
    free(got);
    free(hw);
}

/* Held out (tests/run/fixed_places2.cu, written after sass/sass_fixed.c, its counts predicted and
 * committed before the H100 run: tests/run/h100-fixed-places2.csv, 2026-11-24 09:45 UTC): a
 * struct's fixed element read in a loop, a scalar on both sides of an if / else, a double beside
 * an int and an array's first nine ints, and flag_loop, where ptxas reads the loop's flag and the
 * count after the loop as one LDS.64 through a register holding the window's base ([R9], R9 set
 * by `MOV R9, UR4` and again by `IMAD.U32 R9, RZ, RZ, UR4`): the register dataflow of
 * src/sass/regs.c finds R9 = the base on every path, so that load is counted as the SASS has it
 * (before: the PTX's two loads, the H100's count plus 128) and the report says so. */
static void test_fixed_places_held_out(void)
{
    char *o, *e, path[1100], opts[1200], hwpath[1100];
    snprintf(path, sizeof path, "%s/fixed_places2.csv", bin);
    snprintf(opts, sizeof opts, "--format csv -o %s", path);
    CHECK_EQ(checks(opts, "fixed_places2", "", &o, &e), 0);
    EXPECT_IN(o, "fixed_places2 PASS");
    free(o);
    free(e);
    snprintf(hwpath, sizeof hwpath, "%s/tests/run/h100-fixed-places2.csv", src);
    char *got = test_read_file(path, NULL), *hw = test_read_file(hwpath, NULL);
    CHECK(got && hw);
    unsigned n = 0;
    char *g = got ? next_line(got) : NULL;
    for (char *h = hw ? next_line(hw) : NULL; g && *g && h && *h; h = next_line(h), g = next_line(g)) {
        CHECK_EQ(num(g, 10, NULL, 0), num(h, 6, NULL, 0));
        CHECK_EQ(num(g, 11, NULL, 0), num(h, 8, NULL, 0));
        CHECK_EQ(num(g, 13, NULL, 0), num(h, 7, NULL, 0));
        CHECK_EQ(num(g, 14, NULL, 0), num(h, 9, NULL, 0));
        n++;
    }
    CHECK_EQ(n, 4);
    free(got);
    free(hw);
    CHECK_EQ(checks("", "fixed_places2", "", &o, &e), 0);
    EXPECT_IN(e, "line 79: counted as ptxas's SASS has it: one LDS.64 at a fixed place with line 80's loads");
    CHECK(strstr(e, "line 80: ptxas keeps no LDS") == NULL); /* flagged before */
    free(o);
    free(e);
}

/* A block's warp aggregates read as CUB's BlockScan (BLOCK_SCAN_WARP_SCANS) leaves them in its PTX
 * (tests/run/wide_reads.cu): whole vectors some of whose components nothing uses, and scalars of
 * words those vectors read too. ptxas makes three LDS.128 of the seven loads, each run once a warp;
 * smemlab counts them so (sass/sass_fixed.c: a vector ptxas keeps whole, and a load whose nearest
 * LDS are several, the one reading exactly its bytes or else the widest): 8 blocks of 32 warps,
 * 768 requests of 2 wavefronts, the H100's (tests/run/h100-fixed-reads.csv: H100 80GB HBM3,
 * driver 580.159.04, ncu 2025.3.1, 2026-11-24 15:58 UTC, the binary built here as below). Before:
 * 2,048 (the vectors cut to their used components, each scalar a request); without the SASS,
 * 2,304. */
static void test_wide_reads_counted_as_the_sass(void)
{
    char *o, *e;
    CHECK_EQ(compare_with_h100("wide_reads", "", "h100-fixed-reads.csv", "wide_reads", NULL), 1);
    CHECK_EQ(checks("", "wide_reads", "", &o, &e), 0);
    EXPECT_IN(o, "wide_reads PASS");
    EXPECT_IN(e, "counted as ptxas's SASS has it: one LDS.128 at a fixed place");
    free(o);
    free(e);
    char *got = run_csv("wide_reads", "", "nosass", 1, NULL);
    char *g = got ? next_line(got) : NULL;
    CHECK(g && *g);
    if (g && *g)
        CHECK_EQ(num(g, 10, NULL, 0), 2304); /* the PTX's loads: what the SASS changes */
    free(got);
}

/* A raking scan (tests/run/raking.cu): a lane reads its 32-word segment, the warp scans the sums,
 * the lane reads the segment again (the same line) and writes its scan back. ptxas serves some
 * re-reads from the first reads' registers, as it chooses: all 32 where the segment is read whole
 * before it is written (raking_cub, CUB's order; the SASS line has 32 LDS), 2 of 32 where it is
 * read and written word by word (raking_interleaved: 62 LDS, the first and last words read once).
 * smemlab drops a re-read only where the line's SASS reads that offset fewer times than the PTX
 * (smem_sass_rereads), so both equal the H100's (tests/run/h100-fixed-reads.csv: 256 and 376 loads
 * for 4 blocks); the PTX's loads, without the SASS: 380 each. */
static void test_raking_rereads_counted_as_the_sass(void)
{
    char *o, *e;
    CHECK_EQ(compare_with_h100("raking", "", "h100-fixed-reads.csv", "raking", NULL), 2);
    CHECK_EQ(checks("--format json", "raking", "", &o, &e), 0);
    EXPECT_IN(o, "raking PASS");
    EXPECT_IN(e, "\"sass_placed\": \"read again by 1 load at line 42 that ptxas serves from this "
                 "one's registers (its SASS reads them once): no request there\"");
    free(o);
    free(e);
    char *got = run_csv("raking", "", "nosass", 1, NULL);
    unsigned n = 0;
    for (char *g = got ? next_line(got) : NULL; g && *g; g = next_line(g)) {
        CHECK_EQ(num(g, 10, NULL, 0), 380);
        n++;
    }
    CHECK_EQ(n, 2);
    free(got);
}

/* Lines whose shared accesses ptxas changed (issue 33, tests/run/sass_lines.cu) counted as the
 * program's own SASS has them (src/sass/sass_lines.c), against the H200's counts
 * (tests/run/h200-sass-lines.csv; NVIDIA H200, driver 580.159.04, Nsight Compute 2025.3.1,
 * 2026-11-29, nvcc 13.0 -O3 -arch=sm_90 -lineinfo -cudart shared; tests/run/h200-sass-lines.txt):
 * a swizzled tile read and written four 4-byte words at a time, which ptxas makes 16 LDS.128 /
 * STS.128 (conflict-free, 64 wavefronts; the PTX's 64 accesses are 4-way conflicted, 256), and a
 * re-read ptxas serves from registers; the PTX's figures stay in JSON (ptx_requests,
 * ptx_wavefronts), and a load ptxas runs before its loop (2 a warp, 32; the PTX's every trip,
 * 160). Without the SASS (SMEMLAB_NO_SASS=1) the counts are the PTX's. */
static void test_lines_counted_as_their_sass(void)
{
    char *o, *e, path[1100], opts[1200], hwpath[1100];
    snprintf(path, sizeof path, "%s/sass_lines.csv", bin);
    snprintf(opts, sizeof opts, "--format csv -o %s", path);
    CHECK_EQ(checks(opts, "sass_lines", "", &o, &e), 0);
    EXPECT_IN(o, "sass_lines PASS");
    free(o);
    free(e);
    snprintf(hwpath, sizeof hwpath, "%s/tests/run/h200-sass-lines.csv", src);
    char *got = test_read_file(path, NULL), *hw = test_read_file(hwpath, NULL);
    CHECK(got && hw);
    unsigned n = 0;
    char *g = got ? next_line(got) : NULL;
    for (char *h = hw ? next_line(hw) : NULL; g && *g && h && *h; h = next_line(h), g = next_line(g)) {
        long long have[4] = {num(g, 10, NULL, 0), num(g, 11, NULL, 0), num(g, 13, NULL, 0),
                             num(g, 14, NULL, 0)};
        long long want[4] = {num(h, 6, NULL, 0), num(h, 8, NULL, 0), num(h, 7, NULL, 0),
                             num(h, 9, NULL, 0)};
        for (int c = 0; c < 4; c++)
            CHECK_EQ(have[c], want[c]);
        n++;
    }
    CHECK_EQ(n, 4);
    free(got);
    free(hw);
    CHECK_EQ(checks("--format json", "sass_lines", "", &o, &e), 0);
    EXPECT_IN(e, "\"shared_ld\": {\"requests\": 16, \"wavefronts\": 64, \"ideal_wavefronts\": 64, "
                 "\"ptx_requests\": 64, \"ptx_wavefronts\": 256}");
    EXPECT_IN(e, "\"shared_st\": {\"requests\": 16, \"wavefronts\": 64, \"ideal_wavefronts\": 64, "
                 "\"ptx_requests\": 64, \"ptx_wavefronts\": 256}");
    EXPECT_IN(e, "\"line\": 45, \"op\": \"ld\", \"bytes\": 16, \"requests\": 16, \"wavefronts\": 64, "
                 "\"ideal_wavefronts\": 64, \"max_ways\": 1");
    EXPECT_IN(e, "\"sass_placed\": \"ptxas made one LDS.128 of 4 4-byte loads (lines 45-48): "
                 "counted so\"");
    EXPECT_IN(e, "\"sass_placed\": \"ptxas serves this 4-byte load from an earlier load's "
                 "registers (its SASS has no LDS for it): no request here\"");
    CHECK(strstr(e, "ptxas made LDS.128") == NULL); /* flagged before, counted now */
    free(o);
    free(e);
    CHECK_EQ(checks("", "sass_lines", "", &o, &e), 0);
    EXPECT_IN(e, "line 95: counted as ptxas's SASS has it: ptxas runs this 4-byte load before its "
                 "loop (the loop writes no shared memory, its address does not change): counted "
                 "once each time a warp enters the loop");
    CHECK(strstr(e, "line 95: ptxas made") == NULL); /* flagged before */
    free(o);
    free(e);
    /* advise searches the requests the machine code makes: no conflict to chase */
    char cmd[3000], apath[1100];
    snprintf(apath, sizeof apath, "%s/sass_lines.advise", bin);
    snprintf(cmd, sizeof cmd, "%s advise %s/tests/run/sass_lines.cu --kernel swizzle_read --block 32 "
             "> %s 2>&1", smemlab, src, apath);
    CHECK_EQ(test_sh(cmd), 0);
    char *adv = test_read_file(apath, NULL);
    CHECK(adv != NULL);
    EXPECT_IN(adv ? adv : "", "no bank conflicts in 1 shared array: nothing to change");
    free(adv);
    got = run_csv("sass_lines", "", "nosass", 1, NULL);
    n = 0;
    static const long long ptx_ld[4] = {64, 64, 64, 160}, ptx_st[4] = {64, 64, 32, 16};
    for (g = got ? next_line(got) : NULL; g && *g; g = next_line(g), n++)
        if (n < 4) {
            CHECK_EQ(num(g, 10, NULL, 0), ptx_ld[n]);
            CHECK_EQ(num(g, 13, NULL, 0), ptx_st[n]);
        }
    CHECK_EQ(n, 4);
    free(got);
}

/* Recursive device functions (tests/run/recursion.cu) run to the program's own PASS. Against
 * tests/run/h100-recursion.csv (Nsight Compute 2025.3.1, H100 80GB HBM3, driver 580.159.04,
 * 2026-11-24, nvcc 13.0 -O3 -arch=sm_90 -lineinfo -cudart shared): where the lanes of a warp
 * stay in one call frame (k_uniform) every count is the H100's; where they reach a load at
 * different depths (k_depth, k_fib) the H100 issues one request a frame and smemlab, which runs
 * such lanes together, counts fewer: its counts there are a lower bound, and the report says so
 * (in_recursion). */
static void test_recursion_runs_and_counts_as_the_h100(void)
{
    char *o, *e;
    static const char *const bound[] = {"k_depth", "k_fib", NULL};
    CHECK_EQ(compare_with_h100("recursion", "", "h100-recursion.csv", "recursion", bound), 4);
    CHECK_EQ(checks("", "recursion", "", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    free(o);
    free(e);
    /* the report names the lines whose counts are a lower bound */
    CHECK_EQ(checks("--format json", "recursion", "", &o, &e), 0);
    EXPECT_IN(e, "\"in_recursion\": true");
    free(o);
    free(e);
}

/* Bulk copies (tests/run/bulk.cu: cp.async.bulk global -> shared completing an mbarrier's
 * transaction bytes, shared -> global with a bulk group) give the program's own PASS; they make
 * no shared-memory request (tests/hw/h100-bulk.csv: the H100 counts none for them), so only the
 * kernel's own loads and stores count: 4 blocks of 4 warps, 8 loads and 8 stores each. Reading
 * the copy's destination before waiting on the barrier is a race. */
static void test_bulk_copies(void)
{
    char *o, *e;
    CHECK_EQ(checks("--format csv", "bulk", "", &o, &e), 0);
    EXPECT_IN(o, "PASS");
    EXPECT_IN(e, "\"reverse_bulk\",4,1,1,128,1,1,8200,0,128,128,128,128,128,128,0,0,");
    free(o);
    free(e);
    CHECK_EQ(checks("--fail-on-hazard", "bulk", "race", &o, &e), 1);
    EXPECT_IN(o, "PASS");
    EXPECT_IN(e, "hazard: race (write-read)");
    free(o);
    free(e);
}

/* Loads around an IEEE division, square root or reciprocal (f32, f64) or a 64-bit integer division
 * stay apart (ptxas calls a slow-path subroutine there); around a multiplication, a 32-bit division
 * or expf four neighbouring loads are one LDS.128: every launch of tests/run/merge_calls.cu as the
 * H100 counted it (tests/run/h100-merge-calls.csv: Nsight Compute 2025.3.1, H100 80GB HBM3,
 * driver 580.159.04, 2026-11-24; loads only). */
static void test_merged_loads_stop_at_slow_path_calls(void)
{
    CHECK_EQ(compare_with_h100("merge_calls", "", "h100-merge-calls.csv", "merge_calls", NULL), 14);
}

/* A shared counter set by atomicExch and counted up while threads loop on it (simpleAttributes'
 * pattern): the exchange makes the word known, so the loop runs to the program's PASS (before,
 * the branch on the counter stopped the kernel as unknown data). */
static void test_exchange_sets_a_known_counter(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "shared_counter", "", &o, &e), 0);
    EXPECT_IN(o, "PASS (0 bad)");
    free(o);
    free(e);
}

/* The multiply-adds ptxas fuses (mul + add / sub without a rounding modifier become one FFMA,
 * DFMA or HFMA2; a product with another use, .rn, mixed .ftz, a loop between them, or a -G build
 * keep it rounded): tests/hw/fma/fma.cu prints what the H100 printed, bit for bit, built -O3 and
 * -G (tests/hw/h100-fma.txt, h100-fma-G.txt: H100 80GB HBM3, driver 580.159.04, CUDA 13.0,
 * 2026-11-24). Before, every pair was computed with the product rounded: 10 of 35 lines differed. */
static void test_fused_multiply_adds_as_the_h100(void)
{
    static const char *const runs[][2] = {{"fma", "h100-fma.txt"}, {"fma_G", "h100-fma-G.txt"}};
    for (unsigned i = 0; i < 2; i++) {
        char *o, *e, golden[1100];
        snprintf(golden, sizeof golden, "%s/tests/hw/%s", src, runs[i][1]);
        char *want = test_read_file(golden, NULL);
        CHECK(want != NULL);
        CHECK_EQ(checks("", runs[i][0], "", &o, &e), 0);
        CHECK(want && strcmp(o, want) == 0);
        if (want && strcmp(o, want))
            fprintf(stderr, "  %s printed:\n%s  the H100 printed:\n%s", runs[i][0], o, want);
        free(want);
        free(o);
        free(e);
    }
}

/* wmma in a function nvcc did not inline (-O3 __noinline__, and -G): the product is exact. */
static void test_wmma_in_a_called_function(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "wmma_noinline", "", &o, &e), 0);
    EXPECT_IN(o, "PASS (0 bad)");
    free(o);
    free(e);
    CHECK_EQ(checks("", "wmma_noinline_G", "", &o, &e), 0);
    EXPECT_IN(o, "PASS (0 bad)");
    free(o);
    free(e);
}

static void test_json_report_and_compile_mode(void)
{
    char cmd[3000], out[1100], err[1100], js[1100];
    snprintf(js, sizeof js, "%s/compiled.json", bin);
    snprintf(cmd, sizeof cmd, "%s run --format json -o %s %s/tests/run/checks.cu -- oob", smemlab,
             js, src);
    snprintf(out, sizeof out, "%s/compiled.out", bin);
    snprintf(err, sizeof err, "%s/compiled.err", bin);
    char *argv[] = {SH, DASHC, cmd, NULL};
    CHECK_EQ(run(argv, out, err), 0);
    char *j = test_read_file(js, NULL);
    CHECK(j != NULL);
    if (j) {
        EXPECT_IN(j, "\"program\": \"checks\"");
        EXPECT_IN(j, "\"args\": [\"oob\"]");
        EXPECT_IN(j, "\"exit_status\": 0");
        EXPECT_IN(j, "\"kernel\": \"offByOne\"");
        EXPECT_IN(j, "\"memory_errors\": [");
        EXPECT_IN(j, "\"kind\": \"store\"");
        EXPECT_IN(j, "\"kernels\": [");
    }
    free(j);
}

/* ---- the driver API (issue 29): tests/run/tensormap.cu, drvquery.cu against the H200 ---------- */

/* The lines of golden text g (from file name) that are not comments ('#'), each checked against
 * the same line of out unless skip(line) says the line is the machine's own; returns the lines
 * compared. out must have no line more. */
static unsigned compare_golden(const char *name, const char *g, const char *out,
                               int (*skip)(const char *line))
{
    unsigned n = 0;
    const char *a = g, *b = out;
    while (a && *a) {
        const char *ae = strchr(a, '\n'), *be = strchr(b, '\n');
        size_t al = ae ? (size_t)(ae - a) : strlen(a), bl = be ? (size_t)(be - b) : strlen(b);
        if (*a != '#') {
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)(al < 500 ? al : 500), a);
            if (!*b) {
                check_count++, check_failures++;
                fprintf(stderr, "  %s: the output ends before '%s'\n", name, line);
                return n;
            }
            if (!skip || !skip(line)) {
                check_count++;
                if (al != bl || memcmp(a, b, al)) {
                    check_failures++;
                    fprintf(stderr, "  %s: '%s', smemlab run printed '%.*s'\n", name, line,
                            (int)bl, b);
                }
                n++;
            }
            b += bl + (be != NULL);
        }
        a += al + (ae != NULL);
    }
    CHECK(*b == 0);
    return n;
}

static char *golden(const char *name)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/tests/run/%s", src, name);
    char *g = test_read_file(path, NULL);
    CHECK(g != NULL);
    return g;
}

/* text without its "attr N ..." lines (a copy) */
static char *without_attributes(const char *text)
{
    char *r = malloc(strlen(text) + 1), *w = r;
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l + 1) : strlen(l);
        if (strncmp(l, "attr ", 5))
            memcpy(w, l, n), w += n;
        l += n;
    }
    *w = 0;
    return r;
}

/* A program that builds tensor maps through cudaGetDriverEntryPointByVersion (as CUTLASS does):
 * every cuTensorMapEncodeTiled / Im2col answer (83 valid and invalid maps) and every entry-point
 * answer equals the H200's (tests/run/h200-tensormap.txt: driver 580.159.04, 2026-11-29). */
static void test_tensor_maps_as_the_h200(void)
{
    char *o, *e, *g = golden("h200-tensormap.txt");
    CHECK_EQ(checks("", "tensormap", "", &o, &e), 0);
    CHECK_EQ(compare_golden("h200-tensormap.txt", g, o, NULL), 87);
    free(g);
    free(o);
    free(e);
}

/* the machine's own facts, not the device's: the board's total memory (the emulated H200's is
 * another board's) */
static int machine_line(const char *line)
{
    return !strncmp(line, "totalmem_gib ", 13);
}

/* Runs sh command cmd (its output into bin/NAME.log); its exit status. */
static int shell(const char *cmd, const char *name)
{
    char out[1100];
    snprintf(out, sizeof out, "%s/%s.log", bin, name);
    char *argv[] = {SH, DASHC, (char *)cmd, NULL};
    return run(argv, out, out);
}

/* A C program written against the driver API alone (tests/run/drvapi.c, -lcuda): a created
 * context, memory, copies and sets, pointer attributes, streams and events, PTX text loaded with
 * cuModuleLoadData, its global, attributes and parameters, launches with kernelParams, `extra` and
 * cuLaunchKernelEx (a cluster), a library, a fatbinary loaded from its file: every answer right
 * ("drvapi PASS"), and every launch in the report, priced as the runtime's: the PTX's store and
 * load at twice the thread's index are 2-way conflicts, 2 wavefronts a warp but 1 for the last
 * warp's 8 threads (31 * 2 + 1 = 63 of 32 requests). A cubin loads with its PTX kept beside it,
 * or handed over in memory with its PTX beside the same cubin in Triton's cache; without, the
 * program stops saying how to keep it, exit 3. */
static void test_driver_api_programs_run_and_are_priced(void)
{
    char cmd[16000], fat[1100], cub[1100], cub2[1100], *o, *e;
    snprintf(fat, sizeof fat, "%s/drvapi_kernel.fatbin", bin);
    snprintf(cub, sizeof cub, "%s/drvapi_nop/k.cubin", bin);
    snprintf(cub2, sizeof cub2, "%s/drvapi_ptx/k.cubin", bin);
    snprintf(cmd, sizeof cmd, "K=%s/tests/run/drvapi_kernel.cu; mkdir -p %s/drvapi_nop %s/drvapi_ptx "
             "&& nvcc -fatbin -arch=sm_90 -o %s $K && nvcc -cubin -arch=sm_90 -o %s $K && "
             "cp %s %s && nvcc -ptx -arch=sm_90 -o %s/drvapi_ptx/k.ptx $K && "
             "rm -rf %s/drvapi_cache && mkdir -p %s/drvapi_cache/other %s/drvapi_cache/HASH && "
             "cp %s/drvapi_ptx/k.* %s/drvapi_cache/HASH/",
             src, bin, bin, fat, cub, cub, cub2, bin, bin, bin, bin, bin, bin);
    CHECK_EQ(shell(cmd, "drvapi_kernel"), 0);

    char *csv = NULL;
    snprintf(cmd, sizeof cmd, "--format csv -o %s/drvapi.csv", bin);
    CHECK_EQ(checks(cmd, "drvapi", "all", &o, &e), 0);
    EXPECT_IN(o, "file module ran");
    EXPECT_IN(o, "drvapi PASS");
    CHECK(!strstr(o, "FAIL"));
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "%s/drvapi.csv", bin);
    csv = test_read_file(cmd, NULL);
    CHECK(csv != NULL);
    unsigned scale = 0, reverse = 0;
    for (char *l = csv; l && *l; l = next_line(l)) {
        if (strstr(l, "scale") && strstr(l, ",2048,0,32,63,32,32,63,32,"))
            scale++;
        if (strstr(l, "reverse128"))
            reverse++;
    }
    CHECK(scale >= 4); /* the four launches of scale, each 32 requests / 63 wavefronts */
    CHECK(reverse >= 1);
    if (scale < 4)
        fprintf(stderr, "  drvapi.csv:\n%s\n", csv ? csv : "");
    free(csv);

    CHECK_EQ(checks("", "drvapi", "ptx", &o, &e), 0);
    EXPECT_IN(o, "file module ran");
    EXPECT_IN(o, "drvapi PASS");
    free(o);
    free(e);
    /* a cubin handed over in memory, as Triton does: its PTX from Triton's cache */
    snprintf(cmd, sizeof cmd, "%s/drvapi_cache", bin);
    setenv("TRITON_CACHE_DIR", cmd, 1);
    CHECK_EQ(checks("", "drvapi", "cache", &o, &e), 0);
    EXPECT_IN(o, "file module ran");
    EXPECT_IN(o, "drvapi PASS");
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "%s/drvapi_cache/other", bin);
    setenv("TRITON_CACHE_DIR", cmd, 1);
    CHECK_EQ(checks("", "drvapi", "cache", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cuModuleLoadData: the module is a cubin, machine code without the "
                 "PTX smemlab runs, and no cubin of Triton's cache (");
    EXPECT_IN(e, "drvapi_cache/other) is this one; keep the PTX");
    free(o);
    free(e);
    unsetenv("TRITON_CACHE_DIR");

    CHECK_EQ(checks("", "drvapi", "clusters", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cuOccupancyMaxActiveClusters is not supported (how the GPU places "
                 "clusters on its GPCs is not modelled");
    CHECK(!strstr(o, "cuOccupancyMaxActiveClusters returned") && !strstr(o, "FAIL"));
    free(o);
    free(e);

    CHECK_EQ(checks("", "drvapi", "nop", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cuModuleLoad: the module is a cubin, machine code without the PTX "
                 "smemlab runs, and there is no ");
    EXPECT_IN(e, "drvapi_nop/k.ptx; keep the PTX");
    CHECK(!strstr(o, "file module ran"));
    free(o);
    free(e);
}

/* The line of file (under the source tree) holding text, 0 if none. */
static int line_of(const char *file, const char *text)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", src, file);
    char *t = test_read_file(path, NULL);
    const char *at = t ? strstr(t, text) : NULL;
    int line = at ? 1 : 0;
    for (const char *c = t; at && c < at; c++)
        line += *c == '\n';
    free(t);
    return line;
}

/* Python reaching the driver as its CUDA packages do (tests/run/drvapi_ctypes.py: ctypes on
 * libcuda.so.1, the standard library only): `smemlab run python3 script.py` finds the interpreter
 * on PATH, the stand-in is loaded, the PTX kernel's result is right and its launch priced (a
 * block's 256 floats stored and read back reversed through shared memory: conflict-free, one
 * wavefront a request, 8 warps a block, 4 blocks). */
static void test_python_reaches_the_driver(void)
{
    char cmd[4000], out[1100], err[1100], csv[1100];
    snprintf(csv, sizeof csv, "%s/ctypes.csv", bin);
    snprintf(out, sizeof out, "%s/ctypes.out", bin);
    snprintf(err, sizeof err, "%s/ctypes.err", bin);
    snprintf(cmd, sizeof cmd, "%s run --format csv -o %s python3 %s/tests/run/drvapi_ctypes.py",
             smemlab, csv, src);
    char *argv[] = {SH, DASHC, cmd, NULL};
    CHECK_EQ(run(argv, out, err), 0);
    char *o = test_read_file(out, NULL), *c = test_read_file(csv, NULL);
    CHECK(o && strstr(o, "ctypes PASS"));
    CHECK(c && strstr(c, "\"reverse256\",4,1,1,256,1,1,1024,0,32,32,32,32,32,32,"));
    if (!c || !strstr(c, "\"reverse256\",4,1,1,256,1,1,1024,0,32,32,32,32,32,32,"))
        fprintf(stderr, "  ctypes.csv:\n%s\n", c ? c : "");
    free(o);
    free(c);
    /* the driver's error at the script's line (the interpreter's frame), counted */
    snprintf(cmd, sizeof cmd, "%s run --fail-on-api-error python3 %s/tests/run/drvapi_ctypes.py",
             smemlab, src);
    CHECK_EQ(run(argv, out, err), 1);
    char *e = test_read_file(err, NULL), want[200];
    snprintf(want, sizeof want, "api error: cuMemFree_v2 returned CUDA_ERROR_INVALID_VALUE at "
             "drvapi_ctypes.py:%d", line_of("tests/run/drvapi_ctypes.py", "if cu.cuMemFree_v2(din)"));
    CHECK(e && strstr(e, want));
    if (!e || !strstr(e, want))
        fprintf(stderr, "  want %s in:\n%s\n", want, e ? e : "");
    free(e);
}

/* PTX linked at run time through the driver (tests/run/drvlink.c, -lcuda): cuLinkCreate with log
 * buffers, cuLinkAddData and cuLinkAddFile of PTX, cuLinkComplete, the image loaded
 * (cuModuleLoadData, Ex) and launched: every answer the H200's driver gave, line for line
 * (tests/run/h200-drvlink.txt: PTX that is not PTX CUDA_ERROR_INVALID_IMAGE, an empty link
 * completes), the image a cubin (ptxas), the results right, each launch priced (a 2-way conflict:
 * 2 warps x 4 blocks, 8 requests, 16 wavefronts, for the store and the load). The driver's error
 * is reported with the program's file:line and counted by --fail-on-api-error (exit 1). A link of
 * two PTX modules, or of a library, stops the program naming it, exit 3. */
static void test_driver_links_ptx(void)
{
    char *o, *e, *g = golden("h200-drvlink.txt"), want[300], csv[1100];
    const char *body = strchr(g, '\n') ? strchr(g, '\n') + 1 : g; /* past the provenance line */
    CHECK_EQ(checks("--fail-on-api-error", "drvlink", "all", &o, &e), 1);
    CHECK_STR(o, body);
    if (strcmp(o, body))
        fprintf(stderr, "  drvlink's answers:\n%s\n  the H200's:\n%s\n", o, body);
    int line = line_of("tests/run/drvlink.c", "SAY(\"add_not_ptx\"");
    CHECK(line > 0);
    snprintf(want, sizeof want, "api error: cuLinkAddData_v2 returned CUDA_ERROR_INVALID_IMAGE at "
             "drvlink.c:%d; 1 time", line);
    EXPECT_IN(e, want);
    EXPECT_IN(e, "--fail-on-api-error: 1 CUDA calls returned an error");
    free(o);
    free(e);
    free(g);
    snprintf(csv, sizeof csv, "--format csv -o %s/drvlink.csv", bin);
    CHECK_EQ(checks(csv, "drvlink", "all", &o, &e), 0);
    free(o);
    free(e);
    snprintf(csv, sizeof csv, "%s/drvlink.csv", bin);
    char *c = test_read_file(csv, NULL);
    unsigned twice = 0;
    for (const char *l = c; l && (l = strstr(l, "\"twice\",4,1,1,64,1,1,512,0,8,16,8,8,16,8,")); l++)
        twice++;
    CHECK_EQ(twice, 2);
    if (twice != 2)
        fprintf(stderr, "  drvlink.csv:\n%s\n", c ? c : "");
    free(c);
    CHECK_EQ(checks("", "drvlink", "two", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cuLinkAddData: smemlab's linker links one PTX module; this link "
                 "already has a.ptx, and b.ptx is a second");
    free(o);
    free(e);
    CHECK_EQ(checks("", "drvlink", "lib", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cuLinkAddData: smemlab's linker takes PTX (text, or in a "
                 "fatbinary), not a library (such as libcudadevrt.a) (input libx.a)");
    free(o);
    free(e);
}

/* A C program linking PTX with nvJitLink (tests/run/jitlink.c, -lnvJitLink -lcuda): smemlab's
 * stand-in answers (the cubin ptxas made, bytes that are not PTX refused), the cubin loads (its
 * PTX kept: NVIDIA's nvJitLink would hand over a cubin the load refuses) and its launch is priced:
 * a 2-way conflict, 2 warps x 2 blocks, 4 requests and 8 wavefronts each way. */
static void test_nvjitlink_stand_in_links_ptx(void)
{
    char *o, *e, csv[1100];
    snprintf(csv, sizeof csv, "--format csv -o %s/jitlink.csv", bin);
    CHECK_EQ(checks(csv, "jitlink", "", &o, &e), 0);
    EXPECT_IN(o, "jitlink PASS");
    free(o);
    free(e);
    snprintf(csv, sizeof csv, "%s/jitlink.csv", bin);
    char *c = test_read_file(csv, NULL);
    CHECK(c && strstr(c, "\"twice\",2,1,1,64,1,1,512,0,4,8,4,4,8,4,"));
    free(c);
}

/* A count Nsight Compute gave on the H200, from FILE (tests/hw/...: ncu --csv) for the launch ID
 * and METRIC ("1,024" read as 1024); -1 when absent */
static long h200_count(const char *file, int id, const char *metric)
{
    char path[1100], key[300];
    snprintf(path, sizeof path, "%s/tests/hw/%s", src, file);
    char *g = test_read_file(path, NULL);
    long v = -1;
    snprintf(key, sizeof key, "\"%s\",", metric);
    for (char *l = g; l && *l && v < 0; l = next_line(l)) {
        char *m = strstr(l, key), *nl = strchr(l, '\n');
        if (strtol(l + (*l == '"'), NULL, 10) != id || *l != '"' || !m || (nl && m > nl))
            continue;
        char *q = nl ? nl : l + strlen(l); /* the value: the line's last quoted field */
        while (q > m && *q != '"')
            q--;
        for (char *p = q - 1; p > m; p--)
            if (*p == '"') {
                for (p++; p < q; p++)
                    if (*p >= '0' && *p <= '9')
                        v = (v < 0 ? 0 : v * 10) + (*p - '0');
                    else if (*p != ',')
                        break; /* "n/a" */
                break;
            }
    }
    free(g);
    return v;
}

/* column COL (0-based) of the first data row of smemlab's CSV report, -1 when absent */
static long csv_column(const char *c, int col)
{
    const char *p = c ? strchr(c, '\n') : NULL;
    if (!p)
        return -1;
    p++;
    for (int i = 0, q = 0; i < col && *p && *p != '\n'; p++)
        if (*p == '"')
            q = !q;
        else if (*p == ',' && !q)
            i++;
    return *p >= '0' && *p <= '9' ? strtol(p, NULL, 10) : -1;
}

/* 0 when PY imports MODULE */
static int py_imports(const char *py, const char *module)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' -c 'import %s' >/dev/null 2>&1", py, module);
    return test_sh(cmd);
}

/* Python kernels under `smemlab run`, their results checked by the scripts (NumPy) and their shared
 * counts against Nsight Compute's on the H200 for the same kernels: triton_matmul.py (Triton's
 * tutorial matmul, fp16 and tf32: tests/hw/triton/h200-mm-ncu.csv, launches 0 and 1: shared ld/st,
 * gmma and LDGSTS), numba_shared.py (Numba-CUDA) and cudacore_shared.py (cuda.core with NVRTC):
 * tests/hw/python/h200-ncu.csv, launches 0 and 1. The interpreter: SMEMLAB_TEST_PYTHON, else the
 * venv scripts/deps.sh installs Triton and NumPy in from PyPI (CI's: `deps.sh --triton-python`
 * names it). None there (no network when deps.sh ran): said, with deps.sh's log, and skipped; one
 * there must import Triton and pass. Numba's and cuda.core's scripts run where they import (not in
 * CI's venv: Numba-CUDA's packages are 96 MB more). Triton compiles into a fresh TRITON_CACHE_DIR
 * in the build folder (its launcher stub too: a C compiler and Python.h, which deps.sh installs).
 * The ASan build runs it too (`smemlab run` preloads libasan into the interpreter for its
 * stand-ins, as for any program: the fp16 matmul 3.0 s, 730 MB, against 1.8 s, 176 MB). */
static void test_python_kernels_under_run(void)
{
    char py[1100] = "", cmd[16384];
    const char *env = getenv("SMEMLAB_TEST_PYTHON");
    if (env && *env)
        snprintf(py, sizeof py, "%s", env);
    else {
        snprintf(cmd, sizeof cmd, "sh %s/scripts/deps.sh --triton-python", src);
        FILE *f = popen(cmd, "r");
        if (f) {
            if (!fgets(py, sizeof py, f))
                py[0] = 0;
            pclose(f);
        }
        py[strcspn(py, "\n")] = 0;
        if (access(py, X_OK)) {
            char log[1200];
            size_t n = strlen(py), b = strlen("/bin/python3"); /* deps.sh's log: VENV.log */
            snprintf(log, sizeof log, "%.*s.log", (int)(n > b ? n - b : 0), py);
            char *l = test_read_file(log, NULL), *last = l; /* its last line: pip's reason */
            for (char *p = l; p && *p; p++)
                if (*p == '\n' && p[1] && p[1] != '\n')
                    last = p + 1;
            printf("  (no Triton venv at %s: scripts/deps.sh could not install it%s%.*s; the "
                   "Python kernels not run)\n", py, last ? ": " : "",
                   last ? (int)strcspn(last, "\n") : 0, last ? last : "");
            free(l);
            return;
        }
    }
    CHECK_EQ(py_imports(py, "triton, numpy"), 0);
    static const struct {
        const char *script, *arg, *module, *pass, *ncu;
        int id;
    } runs[] = {
        {"triton_matmul.py", "fp16", "triton", "triton matmul fp16 PASS", "triton/h200-mm-ncu.csv", 0},
        {"triton_matmul.py", "f32", "triton", "triton matmul f32 PASS", "triton/h200-mm-ncu.csv", 1},
        {"numba_shared.py", "", "numba.cuda", "numba PASS", "python/h200-ncu.csv", 0},
        {"cudacore_shared.py", "", "cuda.core", "cudacore PASS", "python/h200-ncu.csv", 1},
    };
    snprintf(cmd, sizeof cmd, "rm -rf %s/triton-cache", bin);
    CHECK_EQ(test_sh(cmd), 0);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        if (strcmp(runs[i].module, "triton") && py_imports(py, runs[i].module)) {
            printf("  (%s does not import %s: %s not run)\n", py, runs[i].module, runs[i].script);
            continue;
        }
        char out[1100], err[1100], csv[1100];
        snprintf(csv, sizeof csv, "%s/py%zu.csv", bin, i);
        snprintf(out, sizeof out, "%s/py%zu.out", bin, i);
        snprintf(err, sizeof err, "%s/py%zu.err", bin, i);
        snprintf(cmd, sizeof cmd, "export TRITON_CACHE_DIR=%s/triton-cache; %s run --format csv -o "
                 "%s '%s' %s/tests/run/%s %s && %s run '%s' %s/tests/run/%s %s 2>&1 >/dev/null | "
                 "grep -E 'wgmma|ldgsts' || true", bin, smemlab, csv, py, src, runs[i].script,
                 runs[i].arg, smemlab, py, src, runs[i].script, runs[i].arg);
        char *argv[] = {SH, DASHC, cmd, NULL};
        CHECK_EQ(run(argv, out, err), 0);
        char *o = test_read_file(out, NULL), *c = test_read_file(csv, NULL);
        CHECK(o && strstr(o, runs[i].pass));
        /* smemlab's CSV columns: ld requests, wavefronts (10, 11), st (13, 14), LDGSTS requests
           (28); Nsight Compute's metrics for them */
        static const struct {
            int col;
            const char *metric;
        } cols[] = {
            {10, "smsp__sass_inst_executed_op_shared_ld.sum"},
            {11, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
            {13, "smsp__sass_inst_executed_op_shared_st.sum"},
            {14, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
            {28, "smsp__sass_inst_executed_op_ldgsts.sum"},
        };
        for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
            long h = h200_count(runs[i].ncu, runs[i].id, cols[k].metric);
            if (h < 0 && cols[k].col == 28)
                continue; /* LDGSTS: counted for the matmul only */
            long s = csv_column(c, cols[k].col);
            CHECK(h >= 0 && s == h);
            if (h < 0 || s != h)
                fprintf(stderr, "  %s %s: %s: the H200 %ld, smemlab run %ld\n", runs[i].script,
                        runs[i].arg, cols[k].metric, h, s);
        }
        long gr = h200_count(runs[i].ncu, runs[i].id, "l1tex__lsuin_requests_op_gmma.sum"),
             gw = h200_count(runs[i].ncu, runs[i].id,
                             "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum");
        if (gr >= 0) { /* wgmma's operands read from shared memory */
            char want[100];
            snprintf(want, sizeof want, "%ld requests, %ld wavefronts", gr, gw);
            CHECK(o && strstr(o, want));
        }
        if (!o || !c || !strstr(o, runs[i].pass))
            fprintf(stderr, "  %s %s:\n%s\n%s\n", runs[i].script, runs[i].arg, o ? o : "",
                    c ? c : "");
        free(o);
        free(c);
    }
}

/* A program linked with -lcuda (build/runtime/libcuda.so.1 stands in): init, the device and its
 * attributes, the primary context, cuGetProcAddress per version, error names and strings, then a
 * kernel through the runtime: the H200's driver's every answer (tests/run/h200-drvquery.txt,
 * h200-drverrors.txt), the attributes the emulated device answers equal (the PCI bus and device
 * ids aside: the machine's), the others invalid value (as cudaDeviceGetAttribute says); a driver
 * call smemlab does not provide stops the program with its name and caller, exit 3, the launch
 * before it reported. */
static void test_driver_api_as_the_h200(void)
{
    char *o, *e, *g = golden("h200-drvquery.txt");
    CHECK_EQ(checks("--device h200", "drvquery", "query", &o, &e), 0);
    EXPECT_IN(o, "kernel PASS");
    unsigned answered = 0, unanswered = 0;
    for (char *l = o; l && *l; l = next_line(l)) {
        int a, r, v, hr = -1, hv = 0;
        if (sscanf(l, "attr %d %d %d", &a, &r, &v) != 3)
            continue;
        char want[64];
        snprintf(want, sizeof want, "\nattr %d ", a);
        const char *h = g ? strstr(g, want) : NULL;
        CHECK(h && sscanf(h + 1, "attr %*d %d %d", &hr, &hv) == 2);
        if (r == 0) {
            answered++;
            CHECK_EQ(hr, 0);
            if (a != 33 && a != 34 && hv != v) {
                check_failures++;
                fprintf(stderr, "  attribute %d: the H200 %d, smemlab run %d\n", a, hv, v);
            }
        } else {
            CHECK_EQ(r, 1);
            unanswered += hr == 0;
        }
    }
    CHECK_EQ(answered, 61);
    CHECK_EQ(unanswered, 86);
    char *ga = without_attributes(g), *oa = without_attributes(o);
    CHECK_EQ(compare_golden("h200-drvquery.txt", ga, oa, machine_line), 60);
    free(ga);
    free(oa);
    free(g);
    free(o);
    free(e);

    g = golden("h200-drverrors.txt");
    CHECK_EQ(checks("", "drvquery", "errors", &o, &e), 0);
    CHECK_EQ(compare_golden("h200-drverrors.txt", g, o, NULL), 102);
    free(g);
    free(o);
    free(e);

    CHECK_EQ(checks("", "drvquery", "refused", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cuMemAllocManaged is not supported (smemlab run provides the "
                 "driver API's initialisation");
    EXPECT_IN(e, "called from drvquery");
    EXPECT_IN(o, "kernel PASS");
    CHECK(strstr(o, "refused returned") == NULL);
    free(o);
    free(e);
}

/* text's lines that begin with one of the prefixes, in order (a copy) */
static char *lines_with(const char *text, const char *const *prefixes, unsigned n)
{
    char *r = malloc(strlen(text) + 1), *w = r;
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);
        for (unsigned i = 0; i < n; i++)
            if (!strncmp(l, prefixes[i], strlen(prefixes[i]))) {
                memcpy(w, l, len), w += len;
                break;
            }
        l += len;
    }
    *w = 0;
    return r;
}

/* Stream-ordered memory pools (tests/run/mempool.cu, runtime and driver calls): every answer and
 * every attribute as the H200 gave them (tests/run/h200-mempool.txt, driver 580.159.04,
 * 2026-11-29: the memory in use is the bytes asked for, reserved memory grows in 32 MiB pieces and
 * is kept up to the release threshold, each high-water mark resets on its own, a pool's
 * allocations are not the device's other memory); the driver's pool calls work after the
 * runtime's, without cuInit, as on a GPU. Under --sanitizer-text --leak-check full, the same 14
 * API errors, in order, with the same summaries as compute-sanitizer's
 * (h200-mempool-memcheck.txt). */
static void test_memory_pools_as_the_h200(void)
{
    char *o, *e, *g = golden("h200-mempool.txt");
    CHECK_EQ(checks("", "mempool", "", &o, &e), 0);
    EXPECT_IN(o, "kernel PASS");
    CHECK_EQ(compare_golden("h200-mempool.txt", g, o, NULL), 90);
    free(g);
    free(o);
    free(e);

    g = golden("h200-mempool-memcheck.txt");
    CHECK_EQ(checks("--sanitizer-text --leak-check full", "mempool", "", &o, &e), 0);
    static const char *const keep[] = {"========= Program hit", "========= LEAK SUMMARY",
                                       "========= ERROR SUMMARY"};
    char *gw = lines_with(g, keep, 3), *ow = lines_with(e, keep, 3);
    CHECK(strstr(gw, "ERROR SUMMARY: 14 errors") != NULL);
    if (strcmp(gw, ow)) {
        check_count++, check_failures++;
        fprintf(stderr, "  compute-sanitizer's records:\n%s  smemlab run's:\n%s", gw, ow);
    }
    free(gw);
    free(ow);
    free(g);
    free(o);
    free(e);
}

/* Warp- and block-synchronisation cases (tests/run/warpsync.cu) against the H200
 * (tests/run/h200-warpsync.txt, driver 580.159.04, 2026-11-29): what the program sees (__syncwarp,
 * shuffles and ballots by half a warp, with the full mask or their own, a mask naming lanes the
 * block lacks, __syncwarp on both sides of a branch, named barriers) equals the H200's output, and
 * --sanitizer-tool synccheck reports nothing where compute-sanitizer reports nothing. Mode 9 (a
 * __syncthreads() that lanes 0-15 of every warp reach, the others exit) is the one difference:
 * synccheck on the H200 stays silent (the lanes that skip it have exited when it is reached, in
 * the order ptxas gives the paths), smemlab reports the barrier divergence the programming guide
 * makes undefined (docs/run.md). Mode 6 (a named barrier for 64 reached by 96) hangs the H200
 * (and compute-sanitizer): smemlab stops at the barrier's line, a deadlock, exit 3. */
static void test_warp_sync_cases_as_the_h200(void)
{
    char *g = golden("h200-warpsync.txt");
    char *o, *e;
    CHECK_EQ(checks("", "warpsync", "6", &o, &e), 3);
    EXPECT_IN(g, "## mode 6 native\nrc=124"); /* the H200: killed by the timeout */
    EXPECT_IN(e, "warpsync.cu:38:13: deadlock: 32 threads wait at barrier 1 for 64 (its count)");
    free(o);
    free(e);
    for (int m = 0; m <= 9; m++) {
        if (m == 6)
            continue;
        char mode[8], head[64];
        snprintf(mode, sizeof mode, "%d", m);
        CHECK_EQ(checks("--sanitizer-tool synccheck", "warpsync", mode, &o, &e), 0);
        /* the H200's native lines of this mode: after "## mode M native", up to "rc=" */
        snprintf(head, sizeof head, "## mode %d native\n", m);
        const char *h = g ? strstr(g, head) : NULL;
        CHECK(h != NULL);
        if (h) {
            h += strlen(head);
            const char *end = strstr(h, "rc=");
            size_t n = end ? (size_t)(end - h) : 0;
            if (strlen(o) != n || memcmp(o, h, n)) {
                check_count++, check_failures++;
                fprintf(stderr, "  warpsync %d: the H200 printed\n%.*s  smemlab run\n%s", m,
                        (int)n, h, o);
            } else {
                check_count++;
            }
        }
        if (m == 9) {
            EXPECT_IN(e, "Barrier error detected. Divergent thread(s) in warp.");
            EXPECT_IN(e, "warpsync.cu:55");
        } else {
            EXPECT_IN(e, "ERROR SUMMARY: 0 errors");
        }
        free(o);
        free(e);
    }
    free(g);
}

/* --initcheck on shared memory (tests/run/uninit_shared.cu): mode 1's 64 threads a block read
 * bytes nothing in their block wrote: one hazard at line 12, counted per thread access (2 blocks:
 * 128), byte 508 of s first (thread 0 reads s[127]); in the sanitizer layout a record of its own,
 * kept out of the ERROR SUMMARY (compute-sanitizer's initcheck checks global memory only); the
 * finding's rule is SARIF's "uninitialized". Mode 0 (every byte written first) and runs without
 * --initcheck report nothing. */
static void test_shared_memory_read_unwritten(void)
{
    char *o, *e, cmd[1400];
    snprintf(cmd, sizeof cmd, "--initcheck --findings-csv %s/uninit_shared.csv", bin);
    CHECK_EQ(checks(cmd, "uninit_shared", "1", &o, &e), 0);
    EXPECT_IN(e, "hazard: uninitialized-shared (read) line 12, address 508 in s, seen 128 times");
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "%s/uninit_shared.csv", bin);
    char *csv = test_read_file(cmd, NULL);
    CHECK(csv != NULL);
    if (csv)
        EXPECT_IN(csv, "\"uninitialized\",hazard,\"k\",\"uninit_shared.cu\",12,12,\"read\",128");
    free(csv);
    CHECK_EQ(checks("--sanitizer-tool initcheck", "uninit_shared", "1", &o, &e), 0);
    EXPECT_IN(e, "Uninitialized __shared__ memory read of size 4 bytes");
    EXPECT_IN(e, "in uninit_shared.cu:12");
    EXPECT_IN(e, "(smemlab: 1 record of shared memory read unwritten above, not counted below");
    EXPECT_IN(e, "ERROR SUMMARY: 0 errors");
    free(o);
    free(e);
    CHECK_EQ(checks("--initcheck", "uninit_shared", "0", &o, &e), 0);
    CHECK(strstr(e, "uninitialized-shared") == NULL);
    free(o);
    free(e);
    CHECK_EQ(checks("", "uninit_shared", "1", &o, &e), 0);
    CHECK(strstr(e, "uninitialized-shared") == NULL);
    free(o);
    free(e);
}

/* Launches with thread-block clusters (tests/run/cluster.cu): cudaLaunchKernelEx with a cluster
 * dimension, __cluster_dims__, cudaFuncSetAttribute's non-portable sizes and required dimensions:
 * every launch's error (cudaErrorInvalidClusterSize where the grid does not divide, a size
 * over 8 or 16, a cluster other than the kernel's), whether its blocks ran, and every attribute
 * answer equal the H200's (tests/run/h200-cluster.txt, driver 580.159.04, 2026-11-29); then
 * cudaOccupancyMaxActiveClusters (the H200's measured answers, looked up by the blocks an SM holds
 * and the cluster's size: these lines check that lookup's inputs, occupancy and the cluster taken
 * from the configuration or the kernel, not a model) and cudaOccupancyMaxPotentialClusterSize:
 * all 87 lines, exit 0. */
static void test_cluster_launches_as_the_h200(void)
{
    char *o, *e, *g = golden("h200-cluster.txt");
    CHECK_EQ(checks("--device h200", "cluster", "", &o, &e), 0);
    CHECK_EQ(compare_golden("h200-cluster.txt", g, o, NULL), 87);
    free(g);
    free(o);
    free(e);
}

/* What CUTLASS's Hopper examples ask of the host side beyond the runtime's basics
 * (tests/run/cutlass_host.cu): cudaOccupancyMaxActiveClusters for a 384-thread, 168-register
 * kernel (1 block an SM) with clusters of 2 and 8 (66 and 15: the H200's), an unmeasured
 * configuration stopped by name (exit 3); cudaLaunchKernelExC with PreferredClusterDimension and
 * ProgrammaticStreamSerialization beside the cluster; the driver's cuMemsetD32Async after the
 * runtime used the device, without cuInit (example 54's fill_workspace). */
static void test_cutlass_host_calls(void)
{
    char *o, *e;
    CHECK_EQ(checks("", "cutlass_host", "", &o, &e), 0);
    EXPECT_IN(o, "clusters_c2 0 66\n");
    EXPECT_IN(o, "clusters_c8 0 15\n");
    EXPECT_IN(o, "launch_ex 0 0 ran 8\n");
    EXPECT_IN(o, "memset_d32 0 7 7 7\n");
    EXPECT_IN(o, "cutlass_host PASS");
    free(o);
    free(e);
    CHECK_EQ(checks("", "cutlass_host", "unmeasured", &o, &e), 3);
    EXPECT_IN(e, "smemlab run: cudaOccupancyMaxActiveClusters is not supported (clusters of 4 "
                 "blocks, 3 blocks an SM: the H200 was measured with 1, 2 and 8 blocks an SM");
    free(o);
    free(e);
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/run", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    const char *shared = "-cudart shared -arch=sm_90";
    build("tests/hw/src", "reverse", "reverse", shared);
    build("tests/hw/src", "smem_square", "smem_square", shared);
    build("tests/hw/src", "smem_rect", "smem_rect", shared);
    build("tests/hw/src", "smem_patterns", "smem_patterns", shared);
    build("tests/hw/src", "reduce", "reduce", shared);
    build("tests/hw/src", "devinfo", "devinfo", shared);
    build("tests/run", "checks", "checks", shared);
    build("tests/run", "tiny", "tiny", shared);
    build("tests/run", "smem_only", "smem_only", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "partial_wide", "partial_wide", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "chained_flags", "chained_flags", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "long_launch", "long_launch", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "unwritten_flag", "unwritten_flag", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "unknown_store", "unknown_store", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "occupancy_regs", "occupancy_regs", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "recursion", "recursion", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "bulk", "bulk", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "shared_counter", "shared_counter", "-cudart shared -arch=sm_90 -O3");
    build("tests/hw/fma", "fma", "fma", "-cudart shared -arch=sm_90 -O3");
    build("tests/hw/fma", "fma", "fma_G", "-cudart shared -arch=sm_90 -G");
    build("tests/run", "merge_calls", "merge_calls", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "wmma_noinline", "wmma_noinline", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "fatomic", "fatomic", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "atomic64", "atomic64", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "zfill", "zfill", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "minmax64", "minmax64", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "fixed_places", "fixed_places", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "fixed_places2", "fixed_places2", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "wide_reads", "wide_reads", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "raking", "raking", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "sass_lines", "sass_lines", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "report_table", "report_table", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "wmma_noinline", "wmma_noinline_G", "-cudart shared -arch=sm_90 -G");
    build("tests/run", "tiny", "tiny_static", "-arch=sm_90");
    build("tests/run", "tiny", "tiny_sass", "-cudart shared -gencode arch=compute_90,code=sm_90");
    build("tests/run", "tiny", "tiny_rdc", "-cudart shared -arch=sm_90 -rdc=true");
    build("tests/run", "tensormap", "tensormap", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "drvquery", "drvquery", "-cudart shared -arch=sm_90 -O3 -lcuda");
    build("tests/run", "mempool", "mempool", "-cudart shared -arch=sm_90 -O3 -lcuda");
    build("tests/run", "warpsync", "warpsync", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "uninit_shared", "uninit_shared", "-cudart shared -arch=sm_90 -O3 -lineinfo");
    build("tests/run", "cluster", "cluster", "-cudart shared -arch=sm_90 -O3");
    build("tests/run", "cutlass_host", "cutlass_host", "-cudart shared -arch=sm_90 -O3 -lcuda");
    build("tests/run", "drvapi.c", "drvapi", "-cudart none -lcuda");
    build("tests/run", "drvlink.c", "drvlink", "-cudart none -g -lcuda");
    build("tests/run", "jitlink.c", "jitlink", "-cudart none -lnvJitLink -lcuda");
    wait_builds();
    RUN(test_hw_programs_count_as_the_h100);
    RUN(test_devinfo_prints_the_h100s_properties);
    RUN(test_runtime_api);
    RUN(test_transpose_and_histogram_pass_with_their_counts);
    RUN(test_printf_and_repeated_launches);
    RUN(test_repeats_without_device_memory);
    RUN(test_fewer_wavefronts_than_ideal_is_no_conflict);
    RUN(test_launch_table_reads_cleanly);
    RUN(test_blocks_waiting_on_flags_run_in_order);
    RUN(test_progress_line);
    RUN(test_a_known_operand_decides_a_predicate);
    RUN(test_unknown_values_stored_are_reported);
    RUN(test_occupancy_counts_ptxas_registers);
    RUN(test_templates_big_dynamic_smem_3d_memory_and_streams);
    RUN(test_checks_count_as_the_h100);
    RUN(test_out_of_bounds_global_accesses_are_reported);
    RUN(test_hazards_and_checks_asked_for);
    RUN(test_bad_programs_stop_with_a_located_message);
    RUN(test_shared_float_atomics_are_a_cas_loop);
    RUN(test_more_shared_atomics_are_cas_loops);
    RUN(test_minmax64_rounds_from_the_values);
    RUN(test_zero_fill_copies_as_the_h100);
    RUN(test_fixed_places_follow_the_sass);
    RUN(test_fixed_places_held_out);
    RUN(test_wide_reads_counted_as_the_sass);
    RUN(test_raking_rereads_counted_as_the_sass);
    RUN(test_lines_counted_as_their_sass);
    RUN(test_recursion_runs_and_counts_as_the_h100);
    RUN(test_bulk_copies);
    RUN(test_merged_loads_stop_at_slow_path_calls);
    RUN(test_exchange_sets_a_known_counter);
    RUN(test_fused_multiply_adds_as_the_h100);
    RUN(test_wmma_in_a_called_function);
    RUN(test_json_report_and_compile_mode);
    RUN(test_tensor_maps_as_the_h200);
    RUN(test_driver_api_as_the_h200);
    RUN(test_memory_pools_as_the_h200);
    RUN(test_warp_sync_cases_as_the_h200);
    RUN(test_shared_memory_read_unwritten);
    RUN(test_cluster_launches_as_the_h200);
    RUN(test_cutlass_host_calls);
    RUN(test_driver_api_programs_run_and_are_priced);
    RUN(test_python_reaches_the_driver);
    RUN(test_driver_links_ptx);
    RUN(test_nvjitlink_stand_in_links_ptx);
    RUN(test_python_kernels_under_run);
    return CHECK_DONE();
}
