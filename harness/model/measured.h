/* measured.h — block costs measured per instruction: the counts a
 * device gives for every instruction of a pass (CUDA: CUPTI's SASS
 * metrics, backends/backend.h dh_pc_count), mapped through the listing of
 * the same build (sass.h: each instruction to its DH_BB block) and
 * divided by how many times the lanes ran each block (the BBVs).
 *
 * Per block k, with T_k, O_k and C_k the thread instructions (active
 * lanes), the predicated-on thread instructions and the issue cycles
 * (each instruction's thread count x its opcode's cost) of its code, and
 * n_k its lane executions (BBV totals):
 *   inst[k]   = T_k / n_k   what a warp issues each time it runs k
 *               (averaged: loops, data-dependent paths and called
 *               subroutines as they ran);
 *   cycles[k] = C_k / n_k;
 *   useful[k] = O_k / n_k   what a lane does with it, predicated-off
 *               issues (a division's corrections) left out.
 * A block declared guarded in a parent p (if-converted: its code issued
 * whenever the warp runs p) is divided by n_p instead, and its whole
 * cost is the guarded part (pred_inst, pred_cost), as bbv.h prices it.
 * A subroutine's instructions go to the blocks that call it, in
 * proportion to the lanes of each call. docs/model.md tells the method
 * and what it measured. */
#ifndef DH_MEASURED_H
#define DH_MEASURED_H

#include "../../backends/backend.h"
#include "../../backends/errors.h"

struct dh_measured {
    int nb;
    double *inst, *cycles, *useful;     /* nb each, one allocation */
    double *pred_inst, *pred_cost;      /* guarded blocks' (0 elsewhere) */
    int *priced;                        /* 1: from the counts; 0: no lane ran it */
    double thread_total, thread_blocks; /* thread instructions: counted, in blocks */
    double on_total, on_blocks;         /* predicated-on ones */
    double warp_total;                  /* warp instructions counted */
    double thread_unpriced;             /* of thread_blocks, in blocks no lane ran */
    long unmatched;                     /* counted instructions the listing lacks */
    int funcs;                          /* functions with counts */
};

/* pc[0..n_pc): the counts; lanes[k]: block k's lane executions; parent:
 * a guarded block's parent, -1 elsewhere (NULL: none guarded). Counted
 * instructions the listing does not hold (the run's code is not the
 * listed build's) are an error naming the first. */
int dh_measured_costs(const char *listing, const char *source, const char *options,
                      const struct dh_pc_count *pc, long n_pc, const double *lanes,
                      const int *parent, int nb, struct dh_measured *out, struct dh_err *err);
void dh_measured_free(struct dh_measured *m);

#endif
