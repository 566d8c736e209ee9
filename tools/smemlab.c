/* smemlab.c: the command-line entry point; dispatches to one subcommand per file (cmd_*.c). */
#include "cli.h"
#include "smemlab/base/version.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *what;
} commands[] = {
    {"tour", cmd_tour, "the documents' experiments: predicted (and measured with a GPU)"},
    {"pattern", cmd_pattern, "cost of one access pattern, e.g. 'arr[tid*129]' --elem 4"},
    {"analyze", cmd_analyze, "bank conflicts of a real kernel (.cu or .ptx), per source line"},
    {"run", cmd_run, "a whole CUDA program on the CPU: every launch priced and checked"},
    {"advise", cmd_advise, "smallest padding or swizzle that removes the conflicts, verified"},
    {"bench", cmd_bench, "GPU: run the experiments at scale, verify, time, count"},
};

static void usage(FILE *f)
{
    fprintf(f, "smemlab %s: a shared-memory layout lab for CUDA\n\n"
               "usage: smemlab COMMAND [options]   (smemlab COMMAND --help for each)\n\n",
            SMEMLAB_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].what);
    fprintf(f, "\nexit status: 0 ok, 1 check failed, 2 usage, 3 bad input, 4 no usable GPU\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("smemlab %s\n", SMEMLAB_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "smemlab: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
