/* rodinia/lud — Rodinia's blocked LU decomposition (DARM's LUD: the
 * perimeter kernel's row and column roles split by thread id), declared on
 * the kit (suites/lib/kit.h). Kernel: lud.k (read it first). A run is the
 * full LU of an n x n matrix in place: per tile offset a diagonal, a
 * perimeter and an internal launch, then the last diagonal tile.
 * Variants:
 *   baseline              the perimeter kernel's three role branches
 *   melded[meld=wave|always]
 *                         the role pairs melded region by region (lud.k);
 *                         wave: only where a warp holds both roles
 *                         (bs < warp width; elsewhere the kernel is the
 *                         baseline's, nothing diverging), always: at every
 *                         bs (DARM's pass melds regardless)
 * gpu_tdr and cpu_tdr do not apply (`.absent`).
 *
 * `bs` (16, 32, 64) is a workload parameter: a work-group is 2 bs
 * work-items (wg = 2 bs; the default workload points carry it), and it
 * decides what diverges: with warp 32 only bs = 16 puts both roles in one
 * warp. DARM's labels LUD16 / 32 / 64 / 128 are these thread counts. The
 * full LU runs at every bs, bs = 64 included: lud.k's internal kernel
 * computes a tile with 2 bs work-items of bs / 2 elements each, where
 * Rodinia's bs^2 work-items would not fit a work-group at bs = 64
 * (DARM's artifact times the perimeter kernel alone, its output not an
 * LU; here every run is a full, verified LU).
 *
 * kernel_ms (`timed`): perimeter (default, DARM's measure: the variants
 * differ only there) sums the perimeter launches; all sums every launch.
 *
 * Inputs (`mat`): ddom (default), uniform [0, 1) per element from its own
 * counter stream plus n on the diagonal (diagonally dominant: no pivoting
 * needed, well conditioned); kms, Rodinia's generator
 * m[i][j] = 10 exp(-0.001 |i - j|) (a Kac-Murdock-Szego matrix, DARM's
 * input; U carries a factor 1 - rho^2 ~ 0.002, so float cancels).
 * Sizes: n = 256, 4096, 16384 (1 GiB; DARM's).
 *
 * Verification (the matrix is a DH_KB_OWN buffer, judged here):
 *   ddom  against a CPU blocked LU in the same tile order and the same
 *         per-element operation order (diagonal, perimeter, internal),
 *         |got - want| <= 1e-5 + 1e-4 |want| per element of U; L's
 *         entries, quotients by U's diagonal (about n), take their
 *         absolute term in those units: 1e-5 / |U_jj| + 1e-4 |want|;
 *   kms   L U against A in a relative norm, through three random vectors
 *         (||L (U x) - A x|| / ||A x|| <= 1e-5, in double, O(n^2) each:
 *         the full product, O(n^3), would dwarf the run at 16384); no CPU
 *         LU is computed. Why 1e-5 and not SUITES.md's 1e-3: U's rows
 *         below the first carry 1 - rho^2 ~ 0.002, so an L column left
 *         undivided moves L U little (a planted one gave 2e-4 .. 5e-4 at
 *         n = 256 and passed 1e-3); correct float LUs give about 1e-7
 *         (n = 256 and 4096 on PoCL), the error growing about as sqrt(n).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_rodinia_lud[];    /* lud.k, embedded by make */

#define LU_ATOL 1e-5
#define LU_RTOL 1e-4
#define LU_KMS_TOL 1e-5
#define LU_KMS_VECS 3

static const struct dh_param_def params[] = {
    {"bs", DH_P_WORKLOAD, "int:16,32,64", "16", NULL, "tile side: a work-group is 2 bs work-items (wg = 2 bs; it decides what diverges: the perimeter's two roles share a warp where bs < the warp width)"},
    {"mat", DH_P_WORKLOAD, "enum:ddom,kms", "ddom", NULL, "input: ddom = uniform [0, 1) plus n on the diagonal (checked element by element against a CPU LU), kms = Rodinia's 10 exp(-0.001 |i - j|) (checked by L U against A, relative norm 1e-5)"},
    {"timed", DH_P_WORKLOAD, "enum:perimeter,all", "perimeter", NULL, "what kernel_ms sums: the perimeter launches (DARM's measure) or every launch"},
    DH_KIT_SEED,
    {"meld", DH_P_CHOICE, "enum:wave,always", "wave", "melded", "where the perimeter's roles are melded: wave = only where a warp holds both (bs < warp width; elsewhere the baseline's code), always = at every bs (DARM's pass, which melds regardless)"},
    {"wg", DH_P_TUNABLE, "int:32,64,128", "32", NULL, "work-group size: 2 * bs (the default workloads set it with bs)"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"bs=16 wg=32", "bs=32 wg=64", "bs=64 wg=128", NULL};

enum { M, DT };
static const struct dh_kbuf bufs[] = {
    [M] = {"m", DH_T_F32, DH_INOUT, "n * n", DH_KB_OWN},
    [DT] = {"dt", DH_T_F32, DH_SCRATCH, "bs * bs"},
};

static const struct dh_kentry entries[] = {
    {"baseline", "lu_peri_base", "m dt 0"},
    {"melded", "lu_peri_meld", "m dt 0"},
    {0},
};

struct lu_dims {
    int n, bs, kms, all;
};

static struct lu_dims dims_of(const struct dh_khost *h)
{
    const struct dh_pset *v = &h->vars;
    struct lu_dims d = {(int)dh_pset_num(v, "n", 0), (int)dh_pset_num(v, "bs", 16),
                        !strcmp(dh_pset_text(v, "mat", "ddom"), "kms"),
                        !strcmp(dh_pset_text(v, "timed", "perimeter"), "all")};
    return d;
}

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t seed, uint64_t i)           /* [0, 1), 24 bits */
{
    return (double)(mix(seed ^ (i * 0xd1342543de82ef95ULL)) >> 40) * 0x1.0p-24;
}

static int lu_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct lu_dims d = dims_of(h);
    uint64_t seed = 0x10dULL ^ ((uint64_t)dh_pset_num(&h->vars, "seed", 1) << 24);
    float *a = h->data[M];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < d.n; i++)
        for (long j = 0; j < d.n; j++) {
            long k = i * d.n + j;
            a[k] = d.kms ? (float)(10.0 * exp(-0.001 * (double)labs(i - j)))
                         : (float)unit(seed, (uint64_t)k) + (i == j ? (float)d.n : 0.0f);
        }
    return 0;
}

/* ---- the CPU reference: lud.k's order, tile by tile ---- */

/* the diagonal tile at (o, o): column i of L, then row i + 1 of U */
static void ref_diag(float *m, int n, int o, int bs)
{
    float *a = m + (long)o * n + o;
    for (int i = 0; i < bs - 1; i++) {
        for (int r = i + 1; r < bs; r++) {
            float v = a[(long)r * n + i];
            for (int j = 0; j < i; j++)
                v -= a[(long)r * n + j] * a[(long)j * n + i];
            a[(long)r * n + i] = v / a[(long)i * n + i];
        }
        for (int c = i + 1; c < bs; c++) {
            float v = a[(long)(i + 1) * n + c];
            for (int j = 0; j < i + 1; j++)
                v -= a[(long)(i + 1) * n + j] * a[(long)j * n + c];
            a[(long)(i + 1) * n + c] = v;
        }
    }
}

/* the perimeter of offset o: row tiles with L, column tiles with U */
static void ref_peri(float *m, int n, int o, int bs)
{
    const float *dg = m + (long)o * n + o;
    int nt = (n - o) / bs - 1;
#pragma omp parallel for schedule(static)
    for (int q = 0; q < 2 * nt; q++) {
        int b = o + (q / 2 + 1) * bs;
        if (q % 2 == 0) {
            float *r = m + (long)o * n + b;
            for (int i = 1; i < bs; i++)
                for (int j = 0; j < i; j++)
#pragma omp simd
                    for (int t = 0; t < bs; t++)
                        r[(long)i * n + t] -= dg[(long)i * n + j] * r[(long)j * n + t];
        } else {
            float *c = m + (long)b * n + o;
            for (int t = 0; t < bs; t++) {
                float *x = c + (long)t * n;
                for (int i = 0; i < bs; i++) {
                    float v = x[i];
                    for (int j = 0; j < i; j++)
                        v -= x[j] * dg[(long)j * n + i];
                    x[i] = v / dg[(long)i * n + i];
                }
            }
        }
    }
}

/* the trailing tiles: A[r][c] -= sum_k C[r][k] R[k][c], summed in k order
 * (each element's own order: vectorized across c, the same roundings) */
static inline void tile_update(float *m, int n, int o, int r0, int c0, int bs)
{
    float sum[64];
    for (int r = 0; r < bs; r++) {
        const float *lc = m + (long)(r0 + r) * n + o;
#pragma omp simd
        for (int c = 0; c < bs; c++)
            sum[c] = 0.0f;
        for (int k = 0; k < bs; k++) {
            const float *ur = m + (long)(o + k) * n + c0;
            float l = lc[k];
#pragma omp simd
            for (int c = 0; c < bs; c++)
                sum[c] += l * ur[c];
        }
        float *a = m + (long)(r0 + r) * n + c0;
#pragma omp simd
        for (int c = 0; c < bs; c++)
            a[c] -= sum[c];
    }
}

static void ref_internal(float *m, int n, int o, int bs)
{
    int nt = (n - o) / bs - 1;
#pragma omp parallel for schedule(static)
    for (long q = 0; q < (long)nt * nt; q++) {
        int r0 = o + (int)(q / nt + 1) * bs, c0 = o + (int)(q % nt + 1) * bs;
        switch (bs) {               /* a constant trip count for each bs */
        case 16: tile_update(m, n, o, r0, c0, 16); break;
        case 32: tile_update(m, n, o, r0, c0, 32); break;
        case 64: tile_update(m, n, o, r0, c0, 64); break;
        default: tile_update(m, n, o, r0, c0, bs); break;
        }
    }
}

static int lu_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct lu_dims d = dims_of(h);
    if (d.kms)              /* judged by L U against A: no CPU LU needed */
        return 0;
    float *m = h->want[M];
    memcpy(m, h->data[M], (size_t)d.n * d.n * sizeof *m);
    for (int o = 0; o < d.n - d.bs; o += d.bs) {
        ref_diag(m, d.n, o, d.bs);
        ref_peri(m, d.n, o, d.bs);
        ref_internal(m, d.n, o, d.bs);
    }
    ref_diag(m, d.n, d.n - d.bs, d.bs);
    return 0;
}

/* kms: ||L (U x) - A x|| / ||A x|| for random x, in double */
static double kms_residual(const float *a, const float *lu, int n, uint64_t seed, double *w)
{
    double *x = w, *y = w + n, num = 0, den = 0;
    for (int i = 0; i < n; i++)
        x[i] = unit(seed, (uint64_t)i) - 0.5;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {           /* y = U x */
        const float *u = lu + (long)i * n;
        double s = 0;
        for (int j = i; j < n; j++)
            s += (double)u[j] * x[j];
        y[i] = s;
    }
#pragma omp parallel for schedule(static) reduction(+ : num, den)
    for (int i = 0; i < n; i++) {           /* L y (unit diagonal) against A x */
        const float *l = lu + (long)i * n, *ar = a + (long)i * n;
        double s = y[i], t = 0;
        for (int j = 0; j < i; j++)
            s += (double)l[j] * y[j];
        for (int j = 0; j < n; j++)
            t += (double)ar[j] * x[j];
        num += (s - t) * (s - t);
        den += t * t;
    }
    return den > 0 ? sqrt(num / den) : INFINITY;
}

static void lu_verify_more(const struct dh_khost *h, void *const *got, long base,
                           struct dh_verify *v)
{
    struct lu_dims d = dims_of(h);
    const float *g = got[M];
    long nn = (long)d.n * d.n;
    if (!d.kms) {
        /* L's entries are quotients by U's diagonal (about n here): their
         * absolute term is in those units, 1e-5 / |U_jj| */
        const float *w = h->want[M];
        for (long i = 0; i < nn; i++) {
            long r = i / d.n, c = i % d.n;
            double e = fabs((double)g[i] - w[i]);
            double at = r > c ? LU_ATOL / fabs(w[c * d.n + c]) : LU_ATOL;
            dh_verify_add(v, base + i, g[i], w[i], !(e <= at + LU_RTOL * fabs(w[i])));
        }
        return;
    }
    double *work = malloc(2 * (size_t)d.n * sizeof *work);
    for (int k = 0; k < LU_KMS_VECS; k++) {
        double r = work ? kms_residual(h->data[M], g, d.n, 0x4b4d53ULL + (uint64_t)k, work)
                        : INFINITY;
        dh_verify_add(v, base + k, r, 0.0, !(r <= LU_KMS_TOL));
    }
    free(work);
}

/* The LU of one repetition: per offset o the diagonal tile, the perimeter
 * (the variant's entry, nt work-groups), the internal tiles (nt^2), then
 * the last diagonal tile. */
static int lu_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                     struct dh_err *err)
{
    struct lu_dims d = dims_of(r->h);
    size_t wg = 2 * (size_t)d.bs;
    char a1[64], a2[64];
    int rc = 0;
    *kernel_ms = 0;
    for (int o = 0; !rc; o += d.bs) {
        int nt = (d.n - o) / d.bs - 1;
        double ms = 0;
        snprintf(a1, sizeof a1, "m dt %d", o);
        struct dh_kentry diag = {e->variant, "lu_diag", a1}, peri = {e->variant, e->entry, a1};
        /* launches outside kernel_ms pass no ms: not timed, and not
         * counted by a profiling pass (the CFE is the timed kernel's) */
        if ((rc = dh_kit_launch(r, &diag, wg, d.all ? &ms : NULL, err)))
            break;
        *kernel_ms += d.all ? ms : 0;
        if (nt == 0)
            break;
        if ((rc = dh_kit_launch(r, &peri, (size_t)nt * wg, &ms, err)))
            break;
        *kernel_ms += ms;
        snprintf(a2, sizeof a2, "m %d %d", o, nt);
        struct dh_kentry in = {e->variant, "lu_internal", a2};
        if ((rc = dh_kit_launch(r, &in, (size_t)nt * nt * wg, d.all ? &ms : NULL, err)))
            break;
        *kernel_ms += d.all ? ms : 0;
    }
    return rc;
}

/* the perimeter's three tiles in local memory (lud.k's LU_SH): 48 KiB at
 * bs = 64 */
static int lu_check(const struct dh_case *c, const struct dh_pset *vars,
                    const struct dh_device_info *dev, char *why, size_t len)
{
    (void)c;
    long bs = (long)dh_pset_num(vars, "bs", 16), bytes = (3 * bs * bs + (bs < 32 ? bs : 0)) * 4;
    if (dev && dev->local_mem_bytes && (uint64_t)bytes > dev->local_mem_bytes) {
        snprintf(why, len, "bs=%ld needs %ld bytes of local memory, the device has %llu", bs,
                 bytes, (unsigned long long)dev->local_mem_bytes);
        return -DH_E_CONSTRAINT;
    }
    return 0;
}

/* lud.k's loops are unrolled for GPUs only (its header says why) */
static int lu_defines(const struct dh_case *c, const struct dh_pset *vars,
                      const struct dh_device_info *dev, char *buf, size_t len)
{
    (void)c, (void)vars;
    snprintf(buf, len, "%s", dev && !strcmp(dev->kind, "cpu") ? "-D LU_NO_UNROLL=1" : "");
    return 0;
}

/* Blocks marked in lud.k (LU_BB_*), per execution, counted in the source
 * at unrolled code: a row of a load or store phase, or one (i, j) step of
 * a solve (an FMA and a quarter of a 4-wide local load of the diagonal
 * tile's row); a float division counts 8 fp (reciprocal, refinement and
 * the range check). col-load holds the staging store and the owner's read
 * of S; col-div the diagonal value's load and the write back to S. */
static const struct dh_bb_def blocks[] = {
    {"row_load", {.alu = 2, .ldg = 2, .lds = 1}},
    {"col_load", {.alu = 4, .ldg = 2, .lds = 3}},
    {"row_solve", {.fp = 1, .lds = 0.25f}},
    {"col_solve", {.fp = 1, .lds = 0.25f}},
    {"col_div", {.fp = 8, .lds = 2}},
    {"row_store", {.alu = 1, .stg = 1}},
    {"col_store", {.alu = 3, .stg = 1, .lds = 1}},
};

static const struct dh_krule rules[] = {
    {NULL, "wg == 2 * bs", "wg is 2 * bs (the perimeter's row and column roles): wg=32 with "
                           "bs=16, 64 with bs=32, 128 with bs=64"},
    {NULL, "n % bs == 0 && n >= 2 * bs", "n must be a multiple of bs, at least 2 bs"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"n=256", "n=4096", "n=16384"},
    /* the work-items of the largest perimeter launch (the profiled kernel) */
    .items = "2 * (n - bs)", .noun = "perimeter work-items",
    .define = "LU_N = n; LU_BS = bs; LU_MELD = meld",
    DH_KIT_TABLES(bufs, entries), .rules = rules, .check = lu_check, .defines = lu_defines,
    .generate = lu_generate, .reference = lu_reference, .verify_more = lu_verify_more,
    .launch = lu_launch,
};

const struct dh_bench dh_bench_rodinia_lud = {
    .suite = "rodinia", .name = "lud", .source = dh_src_rodinia_lud,
    .summary = "blocked LU decomposition: the perimeter kernel's row and column roles split by thread id, divergent only where bs < warp width",
    .params = params, .sweep = sweep, .variants = "baseline,melded",
    .absent = "gpu_tdr: the roles follow the thread id, and where they diverge (bs below the "
              "warp width) the whole work-group is one warp, so no remap inside it can "
              "separate them; at larger bs nothing diverges; cpu_tdr: no data decides a path "
              "(no key to regroup by)",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit),
};
