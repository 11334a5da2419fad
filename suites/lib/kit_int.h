/* kit_int.h — what kit.c, kit_device.c, kit_move.c, kit_verify.c and
 * kit_presort.c share inside the kit: the case on the device and cpu_tdr's
 * host work. Not for benchmarks (kit.h is theirs). */
#ifndef DH_KIT_INT_H
#define DH_KIT_INT_H

#include <stddef.h>
#include <stdlib.h>

#include "kit.h"

/* the case on the device, upload .. teardown */
struct dh_kcase {
    int rot, wg, cpu_tdr, rr;
    int host_done;                /* cpu_tdr: perm and stage hold this case's
                                     regrouping (reusable: dh_exec.host_reuse) */
    int present[DH_KIT_MAXBUF];
    const struct dh_kentry *entry;
    struct dh_buffer *dev[DH_KIT_MAXBUF][DH_KIT_MAXROT];
    struct dh_buffer *perm_buf;
    int *perm, *key;
    int *inv;                     /* dlt: perm's inverse (slot of each item) */
    int inv_ok;                   /* inv holds the inverse of this perm (the key
                                     sort made both, and no deal moved perm) */
    void *stage[DH_KIT_MAXBUF];   /* cpu_tdr: inputs in the regrouped order */
    /* cpu_tdr: what the device already holds of this regrouping (cleared
     * when the host work is redone), so a run that reuses it uploads
     * nothing the device has: its kernel then reads inputs as the
     * baseline's does, not just written by a copy; the copy's time is the
     * last one measured */
    unsigned char held[DH_KIT_MAXBUF][DH_KIT_MAXROT];
    double held_xfer[DH_KIT_MAXBUF];
    int perm_held;
    double perm_xfer;
    void *got[DH_KIT_MAXBUF];     /* outputs in item order */
    void *tmp;                    /* a download in the regrouped order; poison */
    size_t tmp_bytes;
};

static inline int dh__kit_is_input(const struct dh_kbuf *d)
{
    return d->role == DH_IN || d->role == DH_INOUT;
}

static inline int dh__kit_is_output(const struct dh_kbuf *d)
{
    return d->role == DH_OUT || d->role == DH_INOUT;
}

/* bytes of buffer b of the workload on the host */
static inline size_t dh__kit_bytes_of(const struct dh_khost *h, int b)
{
    return (size_t)h->count[b] * dh_ktype_size(h->kit->bufs[b].type);
}

/* a host array of the buffer's size, kept for the case */
static inline void *dh__kit_case_array(void **slot, size_t bytes)
{
    if (!*slot)
        *slot = malloc(bytes ? bytes : 1);
    return *slot;
}

/* the entry case c runs (cpu_tdr's: its own, else the baseline's; with
 * mech=rr "cpu_tdr/rr"), the entry declared for `variant` (NULL: none),
 * and whether a comma list holds a word (kit.c) */
const struct dh_kentry *dh__kit_entry(const struct dh_kit *k, const struct dh_case *c);
const struct dh_kentry *dh__kit_entry_named(const struct dh_kit *k, const char *variant);
int dh__kit_in_list(const char *list, const char *word);
/* a parameter's text, or its declared default; whether case c is cpu_tdr
 * with mech=rr; whether buffer b is one `variant` uses (kit.c) */
const char *dh__kit_text(const struct dh_case *c, const char *name);
int dh__kit_is_rr(const struct dh_case *c);
int dh__kit_used_by(const struct dh_kbuf *b, const char *variant);

/* element k of item i of a per-item buffer is at k * items + i: move the
 * buffer's columns into the order perm gives (back = 0: dst[j] = src[perm[j]])
 * or back (dst[perm[j]] = src[j]) */
/* judge n elements of one output against the reference into v (kit_verify.c) */
void dh__kit_compare(const struct dh_kbuf *d, const void *got, const void *want, long n,
                     long base, struct dh_verify *v);
void dh__kit_move_columns(const void *src, void *dst, const int *perm, long items, long count,
                          size_t es, int back);

/* dlt's moves of one buffer's columns into the regrouped order (in) and
 * back (out): through inv where inv_ok, else through perm */
void dh__kit_dlt_in(const struct dh_kcase *kc, const void *src, void *dst, long items,
                    long count, size_t es);
void dh__kit_dlt_out(const struct dh_kcase *kc, const void *src, void *dst, long items,
                     long count, size_t es);

/* dlt's forward move of every per-item input of the case into its stage
 * (through inv where inv_ok: a scatter that reads each input once) */
void dh__kit_move_inputs(struct dh_khost *h);

/* regroup=key: the case's perm from the benchmark's keys (a stable counting
 * sort; the same permutation for every thread count), and its inverse in
 * inv where the case has one (inv_ok); ctx->failed set where there are no
 * keys or a key is out of range */
struct dh__kit_key_ctx {
    struct dh_khost *h;
    int failed;
};
void dh__kit_by_key(void *ctx);

#endif
