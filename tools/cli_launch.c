/* cli_launch.c: the launch, compile and bank-model options that analyze and advise share. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cli_launch_option(const char *cmd, int argc, char **argv, int *i, struct smem_analyze_options *o,
                      struct cli_launch *la)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    unsigned long long n;
    if (!strcmp(a, "--")) {
        for ((*i)++; *i < argc; (*i)++)
            la->cargs[la->ncargs++] = argv[*i];
        return 1;
    }
    if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-std=", 5)) {
        if ((!strcmp(a, "-I") || !strcmp(a, "-D"))) {
            if (!v) {
                cli_usage_error(cmd, "%s needs a value", a);
                return -1;
            }
            la->cargs[la->ncargs++] = a;
            la->cargs[la->ncargs++] = v;
            (*i)++;
        } else {
            la->cargs[la->ncargs++] = a;
        }
        return 1;
    }
    static const char *const valued[] = {"--kernel", "--block", "--grid", "--dyn-smem",
                                         "--sample-blocks", "--max-steps", "--param", "--banks",
                                         "--bank-bytes", "--arch", "--jobs", NULL};
    int k;
    for (k = 0; valued[k] && strcmp(a, valued[k]); k++)
        ;
    if (!valued[k])
        return 0;
    if (!v) {
        cli_usage_error(cmd, "%s needs a value", a);
        return -1;
    }
    (*i)++;
    if (!strcmp(a, "--kernel")) {
        o->kernel = v;
    } else if (!strcmp(a, "--block") || !strcmp(a, "--grid")) {
        if (cli_parse_dim3(v, a[2] == 'b' ? o->block : o->grid)) {
            cli_usage_error(cmd, "%s %s: expected X[,Y[,Z]] (positive integers)", a, v);
            return -1;
        }
    } else if (!strcmp(a, "--dyn-smem")) {
        if (cli_parse_uint(v, 0xffffffffull, &n)) {
            cli_usage_error(cmd, "--dyn-smem %s: expected a number of bytes", v);
            return -1;
        }
        o->dyn_smem = (uint32_t)n;
    } else if (!strcmp(a, "--sample-blocks")) {
        if (cli_parse_uint(v, 1u << 30, &n) || !n) {
            cli_usage_error(cmd, "--sample-blocks %s: expected a positive number", v);
            return -1;
        }
        o->sample_blocks = (unsigned)n;
    } else if (!strcmp(a, "--jobs")) {
        if (cli_parse_uint(v, 256, &n) || !n) {
            cli_usage_error(cmd, "--jobs %s: expected a count of threads (1 to 256)", v);
            return -1;
        }
        o->jobs = (unsigned)n;
    } else if (!strcmp(a, "--max-steps")) {
        if (cli_parse_uint(v, ~0ull, &n) || !n) {
            cli_usage_error(cmd, "--max-steps %s: expected a positive number", v);
            return -1;
        }
        o->max_steps = n;
    } else if (!strcmp(a, "--param")) {
        char *eq = strchr(argv[*i], '=');
        if (!eq || eq == argv[*i] || !eq[1]) {
            cli_usage_error(cmd, "--param %s: expected NAME=VALUE", v);
            return -1;
        }
        *eq = 0;
        la->params[la->nparams].name = argv[*i];
        la->params[la->nparams].value = eq + 1;
        la->nparams++;
    } else if (!strcmp(a, "--banks")) {
        if (cli_parse_uint(v, 64, &n) || !n) {
            cli_usage_error(cmd, "--banks %s: expected 1..64", v);
            return -1;
        }
        o->banks.count = (unsigned)n;
    } else if (!strcmp(a, "--bank-bytes")) {
        if (cli_parse_uint(v, 16, &n) || !n) {
            cli_usage_error(cmd, "--bank-bytes %s: expected 1, 2, 4, 8 or 16", v);
            return -1;
        }
        o->banks.bytes = (unsigned)n;
    } else { /* --arch */
        o->arch = v;
    }
    return 1;
}

int cli_launch_apply(const char *cmd, struct smem_analyze_options *o, const struct cli_launch *la)
{
    const char *why = smem_banks_check(&o->banks);
    if (why)
        return cli_usage_error(cmd, "%s", why);
    o->params = la->params;
    o->nparams = la->nparams;
    o->compiler_args = la->cargs;
    o->ncompiler_args = la->ncargs;
    return EXIT_OK;
}
