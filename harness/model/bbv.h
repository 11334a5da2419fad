/* bbv.h — the basic-block-vector performance model
 * (papers/bbv-regrouping-tcad2016.txt, section IV).
 *
 * Inputs: per-item BBVs from a profiling run (dialect.h DH_BB), the
 * benchmark's block table (operations per block, blocks.h dh_bb_def) and a
 * latency table for the device class, which prices each operation class
 * in cycles (the paper's instruction latencies) and in issued instructions
 * (what CFE counts). From those:
 *
 *   warp cost      T_w  = sum_b cost[b] x max_{t in w} BBV_t[b]     (2, 3)
 *   BBV-weighted   T    = sum over work-groups of sum_w T_w / #CU    (4, 5)
 *   BBV-weighted-scheduled: the work-groups, in launch order, go to the
 *                  first free of #CU x occupancy slots (dynamic
 *                  round-robin); T = the last one's finish time
 *   scheduled with latency floor (dh_bbv_shape): the same placement,
 *                  slot k on compute unit k % #CU; a compute unit's n-th
 *                  warp on its scheduler n % #schedulers; a scheduler's
 *                  time max(sum of its warps' issue cycles, its longest
 *                  warp's dependent-latency chain), a launch's the
 *                  busiest scheduler's, T the launches' sum
 *   modeled CFE    sum_t sum_b inst[b] BBV_t[b]
 *                  / (W x sum_w sum_b inst[b] max_{t in w} BBV_t[b])
 *   divergent-warp ratio  share of warps whose items' BBVs differ
 *
 * Ordered BBVs (blocks.h win_counts, DH_BBV_WINDOW=K): the max over lanes
 * is taken per window of K iterations and the windows summed, in the warp
 * cost and the modeled CFE's issued instructions; the lanes' useful
 * instructions and the divergent-warp ratio come from the totals.
 *
 * Blocks decided each iteration (blocks.h dh_bb_def.each: a side of an
 * if-else in a loop's body, whose lanes choose afresh every iteration):
 * the warp runs the side in every iteration in which any lane takes it,
 * and a lane's totals (L_t iterations, b_t takes) do not say which
 * iterations those were. The max over lanes assumes the lanes' takes
 * fall in the same iterations; the model counts instead the iterations
 * expected when each lane takes the side in each of its iterations with
 * probability p_t = b_t / L_t, independently of the other lanes, the
 * lanes' iterations aligned from the first (per window with ordered
 * BBVs):  E = sum_j (1 - prod_{t : L_t > j} (1 - p_t)).  E is never below
 * the max (equal where every lane takes the side in all of its
 * iterations or in none), and at most the loop's own count.
 *
 * Any item order (a regrouping) is priced from the same BBVs, so the
 * modeled speedup of a regrouping is T(identity) / T(order).
 */
#ifndef DH_BBV_H
#define DH_BBV_H

#include <stdint.h>

#include "../../backends/backend.h"
#include "blocks.h"

#define DH_OPC_N 11
#define DH_OPC_FDIVZ 10                             /* dh_opc_names' fdivz */
extern const char *const dh_opc_names[DH_OPC_N];   /* fp alu mul ... br fdivz */

/* One device class: cycles and issued instructions per operation, and
 * what bounds how many work-groups a compute unit runs at once. */
struct dh_latency_table {
    char name[32];
    char origin[160];          /* where the numbers come from */
    double cycles[DH_OPC_N];
    double issue[DH_OPC_N];
    int max_threads_per_cu;    /* 0: one work-group per compute unit */
    int max_groups_per_cu;
    int schedulers_per_cu;     /* warp schedulers (sub-partitions) a compute unit */
};

/* The table for a device: DH_LATENCY_TABLE=NAME (a built-in table:
 * nvidia-sm90, generic) or =FILE overrides; else the
 * built-in class matching the device (NVIDIA sm_90, or "generic"). A bad
 * file is an error naming the line. */
int dh_latency_table_for(const struct dh_device_info *dev, struct dh_latency_table *t,
                         struct dh_err *err);
/* Parse a table file: lines "class cycles issue" (class one of
 * dh_opc_names), "threads_per_cu N", "groups_per_cu N",
 * "schedulers_per_cu N", '#' comments. */
int dh_latency_table_load(const char *path, struct dh_latency_table *t, struct dh_err *err);

/* Per block: modeled cycles and issued instructions of one execution. */
void dh_bbv_block_costs(const struct dh_bb_def *blocks, int n, const struct dh_latency_table *t,
                        double *cycles, double *inst);
/* The hand costs' guarded conditionals (dh_bb_def.guarded_in): parent[b]
 * the id of the block b's code is guarded inside, -1 for a block of its
 * own branch. Returns how many blocks are guarded (0: the table declares
 * none), or DH_E_DATA when a name is no block of the table, or names the
 * block itself (err says which and how to fix the table). */
int dh_bbv_guard_parents(const struct dh_bb_def *blocks, int n, int *parent, struct dh_err *err);

/* Blocks decided each iteration (dh_bb_def.each): each[b] the id of the
 * block counting b's loop iterations, -1 where b declares none. Returns
 * how many declare one, or DH_E_DATA when a name is no block of the
 * table, or names the block itself (err says which and the fix). */
int dh_bbv_each_loops(const struct dh_bb_def *blocks, int n, int *each, struct dh_err *err);

/* One lane's iterations of a loop and its takes of a side decided each
 * iteration. */
struct dh_lane_runs {
    uint32_t iters, takes;
};
/* E above for lanes l[0..n) (reordered: sorted by iters). A lane taking
 * the side more often than it iterates counts as taking it in every
 * iteration of at least that many. */
double dh_bbv_each_runs(struct dh_lane_runs *l, int n);

struct dh_bbv_metrics {
    double cfe;                /* at warp width w */
    double dwr;                /* divergent-warp ratio */
    double t_weighted;         /* cycles, BBV-weighted */
    double t_sched;            /* cycles, BBV-weighted-scheduled */
    double t_floor;            /* cycles, scheduled with latency floor (NAN: not asked) */
    long warps;
};

/* What the scheduled-floor metric needs beyond dh_bbv_metrics' figures:
 * per block, the issue cycles of one execution (what it holds its
 * scheduler: the sum term) and its dependent latency (the cycles one
 * execution takes with one instruction in flight: the floor term), how
 * many schedulers share a compute unit, and the launches. */
struct dh_bbv_shape {
    int w, wg, cus, slots;     /* as dh_bbv_metrics */
    int schedulers;            /* a compute unit's warp schedulers (< 1: 1) */
    long launch_items;         /* items a launch, launches in order (<= 0: one launch) */
    const double *issue;       /* per block; NULL: t_floor NAN */
    const double *lat;         /* per block; NULL: t_floor NAN */
};

/* Price the items in `order` (slot j runs item order[j]; NULL = identity)
 * with warps of `w` items, work-groups of `wg`, on `cus` compute units
 * with `slots` work-groups each at once. */
void dh_bbv_metrics(const struct dh_bbv *b, const double *cycles, const double *inst,
                    const int *order, int w, int wg, int cus, int slots,
                    struct dh_bbv_metrics *m);

/* dh_bbv_metrics with the shape of the launch, and t_floor. */
void dh_bbv_metrics_shape(const struct dh_bbv *b, const double *cycles, const double *inst,
                          const int *order, const struct dh_bbv_shape *s,
                          struct dh_bbv_metrics *m);

/* Where the divergence is, per block, over the warps of `w` items in
 * `order` (NULL = identity): `issued`, the lanes a warp issued the block
 * for (w x its executions, the most of any lane's, or the expected
 * count of a block decided each iteration; with ordered BBVs per window,
 * summed, as dh_bbv_metrics prices it); `used`, the lanes that ran it
 * (the counters' sum); `pred_extra`, the issues of its if-converted part
 * beyond its own executions (its parent's executions more, bbv.h's
 * pred_inst: w lanes each, none of them the block's work). So sum_b
 * inst[b] x used[b] over sum_b (inst[b] x issued[b] + pred_inst[b] x w x
 * pred_extra[b]) is dh_bbv_metrics' CFE. The sums are taken over fixed
 * chunks of warps in order: they do not depend on the threads. 0, or -1
 * out of memory. */
struct dh_bbv_block_use {
    double issued;
    uint64_t used;
    double pred_extra;
};
int dh_bbv_block_use(const struct dh_bbv *b, const int *order, int w,
                     struct dh_bbv_block_use *u);

/* Work-groups of `wg` items one compute unit runs at once under table t. */
int dh_bbv_slots(const struct dh_latency_table *t, int wg);

/* Ordered BBVs: windows of k iterations for an outer loop of `steps`
 * (ceil(steps / k); k <= 0 or steps <= 1: one window, the totals) and
 * the counter buffer's *bytes (items x windows x blocks x 4). Over
 * `limit` bytes: an error naming the figures and the fix, *windows 1. */
int dh_bbv_window_plan(long items, int n_blocks, long steps, long k, uint64_t limit,
                       int *windows, uint64_t *bytes, struct dh_err *err);
/* Each item's windows summed (saturating) into its totals. */
void dh_bbv_window_sum(const uint32_t *win, long items, int windows, int n_blocks,
                       uint32_t *totals);

/* The first saturated counter (an overflow), or -1: *item, *block set. */
long dh_bbv_overflow(const struct dh_bbv *b, int *block);

#endif
