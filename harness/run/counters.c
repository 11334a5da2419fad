/* counters.c — the hardware counters of a case (CFE from CUPTI on CUDA):
 * a run of its own after the timed ones, never mixed with timing. A
 * backend without counters, or a pass that reads none, leaves the result
 * without them (the model gives CFE then). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"

/* launches a profiling pass counts: a CUPTI session costs about a quarter
 * of a second per launch on the H100, so a run of hundreds of launches
 * (lud: one perimeter launch per tile offset) is counted over its first
 * ones, the result saying so */
#define DH_PROFILE_MAX_LAUNCHES 32

int dh__pc_pass(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                struct dh_pc_count **pc, long *n, struct dh_err *e)
{
    *pc = NULL;
    *n = 0;
    if (!w->be->pc_begin || !w->be->pc_end)
        return dh_err_set(e, DH_E_UNAVAILABLE, "the %s backend has no per-instruction "
                          "counts (CUDA's CUPTI has)", w->be->name);
    int rc = w->be->pc_begin(w->dev, e);
    if (rc)
        return rc;
    struct dh_sample s;
    rc = c->bench->run(w->state, x, -100, &s, e);
    struct dh_err e2 = {0};
    int rc2 = w->be->pc_end(w->dev, pc, n, rc ? &e2 : e);
    if (rc) {
        free(*pc);
        *pc = NULL;
        *n = 0;
        return rc;
    }
    return rc2;
}

int dh__pc_mode(const struct dh_worker *w)
{
    const char *sel = getenv("DH_BLOCK_COSTS");
    return sel && !strcmp(sel, "measured") && w->be->pc_begin && w->be->pc_end;
}

/* The counters from a per-instruction pass: its sums are the events the
 * range profiler counts (thread instructions predicated on, warp
 * instructions), over every launch of the run; the counts stay in w for
 * the block costs (measured_costs.c). */
static void counters_pc(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                        struct dh_result *r)
{
    struct dh_err e = {0};
    free(w->pcs);
    w->pcs = NULL;
    w->n_pcs = 0;
    if (dh__pc_pass(w, c, x, &w->pcs, &w->n_pcs, &e)) {
        snprintf(r->message, sizeof r->message, "counters unavailable: %s", e.msg);
        return;
    }
    double on = 0, inst = 0;
    for (long i = 0; i < w->n_pcs; i++) {
        on += w->pcs[i].pred_on;
        inst += w->pcs[i].inst;
    }
    if (inst <= 0)
        return;
    r->has_counters = 1;
    memset(&r->ctr, 0, sizeof r->ctr);
    r->ctr.thread_inst_pred_on = on;
    r->ctr.warp_inst_executed = inst;
    r->ctr.warp_width = w->info.warp_width > 0 ? w->info.warp_width : 32;
    r->ctr.cfe = on / (inst * r->ctr.warp_width);
    snprintf(r->ctr.source, sizeof r->ctr.source, "cupti-sass");
}

void dh__counters(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                  struct dh_result *r)
{
    if (!c->profile || !w->be->counters)
        return;
    if (dh__pc_mode(w)) {
        counters_pc(w, c, x, r);
        return;
    }
    struct dh_err e = {0};
    struct dh_sample s;
    x->profiling = 1;
    x->n_profiled = x->n_unprofiled = 0;
    x->profile_max = DH_PROFILE_MAX_LAUNCHES;
    if (c->bench->run(w->state, x, -100, &s, &e) == 0 && x->n_profiled > 0
        && x->ctr.warp_inst_executed > 0) {
        r->has_counters = 1;
        r->ctr = x->ctr;
        r->ctr.cfe = x->ctr.thread_inst_pred_on
                     / (x->ctr.warp_inst_executed * (x->ctr.warp_width ? x->ctr.warp_width : 32));
        if (x->n_unprofiled > 0)
            snprintf(r->message, sizeof r->message, "CFE counted over the first %d of %d timed "
                     "launches (a profiled launch costs a counter session)", x->n_profiled,
                     x->n_profiled + x->n_unprofiled);
    } else if (e.msg[0]) {
        snprintf(r->message, sizeof r->message, "counters unavailable: %s", e.msg);
    }
    x->profiling = 0;
    x->profile_max = 0;
}
