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
    x->track_launches = 1;
    x->n_launched = 0;
    rc = c->bench->run(w->state, x, -100, &s, e);
    x->track_launches = 0;
    struct dh_err e2 = {0};
    int rc2 = w->be->pc_end(w->dev, pc, n, rc ? &e2 : e);
    /* every kernel the pass launched must be in the counts: CUPTI's SASS
     * metrics (CUDA 13.0) have been seen to count one kernel of two */
    for (int i = 0; !rc && !rc2 && i < x->n_launched; i++) {
        int found = 0;
        for (long j = 0; j < *n && !found; j++)
            found = !strcmp((*pc)[j].func, x->launched[i]) && (*pc)[j].inst > 0;
        if (!found)
            rc2 = dh_err_set(e, DH_E_UNAVAILABLE, "the per-instruction counts miss kernel %s "
                             "(of %d launched): not priced from partial counts",
                             x->launched[i], x->n_launched);
    }
    if (rc || rc2) {
        free(*pc);
        *pc = NULL;
        *n = 0;
    }
    return rc ? rc : rc2;
}

void dh__counters(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                  struct dh_result *r)
{
    if (!c->profile || !w->be->counters)
        return;
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
