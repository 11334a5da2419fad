/* darm/pcm — partition and concurrent merge (DARM's "PCM"), declared on
 * the kit (suites/lib/kit.h). Kernel: pcm.k (read it first). Each
 * work-group sorts 4096 ints held as bs sorted runs of 4096 / bs, one a
 * work-item, by bs phases of odd-even merging in local memory; a run is
 * one launch.
 * Variants:
 *   baseline             the role branch (the run's parity): a front
 *                        merge loop (keep the lower half) on one side, a
 *                        back merge loop (keep the upper half) on the
 *                        other, each with its data-dependent take-lower /
 *                        take-upper if / else; idle runs copied
 *   melded[meld=darm]    the two merge loops melded region to region,
 *                        DARM's way: one loop, the step (+1 / -1), the
 *                        starts and the compare's sense selected by the
 *                        role, loads, compare and store issued once; the
 *                        inner if / else melded into selects; the idle
 *                        copy stays a branch
 *   melded[meld=pred]    darm with the idle copy if-converted into the
 *                        merge (its run with itself, the take forced): no branch left
 *                        in a phase; not DARM's form
 *   gpu_tdr[alg=static]  a static role remap: work-item L < bs/2 owns run
 *                        2L, the others run 2(L - bs/2) + 1, so each warp
 *                        holds one role from bs 64 on; the baseline's
 *                        merges
 * cpu_tdr does not apply (`.absent` says why).
 *
 * `bs` (32, 64, 128, 256) is a workload parameter: the number of runs of
 * a work-group (their length is 4096 / bs), so it changes the input and
 * the work (bs phases of 4096 / bs steps a work-item); the work-group is
 * bs work-items (wg = bs), and the default workload points carry the
 * matching wg. DARM's groups hold 8192 elements; 4096 keeps the two
 * local arrays (c and rr) within the 48 KiB of static local memory.
 * `pad` (tunable, the answer does not change): the runs' stride in local
 * memory, 4096 / bs + pad words (1: the lanes of a warp at the same merge
 * position on different banks; 0: on one).
 *
 * Input: `ranges` is DARM's (run r holds x, x + 1, .. x + 4096 / bs - 1,
 * x drawn from run r's own counter stream below the element count, so
 * most merges take one run whole); `random` draws each element from its
 * own counter stream (a full-range int) and sorts every run on the host.
 * Verification is exact: each group's 4096 elements equal the sorted
 * 4096 of the input. Sizes: 8 / 4096 / 65536 groups (2^15 / 2^24 / 2^28
 * ints, large DARM's count); small is 8 groups rather than 64 so that
 * PoCL runs every form at every default workload in about two seconds.
 *
 * What nvcc makes of it (sm_90): pcm.k's header; the H100 prediction:
 * docs/results/h100-darm.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_darm_pcm[];   /* pcm.k, embedded by make */

#define PC_ELEMS 4096

static const struct dh_param_def params[] = {
    {"bs", DH_P_WORKLOAD, "int:32,64,128,256", "64", NULL, "runs a work-group merges (a work-item each, wg = bs), 4096 / bs elements each: it changes the input and the work"},
    {"input", DH_P_WORKLOAD, "enum:ranges,random", "ranges", NULL, "the input: DARM's (each run a range of consecutive ints from a seeded start) or a seeded random int per element, each run sorted"},
    DH_KIT_SEED,
    {"alg", DH_P_CHOICE, "enum:static", "static", "gpu_tdr", "on-GPU remap: static = the static role remap (work-item L < bs/2 owns run 2L, the others run 2(L - bs/2) + 1: one role a warp from bs 64 on, fixed by the thread id, no data read); the kit's data remaps (hot, dgi) do not fit a thread-id branch"},
    {"meld", DH_P_CHOICE, "enum:darm,pred", "darm", "melded", "the melded merge: darm = the front and back merge loops melded (one loop, the step, starts and compare sense selected by the role, the take a select; the idle copy stays a branch), pred = the idle copy too, as a merge of the run with itself, the take forced (no branch in a phase; not DARM's form)"},
    {"pad", DH_P_TUNABLE, "int:0,1", "1", NULL, "words between runs in local memory (the stride is 4096 / bs + pad): 1 puts the lanes of a warp at the same merge position on different banks, 0 on one"},
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
    [IN] = {"in", DH_T_I32, DH_IN, "blocks * 4096", DH_KB_ROTATE},
    [OUT] = {"out", DH_T_I32, DH_OUT, "blocks * 4096"},   /* exact */
};

static const struct dh_kentry entries[] = {
    {"baseline", "pc_base", "in out"},
    {"gpu_tdr", "pc_gpu_tdr", "in out"},
    {"melded", "pc_meld", "in out"},
    {0},
};

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* run r (of 4096 / bs elements) from its own stream (ranges) or each
 * element from its own (random, the run then sorted) */
static int pc_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    int *in = h->data[IN];
    long n = h->count[IN];
    long s = PC_ELEMS / (long)dh_pset_num(&h->vars, "bs", 64);
    int ranges = !strcmp(dh_pset_text(&h->vars, "input", "ranges"), "ranges");
    uint64_t seed = 0x9c30ULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
#pragma omp parallel for schedule(static)
    for (long r = 0; r < n / s; r++) {
        int *run = in + r * s;
        if (ranges) {
            long x = (long)(mix(seed ^ ((uint64_t)r * 0xd1342543de82ef95ULL)) % (uint64_t)n);
            for (long j = 0; j < s; j++)
                run[j] = (int)(x + j);
        } else {
            for (long j = 0; j < s; j++) {
                uint64_t i = (uint64_t)(r * s + j);
                run[j] = (int)(uint32_t)(mix(seed ^ (i * 0xd1342543de82ef95ULL)) >> 32);
            }
            qsort(run, (size_t)s, sizeof *run, cmp_int);
        }
    }
    return 0;
}

/* each group's 4096 elements sorted on their own */
static int pc_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    long n = h->count[OUT];
    int *want = h->want[OUT];
    memcpy(want, h->data[IN], (size_t)n * sizeof *want);
#pragma omp parallel for schedule(static)
    for (long g = 0; g < n / PC_ELEMS; g++)
        qsort(want + g * PC_ELEMS, PC_ELEMS, sizeof *want, cmp_int);
    return 0;
}

/* Blocks marked in pcm.k (PC_BB_*), operations per execution counted in
 * the source: io, an element's global load and local store (and, at the
 * end, its local load and global store: counted once, the load's block
 * marks both) with the index and loop; phase, the role tests, the two
 * barriers and the loop; a merge step, its two local loads, the compare
 * and the loop; a take, its store and the bump; idle, a load, a store and
 * the loop; copy, a load, a store and the loop (pads included). */
/* front_lo/hi and back_lo/hi: if-converted inside their side in the
 * sm_90 code (@P / @!P pairs: a warp issues both whenever it runs the
 * side; harness blocks, and ncu on the H100), so declared guarded there */
static const struct dh_bb_def blocks[] = {
    {"io", {.alu = 4, .ldg = 1, .stg = 1, .lds = 2, .br = 2}},
    {"phase", {.alu = 6, .bar = 2, .br = 3}},
    {"front", {.alu = 2, .lds = 2, .br = 2}},
    {"back", {.alu = 2, .lds = 2, .br = 2}},
    {"front_lo", {.alu = 2, .lds = 1}, "front"},
    {"front_hi", {.alu = 2, .lds = 1}, "front"},
    {"back_lo", {.alu = 2, .lds = 1}, "back"},
    {"back_hi", {.alu = 2, .lds = 1}, "back"},
    {"idle", {.alu = 2, .lds = 2, .br = 1}},
    {"copy", {.alu = 1, .lds = 2, .br = 1}},
};

static const struct dh_krule rules[] = {
    {NULL, "wg == bs", "wg is bs (a work-item a run): wg=32 with bs=32, wg=64 with bs=64, ..."},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"blocks=8", "blocks=4096", "blocks=65536"},
    .items = "blocks * bs", .noun = "runs",
    .define = "PC_BS = bs; PC_MELD = meld; PC_PAD = pad",
    DH_KIT_TABLES(bufs, entries), .rules = rules,
    .generate = pc_generate, .reference = pc_reference,
};

/* the ordered BBVs' steps (dh_bench.bbv_steps): bs phases */
static long pc_steps(void *state)
{
    const struct dh_khost *h = state;
    return (long)dh_pset_num(&h->vars, "bs", 64);
}

const struct dh_bench dh_bench_darm_pcm = {
    .suite = "darm", .name = "pcm", .source = dh_src_darm_pcm,
    .summary = "partition and concurrent merge (DARM's PCM): bs sorted runs a work-group "
               "merged in bs odd-even phases in local memory; the role (front / back merge, "
               "the run's parity) splits every warp, the take is data; bs is the case",
    .params = params, .sweep = sweep, .variants = "baseline,gpu_tdr,melded",
    .absent = "cpu_tdr: the role follows the run's place in its group and moving runs "
              "between groups changes which elements a group sorts, the answer; gpu_tdr "
              "has only alg=static: the kit's remaps (HoT, DGI) regroup work-items by a data "
              "key, the role branch is keyed by the thread id",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit), .bbv_steps = pc_steps,
};
