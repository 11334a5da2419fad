/* steps.c — step detection over a case's nights (steps.h has the method). */
#include "steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dh_steps_opts_default(struct dh_steps_opts *o)
{
    o->penalty = 3;
    o->min_change = 0.05;
    o->min_noise = 0.002;
    o->min_len = 3;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double med3(double a, double b, double c)
{
    if (a > b) { double t = a; a = b; b = t; }
    if (b > c) { double t = b; b = c; c = t; }
    if (a > b) { double t = a; a = b; b = t; }
    return b;
}

int dh_steps_find(const double *x, int n, const struct dh_steps_opts *o, struct dh_step *out,
                  int max)
{
    if (o->min_len < 1 || n < 2 || n < 2 * o->min_len)
        return 0;
    double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f);
    double *s1 = malloc((size_t)(n + 1) * sizeof *s1), *s2 = malloc((size_t)(n + 1) * sizeof *s2);
    double *best = malloc((size_t)(n + 1) * sizeof *best);
    int *from = malloc((size_t)(n + 1) * sizeof *from);
    if (!y || !f || !s1 || !s2 || !best || !from) {
        free(y), free(f), free(s1), free(s2), free(best), free(from);
        return -1;
    }
    for (int t = 0; t < n; t++)
        y[t] = log(x[t]);
    /* 2: outliers of one or two nights in a row out: a running median of
     * five (three next to the ends; the ends as they are), which keeps a
     * step where it is */
    for (int t = 0; t < n; t++) {
        if (t == 0 || t == n - 1) {
            f[t] = y[t];
        } else if (t == 1 || t == n - 2) {
            f[t] = med3(y[t - 1], y[t], y[t + 1]);
        } else {
            double w[5] = {y[t - 2], y[t - 1], y[t], y[t + 1], y[t + 2]};
            qsort(w, 5, sizeof *w, cmp_d);
            f[t] = w[2];
        }
    }
    /* 3: the noise from successive differences */
    double *d = malloc((size_t)n * sizeof *d);
    if (!d) {
        free(y), free(f), free(s1), free(s2), free(best), free(from);
        return -1;
    }
    for (int t = 1; t < n; t++)          /* the raw nights' (a median of them: robust) */
        d[t - 1] = fabs(y[t] - y[t - 1]);
    qsort(d, (size_t)(n - 1), sizeof *d, cmp_d);
    double mad = (n - 1) % 2 ? d[(n - 1) / 2] : 0.5 * (d[(n - 1) / 2 - 1] + d[(n - 1) / 2]);
    free(d);
    double sigma = 1.4826 * mad / sqrt(2.0);
    if (sigma < o->min_noise)
        sigma = o->min_noise;
    /* 4: the penalised least-squares segmentation, exactly */
    s1[0] = s2[0] = 0;
    for (int t = 0; t < n; t++) {
        s1[t + 1] = s1[t] + f[t];
        s2[t + 1] = s2[t] + f[t] * f[t];
    }
    double beta = o->penalty * log((double)n);
    best[0] = -beta;                      /* the first segment pays no step */
    from[0] = 0;
    for (int j = 1; j <= n; j++) {
        best[j] = INFINITY;
        from[j] = 0;
        for (int i = 0; i + o->min_len <= j; i++) {
            if (!isfinite(best[i]) || (i > 0 && i < o->min_len))
                continue;
            double m = j - i, sum = s1[j] - s1[i];
            double cost = (s2[j] - s2[i] - sum * sum / m) / (sigma * sigma);
            double c = best[i] + beta + cost;
            if (c < best[j]) {
                best[j] = c;
                from[j] = i;
            }
        }
    }
    /* 5: the boundaries, oldest first; the weakest merged into its
     * neighbours while it changes the level by less than min_change (each
     * step is then measured between the whole levels around it) */
    int cuts[4098], nc = 0;
    for (int j = n; j > 0 && nc < 4096; j = from[j])
        cuts[nc++] = j;
    cuts[nc++] = 0;
    for (int l = 0, r = nc - 1; l < r; l++, r--) {     /* ascending: 0, ..., n */
        int t = cuts[l];
        cuts[l] = cuts[r];
        cuts[r] = t;
    }
    double *u = malloc((size_t)n * sizeof *u);
    if (!u) {
        free(y), free(f), free(s1), free(s2), free(best), free(from);
        return -1;
    }
    double *lv = malloc((size_t)nc * sizeof *lv);
    for (;;) {
        /* the median of every level (raw nights: an outlier does not count) */
        for (int c = 0; lv && c + 1 < nc; c++) {
            int a = cuts[c], e = cuts[c + 1];
            memcpy(u, x + a, (size_t)(e - a) * sizeof *u);
            qsort(u, (size_t)(e - a), sizeof *u, cmp_d);
            lv[c] = (e - a) % 2 ? u[(e - a) / 2] : 0.5 * (u[(e - a) / 2 - 1] + u[(e - a) / 2]);
        }
        int weakest = -1;
        double wc = INFINITY;
        for (int c = 1; lv && c + 1 < nc; c++) {
            double ch = fabs(lv[c] / lv[c - 1] - 1);
            if (ch < wc)
                wc = ch, weakest = c;
        }
        if (weakest < 0 || wc >= o->min_change)
            break;
        memmove(cuts + weakest, cuts + weakest + 1, (size_t)(nc - weakest - 1) * sizeof *cuts);
        nc--;
    }
    int k = 0;
    for (int c = 1; lv && c + 1 < nc && k < max; c++)
        out[k++] = (struct dh_step){.at = cuts[c], .before = lv[c - 1], .after = lv[c],
                                    .change = lv[c] / lv[c - 1] - 1};
    free(lv);
    free(u);
    free(y), free(f), free(s1), free(s2), free(best), free(from);
    return k;
}
