/* cmd_pattern.c: `smemlab pattern EXPR`: the cost of one access pattern executed by one block, per
 * warp request, with the bank map of the worst request. */
#include "cli.h"
#include "pattern_view.h"
#include "smemlab/base/text.h"
#include "smemlab/model/expr.h"
#include "smemlab/model/pattern.h"
#include "smemlab/report/bankmap.h"
#include "smemlab/report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usage_text[] =
    "usage: smemlab pattern EXPR [options]\n"
    "\n"
    "The shared-memory cost of one access executed by every thread of one block: one request per\n"
    "warp, its wavefronts (what nvprof called transactions), the ideal, the worst n-way conflict.\n"
    "\n"
    "  EXPR                 NAME[index] (1-D, in elements) or NAME[row][col] (2-D, row-major).\n"
    "                       Variables: tx ty tz (threadIdx; threadIdx.x also works), bx by bz,\n"
    "                       bdx bdy bdz (blockDim), tid (linear thread id), lane, warp.\n"
    "                       Operators as in C on unsigned 32-bit values: + - * / % ^ & | << >> ~\n"
    "  --elem N             element (= access) size in bytes: 1 2 4 8 16 (default 4)\n"
    "  --shape RxC          the array's rows x columns, padding included (needed for NAME[r][c])\n"
    "  --block X[,Y[,Z]]    block size, also XxY (default 32)\n"
    "  --grid-index X[,Y[,Z]] blockIdx of the block evaluated (default 0,0,0)\n"
    "  --op OP              ld or st (default ld); ldmatrix.x1|x2|x4[.trans], stmatrix.x1|x2|x4[.trans]\n"
    "                       (EXPR: each lane's row address; --elem defaults to 2, b16);\n"
    "                       cp.async.4|8|16 (.ca), cp.async.cg.16 (EXPR: each lane's shared\n"
    "                       destination; --elem defaults to the copy size)\n"
    "  --src EXPR           cp.async: each lane's global source, in copy-size units (default\n"
    "                       g[tid]: consecutive)\n"
    "  --banks N            number of banks (default 32)\n"
    "  --bank-bytes B       bank width in bytes (default 4; Kepler's 8-byte mode: 8)\n"
    "  --swizzle MODE       Hopper: the array (--shape RxC, its box) as a TMA copy writes it with\n"
    "                       swizzle MODE: none, 32B, 64B or 128B (the tensor-map model, measured on\n"
    "                       the H200); EXPR indexes the logical tile and is priced at the byte it\n"
    "                       lands on. all: EXPR priced under each mode. Without EXPR: the tile's\n"
    "                       picture under MODE (or all four): which row.chunk sits at which banks\n"
    "                       (table or json; --svg / --html draw it). Also CuTe's 'Swizzle<B,M,S>'\n"
    "                       (on byte offsets) on the dense tile, e.g. 'Swizzle<3,4,3>'\n"
    "  --tma-base B         the tile's byte within the 1024-byte swizzle pattern (a multiple of\n"
    "                       128; default 0: the tile aligned)\n"
    "  --advise             also the smallest padding, the best XOR swizzle (Swizzle<B,M,S> on\n"
    "                       byte offsets) and the best Hopper swizzle mode (with its tensor-map,\n"
    "                       wgmma-descriptor and CuTe fields) for this access, each priced again\n"
    "  --format F           table, json or csv (default table)\n"
    "  --svg OUT.svg        also write the bank map of the costliest request as an SVG picture\n"
    "  --html OUT.html      also write a page with every request's cost and bank map (past 8\n"
    "                       requests, one map per distinct picture, with its warps)\n"
    "  --help               this text\n"
    "\n"
    "examples:\n"
    "  smemlab pattern 'arr[tid*129]'\n"
    "  smemlab pattern 'tile[tx][ty]' --shape 32x33 --block 32x32\n"
    "  smemlab pattern 'v[tid*2]' --elem 16\n"
    "  smemlab pattern 'arr[tid*32]' --svg map.svg\n"
    "  smemlab pattern 'a[lane%16][lane/16*8]' --shape 64x32 --op ldmatrix.x4\n"
    "  smemlab pattern 'a[lane%16][lane/16*8]' --shape 64x64 --op ldmatrix.x4 --swizzle 128B\n"
    "  smemlab pattern --swizzle all --shape 64x64 --elem 2 --svg tile.svg\n"
    "\n"
    "exit status: 0 ok, 2 bad option (also a tile no TMA box holds under the mode), 3 bad\n"
    "expression (the message names the column) or a file that cannot be written\n";

static int parse_shape(const char *s, unsigned shape[2])
{
    unsigned d[3];
    if (cli_parse_dim3(s, d) || d[2] != 1 || !strpbrk(s, ",x"))
        return -1;
    if (strchr(s, 'x') && strchr(strchr(s, 'x') + 1, 'x'))
        return -1;
    shape[0] = d[0];
    shape[1] = d[1];
    return 0;
}

struct options {
    const char *expr;
    const char *src_text; /* --src */
    struct smem_access *src;
    struct smem_pattern p;
    int format;
    int help;
    int advise;
    int swizzle;            /* --swizzle: -1 not given, 0-3 the mode, 4 all, 5 CuTe's Swizzle<> */
    unsigned cute[3];       /* --swizzle 'Swizzle<B,M,S>': B, M, S on byte offsets */
    const char *svg, *html; /* files to write, or NULL */
};

/* Fills o from argv; returns EXIT_OK or EXIT_USAGE (message printed). */
static int parse_options(int argc, char **argv, struct options *o)
{
    o->expr = NULL;
    o->p = smem_pattern_default();
    o->format = FMT_TABLE;
    o->help = 0;
    o->advise = 0;
    o->swizzle = -1;
    o->svg = o->html = NULL;
    o->src_text = NULL;
    o->src = NULL;
    const char *op = NULL;
    int elem_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        char name[32];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
            return EXIT_OK;
        }
        if (!strcmp(a, "--advise")) {
            o->advise = 1;
            continue;
        }
        if (!strcmp(a, "--") && i + 1 < argc)
            a = argv[++i]; /* an expression that starts with '-' */
        else if (a[0] == '-' && a[1])
            goto option;
        if (o->expr)
            return cli_usage_error("pattern", "one expression only (got '%s' and '%s'); quote it",
                                   o->expr, a);
        o->expr = a;
        continue;
    option:;
        const char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name)
            return cli_unknown_option("pattern", a, NULL);
        memcpy(name, a, nl);
        name[nl] = 0;
        static const char *const known[] = {"--elem", "--shape", "--block", "--grid-index", "--op",
                                            "--src", "--banks", "--bank-bytes", "--format", "--svg",
                                            "--html", "--swizzle", "--tma-base"};
        int found = 0;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            found |= !strcmp(name, known[k]);
        if (!found)
            return cli_unknown_option("pattern", name, NULL);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return cli_usage_error("pattern", "%s needs a value", name);
        unsigned long long v;
        if (!strcmp(name, "--elem")) {
            if (cli_parse_uint(val, 16, &v) || (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
                return cli_usage_error("pattern", "--elem must be 1, 2, 4, 8 or 16 (bytes), not '%s'", val);
            o->p.elem_bytes = (unsigned)v;
            elem_given = 1;
        } else if (!strcmp(name, "--shape")) {
            if (parse_shape(val, o->p.shape))
                return cli_usage_error("pattern", "--shape wants ROWSxCOLS such as 32x33, not '%s'", val);
        } else if (!strcmp(name, "--block")) {
            if (cli_parse_dim3(val, o->p.block))
                return cli_usage_error("pattern", "--block wants X[,Y[,Z]] or XxY, not '%s'", val);
        } else if (!strcmp(name, "--grid-index")) {
            if (cli_parse_index3(val, o->p.block_index))
                return cli_usage_error("pattern", "--grid-index wants X[,Y[,Z]], not '%s'", val);
        } else if (!strcmp(name, "--op")) {
            op = val;
        } else if (!strcmp(name, "--src")) {
            o->src_text = val;
        } else if (!strcmp(name, "--swizzle")) {
            o->swizzle = -1;
            for (unsigned m = 0; m <= 3; m++)
                if (!strcasecmp(val, smem_layout_tma_name(m)))
                    o->swizzle = (int)m;
            if (!strcmp(val, "all"))
                o->swizzle = 4;
            int used = 0;
            if (sscanf(val, "Swizzle<%u,%u,%u>%n", &o->cute[0], &o->cute[1], &o->cute[2], &used) == 3 &&
                !val[used]) {
                if (o->cute[0] > 7 || o->cute[2] < o->cute[0] || o->cute[1] + o->cute[2] + o->cute[0] > 31)
                    return cli_usage_error("pattern", "--swizzle %s: CuTe's Swizzle<B,M,S> takes B <= 7, "
                                           "S >= B and M + S + B within 31 bits", val);
                o->swizzle = 5;
            }
            if (o->swizzle < 0)
                return cli_usage_error("pattern", "--swizzle must be none, 32B, 64B, 128B, all or "
                                       "Swizzle<B,M,S> (CuTe's, on byte offsets), not '%s'", val);
        } else if (!strcmp(name, "--tma-base")) {
            if (cli_parse_uint(val, 1023, &v) || v % 128)
                return cli_usage_error("pattern", "--tma-base must be 0, 128, ..., 896 (the tile's byte "
                                       "within the 1024-byte pattern; TMA writes to 128-byte aligned "
                                       "addresses), not '%s'", val);
            o->p.layout.tma_base = (uint32_t)v;
        } else if (!strcmp(name, "--banks")) {
            if (cli_parse_uint(val, SMEM_MAX_BANKS, &v) || !v)
                return cli_usage_error("pattern", "--banks must be 1 to %d, not '%s'", SMEM_MAX_BANKS, val);
            o->p.banks.count = (unsigned)v;
        } else if (!strcmp(name, "--bank-bytes")) {
            if (cli_parse_uint(val, 16, &v))
                return cli_usage_error("pattern", "--bank-bytes must be 1, 2, 4, 8 or 16, not '%s'", val);
            o->p.banks.bytes = (unsigned)v;
        } else if (!strcmp(name, "--format")) {
            if ((o->format = cli_parse_format(val)) < 0)
                return cli_usage_error("pattern", "--format must be table, json or csv, not '%s'", val);
        } else if (!*val) {
            return cli_usage_error("pattern", "%s needs a file name", name);
        } else if (!strcmp(name, "--svg")) {
            o->svg = val;
        } else if (!strcmp(name, "--html")) {
            o->html = val;
        }
    }
    if (!o->expr && o->swizzle < 0)
        return cli_usage_error("pattern", "no expression (e.g. smemlab pattern 'arr[tid*2]')");
    if (o->swizzle >= 0 && !o->p.shape[0])
        return cli_usage_error("pattern", "--swizzle needs the tile's shape: --shape ROWSxCOLS (the TMA box)");
    if (o->p.layout.tma_base && (o->swizzle < 0 || o->swizzle == 5))
        return cli_usage_error("pattern", "--tma-base goes with --swizzle none|32B|64B|128B|all");
    if (o->swizzle >= 0) {
        o->p.layout.kind = SMEM_LAYOUT_TMA;
        o->p.layout.tma = o->swizzle == 4 ? 0 : (unsigned)o->swizzle;
        if (!o->expr && o->advise)
            return cli_usage_error("pattern", "--advise needs an expression");
        if (!o->expr && o->format == FMT_CSV)
            return cli_usage_error("pattern", "the tile's picture is a table or json, not csv");
    }
    if (op && smem_pattern_set_op(&o->p, op, !elem_given))
        return cli_usage_error("pattern", "--op must be ld, st, ldmatrix.x1|x2|x4[.trans], "
                               "stmatrix.x1|x2|x4[.trans], cp.async.4|8|16 or cp.async.cg.16, not '%s'", op);
    if (o->src_text && o->p.kind != SMEM_PK_CP_ASYNC)
        return cli_usage_error("pattern", "--src is for cp.async only");
    if (o->swizzle == 5) { /* CuTe's functor on byte offsets: the element swizzle M - log2 E */
        unsigned es = 0;
        while ((1u << es) < o->p.elem_bytes)
            es++;
        if (o->cute[1] < es)
            return cli_usage_error("pattern", "--swizzle Swizzle<%u,%u,%u> would split %u-byte elements "
                                   "(M counts bytes: at least %u)", o->cute[0], o->cute[1], o->cute[2],
                                   o->p.elem_bytes, es);
        memset(&o->p.layout, 0, sizeof o->p.layout);
        o->p.layout.kind = SMEM_LAYOUT_SWIZZLE;
        o->p.layout.b = o->cute[0];
        o->p.layout.m = o->cute[1] - es;
        o->p.layout.s = o->cute[2];
    }
    const char *why = smem_pattern_check(&o->p);
    if (why)
        return cli_usage_error("pattern", "%s", why);
    return EXIT_OK;
}

/* Says which requests' cost the measurements do not establish (cp.async.cg outside its class:
 * smem_cp_async_established; since the rounds rule every whole .cg copy is in it, so no request
 * this command builds is outside: src-size 8 and 12 come only from the analysis of real code,
 * src/analysis/launch.c). */
static void print_unestablished(FILE *f, const struct smem_pattern_result *r)
{
    unsigned n = 0, first = 0;
    for (unsigned w = 0; w < r->requests; w++)
        if (!r->warp[w].established && !n++)
            first = w;
    if (n)
        fprintf(f, "note: %u request%s (first: warp %u) %s outside what the H100 measurements establish for "
                   "cp.async (.cg with src-size 8 or 12, not measured): the figures are the rule's count\n",
                n, n == 1 ? "" : "s", r->warp[first].warp, n == 1 ? "is" : "are");
}

/* Where Nsight Compute's two wavefront counters differ (paired 8- and 16-byte loads with a
 * conflict, partial warps: docs/bank-model.md "Two wavefront counters"), the pipeline's passes. */
static void print_pipe(FILE *f, const struct smem_pattern *p, const struct smem_pattern_result *r)
{
    if (p->kind != SMEM_PK_PLAIN)
        return;
    unsigned long long pipe = 0;
    unsigned n = 0;
    for (unsigned w = 0; w < r->requests; w++) {
        unsigned v = smem_request_pipe_wavefronts(&p->banks, &r->warp[w].request);
        pipe += v;
        n += v != r->warp[w].cost.wavefronts;
    }
    if (n)
        fprintf(f, "note: the wavefronts above are Nsight Compute's per-instruction count "
                   "(smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared, its source view); the LSU "
                   "pipeline's passes (l1tex__data_pipe_lsu_wavefronts_mem_shared, the Memory Workload "
                   "table) are %llu in all, %u request%s differing (docs/bank-model.md, \"Two wavefront "
                   "counters\")\n",
                pipe, n, n == 1 ? "" : "s");
}

static void print_table(const struct options *o, const struct smem_pattern_result *r)
{
    const struct smem_pattern *p = &o->p;
    char settings[1024];
    smem_pattern_settings(settings, sizeof settings, o->expr, p, r);
    printf("%s\n\n", settings);
    printf("warp  lanes  wavefronts  ideal  max-way  conflicts\n");
    for (unsigned w = 0; w < r->requests; w++) {
        const struct smem_warp_cost *c = &r->warp[w];
        printf("%4u  %5u  %10u  %5u  %7u  %9u\n", c->warp, c->active_lanes, c->cost.wavefronts,
               c->cost.ideal, c->cost.max_ways, smem_cost_conflicts(c->cost));
    }
    const struct smem_warp_cost *worst = &r->warp[r->worst];
    printf("\nbank map of warp %u (columns: banks; rows: %u-byte lines of shared memory; cell: the lane\n"
           "that wants the word, '+' when other lanes share it; ways: words a bank must deliver)\n",
           worst->warp, p->banks.count * p->banks.bytes);
    view_bank_map(stdout, &p->banks, &worst->request, VIEW_MAP_WIDE, "");
    /* Words several lanes share: the broadcasts and multicasts the map marks with '+'. */
    static struct smem_bank_map m;
    smem_request_map(&p->banks, &worst->request, &m);
    unsigned shared = 0;
    for (unsigned b = 0; b < m.count; b++)
        for (unsigned i = 0; i < m.nwords[b]; i++) {
            uint32_t lanes = m.slot[b][i].lanes;
            if (!(lanes & (lanes - 1)))
                continue;
            if (shared++ < 4) {
                char list[128];
                smem_lane_list(list, sizeof list, lanes);
                printf("%s bank %u, row %u: lanes %s\n", shared == 1 ? "shared words:" : "             ",
                       b, m.slot[b][i].word / m.count, list);
            }
        }
    if (shared > 4)
        printf("              ... %u shared words in all\n", shared);
    printf("\n");
    view_verdict(stdout, r);
    printf("\n");
    print_unestablished(stdout, r);
    print_pipe(stdout, p, r);
}

static void print_advice(const struct options *o, const struct smem_pattern_advice *v, int json);
static void print_modes(const struct options *o, const struct smem_access *a, int json);
static const char *mode_layout(const struct options *o, unsigned m, struct smem_layout *l);

static void print_json(const struct options *o, const struct smem_pattern_result *r,
                       const struct smem_pattern_advice *adv, const struct smem_access *a)
{
    const struct smem_pattern *p = &o->p;
    printf("{\"requests\":%u,\"wavefronts\":%llu,\"ideal_wavefronts\":%llu,\"max_ways\":%u,\"warps\":[",
           r->requests, (unsigned long long)r->wavefronts, (unsigned long long)r->ideal, r->max_ways);
    for (unsigned w = 0; w < r->requests; w++) {
        const struct smem_warp_cost *c = &r->warp[w];
        printf("%s{\"warp\":%u,\"wavefronts\":%u,\"ideal_wavefronts\":%u,\"max_ways\":%u,"
               "\"active_lanes\":%u,\"conflicts\":%u}",
               w ? "," : "", c->warp, c->cost.wavefronts, c->cost.ideal, c->cost.max_ways, c->active_lanes,
               smem_cost_conflicts(c->cost));
    }
    /* each warp's own (Nsight's count of a partial warp's 16-byte loads can be below its ideal:
       the totals' difference would wrap) */
    unsigned long long conflicts = 0;
    for (unsigned w = 0; w < r->requests; w++)
        conflicts += smem_cost_conflicts(r->warp[w].cost);
    printf("],\"conflicts\":%llu,", conflicts);
    if (p->kind == SMEM_PK_PLAIN) { /* the LSU pipeline's passes (docs/bank-model.md "Two wavefront counters") */
        unsigned long long pipe = 0;
        for (unsigned w = 0; w < r->requests; w++)
            pipe += smem_request_pipe_wavefronts(&p->banks, &r->warp[w].request);
        printf("\"pipe_wavefronts\":%llu,", pipe);
    }
    printf("\"expression\":");
    smem_json_string(stdout, o->expr);
    char opname[32];
    unsigned unest = 0;
    for (unsigned w = 0; w < r->requests; w++)
        unest += !r->warp[w].established;
    printf(",\"elem\":%u,\"op\":\"%s\",\"block\":[%u,%u,%u],\"block_index\":[%u,%u,%u],", p->elem_bytes,
           smem_pattern_op_name(p, opname, sizeof opname), p->block[0], p->block[1], p->block[2], p->block_index[0], p->block_index[1],
           p->block_index[2]);
    if (p->shape[0])
        printf("\"shape\":[%u,%u],", p->shape[0], p->shape[1]);
    if (p->kind == SMEM_PK_CP_ASYNC) {
        printf("\"src\":");
        smem_json_string(stdout, o->src_text ? o->src_text : "g[tid]");
        printf(",\"unestablished_requests\":%u,", unest);
    }
    if (p->layout.kind == SMEM_LAYOUT_TMA)
        printf("\"swizzle\":\"%s\",\"tma_base\":%u,",
               o->swizzle == 4 ? "all" : smem_layout_tma_name(p->layout.tma), p->layout.tma_base);
    if (o->swizzle == 5)
        printf("\"swizzle\":\"Swizzle<%u,%u,%u>\",", o->cute[0], o->cute[1], o->cute[2]);
    if (o->swizzle == 4)
        print_modes(o, a, 1);
    if (adv) {
        printf("\"advice\":");
        print_advice(o, adv, 1);
        printf(",");
    }
    printf("\"banks\":%u,\"bank_bytes\":%u}\n", p->banks.count, p->banks.bytes);
}

static void print_csv(const struct smem_pattern_result *r)
{
    printf("warp,active_lanes,wavefronts,ideal_wavefronts,max_ways,conflicts\n");
    for (unsigned w = 0; w < r->requests; w++) {
        const struct smem_warp_cost *c = &r->warp[w];
        printf("%u,%u,%u,%u,%u,%u\n", c->warp, c->active_lanes, c->cost.wavefronts, c->cost.ideal,
               c->cost.max_ways, smem_cost_conflicts(c->cost));
    }
}

/* The advice of --advise as text (table) or a JSON member (json). */
static void print_advice(const struct options *o, const struct smem_pattern_advice *v, int json)
{
    const struct smem_pattern *p = &o->p;
    unsigned long long pad_wf = (unsigned long long)v->pad_wavefronts, sw = (unsigned long long)v->swz_wavefronts;
    uint32_t mask = ((1u << v->b) - 1u) << (v->m + v->s);
    int pad_better = v->has_pad && v->pad_wavefronts < v->wavefronts;
    int swz_better = v->has_swizzle && v->swz_wavefronts < v->wavefronts;
    if (json) {
        printf("{\"wavefronts\":%llu,\"ideal_wavefronts\":%llu", (unsigned long long)v->wavefronts,
               (unsigned long long)v->ideal);
        if (v->has_pad)
            printf(",\"pad\":{\"elements\":%u,\"wavefronts\":%llu}", v->pad, pad_wf);
        if (v->has_swizzle)
            printf(",\"swizzle\":{\"b\":%u,\"m\":%u,\"s\":%u,\"wavefronts\":%llu}", v->b, v->m, v->s, sw);
        if (v->has_tma) {
            struct smem_layout l;
            mode_layout(o, v->tma, &l);
            printf(",\"tma\":{");
            smem_report_tma_fields_json(stdout, &l);
            printf(",\"wavefronts\":%llu}", (unsigned long long)v->tma_wavefronts);
        }
        printf(",\"pads_tried\":%u,\"swizzles_tried\":%u,\"tma_tried\":%u}", v->pads_tried,
               v->swizzles_tried, v->tma_tried);
        return;
    }
    printf("advice (each layout priced again for this access; apply it to every access of the array):\n");
    if (v->wavefronts <= v->ideal) {
        printf("  nothing to remove: %llu wavefronts is the ideal\n", (unsigned long long)v->wavefronts);
        return;
    }
    if (v->has_pad)
        printf("  pad: %u element%s a row (shape %ux%u -> %ux%u, +%u B a row): %llu -> %llu wavefronts (ideal %llu)%s\n",
               v->pad, v->pad == 1 ? "" : "s", p->shape[0], p->shape[1], p->shape[0], p->shape[1] + v->pad,
               v->pad * p->elem_bytes, (unsigned long long)v->wavefronts, pad_wf, (unsigned long long)v->ideal,
               pad_better ? "" : " (no pad helps)");
    else
        printf("  pad: not tried (a 2-D access with --shape is needed)\n");
    if (v->has_swizzle)
        printf("  swizzle: Swizzle<%u,%u,%u> on byte offsets, o ^ ((o & 0x%x) >> %u): %llu -> %llu wavefronts%s\n",
               v->b, v->m, v->s, mask, v->s, (unsigned long long)v->wavefronts, sw,
               swz_better ? "" : " (no swizzle helps)");
    if (v->has_tma) {
        struct smem_layout l;
        char fields[600];
        mode_layout(o, v->tma, &l);
        smem_report_tma_fields(fields, sizeof fields, &l);
        printf("  hopper: swizzle %s, the tile as a TMA copy writes it: %llu -> %llu wavefronts%s\n"
               "    %s\n", smem_layout_tma_name(v->tma), (unsigned long long)v->wavefronts,
               (unsigned long long)v->tma_wavefronts,
               v->tma_wavefronts < v->wavefronts ? "" : " (no mode helps)", fields);
    }
    if (pad_better || swz_better) {
        if (swz_better && (!pad_better || sw < pad_wf || (sw == pad_wf && v->pad)))
            printf("  best: the swizzle (%llu wavefronts, no extra memory)\n", sw);
        else
            printf("  best: pad %u (%llu wavefronts)\n", v->pad, pad_wf);
    }
}

/* ---- Hopper's swizzle modes ---- */

/* The layout of mode m for the tile of o (NULL, with why, when a TMA box cannot hold its rows). */
static const char *mode_layout(const struct options *o, unsigned m, struct smem_layout *l)
{
    memset(l, 0, sizeof *l);
    l->kind = SMEM_LAYOUT_TMA;
    l->row_elems = o->p.shape[1];
    l->elem_bytes = o->p.elem_bytes;
    l->rows = o->p.shape[0];
    l->tma = m;
    l->tma_base = o->p.layout.tma_base;
    struct smem_pattern q = o->p;
    q.layout = *l;
    return smem_pattern_check(&q);
}

/* The tile's picture under the modes asked for (no expression): a table or JSON, and the SVG. */
static int print_tile(const struct options *o)
{
    const struct smem_pattern *p = &o->p;
    struct smem_layout lay[4];
    const char *why[4];
    char name[4][32];
    unsigned mode[4], n = 0;
    if (o->swizzle == 5) { /* CuTe's Swizzle<B,M,S> on the dense tile */
        if (o->cute[1] < 4)
            return cli_usage_error("pattern", "the picture draws 16-byte chunks: Swizzle<B,M,S> with "
                                   "M >= 4 (an expression prices any)");
        lay[0] = p->layout;
        lay[0].row_elems = p->shape[1];
        lay[0].elem_bytes = p->elem_bytes;
        lay[0].rows = p->shape[0];
        why[0] = NULL;
        mode[0] = 0;
        snprintf(name[0], sizeof name[0], "Swizzle<%u,%u,%u>", o->cute[0], o->cute[1], o->cute[2]);
        n = 1;
    } else {
        unsigned lo = o->swizzle == 4 ? 0 : (unsigned)o->swizzle, hi = o->swizzle == 4 ? 3 : lo;
        for (unsigned m = lo; m <= hi; m++, n++) {
            mode[n] = m;
            snprintf(name[n], sizeof name[n], "%s", smem_layout_tma_name(m));
            why[n] = mode_layout(o, m, &lay[n]);
            if (why[n] && lo == hi)
                return cli_usage_error("pattern", "--swizzle %s: %s", name[n], why[n]);
        }
    }
    struct smem_layout drawn[4]; /* the possible ones */
    unsigned nd = 0;
    for (unsigned i = 0; i < n; i++)
        if (!why[i])
            drawn[nd++] = lay[i];
    uint32_t rb = p->shape[1] * p->elem_bytes;
    char caption[300];
    if (o->swizzle == 5)
        snprintf(caption, sizeof caption,
                 "tile %ux%u of %u-byte elements (%u-byte rows) under CuTe's %s on byte offsets",
                 p->shape[0], p->shape[1], p->elem_bytes, rb, name[0]);
    else
        snprintf(caption, sizeof caption,
                 "tile %ux%u of %u-byte elements (%u-byte rows) as a TMA copy writes it, at byte %u "
                 "of the 1024-byte swizzle pattern",
                 p->shape[0], p->shape[1], p->elem_bytes, rb, p->layout.tma_base);
    const char *path[2] = {o->svg, o->html};
    for (int i = 0; i < 2; i++) {
        if (!path[i])
            continue;
        FILE *f = fopen(path[i], "w");
        if (!f) {
            fprintf(stderr, "smemlab pattern: cannot write %s: %s\n", path[i], strerror(errno));
            return EXIT_INPUT;
        }
        if (i == 0)
            smem_report_tile_svg(f, drawn, nd, caption);
        else
            smem_report_tile_html(f, drawn, nd, caption);
        int bad = ferror(f);
        if (fclose(f) || bad) {
            fprintf(stderr, "smemlab pattern: cannot write %s\n", path[i]);
            return EXIT_INPUT;
        }
    }
    if (o->format == FMT_JSON) {
        printf("{\"tile\":{\"rows\":%u,\"cols\":%u,\"elem\":%u,\"row_bytes\":%u,\"tma_base\":%u},"
               "\"modes\":[", p->shape[0], p->shape[1], p->elem_bytes, rb, p->layout.tma_base);
        for (unsigned i = 0; i < n; i++) {
            printf("%s{", i ? "," : "");
            if (why[i]) {
                printf("\"swizzle\":\"%s\",\"why\":", name[i]);
                smem_json_string(stdout, why[i]);
                printf("}");
                continue;
            }
            const struct smem_layout *l = &lay[i];
            if (l->kind == SMEM_LAYOUT_TMA && mode[i])
                smem_report_tma_fields_json(stdout, l);
            else
                printf("\"swizzle\":\"%s\",\"row_pitch\":%u", name[i], rb);
            printf(",\"chunks\":[");
            for (uint32_t r = 0; r < l->rows; r++) {
                printf("%s[", r ? "," : "");
                for (uint32_t c = 0; c < (rb + 15) / 16; c++)
                    printf("%s%u", c ? "," : "", smem_layout_map(l, r * rb + c * 16) / 16);
                printf("]");
            }
            printf("]}");
        }
        printf("]}\n");
        return EXIT_OK;
    }
    printf("%s\ncell: row.chunk of the tile (16-byte chunk c of row r) at each 16 bytes of a "
           "128-byte line of shared memory\n", caption);
    for (unsigned i = 0; i < n; i++) {
        const struct smem_layout *l = &lay[i];
        printf("\n%s%s", l->kind == SMEM_LAYOUT_TMA ? "swizzle " : "", name[i]);
        if (why[i]) {
            printf(": not possible: %s\n", why[i]);
            continue;
        }
        char fields[600];
        if (l->kind == SMEM_LAYOUT_SWIZZLE) {
            smem_layout_formula(l, fields, sizeof fields);
            printf(": rows of %u bytes (%s)\n", rb, fields);
        } else if (mode[i]) {
            smem_report_tma_fields(fields, sizeof fields, l);
            printf(": %s\n", fields);
        } else {
            printf(": rows of %u bytes, dense (CU_TENSOR_MAP_SWIZZLE_NONE)\n", rb);
        }
        uint32_t first, count;
        int cell[SMEM_TILE_LINES][8];
        smem_tile_lines(l, &first, &count, cell);
        printf("  line  banks 0-3   4-7  8-11 12-15 16-19 20-23 24-27 28-31\n");
        for (uint32_t ln = 0; ln < count; ln++) {
            printf("  %4u       ", first + ln);
            for (int s = 0; s < 8; s++) {
                char c[16];
                if (cell[ln][s] < 0)
                    snprintf(c, sizeof c, ".");
                else
                    snprintf(c, sizeof c, "%d.%d", cell[ln][s] / 256, cell[ln][s] % 256);
                printf("%s%5s", s ? " " : "", c);
            }
            printf("\n");
        }
        if (l->kind != SMEM_LAYOUT_TMA) {
            if (l->rows > 8)
                printf("  (rows 0-7 drawn)\n");
            continue;
        }
        struct smem_layout_hopper h;
        smem_layout_tma_fields(l, &h);
        if (l->rows > 8)
            printf("  rows 8-%u: the same every 8 rows%s\n", l->rows - 1,
                   mode[i] && h.boxes > 1 ? "; the other boxes (columns) the same again" : "");
        else if (mode[i] && h.boxes > 1)
            printf("  the other boxes (columns) the same again\n");
    }
    return EXIT_OK;
}

/* --swizzle all with an expression: its cost under each mode. */
static void print_modes(const struct options *o, const struct smem_access *a, int json)
{
    if (json)
        printf("\"swizzle_modes\":[");
    else
        printf("under each swizzle mode (the tile as a TMA copy writes it):\n");
    for (unsigned m = 0; m <= 3; m++) {
        struct smem_pattern q = o->p;
        struct smem_pattern_result *r = malloc(sizeof *r);
        struct smem_diag d;
        const char *why = mode_layout(o, m, &q.layout);
        int ok = r && !why && smem_pattern_eval(a, &q, r, &d) == 0;
        if (!why && !ok)
            why = r ? d.message : "out of memory";
        if (json) {
            printf("%s{\"swizzle\":\"%s\"", m ? "," : "", smem_layout_tma_name(m));
            if (ok)
                printf(",\"wavefronts\":%llu,\"ideal_wavefronts\":%llu,\"max_ways\":%u}",
                       (unsigned long long)r->wavefronts, (unsigned long long)r->ideal, r->max_ways);
            else {
                printf(",\"why\":");
                smem_json_string(stdout, why);
                printf("}");
            }
        } else if (ok) {
            char v[256];
            smem_pattern_verdict(v, sizeof v, r);
            printf("  %-5s %s\n", smem_layout_tma_name(m), v);
        } else {
            printf("  %-5s not possible: %s\n", smem_layout_tma_name(m), why);
        }
        free(r);
    }
    printf(json ? "]," : "\n");
}

/* Writes the picture files asked for; EXIT_OK or EXIT_INPUT (said on stderr). */
static int write_pictures(const struct options *o, const struct smem_pattern_result *r)
{
    const char *path[2] = {o->svg, o->html};
    for (int i = 0; i < 2; i++) {
        if (!path[i])
            continue;
        FILE *f = fopen(path[i], "w");
        if (!f) {
            fprintf(stderr, "smemlab pattern: cannot write %s: %s\n", path[i], strerror(errno));
            return EXIT_INPUT;
        }
        if (i == 0)
            smem_report_pattern_svg(f, o->expr, &o->p, r);
        else
            smem_report_pattern_html(f, o->expr, &o->p, r);
        int bad = ferror(f);
        if (fclose(f) || bad) {
            fprintf(stderr, "smemlab pattern: cannot write %s\n", path[i]);
            return EXIT_INPUT;
        }
    }
    return EXIT_OK;
}

int cmd_pattern(int argc, char **argv)
{
    struct options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_OK)
        return rc;
    if (o.help) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (!o.expr)
        return print_tile(&o);
    struct smem_access *a;
    struct smem_diag d;
    if (smem_access_parse(o.expr, &a, &d)) {
        fprintf(stderr, "smemlab pattern: %s\n", d.message);
        view_caret(stderr, o.expr, &d);
        return EXIT_INPUT;
    }
    if (smem_access_dims(a) == 2 && !o.p.shape[0]) {
        smem_access_free(a);
        return cli_usage_error("pattern", "'%s' is 2-D: give the array's shape with --shape ROWSxCOLS",
                               o.expr);
    }
    if (o.src_text) {
        if (smem_access_parse(o.src_text, &o.src, &d)) {
            fprintf(stderr, "smemlab pattern: --src: %s\n", d.message);
            view_caret(stderr, o.src_text, &d);
            smem_access_free(a);
            return EXIT_INPUT;
        }
        if (smem_access_dims(o.src) != 1) {
            smem_access_free(a);
            smem_access_free(o.src);
            return cli_usage_error("pattern", "--src takes a 1-D access such as 'g[tid*2]'");
        }
        o.p.src = o.src;
    }
    static struct smem_pattern_result r;
    if (smem_pattern_eval(a, &o.p, &r, &d)) {
        fprintf(stderr, "smemlab pattern: %s\n", d.message);
        view_caret(stderr, o.expr, &d);
        smem_access_free(a);
        smem_access_free(o.src);
        return EXIT_INPUT;
    }
    struct smem_pattern_advice adv;
    int have_adv = 0;
    if (o.advise) {
        have_adv = smem_pattern_advise(a, &o.p, 0, &adv, &d) == 0; /* pads: layout.h's range */
    }
    if ((rc = write_pictures(&o, &r)) == EXIT_OK) {
        if (o.format == FMT_JSON) {
            print_json(&o, &r, have_adv ? &adv : NULL, a);
        } else if (o.format == FMT_CSV) {
            print_csv(&r);
        } else {
            print_table(&o, &r);
            if (o.swizzle == 4)
                print_modes(&o, a, 0);
            if (have_adv)
                print_advice(&o, &adv, 0);
        }
    }
    smem_access_free(a);
    smem_access_free(o.src);
    return rc;
}
