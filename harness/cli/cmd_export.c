/* cmd_export.c — `harness export FILE.xml [--csv OUT.csv] [--t4 DIR]`:
 * every run as a CSV row (for spreadsheets and pandas), and every tuning
 * record as a T4 results file (the community auto-tuning results schema,
 * version 1.0.0, as Kernel Tuner writes it), one per tuned case. */
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

/* CSV field: quoted when it holds a comma, quote or newline. Text that a
 * spreadsheet would take for a formula (=, +, -, @, a tab or a CR first)
 * gets a leading single quote, inside quotes (results files are data:
 * a device name "=HYPERLINK(...)" must not become a live formula) */
static void cell(FILE *f, const char *s, int last, int text)
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
static int write_csv(const char *path, const struct dh_resultfile *rf)
{
    char tmp[4300], why[4400];
    if (dh_replace_ok(path, why, sizeof why)) {
        fprintf(stderr, "harness export: %s\n", why);
        errno = EINVAL;
        return -1;
    }
    FILE *f = dh_tmp_fopen(path, tmp, sizeof tmp);
    if (!f)
        return -1;
    fputs("key,id,suite,bench,variant,choices,backend,device,size,workload,tunables,status,"
          "samples,kernel_median_ms,kernel_mad_ms,kernel_ci_lo_ms,kernel_ci_hi_ms,"
          "host_median_ms,e2e_median_ms,speedup_kernel,speedup_e2e,cfe,cfe_source,"
          "remap_ceiling,remap_overhead,remap_overhead_state,remap_overhead_reason,"
          "baseline_tunables,baseline_tuned\n", f);
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
        field(f, u->has_speedup ? (u->baseline_tuned ? "yes" : "no") : "", 1);
    }
    int bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

static const char *invalidity(int status)
{
    switch (status) {
    case DH_OK: return "correct";
    case DH_E_BUILD: return "compile";
    case DH_E_WRONG: return "correctness";
    case DH_E_CONSTRAINT: return "constraints";
    case DH_E_TIMEOUT: return "timeout";
    default: return "runtime";
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

static int write_t4(const char *dir, const struct dh_resultfile *rf, int *files)
{
    if (mkdir(dir, 0755) && errno != EEXIST)
        return -1;
    *files = 0;
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_tuning *t = &rf->runs[i].tune;
        if (!t->n_eval)
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.json", dir, rf->runs[i].c.key);
        FILE *f = fopen(path, "w");
        if (!f)
            return -1;
        fprintf(f, "{\"schema_version\": \"1.0.0\",\n \"case\": ");
        json_str(f, rf->runs[i].c.id);
        fprintf(f, ",\n \"results\": [\n");
        for (int k = 0; k < t->n_eval; k++) {
            fprintf(f, "  {\"timestamp\": ");
            json_str(f, rf->env.updated[0] ? rf->env.updated : rf->env.started);
            fprintf(f, ", \"configuration\": {");
            char buf[128];
            snprintf(buf, sizeof buf, "%s", t->eval[k].tunables);
            int first = 1;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                char *eq = strchr(tok, '=');
                if (!eq)
                    continue;
                *eq = 0;
                fprintf(f, "%s", first ? "" : ", ");
                json_str(f, tok);
                fprintf(f, ": %s", eq + 1);
                first = 0;
            }
            int ok = t->eval[k].status == 0 && t->eval[k].ms > 0;
            fprintf(f, "}, \"objectives\": [\"time\"], \"times\": {");
            if (ok)
                fprintf(f, "\"runtimes\": [%.9g]", t->eval[k].ms);
            if (t->eval[k].wall_ms > 0)
                fprintf(f, "%s\"framework\": %.9g", ok ? ", " : "", t->eval[k].overhead_ms);
            fprintf(f, "}, \"invalidity\": \"%s\", \"correctness\": %d, \"measurements\": [",
                    invalidity(t->eval[k].status), t->eval[k].status != DH_E_WRONG);
            if (ok)
                fprintf(f, "{\"name\": \"time\", \"value\": %.9g, \"unit\": \"ms\"}", t->eval[k].ms);
            fprintf(f, "]}%s\n", k + 1 < t->n_eval ? "," : "");
        }
        fprintf(f, " ]}\n");
        if (fclose(f))
            return -1;
        (*files)++;
    }
    return 0;
}

int dh_cmd_export(int argc, char **argv)
{
    const char *file = NULL, *csv = NULL, *t4 = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else if (!strcmp(argv[i], "--t4") && i + 1 < argc)
            t4 = argv[++i];
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else
            file = NULL, i = argc;
    }
    if (!file || (!csv && !t4)) {
        fprintf(stderr, "usage: harness export RESULTS.xml [--csv OUT.csv] [--t4 DIR]\n");
        return DH_EXIT_USAGE;
    }
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
            printf("%s: %d runs\n", csv, rf.n_runs);
        }
    }
    if (t4) {
        int files = 0;
        if (write_t4(t4, &rf, &files)) {
            fprintf(stderr, "harness export: cannot write into %s: %s\n", t4, strerror(errno));
            rc = DH_EXIT_INFRA;
        } else {
            printf("%s: %d T4 file%s (one per tuned case)\n", t4, files, files == 1 ? "" : "s");
        }
    }
    dh_resultfile_free(&rf);
    return rc;
}
