/* counters.c — the hardware counters of a case (CFE from CUPTI on CUDA):
 * a run of its own after the timed ones, never mixed with timing. A
 * backend without counters, or a pass that reads none, leaves the result
 * without them (the model gives CFE then). */
#include <stdio.h>

#include "steps.h"

void dh__counters(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                  struct dh_result *r)
{
    if (!c->profile || !w->be->counters)
        return;
    struct dh_err e = {0};
    struct dh_sample s;
    x->profiling = 1;
    if (c->bench->run(w->state, x, -100, &s, &e) == 0 && x->n_profiled > 0
        && x->ctr.warp_inst_executed > 0) {
        r->has_counters = 1;
        r->ctr = x->ctr;
        r->ctr.cfe = x->ctr.thread_inst_pred_on
                     / (x->ctr.warp_inst_executed * (x->ctr.warp_width ? x->ctr.warp_width : 32));
    } else if (e.msg[0]) {
        snprintf(r->message, sizeof r->message, "counters unavailable: %s", e.msg);
    }
    x->profiling = 0;
}
