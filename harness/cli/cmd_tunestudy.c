/* cmd_tunestudy.c — `harness tune-study RESULTS.xml [--seeds N]
 * [--no-model] [--bbv-backend B] [--bbv-device N]`: how fast would random
 * search, annealing and the model-guided ranking have found what
 * exhaustive search found? For every run tuned exhaustively, the measured
 * table is replayed (no new measurement of a configuration): per strategy
 * and seed, the evaluations until a configuration within 5% of the
 * exhaustive best; the median over seeds is printed next to the space's
 * flatness (share of configurations within 5% of the best). The model's
 * ranking is deterministic (one figure) and is obtained as a live
 * `--tune model` obtains it (tuning/model.c): the input made on the host
 * for the ceilings, and a profiling run of the workload's baseline for its
 * BBVs — on this machine's device (BBVs do not depend on the device),
 * priced with the recorded device's latency table and limits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../results/xml.h"
#include "../../tuning/tuning.h"
#include "cli.h"
#include "../stats/load.h"
#include "../run/runner.h"
#include "../../suites/suite.h"

struct table {
    int n;
    double ms[DH_TUNE_MAX_EVALS];
    double best;
};

static double replay(void *ctx, int i)
{
    return ((struct table *)ctx)->ms[i];
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* "nf=4,wg=64" -> tunables of a pset */
static void parse_tunables(const char *txt, struct dh_pset *p)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", txt);
    memset(p, 0, sizeof *p);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = 0;
        dh_pset_put(p, t, eq + 1, atof(eq + 1), DH_P_TUNABLE);
    }
}

/* The session and device the model's profiling runs use; NULL session:
 * none (the model ranks without BBVs, and says so). */
struct bbv_site {
    struct dh_session *s;
    struct dh_devlist devs;
    const struct dh_device_info *dev;
    const char *backend;
    int index;
    struct dh_wcache *wcache;
};

/* The model's ranking of run r's recorded space, obtained as `--tune
 * model` obtains it live, replayed against the recorded times: *need =
 * evaluations to within 5% of the exhaustive best. Nonzero when the run
 * cannot be ranked (its benchmark missing from this build: said on
 * stderr). */
static int model_need(const struct dh_resultfile *f, int r, const struct bbv_site *site,
                      const struct dh_pset *tun, const struct table *tb, int show,
                      char *picks, size_t picks_len, int *need)
{
    const struct dh_run *u = &f->runs[r];
    if (!u->c.bench) {
        fprintf(stderr, "harness tune-study: %s: this build has no benchmark %s/%s: no model "
                "ranking\n", u->c.id, u->c.suite, u->c.bench_name);
        return -1;
    }
    const struct dh_device_info *dev = dh_devlist_find(&f->devs, u->c.backend, u->c.device);
    /* each recorded configuration: the case's parameters, its tunables */
    static struct dh_pset cfg[DH_TUNE_MAX_EVALS];
    struct dh_pset defaults = u->c.params;
    for (const struct dh_param_def *d = u->c.bench->params; d && d->name; d++)
        if (d->kind == DH_P_TUNABLE && dh_pset_find(&defaults, d->name))
            dh_pset_put(&defaults, d->name, d->def, atof(d->def), DH_P_TUNABLE);
    int def = -1;
    for (int i = 0; i < tb->n; i++) {
        cfg[i] = u->c.params;
        for (int k = 0; k < tun[i].n; k++)
            dh_pset_put(&cfg[i], tun[i].v[k].name, tun[i].v[k].text, tun[i].v[k].num,
                        DH_P_TUNABLE);
        char a[200], b[200];
        dh_pset_format(&cfg[i], DH_P_TUNABLE, a, sizeof a);
        dh_pset_format(&defaults, DH_P_TUNABLE, b, sizeof b);
        if (!strcmp(a, b))
            def = i;
    }
    static struct dh_tune_model m;
    double ceiling[DH_TUNE_MAX_EVALS], pred[DH_TUNE_MAX_EVALS];
    int rank[DH_TUNE_MAX_EVALS], order[DH_TUNE_MAX_EVALS];
    struct dh_err e = {0};
    static struct dh_case c;
    c = u->c;
    c.model = 1;                        /* a file does not record it: the replay prices */
    int rc = dh_tune_model_prepare(site->dev ? site->s : NULL, &c, dev,
                                   site->dev ? site->backend : "", site->index,
                                   site->dev ? site->dev->name : "", cfg, tb->n, &m, ceiling, &e);
    if (!rc)
        rc = dh_tune_model_order(&m, &c, cfg, ceiling, tb->n, def, rank, pred);
    if (rc) {
        fprintf(stderr, "harness tune-study: %s: %s\n", u->c.id, e.msg[0] ? e.msg : "no ranking");
        return -1;
    }
    if (m.note[0])
        fprintf(stderr, "harness tune-study: %s: model: %s\n", u->c.id, m.note);
    int k = dh_strategy_ranked(tb->n, rank, 0, 0, replay, (void *)tb, order);
    /* the first `show` picks, with their recorded time over the best */
    picks[0] = 0;
    for (int q = 0; q < k && q < show; q++) {
        char tx[96];
        dh_pset_format(&tun[order[q]], DH_P_TUNABLE, tx, sizeof tx);
        size_t l = strlen(picks);
        if (tb->ms[order[q]] > 0)
            snprintf(picks + l, picks_len - l, "%s%s %.3f", q ? ", " : "", tx,
                     tb->ms[order[q]] / tb->best);
        else
            snprintf(picks + l, picks_len - l, "%s%s failed", q ? ", " : "", tx);
    }
    *need = tb->n;
    for (int q = 0; q < k; q++)
        if (tb->ms[order[q]] > 0 && tb->ms[order[q]] <= 1.05 * tb->best) {
            *need = q + 1;
            break;
        }
    return 0;
}

static const char usage[] =
    "usage: harness tune-study RESULTS.xml [--seeds N] [--no-model] [--model-picks K]\n"
    "                          [--bbv-backend B] [--bbv-device N]\n"
    "  --seeds N         seeds of random search and annealing (default 101)\n"
    "  --no-model        leave out the model-guided ranking (no profiling run)\n"
    "  --model-picks K   under each case, the model's first K configurations and\n"
    "                    their recorded time over the exhaustive best\n"
    "  --bbv-backend B   backend of the device the model's profiling run uses for\n"
    "                    the BBVs (default opencl: PoCL where there is no GPU)\n"
    "  --bbv-device N    its device index (default 0)\n";

static void bbv_site_open(struct bbv_site *b, const char *backend, int device,
                          const struct dh_resultfile *f)
{
    memset(b, 0, sizeof *b);
    struct dh_err e = {0};
    if (dh_devices_gather(&b->devs, 1, &e)) {
        fprintf(stderr, "harness tune-study: no devices for the model's profiling runs (%s): "
                "the model ranks without BBVs\n", e.msg);
        return;
    }
    b->dev = dh_devlist_find(&b->devs, backend, device);
    if (!b->dev) {
        fprintf(stderr, "harness tune-study: %s has no device %d for the model's profiling "
                "runs (see harness devices; choose --bbv-backend and --bbv-device): the model "
                "ranks without BBVs\n", backend, device);
        return;
    }
    b->backend = backend;
    b->index = device;
    /* the BBVs are priced in the worker with the latency table of the
     * recorded device, not this machine's (docs/model.md) */
    for (int r = 0; r < f->n_runs && !getenv("DH_LATENCY_TABLE"); r++) {
        const struct dh_device_info *rd = dh_devlist_find(&f->devs, f->runs[r].c.backend,
                                                          f->runs[r].c.device);
        struct dh_latency_table t;
        if (rd && !strcmp(f->runs[r].tune.strategy, "exhaustive")
            && !dh_latency_table_for(rd, &t, &e))
            setenv("DH_LATENCY_TABLE", t.name, 1);
    }
    int rc = 0;
    b->wcache = dh_cli_wcache("tune-study", 0, NULL, NULL, &rc);
    struct dh_runner_opts ro = {.isolate = 1, .wcache = b->wcache};
    b->s = dh_session_open(&ro);
}

int dh_cmd_tunestudy(int argc, char **argv)
{
    int seeds = 101, use_model = 1, bbv_device = 0, show = 0;
    const char *file = NULL, *bbv_backend = "opencl";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
            if (!dh_cli_int("tune-study", "--seeds", argv[++i], 1, 100000, &seeds))
                return DH_EXIT_USAGE;
        }
        else if (!strcmp(argv[i], "--no-model"))
            use_model = 0;
        else if (!strcmp(argv[i], "--model-picks") && i + 1 < argc) {
            if (!dh_cli_int("tune-study", "--model-picks", argv[++i], 0, 64, &show))
                return DH_EXIT_USAGE;
        }
        else if (!strcmp(argv[i], "--bbv-backend") && i + 1 < argc)
            bbv_backend = argv[++i];
        else if (!strcmp(argv[i], "--bbv-device") && i + 1 < argc) {
            if (!dh_cli_int("tune-study", "--bbv-device", argv[++i], 0, 1024, &bbv_device))
                return DH_EXIT_USAGE;
        }
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else {
            fprintf(stderr, "%s", usage);
            return DH_EXIT_USAGE;
        }
    }
    if (!file || seeds < 1) {
        fprintf(stderr, "%s", usage);
        return DH_EXIT_USAGE;
    }
    struct dh_resultfile f;
    struct dh_err e = {0};
    if (dh_results_load(file, &f, &e)) {
        fprintf(stderr, "harness tune-study: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    struct bbv_site site = {0};
    if (use_model)
        bbv_site_open(&site, bbv_backend, bbv_device, &f);
    printf("%-44s %6s %7s %8s %14s %14s", "case", "space", "flat", "exh.best",
           "random@5% med", "anneal@5% med");
    printf(use_model ? " %14s\n" : "\n", "model@5%");
    int n_tot = 0, need_tot = 0;
    int any = 0;
    for (int r = 0; r < f.n_runs; r++) {
        const struct dh_tuning *t = &f.runs[r].tune;
        if (strcmp(t->strategy, "exhaustive") || t->n_eval < 2 || t->best < 0)
            continue;
        any = 1;
        static struct table tb;
        static struct dh_pset cfg[DH_TUNE_MAX_EVALS];
        tb.n = t->n_eval;
        tb.best = t->eval[t->best].ms;
        int flat = 0, ok = 0;
        for (int i = 0; i < tb.n; i++) {
            tb.ms[i] = t->eval[i].status == 0 ? t->eval[i].ms : -1;
            parse_tunables(t->eval[i].tunables, &cfg[i]);
            if (tb.ms[i] > 0) {
                ok++;
                flat += tb.ms[i] <= 1.05 * tb.best;
            }
        }
        int max_nb = 16, *nb = malloc((size_t)tb.n * (size_t)max_nb * sizeof *nb);
        int *order = malloc((size_t)tb.n * sizeof *order);
        int *need_r = malloc((size_t)seeds * sizeof *need_r);
        int *need_a = malloc((size_t)seeds * sizeof *need_a);
        if (!nb || !order || !need_r || !need_a) {
            free(nb); free(order); free(need_r); free(need_a);
            dh_resultfile_free(&f);
            return DH_EXIT_INFRA;
        }
        dh_space_neighbors(cfg, tb.n, nb, max_nb);
        for (int s = 0; s < seeds; s++) {
            for (int m = 0; m < 2; m++) {
                enum dh_tune_mode mode = m ? DH_TUNE_ANNEAL : DH_TUNE_RANDOM;
                unsigned seed = (unsigned)s + 1;
                int start = (int)(seed * 2654435761u % (unsigned)tb.n);
                int k = dh_strategy_run(mode, tb.n, nb, max_nb, start, 0, 0, seed, replay, &tb,
                                        order);
                int need = tb.n;
                for (int q = 0; q < k; q++)
                    if (tb.ms[order[q]] > 0 && tb.ms[order[q]] <= 1.05 * tb.best) {
                        need = q + 1;
                        break;
                    }
                (m ? need_a : need_r)[s] = need;
            }
        }
        int need_m = -1;
        static char picks[2048];
        picks[0] = 0;
        if (use_model && !model_need(&f, r, &site, cfg, &tb, show, picks, sizeof picks, &need_m)) {
            n_tot += tb.n;
            need_tot += need_m;
        } else if (use_model && dh_runner_interrupted()) {
            free(nb); free(order); free(need_r); free(need_a);
            break;
        }
        qsort(need_r, (size_t)seeds, sizeof *need_r, cmp_int);
        qsort(need_a, (size_t)seeds, sizeof *need_a, cmp_int);
        char label[300], name[400];
        dh_case_variant_label(&f.runs[r].c, label, sizeof label);
        char wl[200];
        dh_pset_format(&f.runs[r].c.params, DH_P_WORKLOAD, wl, sizeof wl);
        snprintf(name, sizeof name, "%s %s %.20s", f.runs[r].c.bench_name, label, wl);
        printf("%-44.44s %6d %6.0f%% %8.4f %6d (%3.0f%%) %7d (%3.0f%%)", name, tb.n,
               ok ? 100.0 * flat / ok : 0, tb.best, need_r[seeds / 2],
               100.0 * need_r[seeds / 2] / tb.n, need_a[seeds / 2], 100.0 * need_a[seeds / 2] / tb.n);
        if (use_model && need_m > 0)
            printf(" %7d (%3.0f%%)\n", need_m, 100.0 * need_m / tb.n);
        else
            printf(use_model ? " %14s\n" : "\n", "-");
        if (picks[0])
            printf("    model's first: %s\n", picks);
        free(nb); free(order); free(need_r); free(need_a);
    }
    if (!any)
        printf("(no run of %s was tuned exhaustively: run with --tune exhaustive)\n", file);
    else if (use_model && n_tot)
        printf("model: %d evaluations of %d in all (%.0f%%) to come within 5%% of the "
               "exhaustive best\n", need_tot, n_tot, 100.0 * need_tot / n_tot);
    if (site.s)
        dh_session_close(site.s);
    dh_resultfile_free(&f);
    return dh_runner_interrupted() ? DH_EXIT_INTERRUPTED : 0;
}
