/* bench_sol.c: placeholder until the speed-of-light benchmarks land; says so and fails. */
#include "cli.h"

#include <stdio.h>

int bench_transpose(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "smemlab bench transpose: not built yet\n");
    return EXIT_USAGE;
}

int bench_reduce(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "smemlab bench reduce: not built yet\n");
    return EXIT_USAGE;
}
