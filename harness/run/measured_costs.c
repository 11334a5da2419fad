/* measured_costs.c — DH_BLOCK_COSTS=measured: the model's block costs
 * from per-instruction counts of the baseline kernel as it ran on the
 * device (CUDA: CUPTI SASS metrics), mapped to the blocks through the
 * listing of the same build (harness/model/measured.h). One pass of its
 * own after the timed runs, at the workload's baseline case; the
 * workload's later cases (its cpu_tdr regroupings) are priced with the
 * same costs. A case priced before its workload's baseline ran keeps the
 * costs it would have had. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/measured.h"
#include "../model/sasscost.h"
#include "source.h"
#include "steps.h"

int dh__measured_install(struct dh_worker *w, int nb)
{
    if (!w->bbv_meas || !w->bbv_cost)
        return 0;
    memcpy(w->bbv_cost, w->bbv_meas, (size_t)nb * sizeof *w->bbv_cost);
    w->bbv.block_inst = w->bbv_meas + nb;
    w->bbv.useful_inst = w->bbv_meas + 2 * nb;
    w->bbv.pred_inst = w->bbv_meas + 3 * nb;
    w->bbv.pred_cost = w->bbv_meas + 4 * nb;
    w->bbv.parent = w->bbv_mparent;
    snprintf(w->bbv.costs, sizeof w->bbv.costs, "measured");
    return 1;
}

/* A per-block table for DH_MEASURED_DUMP=DIR: DIR/<suite>-<bench>.tsv,
 * a section each workload (appended). */
static void dump(const struct dh_case *c, const struct dh_measured *m, const double *lanes)
{
    const char *dir = getenv("DH_MEASURED_DUMP");
    if (!dir || !*dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%s.tsv", dir, c->suite, c->bench_name);   /* a workload a section */
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "harness: DH_MEASURED_DUMP: cannot write %s\n", path);
        return;
    }
    fprintf(f, "# %s/%s %s: thread instructions %.6g (%.4f in blocks), predicated-on %.6g "
            "(%.4f in blocks), warp instructions %.6g, CFE %.4f\n",
            c->suite, c->bench_name, c->id, m->thread_total,
            m->thread_total > 0 ? m->thread_blocks / m->thread_total : 0, m->on_total,
            m->on_total > 0 ? m->on_blocks / m->on_total : 0, m->warp_total,
            m->warp_total > 0 ? m->on_total / (32 * m->warp_total) : 0);
    fprintf(f, "block\tname\tlanes\tinst\tuseful\tcycles\tguarded\n");
    for (int k = 0; k < m->nb; k++)
        fprintf(f, "%d\t%s\t%.0f\t%.4f\t%.4f\t%.4f\t%d\n", k,
                c->bench->blocks && c->bench->blocks[k].name ? c->bench->blocks[k].name : "?",
                lanes[k], m->inst[k], m->useful[k], m->cycles[k], m->pred_inst[k] > 0);
    fclose(f);
}

int dh__measured_costs(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x)
{
    const struct dh_bench *b = c->bench;
    const char *sel = getenv("DH_BLOCK_COSTS");
    if (!sel || strcmp(sel, "measured") || w->bbv_meas_tried || strcmp(c->variant, "baseline") ||
        !w->bbv.counts)
        return 0;
    w->bbv_meas_tried = 1;
    int nb = b->n_blocks, cc = 0;
    struct dh_err e = {0};
    struct dh_pc_count *pc = NULL;
    long n_pc = 0;
    char opts[4096], *src = NULL, *listing = NULL;
    double *lanes = calloc((size_t)(nb > 0 ? nb : 1), sizeof *lanes);
    int *parent = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *parent);
    double *meas = malloc((size_t)(nb > 0 ? nb : 1) * 5 * sizeof *meas);
    struct dh_measured m = {0};
    int rc;
    if (!lanes || !parent || !meas) {
        rc = dh_err_set(&e, DH_E_RESOURCES, "out of host memory");
        goto out;
    }
    if (sscanf(w->info.arch, "sm_%d", &cc) != 1 || strcmp(w->info.platform, "CUDA")) {
        rc = dh_err_set(&e, DH_E_USAGE, "device %s is not a CUDA sm_XY one: run with "
                        "--backend cuda", w->info.name);
        goto out;
    }
    /* the counters pass's counts, or a pass of their own */
    if (w->pcs) {
        pc = w->pcs;
        n_pc = w->n_pcs;
        w->pcs = NULL;
        w->n_pcs = 0;
    } else if ((rc = dh__pc_pass(w, c, x, &pc, &n_pc, &e))) {
        goto out;
    }
    if (dh_source_options(c, &w->info, opts, sizeof opts) || !(src = dh_source_assemble(c))) {
        rc = dh_err_set(&e, DH_E_INTERNAL, "cannot assemble the baseline build");
        goto out;
    }
    if ((rc = dh_sass_listing(cc, src, opts, &listing, &e)))
        goto out;
    for (long i = 0; i < w->bbv.n_items; i++)
        for (int k = 0; k < nb; k++)
            lanes[k] += w->bbv.counts[(size_t)i * nb + k];
    for (int k = 0; k < nb; k++)
        parent[k] = -1;
    struct dh_err eg = {0};
    if (dh_bbv_guard_parents(b->blocks, nb, parent, &eg) < 0)
        for (int k = 0; k < nb; k++)
            parent[k] = -1;
    if ((rc = dh_measured_costs(listing, src, opts, pc, n_pc, lanes, parent, nb, &m, &e)))
        goto out;
    dump(c, &m, lanes);
    for (int k = 0; k < nb; k++) {
        /* a block no lane ran keeps the cost it had (it weighs nothing) */
        meas[k] = m.priced[k] ? m.cycles[k] : w->bbv_cost[k];
        meas[nb + k] = m.priced[k] ? m.inst[k]
                       : w->bbv.block_inst ? w->bbv.block_inst[k] : w->bbv_cost[k];
        meas[2 * nb + k] = m.priced[k] ? m.useful[k] : meas[nb + k];
        meas[3 * nb + k] = m.pred_inst[k];
        meas[4 * nb + k] = m.pred_cost[k];
        if (m.pred_inst[k] <= 0)
            parent[k] = -1;
    }
    fprintf(stderr, "harness: measured block costs for %s/%s: %d function%s, %.1f%% of the "
            "thread instructions in blocks\n", c->suite, c->bench_name, m.funcs,
            m.funcs == 1 ? "" : "s",
            m.thread_total > 0 ? 100 * m.thread_blocks / m.thread_total : 0);
    w->bbv_meas = meas;
    w->bbv_mparent = parent;
    meas = NULL;
    parent = NULL;
    dh__measured_install(w, nb);
out:
    static char said[sizeof e.msg];          /* the same reason once a process */
    if (rc && strcmp(said, e.msg)) {
        snprintf(said, sizeof said, "%s", e.msg);
        fprintf(stderr, "harness: DH_BLOCK_COSTS=measured for %s/%s: %s; the costs stay %s\n",
                c->suite, c->bench_name, e.msg, w->bbv.costs[0] ? w->bbv.costs : "hand");
    }
    dh_measured_free(&m);
    free(pc);
    free(src);
    free(listing);
    free(lanes);
    free(parent);
    free(meas);
    return rc == 0;
}
