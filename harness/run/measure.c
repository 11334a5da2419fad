/* measure.c — the measurement of a case (DESIGN.md "Measurement"): the
 * inputs uploaded (rotated copies where they fit a cache), correct first
 * (poisoned outputs, one run, compared with the CPU reference), warm-up,
 * the timed repetitions on poisoned outputs, compared again, and every
 * timing checked to be a real one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "steps.h"

int dh_rotate_for(uint64_t bytes_per_copy)
{
    /* beyond 64 MiB no cache holds the input anyway */
    return bytes_per_copy >= (64ull << 20) ? 1 : 3;
}

static int wrong(const struct dh_verify *v, struct dh_result *r, const char *when)
{
    if (v->mismatches == 0)
        return 0;
    r->status = DH_E_WRONG;
    snprintf(r->message, sizeof r->message,
             "%ld of %ld outputs differ from the CPU reference (%s; first at %ld: got %.9g, "
             "want %.9g)", v->mismatches, v->checked, when,
             v->n_first ? v->first[0].index : -1L, v->n_first ? v->first[0].got : 0.0,
             v->n_first ? v->first[0].want : 0.0);
    r->n = 0;
    return 1;
}

int dh__measure(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    struct dh_err e = {0};
    int rc;
    uint64_t per_copy = b->device_bytes ? b->device_bytes(c, 1) : 0;
    x->rotate = dh_rotate_for(per_copy);
    r->rotate = x->rotate;
    struct dh_sample s;
    struct dh_verify v;
    int reps = c->reps < DH_MAX_SAMPLES ? c->reps : DH_MAX_SAMPLES;

    /* correct first: poison, run once, compare */
    long bbv_items = 0;
    if ((rc = b->upload(w->state, x, &e))
        || (c->instrumented && (rc = dh__profile_buffer(w, b, &x->bbv_buf, &bbv_items, &e)))
        || (rc = b->poison(w->state, x, &e))
        || (rc = b->run(w->state, x, -1, &s, &e)) || (rc = b->verify(w->state, x, &v, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    r->verified = 1;
    r->verify = v;
    if (wrong(&v, r, "first run"))
        return DH_E_WRONG;
    for (int i = 1; i < c->warmup; i++)
        if ((rc = b->run(w->state, x, -1 - i, &s, &e))) {
            dh__step_fail(r, &e, rc);
            return rc;
        }
    /* timed runs on poisoned outputs, verified again at the end */
    if ((rc = b->poison(w->state, x, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    for (int i = 0; i < reps; i++) {
        if ((rc = b->run(w->state, x, i, &s, &e))) {
            dh__step_fail(r, &e, rc);
            return rc;
        }
        r->kernel_ms[i] = s.kernel_ms;
        r->host_ms[i] = s.host_ms;
        r->xfer_ms[i] = s.xfer_ms;
        r->n = i + 1;
    }
    if ((rc = b->verify(w->state, x, &v, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    r->verify = v;
    if (wrong(&v, r, "after the timed runs"))
        return DH_E_WRONG;
    for (int i = 0; i < r->n; i++)
        if (!(r->kernel_ms[i] > 0) || !isfinite(r->kernel_ms[i])) {
            r->status = DH_E_LAUNCH;
            snprintf(r->message, sizeof r->message,
                     "the backend reported a kernel time of %g ms: no valid timing",
                     r->kernel_ms[i]);
            r->n = 0;
            return DH_E_LAUNCH;
        }
    return 0;
}
