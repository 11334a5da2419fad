/* rodinia/srad — Rodinia's speckle-reducing anisotropic diffusion v2
 * (DARM's SRAD: the one kernel where melding loses), declared on the kit
 * (suites/lib/kit.h). Kernel: srad.k (read it first). A run is `iters`
 * iterations of two launches (kernel 1: differences and the saturated
 * diffusion coefficient; kernel 2: divergence and update), all timed.
 * Variants:
 *   baseline                  the 9-way and 4-way position chains and the
 *                             3-way saturation as written
 *   melded[meld=all|sat|pos|darm]
 *                             pos: the chains as one local load per
 *                             neighbour from a selected index; sat: one
 *                             store of the selected coefficient; all: both;
 *                             darm: a study control that reproduces the
 *                             DARM paper's loss, not a form to use: the
 *                             chains as DARM's pass leaves them when the
 *                             arms' loads do not meld into one (every test
 *                             in every lane, both candidate loads of each
 *                             neighbour, the values selected), the
 *                             saturation as sat (srad.k says more)
 * gpu_tdr and cpu_tdr do not apply (`.absent`).
 *
 * `bs` (16 or 32) is a workload parameter: the tile is the work-group
 * (wg = bs * bs), and it changes what diverges (a warp of 32 holds two
 * tile rows at bs=16, one at bs=32). The default workload points carry
 * the matching wg.
 *
 * Input, as Rodinia's: I uniform in [0, 1) (per-pixel counter streams
 * instead of srand(7)), J = expf(I), the region of interest rows and
 * columns 0..127 (clipped to the image), lambda 0.5. q0^2 of every
 * iteration comes from the CPU reference's J (the device's J is verified
 * anyway), so a run downloads nothing between its launches; J is updated
 * out of place from the pristine input j0.
 *
 * Deviations from the original: float literals (the original's 0.5,
 * 1.0 / 16.0, .25 and 1.0 promote the arithmetic to double in CUDA); the
 * region's statistics in double on the host (the original sums floats);
 * the layout of srad.k (halo values loaded once, by the edge lanes).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_rodinia_srad[];   /* srad.k, embedded by make */

#define SR_ROI 128                         /* rows and columns 0..127 */
#define SR_LAMBDA 0.5f
#define SR_MAXIT 2                         /* the largest iters of a size */

static const struct dh_param_def params[] = {
    {"bs", DH_P_WORKLOAD, "int:16,32", "16", NULL, "tile side: a work-group is one bs x bs tile, a work-item per pixel (wg = bs * bs; it changes what diverges)"},
    DH_KIT_SEED,
    {"meld", DH_P_CHOICE, "enum:all,sat,pos,darm", "all", "melded", "what is melded: pos = the position chains as selected local-memory indices, sat = the saturation as one store of a selected value, all = both; darm = a study control reproducing the DARM paper's loss, not a recommended form (the chains with both candidate loads in every lane and selected values, as DARM's pass leaves them when the loads do not meld; the saturation as sat)"},
    {"wg", DH_P_TUNABLE, "int:256,1024", "256", NULL, "work-group size: bs * bs (the default workloads set it with bs)"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"bs=16 wg=256", "bs=32 wg=1024", NULL};

enum { J0, J, C, DN, DS, DW, DE };
static const struct dh_kbuf bufs[] = {
    [J0] = {"j0", DH_T_F32, DH_IN, "items", DH_KB_ROTATE},
    [J] = {"j", DH_T_F32, DH_OUT, "items", .tol = 1e-4},
    [C] = {"c", DH_T_F32, DH_SCRATCH, "items"},
    [DN] = {"dn", DH_T_F32, DH_SCRATCH, "items"},
    [DS] = {"ds", DH_T_F32, DH_SCRATCH, "items"},
    [DW] = {"dw", DH_T_F32, DH_SCRATCH, "items"},
    [DE] = {"de", DH_T_F32, DH_SCRATCH, "items"},
};

/* kernel 1's entry and arguments (srad_launch adds q0^2 and names kernel
 * 2, sr_k2_<form>, from it) */
static const struct dh_kentry entries[] = {
    {"baseline", "sr_k1_base", "j0 c dn ds dw de"},
    {"melded", "sr_k1_meld", "j0 c dn ds dw de"},
    {0},
};

struct sr_dims {
    int rows, cols, bs, iters;
};

/* q0^2 per iteration and the saturation arm of every work-item per
 * iteration (launch order: the ceiling's keys), from the reference */
struct sr_priv {
    float q0sqr[SR_MAXIT];
    unsigned char *arm;                    /* iters * items: 0 c < 0, 1 c > 1, 2 in [0, 1] */
};

static struct sr_dims dims_of(const struct dh_khost *h)
{
    const struct dh_pset *v = &h->vars;
    struct sr_dims d = {(int)dh_pset_num(v, "rows", 0), (int)dh_pset_num(v, "cols", 0),
                        (int)dh_pset_num(v, "bs", 16), (int)dh_pset_num(v, "iters", 1)};
    return d;
}

/* the work-item of pixel (r, x): tiles in row-major order, bs^2 each */
static long gid_of(const struct sr_dims *d, int r, int x)
{
    long tile = (long)(r / d->bs) * (d->cols / d->bs) + x / d->bs;
    return tile * d->bs * d->bs + (long)(r % d->bs) * d->bs + x % d->bs;
}

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static float unit(uint64_t seed, uint64_t i)            /* [0, 1), 24 bits */
{
    return (float)(mix(seed ^ (i * 0xd1342543de82ef95ULL)) >> 40) * 0x1.0p-24f;
}

static void sr_free(void *priv)
{
    struct sr_priv *p = priv;
    if (p)
        free(p->arm);
    free(p);
}

static int sr_generate(struct dh_khost *h, struct dh_err *err)
{
    struct sr_dims d = dims_of(h);
    uint64_t seed = 0x5ad7ULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
    float *j0 = h->data[J0];
    if (d.iters > SR_MAXIT)
        return dh_err_set(err, DH_E_INTERNAL, "srad: %d iterations, at most %d", d.iters,
                          SR_MAXIT);
    struct sr_priv *p = h->priv = calloc(1, sizeof *p);
    if (!p || !(p->arm = malloc((size_t)h->items * (size_t)d.iters)))
        return dh_err_set(err, DH_E_RESOURCES, "srad: out of host memory for %ld pixels",
                          h->items);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        j0[i] = expf(unit(seed, (uint64_t)i));
    return 0;
}

/* q0^2 = var / mean^2 over the region of interest */
static float roi_q0sqr(const struct sr_dims *d, const float *jv)
{
    int nr = d->rows < SR_ROI ? d->rows : SR_ROI, nc = d->cols < SR_ROI ? d->cols : SR_ROI;
    double sum = 0, sum2 = 0, n = (double)nr * nc;
    for (int r = 0; r < nr; r++)
        for (int x = 0; x < nc; x++) {
            double v = jv[(long)r * d->cols + x];
            sum += v;
            sum2 += v * v;
        }
    double mean = sum / n;
    return (float)((sum2 / n - mean * mean) / (mean * mean));
}

/* The ceiling: only the saturation depends on the data (the chains follow
 * the pixel's place in its tile). Layer 0 is what every work-item runs
 * (about 180 issued instructions per iteration, the block table below at
 * sm_90 weights), then one layer per iteration with the three arms (a
 * store and its tests, about 5): a regrouping could save little. */
static int sr_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    static double bulk;
    static const double arm[3] = {5.0, 5.0, 5.0};
    const struct sr_priv *p = h->priv;
    int iters = (int)dh_pset_num(&h->vars, "iters", 1);
    if (layer > iters)
        return 0;
    const unsigned char *a = layer ? p->arm + (size_t)(layer - 1) * (size_t)h->items : NULL;
    for (long i = 0; i < h->items; i++)
        key[i] = a ? a[i] : 0;
    bulk = 180.0 * iters;
    *cost = layer ? arm : &bulk;
    return layer ? 3 : 1;
}

/* ---- the CPU reference: srad.k's two kernels, operation for operation,
 * neighbours clamped at the image's edge ---- */
static void k1_ref(const struct sr_dims *d, const float *jv, float q0sqr, float *c, float *dn,
                   float *ds, float *dw, float *de, unsigned char *arm)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < d->rows; r++)
        for (int x = 0; x < d->cols; x++) {
            long i = (long)r * d->cols + x;
            float jc = jv[i];
            float n = jv[r > 0 ? i - d->cols : i] - jc;
            float s = jv[r < d->rows - 1 ? i + d->cols : i] - jc;
            float w = jv[x > 0 ? i - 1 : i] - jc;
            float e = jv[x < d->cols - 1 ? i + 1 : i] - jc;
            float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
            float l = (n + s + w + e) / jc;
            float num = 0.5f * g2 - 0.0625f * (l * l);
            float den = 1.0f + 0.25f * l;
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
            float cq = 1.0f / (1.0f + den);
            int a = cq < 0.0f ? 0 : cq > 1.0f ? 1 : 2;
            c[i] = a == 0 ? 0.0f : a == 1 ? 1.0f : cq;
            dn[i] = n, ds[i] = s, dw[i] = w, de[i] = e;
            arm[gid_of(d, r, x)] = (unsigned char)a;
        }
}

static void k2_ref(const struct sr_dims *d, const float *c, const float *dn, const float *ds,
                   const float *dw, const float *de, float *jv)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < d->rows; r++)
        for (int x = 0; x < d->cols; x++) {
            long i = (long)r * d->cols + x;
            float cc = c[i];
            float cs = c[r < d->rows - 1 ? i + d->cols : i];
            float ce = c[x < d->cols - 1 ? i + 1 : i];
            float dv = cc * dn[i] + cs * ds[i] + cc * dw[i] + ce * de[i];
            jv[i] = jv[i] + 0.25f * SR_LAMBDA * dv;
        }
}

static int sr_reference(struct dh_khost *h, struct dh_err *err)
{
    struct sr_dims d = dims_of(h);
    struct sr_priv *p = h->priv;
    size_t n = (size_t)h->items;
    float *jv = h->want[J], *c = malloc(5 * n * sizeof *c);
    if (!c)
        return dh_err_set(err, DH_E_RESOURCES, "srad: out of host memory for the reference");
    memcpy(jv, h->data[J0], n * sizeof *jv);
    long arms[3] = {0, 0, 0};
    for (int it = 0; it < d.iters; it++) {
        unsigned char *arm = p->arm + (size_t)it * n;
        p->q0sqr[it] = roi_q0sqr(&d, jv);
        k1_ref(&d, jv, p->q0sqr[it], c, c + n, c + 2 * n, c + 3 * n, c + 4 * n, arm);
        k2_ref(&d, c, c + n, c + 2 * n, c + 3 * n, c + 4 * n, jv);
        for (size_t i = 0; i < n; i++)
            arms[arm[i]]++;
    }
    free(c);
    /* the saturation's bias, and what a remap could make of it at warp 32
     * (the kit shows the ceiling on gpu_tdr rows only, absent here) */
    double all = (double)n * d.iters, co = 0, cs = 0;
    int *key = malloc(n * sizeof *key), paths;
    const double *cost = NULL;
    for (long layer = 0; key && (paths = sr_branch(h, layer, key, &cost)) > 0; layer++)
        dh_ceiling_layer_w(key, h->items, d.bs * d.bs, 32, paths, cost, &co, &cs);
    free(key);
    fprintf(stderr, "rodinia/srad: %dx%d bs=%d, %d iteration(s), q0^2 %.4f: saturation arms "
            "c<0 %.4f, c>1 %.4f, in [0,1] %.4f; remap ceiling at warp 32 %.3fx\n", d.rows,
            d.cols, d.bs, d.iters, (double)p->q0sqr[0], (double)arms[0] / all,
            (double)arms[1] / all, (double)arms[2] / all, cs > 0 ? co / cs : 0.0);
    return 0;
}

/* iters times: kernel 1 (J -> c and the differences), kernel 2 (J -> j);
 * the first iteration reads the pristine j0, the later ones update j in
 * place */
static int sr_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                     struct dh_err *err)
{
    const struct sr_priv *p = r->h->priv;
    int iters = (int)dh_pset_num(&r->h->vars, "iters", 1);
    char k2[64], a1[128], a2[128];
    snprintf(k2, sizeof k2, "sr_k2_%s", e->entry + strlen("sr_k1_"));
    *kernel_ms = 0;
    for (int it = 0; it < iters; it++) {
        const char *src = it ? "j" : "j0";
        /* %.9e: the float exactly, with the point the kit reads a float by */
        snprintf(a1, sizeof a1, "%s c dn ds dw de %.9e", src, (double)p->q0sqr[it]);
        snprintf(a2, sizeof a2, "c dn ds dw de %s j %.9e", src, (double)SR_LAMBDA);
        struct dh_kentry s1 = {e->variant, e->entry, a1}, s2 = {e->variant, k2, a2};
        double ms1 = 0, ms2 = 0;
        int rc = dh_kit_launch(r, &s1, 0, &ms1, err);
        if (!rc)
            rc = dh_kit_launch(r, &s2, 0, &ms2, err);
        if (rc)
            return rc;
        *kernel_ms += ms1 + ms2;
    }
    return 0;
}

/* Blocks marked in srad.k (SR_BB_*), operations per execution counted in
 * the source; a float division counts 8 fp (reciprocal, refinement and
 * the range check). Kernel 1's common part: the pixel's index, J, the
 * tile store, the barrier, the four halo tests, the coefficient (five
 * divisions), four stores and the saturation's two tests (the first arm
 * is never taken: every lane reaches the second). A chain's test: one or
 * two compares and the branch; an arm: its local loads (and kernel 1's
 * subtractions), the addresses and the jump to the join. */
#define SR_HALO(name, in) {name, {.alu = 3, .ldg = 1, .lds = 1}, in}
#define SR_TEST(name, cmp) {name, {.alu = (cmp), .br = 1}}
#define SR_ARM1(name) {name, {.fp = 4, .alu = 2, .lds = 4, .br = 1}}
#define SR_ARM2(name) {name, {.alu = 1, .lds = 2, .br = 1}}
static const struct dh_bb_def blocks[] = {
    {"k1", {.fp = 62, .alu = 12, .mul = 2, .ldg = 1, .stg = 4, .lds = 1, .bar = 1, .br = 6}},
    SR_HALO("k1_halo_n", "k1"), SR_HALO("k1_halo_s", "k1"), SR_HALO("k1_halo_w", "k1"),
    SR_HALO("k1_halo_e", "k1"),
    SR_TEST("k1_test_nw", 2), SR_TEST("k1_test_ne", 2), SR_TEST("k1_test_se", 2),
    SR_TEST("k1_test_sw", 2), SR_TEST("k1_test_n", 1), SR_TEST("k1_test_e", 1),
    SR_TEST("k1_test_s", 1), SR_TEST("k1_test_w", 1),
    SR_ARM1("k1_nw"), SR_ARM1("k1_ne"), SR_ARM1("k1_se"), SR_ARM1("k1_sw"), SR_ARM1("k1_n"),
    SR_ARM1("k1_e"), SR_ARM1("k1_s"), SR_ARM1("k1_w"), SR_ARM1("k1_interior"),
    {"sat_neg", {.stg = 1}},
    {"sat_one", {.stg = 1}},
    {"sat_mid", {.stg = 1}},
    {"k2", {.fp = 10, .alu = 12, .mul = 2, .ldg = 6, .stg = 1, .lds = 1, .bar = 1, .br = 2}},
    SR_HALO("k2_halo_s", "k2"), SR_HALO("k2_halo_e", "k2"),
    SR_TEST("k2_test_se", 2), SR_TEST("k2_test_e", 1), SR_TEST("k2_test_s", 1),
    SR_ARM2("k2_se"), SR_ARM2("k2_e"), SR_ARM2("k2_s"), SR_ARM2("k2_interior"),
};

static const struct dh_krule rules[] = {
    {NULL, "wg == bs * bs", "wg is bs * bs (a work-group is one tile): wg=256 with bs=16, "
                            "wg=1024 with bs=32"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"rows=256 cols=256 iters=1", "rows=4096 cols=4096 iters=2",
              "rows=8192 cols=8192 iters=2"},
    .items = "rows * cols", .noun = "pixels",
    .define = "SR_ROWS = rows; SR_COLS = cols; SR_BS = bs; SR_MELD = meld",
    DH_KIT_TABLES(bufs, entries), .rules = rules,
    .generate = sr_generate, .reference = sr_reference, .free_priv = sr_free,
    .launch = sr_launch, .branch = sr_branch,
};

const struct dh_bench dh_bench_rodinia_srad = {
    .suite = "rodinia", .name = "srad", .source = dh_src_rodinia_srad,
    .summary = "speckle-reducing anisotropic diffusion: 9-way tile-position chain, biased 3-way saturation (melding loses in DARM)",
    .params = params, .sweep = sweep, .variants = "baseline,melded",
    .absent = "gpu_tdr: the position chains follow the pixel's place in its tile and the "
              "saturation arms are single stores, nothing a remap pays for; cpu_tdr: the "
              "stencil is positional (the tile and its halo fix every pixel's work-group)",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit),
};
