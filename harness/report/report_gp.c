/* report_gp.c — what the report's chart files share (report.h, "internal"):
 * the table of one benchmark on one target, colours, file names, and the
 * gnuplot script frame (one body drawn once per format, PNG and SVG).
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/compare.h"

const char *const dh__palette[DH__N_PALETTE] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b",
};

void dh_report_safe_name(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (; *in && o + 1 < len; in++) {
        char c = *in;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                 || c == '.' || c == '-' || c == '_';
        if (!ok && o && out[o - 1] == '_')
            continue;
        out[o++] = ok ? c : '_';
    }
    while (o && out[o - 1] == '_')
        o--;
    out[o] = 0;
}

int dh_report_targets(const struct dh_resultfile *f, char (*backend)[16], char (*device)[256],
                      int max)
{
    int n = 0;
    for (int i = 0; i < f->n_runs; i++) {
        const struct dh_case *c = &f->runs[i].c;
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = !strcmp(backend[k], c->backend) && !strcmp(device[k], c->device_name);
        if (!seen && n < max) {
            snprintf(backend[n], 16, "%s", c->backend);
            snprintf(device[n], 256, "%s", c->device_name);
            n++;
        }
    }
    return n;
}

/* the family of a variant label: its text up to '[' */
static int family_of(const char *label)
{
    static const char *const fam[] = {"baseline", "cpu_tdr", "gpu_tdr", "melded"};
    size_t l = strcspn(label, "[");
    for (int k = 0; k < 4; k++)
        if (strlen(fam[k]) == l && !strncmp(fam[k], label, l))
            return k;
    return 4;
}

static void hsl_hex(double h, double s, double l, char out[8])
{
    double c = (1 - fabs(2 * l - 1)) * s, hp = h / 60, x = c * (1 - fabs(fmod(hp, 2) - 1));
    double r = 0, g = 0, b = 0;
    if (hp < 1) r = c, g = x;
    else if (hp < 2) r = x, g = c;
    else if (hp < 3) g = c, b = x;
    else if (hp < 4) g = x, b = c;
    else if (hp < 5) r = x, b = c;
    else r = c, b = x;
    double m = l - c / 2;
    snprintf(out, 8, "#%02x%02x%02x", (int)lround((r + m) * 255), (int)lround((g + m) * 255),
             (int)lround((b + m) * 255));
}

void dh__variant_colour(const struct dh_resultfile *f, const char *label, char out[8])
{
    /* hue and saturation of each family (baseline, cpu_tdr, gpu_tdr,
     * melded, other) */
    static const double hue[5] = {0, 212, 24, 128, 282}, sat[5] = {0, 0.62, 0.78, 0.55, 0.45};
    int fam = family_of(label);
    /* this label's place among the file's labels of its family */
    char seen[DH__MAX_VAR * 4][300];
    int n = 0, me = -1;
    for (int i = 0; i < f->n_runs && n < DH__MAX_VAR * 4; i++) {
        char l[300];
        dh_case_variant_label(&f->runs[i].c, l, sizeof l);
        if (family_of(l) != fam)
            continue;
        int k = 0;
        while (k < n && strcmp(seen[k], l))
            k++;
        if (k == n)
            snprintf(seen[n++], sizeof seen[0], "%s", l);
        if (!strcmp(l, label))
            me = k;
    }
    if (me < 0)
        me = 0, n = n ? n : 1;
    /* dark to light; one label alone in the middle */
    double lo = fam == 0 ? 0.35 : 0.28, hi = fam == 0 ? 0.70 : 0.74;
    double light = n > 1 ? lo + (hi - lo) * me / (n - 1) : (lo + hi) / 2;
    hsl_hex(hue[fam], sat[fam], light, out);
}

void dh__grid_build(const struct dh_resultfile *f, const char *suite, const char *bench,
                    const char *backend, const char *device, struct dh__grid *g)
{
    memset(g, 0, sizeof *g);
    const struct dh_case *cs[DH__MAX_WL];
    int ncs = 0;
    for (int i = 0; i < f->n_runs; i++) {
        const struct dh_run *u = &f->runs[i];
        if (strcmp(u->c.suite, suite) || strcmp(u->c.bench_name, bench)
                || strcmp(u->c.backend, backend) || strcmp(u->c.device_name, device))
            continue;
        char wl[400], var[300];
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        dh_case_variant_label(&u->c, var, sizeof var);
        int w = 0, v = 0;
        while (w < g->n_wl && strcmp(g->wl[w], wl))
            w++;
        while (v < g->n_var && strcmp(g->var[v], var))
            v++;
        if (w == DH__MAX_WL || v == DH__MAX_VAR) {
            g->dropped++;
            continue;
        }
        if (w == g->n_wl) {
            snprintf(g->wl[g->n_wl++], sizeof g->wl[0], "%s", wl);
            cs[ncs++] = &u->c;
        }
        if (v == g->n_var) {
            snprintf(g->var[g->n_var], sizeof g->var[0], "%s", var);
            dh__variant_colour(f, var, g->colour[g->n_var]);
            g->n_var++;
        }
        g->cell[w][v] = u;
    }
    char names[DH_MAX_PARAMS][24];
    int nn = dh_varying_workload(cs, ncs, names, DH_MAX_PARAMS);
    for (int w = 0; w < g->n_wl; w++) {
        char s[256];
        dh_workload_short(cs[w], names, nn, s, sizeof s);
        for (char *p = s; *p; p++)
            if (*p == ' ')
                *p = '\n';
        snprintf(g->wl_label[w], sizeof g->wl_label[0], "%s", s[0] ? s : "(one workload)");
    }
}

FILE *dh__open_out(const struct dh_report *r, const char *name, const char *ext,
                   struct dh_err *err)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.%s", r->dir, name, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(errno));
    return f;
}

/* A gnuplot string expression holding s as text, never as code: single-
 * quoted pieces (gnuplot runs `commands` and expands escapes only inside
 * double quotes; a quote is doubled there), joined by "\n" where s has a
 * newline. Results files are data: a device name or label with backquotes
 * must draw as backquotes. */
void dh_gp_quote(FILE *gp, const char *s)
{
    fputc('\'', gp);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", gp);
        else if (*s == '\n')
            fputs("'.\"\\n\".'", gp);
        else if (*s == '\r')
            fputc(' ', gp);
        else
            fputc(*s, gp);
    }
    fputc('\'', gp);
}

/* Header, and the loop that draws the body once per format. */
void dh__gp_begin(FILE *gp, const struct dh_report *r, const char *name, int w, int h)
{
    /* the source is a path as given (it may hold a newline or end in a
     * backslash, which would end or continue a comment): it goes into the
     * script only as a quoted string, never into a comment */
    fprintf(gp, "# %s.gp — made by `harness report` from the results named by `source`.\n"
                "# Edit freely, then redraw in this folder: gnuplot %s.gp\n"
                "# (writes %s.png and %s.svg; the data is %s.dat)\n"
                "source = ",
            name, name, name, name, name);
    dh_gp_quote(gp, r->source ? r->source : "");
    fputc('\n', gp);
    fprintf(gp, "set datafile separator \"\\t\"\n"
                "do for [fmt in \"png svg\"] {\n"
                "  if (fmt eq \"png\") {\n"
                "    set terminal pngcairo noenhanced size %d,%d font \"DejaVu Sans,10\"\n"
                "  } else {\n"
                "    set terminal svg noenhanced size %d,%d dynamic font \"DejaVu Sans,10\" "
                "background rgb \"white\"\n"
                "  }\n"
                "  set output \"%s.\".fmt\n"
                "  reset\n"
                "  set datafile separator \"\\t\"\n"
                "  set style fill solid 0.85 border lc rgb \"#555555\"\n"
                "  set grid ytics lc rgb \"#dddddd\" lt 1\n"
                "  set border 3\n"
                "  set tics nomirror out\n",
            w, h, w, h, name);
}

void dh__gp_end(FILE *gp)
{
    fputs("  set output\n}\n", gp);
}

void dh__gp_xtics(FILE *gp, const struct dh__grid *g, int rotate)
{
    int lines = 1;
    for (int w = 0; w < g->n_wl; w++) {
        int l = 1;
        for (const char *p = g->wl_label[w]; *p; p++)
            l += *p == '\n';
        lines = l > lines ? l : lines;
    }
    if (!rotate)
        fprintf(gp, "  set bmargin %d\n", lines + 2);
    fputs("  set xtics (", gp);
    for (int w = 0; w < g->n_wl; w++) {
        fprintf(gp, "%s", w ? ", " : "");
        dh_gp_quote(gp, g->wl_label[w]);
        fprintf(gp, " %d", w);
    }
    fprintf(gp, ")%s\n  set xrange [-0.6:%g]\n", rotate ? " rotate by 30 right" : "",
            g->n_wl - 0.4);
}

/* The y = 1 line, as a plot element so that its name goes to the key
 * (a label on the plot would collide with bars). */
void dh__one_line(FILE *gp, const char *title)
{
    fputs("    1 with lines dt 2 lw 1.5 lc rgb \"#333333\" title ", gp);
    dh_gp_quote(gp, title);
    fputs(", \\\n", gp);
}

int dh__add_chart(struct dh_report *r, enum dh_chart_kind k, const char *name,
                  const char *title, const char *bench, const char *backend,
                  const char *device)
{
    if (r->n_charts >= DH_REPORT_MAX_CHARTS)
        return 0;
    struct dh_chart *c = &r->charts[r->n_charts++];
    memset(c, 0, sizeof *c);
    c->kind = k;
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->title, sizeof c->title, "%s", title);
    snprintf(c->bench, sizeof c->bench, "%s", bench);
    snprintf(c->backend, sizeof c->backend, "%s", backend);
    snprintf(c->device_name, sizeof c->device_name, "%s", device);
    return 1;
}

void dh__note(struct dh_report *r, const char *fmt, ...)
{
    if (r->n_notes >= DH_REPORT_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->notes[r->n_notes++], sizeof r->notes[0], fmt, ap);
    va_end(ap);
}

/* Bars: block k of the .dat holds variant vars[k]: x, value, lo, hi. */
void dh__bar_x(int w, int k, int K, double *x, double *bw)
{
    *bw = 0.8 / K;
    *x = w + (k - (K - 1) / 2.0) * *bw;
}
