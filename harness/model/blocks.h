/* blocks.h — what the BBV model needs from a benchmark: its marked basic
 * blocks with their operation counts, and the per-item block counts of one
 * workload (the basic-block vectors). Benchmarks declare these through
 * suites/suite.h; the model (bbv.h) prices them.
 *
 * harness/model/ owns the BBV model, its metrics, the remap ceiling and the
 * model-vs-measurement summary. It may call results/, harness/support/ and
 * backends/; the run engine, the statistics and the report call it. */
#ifndef DH_BLOCKS_H
#define DH_BLOCKS_H

#include <stdint.h>

/* ---- basic-block vectors (see suites/lib/dialect.h DH_BB and bbv.h) ----
 * A benchmark lists its marked blocks in id order, each with the
 * operations one execution performs, counted in the kernel source by
 * class (the latency table of a device class prices each class). */
struct dh_bb_ops {
    float fp;     /* fp32 add, mul, fma, min, max, abs */
    float alu;    /* int32 add, sub, logic, shift, compare, select, min, max, abs */
    float mul;    /* int32 multiply (or multiply-add); a 64-bit multiply is 3 */
    float div;    /* int32 divide or remainder by a variable (a 64-bit one is 3) */
    float ldg;    /* load from global memory */
    float stg;    /* store to global memory */
    float lds;    /* local (shared) memory load or store */
    float atom;   /* local-memory atomic */
    float bar;    /* work-group barrier */
    float br;     /* branch: a condition tested, a loop iteration, a switch */
    float fdivz;  /* an fp32 division with a zero operand: where the IEEE division
                     (CUDA's default, div.rn.f32) checks its operands (FCHK) and
                     calls its slow path; counted by a block of its own under the
                     operands' test (bbv/mc's divz blocks) */
};
struct dh_bb_def {
    const char *name;
    struct dh_bb_ops ops;
    /* (optional) A guarded conditional: the name of the block whose code
     * this block's sits inside as guarded (if-converted, predicated)
     * instructions, e.g. pol's "one_brk_x" in "one_brk". A warp issues
     * them whenever it runs that block, whichever of its lanes take them
     * (the BBV counts those); the hand costs price it so (bbv.h
     * dh_bbv_guard_parents). NULL: a block reached by a branch. */
    const char *guarded_in;
    /* (optional) A side decided afresh in each iteration of a loop: the
     * name of the block that counts the loop's iterations (darm/ms's
     * "step" for its take-left and take-right sides; rodinia/bfs's
     * "edge" for its discover). A warp runs this block in every
     * iteration in which any of its lanes takes it, which the lanes'
     * totals cannot tell from the max of them: the model prices it by
     * the expected number of such iterations (bbv.h, "Blocks decided
     * each iteration"). NULL: the max over the lanes. */
    const char *each;
};

/* Per-item BBVs of one workload, handed to a benchmark's run (cpu_tdr
 * regroupings) by the worker. counts[item * n_blocks + block]. */
struct dh_bbv {
    long n_items;
    int n_blocks;
    const uint32_t *counts;
    const double *block_cost;   /* modeled cycles of one execution, per block */
    const double *block_inst;   /* issued instructions of one execution, per block,
                                   with block_cost: costs from compiled code
                                   (DH_BLOCK_COSTS=sass); NULL: the latency table's */
    char costs[16];             /* where the block costs come from: "hand", "sass",
                                   "sass+hand", "sass+pred", "measured" */
    /* DH_BLOCK_COSTS=sass+pred, else NULL: per block, the guarded
     * (if-converted) part of block_inst / block_cost and the block
     * around it (-1 none). A warp issues the guarded part whenever it
     * runs the parent: warp instructions gain pred_inst[b] x
     * max_{t in w} BBV_t[parent(b)] in place of pred_inst[b] x
     * max_{t in w} BBV_t[b]; the lanes' useful instructions do not. */
    const double *pred_inst, *pred_cost;
    const int *parent;
    /* Ordered BBVs (DH_BBV_WINDOW=K), else n_windows 1 and win_counts
     * NULL: item i's counts in window k at win_counts[(i * n_windows + k)
     * * n_blocks]; counts above is their sum over the windows. The warp
     * cost and modeled CFE then take the max over lanes per window and sum
     * the windows (bbv.h). */
    int n_windows;
    int window;                 /* K: iterations per window (0: windows off) */
    const uint32_t *win_counts;
    double acquire_ms;          /* what obtaining them cost (profiling run + download) */
    char source[16];            /* "profile" */
    /* Costs measured per instruction (DH_BLOCK_COSTS=measured,
     * measured.h), else NULL: per block, the predicated-on instructions a
     * lane does per execution, the lanes' useful work in modeled CFE in
     * place of block_inst (which then holds what a warp issues). */
    const double *useful_inst;
    /* Blocks decided each iteration (dh_bb_def.each), else NULL: per
     * block, the block that counts its loop's iterations, -1 none. */
    const int *each;
};

#endif
