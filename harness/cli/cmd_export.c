/* cmd_export.c — `harness export FILE.xml [--csv F] [--samples F]
 * [--json F] [--t4 DIR]` (F may be - for stdout): every run as a CSV row
 * with one column per parameter (for spreadsheets and pandas), every
 * timed sample as a long-form CSV row, the whole file as JSON, and every
 * tuning record as a T4 results file (Kernel Tuner's results schema
 * 1.0.0), one per tuned case (the last two: export_json.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include "../../results/xml.h"
#include "cli.h"
#include "../stats/load.h"
#include "../support/fs.h"
#include "../stats/stats.h"
#include "export.h"

/* CSV field: quoted when it holds a comma, quote or newline. Text that a
 * spreadsheet would take for a formula (=, +, -, @, a tab or a CR first)
 * gets a leading single quote, inside quotes (results files are data:
 * a device name "=HYPERLINK(...)" must not become a live formula) */
static void cell_only(FILE *f, const char *s, int text)
{
    int formula = text && s[0] && strchr("=+-@\t\r", s[0]);
    if (formula || strpbrk(s, ",\"\n")) {
        fputc('"', f);
        if (formula)
            fputc('\'', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void cell(FILE *f, const char *s, int last, int text)
{
    cell_only(f, s, text);
    fputc(last ? '\n' : ',', f);
}

static void field(FILE *f, const char *s, int last)
{
    cell(f, s, last, 1);
}

static void num(FILE *f, double v, int last)
{
    char b[64] = "";
    if (isfinite(v))
        snprintf(b, sizeof b, "%.9g", v);
    cell(f, b, last, 0);
}

/* written under a new name and renamed into place: a full disk or a
 * killed export leaves the CSV that was there whole */
/* an output file: "-" is stdout; anything else is written under a new
 * name and renamed into place by out_close (a full disk or a killed
 * export leaves the file that was there whole) */
struct out {
    FILE *f;
    const char *path;
    char tmp[4300];
};

static int out_open(struct out *o, const char *path)
{
    o->path = path;
    if (!strcmp(path, "-")) {
        o->f = stdout;
        return 0;
    }
    char why[4400];
    if (dh_replace_ok(path, why, sizeof why)) {
        fprintf(stderr, "harness export: %s\n", why);
        errno = EINVAL;
        return -1;
    }
    o->f = dh_tmp_fopen(path, o->tmp, sizeof o->tmp);
    return o->f ? 0 : -1;
}

static int out_close(struct out *o)
{
    if (o->f == stdout)
        return fflush(stdout) || ferror(stdout) ? -1 : 0;
    FILE *f = o->f;
    int bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(o->tmp, o->path)) {
        int e = errno;
        unlink(o->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

/* the fixed columns of the runs CSV; a parameter named like one of them
 * gets "param_" before its column's name */
static const char *const csv_fixed[] = {
    "key", "id", "suite", "bench", "variant", "choices", "backend", "device", "size",
    "workload", "tunables", "status", "samples", "kernel_median_ms", "kernel_mad_ms",
    "kernel_ci_lo_ms", "kernel_ci_hi_ms", "host_median_ms", "e2e_median_ms", "speedup_kernel",
    "speedup_e2e", "cfe", "cfe_source", "remap_ceiling", "remap_overhead",
    "remap_overhead_state", "remap_overhead_reason", "baseline_tunables", "baseline_tuned",
    NULL};

/* every parameter name of the file's runs, choices first, then workload
 * values, then tunables, each once, in the order they are first met */
static int param_columns(const struct dh_resultfile *rf, char names[][24], int max)
{
    int n = 0;
    const enum dh_pkind kinds[] = {DH_P_CHOICE, DH_P_WORKLOAD, DH_P_TUNABLE};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < rf->n_runs; i++)
            for (int j = 0; j < rf->runs[i].c.params.n; j++) {
                const struct dh_pval *v = &rf->runs[i].c.params.v[j];
                if (v->kind != kinds[k])
                    continue;
                int seen = 0;
                for (int q = 0; q < n && !seen; q++)
                    seen = !strcmp(names[q], v->name);
                if (!seen && n < max)
                    snprintf(names[n++], 24, "%s", v->name);
            }
    return n;
}

static int write_csv(const char *path, const struct dh_resultfile *rf)
{
    struct out o;
    if (out_open(&o, path))
        return -1;
    FILE *f = o.f;
    static char pnames[4 * DH_MAX_PARAMS][24];
    int np = param_columns(rf, pnames, 4 * DH_MAX_PARAMS);
    for (int i = 0; csv_fixed[i]; i++)
        fprintf(f, "%s%s", i ? "," : "", csv_fixed[i]);
    for (int q = 0; q < np; q++) {
        int clash = 0;
        for (int i = 0; csv_fixed[i] && !clash; i++)
            clash = !strcmp(csv_fixed[i], pnames[q]);
        char h[40];
        snprintf(h, sizeof h, "%s%s", clash ? "param_" : "", pnames[q]);
        fputc(',', f);
        cell_only(f, h, 1);                 /* a name from the file: quoted, no formula */
    }
    fputc('\n', f);
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        char ch[256], wl[400], tn[200];
        dh_pset_format(&u->c.params, DH_P_CHOICE, ch, sizeof ch);
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        dh_pset_format(&u->c.params, DH_P_TUNABLE, tn, sizeof tn);
        char n[16];
        snprintf(n, sizeof n, "%d", u->r.n);
        field(f, u->c.key, 0);
        field(f, u->c.id, 0);
        field(f, u->c.suite, 0);
        field(f, u->c.bench_name, 0);
        field(f, u->c.variant, 0);
        field(f, ch, 0);
        field(f, u->c.backend, 0);
        field(f, u->c.device_name, 0);
        field(f, u->c.size, 0);
        field(f, wl, 0);
        field(f, tn, 0);
        field(f, dh_err_name(u->r.status), 0);
        field(f, n, 0);
        int ok = u->r.status == 0 && u->r.n > 0;
        num(f, ok ? u->kernel.median : NAN, 0);
        num(f, ok ? u->kernel.mad : NAN, 0);
        num(f, ok ? u->kernel.ci_lo : NAN, 0);
        num(f, ok ? u->kernel.ci_hi : NAN, 0);
        num(f, ok ? u->host.median : NAN, 0);
        num(f, ok ? u->e2e.median : NAN, 0);
        num(f, u->has_speedup ? u->sp_kernel : NAN, 0);
        num(f, u->has_speedup ? u->sp_e2e : NAN, 0);
        num(f, u->cfe, 0);
        field(f, u->cfe_source, 0);
        num(f, u->r.ceiling > 0 ? u->r.ceiling : NAN, 0);
        const struct dh_remap_overhead *ro = &u->r.remap;
        num(f, ro->state == DH_REMAP_MEASURED ? ro->ratio : NAN, 0);
        field(f, dh_remap_state_name(ro->state), 0);
        field(f, ro->state == DH_REMAP_MEASURED ? "" : ro->reason, 0);
        /* the baseline the speedups are against, and whether it was tuned */
        field(f, u->has_speedup ? u->baseline_tunables : "", 0);
        field(f, u->has_speedup ? (u->baseline_tuned ? "yes" : "no") : "", np == 0);
        /* one column per parameter: its value, blank where the run has none */
        for (int q = 0; q < np; q++) {
            const char *v = "";
            for (int j = 0; j < u->c.params.n; j++)
                if (!strcmp(u->c.params.v[j].name, pnames[q]))
                    v = u->c.params.v[j].text;
            field(f, v, q == np - 1);
        }
    }
    return out_close(&o);
}

/* every timed sample, one row per run and repetition (long form): the
 * kernel's, the host work's and the transfers' where timed, and the end
 * to end time the speedups use */
static int write_samples(const char *path, const struct dh_resultfile *rf, long *rows)
{
    struct out o;
    if (out_open(&o, path))
        return -1;
    FILE *f = o.f;
    fputs("key,id,bench,variant,backend,device,size,rep,kernel_ms,host_ms,xfer_ms,e2e_ms\n", f);
    *rows = 0;
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        const struct dh_result *r = &u->r;
        if (r->status || !r->kernel_ms)
            continue;
        int nh = dh_host_count(r);
        for (int k = 0; k < r->n; k++) {
            char rep[16];
            snprintf(rep, sizeof rep, "%d", k);
            field(f, u->c.key, 0);
            field(f, u->c.id, 0);
            field(f, u->c.bench_name, 0);
            field(f, u->c.variant, 0);
            field(f, u->c.backend, 0);
            field(f, u->c.device_name, 0);
            field(f, u->c.size, 0);
            field(f, rep, 0);
            num(f, r->kernel_ms[k], 0);
            num(f, r->host_ms && k < nh ? r->host_ms[k] : NAN, 0);
            num(f, r->xfer_ms ? r->xfer_ms[k] : NAN, 0);
            num(f, dh_e2e_sample(r, k), 1);
            (*rows)++;
        }
    }
    return out_close(&o);
}

static void export_usage(FILE *f)
{
    fprintf(f,
        "usage: harness export RESULTS.xml [--csv FILE] [--samples FILE] [--json FILE] [--t4 DIR]\n"
        "  --csv FILE      one row per run: its identity, status, statistics, speedups\n"
        "                  (and the baseline they are against), CFE, remap figures, then\n"
        "                  one column per parameter (choices, workload values, tunables)\n"
        "  --samples FILE  one row per run and timed repetition (long form): kernel_ms,\n"
        "                  host_ms, xfer_ms, e2e_ms\n"
        "  --json FILE     the whole file as JSON: environment, devices, every run with\n"
        "                  its parameters as fields, every sample and its tuning record\n"
        "                  (schema: results/divharness-results.schema.json)\n"
        "  --t4 DIR        one T4 file per tuned case (Kernel Tuner's results schema\n"
        "                  1.0.0: every evaluation's configuration and runtimes)\n"
        "  FILE may be - (stdout; then the summary lines go to stderr); at most one -.\n");
}

int dh_cmd_export(int argc, char **argv)
{
    const char *file = NULL, *csv = NULL, *t4 = NULL, *json = NULL, *smp = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = !strcmp(a, "--csv") ? &csv : !strcmp(a, "--t4") ? &t4
                          : !strcmp(a, "--json") ? &json : !strcmp(a, "--samples") ? &smp : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            export_usage(stdout);
            return 0;
        }
        if (slot) {
            if (i + 1 >= argc) {
                fprintf(stderr, "harness export: %s needs a file (or - for stdout)\n", a);
                return DH_EXIT_USAGE;
            }
            *slot = argv[++i];
        } else if (a[0] == '-') {
            fprintf(stderr, "harness export: unknown option %s (choose --csv, --samples, "
                    "--json or --t4)\n", a);
            return DH_EXIT_USAGE;
        } else if (file) {
            fprintf(stderr, "harness export: one results file at a time (%s and %s)\n", file, a);
            return DH_EXIT_USAGE;
        } else {
            file = a;
        }
    }
    if (!file || (!csv && !t4 && !json && !smp)) {
        fprintf(stderr, "harness export: %s\n", !file ? "no results file given"
                : "nothing to write: give --csv, --samples, --json or --t4");
        export_usage(stderr);
        return DH_EXIT_USAGE;
    }
    int dashes = (csv && !strcmp(csv, "-")) + (smp && !strcmp(smp, "-")) +
                 (json && !strcmp(json, "-"));
    if (dashes > 1) {
        fprintf(stderr, "harness export: only one output may be - (stdout)\n");
        return DH_EXIT_USAGE;
    }
    if (t4 && !strcmp(t4, "-")) {
        fprintf(stderr, "harness export: --t4 writes a folder of files, not stdout\n");
        return DH_EXIT_USAGE;
    }
    FILE *say = dashes ? stderr : stdout;   /* summaries stay out of the data */
    struct dh_resultfile rf;
    struct dh_err e = {0};
    if (dh_results_load(file, &rf, &e)) {
        fprintf(stderr, "harness export: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    int rc = 0;
    if (csv) {
        if (write_csv(csv, &rf)) {
            fprintf(stderr, "harness export: cannot write %s: %s\n", csv, strerror(errno));
            rc = DH_EXIT_INFRA;
        } else {
            fprintf(say, "%s: %d runs\n", strcmp(csv, "-") ? csv : "stdout", rf.n_runs);
        }
    }
    if (smp) {
        long rows = 0;
        if (write_samples(smp, &rf, &rows)) {
            fprintf(stderr, "harness export: cannot write %s: %s\n", smp, strerror(errno));
            rc = DH_EXIT_INFRA;
        } else {
            fprintf(say, "%s: %ld samples\n", strcmp(smp, "-") ? smp : "stdout", rows);
        }
    }
    if (json) {
        if (dh_export_json(json, file, &rf)) {
            fprintf(stderr, "harness export: cannot write %s: %s\n", json, strerror(errno));
            rc = DH_EXIT_INFRA;
        } else {
            fprintf(say, "%s: %d runs as JSON\n", strcmp(json, "-") ? json : "stdout", rf.n_runs);
        }
    }
    if (t4) {
        int files = 0;
        if (dh_export_t4(t4, &rf, &files)) {
            fprintf(stderr, "harness export: cannot write into %s: %s\n", t4, strerror(errno));
            rc = DH_EXIT_INFRA;
        } else {
            fprintf(say, "%s: %d T4 file%s (one per tuned case)\n", t4, files,
                    files == 1 ? "" : "s");
        }
    }
    fflush(say);
    dh_resultfile_free(&rf);
    return rc;
}
