/* tour_patterns.c: the documents' address-pattern experiments (shared/EXPERIMENTS.md rows 1-5,
 * 10-12, 19, 20) written as pattern-language rows; `smemlab tour` predicts each one. */
#include "smemlab/lab/tour.h"

#include <stdio.h>
#include <string.h>

#define LD(e) {SMEM_LD, e, 0, 0, 0}
#define ST(e) {SMEM_ST, e, 0, 0, 0}
#define LD2(e, r, c) {SMEM_LD, e, r, c, 0}
#define ST2(e, r, c) {SMEM_ST, e, r, c, 0}
#define WARP {32, 1, 1}
#define NOIDX {0, 0, 0}
#define COUNT(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* Seed 002 ("CUDA Succinctly" ch. 6), the access-pattern table, as the document writes it. */
static const struct smem_tour_row access_patterns[] = {
    {"arr[0]", "fast, broadcast", 4, WARP, NOIDX, {LD("arr[0]")}},
    {"arr[blockIdx.x]", "fast, broadcast", 4, WARP, {5, 0, 0}, {LD("arr[blockIdx.x]")}},
    {"arr[threadIdx.x]", "fast, every thread its own bank", 4, WARP, NOIDX, {LD("arr[threadIdx.x]")}},
    {"arr[threadIdx.x/2]", "fast, multicast", 4, WARP, NOIDX, {LD("arr[threadIdx.x/2]")}},
    {"arr[threadIdx.x+71]", "fast, every thread its own bank", 4, WARP, NOIDX, {LD("arr[threadIdx.x+71]")}},
    {"arr[threadIdx.x*2]", "slow, 2-way bank conflict", 4, WARP, NOIDX, {LD("arr[threadIdx.x*2]")}},
    {"arr[threadIdx.x*3]", "fast, every thread its own bank", 4, WARP, NOIDX, {LD("arr[threadIdx.x*3]")}},
    {"arr[threadIdx.x*8]", "very slow, 8-way bank conflict", 4, WARP, NOIDX, {LD("arr[threadIdx.x*8]")}},
    {"arr[threadIdx.x*128]", "extremely slow, 32-way bank conflict", 4, WARP, NOIDX,
     {LD("arr[threadIdx.x*128]")}},
    {"arr[threadIdx.x*129]", "fast, every thread its own bank", 4, WARP, NOIDX, {LD("arr[threadIdx.x*129]")}},
};

/* Seed 001's stride rule: stride s puts gcd(s, 32) lanes on one bank. */
#define S(n) {"stride " #n, "", 4, WARP, NOIDX, {LD("arr[tid*" #n "]")}}
static const struct smem_tour_row strides[] = {
    S(1), S(2), S(3), S(4), S(5), S(6), S(7), S(8), S(9), S(10), S(11), S(12),
    S(13), S(14), S(15), S(16), S(17), S(18), S(19), S(20), S(21), S(22), S(23), S(24),
    S(25), S(26), S(27), S(28), S(29), S(30), S(31), S(32), S(33), S(64), S(128), S(129),
};
#undef S

/* Seed 001: bytes of one word go out together, whoever asks for them. */
static const struct smem_tour_row sub_word[] = {
    {"char arr[tid]", "no conflict", 1, WARP, NOIDX, {LD("arr[tid]")}},
    {"short arr[tid]", "no conflict", 2, WARP, NOIDX, {LD("arr[tid]")}},
    {"char arr[tid*2]", "", 1, WARP, NOIDX, {LD("arr[tid*2]")}},
    {"char arr[tid*4]", "", 1, WARP, NOIDX, {LD("arr[tid*4]")}},
    {"short arr[tid*2]", "", 2, WARP, NOIDX, {LD("arr[tid*2]")}},
    {"char arr[tid*128]", "", 1, WARP, NOIDX, {LD("arr[tid*128]")}},
    {"short arr[tid*64]", "", 2, WARP, NOIDX, {LD("arr[tid*64]")}},
};

/* Seed 001's "cinema seats" pictures. */
static const struct smem_tour_row bank_maps[] = {
    {"stride 1", "no conflict", 4, WARP, NOIDX, {LD("arr[tid]")}},
    {"a permutation", "no conflict: each thread its own bank", 4, WARP, NOIDX, {LD("arr[(tid*13+5)%32]")}},
    {"stride 2", "2-way bank conflict", 4, WARP, NOIDX, {LD("arr[tid*2]")}},
    {"an 8-way pattern", "8-way bank conflict", 4, WARP, NOIDX, {LD("arr[tid*8]")}},
    {"broadcast", "no conflict: one word for all", 4, WARP, NOIDX, {LD("arr[5]")}},
    {"multicast", "no conflict: lanes sharing a word", 4, WARP, NOIDX, {LD("arr[tid/4]")}},
};

/* Seed 002: arr[threadIdx.x].x++ on a 16-byte and a 20-byte struct of floats. */
static const struct smem_tour_row point4d[] = {
    {"Point4D {x,y,z,w}", "4-way bank conflict", 4, WARP, NOIDX, {LD("arr[tid*4]"), ST("arr[tid*4]")}},
    {"Point5 {x,y,z,w,pad}", "no bank conflict", 4, WARP, NOIDX, {LD("arr[tid*5]"), ST("arr[tid*5]")}},
};

/* Seeds 000, 003, 004: checkSmemSquare.cu, block 32x32, int tile[32][32] (IPAD 1). Stores come
 * first (tile[...] = idx), loads second (out[idx] = tile[...]). */
#define SQ {32, 32, 1}
static const struct smem_tour_row square[] = {
    {"setRowReadRow", "ld 1 (row-major)", 4, SQ, NOIDX, {ST2("tile[ty][tx]", 32, 32), LD2("tile[ty][tx]", 32, 32)}},
    {"setColReadCol", "ld 32 (column-major)", 4, SQ, NOIDX,
     {ST2("tile[tx][ty]", 32, 32), LD2("tile[tx][ty]", 32, 32)}},
    {"setRowReadCol", "32-way on load", 4, SQ, NOIDX, {ST2("tile[ty][tx]", 32, 32), LD2("tile[tx][ty]", 32, 32)}},
    {"setRowReadColDyn", "same as static", 4, SQ, NOIDX, {ST("tile[ty*bdx+tx]"), LD("tile[tx*bdy+ty]")}},
    {"setRowReadColPad", "conflict-free", 4, SQ, NOIDX, {ST2("tile[ty][tx]", 32, 33), LD2("tile[tx][ty]", 32, 33)}},
    {"setRowReadColDynPad", "conflict-free", 4, SQ, NOIDX,
     {ST("tile[ty*(bdx+1)+tx]"), LD("tile[tx*(bdx+1)+ty]")}},
};

/* checkSmemRectangle.cu, block 32x16: idx = ty*bdx+tx, irow = idx/bdy, icol = idx%bdy, loads
 * read tile[icol][irow]; IPAD 1 and 2. */
#define RE {32, 16, 1}
#define IDX "(ty*bdx+tx)"
#define RD "tile[" IDX "%bdy][" IDX "/bdy]"
#define RDYN(P) "tile[(" IDX "%bdy)*(bdx+" #P ")+" IDX "/bdy]"
static const struct smem_tour_row rectangle[] = {
    {"setRowReadRow", "", 4, RE, NOIDX, {ST2("tile[ty][tx]", 16, 32), LD2("tile[ty][tx]", 16, 32)}},
    {"setColReadCol", "", 4, RE, NOIDX, {ST2("tile[tx][ty]", 32, 16), LD2("tile[tx][ty]", 32, 16)}},
    {"setRowReadCol", "16-way on load", 4, RE, NOIDX, {ST2("tile[ty][tx]", 16, 32), LD2(RD, 16, 32)}},
    {"setRowReadColDyn", "same as static", 4, RE, NOIDX,
     {ST("tile[ty*bdx+tx]"), LD("tile[(" IDX "%bdy)*bdx+" IDX "/bdy]")}},
    {"setRowReadColPad (IPAD 1)", "2-way", 4, RE, NOIDX, {ST2("tile[ty][tx]", 16, 33), LD2(RD, 16, 33)}},
    {"setRowReadColDynPad (IPAD 1)", "2-way", 4, RE, NOIDX, {ST("tile[ty*(bdx+1)+tx]"), LD(RDYN(1))}},
    {"setRowReadColPad (IPAD 2)", "conflict-free", 4, RE, NOIDX, {ST2("tile[ty][tx]", 16, 34), LD2(RD, 16, 34)}},
    {"setRowReadColDynPad (IPAD 2)", "conflict-free", 4, RE, NOIDX, {ST("tile[ty*(bdx+2)+tx]"), LD(RDYN(2))}},
};

static const struct smem_tour_section sections[] = {
    {"square", "Square tile 32x32, block 32x32: row-major vs column-major, dynamic, padded",
     "EXPERIMENTS.md rows 1-4; seeds 000, 003, 004",
     "reading a column of an unpadded 32-wide int tile puts all 32 lanes on one bank; one int of "
     "padding per row moves each row to the next bank",
     SMEM_TOUR_KERNELS, square, COUNT(square)},
    {"rectangle", "Rectangle tile 32x16, block 32x16: transposed read, IPAD 1 and 2",
     "EXPERIMENTS.md row 5; seeds 000, 003, 004",
     "the transposed read steps 32 (+ IPAD) ints down a column: IPAD 1 still pairs lanes up, IPAD 2 "
     "spreads them over all banks",
     SMEM_TOUR_KERNELS, rectangle, COUNT(rectangle)},
    {"bank-maps", "Bank mapping (\"cinema seats\")", "EXPERIMENTS.md row 10; seed 001",
     "columns are the 32 banks, rows the 128-byte lines of shared memory; a bank with n rows filled "
     "serves n words one after another",
     SMEM_TOUR_MAPS, bank_maps, COUNT(bank_maps)},
    {"sub-word", "Sub-word data: char and short", "EXPERIMENTS.md row 11; seed 001",
     "lanes reading bytes of the same word share it; only different words of one bank conflict",
     SMEM_TOUR_PATTERNS, sub_word, COUNT(sub_word)},
    {"strides", "Stride rule: arr[tid*s], 4-byte", "EXPERIMENTS.md row 12; seed 001",
     "stride s makes gcd(s, 32) lanes share a bank: odd strides are free",
     SMEM_TOUR_STRIDES, strides, COUNT(strides)},
    {"access-patterns", "Access-pattern table, 4-byte words", "EXPERIMENTS.md row 19; seed 002",
     "broadcast and multicast are free; what costs is several words in one bank",
     SMEM_TOUR_PATTERNS, access_patterns, COUNT(access_patterns)},
    {"point4d", "struct Point4D: arr[threadIdx.x].x++ (one load, one store)",
     "EXPERIMENTS.md row 20; seed 002",
     "16-byte structs put every 8th lane on the same bank; a fifth float makes the stride odd",
     SMEM_TOUR_KERNELS, point4d, COUNT(point4d)},
};

const struct smem_tour_section *smem_tour_sections(unsigned *count)
{
    *count = COUNT(sections);
    return sections;
}

const struct smem_tour_section *smem_tour_find(const char *id)
{
    for (unsigned i = 0; i < COUNT(sections); i++)
        if (!strcmp(sections[i].id, id))
            return &sections[i];
    return NULL;
}

struct smem_pattern smem_tour_pattern(const struct smem_tour_row *row, unsigned k)
{
    struct smem_pattern p = smem_pattern_default();
    memcpy(p.block, row->block, sizeof p.block);
    memcpy(p.block_index, row->block_index, sizeof p.block_index);
    p.elem_bytes = row->elem;
    if (k < SMEM_TOUR_MAX_ACCESSES) {
        p.op = row->access[k].op;
        p.shape[0] = row->access[k].rows;
        p.shape[1] = row->access[k].cols;
    }
    return p;
}

int smem_tour_eval(const struct smem_tour_row *row, unsigned k, struct smem_pattern_result *r,
                   struct smem_diag *diag)
{
    if (k >= SMEM_TOUR_MAX_ACCESSES || !row->access[k].expr) {
        if (diag) {
            diag->column = 0;
            snprintf(diag->message, sizeof diag->message, "%s has no access %u", row->name, k);
        }
        return -1;
    }
    struct smem_access *a;
    if (smem_access_parse(row->access[k].expr, &a, diag))
        return -1;
    struct smem_pattern p = smem_tour_pattern(row, k);
    int rc = smem_pattern_eval(a, &p, r, diag);
    smem_access_free(a);
    return rc;
}
