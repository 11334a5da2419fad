/* tuning.h — auto-tuning of a case's tunables (wg, nf, group, ...).
 *
 *   space     the candidate values of each tunable the variant uses
 *             (powers of two inside an "int:LO..HI" domain, or the listed
 *             values), their cross product pruned by every constraint
 *             before anything is compiled
 *   strategy  exhaustive, random, anneal (simulated annealing over
 *             neighbouring values), model (the space ranked by the BBV
 *             model's predicted time, evaluated from the top: model.c); a
 *             budget in evaluations and/or seconds
 *   journal   every evaluation appended as it finishes, keyed by a hash of
 *             (kernel source, variant and choices, tunables, workload,
 *             size, device, driver, compiler): a killed run resumes without
 *             repeating finished evaluations; `harness run` takes the
 *             journal's best by default
 * Evaluations run on the runner's worker session (isolated, watchdog);
 * a failed one costs that configuration only and is recorded with its
 * status.
 *
 * tuning/ may call the run engine (sessions, planning, sources), the
 * statistics, the suites, results/, support and backends/; the commands
 * call it, the engine never does (a run's tuning reaches it through the
 * runner's `before` hook).
 */
#ifndef DH_TUNING_H
#define DH_TUNING_H

#include "../results/record.h"
#include "../harness/run/runner.h"
#include "../harness/model/bbv.h"

enum dh_tune_mode { DH_TUNE_NONE = 0, DH_TUNE_JOURNAL, DH_TUNE_EXHAUSTIVE, DH_TUNE_RANDOM,
                    DH_TUNE_ANNEAL, DH_TUNE_MODEL };

#define DH_TUNE_MAX_CONFIGS 512     /* the tests' fixed arrays */
#define DH_TUNE_MAX_SPACE (1 << 22) /* configurations before pruning */

/* ---- space (space.c) ---- */
/* Every pruned configuration of c's tunables: out[i] is c->params with the
 * tunables replaced. *n_total = size before pruning. -DH_E_RESOURCES when
 * more than max pass (the first max are in out) or the space is larger
 * than DH_TUNE_MAX_SPACE before pruning (*n_total 0 then). */
int dh_space_enumerate(const struct dh_case *c, const struct dh_device_info *dev,
                       struct dh_pset *out, int max, int *n, int *n_total);
/* The same into a malloc'd array of every pruned configuration (*out, to
 * free); an error naming the case when the space is too large. */
int dh_space_alloc(const struct dh_case *c, const struct dh_device_info *dev,
                   struct dh_pset **out, int *n, int *n_total, struct dh_err *err);

/* ---- journal (journal.c) ---- */
struct dh_journal_entry {
    char eval_key[17];
    char case_key[17];
    char tunables[96];
    int status;
    double ms;
};
struct dh_journal {
    char path[4096];
    struct dh_journal_entry *e;
    int n, cap;
    int skipped;              /* corrupt lines skipped when loading */
};
const char *dh_journal_default_path(void);
int dh_journal_load(struct dh_journal *j, const char *path, struct dh_err *err);
int dh_journal_append(struct dh_journal *j, const struct dh_journal_entry *e,
                      struct dh_err *err);
const struct dh_journal_entry *dh_journal_find(const struct dh_journal *j, const char *eval_key);
void dh_journal_free(struct dh_journal *j);
/* Write the tuned-configurations file path (journal.c): the n entries (the
 * best evaluation of each case, ids[k] naming entry k's case) and the
 * file's entries of other cases (*kept of them); atomic. header: one line
 * saying how it was made (command, budget). */
int dh_tuned_save(const char *path, const struct dh_journal_entry *e, const char *const *ids,
                  int n, const char *header, int *kept, struct dh_err *err);
/* The evaluation key of case c (with its current tunables) on dev. */
void dh_tune_eval_key(const struct dh_case *c, const struct dh_device_info *dev, char key[17]);

/* ---- strategies (strategy.c) ---- */
/* Evaluate configuration i: returns its metric in ms (smaller is better)
 * or a negative value when it failed. */
typedef double (*dh_eval_fn)(void *ctx, int i);
/* Visit configurations in the strategy's order until the budget is spent;
 * order[] receives the indices evaluated. Returns their count. `nb` lists,
 * per configuration, its neighbours (for anneal; may be NULL otherwise). */
int dh_strategy_run(enum dh_tune_mode mode, int n_configs, const int *neighbors, int max_nb,
                    int start, int budget, double seconds, unsigned seed, dh_eval_fn f,
                    void *ctx, int *order);
/* Visit configurations in the order `rank` gives (rank[0] first) until
 * the budget (evaluations, 0 = all) or the time is spent; an index out of
 * range or seen before in rank is skipped, so none is evaluated twice.
 * order[] receives the indices evaluated. Returns their count. */
int dh_strategy_ranked(int n_configs, const int *rank, int budget, double seconds,
                       dh_eval_fn f, void *ctx, int *order);
/* neighbors[i * max_nb + k]: configurations differing from i in one
 * tunable by one step of its candidate list; -1 fills. */
int dh_space_neighbors(const struct dh_pset *cfg, int n, int *neighbors, int max_nb);

/* ---- the model-guided ranking (model.c) ---- */
/* What the ranking knows of a case before any configuration runs. */
struct dh_tune_model {
    struct dh_latency_table table;  /* the target device's class */
    int warp, cus;                  /* the target device's */
    int npaths;                     /* the branch's paths (the remap's P) */
    long items;                     /* the input's items; 0: unknown (no tail) */
    double warp_cycles;             /* the baseline's mean warp cost, cycles, from the
                                       workload's BBVs; 0: unknown (path term 1) */
    double profile_ms;              /* the profiling run's acquire time */
    char table_used[32];            /* the table the BBVs were priced with */
    char note[400];                 /* what was missing, "" when nothing */
};
/* Sort 0..n-1 by pred ascending (NAN or negative last), then tie
 * ascending (tie may be NULL), then index: deterministic. */
int dh_tune_rank(int n, const double *pred, const double *tie, int *rank);
/* Cycles per warp of the remap `alg` (hot, hot_warp, dgi, dgi_scan) of
 * npaths paths at work-group wg, neighbouring factor nf (dgi), priced with
 * table t; NAN for a form it does not price. */
double dh_tune_remap_cycles(const struct dh_latency_table *t, const char *alg, int npaths,
                            int wg, int nf, int warp);
/* Fill m and ceiling[0..n) (the remap ceiling of c at cfg[i]; 0 where none)
 * for case c tuned on device dev: the input made on the host, and one
 * profiling run of the workload's baseline on session s (NULL: none) on
 * prof_backend's device prof_device — the case's own device when tuning
 * live; tune-study's replay uses this machine's — unless c->model is 0
 * (`--no-model`). A missing piece is a note
 * in m->note, not an error; -DH_E_INTERRUPTED on SIGINT. */
int dh_tune_model_prepare(struct dh_session *s, const struct dh_case *c,
                          const struct dh_device_info *dev, const char *prof_backend,
                          int prof_device, const char *prof_device_name,
                          const struct dh_pset *cfg, int n, struct dh_tune_model *m,
                          double *ceiling, struct dh_err *err);
/* Predicted cycles per warp of c at configuration cfg (smaller is faster). */
double dh_tune_predict(const struct dh_tune_model *m, const struct dh_case *c,
                       const struct dh_pset *cfg, double ceiling);
/* rank[] and pred[] of the n configurations; ties go to the one closest
 * to cfg[def] (the declared default; def < 0: none), then to index. */
int dh_tune_model_order(const struct dh_tune_model *m, const struct dh_case *c,
                        const struct dh_pset *cfg, const double *ceiling, int n, int def,
                        int *rank, double *pred);

/* ---- driving a run (tune.c) ---- */
struct dh_tune_opts {
    enum dh_tune_mode mode;
    int budget;               /* evaluations, 0 = no limit */
    double seconds;           /* 0 = no limit */
    unsigned seed;
    int reps;                 /* timed runs per evaluation */
    struct dh_journal *journal;
    const char *tuned;        /* --tuned FILE: journal is that file's, read
                                 only; a case it lacks runs at its defaults */
    const struct dh_devlist *devs;
    int baseline_whole;       /* the baseline searched over its whole space,
                                 whatever the budget (run: speedups are
                                 against it) */
};
/* Before run u is measured: set its tunables (journal's best, or a fresh
 * search on the session), and fill u->tune. */
int dh_tune_case(struct dh_session *s, struct dh_run *u, const struct dh_tune_opts *o,
                 struct dh_err *err);
const char *dh_tune_mode_name(enum dh_tune_mode m);
int dh_tune_mode_parse(const char *s, enum dh_tune_mode *m);

#endif
