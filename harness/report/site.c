/* site.c — `harness publish DB --out DIR`: the nights of a history
 * database as a static site that works opened from disk (plain HTML, SVG
 * drawn here, no script, no server):
 *
 *   index.html        every case: nights, the latest median, a sparkline
 *                     of its last 60 nights, its state (the newest step)
 *   regressions.html  every step found (harness/stats/steps.h), newest
 *                     first, with the nights and revisions around it
 *   case-KEY.html     one case: its median per night with the 95% interval,
 *                     steps and moved tunables marked, a table of nights
 *                     with links to each night's report where it is
 *
 * Every text from the database is escaped: results files are data. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../stats/history_db.h"
#include "../stats/steps.h"
#include "../support/fs.h"

#define SITE_MAX_NIGHTS 100000

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    esc(f, title);
    fputs("</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<style>\nbody { font: 14px/1.4 \"DejaVu Sans\", Helvetica, Arial, sans-serif; "
          "margin: 1.5em auto; max-width: 1280px; padding: 0 1em; color: #222; }\n"
          "table { border-collapse: collapse; font-size: 12px; }\n"
          "th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; }\n"
          "th { background: #f2f2f2; } td.n { text-align: right; font-variant-numeric: "
          "tabular-nums; }\n.slower { color: #b22; font-weight: bold; } .faster { color: #272; }"
          "\nnav a { margin-right: 1em; }\n</style>\n</head>\n<body>\n<nav><a href=\"index.html\">"
          "cases</a><a href=\"regressions.html\">regressions</a></nav>\n", f);
}

struct site {
    const char *dir;
    struct dh_hdb *db;
    struct dh_steps_opts o;
    struct dh_hdb_point *p;
    double *v;
    FILE *index, *regs;
    int cases, nsteps, failed;
    struct srow { char key[20], name[800], started[40], rev[64], prev[40], prev_rev[64];
                  double change, before, after; } *steps;
    int cap;
};

/* a sparkline of the last nights' medians */
static void sparkline(FILE *f, const double *v, int n)
{
    int from = n > 60 ? n - 60 : 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = from; i < n; i++)
        if (isfinite(v[i]))
            lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
    fputs("<svg width=\"160\" height=\"24\" viewBox=\"0 0 160 24\" role=\"img\"><polyline "
          "fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.3\" points=\"", f);
    int m = n - from;
    for (int i = from; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        double x = m > 1 ? 2 + 156.0 * (i - from) / (m - 1) : 80;
        double y = hi > lo ? 21 - 18 * (v[i] - lo) / (hi - lo) : 12;
        fprintf(f, "%.1f,%.1f ", x, y);
    }
    fputs("\"/></svg>", f);
}

/* a case's chart: median per night, its interval as a band, steps and
 * moved tunables as vertical lines, the y axis from 0 */
static void chart(FILE *f, const struct dh_hdb_point *p, int n, const struct dh_step *s, int ns,
                  const int *idx)
{
    const int W = 1100, H = 320, L = 60, R = 20, T = 20, B = 40;
    double hi = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(p[i].hi))
            hi = fmax(hi, p[i].hi);
        else if (isfinite(p[i].median))
            hi = fmax(hi, p[i].median);
    hi = hi > 0 ? hi * 1.1 : 1;
#define X(i) (L + (n > 1 ? (double)(W - L - R) * (i) / (n - 1) : (W - L - R) / 2.0))
#define Y(v) (T + (H - T - B) * (1 - (v) / hi))
    fprintf(f, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
               "aria-label=\"kernel median per night\">\n", W, H, W, H);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", L, H - B,
            W - R, H - B);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", L, T, L,
            H - B);
    for (int k = 0; k <= 4; k++) {               /* y ticks from 0 */
        double v = hi * k / 4;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                   "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.3g</text>\n",
                L, Y(v), W - R, Y(v), L - 4, Y(v) + 3, v);
    }
    fprintf(f, "<text x=\"14\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 14 %d)\" "
               "text-anchor=\"middle\">kernel median ms (95%% interval)</text>\n",
            (H - B + T) / 2, (H - B + T) / 2);
    fputs("<polygon fill=\"#1f77b4\" fill-opacity=\"0.18\" stroke=\"none\" points=\"", f);
    for (int i = 0; i < n; i++)
        if (isfinite(p[i].hi))
            fprintf(f, "%.1f,%.1f ", X(i), Y(p[i].hi));
    for (int i = n - 1; i >= 0; i--)
        if (isfinite(p[i].lo))
            fprintf(f, "%.1f,%.1f ", X(i), Y(p[i].lo));
    fputs("\"/>\n<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"", f);
    for (int i = 0; i < n; i++)
        if (isfinite(p[i].median))
            fprintf(f, "%.1f,%.1f ", X(i), Y(p[i].median));
    fputs("\"/>\n", f);
    for (int i = 1; i < n; i++)                 /* tunables moved */
        if (strcmp(p[i].tunables, p[i - 1].tunables)) {
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0a000\" "
                       "stroke-dasharray=\"4 3\"><title>tunables moved: ", X(i), T, X(i), H - B);
            esc(f, p[i - 1].tunables);
            fputs(" -&gt; ", f);
            esc(f, p[i].tunables);
            fputs("</title></line>\n", f);
        }
    for (int k = 0; k < ns; k++) {              /* steps */
        int i = idx[s[k].at];
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                   "stroke-width=\"2\"><title>step %+.1f%%</title></line>\n", X(i), T, X(i),
                H - B, s[k].change > 0 ? "#b22" : "#272", 100 * s[k].change);
    }
    if (n > 0) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">", L, H - B + 14);
        esc(f, p[0].started);
        fprintf(f, "</text><text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">",
                W - R, H - B + 14);
        esc(f, p[n - 1].started);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
#undef X
#undef Y
}

static int one(const char *name, const char *key, void *ctx)
{
    struct site *x = ctx;
    /* a key names a file: as the harness makes them, 16 hex digits */
    if (strlen(key) != 16 || strspn(key, "0123456789abcdef") != 16) {
        fprintf(stderr, "harness publish: case %s: key '%s' is not 16 hex digits: left out\n",
                name, key);
        return 0;
    }
    struct dh_err e = {0};
    char nm[800];
    int n = dh_hdb_case(x->db, key, nm, sizeof nm, x->p, SITE_MAX_NIGHTS, &e);
    if (n <= 0)
        return 0;
    int m = 0, *idx = malloc((size_t)n * sizeof *idx);
    if (!idx)
        return 1;
    /* the steps of the newest 4096 nights at most (the search is n^2) */
    for (int i = n > 4096 ? n - 4096 : 0; i < n; i++)
        if (isfinite(x->p[i].median) && x->p[i].median > 0) {
            idx[m] = i;
            x->v[m++] = x->p[i].median;
        }
    struct dh_step s[64];
    int ns = dh_steps_find(x->v, m, &x->o, s, 64);
    if (ns < 0)
        ns = 0;
    x->cases++;
    /* the case's page */
    char path[4400];
    snprintf(path, sizeof path, "%s/case-%s.html", x->dir, key);
    FILE *f = fopen(path, "w");
    if (!f) {
        x->failed = errno;
        free(idx);
        return 1;
    }
    head(f, name);
    fputs("<h1>", f);
    esc(f, name);
    fprintf(f, "</h1>\n<p>%d night%s; key <code>", n, n == 1 ? "" : "s");
    esc(f, key);
    fputs("</code>.</p>\n", f);
    chart(f, x->p, n, s, ns, idx);
    fputs("<table>\n<tr><th>night</th><th>status</th><th>median ms</th><th>95% interval</th>"
          "<th>revision</th><th>tunables</th></tr>\n", f);
    for (int i = n - 1; i >= 0; i--) {
        const struct dh_hdb_point *q = &x->p[i];
        fputs("<tr><td>", f);
        esc(f, q->started);
        fputs("</td><td>", f);
        esc(f, q->status);
        if (isfinite(q->median))
            fprintf(f, "</td><td class=\"n\">%.4f</td><td class=\"n\">[%.4f, %.4f]</td><td>",
                    q->median, q->lo, q->hi);
        else
            fputs("</td><td class=\"n\">-</td><td>-</td><td>", f);
        esc(f, q->git_revision);
        fputs("</td><td>", f);
        esc(f, q->tunables);
        if (i > 0 && strcmp(q->tunables, x->p[i - 1].tunables))
            fputs(" <b>(moved)</b>", f);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</body>\n</html>\n", f);
    if (fclose(f))
        x->failed = errno;
    /* its row in the index */
    const struct dh_hdb_point *last = &x->p[n - 1];
    fputs("<tr><td><a href=\"case-", x->index);
    esc(x->index, key);
    fputs(".html\">", x->index);
    esc(x->index, name);
    fprintf(x->index, "</a></td><td class=\"n\">%d</td><td class=\"n\">", n);
    if (isfinite(last->median))
        fprintf(x->index, "%.4f", last->median);
    else
        esc(x->index, last->status);
    fputs("</td><td>", x->index);
    sparkline(x->index, x->v, m);
    fputs("</td><td>", x->index);
    if (ns) {
        const struct dh_step *t = &s[ns - 1];
        fprintf(x->index, "<span class=\"%s\">%s %+.1f%%</span> since ",
                t->change > 0 ? "slower" : "faster", t->change > 0 ? "slower" : "faster",
                100 * t->change);
        esc(x->index, x->p[idx[t->at]].started);
    } else {
        fputs("steady", x->index);
    }
    fputs("</td></tr>\n", x->index);
    /* its steps for the regressions page */
    for (int k = 0; k < ns; k++) {
        if (x->nsteps == x->cap) {
            int cap = x->cap ? 2 * x->cap : 64;
            struct srow *r = realloc(x->steps, (size_t)cap * sizeof *r);
            if (!r)
                break;
            x->steps = r;
            x->cap = cap;
        }
        struct srow *r = &x->steps[x->nsteps++];
        const struct dh_hdb_point *a = &x->p[idx[s[k].at]], *b = &x->p[idx[s[k].at - 1]];
        snprintf(r->key, sizeof r->key, "%s", key);
        snprintf(r->name, sizeof r->name, "%s", name);
        snprintf(r->started, sizeof r->started, "%s", a->started);
        snprintf(r->rev, sizeof r->rev, "%s", a->git_revision);
        snprintf(r->prev, sizeof r->prev, "%s", b->started);
        snprintf(r->prev_rev, sizeof r->prev_rev, "%s", b->git_revision);
        r->change = s[k].change, r->before = s[k].before, r->after = s[k].after;
    }
    free(idx);
    return 0;
}

static int newest_first(const void *a, const void *b)
{
    return -strcmp(((const struct srow *)a)->started, ((const struct srow *)b)->started);
}

int dh_site_publish(const char *db_path, const char *dir, int *cases, int *steps,
                    struct dh_err *err)
{
    struct dh_hdb *db = dh_hdb_open(db_path, 0, err);
    if (!db)
        return -DH_E_DATA;
    if (dh_mkdir_p(dir)) {
        dh_hdb_close(db);
        return dh_err_set(err, DH_E_IO, "cannot make %s: %s", dir, strerror(errno));
    }
    struct site x = {.dir = dir, .db = db};
    dh_steps_opts_default(&x.o);
    x.p = malloc(SITE_MAX_NIGHTS * sizeof *x.p);
    x.v = malloc(SITE_MAX_NIGHTS * sizeof *x.v);
    char ip[4400], rp[4400];
    snprintf(ip, sizeof ip, "%s/index.html", dir);
    snprintf(rp, sizeof rp, "%s/regressions.html", dir);
    x.index = fopen(ip, "w");
    x.regs = fopen(rp, "w");
    int rc = 0;
    if (!x.p || !x.v || !x.index || !x.regs) {
        rc = dh_err_set(err, DH_E_IO, "cannot write the site into %s: %s", dir, strerror(errno));
        goto done;
    }
    head(x.index, "divharness nights");
    fputs("<h1>Nights</h1>\n<p>Every case of the history database, its latest kernel "
          "median, the last 60 nights, and the newest step of its median (<a "
          "href=\"regressions.html\">all steps</a>). Made by <code>harness publish</code>.</p>\n"
          "<table>\n<tr><th>case</th><th>nights</th><th>latest median ms</th><th>last 60 "
          "nights</th><th>state</th></tr>\n", x.index);
    if ((rc = dh_hdb_each_case(db, 1, one, &x, err)))
        goto done;
    if (x.failed) {
        rc = dh_err_set(err, DH_E_IO, "cannot write a page into %s: %s", dir, strerror(x.failed));
        goto done;
    }
    fprintf(x.index, "</table>\n<p>%d cases.</p>\n</body>\n</html>\n", x.cases);
    qsort(x.steps, (size_t)x.nsteps, sizeof *x.steps, newest_first);
    head(x.regs, "divharness regressions");
    fprintf(x.regs, "<h1>Steps</h1>\n<p>%d step%s: where a case's median moved by %.0f%% or "
                    "more to stay, newest first (the method: <code>harness/stats/steps.h"
                    "</code>).</p>\n<table>\n<tr><th>first night after</th><th>change</th>"
                    "<th>ms</th><th>case</th><th>revision after</th><th>last night before</th>"
                    "<th>revision before</th></tr>\n",
            x.nsteps, x.nsteps == 1 ? "" : "s", 100 * x.o.min_change);
    for (int i = 0; i < x.nsteps; i++) {
        const struct srow *r = &x.steps[i];
        fputs("<tr><td>", x.regs);
        esc(x.regs, r->started);
        fprintf(x.regs, "</td><td class=\"%s\">%+.1f%%</td><td class=\"n\">%.4f &rarr; %.4f"
                        "</td><td><a href=\"case-", r->change > 0 ? "slower" : "faster",
                100 * r->change, r->before, r->after);
        esc(x.regs, r->key);
        fputs(".html\">", x.regs);
        esc(x.regs, r->name);
        fputs("</a></td><td>", x.regs);
        esc(x.regs, r->rev);
        fputs("</td><td>", x.regs);
        esc(x.regs, r->prev);
        fputs("</td><td>", x.regs);
        esc(x.regs, r->prev_rev);
        fputs("</td></tr>\n", x.regs);
    }
    fputs("</table>\n</body>\n</html>\n", x.regs);
    *cases = x.cases;
    *steps = x.nsteps;
done:
    if (x.index && fclose(x.index) && !rc)
        rc = dh_err_set(err, DH_E_IO, "cannot write %s: %s", ip, strerror(errno));
    if (x.regs && fclose(x.regs) && !rc)
        rc = dh_err_set(err, DH_E_IO, "cannot write %s: %s", rp, strerror(errno));
    free(x.p);
    free(x.v);
    free(x.steps);
    dh_hdb_close(db);
    return rc;
}
