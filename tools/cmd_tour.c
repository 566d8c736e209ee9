/* cmd_tour.c: placeholder until the tour subcommand lands; says so and fails. */
#include "cli.h"

#include <stdio.h>

int cmd_tour(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "smemlab tour: not built yet\n");
    return EXIT_USAGE;
}
