/* stats.c — median, MAD, bootstrap intervals (stats.h). */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DH_BOOT 2000

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *s, int n)
{
    return (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

double dh_median(const double *x, int n)
{
    if (n <= 0)
        return NAN;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp);
    double m = median_sorted(s, n);
    free(s);
    return m;
}

static uint64_t rng(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Bootstrap medians of x into out[DH_BOOT]. */
static int boot_medians(const double *x, int n, uint64_t *st, double *out)
{
    double *r = malloc((size_t)n * sizeof *r);
    if (!r)
        return -1;
    for (int b = 0; b < DH_BOOT; b++) {
        for (int i = 0; i < n; i++)
            r[i] = x[rng(st) % (uint64_t)n];
        qsort(r, (size_t)n, sizeof *r, cmp);
        out[b] = median_sorted(r, n);
    }
    free(r);
    return 0;
}

static void pct(double *v, int n, double *lo, double *hi)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    *lo = v[(int)floor(0.025 * (n - 1))];
    *hi = v[(int)ceil(0.975 * (n - 1))];
}

void dh_stats_of(const double *x, int n, struct dh_stats *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n <= 0) {
        s->median = s->mad = s->min = s->max = s->mean = s->ci_lo = s->ci_hi = NAN;
        return;
    }
    double *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return;
    memcpy(v, x, (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, cmp);
    s->median = median_sorted(v, n);
    s->min = v[0];
    s->max = v[n - 1];
    double sum = 0;
    for (int i = 0; i < n; i++) {
        sum += v[i];
        v[i] = fabs(v[i] - s->median);
    }
    s->mean = sum / n;
    qsort(v, (size_t)n, sizeof *v, cmp);
    s->mad = 1.4826 * median_sorted(v, n);
    free(v);
    double *bm = malloc(DH_BOOT * sizeof *bm);
    uint64_t st = 0x243f6a8885a308d3ULL ^ (uint64_t)n;
    if (bm && n > 1 && !boot_medians(x, n, &st, bm)) {
        pct(bm, DH_BOOT, &s->ci_lo, &s->ci_hi);
    } else {
        s->ci_lo = s->ci_hi = s->median;
    }
    free(bm);
}

double dh_ratio_ci(const double *a, int na, const double *b, int nb,
                   double *lo, double *hi)
{
    double ma = dh_median(a, na), mb = dh_median(b, nb);
    double est = ma / mb;
    *lo = *hi = est;
    if (na < 2 || nb < 2)
        return est;
    double *ba = malloc(DH_BOOT * sizeof *ba), *bb = malloc(DH_BOOT * sizeof *bb);
    uint64_t st = 0x13198a2e03707344ULL ^ ((uint64_t)na << 32) ^ (uint64_t)nb;
    if (ba && bb && !boot_medians(a, na, &st, ba) && !boot_medians(b, nb, &st, bb)) {
        for (int i = 0; i < DH_BOOT; i++)
            ba[i] /= bb[i];
        pct(ba, DH_BOOT, lo, hi);
    }
    free(ba);
    free(bb);
    return est;
}
