/* plan.h — from a `harness run` selection to the list of cases.
 *
 * For each benchmark x variant x default workload point (the benchmark's
 * sweep, overridden by --param) x choice combination x device: one case.
 * A choice the user did not set expands over its domain, quietly dropping
 * combinations that break a constraint (alg=hot with 4 paths); a value the
 * user did set that breaks one is a usage error naming the constraint.
 */
#ifndef DH_PLAN_H
#define DH_PLAN_H

#include "../../results/record.h"
#include "runner.h"

struct dh_selection {
    const char *suite;
    const char *benches;        /* comma list or NULL = all of the suite */
    const struct dh_bench *bench; /* set: this benchmark only (a descriptor's) */
    const char *variants;       /* comma list, "all" or NULL = all */
    const char *backends;       /* comma list, "all" or NULL = default */
    int device;                 /* -1 = first of each backend */
    const char *size;
    int reps, warmup;           /* reps DH_REPS_AUTO: reps_target, reps_max */
    double reps_target;
    int reps_max;
    double timeout_s;
    int profile;                /* -1 = where the backend has counters */
    int model;                  /* 1 = BBV model pass (default) */
    int instrumented;           /* 1 = time the profiling build */
    int remap_overhead;         /* 1 = gpu_tdr cases also time the remap overhead
                                   (harness/run/remap.c; `run`'s default) */
    int n_params;
    const char *params[64];     /* "k=v" */
};

/* Build the runs (each r.status = -1 "pending", or a recorded refusal).
 * On a usage error returns -DH_E_USAGE with a message naming the fix. */
int dh_plan(const struct dh_selection *sel, const struct dh_devlist *devs,
            struct dh_run **runs, int *n_runs, struct dh_err *err);

/* Generic constraints of tunables (tuning/space.c). */
int dh_space_check(const struct dh_case *c, const struct dh_device_info *dev,
                   char *why, size_t why_len);

#endif
