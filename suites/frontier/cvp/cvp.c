/* frontier/cvp — a declared benchmark (suites/lib/kit.h): parameters,
 * buffers, entries, constraints, the keys of cpu_tdr and of the remap
 * ceiling. The generator, the trained model and the CPU reference are in
 * cvp_model.c; the kernels in cvp.k (read its header first). Variants:
 *   baseline          cvp_baseline: nested branches, image in place
 *   cpu_tdr[mech=dlt, the host orders the pixels: regroup=key walks the
 *     regroup=key|    tree for every pixel (features and tree on the CPU)
 *     sort|greedy|    and stable-sorts the pixels by model; sort, greedy
 *     greedymax]      and greedymax order them by their basic-block
 *                     vectors (suites/lib/regroup.h, groups of `group`
 *                     items; the BBVs' profiling run counts as host time).
 *                     Then it copies each pixel's causal window into a
 *                     patch in that order and uploads the patches; the
 *                     same cvp_baseline (patches = 1) writes results in
 *                     that order and the host puts them back. All of it is
 *                     host time; the patch upload (beyond the image every
 *                     variant has) is extra transfer time.
 *   gpu_tdr[alg=dgi|  remap by model before layer 1, by key before layer 2
 *     dgi_scan]       (hot_dgi and hot_warp_scan: no layer of cvp has two
 *                     paths, see the rules); model_*: one remap by model,
 *                     the index alone moving; lean_*: both, the index
 *                     alone at the first (tunable minb: launch bounds)
 *   melded            layer 2 melded per model (cvp.k says what and why)
 * Outputs: per pixel the residual and the context (layer-2 key), both
 * int32, compared exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"
#include "cvp_model.h"

extern const char dh_src_frontier_cvp[];   /* cvp.k, embedded by make */

static const struct dh_param_def params[] = {
    {"seed", DH_P_WORKLOAD, "int:0..2147483647", "1", NULL,
     "generator seed (image and the training image of the tree)"},
    {"noise", DH_P_WORKLOAD, "int:0..256", "24", NULL,
     "sensor noise amplitude in grey levels of the 12-bit image"},
    {"texture", DH_P_WORKLOAD, "real:0..1", "0.3", NULL,
     "share of the image's shapes filled with texture (stripes, grain, checkers)"},
    {"alg", DH_P_CHOICE,
     "enum:hot_dgi,dgi,dgi_scan,hot_warp_scan,model_dgi,model_scan,lean_dgi,lean_scan", "dgi",
     "gpu_tdr",
     "on-GPU remap: dgi, dgi_scan = by model, then by key, features and state carried (CVP "
     "has no two-path layer: hot_dgi and hot_warp_scan do not apply); model_dgi, model_scan "
     "= one remap by model, the pixel index alone moving (features recomputed), the case "
     "nested; lean_dgi, lean_scan = both remaps, the index alone moving at the first, the "
     "state at the second (the _scan forms: warp votes, CUDA/HIP)"},
    {"mech", DH_P_CHOICE, "enum:dlt", "dlt", "cpu_tdr",
     "apply the host regrouping by data layout: each pixel's causal window moved"},
    {"regroup", DH_P_CHOICE, "enum:key,sort,greedy,greedymax", "key", "cpu_tdr",
     "host regrouping: by the tree's model (walked on the CPU), or by basic-block vectors "
     "(sort, greedy, greedymax)"},
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF(NULL),
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"seed=1", NULL};


#define XSTR(x) STR(x)
#define STR(x) #x

enum { IMG, PATCH, PRM, RES, CTX };
static void gather_patches(const struct dh_khost *h, const int *perm, void *dst);
static const struct dh_kbuf bufs[] = {
    /* the padded image: w + 2R columns, h + R rows */
    [IMG] = {"img", DH_T_U16, DH_IN, "(w + 2 * " XSTR(CVP_R) ") * (h + " XSTR(CVP_R) ")",
             DH_KB_ROTATE, "baseline,gpu_tdr,melded"},
    /* cpu_tdr: each pixel's causal window, in the regrouped order */
    [PATCH] = {"patch", DH_T_U16, DH_IN, "items * " XSTR(CVP_PS), 0, "cpu_tdr",
               .gather = gather_patches},
    [PRM] = {"prm", DH_T_I32, DH_IN, XSTR(CVP_PRM_INTS)},
    [RES] = {"res", DH_T_I32, DH_OUT, "items", DH_KB_ITEM, .poison = 0x7eadbeef},
    [CTX] = {"ctx", DH_T_I32, DH_OUT, "items", DH_KB_ITEM, .poison = 0x7eadbeef},
};

static const struct dh_kentry entries[] = {
    {"baseline", "cvp_baseline", "img prm res ctx 0"},
    {"cpu_tdr", "cvp_baseline", "patch prm res ctx 1"},
    {"gpu_tdr", "cvp_gpu_tdr", "img prm res ctx"},
    {"melded", "cvp_melded", "img prm res ctx"},
    {0},
};

/* the size's w and h (kit.sizes) and the workload */
static void cfg_of(const struct dh_pset *vars, struct cvp_cfg *g)
{
    memset(g, 0, sizeof *g);
    g->w = (int)dh_pset_num(vars, "w", 0);
    g->h = (int)dh_pset_num(vars, "h", 0);
    g->wp = g->w + 2 * CVP_R;
    g->hp = g->h + CVP_R;
    g->n = (long)g->w * g->h;
    g->seed = (unsigned)dh_pset_num(vars, "seed", 1);
    g->noise = (int)dh_pset_num(vars, "noise", 24);
    g->texture = dh_pset_num(vars, "texture", 0.3);
}

static int cvp_defines(const struct dh_case *c, const struct dh_pset *vars,
                       const struct dh_device_info *dev, char *buf, size_t len)
{
    (void)c;
    struct cvp_cfg g;
    cfg_of(vars, &g);
    size_t o = (size_t)snprintf(buf, len,
        "-D CVP_W=%d -D CVP_WP=%d -D CVP_OFF_BIAS=%d -D CVP_OFF_SW=%d -D CVP_OFF_RL=%d "
        "-D CVP_OFF_TL=%d -D CVP_BASE_FLAT=%d -D CVP_BASE_MED=%d -D CVP_BASE_GAP=%d "
        "-D CVP_BASE_FILTER=%d -D CVP_BASE_PLANE=%d -D CVP_BASE_TEXTURE=%d",
        g.w, g.wp, CVP_OFF_BIAS, CVP_OFF_SW, CVP_OFF_RL, CVP_OFF_TL, CVP_BASE_FLAT,
        CVP_BASE_MED, CVP_BASE_GAP, CVP_BASE_FILTER, CVP_BASE_PLANE, CVP_BASE_TEXTURE);
    if (o < len && dev && !strcmp(dev->kind, "cpu"))
        o += (size_t)snprintf(buf + o, len - o, " -D CVP_ROLLED");
#define CVP_DEF_(name, v) \
    if (o < len) o += (size_t)snprintf(buf + o, len - o, " -D CVP_C_" #name "=%d", v);
    CVP_CONSTANTS(CVP_DEF_)
#undef CVP_DEF_
    return o < len ? 0 : -DH_E_INTERNAL;
}

/* the input: a trained tree (prm) and a synthetic image */
static int cvp_generate(struct dh_khost *h, struct dh_err *err)
{
    struct cvp_cfg *g = calloc(1, sizeof *g);
    if (!g)
        return dh_err_set(err, DH_E_RESOURCES, "frontier/cvp: out of host memory");
    h->priv = g;
    cfg_of(&h->vars, g);
    if (cvp_train(g, h->data[PRM]) || cvp_gen_image(g, g->seed, g->wp, g->hp, h->data[IMG]))
        return dh_err_set(err, DH_E_RESOURCES, "frontier/cvp: out of host memory for %ld "
                          "pixels", g->n);
    return 0;
}

/* priv from the vars alone (the workload cache's restore) */
static int cvp_restore(struct dh_khost *h, struct dh_err *err)
{
    struct cvp_cfg *g = calloc(1, sizeof *g);
    if (!g)
        return dh_err_set(err, DH_E_RESOURCES, "frontier/cvp: out of host memory");
    h->priv = g;
    cfg_of(&h->vars, g);
    return 0;
}

/* the pixel (x, y) = (i % w, i / w) inside the padding */
static const uint16_t *pixel(const struct dh_khost *h, long i)
{
    const struct cvp_cfg *g = h->priv;
    return (const uint16_t *)h->data[IMG] + (size_t)(i / g->w + CVP_R) * g->wp + i % g->w + CVP_R;
}

static int cvp_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    int *res = h->want[RES], *key = h->want[CTX];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        res[i] = cvp_predict(h->data[PRM], pixel(h, i), ((struct cvp_cfg *)h->priv)->wp,
                             &key[i], NULL, NULL);
    return 0;
}

/* cpu_tdr regroup=key: the tree walked on the CPU for every pixel (host
 * time of the variant), its model the key */
static int cvp_sort_key(const struct dh_khost *h, int *key)
{
    const struct cvp_cfg *g = h->priv;
    for (long i = 0; i < h->items; i++) {
        int f[CVP_NFEAT];
        cvp_features(pixel(h, i), g->wp, f);
        key[i] = cvp_walk(h->data[PRM], f, NULL);
    }
    return CVP_NMODEL;
}

/* cpu_tdr: each pixel's causal window copied into a patch, in the order
 * of perm */
static void gather_patches(const struct dh_khost *h, const int *perm, void *dst)
{
    const struct cvp_cfg *g = h->priv;
    for (long j = 0; j < h->items; j++) {
        long i = perm ? perm[j] : j;
        const uint16_t *src = pixel(h, i) - (size_t)CVP_R * g->wp - CVP_R;   /* (-R, -R) */
        uint16_t *d = (uint16_t *)dst + (size_t)j * CVP_PS;
        for (int r = 0; r < CVP_PH; r++)
            memcpy(d + r * CVP_PW, src + (size_t)r * g->wp, CVP_PW * sizeof *d);
    }
}

/* The ceiling: layer 1 keyed by model, layer 2 by case, each with its
 * paths' costs. */
static int cvp_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    const int *ctx = h->want[CTX];
    if (layer > 1)
        return 0;
    for (long i = 0; i < h->items; i++) {
        int m = 0;
        while (layer == 0 && ctx[i] >= cvp_key_base[m + 1])
            m++;
        key[i] = layer == 0 ? m : ctx[i];
    }
    *cost = layer == 0 ? cvp_cost_model : cvp_cost_key;
    return layer == 0 ? CVP_NMODEL : CVP_NKEY;
}

/* Blocks marked in cvp.k, in id order (CVP_BB_*): operations of one
 * execution, counted in the source of the unrolled (GPU) build by these
 * rules. Every operator counts once: +, -, abs, min, max, shifts, logic,
 * compares and selects as alu; a multiply (or multiply-add) as mul, by a
 * constant too, except that constants 0 and +-1 fold away (a term
 * k * x accumulated is then nothing, or one add); a division by a
 * constant power of two is 3 alu (sign fix-up and shift), by another
 * constant 1 mul + 2 alu; a division by a variable 1 div; a 64-bit
 * multiply 3 mul, a 64-bit add or subtract 2 alu, a 64-bit division 3 div
 * (a 64-bit division costs about three 32-bit ones), a 64-bit x16 2 alu.
 * Each global load (the model buffer, the image) is ldg, with 1 alu when
 * its index is data-dependent; index arithmetic written in the source
 * counts (4 * n + 1: one multiply-add). Moves and zeroing are free. A
 * block entered by a case or an if side has 1 br, each condition it
 * tests 1 br more, a loop 1 br per iteration. A side of at most ~8
 * simple operations (no load, no division by a variable) is if-converted:
 * every side's operations and the selects count in the enclosing block.
 *   entry    gid, both addresses and the patches select; 4 row offsets and
 *            41 window loads (w[41..44] are never read); 58 feature ops;
 *            the walk's first and last loads and its exit test; clamp,
 *            residual, two stores; the switch
 *   walk     feature select (6 compares, 6 selects), three node loads, the
 *            compare and child index select, the loop test
 *   flat     the run test and the two cases' select, key
 *   med      3 differences, 3 nine-level quantizers (8 compares, 8 selects
 *            each), context, bias load, sign, the median test; its three
 *            cases if-converted (min | max | W + N - NW, + bias)
 *   gap      24 gradient terms (sub, abs, add), the 5-way case select
 *   filter   two mean-shift passes (constant trip count 2, not unrolled):
 *            a division for the reference, 40 pixels of sub, abs, shift,
 *            min, table index, two table loads, weight multiply, two
 *            accumulations; the case select
 *   plane    two 40-pixel passes (the second: residual, taper, 9 sums),
 *            3 divisions by constants, the 64-bit Cramer solve (30
 *            multiplies, 17 add/subtract, 3 divisions); ON and OFF
 *            if-converted
 *   texture  24 candidates of a 4-term SAD and a two-slot running minimum
 *   *_curved, *_vlow, *_nlm  a further 40- or 24-pixel pass and a division */
static const struct dh_bb_def blocks[] = {
    {"entry", {.alu = 117, .mul = 7, .ldg = 43, .stg = 2, .br = 2}},
    {"walk", {.alu = 18, .mul = 2, .ldg = 3, .br = 1}},
    {"flat", {.alu = 5, .br = 1}},
    {"med", {.alu = 73, .mul = 2, .ldg = 1, .br = 1}},
    {"gap", {.alu = 80, .br = 2}},
    {"gap_sharp_h", {.alu = 8, .mul = 4, .br = 1}},
    {"gap_sharp_v", {.alu = 8, .mul = 4, .br = 2}},
    {"gap_soft", {.alu = 16, .mul = 4, .br = 2}},
    {"filter", {.alu = 494, .mul = 160, .div = 2, .ldg = 160, .br = 4}},
    {"filter_high", {.alu = 4, .div = 1, .br = 1}},
    {"filter_low", {.alu = 16, .div = 1, .br = 2}},
    {"filter_vlow", {.alu = 249, .mul = 80, .div = 1, .ldg = 80, .br = 2}},
    {"plane", {.alu = 524, .mul = 484, .div = 9, .br = 2}},
    {"plane_curved", {.alu = 103, .mul = 134, .div = 1, .ldg = 40, .br = 1}},
    {"texture", {.alu = 461, .br = 2}},
    {"texture_blend", {.alu = 11, .mul = 2, .div = 1, .ldg = 2, .br = 2}},
    {"texture_nlm", {.alu = 364, .mul = 24, .div = 1, .ldg = 24, .br = 2}},
};

_Static_assert(CVP_NMODEL == 6 && CVP_NKEY == 19 && CVP_NFEAT == 7 && CVP_R == 4,
               "cvp.c: update the kit's derived names");
static const struct dh_krule rules[] = {
    {"alg=hot_dgi,hot_warp_scan", "0", "alg=hot_dgi and hot_warp_scan use HoT on two-path "
     "layers, and no layer of cvp has two paths (layer 1: 6 models, layer 2: 19 cases): "
     "they are alg=dgi and dgi_scan here"},
    {0},
};

/* the remaps each form runs (cvp.k's gpu_tdr): by the pixel's model (6)
 * and by its layer-1 key (19), or by the model alone (model_*) */
static const struct dh_kremap remap_plan[] = {
    {"alg=dgi,lean_dgi,model_dgi", "dgi", "6", "1"},
    {"alg=dgi,lean_dgi", "dgi", "19", "1"},
    {"alg=dgi_scan,lean_scan,model_scan", "dgi_scan", "6", "1"},
    {"alg=dgi_scan,lean_scan", "dgi_scan", "19", "1"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"w=256 h=256", "w=2048 h=2048", "w=8192 h=4096"}, .items = "w * h",
    .noun = "pixels", .derive = "nmodel = 6; nkey = 19; nfeat = 7; wp = w + 8",
    DH_KIT_TABLES(bufs, entries), .rules = rules,
    .generate = cvp_generate, .reference = cvp_reference, .free_priv = free,
    .restore = cvp_restore,
    .sort_key = cvp_sort_key, .branch = cvp_branch, .defines = cvp_defines,
    /* cvp_gpu_tdr: two remap rounds (DGI or dgi_scan), the exchanges
     * (features; item and state) in ints, the work-group's pixel tile */
    .remap_plan = remap_plan,
    /* model_* (11, 12): one remap, nothing exchanged; lean_* (13, 14):
     * both remaps, the state (5 ints) exchanged at the second */
    .local = "per = alg == DGI_SCAN || alg == 12 || alg == 14 ? wg / warp : wg / nf;"
             "ints = alg == 11 || alg == 12 ? nmodel * per + wg + nmodel"
             "     : alg == 13 || alg == 14 ? (nmodel + nkey) * per + 2 * wg + nmodel + nkey + 5 * wg"
             "     : (nmodel + nkey) * per + 2 * wg + nmodel + nkey + (nfeat + 5) * wg;"
             "tile = wg <= w ? 5 * (wg + 8) : (wg / w + 4) * wp;"
             "bytes = 4 * ints + 2 * tile",
};

const struct dh_bench dh_bench_frontier_cvp = {
    .suite = "frontier", .name = "cvp", .source = dh_src_frontier_cvp,
    .summary = "computer-vision prediction: trained tree picks one of 6 pixel predictors, "
               "each with data-dependent refinement cases",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit),
};
