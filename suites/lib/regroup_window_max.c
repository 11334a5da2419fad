/* regroup_window_max.c — Greedy-Max for workloads with many distinct
 * BBVs (regroup.h; its exact form is in regroup.c, Greedy's window form in
 * regroup_window.c): candidates among the DH_RG_WINDOW nearest classes in
 * lexicographic and in latency order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regroup_common.h"

/* greedymax over neighbourhoods: the seed is the costliest class left; a
 * group grows by the class of largest gain among the DH_RG_WINDOW nearest
 * classes with items left, in lexicographic and in latency order, around
 * the class added last */
struct olist {
    long *nx, *pv, *pos, *ord;
    uint32_t *vec;
    char *has;      /* per position: the class has items left (a scan reads
                     * it in sequence; left[] by class is all over memory) */
};

/* the classes in order ord, their vectors copied in that order (a scan
 * along the list then reads memory in sequence, not all over the table) */
static int olist_init(struct olist *o, long *ord, const struct classes *c)
{
    long n = c->n;
    int nb = c->nb;
    o->ord = ord;
    o->nx = malloc((size_t)n * sizeof *o->nx);
    o->pv = malloc((size_t)n * sizeof *o->pv);
    o->pos = malloc((size_t)n * sizeof *o->pos);
    o->vec = malloc((size_t)n * (size_t)nb * sizeof *o->vec);
    o->has = malloc((size_t)(n ? n : 1));
    if (!o->nx || !o->pv || !o->pos || !o->vec || !o->has)
        return -DH_E_RESOURCES;
    for (long q = 0; q < n; q++) {
        o->pos[ord[q]] = q;
        o->nx[q] = q + 1 < n ? q + 1 : -1;
        o->pv[q] = q - 1;
        o->has[q] = c->count[ord[q]] > 0;
        memcpy(o->vec + (size_t)q * (size_t)nb, c->vec[ord[q]], (size_t)nb * sizeof *o->vec);
    }
    return 0;
}

static void olist_drop(struct olist *o, long k)
{
    long q = o->pos[k];
    if (o->pv[q] >= 0) o->nx[o->pv[q]] = o->nx[q];
    if (o->nx[q] >= 0) o->pv[o->nx[q]] = o->pv[q];
}

static void olist_free(struct olist *o)
{
    free(o->nx); free(o->pv); free(o->pos); free(o->ord); free(o->vec); free(o->has);
}

/* the DH_RG_WINDOW classes after (fwd) or before position q of o, those
 * with items left as candidates: their gains are computed four at a time
 * (dh__rg_gains_fast, bit for bit dh__rg_gain_mm's), then taken in walk order,
 * so the first of equal gains wins as in a one-by-one scan */
static void scan_side(const struct olist *o, long q, int fwd,
                      const struct dh_bbv *b, const struct classes *c, const uint32_t *mn,
                      const uint32_t *mx, long *best, double *bg)
{
    const uint32_t *v[DH_RG_WINDOW] = {0};
    long who[DH_RG_WINDOW];
    double g[DH_RG_WINDOW];
    int n = 0;
    long p = fwd ? o->nx[q] : o->pv[q];
    for (int k = 0; k < DH_RG_WINDOW && p >= 0; k++, p = fwd ? o->nx[p] : o->pv[p]) {
        if (!o->has[p])
            continue;
        who[n] = o->ord[p];
        v[n++] = o->vec + (size_t)p * (size_t)c->nb;
    }
    dh__rg_gains_fast(b->block_cost, c->nb, mn, mx, v, v, n, g);
    for (int k = 0; k < n; k++)
        if (g[k] > *bg) {
            *bg = g[k];
            *best = who[k];
        }
}

int dh__rg_greedymax_window(const struct dh_bbv *b, const struct classes *c, int group,
                            struct seq *out)
{
    int nb = c->nb, rc = 0;
    struct olist L = {0}, X = {0};
    long *left = malloc((size_t)c->n * sizeof *left);
    char *gone = calloc((size_t)c->n, 1);
    uint32_t *mn = malloc((size_t)nb * 2 * sizeof *mn), *mx;
    long *lat = malloc((size_t)c->n * sizeof *lat);
    long *lex = dh__rg_sorted_classes(c);
    if (!left || !gone || !mn || !lat || !lex) {
        free(lat); free(lex);
        rc = -DH_E_RESOURCES;
        goto out;
    }
    mx = mn + nb;
    for (long k = 0; k < c->n; k++) {
        lat[k] = k;
        left[k] = c->count[k];
    }
    dh__rg_sort_by_latency(c, lat);
    if ((rc = olist_init(&L, lat, c)) || (rc = olist_init(&X, lex, c)))
        goto out;
    long head = 0;          /* position in L of the costliest class left */
    for (;;) {
        while (head >= 0 && !left[L.ord[head]])
            head = L.nx[head];
        if (head < 0)
            break;
        long k = L.ord[head], room = group;
        memcpy(mn, c->vec[k], (size_t)nb * 4);
        memcpy(mx, c->vec[k], (size_t)nb * 4);
        for (;;) {
            long t = left[k] < room ? left[k] : room;
            if ((rc = dh__rg_seq_push(out, k, t)))
                goto out;
            left[k] -= t;
            if (!left[k])
                L.has[L.pos[k]] = X.has[X.pos[k]] = 0;
            room -= t;
            if (!room)
                break;
            long best = -1;
            double bg = -1e300;
            scan_side(&X, X.pos[k], 1, b, c, mn, mx, &best, &bg);
            scan_side(&X, X.pos[k], 0, b, c, mn, mx, &best, &bg);
            scan_side(&L, L.pos[k], 1, b, c, mn, mx, &best, &bg);
            scan_side(&L, L.pos[k], 0, b, c, mn, mx, &best, &bg);
            if (!left[k] && !gone[k]) {     /* searched around; now unlink */
                if (L.ord[head] == k)
                    head = L.nx[head];
                olist_drop(&L, k);
                olist_drop(&X, k);
                gone[k] = 1;
            }
            if (best < 0) {
                /* nothing left near: the costliest class left fills on */
                while (head >= 0 && !left[L.ord[head]])
                    head = L.nx[head];
                if (head < 0)
                    break;
                best = L.ord[head];
            }
            k = best;
            for (int j = 0; j < nb; j++) {
                if (c->vec[k][j] < mn[j]) mn[j] = c->vec[k][j];
                if (c->vec[k][j] > mx[j]) mx[j] = c->vec[k][j];
            }
        }
        if (!left[k] && !gone[k]) {
            if (head >= 0 && L.ord[head] == k)
                head = L.nx[head];
            olist_drop(&L, k);
            olist_drop(&X, k);
            gone[k] = 1;
        }
    }
out:
    olist_free(&L);
    olist_free(&X);
    free(gone);
    free(left);
    free(mn);
    return rc;
}
