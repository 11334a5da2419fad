/* measure.c — the measurement of a case (DESIGN.md "Measurement"): the
 * inputs uploaded (rotated copies where they fit a cache), correct first
 * (poisoned outputs, one run, compared with the CPU reference), warm-up,
 * the timed repetitions on poisoned outputs, compared again, and every
 * timing checked to be a real one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "steps.h"
#include "../stats/stats.h"

/* host work (cpu_tdr's regrouping and moves) is timed on the first
 * repetitions only, at least DH_HOST_REPS_MIN, until its median's 95%
 * interval is within +-DH_HOST_SHARE; later repetitions reuse its result */
#define DH_HOST_REPS_MIN 5
#define DH_HOST_SHARE 0.05

int dh_host_settled(const double *h, int n)
{
    if (n < DH_HOST_REPS_MIN)
        return 0;
    for (int i = 0; i < n; i++)
        if (h[i] != 0)
            return dh_ci_share(h, n) <= DH_HOST_SHARE;
    return 1;                           /* no host work */
}

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
    int aut = c->reps == DH_REPS_AUTO;
    int reps = aut ? (c->reps_max > 0 && c->reps_max < DH_MAX_SAMPLES ? c->reps_max : DH_MAX_SAMPLES)
                   : c->reps < DH_MAX_SAMPLES ? c->reps : DH_MAX_SAMPLES;
    double target = c->reps_target > 0 ? c->reps_target : 0.01;

    /* correct first: poison, run once, compare */
    long bbv_items = 0;
    if ((rc = b->upload(w->state, x, &e))
        || (c->instrumented && (rc = dh__profile_buffer(w, b, 1, &x->bbv_buf, &bbv_items, &e)))
        || (rc = b->poison(w->state, x, &e))
        || (rc = b->run(w->state, x, -1, &s, &e)) || (rc = b->verify(w->state, x, &v, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    r->verified = 1;
    r->verify = v;
    if (wrong(&v, r, "first run"))
        return DH_E_WRONG;
    x->host_reuse = 1;                  /* warm-up warms the device, not the host */
    for (int i = 1; i < c->warmup; i++)
        if ((rc = b->run(w->state, x, -1 - i, &s, &e))) {
            x->host_reuse = 0;
            dh__step_fail(r, &e, rc);
            return rc;
        }
    /* timed runs on poisoned outputs, verified again at the end */
    if ((rc = b->poison(w->state, x, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    int nh = 0;
    x->host_reuse = 0;
    for (int i = 0; i < reps; i++) {
        if ((rc = b->run(w->state, x, i, &s, &e))) {
            x->host_reuse = 0;
            dh__step_fail(r, &e, rc);
            return rc;
        }
        r->kernel_ms[i] = s.kernel_ms;
        r->xfer_ms[i] = s.xfer_ms;
        if (s.host_ms >= 0 && nh == i)      /* < 0: reused, not timed */
            r->host_ms[nh++] = s.host_ms;
        r->n = i + 1;
        if (!x->host_reuse && dh_host_settled(r->host_ms, nh))
            x->host_reuse = 1;
        if (aut && r->n >= DH_REPS_AUTO_MIN && dh_ci_share(r->kernel_ms, r->n) <= target)
            break;
    }
    x->host_reuse = 0;
    r->n_host = nh < r->n ? nh : 0;
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
