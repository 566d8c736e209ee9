/* bench_output.c: the bench's results as JSON, CSV or a table with predicted, measured and match
 * columns. Writes to the FILE it is given; decides nothing. */
#include "bench.h"
#include "smemlab/base/text.h"

#include <math.h>
#include <string.h>

/* ---- Output -------------------------------------------------------------------------------------*/

static void json_counts(FILE *f, const struct counts *c, int extra)
{
    if (!c->have) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"ld_requests\":%llu,\"ld_wavefronts\":%llu,\"st_requests\":%llu,\"st_wavefronts\":%llu",
            c->ld_requests, c->ld_wavefronts, c->st_requests, c->st_wavefronts);
    if (extra) {
        fprintf(f, ",\"ld_wavefronts_l1tex\":%llu,\"st_wavefronts_l1tex\":%llu,"
                   "\"ld_bank_conflicts\":%llu,\"st_bank_conflicts\":%llu",
                c->ld_wf_l1tex, c->st_wf_l1tex, c->ld_conflicts, c->st_conflicts);
        if (c->atom_requests >= 0)
            fprintf(f, ",\"atom_requests\":%lld", c->atom_requests);
    }
    fputc('}', f);
}

static int counts_match(const struct counts *p, const struct counts *m)
{
    return p->ld_requests == m->ld_requests && p->ld_wavefronts == m->ld_wavefronts &&
           p->st_requests == m->st_requests && p->st_wavefronts == m->st_wavefronts;
}

static void json_number(FILE *f, double v, int valid)
{
    if (valid && isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

void bench_print_json(FILE *f, const struct smem_gpu_info *gi, const char *driver,
                       const struct result *rs, size_t n, const char *counters_note)
{
    fputs("{\"device\":{\"name\":", f);
    smem_json_string(f, gi->name);
    fputs(",\"driver\":", f);
    smem_json_string(f, driver);
    fprintf(f, ",\"cuda\":\"%d.%d\",\"sm_clock_mhz\":%d,\"sms\":%d,\"cc\":\"%d.%d\","
               "\"smem_per_sm\":%d,\"smem_per_block_optin\":%d,\"bank_bytes\":%d,"
               "\"peak_smem_bandwidth_tbps\":%.4f},\n",
            gi->driver_version / 1000, gi->driver_version % 1000 / 10, gi->sm_clock_khz / 1000,
            gi->sms, gi->cc_major, gi->cc_minor, gi->smem_per_sm, gi->smem_per_block_optin,
            gi->bank_bytes, smem_gpu_peak_smem_bandwidth(gi) / 1e12);
    fputs("\"counters\":", f);
    if (counters_note && *counters_note)
        smem_json_string(f, counters_note);
    else
        fputs("null", f);
    fputs(",\n\"experiments\":[\n", f);
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &rs[i];
        const struct smem_experiment *e = r->e;
        fputs("{\"name\":", f);
        smem_json_string(f, e->name);
        fprintf(f, ",\"row\":%u,\"role\":\"%s\",\"verified\":%s", e->row,
                e->role == SMEM_EXP_DOC ? "documents" : "scale",
                r->run.skip ? "null" : r->run.verified ? "true" : "false");
        if (r->run.skip) {
            fputs(",\"skipped\":", f);
            smem_json_string(f, r->run.skip);
        }
        if (!r->run.skip && !r->run.verified) {
            fputs(",\"error\":", f);
            smem_json_string(f, r->run.error);
        }
        fputs(",\"predicted\":", f);
        json_counts(f, &r->predicted, 0);
        fputs(",\"measured\":", f);
        json_counts(f, &r->measured, 0);
        if (r->measured.have) {
            fputs(",\"measured_extra\":", f);
            json_counts(f, &r->measured, 1);
        }
        fputs(",\"match\":", f);
        if (r->predicted.have && r->measured.have)
            fputs(counts_match(&r->predicted, &r->measured) ? "true" : "false", f);
        else
            fputs("null", f);
        fputs(",\"time_ms\":", f);
        json_number(f, r->run.time_ms, r->run.time_ms >= 0);
        fputs(",\"smem_bandwidth_ratio\":", f);
        json_number(f, r->run.ratio, r->run.bandwidth > 0);
        fputs(",\"smem_bandwidth_tbps\":", f);
        json_number(f, r->run.bandwidth / 1e12, r->run.bandwidth > 0);
        if (r->model_ms > 0) {
            fputs(",\"model_time_ms\":", f);
            json_number(f, r->model_ms, 1);
            fputs(",\"model_time_ratio\":", f);
            json_number(f, r->model_ms / r->run.time_ms, r->run.time_ms > 0);
        }
        if (e->ways)
            fprintf(f, ",\"ways\":%u", e->ways);
        if (e->scale) {
            fputs(",\"scale\":", f);
            smem_json_string(f, e->scale);
        }
        fprintf(f, ",\"launch\":{\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamic_smem\":%u,"
                   "\"static_smem\":%d,\"registers\":%d}",
                e->grid[0], e->grid[1], e->grid[2], e->block[0], e->block[1], e->block[2],
                e->dyn_smem, r->run.static_smem, r->run.regs);
        if (r->run.nracy) {
            fputs(",\"results_seen\":[", f);
            for (unsigned k = 0; k < r->run.nracy; k++)
                fprintf(f, "%s%d", k ? "," : "", r->run.racy[k]);
            fputc(']', f);
        }
        if (r->run.ncarve) {
            fputs(",\"carveout\":[", f);
            for (unsigned k = 0; k < r->run.ncarve; k++) {
                const struct smem_bench_carveout *c = &r->run.carve[k];
                fprintf(f, "%s{\"percent\":%d,\"verified\":%s,\"blocks_per_sm_observed\":%d,"
                           "\"blocks_per_sm_occupancy_api\":%d,\"time_ms\":",
                        k ? "," : "", c->percent, c->verified ? "true" : "false",
                        c->blocks_observed, c->blocks_api);
                json_number(f, c->time_ms, c->time_ms >= 0);
                fputc('}', f);
            }
            fputc(']', f);
        }
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fputs("]}\n", f);
}

static void csv_counts(FILE *f, const struct counts *c)
{
    if (c->have)
        fprintf(f, ",%llu,%llu,%llu,%llu", c->ld_requests, c->ld_wavefronts, c->st_requests,
                c->st_wavefronts);
    else
        fputs(",,,,", f);
}

void bench_print_csv(FILE *f, const struct result *rs, size_t n)
{
    fputs("name,row,role,verified,pred_ld_requests,pred_ld_wavefronts,pred_st_requests,"
          "pred_st_wavefronts,ld_requests,ld_wavefronts,st_requests,st_wavefronts,match,time_ms,"
          "smem_bandwidth_tbps,smem_bandwidth_ratio\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &rs[i];
        fprintf(f, "%s,%u,%s,%s", r->e->name, r->e->row,
                r->e->role == SMEM_EXP_DOC ? "documents" : "scale",
                r->run.skip ? "skipped" : r->run.verified ? "yes" : "NO");
        csv_counts(f, &r->predicted);
        csv_counts(f, &r->measured);
        fprintf(f, ",%s", r->predicted.have && r->measured.have
                              ? (counts_match(&r->predicted, &r->measured) ? "yes" : "NO")
                              : "");
        if (r->run.time_ms >= 0)
            fprintf(f, ",%.6f", r->run.time_ms);
        else
            fputs(",", f);
        if (r->run.bandwidth > 0)
            fprintf(f, ",%.4f,%.4f\n", r->run.bandwidth / 1e12, r->run.ratio);
        else
            fputs(",,\n", f);
    }
}

static void cell_counts(char *buf, size_t n, const struct counts *c, int ld)
{
    if (!c->have)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%llu/%llu", ld ? c->ld_requests : c->st_requests,
                 ld ? c->ld_wavefronts : c->st_wavefronts);
}

void bench_print_table(FILE *f, const struct smem_gpu_info *gi, const char *driver,
                        const struct result *rs, size_t n, const char *counters_note)
{
    fprintf(f, "%s (CC %d.%d, %d SMs, SM clock %d MHz), driver %s, CUDA %d.%d\n", gi->name,
            gi->cc_major, gi->cc_minor, gi->sms, gi->sm_clock_khz / 1000, *driver ? driver : "?",
            gi->driver_version / 1000, gi->driver_version % 1000 / 10);
    fprintf(f, "peak shared-memory bandwidth: %d SMs x 128 B/clock x %d MHz = %.1f TB/s\n", gi->sms,
            gi->sm_clock_khz / 1000, smem_gpu_peak_smem_bandwidth(gi) / 1e12);
    if (counters_note && *counters_note)
        fprintf(f, "counters: %s\n", counters_note);
    fputs("\nLD/ST = requests/wavefronts (predicted by the analyzer, measured by Nsight Compute)\n", f);
    fputs("time: median of the timed launches; model: the predicted wavefronts at one per SM per "
          "clock (at-scale runs)\n", f);
    fprintf(f, "%-44s %3s %-8s %-15s %-15s %-15s %-15s %-5s %11s %8s %6s %11s\n", "experiment",
            "row", "verified", "LD predicted", "LD measured", "ST predicted", "ST measured", "match",
            "time (us)", "TB/s", "peak", "model (us)");
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &rs[i];
        char lp[40], lm[40], sp[40], sm[40], t[32], bw[32], pk[32];
        cell_counts(lp, sizeof lp, &r->predicted, 1);
        cell_counts(lm, sizeof lm, &r->measured, 1);
        cell_counts(sp, sizeof sp, &r->predicted, 0);
        cell_counts(sm, sizeof sm, &r->measured, 0);
        snprintf(t, sizeof t, r->run.time_ms >= 0 ? "%.2f" : "-", r->run.time_ms * 1e3);
        snprintf(bw, sizeof bw, r->run.bandwidth > 0 ? "%.2f" : "", r->run.bandwidth / 1e12);
        snprintf(pk, sizeof pk, r->run.bandwidth > 0 ? "%.3f" : "", r->run.ratio);
        char mo[32];
        snprintf(mo, sizeof mo, r->model_ms > 0 ? "%.2f" : "", r->model_ms * 1e3);
        fprintf(f, "%-44s %3u %-8s %-15s %-15s %-15s %-15s %-5s %11s %8s %6s %11s\n", r->e->name,
                r->e->row, r->run.skip ? "skipped" : r->run.verified ? "yes" : "NO", lp, lm, sp, sm,
                r->predicted.have && r->measured.have
                    ? (counts_match(&r->predicted, &r->measured) ? "yes" : "NO")
                    : "-",
                t, bw, pk, mo);
        for (unsigned k = 0; k < r->run.ncarve; k++) {
            const struct smem_bench_carveout *c = &r->run.carve[k];
            fprintf(f, "    carveout %3d%%: %d blocks/SM observed (occupancy API %d), %.2f us%s\n",
                    c->percent, c->blocks_observed, c->blocks_api, c->time_ms * 1e3,
                    c->verified ? "" : ", NOT verified");
        }
        if (r->run.nracy) {
            fputs("    results seen:", f);
            for (unsigned k = 0; k < r->run.nracy; k++)
                fprintf(f, " %d", r->run.racy[k]);
            fputc('\n', f);
        }
        if (r->run.skip)
            fprintf(f, "    %s\n", r->run.skip);
        else if (!r->run.verified)
            fprintf(f, "    %s\n", r->run.error);
    }
}
