/* cmd_rerun.c — `harness rerun RESULTS.xml --case KEY [--reps N] [--out DIR]`:
 * repeat one case of a results file exactly — same benchmark, variant and
 * choices, workload, size, tunables, device — and print the old and new
 * medians side by side. The build options are compared with the recorded
 * ones, so a changed harness or kernel default is pointed out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../results/xml.h"
#include "../../suites/suite.h"
#include "cli.h"
#include "../run/source.h"
#include "../stats/load.h"
#include "../stats/derive.h"
#include "../run/runner.h"

int dh_cmd_rerun(int argc, char **argv, int full_argc, char **full_argv)
{
    const char *file = NULL, *key = NULL, *out = NULL;
    int reps = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--case") && i + 1 < argc)
            key = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            if (!dh_cli_int("rerun", "--reps", argv[++i], 1, DH_MAX_SAMPLES, &reps))
                return DH_EXIT_USAGE;
        }
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else {
            file = NULL;
            break;
        }
    }
    if (!file || !key || reps < 0 || reps > DH_MAX_SAMPLES) {
        fprintf(stderr, "usage: harness rerun RESULTS.xml --case KEY [--reps N] [--out DIR]\n"
                "  KEY: a run's key (or a unique prefix of it), as in the XML's <run key=...>\n");
        return DH_EXIT_USAGE;
    }
    struct dh_resultfile rf;
    struct dh_err e = {0};
    if (dh_results_load(file, &rf, &e)) {
        fprintf(stderr, "harness rerun: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    int found = -1, matches = 0;
    for (int i = 0; i < rf.n_runs; i++)
        if (!strncmp(rf.runs[i].c.key, key, strlen(key)) || !strcmp(rf.runs[i].c.id, key)) {
            found = i;
            matches++;
        }
    if (matches != 1) {
        fprintf(stderr, "harness rerun: %s names %s run in %s: give more of the key (the "
                "file's keys: harness export %s --csv -)\n", key,
                matches ? "more than one" : "no", file, file);
        dh_resultfile_free(&rf);
        return DH_EXIT_USAGE;
    }
    static struct dh_run run;
    dh_run_move(&run, &rf.runs[found]);
    dh_resultfile_free(&rf);
    struct dh_case *c = &run.c;
    if (!c->bench) {
        fprintf(stderr, "harness rerun: this build has no benchmark %s/%s\n", c->suite,
                c->bench_name);
        return DH_EXIT_INFRA;
    }
    /* values from a file are checked against the domains as command-line
     * ones are: an out-of-domain value never runs under the case's id */
    for (int i = 0; i < c->params.n; i++) {
        const struct dh_pval *v = &c->params.v[i];
        const struct dh_param_def *d = dh_param_find(c->bench->params, v->name);
        char why[512];
        double num;
        if (d && d->domain && dh_domain_check(d->domain, v->text, &num, why, sizeof why)) {
            fprintf(stderr, "harness rerun: %s in %s: %s=%s is outside its domain: %s (the "
                    "file was edited, or made by another version of the benchmark)\n",
                    c->id, file, v->name, v->text, why);
            return DH_EXIT_INFRA;
        }
    }
    if (reps)
        c->reps = reps;
    if (c->reps < 1 && c->reps != DH_REPS_AUTO)      /* auto stays auto */
        c->reps = 10;
    if (c->warmup < 1)
        c->warmup = 2;
    c->timeout_s = 300;
    static struct dh_devlist devs;
    dh_runner_install_sigint();
    if (dh_devices_gather(&devs, 1, &e)) {
        fprintf(stderr, "harness rerun: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    /* the same device: by backend and name, the recorded index first */
    const struct dh_device_info *dev = dh_devlist_find(&devs, c->backend, c->device);
    if (!dev || strcmp(dev->name, c->device_name)) {
        dev = NULL;
        for (int i = 0; i < devs.n && !dev; i++)
            if (!strcmp(devs.d[i].backend, c->backend) && !strcmp(devs.d[i].info.name, c->device_name)) {
                dev = &devs.d[i].info;
                c->device = devs.d[i].index;
            }
    }
    if (!dev) {
        fprintf(stderr, "harness rerun: the case ran on %s device \"%s\", which this machine "
                "does not have (see harness devices)\n", c->backend, c->device_name);
        return DH_EXIT_INFRA;
    }
    char opts[4096];
    double old_median = run.kernel.median;
    char old_opts[4096];
    snprintf(old_opts, sizeof old_opts, "%s", dh_text(run.r.options));
    if (!dh_source_options(c, dev, opts, sizeof opts) && old_opts[0] && strcmp(opts, old_opts))
        fprintf(stderr, "harness rerun: warning: the build options differ from the recorded "
                "run's (the harness or the benchmark's defaults changed):\n  was: %s\n  now: %s\n",
                old_opts, opts);
    c->profile = dev->has_counters;
    dh_run_release(&run);
    memset(&run.r, 0, sizeof run.r);
    memset(&run.tune, 0, sizeof run.tune);
    run.tune.best = -1;
    /* the folder claimed before the run (a folder in use, or another
     * command's results there, stop it first) */
    char path[4200], name[64];
    snprintf(name, sizeof name, "rerun-%.40s", c->key);
    int claim = dh_cli_claim_dir("rerun", out, name, c->id, path, sizeof path);
    if (claim)
        return claim;
    struct dh_runner_opts ro = {.isolate = 1};
    struct dh_session *s = dh_session_open(&ro);
    int rc = dh_session_run(s, c, &run.r);
    dh_session_close(s);
    if (rc) {
        fprintf(stderr, "harness rerun: interrupted\n");
        return DH_EXIT_INTERRUPTED;
    }
    dh_run_derive(&run, 1);
    char tun[200];
    dh_pset_format(&c->params, DH_P_TUNABLE, tun, sizeof tun);
    printf("%s\n  tunables %s\n  status %s", c->id, tun, dh_err_name(run.r.status));
    if (run.r.status == 0)
        printf("; kernel median %.4f ms now, %.4f ms recorded (%+.1f%%)", run.kernel.median,
               old_median, 100 * (run.kernel.median / old_median - 1));
    printf("\n");
    if (run.r.status && run.r.message[0])
        printf("  %s\n", run.r.message);
    struct dh_env env;
    dh_env_fill(&env, full_argc, full_argv);
    dh_conditions_host(&env.cond);
    if (dh_xml_write(path, &env, &devs, &run, 1, &e)) {
        fprintf(stderr, "harness rerun: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    printf("results: %s\n", path);
    return run.r.status == DH_E_WRONG ? DH_EXIT_WRONG : run.r.status ? DH_EXIT_INFRA : 0;
}
