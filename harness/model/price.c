/* price.c — see price.h. */
#include "price.h"

#include <stdio.h>
#include <stdlib.h>

/* DH_MODEL_CUS, else the device's compute units (at least 1) */
static int model_cus(const struct dh_device_info *info)
{
    int cus = info->compute_units > 0 ? info->compute_units : 1;
    const char *e = getenv("DH_MODEL_CUS");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        if (*end || v < 1 || v > 100000)
            fprintf(stderr, "harness: DH_MODEL_CUS=%s ignored: want an integer in 1..100000 "
                    "(compute units the model prices)\n", e);
        else
            cus = (int)v;
    }
    return cus;
}

void dh_model_price(const struct dh_bbv *b, const struct dh_bb_def *blocks,
                    const struct dh_latency_table *t, const struct dh_device_info *info,
                    int wg, long launch_items, const int *order, long n_classes,
                    struct dh_model_result *m)
{
    double cyc[256], inst[256], lat[256], issue[256];
    int nb = b->n_blocks < 256 ? b->n_blocks : 256;
    dh_bbv_block_costs(blocks, nb, t, cyc, inst);
    /* The floor metric's figures. Latency: the table's cycles, the sum of
     * a block's operations' dependent-issue latencies (one instruction in
     * flight); the compiled code has no latency table, so these stay the
     * hand table's with compiled costs too. Issue: a scheduler dispatches
     * one warp instruction a cycle, so the hand table's issued
     * instructions at one cycle each, or with compiled costs their issue
     * cycles (sass.c: 128 / results per clock per SM). */
    for (int k = 0; k < nb; k++) {
        lat[k] = cyc[k];
        issue[k] = inst[k];
    }
    if (b->block_inst && b->block_cost)          /* costs from the compiled code */
        for (int k = 0; k < nb; k++) {
            cyc[k] = b->block_cost[k];
            inst[k] = b->block_inst[k];
            issue[k] = b->block_cost[k];
        }
    snprintf(m->costs, sizeof m->costs, "%s", b->costs[0] ? b->costs : "hand");
    int W = info->warp_width > 0 ? info->warp_width : 32;
    m->warp_width = W;
    m->wg = wg;
    m->cus = model_cus(info);
    m->slots = dh_bbv_slots(t, m->wg);
    m->schedulers = t->schedulers_per_cu > 0 ? t->schedulers_per_cu : 1;
    m->launch_items = launch_items > 0 && launch_items < b->n_items ? launch_items : 0;
    snprintf(m->table, sizeof m->table, "%s", t->name);
    snprintf(m->bbv_source, sizeof m->bbv_source, "%s", b->source);
    m->n_blocks = nb;
    m->n_items = b->n_items;
    m->n_classes = n_classes;
    m->acquire_ms = b->acquire_ms;
    m->window = b->win_counts && b->n_windows > 1 ? b->window : 0;
    m->windows = b->win_counts && b->n_windows > 1 ? b->n_windows : 1;
    struct dh_bbv_shape s = {.w = W, .wg = m->wg, .cus = m->cus, .slots = m->slots,
                             .schedulers = m->schedulers, .launch_items = m->launch_items,
                             .issue = issue, .lat = lat};
    struct dh_bbv_metrics mm;
    dh_bbv_metrics_shape(b, cyc, inst, NULL, &s, &mm);
    m->base = (struct dh_model_point){mm.cfe, mm.dwr, mm.t_weighted, mm.t_sched, mm.t_floor};
    dh_bbv_metrics_shape(b, cyc, inst, order, &s, &mm);
    m->own = (struct dh_model_point){mm.cfe, mm.dwr, mm.t_weighted, mm.t_sched, mm.t_floor};
    /* the CFE at the other warp width too (the device's own is m->own) */
    if (W == 32) {
        m->cfe32 = m->own.cfe;
    } else {
        dh_bbv_metrics(b, cyc, inst, order, 32, m->wg, m->cus, m->slots, &mm);
        m->cfe32 = mm.cfe;
    }
    if (W == 64) {
        m->cfe64 = m->own.cfe;
    } else {
        dh_bbv_metrics(b, cyc, inst, order, 64, m->wg, m->cus, m->slots, &mm);
        m->cfe64 = mm.cfe;
    }
    m->valid = 1;
}
