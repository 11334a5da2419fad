/* frontier/cvp — host side: parameters, constraints, buffers, variants,
 * verification and the remap ceiling. The generator, the trained model
 * and the CPU reference are in cvp_model.c; the kernels in cvp.k (read
 * its header first). Variants:
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
 *                     paths, see cvp_check)
 *   melded            layer 2 melded per model (cvp.k says what and why)
 * Outputs: per pixel the residual and the context (layer-2 key), both
 * int32, compared exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../lib/regroup.h"
#include "../../lib/warpvotes.h"
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
    {"alg", DH_P_CHOICE, "enum:hot_dgi,dgi,dgi_scan,hot_warp_scan", "dgi", "gpu_tdr",
     "on-GPU remap per layer (CVP has no two-path layer: dgi and dgi_scan apply; "
     "dgi_scan needs warp votes, CUDA/HIP)"},
    {"mech", DH_P_CHOICE, "enum:dlt", "dlt", "cpu_tdr",
     "apply the host regrouping by data layout: each pixel's causal window moved"},
    {"regroup", DH_P_CHOICE, "enum:key,sort,greedy,greedymax", "key", "cpu_tdr",
     "host regrouping: by the tree's model (walked on the CPU), or by basic-block vectors "
     "(sort, greedy, greedymax)"},
    {"group", DH_P_TUNABLE, "int:1..65536", "64", "cpu_tdr",
     "items per group of the BBV regroupings (a multiple of the warp width)",
     "regroup=greedy,greedymax"},
    {"wg", DH_P_TUNABLE, "int:1..1024", "256", NULL, "work-group size"},
    {"nf", DH_P_TUNABLE, "int:1..1024", "16", "gpu_tdr", "DGI neighboring factor"},
    {0},
};

static const char *const sweep[] = {"seed=1", NULL};

struct cvp_state {
    struct cvp_cfg cfg;
    uint16_t *img;                      /* hp x wp */
    int32_t prm[CVP_PRM_INTS];
    int *ref_res, *ref_key;             /* CPU reference */
    int *res, *ctx;                     /* downloads */
    /* cpu_tdr */
    int *hkey, *perm, *tmp;
    uint16_t *patch;
    /* device */
    struct dh_buffer **bimg, *bprm, *bres, *bctx, *bpatch;
    int rot;
};

static void size_of(const char *size, int *w, int *h)
{
    if (!strcmp(size, "small")) {
        *w = 256;
        *h = 256;
    } else if (!strcmp(size, "medium")) {
        *w = 2048;
        *h = 2048;
    } else {
        *w = 8192;
        *h = 4096;
    }
}

static void cfg_of(const struct dh_case *c, struct cvp_cfg *g)
{
    memset(g, 0, sizeof *g);
    size_of(c->size, &g->w, &g->h);
    g->wp = g->w + 2 * CVP_R;
    g->hp = g->h + CVP_R;
    g->n = (long)g->w * g->h;
    g->seed = (unsigned)dh_pset_num(&c->params, "seed", 1);
    g->noise = (int)dh_pset_num(&c->params, "noise", 24);
    g->texture = dh_pset_num(&c->params, "texture", 0.3);
}

/* local memory of cvp_gpu_tdr: two remap rounds (DGI or dgi_scan), the
 * exchanges (features; item and state), the work-group's pixel tile */
static uint64_t tdr_local_bytes(const struct cvp_cfg *g, int wg, int nf, int warp, int scan)
{
    uint64_t per = (uint64_t)wg / (uint64_t)(scan ? warp : nf);
    uint64_t ints = (uint64_t)CVP_NMODEL * per + (uint64_t)CVP_NKEY * per + 2 * (uint64_t)wg
                    + CVP_NMODEL + CVP_NKEY + (uint64_t)(CVP_NFEAT + 5) * (uint64_t)wg;
    uint64_t tile = wg <= g->w ? 5 * (uint64_t)(wg + 8)
                               : (uint64_t)(wg / g->w + 4) * (uint64_t)g->wp;
    return 4 * ints + 2 * tile;
}

static int cvp_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                     size_t len)
{
    struct cvp_cfg g;
    cfg_of(c, &g);
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    if (wg < 1 || g.n % wg) {
        snprintf(why, len, "wg=%d does not divide the %ld pixels of size %s: use a power of two",
                 wg, g.n, c->size);
        return -DH_E_CONSTRAINT;
    }
    int rg = dh_regroup_check(c, dev, why, len);
    if (rg)
        return rg;
    if (strcmp(c->variant, "gpu_tdr"))
        return 0;
    const char *alg = dh_pset_text(&c->params, "alg", "dgi");
    if (!strncmp(alg, "hot", 3)) {
        snprintf(why, len, "alg=%s uses HoT on two-path layers, and no layer of cvp has two "
                 "paths (layer 1: %d models, layer 2: %d cases): it is alg=%s here",
                 alg, CVP_NMODEL, CVP_NKEY, strcmp(alg, "hot_dgi") ? "dgi_scan" : "dgi");
        return -DH_E_CONSTRAINT;
    }
    int scan = !strcmp(alg, "dgi_scan");
    int vr = scan ? dh_warp_votes_check(c, dev, alg, "dgi", why, len) : 0;
    if (vr)
        return vr;
    int nf = (int)dh_pset_num(&c->params, "nf", 16);
    int warp = dev && dev->warp_width ? dev->warp_width : 32;
    uint64_t bytes = tdr_local_bytes(&g, wg, nf > 0 ? nf : 1, warp, scan);
    if (dev && dev->local_mem_bytes && bytes > dev->local_mem_bytes) {
        snprintf(why, len, "the remap rounds and the pixel tile need %llu bytes of local "
                 "memory, the device has %llu: use a smaller wg%s", (unsigned long long)bytes,
                 (unsigned long long)dev->local_mem_bytes, scan ? "" : " or a larger nf");
        return -DH_E_CONSTRAINT;
    }
    return 0;
}

static uint64_t cvp_bytes(const struct dh_case *c, int rotate)
{
    int w, h;
    size_of(c->size, &w, &h);
    uint64_t n = (uint64_t)w * (uint64_t)h;
    uint64_t img = (uint64_t)(w + 2 * CVP_R) * (uint64_t)(h + CVP_R) * 2;
    uint64_t b = 8 * n + 4 * CVP_PRM_INTS;
    if (!strcmp(c->variant, "cpu_tdr"))
        return b + n * CVP_PS * 2;
    return b + img * (uint64_t)(rotate > 0 ? rotate : 1);
}

static int cvp_defines(const struct dh_case *c, const struct dh_device_info *dev, char *buf,
                       size_t len)
{
    struct cvp_cfg g;
    cfg_of(c, &g);
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
    if (o < len && !strcmp(c->variant, "gpu_tdr")) {
        const char *alg = dh_pset_text(&c->params, "alg", "dgi");
        o += (size_t)snprintf(buf + o, len - o, " -D TDR_ALG=%d -D TDR_NF=%d",
                              !strcmp(alg, "dgi_scan") ? 4 : 2,
                              (int)dh_pset_num(&c->params, "nf", 16));
    }
    return o < len ? 0 : -DH_E_INTERNAL;
}

static void cvp_release(void *st)
{
    struct cvp_state *s = st;
    if (!s)
        return;
    free(s->img); free(s->ref_res); free(s->ref_key); free(s->res); free(s->ctx);
    free(s->hkey); free(s->perm); free(s->tmp); free(s->patch);
    free(s);
}

static int cvp_setup(const struct dh_case *c, void **out, struct dh_err *err)
{
    struct cvp_state *s = calloc(1, sizeof *s);
    if (!s)
        return dh_err_set(err, DH_E_RESOURCES, "frontier/cvp: out of host memory");
    cfg_of(c, &s->cfg);
    const struct cvp_cfg *g = &s->cfg;
    size_t n = (size_t)g->n;
    s->img = malloc((size_t)g->wp * g->hp * sizeof *s->img);
    s->ref_res = malloc(n * sizeof *s->ref_res);
    s->ref_key = malloc(n * sizeof *s->ref_key);
    s->res = malloc(n * sizeof *s->res);
    s->ctx = malloc(n * sizeof *s->ctx);
    if (!s->img || !s->ref_res || !s->ref_key || !s->res || !s->ctx
        || cvp_train(g, s->prm) || cvp_gen_image(g, g->seed, g->wp, g->hp, s->img)) {
        cvp_release(s);
        return dh_err_set(err, DH_E_RESOURCES, "frontier/cvp: out of host memory for %ld "
                          "pixels", g->n);
    }
#pragma omp parallel for schedule(static)
    for (long i = 0; i < g->n; i++) {
        const uint16_t *p = s->img + (size_t)(i / g->w + CVP_R) * g->wp + i % g->w + CVP_R;
        s->ref_res[i] = cvp_predict(s->prm, p, g->wp, &s->ref_key[i], NULL, NULL);
    }
    *out = s;
    return 0;
}

static int cvp_upload(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct cvp_state *s = st;
    const struct cvp_cfg *g = &s->cfg;
    size_t n = (size_t)g->n, img_bytes = (size_t)g->wp * g->hp * sizeof *s->img;
    int rc;
    if ((rc = x->be->alloc(x->dev, sizeof s->prm, &s->bprm, err))
        || (rc = x->be->copy(s->bprm, s->prm, sizeof s->prm, DH_TO_DEVICE, err))
        || (rc = x->be->alloc(x->dev, n * 4, &s->bres, err))
        || (rc = x->be->alloc(x->dev, n * 4, &s->bctx, err)))
        return rc;
    if (!strcmp(x->c->variant, "cpu_tdr")) {
        if (!s->perm) {     /* host buffers of the regrouping, kept for reuse */
            s->hkey = malloc(n * sizeof *s->hkey);
            s->perm = malloc(n * sizeof *s->perm);
            s->tmp = malloc(n * sizeof *s->tmp);
            s->patch = malloc(n * CVP_PS * sizeof *s->patch);
            if (!s->hkey || !s->perm || !s->tmp || !s->patch)
                return dh_err_set(err, DH_E_RESOURCES, "frontier/cvp: out of host memory "
                                  "for the patches of %zu pixels", n);
        }
        return x->be->alloc(x->dev, n * CVP_PS * sizeof *s->patch, &s->bpatch, err);
    }
    s->rot = x->rotate > 0 ? x->rotate : 1;
    s->bimg = calloc((size_t)s->rot, sizeof *s->bimg);
    if (!s->bimg)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    for (int r = 0; r < s->rot; r++)
        if ((rc = x->be->alloc(x->dev, img_bytes, &s->bimg[r], err))
            || (rc = x->be->copy(s->bimg[r], s->img, img_bytes, DH_TO_DEVICE, err)))
            return rc;
    return 0;
}


/* cpu_tdr's host work before the launch (regroup=key): the tree on the
 * CPU for every pixel, a stable counting sort by model into s->perm (slot
 * j -> pixel). Single-threaded, like micro/branch. */
static void regroup_by_key(struct cvp_state *s)
{
    const struct cvp_cfg *g = &s->cfg;
    long start[CVP_NMODEL] = {0}, cnt[CVP_NMODEL] = {0};
    for (long i = 0; i < g->n; i++) {
        const uint16_t *p = s->img + (size_t)(i / g->w + CVP_R) * g->wp + i % g->w + CVP_R;
        int f[CVP_NFEAT];
        cvp_features(p, g->wp, f);
        s->hkey[i] = cvp_walk(s->prm, f, NULL);
        cnt[s->hkey[i]]++;
    }
    for (int k = 1; k < CVP_NMODEL; k++)
        start[k] = start[k - 1] + cnt[k - 1];
    for (long i = 0; i < g->n; i++)
        s->perm[start[s->hkey[i]]++] = (int)i;
}

static void by_key(void *s)
{
    regroup_by_key(s);
}

/* ... then, whichever regrouping filled s->perm, the causal windows moved
 * into patches in that order */
static void fill_patches(struct cvp_state *s)
{
    const struct cvp_cfg *g = &s->cfg;
    for (long j = 0; j < g->n; j++) {
        long i = s->perm[j];
        const uint16_t *src = s->img + (size_t)(i / g->w) * g->wp + i % g->w;  /* (-R, -R) */
        uint16_t *dst = s->patch + (size_t)j * CVP_PS;
        for (int r = 0; r < CVP_PH; r++)
            memcpy(dst + r * CVP_PW, src + (size_t)r * g->wp, CVP_PW * sizeof *dst);
    }
}

static void put_back(const struct cvp_state *s, const int *sorted, int *out)
{
    for (long j = 0; j < s->cfg.n; j++)
        out[s->perm[j]] = sorted[j];
}

static int cvp_run(void *st, struct dh_exec *x, int rep, struct dh_sample *smp,
                   struct dh_err *err)
{
    struct cvp_state *s = st;
    const char *v = x->c->variant;
    size_t n = (size_t)s->cfg.n;
    int rc;
    int dlt = !strcmp(v, "cpu_tdr");
    struct dh_buffer *in = dlt ? s->bpatch : s->bimg[(rep < 0 ? -rep : rep) % s->rot];
    struct dh_arg args[5] = {
        {.kind = DH_ARG_BUFFER, .v.buf = in},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bprm},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bres},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bctx},
        {.kind = DH_ARG_I32, .v.i32 = dlt},
    };
    struct dh_launch l = {.kernel = "cvp_baseline", .global = n,
                          .local = (size_t)dh_pset_num(&x->c->params, "wg", 256),
                          .n_args = 5, .args = args};
    memset(smp, 0, sizeof *smp);
    if (dlt) {
        if ((rc = dh_regroup_run(x, s->perm, by_key, s, &smp->host_ms, err)))
            return rc;
        double t0 = dh_now_ms();
        fill_patches(s);
        smp->host_ms += dh_now_ms() - t0;
        t0 = dh_now_ms();
        if ((rc = x->be->copy(s->bpatch, s->patch, n * CVP_PS * sizeof *s->patch,
                              DH_TO_DEVICE, err)))
            return rc;
        smp->xfer_ms = dh_now_ms() - t0;   /* 45 pixels a pixel: beyond any upload */
    } else if (!strcmp(v, "gpu_tdr")) {
        l.kernel = "cvp_gpu_tdr";
        l.n_args = 4;
    } else if (!strcmp(v, "melded")) {
        l.kernel = "cvp_melded";
        l.n_args = 4;
    }
    if ((rc = dh_exec_launch(x, &l, &smp->kernel_ms, err)))
        return rc;
    if (dlt) {
        /* results come in the regrouped order; the download every variant
         * pays, putting them back is this variant's host work */
        if ((rc = x->be->copy(s->bres, s->res, n * 4, DH_TO_HOST, err))
            || (rc = x->be->copy(s->bctx, s->ctx, n * 4, DH_TO_HOST, err)))
            return rc;
        double t0 = dh_now_ms();
        put_back(s, s->res, s->tmp);
        put_back(s, s->ctx, s->hkey);
        smp->host_ms += dh_now_ms() - t0;
    }
    return 0;
}

static int cvp_poison(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct cvp_state *s = st;
    size_t n = (size_t)s->cfg.n;
    for (size_t i = 0; i < n; i++)
        s->res[i] = s->ctx[i] = 0x7eadbeef;
    int rc = x->be->copy(s->bres, s->res, n * 4, DH_TO_DEVICE, err);
    return rc ? rc : x->be->copy(s->bctx, s->ctx, n * 4, DH_TO_DEVICE, err);
}

static void note(struct dh_verify *vf, long index, double got, double want)
{
    if (vf->n_first < DH_MAX_MISMATCH) {
        vf->first[vf->n_first].index = index;
        vf->first[vf->n_first].got = got;
        vf->first[vf->n_first].want = want;
        vf->n_first++;
    }
    vf->mismatches++;
    double e = got > want ? got - want : want - got;
    if (e > vf->max_abs_err)
        vf->max_abs_err = e;
}

/* Exact comparison: residuals are indices 0..n-1, contexts n..2n-1. */
static int cvp_verify(void *st, struct dh_exec *x, struct dh_verify *vf, struct dh_err *err)
{
    struct cvp_state *s = st;
    long n = s->cfg.n;
    int rc;
    if ((rc = x->be->copy(s->bres, s->res, (size_t)n * 4, DH_TO_HOST, err))
        || (rc = x->be->copy(s->bctx, s->ctx, (size_t)n * 4, DH_TO_HOST, err)))
        return rc;
    const int *res = s->res, *ctx = s->ctx;
    if (!strcmp(x->c->variant, "cpu_tdr")) {
        /* the device holds the regrouped order of the last run */
        put_back(s, s->res, s->tmp);
        put_back(s, s->ctx, s->hkey);
        res = s->tmp;
        ctx = s->hkey;
    }
    memset(vf, 0, sizeof *vf);
    for (long i = 0; i < n; i++)
        if (res[i] != s->ref_res[i])
            note(vf, i, res[i], s->ref_res[i]);
    for (long i = 0; i < n; i++)
        if (ctx[i] != s->ref_key[i])
            note(vf, n + i, ctx[i], s->ref_key[i]);
    vf->checked = 2 * n;
    return 0;
}

/* Layer 1 keyed by model, layer 2 by key, each with its paths' costs. */
static double cvp_ceiling(void *st, const struct dh_case *c, int warp)
{
    struct cvp_state *s = st;
    if (strcmp(c->variant, "gpu_tdr"))
        return 0;
    long n = s->cfg.n;
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    int *model = malloc((size_t)n * sizeof *model);
    if (!model)
        return 0;
    for (long i = 0; i < n; i++) {
        int m = 0;
        while (s->ref_key[i] >= cvp_key_base[m + 1])
            m++;
        model[i] = m;
    }
    double co = 0, cs = 0;
    dh_ceiling_layer_w(model, n, wg, warp, CVP_NMODEL, cvp_cost_model, &co, &cs);
    dh_ceiling_layer_w(s->ref_key, n, wg, warp, CVP_NKEY, cvp_cost_key, &co, &cs);
    free(model);
    return cs > 0 ? co / cs : 0;
}

static void cvp_teardown(void *st, struct dh_exec *x)
{
    struct cvp_state *s = st;
    if (x) {
        for (int r = 0; r < s->rot; r++)
            if (s->bimg && s->bimg[r])
                x->be->free_buffer(s->bimg[r]);
        if (s->bprm) x->be->free_buffer(s->bprm);
        if (s->bres) x->be->free_buffer(s->bres);
        if (s->bctx) x->be->free_buffer(s->bctx);
        if (s->bpatch) x->be->free_buffer(s->bpatch);
    }
    free(s->bimg);
    s->bimg = NULL;
    s->bprm = s->bres = s->bctx = s->bpatch = NULL;
    s->rot = 0;
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

/* one work-item per predicted pixel */
static long cvp_items(void *st)
{
    return ((struct cvp_state *)st)->cfg.n;
}

const struct dh_bench dh_bench_frontier_cvp = {
    .suite = "frontier",
    .name = "cvp",
    .summary = "computer-vision prediction: trained tree picks one of 6 pixel predictors, "
               "each with data-dependent refinement cases",
    .source = dh_src_frontier_cvp,
    .params = params,
    .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    .sweep = sweep,
    .check = cvp_check,
    .device_bytes = cvp_bytes,
    .defines = cvp_defines,
    .setup = cvp_setup,
    .upload = cvp_upload,
    .run = cvp_run,
    .poison = cvp_poison,
    .verify = cvp_verify,
    .ceiling = cvp_ceiling,
    .teardown = cvp_teardown,
    .release = cvp_release,
    .blocks = blocks,
    .n_blocks = (int)(sizeof blocks / sizeof blocks[0]),
    .bound = "compute",
    .items = cvp_items,
};
