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

int dh_hw_count_sort(const int *key, long n, int nk, int *perm, long *bad_item)
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
    int nt = dh_regroup_threads(n);
    long bad = LONG_MAX;
    /* each chunk's counts, zeroed by the thread that counts it */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) reduction(min : bad)
    for (long c = 0; c < nc; c++) {
        int *mine = cnt + (size_t)c * (size_t)nk;
        memset(mine, 0, (size_t)nk * sizeof *mine);
        for (long i = chunk_lo(n, nc, c), hi = chunk_lo(n, nc, c + 1); i < hi; i++) {
            unsigned k = (unsigned)key[i];
            if (k >= (unsigned)nk) {        /* a benchmark's bug, not a crash */
                bad = i < bad ? i : bad;
                break;
            }
            mine[k]++;
        }
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
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (long c = 0; c < nc; c++) {
        int *at = cnt + (size_t)c * (size_t)nk;
        for (long i = chunk_lo(n, nc, c), hi = chunk_lo(n, nc, c + 1); i < hi; i++)
            perm[at[key[i]]++] = (int)i;
    }
    free(cnt);
    return 0;
}

/* m columns gathered through one read of perm over [lo, hi); two or three
 * at a time so that each loop is a straight run of loads and stores (a
 * loop over m inside the item loop is slower than moving them one by one) */
static void gather_span(const uint32_t *const *src, uint32_t *const *dst, int m,
                        const int *restrict perm, long lo, long hi)
{
    int q = 0;
    for (; m - q >= 3 && m - q != 4; q += 3) {
        const uint32_t *restrict s0 = src[q], *restrict s1 = src[q + 1], *restrict s2 = src[q + 2];
        uint32_t *restrict d0 = dst[q], *restrict d1 = dst[q + 1], *restrict d2 = dst[q + 2];
        for (long j = lo; j < hi; j++) {
            int p = perm[j];
            d0[j] = s0[p];
            d1[j] = s1[p];
            d2[j] = s2[p];
        }
    }
    for (; m - q >= 2; q += 2) {
        const uint32_t *restrict s0 = src[q], *restrict s1 = src[q + 1];
        uint32_t *restrict d0 = dst[q], *restrict d1 = dst[q + 1];
        for (long j = lo; j < hi; j++) {
            int p = perm[j];
            d0[j] = s0[p];
            d1[j] = s1[p];
        }
    }
    if (q < m) {
        const uint32_t *restrict s0 = src[q];
        uint32_t *restrict d0 = dst[q];
        for (long j = lo; j < hi; j++)
            d0[j] = s0[perm[j]];
    }
}

void dh_hw_gather32(const uint32_t *const *src, uint32_t *const *dst, int m, const int *perm,
                    long n)
{
    if (n <= 0 || m <= 0)
        return;
    long nc = chunks_of(n, LONG_MAX);
    int nt = dh_regroup_threads(n * m);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (long c = 0; c < nc; c++)
        gather_span(src, dst, m, perm, chunk_lo(n, nc, c), chunk_lo(n, nc, c + 1));
}

/* one chunk of a move of elements of type T */
#define DH_HW_MOVE_T(T, s, d, perm, lo, hi, back)                                          \
    do {                                                                                 \
        const T *restrict s_ = (const T *)(s);                                           \
        T *restrict d_ = (T *)(d);                                                       \
        if (back)                                                                        \
            for (long j = (lo); j < (hi); j++)                                           \
                d_[(perm)[j]] = s_[j];                                                   \
        else                                                                             \
            for (long j = (lo); j < (hi); j++)                                           \
                d_[j] = s_[(perm)[j]];                                                   \
    } while (0)

void dh_hw_move(const void *src, void *dst, const int *perm, long n, long cols, size_t es,
                int back)
{
    if (n <= 0 || cols <= 0 || es == 0)
        return;
    long nc = chunks_of(n, LONG_MAX);
    int nt = dh_regroup_threads(n * cols);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (long c = 0; c < nc; c++) {
        long lo = chunk_lo(n, nc, c), hi = chunk_lo(n, nc, c + 1);
        for (long k = 0; k < cols; k++) {
            const char *s = (const char *)src + (size_t)k * (size_t)n * es;
            char *d = (char *)dst + (size_t)k * (size_t)n * es;
            switch (es) {
            case 1: DH_HW_MOVE_T(uint8_t, s, d, perm, lo, hi, back); break;
            case 2: DH_HW_MOVE_T(uint16_t, s, d, perm, lo, hi, back); break;
            case 4: DH_HW_MOVE_T(uint32_t, s, d, perm, lo, hi, back); break;
            case 8: DH_HW_MOVE_T(uint64_t, s, d, perm, lo, hi, back); break;
            default:
                for (long j = lo; j < hi; j++) {
                    if (back)
                        memcpy(d + (size_t)perm[j] * es, s + (size_t)j * es, es);
                    else
                        memcpy(d + (size_t)j * es, s + (size_t)perm[j] * es, es);
                }
            }
        }
    }
}
