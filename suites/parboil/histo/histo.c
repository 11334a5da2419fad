/* parboil/histo — Parboil's saturating histogram (the on-GPU TDR paper's
 * HISTO: rare deep paths, little to gain), declared on the kit
 * (suites/lib/kit.h). Kernel: histo.k (read it first). A run is the main
 * kernel (timed) and the final one (launched every run, not timed: it
 * merges and clears). Variants:
 *   baseline                  the grid-stride walk as written
 *   cpu_tdr[mech=dlt,         the host sorts the image by range (stable
 *     regroup=key]            counting sort of the elements, then moves
 *                             them), so a chunk's elements share a range
 *   gpu_tdr[alg=hot|dgi|      each chunk remapped in the work-group before
 *     hot_warp|dgi_scan]      the in-range test
 * melded does not apply (if-thens without an else, on different memories);
 * the BBV regroupings do not either: a work-item is not an element.
 *
 * Input: a 2-D Gaussian of bin indices around the histogram's centre
 * (about a dozen central ranges of 24576 bins), a `tail` share uniform
 * over every bin (the outside path) and a `hot` share on four bins that
 * pass 255 (the overflow path). The prescan (Parboil's first kernel) runs
 * here: the central ranges are the fewest contiguous ones around the
 * fullest that hold 99% of the elements.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_parboil_histo[];   /* histo.k, embedded by make */

#define BPB 24576                           /* bins per range (histo.k's HI_BPB) */
#define BX 14                               /* groups per range (Parboil's BLOCK_X) */

static const struct dh_param_def params[] = {
    {"hot", DH_P_WORKLOAD, "real:0..0.2", "0.02", NULL, "share of elements on four hot bins (the overflow path)"},
    {"tail", DH_P_WORKLOAD, "real:0..0.5", "0.005", NULL, "share of elements uniform over all bins (the outside path)"},
    DH_KIT_SEED,
    DH_KIT_ALG4("hot, hot_warp on in-range; dgi, dgi_scan on none / in range / outside"),
    {"mech", DH_P_CHOICE, "enum:dlt", "dlt", "cpu_tdr", "the image moved into range order (data layout)"},
    {"regroup", DH_P_CHOICE, "enum:key", "key", "cpu_tdr", "host regrouping: by range (the BBV regroupings do not apply: a work-item is not an element)"},
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"hot=0.02 tail=0.005", NULL};

enum { IMG, SUB, OVF, GOUT, OUT };
static const struct dh_kbuf bufs[] = {
    [IMG] = {"img", DH_T_U32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    [SUB] = {"sub", DH_T_U32, DH_SCRATCH, "nrmax * 24576"},
    [OVF] = {"ovf", DH_T_U32, DH_SCRATCH, "nrmax * 24576"},
    [GOUT] = {"gout", DH_T_U32, DH_SCRATCH, "bins"},
    [OUT] = {"histo", DH_T_U8, DH_OUT, "bins"},
};

static const struct dh_kentry entries[] = {
    {"baseline", "histo_main", "img sub ovf gout items rlo nr"},
    {"gpu_tdr", "histo_gpu_tdr", "img sub ovf gout items rlo nr"},
    {0},
};

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t seed, uint64_t i)      /* (0, 1) */
{
    return ((double)(mix(seed ^ (i * 0xd1342543de82ef95ULL)) >> 11) + 0.5) * 0x1.0p-53;
}

static int histo_generate(struct dh_khost *h, struct dh_err *err)
{
    const struct dh_pset *v = &h->vars;
    long hw = (long)dh_pset_num(v, "hw", 0), hh = (long)dh_pset_num(v, "hh", 0), bins = hw * hh;
    double hot = dh_pset_num(v, "hot", 0.02), tail = dh_pset_num(v, "tail", 0.005);
    double sx = (double)hw / 6.0, sy = 2.4 * BPB / (double)hw;
    uint64_t seed = 0x415ULL ^ ((uint64_t)dh_pset_num(v, "seed", 1) << 24);
    long centre = hh / 2 * hw + hw / 2;
    uint32_t *img = h->data[IMG];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++) {
        double u = unit(seed, 3 * (uint64_t)i), a = unit(seed, 3 * (uint64_t)i + 1),
               b = unit(seed, 3 * (uint64_t)i + 2);
        long bin;
        if (u < tail) {
            bin = (long)(a * (double)bins);
        } else if (u < tail + hot) {          /* the low byte of four words */
            bin = (centre & ~3L) + 4L * 1031L * (long)(a * 4.0);
        } else {                              /* Box-Muller */
            double r = sqrt(-2.0 * log(a));
            long x = lround((double)hw / 2.0 + sx * r * cos(2.0 * M_PI * b));
            long y = lround((double)hh / 2.0 + sy * r * sin(2.0 * M_PI * b));
            x = x < 0 ? 0 : x >= hw ? hw - 1 : x;
            y = y < 0 ? 0 : y >= hh ? hh - 1 : y;
            bin = y * hw + x;
        }
        img[i] = (uint32_t)(bin < 0 ? 0 : bin >= bins ? bins - 1 : bin);
    }
    /* the prescan: the fewest contiguous ranges around the fullest with 99% */
    long nrmax = (bins + BPB - 1) / BPB, *cnt = calloc((size_t)nrmax, sizeof *cnt);
    if (!cnt)
        return dh_err_set(err, DH_E_RESOURCES, "histo: out of host memory");
    for (long i = 0; i < h->items; i++)
        cnt[img[i] / BPB]++;
    long lo = 0;
    for (long r = 1; r < nrmax; r++)
        lo = cnt[r] > cnt[lo] ? r : lo;
    long hi = lo, held = cnt[lo];
    while (held < (long)ceil(0.99 * (double)h->items) && (lo > 0 || hi < nrmax - 1)) {
        if (hi == nrmax - 1 || (lo > 0 && cnt[lo - 1] >= cnt[hi + 1]))
            held += cnt[--lo];
        else
            held += cnt[++hi];
    }
    free(cnt);
    dh_pset_put(&h->vars, "rlo", "", (double)lo, DH_P_WORKLOAD);
    dh_pset_put(&h->vars, "nr", "", (double)(hi - lo + 1), DH_P_WORKLOAD);
    return 0;
}

static int histo_reference(struct dh_khost *h, struct dh_err *err)
{
    long bins = h->count[OUT];
    uint32_t *n = calloc((size_t)bins, sizeof *n);
    if (!n)
        return dh_err_set(err, DH_E_RESOURCES, "histo: out of host memory for the reference");
    const uint32_t *img = h->data[IMG];
    for (long i = 0; i < h->items; i++)
        n[img[i]] += n[img[i]] < 255;
    uint8_t *out = h->want[OUT];
    for (long b = 0; b < bins; b++)
        out[b] = (uint8_t)n[b];
    free(n);
    return 0;
}

/* main (timed) over HI_BX groups per central range, then final over the
 * bins (not timed: the same in every variant) */
static int histo_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                        struct dh_err *err)
{
    const struct dh_pset *v = &r->h->vars;
    long nr = (long)dh_pset_num(v, "nr", 1), wg = (long)dh_pset_num(&r->x->c->params, "wg", 256);
    double ms = 0;
    int rc = dh_kit_launch(r, e, (size_t)(BX * nr * wg), kernel_ms, err);
    struct dh_kentry fin = {e->variant, "histo_final", "sub ovf gout histo rlo nr"};
    return rc ? rc : dh_kit_launch(r, &fin, (size_t)r->h->count[OUT], &ms, err);
}

/* cpu_tdr's key: the element's range (host time of the variant) */
static int histo_sort_key(const struct dh_khost *h, int *key)
{
    const uint32_t *img = h->data[IMG];
    for (long i = 0; i < h->items; i++)
        key[i] = (int)(img[i] / BPB);
    return (int)((h->count[OUT] + BPB - 1) / BPB);
}

/* The ceiling over the work-groups' chunks (wg consecutive elements):
 * layer 0 the walk itself (every element, once per central range), then
 * one layer per central range (its elements take the in-range path in
 * that range's groups), then the outside path (y = 0 groups). Costs
 * relative to one chunk step (a load and a compare): a local atomic 1, a
 * read-test-atomic on global memory 2. */
static int histo_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    static double walk;
    static const double one = 1.0, two = 2.0;
    long rlo = (long)dh_pset_num(&h->vars, "rlo", 0), nr = (long)dh_pset_num(&h->vars, "nr", 1);
    const uint32_t *img = h->data[IMG];
    if (layer > nr + 1)
        return 0;
    for (long i = 0; i < h->items; i++) {
        long rg = img[i] / BPB;
        key[i] = layer == 0 ? 0
                 : layer <= nr ? (rg == rlo + layer - 1 ? 0 : -1)
                               : (rg < rlo || rg >= rlo + nr ? 0 : -1);
    }
    walk = (double)nr;
    *cost = layer == 0 ? &walk : layer <= nr ? &one : &two;
    return 1;
}

static const struct dh_kit kit = {
    .sizes = {"iw=256 ih=256 hw=1024 hh=1024", "iw=1024 ih=1024 hw=4096 hh=2048",
              "iw=4096 ih=4096 hw=4096 hh=4096"},
    .items = "iw * ih", .noun = "elements",
    .derive = "bins = hw * hh; nrmax = (bins + 24575) / 24576",
    .define = "HI_BINS = bins; HI_BX = 14",
    DH_KIT_TABLES(bufs, entries),
    .generate = histo_generate, .reference = histo_reference, .launch = histo_launch,
    .sort_key = histo_sort_key, .branch = histo_branch,
    /* histo_gpu_tdr's local memory: the 24 KiB histogram, the remap's
     * ints and the element's exchange */
    .local = "bytes = 24576 + 4 * (wg + (alg == HOT || alg == HOT_WARP ? wg + 2"
             " : 3 * (alg == DGI ? wg / nf : wg / warp) + wg + 3))",
};

const struct dh_bench dh_bench_parboil_histo = {
    .suite = "parboil", .name = "histo", .source = dh_src_parboil_histo,
    .summary = "saturating histogram: rare in-range, overflow and outside paths (a low-potential control)",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr",
    .absent = "melded: the paths are if-thens without an else, on different memories",
    .bound = "memory", DH_KIT(kit),
};
