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

/* The k-th smallest of v[0..n) (0-based), v reordered: Hoare's select,
 * the value a full sort would put at k. */
static double select_kth(double *v, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = v[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return v[k];
}

/* Bootstrap medians of x into out[DH_BOOT]. A resample's median depends
 * only on how often each order statistic of x was drawn: x's ranks are
 * found once, each resample counts the ranks it drew (the same draws, so
 * the same medians as sorting every resample) and walks the counts to the
 * middle: O(n) per resample instead of a sort. */
static int boot_medians(const double *x, int n, uint64_t *st, double *out)
{
    double *xs = malloc((size_t)n * sizeof *xs);
    int *rank = malloc((size_t)n * sizeof *rank), *count = malloc((size_t)n * sizeof *count);
    if (!xs || !rank || !count) {
        free(xs);
        free(rank);
        free(count);
        return -1;
    }
    memcpy(xs, x, (size_t)n * sizeof *xs);
    qsort(xs, (size_t)n, sizeof *xs, cmp);
    for (int p = 0; p < n; p++) {              /* x[p] == xs[rank[p]] */
        int lo = 0, hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (xs[mid] < x[p])
                lo = mid + 1;
            else
                hi = mid;
        }
        rank[p] = lo;
    }
    int a = n % 2 ? n / 2 : n / 2 - 1, b = n / 2;   /* the middle positions */
    for (int r = 0; r < DH_BOOT; r++) {
        memset(count, 0, (size_t)n * sizeof *count);
        for (int i = 0; i < n; i++)
            count[rank[rng(st) % (uint64_t)n]]++;
        double va = 0, vb = 0;
        int seen = 0, k = 0;
        for (; k < n && seen <= a; k++)
            seen += count[k];
        va = xs[k - 1];
        for (k--; seen <= b;)
            seen += count[++k];
        vb = xs[k];
        out[r] = n % 2 ? vb : 0.5 * (va + vb);
    }
    free(xs);
    free(rank);
    free(count);
    return 0;
}

static void pct(double *v, int n, double *lo, double *hi)
{
    *lo = select_kth(v, n, (int)floor(0.025 * (n - 1)));
    *hi = select_kth(v, n, (int)ceil(0.975 * (n - 1)));
}

void dh_stats_of(const double *x, int n, struct dh_stats *s)
{
    dh_stats_center(x, n, s);
    if (n <= 0)
        return;
    if (s->min == s->max) {                  /* every resample's median is it */
        s->ci_lo = s->ci_hi = s->median;
        return;
    }
    double *bm = malloc(DH_BOOT * sizeof *bm);
    uint64_t st = 0x243f6a8885a308d3ULL ^ (uint64_t)n;
    if (bm && n > 1 && !boot_medians(x, n, &st, bm)) {
        pct(bm, DH_BOOT, &s->ci_lo, &s->ci_hi);
    } else {
        s->ci_lo = s->ci_hi = s->median;
    }
    free(bm);
}

void dh_stats_center(const double *x, int n, struct dh_stats *s)
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
    s->ci_lo = s->ci_hi = NAN;               /* dh_stats_of adds them */
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

double dh_ci_share(const double *x, int n)
{
    if (n < 2)
        return INFINITY;
    struct dh_stats s;
    dh_stats_of(x, n, &s);
    if (!(s.median > 0))
        return INFINITY;
    double lo = s.median - s.ci_lo, hi = s.ci_hi - s.median;
    return (lo > hi ? lo : hi) / s.median;
}
