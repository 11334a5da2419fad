/* kit_verify.c — a declared benchmark's outputs: poisoned before a timed
 * run, read back (put back in item order after a dlt run) and judged
 * against the CPU reference, exactly or within the declared tolerance
 * (kit.h: dh_kit_poison, dh_kit_verify). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kit_int.h"

static void fill_poison(const struct dh_kbuf *d, void *p, long n)
{
    int64_t v = d->poison;
    switch (d->type) {
    case DH_T_F32: for (long i = 0; i < n; i++) ((float *)p)[i] = NAN; return;
    case DH_T_F64: for (long i = 0; i < n; i++) ((double *)p)[i] = NAN; return;
    case DH_T_U8: memset(p, v ? (int)v : 0xa5, (size_t)n); return;
    case DH_T_U16: for (long i = 0; i < n; i++) ((uint16_t *)p)[i] = v ? (uint16_t)v : 0xa5a5; return;
    case DH_T_I32: case DH_T_U32:
        for (long i = 0; i < n; i++) ((int32_t *)p)[i] = v ? (int32_t)v : INT32_MIN + 1;
        return;
    case DH_T_I64: for (long i = 0; i < n; i++) ((int64_t *)p)[i] = v ? v : INT64_MIN + 1; return;
    }
}

int dh_kit_poison(void *state, struct dh_exec *x, struct dh_err *err)
{
    struct dh_khost *h = state;
    struct dh_kcase *kc = h->kc;
    for (int b = 0; b < h->kit->n_bufs; b++) {
        const struct dh_kbuf *d = &h->kit->bufs[b];
        if (!kc->present[b] || d->role != DH_OUT)
            continue;
        fill_poison(d, kc->tmp, h->count[b]);
        int rc = x->be->copy(kc->dev[b][0], kc->tmp, dh__kit_bytes_of(h, b), DH_TO_DEVICE, err);
        if (rc)
            return rc;
    }
    return 0;
}

static double elem(enum dh_ktype t, const void *p, long i)
{
    switch (t) {
    case DH_T_U8: return ((const uint8_t *)p)[i];
    case DH_T_U16: return ((const uint16_t *)p)[i];
    case DH_T_I32: return ((const int32_t *)p)[i];
    case DH_T_U32: return ((const uint32_t *)p)[i];
    case DH_T_F32: return ((const float *)p)[i];
    case DH_T_I64: return (double)((const int64_t *)p)[i];
    case DH_T_F64: return ((const double *)p)[i];
    }
    return 0;
}

static int same_bits(enum dh_ktype t, const void *a, const void *b, long i)
{
    size_t es = dh_ktype_size(t);
    return !memcmp((const char *)a + (size_t)i * es, (const char *)b + (size_t)i * es, es);
}

static void compare_elems(const struct dh_kbuf *d, const void *got, const void *want, long from,
                          long to, long base, struct dh_verify *v)
{
    int fp = d->type == DH_T_F32 || d->type == DH_T_F64;
    for (long i = from; i < to; i++) {
        double g = elem(d->type, got, i), w = elem(d->type, want, i);
        int bad = d->tol > 0 ? !(fabs(g - w) <= d->tol * fmax(1.0, fabs(w)))
                  : fp       ? !(g == w)                /* NaN is never right */
                             : !same_bits(d->type, got, want, i);
        dh_verify_add(v, base + i, g, w, bad);
    }
}

/* An integer buffer's elements that are bit for bit the reference's add
 * nothing but their count (error 0, not bad), so a run of them is
 * counted after one memcmp; only a chunk that differs is judged element
 * by element. The record (checked, mismatches, largest error, the first
 * mismatches in index order) is the element loop's. Floating-point
 * buffers always take the element loop (equal bits can be a NaN, and
 * -0 equals 0). A 1G-element output took 10 s a check element by
 * element (darm/dct at size large). */
#define DH_KIT_CMP_CHUNK 65536

void dh__kit_compare(const struct dh_kbuf *d, const void *got, const void *want, long n,
                     long base, struct dh_verify *v)
{
    if (d->type == DH_T_F32 || d->type == DH_T_F64) {
        compare_elems(d, got, want, 0, n, base, v);
        return;
    }
    size_t es = dh_ktype_size(d->type);
    for (long i = 0; i < n; i += DH_KIT_CMP_CHUNK) {
        long end = n - i < DH_KIT_CMP_CHUNK ? n : i + DH_KIT_CMP_CHUNK;
        if (!memcmp((const char *)got + (size_t)i * es, (const char *)want + (size_t)i * es,
                    (size_t)(end - i) * es))
            v->checked += end - i;
        else
            compare_elems(d, got, want, i, end, base, v);
    }
}

int dh_kit_verify(void *state, struct dh_exec *x, struct dh_verify *v, struct dh_err *err)
{
    struct dh_khost *h = state;
    const struct dh_kit *k = h->kit;
    struct dh_kcase *kc = h->kc;
    int dlt = kc->cpu_tdr && !kc->rr;
    memset(v, 0, sizeof *v);
    long base = 0;
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (!kc->present[b] || !dh__kit_is_output(d))
            continue;
        size_t bytes = dh__kit_bytes_of(h, b);
        if (!dh__kit_case_array(&kc->got[b], bytes))
            return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        int moved = dlt && (d->flags & DH_KB_ITEM);
        int rc = x->be->copy(kc->dev[b][0], moved ? kc->tmp : kc->got[b], bytes, DH_TO_HOST,
                             err);
        if (rc)
            return rc;
        if (moved)          /* the device holds the regrouped order of the last run */
            dh__kit_move_columns(kc->tmp, kc->got[b], kc->perm, h->items, h->count[b],
                         dh_ktype_size(d->type), 1);
        if (d->flags & DH_KB_OWN)           /* verify_more judges it */
            continue;
        dh__kit_compare(d, kc->got[b], h->want[b], h->count[b], base, v);
        base += h->count[b];
    }
    if (k->verify_more)
        k->verify_more(h, kc->got, base, v);
    return 0;
}
