/* parboil/pb — max-pooling backward (Caffe's MaxPoolBackward; the on-GPU
 * TDR paper's PB), declared on the kit (suites/lib/kit.h). Kernel: pb.k
 * (read it first). Variants:
 *   baseline                  the window loop and hit test as written
 *   cpu_tdr[mech=rr,          host groups items by (windows, hits)
 *     regroup=key|sort|       (counting sort of a key computed from the
 *     greedy|greedymax]       mask each run) or by basic-block vectors;
 *                             the kernel reads item = perm[gid]
 *   gpu_tdr[alg=hot|dgi|      remap by the number of covering windows
 *     hot_warp|dgi_scan,      (gkey=trips, from the position) or by the hits
 *     gkey=trips|hits]        found in a first pass over the mask (the hit
 *                             bits travel with the item)
 * melded does not apply: the hit is an if-then with an empty else.
 *
 * Input (no data files in the original: network activations): bottom
 * data uniform from a per-element stream, the mask from a forward pass on
 * the host with Caffe's rule (the first strict maximum in row-major
 * window order, stored as h * W + w), top uniform in [-1, 1).
 */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"
#include "pb_map.h"

extern const char dh_src_parboil_pb[];   /* pb.k, embedded by make */

static const struct dh_param_def params[] = {
    {"k", DH_P_WORKLOAD, "int:1..5", "3", NULL, "pooling window (k x k)"},
    {"s", DH_P_WORKLOAD, "int:1..4", "2", NULL, "stride"},
    {"pad", DH_P_WORKLOAD, "int:0..2", "0", NULL, "padding (less than k)"},
    DH_KIT_SEED,
    {"alg", DH_P_CHOICE, "enum:hot,dgi,hot_warp,dgi_scan,static_trips", "hot", "gpu_tdr",
     "on-GPU remap algorithm: hot, hot_warp on more than one window (gkey=trips) or any hit "
     "(gkey=hits); dgi, dgi_scan on the number of windows or of hits (the _warp/_scan forms: "
     "CUDA/HIP); static_trips: no ballot, barrier or local memory, a static map from the "
     "global id to the position in which each class of covering windows (rows' count, "
     "columns' count) takes a contiguous range of every plane's ids (gkey=trips only)"},
    {"gkey", DH_P_CHOICE, "enum:hits,trips", "trips", "gpu_tdr", "what gpu_tdr remaps by: the windows' hits (a first pass over the mask, the hit bits exchanged) or the number of covering windows (from the position, no loads)"},
    {"mech", DH_P_CHOICE, "enum:rr", "rr", "cpu_tdr", "index array (rr): the output is written at the item's own index"},
    DH_KIT_REGROUP("host regrouping: by (windows, hits), or by basic-block vectors (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"k=3 s=2", "k=2 s=2", NULL};

enum { MASK, TOP, BOT, MAP };
static const struct dh_kbuf bufs[] = {
    [MASK] = {"mask", DH_T_I32, DH_IN, "planes * ph * pw", DH_KB_ROTATE},
    [TOP] = {"top", DH_T_F32, DH_IN, "planes * ph * pw", DH_KB_ROTATE},
    [BOT] = {"bottom", DH_T_F32, DH_OUT, "items", DH_KB_ITEM, .tol = 1e-6},
    /* alg=static_trips' map of one plane (every plane shares it) */
    [MAP] = {"map", DH_T_I32, DH_IN, "hh * ww", 0, "gpu_tdr"},
};

static const struct dh_kentry entries[] = {
    {"baseline", "pb_base", "mask top bottom"},
    {"cpu_tdr/rr", "pb_rr", "mask top bottom perm"},
    {"gpu_tdr", "pb_gpu_tdr", "mask top bottom map"},
    {0},
};

struct pb_dims {
    long planes;
    int hh, ww, k, s, pad, ph, pw, tw;
};

static struct pb_dims dims_of(const struct dh_khost *h)
{
    const struct dh_pset *v = &h->vars;
    struct pb_dims d = {
        (long)dh_pset_num(v, "planes", 0), (int)dh_pset_num(v, "hh", 0),
        (int)dh_pset_num(v, "ww", 0), (int)dh_pset_num(v, "k", 3), (int)dh_pset_num(v, "s", 2),
        (int)dh_pset_num(v, "pad", 0), (int)dh_pset_num(v, "ph", 0), (int)dh_pset_num(v, "pw", 0),
        (int)dh_pset_num(v, "tw", 0),
    };
    return d;
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

/* Caffe's forward max pooling, for the mask: window rows [hs, he) */
static int pb_generate(struct dh_khost *h, struct dh_err *err)
{
    struct pb_dims d = dims_of(h);
    uint64_t seed = 0x9b0ULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
    long plane = (long)d.hh * d.ww, pooled = (long)d.ph * d.pw;
    int *mask = h->data[MASK];
    float *top = h->data[TOP];
    float *bot = malloc((size_t)plane * d.planes * sizeof *bot);
    if (!bot)
        return dh_err_set(err, DH_E_RESOURCES, "pb: out of host memory for the bottom data");
#pragma omp parallel for schedule(static)
    for (long i = 0; i < plane * d.planes; i++)
        bot[i] = unit(seed, (uint64_t)i);
#pragma omp parallel for schedule(static)
    for (long p = 0; p < d.planes; p++)
        for (int ph = 0; ph < d.ph; ph++)
            for (int pw = 0; pw < d.pw; pw++) {
                int hs = ph * d.s - d.pad, ws = pw * d.s - d.pad;
                int he = hs + d.k < d.hh + d.pad ? hs + d.k : d.hh + d.pad;
                int we = ws + d.k < d.ww + d.pad ? ws + d.k : d.ww + d.pad;
                hs = hs > 0 ? hs : 0, ws = ws > 0 ? ws : 0;
                he = he < d.hh ? he : d.hh, we = we < d.ww ? we : d.ww;
                float best = -FLT_MAX;
                int arg = -1;
                for (int y = hs; y < he; y++)
                    for (int x = ws; x < we; x++)
                        if (bot[p * plane + (long)y * d.ww + x] > best) {
                            best = bot[p * plane + (long)y * d.ww + x];
                            arg = y * d.ww + x;
                        }
                long o = p * pooled + (long)ph * d.pw + pw;
                mask[o] = arg;
                top[o] = 2.0f * unit(seed ^ 0x70ULL, (uint64_t)o) - 1.0f;
            }
    free(bot);
    /* alg=static_trips' map: from the shape alone, one plane's worth
     * (hh * ww ints), made with the input and not timed, as a constant
     * table would be */
    if (!dh_pb_static_map(d.hh, d.ww, d.k, d.s, d.pad, d.ph, d.pw, h->data[MAP]))
        return dh_err_set(err, DH_E_DATA, "pb: k=%d s=%d gives more window classes than the "
                          "static map holds: use k <= 5", d.k, d.s);
    return 0;
}

/* the windows covering (y, x), as the kernel's PB_RANGE */
static void range_of(const struct pb_dims *d, int y, int x, int *phs, int *phe, int *pws,
                     int *pwe)
{
    *phs = y + d->pad < d->k ? 0 : (y + d->pad - d->k) / d->s + 1;
    *phe = (y + d->pad) / d->s + 1 < d->ph ? (y + d->pad) / d->s + 1 : d->ph;
    *pws = x + d->pad < d->k ? 0 : (x + d->pad - d->k) / d->s + 1;
    *pwe = (x + d->pad) / d->s + 1 < d->pw ? (x + d->pad) / d->s + 1 : d->pw;
}

/* per item of plane p: covering windows (trips) and hits, from one pass
 * over the plane's windows (hits: scratch of hh * ww) */
static void plane_counts(const struct pb_dims *d, const int *mask, long p, unsigned char *hits,
                         unsigned char *trips)
{
    long plane = (long)d->hh * d->ww, pooled = (long)d->ph * d->pw;
    memset(hits, 0, (size_t)plane);
    for (long o = 0; o < pooled; o++) {
        int a = mask[p * pooled + o];
        if (a >= 0 && a < plane)
            hits[a]++;
    }
    for (int y = 0; y < d->hh; y++)
        for (int x = 0; x < d->ww; x++) {
            int phs, phe, pws, pwe;
            range_of(d, y, x, &phs, &phe, &pws, &pwe);
            trips[(long)y * d->ww + x] = (unsigned char)((phe - phs) * (pwe - pws));
        }
}

static int pb_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct pb_dims d = dims_of(h);
    const int *mask = h->data[MASK];
    const float *top = h->data[TOP];
    float *out = h->want[BOT];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++) {
        int x = (int)(i % d.ww), y = (int)(i / d.ww % d.hh);
        long off = i / ((long)d.ww * d.hh) * d.ph * d.pw;
        int phs, phe, pws, pwe;
        range_of(&d, y, x, &phs, &phe, &pws, &pwe);
        float g = 0.0f;
        for (int ph = phs; ph < phe; ph++)
            for (int pw = pws; pw < pwe; pw++)
                if (mask[off + ph * d.pw + pw] == y * d.ww + x)
                    g += top[off + ph * d.pw + pw];
        out[i] = g;
    }
    return 0;
}

/* A key per item from its plane's window and hit counts, planes in
 * parallel: j < 0, trips * m + hits; else 0 where the count (hits when
 * `hit`, else trips) exceeds j, -1 elsewhere. 0 when out of memory. */
static int plane_keys(const struct dh_khost *h, const struct pb_dims *d, int j, int hit, int m,
                      int *key)
{
    long plane = (long)d->hh * d->ww;
    int bad = 0;
#pragma omp parallel reduction(|| : bad)
    {
        unsigned char *hits = malloc((size_t)plane), *trips = malloc((size_t)plane);
        bad = !hits || !trips;
#pragma omp for schedule(static)
        for (long p = 0; p < d->planes; p++) {
            if (bad)
                continue;
            plane_counts(d, h->data[MASK], p, hits, trips);
            int *k = key + p * plane;
            if (j < 0)
                for (long q = 0; q < plane; q++)
                    k[q] = trips[q] * m + hits[q];
            else
                for (long q = 0; q < plane; q++)
                    k[q] = (hit ? hits[q] : trips[q]) > j ? 0 : -1;
        }
        free(hits);
        free(trips);
    }
    return !bad;
}

/* cpu_tdr's key, from the mask each run: trips * (tw^2 + 1) + hits */
static int pb_sort_key(const struct dh_khost *h, int *key)
{
    struct pb_dims d = dims_of(h);
    int m = d.tw * d.tw + 1;
    return plane_keys(h, &d, -1, 0, m, key) ? m * m : 0;
}

/* The ceiling, one layer per loop iteration and per hit body: iteration
 * j runs in the lanes with more than j windows (or hits); a warp pays an
 * iteration when any lane takes it */
static int pb_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    (void)cost;
    struct pb_dims d = dims_of(h);
    int n = d.tw * d.tw, j = (int)(layer % (n ? n : 1)), hit = layer >= n;
    if (layer >= 2 * n)
        return 0;
    return plane_keys(h, &d, j, hit, 0, key) ? 1 : 0;
}

/* Blocks marked in pb.k (PB_BB_*), operations per execution counted in
 * the source: the entry's index arithmetic and window range (divisions
 * by constants as multiplies), the store; a window's mask load and
 * compare; a hit's top load and add. */
static const struct dh_bb_def blocks[] = {
    {"entry", {.alu = 20, .mul = 8, .stg = 1, .br = 1}},
    {"window", {.alu = 5, .mul = 1, .ldg = 1, .br = 2}},
    {"hit", {.fp = 1, .alu = 1, .ldg = 1}, .each = "window"},
};

static const struct dh_krule rules[] = {
    {NULL, "pad < k", "pad must be less than k (Caffe's rule)"},
    {"alg=static_trips", "gkey == 1", "alg=static_trips maps positions by their covering "
     "windows (gkey=trips): drop gkey=hits, or pick hot, dgi, hot_warp or dgi_scan for it"},
    {NULL, "hh + 2 * pad >= k && ww + 2 * pad >= k", "the window is larger than the padded plane"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"n=4 ch=64 hh=55 ww=55", "n=32 ch=96 hh=55 ww=55", "n=64 ch=256 hh=56 ww=56"},
    .items = "n * ch * hh * ww", .noun = "elements",
    /* Caffe's pooled size (ceil), less one where the last window starts in
     * the padding; tw: most windows along one axis; PB_P: DGI's paths */
    .derive = "planes = n * ch;"
              "ph0 = (hh + 2 * pad - k + s - 1) / s + 1;"
              "ph = pad > 0 && (ph0 - 1) * s >= hh + pad ? ph0 - 1 : ph0;"
              "pw0 = (ww + 2 * pad - k + s - 1) / s + 1;"
              "pw = pad > 0 && (pw0 - 1) * s >= ww + pad ? pw0 - 1 : pw0;"
              "tw = (k + s - 1) / s",
    .define = "PB_W = ww; PB_H = hh; PB_PH = ph; PB_PW = pw; PB_K = k; PB_S = s; PB_PAD = pad;"
              "PB_TW = tw; PB_GKEY = gkey; PB_P = gkey == 1 ? tw * tw + 1 : min(tw * tw, 4) + 1",
    DH_KIT_TABLES(bufs, entries), .rules = rules,
    .generate = pb_generate, .reference = pb_reference,
    .sort_key = pb_sort_key, .branch = pb_branch,
    /* pb_gpu_tdr's local memory (ints): the remap's, and the hit bits'
     * exchange; none for static_trips (alg code 25, suites/lib/kit.c) */
    .local = "npath = gkey == 1 ? tw * tw + 1 : min(tw * tw, 4) + 1;"
             "bytes = alg == 25 ? 0 : 4 * ((gkey == 1 ? 0 : wg) + (alg == HOT || alg == HOT_WARP"
             " ? wg + 2 : npath * (alg == DGI ? wg / nf : wg / warp) + wg + npath))",
};

const struct dh_bench dh_bench_parboil_pb = {
    .suite = "parboil", .name = "pb", .source = dh_src_parboil_pb,
    .summary = "max-pooling backward: position-dependent window loops, data-dependent hits",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr",
    .absent = "melded: the hit is an if-then with an empty else, nothing to meld",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit),
};
