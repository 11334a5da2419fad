/* report_charts.c — the data and gnuplot scripts of a report's charts
 * (report.h). Running the scripts is cmd_report.c's job.
 *
 *   speedup-*    kernel speedup per workload and variant, 95% intervals
 *   cfe-*        CFE of baseline (before) and variants (after); the 1/CFE
 *                potential and the remap ceiling marked on a right axis
 *   breakeven-*  speedup against a workload parameter that takes three or
 *                more values (log x), one line per variant, one panel per
 *                combination of the other parameters
 *   backends-*   report_backends.c
 *
 * Bars are placed by us (x = group + offset), not by gnuplot's histogram
 * style, so every chart has the same look and an empty cell is a gap.
 * Each variant label keeps one colour in every chart of a report: its
 * family's hue, a shade of its own (dh__variant_colour).
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/compare.h"

/* ---- (a) speedup ---- */
static int chart_speedup(struct dh_report *r, const struct dh__grid *g, const char *stem,
                         const char *bench, const char *backend, const char *device,
                         struct dh_err *err)
{
    int vars[DH__MAX_VAR], K = 0;
    for (int v = 0; v < g->n_var; v++) {
        int any = 0;
        for (int w = 0; w < g->n_wl && !any; w++)
            any = g->cell[w][v] && g->cell[w][v]->has_speedup;
        if (any)
            vars[K++] = v;
    }
    if (!K) {
        dh__note(r, "%s on %s: no speedup chart (no variant has a verified baseline to compare "
             "with)", bench, backend);
        return 0;
    }
    char name[160];
    snprintf(name, sizeof name, "speedup-%s", stem);
    FILE *dat = dh__open_out(r, name, "dat", err);
    FILE *gp = dat ? dh__open_out(r, name, "gp", err) : NULL;
    if (!gp) {
        if (dat)
            fclose(dat);
        return -DH_E_IO;
    }
    fprintf(dat, "# kernel speedup over baseline: x, median ratio, 95%% lo, 95%% hi, workload; "
                 "one block per variant\n");
    for (int k = 0; k < K; k++) {
        fprintf(dat, "%s# %s\n", k ? "\n\n" : "", g->var[vars[k]]);
        for (int w = 0; w < g->n_wl; w++) {
            const struct dh_run *u = g->cell[w][vars[k]];
            double x, bw;
            dh__bar_x(w, k, K, &x, &bw);
            if (u && u->has_speedup)
                fprintf(dat, "%.4f\t%.6g\t%.6g\t%.6g\t%s\n", x, u->sp_kernel, u->sp_kernel_lo,
                        u->sp_kernel_hi, g->wl[w]);
        }
    }
    /* one workload: horizontal bars, each named by its variant on the
     * axis and its figure at its end (no legend to match colours with) */
    if (g->n_wl == 1) {
        fprintf(dat, "\n\n# one workload: row, median, 95%% lo, 95%% hi, colour\n");
        for (int k = 0; k < K; k++) {
            const struct dh_run *u = g->cell[0][vars[k]];
            if (u && u->has_speedup)
                fprintf(dat, "%d\t%.6g\t%.6g\t%.6g\t%ld\n", k, u->sp_kernel, u->sp_kernel_lo,
                        u->sp_kernel_hi, strtol(g->colour[vars[k]] + 1, NULL, 16));
        }
        fclose(dat);
        int longest = 0;
        for (int k = 0; k < K; k++)
            longest = (int)strlen(g->var[vars[k]]) > longest ? (int)strlen(g->var[vars[k]]) : longest;
        dh__gp_begin(gp, r, name, 900, 150 + 30 * K);
        fprintf(gp, "  set title ");
        char t[600];
        /* the baseline every bar is against, and whether it was tuned */
        const struct dh_run *ref = NULL;
        for (int k = 0; k < K && !ref; k++)
            if (g->cell[0][vars[k]] && g->cell[0][vars[k]]->has_speedup)
                ref = g->cell[0][vars[k]];
        snprintf(t, sizeof t, "%s (%s): kernel speedup, median and 95%% interval\nagainst the "
                 "baseline at %s%s; %s: %s", bench, g->wl[0][0] ? g->wl[0] : "one workload",
                 ref && ref->baseline_tunables[0] ? ref->baseline_tunables : "its defaults",
                 ref && ref->baseline_tuned ? " (tuned)" : " (untuned)", backend, device);
        dh_gp_quote(gp, t);
        fprintf(gp, "\n  set xlabel \"speedup (x); dashed: the baseline\"\n  set xrange [0:*]\n"
                    "  set yrange [%g:-0.6]\n  set lmargin %d\n  set grid xtics ytics\n"
                    "  set grid noytics\n  unset key\n  set ytics (", K - 0.4,
                longest + 3 < 60 ? longest + 3 : 60);
        for (int k = 0; k < K; k++) {
            fprintf(gp, "%s", k ? ", " : "");
            dh_gp_quote(gp, g->var[vars[k]]);
            fprintf(gp, " %d", k);
        }
        fprintf(gp, ")\n  set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb \"#333333\"\n"
                    "  plot \"%s.dat\" index %d using ($2/2):1:(0):2:($1-0.36):($1+0.36):5 "
                    "with boxxyerror fc rgb variable fs solid 0.85 notitle, \\\n"
                    "    \"\" index %d using 2:1:3:4 with xerrorbars pt -1 lc rgb \"#222222\" "
                    "notitle, \\\n"
                    "    \"\" index %d using 4:1:(sprintf(\" %%.2fx\", $2)) with labels left "
                    "font \",9\" notitle\n", name, K, K, K);
        dh__gp_end(gp);
        fclose(gp);
        char title[256];
        snprintf(title, sizeof title, "Kernel speedup per variant (95%% interval)");
        dh__add_chart(r, DH_CHART_SPEEDUP, name, title, bench, backend, device);
        return 0;
    }
    fclose(dat);
    int wpx = 360 + g->n_wl * K * 24;
    wpx = wpx < 900 ? 900 : wpx > 2000 ? 2000 : wpx;
    dh__gp_begin(gp, r, name, wpx, 520);
    fprintf(gp, "  set title ");
    char t[600];
    snprintf(t, sizeof t, "%s: kernel speedup over baseline (median, 95%% interval)\n%s: %s",
             bench, backend, device);
    dh_gp_quote(gp, t);
    fprintf(gp, "\n  set ylabel \"speedup (x)\"\n  set yrange [0:*]\n"
                "  set key outside right top vertical Left reverse\n");
    dh__gp_xtics(gp, g, 0);
    fprintf(gp, "  plot \\\n");
    dh__one_line(gp, "baseline = 1");
    for (int k = 0; k < K; k++) {
        double x, bw;
        dh__bar_x(0, k, K, &x, &bw);
        fprintf(gp, "    \"%s.dat\" index %d using 1:2:(%.4f) with boxes lc rgb \"%s\" title ",
                name, k, bw * 0.92, g->colour[vars[k]]);
        dh_gp_quote(gp, g->var[vars[k]]);
        /* the figure on each bar, above its interval */
        fprintf(gp, ", \\\n    \"\" index %d using 1:3:(0):($4-$3) with vectors heads size "
                    "screen 0.006,90 lc rgb \"#222222\" notitle, \\\n"
                    "    \"\" index %d using 1:4:(sprintf(\"%%.2f\", $2)) with labels offset 0,0.6 "
                    "font \",7\" notitle%s\n", k, k, k + 1 < K ? ", \\" : "");
    }
    dh__gp_end(gp);
    fclose(gp);
    char title[256];
    snprintf(title, sizeof title, "Kernel speedup per workload and variant (95%% interval)");
    dh__add_chart(r, DH_CHART_SPEEDUP, name, title, bench, backend, device);
    return 0;
}

/* ---- (b) CFE before/after ---- */
static int chart_cfe(struct dh_report *r, const struct dh__grid *g, const char *stem,
                     const char *bench, const char *backend, const char *device,
                     struct dh_err *err)
{
    int vars[DH__MAX_VAR], K = 0;
    for (int v = 0; v < g->n_var; v++) {
        int any = 0;
        for (int w = 0; w < g->n_wl && !any; w++)
            any = g->cell[w][v] && isfinite(g->cell[w][v]->cfe);
        if (any)
            vars[K++] = v;
    }
    if (!K) {
        dh__note(r, "%s on %s: no CFE chart (no CFE values: this backend has no counters here, "
             "and the BBV model is not built yet)", bench, backend);
        return 0;
    }
    char name[160];
    snprintf(name, sizeof name, "cfe-%s", stem);
    FILE *dat = dh__open_out(r, name, "dat", err);
    FILE *gp = dat ? dh__open_out(r, name, "gp", err) : NULL;
    if (!gp) {
        if (dat)
            fclose(dat);
        return -DH_E_IO;
    }
    fprintf(dat, "# CFE per variant: x, CFE, workload; one block per variant; the last two "
                 "blocks: x, 1/CFE of the baseline | x, remap ceiling\n");
    double ymax = 1;
    for (int k = 0; k < K; k++) {
        fprintf(dat, "%s# %s\n", k ? "\n\n" : "", g->var[vars[k]]);
        for (int w = 0; w < g->n_wl; w++) {
            const struct dh_run *u = g->cell[w][vars[k]];
            double x, bw;
            dh__bar_x(w, k, K, &x, &bw);
            if (u && isfinite(u->cfe))
                fprintf(dat, "%.4f\t%.6g\t%s\n", x, u->cfe, g->wl[w]);
        }
    }
    int n_pot = 0, n_ceil = 0;
    fprintf(dat, "\n\n# 1/CFE of the baseline (potential speedup)\n");
    for (int w = 0; w < g->n_wl; w++)
        for (int v = 0; v < g->n_var; v++) {
            const struct dh_run *u = g->cell[w][v];
            if (u && !strcmp(u->c.variant, "baseline") && isfinite(u->cfe) && u->cfe > 0) {
                fprintf(dat, "%d\t%.6g\n", w, 1 / u->cfe);
                ymax = fmax(ymax, 1 / u->cfe);
                n_pot++;
                break;
            }
        }
    fprintf(dat, "\n\n# remap ceiling (best in-work-group regrouping, this input)\n");
    for (int w = 0; w < g->n_wl; w++)
        for (int v = 0; v < g->n_var; v++) {
            const struct dh_run *u = g->cell[w][v];
            if (u && u->r.ceiling > 0) {
                fprintf(dat, "%d\t%.6g\n", w, u->r.ceiling);
                ymax = fmax(ymax, u->r.ceiling);
                n_ceil++;
                break;
            }
        }
    if (!n_pot)
        fprintf(dat, "-1\tNaN\n");   /* gnuplot wants every block non-empty */
    if (!n_ceil)
        fprintf(dat, "-1\tNaN\n");
    fclose(dat);
    int wpx = 420 + g->n_wl * K * 24;
    wpx = wpx < 980 ? 980 : wpx > 2000 ? 2000 : wpx;
    /* two panels on one x axis: CFE (bars, 0..1) above; what the baseline's
     * divergence leaves to win below, on an axis of its own (1/CFE, the
     * remap ceiling): no second axis across the bars */
    dh__gp_begin(gp, r, name, wpx, 720);
    char t[600];
    snprintf(t, sizeof t, "%s: control-flow efficiency, baseline (before) and variants "
             "(after)\n%s: %s", bench, backend, device);
    int lines = 1;                       /* the workload labels' lines */
    for (int w = 0; w < g->n_wl; w++) {
        int l = 1;
        for (const char *q = g->wl_label[w]; *q; q++)
            l += *q == '\n';
        lines = l > lines ? l : lines;
    }
    double lab = (lines + 1) * 0.022;    /* room for them under each panel */
    fprintf(gp, "  set multiplot\n  set title ");
    dh_gp_quote(gp, t);
    fprintf(gp, "\n  set ylabel \"CFE (1 = no divergence)\"\n  set yrange [0:1.12]\n"
                "  set ytics 0,0.2,1\n"
                "  set key at screen 0.74, screen 0.9 top left vertical Left reverse\n");
    dh__gp_xtics(gp, g, 0);
    fprintf(gp, "  set lmargin at screen 0.09\n  set rmargin at screen 0.72\n"
                "  set tmargin at screen 0.9\n  set bmargin at screen %.3f\n",
            0.42 + lab + 0.03);
    fprintf(gp, "  plot \\\n");
    for (int k = 0; k < K; k++) {
        double x, bw;
        dh__bar_x(0, k, K, &x, &bw);
        fprintf(gp, "    \"%s.dat\" index %d using 1:2:(%.4f) with boxes lc rgb \"%s\" "
                    "title ", name, k, bw * 0.92, g->colour[vars[k]]);
        dh_gp_quote(gp, g->var[vars[k]]);
        fprintf(gp, "%s\n", k + 1 < K ? ", \\" : "");
    }
    fprintf(gp, "  unset title\n  set tmargin at screen 0.40\n  set bmargin at screen %.3f\n"
                "  set ylabel \"speedup there is to win (x)\"\n"
                "  set yrange [0:%g]\n  set ytics autofreq\n"
                "  set key at screen 0.74, screen 0.40 top left vertical Left reverse\n"
                "  plot \\\n"
                "    \"%s.dat\" index %d using ($1-0.45):2:(0.9):(0) with vectors "
                "nohead lw 3 lc rgb \"#000000\" title \"1/CFE of baseline: potential\", \\\n"
                "    \"%s.dat\" index %d using ($1-0.45):2:(0.9):(0) with vectors "
                "nohead lw 3 lc rgb \"#c0392b\" title \"remap ceiling\"\n"
                "  unset multiplot\n",
            lab + 0.03, ceil(ymax * 1.15 * 2) / 2, name, K, name, K + 1);
    dh__gp_end(gp);
    fclose(gp);
    dh__add_chart(r, DH_CHART_CFE, name, "CFE before (baseline) and after (variants), with the "
              "1/CFE potential and the remap ceiling", bench, backend, device);
    return 0;
}

/* ---- (c) break-even ---- */
static int numeric(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && !*end;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int chart_breakeven(struct dh_report *r, const struct dh__grid *g, const char *stem,
                           const char *bench, const char *backend, const char *device,
                           struct dh_err *err)
{
    /* the swept parameter: numeric, three or more values */
    const struct dh_run *any = NULL;
    for (int w = 0; w < g->n_wl && !any; w++)
        for (int v = 0; v < g->n_var && !any; v++)
            any = g->cell[w][v];
    if (!any)
        return 0;
    for (int p = 0; p < any->c.params.n; p++) {
        const struct dh_pval *pv = &any->c.params.v[p];
        if (pv->kind != DH_P_WORKLOAD)
            continue;
        double vals[DH__MAX_WL];
        int nv = 0, all_num = 1;
        char rest[DH__MAX_WL][400];
        int nrest = 0, rest_of[DH__MAX_WL];
        for (int w = 0; w < g->n_wl; w++) {
            const struct dh_run *u = NULL;
            for (int v = 0; v < g->n_var && !u; v++)
                u = g->cell[w][v];
            double x;
            if (!numeric(dh_pset_text(&u->c.params, pv->name, ""), &x)) {
                all_num = 0;
                break;
            }
            int seen = 0;
            for (int k = 0; k < nv && !seen; k++)
                seen = vals[k] == x;
            if (!seen)
                vals[nv++] = x;
            struct dh_pset ps = u->c.params;
            dh_pset_del(&ps, pv->name);
            char s[400];
            dh_pset_format(&ps, DH_P_WORKLOAD, s, sizeof s);
            int k = 0;
            while (k < nrest && strcmp(rest[k], s))
                k++;
            if (k == nrest)
                snprintf(rest[nrest++], sizeof rest[0], "%s", s);
            rest_of[w] = k;
        }
        if (!all_num || nv < 3)
            continue;
        /* panels: combinations of the other parameters where this one takes two or more
         * values; a chart when one of them has three or more */
        int keep[DH__MAX_WL], nkeep = 0, best = 0;
        for (int pn = 0; pn < nrest; pn++) {
            double seen[DH__MAX_WL];
            int ns = 0;
            for (int w = 0; w < g->n_wl; w++) {
                if (rest_of[w] != pn)
                    continue;
                const struct dh_run *u = NULL;
                for (int v = 0; v < g->n_var && !u; v++)
                    u = g->cell[w][v];
                double x = dh_pset_num(&u->c.params, pv->name, NAN);
                int dup = 0;
                for (int k = 0; k < ns && !dup; k++)
                    dup = seen[k] == x;
                if (!dup)
                    seen[ns++] = x;
            }
            if (ns >= 2)
                keep[nkeep++] = pn;
            best = ns > best ? ns : best;
        }
        if (best < 3)
            continue;
        if (nkeep > 6) {
            dh__note(r, "%s on %s: no chart against %s (%d combinations of the other "
                 "parameters; at most 6 panels)", bench, backend, pv->name, nkeep);
            continue;
        }
        qsort(vals, (size_t)nv, sizeof *vals, cmp_dbl);
        char name[160];
        snprintf(name, sizeof name, "breakeven-%s-%s", stem, pv->name);
        FILE *dat = dh__open_out(r, name, "dat", err);
        FILE *gp = dat ? dh__open_out(r, name, "gp", err) : NULL;
        if (!gp) {
            if (dat)
                fclose(dat);
            return -DH_E_IO;
        }
        fprintf(dat, "# kernel speedup against %s: %s, median ratio, 95%% lo, 95%% hi; one "
                     "block per panel and variant\n", pv->name, pv->name);
        int panels = 0, block = 0;
        double ymax = 1.2;
        int pw = nkeep <= 3 ? nkeep : 3, ph = (nkeep + 2) / 3;
        int wpx = 80 + pw * 560;
        dh__gp_begin(gp, r, name, wpx < 980 ? 980 : wpx, ph * 580);
        fprintf(gp, "  set multiplot layout %d,%d title ", ph, pw);
        char t[600];
        snprintf(t, sizeof t, "%s: kernel speedup against %s (median, 95%% interval); "
                 "break-even where a line crosses 1\n%s: %s", bench, pv->name, backend, device);
        dh_gp_quote(gp, t);
        fputs("\n  set xlabel ", gp);
        dh_gp_quote(gp, pv->name);
        fputs("\n  set ylabel \"speedup (x)\"\n", gp);
        if (vals[0] > 0 && vals[nv - 1] / vals[0] >= 8) {
            fprintf(gp, "  set logscale x 2\n  set xrange [%g:%g]\n", vals[0] / 1.5,
                    vals[nv - 1] * 1.5);
        } else {
            double pad = 0.06 * (vals[nv - 1] - vals[0]);
            fprintf(gp, "  set xrange [%g:%g]\n", vals[0] - pad, vals[nv - 1] + pad);
        }
        fprintf(gp, "  set xtics (");
        for (int k = 0; k < nv; k++)
            fprintf(gp, "%s\"%g\" %g", k ? ", " : "", vals[k], vals[k]);
        fprintf(gp, ")\n  set key outside below horizontal maxcols 2 Left reverse\n");
        long ypos = ftell(gp);
        fprintf(gp, "  set yrange [0:%-12s]\n", "");   /* patched below */
        for (int kp = 0; kp < nkeep; kp++) {
            int pn = keep[kp];
            /* the panel's title: the other parameters that vary */
            char ptitle[400] = "";
            for (int w = 0; w < g->n_wl; w++)
                if (rest_of[w] == pn && nkeep > 1) {
                    char buf[400];
                    snprintf(buf, sizeof buf, "%s", g->wl_label[w]);
                    /* wl_label has the swept parameter too; drop it */
                    char *save = NULL, *tok = strtok_r(buf, "\n", &save);
                    for (; tok; tok = strtok_r(NULL, "\n", &save))
                        if (strncmp(tok, pv->name, strlen(pv->name))
                                || tok[strlen(pv->name)] != '=')
                            snprintf(ptitle + strlen(ptitle), sizeof ptitle - strlen(ptitle),
                                     "%s%s", ptitle[0] ? ", " : "", tok);
                    break;
                }
            fprintf(gp, "  set title ");
            dh_gp_quote(gp, ptitle);
            fprintf(gp, "\n  plot \\\n");
            dh__one_line(gp, "break-even (1x)");
            int lines = 0;
            for (int v = 0; v < g->n_var; v++) {
                double xs[DH__MAX_WL][4];
                int n = 0;
                for (int w = 0; w < g->n_wl; w++) {
                    const struct dh_run *u = g->cell[w][v];
                    if (rest_of[w] != pn || !u || !u->has_speedup)
                        continue;
                    xs[n][0] = dh_pset_num(&u->c.params, pv->name, NAN);
                    xs[n][1] = u->sp_kernel;
                    xs[n][2] = u->sp_kernel_lo;
                    xs[n][3] = u->sp_kernel_hi;
                    ymax = fmax(ymax, u->sp_kernel_hi);
                    n++;
                }
                if (!n)
                    continue;
                qsort(xs, (size_t)n, sizeof xs[0], cmp_dbl);    /* by x (first member) */
                fprintf(dat, "%s# panel %d: %s\n", block ? "\n\n" : "", pn, g->var[v]);
                for (int k = 0; k < n; k++)
                    fprintf(dat, "%g\t%.6g\t%.6g\t%.6g\n", xs[k][0], xs[k][1], xs[k][2],
                            xs[k][3]);
                fprintf(gp, "%s    \"%s.dat\" index %d using 1:2:3:4 with yerrorlines lw 2 "
                            "pt 7 ps 0.8 lc rgb \"%s\" title ", lines ? ", \\\n" : "", name,
                        block, g->colour[v]);
                dh_gp_quote(gp, g->var[v]);
                block++;
                lines++;
            }
            if (!lines)
                fprintf(gp, "    NaN notitle");
            else
                fprintf(gp, " ");
            fprintf(gp, "\n");
            panels++;
        }
        fprintf(gp, "  unset multiplot\n");
        dh__gp_end(gp);
        /* one y range for all panels, so they compare at a glance */
        fseek(gp, ypos, SEEK_SET);
        char yr[32];
        snprintf(yr, sizeof yr, "%-12.3g", ceil(ymax * 1.08 * 4) / 4);
        fprintf(gp, "  set yrange [0:%s]\n", yr);
        fclose(gp);
        fclose(dat);
        char title[256];
        snprintf(title, sizeof title, "Break-even: kernel speedup against %s, one line per "
                 "variant", pv->name);
        dh__add_chart(r, DH_CHART_BREAKEVEN, name, title, bench, backend, device);
        (void)panels;
    }
    return 0;
}

int dh_report_charts(struct dh_report *r, struct dh_err *err)
{
    const struct dh_resultfile *f = r->f;
    char tb[DH__MAX_VAR][16], td[DH__MAX_VAR][256];
    int nt = dh_report_targets(f, tb, td, DH__MAX_VAR);
    static struct dh__grid g;
    for (int i = 0; i < f->n_runs; i++) {
        const struct dh_case *c = &f->runs[i].c;
        int first = 1;     /* each benchmark once, at its first run */
        for (int j = 0; j < i && first; j++)
            first = strcmp(f->runs[j].c.suite, c->suite)
                    || strcmp(f->runs[j].c.bench_name, c->bench_name);
        if (!first)
            continue;
        char bench[96];
        snprintf(bench, sizeof bench, "%s/%s", c->suite, c->bench_name);
        for (int t = 0; t < nt; t++) {
            dh__grid_build(f, c->suite, c->bench_name, tb[t], td[t], &g);
            if (!g.n_wl)
                continue;
            if (g.dropped)
                dh__note(r, "%s on %s: %d runs left out of the charts (more than %d workloads or "
                     "%d variants)", bench, tb[t], g.dropped, DH__MAX_WL, DH__MAX_VAR);
            char raw[400], stem[400];
            snprintf(raw, sizeof raw, "%s-%s-%s%s%s", c->suite, c->bench_name, tb[t],
                     nt > 1 ? "-" : "", nt > 1 ? td[t] : "");
            dh_report_safe_name(raw, stem, 120);
            int rc;
            if ((rc = chart_speedup(r, &g, stem, bench, tb[t], td[t], err))
                    || (rc = chart_cfe(r, &g, stem, bench, tb[t], td[t], err))
                    || (rc = chart_breakeven(r, &g, stem, bench, tb[t], td[t], err)))
                return rc;
        }
        if (nt > 1) {
            int rc = dh__report_backends(r, c->suite, c->bench_name, tb, td, nt, err);
            if (rc)
                return rc;
        }
    }
    return dh__report_heatmaps(r, err);
}
