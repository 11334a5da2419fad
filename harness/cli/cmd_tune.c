/* cmd_tune.c — `harness tune --descriptor FILE.xml`: tune a user's own
 * kernel (suites/lib/descriptor.h) on a device, every configuration checked
 * against the reference run on the CPU device, then time the best one and
 * write results like `harness run`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../results/xml.h"
#include "../../tuning/tuning.h"
#include "../../suites/lib/descriptor.h"
#include "cli.h"
#include "../stats/derive.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: harness tune --descriptor FILE.xml [--kernel FILE] [--backend B] "
            "[--device N]\n       [--tune exhaustive|random|anneal|model] [--tune-budget N] "
            "[--tune-reps N] [--reps N] [--timeout S] [--out DIR]\n"
            "  tunes a kernel written in the dialect, described by FILE.xml (schema "
            "suites/lib/descriptor-2.xsd,\n  version 1: suites/lib/descriptor-1.xsd; "
            "example: tuning/examples/branch_sum.xml;\n  docs/guide/your-own-kernel.md)\n");
}

int dh_cmd_tune(int argc, char **argv, int full_argc, char **full_argv)
{
    const char *desc = NULL, *kern = NULL, *backend = "opencl", *out = NULL;
    int device = 0, reps = 10, timeout_s = 300;
    struct dh_tune_opts o = {.mode = DH_TUNE_EXHAUSTIVE, .reps = 3, .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            fprintf(stderr, "harness tune: %s needs a value\n", a);
            return DH_EXIT_USAGE;
        }
        i++;
        if (!strcmp(a, "--descriptor")) desc = v;
        else if (!strcmp(a, "--kernel")) kern = v;
        else if (!strcmp(a, "--backend")) backend = v;
        else if (!strcmp(a, "--device")) {
            if (!dh_cli_int("tune", a, v, 0, 63, &device))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--reps")) {
            if (!dh_cli_int("tune", a, v, 1, DH_MAX_SAMPLES, &reps))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--timeout")) {
            if (!dh_cli_int("tune", a, v, 1, 86400, &timeout_s))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--tune-budget")) {
            if (!dh_cli_int("tune", a, v, 1, 100000, &o.budget))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--tune-reps")) {
            if (!dh_cli_int("tune", a, v, 1, DH_MAX_SAMPLES, &o.reps))
                return DH_EXIT_USAGE;
        }
        else if (!strcmp(a, "--tune")) {
            if (dh_tune_mode_parse(v, &o.mode) || o.mode < DH_TUNE_EXHAUSTIVE) {
                fprintf(stderr, "harness tune: --tune %s: choose exhaustive, random, anneal or model\n", v);
                return DH_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "harness tune: unknown option '%s'\n", a);
            usage(stderr);
            return DH_EXIT_USAGE;
        }
    }
    if (!desc) {
        usage(stderr);
        return DH_EXIT_USAGE;
    }
    struct dh_err e = {0};
    const struct dh_bench *b;
    int rc = dh_ukernel_load(desc, kern, &b, &e);
    if (rc) {
        fprintf(stderr, "harness tune: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    if (!dh_backend_find(backend)) {       /* a usage error, as in run */
        fprintf(stderr, "harness tune: unknown backend '%s': choose one of %s\n", backend,
                dh_backend_names());
        return DH_EXIT_USAGE;
    }
    dh_runner_install_sigint();
    static struct dh_devlist devs;
    if ((rc = dh_devices_gather(&devs, 1, &e))) {
        fprintf(stderr, "harness tune: %s\n", e.msg);
        return dh_exit_for(rc);
    }
    const struct dh_device_info *dev = dh_devlist_find(&devs, backend, device);
    if (!dev) {
        fprintf(stderr, "harness tune: %s has no device %d (see harness devices)\n", backend, device);
        return DH_EXIT_INFRA;
    }
    static struct dh_run run;
    struct dh_case *c = &run.c;
    c->bench = b;
    snprintf(c->suite, sizeof c->suite, "user");
    snprintf(c->bench_name, sizeof c->bench_name, "%s", b->name);
    snprintf(c->variant, sizeof c->variant, "baseline");
    snprintf(c->backend, sizeof c->backend, "%s", backend);
    c->device = device;
    snprintf(c->device_name, sizeof c->device_name, "%s", dev->name);
    snprintf(c->size, sizeof c->size, "small");
    c->reps = reps;
    c->warmup = 2;
    c->timeout_s = timeout_s;
    /* the baseline's own parameters, each of its own kind (cpu_tdr's
     * choices mech and regroup are not the baseline's tunables) */
    for (const struct dh_param_def *d = b->params; d->name; d++)
        if (dh_param_used_by(d, c->variant))
            dh_pset_put(&c->params, d->name, d->def, atof(d->def), d->kind);
    dh_case_identity(c);

    struct dh_pset *cfg;
    int n = 0, total = 0;
    struct dh_err se = {0};
    if (dh_space_alloc(c, dev, &cfg, &n, &total, &se)) {
        fprintf(stderr, "harness tune: %s\n", se.msg);
        return DH_EXIT_USAGE;
    }
    free(cfg);     /* the search enumerates it again (tuning/tune.c) */
    printf("space: %d configurations (%d before constraints)\n", n, total);
    if (!n) {
        fprintf(stderr, "harness tune: no configuration meets the constraints on %s: relax the "
                "<constraint> elements or widen the <tunable> values\n", dev->name);
        return DH_EXIT_USAGE;
    }
    /* the folder claimed before the evaluations: a folder in use or
     * another command's results stop the tune before it spends anything */
    char path[4200];
    int claim = dh_cli_claim_dir("tune", out, "tune", c->id, path, sizeof path);
    if (claim)
        return claim;
    static struct dh_journal journal;
    if (!dh_journal_load(&journal, dh_journal_default_path(), &e))
        o.journal = &journal;
    o.devs = &devs;
    struct dh_runner_opts ro = {.isolate = 1};
    struct dh_session *s = dh_session_open(&ro);
    rc = dh_tune_case(s, &run, &o, &e);
    if (rc && rc != -DH_E_IO) {
        fprintf(stderr, "harness tune: %s\n", e.msg);
        dh_session_close(s);
        return dh_exit_for(rc);
    }
    if (rc == -DH_E_IO)
        fprintf(stderr, "harness tune: warning: %s; the evaluations are not kept for a "
                "later run\n", e.msg);
    int from_journal = 0, wrong = 0, wide = 13;       /* the columns: as wide as the widest */
    for (int k = 0; k < run.tune.n_eval; k++)
        if ((int)strlen(run.tune.eval[k].tunables) > wide)
            wide = (int)strlen(run.tune.eval[k].tunables);
    printf("  %-*s %-8s %12s\n", wide, "configuration", "status", "kernel ms");
    for (int k = 0; k < run.tune.n_eval; k++) {
        const char *j = run.tune.eval[k].from_journal ? "  (journal)" : "";
        from_journal += run.tune.eval[k].from_journal;
        wrong += run.tune.eval[k].status == DH_E_WRONG;
        if (run.tune.eval[k].ms > 0)
            printf("  %-*s %-8s %12.4f%s\n", wide, run.tune.eval[k].tunables,
                   dh_err_name(run.tune.eval[k].status), run.tune.eval[k].ms, j);
        else
            printf("  %-*s %-8s %12s%s\n", wide, run.tune.eval[k].tunables,
                   dh_err_name(run.tune.eval[k].status), "-", j);
    }
    if (from_journal)
        printf("(journal: %d of %d evaluations were read from %s, measured earlier for this "
               "descriptor, kernel, device and driver; delete the file to measure them again)\n",
               from_journal, run.tune.n_eval, dh_journal_default_path());
    if (dh_runner_interrupted()) {
        fprintf(stderr, "harness tune: interrupted after %d evaluations; they are kept in the "
                "journal, and the same command resumes from there\n", run.tune.n_eval);
        dh_session_close(s);
        return DH_EXIT_INTERRUPTED;
    }
    if (run.tune.best < 0) {
        fprintf(stderr, "harness tune: no configuration ran correctly (first: %s)\n",
                run.tune.failure[0] ? run.tune.failure
                : run.tune.n_eval ? dh_err_name(run.tune.eval[0].status) : "none");
        dh_session_close(s);
        return wrong ? DH_EXIT_WRONG : DH_EXIT_INFRA;
    }
    /* the best configuration, timed properly */
    run.r.status = -1;
    rc = dh_session_run(s, c, &run.r);
    dh_session_close(s);
    dh_run_derive(&run, 1);
    char tun[200];
    dh_pset_format(&c->params, DH_P_TUNABLE, tun, sizeof tun);
    printf("best: %s  %.4f ms median over %d runs (%s)", tun, run.kernel.median, run.r.n,
           dh_err_name(run.r.status));
    if (run.tune.default_ms > 0)
        printf(", %.2fx over the default configuration", run.tune.default_ms / run.tune.eval[run.tune.best].ms);
    printf("\n%.0f%% of the evaluated configurations are within 5%% of the best; reached after %d "
           "evaluations\n", 100 * run.tune.flat_share, run.tune.evals_to_95);
    struct dh_env env;
    dh_env_fill(&env, full_argc, full_argv);
    dh_conditions_host(&env.cond);
    if (dh_xml_write(path, &env, &devs, &run, 1, &e)) {
        fprintf(stderr, "harness tune: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    printf("results: %s\n", path);
    return run.r.status == DH_E_WRONG ? DH_EXIT_WRONG : run.r.status ? DH_EXIT_INFRA : 0;
}
