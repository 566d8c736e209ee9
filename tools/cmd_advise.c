/* cmd_advise.c: placeholder until the advise subcommand lands; says so and fails. */
#include "cli.h"

#include <stdio.h>

int cmd_advise(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "smemlab advise: not built yet\n");
    return EXIT_USAGE;
}
