/* model_summary.c — the BBV model next to the measurement, in a run's
 * summary (dh_model_summary, declared in report.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "../support/texttable.h"

#include "../../suites/suite.h"

/* v in fmt, or "-" where unknown */
static const char *cell(char *buf, size_t len, double v, const char *fmt)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fmt, v);
    return buf;
}

static const char *bound_of(const struct dh_run *u)
{
    return u->c.bench && u->c.bench->bound ? u->c.bench->bound : "?";
}

void dh_model_summary(const struct dh_run *runs, int n)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        any |= runs[i].r.status == 0 && runs[i].r.model.valid;
    if (!any)
        return;
    printf("\nBBV model vs measurement (CFE error in points; speedup errors as |modeled - "
           "measured improvement| in points, improvement = 1 - 1/speedup)\n");
    static const char *const heads[] = {"bench", "workload", "variant", ">CFE", ">model",
                                        ">err", ">speedup", ">weightd", ">sched", ">floor",
                                        ">dwr-imp", ">err-w", ">err-s", ">err-f", ">err-d",
                                        "bound"};
    struct dh_texttable t;
    dh_tt_init(&t, 16, heads);
    double s_cfe = 0, s_w = 0, s_s = 0, s_d = 0, s_f = 0;
    int k_cfe = 0, k_sp = 0, k_f = 0;
    const char *table = NULL;
    for (int i = 0; i < n; i++) {
        const struct dh_run *u = &runs[i];
        const struct dh_model_result *m = &u->r.model;
        if (u->r.status != 0 || !m->valid)
            continue;
        table = m->table;
        char label[300], wl[400], c[12][32];
        dh_case_variant_label(&u->c, label, sizeof label);
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        int measured_cfe = !strcmp(u->cfe_source, "counters");
        const char *row[] = {
            u->c.bench_name, wl, label,
            cell(c[0], 32, measured_cfe ? u->cfe : NAN, "%.3f"),
            cell(c[1], 32, m->own.cfe, "%.3f"),
            cell(c[2], 32, isnan(u->model_cfe_error) ? NAN : 100 * u->model_cfe_error, "%.1f"),
            cell(c[3], 32, u->has_speedup ? u->sp_kernel : NAN, "%.2f"),
            cell(c[4], 32, u->has_speedup ? u->model_sp_weighted : NAN, "%.2f"),
            cell(c[5], 32, u->has_speedup ? u->model_sp_sched : NAN, "%.2f"),
            cell(c[10], 32, u->has_speedup ? u->model_sp_floor : NAN, "%.2f"),
            cell(c[6], 32, u->has_speedup ? 100 * u->model_dwr_improvement : NAN, "%.0f"),
            cell(c[7], 32, u->model_err_weighted, "%.1f"),
            cell(c[8], 32, u->model_err_sched, "%.1f"),
            cell(c[11], 32, u->model_err_floor, "%.1f"),
            cell(c[9], 32, u->model_err_dwr, "%.1f"),
            bound_of(u)};
        dh_tt_row(&t, row, NULL);
        if (strcmp(bound_of(u), "compute"))
            continue;
        if (!isnan(u->model_cfe_error)) {
            s_cfe += fabs(u->model_cfe_error) * 100;
            k_cfe++;
        }
        if (!isnan(u->model_err_sched)) {
            s_w += u->model_err_weighted;
            s_s += u->model_err_sched;
            s_d += u->model_err_dwr;
            k_sp++;
        }
        if (!isnan(u->model_err_floor)) {
            s_f += u->model_err_floor;
            k_f++;
        }
    }
    dh_tt_print(&t, stdout);
    dh_tt_free(&t);
    printf("mean over the compute-bound benchmarks (latency table %s): ", table ? table : "?");
    if (k_cfe)
        printf("|CFE error| %.1f points (%d runs); ", s_cfe / k_cfe, k_cfe);
    else
        printf("no measured CFE (no counters here); ");
    if (k_sp)
        printf("speedup error BBV-weighted %.1f, BBV-weighted-scheduled %.1f, divergent-warp "
               "ratio %.1f points (%d runs)\n", s_w / k_sp, s_s / k_sp, s_d / k_sp, k_sp);
    else
        printf("no regrouped run with a baseline to compare\n");
    if (k_f)
        printf("scheduled with each warp's latency floor (floor): speedup error %.1f points "
               "(%d runs)\n", s_f / k_f, k_f);
    if (table && !strcmp(table, "generic"))
        printf("(the generic table prices every operation alike, with no device measured "
               "behind it; on a CPU device lanes do not diverge as a GPU's do, so these "
               "errors say nothing about the model)\n");
    /* ordered BBVs (DH_BBV_WINDOW): which benchmarks were priced per window */
    const char *last = "";
    for (int i = 0; i < n; i++) {
        const struct dh_model_result *m = &runs[i].r.model;
        if (runs[i].r.status != 0 || !m->valid || m->window <= 0 ||
            !strcmp(last, runs[i].c.bench_name))
            continue;
        last = runs[i].c.bench_name;
        printf("%s: ordered BBVs, %d windows of %d iterations (DH_BBV_WINDOW), priced per "
               "window\n", last, m->windows, m->window);
    }
    dh_waste_summary(runs, n);
}

/* shown blocks a baseline: those with 1% of its waste or more, at most */
#define DH_WASTE_SHOWN 8

void dh_waste_summary(const struct dh_run *runs, int n)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        any |= runs[i].r.status == 0 && runs[i].r.model.valid && runs[i].r.model.n_waste > 0 &&
               !strcmp(runs[i].c.variant, "baseline");
    if (!any)
        return;
    printf("\nWhere the divergence is (baselines: the lane-cycles divergence wastes in each "
           "block, the model's block costs; share of the run's waste, and the block's lane "
           "efficiency)\n");
    static const char *const heads[] = {"bench", "workload", "block", ">share", ">eff",
                                        ">lane-cycles", ">of all"};
    struct dh_texttable t;
    dh_tt_init(&t, 7, heads);
    for (int i = 0; i < n; i++) {
        const struct dh_run *u = &runs[i];
        const struct dh_model_result *m = &u->r.model;
        if (u->r.status != 0 || !m->valid || m->n_waste <= 0 ||
            strcmp(u->c.variant, "baseline"))
            continue;
        char wl[400], c[4][32];
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        double rest = 1;
        int shown = 0;
        for (int k = 0; k < m->n_waste && shown < DH_WASTE_SHOWN; k++) {
            const struct dh_model_waste *x = &m->waste[k];
            if (!(x->share >= 0.01))
                break;
            rest -= x->share;
            /* the run's wasted fraction of its issued lane-cycles, once */
            const char *row[] = {
                shown ? "" : u->c.bench_name, shown ? "" : wl, x->block,
                cell(c[0], 32, 100 * x->share, "%.1f%%"), cell(c[1], 32, x->eff, "%.2f"),
                cell(c[2], 32, x->lane_cycles, "%.3g"),
                shown ? "" : cell(c[3], 32, m->issued_total > 0 ? 100 * m->waste_total /
                                  m->issued_total : NAN, "%.0f%% wasted")};
            dh_tt_row(&t, row, NULL);
            shown++;
        }
        if (shown && rest > 0.005) {
            snprintf(c[0], 32, "%.1f%%", 100 * rest);
            const char *row[] = {"", "", "(the other blocks)", c[0], "", "", ""};
            dh_tt_row(&t, row, NULL);
        }
    }
    dh_tt_print(&t, stdout);
    dh_tt_free(&t);
    printf("(the cpu_tdr regroupings' modeled speedups are beside the measured ones above; "
           "an ideal in-group remap's is the run table's remap ceiling; XML: <model><waste>)\n");
}
