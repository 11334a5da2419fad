/* kit_device.c — a declared benchmark's case on the device (kit.h):
 * upload, the timed run with cpu_tdr's host regrouping and dlt's moves,
 * the launch of an entry's kernel with its argument list, and teardown. */
#include "kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/support/expr.h"
#include "kit_int.h"
#include "regroup.h"

/* ---- the case on the device ---- */

static int copies_of(const struct dh_kbuf *d, int rot)
{
    return (d->flags & DH_KB_ROTATE) && d->role == DH_IN ? rot : 1;
}

int dh_kit_upload(void *state, struct dh_exec *x, struct dh_err *err)
{
    struct dh_khost *h = state;
    const struct dh_kit *k = h->kit;
    struct dh_kcase *kc = calloc(1, sizeof *kc);
    if (!kc)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    h->kc = kc;
    const struct dh_case *c = x->c;
    kc->wg = (int)dh_pset_num(&c->params, "wg", 256);
    kc->rot = x->rotate < 1 ? 1 : x->rotate > DH_KIT_MAXROT ? DH_KIT_MAXROT : x->rotate;
    x->rotate = kc->rot;                       /* what the memory estimate counts */
    /* presorted (the remap overhead): the case's own kernel on the input
     * regrouped as cpu_tdr regroups it, by the same machinery */
    kc->cpu_tdr = !strcmp(c->variant, "cpu_tdr") || x->presorted;
    kc->rr = dh__kit_is_rr(c) || (x->presorted && !strcmp(dh__kit_text(c, "mech"), "rr"));
    kc->entry = x->presorted && kc->rr ? dh__kit_entry_named(k, "gpu_tdr/rr") : dh__kit_entry(k, c);
    if (!kc->entry)
        return dh_err_set(err, DH_E_UNSUPPORTED, "%s has no kernel entry for %s",
                          c->bench_name, c->variant);
    size_t most = 0;
    int rc = 0;
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (!(kc->present[b] = dh__kit_used_by(d, c->variant)))
            continue;
        size_t bytes = dh__kit_bytes_of(h, b);
        most = bytes > most ? bytes : most;
        void *src = h->data[b];
        if (d->gather && !kc->cpu_tdr) {       /* made in the natural order */
            if (!dh__kit_case_array(&kc->stage[b], bytes))
                return dh_err_set(err, DH_E_RESOURCES, "out of host memory for %s", d->name);
            d->gather(h, NULL, kc->stage[b]);
            src = kc->stage[b];
        }
        void *zero = NULL;                     /* scratch starts at zero */
        if (d->role == DH_SCRATCH && !(src = zero = calloc(1, bytes)))
            return dh_err_set(err, DH_E_RESOURCES, "out of host memory for %s", d->name);
        for (int r = 0; r < copies_of(d, kc->rot) && !rc; r++) {
            rc = x->be->alloc(x->dev, bytes, &kc->dev[b][r], err);
            if (!rc && src)
                rc = x->be->copy(kc->dev[b][r], src, bytes, DH_TO_DEVICE, err);
        }
        free(zero);
        if (rc)
            return rc;
        if (kc->cpu_tdr && !kc->rr && dh__kit_is_input(d) && ((d->flags & DH_KB_ITEM) || d->gather)
            && !dh__kit_case_array(&kc->stage[b], bytes))
            return dh_err_set(err, DH_E_RESOURCES, "out of host memory for cpu_tdr's moved "
                              "copy of %s (%zu bytes)", d->name, bytes);
    }
    kc->tmp_bytes = most;
    if (!dh__kit_case_array(&kc->tmp, most))
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    if (kc->cpu_tdr) {
        kc->perm = malloc((size_t)h->items * sizeof *kc->perm);
        kc->key = malloc((size_t)h->items * sizeof *kc->key);
        if (!kc->rr)                           /* dlt moves through the inverse */
            kc->inv = malloc((size_t)h->items * sizeof *kc->inv);
        if (!kc->perm || !kc->key || (!kc->rr && !kc->inv))
            return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        if (kc->rr && (rc = x->be->alloc(x->dev, (size_t)h->items * 4, &kc->perm_buf, err)))
            return rc;
    }
    return 0;
}

void dh_kit_teardown(void *state, struct dh_exec *x)
{
    struct dh_khost *h = state;
    struct dh_kcase *kc = h->kc;
    if (!kc)
        return;
    for (int b = 0; b < DH_KIT_MAXBUF; b++) {
        for (int r = 0; r < DH_KIT_MAXROT; r++)
            if (kc->dev[b][r] && x)
                x->be->free_buffer(kc->dev[b][r]);
        free(kc->stage[b]);
        free(kc->got[b]);
    }
    if (kc->perm_buf && x)
        x->be->free_buffer(kc->perm_buf);
    free(kc->perm);
    free(kc->inv);
    free(kc->key);
    free(kc->tmp);
    free(kc);
    h->kc = NULL;
}

static int arg_of(struct dh_krun *r, const char *tok, struct dh_arg *a, struct dh_err *err)
{
    struct dh_khost *h = r->h;
    struct dh_kcase *kc = h->kc;
    int b = dh_kit_buf_index(h->kit, tok);
    if (b >= 0) {
        if (!kc->present[b])
            return dh_err_set(err, DH_E_INTERNAL, "buffer %s is not used by %s", tok,
                              r->x->c->variant);
        a->kind = DH_ARG_BUFFER;
        a->v.buf = kc->dev[b][copies_of(&h->kit->bufs[b], kc->rot) > 1 ? r->rot : 0];
        return 0;
    }
    if (!strcmp(tok, "perm")) {
        if (!kc->perm_buf)
            return dh_err_set(err, DH_E_INTERNAL, "argument perm outside cpu_tdr with mech=rr");
        a->kind = DH_ARG_BUFFER;
        a->v.buf = kc->perm_buf;
        return 0;
    }
    char *end;
    double f = strchr(tok, '.') ? strtod(tok, &end) : 0;
    if (strchr(tok, '.') && !*end) {          /* a float literal: 0.5 */
        a->kind = DH_ARG_F32;
        a->v.f32 = (float)f;
        return 0;
    }
    long v;
    char why[256];
    if (dh_expr_eval(tok, &h->vars, r->x->info ? r->x->info->warp_width : 32, 1024,
                     (double)h->items, &v, why, sizeof why))
        return dh_err_set(err, DH_E_DATA, "argument \"%s\": neither a buffer nor an "
                          "expression (%s)", tok, why);
    if (v < INT32_MIN || v > INT32_MAX)
        return dh_err_set(err, DH_E_DATA, "argument \"%s\" is %ld: beyond 32 bits", tok, v);
    a->kind = DH_ARG_I32;
    a->v.i32 = (int32_t)v;
    return 0;
}

int dh_kit_launch(struct dh_krun *r, const struct dh_kentry *e, size_t global, double *ms,
                  struct dh_err *err)
{
    struct dh_arg args[DH_KIT_MAXARG];
    int n = 0, rc;
    char tok[128];
    size_t wl;
    for (const char *p = e->args; (p = dh_kit_word(p, tok, sizeof tok, &wl));) {
        if (n == DH_KIT_MAXARG || wl >= sizeof tok)
            return dh_err_set(err, DH_E_DATA, "%s: more than %d arguments or one of over %zu "
                              "characters", e->entry, DH_KIT_MAXARG, sizeof tok - 1);
        if ((rc = arg_of(r, tok, &args[n++], err)))
            return rc;
    }
    struct dh_launch l = {.kernel = e->entry, .global = global ? global : (size_t)r->h->items,
                          .local = (size_t)r->h->kc->wg, .n_args = n, .args = args};
    return dh_exec_launch(r->x, &l, ms, err);
}

int dh_kit_run(void *state, struct dh_exec *x, int rep, struct dh_sample *smp,
               struct dh_err *err)
{
    struct dh_khost *h = state;
    const struct dh_kit *k = h->kit;
    struct dh_kcase *kc = h->kc;
    struct dh_krun run = {.h = h, .x = x, .rot = (rep < 0 ? -rep : rep) % kc->rot};
    int rc;
    memset(smp, 0, sizeof *smp);
    int dlt = kc->cpu_tdr && !kc->rr;
    /* the host work done for an earlier run of this case stands (the harness
     * times it on as many runs as its spread needs): not redone, not timed */
    int reuse = kc->cpu_tdr && kc->host_done && x->host_reuse;
    if (reuse)
        smp->host_ms = -1;
    if (kc->cpu_tdr && !reuse) {
        struct dh__kit_key_ctx ctx = {.h = h};
        kc->inv_ok = 0;                          /* the key sort makes inv */
        rc = dh_regroup_run(x, kc->perm, h->items, dh__kit_by_key, &ctx, &smp->host_ms, err);
        if (dh_pset_num(&x->c->params, "deal", 0))
            kc->inv_ok = 0;                      /* perm was dealt after it */
        if (rc)
            return rc;
        if (ctx.failed)
            return dh_err_set(err, DH_E_RESOURCES, "regroup=key: no keys (out of memory, no "
                              "sort key declared, or a key outside 0 .. keys-1)");
    }
    if (kc->cpu_tdr && !reuse) {
        memset(kc->held, 0, sizeof kc->held);
        kc->perm_held = 0;
    }
    if (kc->cpu_tdr && kc->rr) {
        if (!kc->perm_held) {
            double t0 = dh_now_ms();
            if ((rc = x->be->copy(kc->perm_buf, kc->perm, (size_t)h->items * 4, DH_TO_DEVICE,
                                  err)))
                return rc;
            kc->perm_xfer = dh_now_ms() - t0;
            kc->perm_held = 1;
        }
        smp->xfer_ms = kc->perm_xfer;            /* the index array is extra */
    }
    if (dlt && !reuse) {                         /* the data moved (host time) */
        double t0 = dh_now_ms();
        dh__kit_move_inputs(h);
        smp->host_ms += dh_now_ms() - t0;
    }
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (!kc->present[b] || !dh__kit_is_input(d))
            continue;
        struct dh_buffer *dst = kc->dev[b][copies_of(d, kc->rot) > 1 ? run.rot : 0];
        size_t bytes = dh__kit_bytes_of(h, b);
        if (dlt && ((d->flags & DH_KB_ITEM) || d->gather)) {
            int slot = copies_of(d, kc->rot) > 1 ? run.rot : 0;
            if (d->role == DH_IN && kc->held[b][slot]) {     /* reuse: on the device */
                if (d->gather)
                    smp->xfer_ms += kc->held_xfer[b];
                continue;
            }
            double t0 = dh_now_ms();
            if (d->gather && !reuse) {           /* made, not moved: host time too */
                d->gather(h, kc->perm, kc->stage[b]);
                smp->host_ms += dh_now_ms() - t0;
                t0 = dh_now_ms();
            }
            if ((rc = x->be->copy(dst, kc->stage[b], bytes, DH_TO_DEVICE, err)))
                return rc;
            kc->held_xfer[b] = dh_now_ms() - t0;
            kc->held[b][slot] = d->role == DH_IN;
            if (d->gather)                       /* bytes beyond any upload */
                smp->xfer_ms += kc->held_xfer[b];
        } else if (d->role == DH_INOUT
                   && (rc = x->be->copy(dst, h->data[b], bytes, DH_TO_DEVICE, err))) {
            return rc;                           /* in place: pristine every run */
        }
    }
    rc = k->launch ? k->launch(&run, kc->entry, &smp->kernel_ms, err)
                   : dh_kit_launch(&run, kc->entry, 0, &smp->kernel_ms, err);
    if (!rc && kc->cpu_tdr)
        kc->host_done = 1;
    if (rc || !dlt || reuse)
        return rc;
    /* dlt: results come back in the regrouped order; the download every
     * variant pays, putting them back is this variant's host work */
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (!kc->present[b] || !dh__kit_is_output(d) || !(d->flags & DH_KB_ITEM))
            continue;
        size_t bytes = dh__kit_bytes_of(h, b);
        if (!dh__kit_case_array(&kc->got[b], bytes))
            return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        if ((rc = x->be->copy(kc->dev[b][0], kc->tmp, bytes, DH_TO_HOST, err)))
            return rc;
        double t0 = dh_now_ms();
        dh__kit_dlt_out(kc, kc->tmp, kc->got[b], h->items, h->count[b], dh_ktype_size(d->type));
        smp->host_ms += dh_now_ms() - t0;
    }
    return 0;
}
