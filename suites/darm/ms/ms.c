/* darm/ms — bottom-up merge sort, one merge per work-item (DARM's "MS"),
 * declared on the kit (suites/lib/kit.h). Kernel: ms.k (read it first).
 * A run is log2(n) launches, one a pass (width 2, 4, .. n), all timed;
 * each launch has 1024 work-groups of wg (DARM's grid), capped at one
 * work-item an element where n is smaller (the capped work-items would
 * have no merge at any width).
 * Variants:
 *   baseline            the take-left / take-right if-else as written
 *   melded[meld=darm]   the two sides melded, DARM's way, on the step as
 *                       -O3 leaves it (load PRE makes the sides' loads
 *                       the condition's): one store of the selected key,
 *                       one add of the selected index, the indices' phis
 *                       selects; the condition's chain as written
 *   melded[meld=pred]   if-converted: both run heads loaded (clamped), the
 *                       condition without short-circuit, the key a select
 *                       (not DARM's form)
 * gpu_tdr and cpu_tdr do not apply (`.absent` says why).
 *
 * Input: n 64-bit keys, each drawn from its own counter stream modulo
 * `range` (DARM's: rand() % 1024, many equal keys; the sweep adds
 * 2^31 - 1, nearly distinct). The passes ping-pong between a scratch
 * buffer and `out` from the pristine input (a repetition never sees its
 * own output). Verification is exact: out equals the sorted input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_darm_ms[];   /* ms.k, embedded by make */

static const struct dh_param_def params[] = {
    {"range", DH_P_WORKLOAD, "int:2..2147483647", "1024", NULL, "keys are uniform in [0, range): DARM's 1024 (many equal keys) or up to 2^31 - 1 (nearly distinct)"},
    DH_KIT_SEED,
    {"meld", DH_P_CHOICE, "enum:darm,pred", "darm", "melded", "the melded step: darm = the if-else's two sides melded on the step as -O3 leaves it (the sides' loads are the condition's): one store of the selected key, one add of the selected index; the condition's chain as written, pred = if-converted (both run heads loaded from clamped indices, no short-circuit, the key a select; not DARM's form)"},
    {"wg", DH_P_TUNABLE, "int:32,64,128,256", "64", NULL, "work-group size (the answer does not change; the launch is 1024 work-groups, so it sets the work-items and the merges each takes)"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"range=1024", "range=2147483647", NULL};

enum { IN, TMP, OUT };
static const struct dh_kbuf bufs[] = {
    [IN] = {"in", DH_T_I64, DH_IN, "items", DH_KB_ROTATE},
    [TMP] = {"tmp", DH_T_I64, DH_SCRATCH, "items"},
    [OUT] = {"out", DH_T_I64, DH_OUT, "items"},           /* exact */
};

/* the arguments are the launch hook's (src dst size width slices) */
static const struct dh_kentry entries[] = {
    {"baseline", "ms_base", "in out items 2 1"},
    {"melded", "ms_meld", "in out items 2 1"},
    {0},
};

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int ms_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    int64_t *in = h->data[IN];
    uint64_t range = (uint64_t)dh_pset_num(&h->vars, "range", 1024);
    uint64_t seed = 0x3e75ULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        in[i] = (int64_t)(mix(seed ^ ((uint64_t)i * 0xd1342543de82ef95ULL)) % range);
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int ms_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    int64_t *want = h->want[OUT];
    memcpy(want, h->data[IN], (size_t)h->items * sizeof *want);
    qsort(want, (size_t)h->items, sizeof *want, cmp_i64);
    return 0;
}

/* The passes w = 2, 4, .. while w < 2n, DARM's loop: pass p reads the
 * input (p = 0) or the previous pass's output and writes `out` when an
 * even number of passes follow it, `tmp` otherwise (the last writes out). */
static int ms_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                     struct dh_err *err)
{
    long n = r->h->items, wg = (long)dh_pset_num(&r->x->c->params, "wg", 64);
    long threads = 1024 * wg < n ? 1024 * wg : n;
    int passes = 0;
    for (long w = 2; w < 2 * n; w *= 2)
        passes++;
    char args[96];
    *kernel_ms = 0;
    int p = 0;
    for (long w = 2; w < 2 * n; w *= 2, p++) {
        const char *src = p == 0 ? "in" : (passes - p) % 2 == 0 ? "out" : "tmp";
        const char *dst = (passes - 1 - p) % 2 == 0 ? "out" : "tmp";
        long slices = n / (threads * w) + 1;
        snprintf(args, sizeof args, "%s %s %ld %ld %ld", src, dst, n, w, slices);
        struct dh_kentry k = {e->variant, e->entry, args};
        double ms = 0;
        int rc = dh_kit_launch(r, &k, (size_t)threads, &ms, err);
        if (rc)
            return rc;
        *kernel_ms += ms;
    }
    return 0;
}

/* Blocks marked in ms.k (MS_BB_*), operations per execution counted in
 * the source (64-bit compares and address arithmetic as two): item, the
 * first start (a 64-bit multiply) and the idle test; slice, middle and
 * end (two minimums), the loop's set-up and next start, the slices loop's
 * test; step, the loop test, the condition's three compares (two index,
 * one key) and its two loads, its branches; left and right, the load,
 * the store, the increment and the join. Left and right are decided afresh
 * in each step (`each`): a warp runs a side in every step one of its
 * lanes takes it. */
static const struct dh_bb_def blocks[] = {
    {"item", {.alu = 4, .mul = 2, .br = 1}},
    {"slice", {.alu = 10, .br = 2}},
    {"step", {.alu = 8, .ldg = 2, .br = 4}},
    {"left", {.alu = 5, .ldg = 1, .stg = 1, .br = 1}, .each = "step"},
    {"right", {.alu = 5, .ldg = 1, .stg = 1, .br = 1}, .each = "step"},
};

static const struct dh_kit kit = {
    .sizes = {"n=65536", "n=1048576", "n=4194304"},
    .items = "n", .noun = "keys",
    .define = "MS_MELD = meld",
    DH_KIT_TABLES(bufs, entries),
    .generate = ms_generate, .reference = ms_reference, .launch = ms_launch,
};

const struct dh_bench dh_bench_darm_ms = {
    .suite = "darm", .name = "ms", .source = dh_src_darm_ms,
    .summary = "bottom-up merge sort, one merge per work-item (DARM's MS): a data-dependent "
               "take-left / take-right if-else every iteration, log2(n) launches, a serial tail",
    .params = params, .sweep = sweep, .variants = "baseline,melded",
    .absent = "gpu_tdr: the take branch is decided afresh every iteration by the lane's two "
              "run heads, so no regrouping at any point aligns the lanes' future decisions, "
              "and the merges are positional (a work-item's runs are fixed by its index); "
              "cpu_tdr: reordering the input changes the runs every merge reads, not which "
              "lanes decide alike (there is no per-item key of the decisions)",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit),
};
