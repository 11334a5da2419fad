/* study.c — the matrix of a vendor-comparison study (study.h). */
#include "study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "../../suites/suite.h"

const char *dh_study_state_name(enum dh_study_state s)
{
    switch (s) {
    case DH_STUDY_OK: return "ok";
    case DH_STUDY_NOT_RUN: return "not run";
    case DH_STUDY_ABSENT: return "absent";
    case DH_STUDY_UNSUPPORTED: return "unsupported";
    case DH_STUDY_FAILED: return "failed";
    case DH_STUDY_WRONG: return "wrong";
    case DH_STUDY_NO_BASELINE: return "no baseline";
    }
    return "?";
}

/* The class of a failed run's status: what stopped it on this target. */
static enum dh_study_state state_of(int status)
{
    switch (status) {
    case 0: return DH_STUDY_OK;
    case DH_E_WRONG: return DH_STUDY_WRONG;
    case DH_E_UNSUPPORTED: case DH_E_CONSTRAINT: case DH_E_UNAVAILABLE: case DH_E_RESOURCES:
        return DH_STUDY_UNSUPPORTED;
    default: return DH_STUDY_FAILED;
    }
}

/* Which of two reasons a cell shows: a wrong result first (it must not
 * hide behind a working configuration's absence), then a failure, then a
 * refusal. */
static int severity(enum dh_study_state s)
{
    return s == DH_STUDY_WRONG ? 3 : s == DH_STUDY_FAILED ? 2 : s == DH_STUDY_UNSUPPORTED ? 1 : 0;
}

static void reason_of(const struct dh_run *u, char *out, size_t len)
{
    char label[300];
    dh_case_variant_label(&u->c, label, sizeof label);
    const char *m = u->r.message[0] ? u->r.message : dh_strerror(u->r.status);
    snprintf(out, len, "%s %s: %.240s", label, dh_err_name(u->r.status), m);
    for (char *p = out; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

/* The reason a benchmark gives for leaving out a variant family: its
 * `absent` text is "family: why; family: why" (a why may hold "; " too). */
static void absent_why(const struct dh_bench *b, const char *tech, char *out, size_t len)
{
    static const char *const fam[] = {"baseline", "cpu_tdr", "gpu_tdr", "melded", "predicated"};
    const char *a = b->absent ? b->absent : "", *at = NULL;
    size_t tl = strlen(tech);
    for (const char *p = a; (p = strstr(p, tech)); p += tl)
        if ((p == a || (p >= a + 2 && p[-2] == ';' && p[-1] == ' ')) && p[tl] == ':') {
            at = p + tl + 1;
            break;
        }
    if (!at) {
        snprintf(out, len, "%s/%s has no %s variant", b->suite, b->name, tech);
        return;
    }
    while (*at == ' ')
        at++;
    size_t n = strlen(at);
    for (const char *p = at; (p = strstr(p, "; ")); p += 2)
        for (size_t k = 0; k < sizeof fam / sizeof fam[0]; k++) {
            size_t fl = strlen(fam[k]);
            if (!strncmp(p + 2, fam[k], fl) && p[2 + fl] == ':' && (size_t)(p - at) < n)
                n = (size_t)(p - at);
        }
    snprintf(out, len, "%s/%s has no %s variant: %.*s", b->suite, b->name, tech, (int)n, at);
}

static int tech_rank(const char *v)
{
    static const char *const order[] = {"cpu_tdr", "gpu_tdr", "melded"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(v, order[k]))
            return k;
    return 3;
}

static void row_key(const struct dh_case *c, char *wl, size_t len)
{
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, len);
}

static int find_row(const struct dh_study *s, const struct dh_case *c, const char *wl)
{
    for (int i = 0; i < s->n_rows; i++) {
        const struct dh_study_row *r = &s->rows[i];
        if (!strcmp(r->suite, c->suite) && !strcmp(r->bench, c->bench_name)
                && !strcmp(r->size, c->size) && !strcmp(r->workload, wl))
            return i;
    }
    return -1;
}

static int find_col(const struct dh_study *s, const struct dh_case *c)
{
    for (int i = 0; i < s->n_cols; i++)
        if (!strcmp(s->cols[i].backend, c->backend) && !strcmp(s->cols[i].device, c->device_name))
            return i;
    return -1;
}

static int find_tech(const struct dh_study *s, const char *v)
{
    for (int i = 0; i < s->n_tech; i++)
        if (!strcmp(s->tech[i], v))
            return i;
    return -1;
}

void dh_study_free(struct dh_study *s)
{
    free(s->rows);
    free(s->cols);
    free(s->cells);
    free(s->base);
    free(s->best);
    free(s->best_clear);
    memset(s, 0, sizeof *s);
}

/* Rows, columns and techniques, in the order the runs give them; rows
 * then grouped by suite (stable), suites in the order first seen. */
static int shape(const struct dh_run *runs, int n, struct dh_study *s)
{
    s->rows = calloc((size_t)(n ? n : 1), sizeof *s->rows);
    s->cols = calloc((size_t)(n ? n : 1), sizeof *s->cols);
    if (!s->rows || !s->cols)
        return -1;
    for (int i = 0; i < n; i++) {
        const struct dh_case *c = &runs[i].c;
        char wl[400];
        row_key(c, wl, sizeof wl);
        if (find_row(s, c, wl) < 0) {
            struct dh_study_row *r = &s->rows[s->n_rows++];
            snprintf(r->suite, sizeof r->suite, "%s", c->suite);
            snprintf(r->bench, sizeof r->bench, "%s", c->bench_name);
            snprintf(r->size, sizeof r->size, "%s", c->size);
            snprintf(r->workload, sizeof r->workload, "%s", wl);
            r->first = c;
        }
        if (find_col(s, c) < 0) {
            struct dh_study_col *k = &s->cols[s->n_cols++];
            snprintf(k->backend, sizeof k->backend, "%s", c->backend);
            snprintf(k->device, sizeof k->device, "%s", c->device_name);
        }
        if (strcmp(c->variant, "baseline") && find_tech(s, c->variant) < 0
                && s->n_tech < DH_STUDY_MAX_TECH)
            snprintf(s->tech[s->n_tech++], sizeof s->tech[0], "%s", c->variant);
    }
    /* techniques: cpu_tdr, gpu_tdr, melded, then the others as found */
    for (int a = 1; a < s->n_tech; a++)
        for (int b = a; b > 0 && tech_rank(s->tech[b]) < tech_rank(s->tech[b - 1]); b--) {
            char t[24];
            memcpy(t, s->tech[b], sizeof t);
            memcpy(s->tech[b], s->tech[b - 1], sizeof t);
            memcpy(s->tech[b - 1], t, sizeof t);
        }
    /* rows grouped by suite: a stable insertion sort on the suite's first place */
    char suites[64][32];
    int ns = 0;
    for (int i = 0; i < s->n_rows && ns < 64; i++) {
        int k = 0;
        while (k < ns && strcmp(suites[k], s->rows[i].suite))
            k++;
        if (k == ns)
            snprintf(suites[ns++], sizeof suites[0], "%s", s->rows[i].suite);
    }
    for (int a = 1; a < s->n_rows; a++) {
        for (int b = a; b > 0; b--) {
            int kb = 0, ka = 0;
            while (kb < ns && strcmp(suites[kb], s->rows[b].suite))
                kb++;
            while (ka < ns && strcmp(suites[ka], s->rows[b - 1].suite))
                ka++;
            if (kb >= ka)
                break;
            struct dh_study_row t = s->rows[b];
            s->rows[b] = s->rows[b - 1];
            s->rows[b - 1] = t;
        }
    }
    return 0;
}

/* Row labels: per benchmark, the workload parameters that vary among its
 * rows (and the size where sizes differ). */
static void label_rows(struct dh_study *s)
{
    const struct dh_case **cs = malloc((size_t)(s->n_rows ? s->n_rows : 1) * sizeof *cs);
    if (!cs)
        return;                         /* the labels stay empty: the workload is in the CSV */
    for (int i = 0; i < s->n_rows; i++) {
        struct dh_study_row *r = &s->rows[i];
        int nc = 0, sizes = 0;
        for (int j = 0; j < s->n_rows; j++) {
            if (strcmp(s->rows[j].suite, r->suite) || strcmp(s->rows[j].bench, r->bench))
                continue;
            sizes |= strcmp(s->rows[j].size, r->size) != 0;
            cs[nc++] = s->rows[j].first;
        }
        char names[DH_MAX_PARAMS][24], w[256] = "";
        int nn = dh_varying_workload(cs, nc, names, DH_MAX_PARAMS);
        dh_workload_short(r->first, names, nn, w, sizeof w);
        snprintf(r->label, sizeof r->label, "%s%s%s", sizes ? r->size : "",
                 sizes && w[0] ? " " : "", w);
    }
    free(cs);
}

static double headline(const struct dh_run *u, int e2e, double *lo, double *hi)
{
    *lo = e2e ? u->sp_e2e_lo : u->sp_kernel_lo;
    *hi = e2e ? u->sp_e2e_hi : u->sp_kernel_hi;
    return e2e ? u->sp_e2e : u->sp_kernel;
}

int dh_study_build(const struct dh_run *runs, int n, const struct dh_devlist *devs,
                   struct dh_study *s, struct dh_err *err)
{
    memset(s, 0, sizeof *s);
    if (shape(runs, n, s))
        goto oom;
    label_rows(s);
    size_t rc = (size_t)(s->n_rows ? s->n_rows : 1) * (size_t)(s->n_cols ? s->n_cols : 1);
    int T = s->n_tech ? s->n_tech : 1;
    s->cells = calloc(rc * (size_t)T, sizeof *s->cells);
    s->base = calloc(rc, sizeof *s->base);
    s->best = calloc(rc, sizeof *s->best);
    s->best_clear = calloc(rc, sizeof *s->best_clear);
    if (!s->cells || !s->base || !s->best || !s->best_clear)
        goto oom;
    for (size_t i = 0; i < rc; i++) {
        s->base[i].state = DH_STUDY_NOT_RUN;
        s->base[i].cfe = NAN;
        snprintf(s->base[i].reason, sizeof s->base[i].reason, "no baseline run here");
        for (int t = 0; t < s->n_tech; t++) {
            struct dh_study_cell *c = &s->cells[i * (size_t)s->n_tech + (size_t)t];
            c->state = DH_STUDY_NOT_RUN;
            c->sp = c->lo = c->hi = c->sp_kernel = c->sp_e2e = NAN;
        }
    }
    /* warp widths: the results' devices, else any run's */
    for (int k = 0; k < s->n_cols; k++) {
        struct dh_study_col *col = &s->cols[k];
        for (int d = 0; devs && d < devs->n && !col->warp_width; d++)
            if (!strcmp(devs->d[d].backend, col->backend)
                    && !strcmp(devs->d[d].info.name, col->device))
                col->warp_width = devs->d[d].info.warp_width;
        for (int i = 0; i < n && !col->warp_width; i++)
            if (!strcmp(runs[i].c.backend, col->backend)
                    && !strcmp(runs[i].c.device_name, col->device))
                col->warp_width = runs[i].r.warp_width;
    }
    /* the best ok-with-speedup configuration per cell; else the worst reason */
    int *sev = calloc(rc * (size_t)T, sizeof *sev);
    if (!sev)
        goto oom;
    for (int i = 0; i < n; i++) {
        const struct dh_run *u = &runs[i];
        char wl[400];
        row_key(&u->c, wl, sizeof wl);
        int row = find_row(s, &u->c, wl), col = find_col(s, &u->c);
        struct dh_study_base *b = dh_study_base(s, row, col);
        b->runs++;
        if (u->r.ceiling > 0 && u->r.ceiling > b->ceiling)
            b->ceiling = u->r.ceiling;
        if (!strcmp(u->c.variant, "baseline")) {
            if (u->r.status == 0 && u->r.n > 0) {
                b->state = DH_STUDY_OK;
                b->median_ms = u->kernel.median;
                b->cfe = u->cfe;
                snprintf(b->cfe_source, sizeof b->cfe_source, "%s", u->cfe_source);
                b->reason[0] = 0;
            } else if (b->state != DH_STUDY_OK) {
                b->state = state_of(u->r.status);
                reason_of(u, b->reason, sizeof b->reason);
            }
            continue;
        }
        int t = find_tech(s, u->c.variant);
        if (t < 0) {
            s->dropped++;
            continue;
        }
        struct dh_study_cell *c = dh_study_cell(s, row, col, t);
        int *sv = &sev[((size_t)row * (size_t)s->n_cols + (size_t)col) * (size_t)s->n_tech
                       + (size_t)t];
        int e2e = !strcmp(u->c.variant, "cpu_tdr");
        if (u->r.status == 0 && u->has_speedup) {
            double lo, hi, sp = headline(u, e2e, &lo, &hi);
            if (c->state != DH_STUDY_OK || sp > c->sp) {
                c->state = DH_STUDY_OK;
                c->run = u;
                c->sp = sp;
                c->lo = lo;
                c->hi = hi;
                c->sp_kernel = u->sp_kernel;
                c->sp_e2e = u->sp_e2e;
                c->end_to_end = e2e;
                dh_case_variant_label(&u->c, c->label, sizeof c->label);
                c->reason[0] = 0;
            }
            continue;
        }
        enum dh_study_state st = u->r.status == 0 ? DH_STUDY_NO_BASELINE : state_of(u->r.status);
        if (st == DH_STUDY_WRONG || st == DH_STUDY_FAILED)
            c->n_bad++;                 /* told beside an ok cell, too */
        if (c->state == DH_STUDY_OK)
            continue;
        /* no baseline ranks below a failure: a failure of the technique
         * itself is news, a missing baseline is the row's */
        int v = st == DH_STUDY_NO_BASELINE ? 1 : 1 + severity(st);
        if (v > *sv) {
            *sv = v;
            c->state = st;
            c->run = u;
            if (st != DH_STUDY_NO_BASELINE)
                reason_of(u, c->reason, sizeof c->reason);
        }
    }
    free(sev);
    for (int row = 0; row < s->n_rows; row++)
        for (int col = 0; col < s->n_cols; col++) {
            const struct dh_study_base *b = dh_study_base(s, row, col);
            int best = DH_STUDY_BEST_NONE, second = -1;
            for (int t = 0; t < s->n_tech; t++) {
                struct dh_study_cell *c = dh_study_cell(s, row, col, t);
                const struct dh_bench *bench = s->rows[row].first ? s->rows[row].first->bench
                                                                   : NULL;
                if (c->state == DH_STUDY_NOT_RUN && bench
                        && !dh_bench_has_variant(bench, s->tech[t])) {
                    c->state = DH_STUDY_ABSENT;
                    absent_why(bench, s->tech[t], c->reason, sizeof c->reason);
                }
                if (c->state == DH_STUDY_NOT_RUN)
                    snprintf(c->reason, sizeof c->reason, "%s", b->runs
                             ? "no run of it on this target in the results (not planned, "
                               "or not offered here)"
                             : "this workload was not run on this target");
                if (c->state == DH_STUDY_NO_BASELINE)
                    snprintf(c->reason, sizeof c->reason, "ran, but the baseline did not: %s",
                             b->reason[0] ? b->reason : "no baseline run");
                if (c->state != DH_STUDY_OK)
                    continue;
                if (best < 0 || c->sp > dh_study_cell(s, row, col, best)->sp) {
                    second = best;
                    best = t;
                } else if (second < 0 || c->sp > dh_study_cell(s, row, col, second)->sp) {
                    second = t;
                }
            }
            size_t at = (size_t)row * (size_t)s->n_cols + (size_t)col;
            int clear = 0;
            if (best >= 0) {
                const struct dh_study_cell *c = dh_study_cell(s, row, col, best);
                int slower = 1;                         /* every technique, beyond doubt */
                for (int t = 0; t < s->n_tech; t++) {
                    const struct dh_study_cell *o = dh_study_cell(s, row, col, t);
                    if (o->state == DH_STUDY_OK && !(o->hi < 1))
                        slower = 0;
                }
                if (slower) {
                    best = DH_STUDY_BEST_BASELINE;
                    clear = 1;
                } else {
                    clear = c->lo > 1
                            && (second < 0 || c->lo > dh_study_cell(s, row, col, second)->hi);
                }
            }
            s->best[at] = best;
            s->best_clear[at] = clear;
        }
    return 0;
oom:
    dh_study_free(s);
    return dh_err_set(err, DH_E_RESOURCES, "out of memory for the study's matrix");
}

int dh_study_suites(const struct dh_study *s, char (*suite)[32], int max)
{
    int n = 0;
    for (int i = 0; i < s->n_rows; i++)
        if ((!n || strcmp(suite[n - 1], s->rows[i].suite)) && n < max)
            snprintf(suite[n++], 32, "%s", s->rows[i].suite);
    return n;
}

static int row_on(const struct dh_study *s, int row, int col)
{
    return dh_study_base(s, row, col)->runs > 0;
}

void dh_study_geomean(const struct dh_study *s, const char *suite, int col, int tech,
                      struct dh_study_gm *out)
{
    memset(out, 0, sizeof *out);
    out->gm = out->min = out->max = out->lo = out->hi = NAN;
    double sum = 0, var = 0;
    int with_ci = 0;
    for (int row = 0; row < s->n_rows; row++) {
        if (suite && strcmp(s->rows[row].suite, suite))
            continue;
        if (!row_on(s, row, col))
            continue;
        out->of++;
        out->wins += s->best[(size_t)row * (size_t)s->n_cols + (size_t)col] == tech;
        const struct dh_study_cell *c = dh_study_cell(s, row, col, tech);
        if (c->state != DH_STUDY_OK || !(c->sp > 0))
            continue;
        sum += log(c->sp);
        if (c->lo > 0 && c->hi >= c->lo) {
            double se = (log(c->hi) - log(c->lo)) / (2 * 1.959964);
            var += se * se;
            with_ci++;
        }
        out->min = out->n ? fmin(out->min, c->sp) : c->sp;
        out->max = out->n ? fmax(out->max, c->sp) : c->sp;
        out->n++;
    }
    if (out->n)
        out->gm = exp(sum / out->n);
    if (out->n && with_ci == out->n) {
        double se = sqrt(var) / out->n;
        out->lo = exp(sum / out->n - 1.959964 * se);
        out->hi = exp(sum / out->n + 1.959964 * se);
    }
}

int dh_study_baseline_wins(const struct dh_study *s, const char *suite, int col)
{
    int n = 0;
    for (int row = 0; row < s->n_rows; row++)
        if ((!suite || !strcmp(s->rows[row].suite, suite))
                && s->best[(size_t)row * (size_t)s->n_cols + (size_t)col] == DH_STUDY_BEST_BASELINE)
            n++;
    return n;
}

void dh_study_base_summary(const struct dh_study *s, const char *suite, int col,
                           double *mean_cfe, int *n_cfe, double *gm_ceiling, int *n_ceiling)
{
    double sc = 0, sl = 0;
    *n_cfe = *n_ceiling = 0;
    for (int row = 0; row < s->n_rows; row++) {
        if (suite && strcmp(s->rows[row].suite, suite))
            continue;
        const struct dh_study_base *b = dh_study_base(s, row, col);
        if (b->state == DH_STUDY_OK && isfinite(b->cfe)) {
            sc += b->cfe;
            (*n_cfe)++;
        }
        if (b->ceiling > 0) {
            sl += log(b->ceiling);
            (*n_ceiling)++;
        }
    }
    *mean_cfe = *n_cfe ? sc / *n_cfe : NAN;
    *gm_ceiling = *n_ceiling ? exp(sl / *n_ceiling) : NAN;
}
