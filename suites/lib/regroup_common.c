/* regroup_common.c — the pieces regroup.c (the exact algorithms, the API)
 * and regroup_window.c (the neighbourhood forms) share: output sequences,
 * class orders, group bounds and the emission of a finished group
 * (regroup_common.h). Internal to suites/lib. */
#include "regroup_common.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

int dh__rg_threads_for(long n, long grain)
{
    int t = omp_get_max_threads();
    long most = n / grain + 1;
    return t < 1 ? 1 : t > most ? (int)most : t;
}

int dh_regroup_threads(long n)
{
    return dh__rg_threads_for(n, 32768);    /* at least 32K items a thread */
}

/* ---- an output sequence of (class, count) runs ---- */

int dh__rg_seq_push(struct seq *s, long cls, long cnt)
{
    if (cnt <= 0)
        return 0;
    if (s->n && s->cls[s->n - 1] == cls) {
        s->cnt[s->n - 1] += cnt;
        return 0;
    }
    if (s->n == s->cap) {
        /* small first: every group being formed has its own, and a
         * workload of distinct BBVs has a group per item */
        long cap = s->cap ? s->cap * 2 : 4;
        long *a = realloc(s->cls, (size_t)cap * sizeof *a);
        if (!a)
            return -DH_E_RESOURCES;
        s->cls = a;
        long *b2 = realloc(s->cnt, (size_t)cap * sizeof *b2);
        if (!b2)
            return -DH_E_RESOURCES;
        s->cnt = b2;
        s->cap = cap;
    }
    s->cls[s->n] = cls;
    s->cnt[s->n] = cnt;
    s->n++;
    return 0;
}

/* ---- class orders ---- */

/* The lexicographic order of the classes: a merge sort of (key, class)
 * pairs, the key a class's first two counters that are not the same in
 * every class (most comparisons end there, without loading the vectors;
 * counters equal in every class order nothing: gdt's first blocks run
 * once or once a day for every item). Distinct classes have distinct
 * vectors, so the order has no ties and is the same however it is
 * sorted: each thread sorts a chunk, then the chunks merge pairwise, each
 * merge cut into pieces of equal output (merge path) for the threads. */
struct lexkey {
    uint64_t k;
    long i;
};

/* the classes and the first counter after the key's */
struct lexctx {
    const struct classes *c;
    int from;
};

static inline int lex_less(const struct lexctx *c, const struct lexkey *a,
                           const struct lexkey *b)
{
    if (a->k != b->k)
        return a->k < b->k;
    const uint32_t *u = c->c->vec[a->i], *v = c->c->vec[b->i];
    for (int j = c->from; j < c->c->nb; j++)
        if (u[j] != v[j])
            return u[j] < v[j];
    return 0;
}

/* a[0, na) and b[0, nb) merged into o */
static void lex_merge(const struct lexctx *c, const struct lexkey *a, long na,
                      const struct lexkey *b, long nb, struct lexkey *o)
{
    long i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        o[k++] = lex_less(c, b + j, a + i) ? b[j++] : a[i++];
    while (i < na)
        o[k++] = a[i++];
    while (j < nb)
        o[k++] = b[j++];
}

static void lex_insertion(const struct lexctx *c, struct lexkey *a, long n)
{
    for (long q = 1; q < n; q++) {
        struct lexkey x = a[q];
        long p = q;
        while (p > 0 && lex_less(c, &x, a + p - 1)) {
            a[p] = a[p - 1];
            p--;
        }
        a[p] = x;
    }
}

static void lex_sort_to(const struct lexctx *c, struct lexkey *a, struct lexkey *t, long n);

/* a sorted in place, t (n entries) as scratch */
static void lex_sort_in(const struct lexctx *c, struct lexkey *a, struct lexkey *t, long n)
{
    if (n <= 16) {
        lex_insertion(c, a, n);
        return;
    }
    long h = n / 2;
    lex_sort_to(c, a, t, h);
    lex_sort_to(c, a + h, t + h, n - h);
    lex_merge(c, t, h, t + h, n - h, a);
}

/* a sorted into t, a as scratch */
static void lex_sort_to(const struct lexctx *c, struct lexkey *a, struct lexkey *t, long n)
{
    if (n <= 16) {
        memcpy(t, a, (size_t)n * sizeof *t);
        lex_insertion(c, t, n);
        return;
    }
    long h = n / 2;
    lex_sort_in(c, a, t, h);
    lex_sort_in(c, a + h, t + h, n - h);
    lex_merge(c, a, h, a + h, n - h, t);
}

/* how many of the d first entries of the merge of a (na) and b (nb) come
 * from a (no two entries equal) */
static long lex_corank(const struct lexctx *c, long d, const struct lexkey *a, long na,
                       const struct lexkey *b, long nb)
{
    long lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (lex_less(c, a + mid, b + d - 1 - mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static inline long chunk_lo(long n, long nc, long t)
{
    return t * (n / nc) + (t < n % nc ? t : n % nc);
}

long *dh__rg_sorted_classes(const struct classes *cl)
{
    long n = cl->n;
    int nt = dh_regroup_threads(n), nb = cl->nb;
    long *o = malloc((size_t)(n ? n : 1) * sizeof *o);
    struct lexkey *a = malloc((size_t)(n ? n : 1) * sizeof *a);
    struct lexkey *t = malloc((size_t)(n ? n : 1) * sizeof *t);
    long *run = malloc(((size_t)nt + 1) * sizeof *run);
    unsigned char *varies = calloc((size_t)nt * (size_t)nb + 1, 1);   /* a row a thread */
    if (!o || !a || !t || !run || !varies) {
        free(o); free(a); free(t); free(run); free(varies);
        return NULL;
    }
    /* the counters some class differs in from class 0 */
    if (n > 1) {
#pragma omp parallel num_threads(nt) if (nt > 1)
        {
            unsigned char *mine = varies + (size_t)omp_get_thread_num() * (size_t)nb;
            const uint32_t *v0 = cl->vec[0];
#pragma omp for schedule(static)
            for (long k = 1; k < n; k++)
                for (int j = 0; j < nb; j++)
                    mine[j] |= cl->vec[k][j] != v0[j];
        }
        for (int q = 1; q < nt; q++)
            for (int j = 0; j < nb; j++)
                varies[j] |= varies[(size_t)q * (size_t)nb + (size_t)j];
    }
    int j0 = 0, j1;
    while (j0 < nb && !varies[j0])
        j0++;
    for (j1 = j0 + 1; j1 < nb && !varies[j1]; j1++)
        ;
    free(varies);
    struct lexctx cx = {cl, j1 + 1 < nb ? j1 + 1 : nb}, *c = &cx;
    /* sorted runs: one per thread, in a */
#pragma omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1)
    for (int q = 0; q < nt; q++) {
        long lo = chunk_lo(n, nt, q), hi = chunk_lo(n, nt, q + 1);
        for (long k = lo; k < hi; k++) {
            const uint32_t *v = cl->vec[k];
            a[k].k = (j0 < nb ? (uint64_t)v[j0] << 32 : 0) | (j1 < nb ? v[j1] : 0);
            a[k].i = k;
        }
        lex_sort_in(c, a + lo, t + lo, hi - lo);
    }
    int nr = nt;
    for (int q = 0; q <= nt; q++)
        run[q] = chunk_lo(n, nt, q);
    /* merge runs pairwise, a -> t, until one is left; each pair's output
     * in nt pieces */
    while (nr > 1) {
        int np = (nr + 1) / 2;
#pragma omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1)
        for (long w = 0; w < (long)np * nt; w++) {
            int p = (int)(w / nt), piece = (int)(w % nt);
            long lo = run[2 * p], mid = run[2 * p + 1 < nr ? 2 * p + 1 : nr];
            long hi = run[2 * p + 2 <= nr ? 2 * p + 2 : nr];
            long na = mid - lo, nbb = hi - mid;
            long d0 = chunk_lo(na + nbb, nt, piece), d1 = chunk_lo(na + nbb, nt, piece + 1);
            long i0 = lex_corank(c, d0, a + lo, na, a + mid, nbb);
            long i1 = lex_corank(c, d1, a + lo, na, a + mid, nbb);
            lex_merge(c, a + lo + i0, i1 - i0, a + mid + d0 - i0, (d1 - i1) - (d0 - i0),
                      t + lo + d0);
        }
        for (int p = 0; p < np; p++)
            run[p] = run[2 * p];
        run[np] = n;
        nr = np;
        struct lexkey *x = a;
        a = t;
        t = x;
    }
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (long k = 0; k < n; k++)
        o[k] = a[k].i;
    free(a); free(t); free(run);
    return o;
}

static const struct classes *g_lat_c;
static int cmp_lat_desc(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    double u = g_lat_c->lat[x], v = g_lat_c->lat[y];
    if (u != v)
        return u > v ? -1 : 1;
    return g_lat_c->first[x] < g_lat_c->first[y] ? -1 : 1;
}

void dh__rg_sort_by_latency(const struct classes *c, long *order)
{
    g_lat_c = c;
    qsort(order, (size_t)c->n, sizeof *order, cmp_lat_desc);
}

/* ---- gains, four candidates at a time in AVX2 ----
 * A candidate's gain is a sum over the blocks in block order; with the
 * four candidates in the four lanes of one register every lane does the
 * scalar form's operations in the scalar form's order (min and max, the
 * exact conversions to double, a multiply, then an add: no fused
 * multiply-add), so the gains are bit for bit those of dh__rg_gain_mm.
 * The difference of the two conversions is exact either way. Where the CPU lacks AVX2, dh__rg_gains does it. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* x - 2^31 as double, exactly (the sign bit flipped, read as int32); the
 * gain takes a difference of two such, (lo - 2^31) - (d - 2^31), which is
 * lo - d exactly: integers below 2^33 are exact in a double */
__attribute__((target("avx2"))) static inline __m256d cvt_u32_biased(__m128i x)
{
    return _mm256_cvtepi32_pd(_mm_xor_si128(x, _mm_set1_epi32(INT32_MIN)));
}

/* 4 x 4 counters (rows: candidates, from block b) -> columns: blocks */
__attribute__((target("avx2"))) static inline void load4x4(const uint32_t *const *r, int b,
                                                             __m128i col[4])
{
    __m128 r0 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(r[0] + b)));
    __m128 r1 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(r[1] + b)));
    __m128 r2 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(r[2] + b)));
    __m128 r3 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(r[3] + b)));
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    col[0] = _mm_castps_si128(r0);
    col[1] = _mm_castps_si128(r1);
    col[2] = _mm_castps_si128(r2);
    col[3] = _mm_castps_si128(r3);
}

__attribute__((target("avx2"))) static inline __m256d gain_step(__m256d acc, double cost,
                                                                __m128i l, __m128i h,
                                                                __m128i a, __m128i z)
{
    __m128i lo = _mm_min_epu32(l, a), hi = _mm_max_epu32(h, z);
    __m256d t = _mm256_sub_pd(cvt_u32_biased(lo), cvt_u32_biased(_mm_sub_epi32(hi, lo)));
    return _mm256_add_pd(acc, _mm256_mul_pd(_mm256_set1_pd(cost), t));
}

__attribute__((target("avx2"))) static void gains_avx2(const double *cost, int nb,
                                                       const uint32_t *mn1, const uint32_t *mx1,
                                                       const uint32_t *const *mn2,
                                                       const uint32_t *const *mx2, int n,
                                                       double *g)
{
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        const uint32_t *const *a = mn2 + k, *const *z = mx2 + k;
        __m256d acc = _mm256_setzero_pd();
        int b = 0;
        /* the rows end at nb: four-wide loads only where four blocks remain */
        for (; b + 4 <= nb; b += 4) {
            __m128i A[4], Z[4];
            load4x4(a, b, A);
            load4x4(z, b, Z);
            for (int q = 0; q < 4; q++)
                acc = gain_step(acc, cost[b + q], _mm_set1_epi32((int)mn1[b + q]),
                                _mm_set1_epi32((int)mx1[b + q]), A[q], Z[q]);
        }
        /* the last one to three blocks: the last four loaded (a row has
         * four or more), the new ones taken in block order */
        if (b < nb && nb >= 4) {
            __m128i A[4], Z[4];
            load4x4(a, nb - 4, A);
            load4x4(z, nb - 4, Z);
            for (int q = 4 - (nb - b); q < 4; q++)
                acc = gain_step(acc, cost[nb - 4 + q], _mm_set1_epi32((int)mn1[nb - 4 + q]),
                                _mm_set1_epi32((int)mx1[nb - 4 + q]), A[q], Z[q]);
            b = nb;
        }
        for (; b < nb; b++)
            acc = gain_step(acc, cost[b], _mm_set1_epi32((int)mn1[b]),
                            _mm_set1_epi32((int)mx1[b]),
                            _mm_setr_epi32((int)a[0][b], (int)a[1][b], (int)a[2][b],
                                           (int)a[3][b]),
                            _mm_setr_epi32((int)z[0][b], (int)z[1][b], (int)z[2][b],
                                           (int)z[3][b]));
        _mm256_storeu_pd(g + k, acc);
    }
    for (; k < n; k++)
        g[k] = dh__rg_gain_mm(cost, nb, mn1, mx1, mn2[k], mx2[k]);
}

void dh__rg_gains_fast(const double *cost, int nb, const uint32_t *mn1, const uint32_t *mx1,
                         const uint32_t *const *mn2, const uint32_t *const *mx2, int n,
                         double *g)
{
    /* first asked from several threads at once (the window forms'
     * searches): each finds the same answer */
    static int avx2 = -1;
    int yes = __atomic_load_n(&avx2, __ATOMIC_RELAXED);
    if (yes < 0) {
        yes = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&avx2, yes, __ATOMIC_RELAXED);
    }
    if (yes)
        gains_avx2(cost, nb, mn1, mx1, mn2, mx2, n, g);
    else
        dh__rg_gains(cost, nb, mn1, mx1, mn2, mx2, n, g);
}
#else
void dh__rg_gains_fast(const double *cost, int nb, const uint32_t *mn1, const uint32_t *mx1,
                       const uint32_t *const *mn2, const uint32_t *const *mx2, int n, double *g)
{
    dh__rg_gains(cost, nb, mn1, mx1, mn2, mx2, n, g);
}
#endif

/* ---- gains in integers (regroup_common.h says when they are exact) ---- */

int dh__rg_int_costs(const double *cost, int nb, uint32_t top, int32_t *ci, double *scale)
{
    if (top >= 1u << 30)    /* 2 lo - hi stays an int32 */
        return 0;
    for (int s = 0; s <= 22; s++) {
        double sum = 0, f = ldexp(1.0, s);
        int ok = 1;
        for (int b = 0; b < nb && ok; b++) {
            double x = cost[b] * f;     /* exact: a power of two */
            ok = isfinite(x) && fabs(x) < 2147483648.0 && x == nearbyint(x);
            sum += fabs(x);
        }
        if (!ok)
            continue;
        /* 2 top sum|c| < 2^31 (sum is exact: integers below 2^53) */
        if (2.0 * (double)top * sum >= 2147483648.0)
            return 0;
        for (int b = 0; b < nb; b++)
            ci[b] = (int32_t)(cost[b] * f);
        *scale = ldexp(1.0, -s);
        return 1;
    }
    return 0;
}

static void gains_i16_plain(const int16_t *c16, int rs, int32_t k, double scale,
                            const uint16_t *r1, const uint16_t *const *r2, int n, double *g)
{
    for (int q = 0; q < n; q++) {
        int32_t S = k;
        for (int b = 0; b < rs; b++) {
            int32_t lo = r1[b] < r2[q][b] ? r1[b] : r2[q][b];
            int32_t hi = r1[rs + b] > r2[q][rs + b] ? r1[rs + b] : r2[q][rs + b];
            S += c16[b] * (2 * lo - hi);
        }
        g[q] = (double)S * scale;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* one candidate's eight partial sums: 16 blocks a step, their products
 * added in pairs (madd) */
__attribute__((target("avx2"))) static inline __m256i gsum_i16(const int16_t *c16, int rs,
                                                               const uint16_t *r1,
                                                               const uint16_t *r2)
{
    __m256i acc = _mm256_setzero_si256();
    for (int b = 0; b < rs; b += 16) {
        __m256i lo = _mm256_min_epu16(_mm256_loadu_si256((const __m256i *)(r1 + b)),
                                      _mm256_loadu_si256((const __m256i *)(r2 + b)));
        __m256i hi = _mm256_max_epu16(_mm256_loadu_si256((const __m256i *)(r1 + rs + b)),
                                      _mm256_loadu_si256((const __m256i *)(r2 + rs + b)));
        __m256i t = _mm256_sub_epi16(_mm256_add_epi16(lo, lo), hi);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(
                                        t, _mm256_loadu_si256((const __m256i *)(c16 + b))));
    }
    return acc;
}

__attribute__((target("avx2"))) static void gains_i16_avx2(const int16_t *c16, int rs,
                                                           int32_t k, double scale,
                                                           const uint16_t *r1,
                                                           const uint16_t *const *r2, int n,
                                                           double *g)
{
    __m256d sc = _mm256_set1_pd(scale);
    __m256i kk = _mm256_set1_epi32(k);
    int q = 0;
    for (; q + 8 <= n; q += 8) {
        __m256i a[8];
        for (int u = 0; u < 8; u++)
            a[u] = gsum_i16(c16, rs, r1, r2[q + u]);
        /* the eight candidates' sums side by side: pairwise adds, then
         * the two halves */
        __m256i t0 = _mm256_hadd_epi32(a[0], a[1]), t1 = _mm256_hadd_epi32(a[2], a[3]);
        __m256i t2 = _mm256_hadd_epi32(a[4], a[5]), t3 = _mm256_hadd_epi32(a[6], a[7]);
        __m256i u0 = _mm256_hadd_epi32(t0, t1), u1 = _mm256_hadd_epi32(t2, t3);
        __m256i s = _mm256_add_epi32(_mm256_permute2x128_si256(u0, u1, 0x20),
                                     _mm256_permute2x128_si256(u0, u1, 0x31));
        s = _mm256_add_epi32(s, kk);
        _mm256_storeu_pd(g + q, _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(s)), sc));
        _mm256_storeu_pd(g + q + 4,
                         _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(s, 1)), sc));
    }
    for (; q < n; q++) {
        __m256i a = gsum_i16(c16, rs, r1, r2[q]);
        __m128i h = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4e));
        h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xb1));
        g[q] = (double)(_mm_cvtsi128_si32(h) + k) * scale;
    }
}

int dh__rg_i16_plain;

void dh__rg_gains_i16(const int16_t *c16, int rs, int32_t k, double scale,
                      const uint16_t *r1, const uint16_t *const *r2, int n, double *g)
{
    static int avx2 = -1;   /* asked from several threads: the same answer */
    int yes = __atomic_load_n(&avx2, __ATOMIC_RELAXED);
    if (yes < 0) {
        yes = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&avx2, yes, __ATOMIC_RELAXED);
    }
    if (yes && !dh__rg_i16_plain)
        gains_i16_avx2(c16, rs, k, scale, r1, r2, n, g);
    else
        gains_i16_plain(c16, rs, k, scale, r1, r2, n, g);
}
#else
int dh__rg_i16_plain;

void dh__rg_gains_i16(const int16_t *c16, int rs, int32_t k, double scale,
                      const uint16_t *r1, const uint16_t *const *r2, int n, double *g)
{
    gains_i16_plain(c16, rs, k, scale, r1, r2, n, g);
}
#endif

/* ---- groups being formed ---- */

void dh__rg_gg_bounds(struct ggroup *g, const struct classes *c)
{
    int nb = c->nb;
    for (int b = 0; b < nb; b++) {
        g->mn[b] = UINT32_MAX;
        g->mx[b] = 0;
    }
    for (long r = 0; r < g->mem.n; r++) {
        const uint32_t *v = c->vec[g->mem.cls[r]];
        for (int b = 0; b < nb; b++) {
            if (v[b] < g->mn[b]) g->mn[b] = v[b];
            if (v[b] > g->mx[b]) g->mx[b] = v[b];
        }
    }
}

/* A merged group of `group` items or more: its first `group` items form a
 * finished group, the rest stay. */
int dh__rg_emit_first(struct ggroup *g, long group, struct seq *out)
{
    long need = group, r = 0;
    int rc;
    while (need > 0) {
        long t = g->mem.cnt[r] < need ? g->mem.cnt[r] : need;
        if ((rc = dh__rg_seq_push(out, g->mem.cls[r], t)))
            return rc;
        g->mem.cnt[r] -= t;
        need -= t;
        if (!g->mem.cnt[r])
            r++;
    }
    long w = 0;
    for (long q = r; q < g->mem.n; q++)
        if (g->mem.cnt[q]) {
            g->mem.cls[w] = g->mem.cls[q];
            g->mem.cnt[w++] = g->mem.cnt[q];
        }
    g->mem.n = w;
    g->size -= group;
    return 0;
}
