/* model.c — the model-guided strategy (`--tune model`): every
 * configuration's kernel time predicted from what is known before it
 * runs, the space ranked by it, evaluated from the top.
 *
 * What is known without running a configuration:
 *   - the workload's BBVs, priced by the BBV model (harness/model) with the
 *     target device's latency table: the baseline's mean cost of a warp in
 *     cycles (W0). One profiling run of the workload's baseline at its
 *     default tunables obtains them (docs/model.md); BBVs do not depend on
 *     the device, so tune-study obtains them on this machine's device.
 *   - the remap ceiling at each work-group size, computed on the host from
 *     the input's path keys (the benchmark's `ceiling`): a gpu_tdr form at
 *     wg leaves a warp W0 / ceiling(wg) of path work at best.
 *   - the remap's own work: the operations tdr.h's forms execute per warp
 *     (loops over neighbourhoods and warps, barriers, atomics), priced
 *     with the same latency table, times the remap rounds an item goes
 *     through (the kit's `remaps`: micro's layers, cvp's two layers,
 *     pol's rounds, gdt's three layers a day).
 *   - occupancy: work-groups a compute unit holds at once (the table's
 *     threads and groups per compute unit), and the last wave's idle
 *     slots over the device's compute units.
 * Predicted cycles per warp = (path + remap) x tail, where tail = the
 * waves' slots over the work-groups (>= 1). Ties (a baseline is flat in
 * wg for the model) go to the configuration closest to the declared
 * default, then to enumeration order: the ranking is deterministic.
 * The recorded timings are never read.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tuning.h"
#include "../suites/lib/kit.h"
#include "../suites/suite.h"

/* ---- ranking ---- */

struct rank_item {
    int i;
    double pred, tie;
};

static int rank_cmp(const void *pa, const void *pb)
{
    const struct rank_item *a = pa, *b = pb;
    int ua = !(a->pred >= 0), ub = !(b->pred >= 0);   /* NAN or negative: unknown, last */
    if (ua != ub)
        return ua - ub;
    if (!ua && a->pred != b->pred)
        return a->pred < b->pred ? -1 : 1;
    if (a->tie != b->tie)
        return a->tie < b->tie ? -1 : 1;
    return a->i - b->i;
}

int dh_tune_rank(int n, const double *pred, const double *tie, int *rank)
{
    if (n <= 0)
        return 0;
    struct rank_item *it = malloc((size_t)n * sizeof *it);
    if (!it)
        return -DH_E_RESOURCES;
    for (int i = 0; i < n; i++)
        it[i] = (struct rank_item){i, pred[i], tie ? tie[i] : 0};
    qsort(it, (size_t)n, sizeof *it, rank_cmp);
    for (int i = 0; i < n; i++)
        rank[i] = it[i].i;
    free(it);
    return 0;
}

/* Distance of cfg from the default configuration: per tunable that
 * differs, |log2(value / default)| (1 where either is not positive). */
static double default_distance(const struct dh_pset *cfg, const struct dh_pset *def)
{
    double d = 0;
    for (int i = 0; i < cfg->n; i++) {
        if (cfg->v[i].kind != DH_P_TUNABLE)
            continue;
        double a = cfg->v[i].num, b = dh_pset_num(def, cfg->v[i].name, a);
        if (a == b)
            continue;
        d += a > 0 && b > 0 ? fabs(log2(a / b)) : 1;
    }
    return d;
}

/* ---- the remap's own work, per warp (suites/lib/tdr.h) ---- */

enum { OP_FP, OP_ALU, OP_MUL, OP_DIV, OP_LDG, OP_STG, OP_LDS, OP_ATOM, OP_BAR, OP_BR };

double dh_tune_remap_cycles(const struct dh_latency_table *t, const char *alg, int npaths,
                            int wg, int nf, int warp)
{
    const double *c = t->cycles;
    double lds = c[OP_LDS], alu = c[OP_ALU], br = c[OP_BR], bar = c[OP_BAR], atom = c[OP_ATOM];
    double it = lds + alu + br;                 /* one iteration of a loop over local memory */
    int P = npaths > 0 ? npaths : 2, W = warp > 0 ? warp : 32;
    double nw = wg >= W ? (double)wg / W : 1;   /* warps a group */
    /* the combined forms: HoT where a layer has two paths, else DGI (kit.h) */
    if (!strcmp(alg, "hot_dgi"))
        alg = P == 2 ? "hot" : "dgi";
    else if (!strcmp(alg, "hot_warp_scan"))
        alg = P == 2 ? "hot_warp" : "dgi_scan";
    if (!strcmp(alg, "hot"))
        /* 3 barriers; a local atomic and the pool's store and load a lane */
        return 3 * bar + atom + 3 * lds + 4 * alu + 2 * br;
    if (!strcmp(alg, "hot_warp"))
        /* 3 barriers; two ballots, one atomic pair a warp, the pool */
        return 3 * bar + 2 * atom + 3 * lds + 8 * alu + 2 * br;
    if (!strcmp(alg, "dgi")) {
        if (nf < 1 || nf > wg)
            return NAN;
        double nb = (double)wg / nf;            /* neighbourhoods */
        return 4 * bar
               + ceil(P * nb / wg) * lds        /* clearing the counters */
               + atom + 2 * lds                 /* its count; its path */
               + P * (lds + alu)                /* the totals, the uniform test */
               + nb * it / nw                   /* a lane < P sums nb counters: the group
                                                   waits for it at a barrier */
               + nb / 2 * it                    /* the neighbourhood holding its rank */
               + nf * it;                       /* the search inside it */
    }
    if (!strcmp(alg, "dgi_scan"))
        return 4 * bar
               + P * (3 * alu + lds)            /* a ballot and a count per path */
               + it                             /* a lane < P sums the warps' counts */
               + P * (lds + alu)                /* the totals */
               + (nw - 1) / 2 * it              /* the counts of the warps before its own */
               + 2 * lds;                       /* the pool */
    return NAN;                                 /* a form this model does not price */
}

/* ---- what is known before a configuration runs ---- */

/* The workload's baseline at its declared defaults, run once with the
 * model on prof_backend's device prof_device: its BBVs priced give W0. */
static int profile_baseline(struct dh_session *s, const struct dh_case *c,
                            const char *prof_backend, int prof_device,
                            const char *prof_device_name, struct dh_tune_model *m)
{
    static struct dh_case twin;
    twin = *c;
    snprintf(twin.variant, sizeof twin.variant, "baseline");
    snprintf(twin.backend, sizeof twin.backend, "%s", prof_backend);
    twin.device = prof_device;
    snprintf(twin.device_name, sizeof twin.device_name, "%s", prof_device_name);
    /* the baseline's own parameters: workloads kept, choices and tunables
     * its declaration's defaults where it uses them */
    struct dh_pset p = {0};
    for (int i = 0; i < c->params.n; i++)
        if (c->params.v[i].kind == DH_P_WORKLOAD)
            dh_pset_put(&p, c->params.v[i].name, c->params.v[i].text, c->params.v[i].num,
                        DH_P_WORKLOAD);
    for (const struct dh_param_def *d = c->bench->params; d && d->name; d++)
        if ((d->kind == DH_P_TUNABLE || d->kind == DH_P_CHOICE) && !dh_pset_find(&p, d->name)
            && dh_param_used_by(d, "baseline"))
            dh_pset_put(&p, d->name, d->def, atof(d->def), d->kind);
    dh_pset_sort(&p);
    twin.params = p;
    twin.reps = 1;
    twin.warmup = 0;
    twin.model = 1;
    twin.profile = 0;
    twin.remap_overhead = 0;
    twin.instrumented = 0;
    if (twin.timeout_s <= 0)
        twin.timeout_s = 600;
    dh_case_identity(&twin);
    static struct dh_result r;
    if (dh_session_run(s, &twin, &r))
        return -DH_E_INTERRUPTED;
    const struct dh_model_result *mr = &r.model;
    if (r.status || !mr->valid || mr->n_items <= 0 || mr->base.t_weighted <= 0) {
        snprintf(m->note, sizeof m->note, "no BBVs for the model (the baseline's profiling run: "
                 "%s%s%s): ranked by the ceiling and occupancy alone", dh_err_name(r.status),
                 r.message[0] ? ", " : "", r.message[0] ? r.message : "its model was not priced");
        return 0;
    }
    if (strcmp(mr->table, m->table.name)) {
        snprintf(m->note, sizeof m->note, "the profiling run priced the BBVs with the %s table, "
                 "the target device's is %s (set DH_LATENCY_TABLE=%s): ranked by the ceiling "
                 "and occupancy alone", mr->table, m->table.name, m->table.name);
        return 0;
    }
    int W = mr->warp_width > 0 ? mr->warp_width : 32;
    if (W != m->warp) {
        snprintf(m->note, sizeof m->note, "the profiling run's device has warps of %d, the "
                 "target's %d: its warp costs do not apply; ranked by the ceiling and "
                 "occupancy alone", W, m->warp);
        return 0;
    }
    double warps = ceil((double)mr->n_items / W);
    /* BBV-weighted: the warps' costs summed over the compute units */
    m->warp_cycles = mr->base.t_weighted * mr->cus / warps;
    if (!m->items)
        m->items = mr->n_items;
    m->profile_ms = mr->acquire_ms;
    snprintf(m->table_used, sizeof m->table_used, "%s", mr->table);
    return 0;
}

/* The input made on the host, its items and the ceilings, here. */
static int host_compute(const struct dh_case *c, const struct dh_pset *cfg, int n, int warp,
                        long *items, double *ceiling, struct dh_err *e2)
{
    const struct dh_bench *b = c->bench;
    void *state = NULL;
    int st = b->setup(c, &state, e2);
    if (st)
        return st;
    *items = b->items ? b->items(state) : 0;
    for (int i = 0; i < n; i++) {
        struct dh_case cc = *c;
        cc.params = cfg[i];
        ceiling[i] = b->ceiling(state, &cc, warp);
    }
    if (b->release)
        b->release(state);
    return 0;
}

/* The same in a child process when `fork_it`: making an input and its
 * reference starts OpenMP threads, and a process that has started them
 * must not fork the session's workers afterwards (libgomp's threads do
 * not survive fork(); the worker would wait on them for ever). A session
 * that runs its cases in this process (--isolate no) has those threads
 * here already: then it is done here too. */
static void host_figures(const struct dh_case *c, const struct dh_pset *cfg, int n,
                         int fork_it, struct dh_tune_model *m, double *ceiling)
{
    if (!fork_it) {
        static struct dh_err e1;
        long items = 0;
        memset(&e1, 0, sizeof e1);
        if (host_compute(c, cfg, n, m->warp, &items, ceiling, &e1)) {
            for (int i = 0; i < n; i++)
                ceiling[i] = 0;
            snprintf(m->note, sizeof m->note, "the input could not be made on the host (%s): "
                     "no ceiling", e1.msg);
        } else {
            m->items = items;
        }
        return;
    }
    int fd[2];
    if (pipe(fd)) {
        snprintf(m->note, sizeof m->note, "no pipe for the host's input (%s): no ceiling",
                 strerror(errno));
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        snprintf(m->note, sizeof m->note, "cannot fork for the host's input (%s): no ceiling",
                 strerror(errno));
        return;
    }
    if (pid == 0) {
        close(fd[0]);
        /* message: status, items, n ceilings, then the error text */
        struct dh_err e2 = {0};
        long items = 0;
        double *v = calloc((size_t)(n > 0 ? n : 1), sizeof *v);
        int st = v ? host_compute(c, cfg, n, m->warp, &items, v, &e2) : -DH_E_RESOURCES;
        FILE *out = fdopen(fd[1], "w");
        if (out) {
            fwrite(&st, sizeof st, 1, out);
            fwrite(&items, sizeof items, 1, out);
            if (v)
                fwrite(v, sizeof *v, (size_t)n, out);
            fwrite(e2.msg, 1, sizeof e2.msg, out);
            fclose(out);
        }
        _exit(0);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    int st = -1;
    long items = 0;
    static struct dh_err e2;
    int ok = in && fread(&st, sizeof st, 1, in) == 1 && fread(&items, sizeof items, 1, in) == 1;
    if (ok && !st)
        ok = fread(ceiling, sizeof *ceiling, (size_t)n, in) == (size_t)n;
    if (ok && st)
        ok = fread(e2.msg, 1, sizeof e2.msg, in) == sizeof e2.msg;
    e2.msg[sizeof e2.msg - 1] = 0;
    if (in)
        fclose(in);
    else
        close(fd[0]);
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (!ok) {
        for (int i = 0; i < n; i++)
            ceiling[i] = 0;
        snprintf(m->note, sizeof m->note, "the host's input could not be made (its process "
                 "ended early): no ceiling");
    } else if (st) {
        snprintf(m->note, sizeof m->note, "the input could not be made on the host (%s): no "
                 "ceiling", e2.msg);
    } else {
        m->items = items;
    }
}

int dh_tune_model_prepare(struct dh_session *s, const struct dh_case *c,
                          const struct dh_device_info *dev, const char *prof_backend,
                          int prof_device, const char *prof_device_name,
                          const struct dh_pset *cfg, int n, struct dh_tune_model *m,
                          double *ceiling, struct dh_err *err)
{
    memset(m, 0, sizeof *m);
    const struct dh_bench *b = c->bench;
    if (!b)
        return dh_err_set(err, DH_E_DATA, "%s: this build has no benchmark %s/%s to model",
                          c->id, c->suite, c->bench_name);
    int rc = dh_latency_table_for(dev, &m->table, err);
    if (rc)
        return rc;
    m->warp = dev && dev->warp_width > 0 ? dev->warp_width : 32;
    m->cus = dev && dev->compute_units > 0 ? dev->compute_units : 1;
    m->npaths = 2;
    if (b->kit && b->kit->sort_keys) {          /* the branch's paths, as the kit derives them */
        struct dh_pset vars;
        char why[256];
        if (!dh_kit_vars(c, &vars, why, sizeof why))
            m->npaths = (int)dh_pset_num(&vars, b->kit->sort_keys, 2);
    }
    for (int i = 0; i < n; i++)
        ceiling[i] = 0;
    /* the input on the host: its items, and the ceiling at each wg (only
     * gpu_tdr has one; the others take the items from the profiling run) */
    if (b->setup && b->ceiling && !strcmp(c->variant, "gpu_tdr"))
        host_figures(c, cfg, n, !s || dh_session_isolated(s), m, ceiling);
    if (s && c->model && b->blocks && b->items) {
        if ((rc = profile_baseline(s, c, prof_backend, prof_device, prof_device_name, m)))
            return dh_err_set(err, -rc, "interrupted");
    } else if (!m->note[0]) {
        snprintf(m->note, sizeof m->note, "%s: ranked by the ceiling and occupancy alone",
                 !s ? "no session for the baseline's profiling run"
                 : !b->blocks || !b->items ? "the benchmark marks no basic blocks: no BBVs"
                 : "the case runs without the BBV model (run --no-model): no BBVs");
    }
    return 0;
}

double dh_tune_predict(const struct dh_tune_model *m, const struct dh_case *c,
                       const struct dh_pset *cfg, double ceiling)
{
    int wg = (int)dh_pset_num(cfg, "wg", 256);
    if (wg < 1)
        return NAN;
    int gpu_tdr = !strcmp(c->variant, "gpu_tdr");
    double w0 = m->warp_cycles > 0 ? m->warp_cycles : 1;
    double path = gpu_tdr && ceiling > 0 ? w0 / ceiling : w0;
    double remap = 0;
    if (gpu_tdr && m->warp_cycles > 0) {
        const char *alg = dh_pset_text(cfg, "alg", dh_pset_text(&c->params, "alg", ""));
        int nf = (int)dh_pset_num(cfg, "nf", dh_pset_num(&c->params, "nf", 0));
        struct dh_kremap_use u[16];
        int n = dh_kit_remap_plan(c, cfg, u, 16, NULL, 0);
        if (n < -1)                             /* a plan that does not evaluate for this
                                                   configuration: its remap not priced */
            n = 0;
        if (n >= 0) {                           /* the kit says which remaps, how often */
            for (int k = 0; k < n && k < 16; k++) {
                double r = dh_tune_remap_cycles(&m->table, u[k].form, (int)u[k].keys, wg, nf,
                                                m->warp);
                if (!isnan(r))
                    remap += r * (double)u[k].times;
            }
        } else {
            remap = dh_tune_remap_cycles(&m->table, alg, m->npaths, wg, nf, m->warp);
            if (isnan(remap))
                remap = 0;                      /* not priced: the path term alone */
            else                                /* once per round */
                remap *= (double)dh_kit_remaps(c, cfg, NULL, 0);
        }
    }
    double tail = 1;
    if (m->items > 0) {
        double groups = ceil((double)m->items / wg);
        double slots = (double)m->cus * dh_bbv_slots(&m->table, wg);
        tail = ceil(groups / slots) * slots / groups;
    }
    return (path + remap) * tail;
}

int dh_tune_model_order(const struct dh_tune_model *m, const struct dh_case *c,
                        const struct dh_pset *cfg, const double *ceiling, int n, int def,
                        int *rank, double *pred)
{
    double *tie = malloc((size_t)(n > 0 ? n : 1) * sizeof *tie);
    if (!tie)
        return -DH_E_RESOURCES;
    for (int i = 0; i < n; i++) {
        pred[i] = dh_tune_predict(m, c, &cfg[i], ceiling[i]);
        tie[i] = def >= 0 ? default_distance(&cfg[i], &cfg[def]) : 0;
    }
    int rc = dh_tune_rank(n, pred, tie, rank);
    free(tie);
    return rc;
}
