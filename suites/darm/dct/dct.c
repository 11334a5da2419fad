/* darm/dct — quantisation of a DCT plane (DARM's "DCT", the control
 * case: melding raises CFE, the time should not move), declared on the
 * kit (suites/lib/kit.h). Kernel: dct.k (read it first). A run is one
 * launch over the plane.
 * Variants:
 *   baseline                 the sign branch as written
 *   melded[meld=darm]        the two sides melded: one add and one
 *                            division with the operand selected by the
 *                            sign, the last negation a select
 *   melded[meld=pred]        if-converted (both sides, two divisions, in
 *                            every lane; not DARM's form)
 *   gpu_tdr[alg=hot|hot_warp] a negative control: HoT on the sign before
 *                            a branch of a few operations
 * cpu_tdr does not apply (`.absent`).
 *
 * `bs` (8 or 16) is a workload parameter: the tile is the work-group
 * (wg = bs * bs) and the quantisation step of a coefficient is
 * Q[ty * bs + tx] over the 8 x 8 table repeated in index order, as in
 * DARM's copy, so bs changes the answer. The default workload points
 * carry the matching wg.
 *
 * Input: coefficients uniform in [-128, 126] (DARM's rand() % 255 - 128),
 * one counter stream per coefficient; the table is the JPEG standard's
 * luminance table (ITU-T T.81, Annex K.1; DARM's copy has a table of its
 * own). Shorts travel in 16-bit buffers; verification is exact.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_darm_dct[];   /* dct.k, embedded by make */

#define DC_Q 256                       /* table entries: the largest tile */

static const struct dh_param_def params[] = {
    {"bs", DH_P_WORKLOAD, "int:8,16", "8", NULL, "tile side: a work-group is one bs x bs tile, a work-item per coefficient (wg = bs * bs); the step of a coefficient is Q[ty * bs + tx], so bs changes the answer"},
    DH_KIT_SEED,
    {"meld", DH_P_CHOICE, "enum:darm,pred", "darm", "melded", "the melded form: darm = one add and one division, the operand selected by the sign and the last negation a select; pred = if-converted (both sides' divisions in every lane; not DARM's form)"},
    {"alg", DH_P_CHOICE, "enum:hot,hot_warp", "hot", "gpu_tdr", "on-GPU remap on the sign, a negative control: hot (local atomics), hot_warp (CUDA/HIP: one atomic pair per warp)"},
    {"wg", DH_P_TUNABLE, "int:64,256", "64", NULL, "work-group size: bs * bs (the default workloads set it with bs)"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"bs=8 wg=64", "bs=16 wg=256", NULL};

enum { IN, QT, OUT };
static const struct dh_kbuf bufs[] = {
    [IN] = {"in", DH_T_U16, DH_IN, "items", DH_KB_ROTATE},
    [QT] = {"q", DH_T_U16, DH_IN, "256"},
    /* exact; the poison (1) is no multiple of a step (all >= 10) */
    [OUT] = {"out", DH_T_U16, DH_OUT, "items"},
};

static const struct dh_kentry entries[] = {
    {"baseline", "dc_base", "in q out"},
    {"melded", "dc_meld", "in q out"},
    {"gpu_tdr", "dc_gpu_tdr", "in q out"},
    {0},
};

/* ITU-T T.81 Annex K.1, luminance */
static const short q64[64] = {
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
};

struct dc_dims {
    long w, h;
    int bs;
};

static struct dc_dims dims_of(const struct dh_khost *h)
{
    struct dc_dims d = {(long)dh_pset_num(&h->vars, "w", 0), (long)dh_pset_num(&h->vars, "h", 0),
                        (int)dh_pset_num(&h->vars, "bs", 8)};
    return d;
}

/* the plane index of work-item gid (dct.k's dc_elem) */
static long elem_of(const struct dc_dims *d, long gid)
{
    long per = (long)d->bs * d->bs, g = gid / per, l = gid % per, tw = d->w / d->bs;
    return ((g / tw) * d->bs + l / d->bs) * d->w + (g % tw) * d->bs + l % d->bs;
}

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int dc_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    uint16_t *in = h->data[IN], *q = h->data[QT];
    uint64_t seed = 0xdc7ULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++) {
        int v = (int)(mix(seed ^ ((uint64_t)i * 0xd1342543de82ef95ULL)) % 255) - 128;
        in[i] = (uint16_t)(int16_t)v;
    }
    for (int i = 0; i < DC_Q; i++)
        q[i] = (uint16_t)q64[i % 64];
    return 0;
}

/* the branch as written, per coefficient in plane order */
static int dc_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct dc_dims d = dims_of(h);
    const uint16_t *in = h->data[IN];
    uint16_t *want = h->want[OUT];
#pragma omp parallel for schedule(static)
    for (long r = 0; r < d.h; r++)
        for (long x = 0; x < d.w; x++) {
            long i = r * d.w + x;
            int c = (int16_t)in[i], q = q64[((r % d.bs) * d.bs + x % d.bs) % 64];
            if (c < 0)
                c = -((-c + (q >> 1)) / q);
            else
                c = (c + (q >> 1)) / q;
            want[i] = (uint16_t)(int16_t)(c * q);
        }
    return 0;
}

/* The ceiling: layer 0 is what every work-item runs (the position, the
 * loads, the multiply and the store: about 32 issued instructions at
 * sm_90), layer 1 the sign, each side about 27 (a signed division by a
 * variable expands to some 22): a remap can save at most one side of a
 * mixed warp */
static int dc_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    static const double common = 32.0, side[2] = {27.0, 27.0};
    if (layer > 1)
        return 0;
    struct dc_dims d = dims_of(h);
    const uint16_t *in = h->data[IN];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        key[i] = layer ? (int16_t)in[elem_of(&d, i)] < 0 : 0;
    *cost = layer ? side : &common;
    return layer ? 2 : 1;
}

/* Blocks marked in dct.k (DC_BB_*), operations per execution counted in
 * the source: entry, the position (shifts and masks), the two loads, the
 * sign test, the multiply and the store; a side, its negations, shift
 * and add, and the division (a variable divisor). */
static const struct dh_bb_def blocks[] = {
    {"entry", {.alu = 12, .mul = 2, .ldg = 2, .stg = 1, .br = 1}},
    {"neg", {.alu = 4, .div = 1}},
    {"pos", {.alu = 2, .div = 1}},
};

static const struct dh_krule rules[] = {
    {NULL, "wg == bs * bs", "wg is bs * bs (a work-group is one tile): wg=64 with bs=8, "
                            "wg=256 with bs=16"},
    {NULL, "w % bs == 0 && h % bs == 0", "the plane is whole tiles"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"w=1024 h=1024", "w=8192 h=8192", "w=32768 h=32768"},
    .items = "w * h", .noun = "coefficients",
    .define = "DC_W = w; DC_BS = bs; DC_MELD = meld",
    DH_KIT_TABLES(bufs, entries), .rules = rules,
    .generate = dc_generate, .reference = dc_reference, .branch = dc_branch,
    /* dc_gpu_tdr's local memory (ints): HoT's pool and counters, the exchange */
    .local = "bytes = 4 * (wg + 2 + wg)",
};

const struct dh_bench dh_bench_darm_dct = {
    .suite = "darm", .name = "dct", .source = dh_src_darm_dct,
    .summary = "DCT-plane quantisation (DARM's control): data-dependent sign branch of a few "
               "integer operations; melding raises CFE, the time should not move",
    .params = params, .sweep = sweep, .variants = "baseline,gpu_tdr,melded",
    .absent = "cpu_tdr: a coefficient's step and place follow its position in the tile; "
              "regrouping them on the host would carry the position along for a branch of "
              "a few operations, in a kernel bound by memory",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit),
};
