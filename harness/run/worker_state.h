/* worker_state.h — what a worker keeps between the cases it runs: the
 * open device, the host data of the last workload and that workload's
 * BBVs. worker.c owns its life; the steps (steps.h) read and fill it. */
#ifndef DH_WORKER_STATE_H
#define DH_WORKER_STATE_H

#include "../../results/record.h"
#include "../../suites/suite.h"
#include "wcache.h"

struct dh_worker {
    const struct dh_backend_ops *be;
    struct dh_device *dev;
    struct dh_device_info info;
    const char *dump_dir;          /* --dump-source, may be NULL */
    struct dh_wcache *wcache;      /* the workload cache; NULL: none (--no-cache) */
    /* host data of the last workload */
    const struct dh_bench *bench;
    void *state;
    char state_id[800];
    struct dh_store_key wkey;      /* its workload cache key, when wkey_ok */
    int wkey_ok;
    /* BBVs of that workload (kept with it; a failure is kept too, so
     * the variants of one workload do not repeat a failing profile) */
    struct dh_bbv bbv;
    uint32_t *bbv_counts;
    uint32_t *bbv_wcounts;         /* ordered BBVs (DH_BBV_WINDOW): items x bbv_nwin x
                                      blocks, bbv_counts their sums; else NULL */
    int bbv_nwin;                  /* windows of the profiling build (0, 1: none) */
    long bbv_window;               /* K, iterations per window (0: windows off) */
    double *bbv_cost;
    double *bbv_sass;              /* DH_BLOCK_COSTS=sass: cycles[nb], inst[nb], then
                                      the guarded part of each (sass+pred) */
    int *bbv_parent;               /* sass+pred: each block's parent, else NULL */
    double *bbv_hguard;            /* hand costs of a table with guarded blocks
                                      (dh_bb_def.guarded_in): inst[nb], cycles[nb]
                                      of each such block (0 elsewhere); else NULL */
    int *bbv_hparent;              /* with bbv_hguard: the block each is guarded in */
    int *bbv_each;                 /* blocks decided each iteration (dh_bb_def.each):
                                      each one's loop block, -1 elsewhere; NULL: the
                                      table declares none */
    int bbv_sass_tried;
    double *bbv_meas;              /* DH_BLOCK_COSTS=measured, once the baseline's pass
                                      is in: cycles, inst, useful [nb] each
                                      (measured_costs.c) */
    int bbv_meas_tried;
    char bbv_costs[16];            /* "sass", "sass+hand" (some blocks by hand) */
    int bbv_tried, bbv_status;
    long bbv_classes;              /* distinct BBVs, 0 = not counted yet */
    char bbv_message[1024];
    /* the remap overhead's "baseline on sorted" of this workload (remap.c):
     * cpu_tdr's kernel on the regrouped input does not depend on the
     * gpu_tdr form, so the forms of one workload at the same tunables and
     * repetitions share one measurement; dropped with the workload */
    char remap_key[1400];
    double *remap_base_ms;
    int remap_base_n;
};

#endif
