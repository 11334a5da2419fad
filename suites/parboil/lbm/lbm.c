/* parboil/lbm — Parboil's lattice-Boltzmann stream-collide (the on-GPU TDR
 * paper's LBM), declared on the kit (suites/lib/kit.h). Kernel: lbm.k
 * (read it first). One run is `steps` launches, ping-ponged from the
 * pristine grid f0 through tmp into f, so every repetition starts from
 * the same input. Variants:
 *   baseline                  the branch on the cell's flag as written
 *   cpu_tdr[mech=rr,          host groups cells by flag (counting sort) or
 *     regroup=key|sort|       by their basic-block vectors; the kernel reads
 *     greedy|greedymax]       cell = perm[gid] (the stencil is positional:
 *                             no dlt)
 *   gpu_tdr[alg=hot|dgi|      remap the cell by its flag before the gathers
 *     hot_warp|dgi_scan]
 * melded does not apply: the obstacle side (19 moves) and the fluid side
 * (the collision) share no work, and the stores already follow the join.
 *
 * Input, made here instead of Parboil's obstacle file: the lid-driven
 * cavity's walls and ACCEL planes as Parboil sets them, plus seeded solid
 * spheres until `obst` of the interior is solid (shape=spheres), or solid
 * cells drawn one by one (shape=noise, worst-case divergence); the
 * equilibrium at rest with a seeded +-1e-3 relative perturbation.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_parboil_lbm[];   /* lbm.k, embedded by make */

static const struct dh_param_def params[] = {
    {"shape", DH_P_WORKLOAD, "enum:spheres,noise", "spheres", NULL, "obstacles: seeded solid spheres, or cells drawn one by one"},
    {"obst", DH_P_WORKLOAD, "real:0..0.9", "0.15", NULL, "solid share of the interior"},
    {"steps", DH_P_WORKLOAD, "int:1..1000", "10", NULL, "time steps (launches) per run"},
    DH_KIT_SEED,
    DH_KIT_ALG4("hot, hot_warp on obstacle/fluid; dgi, dgi_scan on the three flags"),
    {"mech", DH_P_CHOICE, "enum:rr", "rr", "cpu_tdr", "index array (rr): the stencil addresses neighbours by position, so data cannot move"},
    DH_KIT_REGROUP("host regrouping: by flag, or by basic-block vectors (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"shape=spheres", "shape=noise", NULL};

enum { F0, FLAG, TMP, F };
static const struct dh_kbuf bufs[] = {
    [F0] = {"f0", DH_T_F32, DH_IN, "19 * items", DH_KB_ROTATE},
    [FLAG] = {"flag", DH_T_I32, DH_IN, "items", DH_KB_ITEM},
    [TMP] = {"tmp", DH_T_F32, DH_SCRATCH, "steps > 1 ? 19 * items : 1"},
    [F] = {"f", DH_T_F32, DH_OUT, "19 * items", .tol = 1e-5},
};

static const struct dh_kentry entries[] = {
    {"baseline", "lbm_base", "f0 f flag"},
    {"cpu_tdr/rr", "lbm_rr", "f0 f flag perm"},
    {"gpu_tdr", "lbm_gpu_tdr", "f0 f flag"},
    {0},
};

enum { FLUID, ACCEL, OBST };
#define OMEGA 1.95f
#define W0 (1.0f / 3.0f)
#define W1 (1.0f / 18.0f)
#define W2 (1.0f / 36.0f)

struct lbm_dims {
    int nx, px, ny, nz;
    long cells;
};

static struct lbm_dims dims_of(const struct dh_khost *h)
{
    struct lbm_dims d = {(int)dh_pset_num(&h->vars, "nx", 0), (int)dh_pset_num(&h->vars, "px", 0),
                         (int)dh_pset_num(&h->vars, "ny", 0), (int)dh_pset_num(&h->vars, "nz", 0),
                         h->items};
    return d;
}

/* splitmix64 of a counter: item i's own stream, the same at any thread count */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t seed, uint64_t i)      /* [0, 1) */
{
    return (double)(mix(seed ^ (i * 0xd1342543de82ef95ULL)) >> 11) * 0x1.0p-53;
}

static void make_flags(const struct lbm_dims *d, int noise, double obst, uint64_t seed, int *fl)
{
    long interior = (long)(d->nx - 2) * (d->ny - 2) * (d->nz - 2), solid = 0;
    for (long c = 0; c < d->cells; c++) {
        int x = (int)(c % d->px), y = (int)(c / d->px % d->ny), z = (int)(c / ((long)d->px * d->ny));
        int wall = x == 0 || x >= d->nx - 1 || y == 0 || y == d->ny - 1 || z == 0 || z == d->nz - 1;
        fl[c] = wall ? OBST : noise && unit(seed ^ 0x0b5ULL, (uint64_t)c) < obst ? OBST : FLUID;
    }
    if (!noise) {                       /* spheres until the share is solid */
        int rmax = d->nx < d->ny ? d->nx : d->ny;
        rmax = (rmax < d->nz ? rmax : d->nz) / 6;
        rmax = rmax < 2 ? 2 : rmax;
        for (uint64_t s = 0; solid < (long)(obst * (double)interior) && s < 1000000; s++) {
            int cx = 1 + (int)(unit(seed, 4 * s) * (d->nx - 2));
            int cy = 1 + (int)(unit(seed, 4 * s + 1) * (d->ny - 2));
            int cz = 1 + (int)(unit(seed, 4 * s + 2) * (d->nz - 2));
            int r = 2 + (int)(unit(seed, 4 * s + 3) * (rmax - 1));
            for (int z = cz - r; z <= cz + r; z++)
                for (int y = cy - r; y <= cy + r; y++)
                    for (int x = cx - r; x <= cx + r; x++) {
                        if (x < 1 || x >= d->nx - 1 || y < 1 || y >= d->ny - 1 || z < 1
                            || z >= d->nz - 1
                            || (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) > r * r)
                            continue;
                        int *f = &fl[((long)z * d->ny + y) * d->px + x];
                        solid += *f != OBST;
                        *f = OBST;
                    }
        }
    }
    /* Parboil's ACCEL planes: z = 1 and nz - 2, away from the side walls */
    for (int z = 1; z < d->nz - 1; z += d->nz - 3 > 0 ? d->nz - 3 : 1)
        for (int y = 2; y < d->ny - 2; y++)
            for (int x = 2; x < d->nx - 2; x++) {
                int *f = &fl[((long)z * d->ny + y) * d->px + x];
                *f = *f == OBST ? OBST : ACCEL;
            }
}

static int lbm_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct lbm_dims d = dims_of(h);
    uint64_t seed = 0x1b3ULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
    int noise = !strcmp(dh_pset_text(&h->vars, "shape", "spheres"), "noise");
    make_flags(&d, noise, dh_pset_num(&h->vars, "obst", 0.15), seed, h->data[FLAG]);
    float *f0 = h->data[F0];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < 19 * d.cells; i++) {
        int e = (int)(i / d.cells);
        float w = e == 0 ? W0 : e <= 6 ? W1 : W2;
        f0[i] = w * (1.0f + 1e-3f * (float)(2.0 * unit(seed ^ 0xf0ULL, (uint64_t)i) - 1.0));
    }
    return 0;
}

/* ---- the CPU reference: lbm.k's lbm_cell, operation for operation ---- */
static long at(const struct lbm_dims *d, int x, int y, int z, int dx, int dy, int dz)
{
    x += dx, y += dy, z += dz;
    x = x < 0 ? x + d->px : x >= d->px ? x - d->px : x;
    y = y < 0 ? y + d->ny : y >= d->ny ? y - d->ny : y;
    z = z < 0 ? z + d->nz : z >= d->nz ? z - d->nz : z;
    return ((long)z * d->ny + y) * d->px + x;
}

/* direction e: (ex, ey, ez), weight, opposite */
static const signed char EX[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1};
static const signed char EY[19] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0};
static const signed char EZ[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1};
static const signed char OPP[19] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};

static void step_ref(const struct lbm_dims *d, const float *src, float *dst, const int *fl)
{
    long n = d->cells;
#pragma omp parallel for schedule(static)
    for (long c = 0; c < n; c++) {
        int x = (int)(c % d->px), y = (int)(c / d->px % d->ny), z = (int)(c / ((long)d->px * d->ny));
        float f[19], o[19];
        for (int e = 0; e < 19; e++)
            f[e] = src[e * n + at(d, x, y, z, -EX[e], -EY[e], -EZ[e])];
        if (fl[c] == OBST) {
            for (int e = 0; e < 19; e++)
                o[e] = f[OPP[e]];
        } else {
            /* the kernel's sums, in its order (C N S E W T B NE NW SE SW NT NB ST SB ET EB WT WB) */
            float rho = f[0];
            for (int e = 1; e < 19; e++)
                rho += f[e];
            float ux = f[3] - f[4] + f[7] - f[8] + f[9] - f[10] + f[15] + f[16] - f[17] - f[18];
            float uy = f[1] - f[2] + f[7] + f[8] - f[9] - f[10] + f[11] + f[12] - f[13] - f[14];
            float uz = f[5] - f[6] + f[11] - f[12] + f[13] - f[14] + f[15] - f[16] + f[17] - f[18];
            ux = ux / rho, uy = uy / rho, uz = uz / rho;
            if (fl[c] == ACCEL)
                ux = 0.005f, uy = 0.002f, uz = 0.0f;
            float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
            o[0] = (1.0f - OMEGA) * f[0] + W0 * OMEGA * rho * (1.0f - u2);
            for (int e = 1; e < 19; e++) {
                float eu = (float)EX[e] * ux + (float)EY[e] * uy + (float)EZ[e] * uz;
                float w = e <= 6 ? W1 : W2;
                o[e] = (1.0f - OMEGA) * f[e] + w * OMEGA * rho * (1.0f + eu * (4.5f * eu + 3.0f) - u2);
            }
        }
        for (int e = 0; e < 19; e++)
            dst[e * n + c] = o[e];
    }
}

static int lbm_reference(struct dh_khost *h, struct dh_err *err)
{
    struct lbm_dims d = dims_of(h);
    int steps = (int)dh_pset_num(&h->vars, "steps", 10);
    float *tmp = steps > 1 ? malloc((size_t)h->count[F] * sizeof *tmp) : NULL;
    if (steps > 1 && !tmp)
        return dh_err_set(err, DH_E_RESOURCES, "lbm: out of host memory for the reference");
    const float *src = h->data[F0];
    for (int s = 0; s < steps; s++) {               /* the last step writes f */
        float *dst = (steps - 1 - s) % 2 ? tmp : h->want[F];
        step_ref(&d, src, dst, h->data[FLAG]);
        src = dst;
    }
    free(tmp);
    return 0;
}

/* steps launches: f0 -> (tmp | f) -> ... -> f; the entry's first two
 * arguments are the source and destination grids */
static int lbm_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                      struct dh_err *err)
{
    int steps = (int)dh_pset_num(&r->h->vars, "steps", 10);
    const char *rest = dh_kit_word(dh_kit_word(e->args, NULL, 0, NULL), NULL, 0, NULL);
    const char *src = "f0";
    *kernel_ms = 0;
    for (int s = 0; s < steps; s++) {
        const char *dst = (steps - 1 - s) % 2 ? "tmp" : "f";
        char args[128];
        snprintf(args, sizeof args, "%s %s %s", src, dst, rest ? rest : "");
        struct dh_kentry step = {e->variant, e->entry, args};
        double ms = 0;
        int rc = dh_kit_launch(r, &step, 0, &ms, err);
        if (rc)
            return rc;
        *kernel_ms += ms;
        src = dst;
    }
    return 0;
}

/* the ceiling: one layer, obstacle against fluid (ACCEL's three
 * assignments ride on the fluid path); the obstacle side's 19 moves cost
 * about a twentieth of the collision's ~190 operations */
static int lbm_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    static const double c[2] = {1.0, 0.05};
    const int *fl = h->data[FLAG];
    if (layer > 0)
        return 0;
    for (long i = 0; i < h->items; i++)
        key[i] = fl[i] == OBST;
    *cost = c;
    return 2;
}

/* Blocks marked in lbm.k (LBM_BB_*), operations per execution counted in
 * the source: the entry's 19 periodic neighbour indices (about 14 integer
 * operations each), 20 loads, 19 stores; the collision's sums, three
 * divisions and 18 relaxed directions of about 7 operations. */
static const struct dh_bb_def blocks[] = {
    {"entry", {.alu = 270, .mul = 40, .div = 3, .ldg = 20, .stg = 19, .br = 1}},
    {"obstacle", {.alu = 1, .br = 1}},
    {"fluid", {.fp = 185, .div = 3, .br = 1}},
    {"accel", {.alu = 3, .br = 1}},
};

static const struct dh_kit kit = {
    .sizes = {"nx=30 px=32 ny=32 nz=32", "nx=120 px=128 ny=120 nz=150",
              "nx=250 px=256 ny=256 nz=256"},
    .items = "px * ny * nz", .noun = "cells",
    .define = "LBM_PX = px; LBM_NY = ny; LBM_NZ = nz",
    DH_KIT_TABLES(bufs, entries),
    .generate = lbm_generate, .reference = lbm_reference, .launch = lbm_launch,
    .sort_by = "flag", .sort_keys = "3", .branch = lbm_branch,
    /* lbm_gpu_tdr's remap buffer (ints): HoT wg + 2, DGI over three flags */
    .local = "bytes = 4 * (alg == HOT || alg == HOT_WARP ? wg + 2"
             " : 3 * (alg == DGI ? wg / nf : wg / warp) + wg + 3)",
};

const struct dh_bench dh_bench_parboil_lbm = {
    .suite = "parboil", .name = "lbm", .source = dh_src_parboil_lbm,
    .summary = "D3Q19 lattice-Boltzmann stream-collide: obstacle, fluid and accel cells",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr",
    .absent = "melded: the obstacle side (19 moves) and the fluid side (the collision) share no work",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit),
    /* compiled costs: 0.891 and 0.884 against CUPTI's 0.892 and 0.886, the hand
     * table 0.927 (docs/model.md "Slow paths in compiled costs") */
    .costs = "sass+pred",
};
