/* fuzz_expr.c: libFuzzer target for the index-expression parser and evaluator (src/expr.c) and the
 * pattern engine on top (src/pattern.c): any input must parse or fail with a column inside the
 * text, and whatever parses must evaluate or fail cleanly, with costs that obey the model's bounds. */
#include "smemlab/model/expr.h"
#include "smemlab/model/pattern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant broke: crash so libFuzzer keeps the input. */
#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c))                                                                                  \
            abort();                                                                               \
    } while (0)

static void check_diag(const struct smem_diag *d, size_t len)
{
    REQUIRE(d->message[0] != 0);
    REQUIRE(memchr(d->message, 0, sizeof d->message) != NULL);
    if (d->column) {
        REQUIRE(d->column <= len + 1 || d->column == SMEM_EXPR_MAX_LEN + 1);
        REQUIRE(strncmp(d->message, "column ", 7) == 0);
    }
}

/* Evaluates a bare expression for a few threads, with ordinary and extreme variable values. */
static void eval_expr(const char *text, size_t len, uint32_t seed)
{
    struct smem_expr *e;
    struct smem_diag d;
    if (smem_expr_parse(text, &e, &d)) {
        check_diag(&d, len);
        return;
    }
    static const uint32_t extreme[] = {0, 1, 31, 32, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    struct smem_lanes L;
    L.count = 1 + seed % SMEM_WARP;
    for (unsigned v = 0; v < SMEM_VAR_COUNT; v++)
        for (unsigned l = 0; l < L.count; l++)
            L.var[v][l] = (l + v) % 3 ? l * (v + 1) : extreme[(seed + l + v) % 7];
    uint32_t out[SMEM_WARP];
    if (smem_expr_eval(e, &L, out, &d))
        check_diag(&d, len);
    smem_expr_free(e);
}

/* Runs the text as an access over a small block, the settings picked from a hash of the input. */
static void eval_access(const char *text, size_t len, uint32_t seed)
{
    struct smem_access *a;
    struct smem_diag d;
    if (smem_access_parse(text, &a, &d)) {
        check_diag(&d, len);
        return;
    }
    REQUIRE(smem_access_dims(a) == 1 || smem_access_dims(a) == 2);
    static const unsigned elems[] = {1, 2, 4, 8, 16};
    struct smem_pattern p = smem_pattern_default();
    p.elem_bytes = elems[seed % 5];
    p.block[0] = 1 + (seed >> 3) % 48;
    p.block[1] = 1 + (seed >> 9) % 3;
    p.block_index[0] = (seed >> 11) % 4;
    if (smem_access_dims(a) == 2 || seed & 0x10000u) {
        p.shape[0] = 1 + (seed >> 17) % 64;
        p.shape[1] = 1 + (seed >> 23) % 65;
    }
    static struct smem_pattern_result r;
    if (smem_pattern_eval(a, &p, &r, &d)) {
        check_diag(&d, len);
    } else {
        REQUIRE(r.requests == smem_pattern_warps(&p));
        /* the pipeline's passes are never fewer than the ideal; the wavefronts Nsight counts may
           be, on some 8- and 16-byte loads (model/banks.h, struct smem_cost) */
        for (unsigned w = 0; w < r.requests; w++) {
            const struct smem_cost *c = &r.warp[w].cost;
            REQUIRE((long long)c->wavefronts + c->pipe_delta >= (long long)c->ideal);
        }
        REQUIRE(r.max_ways >= 1 && r.max_ways <= SMEM_WARP);
        static struct smem_bank_map m;
        smem_request_map(&p.banks, &r.warp[r.worst].request, &m);
    }
    smem_access_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2 * SMEM_EXPR_MAX_LEN)
        return 0; /* longer texts are refused up front; nothing more to learn */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    size_t len = strlen(text); /* an embedded NUL ends the text, as it would for the CLI */
    uint32_t seed = 2166136261u;
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * 16777619u;
    eval_access(text, len, seed);
    eval_expr(text, len, seed);
    /* The text inside the first brackets as a bare expression too, so the corpus of accesses
     * also exercises smem_expr_parse's own end-of-text handling. */
    char *open = strchr(text, '['), *close = open ? strrchr(open, ']') : NULL;
    if (open && close) {
        *close = 0;
        eval_expr(open + 1, strlen(open + 1), seed >> 5);
    }
    free(text);
    return 0;
}
