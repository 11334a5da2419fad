/* bbv/mc — marching cubes, triangle generation (the CUDA sample's
 * generateTriangles2, the TCAD BBV paper's MC), declared on the kit
 * (suites/lib/kit.h). Kernel: mc.k (read it first); the case tables:
 * mc_table.c, generated from the cube's geometry; the volume, the
 * compaction and the CPU reference: mc_vol.c. Variants:
 *   baseline                  one work-item per slot of the compacted
 *                             list of active voxels, in voxel order
 *   cpu_tdr[mech=rr,          the list regrouped on the host and passed as
 *     regroup=key|sort|       an index array (the sample's list is already
 *     greedy|greedymax]       an indirection, so rr costs one more load):
 *                             by triangle count, a counting sort, most
 *                             first (key), or by basic-block vectors
 *                             (entry + k triangle trips)
 *   gpu_tdr[alg=dgi|dgi_scan] each work-group remapped by the voxels'
 *                             triangle counts (6 paths: 5 .. 1, padding)
 *                             before the interpolation; only the slot
 *                             index moves
 * melded does not apply: the divergence is a loop's trip count, with no
 * second side to meld.
 *
 * Input (the sample reads a 32^3 Bucky.raw or evaluates an analytic
 * field; here no data files): n^3 byte samples, the sum of n^3 / 4096
 * seeded Gaussian blobs (a foam of merging blobs with 1..5 triangles per
 * active voxel: about 29%, 48%, 19%, 4.5% with 1, 2, 3, 4 and a few
 * with 5), iso 128. The classification and the scan, done on the device
 * by the sample (with thrust), are done on the host in setup; kernel_ms
 * is the triangle kernel. The active voxels' count depends on the seed:
 * the list has room for `cap` slots (about 15% above the seeds tried at
 * medium and large, 28% at small) and the slots past the last active
 * voxel are padding, which leaves after one load; the launch stops at
 * the last active voxel's work-group (mc_launch). The vertex arrays have
 * room for 7 per slot (5.98 per active voxel measured); a seed that
 * needs more is refused with the counts.
 * Sizes: n = 64, 256, 512 (about 17K, 1.35M, 11M active voxels).
 *
 * Verification (mc_verify): the per-slot vertex count exactly (the
 * device's case lookup); positions within 1e-5 (coordinates in [-1, 1],
 * SUITES.md 3.12); normals within 5e-7 absolute (they are cross products
 * of edges of a voxel's size, below (2 / (n - 1))^2: a position rounded
 * differently by contraction moves them by far less); and nothing
 * written where no voxel's vertices go: the room past the last vertex
 * and the padding slots' counts keep the poison.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"
#include "mc_table.h"
#include "mc_vol.h"

extern const char dh_src_bbv_mc[];   /* mc.k, embedded by make */

static const struct dh_param_def params[] = {
    DH_KIT_SEED,
    {"alg", DH_P_CHOICE, "enum:dgi,dgi_scan", "dgi", "gpu_tdr", "on-GPU remap by the voxel's triangle count (6 paths): dgi, or dgi_scan (warp votes: CUDA/HIP)"},
    {"mech", DH_P_CHOICE, "enum:rr", "rr", "cpu_tdr", "index array (rr): the regrouped list of slots; outputs stay where the slot's scan puts them"},
    DH_KIT_REGROUP("host regrouping of the active voxels: by triangle count, most first (key, a counting sort), or by basic-block vectors (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"", NULL};

enum { VOL, TRI, NVT, VOX, OFS, CLS, POS, NRM, NV };

static const struct dh_kbuf bufs[] = {
    [VOL] = {"vol", DH_T_U8, DH_IN, "n * n * n", DH_KB_ROTATE},
    [TRI] = {"tri", DH_T_I32, DH_IN, "4096"},
    [NVT] = {"nvt", DH_T_I32, DH_IN, "256"},
    [VOX] = {"vox", DH_T_I32, DH_IN, "items", DH_KB_ROTATE},
    [OFS] = {"ofs", DH_T_I32, DH_IN, "items", DH_KB_ROTATE},
    [CLS] = {"cls", DH_T_U8, DH_IN, "items", DH_KB_ROTATE, "gpu_tdr"},
    /* judged by mc_verify: the room past the data must keep the poison */
    [POS] = {"pos", DH_T_F32, DH_OUT, "3 * vcap", DH_KB_OWN, .tol = 1e-5},
    [NRM] = {"nrm", DH_T_F32, DH_OUT, "3 * vcap", DH_KB_OWN, .tol = 5e-7},
    [NV] = {"nv", DH_T_U8, DH_OUT, "items", DH_KB_OWN, .poison = 0xa5},
};

static const struct dh_kentry entries[] = {
    {"baseline", "mc_base", "vol tri nvt vox ofs pos nrm nv"},
    {"cpu_tdr/rr", "mc_rr", "vol tri nvt vox ofs pos nrm nv perm"},
    {"gpu_tdr", "mc_tdr", "vol tri nvt vox ofs cls pos nrm nv"},
    {0},
};

struct mc_priv {
    struct mc_table t;
    int n;
};

static int mc_generate(struct dh_khost *h, struct dh_err *err)
{
    const struct dh_pset *v = &h->vars;
    struct mc_priv *p = calloc(1, sizeof *p);
    if (!p)
        return dh_err_set(err, DH_E_RESOURCES, "mc: out of host memory");
    h->priv = p;
    if (mc_table_build(&p->t))
        return dh_err_set(err, DH_E_INTERNAL, "mc: the case tables do not close");
    int *tri = h->data[TRI], *nvt = h->data[NVT];
    for (int c = 0; c < MC_CASES; c++) {
        nvt[c] = p->t.nverts[c];
        for (int k = 0; k < MC_ROW; k++)
            tri[c * MC_ROW + k] = p->t.tri[c][k];
    }
    p->n = (int)dh_pset_num(v, "n", 64);
    uint64_t seed = 0x3c0be5ULL ^ ((uint64_t)dh_pset_num(v, "seed", 1) << 24);
    mc_vol_make(h->data[VOL], p->n, (long)dh_pset_num(v, "blobs", 64), seed);
    long nact, nverts, vcap = (long)dh_pset_num(v, "vcap", 0);
    if (mc_vol_compact(h->data[VOL], p->n, &p->t, h->items, vcap, h->data[VOX], h->data[CLS],
                       h->data[OFS], &nact, &nverts))
        return dh_err_set(err, DH_E_DATA, "mc: this seed's surface has %ld active voxels and "
                          "%ld vertices, the size has room for %ld and %ld", nact, nverts,
                          h->items, vcap);
    dh_pset_put(&h->vars, "nact", "", (double)nact, DH_P_WORKLOAD);
    dh_pset_put(&h->vars, "nverts", "", (double)nverts, DH_P_WORKLOAD);
    return 0;
}

static int mc_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    const struct mc_priv *p = h->priv;
    const int *vox = h->data[VOX], *ofs = h->data[OFS];
    const unsigned char *cls = h->data[CLS];
    long vcap = (long)dh_pset_num(&h->vars, "vcap", 0);
    unsigned char *nv = h->want[NV];
#pragma omp parallel for schedule(static)
    for (long s = 0; s < h->items; s++) {
        nv[s] = cls[s];
        if (vox[s] >= 0)
            mc_vol_voxel(h->data[VOL], p->n, &p->t, vox[s], ofs[s], vcap, h->want[POS],
                         h->want[NRM]);
    }
    return 0;
}

/* cpu_tdr's key: most triangles first, padding last (host time) */
static int mc_sort_key(const struct dh_khost *h, int *key)
{
    const unsigned char *cls = h->data[CLS];
#pragma omp parallel for schedule(static)
    for (long s = 0; s < h->items; s++)
        key[s] = cls[s] ? 5 - cls[s] / 3 : 5;
    return 6;
}

/* Blocks marked in mc.k (MC_BB_*), operations per execution counted in
 * the source: the entry's slot and sample loads (vox, ofs, 8 samples, the
 * count), the index and case arithmetic, 12 interpolations (two
 * subtractions, a division, three lerps, three local stores each) and
 * the count's store; a trip's three table loads, nine local loads, the
 * edges and cross product, and 18 stores. */
/* entry and tri counted against mc.k; divz0 .. divz11 are one fp32
 * division with a zero operand each, which the latency table prices (its
 * slow path on NVIDIA, nothing elsewhere) */
#define MC_DIVZ_DEF(e) {"divz" #e, {.fdivz = 1}}
static const struct dh_bb_def blocks[] = {
    {"entry", {.fp = 201, .alu = 82, .ldg = 11, .stg = 1, .lds = 36, .br = 2}},
    {"tri", {.fp = 15, .alu = 20, .ldg = 3, .lds = 9, .stg = 18, .br = 1}},
    MC_DIVZ_DEF(0), MC_DIVZ_DEF(1), MC_DIVZ_DEF(2), MC_DIVZ_DEF(3),
    MC_DIVZ_DEF(4), MC_DIVZ_DEF(5), MC_DIVZ_DEF(6), MC_DIVZ_DEF(7),
    MC_DIVZ_DEF(8), MC_DIVZ_DEF(9), MC_DIVZ_DEF(10), MC_DIVZ_DEF(11),
};

static double ops_of(const struct dh_bb_ops *o)
{
    return o->fp + o->alu + o->mul + o->div + o->ldg + o->stg + o->lds + o->atom + o->bar + o->br;
}

/* The ceiling: layer 0 the entry (every active voxel), layers 1..5 the
 * triangle loop's trips (the voxels with at least that many triangles),
 * priced by the blocks' operation counts */
static int mc_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    static double c_entry, c_tri;
    const unsigned char *cls = h->data[CLS];
    if (layer > 5)
        return 0;
    c_entry = ops_of(&blocks[0].ops);
    c_tri = ops_of(&blocks[1].ops);
    for (long s = 0; s < h->items; s++)
        key[s] = cls[s] && cls[s] / 3 >= layer ? 0 : -1;
    *cost = layer ? &c_tri : &c_entry;
    return 1;
}

/* the triangle kernel over the slots up to the last active voxel's
 * work-group, as the sample launches it; cpu_tdr over all slots, since a
 * regrouping may put padding anywhere (greedy makes whole groups of it,
 * which leave after two loads) */
static int mc_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                     struct dh_err *err)
{
    long wg = (long)dh_pset_num(&r->x->c->params, "wg", 256);
    long nact = (long)dh_pset_num(&r->h->vars, "nact", 0);
    size_t global = strcmp(e->variant, "cpu_tdr/rr") ? (size_t)((nact + wg - 1) / wg * wg) : 0;
    return dh_kit_launch(r, e, global ? global : (size_t)r->h->items, kernel_ms, err);
}

/* The outputs against the reference: the vertices (positions and normals
 * within their buffers' tolerances, as the kit judges), the counts of the
 * active slots exactly; and what no kernel may write still poisoned: the
 * room past the last vertex (NaN) and the padding slots' counts. Indices
 * run through pos, nrm and nv as laid out. */
static void mc_verify(const struct dh_khost *h, void *const *got, long base,
                      struct dh_verify *v)
{
    long vcap = (long)dh_pset_num(&h->vars, "vcap", 0);
    long nverts = (long)dh_pset_num(&h->vars, "nverts", 0);
    long nact = (long)dh_pset_num(&h->vars, "nact", 0);
    for (int b = POS; b <= NRM; b++) {
        const float *g = got[b], *w = h->want[b];
        double tol = h->kit->bufs[b].tol;
        for (long q = 0; q < 3; q++)
            for (long k = 0; k < vcap; k++) {
                long i = q * vcap + k;
                int bad = k < nverts ? !(fabs((double)g[i] - w[i]) <= tol * fmax(1.0, fabs(w[i])))
                                     : !isnan(g[i]);
                dh_verify_add(v, base + i, g[i], k < nverts ? w[i] : NAN, bad);
            }
        base += 3 * vcap;
    }
    const unsigned char *g = got[NV], *w = h->want[NV];
    unsigned char poison = (unsigned char)h->kit->bufs[NV].poison;
    for (long s = 0; s < h->items; s++) {
        unsigned char want = s < nact ? w[s] : poison;
        dh_verify_add(v, base + s, g[s], want, g[s] != want);
    }
}

/* the vertex list's local memory, every variant (gpu_tdr's remap adds
 * its own, .local) */
static int mc_check(const struct dh_case *c, const struct dh_pset *vars,
                    const struct dh_device_info *dev, char *why, size_t len)
{
    (void)c;
    long wg = (long)dh_pset_num(vars, "wg", 256);
    if (dev && dev->local_mem_bytes && (uint64_t)(144 * wg) > dev->local_mem_bytes) {
        snprintf(why, len, "the vertex list needs 144 bytes of local memory a lane, %ld at "
                 "wg %ld; the device has %llu", 144 * wg, wg,
                 (unsigned long long)dev->local_mem_bytes);
        return -DH_E_CONSTRAINT;
    }
    return 0;
}

static int mc_defines(const struct dh_case *c, const struct dh_pset *vars,
                      const struct dh_device_info *dev, char *buf, size_t len)
{
    (void)c, (void)vars, (void)dev;
    return snprintf(buf, len, "-D MC_ISO=%d", MC_ISO) < (int)len ? 0 : -DH_E_INTERNAL;
}

static const struct dh_kit kit = {
    .sizes = {"n=64 cap=24576", "n=256 cap=1572864", "n=512 cap=12582912"},
    .items = "cap", .noun = "voxel slots",
    .derive = "vcap = 7 * cap; blobs = n * n * n / 4096",
    .define = "MC_N = n; MC_VCAP = vcap",
    DH_KIT_TABLES(bufs, entries),
    .generate = mc_generate, .reference = mc_reference,
    .sort_key = mc_sort_key, .branch = mc_branch, .launch = mc_launch,
    .verify_more = mc_verify,
    .check = mc_check, .defines = mc_defines,
    /* the vertex list (36 floats a lane) and DGI's or dgi_scan's ints */
    .local = "bytes = 4 * (36 * wg + 6 * (alg == DGI ? wg / nf : wg / warp) + wg + 6)",
};

const struct dh_bench dh_bench_bbv_mc = {
    .suite = "bbv", .name = "mc", .source = dh_src_bbv_mc,
    .summary = "marching cubes triangle generation: a voxel's triangle count (1..5) is its loop's trip count",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr",
    .absent = "melded: the divergence is the triangle loop's trip count, with no second side to meld",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit),
};
