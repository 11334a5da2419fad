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
/* The wider side of the 95% interval of the median, as a share of the
 * median (0.01: within +-1%); +inf for fewer than 2 samples or a median
 * of 0. --reps auto stops on it, host work's repetitions too. */
double dh_ci_share(const double *x, int n);
/* Interval of median(a)/median(b); returns the point estimate. */
double dh_ratio_ci(const double *a, int na, const double *b, int nb,
                   double *lo, double *hi);

#endif
