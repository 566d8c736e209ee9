/* cmd_analyze.c: placeholder until the analyze subcommand lands; says so and fails. */
#include "cli.h"

#include <stdio.h>

int cmd_analyze(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "smemlab analyze: not built yet\n");
    return EXIT_USAGE;
}
