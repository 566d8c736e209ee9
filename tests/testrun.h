/* testrun.h: what the tests that run programs under `smemlab run` share: a shell command's exit
 * status, one run with its stdout and stderr captured, and EXPECT_IN. Include after check.h. */
#ifndef SMEMLAB_TEST_TESTRUN_H
#define SMEMLAB_TEST_TESTRUN_H
#include "testfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* `text` holds `what`; else the check fails, showing text */
#define EXPECT_IN(text, what)                                                                    \
    do {                                                                                         \
        CHECK(strstr((text), (what)) != NULL);                                                   \
        if (!strstr((text), (what)))                                                             \
            fprintf(stderr, "  missing '%s' in:\n%s\n", (what), (text));                        \
    } while (0)

/* a shell command's exit status (128 when a signal ended it, -1 when it could not start) */
static inline int test_sh(const char *cmd)
{
    int st = system(cmd);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* `SMEMLAB run OPTS BIN/PROGRAM ARGS`: its status; its stdout and stderr (kept in BIN/PROGRAM.out,
 * .err) in *o and *e, malloc'd, "" when empty */
static inline int test_smemlab_run(const char *smemlab, const char *bin, const char *opts,
                                   const char *program, const char *args, char **o, char **e)
{
    char cmd[8192], out[1100], err[1100];
    snprintf(out, sizeof out, "%s/%s.out", bin, program);
    snprintf(err, sizeof err, "%s/%s.err", bin, program);
    snprintf(cmd, sizeof cmd, "%s run %s %s/%s %s > %s 2> %s", smemlab, opts, bin, program, args,
             out, err);
    int rc = test_sh(cmd);
    *o = test_read_file(out, NULL);
    *e = test_read_file(err, NULL);
    if (!*o)
        *o = strdup("");
    if (!*e)
        *e = strdup("");
    return rc;
}
#endif
