/* record.h — the run record: what one case's run produced (dh_result),
 * the summaries and verdicts derived from it (dh_run), how its tunables
 * were chosen (dh_tuning) and the devices a run used (dh_devlist). The
 * harness keeps it, writes it to XML and reads it back.
 *
 * results/ owns these types and the XML format. It may call
 * harness/support/ and backends/, nothing else of the project: the
 * statistics, the model and the run engine fill the record from above.
 *
 * Compact: the samples, the build options and log, and the tuning
 * evaluations are held in heap blocks sized to what they hold (a results
 * file of thousands of runs stays small in memory). A run owns its blocks:
 * dh_run_release frees them; a copy of a run (struct assignment) is a view
 * that is valid while the original lives, and dh_run_move hands them over.
 * A worker process sends a result through a pipe as the struct followed by
 * its blocks (harness/run/runner.c).
 */
#ifndef DH_RECORD_H
#define DH_RECORD_H

#include "../backends/backend.h"
#include "../harness/support/verify.h"
#include "case.h"

#define DH_MAX_SAMPLES 256        /* timed repetitions of a run, at most */
#define DH_OPTIONS_MAX 4096       /* a build's options, with the NUL */
#define DH_BUILD_LOG_MAX 8192     /* a failed build's log kept, with the NUL */

/* A robust summary of timing samples (harness/stats/stats.h computes it). */
struct dh_stats {
    int n;
    double median, mad, min, max, mean;
    double ci_lo, ci_hi;      /* 95% bootstrap interval of the median */
};

/* The devices of a run: every registered backend's answer to a probe. */
#define DH_MAX_DEVICES 32
struct dh_devlist {
    int n;
    struct {
        char backend[16];
        int index;
        struct dh_device_info info;
    } d[DH_MAX_DEVICES];
    int n_backends;
    struct {
        char name[16];
        int n_devices;
        char why[256];          /* when n_devices == 0 */
    } b[8];
};

/* The BBV model's view of one run (harness/model/bbv.h): the case's own item
 * order ("own": the regrouping of a cpu_tdr run, else the launch order)
 * and the launch order ("base"), both from the workload's BBVs. */
struct dh_model_point {
    double cfe;             /* at the device's warp width */
    double dwr;             /* divergent-warp ratio */
    double t_weighted;      /* cycles, BBV-weighted */
    double t_sched;         /* cycles, BBV-weighted-scheduled */
    double t_floor;         /* cycles, scheduled with each warp's latency floor
                               (harness/model/bbv.h); NAN in older files */
};
/* Where the divergence is: one block's lane-cycles that divergence
 * wastes (issued for lanes that did not run it, and its if-converted
 * part issued beyond its own executions; the model's block costs), their
 * share of all the run's wasted lane-cycles, and the block's lane
 * efficiency (lanes that ran it over lanes it was issued for). */
#define DH_MODEL_WASTE 12
struct dh_model_waste {
    char block[40];
    double lane_cycles, share, eff;
};

struct dh_model_result {
    int valid;
    char table[32];         /* latency table */
    char costs[16];         /* block costs: "hand" (the C files' tables), "sass"
                               (compiled code), "sass+hand"; "" in older files */
    char bbv_source[16];    /* "profile" */
    int n_blocks;
    long n_items, n_classes;    /* items, distinct BBVs */
    double acquire_ms;      /* the profiling run + download */
    int window, windows;    /* ordered BBVs (DH_BBV_WINDOW): iterations per window and
                               windows per item; 0 and 1 (no attributes): the totals */
    int warp_width, wg, cus, slots;
    int schedulers;         /* warp schedulers a compute unit (the floor metric) */
    long launch_items;      /* items a launch; 0: one launch */
    double cfe32, cfe64;    /* own order, warps of 32 and 64 */
    struct dh_model_point own, base;
    /* the run's own order: lane-cycles wasted and issued in all, and the
     * blocks that waste most, most first (n_waste of them; 0: none or an
     * older file) */
    double waste_total, issued_total;
    int n_waste;
    struct dh_model_waste waste[DH_MODEL_WASTE];
};

/* The remap overhead of a gpu_tdr run (harness/run/remap.c): the gpu_tdr
 * kernel and the baseline kernel timed on the input already in path order
 * (cpu_tdr's regroup=key applied by `mech`, as cpu_tdr applies it), with the
 * case's repetitions and warm-up, each verified against the CPU reference.
 * ratio = median(gpu_tdr on sorted) / median(baseline on sorted): what the
 * remap costs where there is nothing to gain (> 1: that much slower). */
enum dh_remap_state {
    DH_REMAP_NONE = 0,      /* not asked: another variant, --remap-overhead no,
                               an instrumented run, a file without it */
    DH_REMAP_MEASURED,      /* both runs verified and timed: the figures below */
    DH_REMAP_NA,            /* cannot apply: `reason` says why */
    DH_REMAP_FAILED         /* a run failed: `status`, `reason` */
};
struct dh_remap_overhead {
    int state;              /* enum dh_remap_state */
    int status;             /* DH_REMAP_FAILED: the dh_code */
    char mech[8];           /* "dlt" or "rr": how the order was applied */
    char reason[384];       /* n/a or failed: one line */
    int n_tdr, n_base;      /* timed repetitions of each */
    double tdr_ms, tdr_lo, tdr_hi;      /* gpu_tdr on sorted: median, 95% interval */
    double base_ms, base_lo, base_hi;   /* baseline on sorted */
    double ratio, ratio_lo, ratio_hi;   /* tdr / base, 95% bootstrap interval */
};

/* "measured", "n/a", "failed" ("" for none); the state of a name (-1: none) */
const char *dh_remap_state_name(int state);
int dh_remap_state_parse(const char *name);

struct dh_result {
    int status;                   /* dh_code, 0 = verified and timed */
    char message[1024];           /* one line, when status != 0 */
    char *options;                /* the exact build options; NULL = none */
    char *build_log;              /* compiler log on a failed build; NULL = none */
    int build_cached;
    int invocation;               /* which of the file's invocations measured
                                     it (xml.h); 0: the only one */
    double build_ms, setup_ms;
    /* where the case's wall time went (ms): the whole evaluation in the
     * worker, the workload's BBV profiling run (first variant of a
     * workload), upload + warm-up + timed runs + verification, the
     * model's pricing, the counters' pass, a gpu_tdr case's remap
     * overhead runs; setup_ms and build_ms above */
    double case_ms, bbv_ms, measure_ms, model_ms, counters_ms, remap_ms;
    /* `run --overlap` (harness/run/overlap.h), on a workload's first
     * case: what making its host data in the background cost (the
     * helper's CPU time over its threads; 0: no helper made them), the
     * helper's wall time (at nice 19, beside the timing) and how long the
     * runner waited for it */
    double setup_bg_ms, setup_bg_wall_ms, setup_wait_ms;
    int rotate;
    int n;                        /* timed samples */
    int n_host;                   /* host samples, the first n_host repetitions'
                                     (host work timed only as long as its spread
                                     needs); 0 or n: every repetition's */
    /* n samples each (host: the first dh_host_count, the rest 0), in one
     * block that kernel_ms owns; NULL while there are none */
    double *kernel_ms;
    double *host_ms;
    double *xfer_ms;
    int n_room;                   /* samples per series the block holds */
    int verified;                 /* 1 = compared with the CPU reference */
    struct dh_verify verify;
    double ceiling;               /* remap ceiling, 0 = not applicable */
    int warp_width;
    int has_counters;
    struct dh_counters ctr;
    struct dh_model_result model;
    struct dh_remap_overhead remap;   /* gpu_tdr: the remap overhead */
};

/* The host samples of r (n_host, or n where every repetition's was timed). */
static inline int dh_host_count(const struct dh_result *r)
{
    return r->n_host > 0 && r->n_host < r->n ? r->n_host : r->n;
}

/* Repetition i's end-to-end time: its kernel and transfer time and, where
 * host work was timed on fewer repetitions, the host samples in turn
 * (repetition i pairs with host sample i mod n_host). */
static inline double dh_e2e_sample(const struct dh_result *r, int i)
{
    int h = dh_host_count(r);
    return r->kernel_ms[i] + (h > 0 ? r->host_ms[i % h] : 0) + r->xfer_ms[i];
}

/* How a run's tunables were chosen (tuning/tune.c). */
#define DH_TUNE_MAX_EVALS 4096   /* evaluations a case's <tuning> records */
/* the timed repetitions an evaluation keeps (T4's runtimes) */
#define DH_TUNE_EVAL_RUNTIMES 32
struct dh_tune_eval {
    char tunables[96];
    int status;
    double ms;                  /* the median of the runtimes below */
    int n_runtimes;             /* 0: none kept (from the journal) */
    double runtimes[DH_TUNE_EVAL_RUNTIMES];   /* ms: kernel, or e2e for cpu_tdr */
    int from_journal;           /* reused, not measured again */
    double wall_ms;             /* the evaluation's wall time in the harness */
    double overhead_ms;         /* wall time minus the kernel runs' own time */
};
struct dh_tuning {
    char strategy[16];          /* "" = defaults, "journal", "exhaustive", ... */
    int space, space_total;     /* pruned size, size before pruning */
    int n_eval;                 /* evaluations recorded below */
    int cap_eval;               /* room in eval */
    struct dh_tune_eval *eval;  /* malloc'd, n_eval of them; NULL while none */
    int best;                   /* index into eval, -1 none */
    double default_ms;          /* the default configuration's metric, 0 unknown */
    double flat_share;          /* share of evaluated configs within 5% of best */
    int evals_to_95;            /* evaluations until one within 5% of the best */
    char failure[512];          /* the first failed evaluation's message */
};

/* A run: the case, its result and what the harness derived from both. */
struct dh_run {
    struct dh_case c;
    struct dh_result r;
    struct dh_stats kernel, host, xfer, e2e;
    int has_speedup;
    char baseline_key[17];
    /* the baseline the speedups are against: its tunables, and whether
     * they were tuned (searched, or from the journal or a tuned file) or
     * are its defaults */
    char baseline_tunables[96];
    int baseline_tuned;
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
    double model_sp_floor, model_err_floor;   /* the scheduled-floor metric's */
    struct dh_tuning tune;
};

/* ---- the blocks of a run (results/record.c) ----
 * Functions that allocate return 0, or -1 out of memory (r unchanged). */

/* Room for n samples per series, zeroed (n 0: none); earlier ones freed. */
int dh_result_samples(struct dh_result *r, int n);
/* *dst = the first max - 1 bytes of src (NULL or "": none); the old freed. */
int dh_result_text(char **dst, const char *src, size_t max);
/* The room a worker fills: DH_MAX_SAMPLES samples per series, zeroed. */
int dh_result_reserve(struct dh_result *r);
/* Shrink the blocks to what they hold (after a worker filled them). */
void dh_result_fit(struct dh_result *r);
void dh_result_release(struct dh_result *r);

/* Room for one more evaluation: its slot (zeroed, counted in n_eval), or
 * NULL at DH_TUNE_MAX_EVALS or out of memory. */
struct dh_tune_eval *dh_tuning_add(struct dh_tuning *t);
void dh_tuning_release(struct dh_tuning *t);

void dh_run_release(struct dh_run *u);
/* *dst = *src with blocks of its own (dst's earlier ones are not freed);
 * 0, or -1 out of memory (dst holds no blocks then). */
int dh_run_copy(struct dh_run *dst, const struct dh_run *src);
/* *dst = *src, and src no longer owns the blocks (dst's own are not freed). */
void dh_run_move(struct dh_run *dst, struct dh_run *src);

/* "" for a text block that is NULL */
static inline const char *dh_text(const char *s)
{
    return s ? s : "";
}

#endif
