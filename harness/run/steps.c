/* steps.c — what the steps of a case's life share (steps.h). */
#include <stdio.h>

#include "steps.h"

void dh__step_fail(struct dh_result *r, const struct dh_err *e, int rc)
{
    r->status = rc < 0 ? -rc : rc;
    snprintf(r->message, sizeof r->message, "%s", e->msg[0] ? e->msg : dh_strerror(rc));
    r->n = 0;
}

void dh__exec_teardown(struct dh_worker *w, const struct dh_bench *b, struct dh_exec *x)
{
    if (b->teardown)
        b->teardown(w->state, x);
    if (x->bbv_buf)
        w->be->free_buffer(x->bbv_buf);
    if (x->prog)
        w->be->free_program(x->prog);
}
