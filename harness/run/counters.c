/* counters.c — the hardware counters of a case (CFE from CUPTI on CUDA):
 * a run of its own after the timed ones, never mixed with timing. A
 * backend without counters, or a pass that reads none, leaves the result
 * without them (the model gives CFE then). */
#include <stdio.h>

#include "steps.h"

/* launches a profiling pass counts: a CUPTI session costs about a quarter
 * of a second per launch on the H100, so a run of hundreds of launches
 * (lud: one perimeter launch per tile offset) is counted over its first
 * ones, the result saying so */
#define DH_PROFILE_MAX_LAUNCHES 32

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
