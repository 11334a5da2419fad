/* report_study_charts.c — the charts of a vendor-comparison study
 * (report.h; the matrix is harness/stats/study.h's):
 *
 *   study-heatmap-TECH  speedup of one technique, workloads x targets, on
 *                       a log2 colour scale centred on 1; a cell without a
 *                       figure is grey and names its state
 *   study-bars-SUITE    per suite, one panel per technique: a group of
 *                       bars per workload, one bar per target with its 95%
 *                       interval; a missing bar names its state at the foot
 *
 * Every text from the results (device names, labels) reaches gnuplot
 * through dh_gp_quote, single-quoted: it draws as text, never runs.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/study.h"

static void row_tic(const struct dh_study *s, int row, int with_suite, char *out, size_t len)
{
    const struct dh_study_row *r = &s->rows[row];
    snprintf(out, len, "%s%s%s%s%s", with_suite ? r->suite : "", with_suite ? "/" : "", r->bench,
             r->label[0] ? " " : "", r->label);
}

/* a target's label: two lines under a column, one line when the labels
 * are turned (many columns) */
static void col_tic(const struct dh_study *s, int col, int turned, char *out, size_t len)
{
    snprintf(out, len, "%s:%s%s", s->cols[col].backend, turned ? " " : "\n",
             s->cols[col].device);
}

static int heatmap(struct dh_report *r, const struct dh_study *s, int t, struct dh_err *err)
{
    char stem[80], name[100];
    snprintf(stem, sizeof stem, "study-heatmap-%s", s->tech[t]);
    dh_report_safe_name(stem, name, sizeof name);
    FILE *dat = dh__open_out(r, name, "dat", err);
    FILE *gp = dat ? dh__open_out(r, name, "gp", err) : NULL;
    if (!gp) {
        if (dat)
            fclose(dat);
        return -DH_E_IO;
    }
    double m = 1;
    int n_ok = 0, n_absent = 0;
    fprintf(dat, "# %s: x (target), y (workload), log2 speedup, label; the cells with a "
                 "figure\n", s->tech[t]);
    for (int row = 0; row < s->n_rows; row++)
        for (int col = 0; col < s->n_cols; col++) {
            const struct dh_study_cell *c = dh_study_cell(s, row, col, t);
            if (c->state != DH_STUDY_OK || !(c->sp > 0))
                continue;
            size_t at = (size_t)row * (size_t)s->n_cols + (size_t)col;
            double l = log2(c->sp);
            m = fmax(m, fabs(l));
            fprintf(dat, "%d\t%d\t%.6g\t%.2f%s\n", col, row, l, c->sp,
                    s->best[at] == t ? (s->best_clear[at] ? " best" : " best?") : "");
            n_ok++;
        }
    if (!n_ok)
        fprintf(dat, "-1\t-1\tNaN\t-\n");
    fprintf(dat, "\n\n# cells without a figure: x, y, state\n");
    for (int row = 0; row < s->n_rows; row++)
        for (int col = 0; col < s->n_cols; col++) {
            const struct dh_study_cell *c = dh_study_cell(s, row, col, t);
            if (c->state == DH_STUDY_OK && c->sp > 0)
                continue;
            fprintf(dat, "%d\t%d\t%s\n", col, row, dh_study_state_name(c->state));
            n_absent++;
        }
    if (!n_absent)
        fprintf(dat, "-1\t-1\t-\n");
    fclose(dat);
    m = ceil(m);
    int maxlen = 10;
    for (int row = 0; row < s->n_rows; row++) {
        char l[400];
        row_tic(s, row, 1, l, sizeof l);
        maxlen = (int)strlen(l) > maxlen ? (int)strlen(l) : maxlen;
    }
    int wpx = 260 + maxlen * 7 + s->n_cols * 150, hpx = 200 + s->n_rows * 26
              + (s->n_cols > 6 ? 240 : 0);
    wpx = wpx < 900 ? 900 : wpx > 2400 ? 2400 : wpx;
    hpx = hpx < 460 ? 460 : hpx > 2400 ? 2400 : hpx;
    dh__gp_begin(gp, r, name, wpx, hpx);
    char title[300];
    snprintf(title, sizeof title, "%s: speedup over the tuned baseline (best configuration; "
             "%s time)", s->tech[t], strcmp(s->tech[t], "cpu_tdr") ? "kernel" : "end-to-end");
    fprintf(gp, "  set title ");
    dh_gp_quote(gp, title);
    int turned = s->n_cols > 6, longest = 0;
    fprintf(gp, "\n  set xtics (");
    for (int col = 0; col < s->n_cols; col++) {
        char l[300];
        col_tic(s, col, turned, l, sizeof l);
        longest = (int)strlen(l) > longest ? (int)strlen(l) : longest;
        fprintf(gp, "%s", col ? ", " : "");
        dh_gp_quote(gp, l);
        fprintf(gp, " %d", col);
    }
    fprintf(gp, ")%s\n  set ytics (", turned ? " rotate by 30 right" : "");
    for (int row = 0; row < s->n_rows; row++) {
        char l[400];
        row_tic(s, row, 1, l, sizeof l);
        fprintf(gp, "%s", row ? ", " : "");
        dh_gp_quote(gp, l);
        fprintf(gp, " %d", row);
    }
    fprintf(gp, ")\n  set xrange [-0.5:%d.5]\n  set yrange [%d.5:-0.5]\n", s->n_cols - 1,
            s->n_rows - 1);
    longest = longest > 60 ? 60 : longest;
    fprintf(gp, "  set bmargin %d\n  set grid noxtics noytics\n  set border 15\n"
                "  set tics nomirror\n  set cbrange [%g:%g]\n  set cbtics (",
            turned ? 2 + longest / 2 : 4, -m, m);
    for (int k = (int)-m; k <= (int)m; k++)
        fprintf(gp, "%s\"%g×\" %d", k > (int)-m ? ", " : "", pow(2, k), k);
    fprintf(gp, ")\n  set cblabel \"speedup (log scale); grey: no figure, the state named\"\n"
                "  set palette defined (0 \"#d73027\", 0.5 \"#f7f7f7\", 1 \"#1a9850\")\n"
                "  set style fill solid 1.0 border lc rgb \"#ffffff\"\n"
                "  plot \"%s.dat\" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fc palette "
                "notitle, \\\n"
                "       \"\" index 0 using 1:2:4 with labels font \",9\" notitle, \\\n"
                "       \"\" index 1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb \"#c8c8c8\" "
                "notitle, \\\n"
                "       \"\" index 1 using 1:2:3 with labels font \",8\" tc rgb \"#444444\" "
                "notitle\n", name);
    dh__gp_end(gp);
    fclose(gp);
    char ctitle[256];
    snprintf(ctitle, sizeof ctitle, "Heat map: %s's speedup over the tuned baseline, workloads "
             "x targets (grey: no figure, with the reason)", s->tech[t]);
    dh__add_chart(r, DH_CHART_STUDY_HEATMAP, name, ctitle, "", "", "");
    return 0;
}

static int bars(struct dh_report *r, const struct dh_study *s, const char *suite,
                struct dh_err *err)
{
    int rows[1024], n = 0;
    for (int row = 0; row < s->n_rows && n < 1024; row++)
        if (!strcmp(s->rows[row].suite, suite))
            rows[n++] = row;
    if (!n || !s->n_tech)
        return 0;
    char stem[80], name[100];
    snprintf(stem, sizeof stem, "study-bars-%s", suite);
    dh_report_safe_name(stem, name, sizeof name);
    FILE *dat = dh__open_out(r, name, "dat", err);
    FILE *gp = dat ? dh__open_out(r, name, "gp", err) : NULL;
    if (!gp) {
        if (dat)
            fclose(dat);
        return -DH_E_IO;
    }
    int K = s->n_cols, block = 0;
    double ymax = 1.2;
    fprintf(dat, "# per technique: one block per target (x, speedup, 95%% lo, hi), then one "
                 "block of the bars without a figure (x, state)\n");
    for (int t = 0; t < s->n_tech; t++) {
        for (int col = 0; col < K; col++) {
            fprintf(dat, "%s# %s on %s: %s\n", block ? "\n\n" : "", s->tech[t],
                    s->cols[col].backend, s->cols[col].device);
            int any = 0;
            for (int k = 0; k < n; k++) {
                const struct dh_study_cell *c = dh_study_cell(s, rows[k], col, t);
                double x, bw;
                dh__bar_x(k, col, K, &x, &bw);
                if (c->state != DH_STUDY_OK)
                    continue;
                fprintf(dat, "%.4f\t%.6g\t%.6g\t%.6g\n", x, c->sp, c->lo, c->hi);
                ymax = fmax(ymax, isfinite(c->hi) ? c->hi : c->sp);
                any = 1;
            }
            if (!any)
                fprintf(dat, "-1\tNaN\tNaN\tNaN\n");
            block++;
        }
        fprintf(dat, "\n\n# %s: bars without a figure\n", s->tech[t]);
        int any = 0;
        for (int col = 0; col < K; col++)
            for (int k = 0; k < n; k++) {
                const struct dh_study_cell *c = dh_study_cell(s, rows[k], col, t);
                double x, bw;
                dh__bar_x(k, col, K, &x, &bw);
                if (c->state == DH_STUDY_OK)
                    continue;
                fprintf(dat, "%.4f\t%s\n", x, dh_study_state_name(c->state));
                any = 1;
            }
        if (!any)
            fprintf(dat, "-1\t-\n");
        block++;
    }
    fclose(dat);
    int keylen = 14;
    for (int col = 0; col < K; col++) {
        int l = (int)(strlen(s->cols[col].backend) + strlen(s->cols[col].device)) + 2;
        keylen = l > keylen ? l : keylen;
    }
    keylen = keylen > 60 ? 60 : keylen;
    int wpx = 420 + n * K * 34 + keylen * 7, hpx = 180 + 330 * s->n_tech;
    wpx = wpx < 900 ? 900 : wpx > 2400 ? 2400 : wpx;
    double right = 1 - (keylen * 7.0 + 80) / wpx;
    hpx = hpx > 2400 ? 2400 : hpx;
    dh__gp_begin(gp, r, name, wpx, hpx);
    char title[300];
    snprintf(title, sizeof title, "suite %s: speedup over the tuned baseline per target "
             "(best configuration, 95%% interval)", suite);
    fprintf(gp, "  set multiplot layout %d,1 title ", s->n_tech);
    dh_gp_quote(gp, title);
    /* the same margins in every panel, so that a workload's bars line up
     * down the page; one key, right of the first panel */
    fprintf(gp, "\n  set ylabel \"speedup (x)\"\n  set yrange [0:%g]\n"
                "  set lmargin at screen %.4f\n  set rmargin at screen %.4f\n"
                "  set key at screen %.4f, screen %.4f left top vertical Left reverse\n"
                "  set xrange [-0.6:%g]\n  set xtics (", ceil(ymax * 1.1 * 4) / 4, 70.0 / wpx, right, right + 0.01,
            1 - 45.0 / hpx, n - 0.4);
    int lines = 1;
    for (int k = 0; k < n; k++) {
        char l[400];
        int nl = 1;
        snprintf(l, sizeof l, "%s\n%s", s->rows[rows[k]].bench, s->rows[rows[k]].label);
        for (char *p = l; *p; p++)
            if (*p == ' ' || *p == '\n') {
                *p = '\n';
                nl++;
            }
        lines = nl > lines ? nl : lines;
        fprintf(gp, "%s", k ? ", " : "");
        dh_gp_quote(gp, l);
        fprintf(gp, " %d", k);
    }
    fprintf(gp, ")\n  set bmargin %d\n", lines + 1);
    block = 0;
    for (int t = 0; t < s->n_tech; t++) {
        char pt[200];
        snprintf(pt, sizeof pt, "%s (%s time)", s->tech[t],
                 strcmp(s->tech[t], "cpu_tdr") ? "kernel" : "end-to-end");
        fprintf(gp, "  set title ");
        dh_gp_quote(gp, pt);
        fprintf(gp, "\n  plot \\\n");
        dh__one_line(gp, "baseline = 1");
        for (int col = 0; col < K; col++) {
            double x, bw;
            dh__bar_x(0, col, K, &x, &bw);
            char lab[300];
            snprintf(lab, sizeof lab, "%s: %s", s->cols[col].backend, s->cols[col].device);
            fprintf(gp, "    \"%s.dat\" index %d using 1:2:(%.4f) with boxes lc rgb \"%s\" "
                        "title ", name, block, bw * 0.92, dh__palette[col % DH__N_PALETTE]);
            dh_gp_quote(gp, lab);
            fprintf(gp, ", \\\n    \"\" index %d using 1:3:(0):($4-$3) with vectors heads size "
                        "screen 0.004,90 lc rgb \"#222222\" notitle, \\\n", block);
            block++;
        }
        fprintf(gp, "    \"\" index %d using 1:(0):2 with labels rotate by 90 left offset 0,0.3 "
                    "font \",8\" tc rgb \"#666666\" notitle\n", block);
        if (!t)
            fputs("  unset key\n", gp);      /* one key, on the first panel */
        block++;
    }
    fprintf(gp, "  unset multiplot\n");
    dh__gp_end(gp);
    fclose(gp);
    char ctitle[256];
    snprintf(ctitle, sizeof ctitle, "Suite %s: each technique's speedup per workload and "
             "target (95%% interval; a missing bar names its state)", suite);
    dh__add_chart(r, DH_CHART_STUDY_BARS, name, ctitle, suite, "", "");
    return 0;
}

int dh_study_charts(struct dh_report *r, const struct dh_study *s, struct dh_err *err)
{
    if (!s->n_rows || !s->n_cols)
        return 0;
    for (int t = 0; t < s->n_tech; t++) {
        int rc = heatmap(r, s, t, err);
        if (rc)
            return rc;
    }
    char suites[64][32];
    int ns = dh_study_suites(s, suites, 64);
    for (int q = 0; q < ns; q++) {
        int rc = bars(r, s, suites[q], err);
        if (rc)
            return rc;
    }
    return 0;
}
