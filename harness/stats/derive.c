/* derive.c — statistics, speedups and shares of a set of runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"

#include "../../backends/cache.h"

#include "stats.h"

static void e2e_of(const struct dh_result *r, double *out)
{
    for (int i = 0; i < r->n; i++)
        out[i] = dh_e2e_sample(r, i);
}

/* 1 when end-to-end time is the kernel time sample by sample (no host or
 * transfer time): its statistics are the kernel's, not computed twice */
static int same_as_kernel(const struct dh_result *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->xfer_ms[i] != 0)
            return 0;
    for (int i = 0; i < dh_host_count(r); i++)
        if (r->host_ms[i] != 0)
            return 0;
    return 1;
}

/* A baseline's place in the index: the hash of its workload identity
 * (what dh_same_workload compares) and its index among the runs. */
struct wl_ref {
    uint64_t hash;
    int run;
};

static uint64_t mix(uint64_t h, const char *s)
{
    return dh_fnv1a64(s, strlen(s) + 1, h);     /* with the NUL: "ab","c" != "a","bc" */
}

static uint64_t workload_hash(const struct dh_case *c)
{
    char wl[400];
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    uint64_t h = DH_FNV_OFFSET;
    h = mix(h, c->suite);
    h = mix(h, c->bench_name);
    h = mix(h, c->backend);
    h = mix(h, c->device_name);
    h = mix(h, c->size);
    return mix(h, wl);
}

/* by hash, then by file order (the first match is the lowest index) */
static int by_hash(const void *a, const void *b)
{
    const struct wl_ref *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->run > y->run) - (x->run < y->run);
}

void dh_run_derive(struct dh_run *runs, int n)
{
    dh_run_derive_ex(runs, n, 1);
}

/* median ratio a/b without its interval */
static double ratio_point(const double *a, int na, const double *b, int nb, double *lo,
                          double *hi)
{
    *lo = *hi = NAN;
    return dh_median(a, na) / dh_median(b, nb);
}

void dh_run_derive_ex(struct dh_run *runs, int n, int intervals)
{
    void (*stats)(const double *, int, struct dh_stats *) = intervals ? dh_stats_of
                                                                      : dh_stats_center;
    double (*ratio)(const double *, int, const double *, int, double *, double *) =
        intervals ? dh_ratio_ci : ratio_point;
    for (int i = 0; i < n; i++) {
        double e[DH_MAX_SAMPLES];
        struct dh_run *u = &runs[i];
        int k = u->r.status == 0 ? u->r.n : 0;
        stats(u->r.kernel_ms, k, &u->kernel);
        stats(u->r.host_ms, k ? dh_host_count(&u->r) : 0, &u->host);
        stats(u->r.xfer_ms, k, &u->xfer);
        if (same_as_kernel(&u->r))
            u->e2e = u->kernel;                 /* the same samples, the same figures */
        else {
            e2e_of(&u->r, e);
            stats(e, k, &u->e2e);
        }
        u->cfe = NAN;
        u->cfe_source[0] = 0;
        if (u->r.has_counters && u->r.ctr.warp_inst_executed > 0) {
            u->cfe = u->r.ctr.cfe;
            strcpy(u->cfe_source, "counters");
        }
        const struct dh_model_result *m = &u->r.model;
        u->model_sp_weighted = u->model_sp_sched = u->model_dwr_improvement = NAN;
        u->model_cfe_error = u->model_err_weighted = u->model_err_sched = NAN;
        u->model_err_dwr = NAN;
        u->model_sp_floor = u->model_err_floor = NAN;
        if (u->r.status != 0 || !m->valid)
            continue;
        if (m->own.t_weighted > 0)
            u->model_sp_weighted = m->base.t_weighted / m->own.t_weighted;
        if (m->own.t_sched > 0)
            u->model_sp_sched = m->base.t_sched / m->own.t_sched;
        if (m->own.t_floor > 0 && m->base.t_floor > 0)
            u->model_sp_floor = m->base.t_floor / m->own.t_floor;
        if (m->base.dwr > 0)
            u->model_dwr_improvement = 1.0 - m->own.dwr / m->base.dwr;
        if (isnan(u->cfe)) {
            u->cfe = m->own.cfe;
            strcpy(u->cfe_source, "model");
        } else if (u->r.ctr.warp_width == m->warp_width) {
            u->model_cfe_error = m->own.cfe - u->cfe;
        }
    }
    /* the usable baselines by workload hash: each run finds its first
     * matching baseline (in file order) among a few, not among all runs */
    struct wl_ref *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    uint64_t *hash = malloc((size_t)(n ? n : 1) * sizeof *hash);
    int ni = 0;
    for (int i = 0; idx && hash && i < n; i++) {
        hash[i] = workload_hash(&runs[i].c);
        if (!strcmp(runs[i].c.variant, "baseline") && runs[i].r.status == 0 && runs[i].r.n >= 1)
            idx[ni++] = (struct wl_ref){hash[i], i};
    }
    qsort(idx, (size_t)ni, sizeof *idx, by_hash);
    for (int i = 0; i < n; i++) {
        double e[DH_MAX_SAMPLES], eb[DH_MAX_SAMPLES];
        struct dh_run *u = &runs[i];
        u->has_speedup = 0;
        u->inv_cfe_baseline = NAN;
        u->potential_share = NAN;
        u->ceiling_share = NAN;
        u->baseline_key[0] = 0;
        if (u->r.status != 0 || u->r.n < 1)
            continue;
        if (!strcmp(u->c.variant, "baseline"))
            continue;
        int lo = 0, hi = ni;
        if (!idx || !hash)
            hi = 0;             /* no memory for the index: no speedups */
        else
            while (lo < hi) {
                int mid = lo + (hi - lo) / 2;
                if (idx[mid].hash < hash[i])
                    lo = mid + 1;
                else
                    hi = mid;
            }
        for (int k = lo; idx && hash && k < ni && idx[k].hash == hash[i]; k++) {
            struct dh_run *b = &runs[idx[k].run];
            if (!dh_same_workload(&u->c, &b->c))
                continue;
            u->has_speedup = 1;
            memcpy(u->baseline_key, b->c.key, sizeof u->baseline_key);
            dh_pset_format(&b->c.params, DH_P_TUNABLE, u->baseline_tunables,
                           sizeof u->baseline_tunables);
            u->baseline_tuned = b->tune.strategy[0] && strcmp(b->tune.strategy, "untuned");
            u->sp_kernel = ratio(b->r.kernel_ms, b->r.n, u->r.kernel_ms, u->r.n,
                                       &u->sp_kernel_lo, &u->sp_kernel_hi);
            if (same_as_kernel(&b->r) && same_as_kernel(&u->r)) {
                u->sp_e2e = u->sp_kernel;
                u->sp_e2e_lo = u->sp_kernel_lo;
                u->sp_e2e_hi = u->sp_kernel_hi;
            } else {
                e2e_of(&b->r, eb);
                e2e_of(&u->r, e);
                u->sp_e2e = ratio(eb, b->r.n, e, u->r.n, &u->sp_e2e_lo, &u->sp_e2e_hi);
            }
            if (!isnan(b->cfe) && b->cfe > 0) {
                u->inv_cfe_baseline = 1.0 / b->cfe;
                if (u->inv_cfe_baseline > 1.0 + 1e-9)
                    u->potential_share = (u->sp_kernel - 1.0) / (u->inv_cfe_baseline - 1.0);
            }
            if (u->r.ceiling > 1.0 + 1e-9)
                u->ceiling_share = (u->sp_kernel - 1.0) / (u->r.ceiling - 1.0);
            if (u->r.model.valid && u->sp_kernel > 0) {
                double got = 1.0 - 1.0 / u->sp_kernel;
                u->model_err_weighted = fabs(1.0 - 1.0 / u->model_sp_weighted - got) * 100;
                u->model_err_sched = fabs(1.0 - 1.0 / u->model_sp_sched - got) * 100;
                u->model_err_dwr = fabs(u->model_dwr_improvement - got) * 100;
                if (!isnan(u->model_sp_floor))
                    u->model_err_floor = fabs(1.0 - 1.0 / u->model_sp_floor - got) * 100;
            }
            break;
        }
    }
    free(idx);
    free(hash);
}
