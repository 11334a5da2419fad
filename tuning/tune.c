/* tune.c — choosing a run's tunables: the journal's best, or a search. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuning.h"
#include "../harness/stats/stats.h"
#include "../harness/support/clock.h"

#include <time.h>


const char *dh_tune_mode_name(enum dh_tune_mode m)
{
    switch (m) {
    case DH_TUNE_NONE: return "none";
    case DH_TUNE_JOURNAL: return "journal";
    case DH_TUNE_EXHAUSTIVE: return "exhaustive";
    case DH_TUNE_RANDOM: return "random";
    case DH_TUNE_ANNEAL: return "anneal";
    case DH_TUNE_MODEL: return "model";
    }
    return "?";
}

int dh_tune_mode_parse(const char *s, enum dh_tune_mode *m)
{
    for (int i = DH_TUNE_NONE; i <= DH_TUNE_MODEL; i++)
        if (!strcmp(s, dh_tune_mode_name((enum dh_tune_mode)i))) {
            *m = (enum dh_tune_mode)i;
            return 0;
        }
    return -1;
}

/* The figure a configuration is judged by: kernel time, or end-to-end for
 * cpu_tdr (its host work is part of its cost). */
static double metric(const struct dh_result *r, const char *variant)
{
    if (r->status || r->n < 1)
        return -1;
    double v[DH_MAX_SAMPLES];
    int e2e = !strcmp(variant, "cpu_tdr");
    for (int i = 0; i < r->n; i++)
        v[i] = e2e ? dh_e2e_sample(r, i) : r->kernel_ms[i];
    return dh_median(v, r->n);
}

struct ectx {
    struct dh_session *s;
    struct dh_run *u;
    const struct dh_pset *cfg;
    const struct dh_tune_opts *o;
    const struct dh_device_info *dev;
    double *ms;
    int failed_io;
    struct dh_err *err;
    /* progress: evaluations planned (0: until the time budget), done, the
     * best so far, when the search began, whether stderr is a terminal */
    int planned, done, tty;
    double best_ms, t0;
    char best_cfg[96];
};

/* one evaluation's progress: on a terminal one line rewritten in place
 * (evaluation i of N, the best so far, the time left at this pace); in a
 * log one line per evaluation */
static void progress(struct ectx *x, const char *cfg, int status, double ms, int journal)
{
    x->done++;
    if (ms > 0 && (x->best_ms <= 0 || ms < x->best_ms)) {
        x->best_ms = ms;
        snprintf(x->best_cfg, sizeof x->best_cfg, "%s", cfg);
    }
    char of[32] = "", eta[48] = "", best[160] = "no configuration ok yet";
    if (x->planned > 0) {
        snprintf(of, sizeof of, " of %d", x->planned);
        double per = (dh_now_ms() - x->t0) / x->done;
        int left = x->planned - x->done;
        if (left > 0)
            snprintf(eta, sizeof eta, ", about %.0f s left", per * left / 1000);
    }
    if (x->best_ms > 0)
        snprintf(best, sizeof best, "best %.4f ms (%s)", x->best_ms, x->best_cfg);
    if (x->tty) {
        fprintf(stderr, "\r\033[K  tuning %s: evaluation %d%s, %s%s", x->u->c.variant, x->done,
                of, best, eta);
    } else {
        char this[48];
        if (status)
            snprintf(this, sizeof this, "%s", dh_err_name(status));
        else
            snprintf(this, sizeof this, "%.4f ms", ms);
        fprintf(stderr, "harness: tune %s: evaluation %d%s: %s %s%s; %s%s\n", x->u->c.id,
                x->done, of, cfg, this, journal ? " (from the journal)" : "", best, eta);
    }
}

static double eval(void *vctx, int i)
{
    struct ectx *x = vctx;
    struct dh_tuning *t = &x->u->tune;
    if (dh_runner_interrupted())
        return -1;
    struct dh_case c = x->u->c;
    c.params = x->cfg[i];
    c.reps = x->o->reps > 0 ? x->o->reps : 3;
    c.warmup = 1;
    c.profile = 0;
    c.remap_overhead = 0;           /* an evaluation times the case alone */
    char key[17];
    dh_tune_eval_key(&c, x->dev, key);
    const struct dh_journal_entry *je = x->o->journal ? dh_journal_find(x->o->journal, key) : NULL;
    int status;
    double ms, wall = 0, overhead = 0, rt[DH_TUNE_EVAL_RUNTIMES];
    int n_rt = 0;
    if (je) {
        status = je->status;
        ms = status ? -1 : je->ms;
        if (status && !t->failure[0])
            snprintf(t->failure, sizeof t->failure, "%s, as the tuning journal recorded it "
                     "(%s; remove the file to run the configurations again and see why)",
                     dh_err_name(status), dh_journal_default_path());
    } else {
        static struct dh_result r;
        double t0 = dh_now_ms();
        if (dh_session_run(x->s, &c, &r))
            return -1;                          /* interrupted */
        wall = dh_now_ms() - t0;
        status = r.status;
        if (status && !t->failure[0])
            snprintf(t->failure, sizeof t->failure, "%s: %s", dh_err_name(status), r.message);
        ms = metric(&r, c.variant);
        n_rt = 0;
        for (int q = 0; !r.status && q < r.n && n_rt < DH_TUNE_EVAL_RUNTIMES; q++)
            rt[n_rt++] = !strcmp(c.variant, "cpu_tdr") ? dh_e2e_sample(&r, q) : r.kernel_ms[q];
        /* the kernel's own time: the timed runs, plus the verified first
         * run and the warm-ups at the median */
        double kt = 0;
        for (int q = 0; q < r.n; q++)
            kt += r.kernel_ms[q];
        if (r.n)
            kt += (double)c.warmup * dh_median(r.kernel_ms, r.n);
        overhead = wall - kt;
        if (x->o->journal) {
            struct dh_journal_entry e = {0};
            memcpy(e.eval_key, key, sizeof e.eval_key);
            memcpy(e.case_key, c.key, sizeof e.case_key);
            dh_pset_format(&c.params, DH_P_TUNABLE, e.tunables, sizeof e.tunables);
            e.status = status;
            e.ms = ms < 0 ? 0 : ms;
            if (dh_journal_append(x->o->journal, &e, x->err))
                x->failed_io = 1;
        }
    }
    x->ms[i] = ms;
    struct dh_tune_eval *ev = dh_tuning_add(t);      /* NULL: at the maximum, or no memory */
    if (ev) {
        dh_pset_format(&c.params, DH_P_TUNABLE, ev->tunables, sizeof ev->tunables);
        ev->status = status;
        ev->ms = ms;
        ev->from_journal = je != NULL;
        ev->wall_ms = wall;
        ev->overhead_ms = overhead;
        ev->n_runtimes = n_rt;
        memcpy(ev->runtimes, rt, (size_t)n_rt * sizeof *rt);
    }
    char cfg[96];
    dh_pset_format(&c.params, DH_P_TUNABLE, cfg, sizeof cfg);
    progress(x, cfg, status, ms, je != NULL);
    return ms;
}

static int same_tunables(const struct dh_pset *a, const struct dh_pset *b)
{
    char x[200], y[200];
    dh_pset_format(a, DH_P_TUNABLE, x, sizeof x);
    dh_pset_format(b, DH_P_TUNABLE, y, sizeof y);
    return !strcmp(x, y);
}

/* dh_tune_case over the n configurations cfg of u's space on dev */
static int tune_space(struct dh_session *s, struct dh_run *u, const struct dh_tune_opts *o,
                      const struct dh_device_info *dev, struct dh_pset *cfg, int n,
                      struct dh_err *err)
{
    struct dh_tuning *t = &u->tune;
    int def = -1;
    for (int i = 0; i < n; i++)
        if (same_tunables(&cfg[i], &u->c.params))
            def = i;

    if (o->mode == DH_TUNE_JOURNAL) {
        /* the best finished evaluation still valid for this source, device
         * and driver; defaults when there is none */
        int best = -1;
        double best_ms = 0;
        /* the journal's lines of this case: only a configuration one of
         * them names is worth its evaluation key (the kernel source
         * assembled and hashed), so a case the journal never saw costs
         * no hashing at all */
        const struct dh_journal *j = o->journal;
        int *mine = j ? malloc((size_t)(j->n > 0 ? j->n : 1) * sizeof *mine) : NULL;
        int nmine = 0;
        for (int q = 0; mine && q < j->n; q++)
            if (!strcmp(j->e[q].case_key, u->c.key))
                mine[nmine++] = q;
        for (int i = 0; i < n && nmine; i++) {
            char tb[sizeof j->e->tunables];
            dh_pset_format(&cfg[i], DH_P_TUNABLE, tb, sizeof tb);
            int named = 0;
            for (int q = 0; q < nmine && !named; q++)
                named = !strcmp(j->e[mine[q]].tunables, tb);
            if (!named)
                continue;
            struct dh_case c = u->c;
            c.params = cfg[i];
            char key[17];
            dh_tune_eval_key(&c, dev, key);
            const struct dh_journal_entry *je = dh_journal_find(o->journal, key);
            if (je && je->status == 0 && (best < 0 || je->ms < best_ms)) {
                best = i;
                best_ms = je->ms;
            }
        }
        free(mine);
        if (best >= 0) {
            u->c.params = cfg[best];
            snprintf(t->strategy, sizeof t->strategy, o->tuned ? "tuned" : "journal");
        } else if (o->tuned) {
            /* not in the file, or tuned for another build, device, driver
             * or compiler (the key says which): defaults, said */
            snprintf(t->strategy, sizeof t->strategy, "untuned");
        }
        return 0;
    }

    double *ms = malloc((size_t)n * sizeof *ms);
    int *order = malloc((size_t)n * sizeof *order);
    int max_nb = 16;
    int *nb = o->mode == DH_TUNE_ANNEAL ? malloc((size_t)n * (size_t)max_nb * sizeof *nb) : NULL;
    if (!ms || !order || (o->mode == DH_TUNE_ANNEAL && !nb)) {
        free(ms);
        free(order);
        free(nb);
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    }
    for (int i = 0; i < n; i++)
        ms[i] = -2;                             /* not evaluated */
    if (nb)
        dh_space_neighbors(cfg, n, nb, max_nb);
    snprintf(t->strategy, sizeof t->strategy, "%s", dh_tune_mode_name(o->mode));
    /* best against best: every technique's speedup is against the
     * baseline, so the baseline is searched over its whole space (a small
     * one: the work-group size and the code-generation knobs), whatever
     * the budget of the techniques */
    int budget = o->budget;
    double seconds = o->seconds;
    if (o->baseline_whole && !strcmp(u->c.variant, "baseline"))
        budget = 0, seconds = 0;
    struct ectx x = {.s = s, .u = u, .cfg = cfg, .o = o, .dev = dev, .ms = ms, .err = err,
                     .planned = budget > 0 && budget < n ? budget : seconds > 0 ? 0 : n,
                     .tty = isatty(2), .t0 = dh_now_ms()};
    int k;
    if (o->mode == DH_TUNE_MODEL) {
        /* the ranking: the model's prediction of every configuration from
         * the ceilings, the baseline's BBVs and the device's limits */
        static struct dh_tune_model m;
        double *ceil_ = malloc((size_t)n * sizeof *ceil_), *pred = malloc((size_t)n * sizeof *pred);
        int *rank = malloc((size_t)n * sizeof *rank);
        int rc = !ceil_ || !pred || !rank ? -DH_E_RESOURCES : 0;
        if (!rc)
            rc = dh_tune_model_prepare(s, &u->c, dev, u->c.backend, u->c.device,
                                       u->c.device_name, cfg, n, &m, ceil_, err);
        if (!rc)
            rc = dh_tune_model_order(&m, &u->c, cfg, ceil_, n, def, rank, pred);
        if (!rc && m.note[0])
            fprintf(stderr, "harness: %s: tune model: %s\n", u->c.id, m.note);
        k = rc ? 0 : dh_strategy_ranked(n, rank, budget, seconds, eval, &x, order);
        free(ceil_);
        free(pred);
        free(rank);
        if (rc) {
            free(ms);
            free(order);
            free(nb);
            return rc == -DH_E_RESOURCES ? dh_err_set(err, DH_E_RESOURCES, "out of memory") : rc;
        }
    } else {
        k = dh_strategy_run(o->mode, n, nb, max_nb, def, budget, seconds, o->seed, eval,
                            &x, order);
    }
    if (x.tty && x.done)
        fprintf(stderr, "\r\033[K");         /* the progress line goes */
    if (t->n_eval < k)          /* a record has room for DH_TUNE_MAX_EVALS: said */
        fprintf(stderr, "harness: %s: %d evaluations, the results record %d of them (the "
                "tuning journal has every one)\n", u->c.id, k, t->n_eval);
    /* the default configuration is the reference for "speedup over default" */
    if (def >= 0 && ms[def] == -2 && !dh_runner_interrupted() && (budget <= 0 || k < budget))
        eval(&x, def);
    int best = -1;
    for (int q = 0; q < k; q++)
        if (ms[order[q]] > 0 && (best < 0 || ms[order[q]] < ms[best]))
            best = order[q];
    if (best >= 0) {
        u->c.params = cfg[best];
        for (int e = 0; e < t->n_eval; e++) {
            char tb[96];
            dh_pset_format(&cfg[best], DH_P_TUNABLE, tb, sizeof tb);
            if (!strcmp(t->eval[e].tunables, tb))
                t->best = e;
        }
        int ok = 0, flat = 0;
        t->evals_to_95 = 0;
        for (int q = 0; q < k; q++) {
            double m = ms[order[q]];
            if (m <= 0)
                continue;
            ok++;
            flat += m <= 1.05 * ms[best];
            if (!t->evals_to_95 && m <= ms[best] / 0.95)
                t->evals_to_95 = q + 1;
        }
        t->flat_share = ok ? (double)flat / ok : 0;
        t->default_ms = def >= 0 && ms[def] > 0 ? ms[def] : 0;
    }
    free(ms);
    free(order);
    free(nb);
    return x.failed_io ? -DH_E_IO : 0;
}

int dh_tune_case(struct dh_session *s, struct dh_run *u, const struct dh_tune_opts *o,
                 struct dh_err *err)
{
    struct dh_tuning *t = &u->tune;
    dh_tuning_release(t);
    memset(t, 0, sizeof *t);
    t->best = -1;
    if (o->mode == DH_TUNE_NONE || !u->c.bench)
        return 0;
    const struct dh_device_info *dev = dh_devlist_find(o->devs, u->c.backend, u->c.device);
    struct dh_pset *cfg;
    int n = 0, total = 0;
    int src = dh_space_alloc(&u->c, dev, &cfg, &n, &total, err);
    if (src)
        return src;
    t->space = n;
    t->space_total = total;
    if (n == 0) {
        free(cfg);
        return dh_err_set(err, DH_E_CONSTRAINT, "%s: no configuration of its tunables meets "
                          "the constraints on %s", u->c.id, dev ? dev->name : "this device");
    }
    int rc = tune_space(s, u, o, dev, cfg, n, err);
    free(cfg);
    return rc;
}
