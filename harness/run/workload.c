/* workload.c — the first step of a case's life: the workload's host data
 * (seeded input and CPU reference, the benchmark's setup), made once and
 * kept while the next cases run other variants of the same workload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"

static void drop_bbv(struct dh_worker *w)
{
    free(w->bbv_counts);
    free(w->bbv_wcounts);
    w->bbv_wcounts = NULL;
    w->bbv_nwin = 0;
    w->bbv_window = 0;
    free(w->bbv_cost);
    free(w->bbv_sass);
    free(w->bbv_parent);
    w->bbv_parent = NULL;
    free(w->bbv_hguard);
    free(w->bbv_hparent);
    w->bbv_hguard = NULL;
    w->bbv_hparent = NULL;
    free(w->bbv_each);
    w->bbv_each = NULL;
    w->bbv_counts = NULL;
    w->bbv_cost = NULL;
    w->bbv_sass = NULL;
    w->bbv_sass_tried = 0;
    free(w->bbv_meas);
    w->bbv_meas = NULL;
    w->bbv_meas_tried = 0;
    w->bbv_costs[0] = 0;
    memset(&w->bbv, 0, sizeof w->bbv);
    w->bbv_tried = 0;
    w->bbv_classes = 0;
    w->bbv_status = 0;
    w->bbv_message[0] = 0;
    free(w->remap_base_ms);
    w->remap_base_ms = NULL;
    w->remap_base_n = 0;
    w->remap_key[0] = 0;
}

void dh__workload_drop(struct dh_worker *w)
{
    drop_bbv(w);
    if (w->state && w->bench && w->bench->release)
        w->bench->release(w->state);
    w->state = NULL;
    w->bench = NULL;
    w->state_id[0] = 0;
    w->wkey_ok = 0;
}

int dh__workload_ensure(struct dh_worker *w, const struct dh_case *c, struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    char sid[800];
    char wl[400];
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    snprintf(sid, sizeof sid, "%s/%s/%s/%s/%p", c->suite, c->bench_name, c->size, wl,
             (const void *)b->source);
    if (w->state && !strcmp(sid, w->state_id))
        return 0;
    dh__workload_drop(w);
    struct dh_err e = {0};
    double t0 = dh_now_ms();
    /* from the workload cache when it holds them (checked), else made and
     * stored */
    w->wkey_ok = w->wcache && !dh__wcache_workload_key(c, &w->wkey);
    int rc = 0;
    if (!w->wkey_ok || !dh__wcache_host_load(w, c, &w->wkey, &w->state)) {
        if ((rc = b->setup(c, &w->state, &e))) {
            w->state = NULL;
            dh__step_fail(r, &e, rc);
            return rc;
        }
        if (w->wkey_ok)
            dh__wcache_host_save(w, c, &w->wkey, w->state);
    }
    r->setup_ms = dh_now_ms() - t0;
    w->bench = b;
    snprintf(w->state_id, sizeof w->state_id, "%s", sid);
    return 0;
}
