/* cmd_bench.c: placeholder until the bench subcommand lands; says so and fails. */
#include "cli.h"

#include <stdio.h>

int cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "smemlab bench: not built yet\n");
    return EXIT_USAGE;
}
