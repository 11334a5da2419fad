/* profile.c — the workload's basic-block vectors, when a case needs them
 * (a BBV regrouping) or the model prices it (baseline and cpu_tdr runs):
 * one run of the baseline kernel's profiling build (-D DH_BBV), verified
 * like any run, counters downloaded and checked for overflow. Obtained
 * once per workload; a failure is kept too, so the variants of one
 * workload do not repeat it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../suites/lib/regroup.h"
#include "source.h"
#include "steps.h"

int dh__profile_buffer(struct dh_worker *w, const struct dh_bench *b, struct dh_buffer **buf,
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

/* w->bbv_counts, profiled or from the workload cache, as the workload's
 * BBVs; a saturated counter is an overflow either way */
static int bbv_adopt(struct dh_worker *w, const struct dh_bench *b, long items,
                     struct dh_err *e)
{
    w->bbv.n_items = items;
    w->bbv.n_blocks = b->n_blocks;
    w->bbv.counts = w->bbv_counts;
    w->bbv.block_cost = w->bbv_cost;
    snprintf(w->bbv.source, sizeof w->bbv.source, "profile");
    int blk = 0;
    long it = dh_bbv_overflow(&w->bbv, &blk);
    if (it >= 0)
        return dh_err_set(e, DH_E_OVERFLOW, "BBV counter overflow: block %d (%s) of item %ld "
                          "passed 2^32-1 executions; use a smaller size or fewer iterations",
                          blk, b->blocks[blk].name, it);
    return 0;
}

/* The profiling run and the download are timed: acquire_ms is what a new
 * input costs before a BBV regrouping can start. */
static int acquire(struct dh_worker *w, const struct dh_case *c, struct dh_err *e)
{
    const struct dh_bench *b = c->bench;
    struct dh_case bc = *c;
    snprintf(bc.variant, sizeof bc.variant, "baseline");
    char opts[4096];
    int rc;
    if ((rc = dh__build_options(w, &bc, 1, opts, sizeof opts)))
        return dh_err_set(e, DH_E_INTERNAL, "build options do not fit");
    char *src = dh_source_assemble(&bc);
    if (!src)
        return dh_err_set(e, DH_E_RESOURCES, "out of host memory");
    struct dh_exec x = {.be = w->be, .dev = w->dev, .info = &w->info, .c = &bc, .rotate = 1};
    /* the workload cache holds BBVs of this workload, source, options and
     * device: no profiling run */
    struct dh_store_key key = {{0}};
    if (w->wkey_ok) {
        dh__wcache_bbv_key(w, &bc, &w->wkey, src, opts, &key);
        long items = b->items(w->state);
        if (!(w->bbv_cost = malloc((size_t)b->n_blocks * 8))) {
            free(src);
            return dh_err_set(e, DH_E_RESOURCES, "out of host memory");
        }
        if (dh__wcache_bbv_load(w, c, &key, items, b->n_blocks, &w->bbv_counts,
                                &w->bbv.acquire_ms)) {
            free(src);
            return bbv_adopt(w, b, items, e);
        }
    }
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
    if ((rc = b->upload(w->state, &x, e)) || (rc = dh__profile_buffer(w, b, &x.bbv_buf, &items, e)))
        goto out;
    bytes = (size_t)items * (size_t)b->n_blocks * 4;
    if (!(w->bbv_counts = malloc(bytes))
        || (!w->bbv_cost && !(w->bbv_cost = malloc((size_t)b->n_blocks * 8)))) {
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
    t0 = dh_now_ms();
    if ((rc = b->run(w->state, &x, -300, &s, e))
        || (rc = w->be->copy(x.bbv_buf, w->bbv_counts, bytes, DH_TO_HOST, e)))
        goto out;
    w->bbv.acquire_ms = dh_now_ms() - t0;
    if ((rc = b->verify(w->state, &x, &v, e)))
        goto out;
    if (v.mismatches) {
        rc = dh_err_set(e, DH_E_WRONG, "the profiling build (DH_BBV) gives wrong results: "
                        "%ld of %ld outputs differ", v.mismatches, v.checked);
        goto out;
    }
    if (!(rc = bbv_adopt(w, b, items, e)) && w->wkey_ok)
        dh__wcache_bbv_save(w, c, &key, items, b->n_blocks, w->bbv_counts, w->bbv.acquire_ms);
out:
    dh__exec_teardown(w, b, &x);
    return rc;
}

/* The workload's BBVs for case c, obtained once per workload. */
static const struct dh_bbv *workload_bbv(struct dh_worker *w, const struct dh_case *c,
                                         const struct dh_latency_table *t)
{
    if (!w->bbv_tried) {
        struct dh_err e = {0};
        w->bbv_tried = 1;
        w->bbv_status = acquire(w, c, &e);
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

int dh__profile_bbv(struct dh_worker *w, const struct dh_case *c,
                    struct dh_latency_table *table, const struct dh_bbv **bbv,
                    int *want_model, struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    const char *rg = dh_pset_text(&c->params, "regroup", "");
    int need_bbv = dh_regroup_parse(rg) != 0;
    *want_model = c->model && b->blocks && b->items
                  && (!strcmp(c->variant, "baseline") || !strcmp(c->variant, "cpu_tdr"));
    *bbv = NULL;
    if (!need_bbv && !*want_model)
        return 0;
    struct dh_err e = {0};
    int rc;
    if ((rc = dh_latency_table_for(&w->info, table, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    if (need_bbv && !(b->blocks && b->items)) {
        r->status = DH_E_UNSUPPORTED;
        snprintf(r->message, sizeof r->message, "regroup=%s needs basic-block vectors "
                 "and %s/%s has no blocks marked", rg, c->suite, c->bench_name);
        return DH_E_UNSUPPORTED;
    }
    if (need_bbv && !c->model) {
        r->status = DH_E_USAGE;
        snprintf(r->message, sizeof r->message, "regroup=%s needs the BBV profiling "
                 "run: drop --no-model", rg);
        return DH_E_USAGE;
    }
    *bbv = workload_bbv(w, c, table);
    if (!*bbv && need_bbv) {
        r->status = w->bbv_status < 0 ? -w->bbv_status : w->bbv_status;
        snprintf(r->message, sizeof r->message, "no BBVs for regroup=%s: %s", rg,
                 w->bbv_message);
        return r->status ? r->status : DH_E_INTERNAL;
    }
    return 0;
}
