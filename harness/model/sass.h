/* sass.h — block costs from the compiled kernel: nvdisasm's listing of a
 * CUBIN (`nvdisasm -c -gi`, source lines with their inlining chains)
 * parsed into instructions, each instruction mapped through its source
 * lines to the DH_BB block whose region holds it, and per block: the
 * instructions, their issue cost under a per-opcode table for sm_90, and
 * how many run under a predicate guard (if-converted code).
 *
 * Pure text processing: no vendor header, no device. The compile and the
 * disassembler run in sasscost.c. docs/model.md tells the method and its
 * limits (loops, lines that hold several markers). */
#ifndef DH_SASS_H
#define DH_SASS_H

#include <stddef.h>

#include "../../backends/errors.h"

#define DH_SASS_FRAMES 8          /* deeper inlining chains keep their outer 8 */
#define DH_SASS_FILES 32

/* One source position: file (index into dh_sass.files) and line. */
struct dh_sass_frame {
    int file;
    int line;
};

struct dh_sass_inst {
    int func;                     /* index into dh_sass.funcs */
    unsigned addr;                /* byte offset in its function */
    char op[32];                  /* opcode with its modifiers: "IMAD.WIDE.U32" */
    char args[96];                /* the operands as written: "R5, R5, 0x80, RZ" */
    int pred;                     /* under a guard other than @PT (@P0, @!P1, @UP0) */
    long target;                  /* a branch's or call's target address, else -1 */
    int sub;                      /* in a subroutine the kernel calls ($__internal_...:
                                     64-bit division, say): priced at its CALL */
    int n_frames;                 /* fr[0] the innermost line ... the kernel's own last */
    struct dh_sass_frame fr[DH_SASS_FRAMES];
};

struct dh_sass {
    struct dh_sass_inst *v;
    int n, cap;
    char files[DH_SASS_FILES][256];
    int n_files;
    char (*funcs)[128];
    int n_funcs, cap_funcs;
};

/* Parse nvdisasm output (with or without -g/-gi line comments). Labels
 * resolve branch targets. 0, or -DH_E_DATA naming the line that could
 * not be read; s is freed with dh_sass_free either way. */
int dh_sass_parse(const char *text, struct dh_sass *s, struct dh_err *err);
void dh_sass_free(struct dh_sass *s);
/* The function named `name`, or -1. */
int dh_sass_func(const struct dh_sass *s, const char *name);

/* ---- the per-opcode issue cost for sm_90 ----
 * Cycles one warp instruction occupies its sub-partition's pipe:
 * 128 / (results per clock per SM) from the CUDA C Programming Guide's
 * "Arithmetic Instructions" throughput table, compute capability 9.0
 * (FP32 128 -> 1; int32 add/compare/logic/shift/multiply 64 -> 2; FP64
 * 64 -> 2; MUFU 16 -> 8; conversions 16 -> 8; shuffles 32 -> 4; popc,
 * brev, flo 16 -> 8). Memory, control, uniform-datapath and moves cost
 * one issue (their latency and bandwidth are not issue cost). Longest
 * matching opcode prefix wins ("IMAD.WIDE" before "IMAD"). *known = 0
 * for an opcode outside the table (priced 1). */
double dh_sass_op_cost(const char *op, int *known);
/* A control-flow instruction (BRA, EXIT, ...): guarded, it is a branch,
 * not if-converted code, and is not counted as predicated. */
int dh_sass_op_is_branch(const char *op);
/* The table as text, one "PREFIX COST" line each (docs, `harness blocks`). */
void dh_sass_cost_table(char *out, size_t len);

/* ---- markers in the source ----
 * Scans a kernel source as the harness assembles it (its #line
 * directives name each part's file) for DH_BB(id) / DH_BB_N(id, n), also
 * inside function-like macros used on a line, with id an integer
 * expression over numbers and object-like #defines (and the build's
 * -D NAME=VALUE options). A marker's region: from its line to the line
 * before the next marker of the same brace scope, or to the scope's
 * closing brace; an inner region wins over the one around it. An id
 * that is a parameter of its function (`DH_BB(bb + 1)` in f(..., int bb))
 * is bound per call site: the argument written in each call of f. */
struct dh_bb_marker {
    char file[256];
    int line;
    int first;                    /* the region's first line: line, or for a kernel's
                                     first marker at the top of its body, the body's
                                     first line (its prologue runs on every lane);
                                     0: line */
    int last;                     /* the region's last line */
    int id;                       /* -1: the id did not evaluate (a runtime value, or
                                     a parameter: see func) */
    char func[64];                /* id = a parameter of this function (+ offset):
                                     bound at each call site; "" otherwise */
    int param;
    long offset;
    int n_form;                   /* DH_BB_N: the block counts loop iterations */
    long count;                   /* DH_BB_N's count when constant, else -1 */
    int scope;                    /* the enclosing '{' (order of appearance) */
};
/* A `for` whose trip count is constant: `for ([int] v = A; v OP B; STEP)`
 * with OP < <= > >= != and STEP v++ ++v v-- --v v += k v -= k. */
struct dh_bb_loop {
    char file[256];
    int line;
    long trips;
};
/* A call of a function whose marker ids are its parameters, with the
 * arguments that evaluate (others LONG_MIN). */
struct dh_bb_call {
    char file[256];
    int line;
    char func[64];
    char caller[64];              /* the function the call is in */
    long args[8];
    int arg_param[8];             /* an argument that is the caller's parameter
                                     (+ arg_off): its index, else -1 */
    long arg_off[8];
};
struct dh_bb_markers {
    struct dh_bb_marker *v;
    int n;
    struct dh_bb_call *calls;
    int n_calls, cap_calls;
    struct dh_bb_loop *loops;
    int n_loops, cap_loops;
    int unresolved;               /* markers whose id did not evaluate */
    char first_unresolved[160];   /* "file:line: text" of the first */
};
int dh_bb_markers_scan(const char *source, const char *options, struct dh_bb_markers *m,
                       struct dh_err *err);
void dh_bb_markers_free(struct dh_bb_markers *m);

/* The block of an instruction: its frames from the innermost out, the
 * first that lies in a marker's region decides. -1: no marked region
 * (the kernel's own prologue, say); -2: the deciding line holds markers
 * of several blocks (a macro that marks two blocks on one line), and
 * pair (may be NULL) gets two of them. */
int dh_sass_block_of(const struct dh_sass *s, const struct dh_sass_inst *in,
                     const struct dh_bb_markers *m, int pair[2]);

/* A listing parsed and a source's markers scanned, what the mapping reads;
 * on an error neither holds anything (nothing to free). */
int dh_sass_load(const char *listing, const char *source, const char *options,
                 struct dh_sass *s, struct dh_bb_markers *m, struct dh_err *err);

/* The block an instruction of `block` would belong to were `block` not
 * marked: the block around it (-1 none, -2 a shared line). */
int dh_sass_block_outer(const struct dh_sass *s, const struct dh_sass_inst *in,
                        const struct dh_bb_markers *m, int block);

/* The step of a loop counter updated by `in` (IADD3/VIADD Rx, Rx, imm),
 * else 0: a loop's unroll where the source counts by 1. */
long dh_sass_counter_step(const struct dh_sass_inst *in);

/* Per block of one function. */
struct dh_sass_block {
    int insts;                    /* static instructions mapped to the block */
    int predicated;               /* of those, under a guard (branches excluded) */
    double cost;                  /* their issue cost */
    int loop_insts;               /* inside a loop whose back branch is the block's */
    double loop_cost;
    int unroll;                   /* its loops' largest counter step (1: none found);
                                     without loops, the largest count of one
                                     (opcode, line) in the block */
    int loops, loops_unknown;     /* its loops; of those, trip count not constant */
    double dyn_insts, dyn_cost;   /* one pass: a loop's instructions x trips / unroll
                                     (x 1 where the trip count is not constant) */
    double dyn_pred, dyn_pred_cost;   /* the same of the guarded ones */
    int loop_pred;
    double loop_pred_cost;
    int shared;                   /* instructions on a line it shares with another
                                     block: given to neither */
    int unknown_ops;              /* opcodes outside the cost table */
    int called;                   /* of insts, in subroutines it calls */
    int n_form;                   /* marked with DH_BB_N somewhere */
    long count;                   /* that DH_BB_N's constant count, else -1 */
    /* per execution of the block (what the model multiplies by its
     * count): DH_BB: one pass; DH_BB_N with a constant count N: one
     * pass / N; DH_BB_N otherwise: its loops' instructions / unroll (a
     * loop's body once per iteration), or (no loop: unrolled in full)
     * all / the largest (opcode, line) count */
    double inst_per_exec, cost_per_exec;
    /* of those, under a guard (branches excluded), per execution */
    double pred_per_exec, pred_cost_per_exec;
    /* the block around it: where its instructions map when it is not
     * marked (the most of them agree); -1 none. A warp issues a guarded
     * (if-converted) instruction whenever it runs the parent's code. */
    int parent;
};
/* Fill out[0..nb-1] for function `func`; *unmarked counts the function's
 * instructions outside every marked region, *shared_lines those on lines
 * of several blocks (not given to any). */
void dh_sass_blocks(const struct dh_sass *s, int func, const struct dh_bb_markers *m, int nb,
                    struct dh_sass_block *out, int *unmarked, int *shared);

#endif
