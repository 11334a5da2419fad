/* derive.h — what the harness derives from a set of runs: statistics of
 * every run's samples, speedups against the matching baseline (kernel and
 * end to end, with bootstrap intervals), shares of the potential and of
 * the remap ceiling, and the model's errors against the measurement.
 *
 * harness/stats/ owns statistics, the derived figures, regression checks
 * (compare, JUnit), baselines and loading results files with their derived
 * figures. It may call suites/ (to link runs to benchmarks), the model,
 * results/, support and backends/; never the run engine, the report or
 * the commands. */
#ifndef DH_DERIVE_H
#define DH_DERIVE_H

#include "../../results/record.h"

/* Statistics, speedups against the matching baseline, shares. */
void dh_run_derive(struct dh_run *runs, int n);
/* intervals 0: no bootstrap intervals (ci_lo/hi, sp_*_lo/hi are NaN) */
void dh_run_derive_ex(struct dh_run *runs, int n, int intervals);

#endif
