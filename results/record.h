/* result.h — what one case's run produced, and the run record the
 * harness keeps, writes to XML and reads back.
 *
 * struct dh_result is flat (no pointers): a worker process sends it to
 * the harness through a pipe as it is.
 */
#ifndef DH_RESULT_H
#define DH_RESULT_H

#include "../backends/backend.h"
#include "../suites/suite.h"
#include "case.h"
#include "../harness/stats/stats.h"

#define DH_MAX_SAMPLES 256

/* The BBV model's view of one run (harness/bbv.h): the case's own item
 * order ("own": the regrouping of a cpu_tdr run, else the launch order)
 * and the launch order ("base"), both from the workload's BBVs. */
struct dh_model_point {
    double cfe;             /* at the device's warp width */
    double dwr;             /* divergent-warp ratio */
    double t_weighted;      /* cycles, BBV-weighted */
    double t_sched;         /* cycles, BBV-weighted-scheduled */
};
struct dh_model_result {
    int valid;
    char table[32];         /* latency table */
    char bbv_source[16];    /* "profile" */
    int n_blocks;
    long n_items, n_classes;    /* items, distinct BBVs */
    double acquire_ms;      /* the profiling run + download */
    int warp_width, wg, cus, slots;
    double cfe32, cfe64;    /* own order, warps of 32 and 64 */
    struct dh_model_point own, base;
};

struct dh_result {
    int status;                   /* dh_code, 0 = verified and timed */
    char message[1024];           /* one line, when status != 0 */
    char options[4096];           /* the exact build options */
    char build_log[8192];         /* compiler log on a failed build */
    int build_cached;
    double build_ms, setup_ms;
    int rotate;
    int n;                        /* timed samples */
    double kernel_ms[DH_MAX_SAMPLES];
    double host_ms[DH_MAX_SAMPLES];
    double xfer_ms[DH_MAX_SAMPLES];
    int verified;                 /* 1 = compared with the CPU reference */
    struct dh_verify verify;
    double ceiling;               /* remap ceiling, 0 = not applicable */
    int warp_width;
    int has_counters;
    struct dh_counters ctr;
    struct dh_model_result model;
};

/* How a run's tunables were chosen (tuning/tune.c). */
#define DH_TUNE_MAX_EVALS 128
struct dh_tuning {
    char strategy[16];          /* "" = defaults, "journal", "exhaustive", ... */
    int space, space_total;     /* pruned size, size before pruning */
    int n_eval;                 /* evaluations recorded below */
    struct {
        char tunables[96];
        int status;
        double ms;
        int from_journal;       /* reused, not measured again */
        double wall_ms;         /* the evaluation's wall time in the harness */
        double overhead_ms;     /* wall time minus the kernel runs' own time */
    } eval[DH_TUNE_MAX_EVALS];
    int best;                   /* index into eval, -1 none */
    double default_ms;          /* the default configuration's metric, 0 unknown */
    double flat_share;          /* share of evaluated configs within 5% of best */
    int evals_to_95;            /* evaluations until one within 5% of the best */
};

/* A run: the case, its result and what the harness derived from both. */
struct dh_run {
    struct dh_case c;
    struct dh_result r;
    struct dh_stats kernel, host, e2e;
    int has_speedup;
    char baseline_key[17];
    double sp_kernel, sp_kernel_lo, sp_kernel_hi;
    double sp_e2e, sp_e2e_lo, sp_e2e_hi;
    double cfe;                   /* NAN when unknown */
    char cfe_source[16];          /* "counters" | "model" | "" */
    double inv_cfe_baseline;      /* 1/CFE of the matching baseline */
    double potential_share;       /* (speedup-1)/(1/CFE-1) */
    double ceiling_share;         /* (speedup-1)/(ceiling-1) */
    /* the model against the measurement (NAN where either is missing):
     * modeled speedups T(launch order)/T(own order); the divergent-warp
     * ratio's predicted improvement 1 - dwr/base_dwr; errors: CFE in
     * points (modeled - measured), speedups as |improvement predicted -
     * improvement measured| in points of percent, improvement = 1 - 1/speedup
     * (the paper's Table V) */
    double model_sp_weighted, model_sp_sched, model_dwr_improvement;
    double model_cfe_error;
    double model_err_weighted, model_err_sched, model_err_dwr;
    struct dh_tuning tune;
};

/* Statistics, speedups against the matching baseline, shares. */
void dh_run_derive(struct dh_run *runs, int n);
/* Print the model next to the measurement (runs with a model only). */
void dh_model_summary(const struct dh_run *runs, int n);
/* 1 when a's identity equals b's except for the variant and its choices. */
int dh_same_workload(const struct dh_case *a, const struct dh_case *b);

#endif
