/* hostwork.c — the stable counting sort, gathers and put-backs of
 * cpu_tdr's host work, over dynamically scheduled chunks (hostwork.h). */
#include "hostwork.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "regroup.h"

/* chunk c of nc over n items: [lo, hi) */
static inline long chunk_lo(long n, long nc, long c)
{
    return c * (n / nc) + (c < n % nc ? c : n % nc);
}

/* chunks over n items: DH_HW_CHUNK items each, at most `most` */
static long chunks_of(long n, long most)
{
    long nc = (n + DH_HW_CHUNK - 1) / DH_HW_CHUNK;
    if (nc > most)
        nc = most;
    return nc < 1 ? 1 : nc;
}

int dh_hw_count_sort(const int *key, long n, int nk, int *perm, int *inv, long *bad_item)
{
    if (n <= 0)
        return 0;
    if (n > INT_MAX)
        return -2;
    if (nk < 1) {
        if (bad_item)
            *bad_item = 0;
        return -1;
    }
    /* chunks x keys counts: at most about 2n + 64K of them, so that many
     * keys over few items do not make the table the work */
    long table = 2 * n > 65536 ? 2 * n : 65536;
    long nc = chunks_of(n, table / nk > 0 ? table / nk : 1);
    int *cnt = malloc((size_t)nc * (size_t)nk * sizeof *cnt);
    if (!cnt)
        return -2;
    int nt = dh_regroup_threads(n), oom = 0;
    long bad = LONG_MAX;
    /* each chunk counted in its thread's own array, then copied to its row:
     * rows of few keys share cache lines, and counting in them from
     * several threads at once is false sharing on every item */
#pragma omp parallel num_threads(nt) reduction(min : bad) reduction(| : oom)
    {
        int small[256], *mine = nk <= 256 ? small : malloc((size_t)nk * sizeof *mine);
        oom = !mine;
#pragma omp for schedule(dynamic, 1) nowait
        for (long c = 0; c < nc; c++) {
            if (!mine)
                continue;
            memset(mine, 0, (size_t)nk * sizeof *mine);
            for (long i = chunk_lo(n, nc, c), hi = chunk_lo(n, nc, c + 1); i < hi; i++) {
                unsigned k = (unsigned)key[i];
                if (k >= (unsigned)nk) {    /* a benchmark's bug, not a crash */
                    bad = i < bad ? i : bad;
                    break;
                }
                mine[k]++;
            }
            memcpy(cnt + (size_t)c * (size_t)nk, mine, (size_t)nk * sizeof *mine);
        }
        if (mine != small)
            free(mine);
    }
    if (oom) {
        free(cnt);
        return -2;
    }
    if (bad != LONG_MAX) {
        free(cnt);
        if (bad_item)
            *bad_item = bad;
        return -1;
    }
    /* chunk c's items of key q go after every item of a smaller key and
     * after the earlier chunks' items of key q */
    if (nc * nk <= 65536) {
        int sum = 0;
        for (int q = 0; q < nk; q++)
            for (long c = 0; c < nc; c++) {
                int v = cnt[(size_t)c * (size_t)nk + (size_t)q];
                cnt[(size_t)c * (size_t)nk + (size_t)q] = sum;
                sum += v;
            }
    } else {
        int *tot = malloc((size_t)nk * sizeof *tot);
        if (!tot) {
            free(cnt);
            return -2;
        }
#pragma omp parallel for num_threads(nt) schedule(static)
        for (int q = 0; q < nk; q++) {
            int s = 0;
            for (long c = 0; c < nc; c++)
                s += cnt[(size_t)c * (size_t)nk + (size_t)q];
            tot[q] = s;
        }
        int sum = 0;
        for (int q = 0; q < nk; q++) {
            int v = tot[q];
            tot[q] = sum;
            sum += v;
        }
#pragma omp parallel for num_threads(nt) schedule(static)
        for (int q = 0; q < nk; q++) {
            int s = tot[q];
            for (long c = 0; c < nc; c++) {
                int v = cnt[(size_t)c * (size_t)nk + (size_t)q];
                cnt[(size_t)c * (size_t)nk + (size_t)q] = s;
                s += v;
            }
        }
        free(tot);
    }
#pragma omp parallel num_threads(nt) reduction(| : oom)
    {
        int small[256], *at = nk <= 256 ? small : malloc((size_t)nk * sizeof *at);
        oom = !at;
#pragma omp for schedule(dynamic, 1) nowait
        for (long c = 0; c < nc; c++) {
            if (!at)
                continue;
            memcpy(at, cnt + (size_t)c * (size_t)nk, (size_t)nk * sizeof *at);
            long lo = chunk_lo(n, nc, c), hi = chunk_lo(n, nc, c + 1);
            if (inv)
                for (long i = lo; i < hi; i++) {
                    int s = at[key[i]]++;
                    perm[s] = (int)i;
                    inv[i] = s;
                }
            else
                for (long i = lo; i < hi; i++)
                    perm[at[key[i]]++] = (int)i;
        }
        if (at != small)
            free(at);
    }
    if (oom) {
        free(cnt);
        return -2;
    }
    free(cnt);
    return 0;
}

/* columns per task of a multi-column move: a chunk of idx is read once
 * for them */
#define DH_HW_GROUP 8

/* tasks of a move over n items in `groups` column groups: chunk-major,
 * so that the tasks of one chunk run together and share its idx */
static long tasks_of(long n, long groups, long *nc)
{
    *nc = chunks_of(n, LONG_MAX);
    return *nc * groups;
}

/* m columns moved through one read of idx over [lo, hi); two or three at
 * a time so that each loop is a straight run of loads and stores (a loop
 * over m inside the item loop is slower than moving them one by one) */
#define DH_HW_SPAN(P, Q)                                                                   \
    do {                                                                                 \
        int q = 0;                                                                       \
        for (; m - q >= 3 && m - q != 4; q += 3) {                                       \
            const uint32_t *restrict s0 = src[q], *restrict s1 = src[q + 1],             \
                           *restrict s2 = src[q + 2];                                    \
            uint32_t *restrict d0 = dst[q], *restrict d1 = dst[q + 1],                   \
                     *restrict d2 = dst[q + 2];                                          \
            for (long j = lo; j < hi; j++) {                                             \
                long p = idx[j];                                                         \
                d0[P] = s0[Q];                                                           \
                d1[P] = s1[Q];                                                           \
                d2[P] = s2[Q];                                                           \
            }                                                                            \
        }                                                                                \
        for (; m - q >= 2; q += 2) {                                                     \
            const uint32_t *restrict s0 = src[q], *restrict s1 = src[q + 1];             \
            uint32_t *restrict d0 = dst[q], *restrict d1 = dst[q + 1];                   \
            for (long j = lo; j < hi; j++) {                                             \
                long p = idx[j];                                                         \
                d0[P] = s0[Q];                                                           \
                d1[P] = s1[Q];                                                           \
            }                                                                            \
        }                                                                                \
        if (q < m) {                                                                     \
            const uint32_t *restrict s0 = src[q];                                        \
            uint32_t *restrict d0 = dst[q];                                              \
            for (long j = lo; j < hi; j++) {                                             \
                long p = idx[j];                                                         \
                d0[P] = s0[Q];                                                           \
            }                                                                            \
        }                                                                                \
    } while (0)

static void gather_span(const uint32_t *const *src, uint32_t *const *dst, int m,
                        const int *restrict idx, long lo, long hi)
{
    DH_HW_SPAN(j, p);
}

static void scatter_span(const uint32_t *const *src, uint32_t *const *dst, int m,
                         const int *restrict idx, long lo, long hi)
{
    DH_HW_SPAN(p, j);
}

void dh_hw_move32(const uint32_t *const *src, uint32_t *const *dst, int m, const int *idx,
                  long n, int back)
{
    if (n <= 0 || m <= 0)
        return;
    long groups = (m + DH_HW_GROUP - 1) / DH_HW_GROUP, nc;
    long tasks = tasks_of(n, groups, &nc);
    int nt = dh_regroup_threads(n * m);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (long t = 0; t < tasks; t++) {
        long c = t / groups, g = (t % groups) * DH_HW_GROUP;
        int mg = m - g < DH_HW_GROUP ? (int)(m - g) : DH_HW_GROUP;
        if (back)
            scatter_span(src + g, dst + g, mg, idx, chunk_lo(n, nc, c), chunk_lo(n, nc, c + 1));
        else
            gather_span(src + g, dst + g, mg, idx, chunk_lo(n, nc, c), chunk_lo(n, nc, c + 1));
    }
}

/* one chunk of a move of elements of type T */
#define DH_HW_MOVE_T(T, s, d, idx, lo, hi, back)                                          \
    do {                                                                                 \
        const T *restrict s_ = (const T *)(s);                                           \
        T *restrict d_ = (T *)(d);                                                       \
        if (back)                                                                        \
            for (long j = (lo); j < (hi); j++)                                           \
                d_[(idx)[j]] = s_[j];                                                    \
        else                                                                             \
            for (long j = (lo); j < (hi); j++)                                           \
                d_[j] = s_[(idx)[j]];                                                    \
    } while (0)

void dh_hw_move(const void *src, void *dst, const int *idx, long n, long cols, size_t es,
                int back)
{
    if (n <= 0 || cols <= 0 || es == 0)
        return;
    long nc, tasks = tasks_of(n, cols, &nc);
    int nt = dh_regroup_threads(n * cols);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (long t = 0; t < tasks; t++) {
        long c = t / cols, k = t % cols;
        long lo = chunk_lo(n, nc, c), hi = chunk_lo(n, nc, c + 1);
        const char *s = (const char *)src + (size_t)k * (size_t)n * es;
        char *d = (char *)dst + (size_t)k * (size_t)n * es;
        switch (es) {
        case 1: DH_HW_MOVE_T(uint8_t, s, d, idx, lo, hi, back); break;
        case 2: DH_HW_MOVE_T(uint16_t, s, d, idx, lo, hi, back); break;
        case 4: DH_HW_MOVE_T(uint32_t, s, d, idx, lo, hi, back); break;
        case 8: DH_HW_MOVE_T(uint64_t, s, d, idx, lo, hi, back); break;
        default:
            for (long j = lo; j < hi; j++) {
                if (back)
                    memcpy(d + (size_t)idx[j] * es, s + (size_t)j * es, es);
                else
                    memcpy(d + (size_t)j * es, s + (size_t)idx[j] * es, es);
            }
        }
    }
}
