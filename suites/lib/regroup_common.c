/* regroup_common.c — the pieces regroup.c (the exact algorithms, the API)
 * and regroup_window.c (the neighbourhood forms) share: output sequences,
 * class orders, group bounds and the emission of a finished group
 * (regroup_common.h). Internal to suites/lib. */
#include "regroup_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <omp.h>

int dh_regroup_threads(long n)
{
    int t = omp_get_max_threads();
    long most = n / 32768 + 1;          /* at least 32K items a thread */
    return t < 1 ? 1 : t > most ? (int)most : t;
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

static const struct classes *g_sort_c;
static int cmp_lex(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    for (int j = 0; j < g_sort_c->nb; j++) {
        uint32_t u = g_sort_c->vec[x][j], v = g_sort_c->vec[y][j];
        if (u != v)
            return u < v ? -1 : 1;
    }
    return 0;
}

long *dh__rg_sorted_classes(const struct classes *c)
{
    long *o = malloc((size_t)c->n * sizeof *o);
    if (!o)
        return NULL;
    for (long k = 0; k < c->n; k++)
        o[k] = k;
    g_sort_c = c;
    qsort(o, (size_t)c->n, sizeof *o, cmp_lex);
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
    static int avx2 = -1;
    if (avx2 < 0)
        avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    if (avx2)
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
