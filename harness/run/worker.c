/* worker.c — one case on an open device: build, upload, verify, time. */
#include "worker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../suites/lib/regroup.h"
#include "../model/bbv.h"
#include "source.h"

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

static void drop_bbv(struct dh_worker *w)
{
    free(w->bbv_counts);
    free(w->bbv_cost);
    w->bbv_counts = NULL;
    w->bbv_cost = NULL;
    memset(&w->bbv, 0, sizeof w->bbv);
    w->bbv_tried = 0;
    w->bbv_classes = 0;
    w->bbv_status = 0;
    w->bbv_message[0] = 0;
}

static void drop_state(struct dh_worker *w)
{
    drop_bbv(w);
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

/* What one case's run made on the device: the benchmark's buffers, the
 * counters, the program. */
static void exec_release(struct dh_worker *w, const struct dh_bench *b, struct dh_exec *x)
{
    if (b->teardown)
        b->teardown(w->state, x);
    if (x->bbv_buf)
        w->be->free_buffer(x->bbv_buf);
    if (x->prog)
        w->be->free_program(x->prog);
}

/* Build options of a case; a profiling build adds DH_BBV. */
static int case_options(struct dh_worker *w, const struct dh_case *c, int bbv, char *out,
                        size_t len)
{
    int rc = dh_source_options(c, &w->info, out, len);
    if (rc)
        return rc;
    if (bbv) {
        size_t o = strlen(out);
        int k = snprintf(out + o, len - o, " -D DH_BBV=1 -D DH_BBV_NB=%d",
                         c->bench->n_blocks);
        if (k < 0 || (size_t)k >= len - o)
            return -DH_E_INTERNAL;
    }
    return 0;
}

/* A zeroed counter buffer for every item of the current upload. */
static int bbv_buffer(struct dh_worker *w, const struct dh_bench *b, struct dh_buffer **buf,
                      long *items, struct dh_err *e)
{
    *items = b->items(w->state);
    size_t bytes = (size_t)*items * (size_t)b->n_blocks * 4;
    uint32_t *zero = calloc(1, bytes);
    if (!zero)
        return dh_err_set(e, DH_E_RESOURCES, "out of host memory for %zu bytes of BBVs", bytes);
    int rc = w->be->alloc(w->dev, bytes, buf, e);
    if (!rc && (rc = w->be->copy(*buf, zero, bytes, DH_TO_DEVICE, e))) {
        w->be->free_buffer(*buf);
        *buf = NULL;
    }
    free(zero);
    return rc;
}

/* The workload's BBVs: one run of the baseline kernel's profiling build
 * (-D DH_BBV), verified like any run, counters downloaded and checked for
 * overflow. The run and the download are timed: acquire_ms is what a new
 * input costs before a BBV regrouping can start. */
static int acquire_bbv(struct dh_worker *w, const struct dh_case *c, struct dh_err *e)
{
    const struct dh_bench *b = c->bench;
    struct dh_case bc = *c;
    snprintf(bc.variant, sizeof bc.variant, "baseline");
    char opts[4096];
    int rc;
    if ((rc = case_options(w, &bc, 1, opts, sizeof opts)))
        return dh_err_set(e, DH_E_INTERNAL, "build options do not fit");
    char *src = dh_source_assemble(&bc);
    if (!src)
        return dh_err_set(e, DH_E_RESOURCES, "out of host memory");
    struct dh_exec x = {.be = w->be, .dev = w->dev, .info = &w->info, .c = &bc, .rotate = 1};
    char *log = NULL;
    rc = w->be->build(w->dev, src, opts, &x.prog, &log, NULL, e);
    free(src);
    if (rc) {
        if (log) {
            char first[300];
            snprintf(first, sizeof first, "%s", log);
            dh_err_set(e, -rc, "the profiling build (DH_BBV) failed: %s", first);
        }
        free(log);
        return rc;
    }
    free(log);
    struct dh_sample s;
    struct dh_verify v;
    long items = 0;
    size_t bytes = 0;
    double t0 = 0;
    if ((rc = b->upload(w->state, &x, e)) || (rc = bbv_buffer(w, b, &x.bbv_buf, &items, e)))
        goto out;
    bytes = (size_t)items * (size_t)b->n_blocks * 4;
    if (!(w->bbv_counts = malloc(bytes)) || !(w->bbv_cost = malloc((size_t)b->n_blocks * 8))) {
        rc = dh_err_set(e, DH_E_RESOURCES, "out of host memory for %zu bytes of BBVs", bytes);
        goto out;
    }
    /* one untimed launch first (a runtime may compile lazily at the first
     * launch, a one-time cost), then zeroed counters, the timed run and
     * the download */
    if ((rc = b->run(w->state, &x, -299, &s, e)))
        goto out;
    memset(w->bbv_counts, 0, bytes);
    if ((rc = w->be->copy(x.bbv_buf, w->bbv_counts, bytes, DH_TO_DEVICE, e))
        || (rc = b->poison(w->state, &x, e)))
        goto out;
    t0 = now_ms();
    if ((rc = b->run(w->state, &x, -300, &s, e))
        || (rc = w->be->copy(x.bbv_buf, w->bbv_counts, bytes, DH_TO_HOST, e)))
        goto out;
    w->bbv.acquire_ms = now_ms() - t0;
    if ((rc = b->verify(w->state, &x, &v, e)))
        goto out;
    if (v.mismatches) {
        rc = dh_err_set(e, DH_E_WRONG, "the profiling build (DH_BBV) gives wrong results: "
                        "%ld of %ld outputs differ", v.mismatches, v.checked);
        goto out;
    }
    w->bbv.n_items = items;
    w->bbv.n_blocks = b->n_blocks;
    w->bbv.counts = w->bbv_counts;
    w->bbv.block_cost = w->bbv_cost;
    snprintf(w->bbv.source, sizeof w->bbv.source, "profile");
    int blk = 0;
    long it = dh_bbv_overflow(&w->bbv, &blk);
    if (it >= 0)
        rc = dh_err_set(e, DH_E_OVERFLOW, "BBV counter overflow: block %d (%s) of item %ld "
                        "passed 2^32-1 executions; use a smaller size or fewer iterations",
                        blk, b->blocks[blk].name, it);
out:
    exec_release(w, b, &x);
    return rc;
}

/* The workload's BBVs for case c, obtained once per workload. */
static const struct dh_bbv *workload_bbv(struct dh_worker *w, const struct dh_case *c,
                                         const struct dh_latency_table *t)
{
    if (!w->bbv_tried) {
        struct dh_err e = {0};
        w->bbv_tried = 1;
        w->bbv_status = acquire_bbv(w, c, &e);
        if (w->bbv_status) {
            snprintf(w->bbv_message, sizeof w->bbv_message, "%s",
                     e.msg[0] ? e.msg : dh_strerror(w->bbv_status));
            free(w->bbv_counts);
            w->bbv_counts = NULL;
            memset(&w->bbv, 0, sizeof w->bbv);
        }
    }
    if (w->bbv_status)
        return NULL;
    /* block costs follow the table (the device's, or DH_LATENCY_TABLE) */
    double inst[256];
    int nb = c->bench->n_blocks < 256 ? c->bench->n_blocks : 256;
    dh_bbv_block_costs(c->bench->blocks, nb, t, w->bbv_cost, inst);
    return &w->bbv;
}

/* Price the run's item order (x->order, or the launch order) and the
 * launch order with the model. */
static void model_run(struct dh_worker *w, const struct dh_case *c, const struct dh_exec *x,
                      const struct dh_latency_table *t, struct dh_result *r)
{
    const struct dh_bbv *b = x->bbv;
    double cyc[256], inst[256];
    int nb = b->n_blocks < 256 ? b->n_blocks : 256;
    dh_bbv_block_costs(c->bench->blocks, nb, t, cyc, inst);
    struct dh_model_result *m = &r->model;
    int W = w->info.warp_width > 0 ? w->info.warp_width : 32;
    m->warp_width = W;
    m->wg = (int)dh_pset_num(&c->params, "wg", 256);
    m->cus = w->info.compute_units > 0 ? w->info.compute_units : 1;
    m->slots = dh_bbv_slots(t, m->wg);
    snprintf(m->table, sizeof m->table, "%s", t->name);
    snprintf(m->bbv_source, sizeof m->bbv_source, "%s", b->source);
    m->n_blocks = nb;
    m->n_items = b->n_items;
    if (!w->bbv_classes)                  /* once per workload: a hash of every BBV */
        w->bbv_classes = dh_regroup_classes(b);
    m->n_classes = w->bbv_classes;
    m->acquire_ms = b->acquire_ms;
    struct dh_bbv_metrics mm;
    dh_bbv_metrics(b, cyc, inst, NULL, W, m->wg, m->cus, m->slots, &mm);
    m->base = (struct dh_model_point){mm.cfe, mm.dwr, mm.t_weighted, mm.t_sched};
    const int *own = x->order;
    dh_bbv_metrics(b, cyc, inst, own, W, m->wg, m->cus, m->slots, &mm);
    m->own = (struct dh_model_point){mm.cfe, mm.dwr, mm.t_weighted, mm.t_sched};
    dh_bbv_metrics(b, cyc, inst, own, 32, m->wg, m->cus, m->slots, &mm);
    m->cfe32 = mm.cfe;
    dh_bbv_metrics(b, cyc, inst, own, 64, m->wg, m->cus, m->slots, &mm);
    m->cfe64 = mm.cfe;
    m->valid = 1;
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
    if (c->instrumented && !(b->blocks && b->items)) {
        free(src);
        r->status = DH_E_UNSUPPORTED;
        snprintf(r->message, sizeof r->message, "%s/%s has no basic blocks marked (DH_BB): "
                 "it cannot run --instrumented", c->suite, c->bench_name);
        return;
    }
    if ((rc = case_options(w, c, c->instrumented, r->options, sizeof r->options))) {
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
    /* the workload's BBVs, before this case's build: a BBV regrouping
     * needs them, and the model prices baseline and cpu_tdr runs */
    struct dh_latency_table table;
    const char *rg = dh_pset_text(&c->params, "regroup", "");
    int need_bbv = dh_regroup_parse(rg) != 0;
    int want_model = c->model && b->blocks && b->items
                     && (!strcmp(c->variant, "baseline") || !strcmp(c->variant, "cpu_tdr"));
    const struct dh_bbv *bbv = NULL;
    if (need_bbv || want_model) {
        if ((rc = dh_latency_table_for(&w->info, &table, &e))) {
            free(src);
            fail(r, &e, rc);
            return;
        }
        if (need_bbv && !(b->blocks && b->items)) {
            free(src);
            r->status = DH_E_UNSUPPORTED;
            snprintf(r->message, sizeof r->message, "regroup=%s needs basic-block vectors "
                     "and %s/%s has no blocks marked", rg, c->suite, c->bench_name);
            return;
        }
        if (need_bbv && !c->model) {
            free(src);
            r->status = DH_E_USAGE;
            snprintf(r->message, sizeof r->message, "regroup=%s needs the BBV profiling "
                     "run: drop --no-model", rg);
            return;
        }
        bbv = workload_bbv(w, c, &table);
        if (!bbv && need_bbv) {
            free(src);
            r->status = w->bbv_status < 0 ? -w->bbv_status : w->bbv_status;
            snprintf(r->message, sizeof r->message, "no BBVs for regroup=%s: %s", rg,
                     w->bbv_message);
            return;
        }
    }
    struct dh_exec x = {.be = w->be, .dev = w->dev, .info = &w->info, .c = c, .bbv = bbv};
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
    long bbv_items = 0;
    if ((rc = b->upload(w->state, &x, &e))
        || (c->instrumented && (rc = bbv_buffer(w, b, &x.bbv_buf, &bbv_items, &e)))
        || (rc = b->poison(w->state, &x, &e))
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
    if (bbv && want_model)
        model_run(w, c, &x, &table, r);
    else if (want_model && w->bbv_status)
        snprintf(r->message, sizeof r->message, "model unavailable: %s", w->bbv_message);

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
    exec_release(w, b, &x);
}
