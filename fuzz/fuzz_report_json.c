/* fuzz_report_json.c: libFuzzer target for the JSON reader (report/json_read.c) and what reads a
 * report through it: the findings, the SARIF, JUnit and Markdown writers, the baseline. Any text
 * must be refused with a located error or read and written without a crash or an out-of-bounds
 * read (the text is not NUL-terminated here). */
#include "smemlab/report/ci_baseline.h"
#include "smemlab/report/ci_junit.h"
#include "smemlab/report/ci_markdown.h"
#include "smemlab/report/ci_sarif.h"
#include "smemlab/report/json_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    struct smem_error err;
    struct smem_json *doc = smem_json_parse(text, size, "fuzz", &err);
    struct smem_findings fs;
    if (doc && smem_findings_collect(doc, &fs, &err) == 0) {
        FILE *null = fopen("/dev/null", "w");
        struct smem_ci_checks c = {1, 1, 1, 1, 1}; /* every check: every finding fails one */
        if (null) {
            smem_sarif_write(null, &fs, &c, "fuzz \xff/");
            smem_junit_write(null, doc, &fs, &c, "fuzz");
            smem_markdown_write(null, doc, &fs, &c, "fuzz");
            (void)smem_baseline_compare(&fs, &fs, null);
            fclose(null);
        }
        smem_findings_free(&fs);
    }
    smem_json_free(doc);
    free(text);
    return 0;
}
