/* shard.h — splitting a plan over N processes (`harness run --shard I/N`).
 *
 * Every shard plans the same cases (dh_plan) and keeps its own part. The
 * cases of one workload (benchmark, backend, device, size and workload
 * parameters: dh_same_workload) stay together, so a shard generates and
 * profiles each input once. Workloads go to shards by a cost estimate —
 * the sum of their cases' costs: each case's wall time in an earlier
 * results file (`--shard-costs`, its case_ms), the mean of the known ones
 * for a case it lacks; without one, every case costs 1 (a case count is
 * what the plan knows without running anything) — largest first, each to
 * the shard with the least cost so far (the lowest index on a tie):
 * deterministic, so N processes given the same costs together run exactly
 * the plan, each case once.
 */
#ifndef DH_SHARD_H
#define DH_SHARD_H

#include "../../results/plan.h"
#include "../../results/record.h"

/* Parse "I/N" (1 <= I <= N <= DH_MAX_SHARDS): 0, or -1 with why. */
int dh_shard_parse(const char *text, int *index, int *count, char *why, size_t why_len);

/* The shard (1..count) of each of the n planned runs into shard_of[n];
 * cost[n] each case's estimate (NULL: 1 each). 0, or -DH_E_RESOURCES. */
int dh_shard_assign(const struct dh_run *runs, int n, int count, const double *cost,
                    int *shard_of);

/* Each planned run's cost from an earlier results file's runs prev (the
 * run of the same case key: its case_ms), the mean of those found for
 * the rest (1 when none is): into cost[n]; *known = how many were found. */
void dh_shard_costs(const struct dh_run *runs, int n, const struct dh_run *prev, int n_prev,
                    double *cost, int *known);

/* The plan record of shard index/count of runs (the whole plan; hash,
 * every case with its shard), malloc'd: free with dh_plan_rec_free.
 * NULL when out of memory. */
struct dh_plan_rec *dh_shard_plan(const struct dh_run *runs, int n, int index, int count,
                                  const double *cost);

/* Keep in runs[0..*n) the cases of shard index (plan order kept). */
void dh_shard_keep(struct dh_run *runs, int *n, const struct dh_plan_rec *plan);

#endif
