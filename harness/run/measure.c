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

/* host work (cpu_tdr's regrouping and moves) is timed on repetitions of
 * its own, at least DH_HOST_REPS_MIN, until its median's 95% interval is
 * within +-DH_HOST_SHARE; the timed repetitions reuse its result */
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

/* after host work the device's kernel times fall back over several
 * repetitions (on the H100 a kernel right after ~100 ms of host work runs
 * 10-20% slower, and the next ones come back over 2-6 repetitions): the
 * warm-up that follows a host phase lasts until the last
 * DH_SETTLE_WINDOW kernel times' median is within DH_SETTLE_SHARE of the
 * lowest of the warm-up */
#define DH_SETTLE_WINDOW 4
#define DH_SETTLE_SHARE 0.02

/* ... and before that rule is applied, a device idle during host work is
 * first kept busy for DH_SETTLE_BUSY_MS of kernel time (at most
 * DH_SETTLE_MAX_RUNS runs): on an H200 (2026-11-26 A/A, micro medium)
 * cpu_tdr's kernel ran 5-12% slow and flat for the whole warm-up and
 * then fell through the timed repetitions of some runs and not others
 * (0.181 -> 0.158 ms against 0.151 flat), so the window rule, which
 * compares the warm-up with itself, passed on a device that had not come
 * back; at 0.16 ms a kernel that is some 600 runs */
#define DH_SETTLE_BUSY_MS 100.0
#define DH_SETTLE_MAX_RUNS 4000

int dh_kernel_settled(const double *k, int n)
{
    if (n < DH_SETTLE_WINDOW)
        return 0;
    double lo = k[0];
    for (int i = 1; i < n; i++)
        lo = k[i] < lo ? k[i] : lo;
    return dh_median(k + n - DH_SETTLE_WINDOW, DH_SETTLE_WINDOW) <= lo * (1 + DH_SETTLE_SHARE);
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
    /* host work (cpu_tdr's regrouping and moves) is timed in a phase of its
     * own, before the warm-up: repetitions that redo it until its samples
     * settle (at most reps of them), their kernel samples not kept. A
     * kernel launched right after host work (the device idle for up to
     * ~100 ms) runs 10-20% slower on the H100 than back to back, so kernel
     * samples taken in this phase would make the kernel median follow how
     * many repetitions the host needed; the timed repetitions below all
     * reuse the host work and run back to back, as the baseline's do */
    int host_work = s.host_ms > 0 && !x->kernel_only, nh = 0;
    int after_host = s.host_ms > 0;     /* the verified run did host work */
    x->host_reuse = 0;
    while (host_work && nh < reps && !dh_host_settled(r->host_ms, nh)) {
        if ((rc = b->run(w->state, x, nh, &s, &e))) {
            dh__step_fail(r, &e, rc);
            return rc;
        }
        if (!(s.host_ms >= 0)) {
            r->status = DH_E_INTERNAL;
            snprintf(r->message, sizeof r->message, "repetition %d of the host phase "
                     "reported its host work reused (host_ms %g) while the harness asked "
                     "for it to be redone", nh, s.host_ms);
            r->n = 0;
            return DH_E_INTERNAL;
        }
        r->host_ms[nh++] = s.host_ms;
    }
    /* warm-up warms the device, not the host; after a host phase it goes
     * on until the kernel times no longer fall (at most reps of them), so
     * that the timed repetitions are in the steady state the baseline's
     * are in */
    x->host_reuse = 1;
    int wr = 0;                         /* warm-up runs so far */
    double busy = 0;
    while ((nh > 0 || after_host) && busy < DH_SETTLE_BUSY_MS && wr < DH_SETTLE_MAX_RUNS) {
        if ((rc = b->run(w->state, x, -2 - wr++, &s, &e))) {
            x->host_reuse = 0;
            dh__step_fail(r, &e, rc);
            return rc;
        }
        busy += s.kernel_ms > 0 ? s.kernel_ms : DH_SETTLE_BUSY_MS;  /* no time: stop */
    }
    double wk[DH_MAX_SAMPLES];
    for (int i = 0;
         i < c->warmup - 1 || ((nh > 0 || after_host) && i < reps && !dh_kernel_settled(wk, i));
         i++) {
        if ((rc = b->run(w->state, x, -2 - wr++, &s, &e))) {
            x->host_reuse = 0;
            dh__step_fail(r, &e, rc);
            return rc;
        }
        wk[i < DH_MAX_SAMPLES ? i : DH_MAX_SAMPLES - 1] = s.kernel_ms;
    }
    /* timed runs on poisoned outputs, verified again at the end */
    if ((rc = b->poison(w->state, x, &e))) {
        x->host_reuse = 0;
        dh__step_fail(r, &e, rc);
        return rc;
    }
    for (int i = 0; i < reps; i++) {
        if ((rc = b->run(w->state, x, i, &s, &e))) {
            x->host_reuse = 0;
            dh__step_fail(r, &e, rc);
            return rc;
        }
        r->kernel_ms[i] = s.kernel_ms;
        r->xfer_ms[i] = s.xfer_ms;
        if (!host_work)                 /* none: a 0 per repetition */
            r->host_ms[i] = s.host_ms > 0 ? s.host_ms : 0;
        r->n = i + 1;
        /* --reps auto: never fewer repetitions than host samples (one
         * host sample per repetition, results/record.h) */
        if (aut && r->n >= DH_REPS_AUTO_MIN && r->n >= nh
                && dh_ci_share(r->kernel_ms, r->n) <= target)
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
