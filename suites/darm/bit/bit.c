/* darm/bit — in-block bitonic sort (DARM's "BIT", its paper's running
 * example, Fig. 1), declared on the kit (suites/lib/kit.h). Kernel: bit.k
 * (read it first). Each work-group sorts a segment of bs ints in local
 * memory; a run is one launch.
 * Variants:
 *   baseline             the direction branch with a compare-and-swap on
 *                        each side, as in the paper's Fig. 1
 *   melded[meld=darm]    the two sides melded region to region, DARM's
 *                        way: the loads and the swap once, one compare
 *                        with operands selected by the direction; the
 *                        swap stays a (data) branch, p > t a branch
 *   melded[meld=pred]    the if-converted comparator (min, max, two
 *                        unconditional stores): not DARM's form, the
 *                        comparison every melding study needs
 *   gpu_tdr[alg=static]  the static comparator mapping: the first bs/2
 *                        work-items take the step's comparators, so the
 *                        active lanes are contiguous (whole warps idle
 *                        from bs 64 on); the baseline's comparator
 * cpu_tdr does not apply (`.absent` says why).
 *
 * `bs` (32, 64, 128, 256) is a workload parameter: the sorted segment's
 * length, so it changes the answer; the work-group is one segment
 * (wg = bs). The default workload points carry the matching wg.
 *
 * Input: `desc` is DARM's (in[i] = bs - i: every segment strictly
 * descending, the swap pattern regular); `random` draws each element
 * from its own counter stream (a full-range int). Verification is exact:
 * each segment of the output equals the sorted segment of the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_darm_bit[];   /* bit.k, embedded by make */

static const struct dh_param_def params[] = {
    {"bs", DH_P_WORKLOAD, "int:32,64,128,256", "64", NULL, "segment length: a work-group sorts bs elements, a work-item each (wg = bs; it changes the answer and what diverges)"},
    {"input", DH_P_WORKLOAD, "enum:desc,random", "desc", NULL, "the input: DARM's descending sequence (in[i] = bs - i) or a seeded random int per element"},
    DH_KIT_SEED,
    {"alg", DH_P_CHOICE, "enum:static", "static", "gpu_tdr", "on-GPU remap: static = the static comparator mapping (work-item c < bs/2 takes comparator 2c - (c & (j - 1)) at every step: the active lanes contiguous, fixed by the thread id, no data read); the kit's data remaps (hot, dgi) do not fit thread-id branches"},
    {"meld", DH_P_CHOICE, "enum:darm,pred", "darm", "melded", "the melded comparator: darm = the direction branch's two compare-and-swap regions melded (loads, compare and swap once, the compare's operands selected by the direction; the swap stays a branch), pred = if-converted (min, max and two unconditional stores; not DARM's form)"},
    {"wg", DH_P_TUNABLE, "int:32,64,128,256", "64", NULL, "work-group size: bs (the default workloads set it with bs)"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {
    "bs=32 wg=32", "bs=64 wg=64", "bs=128 wg=128", "bs=256 wg=256",
    "bs=64 wg=64 input=random", "bs=256 wg=256 input=random", NULL,
};

enum { IN, OUT };
static const struct dh_kbuf bufs[] = {
    [IN] = {"in", DH_T_I32, DH_IN, "items", DH_KB_ROTATE},
    [OUT] = {"out", DH_T_I32, DH_OUT, "items"},          /* exact */
};

static const struct dh_kentry entries[] = {
    {"baseline", "bt_base", "in out"},
    {"gpu_tdr", "bt_gpu_tdr", "in out"},
    {"melded", "bt_meld", "in out"},
    {0},
};

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int bt_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    int *in = h->data[IN];
    long bs = (long)dh_pset_num(&h->vars, "bs", 64);
    int desc = !strcmp(dh_pset_text(&h->vars, "input", "desc"), "desc");
    uint64_t seed = 0xb170ULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        in[i] = desc ? (int)(bs - i)
                     : (int)(uint32_t)(mix(seed ^ ((uint64_t)i * 0xd1342543de82ef95ULL)) >> 32);
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* each segment sorted on its own */
static int bt_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    long bs = (long)dh_pset_num(&h->vars, "bs", 64);
    int *want = h->want[OUT];
    memcpy(want, h->data[IN], (size_t)h->items * sizeof *want);
#pragma omp parallel for schedule(static)
    for (long g = 0; g < h->items / bs; g++)
        qsort(want + g * bs, (size_t)bs, sizeof *want, cmp_int);
    return 0;
}

/* Blocks marked in bit.k (BT_BB_*), operations per execution counted in
 * the source: io, the element's global load and store, its local store
 * and final load, the index and the first barrier; a step, the partner
 * (xor), the active test, the loop's shift and test, the barrier; active,
 * the direction's and and test; a side, its two local loads and the
 * compare; a swap, its two local stores (the reloads are the loads'). */
static const struct dh_bb_def blocks[] = {
    {"io", {.alu = 3, .ldg = 1, .stg = 1, .lds = 2, .bar = 1}},
    {"step", {.alu = 3, .bar = 1, .br = 2}},
    {"active", {.alu = 2, .br = 1}},
    {"up", {.alu = 1, .lds = 2, .br = 1}},
    {"down", {.alu = 1, .lds = 2, .br = 1}},
    {"up_swap", {.lds = 2}, "up"},          /* if-converted: sm_90 code predicates it in up */
    {"down_swap", {.lds = 2}},
};

static const struct dh_krule rules[] = {
    {NULL, "wg == bs", "wg is bs (a work-group sorts one segment): wg=32 with bs=32, "
                       "wg=64 with bs=64, ..."},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"n=262144", "n=16777216", "n=67108864"},
    .items = "n", .noun = "elements",
    .define = "BT_BS = bs; BT_MELD = meld",
    DH_KIT_TABLES(bufs, entries), .rules = rules,
    .generate = bt_generate, .reference = bt_reference,
};

/* the ordered BBVs' steps (dh_bench.bbv_steps): the network's (k, j)
 * steps, log2(bs) (log2(bs) + 1) / 2. The direction and the swap follow
 * the step: a lane's totals over the network hide which steps its warp
 * ran both sides in. */
static long bt_steps(void *state)
{
    const struct dh_khost *h = state;
    long bs = (long)dh_pset_num(&h->vars, "bs", 64), l = 0;
    while ((1L << l) < bs)
        l++;
    return l * (l + 1) / 2;
}

const struct dh_bench dh_bench_darm_bit = {
    .suite = "darm", .name = "bit", .source = dh_src_darm_bit,
    .summary = "in-block bitonic sort (DARM's running example): thread-id direction branch "
               "with a compare-and-swap on each side, data-dependent swap; bs is the segment",
    .params = params, .sweep = sweep, .variants = "baseline,gpu_tdr,melded",
    .absent = "cpu_tdr: every branch but the swap follows the work-item's place in the "
              "network, and moving elements between work-groups changes which ones a group "
              "sorts, the answer; gpu_tdr has only alg=static: the kit's remaps (HoT, DGI) "
              "regroup work-items by a data key, these branches are keyed by the thread id",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit), .bbv_steps = bt_steps,
};
