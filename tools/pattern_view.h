/* pattern_view.h: printing pattern results for the CLI: the "cinema seats" bank map, lane lists,
 * CSV fields and the one-line verdict. */
#ifndef SMEMLAB_TOOLS_PATTERN_VIEW_H
#define SMEMLAB_TOOLS_PATTERN_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "smemlab/model/banks.h"
#include "smemlab/model/expr.h"
#include "smemlab/model/pattern.h"

/* Bank map styles: WIDE cells show lane numbers in decimal (3 columns a bank); NARROW cells show
 * the lane as one base-32 digit (0-9, a-v) and a '+' when other lanes share the word. */
enum view_map_style { VIEW_MAP_WIDE, VIEW_MAP_NARROW };

/* Prints the picture of req: one column per bank, one row per 128-byte line of shared memory (the
 * cinema's row of seats), each touched word showing the lane that wants it. A bank with n rows
 * filled serves n words: an n-way conflict. 16-byte requests print one picture per pass group. */
void view_bank_map(FILE *f, const struct smem_banks *b, const struct smem_request *req,
                   enum view_map_style style, const char *indent);

/* Writes s as a CSV field (quoted when it holds a comma or quote). */
void view_csv_field(FILE *f, const char *s);

/* "1 request, 32 wavefronts (ideal 1): 32-way bank conflict" (no newline). */
void view_verdict(FILE *f, const struct smem_pattern_result *r);

/* Prints the expression and a caret under the column the diagnosis points at (nothing when 0). */
void view_caret(FILE *f, const char *text, const struct smem_diag *d);

#endif
