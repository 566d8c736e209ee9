/* test_tour.c: the tour's experiment table (src/tour_patterns.c): every row evaluates, ids are
 * unique, and the tile and Point4D rows predict what the H100 measured (tests/hw/h100-counters.csv
 * sections A, B, C; kernels in shared/hw/src/smem_square.cu, smem_rect.cu, smem_patterns.cu). */
#include "check.h"
#include "hwdata.h"
#include "smemlab/lab/tour.h"

#include <stdlib.h>

static struct smem_pattern_result res;

static void test_every_row_evaluates(void)
{
    unsigned n;
    const struct smem_tour_section *s = smem_tour_sections(&n);
    CHECK(n >= 7);
    for (unsigned i = 0; i < n; i++) {
        CHECK(s[i].nrows > 0 && s[i].nrows <= 64); /* cmd_tour.c holds 64 rows a section */
        CHECK(smem_tour_find(s[i].id) == &s[i]);
        for (unsigned j = 0; j < i; j++)
            CHECK(strcmp(s[i].id, s[j].id) != 0);
        for (unsigned r = 0; r < s[i].nrows; r++) {
            const struct smem_tour_row *row = &s[i].rows[r];
            CHECK(row->access[0].expr != NULL);
            for (unsigned k = 0; k < SMEM_TOUR_MAX_ACCESSES && row->access[k].expr; k++) {
                struct smem_diag d;
                int rc = smem_tour_eval(row, k, &res, &d);
                if (rc)
                    fprintf(stderr, "  %s/%s: %s\n", s[i].id, row->name, d.message);
                CHECK_EQ(rc, 0);
                CHECK(res.requests > 0);
            }
        }
    }
    CHECK(smem_tour_find("no-such-section") == NULL);
}

/* H100 kernel name for a tour row: "setRowReadColPad (IPAD 1)" -> "setRowReadColPad1". */
static void hw_name(const char *row, char *out, size_t n)
{
    const char *p = strstr(row, " (IPAD ");
    if (p)
        snprintf(out, n, "%.*s%c", (int)(p - row), row, p[7]);
    else
        snprintf(out, n, "%s", row);
}

static void check_kernels(const char *id, const char *section)
{
    const struct smem_tour_section *s = smem_tour_find(id);
    CHECK(s != NULL);
    if (!s)
        return;
    for (unsigned r = 0; r < s->nrows; r++) {
        char name[64];
        hw_name(s->rows[r].name, name, sizeof name);
        for (unsigned k = 0; k < SMEM_TOUR_MAX_ACCESSES && s->rows[r].access[k].expr; k++) {
            int ld = s->rows[r].access[k].op == SMEM_LD;
            CHECK_EQ(smem_tour_eval(&s->rows[r], k, &res, NULL), 0);
            long long req = hw_value("h100-counters.csv", section, name, ld ? "ld_inst" : "st_inst");
            long long wf = hw_value("h100-counters.csv", section, name, ld ? "ld_wf_sass" : "st_wf_sass");
            if ((long long)res.wavefronts != wf)
                fprintf(stderr, "  %s %s: tour %llu wavefronts, H100 %lld\n", name, ld ? "ld" : "st",
                        (unsigned long long)res.wavefronts, wf);
            CHECK_EQ(res.requests, req);
            CHECK_EQ(res.wavefronts, wf);
        }
    }
}

static void test_square_rows_match_h100_section_a(void) { check_kernels("square", "A"); }
static void test_rectangle_rows_match_h100_section_b(void) { check_kernels("rectangle", "B"); }

static void test_point4d_rows_match_h100_section_c(void)
{
    /* The H100 kernels ran the load twice (arr[tid].x++ then a verification load). */
    const struct smem_tour_section *s = smem_tour_find("point4d");
    static const char *const hw[] = {"point4d_x_inc", "point5_x_inc"};
    CHECK(s != NULL && s->nrows == 2);
    for (unsigned r = 0; s && r < 2; r++) {
        CHECK_EQ(smem_tour_eval(&s->rows[r], 0, &res, NULL), 0);
        long long req = hw_value("h100-counters.csv", "C", hw[r], "ld_inst");
        CHECK_EQ((long long)res.wavefronts * req, hw_value("h100-counters.csv", "C", hw[r], "ld_wf_sass"));
    }
}

int main(void)
{
    RUN(test_every_row_evaluates);
    RUN(test_square_rows_match_h100_section_a);
    RUN(test_rectangle_rows_match_h100_section_b);
    RUN(test_point4d_rows_match_h100_section_c);
    return CHECK_DONE();
}
