/* kit_move.c — cpu_tdr's host work for a declared benchmark: the key
 * regrouping (a stable counting sort over the benchmark's keys) and dlt's
 * moves of the per-item buffers into and out of the regrouped order
 * (kit_int.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kit_int.h"
#include "regroup.h"

/* element k of item i of a per-item buffer is at k * items + i */
void dh__kit_move_columns(const void *src, void *dst, const int *perm, long items, long count,
                         size_t es, int back)
{
    long cols = count / items;
    int nt = dh_regroup_threads(items);
    for (long k = 0; k < cols; k++) {
        const char *s = (const char *)src + (size_t)k * (size_t)items * es;
        char *d = (char *)dst + (size_t)k * (size_t)items * es;
        if (es == 4) {
            const uint32_t *s4 = (const uint32_t *)s;
            uint32_t *d4 = (uint32_t *)d;
            if (back) {
#pragma omp parallel for num_threads(nt) schedule(static)
                for (long j = 0; j < items; j++)
                    d4[perm[j]] = s4[j];
            } else {
#pragma omp parallel for num_threads(nt) schedule(static)
                for (long j = 0; j < items; j++)
                    d4[j] = s4[perm[j]];
            }
        } else {
#pragma omp parallel for num_threads(nt) schedule(static)
            for (long j = 0; j < items; j++) {
                if (back)
                    memcpy(d + (size_t)perm[j] * es, s + (size_t)j * es, es);
                else
                    memcpy(d + (size_t)j * es, s + (size_t)perm[j] * es, es);
            }
        }
    }
}

/* m columns gathered through one read of perm; two or three at a time
 * so that each loop is a straight run of loads and stores (a loop over
 * m inside the item loop is slower than moving them one by one) */
static void move_fused(const uint32_t *const *src, uint32_t *const *dst, int m,
                       const int *restrict perm, long n)
{
    int q = 0, nt = dh_regroup_threads(n);
    for (; m - q >= 3 && m - q != 4; q += 3) {
        const uint32_t *restrict s0 = src[q], *restrict s1 = src[q + 1], *restrict s2 = src[q + 2];
        uint32_t *restrict d0 = dst[q], *restrict d1 = dst[q + 1], *restrict d2 = dst[q + 2];
#pragma omp parallel for num_threads(nt) schedule(static)
        for (long j = 0; j < n; j++) {
            int p = perm[j];
            d0[j] = s0[p];
            d1[j] = s1[p];
            d2[j] = s2[p];
        }
    }
    for (; m - q >= 2; q += 2) {
        const uint32_t *restrict s0 = src[q], *restrict s1 = src[q + 1];
        uint32_t *restrict d0 = dst[q], *restrict d1 = dst[q + 1];
#pragma omp parallel for num_threads(nt) schedule(static)
        for (long j = 0; j < n; j++) {
            int p = perm[j];
            d0[j] = s0[p];
            d1[j] = s1[p];
        }
    }
    if (q < m) {
        const uint32_t *restrict s0 = src[q];
        uint32_t *restrict d0 = dst[q];
#pragma omp parallel for num_threads(nt) schedule(static)
        for (long j = 0; j < n; j++)
            d0[j] = s0[perm[j]];
    }
}

/* dlt's forward move of every per-item input: the 4-byte columns of the
 * same index moved together (one read of perm for all of them, as a
 * hand-written loop would), other element sizes buffer by buffer */
void dh__kit_move_inputs(struct dh_khost *h)
{
    const struct dh_kit *k = h->kit;
    struct dh_kcase *kc = h->kc;
    const int *perm = kc->perm;
    long n = h->items, most = 0;
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (!kc->present[b] || !dh__kit_is_input(d) || d->gather || !(d->flags & DH_KB_ITEM))
            continue;
        if (dh_ktype_size(d->type) != 4)
            dh__kit_move_columns(h->data[b], kc->stage[b], perm, n, h->count[b],
                         dh_ktype_size(d->type), 0);
        else if (h->count[b] / n > most)
            most = h->count[b] / n;
    }
    for (long c = 0; c < most; c++) {
        const uint32_t *src[DH_KIT_MAXBUF];
        uint32_t *dst[DH_KIT_MAXBUF];
        int m = 0;
        for (int b = 0; b < k->n_bufs; b++) {
            const struct dh_kbuf *d = &k->bufs[b];
            if (kc->present[b] && dh__kit_is_input(d) && !d->gather && (d->flags & DH_KB_ITEM)
                && dh_ktype_size(d->type) == 4 && c < h->count[b] / n) {
                src[m] = (const uint32_t *)h->data[b] + (size_t)c * (size_t)n;
                dst[m++] = (uint32_t *)kc->stage[b] + (size_t)c * (size_t)n;
            }
        }
        move_fused(src, dst, m, perm, n);
    }
}

/* regroup=key: the benchmark's keys, a stable counting sort */
void dh__kit_by_key(void *ctx)
{
    struct dh__kit_key_ctx *b = ctx;
    struct dh_khost *h = b->h;
    struct dh_kcase *kc = h->kc;
    const struct dh_kit *k = h->kit;
    const int *key = kc->key;
    int nk = 0;
    if (k->sort_by) {                   /* a declared key buffer: read in place */
        key = h->data[dh_kit_buf_index(k, k->sort_by)];
        nk = h->sort_nk;
    } else if (k->sort_key) {
        nk = k->sort_key(h, kc->key);
    }
    /* a stable counting sort over contiguous shares of the items: share t's
     * items of key q go after the earlier shares' (the same permutation
     * for every thread count) */
    long n = h->items;
    int nt = dh_regroup_threads(n), bad = 0;
    long *start = nk > 0 && key ? calloc((size_t)nt * (size_t)nk, sizeof *start) : NULL;
    if (!start) {
        b->failed = 1;
        return;
    }
#pragma omp parallel for num_threads(nt) schedule(static, 1) reduction(| : bad)
    for (int t = 0; t < nt; t++) {
        long *mine = start + (size_t)t * (size_t)nk;
        for (long i = n * t / nt, hi = n * (t + 1) / nt; i < hi; i++) {
            if ((unsigned)key[i] >= (unsigned)nk) {   /* a benchmark's bug, not a crash */
                bad = 1;
                break;
            }
            mine[key[i]]++;
        }
    }
    if (bad) {
        free(start);
        b->failed = 1;
        return;
    }
    long sum = 0;
    for (int q = 0; q < nk; q++)
        for (int t = 0; t < nt; t++) {
            long v = start[(size_t)t * (size_t)nk + (size_t)q];
            start[(size_t)t * (size_t)nk + (size_t)q] = sum;
            sum += v;
        }
    int *perm = kc->perm;
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; t++) {
        long *at = start + (size_t)t * (size_t)nk;
        for (long i = n * t / nt, hi = n * (t + 1) / nt; i < hi; i++)
            perm[at[key[i]]++] = (int)i;
    }
    free(start);
}
