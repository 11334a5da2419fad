/* bbv/sw — one-thread-per-sequence Smith-Waterman (mode=local) or
 * Needleman-Wunsch (mode=global) with affine gaps, the TCAD BBV paper's
 * SW / NW, declared on the kit (suites/lib/kit.h). Kernel: sw.k (read it
 * first). Variants:
 *   baseline                  one work-item per database sequence, in the
 *                             order generated
 *   cpu_tdr[mech=dlt,         the database reordered on the host and laid
 *     regroup=key|sort|       out again in that order (the sequences, the
 *     greedy|greedymax]       lengths; the scores put back): by strip
 *                             count, a counting sort, longest first (key:
 *                             the usual practice of the inter-task
 *                             aligners), or by basic-block vectors (entry
 *                             + strips + rows: sort, greedy, greedymax);
 *                             the warps then ordered costliest first and
 *                             dealt over the work-groups (deal=2)
 *   gpu_tdr[alg=dgi|dgi_scan] each work-group remapped by a length bucket
 *                             (8 octiles of the length distribution)
 *                             before the alignment; only the slot index
 *                             moves
 * melded does not apply: the divergence is a loop's trip count, with no
 * second side to meld.
 *
 * Input (seeded; SUITES.md 3.13): 20 residues drawn with seeded background
 * frequencies (0.5 + u, normalised, in steps of 1/1024); a seeded
 * symmetric 20 x 20 matrix, the diagonal in [4, 11] and the rest in [-4,
 * 3]; gap open 11 (a gap of g costs 11 + (g - 1)), extension 1; database
 * lengths log-normal, median 300, sigma 0.6, clipped to [20, 4096]; one
 * query of lq residues. Sizes: 2^11, 2^17, 2^20 sequences against a query
 * of 32, 256, 512 residues (about 24 M, 12 G, 190 G cells); small's query
 * is half SUITES.md's 64 so that its every variant runs in a few seconds
 * on PoCL (the query's length sets the work of a trip, not the trips).
 *
 * The device's database buffer has room for dbw words (sizes below): a
 * group of 32 slots takes 32 words for every 4 residues of its longest
 * sequence, rounded up to a strip of 16, so its size depends on the order;
 * no order needs more than the 1/32 longest sequences' strips (the groups'
 * longest are distinct sequences), and generate refuses a seed whose
 * bound passes dbw (344 words a sequence: 10% above the seeds 1..8 at
 * small, 15% at medium and large; the generated order needs about 274).
 *
 * Where SUITES.md 3.13 differs: it keeps the DP row in global memory,
 * interleaved by thread ([j * nThreads + tid]); here it is a private
 * array, which CUDA and HIP lay out the same way (a thread's local memory
 * interleaved by lane) but size by the resident threads rather than all
 * of them (2^20 x 512 x 8 bytes would be 4 GB at large), and the strip of
 * 16 columns in registers cuts its traffic to 8 bytes a row of 16 cells.
 *
 * Verification: every score exactly (int32) against a CPU Gotoh
 * implementation (sw_gotoh), cell by cell in the other order (query in the
 * inner loop) with plain int arrays.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_bbv_sw[];   /* sw.k, embedded by make */

#define SW_GW 32                /* as sw.k */
#define SW_SW 16
#define SW_PAD 20
#define SW_MS 32
#define SW_MR 21
#define SW_GO 11
#define SW_GE 1
#define SW_PADS (-10000)        /* the padding's score against anything */
#define SW_LMIN 20
#define SW_LMAX 4096

static const struct dh_param_def params[] = {
    {"mode", DH_P_WORKLOAD, "enum:local,global", "local", NULL, "local (Smith-Waterman: the best H, floored at 0) or global (Needleman-Wunsch: H of the last cell) affine-gap score"},
    DH_KIT_SEED,
    {"alg", DH_P_CHOICE, "enum:dgi,dgi_scan", "dgi", "gpu_tdr", "on-GPU remap by the sequence's length bucket (8 octiles): dgi, or dgi_scan (warp votes: CUDA/HIP)"},
    DH_KIT_MECH("enum:dlt", "reorder the database (data layout: the sequences laid out again in the regrouped order, the lengths moved, the scores put back)"),
    DH_KIT_REGROUP("host reordering of the database: by strip count, longest first (key, a counting sort), or by basic-block vectors (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    /* 2: the regrouped warps costliest first, then dealt. The launch is one
     * wave; an SM favours its oldest group, so its costliest warps must be
     * in the first groups launched: sort's shortest-first and greedy's
     * merge order ran 1.51x and 1.56x dealt as they came, 1.82x so
     * (H100, results/reference/h100/sw-heavy-2026-11-26) */
    DH_KIT_DEAL("2"),
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"mode=local", "mode=global", NULL};

enum { DB, OFF, LEN, MAT, QRY, SCORE };

static void sw_gather_db(const struct dh_khost *h, const int *perm, void *dst);
static void sw_gather_off(const struct dh_khost *h, const int *perm, void *dst);

static const struct dh_kbuf bufs[] = {
    [DB] = {"db", DH_T_U32, DH_IN, "dbw", 0, .gather = sw_gather_db},
    [OFF] = {"off", DH_T_I32, DH_IN, "items / 32", 0, .gather = sw_gather_off},
    [LEN] = {"len", DH_T_I32, DH_IN, "items", DH_KB_ITEM},
    [MAT] = {"mat", DH_T_I32, DH_IN, "21 * 32"},
    [QRY] = {"qry", DH_T_U8, DH_IN, "lq"},
    [SCORE] = {"score", DH_T_I32, DH_OUT, "items", DH_KB_ITEM},   /* exact */
};

static const struct dh_kentry entries[] = {
    {"baseline", "sw_base", "db off len mat qry score"},
    {"gpu_tdr", "sw_tdr", "db off len mat qry score"},
    {0},
};

struct sw_priv {
    unsigned char *res;     /* the database's residues, sequence after sequence */
    long *start;            /* sequence i at res + start[i] */
    int *strips;            /* per sequence: ceil(len / 16), the kernel's trips */
    long *goff;             /* the gather's room: groups + 1 offsets */
    int maxstrips;
    double ccost;           /* the ceiling's cost of the layer asked */
};

static void sw_free_priv(void *priv)
{
    struct sw_priv *p = priv;
    free(p->res);
    free(p->start);
    free(p->strips);
    free(p->goff);
    free(p);
}

static uint64_t sw_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* uniform in (0, 1) from the k-th draw of stream s */
static double sw_unif(uint64_t s, uint64_t k)
{
    return ((double)(sw_mix(s ^ (k * 0xd1342543de82ef95ULL)) >> 11) + 0.5) * 0x1p-53;
}

/* residue table: 1024 entries, residue r in about 1024 f_r of them */
static void sw_freqs(uint64_t seed, unsigned char *tab)
{
    double w[20], sum = 0, acc = 0;
    for (int r = 0; r < 20; r++)
        sum += w[r] = 0.5 + sw_unif(seed, (uint64_t)r);
    int k = 0;
    for (int r = 0; r < 20; r++) {
        acc += w[r] / sum;
        int end = r == 19 ? 1024 : (int)(acc * 1024.0 + 0.5);
        for (; k < end; k++)
            tab[k] = (unsigned char)r;
    }
}

/* the words of group g (32 slots from slot 32 g, item perm[slot]) */
static long sw_group_words(const int *len, const int *perm, long g)
{
    int most = 0;
    for (long s = g * SW_GW; s < (g + 1) * SW_GW; s++) {
        int l = len[perm ? perm[s] : s];
        most = l > most ? l : most;
    }
    return (long)SW_GW * 4 * ((most + SW_SW - 1) / SW_SW);
}

static void sw_gather_off(const struct dh_khost *h, const int *perm, void *dst)
{
    const int *len = h->data[LEN];
    int *off = dst;
    long at = 0;
    for (long g = 0; g < h->items / SW_GW; g++) {
        off[g] = (int)at;
        at += sw_group_words(len, perm, g);
    }
}

/* word w of slot s at off[g] + 32 w + s % 32, four residues a word (the
 * first in the low byte); the padding and the room past the last group
 * SW_PAD */
static void sw_gather_db(const struct dh_khost *h, const int *perm, void *dst)
{
    const struct sw_priv *p = h->priv;
    const int *len = h->data[LEN];
    unsigned *db = dst;
    long groups = h->items / SW_GW, *off = p->goff;
    off[0] = 0;
    for (long g = 0; g < groups; g++)
        off[g + 1] = off[g] + sw_group_words(len, perm, g);
    for (long w = off[groups]; w < h->count[DB]; w++)
        db[w] = 0x14141414u;
#pragma omp parallel for schedule(static)
    for (long g = 0; g < groups; g++) {
        long nw = (off[g + 1] - off[g]) / SW_GW;
        for (int l = 0; l < SW_GW; l++) {
            long i = perm ? perm[g * SW_GW + l] : g * SW_GW + l;
            const unsigned char *r = p->res + p->start[i];
            for (long w = 0; w < nw; w++) {
                unsigned v = 0;
                for (int b = 0; b < 4; b++) {
                    long k = 4 * w + b;
                    v |= (unsigned)(k < len[i] ? r[k] : SW_PAD) << (8 * b);
                }
                db[off[g] + w * SW_GW + l] = v;
            }
        }
    }
}

static int sw_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

static int sw_generate(struct dh_khost *h, struct dh_err *err)
{
    const struct dh_pset *v = &h->vars;
    struct sw_priv *p = calloc(1, sizeof *p);
    if (!p)
        return dh_err_set(err, DH_E_RESOURCES, "sw: out of host memory");
    h->priv = p;
    long n = h->items, lq = (long)dh_pset_num(v, "lq", 64);
    uint64_t seed = 0x5317ULL ^ ((uint64_t)dh_pset_num(v, "seed", 1) << 24);
    int *len = h->data[LEN], *mat = h->data[MAT];
    unsigned char tab[1024], *qry = h->data[QRY];
    if (!(p->start = malloc((size_t)(n + 1) * sizeof *p->start))
        || !(p->strips = malloc((size_t)n * sizeof *p->strips))
        || !(p->goff = malloc((size_t)(n / SW_GW + 1) * sizeof *p->goff)))
        return dh_err_set(err, DH_E_RESOURCES, "sw: out of host memory");
    sw_freqs(seed ^ 0xf1, tab);
    for (int a = 0; a < SW_MR; a++)             /* the matrix, symmetric */
        for (int b = 0; b < SW_MS; b++) {
            int lo = a < b ? a : b, hi = a < b ? b : a;
            double u = sw_unif(seed ^ 0x3a7, (uint64_t)(lo * SW_MS + hi));
            mat[a * SW_MS + b] = a >= 20 || b >= 20 ? SW_PADS
                               : a == b ? 4 + (int)(u * 8) : -4 + (int)(u * 8);
        }
    for (long k = 0; k < lq; k++)
        qry[k] = tab[(int)(sw_unif(seed ^ 0x9e, (uint64_t)k) * 1024)];
    int maxs = 0;
    p->start[0] = 0;
    for (long i = 0; i < n; i++) {             /* log-normal: Box-Muller */
        double u1 = sw_unif(seed ^ 0x1e, 2 * (uint64_t)i);
        double u2 = sw_unif(seed ^ 0x1e, 2 * (uint64_t)i + 1);
        double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        double l = floor(300.0 * exp(0.6 * z) + 0.5);
        len[i] = l < SW_LMIN ? SW_LMIN : l > SW_LMAX ? SW_LMAX : (int)l;
        p->strips[i] = (len[i] + SW_SW - 1) / SW_SW;
        maxs = p->strips[i] > maxs ? p->strips[i] : maxs;
        p->start[i + 1] = p->start[i] + len[i];
    }
    p->maxstrips = maxs;
    if (!(p->res = malloc((size_t)p->start[n])))
        return dh_err_set(err, DH_E_RESOURCES, "sw: out of host memory");
#pragma omp parallel for schedule(static)
    for (long k = 0; k < p->start[n]; k++)
        p->res[k] = tab[(int)(sw_unif(seed ^ 0x7d, (uint64_t)k) * 1024)];
    /* the room any order needs: the 1/32 longest sequences' strips */
    int *st = malloc((size_t)n * sizeof *st);
    if (!st)
        return dh_err_set(err, DH_E_RESOURCES, "sw: out of host memory");
    memcpy(st, p->strips, (size_t)n * sizeof *st);
    qsort(st, (size_t)n, sizeof *st, sw_desc);
    long need = 0;
    for (long g = 0; g < n / SW_GW; g++)
        need += (long)SW_GW * 4 * st[g];
    free(st);
    dh_pset_put(&h->vars, "dbneed", "", (double)need, DH_P_WORKLOAD);
    if (need > h->count[DB])
        return dh_err_set(err, DH_E_DATA, "sw: this seed's database may need %ld words in "
                          "some order, the size has room for %ld", need, h->count[DB]);
    return 0;
}

/* Gotoh, the query in the inner loop: hv[i], fv[i] hold H and F of
 * column j - 1 (F: the gap along the database, E in sw.k's names since
 * sw.k runs the other way: here the row is the database residue) */
static int sw_gotoh(const unsigned char *q, int lq, const unsigned char *b, int lb,
                    const int *mat, int global, int *hv, int *fv)
{
    const int neg = -1000000;
    int best = 0;
    hv[0] = 0;
    for (int i = 1; i <= lq; i++) {
        hv[i] = global ? -SW_GO - (i - 1) * SW_GE : 0;
        fv[i] = neg;
    }
    for (int j = 1; j <= lb; j++) {
        int diag = hv[0];
        hv[0] = global ? -SW_GO - (j - 1) * SW_GE : 0;
        int up = hv[0], e = neg;                /* H(i-1, j), F along the query */
        for (int i = 1; i <= lq; i++) {
            int left = hv[i];
            fv[i] = fv[i] - SW_GE > left - SW_GO ? fv[i] - SW_GE : left - SW_GO;
            e = e - SW_GE > up - SW_GO ? e - SW_GE : up - SW_GO;
            int hh = diag + mat[q[i - 1] * SW_MS + b[j - 1]];
            hh = hh > fv[i] ? hh : fv[i];
            hh = hh > e ? hh : e;
            if (!global)
                hh = hh > 0 ? hh : 0;
            best = hh > best ? hh : best;
            diag = left;
            hv[i] = up = hh;
        }
    }
    return global ? hv[lq] : best;
}

static int sw_reference(struct dh_khost *h, struct dh_err *err)
{
    const struct sw_priv *p = h->priv;
    int lq = (int)dh_pset_num(&h->vars, "lq", 64), global = (int)dh_pset_num(&h->vars, "mode", 0);
    const int *len = h->data[LEN], *mat = h->data[MAT];
    const unsigned char *qry = h->data[QRY];
    int *want = h->want[SCORE], bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        int *hv = malloc((size_t)(lq + 1) * 2 * sizeof *hv);
        if (!hv)
            bad++;
        else {
#pragma omp for schedule(dynamic, 64)
            for (long i = 0; i < h->items; i++) {
                want[i] = sw_gotoh(qry, lq, p->res + p->start[i], len[i], mat, global, hv,
                                   hv + lq + 1);
                bad += want[i] <= -32768 || want[i] >= 32768;
            }
            free(hv);
        }
    }
    if (bad)
        return dh_err_set(err, DH_E_INTERNAL, "sw: %d scores out of the kernel's 16-bit "
                          "column (or out of host memory)", bad);
    return 0;
}

/* cpu_tdr's key: most strips first (host time) */
static int sw_sort_key(const struct dh_khost *h, int *key)
{
    const struct sw_priv *p = h->priv;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        key[i] = SW_LMAX / SW_SW - p->strips[i];
    return SW_LMAX / SW_SW;
}

/* the ceiling's trip thresholds: 1, 2, .. 64, then 1/8 apart */
static long sw_next(long t)
{
    return t < 64 ? t + 1 : t + t / 8;
}

/* The remap ceiling, in strips: layer k holds the sequences of at least
 * t_k strips (t_0 = 1: all), one path of cost t_k - t_(k-1), so a warp
 * pays its longest sequence's strips (rounded down to a threshold) and
 * sorting a work-group by length is the best regrouping inside it. */
static int sw_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    struct sw_priv *p = h->priv;
    long t = 1, prev = 0;
    for (long k = 0; k < layer; k++)
        prev = t, t = sw_next(t);
    if (t > p->maxstrips)
        return 0;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        key[i] = p->strips[i] >= t ? 0 : -1;
    p->ccost = (double)(t - prev);
    *cost = &p->ccost;
    return 1;
}

/* Blocks marked in sw.k (SW_BB_*), operations per execution counted in
 * the source, mode=local (global: 32 fewer alu a row, the selection of
 * the score in the last strip): entry, the length and offset loads, the
 * slot's arithmetic, the score's store; strip, four word loads, 15 byte
 * extractions, 32 register initialisations, the address and the loop;
 * row, the query offset (local) and the column word (private: ldg, stg),
 * its unpacking and packing, the first strip's select, 16 cells of 12
 * operations and a local load of the score each, the loop. */
static const struct dh_bb_def blocks[] = {
    {"entry", {.alu = 8, .ldg = 2, .stg = 1}},
    {"strip", {.alu = 56, .ldg = 4, .br = 1}},
    {"row", {.alu = 200, .ldg = 1, .stg = 1, .lds = 17, .br = 1}},
};

static int sw_check(const struct dh_case *c, const struct dh_pset *vars,
                    const struct dh_device_info *dev, char *why, size_t len)
{
    (void)c;
    long lq = (long)dh_pset_num(vars, "lq", 64);
    uint64_t need = (uint64_t)(4 * (SW_MR * SW_MS + lq));
    if (dev && dev->local_mem_bytes && need > dev->local_mem_bytes) {
        snprintf(why, len, "the matrix and the query take %llu bytes of local memory; the "
                 "device has %llu", (unsigned long long)need,
                 (unsigned long long)dev->local_mem_bytes);
        return -DH_E_CONSTRAINT;
    }
    return 0;
}

static const struct dh_kit kit = {
    .sizes = {"nseq=2048 lq=32", "nseq=131072 lq=256", "nseq=1048576 lq=512"},
    .items = "nseq", .noun = "database sequences",
    /* the order-independent room (sw.c's header); 32 slots a group */
    .derive = "dbw = nseq * 344",
    .define = "SW_LQ = lq; SW_GLOBAL = mode; SW_GO = 11; SW_GE = 1",
    DH_KIT_TABLES(bufs, entries),
    .generate = sw_generate, .reference = sw_reference, .free_priv = sw_free_priv,
    .sort_key = sw_sort_key, .branch = sw_branch, .check = sw_check,
    /* the matrix, the query's offsets and DGI's or dgi_scan's ints */
    .local = "bytes = 4 * (21 * 32 + lq + 8 * (alg == DGI ? wg / nf : wg / warp) + wg + 8)",
};

const struct dh_bench dh_bench_bbv_sw = {
    .suite = "bbv", .name = "sw", .source = dh_src_bbv_sw,
    .summary = "Smith-Waterman / Needleman-Wunsch, one work-item per database sequence: the "
               "sequence's length is the strip loop's trip count",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr",
    .absent = "melded: the divergence is the strip loop's trip count, with no second side to meld",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit),
};
