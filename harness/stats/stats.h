/* stats.h — robust summaries of timing samples.
 * Median, MAD (scaled by 1.4826 to estimate a normal sigma) and
 * percentile-bootstrap 95% intervals (seeded: same samples, same interval). */
#ifndef DH_STATS_H
#define DH_STATS_H

#include "../../results/record.h"   /* struct dh_stats */

double dh_median(const double *x, int n);          /* n >= 1; x untouched */
void dh_stats_of(const double *x, int n, struct dh_stats *s);
/* The same without the bootstrap interval (ci_lo, ci_hi NaN): median, MAD,
 * min, max, mean only, for judges that need no interval. */
void dh_stats_center(const double *x, int n, struct dh_stats *s);
/* Interval of median(a)/median(b); returns the point estimate. */
double dh_ratio_ci(const double *a, int na, const double *b, int nb,
                   double *lo, double *hi);

#endif
