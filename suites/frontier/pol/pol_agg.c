/* frontier/pol — the aggregation the study reports: per filing status
 * and income decile, units, sums of both taxes and of the change, winners
 * and losers (pol_ref.h). Verification compares it with the reference's. */
#include <stdlib.h>
#include <string.h>

#include "pol_ref.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Deciles of gross income from an evenly spaced sample of the units. */
int pl_deciles(const struct pl_input *in, uint8_t *decile)
{
    long n = in->n, m = n < 65536 ? n : 65536;
    int64_t *g = malloc((size_t)m * sizeof *g), cut[PL_DECILES - 1];
    if (!g)
        return -1;
    for (long k = 0; k < m; k++)
        g[k] = pl_gross_income(in, k * (n / m));
    qsort(g, (size_t)m, sizeof *g, cmp_i64);
    for (int j = 1; j < PL_DECILES; j++)
        cut[j - 1] = g[m * j / PL_DECILES];
    free(g);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        int64_t v = pl_gross_income(in, i);
        int d = 0;
        while (d < PL_DECILES - 1 && v >= cut[d])
            d++;
        decile[i] = (uint8_t)d;
    }
    return 0;
}

void pl_aggregate(const struct pl_input *in, const uint8_t *decile, const int64_t *tb,
                  const int64_t *tr, const int64_t *td, struct pl_agg *agg)
{
    memset(agg, 0, PL_CELLS * sizeof *agg);
    for (long i = 0; i < in->n; i++) {
        struct pl_agg *a = &agg[(in->col[PL_DEMO * in->n + i] & 3) * PL_DECILES + decile[i]];
        a->units++;
        a->base += tb[i];
        a->reform += tr[i];
        a->change += td[i];
        a->winners += td[i] < 0;
        a->losers += td[i] > 0;
    }
}
