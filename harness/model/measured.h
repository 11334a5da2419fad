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
 * Code the compiler if-converted or hoisted out of its block (predicated,
 * or run by every lane and selected) is issued whenever the warp runs the
 * block around it, with that block's lanes: an instruction of k whose
 * active lanes per issue (T_i / warp issues) are nearer the block
 * around's lanes per warp execution than k's own (the model's: lanes /
 * warp executions, from the BBVs) is priced with the block around, as
 * its code. The block around: k's declared guard (dh_bb_def.guarded_in),
 * else where the listing puts the instruction with k unmarked. Code run
 * by fewer lanes than its block, by exactly as many lanes as ran one
 * block the listing gives no code of its own, and issued exactly as
 * often as the model counts that block's warp executions, is that
 * block's (a division's slow path, a call and its subroutine, under a
 * test the profiling build marks: bbv/mc's divz blocks; blocks with code
 * of their own are no candidates: in bit's network their counts match so
 * by coincidence). A subroutine's instructions go to the blocks that
 * call it, in proportion to the lanes of each call. docs/model.md tells
 * the method and what it measured. */
#ifndef DH_MEASURED_H
#define DH_MEASURED_H

#include <stdio.h>

#include "../../backends/backend.h"
#include "../../backends/errors.h"

struct dh_measured {
    int nb;
    double *inst, *cycles, *useful;     /* nb each, one allocation */
    int *priced;                        /* 1: from the counts; 0: no lane ran it */
    double thread_total, thread_blocks; /* thread instructions: counted, in blocks */
    double on_total, on_blocks;         /* predicated-on ones */
    double warp_total, warp_blocks;     /* warp instructions: counted, in blocks */
    double thread_unpriced;             /* of thread_blocks, in blocks no lane ran */
    double thread_moved;                /* of thread_blocks, priced with the block around */
    long unmatched;                     /* counted instructions the listing lacks */
    int funcs;                          /* functions with counts */
};

/* pc[0..n_pc): the counts; lanes[k]: block k's lane executions; warps[k]:
 * its warp executions as the model counts them (NULL: only declared
 * guards move, all of their code); parent: a declared guard's block, -1
 * elsewhere (NULL: none declared). Counted
 * instructions the listing does not hold (the run's code is not the
 * listed build's) are an error naming the first. */
int dh_measured_costs(const char *listing, const char *source, const char *options,
                      const struct dh_pc_count *pc, long n_pc, const double *lanes,
                      const double *warps, const int *parent, int nb, struct dh_measured *out,
                      struct dh_err *err);
void dh_measured_free(struct dh_measured *m);

/* Per-instruction counts as text, to price them on another machine
 * (DH_MEASURED_DUMP / DH_MEASURED_LOAD): a first line
 * "# divharness pc counts 1: KEY" (KEY: the workload the counts are of),
 * then "FUNC<TAB>PC<TAB>INST<TAB>THREAD<TAB>PRED_ON" a line, PC in hex.
 * Reading is strict: a line that is not that, a number out of range, or
 * another KEY is an error naming the line (*out NULL then). */
int dh_pc_counts_write(FILE *f, const char *key, const struct dh_pc_count *pc, long n);
int dh_pc_counts_read(const char *text, const char *key, struct dh_pc_count **out, long *n,
                      struct dh_err *err);

#endif
