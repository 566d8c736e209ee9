/* cmd_advise.c: `smemlab advise FILE.cu --kernel NAME`: the smallest padding, XOR swizzle or Hopper
 * swizzle mode that removes a kernel's bank conflicts, proven on its emulated run; --apply writes
 * and re-checks the pad. */
#include "cli.h"
#include "smemlab/report/report.h"
#include "smemlab/base/text.h"
#include "smemlab/analysis/advise.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf(
        "usage: smemlab advise FILE.cu|FILE.ptx --kernel NAME [options] [-- NVCC_ARGS...]\n\n"
        "For each shared array with bank conflicts, tries padding every row by 0..32 elements,\n"
        "the XOR swizzles Swizzle<B,M,S> (CuTe's, on element offsets) and Hopper's swizzle modes\n"
        "32B/64B/128B (the tile as a TMA copy writes it), re-prices every request of the emulated\n"
        "run under each, and prints the smallest pad with the fewest wavefronts, the best swizzle\n"
        "and the best mode (with its CU_TENSOR_MAP_SWIZZLE_*, wgmma descriptor and CuTe fields),\n"
        "with each site's wavefronts before and after. A tile written by a TMA copy whose tensor\n"
        "map the host builds cannot be re-analysed (the run stops at the copy): it says so.\n\n"
        "launch (as analyze):\n"
        "  --kernel NAME        the kernel (may be left out when the file has one)\n"
        "  --block X[,Y[,Z]]  --grid X[,Y[,Z]]  --dyn-smem BYTES  --param NAME=VALUE\n"
        "  --sample-blocks N  --max-steps N  --arch sm_XX  -I DIR  -D NAME[=V]  -std=...\n"
        "                       (a --param that matches no parameter, or whose value does not\n"
        "                       fit its type, is a usage error, as for analyze)\n"
        "layout:\n"
        "  --array NAME         only this array (source name or PTX name)\n"
        "  --row ELEMS          row length in elements (needed for extern arrays; default: the\n"
        "                       declaration's last dimension, else the access strides)\n"
        "  --elem BYTES         element size (default: the declaration, else the narrowest access)\n"
        "  --max-pad N          pads tried: 0..N (default: the banks, or one bank line\n"
        "                       in elements when more)\n"
        "  --no-compile-check   price pads whose rows change alignment on the recorded run\n"
        "                       instead of compiling the source that way (faster, less exact)\n"
        "output:\n"
        "  --format table|json  (default table)\n"
        "  --apply OUT.cu       write the source with each static array padded by its best pad,\n"
        "                       compile and analyse it with the same launch, print before/after\n"
        "  --banks N --bank-bytes B   bank geometry (default 32 x 4)\n\n"
        "exit: 0 ok (also when there is nothing to change), 2 usage, 3 bad input\n");
}

/* Sums a kernel's shared loads and stores. */
static void kernel_totals(const struct smem_kernel_report *k, uint64_t *wf, uint64_t *ideal)
{
    *wf = k->ld.wavefronts + k->st.wavefronts + k->atom.wavefronts;
    *ideal = k->ld.ideal + k->st.ideal + k->atom.ideal;
}

/* --apply: write the padded source, analyse it with the same launch, print before/after. */
static int apply(const char *path, const char *outp, const struct smem_analyze_options *o,
                 const struct smem_kernel_report *k, const struct smem_advice *adv, FILE *msg)
{
    size_t len;
    char *text = smem_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "smemlab advise: %s: cannot read: %s\n", path, strerror(errno));
        return EXIT_INPUT;
    }
    unsigned n = 0;
    size_t plen = 0;
    char *patched = smem_advice_patch(adv, text, len, &plen, &n);
    free(text);
    if (!patched) {
        fprintf(stderr, "smemlab advise: out of memory\n");
        return EXIT_INPUT;
    }
    if (!n) {
        free(patched);
        fprintf(msg, "\n--apply: no declaration to pad (no conflicting static array with a "
                     "declared row whose best pad is above 0); %s not written\n", outp);
        return EXIT_OK;
    }
    FILE *f = fopen(outp, "wb");
    if (!f || fwrite(patched, 1, plen, f) != plen || fclose(f)) {
        fprintf(stderr, "smemlab advise: %s: cannot write: %s\n", outp, strerror(errno));
        free(patched);
        return EXIT_INPUT;
    }
    free(patched);
    /* compile it as the original was compiled, with the original's folder for its includes */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    const char **args = calloc(o->ncompiler_args + 3, sizeof *args);
    if (!args)
        return EXIT_INPUT;
    args[0] = "-I";
    args[1] = dir;
    for (unsigned i = 0; i < o->ncompiler_args; i++)
        args[2 + i] = o->compiler_args[i];
    struct smem_analyze_options ao = *o;
    ao.compiler_args = args;
    ao.ncompiler_args = o->ncompiler_args + 2;
    ao.kernel = k->symbol;
    ao.record = 1;
    ao.hazards = 0;
    struct smem_analysis *an = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    int r = smem_analyze_file(outp, &ao, &an, &err);
    free(args);
    if (r) {
        char buf[1200];
        fprintf(stderr, "smemlab advise: --apply: %s does not analyse: %s\n", outp,
                smem_error_format(&err, buf, sizeof buf));
        return EXIT_INPUT;
    }
    const struct smem_kernel_report *k2 = &an->kernels[0];
    uint64_t w0, i0, w1, i1;
    kernel_totals(k, &w0, &i0);
    kernel_totals(k2, &w1, &i1);
    fprintf(msg, "\n--apply: wrote %s (%u declaration%s padded), compiled and analysed it:\n", outp,
            n, n == 1 ? "" : "s");
    fprintf(msg, "  %s before: %llu wavefronts (ideal %llu)%s\n", k->name, (unsigned long long)w0,
            (unsigned long long)i0, w0 > i0 ? ", bank conflicts" : "");
    fprintf(msg, "  %s after:  %llu wavefronts (ideal %llu)%s\n", k2->name, (unsigned long long)w1,
            (unsigned long long)i1, w1 > i1 ? ", bank conflicts remain" : ", no bank conflict");
    int mismatch = 0;
    for (uint32_t i = 0; i < adv->narrays; i++) {
        const struct smem_advise_array *ar = &adv->arrays[i];
        if (!ar->patchable || ar->best_pad <= 0)
            continue;
        struct smem_totals t;
        if (smem_advise_var_totals(k2, ar->ptx_name, &o->banks, &t))
            continue;
        const struct smem_advise_candidate *c = &ar->pads[ar->best_pad];
        fprintf(msg, "  %s: predicted %llu wavefronts, compiled %llu%s\n", ar->name,
                (unsigned long long)c->wavefronts, (unsigned long long)t.wavefronts,
                c->wavefronts == t.wavefronts ? "" : "  (MISMATCH)");
        mismatch |= c->wavefronts != t.wavefronts;
    }
    for (uint32_t s = 0; s < k2->nsites; s++) {
        const struct smem_site_report *site = &k2->sites[s];
        if (site->t.wavefronts > site->t.ideal)
            fprintf(msg, "  line %u %s: %llu wavefronts (ideal %llu), %u-way\n", site->line,
                    smem_access_op_name(site->op), (unsigned long long)site->t.wavefronts,
                    (unsigned long long)site->t.ideal, site->t.max_ways);
    }
    smem_analysis_free(an);
    if (mismatch)
        fprintf(stderr, "smemlab advise: the compiled result differs from the prediction\n");
    return EXIT_OK;
}

int cmd_advise(int argc, char **argv)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    struct smem_advise_options ad;
    smem_advise_defaults(&ad);
    const char *path = NULL, *apply_out = NULL;
    int fmt = FMT_TABLE;
    struct smem_param_arg *params = calloc((size_t)argc, sizeof *params);
    const char **cargs = calloc((size_t)argc + 1, sizeof *cargs);
    struct cli_launch la = {params, 0, cargs, 0};
    int rc = EXIT_USAGE, lr;
    struct smem_analysis *an = NULL;
    struct smem_advice *adv = NULL;
    if (!params || !cargs)
        goto out;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help();
            rc = EXIT_OK;
            goto out;
        } else if ((lr = cli_launch_option("advise", argc, argv, &i, &o, &la)) != 0) {
            if (lr < 0) {
                rc = EXIT_USAGE;
                goto out;
            }
        } else if (!strcmp(a, "--row") && v) {
            if (cli_parse_uint(v, 1u << 20, &n) || !n) {
                rc = cli_usage_error("advise", "--row %s: expected a row length in elements", v);
                goto out;
            }
            ad.row_elems = (uint32_t)n;
            i++;
        } else if (!strcmp(a, "--elem") && v) {
            if (cli_parse_uint(v, 256, &n) || !n) {
                rc = cli_usage_error("advise", "--elem %s: expected an element size in bytes", v);
                goto out;
            }
            ad.elem_bytes = (uint32_t)n;
            i++;
        } else if (!strcmp(a, "--max-pad") && v) {
            if (cli_parse_uint(v, 256, &n) || !n) {
                rc = cli_usage_error("advise", "--max-pad %s: expected 1..256", v);
                goto out;
            }
            ad.max_pad = (unsigned)n;
            i++;
        } else if (!strcmp(a, "--array") && v) {
            ad.array = v;
            i++;
        } else if (!strcmp(a, "--apply") && v) {
            apply_out = v;
            i++;
        } else if (!strcmp(a, "--no-compile-check")) {
            ad.compile_check = 0;
        } else if (!strcmp(a, "--format") && v) {
            fmt = cli_parse_format(v);
            if (fmt != FMT_TABLE && fmt != FMT_JSON) {
                rc = cli_usage_error("advise", "--format %s: expected table or json", v);
                goto out;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            static const char *const valued[] = {"--kernel", "--block", "--grid", "--dyn-smem",
                                                 "--param", "--row", "--elem", "--array",
                                                 "--apply", "--format", "--max-pad", "--arch",
                                                 "--banks", "--bank-bytes", "--sample-blocks",
                                                 "--max-steps", "-I", "-D", NULL};
            rc = cli_unknown_option("advise", a, valued);
            goto out;
        } else if (!path) {
            path = a;
        } else {
            rc = cli_usage_error("advise", "one file at a time ('%s' and '%s')", path, a);
            goto out;
        }
    }
    if (!path) {
        rc = cli_usage_error("advise", "which file? (smemlab advise FILE.cu --kernel NAME)");
        goto out;
    }
    size_t pl = strlen(path);
    int is_ptx = pl > 4 && !strcmp(path + pl - 4, ".ptx");
    if (apply_out && is_ptx) {
        rc = cli_usage_error("advise", "--apply needs the .cu source, not PTX");
        goto out;
    }
    if ((rc = cli_launch_apply("advise", &o, &la)))
        goto out;
    o.hazards = 0;
    o.record = 1;
    /* the requests as ptxas's SASS makes them (sass/sass_lines.c: merged, removed), so the
       search chases no conflict the machine code does not have */
    o.sass_census = 1;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    int r = smem_analyze_file(path, &o, &an, &err);
    if (r) {
        rc = cli_library_error("advise", r, &err);
        goto out;
    }
    if (an->nkernels != 1) {
        char list[600] = "";
        for (uint32_t i = 0; i < an->nkernels; i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", an->kernels[i].name);
        }
        rc = cli_usage_error("advise", "%s has %u kernels: pick one with --kernel (%s)", path,
                             an->nkernels, list);
        goto out;
    }
    const struct smem_kernel_report *k = &an->kernels[0];
    ad.source = is_ptx ? NULL : path;
    ad.analyze = &o;
    ad.banks = o.banks;
    r = smem_advise_kernel(an, k, &ad, &adv, &err);
    if (r) {
        rc = cli_library_error("advise", r, &err);
        goto out;
    }
    if (!k->complete)
        fprintf(stderr, "smemlab advise: %s: incomplete: %s\n", k->name, k->incomplete_why);
    if (fmt == FMT_JSON)
        smem_advice_json(stdout, adv);
    else
        smem_advice_table(stdout, adv);
    rc = EXIT_OK;
    if (apply_out) {
        if (!adv->narrays)
            fprintf(fmt == FMT_JSON ? stderr : stdout,
                    "--apply: nothing to change; %s not written\n", apply_out);
        else
            rc = apply(path, apply_out, &o, k, adv, fmt == FMT_JSON ? stderr : stdout);
    }
out:
    smem_advice_free(adv);
    smem_analysis_free(an);
    free(params);
    free(cargs);
    return rc;
}
