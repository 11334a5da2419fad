/* ceiling.c — warp-path costs in given and in sorted order (ceiling.h). */
#include "ceiling.h"

#include <stdlib.h>
#include <string.h>

void dh_ceiling_layer(const int *keys, long n, int wg, int warp, int nkeys,
                      double *cost_orig, double *cost_sorted)
{
    dh_ceiling_layer_w(keys, n, wg, warp, nkeys, NULL, cost_orig, cost_sorted);
}

void dh_ceiling_layer_w(const int *keys, long n, int wg, int warp, int nkeys,
                        const double *cost, double *cost_orig, double *cost_sorted)
{
    if (warp > wg)
        warp = wg;
    long *cnt = calloc((size_t)nkeys + 1, sizeof *cnt);
    unsigned char *seen = calloc((size_t)nkeys + 1, 1);
    if (!cnt || !seen) {
        free(cnt);
        free(seen);
        return;
    }
    double co = 0, cs = 0;
    for (long g = 0; g + wg <= n; g += wg) {
        memset(cnt, 0, ((size_t)nkeys + 1) * sizeof *cnt);
        for (long w = g; w < g + wg; w += warp) {
            memset(seen, 0, (size_t)nkeys + 1);
            long end = w + warp < g + wg ? w + warp : g + wg;
            for (long i = w; i < end; i++) {
                int k = keys[i];
                if (k < 0 || k >= nkeys)
                    continue;
                cnt[k]++;
                if (!seen[k]) {
                    seen[k] = 1;
                    co += cost ? cost[k] : 1.0;
                }
            }
        }
        /* sorted: key k occupies [start, start + cnt[k]) of the group;
         * items skipping the layer go last */
        long start = 0;
        for (int k = 0; k < nkeys; k++) {
            if (!cnt[k])
                continue;
            long s = start, e = start + cnt[k];
            long first = s / warp, last = (e - 1) / warp;
            cs += (double)(last - first + 1) * (cost ? cost[k] : 1.0);
            start = e;
        }
    }
    *cost_orig += co;
    *cost_sorted += cs;
    free(cnt);
    free(seen);
}
