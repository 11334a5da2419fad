/* exec.c — dh_exec_launch (suite.h): a benchmark's kernel launch, timed
 * with the backend's events, or counted in a profiling pass. It lives with
 * the benchmarks because they call it; it needs only the backend. */
#include <stdio.h>
#include <string.h>

#include "suite.h"

int dh_exec_launch(struct dh_exec *x, const struct dh_launch *l, double *ms,
                   struct dh_err *err)
{
    struct dh_arg args[17];
    struct dh_launch lb;
    if (x->bbv_buf) {
        /* a profiling build: every kernel takes the counters last */
        if (l->n_args > 16)
            return dh_err_set(err, DH_E_INTERNAL, "%s: too many arguments", l->kernel);
        memcpy(args, l->args, (size_t)l->n_args * sizeof *args);
        args[l->n_args].kind = DH_ARG_BUFFER;
        args[l->n_args].v.buf = x->bbv_buf;
        lb = *l;
        lb.args = args;
        lb.n_args = l->n_args + 1;
        l = &lb;
    }
    if (x->track_launches) {
        int seen = 0;
        for (int i = 0; i < x->n_launched && !seen; i++)
            seen = !strcmp(x->launched[i], l->kernel);
        if (!seen && x->n_launched < 8)
            snprintf(x->launched[x->n_launched++], sizeof x->launched[0], "%s", l->kernel);
    }
    /* A launch outside kernel_ms (ms NULL) is not counted either, and a
     * profiling pass counts at most x->profile_max launches (0: all): the
     * rest run as they would, uncounted, and are tallied so the result
     * can say its CFE covers part of the run. */
    if (!x->profiling || !ms)
        return x->be->launch(x->prog, l, ms, err);
    if (x->profile_max > 0 && x->n_profiled >= x->profile_max) {
        x->n_unprofiled++;
        *ms = 0;
        return x->be->launch(x->prog, l, NULL, err);
    }
    struct dh_counters c;
    memset(&c, 0, sizeof c);
    int rc = dh_backend_counters(x->be, x->prog, l, &c, err);
    if (rc)
        return rc;
    x->ctr.thread_inst_pred_on += c.thread_inst_pred_on;
    x->ctr.warp_inst_executed += c.warp_inst_executed;
    x->ctr.warp_width = c.warp_width;
    snprintf(x->ctr.source, sizeof x->ctr.source, "%s", c.source);
    x->n_profiled++;
    *ms = 0;
    return 0;
}
