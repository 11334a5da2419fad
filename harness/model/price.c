/* price.c — see price.h. */
#include "price.h"

#include <stdio.h>

void dh_model_price(const struct dh_bbv *b, const struct dh_bb_def *blocks,
                    const struct dh_latency_table *t, const struct dh_device_info *info,
                    int wg, const int *order, long n_classes, struct dh_model_result *m)
{
    double cyc[256], inst[256];
    int nb = b->n_blocks < 256 ? b->n_blocks : 256;
    dh_bbv_block_costs(blocks, nb, t, cyc, inst);
    if (b->block_inst && b->block_cost)          /* costs from the compiled code */
        for (int k = 0; k < nb; k++) {
            cyc[k] = b->block_cost[k];
            inst[k] = b->block_inst[k];
        }
    snprintf(m->costs, sizeof m->costs, "%s", b->costs[0] ? b->costs : "hand");
    int W = info->warp_width > 0 ? info->warp_width : 32;
    m->warp_width = W;
    m->wg = wg;
    m->cus = info->compute_units > 0 ? info->compute_units : 1;
    m->slots = dh_bbv_slots(t, m->wg);
    snprintf(m->table, sizeof m->table, "%s", t->name);
    snprintf(m->bbv_source, sizeof m->bbv_source, "%s", b->source);
    m->n_blocks = nb;
    m->n_items = b->n_items;
    m->n_classes = n_classes;
    m->acquire_ms = b->acquire_ms;
    m->window = b->win_counts && b->n_windows > 1 ? b->window : 0;
    m->windows = b->win_counts && b->n_windows > 1 ? b->n_windows : 1;
    struct dh_bbv_metrics mm;
    dh_bbv_metrics(b, cyc, inst, NULL, W, m->wg, m->cus, m->slots, &mm);
    m->base = (struct dh_model_point){mm.cfe, mm.dwr, mm.t_weighted, mm.t_sched};
    dh_bbv_metrics(b, cyc, inst, order, W, m->wg, m->cus, m->slots, &mm);
    m->own = (struct dh_model_point){mm.cfe, mm.dwr, mm.t_weighted, mm.t_sched};
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
