/* shard.h — splitting a plan over N processes (`harness run --shard I/N`).
 *
 * Every shard plans the same cases (dh_plan) and keeps its own part. The
 * cases of one workload (benchmark, backend, device, size and workload
 * parameters: dh_same_workload) stay together, so a shard generates and
 * profiles each input once. Workloads go to shards by a cost estimate —
 * the number of cases of the workload (a workload's variants share its
 * input; a case count is what the plan knows without running anything) —
 * largest first, each to the shard with the least cost so far (the lowest
 * index on a tie): deterministic, so N processes together run exactly the
 * plan, each case once.
 */
#ifndef DH_SHARD_H
#define DH_SHARD_H

#include "../../results/plan.h"
#include "../../results/record.h"

/* Parse "I/N" (1 <= I <= N <= DH_MAX_SHARDS): 0, or -1 with why. */
int dh_shard_parse(const char *text, int *index, int *count, char *why, size_t why_len);

/* The shard (1..count) of each of the n planned runs into shard_of[n].
 * 0, or -DH_E_RESOURCES. */
int dh_shard_assign(const struct dh_run *runs, int n, int count, int *shard_of);

/* The plan record of shard index/count of runs (the whole plan; hash,
 * every case with its shard), malloc'd: free with dh_plan_rec_free.
 * NULL when out of memory. */
struct dh_plan_rec *dh_shard_plan(const struct dh_run *runs, int n, int index, int count);

/* Keep in runs[0..*n) the cases of shard index (plan order kept). */
void dh_shard_keep(struct dh_run *runs, int *n, const struct dh_plan_rec *plan);

#endif
