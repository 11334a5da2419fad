/* remap.c — the remap overhead of a gpu_tdr case (docs/guide/reading-the-table.md): what the on-GPU remap costs where there is nothing to gain. On
 * the same device and workload, the input is put in path order the way the
 * benchmark's cpu_tdr puts it (regroup=key, applied by dlt where cpu_tdr
 * moves data, by rr where it redirects), and two kernels are measured on
 * it exactly as a case is (measure.c: verified first, warm-up, the case's
 * repetitions, verified again):
 *
 *   gpu_tdr on sorted   the case's own program, its input presorted
 *                       (dh_exec.presorted: the kit's cpu_tdr machinery);
 *   baseline on sorted  the benchmark's cpu_tdr with regroup=key and that
 *                       mech at the case's tunables: the baseline kernel
 *                       on the same order, as cpu_tdr runs it.
 *
 * ratio = median(gpu_tdr on sorted) / median(baseline on sorted), with a
 * bootstrap interval; kernel time only (the host's regrouping is no part of
 * either kernel). A wrong result of either run fails the case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "../stats/stats.h"

/* c's parameters as cpu_tdr reads them: the workload and c's tunables
 * (wg), regroup=key and `mech`, every other cpu_tdr parameter at its
 * default (deal at most 1), those whose `when` does not hold left out */
static int cpu_tdr_case(const struct dh_case *c, const char *mech, struct dh_case *cb)
{
    const struct dh_bench *b = c->bench;
    *cb = *c;
    memset(&cb->params, 0, sizeof cb->params);
    snprintf(cb->variant, sizeof cb->variant, "cpu_tdr");
    cb->profile = 0;
    cb->remap_overhead = 0;
    for (const struct dh_param_def *d = b->params; d && d->name; d++) {
        if (!dh_param_used_by(d, "cpu_tdr"))
            continue;
        const struct dh_pval *v = dh_pset_find(&c->params, d->name);
        const char *text = !strcmp(d->name, "mech")      ? mech
                           : !strcmp(d->name, "regroup") ? "key"
                           : v && d->kind != DH_P_CHOICE ? v->text
                                                         : d->def;
        double num = 0;
        char why[256];
        if (!text || dh_domain_check(d->domain, text, &num, why, sizeof why))
            return -1;
        /* deal=2 orders the warps by their modeled cost, from BBVs this
         * measurement does not take: the key's order dealt (deal=1),
         * which is the same where the key is costliest first (bbv/sw's) */
        if (!strcmp(d->name, "deal") && num > 1)
            text = "1", num = 1;
        if (dh_pset_put(&cb->params, d->name, text, num, d->kind))
            return -1;
    }
    for (const struct dh_param_def *d = b->params; d && d->name; d++)
        if (dh_pset_find(&cb->params, d->name) && !dh_param_applies(d, &cb->params))
            dh_pset_del(&cb->params, d->name);
    dh_pset_sort(&cb->params);
    dh_case_identity(cb);
    return 0;
}

/* the case of gpu_tdr on sorted: c with cb's regrouping choices (mech,
 * regroup, deal...), which the kit reads to presort the input */
static int presorted_case(const struct dh_case *c, const struct dh_case *cb, struct dh_case *cs)
{
    *cs = *c;
    cs->profile = 0;
    cs->remap_overhead = 0;
    for (int i = 0; i < cb->params.n; i++) {
        const struct dh_pval *v = &cb->params.v[i];
        if (!dh_pset_find(&cs->params, v->name)
            && dh_pset_put(&cs->params, v->name, v->text, v->num, v->kind))
            return -1;
    }
    dh_pset_sort(&cs->params);
    return 0;
}

static void na(struct dh_remap_overhead *ro, const char *why)
{
    ro->state = DH_REMAP_NA;
    snprintf(ro->reason, sizeof ro->reason, "%s", why);
}

/* a run of the overhead failed: the figure says which and why, and so does
 * the case (a wrong result is a failed run, never a timing) */
static void failed(struct dh_result *r, const char *which, const struct dh_result *rr)
{
    struct dh_remap_overhead *ro = &r->remap;
    ro->state = DH_REMAP_FAILED;
    ro->status = rr->status ? rr->status : DH_E_INTERNAL;
    snprintf(ro->reason, sizeof ro->reason, "%s: %s", which, rr->message);
    r->status = ro->status;
    snprintf(r->message, sizeof r->message, "remap overhead, %s (%s): %s", which,
             dh_err_name(ro->status), rr->message);
}

static void summarize(const struct dh_result *rr, double *med, double *lo, double *hi)
{
    struct dh_stats s;
    dh_stats_of(rr->kernel_ms, rr->n, &s);
    *med = s.median;
    *lo = s.ci_lo;
    *hi = s.ci_hi;
}

void dh__remap_overhead(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                        struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    struct dh_remap_overhead *ro = &r->remap;
    memset(ro, 0, sizeof *ro);
    if (!c->remap_overhead || strcmp(c->variant, "gpu_tdr") || r->status || c->instrumented)
        return;
    char why[384] = "";
    if (!b->presort) {
        na(ro, "no host regrouping: the benchmark is not declared with the kit");
        return;
    }
    if (!b->presort(c, ro->mech, sizeof ro->mech, why, sizeof why)) {
        na(ro, why);
        return;
    }
    struct dh_case cb, cs;
    if (cpu_tdr_case(c, ro->mech, &cb) || presorted_case(c, &cb, &cs)) {
        na(ro, "no host regrouping: cpu_tdr's parameters do not fit this case");
        return;
    }
    char cwhy[256] = "";
    if (b->check && b->check(&cb, &w->info, cwhy, sizeof cwhy)) {
        snprintf(why, sizeof why, "cpu_tdr with regroup=key mech=%s is refused here: %s",
                 ro->mech, cwhy);
        na(ro, why);
        return;
    }
    struct dh_result rt = {0}, rb = {0};
    if (dh_result_reserve(&rt) || dh_result_reserve(&rb)) {
        struct dh_result oom = {.status = DH_E_RESOURCES};
        snprintf(oom.message, sizeof oom.message, "out of host memory for the samples");
        failed(r, "its samples", &oom);
        goto out;
    }
    /* gpu_tdr on sorted: the case's program; its device data made anew */
    if (b->teardown)
        b->teardown(w->state, x);
    struct dh_exec xs = {.be = w->be, .dev = w->dev, .info = &w->info, .c = &cs,
                         .prog = x->prog, .bbv = x->bbv, .presorted = 1,
                         .kernel_only = 1};
    int rc = dh__measure(w, &cs, &xs, &rt);
    if (b->teardown)
        b->teardown(w->state, &xs);
    if (rc || rt.status || rt.n < 1) {
        failed(r, "gpu_tdr on the regrouped input", &rt);
        goto out;
    }
    /* baseline on sorted: cpu_tdr's own build and run, or the one this
     * worker measured for an earlier form of the same workload */
    char key[sizeof w->remap_key], tun[256];
    dh_pset_format(&cb.params, DH_P_TUNABLE, tun, sizeof tun);
    snprintf(key, sizeof key, "%s|%s|%s|%d|%d|%d", w->state_id, cb.id, tun, cb.reps,
             cb.warmup, cb.reps_max);
    if (w->remap_base_ms && w->remap_base_n > 0 && !strcmp(key, w->remap_key)) {
        memcpy(rb.kernel_ms, w->remap_base_ms, (size_t)w->remap_base_n * sizeof *rb.kernel_ms);
        rb.n = w->remap_base_n;
        goto judged;
    }
    char *src = NULL;
    struct dh_exec xb = {.be = w->be, .dev = w->dev, .info = &w->info, .c = &cb, .bbv = x->bbv,
                         .kernel_only = 1};
    if (dh__build_prepare(w, &cb, &src, &rb) || dh__build(w, src, &xb, &rb)) {
        free(src);
        failed(r, "the baseline kernel on the regrouped input (its build)", &rb);
        dh__exec_teardown(w, b, &xb);
        goto out;
    }
    free(src);
    rc = dh__measure(w, &cb, &xb, &rb);
    dh__exec_teardown(w, b, &xb);
    if (rc || rb.status || rb.n < 1) {
        failed(r, "the baseline kernel on the regrouped input", &rb);
        goto out;
    }
    free(w->remap_base_ms);
    w->remap_base_n = 0;
    w->remap_key[0] = 0;
    if ((w->remap_base_ms = malloc((size_t)rb.n * sizeof *w->remap_base_ms))) {
        memcpy(w->remap_base_ms, rb.kernel_ms, (size_t)rb.n * sizeof *rb.kernel_ms);
        w->remap_base_n = rb.n;
        snprintf(w->remap_key, sizeof w->remap_key, "%s", key);
    }
judged:
    ro->state = DH_REMAP_MEASURED;
    ro->n_tdr = rt.n;
    ro->n_base = rb.n;
    summarize(&rt, &ro->tdr_ms, &ro->tdr_lo, &ro->tdr_hi);
    summarize(&rb, &ro->base_ms, &ro->base_lo, &ro->base_hi);
    ro->ratio = dh_ratio_ci(rt.kernel_ms, rt.n, rb.kernel_ms, rb.n, &ro->ratio_lo,
                            &ro->ratio_hi);
out:
    dh_result_release(&rt);
    dh_result_release(&rb);
}
