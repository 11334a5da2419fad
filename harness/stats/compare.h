/* compare.h — judging a NEW results file against a BASE one, case by case
 * (DESIGN.md "Measurement": a change counts only when it is statistically
 * significant AND above a practical threshold; too few samples or too much
 * noise give "ambiguous").
 *
 * Cases are matched by identity (struct dh_case id: suite, bench, variant
 * and its choices, backend, device, size, workload). Tunables are not
 * identity: a matched case whose tunables moved gets a note.
 *
 * Per matched case, for the kernel samples (and, for cpu_tdr, the
 * end-to-end samples as well: one per repetition whose host work was timed,
 * never a host sample counted twice; judged with opts.host_threshold and
 * opts.host_min_samples in place of threshold and min_samples, since host
 * time moves between runs far more than within one):
 *   ratio     = median(NEW) / median(BASE)          (> 1: NEW is slower)
 *   spread    = max over both sides of MAD/median    (MAD scaled, stats.h)
 *   threshold = max(opts.threshold, 2 x spread)
 *   p_slower  = one-sided Mann-Whitney U: NEW tends to be larger than BASE
 *   slower    : ratio >= 1 + threshold and p_slower < alpha
 *   faster    : ratio <= 1 / (1 + threshold) and p_faster < alpha
 *   ambiguous : fewer than min_samples on a side; or the median moved past
 *               the threshold but the test does not back it; or the test
 *               finds a change of more than half the threshold but below
 *               it (the grey zone where noise may hide a regression); or
 *               spread > max_spread and no clear slower/faster
 *   same      : otherwise (a significant change below half the threshold
 *               is "same": too small to matter)
 * Failures (exit 2): slower, NEW verification "wrong", a NEW run that
 * failed (build, launch, timeout, crash...) where BASE had timings, and a
 * CFE drop (NEW CFE lower than BASE by more than opts.cfe_drop).
 */
#ifndef DH_COMPARE_H
#define DH_COMPARE_H

#include "../../results/xml.h"

/* ---- Mann-Whitney U ---- */
enum dh_alt {
    DH_ALT_GREATER = 1,      /* H1: x tends to be larger than y */
    DH_ALT_LESS,             /* H1: x tends to be smaller than y */
    DH_ALT_TWO_SIDED,
};

struct dh_mwu {
    double u;                /* U of x: pairs (x_i > y_j), ties count 1/2 */
    double p;                /* p-value for the chosen alternative */
    int exact;               /* 1: exact null distribution, 0: normal approx. */
};

/* Mann-Whitney U test of x against y (the same statistic and p-values as
 * scipy.stats.mannwhitneyu with method="exact" when there are no ties and
 * C(nx+ny, nx) < 2^63, else method="asymptotic" with the tie correction
 * and continuity correction). 0, or -1 when a side is empty or memory
 * runs out. */
int dh_mann_whitney(const double *x, int nx, const double *y, int ny, enum dh_alt alt,
                    struct dh_mwu *out);

/* ---- verdicts ---- */
enum dh_verdict {
    DH_V_SAME = 0,
    DH_V_FASTER,
    DH_V_SLOWER,
    DH_V_AMBIGUOUS,
    DH_V_WRONG,              /* NEW failed verification */
    DH_V_FAILED,             /* NEW run failed (build, timeout, crash...) */
    DH_V_UNTIMED,            /* no timings to compare (e.g. both unsupported) */
    DH_V_ONLY_BASE,          /* case missing from NEW */
    DH_V_ONLY_NEW,           /* case missing from BASE */
    DH_V__COUNT
};
const char *dh_verdict_name(enum dh_verdict v);   /* "same", "slower", ... */

struct dh_cmp_opts {
    double threshold;        /* smallest change that matters, fraction (0.05) */
    double alpha;            /* significance level of each one-sided test (0.05) */
    double max_spread;       /* above: too noisy to say "same" (0.10) */
    int min_samples;         /* fewer on either side: ambiguous (10) */
    double host_threshold;   /* the e2e figure's smallest change (DH_CMP_HOST_THRESHOLD) */
    int host_min_samples;    /* the e2e figure's sample floor (DH_CMP_HOST_MIN_SAMPLES) */
    double cfe_drop;         /* absolute CFE drop that fails (0.02) */
    int allow_device_change; /* match cases across device names */
};
/* The e2e (host time) defaults: host work is timed on at least 5
 * repetitions (harness/run/measure.c), and host medians of one case move
 * between runs far more than kernel medians (docs/guide/regression-checks.md:
 * the A/A runs that chose 20%). */
#define DH_CMP_HOST_THRESHOLD 0.20
#define DH_CMP_HOST_MIN_SAMPLES 5
void dh_cmp_opts_default(struct dh_cmp_opts *o);

/* The end-to-end samples of r that rest on real host samples: one per
 * repetition i < dh_host_count(r), kernel_ms[i] + host_ms[i] + xfer_ms[i]
 * (out holds DH_MAX_SAMPLES). Returns how many. */
int dh_cmp_e2e_samples(const struct dh_result *r, double *out);

/* The part of each of u's host samples that was measured once per
 * workload (a BBV regrouping's acquisition of the BBVs), in ms; 0 where
 * there is none. Where both sides have it, the e2e test holds it at BASE's
 * on both sides (the table's "e2e*", the metric's held), and the case's
 * note gives NEW's, unjudged; where one side lacks it, the note says the
 * samples were judged with it. */
double dh_cmp_once_ms(const struct dh_run *u);

/* One set of samples compared (kernel or end-to-end). */
struct dh_cmp_metric {
    char name[8];            /* "kernel" | "e2e" */
    /* e2e of a BBV regrouping (dh_cmp_once_ms on both sides): the
     * acquisition held at BASE's, NEW's samples moved by held_ms = BASE's
     * - NEW's; acq_base/acq_new the two (NAN where not held). The table
     * says "e2e*" for it; the name stays "e2e" (JUnit properties). */
    int held;
    double held_ms, acq_base, acq_new;
    int n_base, n_new;
    double med_base, med_new, ratio;
    double spread, threshold;    /* fractions */
    double p_slower, p_faster;
    int exact;
    enum dh_verdict verdict;     /* same | faster | slower | ambiguous */
    char why[160];               /* reason, for ambiguous and notable cases */
};

struct dh_cmp_case {
    const struct dh_run *base, *cur;     /* either may be NULL (one-sided) */
    enum dh_verdict verdict;
    int n_metrics;
    struct dh_cmp_metric m[2];           /* m[0] kernel, m[1] e2e (cpu_tdr) */
    double cfe_base, cfe_new;            /* NAN when unknown */
    int cfe_drop;                        /* 1: CFE fell by more than opts.cfe_drop */
    int failure;                         /* counts as a regression (exit 2) */
    char note[512];                      /* tunables moved, statuses, ... */
};

struct dh_cmp {
    struct dh_cmp_case *cases;           /* malloc'd; NEW's order, then BASE-only */
    int n;
    int count[DH_V__COUNT];
    int n_cfe_drop, n_failures;
    int n_matched;                       /* cases present on both sides */
    int n_judged;                        /* matched with a timing verdict */
};

/* Match and judge. The runs of `base` and `cur` must outlive `out`.
 * 0, or -DH_E_RESOURCES. */
int dh_compare(const struct dh_resultfile *base, const struct dh_resultfile *cur,
               const struct dh_cmp_opts *o, struct dh_cmp *out, struct dh_err *err);
void dh_cmp_free(struct dh_cmp *c);

/* Judge one pair of sample sets (exposed for tests). */
void dh_cmp_metric_eval(const char *name, const double *base, int nb, const double *cur,
                        int nn, const struct dh_cmp_opts *o, struct dh_cmp_metric *m);

/* 0 when both files used the same devices (backend + name); else 1 and a
 * one-line description of the difference in `why`. */
int dh_cmp_devices_differ(const struct dh_resultfile *base, const struct dh_resultfile *cur,
                          char *why, size_t len);

/* Workload parameter names whose values differ between the given cases
 * (to print short workload labels). Writes up to max names; returns count. */
int dh_varying_workload(const struct dh_case *const *cases, int n, char (*names)[24], int max);
/* "k=v k=v" of the named workload parameters of c ("" when none). */
void dh_workload_short(const struct dh_case *c, char (*names)[24], int n_names, char *out,
                       size_t len);

#endif
