/* kit_move.c — cpu_tdr's host work for a declared benchmark: the key
 * regrouping (a stable counting sort over the benchmark's keys) and dlt's
 * moves of the per-item buffers into and out of the regrouped order
 * (kit_int.h), on the array primitives of hostwork.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hostwork.h"
#include "kit_int.h"

/* element k of item i of a per-item buffer is at k * items + i */
void dh__kit_move_columns(const void *src, void *dst, const int *perm, long items, long count,
                         size_t es, int back)
{
    dh_hw_move(src, dst, perm, items, items > 0 ? count / items : 0, es, back);
}

void dh__kit_dlt_in(const struct dh_kcase *kc, const void *src, void *dst, long items,
                    long count, size_t es)
{
    if (kc->inv_ok)
        dh__kit_move_columns(src, dst, kc->inv, items, count, es, 1);
    else
        dh__kit_move_columns(src, dst, kc->perm, items, count, es, 0);
}

void dh__kit_dlt_out(const struct dh_kcase *kc, const void *src, void *dst, long items,
                     long count, size_t es)
{
    if (kc->inv_ok)
        dh__kit_move_columns(src, dst, kc->inv, items, count, es, 0);
    else
        dh__kit_move_columns(src, dst, kc->perm, items, count, es, 1);
}

/* dlt's forward move of every per-item input: the 4-byte columns of all
 * of them in one pass over perm or inv (those of the same index next to
 * each other, as a hand-written loop would move them), other element
 * sizes buffer by buffer */
void dh__kit_move_inputs(struct dh_khost *h)
{
    const struct dh_kit *k = h->kit;
    struct dh_kcase *kc = h->kc;
    long n = h->items, most = 0, cols = 0;
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (!kc->present[b] || !dh__kit_is_input(d) || d->gather || !(d->flags & DH_KB_ITEM))
            continue;
        if (dh_ktype_size(d->type) != 4) {
            dh__kit_dlt_in(kc, h->data[b], kc->stage[b], n, h->count[b],
                           dh_ktype_size(d->type));
        } else {
            cols += h->count[b] / n;
            most = h->count[b] / n > most ? h->count[b] / n : most;
        }
    }
    if (!cols)
        return;
    const uint32_t *one_src[DH_KIT_MAXBUF], **src = one_src;
    uint32_t *one_dst[DH_KIT_MAXBUF], **dst = one_dst;
    if (cols > DH_KIT_MAXBUF) {
        src = malloc((size_t)cols * sizeof *src);
        dst = malloc((size_t)cols * sizeof *dst);
    }
    int m = 0;
    for (long c = 0; src && dst && c < most; c++)
        for (int b = 0; b < k->n_bufs; b++) {
            const struct dh_kbuf *d = &k->bufs[b];
            if (kc->present[b] && dh__kit_is_input(d) && !d->gather && (d->flags & DH_KB_ITEM)
                && dh_ktype_size(d->type) == 4 && c < h->count[b] / n) {
                src[m] = (const uint32_t *)h->data[b] + (size_t)c * (size_t)n;
                dst[m++] = (uint32_t *)kc->stage[b] + (size_t)c * (size_t)n;
            }
        }
    if (src && dst) {
        if (kc->inv_ok)
            dh_hw_move32(src, dst, m, kc->inv, n, 1);
        else
            dh_hw_move32(src, dst, m, kc->perm, n, 0);
    } else {                            /* no memory for the list: column by column */
        for (int b = 0; b < k->n_bufs; b++) {
            const struct dh_kbuf *d = &k->bufs[b];
            if (kc->present[b] && dh__kit_is_input(d) && !d->gather && (d->flags & DH_KB_ITEM)
                && dh_ktype_size(d->type) == 4)
                dh__kit_dlt_in(kc, h->data[b], kc->stage[b], n, h->count[b], 4);
        }
    }
    if (src != one_src)
        free(src);
    if (dst != one_dst)
        free(dst);
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
    /* a stable counting sort (hostwork.h: the same permutation for every
     * thread count) */
    kc->inv_ok = 0;
    if (!key || nk < 1 || dh_hw_count_sort(key, h->items, nk, kc->perm, kc->inv, NULL))
        b->failed = 1;
    else
        kc->inv_ok = kc->inv != NULL;
}
