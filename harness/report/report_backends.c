/* report_backends.c — the backend/device comparison chart of a report:
 * the cases measured on two or more backends or devices (a merged file),
 * as horizontal bars so the long case labels read left to right: kernel
 * time on the left, speedup over each one's own baseline on the right.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/compare.h"

int dh__report_backends(struct dh_report *r, const char *suite, const char *bench,
                        char (*tb)[16], char (*td)[256], int nt, struct dh_err *err)
{
    /* groups: cases (identity without backend and device) seen on two or more targets */
    static struct dh__grid g;          /* rows: cases; columns: targets */
    memset(&g, 0, sizeof g);
    const struct dh_resultfile *f = r->f;
    for (int i = 0; i < f->n_runs; i++) {
        const struct dh_run *u = &f->runs[i];
        if (strcmp(u->c.suite, suite) || strcmp(u->c.bench_name, bench) || u->r.status)
            continue;
        char key[400], wl[300], var[300];
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        dh_case_variant_label(&u->c, var, sizeof var);
        snprintf(key, sizeof key, "%s %s %s", var, u->c.size, wl);
        int w = 0, t = 0;
        while (w < g.n_wl && strcmp(g.wl[w], key))
            w++;
        while (t < nt && (strcmp(tb[t], u->c.backend) || strcmp(td[t], u->c.device_name)))
            t++;
        if (w == DH__MAX_WL || t >= nt || t >= DH__MAX_VAR)
            continue;
        if (w == g.n_wl)
            snprintf(g.wl[g.n_wl++], sizeof g.wl[0], "%s", key);
        g.cell[w][t] = u;
    }
    int rows[DH__MAX_WL], n = 0;
    for (int w = 0; w < g.n_wl; w++) {
        int c = 0;
        for (int t = 0; t < nt && t < DH__MAX_VAR; t++)
            c += g.cell[w][t] != NULL;
        if (c >= 2)
            rows[n++] = w;
    }
    if (!n)
        return 0;
    /* labels: variant + the workload parameters that vary among the rows */
    const struct dh_case *cs[DH__MAX_WL];
    for (int k = 0; k < n; k++)
        for (int t = 0; t < nt && t < DH__MAX_VAR; t++)
            if (g.cell[rows[k]][t]) {
                cs[k] = &g.cell[rows[k]][t]->c;
                break;
            }
    char names[DH_MAX_PARAMS][24];
    int nn = dh_varying_workload(cs, n, names, DH_MAX_PARAMS);
    struct dh__grid *lg = malloc(sizeof *lg);     /* the label grid: rows in chart order */
    if (!lg)
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    memset(lg, 0, sizeof *lg);
    lg->n_wl = n;
    for (int k = 0; k < n; k++) {
        char var[300], s[256];
        dh_case_variant_label(cs[k], var, sizeof var);
        dh_workload_short(cs[k], names, nn, s, sizeof s);
        snprintf(lg->wl_label[k], sizeof lg->wl_label[0], "%s %s", var, s);
    }
    char stem[200], name[220];
    snprintf(stem, sizeof stem, "%s-%s", suite, bench);
    dh_report_safe_name(stem, name, sizeof name);
    snprintf(stem, sizeof stem, "backends-%s", name);
    snprintf(name, sizeof name, "%s", stem);
    FILE *dat = dh__open_out(r, name, "dat", err);
    FILE *gp = dat ? dh__open_out(r, name, "gp", err) : NULL;
    if (!gp) {
        if (dat)
            fclose(dat);
        free(lg);
        return -DH_E_IO;
    }
    fprintf(dat, "# per backend/device: x, kernel median ms, 95%% lo, 95%% hi, speedup, lo, hi, "
                 "case; one block per backend/device\n");
    int T = nt < DH__MAX_VAR ? nt : DH__MAX_VAR, used[DH__MAX_VAR], K = 0;
    for (int t = 0; t < T; t++) {
        int c = 0;
        for (int k = 0; k < n; k++)
            c += g.cell[rows[k]][t] != NULL;
        if (c)
            used[K++] = t;
    }
    for (int j = 0; j < K; j++) {
        int t = used[j];
        fprintf(dat, "%s# %s: %s\n", j ? "\n\n" : "", tb[t], td[t]);
        for (int k = 0; k < n; k++) {
            const struct dh_run *u = g.cell[rows[k]][t];
            double x, bw;
            dh__bar_x(k, j, K, &x, &bw);
            if (u)
                fprintf(dat, "%.4f\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%s\n", x,
                        u->kernel.median, u->kernel.ci_lo, u->kernel.ci_hi,
                        u->has_speedup ? u->sp_kernel : NAN,
                        u->has_speedup ? u->sp_kernel_lo : NAN,
                        u->has_speedup ? u->sp_kernel_hi : NAN, g.wl[rows[k]]);
        }
    }
    fclose(dat);
    /* horizontal bars: the long case labels read left to right; kernel time on the
     * left, speedup on the right, one row of bars per case */
    int maxlen = 10;
    for (int k = 0; k < n; k++)
        maxlen = (int)strlen(lg->wl_label[k]) > maxlen ? (int)strlen(lg->wl_label[k]) : maxlen;
    int wpx = 1400, hpx = 170 + n * (K * 14 + 10);
    hpx = hpx < 520 ? 520 : hpx > 2400 ? 2400 : hpx;
    double left = (maxlen * 7.8 + 30) / wpx, mid = left + (0.97 - left) * 0.52;
    if (left > 0.45)
        left = 0.45;
    dh__gp_begin(gp, r, name, wpx, hpx);
    char t[400];
    snprintf(t, sizeof t, "%s/%s on %d backends/devices: the same cases", suite, bench, K);
    fprintf(gp, "  set multiplot title ");
    dh_gp_quote(gp, t);
    fprintf(gp, "\n  set key at screen 0.5, screen %.4f center top horizontal Left reverse\n"
                "  set tmargin at screen %.4f\n  set bmargin at screen %.4f\n"
                "  set yrange [%g:-0.6]\n  set grid xtics lc rgb \"#dddddd\" lt 1\n"
                "  unset grid\n  set grid xtics lc rgb \"#dddddd\" lt 1\n  set xrange [0:*]\n",
            1 - 40.0 / hpx, 1 - 115.0 / hpx, 60.0 / hpx, n - 0.4);
    for (int panel = 0; panel < 2; panel++) {
        fprintf(gp, "  set lmargin at screen %.4f\n  set rmargin at screen %.4f\n",
                panel ? mid + 0.015 : left, panel ? 0.97 : mid - 0.015);
        fprintf(gp, "  set title \"%s\"\n  set xlabel \"%s\"\n",
                panel ? "kernel speedup over each one's own baseline (95% interval)"
                      : "kernel time, median (95% interval)",
                panel ? "speedup (x); dashed line: 1" : "kernel ms");
        fputs("  set ytics (", gp);
        for (int k = 0; k < n; k++) {
            fprintf(gp, "%s", k ? ", " : "");
            dh_gp_quote(gp, panel ? "" : lg->wl_label[k]);
            fprintf(gp, " %d", k);
        }
        fputs(")\n", gp);
        if (panel)
            fprintf(gp, "  unset key\n  set arrow 1 from first 1, graph 0 to first 1, graph 1 "
                        "nohead dt 2 lw 1.5 lc rgb \"#333333\" front\n");
        fprintf(gp, "  plot \\\n");
        for (int j = 0; j < K; j++) {
            double x, bw;
            dh__bar_x(0, j, K, &x, &bw);
            char lab[300];
            snprintf(lab, sizeof lab, "%s: %s", tb[used[j]], td[used[j]]);
            int v = panel ? 5 : 2, lo = panel ? 6 : 3, hi = panel ? 7 : 4;
            fprintf(gp, "    \"%s.dat\" index %d using ($%d/2):1:(0):%d:($1-%.4f):($1+%.4f) "
                        "with boxxyerror lc rgb \"%s\" title ", name, j, v, v, bw * 0.46,
                    bw * 0.46, dh__palette[j % DH__N_PALETTE]);
            dh_gp_quote(gp, lab);
            fprintf(gp, ", \\\n    \"\" index %d using %d:1:($%d-$%d):(0) with vectors heads "
                        "size screen 0.004,90 lc rgb \"#222222\" notitle%s\n", j, lo, hi, lo,
                    j + 1 < K ? ", \\" : "");
        }
    }
    fprintf(gp, "  unset multiplot\n");
    dh__gp_end(gp);
    fclose(gp);
    free(lg);
    char title[256], bn[96];
    snprintf(title, sizeof title, "The same cases on %d backends/devices: kernel time and "
             "speedup", K);
    snprintf(bn, sizeof bn, "%s/%s", suite, bench);
    dh__add_chart(r, DH_CHART_BACKENDS, name, title, bn, "", "");
    return 0;
}
