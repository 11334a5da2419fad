/* cmd_tunestudy.c — `harness tune-study RESULTS.xml [--seeds N]`: how fast
 * would random search and annealing have found what exhaustive search
 * found? For every run tuned exhaustively, the measured table is replayed
 * (no new measurement): per strategy and seed, the evaluations until a
 * configuration within 5% of the exhaustive best; the median over seeds is
 * printed next to the space's flatness (share of configurations within 5%
 * of the best). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../results/xml.h"
#include "../../tuning/tuning.h"
#include "cli.h"
#include "../stats/load.h"

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

int dh_cmd_tunestudy(int argc, char **argv)
{
    int seeds = 101;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
            if (!dh_cli_int("tune-study", "--seeds", argv[++i], 1, 100000, &seeds))
                return DH_EXIT_USAGE;
        }
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else {
            fprintf(stderr, "usage: harness tune-study RESULTS.xml [--seeds N]\n");
            return DH_EXIT_USAGE;
        }
    }
    if (!file || seeds < 1) {
        fprintf(stderr, "usage: harness tune-study RESULTS.xml [--seeds N]\n");
        return DH_EXIT_USAGE;
    }
    struct dh_resultfile f;
    struct dh_err e = {0};
    if (dh_results_load(file, &f, &e)) {
        fprintf(stderr, "harness tune-study: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    printf("%-44s %6s %7s %8s %14s %14s\n", "case", "space", "flat", "exh.best",
           "random@5% med", "anneal@5% med");
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
        qsort(need_r, (size_t)seeds, sizeof *need_r, cmp_int);
        qsort(need_a, (size_t)seeds, sizeof *need_a, cmp_int);
        char label[300], name[400];
        dh_case_variant_label(&f.runs[r].c, label, sizeof label);
        char wl[200];
        dh_pset_format(&f.runs[r].c.params, DH_P_WORKLOAD, wl, sizeof wl);
        snprintf(name, sizeof name, "%s %s %.20s", f.runs[r].c.bench_name, label, wl);
        printf("%-44.44s %6d %6.0f%% %8.4f %6d (%3.0f%%) %7d (%3.0f%%)\n", name, tb.n,
               ok ? 100.0 * flat / ok : 0, tb.best, need_r[seeds / 2],
               100.0 * need_r[seeds / 2] / tb.n, need_a[seeds / 2], 100.0 * need_a[seeds / 2] / tb.n);
        free(nb); free(order); free(need_r); free(need_a);
    }
    if (!any)
        printf("(no run of %s was tuned exhaustively: run with --tune exhaustive)\n", file);
    dh_resultfile_free(&f);
    return 0;
}
