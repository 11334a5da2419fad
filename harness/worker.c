/* worker.c — one case on an open device: build, upload, verify, time. */
#include "worker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "source.h"

int dh_exec_launch(struct dh_exec *x, const struct dh_launch *l, double *ms,
                   struct dh_err *err)
{
    if (!x->profiling)
        return x->be->launch(x->prog, l, ms, err);
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
    if (ms)
        *ms = 0;
    return 0;
}

int dh_rotate_for(uint64_t bytes_per_copy)
{
    /* beyond 64 MiB no cache holds the input anyway */
    return bytes_per_copy >= (64ull << 20) ? 1 : 3;
}

double dh_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

#define now_ms dh_now_ms

void dh_verify_add(struct dh_verify *v, long index, double got, double want, int bad)
{
    double e = fabs(got - want);
    v->checked++;
    if (isnan(e))
        v->max_abs_err = INFINITY;
    else if (e > v->max_abs_err)
        v->max_abs_err = e;
    if (!bad)
        return;
    if (v->n_first < DH_MAX_MISMATCH) {
        v->first[v->n_first].index = index;
        v->first[v->n_first].got = got;
        v->first[v->n_first].want = want;
        v->n_first++;
    }
    v->mismatches++;
}

int dh_worker_open(struct dh_worker *w, const struct dh_backend_ops *be, int index,
                   struct dh_err *err)
{
    memset(w, 0, sizeof *w);
    w->be = be;
    int n = 0;
    char why[256] = "";
    int rc = be->probe(&n, why, sizeof why, err);
    if (rc)
        return rc;
    if (index >= n)
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s: no device %d (%d found%s%s)", be->name,
                          index, n, why[0] ? ": " : "", why);
    if ((rc = be->describe(index, &w->info, err)))
        return rc;
    return be->open(index, &w->dev, err);
}

static void drop_state(struct dh_worker *w)
{
    if (w->state && w->bench && w->bench->release)
        w->bench->release(w->state);
    w->state = NULL;
    w->bench = NULL;
    w->state_id[0] = 0;
}

void dh_worker_close(struct dh_worker *w)
{
    drop_state(w);
    if (w->dev)
        w->be->close(w->dev);
    w->dev = NULL;
}

static void fail(struct dh_result *r, const struct dh_err *e, int rc)
{
    r->status = rc < 0 ? -rc : rc;
    snprintf(r->message, sizeof r->message, "%s", e->msg[0] ? e->msg : dh_strerror(rc));
    r->n = 0;
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

void dh_worker_run(struct dh_worker *w, const struct dh_case *c, struct dh_result *r)
{
    struct dh_err e = {0};
    const struct dh_bench *b = c->bench;
    int rc;
    memset(r, 0, sizeof *r);
    r->warp_width = w->info.warp_width;

    /* host data: reuse across variants of one workload */
    char sid[800];
    char wl[400];
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    snprintf(sid, sizeof sid, "%s/%s/%s/%s/%p", c->suite, c->bench_name, c->size, wl,
             (const void *)b->source);
    if (!w->state || strcmp(sid, w->state_id)) {
        drop_state(w);
        double t0 = now_ms();
        if ((rc = b->setup(c, &w->state, &e))) {
            w->state = NULL;
            fail(r, &e, rc);
            return;
        }
        r->setup_ms = now_ms() - t0;
        w->bench = b;
        snprintf(w->state_id, sizeof w->state_id, "%s", sid);
    }

    char *src = dh_source_assemble(c);
    if (!src) {
        r->status = DH_E_RESOURCES;
        snprintf(r->message, sizeof r->message, "out of host memory");
        return;
    }
    if ((rc = dh_source_options(c, &w->info, r->options, sizeof r->options))) {
        free(src);
        dh_err_set(&e, DH_E_INTERNAL, "build options do not fit");
        fail(r, &e, rc);
        return;
    }
    if (w->dump_dir && (rc = dh_source_dump(w->dump_dir, c, src, r->options, &e))) {
        free(src);
        fail(r, &e, rc);
        return;
    }
    struct dh_exec x = {.be = w->be, .dev = w->dev, .info = &w->info, .c = c};
    char *log = NULL;
    double t0 = now_ms();
    rc = w->be->build(w->dev, src, r->options, &x.prog, &log, &r->build_cached, &e);
    r->build_ms = now_ms() - t0;
    free(src);
    if (rc) {
        if (log)
            snprintf(r->build_log, sizeof r->build_log, "%s", log);
        free(log);
        fail(r, &e, rc);
        return;
    }
    free(log);

    uint64_t per_copy = b->device_bytes ? b->device_bytes(c, 1) : 0;
    x.rotate = dh_rotate_for(per_copy);
    r->rotate = x.rotate;
    struct dh_sample s;
    struct dh_verify v;
    int reps = c->reps < DH_MAX_SAMPLES ? c->reps : DH_MAX_SAMPLES;

    /* correct first: poison, run once, compare */
    if ((rc = b->upload(w->state, &x, &e)) || (rc = b->poison(w->state, &x, &e))
        || (rc = b->run(w->state, &x, -1, &s, &e)) || (rc = b->verify(w->state, &x, &v, &e))) {
        fail(r, &e, rc);
        goto out;
    }
    r->verified = 1;
    r->verify = v;
    if (wrong(&v, r, "first run"))
        goto out;
    for (int i = 1; i < c->warmup; i++)
        if ((rc = b->run(w->state, &x, -1 - i, &s, &e))) {
            fail(r, &e, rc);
            goto out;
        }
    /* timed runs on poisoned outputs, verified again at the end */
    if ((rc = b->poison(w->state, &x, &e))) {
        fail(r, &e, rc);
        goto out;
    }
    for (int i = 0; i < reps; i++) {
        if ((rc = b->run(w->state, &x, i, &s, &e))) {
            fail(r, &e, rc);
            goto out;
        }
        r->kernel_ms[i] = s.kernel_ms;
        r->host_ms[i] = s.host_ms;
        r->xfer_ms[i] = s.xfer_ms;
        r->n = i + 1;
    }
    if ((rc = b->verify(w->state, &x, &v, &e))) {
        fail(r, &e, rc);
        goto out;
    }
    r->verify = v;
    if (wrong(&v, r, "after the timed runs"))
        goto out;
    for (int i = 0; i < r->n; i++)
        if (!(r->kernel_ms[i] > 0) || !isfinite(r->kernel_ms[i])) {
            r->status = DH_E_LAUNCH;
            snprintf(r->message, sizeof r->message,
                     "the backend reported a kernel time of %g ms: no valid timing",
                     r->kernel_ms[i]);
            r->n = 0;
            goto out;
        }
    if (b->ceiling)
        r->ceiling = b->ceiling(w->state, c, w->info.warp_width);

    /* counters: a pass of its own, never mixed with timing */
    if (c->profile && w->be->counters) {
        x.profiling = 1;
        if (b->run(w->state, &x, -100, &s, &e) == 0 && x.n_profiled > 0
            && x.ctr.warp_inst_executed > 0) {
            r->has_counters = 1;
            r->ctr = x.ctr;
            r->ctr.cfe = x.ctr.thread_inst_pred_on
                         / (x.ctr.warp_inst_executed * (x.ctr.warp_width ? x.ctr.warp_width : 32));
        } else if (e.msg[0]) {
            snprintf(r->message, sizeof r->message, "counters unavailable: %s", e.msg);
        }
        x.profiling = 0;
    }
out:
    if (b->teardown)
        b->teardown(w->state, &x);
    if (x.prog)
        w->be->free_program(x.prog);
}
