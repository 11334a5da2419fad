/* worker.c — a case's life on an open device, top to bottom: the
 * workload's host data, the kernel's source and options, the BBVs when the
 * case needs them, the build, the measurement, the ceiling and the model,
 * the counters, a gpu_tdr case's remap overhead, the teardown. Each step
 * is a file of its own (steps.h). */
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../suites/lib/regroup.h"
#include "../model/price.h"
#include "steps.h"

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

void dh_worker_close(struct dh_worker *w)
{
    dh__workload_drop(w);
    if (w->dev)
        w->be->close(w->dev);
    w->dev = NULL;
}

/* The model's figures for the case's order (x's, NULL: the launch order). */
static void price(struct dh_worker *w, const struct dh_case *c, const struct dh_bbv *bbv,
                  const struct dh_latency_table *table, const int *order, struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    if (!w->bbv_classes)              /* once per workload: a hash of every BBV */
        w->bbv_classes = dh_regroup_classes(bbv);
    dh_model_price(bbv, b->blocks, table, &w->info, (int)dh_pset_num(&c->params, "wg", 256),
                   b->launch_items ? b->launch_items(c, bbv->n_items) : 0, order,
                   w->bbv_classes, &r->model);
}

void dh_worker_run(struct dh_worker *w, const struct dh_case *c, struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    dh_result_release(r);
    memset(r, 0, sizeof *r);
    r->warp_width = w->info.warp_width;
    if (dh_result_reserve(r)) {
        r->status = DH_E_RESOURCES;
        snprintf(r->message, sizeof r->message, "out of host memory for the samples");
        return;
    }
    double t0 = dh_now_ms(), t;
    int rc;

    /* the workload's input and CPU reference, shared by its variants */
    if (dh__workload_ensure(w, c, r))
        return;
    /* the kernel's source and build options (dumped on request) */
    char *src = NULL;
    if (dh__build_prepare(w, c, &src, r))
        return;
    /* the workload's BBVs, before this case's build: a BBV regrouping
     * needs them, and the model prices baseline and cpu_tdr runs */
    struct dh_latency_table table;
    const struct dh_bbv *bbv = NULL;
    int want_model = 0;
    t = dh_now_ms();
    rc = dh__profile_bbv(w, c, &table, &bbv, &want_model, r);
    r->bbv_ms = dh_now_ms() - t;
    if (rc) {
        free(src);
        r->case_ms = dh_now_ms() - t0;
        return;
    }
    /* the build */
    struct dh_exec x = {.be = w->be, .dev = w->dev, .info = &w->info, .c = c, .bbv = bbv};
    rc = dh__build(w, src, &x, r);
    free(src);
    if (rc) {
        r->case_ms = dh_now_ms() - t0;
        return;
    }
    /* upload, verify, warm up, time, verify again */
    t = dh_now_ms();
    rc = dh__measure(w, c, &x, r);
    r->measure_ms = dh_now_ms() - t;
    if (rc)
        goto teardown;
    /* what the input allows (the remap ceiling), what the model predicts */
    if (b->ceiling)
        r->ceiling = b->ceiling(w->state, c, w->info.warp_width);
    t = dh_now_ms();
    if (bbv && want_model) {
        price(w, c, bbv, &table, x.order, r);
    } else if (want_model && w->bbv_status) {
        snprintf(r->message, sizeof r->message, "model unavailable: %s", w->bbv_message);
    }
    r->model_ms = dh_now_ms() - t;
    /* the counters, a pass of their own */
    t = dh_now_ms();
    dh__counters(w, c, &x, r);
    r->counters_ms = dh_now_ms() - t;
    /* DH_BLOCK_COSTS=measured: the baseline's per-instruction counts, a
     * pass after the counters (CUPTI's CFE counts the kernel unpatched),
     * and the case priced again with them */
    t = dh_now_ms();
    if (bbv && want_model && dh__measured_costs(w, c, &x))
        price(w, c, bbv, &table, x.order, r);
    r->model_ms += dh_now_ms() - t;
    /* gpu_tdr: the remap overhead, on the input in path order */
    t = dh_now_ms();
    dh__remap_overhead(w, c, &x, r);
    if (r->remap.state != DH_REMAP_NONE)   /* only where it ran or said why not */
        r->remap_ms = dh_now_ms() - t;
teardown:
    dh__exec_teardown(w, b, &x);
    r->case_ms = dh_now_ms() - t0;
}
