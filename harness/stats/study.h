/* study.h — the matrix of a vendor-comparison study: which technique pays
 * where, by how much, with what confidence.
 *
 * Rows are workloads of benchmarks (suite, benchmark, size, workload
 * parameters), grouped by suite; columns are targets (backend, device
 * name); in each cell, per technique (a variant family: cpu_tdr, gpu_tdr,
 * melded, and any other non-baseline variant the runs hold), the best
 * configuration's speedup over the tuned baseline as derive.h computes it
 * (median ratio, 95% bootstrap interval): kernel time for every technique
 * but cpu_tdr, whose headline is end to end (DESIGN.md "speedup"). A cell
 * that has no speedup says why (not run, unsupported, failed, wrong, no
 * baseline), never zero. Beside the cells: the baseline's CFE and the
 * remap ceiling of each row and column, and the best technique of each.
 *
 * harness/stats/ may call suites/, the model, results/, support and
 * backends/ (derive.h), never the run engine, the report or the commands.
 */
#ifndef DH_STUDY_H
#define DH_STUDY_H

#include "../../results/xml.h"

#define DH_STUDY_MAX_TECH 8

/* Why a cell has no speedup; DH_STUDY_OK when it has one. */
enum dh_study_state {
    DH_STUDY_OK = 0,
    DH_STUDY_NOT_RUN,          /* no run of this technique on this target */
    DH_STUDY_ABSENT,           /* the benchmark has no such variant (its
                                  declaration says why) */
    DH_STUDY_UNSUPPORTED,      /* refused: not offered here, constraint, memory */
    DH_STUDY_FAILED,           /* build, launch, timeout, crash, ... */
    DH_STUDY_WRONG,            /* differs from the CPU reference */
    DH_STUDY_NO_BASELINE,      /* ran, but the baseline did not (no ratio) */
};
/* "ok", "not run", "absent", "unsupported", "failed", "wrong", "no baseline" */
const char *dh_study_state_name(enum dh_study_state s);

struct dh_study_cell {
    enum dh_study_state state;
    const struct dh_run *run;  /* OK: the best configuration; else the run
                                  that says why (NULL for not run) */
    char label[128];           /* the best configuration, "gpu_tdr[alg=dgi]" */
    double sp, lo, hi;         /* the headline speedup and its 95% interval */
    double sp_kernel, sp_e2e;  /* both figures of the best configuration */
    int end_to_end;            /* 1: sp is the end-to-end figure (cpu_tdr) */
    int n_bad;                 /* other configurations of the technique that
                                  failed or were wrong here (OK cells) */
    char reason[320];          /* state != OK: one line */
};

/* The baseline of one row on one target. */
struct dh_study_base {
    enum dh_study_state state; /* OK, or why there is no baseline */
    double median_ms;          /* kernel median (OK) */
    double cfe;                /* NaN when neither counters nor the model gave it */
    char cfe_source[16];       /* "counters" | "model" | "" */
    double ceiling;            /* remap ceiling of the row here; 0 unknown */
    char reason[320];
    int runs;                  /* runs of the row on this target, every variant */
};

struct dh_study_row {
    char suite[32], bench[48], size[8];
    char workload[400];        /* the full workload text: part of the key */
    char label[200];           /* the parameters that vary within the benchmark */
    const struct dh_case *first;   /* the row's first case in the runs */
};

struct dh_study_col {
    char backend[16];
    char device[256];
    int warp_width;            /* from the results' devices, else a run; 0 unknown */
};

/* The best technique of a row on a target. */
enum { DH_STUDY_BEST_NONE = -2, DH_STUDY_BEST_BASELINE = -1 };

struct dh_study {
    int n_rows, n_cols, n_tech;
    struct dh_study_row *rows;             /* malloc'd, suite order kept */
    struct dh_study_col *cols;
    char tech[DH_STUDY_MAX_TECH][24];
    struct dh_study_cell *cells;           /* [row][col][tech], dh_study_cell() */
    struct dh_study_base *base;            /* [row][col] */
    int *best;                             /* [row][col]: a tech index, BASELINE
                                              (every technique slower, the
                                              interval below 1) or NONE */
    int *best_clear;                       /* [row][col]: 1 when the best one's
                                              interval lies above the runner-up's
                                              (and above 1 for a technique) */
    int dropped;                           /* runs left out: too many techniques */
};

/* Build the matrix of runs (derived: derive.h; they must outlive s);
 * devs (may be NULL) gives each column's warp width. 0 or
 * -DH_E_RESOURCES. Free with dh_study_free. */
int dh_study_build(const struct dh_run *runs, int n, const struct dh_devlist *devs,
                   struct dh_study *s, struct dh_err *err);
void dh_study_free(struct dh_study *s);

static inline struct dh_study_cell *dh_study_cell(const struct dh_study *s, int row, int col,
                                                  int tech)
{
    return &s->cells[((size_t)row * (size_t)s->n_cols + (size_t)col) * (size_t)s->n_tech
                     + (size_t)tech];
}
static inline struct dh_study_base *dh_study_base(const struct dh_study *s, int row, int col)
{
    return &s->base[(size_t)row * (size_t)s->n_cols + (size_t)col];
}

/* The suites of the rows, in row order; returns how many (at most max). */
int dh_study_suites(const struct dh_study *s, char (*suite)[32], int max);

/* A technique's geometric mean on one target over the rows of a suite
 * (NULL: every suite): of the OK cells' headline speedups. */
struct dh_study_gm {
    double gm, min, max;       /* NaN when n == 0 */
    double lo, hi;             /* the measurement's 95% interval of gm: each
                                  cell's interval as a normal one on the log
                                  scale, independent; NaN when a cell has
                                  none. The spread over workloads is min..max */
    int n;                     /* OK cells */
    int of;                    /* rows of the suite with any run on the target */
    int wins;                  /* rows where this technique is the best */
};
void dh_study_geomean(const struct dh_study *s, const char *suite, int col, int tech,
                      struct dh_study_gm *out);
/* Rows of the suite (NULL: all) on the target where the baseline won (every
 * technique slower, beyond its interval). */
int dh_study_baseline_wins(const struct dh_study *s, const char *suite, int col);

/* The baseline figures of a target over the rows of a suite (NULL: all):
 * mean CFE (NaN: none known) over n_cfe rows, geometric mean of the remap
 * ceiling (NaN: none) over n_ceiling rows. */
void dh_study_base_summary(const struct dh_study *s, const char *suite, int col,
                           double *mean_cfe, int *n_cfe, double *gm_ceiling, int *n_ceiling);

#endif
