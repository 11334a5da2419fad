/* regroup.h — host thread regrouping by basic-block vectors, for cpu_tdr
 * (papers/bbv-regrouping-tcad2016.txt, section V).
 *
 * Items with identical BBVs behave identically, so every algorithm works
 * on the distinct BBVs ("classes") and their multiplicities, never on
 * item pairs: a frontier workload of a million items has a few hundred
 * classes.
 *
 *   sort       lexicographic order of the BBVs, then `group` consecutive
 *              items per group
 *   greedy     Algorithm 1: identical items merge first (gain without
 *              cost), then the pair of groups with the largest
 *              gain = benefit - cost (eq. 8-10, block costs as weights)
 *              merges; a merged group of `group` items or more emits its
 *              first `group` items as a finished group
 *   greedymax  Algorithm 2: groups are formed one at a time, each seeded
 *              with the costliest remaining item (eq. 11), filled with
 *              items identical to a member, else the item of largest gain;
 *              groups come out in descending latency (load balance under
 *              the dynamic round-robin block scheduler)
 *
 * The result is a permutation: perm[j] = the item placed at slot j; a
 * benchmark applies it by moving data (mech=dlt) or passing it as an
 * index array (mech=rr).
 */
#ifndef DH_REGROUP_H
#define DH_REGROUP_H

#include "../suite.h"

enum dh_regroup_alg { DH_RG_SORT = 1, DH_RG_GREEDY, DH_RG_GREEDYMAX };

/* "sort" | "greedy" | "greedymax" -> the algorithm; 0 for anything else
 * (a benchmark's own regroupings such as "key"). */
int dh_regroup_parse(const char *name);

/* Order the items of `b` by `alg` in groups of `group` items (> 0).
 * 0, or -DH_E_RESOURCES / -DH_E_USAGE with err filled. */
int dh_regroup_bbv(const struct dh_bbv *b, enum dh_regroup_alg alg, int group, int *perm,
                   struct dh_err *err);

/* Above this many distinct BBVs (default 2048) greedy and greedymax search
 * neighbourhoods instead of all pairs; n >= 0 sets it, the old value is
 * returned (tests compare the two forms). */
long dh_regroup_exact_limit(long n);

/* Threads for cpu_tdr's host work over n items (regroupings, the key sort,
 * dlt's moves): the OpenMP width (OMP_NUM_THREADS; the host's cores by
 * default), fewer below 32K items a thread, where starting them costs
 * more than they save. No result depends on it. */
int dh_regroup_threads(long n);

/* Deal a regrouped order's warps over the work-groups in turn: the sorted
 * warps s_0, s_1, ... are placed so that work-group g holds s_g, s_{G+g},
 * s_{2G+g}, ... (G work-groups of wg items, warps of `warp` items). A
 * regrouping sorted by cost puts the costliest warps together in the first
 * work-groups; where the launch is one wave (every work-group resident at
 * once), those few work-groups' SMs run long after the others are done,
 * and dealt, every SM holds a share of the costly warps. Each warp keeps
 * its items, so CFE does not change. perm is rewritten in place; nothing
 * happens (0) where n is not a whole number of work-groups, wg not of
 * warps, or there is one work-group. 0, or -DH_E_RESOURCES. */
int dh_regroup_deal(int *perm, long n, int warp, int wg);

/* An order's whole warps (perm[j]: the item at slot j; warps of `warp`
 * slots) stably reordered by descending modeled cost, the sum over blocks
 * of block_cost x the max count over the warp's items (b's BBVs); a
 * partial last warp stays last. Each warp keeps its items, so CFE does not
 * change. deal=2 deals this order: the costliest work-groups are then
 * the first launched, which an SM favours over its younger groups (on the
 * H100 an SM's groups finish in launch order), where a shortest-first
 * order (a lexicographic sort of trip counts) leaves them to run last
 * and starved. 0, or -DH_E_RESOURCES. */
int dh_regroup_heavy_first(int *perm, long n, int warp, const struct dh_bbv *b);

/* Distinct BBVs among the items (-1 when out of memory). */
long dh_regroup_classes(const struct dh_bbv *b);

/* A benchmark's check(): `group` must be a multiple of the warp width
 * (groups would share warps). 0 or -DH_E_CONSTRAINT with why. */
int dh_regroup_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                     size_t why_len);

/* cpu_tdr's regrouping step, by the case's `regroup` choice: a BBV
 * regrouping (dh_regroup_exec), anything else the benchmark's own
 * by_key(ctx), which fills perm (n items); then, where the case has
 * deal=1, dh_regroup_deal by the device's warp width and the case's wg.
 * Sets x->order = perm; *host_ms = its host cost, obtaining the BBVs
 * included. The caller adds its data movement. */
int dh_regroup_run(struct dh_exec *x, int *perm, long n, void (*by_key)(void *ctx), void *ctx,
                   double *host_ms, struct dh_err *err);

/* For a benchmark's cpu_tdr run: regroup by the case's `regroup` choice
 * with the case's `group` tunable, from the BBVs the worker handed over
 * (x->bbv). *host_ms gets what it cost on the host, including obtaining
 * the BBVs (x->bbv->acquire_ms: every new input needs its profiling run).
 * Sets x->order = perm. Fails clearly when the worker has no BBVs. */
int dh_regroup_exec(struct dh_exec *x, int *perm, double *host_ms, struct dh_err *err);

#endif
