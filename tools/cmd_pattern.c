/* cmd_pattern.c: placeholder until the pattern subcommand lands; says so and fails. */
#include "cli.h"

#include <stdio.h>

int cmd_pattern(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "smemlab pattern: not built yet\n");
    return EXIT_USAGE;
}
