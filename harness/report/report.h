/* report.h — `harness report`: what cmd_report.c (CLI, gnuplot, index.md)
 * and report_charts.c (chart data and gnuplot scripts) share.
 *
 * A report is one folder: index.md (a person opens it first), and per
 * chart NAME.dat (tab-separated data), NAME.gp (the gnuplot script; it
 * writes NAME.png and NAME.svg when run in the folder: `gnuplot NAME.gp`),
 * so a user can restyle a chart by editing its script.
 *
 * harness/report/ owns the report (index.md, charts, gnuplot) and the
 * model-vs-measurement summary a run prints. It may call the statistics,
 * the suites' registry, the model, results/, support and backends/; the
 * commands call it.
 */
#ifndef DH_REPORT_H
#define DH_REPORT_H

#include <stdio.h>

#include "../../results/xml.h"

enum dh_chart_kind { DH_CHART_SPEEDUP = 1, DH_CHART_CFE, DH_CHART_BREAKEVEN, DH_CHART_BACKENDS,
                     DH_CHART_HEATMAP, DH_CHART_STUDY_HEATMAP, DH_CHART_STUDY_BARS };

struct dh_chart {
    enum dh_chart_kind kind;
    char name[160];          /* file stem in the report folder */
    char title[256];         /* one line, for index.md */
    char bench[96];          /* "suite/bench": the index.md section */
    char backend[16];        /* "" for backend comparisons */
    char device_name[256];
    int drawn;               /* 1 once NAME.png exists */
};

#define DH_REPORT_MAX_CHARTS 96
#define DH_REPORT_MAX_NOTES 32

struct dh_report {
    const char *dir;                     /* the report folder (exists) */
    const char *source;                  /* the results file, for headers */
    const struct dh_resultfile *f;
    struct dh_chart charts[DH_REPORT_MAX_CHARTS];
    int n_charts;
    char notes[DH_REPORT_MAX_NOTES][256];    /* charts not made, and why */
    int n_notes;
};

/* Write every chart's .dat and .gp into r->dir and list them in r->charts.
 * 0 or -DH_E_IO. */
int dh_report_charts(struct dh_report *r, struct dh_err *err);

/* "sp-micro_branch" -> a file-name-safe copy: [A-Za-z0-9._-], rest '_'. */
void dh_report_safe_name(const char *in, char *out, size_t len);

/* Distinct (backend, device name) pairs of the file's runs, in run order. */
int dh_report_targets(const struct dh_resultfile *f, char (*backend)[16],
                      char (*device)[256], int max);

/* ---- internal to the report files (report_gp.c and its users) ---- */
#define DH__MAX_WL 64
#define DH__MAX_VAR 24
#define DH__N_PALETTE 12
extern const char *const dh__palette[DH__N_PALETTE];

/* A table of one benchmark on one target: workloads x variant labels. */
struct dh__grid {
    int n_wl, n_var;
    char wl[DH__MAX_WL][400];            /* full workload text, the row key */
    char wl_label[DH__MAX_WL][200];      /* varying parameters only, "\n"-joined */
    char var[DH__MAX_VAR][300];
    char colour[DH__MAX_VAR][8];         /* "#rrggbb": dh__variant_colour */
    const struct dh_run *cell[DH__MAX_WL][DH__MAX_VAR];
    int dropped;                         /* runs beyond DH__MAX_WL / DH__MAX_VAR */
};

/* The colour of a variant label in every chart of the file: one hue per
 * variant family (baseline grey, cpu_tdr blue, gpu_tdr orange, melded
 * green, anything else purple), a shade within it per label of that
 * family in the file (evenly spaced from dark to light), so that no two
 * labels of the file share a colour and a family reads at a glance. */
void dh__variant_colour(const struct dh_resultfile *f, const char *label, char out[8]);

void dh__grid_build(const struct dh_resultfile *f, const char *suite, const char *bench,
                    const char *backend, const char *device, struct dh__grid *g);
/* r->dir/name.ext for writing; NULL with err set. */
FILE *dh__open_out(const struct dh_report *r, const char *name, const char *ext,
                   struct dh_err *err);
void dh_gp_quote(FILE *gp, const char *s);            /* a gnuplot string literal */
/* The script's head and the loop drawing its body once per format. */
void dh__gp_begin(FILE *gp, const struct dh_report *r, const char *name, int w, int h);
void dh__gp_end(FILE *gp);
void dh__gp_xtics(FILE *gp, const struct dh__grid *g, int rotate);
void dh__one_line(FILE *gp, const char *title);  /* y = 1 as a plot element */
int dh__add_chart(struct dh_report *r, enum dh_chart_kind k, const char *name,
                  const char *title, const char *bench, const char *backend,
                  const char *device);
void dh__note(struct dh_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Bar k of K in group w: its centre x and the width share bw. */
void dh__bar_x(int w, int k, int K, double *x, double *bw);
int dh__report_backends(struct dh_report *r, const char *suite, const char *bench,
                        char (*tb)[16], char (*td)[256], int nt, struct dh_err *err);
/* report_index.c: the gnuplot to run (0, or -1 when there is none), and
 * drawing NAME.gp in dir (0 when NAME.png was made) */
int dh_gnuplot_find(char *out, size_t len);
int dh_gnuplot_draw(const char *gnuplot, const char *dir, const char *name);
/* report_heatmap.c: one wg x nf map per run tuned over both */
int dh__report_heatmaps(struct dh_report *r, struct dh_err *err);

/* index.md of the report in r->dir: have_gnuplot/failed say whether and
 * how the charts were drawn (report_index.c). 0 or -DH_E_IO. */
int dh_report_write_index(const struct dh_report *r, int have_gnuplot, int failed,
                          struct dh_err *err);
/* `harness publish`: the nights of the history database at db_path as a
 * static site in dir (site.c): index.html, regressions.html, a page per
 * case. *cases and *steps count what it holds. 0 or -DH_E_* with err set. */
int dh_site_publish(const char *db_path, const char *dir, int *cases, int *steps,
                    struct dh_err *err);

/* DIR/index.html from DIR/index.md (report_html.c): the same report as
 * one HTML page; 0 or -DH_E_* with err set */
int dh_report_write_html(const char *dir, const char *title, struct dh_err *err);

/* ---- a vendor-comparison study (harness/stats/study.h's matrix) ---- */
struct dh_study;
/* The study's charts (report_study_charts.c): a heat map per technique
 * (workloads x targets) and a grouped bar chart per suite, listed in
 * r->charts (bench = the suite for the bars). 0 or -DH_E_IO. */
int dh_study_charts(struct dh_report *r, const struct dh_study *s, struct dh_err *err);
/* r->dir/index.md of the study (report_study.c); sources names the
 * results files for the header. 0 or -DH_E_IO. */
int dh_study_write_index(const struct dh_report *r, const struct dh_study *s,
                         const char *sources, int have_gnuplot, int failed,
                         struct dh_err *err);
/* dir/study.csv (a line per workload, target and technique) and
 * dir/study-geomean.csv (report_study.c), written atomically. */
int dh_study_write_csv(const char *dir, const struct dh_study *s, struct dh_err *err);

/* Print the model next to the measurement (runs with a model only), the
 * end of a run's summary (model_summary.c). */
void dh_model_summary(const struct dh_run *runs, int n);
/* where the divergence is: each baseline's blocks by the lane-cycles
 * divergence wastes in them (dh_model_summary prints it after its table) */
void dh_waste_summary(const struct dh_run *runs, int n);

/* remap_text.c: a run's remap overhead as a table cell ("1.12x", "n/a",
 * "failed", "-"), into buf */
const char *dh_remap_cell(const struct dh_run *u, char *buf, size_t len);
/* one line "<prefix>remap overhead n/a for BENCH: reason" per benchmark
 * and reason among the runs of bench on backend's device (each NULL: any);
 * the number of lines */
int dh_remap_na_lines(FILE *f, const struct dh_run *runs, int n, const char *bench,
                      const char *backend, const char *device, const char *prefix);

#endif
