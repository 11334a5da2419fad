/* report_heatmap.c — the tuning heat map of a report: for every run tuned
 * over two tunables (wg x nf), its evaluations' median kernel time as a
 * grid, the best marked, failed or unevaluated cells left blank. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HM_MAX 16

/* "nf=4,wg=64" -> the values of tunables a and b; 0 when absent */
static int parse(const char *txt, const char *a, const char *b, double *va, double *vb)
{
    char buf[128];
    int got = 0;
    snprintf(buf, sizeof buf, "%s", txt);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = 0;
        if (!strcmp(t, a)) {
            *va = atof(eq + 1);
            got |= 1;
        } else if (!strcmp(t, b)) {
            *vb = atof(eq + 1);
            got |= 2;
        }
    }
    return got == 3;
}

static int index_of(double *v, int *n, double x)
{
    for (int i = 0; i < *n; i++)
        if (v[i] == x)
            return i;
    if (*n >= HM_MAX)
        return -1;
    /* keep sorted */
    int i = *n;
    while (i > 0 && v[i - 1] > x) {
        v[i] = v[i - 1];
        i--;
    }
    v[i] = x;
    (*n)++;
    return i;
}

int dh__report_heatmaps(struct dh_report *r, struct dh_err *err)
{
    const struct dh_resultfile *f = r->f;
    for (int i = 0; i < f->n_runs; i++) {
        const struct dh_run *u = &f->runs[i];
        const struct dh_tuning *t = &u->tune;
        if (t->n_eval < 4)
            continue;
        double xs[HM_MAX], ys[HM_MAX], ms[HM_MAX][HM_MAX];
        int nx = 0, ny = 0, ok = 0;
        for (int k = 0; k < t->n_eval; k++) {
            double wg, nf;
            if (!parse(t->eval[k].tunables, "wg", "nf", &wg, &nf))
                continue;
            index_of(xs, &nx, wg);
            index_of(ys, &ny, nf);
        }
        if (nx < 2 || ny < 2)
            continue;                       /* one tunable only: no map */
        for (int a = 0; a < HM_MAX; a++)
            for (int b = 0; b < HM_MAX; b++)
                ms[a][b] = NAN;
        double best = INFINITY, bx = 0, by = 0;
        for (int k = 0; k < t->n_eval; k++) {
            double wg, nf;
            if (!parse(t->eval[k].tunables, "wg", "nf", &wg, &nf) || t->eval[k].status
                || !(t->eval[k].ms > 0))
                continue;
            int xi = index_of(xs, &nx, wg), yi = index_of(ys, &ny, nf);
            if (xi < 0 || yi < 0)
                continue;
            ms[yi][xi] = t->eval[k].ms;
            ok++;
            if (t->eval[k].ms < best) {
                best = t->eval[k].ms;
                bx = xi;
                by = yi;
            }
        }
        if (ok < 2)
            continue;
        char label[300], stem[400], name[420];
        dh_case_variant_label(&u->c, label, sizeof label);
        snprintf(stem, sizeof stem, "tuning-%s-%s-%s-%s", u->c.bench_name, label, u->c.backend,
                 u->c.key);
        dh_report_safe_name(stem, name, sizeof name);
        FILE *dat = dh__open_out(r, name, "dat", err);
        FILE *gp = dat ? dh__open_out(r, name, "gp", err) : NULL;
        if (!gp) {
            if (dat)
                fclose(dat);
            return -DH_E_IO;
        }
        /* one line per measured cell: x index, y index, ms (blank cells absent) */
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                if (!isnan(ms[y][x]))
                    fprintf(dat, "%d\t%d\t%.6g\n", x, y, ms[y][x]);
        fclose(dat);
        char wl[200];
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        dh__gp_begin(gp, r, name, 820, 560);
        char title[600];
        snprintf(title, sizeof title, "%s/%s %s on %s: median kernel ms (%s, %d of %d configs)",
                 u->c.suite, u->c.bench_name, label, u->c.backend, t->strategy, ok, t->space);
        fprintf(gp, "  set title ");
        dh_gp_quote(gp, title);
        snprintf(title, sizeof title, "wg (work-group size)     [%s]", wl);
        fprintf(gp, "\n  set xlabel ");
        dh_gp_quote(gp, title);
        fprintf(gp, "\n  set ylabel \"nf (DGI neighboring factor)\"\n");
        fprintf(gp, "  set xtics (");
        for (int x = 0; x < nx; x++)
            fprintf(gp, "%s\"%g\" %d", x ? ", " : "", xs[x], x);
        fprintf(gp, ")\n  set ytics (");
        for (int y = 0; y < ny; y++)
            fprintf(gp, "%s\"%g\" %d", y ? ", " : "", ys[y], y);
        fprintf(gp, ")\n  set xrange [-0.5:%d.5]\n  set yrange [-0.5:%d.5]\n", nx - 1, ny - 1);
        fprintf(gp, "  set grid noxtics noytics\n  set border 15\n"
                    "  set cblabel \"ms (lower is better); blank: not run or failed\"\n"
                    "  set palette defined (0 \"#1a9850\", 0.5 \"#fee08b\", 1 \"#d73027\")\n"
                    "  set style fill solid 1.0 noborder\n"
                    "  set label 1 \"best\" at %g,%g center front tc rgb \"black\" font \",9\" offset 0,-0.8\n"
                    "  plot \"%s.dat\" using 1:2:(0.5):(0.5):3 with boxxyerror lc palette notitle, \\\n"
                    "       \"%s.dat\" using 1:2:(sprintf(\"%%.3g\",$3)) with labels font \",8\" notitle\n",
                bx, by, name, name);
        dh__gp_end(gp);
        fclose(gp);
        char ctitle[400];
        snprintf(ctitle, sizeof ctitle, "tuning heat map (wg x nf) of %s, %s", label, wl);
        char bench[96];
        snprintf(bench, sizeof bench, "%s/%s", u->c.suite, u->c.bench_name);
        dh__add_chart(r, DH_CHART_HEATMAP, name, ctitle, bench, u->c.backend, u->c.device_name);
    }
    return 0;
}
