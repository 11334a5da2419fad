/* price.c — see price.h. */
#include "price.h"

#include <math.h>
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

/* where the divergence is (record.h dh_model_waste): per block, cycles x
 * the lanes issued for it that did not run it, plus its if-converted
 * part's cost x w lanes for each issue beyond its own executions; the
 * DH_MODEL_WASTE blocks that waste most kept, most first (ties: the
 * earlier block). Nothing where the pass runs out of memory. */
static void model_waste(const struct dh_bbv *b, const struct dh_bb_def *blocks,
                        const double *cyc, const int *order, int w, struct dh_model_result *m)
{
    int nb = b->n_blocks;
    m->n_waste = 0;
    m->waste_total = m->issued_total = 0;
    struct dh_bbv_block_use *u = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *u);
    double *waste = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *waste);
    if (!u || !waste || dh_bbv_block_use(b, order, w, u)) {
        free(u);
        free(waste);
        return;
    }
    for (int k = 0; k < nb; k++) {
        double c = k < 256 ? cyc[k] : 0;
        double pc = b->pred_cost ? b->pred_cost[k] : 0;
        double pred = pc * (double)w * (double)u[k].pred_extra;
        /* with costs measured per instruction, a lane's predicated-off
         * issues in the block are waste too */
        double used = (double)u[k].used;
        if (b->useful_inst && b->block_inst && b->block_inst[k] > 0)
            used *= b->useful_inst[k] / b->block_inst[k];
        waste[k] = c * ((double)u[k].issued - used) + pred;
        m->waste_total += waste[k];
        m->issued_total += c * (double)u[k].issued + pred;
    }
    while (m->n_waste < DH_MODEL_WASTE) {
        int best = -1;
        for (int k = 0; k < nb; k++)
            if (waste[k] > 0 && (best < 0 || waste[k] > waste[best]))
                best = k;
        if (best < 0)
            break;
        struct dh_model_waste *x = &m->waste[m->n_waste++];
        snprintf(x->block, sizeof x->block, "%s",
                 blocks && blocks[best].name ? blocks[best].name : "?");
        x->lane_cycles = waste[best];
        x->share = m->waste_total > 0 ? waste[best] / m->waste_total : NAN;
        x->eff = u[best].issued ? (double)u[best].used / (double)u[best].issued : NAN;
        waste[best] = 0;
    }
    free(u);
    free(waste);
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
    model_waste(b, blocks, cyc, order, W, m);
    m->valid = 1;
}
