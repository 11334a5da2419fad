/* report_study.c — a vendor-comparison study's report (report.h): the
 * matrix as index.md (targets, the answer per target, a matrix and the
 * baseline's CFE and ceiling per suite, the charts) and as study.csv and
 * study-geomean.csv for CI. The matrix is harness/stats/study.h's; the
 * charts are report_study_charts.c's.
 *
 * A cell without a speedup says why, in words and a numbered note, and is
 * an empty field in the CSV with its state beside it: never a zero.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../stats/study.h"

/* ---- text helpers ---- */

/* Markdown text inside a table cell: '|' escaped, '<' '>' '&' as entities
 * (device names and messages are data: they must not open HTML), line
 * breaks flattened. */
static void md(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '|': fputs("\\|", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '*': case '_': case '`': case '[': case ']': case '\\':
            fputc('\\', f);
            fputc(*s, f);
            break;
        case '\n': case '\r': case '\t': fputc(' ', f); break;
        default: fputc(*s, f);
        }
    }
}

static void x_text(char *out, size_t len, double v)
{
    if (!isfinite(v))
        snprintf(out, len, "?");
    else
        snprintf(out, len, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
}

/* "1.82× [1.75, 1.90]" */
static void sp_text(char *out, size_t len, double sp, double lo, double hi)
{
    char a[32], b[32], c[32];
    x_text(a, sizeof a, sp);
    if (isfinite(lo) && isfinite(hi)) {
        x_text(b, sizeof b, lo);
        x_text(c, sizeof c, hi);
        snprintf(out, len, "%s× [%s, %s]", a, b, c);
    } else {
        snprintf(out, len, "%s× (no interval)", a);
    }
}

static void target_name(const struct dh_study_col *c, char *out, size_t len)
{
    snprintf(out, len, "%s: %s", c->backend, c->device);
}

/* a column that ran on an AMD GPU (HIP's device names: "AMD ..." or a gfx arch) */
static int has_amd_target(const struct dh_study *s)
{
    for (int col = 0; col < s->n_cols; col++)
        if (!strcmp(s->cols[col].backend, "hip") &&
            (strstr(s->cols[col].device, "AMD") || strstr(s->cols[col].device, "gfx") ||
             strstr(s->cols[col].device, "Radeon") || strstr(s->cols[col].device, "Instinct")))
            return 1;
    return 0;
}

/* ---- CSV ---- */

/* A field, always quoted (RFC 4180, quotes doubled); a text field that a
 * spreadsheet would take for a formula gets a leading apostrophe. */
static void csv_text(FILE *f, const char *s, int last)
{
    fputc('"', f);
    if (strchr("=+-@", s[0]) && s[0])
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('"', f);
    fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v, int last)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    fputc(last ? '\n' : ',', f);
}

static void csv_int(FILE *f, int v, int last)
{
    fprintf(f, "%d%c", v, last ? '\n' : ',');
}

/* path + ".tmp", then rename: a reader never sees half a file */
static FILE *open_tmp(const char *dir, const char *name, char *path, size_t len, char *tmp,
                      size_t tlen, struct dh_err *err)
{
    snprintf(path, len, "%s/%s", dir, name);
    snprintf(tmp, tlen, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        dh_err_set(err, DH_E_IO, "cannot write %s: %s", tmp, strerror(errno));
    return f;
}

static int close_tmp(FILE *f, const char *tmp, const char *path, struct dh_err *err)
{
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        unlink(tmp);
        return dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(errno));
    }
    return 0;
}

int dh_study_write_csv(const char *dir, const struct dh_study *s, struct dh_err *err)
{
    char path[4400], tmp[4400];
    FILE *f = open_tmp(dir, "study.csv", path, sizeof path, tmp, sizeof tmp, err);
    if (!f)
        return -DH_E_IO;
    fputs("suite,benchmark,size,workload,backend,device,warp_width,technique,state,"
          "configuration,speedup,speedup_lo,speedup_hi,metric,speedup_kernel,speedup_e2e,"
          "best,best_clear,other_configs_failed,baseline_state,baseline_kernel_ms,baseline_cfe,"
          "cfe_source,remap_ceiling,reason\n", f);
    for (int row = 0; row < s->n_rows; row++)
        for (int col = 0; col < s->n_cols; col++) {
            const struct dh_study_row *r = &s->rows[row];
            const struct dh_study_col *k = &s->cols[col];
            const struct dh_study_base *b = dh_study_base(s, row, col);
            size_t at = (size_t)row * (size_t)s->n_cols + (size_t)col;
            for (int t = 0; t < s->n_tech; t++) {
                const struct dh_study_cell *c = dh_study_cell(s, row, col, t);
                int ok = c->state == DH_STUDY_OK;
                csv_text(f, r->suite, 0);
                csv_text(f, r->bench, 0);
                csv_text(f, r->size, 0);
                csv_text(f, r->workload, 0);
                csv_text(f, k->backend, 0);
                csv_text(f, k->device, 0);
                csv_int(f, k->warp_width, 0);
                csv_text(f, s->tech[t], 0);
                csv_text(f, dh_study_state_name(c->state), 0);
                csv_text(f, ok ? c->label : "", 0);
                csv_num(f, ok ? c->sp : NAN, 0);
                csv_num(f, ok ? c->lo : NAN, 0);
                csv_num(f, ok ? c->hi : NAN, 0);
                csv_text(f, ok ? (c->end_to_end ? "end-to-end" : "kernel") : "", 0);
                csv_num(f, ok ? c->sp_kernel : NAN, 0);
                csv_num(f, ok ? c->sp_e2e : NAN, 0);
                csv_int(f, s->best[at] == t, 0);
                csv_int(f, s->best[at] == t && s->best_clear[at], 0);
                csv_int(f, c->n_bad, 0);
                csv_text(f, dh_study_state_name(b->state), 0);
                csv_num(f, b->state == DH_STUDY_OK ? b->median_ms : NAN, 0);
                csv_num(f, b->state == DH_STUDY_OK ? b->cfe : NAN, 0);
                csv_text(f, b->state == DH_STUDY_OK ? b->cfe_source : "", 0);
                csv_num(f, b->ceiling > 0 ? b->ceiling : NAN, 0);
                csv_text(f, ok ? "" : c->reason, 1);
            }
        }
    int rc = close_tmp(f, tmp, path, err);
    if (rc)
        return rc;
    f = open_tmp(dir, "study-geomean.csv", path, sizeof path, tmp, sizeof tmp, err);
    if (!f)
        return -DH_E_IO;
    fputs("suite,backend,device,warp_width,technique,geomean,geomean_lo,geomean_hi,min,max,"
          "cells_ok,rows,wins,baseline_wins\n", f);
    char suites[64][32];
    int ns = dh_study_suites(s, suites, 64);
    for (int q = 0; q <= ns; q++)
        for (int col = 0; col < s->n_cols; col++)
            for (int t = 0; t < s->n_tech; t++) {
                const char *su = q < ns ? suites[q] : NULL;
                struct dh_study_gm g;
                dh_study_geomean(s, su, col, t, &g);
                csv_text(f, su ? su : "(all)", 0);
                csv_text(f, s->cols[col].backend, 0);
                csv_text(f, s->cols[col].device, 0);
                csv_int(f, s->cols[col].warp_width, 0);
                csv_text(f, s->tech[t], 0);
                csv_num(f, g.gm, 0);
                csv_num(f, g.lo, 0);
                csv_num(f, g.hi, 0);
                csv_num(f, g.min, 0);
                csv_num(f, g.max, 0);
                csv_int(f, g.n, 0);
                csv_int(f, g.of, 0);
                csv_int(f, g.wins, 0);
                csv_int(f, dh_study_baseline_wins(s, su, col), 1);
            }
    return close_tmp(f, tmp, path, err);
}

/* ---- index.md ---- */

struct notes {
    int n;
    char text[512][400];
};

/* The number of a note (1-based): the same text keeps its number, so a
 * reason shared by many cells (a family a benchmark lacks) is told once
 * per suite. 0 when the notes are full. */
static int note_add(struct notes *nt, int first, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int note_add(struct notes *nt, int first, const char *fmt, ...)
{
    char text[sizeof nt->text[0]];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (int k = first; k < nt->n; k++)
        if (!strcmp(nt->text[k], text))
            return k + 1;
    if (nt->n >= 512)
        return 0;
    memcpy(nt->text[nt->n], text, sizeof text);
    return ++nt->n;
}

static void chart_link(FILE *f, const struct dh_chart *c)
{
    fprintf(f, "**");
    md(f, c->title);
    fprintf(f, "**\n\n");
    if (c->drawn)
        fprintf(f, "![%s](%s.png)\n\n[SVG](%s.svg) · [gnuplot script](%s.gp) · [data](%s.dat)"
                   "\n\n", c->name, c->name, c->name, c->name, c->name);
    else
        fprintf(f, "Not drawn: [gnuplot script](%s.gp) · [data](%s.dat) — run `gnuplot %s.gp` "
                   "in this folder.\n\n", c->name, c->name, c->name);
}

/* One matrix cell: every technique on its own line, the best starred. */
static void matrix_cell(FILE *f, const struct dh_study *s, int row, int col, struct notes *nt,
                        int first_note)
{
    size_t at = (size_t)row * (size_t)s->n_cols + (size_t)col;
    const struct dh_study_base *b = dh_study_base(s, row, col);
    fputc(' ', f);
    if (!b->runs) {
        fputs("not run here |", f);
        return;
    }
    for (int t = 0; t < s->n_tech; t++) {
        const struct dh_study_cell *c = dh_study_cell(s, row, col, t);
        if (t)
            fputs("<br>", f);
        if (c->state == DH_STUDY_OK) {
            char sp[96];
            sp_text(sp, sizeof sp, c->sp, c->lo, c->hi);
            int best = s->best[at] == t;
            if (best)
                fputs(s->best_clear[at] ? "★ **" : "☆ **", f);
            md(f, s->tech[t]);
            fprintf(f, " %s%s", sp, best ? "**" : "");
            if (c->end_to_end)
                fputs(" e2e", f);
            const char *ch = strchr(c->label, '[');
            if (ch) {
                fputc(' ', f);
                md(f, ch);
            }
            if (c->n_bad) {
                int k = note_add(nt, first_note, "%s %s on %s: %s: %d other configuration%s "
                                 "failed or wrong (see the results file)", s->rows[row].bench,
                                 s->rows[row].label, s->cols[col].device, s->tech[t], c->n_bad,
                                 c->n_bad == 1 ? "" : "s");
                fprintf(f, " (+%d failed", c->n_bad);
                if (k)
                    fprintf(f, " [%d]", k);
                fputc(')', f);
            }
        } else {
            /* a family the benchmark lacks: one note for every cell it leaves
             * empty; anything else: where, and the run's own message */
            int k = c->state == DH_STUDY_ABSENT
                    ? note_add(nt, first_note, "%s", c->reason)
                    : note_add(nt, first_note, "%s %s on %s: %s: %s", s->rows[row].bench,
                               s->rows[row].label, s->cols[col].device, s->tech[t], c->reason);
            md(f, s->tech[t]);
            fprintf(f, " — *%s*", dh_study_state_name(c->state));
            if (k)
                fprintf(f, " [%d]", k);
        }
    }
    if (s->best[at] == DH_STUDY_BEST_BASELINE)
        fputs("<br>★ **baseline** (every technique slower)", f);
    fputs(" |", f);
}

static void gm_cell(FILE *f, const struct dh_study *s, const char *suite, int col)
{
    fputc(' ', f);
    for (int t = 0; t < s->n_tech; t++) {
        struct dh_study_gm g;
        dh_study_geomean(s, suite, col, t, &g);
        if (t)
            fputs("<br>", f);
        md(f, s->tech[t]);
        if (g.n) {
            char a[96], lo[32], hi[32];
            sp_text(a, sizeof a, g.gm, g.lo, g.hi);
            x_text(lo, sizeof lo, g.min);
            x_text(hi, sizeof hi, g.max);
            fprintf(f, " **%s** (%d of %d; range %s–%s), best in %d", a, g.n, g.of, lo, hi,
                    g.wins);
        } else {
            fprintf(f, " — (0 of %d)", g.of);
        }
    }
    int bw = dh_study_baseline_wins(s, suite, col);
    if (bw)
        fprintf(f, "<br>baseline best in %d", bw);
    fputs(" |", f);
}

static void head_row(FILE *f, const struct dh_study *s, const char *first, const char *second)
{
    fprintf(f, "| %s | %s |", first, second);
    for (int col = 0; col < s->n_cols; col++) {
        char t[300];
        target_name(&s->cols[col], t, sizeof t);
        fprintf(f, " ");
        md(f, t);
        fprintf(f, " |");
    }
    fprintf(f, "\n|---|---|");
    for (int col = 0; col < s->n_cols; col++)
        fprintf(f, "---|");
    fprintf(f, "\n");
}

static void base_cell(FILE *f, const struct dh_study_base *b, int warp)
{
    fputc(' ', f);
    if (!b->runs) {
        fputs("not run here |", f);
        return;
    }
    if (b->state != DH_STUDY_OK) {
        fprintf(f, "baseline *%s*: ", dh_study_state_name(b->state));
        md(f, b->reason);
    } else if (isfinite(b->cfe)) {
        fprintf(f, "CFE %.3f (%s)", b->cfe, b->cfe_source[0] == 'c' ? "counters" : "model");
        if (b->cfe > 0)
            fprintf(f, ", 1/CFE %.2f×", 1 / b->cfe);
    } else {
        fputs("CFE *unknown* (no counters, no model)", f);
    }
    if (b->ceiling > 0)
        fprintf(f, "<br>ceiling %.2f× at warp %d", b->ceiling, warp);
    else
        fputs("<br>ceiling *unknown*", f);
    fputs(" |", f);
}

int dh_study_write_index(const struct dh_report *r, const struct dh_study *s,
                         const char *sources, int have_gnuplot, int failed, struct dh_err *err)
{
    char path[4400], tmp[4400];
    FILE *f = open_tmp(r->dir, "index.md", path, sizeof path, tmp, sizeof tmp, err);
    if (!f)
        return -DH_E_IO;
    static struct notes nt;
    nt.n = 0;
    int truncated = 0;
    char suites[64][32];
    int ns = dh_study_suites(s, suites, 64);
    fprintf(f, "# Vendor-comparison study\n\n");
    fprintf(f, "Made by `harness study` from ");
    md(f, sources);
    fprintf(f, " (%d run%s): %d workload%s in %d suite%s on %d target%s, techniques ",
            r->f->n_runs, r->f->n_runs == 1 ? "" : "s", s->n_rows, s->n_rows == 1 ? "" : "s",
            ns, ns == 1 ? "" : "s", s->n_cols, s->n_cols == 1 ? "" : "s");
    for (int t = 0; t < s->n_tech; t++) {
        fprintf(f, "%s", t ? (t + 1 == s->n_tech ? " and " : ", ") : "");
        md(f, s->tech[t]);
    }
    fprintf(f, "%s.\n\n", s->n_tech ? "" : "(none: the results hold baselines only)");
    fprintf(f,
        "**How to read it.** A cell is one technique's speedup over the baseline on that "
        "target: the median time of the tuned baseline over the median time of the "
        "technique's best configuration (its best choice of `alg`, `mech`, `regroup`, each "
        "tuned), with the 95%% bootstrap interval of that ratio. Kernel time for every "
        "technique but cpu_tdr, whose figure is end to end (*e2e*: host regrouping and "
        "transfers included). ★ marks the best technique of a cell when it is clear (its "
        "interval lies above 1 and above the runner-up's), ☆ when it is best on the "
        "medians only; *baseline* is best when every technique is slower beyond its "
        "interval. A technique with no figure says why (*not run*, *absent* from the "
        "benchmark by design, *unsupported*, *failed*, *wrong*, *no baseline*; the note "
        "gives the message): it is never a "
        "zero and never enters a mean. Geometric means are over the cells with a "
        "figure (\"n of N\" rows), with the 95%% interval that the cells' own intervals "
        "give it (the measurement's uncertainty) and the range over the workloads (how "
        "much the answer depends on the workload). The best configuration is picked on "
        "its median, so with many configurations its interval is slightly optimistic.\n\n");
    if (s->dropped)
        fprintf(f, "*%d run%s of more than %d techniques left out.*\n\n", s->dropped,
                s->dropped == 1 ? "" : "s", DH_STUDY_MAX_TECH);

    fprintf(f, "## Targets\n\n| target | warp width | baseline CFE, mean (rows, source) | remap "
               "ceiling, geomean (rows) |\n|---|---|---|---|\n");
    for (int col = 0; col < s->n_cols; col++) {
        double cfe, ceil;
        int ncfe, nceil;
        dh_study_base_summary(s, NULL, col, &cfe, &ncfe, &ceil, &nceil);
        char t[300];
        target_name(&s->cols[col], t, sizeof t);
        fprintf(f, "| ");
        md(f, t);
        if (s->cols[col].warp_width)
            fprintf(f, " | %d |", s->cols[col].warp_width);
        else
            fprintf(f, " | unknown |");
        if (ncfe) {
            /* where the figures came from: CUPTI's counters or the BBV model */
            int nc = 0, nm = 0;
            for (int row = 0; row < s->n_rows; row++) {
                const struct dh_study_base *b = dh_study_base(s, row, col);
                if (b->state != DH_STUDY_OK || !isfinite(b->cfe))
                    continue;
                nc += !strcmp(b->cfe_source, "counters");
                nm += !strcmp(b->cfe_source, "model");
            }
            fprintf(f, " %.3f (%d%s) |", cfe, ncfe,
                    nc && !nm ? ", counters" : nm && !nc ? ", modeled" : nc && nm ? ", mixed" : "");
        }
        else
            fprintf(f, " unknown (no counters, no model) |");
        if (nceil)
            fprintf(f, " %.2f× (%d) |\n", ceil, nceil);
        else
            fprintf(f, " unknown |\n");
    }
    fprintf(f, "\nThe remap ceiling is the best speedup any regrouping inside a work-group can "
               "give on the input at the target's warp width: a 64-wide target's ceiling "
               "differs from a 32-wide one's on the same input. 1/CFE is the potential.\n\n");
    if (!has_amd_target(s))
        fprintf(f, "Not in this study: HIP on AMD GPUs. Every kernel build is compiled for "
                   "AMD (gfx90a, wave64; gfx1030, wave32) by `make hip-check`, but none ran "
                   "here: no AMD device was at hand, so no figure for it exists.\n\n");

    fprintf(f, "## The answer: each technique per target, every suite\n\n");
    head_row(f, s, "suites", "");
    fprintf(f, "| all | geomean |");
    for (int col = 0; col < s->n_cols; col++)
        gm_cell(f, s, NULL, col);
    fprintf(f, "\n");
    for (int q = 0; q < ns; q++) {
        fprintf(f, "| ");
        md(f, suites[q]);
        fprintf(f, " | geomean |");
        for (int col = 0; col < s->n_cols; col++)
            gm_cell(f, s, suites[q], col);
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
    for (int i = 0; i < r->n_charts; i++)
        if (r->charts[i].kind == DH_CHART_STUDY_HEATMAP)
            chart_link(f, &r->charts[i]);

    for (int q = 0; q < ns; q++) {
        fprintf(f, "## Suite ");
        md(f, suites[q]);
        fprintf(f, "\n\n### Speedup over the tuned baseline\n\n");
        int first_note = nt.n;
        head_row(f, s, "benchmark", "workload");
        for (int row = 0; row < s->n_rows; row++) {
            if (strcmp(s->rows[row].suite, suites[q]))
                continue;
            fprintf(f, "| ");
            md(f, s->rows[row].bench);
            fprintf(f, " | ");
            md(f, s->rows[row].label[0] ? s->rows[row].label : "(one workload)");
            fprintf(f, " |");
            for (int col = 0; col < s->n_cols; col++)
                matrix_cell(f, s, row, col, &nt, first_note);
            fprintf(f, "\n");
        }
        fprintf(f, "| **geomean** | |");
        if (nt.n >= (int)(sizeof nt.text / sizeof nt.text[0]))
            truncated = 1;
        for (int col = 0; col < s->n_cols; col++)
            gm_cell(f, s, suites[q], col);
        fprintf(f, "\n\n");
        if (nt.n > first_note) {
            fprintf(f, "Notes:\n\n");
            for (int k = first_note; k < nt.n; k++) {
                fprintf(f, "%d. ", k + 1);
                md(f, nt.text[k]);
                fprintf(f, "\n");
            }
            fprintf(f, "\n");
        }
        fprintf(f, "### Baseline CFE and remap ceiling\n\n");
        head_row(f, s, "benchmark", "workload");
        for (int row = 0; row < s->n_rows; row++) {
            if (strcmp(s->rows[row].suite, suites[q]))
                continue;
            fprintf(f, "| ");
            md(f, s->rows[row].bench);
            fprintf(f, " | ");
            md(f, s->rows[row].label[0] ? s->rows[row].label : "(one workload)");
            fprintf(f, " |");
            for (int col = 0; col < s->n_cols; col++)
                base_cell(f, dh_study_base(s, row, col), s->cols[col].warp_width);
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
        for (int i = 0; i < r->n_charts; i++)
            if (r->charts[i].kind == DH_CHART_STUDY_BARS && !strcmp(r->charts[i].bench, suites[q]))
                chart_link(f, &r->charts[i]);
    }
    if (truncated)
        fprintf(f, "*More cells lack a figure than the notes hold: study.csv gives every "
                   "reason.*\n\n");
    fprintf(f, "## Files\n\n[study.csv](study.csv): one line per benchmark workload, target "
               "and technique (state, speedup and interval, best, baseline CFE, ceiling, "
               "reason); [study-geomean.csv](study-geomean.csv): the geometric means. "
               "The charts' scripts (`.gp`) and data (`.dat`) are beside them.\n\n");
    if (!have_gnuplot)
        fprintf(f, "*Charts not drawn: gnuplot is not installed (`sudo apt-get install "
                   "gnuplot-nox`, then run the `.gp` scripts in this folder).*\n\n");
    else if (failed)
        fprintf(f, "*%d chart%s failed to draw: see the `.log` files beside them.*\n\n", failed,
                failed == 1 ? "" : "s");
    for (int i = 0; i < r->n_notes; i++) {
        fprintf(f, "- ");
        md(f, r->notes[i]);
        fprintf(f, "\n");
    }
    return close_tmp(f, tmp, path, err);
}
