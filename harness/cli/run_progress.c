/* run_progress.c — what `harness run` shows while and after it runs:
 * the progress of each case (a rewritten status line on a terminal, one
 * line per case in a log), where a case's time went, and the summary
 * table at the end. The hooks the runner calls before and after a case
 * live here too: they keep the progress and write each result. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../../results/xml.h"
#include "cli.h"
#include "run_progress.h"
#include "../stats/derive.h"
#include "../report/report.h"
#include "../stats/stats.h"
#include "../support/clock.h"
#include "../support/texttable.h"
#include "../../suites/suite.h"

static void clock_text(char *out, size_t len, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, len, "%ld:%02ld", t / 60, t % 60);
}

/* "[k/N 1:23, eta 4:56] suite/bench variant workload" of case i, the
 * k-th this process runs */
static void progress_head(const struct dh__run_ctx *x, int i, int k, char *out, size_t len)
{
    double el = (dh_now_ms() - x->t0) / 1000;
    char e[32], eta[48] = "";
    clock_text(e, sizeof e, el);
    if (x->ran > 0 && x->pending > x->ran) {
        char t[32];
        clock_text(t, sizeof t, el / x->ran * (x->pending - x->ran));
        snprintf(eta, sizeof eta, ", eta %s", t);
    }
    char label[300], wl[200];
    dh_case_variant_label(&x->runs[i].c, label, sizeof label);
    dh_pset_format(&x->runs[i].c.params, DH_P_WORKLOAD, wl, sizeof wl);
    snprintf(out, len, "[%d/%d %s%s] %s/%s %s %s", k, x->pending, e, eta, x->runs[i].c.suite, x->runs[i].c.bench_name, label, wl);
}

/* a terminal: one status line, rewritten, cut to the terminal's width */
static void status_line(const char *text)
{
    struct winsize ws;
    int w = ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col - 1 : 119;
    fprintf(stderr, "\r\033[K%.*s", w, text);
    fflush(stderr);
}

int dh__run_on_before(void *vctx, int i, struct dh_session *s)
{
    struct dh__run_ctx *x = vctx;
    struct dh_err e = {0};
    x->current = i;
    if (x->tty) {
        char line[800], head[700];
        progress_head(x, i, x->ran + 1, head, sizeof head);
        snprintf(line, sizeof line, "%s%s", head,
                 x->tune.mode != DH_TUNE_NONE && x->tune.mode != DH_TUNE_JOURNAL ? " (tuning)" : "");
        status_line(line);
    }
    int rc = dh_tune_case(s, &x->runs[i], &x->tune, &e);
    if (rc == -DH_E_CONSTRAINT) {
        x->runs[i].r.status = DH_E_CONSTRAINT;
        snprintf(x->runs[i].r.message, sizeof x->runs[i].r.message, "%s", e.msg);
    } else if (rc == -DH_E_IO && !x->write_failed) {
        fprintf(stderr, "\nharness run: warning: %s\n", e.msg);
    }
    if (x->runs[i].r.status == -1)
        dh_case_identity(&x->runs[i].c);      /* tunables changed; identity did not */
    return dh_runner_interrupted() ? -DH_E_INTERRUPTED : 0;
}

/* ", case 2.41 s: measure 1.20, counters 0.31, bbv 0.50": where a case's
 * wall time went, the parts of at least a tenth of it, largest first */
static void phases(const struct dh_result *r, char *out, size_t len)
{
    if (r->case_ms <= 0 || len < 2)
        return;
    struct { const char *name; double ms; } p[] = {
        {"setup", r->setup_ms}, {"bbv", r->bbv_ms}, {"build", r->build_ms},
        {"measure", r->measure_ms}, {"model", r->model_ms}, {"counters", r->counters_ms},
        {"remap", r->remap_ms},
    };
    enum { NP = (int)(sizeof p / sizeof p[0]) };
    for (int a = 1; a < NP; a++)            /* largest first */
        for (int b = a; b > 0 && p[b].ms > p[b - 1].ms; b--) {
            __typeof__(p[0]) t = p[b];
            p[b] = p[b - 1];
            p[b - 1] = t;
        }
    size_t k = (size_t)snprintf(out, len, ", case %.2f s", r->case_ms / 1000);
    const char *sep = ": ";
    for (int a = 0; a < NP && k < len; a++) {
        if (p[a].ms < r->case_ms / 10)
            break;
        k += (size_t)snprintf(out + k, len - k, "%s%s %.2f", sep, p[a].name, p[a].ms / 1000);
        sep = ", ";
    }
}

/* "; setup made in the background (0.48 s, 2.10 s there), 0.45 s saved
 * (waited 0.00, read 0.03)": a workload whose host data a helper made
 * (--overlap): what making them cost (the helper's CPU time over its
 * threads), the helper's wall time at its low priority; saved is the
 * cost less the wait and the read of the cache entry */
static void background(const struct dh_result *r, char *out, size_t len)
{
    if (r->setup_bg_ms <= 0 || len < 2)
        return;
    double saved = r->setup_bg_ms - r->setup_wait_ms - r->setup_ms;
    snprintf(out, len, "; setup made in the background (%.2f s, %.2f s there), %.2f s saved "
             "(waited %.2f, read %.2f)", r->setup_bg_ms / 1000, r->setup_bg_wall_ms / 1000,
             (saved > 0 ? saved : 0) / 1000, r->setup_wait_ms / 1000, r->setup_ms / 1000);
}

/* a case this process ran has finished: a terminal's status line moves
 * on at the next case; elsewhere (a log) one line per case */
static void progress(struct dh__run_ctx *x, int i)
{
    if (x->current != i)
        return;                             /* resumed or refused at planning */
    x->ran++;
    x->current = -1;
    if (x->tty)
        return;
    char head[700], res[480] = "";
    const struct dh_run *u = &x->runs[i];
    progress_head(x, i, x->ran, head, sizeof head);
    if (u->r.status == 0 && u->r.n > 0) {
        int k = snprintf(res, sizeof res, ", %.3f ms (%d reps%s)", dh_median(u->r.kernel_ms, u->r.n),
                         u->r.n, u->r.n_host ? ", host work timed on fewer" : "");
        phases(&u->r, res + k, sizeof res - (size_t)k);
        background(&u->r, res + strlen(res), sizeof res - strlen(res));
    }
    fprintf(stderr, "%s: %s%s\n", head, dh_err_name(u->r.status), res);
    fflush(stderr);
}

int dh__run_on_finished(void *vctx, int i)
{
    struct dh__run_ctx *x = vctx;
    x->done++;
    /* a resumed file: this invocation measured it (a kept case has its own) */
    if (x->env.n_inv > 1 && x->runs[i].r.invocation <= 0)
        x->runs[i].r.invocation = x->env.inv[x->env.n_inv - 1].n;
    dh_run_derive(x->runs, x->n);
    /* every finished run is on disk before the next one starts */
    if (dh_xml_write_plan(x->path, &x->env, x->devs, x->runs, x->n, x->plan, &x->err)) {
        x->write_failed = 1;
        return 1;
    }
    progress(x, i);
    return 0;
}

static void fmt_ci(char *out, size_t len, double v, double lo, double hi)
{
    if (isfinite(v))
        snprintf(out, len, "%.2fx [%.2f,%.2f]", v, lo, hi);
    else
        snprintf(out, len, "-");
}

void dh__run_summary(const struct dh_run *runs, int n)
{
    static const char *const heads[] = {"bench", "workload", "variant", "status",
                                        ">kernel ms", ">host ms", ">speedup kernel",
                                        ">speedup e2e", "vs baseline", ">CFE", ">ceiling",
                                        ">share", ">remap ovh"};
    struct dh_texttable t;
    dh_tt_init(&t, 13, heads);
    for (int i = 0; i < n; i++) {
        const struct dh_run *u = &runs[i];
        char label[300], wl[400], sk[64] = "-", se[64] = "-", ce[32] = "-", sh[32] = "-";
        dh_case_variant_label(&u->c, label, sizeof label);
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        /* the workload column: paths and layers, and what differs from the defaults */
        char shortwl[400] = "";
        for (int k = 0; k < u->c.params.n; k++) {
            const struct dh_pval *pv = &u->c.params.v[k];
            if (pv->kind != DH_P_WORKLOAD)
                continue;
            const struct dh_param_def *d = u->c.bench ? dh_param_find(u->c.bench->params, pv->name) : NULL;
            int always = !strcmp(pv->name, "paths") || !strcmp(pv->name, "layers");
            if (!always && d && d->def && !strcmp(d->def, pv->text))
                continue;
            snprintf(shortwl + strlen(shortwl), sizeof shortwl - strlen(shortwl), "%s%s=%s",
                     shortwl[0] ? " " : "", pv->name, pv->text);
        }
        if (u->has_speedup) {
            fmt_ci(sk, sizeof sk, u->sp_kernel, u->sp_kernel_lo, u->sp_kernel_hi);
            fmt_ci(se, sizeof se, u->sp_e2e, u->sp_e2e_lo, u->sp_e2e_hi);
        }
        if (u->r.ceiling > 0)
            snprintf(ce, sizeof ce, "%.2fx", u->r.ceiling);
        if (isfinite(u->ceiling_share))
            snprintf(sh, sizeof sh, "%.0f%%", 100 * u->ceiling_share);
        char km[32] = "-", hm[32] = "-", cf[32] = "-";
        if (isfinite(u->cfe))
            snprintf(cf, sizeof cf, "%.3f%s", u->cfe, u->cfe_source[0] == 'c' ? "c" : "m");
        if (u->r.status == 0 && u->kernel.n > 0) {
            snprintf(km, sizeof km, "%.3f", u->kernel.median);
            if (u->host.median > 0)
                snprintf(hm, sizeof hm, "%.3f", u->host.median);
        }
        char ro[32], vs[128] = "-";
        if (u->has_speedup) {   /* the baseline's tunables: best against best, or said */
            snprintf(vs, sizeof vs, "%s%s", u->baseline_tunables,
                     u->baseline_tuned ? "" : " (untuned)");
            for (char *p = vs; *p; p++)
                if (*p == ',')
                    *p = ' ';
        }
        const char *row[] = {u->c.bench_name, shortwl[0] ? shortwl : wl, label,
                             dh_err_name(u->r.status), km, hm, sk, se, vs, cf, ce, sh,
                             dh_remap_cell(u, ro, sizeof ro)};
        dh_tt_row(&t, row, u->r.status ? u->r.message : NULL);
    }
    printf("\n");
    dh_tt_print(&t, stdout);
    dh_tt_free(&t);
    dh_remap_na_lines(stdout, runs, n, NULL, NULL, NULL, "");
}
