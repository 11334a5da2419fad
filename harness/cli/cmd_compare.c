/* cmd_compare.c — `harness compare`: options, the table, the summary,
 * JUnit and the exit code. The statistics are compare.c's.
 *
 * Exit: 0 no regression; 2 a regression (slower, wrong, failed run, CFE
 * drop); 3 a file unreadable, corrupt, of another schema version, of
 * other devices (unless --allow-device-change), no baseline stored for
 * this machine, nothing in common, or (with --strict) a case on one side
 * only; 64 usage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "../stats/junit.h"
#include "../stats/baseline.h"
#include "cli.h"
#include "../stats/compare.h"
#include "../stats/load.h"

static void compare_usage(FILE *f)
{
    fprintf(f,
        "usage: harness compare BASE.xml NEW.xml [options]\n"
        "       harness compare --baseline [--dir DIR] NEW.xml [options]\n"
        "  --baseline             BASE = the stored baseline of NEW's devices and drivers\n"
        "                         (see harness baseline save)\n"
        "  --dir DIR              baseline folder (default $DH_BASELINE_DIR or %s)\n"
        "  --junit FILE           also write JUnit XML (one testcase per case); - writes it\n"
        "                         to stdout, and everything else compare prints to stderr\n"
        "  --junit-strict         no per-case <properties> in the JUnit file (for the\n"
        "                         strict schema of Jenkins' xunit plugin)\n"
        "  --threshold PCT        smallest slowdown that counts (default 5); the threshold\n"
        "                         applied is max(PCT, 2 x the case's MAD/median)\n"
        "  --alpha A              significance of the one-sided Mann-Whitney test (default 0.05)\n"
        "  --max-spread PCT       noisier cases (MAD/median) cannot be \"same\" (default 10)\n"
        "  --min-samples N        fewer samples on a side: ambiguous (default 10)\n"
        "  --host-threshold PCT   the same for cpu_tdr's end-to-end time, whose host work\n"
        "                         moves more between runs (default %.0f)\n"
        "  --host-min-samples N   the end-to-end time's floor: repetitions whose host work\n"
        "                         was timed (default %d)\n"
        "  --cfe-drop D           CFE lower by more than D fails (default 0.02)\n"
        "  --allow-device-change  compare files of different devices, matching cases\n"
        "                         without the device name\n"
        "  --max-load L           a side whose host had a 1-minute load average over L\n"
        "                         before its run is UNRELIABLE, not judged a regression\n"
        "                         (default: half its CPUs)\n"
        "  --strict               a case on one side only, an unreliable side, or cases\n"
        "                         whose tunables moved, is an error (exit 3)\n"
        "exit: 0 no regression (or unreliable: said), 2 regression (slower, wrong,\n"
        "      failed run, CFE drop), 3 bad or incompatible input, 64 usage\n", DH_BASELINE_DIR_DEFAULT,
        100 * DH_CMP_HOST_THRESHOLD, DH_CMP_HOST_MIN_SAMPLES);
}

static int parse_num(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = v ? strtod(v, &end) : NAN;
    if (!v || end == v || *end || !(x >= lo && x <= hi)) {
        fprintf(stderr, "harness compare: %s %s: want a number in %g..%g\n", opt,
                v ? v : "(missing)", lo, hi);
        return 0;
    }
    *out = x;
    return 1;
}

static void fmt_ms(char *out, size_t len, double ms)
{
    if (!isfinite(ms))
        snprintf(out, len, "-");
    else if (ms >= 100)
        snprintf(out, len, "%.1f", ms);
    else if (ms >= 1)
        snprintf(out, len, "%.3f", ms);
    else
        snprintf(out, len, "%.4f", ms);
}

/* the workload and variant columns' widths: the longest of the table's
 * (a cpu_tdr label with its end-to-end row runs past 30 characters) */
static int w_wl = 20, w_var = 30;

static void metric_row(const char *verdict, const char *bench, const char *wl, const char *var,
                       const struct dh_cmp_metric *m)
{
    char b[32], n[32], ch[32] = "-", p[32] = "-", th[32] = "-", sp[32] = "-";
    fmt_ms(b, sizeof b, m->med_base);
    fmt_ms(n, sizeof n, m->med_new);
    if (isfinite(m->ratio))
        snprintf(ch, sizeof ch, "%+.1f%%", 100 * (m->ratio - 1));
    double pv = m->ratio >= 1 ? m->p_slower : m->p_faster;
    if (isfinite(pv))
        snprintf(p, sizeof p, "%.2g", pv);
    if (isfinite(m->threshold))
        snprintf(th, sizeof th, "%.1f%%", 100 * m->threshold);
    if (isfinite(m->spread))
        snprintf(sp, sizeof sp, "%.1f%%", 100 * m->spread);
    printf("%-10s %-10s %-*s %-*s %10s %10s %8s %8s %7s %7s\n", verdict, bench, w_wl, wl,
           w_var, var, b, n, ch, p, th, sp);
}

static void table(const struct dh_cmp *c)
{
    const struct dh_case **cs = malloc((size_t)(c->n ? c->n : 1) * sizeof *cs);
    char names[DH_MAX_PARAMS][24];
    int nn = 0;
    if (cs) {
        for (int i = 0; i < c->n; i++)
            cs[i] = c->cases[i].cur ? &c->cases[i].cur->c : &c->cases[i].base->c;
        nn = dh_varying_workload(cs, c->n, names, DH_MAX_PARAMS);
        free(cs);
    }
    w_wl = 20;
    w_var = 30;
    for (int i = 0; i < c->n; i++) {
        const struct dh_cmp_case *cc = &c->cases[i];
        const struct dh_run *u = cc->cur ? cc->cur : cc->base;
        char var[300], wl[256];
        dh_case_variant_label(&u->c, var, sizeof var);
        dh_workload_short(&u->c, names, nn, wl, sizeof wl);
        int lv = (int)strlen(var) + (cc->n_metrics > 1 ? 5 : 0), lw = (int)strlen(wl);
        if (lv > w_var)
            w_var = lv < 120 ? lv : 120;
        if (lw > w_wl)
            w_wl = lw < 80 ? lw : 80;
    }
    printf("%-10s %-10s %-*s %-*s %10s %10s %8s %8s %7s %7s\n", "verdict", "bench", w_wl,
           "workload", w_var, "variant", "base ms", "new ms", "change", "p", "thresh",
           "spread");
    for (int i = 0; i < c->n; i++) {
        const struct dh_cmp_case *cc = &c->cases[i];
        const struct dh_run *u = cc->cur ? cc->cur : cc->base;
        char var[300], wl[256], verdict[32];
        dh_case_variant_label(&u->c, var, sizeof var);
        dh_workload_short(&u->c, names, nn, wl, sizeof wl);
        snprintf(verdict, sizeof verdict, "%s%s", dh_verdict_name(cc->verdict),
                 cc->cfe_drop ? "+CFE" : "");
        if (cc->n_metrics == 0) {
            struct dh_cmp_metric none = {.med_base = NAN, .med_new = NAN, .ratio = NAN,
                                         .p_slower = NAN, .p_faster = NAN, .threshold = NAN,
                                         .spread = NAN};
            if (cc->base && cc->base->r.status == 0)
                none.med_base = cc->base->kernel.median;
            if (cc->cur && cc->cur->r.status == 0)
                none.med_new = cc->cur->kernel.median;
            metric_row(verdict, u->c.bench_name, wl[0] ? wl : "-", var, &none);
        }
        for (int k = 0; k < cc->n_metrics; k++) {
            char v2[320];
            if (!k)
                snprintf(v2, sizeof v2, "%s", var);
            else        /* "e2e " or "e2e*": one width */
                snprintf(v2, sizeof v2, "%s %-4s", var, cc->m[k].held ? "e2e*" : "e2e");
            metric_row(k ? "" : verdict, k ? "" : u->c.bench_name, k ? "" : (wl[0] ? wl : "-"),
                       v2, &cc->m[k]);
        }
        for (int k = 0; k < cc->n_metrics; k++)    /* why, where it decided the verdict */
            if (cc->m[k].why[0] && cc->m[k].verdict != DH_V_SAME)
                printf("    %s: %s\n", cc->m[k].name, cc->m[k].why);
        if (cc->cfe_drop)
            printf("    CFE drop: %.3f -> %.3f\n", cc->cfe_base, cc->cfe_new);
        if (cc->note[0])
            printf("    note: %s\n", cc->note);
    }
}

static void driver_notes(const struct dh_resultfile *b, const struct dh_resultfile *n)
{
    for (int i = 0; i < n->devs.n; i++)
        for (int j = 0; j < b->devs.n; j++)
            if (!strcmp(n->devs.d[i].backend, b->devs.d[j].backend)
                    && !strcmp(n->devs.d[i].info.name, b->devs.d[j].info.name)
                    && strcmp(n->devs.d[i].info.driver, b->devs.d[j].info.driver))
                printf("note: %s %s: driver %s -> %s\n", n->devs.d[i].backend,
                       n->devs.d[i].info.name, b->devs.d[j].info.driver,
                       n->devs.d[i].info.driver);
}

int dh_cmd_compare(int argc, char **argv)
{
    struct dh_cmp_opts o;
    dh_cmp_opts_default(&o);
    const char *files[2] = {0}, *junit = NULL, *dir = NULL;
    int nfiles = 0, use_baseline = 0, strict = 0, junit_strict = 0;
    double max_load = 0;                 /* --max-load; 0: half the CPUs */
    int data_fd = 1;                     /* where the data goes (--junit -: the old stdout) */
    char jtmp[64] = "";                  /* --junit -: the XML's scratch file */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char buf[64];
        const char *eqv = NULL, *eq = strchr(a, '=');
        if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof buf) {
            memcpy(buf, a, (size_t)(eq - a));
            buf[eq - a] = 0;
            a = buf;
            eqv = eq + 1;
        }
#define VAL() (eqv ? eqv : (i + 1 < argc ? argv[++i] : NULL))
        double x;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            compare_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--junit")) {
            if (!(junit = VAL())) {
                fprintf(stderr, "harness compare: --junit needs a file name\n");
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--dir")) {
            if (!(dir = VAL())) {
                fprintf(stderr, "harness compare: --dir needs a folder\n");
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--threshold")) {
            if (!parse_num(a, VAL(), 0, 1000, &x)) return DH_EXIT_USAGE;
            o.threshold = x / 100;
        } else if (!strcmp(a, "--alpha")) {
            if (!parse_num(a, VAL(), 1e-12, 0.5, &o.alpha)) return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--max-spread")) {
            if (!parse_num(a, VAL(), 0, 1000, &x)) return DH_EXIT_USAGE;
            o.max_spread = x / 100;
        } else if (!strcmp(a, "--min-samples")) {
            if (!parse_num(a, VAL(), 1, DH_MAX_SAMPLES, &x) || x != floor(x)) return DH_EXIT_USAGE;
            o.min_samples = (int)x;
        } else if (!strcmp(a, "--host-threshold")) {
            if (!parse_num(a, VAL(), 0, 1000, &x)) return DH_EXIT_USAGE;
            o.host_threshold = x / 100;
        } else if (!strcmp(a, "--host-min-samples")) {
            if (!parse_num(a, VAL(), 1, DH_MAX_SAMPLES, &x) || x != floor(x)) return DH_EXIT_USAGE;
            o.host_min_samples = (int)x;
        } else if (!strcmp(a, "--cfe-drop")) {
            if (!parse_num(a, VAL(), 0, 1, &o.cfe_drop)) return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--allow-device-change") && !eqv) {
            o.allow_device_change = 1;
        } else if (!strcmp(a, "--baseline") && !eqv) {
            use_baseline = 1;
        } else if (!strcmp(a, "--junit-strict") && !eqv) {
            junit_strict = 1;
        } else if (!strcmp(a, "--strict") && !eqv) {
            strict = 1;
        } else if (!strcmp(a, "--max-load")) {
            if (!parse_num(a, VAL(), 0, 4096, &max_load)) return DH_EXIT_USAGE;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "harness compare: unknown option '%s' (see harness compare --help)\n",
                    argv[i]);
            return DH_EXIT_USAGE;
        } else if (nfiles < 2) {
            files[nfiles++] = argv[i];
        } else {
            fprintf(stderr, "harness compare: too many files: give BASE.xml NEW.xml, or "
                    "--baseline NEW.xml\n");
            return DH_EXIT_USAGE;
        }
#undef VAL
    }
    if (nfiles != (use_baseline ? 1 : 2)) {
        fprintf(stderr, "harness compare: %s\n", use_baseline
                ? "with --baseline give one file: NEW.xml"
                : "give two files: BASE.xml NEW.xml (or --baseline NEW.xml)");
        return DH_EXIT_USAGE;
    }
    if (dir && !use_baseline) {
        fprintf(stderr, "harness compare: --dir goes with --baseline\n");
        return DH_EXIT_USAGE;
    }

    struct dh_err e = {0};
    static struct dh_resultfile base, cur;
    const char *new_path = files[use_baseline ? 0 : 1];
    char base_path[4200];
    int rc;
    if ((rc = dh_results_load_ex(new_path, &cur, 0, &e))) {
        fprintf(stderr, "harness compare: NEW: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    if (use_baseline) {
        char fp[17], desc[2048];
        const char *d = dh_baseline_dir(dir);
        if ((rc = dh_baseline_fingerprint(&cur, fp, desc, sizeof desc, &e))) {
            fprintf(stderr, "harness compare: %s: %s\n", new_path, e.msg);
            dh_resultfile_free(&cur);
            return DH_EXIT_INFRA;
        }
        int exact = 0;
        rc = dh_baseline_find(d, &cur, base_path, sizeof base_path, &exact, &e);
        if (rc) {
            if (rc < 0)
                fprintf(stderr, "harness compare: %s\n", e.msg);
            else
                fprintf(stderr, "harness compare: no baseline for this machine in %s "
                        "(fingerprint %s: %s); store one with: harness baseline save %s%s%s\n",
                        d, fp, desc, new_path, dir ? " --dir " : "", dir ? dir : "");
            dh_resultfile_free(&cur);
            return DH_EXIT_INFRA;
        }
        if (!exact)
            printf("note: no baseline for these drivers (fingerprint %s: %s); comparing with "
                   "the latest baseline of the same devices under another driver\n", fp, desc);
    } else {
        snprintf(base_path, sizeof base_path, "%s", files[0]);
    }
    if ((rc = dh_results_load_ex(base_path, &base, 0, &e))) {
        fprintf(stderr, "harness compare: BASE: %s\n", e.msg);
        dh_resultfile_free(&cur);
        return DH_EXIT_INFRA;
    }
    int code = DH_EXIT_OK;
    char why[4200];
    struct dh_cmp c = {0};
    /* a file without runs says so (it was blamed on "different devices") */
    if (!base.n_runs || !cur.n_runs) {
        fprintf(stderr, "harness compare: %s (%s) holds no runs: nothing to compare (was the "
                "run interrupted before its first case ended?)\n", !base.n_runs ? "BASE" : "NEW",
                !base.n_runs ? base_path : new_path);
        code = DH_EXIT_INFRA;
        goto out;
    }
    if (dh_cmp_devices_differ(&base, &cur, why, sizeof why) && !o.allow_device_change) {
        fprintf(stderr, "harness compare: the files are of different devices: %s; to compare "
                "them anyway, add --allow-device-change\n", why);
        code = DH_EXIT_INFRA;
        goto out;
    }
    if ((rc = dh_compare(&base, &cur, &o, &c, &e))) {
        fprintf(stderr, "harness compare: %s\n", e.msg);
        code = DH_EXIT_INFRA;
        goto out;
    }
    /* --junit -: stdout is the XML's; what compare says goes to stderr */
    if (junit && !strcmp(junit, "-")) {
        fflush(stdout);
        data_fd = dup(1);
        if (data_fd < 0) {
            fprintf(stderr, "harness compare: cannot keep stdout for the JUnit XML: %s\n",
                    strerror(errno));
            data_fd = 1;
            code = DH_EXIT_INFRA;
            goto out;
        }
        dup2(2, 1);
    }
    printf("BASE %s (%s, git %s)\nNEW  %s (%s, git %s)\n", base_path, base.env.started,
           base.env.git_revision, new_path, cur.env.started, cur.env.git_revision);
    /* the conditions each side ran in: a busy host makes its timings
     * unfit to judge (the verdict below says so instead of "regression") */
    /* NEW from a busy host: its slowdowns are the host's as likely as the
     * code's (its own verdict below). BASE from a busy one: NEW's
     * slowdowns against it are if anything understated, its speedups
     * overstated: said, judged as they are */
    char unreliable[400] = "", wb[200], wn[200];
    int ub = dh_conditions_unreliable(&base.env.cond, max_load, wb, sizeof wb);
    int un = dh_conditions_unreliable(&cur.env.cond, max_load, wn, sizeof wn);
    if (un)
        snprintf(unreliable, sizeof unreliable, "NEW: %s", wn);
    if (ub)
        printf("note: BASE ran on a busy host (%s): faster verdicts against it may be its "
               "slowness\n", wb);
    driver_notes(&base, &cur);
    printf("\n");
    table(&c);
    int amb = c.count[DH_V_AMBIGUOUS], one = c.count[DH_V_ONLY_BASE] + c.count[DH_V_ONLY_NEW];
    printf("\n%d case%s: %d same, %d faster, %d slower, %d ambiguous (%.1f%% of %d judged); "
           "%d wrong, %d failed, %d CFE drop%s, %d untimed; only in BASE %d, only in NEW %d\n",
           c.n, c.n == 1 ? "" : "s", c.count[DH_V_SAME], c.count[DH_V_FASTER],
           c.count[DH_V_SLOWER], amb, c.n_judged ? 100.0 * amb / c.n_judged : 0.0, c.n_judged,
           c.count[DH_V_WRONG], c.count[DH_V_FAILED], c.n_cfe_drop,
           c.n_cfe_drop == 1 ? "" : "s", c.count[DH_V_UNTIMED], c.count[DH_V_ONLY_BASE],
           c.count[DH_V_ONLY_NEW]);
    printf("rule: slower = median up by >= threshold = max(%.0f%%, 2 x MAD/median) and "
           "one-sided Mann-Whitney p < %g; ambiguous = < %d samples, or test and threshold "
           "disagree (a change past the threshold without p < %g, or p < %g with a change "
           "between half the threshold and the threshold), or spread > %.0f%% without a clear "
           "change; cpu_tdr e2e: threshold max(%.0f%%, 2 x MAD/median), >= %d samples, one "
           "per timed host repetition (e2e*: a BBV regrouping's acquisition of the BBVs, "
           "measured once per workload, held at BASE's on both sides; NEW's in the note, "
           "unjudged)\n", 100 * o.threshold, o.alpha, o.min_samples, o.alpha, o.alpha,
           100 * o.max_spread, 100 * o.host_threshold, o.host_min_samples);
    /* --junit -: the XML goes to stdout, written through a file of our
     * own; the table and verdicts have been going to stderr (below) */
    if (junit && !strcmp(junit, "-")) {
        snprintf(jtmp, sizeof jtmp, "/tmp/dh-junit-XXXXXX");
        int fd = mkstemp(jtmp);
        if (fd < 0) {
            fprintf(stderr, "harness compare: cannot make a scratch file: %s\n", strerror(errno));
            code = DH_EXIT_INFRA;
            goto out;
        }
        close(fd);
        junit = jtmp;
    }
    if (junit && dh_junit_write(junit, &c, &o, base_path, new_path, junit_strict, &e)) {
        fprintf(stderr, "harness compare: %s\n", e.msg);
        code = DH_EXIT_INFRA;
        goto out;
    }
    if (jtmp[0]) {
        FILE *jf = fopen(jtmp, "r");
        char buf[65536];
        size_t k;
        int short_write = !jf;
        fflush(stdout);
        while (jf && (k = fread(buf, 1, sizeof buf, jf)) > 0)
            if (write(data_fd, buf, k) != (ssize_t)k) {
                short_write = 1;
                break;
            }
        if (jf)
            fclose(jf);
        unlink(jtmp);
        jtmp[0] = 0;
        if (short_write) {
            fprintf(stderr, "harness compare: cannot write the JUnit XML to stdout: %s\n",
                    strerror(errno));
            code = DH_EXIT_INFRA;
            goto out;
        }
    } else if (junit) {
        printf("JUnit: %s\n", junit);
    }
    if (c.n_matched == 0) {
        fprintf(stderr, "harness compare: no case of NEW is in BASE: nothing was compared "
                "(different suites, sizes or workloads?)\n");
        code = DH_EXIT_INFRA;
    } else if (unreliable[0] && c.n_failures &&
               c.n_failures == c.count[DH_V_SLOWER] + c.n_cfe_drop) {
        /* timings from a busy host: not a regression, said as such; a
         * wrong result or a failed run is one whatever the host */
        printf("UNRELIABLE: %s; %d case%s would be slower; run again on a quiet host "
               "(harness run --max-load L refuses a busy one)\n", unreliable,
               c.count[DH_V_SLOWER], c.count[DH_V_SLOWER] == 1 ? "" : "s");
        if (strict)
            code = DH_EXIT_INFRA;
    } else if (c.n_failures) {
        printf("REGRESSION: %d case%s (slower %d, wrong %d, failed %d, CFE drops %d)\n",
               c.n_failures, c.n_failures == 1 ? "" : "s", c.count[DH_V_SLOWER],
               c.count[DH_V_WRONG], c.count[DH_V_FAILED], c.n_cfe_drop);
        if (unreliable[0])
            printf("(and %s)\n", unreliable);
        code = DH_EXIT_REGRESSION;
    } else if (unreliable[0]) {
        printf("no regression; UNRELIABLE: %s\n", unreliable);
        if (strict)
            code = DH_EXIT_INFRA;
    } else {
        printf("no regression\n");
    }
    /* the same cases at other tunables: not the same measurement (an
     * engineer's ad-hoc --tune moved the journal the night read) */
    int moved = 0;
    const char *first_moved = NULL;
    for (int i = 0; i < c.n; i++)
        if (strstr(c.cases[i].note, "tunables moved:")) {
            if (!moved++)
                first_moved = c.cases[i].cur ? c.cases[i].cur->c.id : "";
        }
    if (moved) {
        printf("TUNABLES MOVED: %d case%s ran at other tunables than BASE (first: %s; its note "
               "above says from what to what): pin them with harness run --tuned FILE%s\n",
               moved, moved == 1 ? "" : "s", first_moved ? first_moved : "",
               strict ? "; an error with --strict" : "");
        if (strict && code == DH_EXIT_OK)
            code = DH_EXIT_INFRA;
    }
    if (one) {
        fprintf(stderr, "harness compare: %d case%s on one side only (listed above as "
                "only-base / only-new)%s\n", one, one == 1 ? "" : "s",
                strict ? ": an error with --strict" : "");
        if (strict && code == DH_EXIT_OK)
            code = DH_EXIT_INFRA;
    }
out:
    if (jtmp[0])                         /* a JUnit file for stdout never sent */
        unlink(jtmp);
    if (data_fd != 1) {                  /* stdout back as it was */
        fflush(stdout);
        dup2(data_fd, 1);
        close(data_fd);
    }
    dh_cmp_free(&c);
    dh_resultfile_free(&base);
    dh_resultfile_free(&cur);
    return code;
}
