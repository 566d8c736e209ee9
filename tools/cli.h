/* cli.h: the subcommands of the smemlab CLI and the option helpers they share. The CLI parses,
 * calls the library and prints; analysis logic lives in src/. */
#ifndef SMEMLAB_TOOLS_CLI_H
#define SMEMLAB_TOOLS_CLI_H

#include <stddef.h>

#include "smemlab/analysis/analyze.h"

/* Exit status contract (DESIGN.md). */
enum {
    EXIT_OK = 0,
    EXIT_CHECK = 1,   /* the check asked for failed (--fail-on-conflict, a hazard) */
    EXIT_USAGE = 2,   /* bad options */
    EXIT_INPUT = 3,   /* bad input: file, PTX, expression */
    EXIT_NO_GPU = 4   /* no usable GPU for a command that needs one */
};

enum cli_format { FMT_TABLE, FMT_JSON, FMT_CSV };

int cmd_tour(int argc, char **argv);
int cmd_pattern(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_advise(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_run(int argc, char **argv);
/* `smemlab bench transpose|reduce` (speed of light), called by cmd_bench. */
int bench_transpose(int argc, char **argv);
int bench_reduce(int argc, char **argv);

/* Parses "table|json|csv"; returns -1 when unknown. */
int cli_parse_format(const char *s);
/* Parses "X[,Y[,Z]]" or "XxYxZ" into dims (positive; missing ones = 1); 0 on success. */
int cli_parse_dim3(const char *s, unsigned dims[3]);
/* The same for an index (a block's): zeros allowed, missing parts = 0. */
int cli_parse_index3(const char *s, unsigned v[3]);
/* Parses a non-negative integer (decimal or 0x hex) up to max; 0 on success. */
int cli_parse_uint(const char *s, unsigned long long max, unsigned long long *out);
/* Launch, compile (-I -D -std= --) and bank-model options shared by analyze and advise. */
struct smem_analyze_options;
struct smem_param_arg;
struct cli_launch {
    struct smem_param_arg *params; /* room for argc entries */
    unsigned nparams;
    const char **cargs;            /* room for argc entries */
    unsigned ncargs;
};
/* 1: argv[*i] was one of them (consumed with its value), 0: it is not, -1: a bad value (said on
 * stderr: exit EXIT_USAGE). */
int cli_launch_option(const char *cmd, int argc, char **argv, int *i, struct smem_analyze_options *o,
                      struct cli_launch *la);

/* A folder of the CLI's own files: in_build beside the executable (the build tree), else
 * bin/../lib/smemlab/in_install (an install: cmake/package/install.cmake); 0 when it exists. */
int cli_private_dir(const char *in_build, const char *in_install, char *out, size_t n);
/* The built kernels (fatbin + PTX): $SMEMLAB_KERNELS, else kernels/ next to the executable (or
 * lib/smemlab/kernels/ of an install). */
int cli_kernels_dir(char *out, size_t n);
/* This executable's path, and its folder; 0, or -1 when /proc/self/exe cannot be read. */
int cli_exe_path(char *out, size_t n);
int cli_exe_dir(char *out, size_t n);
/* After the options of analyze and advise: the bank model checked (EXIT_USAGE, said on stderr,
 * when it is not one) and la's parameters and compiler arguments put in o. EXIT_OK otherwise. */
int cli_launch_apply(const char *cmd, struct smem_analyze_options *o, const struct cli_launch *la);
/* Says a library call's error ("smemlab CMD: file:line:col: ...") on stderr; returns the exit
 * status for r, the call's result: EXIT_USAGE for -2 (a bad request), else EXIT_INPUT. */
struct smem_error;
int cli_library_error(const char *cmd, int r, const struct smem_error *err);
/* The CI outputs of analyze and run (cli_ci.c): --sarif, --junit, --markdown FILE, --baseline
 * REPORT (exit 1 only on what got worse than it), --source-root DIR (paths in SARIF). */
struct cli_ci {
    const char *sarif, *junit, *markdown, *baseline, *source_root;
    const char *findings_csv; /* --findings-csv FILE: every finding, a row each */
};
struct smem_ci_checks;
/* 1: argv[*i] was one of them (consumed with its value), 0: it is not, -1: no value (said). */
int cli_ci_option(const char *cmd, int argc, char **argv, int *i, struct cli_ci *ci);
/* Whether any output or a baseline was asked for (the command then keeps its JSON report). */
int cli_ci_wanted(const struct cli_ci *ci);
/* Writes the outputs of the command's JSON report (json, len bytes) and compares it with the
 * baseline: EXIT_CHECK when something got worse (named on stderr), EXIT_INPUT when a file
 * cannot be read or written, else EXIT_OK. title: the suite's name and the summary's heading. */
int cli_ci_outputs(const char *cmd, const struct cli_ci *ci, const char *json, size_t len,
                   const struct smem_ci_checks *checks, const char *title);
/* run: the same from the JSON report the library wrote at json_path, the program's status put
 * in; argv: the program and its arguments (the title). */
int cli_ci_run_outputs(const struct cli_ci *ci, const char *json_path, const char *exit_status,
                       const struct smem_ci_checks *checks, char **argv);
/* Prints "smemlab CMD: msg" to stderr and returns EXIT_USAGE. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int cli_usage_error(const char *cmd, const char *fmt, ...);
/* "smemlab CMD: unknown option 'A'", with " (it needs a value)" when A is one of valued[] (a
 * NULL-ended list, or NULL), through cli_usage_error: EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *a, const char *const *valued);

#endif
