/* suite.h — what a benchmark is, to the harness.
 *
 * A benchmark is one folder under suites/<suite>/<name>/ with a kernel
 * source in the dialect (suites/lib/dialect.h) and a `struct dh_bench`
 * registered by one line in suites/registry.c. The harness owns the device,
 * the build, warm-up, repetitions, poisoning, statistics and results; the
 * benchmark owns its input generator, its CPU reference, its buffers and
 * launches, and its verification.
 *
 * This header is all of the harness a benchmark sees: the backend
 * interface, parameters, the case, the host clock, the verification
 * recorder, the BBV block types and the remap ceiling. suites/ calls
 * nothing else of the harness; the run engine (harness/run/) calls the
 * benchmarks through struct dh_bench.
 */
#ifndef DH_SUITE_H
#define DH_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "../backends/backend.h"
#include "../harness/model/blocks.h"
#include "../harness/model/ceiling.h"
#include "../harness/support/clock.h"
#include "../harness/support/params.h"
#include "../harness/support/verify.h"
#include "../results/case.h"

/* What one timed repetition cost. */
struct dh_sample {
    double kernel_ms;   /* device time, the backend's own events */
    double host_ms;     /* host-side regrouping / layout work (cpu_tdr);
                           -1: reused from the last run (dh_exec.host_reuse) */
    double xfer_ms;     /* transfers beyond those every variant needs */
};

/* The worker's handle on the device, passed to every benchmark op. */
struct dh_exec {
    const struct dh_backend_ops *be;
    struct dh_device *dev;
    const struct dh_device_info *info;
    struct dh_program *prog;
    const struct dh_case *c;
    int rotate;             /* input copies to rotate through (>= 1) */
    int profiling;          /* set by the harness: launches read counters */
    struct dh_counters ctr; /* summed over the launches of a profiled run */
    int n_profiled;
    int profile_max;        /* set by the harness: count at most this many
                               launches of a profiling pass (0: every one) */
    int n_unprofiled;       /* launches of the pass run past profile_max */
    struct dh_buffer *bbv_buf; /* set: profiling build, appended to every launch */
    const struct dh_bbv *bbv;  /* the workload's BBVs, when the case needs them */
    const int *order;          /* set by cpu_tdr runs: slot j -> item order[j],
                                  so the model can price the regrouping */
    int host_reuse;            /* set by the harness between timed runs: the
                                  last run's host work (regrouping, moved data)
                                  may be reused, its host_ms reported as -1 */
    int presorted;             /* set by the harness at upload (the remap
                                  overhead): the case's kernel runs on the input
                                  regrouped as its cpu_tdr would regroup it
                                  (regroup=key and the mech, deal of c's
                                  parameters), moved or redirected and put back
                                  for verification like a cpu_tdr run */
    int kernel_only;           /* set by the harness (the remap overhead):
                                  only kernel time is kept, so host work is
                                  done by the verified run and reused by every
                                  later one, never timed */
    int track_launches;        /* set by the harness (per-instruction counts):
                                  dh_exec_launch notes each kernel's name */
    char launched[8][128];     /* the distinct kernels launched since, the
                                  first 8 */
    int n_launched;
};

struct dh_kit;

/* Code-generation knobs: tunables that change how a kernel is compiled,
 * not what it computes. Every benchmark's params table ends with
 * DH_CODEGEN_KNOBS, and a descriptor gets them without declaring them, so
 * every variant of every benchmark (baseline, cpu_tdr's kernel, gpu_tdr,
 * melded) is tuned over the same knobs; the harness turns each into a
 * define the dialect reads (harness/run/source.c, suites/lib/dialect.h).
 * A backend that cannot express one takes its "none" value only
 * (harness/run/constraints.c). test_suites checks every table. */
#define DH_CODEGEN_KNOBS                                                                   \
    {"minb", DH_P_TUNABLE, "int:0..8", "0", NULL,                                          \
     "CUDA launch bounds of every kernel of the build: at least minb work-groups per "     \
     "multiprocessor (registers capped at 65536 / (minb * wg), minb * wg <= 2048); 0 = the " \
     "compiler's choice; OpenCL and HIP cannot express it and take 0"}
/* their names, and the value that leaves the compiler its choice */
#define DH_CODEGEN_KNOB_NAMES {"minb"}
#define DH_CODEGEN_NONE "0"

struct dh_bench {
    const char *suite;
    const char *name;
    const char *summary;
    const char *source;                 /* kernel text, dialect */
    const char *source_path;            /* where it was read (a user's file), for
                                           compiler messages; NULL: the suite's */
    const struct dh_param_def *params;  /* terminated by {0} */
    const char *variants;               /* comma list, e.g. "baseline,gpu_tdr" */
    const char *absent;                 /* the families left out and why, e.g.
                                           "melded: ...", for list and errors */
    const char *fingerprint;            /* what defines the benchmark beyond its
                                           source, for the tuning journal's key
                                           (a descriptor's text and its C
                                           reference); NULL: the source says all */
    const char *const *sweep;           /* default workload points, NULL-terminated;
                                           each "k=v k=v"; "" = all defaults */

    /* Benchmark-specific constraints beyond the generic ones of
     * tuning/space.c. 0 = ok, else -DH_E_CONSTRAINT with `why`. */
    int (*check)(const struct dh_case *c, const struct dh_device_info *dev,
                 char *why, size_t why_len);
    /* Device memory the case needs, for the up-front refusal. */
    uint64_t (*device_bytes)(const struct dh_case *c, int rotate);
    /* Extra build options ("-D ..."), appended after the harness's. */
    int (*defines)(const struct dh_case *c, const struct dh_device_info *dev,
                   char *buf, size_t len);
    /* The name of the kernel the case launches (its variant's entry), or
     * NULL when not one; NULL hook: not declared. The block costs read off
     * the compiled code (DH_BLOCK_COSTS=sass) take the baseline's. */
    const char *(*kernel)(const struct dh_case *c);

    /* Host side, untimed: generate input, compute the CPU reference. */
    int (*setup)(const struct dh_case *c, void **state, struct dh_err *err);
    /* Allocate and upload (untimed). */
    int (*upload)(void *state, struct dh_exec *x, struct dh_err *err);
    /* One repetition (rep counts from 0; warm-ups are negative). */
    int (*run)(void *state, struct dh_exec *x, int rep, struct dh_sample *s,
               struct dh_err *err);
    /* Fill outputs with a pattern no correct run produces. */
    int (*poison)(void *state, struct dh_exec *x, struct dh_err *err);
    /* Download and compare with the CPU reference. */
    int (*verify)(void *state, struct dh_exec *x, struct dh_verify *v,
                  struct dh_err *err);
    /* (optional) Remap ceiling of this input for the case's wg and the
     * device's warp width; 0 when not applicable. */
    double (*ceiling)(void *state, const struct dh_case *c, int warp_width);
    /* Free device objects of one variant run; host data stay (the worker
     * reuses them for the next variant of the same workload). */
    void (*teardown)(void *state, struct dh_exec *x);  /* x may be NULL */
    /* Free the host data of setup(). */
    void (*release)(void *state);

    /* Basic blocks marked with DH_BB in the kernel (NULL: not marked), and
     * what bounds the benchmark: "compute" or "memory" (declared by its
     * author; the model is judged on the compute-bound ones). */
    const struct dh_bb_def *blocks;
    int n_blocks;
    const char *bound;
    /* (optional) The block costs the model takes for this benchmark when
     * DH_BLOCK_COSTS is unset: "sass+pred" (the compiled kernel's, where
     * they can be read: a CUDA or HIP device of sm_XY, or DH_SASS_ARCH,
     * with NVRTC and nvdisasm; else the hand table, silently). Declared
     * where the compiled costs were measured closer to CUPTI than the
     * hand table (docs/model.md). NULL: the hand table. */
    const char *costs;
    /* Work-items of one launch of the profiled (baseline) kernel: the BBV
     * buffer holds n_blocks counters per item. */
    long (*items)(void *state);
    /* (optional) Iterations of the outer loop the kernel marks with
     * DH_BBV_STEP (dialect.h), the most any item runs, for ordered BBVs
     * (DH_BBV_WINDOW): windows = ceil(steps / K). NULL: no step marked. */
    long (*bbv_steps)(void *state);
    /* (optional) Whether gpu_tdr case c can run on the input regrouped by
     * cpu_tdr's key regrouping (dh_exec.presorted): 1 with the mechanism
     * that applies it ("dlt" or "rr") in mech; 0 with why (no cpu_tdr, no
     * key, no kernel for the mechanism). NULL: never. */
    int (*presort)(const struct dh_case *c, char *mech, size_t mech_len, char *why,
                   size_t why_len);
    /* A declared benchmark (suites/lib/kit.h): its ops are the kit's
     * (DH_KIT), which read the declaration here. NULL: ops of its own. */
    const struct dh_kit *kit;
    /* (optional) Items of one launch of the baseline kernel when a run is
     * several launches in turn (darm/nqu per_launch=2wg), for the BBV
     * model's schedule; NULL or <= 0: one launch of all `items`. */
    long (*launch_items)(const struct dh_case *c, long items);
};

/* A bench's block table (an array) and what bounds it. */
#define DH_BENCH_BLOCKS(t, b) .blocks = (t), .n_blocks = (int)(sizeof(t) / sizeof((t)[0])), .bound = (b)

int dh_bench_count(void);
const struct dh_bench *dh_bench_at(int i);
/* suite NULL or "all": a benchmark of any suite (names are unique) */
const struct dh_bench *dh_bench_find(const char *suite, const char *name);
/* 1 for a registered suite and for "all" (every suite) */
int dh_suite_exists(const char *suite);
/* 1 when b belongs to suite (always for "all") */
int dh_suite_has(const char *suite, const struct dh_bench *b);
/* the registered suites, "micro, frontier, ..." (without "all") */
const char *dh_suite_names(void);
/* 1 when `variant` is in the bench's list. */
int dh_bench_has_variant(const struct dh_bench *b, const char *variant);

/* Launch a kernel of x->prog (suites/exec.c): times with the backend's
 * events, or, in a profiling pass, reads counters and adds them to x; a
 * profiling build (x->bbv_buf) gets the counter buffer as its last
 * argument. ms NULL: a launch whose time is no part of kernel_ms (a
 * reset, the other kernels of a sequence where one is timed): run, not
 * timed and not counted. */
int dh_exec_launch(struct dh_exec *x, const struct dh_launch *l, double *ms,
                   struct dh_err *err);

#endif
