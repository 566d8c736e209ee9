/* bankmap.h: one warp request's bank map as SVG, drawn as the documents draw banks: a column per
 * bank; each distinct word a bank must deliver is one more row, so the tallest column is the n of
 * n-way; each cell names the lane that wants the word ('+': other lanes share it; hover for all).
 * The one drawing of a request, wherever smemlab draws one (pages and standalone SVG files).
 * Draws what the bank model says (smem_request_map); decides nothing. */
#ifndef SMEMLAB_BANKMAP_H
#define SMEMLAB_BANKMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "smemlab/model/banks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The CSS of the maps' classes (a standalone document carries it; a page that inlines maps puts it
 * in its <style> once). */
extern const char smem_bankmap_style[];

/* Writes req's map as one <svg> element, fit to be inlined in an HTML page with
 * smem_bankmap_style. A request served in
 * several pass groups (16-byte accesses: two half-warps) gets one panel per group, one above the
 * other, each titled with its lanes: the rows of a panel are that group's passes.
 * Structure (tests count it): every bank is a <g class='bank'>, every word it must deliver a
 * <text class='word'> in it (the lane that wants it). */
void smem_bankmap_svg(FILE *f, const struct smem_banks *b, const struct smem_request *req);

/* The same as a standalone SVG document: an XML declaration, the caption on top (NULL: none; one
 * line of the picture per '\n'), the map, and a few lines saying how to read it. */
void smem_bankmap_svg_document(FILE *f, const struct smem_banks *b, const struct smem_request *req,
                               const char *caption);

/* Whether x and y draw the same picture: the same lanes in the same cells, y's banks possibly
 * rotated (the words may differ, as for the warps of a tile that read rows or columns apart).
 * Returns by how many banks y's picture is x's shifted right (0: the very same), or -1. */
int smem_bankmap_same_picture(const struct smem_banks *b, const struct smem_request *x,
                              const struct smem_request *y);

/* "0-15,17,20-21" for a lane mask (cut short when buf is). */
void smem_lane_list(char *buf, size_t n, uint32_t lanes);

#ifdef __cplusplus
}
#endif
#endif
